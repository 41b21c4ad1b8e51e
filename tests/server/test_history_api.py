"""Finished games through the API: history, replay, record, statistics and ratings, after real
games played over the WebSocket against the bots."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from history_kit import BOTS, new_table, play_to_the_end, sign_in
from openskill.models import PlackettLuce

from israeli_whist.cli.check import seat_names
from israeli_whist.core.actions import action_name
from israeli_whist.core.games import make_rules
from israeli_whist.core.records import replay
from israeli_whist.server.app import create_app
from israeli_whist.server.db import Store
from israeli_whist.server.ratings import rated_as
from israeli_whist.server.settings import ServerSettings


@pytest.fixture
def client(app_settings: ServerSettings) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings)) as test_client:
        yield test_client


def test_a_finished_game_in_history_replay_record_stats_and_ratings(client: TestClient) -> None:
    me = sign_in(client, "Ann")
    table_id = new_table(client, "israeli", {"hands": 1}, [{"kind": "human"}, *BOTS])["id"]
    final = play_to_the_end(client, table_id)
    totals = final["score"]["totals"]

    history = client.get("/api/history").json()
    assert history["total"] == 1
    [game] = history["games"]
    assert game["id"] == table_id and game["totals"] == totals and game["places"] == final["score"]["places"]
    assert game["hands_played"] == 1 and game["finished_at"]
    assert [p["kind"] for p in game["players"]] == ["human", "bot", "bot", "bot"]
    assert game["players"][0]["name"] == "Ann" and game["players"][0]["user_id"] == me
    assert client.get(f"/api/history?player={me}").json()["total"] == 1
    assert client.get("/api/history?player=999").json()["total"] == 0

    # The replay shows every action that was stored, in order, and adds up to the totals.
    data = client.get(f"/api/games/{table_id}").json()
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    stored = [(seat, action_name(action)) for _, seat, action in store.actions_of(table_id)]
    steps = [step for hand in data["hands"] for step in hand["steps"]]
    assert [(s["action"]["seat"], s["action"]["name"]) for s in steps if s["action"]] == stored
    assert [sum(h["points"][s] for h in data["hands"]) for s in range(4)] == totals == data["totals"]
    assert all(len(s["hands"]) == 4 for s in steps)  # every step shows every hand
    assert sum(1 for h in data["hands"] if not h["cancelled"]) == 1
    last = data["hands"][-1]["steps"][-1]
    assert last["phase"] == "over" and last["scores"] == data["hands"][-1]["points"]
    assert data["traits"] == last["traits"] == make_rules("israeli").traits.to_json()

    # The record replays under ``whist check``'s validation.
    record = client.get(f"/api/games/{table_id}/record").json()
    checked = replay(record)
    assert checked.complete and list(checked.match.totals) == totals
    assert record["players"] == ["Ann", "Bot 2 (basic)", "Bot 3 (basic)", "Bot 4 (basic)"]

    # Statistics, counted here from the replay.
    played = [h for h in data["hands"] if not h["cancelled"]]
    contracts = [(h["contracts"][0], h["tricks_won"][0]) for h in played]
    stats = client.get(f"/api/players/{me}/stats").json()
    assert stats["user"] == {"id": me, "name": "Ann", "guest": True}
    expected = {"games": 1, "hands": len(played), "contracts": len(contracts),
                "contracts_made": sum(c == t for c, t in contracts), "zero_bids": sum(c == 0 for c, _ in contracts),
                "zero_bids_made": sum(c == t == 0 for c, t in contracts), "points": totals[0],
                "average_points": round(totals[0] / len(played), 2)}
    assert {k: stats["stats"][k] for k in expected} == expected
    assert stats["stats"]["contracts_made_pct"] == 100.0 * expected["contracts_made"] / len(contracts)

    # Rated once: the rating equals one Plackett-Luce update against three fixed basic bots, at
    # the basic bot's rating in Israeli Whist.
    model = PlackettLuce()
    bot = rated_as("basic", "israeli")
    teams = [[model.rating()]] + [[model.rating(mu=bot[0], sigma=bot[1])] for _ in range(3)]
    [[mine], *_] = model.rate(teams, ranks=[float(p) for p in final["score"]["places"]])
    rating = stats["rating"]
    assert rating["games"] == 1 and rating["rank"] == 1
    assert rating["mu"] == pytest.approx(mine.mu, abs=1e-3) and rating["sigma"] == pytest.approx(mine.sigma, abs=1e-3)

    board = client.get("/api/leaderboard").json()
    assert board["total"] == 1
    [entry] = board["players"]
    assert entry["user_id"] == me and entry["name"] == "Ann" and entry["rank"] == 1
    assert entry["ordinal"] == pytest.approx(mine.mu - 3 * mine.sigma, abs=1e-2)
    assert entry["stats"] == stats["stats"]


def test_ratings_count_each_game_once_and_bots_are_not_rated(client: TestClient) -> None:
    me = sign_in(client, "Ben")
    first = new_table(client, "israeli", {"hands": 1}, [{"kind": "human"}, *BOTS])["id"]
    play_to_the_end(client, first, seed=2)
    after_one = client.get(f"/api/players/{me}/stats").json()["rating"]
    bots_only = new_table(client, "israeli", {"hands": 1}, [{"kind": "bot", "level": "random"}, *BOTS],
                          take_seat=None)["id"]
    play_to_the_end(client, bots_only)
    assert client.get(f"/api/players/{me}/stats").json()["rating"] == after_one
    assert [p["user_id"] for p in client.get("/api/leaderboard").json()["players"]] == [me]
    second = new_table(client, "israeli", {"hands": 1}, [{"kind": "human"}, *BOTS])["id"]
    play_to_the_end(client, second, seed=3)
    after_two = client.get(f"/api/players/{me}/stats").json()
    assert after_two["rating"]["games"] == 2 and after_two["stats"]["games"] == 2
    assert after_two["rating"]["sigma"] < after_one["sigma"]
    history = client.get("/api/history?limit=2").json()
    assert history["total"] == 3 and [g["id"] for g in history["games"]] == [second, bots_only]
    assert [g["id"] for g in client.get("/api/history?offset=2&limit=2").json()["games"]] == [first]


def test_classic_partners_are_rated_as_a_side(client: TestClient) -> None:
    me = sign_in(client, "Cy")
    table_id = new_table(client, "classic", {"target": 1, "cut_for_partners": True}, [{"kind": "human"}, *BOTS])["id"]
    final = play_to_the_end(client, table_id, seed=4)
    places = final["score"]["places"]
    assert places[0] == places[2] and places[1] == places[3]
    assert client.get("/api/history").json()["games"][0]["places"] == places
    model = PlackettLuce()
    bot = rated_as("basic", "classic")
    teams = [[model.rating(), model.rating(mu=bot[0], sigma=bot[1])],
             [model.rating(mu=bot[0], sigma=bot[1]), model.rating(mu=bot[0], sigma=bot[1])]]
    [[mine, _], _] = model.rate(teams, ranks=[float(places[0]), float(places[1])])
    stats = client.get(f"/api/players/{me}/stats").json()
    assert stats["rating"]["mu"] == pytest.approx(mine.mu, abs=1e-3)
    assert stats["stats"]["contracts"] == 0 and stats["stats"]["contracts_made_pct"] is None
    # The record names players in the order of the cut; by seat they are as they sat.
    checked = replay(client.get(f"/api/games/{table_id}/record").json())
    assert checked.complete and seat_names(checked) == ["Cy", "Bot 2 (basic)", "Bot 3 (basic)", "Bot 4 (basic)"]


def test_a_game_still_playing_shows_nothing_and_unknown_games_are_404(client: TestClient) -> None:
    sign_in(client, "Dan")
    # Dan only watches: the free seat waits for a player, so the game stays open.
    table_id = new_table(client, "israeli", {"hands": 1}, [{"kind": "human"}, *BOTS], take_seat=None)["id"]
    for path in (f"/api/games/{table_id}", f"/api/games/{table_id}/record"):
        response = client.get(path)
        assert response.status_code == 409 and "still being played" in response.json()["detail"]
    assert client.get("/api/history").json() == {"total": 0, "offset": 0, "limit": 20, "games": []}
    assert client.get("/api/games/nope").status_code == 404
    assert client.get("/api/games/nope/record").status_code == 404
    assert client.get("/api/players/999/stats").status_code == 404
    assert client.get("/api/history?limit=0").status_code == 422
    assert client.get("/api/leaderboard").json()["players"] == []


def test_a_private_game_is_shown_to_its_players_and_invite_holders(client: TestClient) -> None:
    sign_in(client, "Eve")
    table = new_table(client, "israeli", {"hands": 1}, [{"kind": "human"}, *BOTS], public=False)
    table_id, invite = table["id"], table["invite"]
    play_to_the_end(client, table_id)
    assert client.get(f"/api/games/{table_id}").status_code == 200
    assert client.get("/api/history").json()["total"] == 1
    sign_in(client, "Fay")  # another person
    assert client.get(f"/api/games/{table_id}").status_code == 403
    assert client.get(f"/api/games/{table_id}/record").status_code == 403
    assert client.get("/api/history").json()["total"] == 0
    assert client.get(f"/api/games/{table_id}?invite={invite}").status_code == 200
