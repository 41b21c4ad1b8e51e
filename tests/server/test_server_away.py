"""People who leave and people who dawdle: after the grace period a bot plays a departed
player's seat (``away``) until they reconnect; with a move timer, a bot moves for a person
whose time runs out."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_kit import Message, connect, create_table, drive, join, live, sign_in, stored_actions

from israeli_whist.bots.players.base import Bot
from israeli_whist.core.views import SeatView, seat_view
from israeli_whist.server.app import create_app
from israeli_whist.server.db import SeatRow, Store, TableRow
from israeli_whist.server.live import LiveTable
from israeli_whist.server.settings import ServerSettings
from israeli_whist.server.workers import Decided, Thinkers, ThreadThinkers


@pytest.fixture
def app_settings(app_settings: ServerSettings) -> ServerSettings:
    """The shared settings with a short grace period: these tests wait it out."""
    return replace(app_settings, grace_seconds=0.5)


@pytest.fixture
def client(app_settings: ServerSettings) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings)) as test_client:
        yield test_client


def away(state: Message, seat: int) -> bool:
    flag: bool = state["table"]["seats"][seat]["away"]
    return flag


def connected(state: Message, seat: int) -> bool:
    flag: bool = state["table"]["seats"][seat]["connected"]
    return flag


def test_a_bot_plays_for_a_player_who_left_until_they_return(client: TestClient,
                                                             app_settings: ServerSettings) -> None:
    ann, bob = sign_in(client, "Ann"), sign_in(client, "Bob")
    table = create_table(client, ann, "hhbb", options={"hands": 1})
    table_id = table["id"]
    join(client, bob, table_id, 1)
    rng = random.Random(5)
    with connect(client, bob, table_id) as b:
        with connect(client, ann, table_id) as a:
            assert not away(a.state, 0) and connected(a.state, 0)
            assert connected(b.until(lambda m: m["type"] == "state" and connected(m, 0)), 0)  # Bob sees her come
        left = time.monotonic()
        # Ann has gone: Bob sees it at once. Her seat waits out the grace period, then a bot takes over.
        state = b.until(lambda m: m["type"] == "state" and not connected(m, 0))
        assert not away(state, 0) and state["version"] == 0
        state = b.until(lambda m: m["type"] == "state" and away(m, 0), timeout=5)
        assert time.monotonic() - left >= app_settings.grace_seconds / 2  # not at once
        assert not connected(state, 0) and not away(state, 1)

        def bot_moved_for_ann(_state: Message) -> bool:
            return any(seat == 0 and by_bot for _, seat, _, by_bot in stored_actions(app_settings.database_url,
                                                                                     table_id))

        state = drive({1: b}, rng, stop=bot_moved_for_ann)
        assert not state["score"]["over"]
        moves_while_away = len(stored_actions(app_settings.database_url, table_id))
        # Ann comes back: her seat is hers again, and everyone is told.
        with connect(client, ann, table_id) as a:
            assert not away(a.state, 0) and connected(a.state, 0)
            state = b.until(lambda m: m["type"] == "state" and not away(m, 0))
            assert connected(state, 0)
            # The game goes on to her turn and waits for her there: no bot moves for her now.
            state = drive({1: b}, rng, stop=lambda s: s["view"]["player"] == 0)
            assert not state["score"]["over"]
            version = a.state_at(state["version"])["version"]
            assert a.quiet(0.3) == [] and live(client.app, table_id).version == version
            assert a.act(a.state["view"]["legal"][0]["action"])["type"] == "ack"
        stored = stored_actions(app_settings.database_url, table_id)
        assert len(stored) > moves_while_away
        assert (stored[version][1], stored[version][3]) == (0, False)  # Ann's own move
        ann_by_bot = [seq for seq, seat, _, by_bot in stored if seat == 0 and by_bot]
        assert ann_by_bot and max(ann_by_bot) < moves_while_away


def test_a_player_back_within_the_grace_period_keeps_the_seat(client: TestClient,
                                                              app_settings: ServerSettings) -> None:
    ann = sign_in(client, "Ann")
    table = create_table(client, ann, "hbbb", options={"hands": 1})
    with connect(client, ann, table["id"]) as a:
        version = a.state_at(3)["version"]  # the bots called; Ann's turn
        assert a.state["view"]["player"] == 0
    time.sleep(app_settings.grace_seconds / 3)
    with connect(client, ann, table["id"]) as a:
        assert not away(a.state, 0)
        assert a.quiet(app_settings.grace_seconds * 1.5) == []
        assert live(client.app, table["id"]).version == version and not live(client.app, table["id"]).seats[0].away
    assert len(stored_actions(app_settings.database_url, table["id"])) == version


def test_move_timer_of_five_seconds(client: TestClient, app_settings: ServerSettings) -> None:
    ann = sign_in(client, "Ann")
    table = create_table(client, ann, "hbbb", options={"hands": 1}, move_timer=5)
    assert table["move_timer"] == 5
    with connect(client, ann, table["id"]) as a:
        state = a.state_at(3)
        turn_began = time.monotonic()
        assert state["view"]["player"] == 0
        # Ann does nothing: after five seconds a bot moves for her, and she keeps her seat.
        moved = a.until(lambda m: m["type"] == "state" and m["version"] == 4, timeout=8)
        assert time.monotonic() - turn_began >= 4.5
        assert not away(moved, 0) and moved["table"]["seats"][0]["connected"]
        _seq, seat, _action, by_bot = stored_actions(app_settings.database_url, table["id"])[3]
        assert (seat, by_bot) == (0, True)


def make_table(tmp_path: Path, move_timer: float | None, grace_seconds: float = 30.0,
               thinkers: Thinkers | None = None) -> tuple[Store, LiveTable]:
    store = Store(f"sqlite:///{tmp_path / 'timer.db'}")
    user = store.add_user("Ann")
    row = TableRow(id="timer-table", game="israeli", preset=None, options={"hands": 1}, seed="timer", first_dealer=0,
                   public=True, invite="inv", status="playing", move_timer=move_timer, created_by=user, totals=None)
    seats = [SeatRow(0, "human", None, user)] + [SeatRow(n, "bot", "basic", None) for n in (1, 2, 3)]
    store.add_table(row, seats)
    return store, LiveTable(row, seats, {user: "Ann"}, store, bot_delay=0.0, grace_seconds=grace_seconds,
                            thinkers=thinkers or ThreadThinkers())


async def until(condition: Callable[[], bool], timeout: float = 3.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.005)


def test_move_timer_in_a_live_table(tmp_path: Path) -> None:
    """The timer of a short-timed table: it moves for a slow person, not for a quick one."""
    store, table = make_table(tmp_path, move_timer=0.3)
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def play() -> int:
        await table.connect(0, send)
        table.schedule_turn()
        await until(lambda: table.version == 3)  # the bots call at once
        assert table.match.current_player == 0
        await asyncio.sleep(0.4)  # Ann's time runs out
        assert table.version >= 4
        # Next time Ann is quick: she acts at once, and the timer of that turn never fires.
        await until(lambda: table.match.current_player == 0)
        quick = table.version
        action = table.match.legal_actions()[0]
        assert await table.act(0, action, quick) == quick + 1
        await asyncio.sleep(0.2)  # less than a turn's time: only a timer started before the act could fire
        table.close()
        return quick

    try:
        quick = asyncio.run(play())
        stored = {seq: (seat, by_bot) for seq, seat, _, by_bot in stored_actions(str(store.engine.url), table.id)}
        assert stored[3] == (0, True)  # timed out
        assert stored[quick] == (0, False)
        assert [seq for seq, (seat, _) in stored.items() if seat == 0] == [3, quick]
        assert [m["version"] for m in sent] == sorted(m["version"] for m in sent)
    finally:
        store.close()


def test_no_move_timer_no_bot(tmp_path: Path) -> None:
    store, table = make_table(tmp_path, move_timer=None)

    async def send(message: dict[str, Any]) -> None:
        pass

    async def wait() -> None:
        await table.connect(0, send)  # Ann is there (a table nobody watches would not play at all)
        table.schedule_turn()
        await until(lambda: table.version == 3)
        await asyncio.sleep(0.3)
        assert table.version == 3 and table.match.current_player == 0 and table.timer_task is None
        assert seat_view(table.match.hand, 0).legal_actions
        table.close()

    try:
        asyncio.run(wait())
    finally:
        store.close()


def test_a_player_who_takes_a_seat_and_never_comes_is_covered_after_the_grace_period(
        client: TestClient, app_settings: ServerSettings) -> None:
    ann, bob = sign_in(client, "Ann"), sign_in(client, "Bob")
    table = create_table(client, ann, "hhbb", options={"hands": 1})
    join(client, bob, table["id"], 1)  # Bob sits, and never opens the table
    with connect(client, ann, table["id"]) as a:
        # The auction starts with Bob (left of the dealer): after the grace period a bot calls for him.
        state = a.until(lambda m: m["type"] == "state" and away(m, 1), timeout=5)
        assert not connected(state, 1)
        a.state_at(1)
        _, seat, _, by_bot = stored_actions(app_settings.database_url, table["id"])[0]
        assert seat == 1 and by_bot


# The stand-in and the player's return ---------------------------------------------------------------

class HeldThinkers(ThreadThinkers):
    """Threads, except that a decision for ``seat`` is held until ``release`` is set: the stand-in
    is still thinking when its player comes back."""

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat
        self.thinking = asyncio.Event()
        self.release = asyncio.Event()

    async def decide(self, bot: Bot, view: SeatView) -> Decided:
        if view.seat == self.seat:
            self.thinking.set()
            await self.release.wait()
        return await super().decide(bot, view)


class Inbox:
    """A connection's sends, kept."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    async def __call__(self, message: dict[str, Any]) -> None:
        self.messages.append(message)

    def versions(self) -> list[int]:
        return [m["version"] for m in self.messages]


async def away_at_her_turn(table: LiveTable) -> tuple[Inbox, Inbox]:
    """Ann at seat 0 with a spectator watching; the bots call up to her turn, and she leaves:
    after the grace period her seat is away and the stand-in is to move. Returns her inbox and
    the spectator's."""
    ann, watching = Inbox(), Inbox()
    await table.connect(-1, watching)  # someone watches: the table plays on while Ann is gone
    await table.connect(0, ann)
    table.schedule_turn()
    await until(lambda: table.version == 3 and table.match.current_player == 0)
    table.disconnect(0, ann)
    await until(lambda: table.seats[0].away)
    return ann, watching


def test_a_stand_in_still_thinking_when_its_player_returns_does_not_move(tmp_path: Path) -> None:
    """The stand-in's decision comes back after Ann has returned and been shown her turn: it is
    dropped, and the move is hers (once it was stored as the bot's, after she saw her seat)."""
    thinkers = HeldThinkers(seat=0)
    store, table = make_table(tmp_path, move_timer=None, grace_seconds=0.0, thinkers=thinkers)

    async def play() -> None:
        await away_at_her_turn(table)
        await asyncio.wait_for(thinkers.thinking.wait(), 5)  # the stand-in thinks for her
        back = Inbox()
        await table.connect(0, back)
        assert not table.seats[0].away and back.messages[-1]["view"]["player"] == 0
        assert back.messages[-1]["version"] == 3 and back.messages[-1]["view"]["legal"]  # shown her turn
        thinkers.release.set()
        assert table.turn_task is not None
        await asyncio.wait_for(table.turn_task, 5)
        assert table.version == 3, "the stand-in moved after its player came back"
        assert await table.act(0, table.match.legal_actions()[0], 3) == 4
        table.close()

    try:
        asyncio.run(play())
        _seq, seat, _action, by_bot = stored_actions(str(store.engine.url), table.id)[3]
        assert (seat, by_bot) == (0, False)
    finally:
        store.close()
        thinkers.close()


def test_a_stand_in_move_being_stored_when_its_player_returns_is_shown_before_their_seat(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The stand-in's move is being stored (a database over the network: the event loop runs
    meanwhile) when Ann comes back: the state she is first shown already holds it, so she never
    sees a turn of hers that the bot then takes."""
    store, table = make_table(tmp_path, move_timer=None, grace_seconds=0.0)
    storing, stored = asyncio.Event(), asyncio.Event()

    async def slow_store(work: Callable[..., Any], *args: Any) -> Any:
        if table.seats[0].away and table.match.current_player == 0:
            storing.set()
            await stored.wait()
        return work(*args)

    monkeypatch.setattr(store, "off_loop", slow_store)

    async def play() -> Inbox:
        await away_at_her_turn(table)
        await asyncio.wait_for(storing.wait(), 5)  # the stand-in's move for her is being stored
        back = Inbox()
        returning = asyncio.ensure_future(table.connect(0, back))
        await asyncio.sleep(0.05)
        stored.set()
        await asyncio.wait_for(returning, 5)
        await asyncio.sleep(0.05)
        table.close()
        return back

    try:
        back = asyncio.run(play())
        assert back.versions() and min(back.versions()) >= 4, back.versions()
        _seq, seat, _action, by_bot = stored_actions(str(store.engine.url), table.id)[3]
        assert (seat, by_bot) == (0, True)
    finally:
        store.close()
