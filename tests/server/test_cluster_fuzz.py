"""Messages between the nodes of a cluster come over PostgreSQL's NOTIFY, which any user of the
database can send: whatever JSON arrives, the owner answers a request with a refusal or an
answer, and a mirror takes in an announcement, without an exception and without a change that
the message had no right to make."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from israeli_whist.server.chat import relay
from israeli_whist.server.cluster import Cluster
from israeli_whist.server.db import Store
from israeli_whist.server.hub import Hub, TableRequest
from israeli_whist.server.mirror import MirrorTable

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                    max_leaves=6)
FIELDS = ("table", "op", "seat", "action", "version", "from", "connection", "user", "name", "owner", "seats")


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    store = Store(f"sqlite:///{Path(tmp_path_factory.mktemp('fuzz')) / 'whist.db'}")
    made = Hub(store, bot_delay=0.0, grace_seconds=30.0)
    made.create(TableRequest("israeli", None, {"hands": 1}, [{"kind": "bot", "level": "basic"}] * 4), None)
    yield made
    made.close()
    store.close()


def messages(table_id: str) -> st.SearchStrategy[dict[str, Any]]:
    """Any JSON in any field, with the real table's id and real operations often enough to reach the table."""
    value = st.one_of(JSON, st.just(table_id), st.sampled_from(["act", "connect", "disconnect", "join"]),
                      st.integers(-2, 5))
    return st.dictionaries(st.sampled_from(FIELDS), value, max_size=len(FIELDS))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_request_to_the_owner_is_answered_or_refused(hub: Hub, data: st.DataObject) -> None:
    table = next(iter(hub.tables.values()))
    message = data.draw(messages(table.id))
    version = table.version
    answer = asyncio.run(hub._requested(message))
    assert isinstance(answer, dict) and isinstance(answer.get("ok"), bool)
    if not answer["ok"]:
        assert isinstance(answer.get("code"), str) and isinstance(answer.get("message"), str)
        assert table.version == version  # a refused request changed nothing


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_announcement_is_taken_in_by_a_mirror(hub: Hub, data: st.DataObject) -> None:
    live = next(iter(hub.tables.values()))
    cluster = Cluster(hub.store, "postgresql://nobody@127.0.0.1:1/none", "mirror-node")  # never started
    mirror = MirrorTable(live.row, hub.store.seats_of(live.id), {}, hub.store, hub.thinkers, cluster, "owner-node")
    message = data.draw(messages(live.id) | st.fixed_dictionaries(
        {"table": st.just(live.id), "owner": JSON | st.text(), "version": JSON,
         "seats": st.lists(st.dictionaries(st.sampled_from(["user", "name", "connected", "away"]), JSON), max_size=5)}))
    mirror.note(message)
    assert isinstance(mirror.owner, str)
    for seat in mirror.seats:
        assert seat.user_id is None or isinstance(seat.user_id, int)
        assert isinstance(seat.name, str)
    assert isinstance(mirror.table_json()["seats"][0]["connected"], bool)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(news=st.dictionaries(st.sampled_from(["table", "from", "chat", "chat_mode"]),
                            JSON | st.integers() | st.just(True), max_size=4))
def test_any_news_of_talk_shows_only_what_is_stored(hub: Hub, news: dict[str, Any]) -> None:
    """Another node's news of a chat message or a chat mode is read from the database: the table
    has no message and its mode is the stored one, so whatever the news says, nothing is shown."""
    table = next(iter(hub.tables.values()))
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    table.spectators.add(send)
    try:
        asyncio.run(relay(table, news))
    finally:
        table.spectators.discard(send)
    assert sent == [] and table.chat_mode == "everyone"
