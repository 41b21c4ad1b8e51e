"""``GET /api/games/{id}/analysis``: the analysis of a finished game, lined up with its replay,
computed once and kept; the same visibility as the replay, and nothing of a game still playing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from history_kit import BOTS, new_table, play_to_the_end, sign_in

from israeli_whist.server import api_history
from israeli_whist.server.app import create_app
from israeli_whist.server.settings import ServerSettings


@pytest.fixture
def client(app_settings: ServerSettings, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    # The quick bot and short endings: the tests check the plumbing, tests/bots the analysis.
    monkeypatch.setattr(api_history, "ANALYSIS_BOT", "basic")
    monkeypatch.setattr(api_history, "ANALYSIS_MAX_TRICKS", 2)
    with TestClient(create_app(app_settings)) as test_client:
        yield test_client


def finished_game(client: TestClient, game: str = "israeli", options: dict[str, Any] | None = None,
                  public: bool = True) -> dict[str, Any]:
    table = new_table(client, game, options or {"hands": 1}, [{"kind": "human"}, *BOTS], public=public)
    play_to_the_end(client, table["id"])
    return table


@pytest.mark.parametrize(("game", "options"), [("israeli", {"hands": 1}), ("classic", {"target": 1})])
def test_the_analysis_lines_up_with_the_replay(client: TestClient, game: str, options: dict[str, Any]) -> None:
    sign_in(client, "Ann")
    table_id = finished_game(client, game, options)["id"]
    response = client.get(f"/api/games/{table_id}/analysis")
    assert response.status_code == 200, response.text
    analysis = response.json()
    replay = client.get(f"/api/games/{table_id}").json()
    assert analysis["game"] == game and analysis["bot"] == "basic" and analysis["max_tricks"] == 2
    assert [h["number"] for h in analysis["hands"]] == [h["number"] for h in replay["hands"]]
    for analysed, shown in zip(analysis["hands"], replay["hands"], strict=True):
        steps = shown["steps"]
        # Each verdict's step is the replay step its card or call leads to.
        for card in analysed["cards"]:
            assert steps[card["step"]]["action"] == {"seat": card["seat"], "name": card["name"]}
            assert card["analysed"] == (steps[card["step"] - 1]["tricks_played"] >= len(steps[0]["hands"][0]) - 2)
        for bid in analysed["bids"]:
            assert [steps[s]["action"]["name"] for s in bid["steps"]] == bid["actual"]
    assert sum(c["analysed"] for h in analysis["hands"] for c in h["cards"]) == 8 * len(
        [h for h in replay["hands"] if not h["cancelled"]])


def test_the_analysis_is_computed_once(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    sign_in(client, "Bo")
    table_id = finished_game(client)["id"]
    first = client.get(f"/api/games/{table_id}/analysis").json()

    def no_second_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("analysed again")

    monkeypatch.setattr(api_history, "analyze_record", no_second_search)
    assert client.get(f"/api/games/{table_id}/analysis").json() == first


def test_a_game_still_playing_is_not_analysed(client: TestClient) -> None:
    sign_in(client, "Cy")
    table_id = new_table(client, "israeli", {"hands": 1}, [{"kind": "human"}, *BOTS], take_seat=None)["id"]
    response = client.get(f"/api/games/{table_id}/analysis")
    assert response.status_code == 409 and "still being played" in response.json()["detail"]
    assert "hands" not in response.json()
    assert client.get("/api/games/nope/analysis").status_code == 404


def test_a_private_game_is_analysed_for_its_players_and_invite_holders(client: TestClient) -> None:
    sign_in(client, "Eve")
    table = finished_game(client, public=False)
    path = f"/api/games/{table['id']}/analysis"
    assert client.get(path).status_code == 200  # a player (cached from here on)
    sign_in(client, "Fay")
    response = client.get(path)
    assert response.status_code == 403 and "hands" not in response.json()  # the cache does not bypass the check
    assert client.get(f"{path}?invite=wrong").status_code == 403
    assert client.get(f"{path}?invite={table['invite']}").status_code == 200


def test_one_hand_at_a_time_for_a_page_that_shows_its_progress(client: TestClient,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    sign_in(client, "Gil")
    table_id = finished_game(client, options={"hands": 2})["id"]
    path = f"/api/games/{table_id}/analysis"
    numbers = [h["number"] for h in client.get(f"/api/games/{table_id}").json()["hands"]]
    hands = []
    for number in numbers:
        response = client.get(f"{path}?hand={number}")
        assert response.status_code == 200, response.text
        assert [h["number"] for h in response.json()["hands"]] == [number]
        hands.append(response.json()["hands"][0])
    assert client.get(f"{path}?hand={max(numbers) + 1}").status_code == 404
    assert client.get(f"{path}?hand=-1").status_code == 422
    # Hand by hand, the same verdicts as the whole game at once; and a hand is cut from the whole
    # game's answer, once that is known, with no second search.
    whole = client.get(path).json()
    assert whole["hands"] == hands

    def no_second_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("analysed again")

    monkeypatch.setattr(api_history, "analyze_record", no_second_search)
    client.app.state.analysis_cache.entries.pop(f"{table_id}#{numbers[0]}")  # type: ignore[attr-defined]
    assert client.get(f"{path}?hand={numbers[0]}").json()["hands"] == [hands[0]]
