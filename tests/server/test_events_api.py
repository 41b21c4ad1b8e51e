"""Duplicate events through the HTTP and WebSocket API (israeli_whist.server.events): six players on an
event of four boards, two of them on the same board at the same time; the matchpoints and the
field's averages checked against a computation by hand; nothing of a board shown before it is
played; no board played twice; a board left mid-way finished by the bots."""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_kit import Player, TestConn, choose, connect, my_turn, sign_in, use
from starlette.websockets import WebSocketDisconnect

from israeli_whist.server.app import create_app
from israeli_whist.server.events import DailyRules, daily_event
from israeli_whist.server.eventscores import ScoreKeeper
from israeli_whist.server.eventstore import add_event
from israeli_whist.server.settings import ServerSettings

pytestmark = pytest.mark.usefixtures("same_utc_day")  # the daily event: conftest.same_utc_day

Message = dict[str, Any]


@pytest.fixture
def client(app_settings: ServerSettings) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings)) as test_client:
        yield test_client


def make_event(client: TestClient, creator: Player, **changes: Any) -> Message:
    body = {"name": "Thursday club", "game": "israeli", "boards": 4, "bot_level": "medium", "public": False,
            "hours": 24, **changes}
    response = use(client, creator).post("/api/events", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def start(client: TestClient, player: Player, event: Message, board: int) -> str:
    response = use(client, player).post(f"/api/events/{event['id']}/boards/{board}/play",
                                        json={"invite": event["invite"]})
    assert response.status_code == 201, response.text
    assert response.json()["seat"] == 0
    return str(response.json()["table"])


def settled(message: Message) -> bool:
    """A state at which the board waits for its player (seat 0), or is over."""
    return message["type"] == "state" and bool(message["score"]["over"] or message["view"]["player"] == 0)


def play_boards(conns: list[TestConn], rngs: list[random.Random], timeout: float = 30.0) -> list[Message]:
    """Play several boards' tables at once, one move at a time on each in turn, to their ends."""
    deadline = time.monotonic() + timeout
    done: list[Message | None] = [None] * len(conns)
    while None in done:
        assert time.monotonic() < deadline, "a board did not move on"
        for index, (conn, rng) in enumerate(zip(conns, rngs, strict=True)):
            if done[index] is not None:
                continue
            state = conn.state if settled(conn.state) else conn.until(settled)
            if state["score"]["over"]:
                done[index] = state
                continue
            reply = conn.act(choose(rng, state), state["version"])
            assert reply["type"] == "ack", reply
    return [state for state in done if state is not None]


def play_board(client: TestClient, player: Player, event: Message, board: int, seed: int) -> Message:
    table_id = start(client, player, event, board)
    with connect(client, player, table_id) as conn:
        return play_boards([conn], [random.Random(seed)])[0]


def board_results(client: TestClient, player: Player, event: Message, board: int) -> Any:
    return use(client, player).get(f"/api/events/{event['id']}/boards/{board}", params={"invite": event["invite"]})


def by_hand(points: dict[str, int]) -> dict[str, tuple[float, float]]:
    """Matchpoint percent and points above the average, worked out the way a scorer does with pen
    and paper: 2 for each result beaten, 1 for each tied, over 2 for each other result."""
    average = sum(points.values()) / len(points)
    scored = {}
    for name, own in points.items():
        others = [p for other, p in points.items() if other != name]
        tops = sum(2 if own > p else 1 if own == p else 0 for p in others)
        scored[name] = (50.0 if not others else 100 * tops / (2 * len(others)), own - average)
    return scored


def test_six_players_four_boards_scored_against_the_field(client: TestClient) -> None:
    players = [sign_in(client, name) for name in ("Ann", "Ben", "Dana", "Eli", "Gal", "Noa")]
    event = make_event(client, players[0])
    eid = event["id"]
    boards = {1: players, 2: players[:4], 3: players[2:], 4: [players[0], players[4]]}

    # Before playing: no board's cards or field, for anyone; the creator's event is private.
    for player in players:
        for number in boards:
            refused = board_results(client, player, event, number)
            assert refused.status_code == 403 and refused.json()["code"] == "board_unplayed"
    assert use(client, players[1]).get(f"/api/events/{eid}").json()["code"] == "private"
    assert use(client, None).get(f"/api/events/{eid}/boards/1").status_code == 403

    # Ann and Ben play board 1 at the same time, move for move.
    tables = {name: start(client, player, event, 1) for name, player in (("Ann", players[0]), ("Ben", players[1]))}
    with ExitStack() as stack:
        conns = [stack.enter_context(connect(client, p, tables[p.name])) for p in players[:2]]
        # Neither can watch the other's board: the table is private, its socket closed to them.
        assert use(client, players[1]).get(f"/api/tables/{tables['Ann']}").status_code == 403
        with pytest.raises(WebSocketDisconnect), connect(client, players[1], tables["Ann"]):
            pass
        # Starting the board again while playing it gives the same table.
        again = use(client, players[0]).post(f"/api/events/{eid}/boards/1/play", json={"invite": event["invite"]})
        assert again.status_code == 200 and again.json()["table"] == tables["Ann"]
        # Both meet the same cards: their first states show seat 0 the same hand.
        first = [c.messages[0]["view"]["hand"] for c in conns]
        assert first[0] == first[1]
        play_boards(conns, [random.Random(1), random.Random(2)])
    for seed, (number, who) in enumerate(boards.items()):
        for index, player in enumerate(who):
            if number == 1 and player.name in tables:
                continue
            play_board(client, player, event, number, seed * 10 + index)

    # Nobody plays a board twice.
    for number, who in boards.items():
        for player in who:
            refused = use(client, player).post(f"/api/events/{eid}/boards/{number}/play",
                                               json={"invite": event["invite"]})
            assert refused.status_code == 409 and refused.json()["code"] == "board_played"
    # Gal never played board 2: its field is still hidden from him, and its tables' replays too.
    assert board_results(client, players[4], event, 2).json()["code"] == "board_unplayed"
    board_two = board_results(client, players[0], event, 2).json()["results"]
    assert {use(client, players[4]).get(f"/api/games/{r['table']}").json()["code"] for r in board_two} == {"private"}

    # Each board's field, against the computation by hand.
    percents: dict[str, list[float]] = {p.name: [] for p in players}
    above: dict[str, float] = {p.name: 0.0 for p in players}
    for number, who in boards.items():
        shown = [board_results(client, player, event, number).json() for player in who]
        results = shown[0]["results"]
        def without_you(rows: list[Message]) -> list[Message]:
            return [{k: v for k, v in row.items() if k != "you"} for row in rows]

        assert all(without_you(s["results"]) == without_you(results) for s in shown[1:])
        points = {r["name"]: r["points"] for r in results}
        assert sorted(points) == sorted(p.name for p in who)
        expected = by_hand(points)
        for row in results:
            assert row["percent"] == pytest.approx(expected[row["name"]][0], abs=0.01)
            assert row["above_average"] == pytest.approx(expected[row["name"]][1], abs=0.01)
            percents[row["name"]].append(expected[row["name"]][0])
            above[row["name"]] += expected[row["name"]][1]
        assert shown[0]["field"] == {"count": len(who), "average": pytest.approx(sum(points.values()) / len(who),
                                                                                  abs=0.01)}
        # Each sees their own line marked, and the same deal (now shown), and a replay of each line.
        for player, seen in zip(who, shown, strict=True):
            assert [r["name"] for r in seen["results"] if r["you"]] == [player.name]
            assert seen["hands"] == shown[0]["hands"] and len(seen["hands"]) == 4
        for row in results:
            replay = use(client, players[0] if number != 3 else players[2]).get(
                "/api/games/" + row["replay"].removeprefix("/replay/"))
            assert replay.status_code == 200, replay.text
            assert replay.json()["event"] == {"id": eid, "board": number} and replay.json()["unrated"] == "event"
    standings = use(client, players[0]).get(f"/api/events/{eid}").json()["standings"]
    for row in standings:
        assert row["boards"] == len(percents[row["name"]])
        assert row["percent"] == pytest.approx(sum(percents[row["name"]]) / row["boards"], abs=0.01)
        assert row["above_average"] == pytest.approx(above[row["name"]], abs=0.01)
    assert [r["percent"] for r in standings] == sorted((r["percent"] for r in standings), reverse=True)
    assert {r["name"] for r in standings} == {p.name for p in players}
    # The event's boards as each player sees them: only their own results.
    seen = use(client, players[4]).get(f"/api/events/{eid}").json()
    assert [b["status"] for b in seen["boards"]] == ["played", "open", "played", "played"]
    assert seen["boards"][1]["points"] is None
    # Event boards are not rated games; the events' ranking has everyone.
    assert use(client, None).get("/api/leaderboard").json().get("players", []) == []
    ranking = use(client, None).get("/api/events/ranking").json()["players"]
    assert {r["name"] for r in ranking} == {p.name for p in players}
    history = use(client, players[5]).get("/api/events/mine").json()["events"]
    assert [(h["event"]["id"], h["boards"]) for h in history] == [(eid, 2)]


def test_a_board_left_midway_is_finished_by_the_bots(app_settings: ServerSettings) -> None:
    # Easy bots: the test is about who finishes the board. A grace of a few seconds, so that no
    # stand-in bids for Ann before her socket comes on a loaded CI machine.
    settings = dataclasses.replace(app_settings, grace_seconds=3.0, daily_bot_level="easy")
    with TestClient(create_app(settings)) as client:
        ann = sign_in(client, "Ann")
        daily = use(client, ann).get("/api/events/daily").json()
        response = use(client, ann).post(f"/api/events/{daily['id']}/boards/1/play", json={})
        assert response.status_code == 201, response.text
        with connect(client, ann, response.json()["table"]) as conn:
            # Her turn may have come before her socket did: then it is the first state she got.
            state = my_turn(conn)
            assert not state["score"]["over"]
            assert conn.act(choose(random.Random(3), state), state["version"])["type"] == "ack"
        deadline = time.monotonic() + 40  # the grace, then the stand-in and the bots play the hand out
        while time.monotonic() < deadline:
            board = use(client, ann).get(f"/api/events/{daily['id']}").json()["boards"][0]
            if board["status"] == "played":
                break
            time.sleep(0.1)
        assert board["status"] == "played" and board["points"] is not None and board["percent"] == 50.0
        assert board_results(client, ann, {"id": daily["id"], "invite": None}, 1).json()["field"]["count"] == 1
        # The daily event's summary counts its players, and the asker's boards played.
        assert (daily["players"], daily["played"]) == (0, 0)
        summary = use(client, ann).get("/api/events/daily").json()
        assert (summary["players"], summary["played"]) == (1, 1)
        assert use(client, None).get("/api/events/daily").json()["played"] == 0


def test_refusals_of_events(client: TestClient) -> None:
    ann = sign_in(client, "Ann")
    bad = {"boards": 0}, {"boards": 25}, {"hours": 0}, {"bot_level": "expert"}, {"game": "classic"}, {"game": "nope"}
    for changes in bad:
        body = {"name": "Club", **changes}
        response = use(client, ann).post("/api/events", json=body)
        assert response.status_code == 422, (changes, response.text)
    assert use(client, None).post("/api/events", json={"name": "Club"}).json()["code"] == "sign_in"
    assert use(client, ann).get("/api/events/nope").json()["code"] == "no_event"
    event = make_event(client, ann, boards=2, public=True)
    for number in (0, 3):
        refused = use(client, ann).post(f"/api/events/{event['id']}/boards/{number}/play", json={})
        assert refused.status_code == 404 and refused.json()["code"] == "no_board"
    assert use(client, ann).get(f"/api/events/{event['id']}/boards/2**70").status_code == 422
    listed = use(client, None).get("/api/events").json()["events"]
    assert {e["kind"] for e in listed} == {"daily", "club"} and all("invite" not in e for e in listed)


def test_event_boards_count_among_a_players_unfinished_tables(app_settings: ServerSettings) -> None:
    settings = dataclasses.replace(app_settings, max_open_tables=2)
    with TestClient(create_app(settings)) as client:
        ann, ben = sign_in(client, "Ann"), sign_in(client, "Ben")
        event = make_event(client, ann)
        first = start(client, ann, event, 1)
        start(client, ann, event, 2)
        board_3 = f"/api/events/{event['id']}/boards/3/play"
        for third in (use(client, ann).post(board_3, json={"invite": event["invite"]}),
                      use(client, ann).post("/api/tables", json={"game": "israeli", "options": {"hands": 1},
                                                               "seats": [{"kind": "human"}] * 4})):
            assert third.status_code == 409 and third.json()["code"] == "too_many_tables", third.text
        # Her boards under way open again; another player is not held back by hers.
        again = use(client, ann).post(f"/api/events/{event['id']}/boards/1/play", json={"invite": event["invite"]})
        assert again.status_code == 200 and again.json()["table"] == first
        start(client, ben, event, 3)
        # A board finished frees its place.
        with connect(client, ann, first) as conn:
            play_boards([conn], [random.Random(5)])
        start(client, ann, event, 3)


def test_the_standings_and_the_ranking_follow_each_finished_board(client: TestClient) -> None:
    keeper: ScoreKeeper = client.app.state.event_scores  # type: ignore[attr-defined]
    keeper.ranked_boards = 2  # settled from two boards, for a short test
    keeper.ranking_seconds = 0  # worked out on every ask: the test asks again as soon as a board ends
    ann, ben = sign_in(client, "Ann"), sign_in(client, "Ben")
    event = make_event(client, ann, boards=2)

    def seen(player: Player) -> Message:
        return dict(use(client, player).get(f"/api/events/{event['id']}", params={"invite": event["invite"]}).json())

    def ranking(**page: int) -> Message:
        return dict(use(client, None).get("/api/events/ranking", params=page).json())

    play_board(client, ann, event, 1, seed=1)
    assert seen(ann)["boards"][0]["percent"] == 50.0  # alone in the field
    assert [(r["name"], r["boards"], r["percent"]) for r in seen(ben)["standings"]] == [("Ann", 1, 50.0)]
    assert [(r["name"], r["place"], r["provisional"]) for r in ranking()["players"]] == [("Ann", 1, True)]
    play_board(client, ben, event, 1, seed=2)
    # Ben's result moved Ann's: the scores kept for the event were scored again.
    ann_1, ben_1 = seen(ann)["boards"][0]["percent"], seen(ben)["boards"][0]["percent"]
    assert ann_1 + ben_1 == 100.0
    assert {r["name"]: r["percent"] for r in seen(ann)["standings"]} == {"Ann": ann_1, "Ben": ben_1}
    play_board(client, ben, event, 2, seed=3)
    # Ben has two boards: settled, ranked before Ann (one board, provisional) whatever their means.
    whole = ranking()
    assert (whole["total"], whole["ranked_boards"]) == (2, 2)
    assert [(r["name"], r["place"], r["boards"], r["provisional"]) for r in whole["players"]] == [
        ("Ben", 1, 2, False), ("Ann", 2, 1, True)]
    assert whole["players"][0]["percent"] == pytest.approx((ben_1 + 50.0) / 2, abs=0.01)
    assert [r["name"] for r in ranking(limit=1)["players"]] == ["Ben"]
    assert [r["name"] for r in ranking(offset=1, limit=1)["players"]] == ["Ann"]
    assert ranking(offset=5)["players"] == []
    for bad in ({"limit": 0}, {"limit": 101}, {"offset": -1}, {"offset": 2**70}):
        assert use(client, None).get("/api/events/ranking", params=bad).status_code == 422
    mine = use(client, ann).get("/api/events/mine").json()["events"]
    assert [(m["boards"], m["percent"], m["of"]) for m in mine] == [(1, ann_1, 2)]
    # A guest who makes an account under another name is shown by it at once (names are not kept
    # with the scores, which stand until a play finishes).
    claimed = use(client, ann).post("/api/register", json={"login": "ann-k", "password": "correct horse",
                                                            "name": "Anna", "claim": ann.user_id})
    assert claimed.status_code == 200, claimed.text
    assert {r["name"] for r in seen(ben)["standings"]} == {"Anna", "Ben"}
    assert [r["name"] for r in ranking()["players"]] == ["Ben", "Anna"]


def test_friends_at_one_table_turn_round_it_board_by_board(client: TestClient) -> None:
    ann, ben, dana = (sign_in(client, name) for name in ("Ann", "Ben", "Dana"))
    event = make_event(client, ann, boards=2)
    eid, invite = event["id"], event["invite"]
    dana_table = start(client, dana, event, 2)  # Dana plays board 2 alone first
    opened = use(client, ann).post(f"/api/events/{eid}/boards/2/play", json={"invite": invite, "friends": 2})
    assert opened.status_code == 201, opened.text
    table_id, table_invite = opened.json()["table"], opened.json()["invite"]
    # Board 2 turns the friends one seat round: Ann (the first) in seat 1, the others in 2 and 3.
    assert opened.json()["seat"] == 1
    seats = use(client, ann).get(f"/api/tables/{table_id}").json()["seats"]
    assert [s["kind"] for s in seats] == ["bot", "human", "human", "human"]
    # Dana has started board 2 already: she cannot take a seat; Ben can.
    refused = use(client, dana).post(f"/api/tables/{table_id}/join", json={"seat": 2, "invite": table_invite})
    assert refused.status_code == 409 and refused.json()["code"] == "board_played"
    joined = use(client, ben).post(f"/api/tables/{table_id}/join", json={"seat": 2, "invite": table_invite})
    assert joined.status_code == 200, joined.text
    with connect(client, dana, dana_table) as conn:
        play_boards([conn], [random.Random(5)])
    # A free seat waits for its player (no stand-in plays a seat nobody took): Eli takes the last.
    eli = sign_in(client, "Eli")
    joined = use(client, eli).post(f"/api/tables/{table_id}/join", json={"seat": 3, "invite": table_invite})
    assert joined.status_code == 200, joined.text
    with connect(client, ann, table_id) as a, connect(client, ben, table_id) as b, connect(client, eli, table_id) as e:
        conns = {1: a, 2: b, 3: e}
        rng = random.Random(6)
        while True:
            state = a.state
            if state["score"]["over"]:
                break
            mover = state["view"]["player"]
            if mover in conns:
                mine = conns[mover].state_at(state["version"])
                assert conns[mover].act(choose(rng, mine), state["version"])["type"] == "ack"
            a.state_at(state["version"] + 1)
    # Each friend's result is in the field of their seat: Ann's (seat 1) has only herself; Dana's
    # (seat 0, alone against bots) has only Dana.
    for player, seat in ((ann, 1), (ben, 2), (eli, 3), (dana, 0)):
        shown = board_results(client, player, event, 2).json()
        assert shown["seat"] == seat and [r["name"] for r in shown["results"]] == [player.name]
    boards = use(client, ben).get(f"/api/events/{eid}").json()["boards"]
    assert (boards[1]["status"], boards[1]["seat"]) == ("played", 2)


def test_the_days_event_made_by_two_nodes_at_once_is_one(client: TestClient) -> None:
    """Two nodes asked for the daily event in the same instant: the second's insert finds the
    first's row, and both serve its boards (the same secret seed)."""
    store = client.app.state.store  # type: ignore[attr-defined]
    first = daily_event(store, DailyRules())
    second = add_event(store, dataclasses.replace(first, seed="another-seed"))
    assert second == first and daily_event(store, DailyRules()).seed == first.seed
