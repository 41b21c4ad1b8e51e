"""One rule decides who sees a table (``israeli_whist.server.access``), asked the same way by every path:
the live table (its page, join, its WebSocket) and its finished game (replay, record, analysis,
the history list). A private table is seen by its creator, its seated players and holders of its
invite, whether it is playing or over."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from history_kit import play_to_the_end
from server_kit import Player, create_table, join, sign_in, use
from sqlalchemy import select

from israeli_whist.server.access import Visibility, live_visibility, may_see, stored_visibility, visible_to
from israeli_whist.server.app import create_app
from israeli_whist.server.db import SeatRow, Store, TableRow, tables
from israeli_whist.server.history import table_row
from israeli_whist.server.live import LiveTable
from israeli_whist.server.settings import ServerSettings
from israeli_whist.server.workers import ThreadThinkers

# Who is who at the private table of the tests below, and whether the rule lets them see it.
ROLES = {"creator": True, "seated": True, "stranger": False, "nobody": False}


@pytest.fixture
def client(app_settings: ServerSettings) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings)) as test_client:
        yield test_client


def live_sees(client: TestClient, who: Player | None, table_id: str, invite: str | None) -> bool:
    """What the live paths say: the table's page and its WebSocket, which must agree."""
    query = f"?invite={invite}" if invite else ""
    page = use(client, who).get(f"/api/tables/{table_id}{query}").status_code
    assert page in (200, 403)
    with use(client, who).websocket_connect(f"/ws/tables/{table_id}{query}") as ws:
        frame = ws.receive()
    socket: bool = frame["type"] == "websocket.send"
    assert socket or frame.get("code") == 4403
    assert socket == (page == 200), (who, invite, page, frame)
    return socket


def finished_sees(client: TestClient, who: Player | None, table_id: str, invite: str | None) -> bool:
    """What the paths of finished games say: the replay and the record, which must agree."""
    query = f"?invite={invite}" if invite else ""
    replay: int = use(client, who).get(f"/api/games/{table_id}{query}").status_code
    record: int = use(client, who).get(f"/api/games/{table_id}/record{query}").status_code
    assert replay == record and replay in (200, 403)
    return replay == 200


def listed(client: TestClient, who: Player | None, table_id: str) -> bool:
    games = use(client, who).get("/api/history").json()["games"]
    return table_id in {game["id"] for game in games}


def test_a_private_table_is_seen_by_the_same_people_playing_and_finished(client: TestClient) -> None:
    creator, seated, stranger = sign_in(client, "Ann"), sign_in(client, "Bob"), sign_in(client, "Cid")
    people: dict[str, Player | None] = {"creator": creator, "seated": seated, "stranger": stranger, "nobody": None}
    # The creator only watches: a rule that asked only for a seat would hide the table from them.
    table = create_table(client, creator, "hbbb", public=False, take_seat=None)
    table_id, invite = table["id"], table["invite"]
    join(client, seated, table_id, 0, invite)
    for role, who in people.items():
        assert live_sees(client, who, table_id, None) is ROLES[role], role
        assert live_sees(client, who, table_id, invite), role
        assert not live_sees(client, who, table_id, "wrong") or ROLES[role], role
        assert not live_sees(client, who, table_id, "%ED%A0%80") or ROLES[role], role  # any bytes: no error
    play_to_the_end(use(client, seated), table_id)
    for role, who in people.items():
        assert finished_sees(client, who, table_id, None) is ROLES[role], role
        assert finished_sees(client, who, table_id, invite), role
        assert listed(client, who, table_id) is ROLES[role], role  # the list holds no invite
        # The finished table's own page asks the same rule.
        assert live_sees(client, who, table_id, None) is ROLES[role], role


def test_a_public_table_is_seen_by_everyone(client: TestClient) -> None:
    ann, bob = sign_in(client, "Ann"), sign_in(client, "Bob")
    table_id = create_table(client, ann, "hbbb")["id"]
    assert live_sees(client, bob, table_id, None) and live_sees(client, None, table_id, None)
    play_to_the_end(use(client, ann), table_id)
    assert finished_sees(client, None, table_id, None) and listed(client, None, table_id)


def test_the_live_and_stored_tables_and_the_sql_rule_agree(tmp_path: Path) -> None:
    """For every kind of table and viewer, one answer: ``may_see`` of the live table, of the
    stored one, and the history list's SQL (``visible_to``, which holds no invite)."""
    store = Store(f"sqlite:///{tmp_path / 'access.db'}")
    try:
        users = [store.add_user(name) for name in ("Ann", "Bob", "Cid")]
        made = []
        kinds = itertools.product((True, False), (None, *users[:2]), (None, *users[:2]))
        for number, (public, creator, sitter) in enumerate(kinds):
            row = TableRow(id=f"t{number}", game="israeli", preset=None, options={}, seed="s", first_dealer=0,
                           public=public, invite=f"invite{number}", status="finished", move_timer=None,
                           created_by=creator, totals=None)
            seat_rows = [SeatRow(0, "human", None, sitter), SeatRow(1, "bot", "basic", None),
                         SeatRow(2, "human", None, None), SeatRow(3, "bot", "basic", None)]
            store.add_table(row, seat_rows)
            made.append((row, LiveTable(row, seat_rows, {}, store, bot_delay=0.0, grace_seconds=1.0,
                                        thinkers=ThreadThinkers())))
        with store.begin() as c:
            for (row, table), viewer in itertools.product(made, (None, *users)):
                stored_row = table_row(c, row.id)
                assert stored_row is not None
                stored = stored_visibility(c, stored_row)
                assert live_visibility(table) == stored
                listed = c.execute(select(tables.c.id).where(tables.c.id == row.id, visible_to(viewer))).first()
                assert may_see(stored, viewer, None) == (listed is not None), (row, viewer)
                assert may_see(stored, viewer, row.invite)
    finally:
        store.close()


def test_the_rule() -> None:
    private = Visibility(public=False, invite="secret", created_by=1, seated=frozenset({2}))
    assert [may_see(private, viewer, None) for viewer in (None, 1, 2, 3)] == [False, True, True, False]
    assert all(may_see(private, viewer, "secret") for viewer in (None, 3))
    assert not any(may_see(private, 3, wrong) for wrong in ("", "secre", "secret ", "\ud800", "sécret"))
    assert all(may_see(Visibility(True, "x", None, frozenset()), viewer, None) for viewer in (None, 3))


def test_stored_visibility_reads_the_seats(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'access.db'}")
    try:
        ann, bob = store.add_user("Ann"), store.add_user("Bob")
        row = TableRow(id="t1", game="israeli", preset=None, options={}, seed="s", first_dealer=0, public=False,
                       invite="inv", status="playing", move_timer=None, created_by=ann, totals=None)
        store.add_table(row, [SeatRow(0, "human", None, bob), SeatRow(1, "bot", "basic", None),
                              SeatRow(2, "human", None, None), SeatRow(3, "bot", "basic", None)])
        with store.begin() as c:
            stored = table_row(c, "t1")
            assert stored is not None
            assert stored_visibility(c, stored) == Visibility(False, "inv", ann, frozenset({bob}))
    finally:
        store.close()
