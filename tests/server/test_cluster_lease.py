"""An action is stored only while its node holds the table's lease (``Cluster.insert_under_lease``):
the check, the lock on the lease row and the insert are one statement, and a node that lost the
table stores nothing, not even the hand results or the game's end that came with the action."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from israeli_whist.server.cluster import Cluster, LeaseLost
from israeli_whist.server.db import SeatRow, Store, TableRow

TABLE = "leased"


@pytest.fixture
def store(postgres_url: str) -> Iterator[Store]:
    store = Store(postgres_url)
    row = TableRow(id=TABLE, game="israeli", preset=None, options={}, seed="s", first_dealer=0, public=True,
                   invite="inv", status="playing", move_timer=None, created_by=None, totals=None)
    store.add_table(row, [SeatRow(n, "human", None, None) for n in range(4)])
    yield store
    store.close()


def nodes(store: Store, postgres_url: str) -> tuple[Cluster, Cluster]:
    return Cluster(store, postgres_url, "north", 10), Cluster(store, postgres_url, "south", 10)


def append(store: Store, cluster: Cluster, seq: int, finished: bool = False) -> None:
    store.append_action(TABLE, seq, seq % 4, 100 + seq, False, finished_totals=[1, 2, 3, 4] if finished else None,
                        insert_action=cluster.insert_under_lease)


def test_the_lease_holder_stores_its_actions(store: Store, postgres_url: str) -> None:
    north, _ = nodes(store, postgres_url)
    assert north.claim(TABLE)
    append(store, north, 0)
    append(store, north, 1)
    assert store.actions_of(TABLE) == [(0, 0, 100), (1, 1, 101)]


def test_a_node_that_never_held_the_table_stores_nothing(store: Store, postgres_url: str) -> None:
    north, south = nodes(store, postgres_url)
    assert north.claim(TABLE)
    with pytest.raises(LeaseLost):
        append(store, south, 0)
    assert store.actions_of(TABLE) == []


def test_a_node_whose_lease_ran_out_and_was_taken_stores_nothing(store: Store, postgres_url: str) -> None:
    north, south = nodes(store, postgres_url)
    assert north.claim(TABLE)
    append(store, north, 0)
    with store.begin() as c:  # north stalled past its lease
        c.execute(text("UPDATE table_owners SET expires_at = expires_at - interval '1 hour'"))
    with pytest.raises(LeaseLost):  # expired, even before anyone claims it
        append(store, north, 1)
    assert south.claim(TABLE)
    with pytest.raises(LeaseLost):  # and the game's end that came with the action is not stored either
        append(store, north, 1, finished=True)
    assert store.actions_of(TABLE) == [(0, 0, 100)]
    table = store.table(TABLE)
    assert table is not None and table.status == "playing" and table.totals is None
    append(store, south, 1)
    assert store.actions_of(TABLE) == [(0, 0, 100), (1, 1, 101)]


def test_an_action_number_already_stored_is_refused_under_the_lease(store: Store, postgres_url: str) -> None:
    north, _ = nodes(store, postgres_url)
    assert north.claim(TABLE)
    append(store, north, 0)
    with pytest.raises(IntegrityError):
        append(store, north, 0)
    assert store.actions_of(TABLE) == [(0, 0, 100)]
