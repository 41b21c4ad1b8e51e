"""Guests on the leaderboard and in the history, and a guest who keeps their games by making an
account (``server/claims.py``): the same person, the same rating, nothing lost or counted twice,
and a claim refused, changing nothing, when the guest is not the browser's own."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from history_kit import BOTS, new_table, play_to_the_end, sign_in

from israeli_whist.server.app import create_app
from israeli_whist.server.settings import ServerSettings

PASSWORD = "correct horse"


@pytest.fixture(params=["sqlite", "postgresql"])
def app(request: pytest.FixtureRequest, app_settings: ServerSettings) -> Iterator[Any]:
    settings = app_settings
    if request.param == "postgresql":  # the claim's one UPDATE, on the database of a site
        settings = dataclasses.replace(app_settings, database_url=request.getfixturevalue("postgres_url"))
    made = create_app(settings)
    with TestClient(made):  # one app (and database) for several browsers
        yield made


def browser(app: Any) -> TestClient:
    return TestClient(app)


def play_a_game(client: TestClient, seed: int = 1) -> str:
    table_id: str = new_table(client, "israeli", {"hands": 1}, [{"kind": "human"}, *BOTS])["id"]
    play_to_the_end(client, table_id, seed)
    return table_id


def board(client: TestClient) -> dict[int, dict[str, Any]]:
    page = client.get("/api/leaderboard").json()
    entries = {entry["user_id"]: entry for entry in page["players"]}
    assert len(entries) == page["total"] == len(page["players"])  # each player once
    return entries


def what_counts(client: TestClient, user_id: int) -> tuple[Any, ...]:
    """Everything a player's games count for: their rating, statistics and list of games."""
    stats = client.get(f"/api/players/{user_id}/stats").json()
    games = client.get(f"/api/history?player={user_id}").json()
    return stats["rating"], stats["stats"], games["total"], [game["id"] for game in games["games"]]


def test_guests_of_one_name_are_told_apart(app: Any) -> None:
    first, second = browser(app), browser(app)
    dana, other_dana = sign_in(first, "Dana"), sign_in(second, "Dana")
    game = play_a_game(first)
    play_a_game(second, seed=2)
    entries = board(first)
    assert {(entries[u]["name"], entries[u]["guest"]) for u in (dana, other_dana)} == {("Dana", True)}
    assert dana != other_dana  # the pages tell them apart by id: "Dana · guest #<id>"
    [seat] = [p for p in first.get(f"/api/games/{game}").json()["players"] if p["kind"] == "human"]
    assert (seat["user_id"], seat["name"], seat["guest"]) == (dana, "Dana", True)
    bots = [p for p in first.get("/api/history").json()["games"][0]["players"] if p["kind"] == "bot"]
    assert bots and not any(p["guest"] for p in bots)


def test_a_guest_who_registers_keeps_their_games_and_rating(app: Any) -> None:
    mine, theirs, copied = browser(app), browser(app), browser(app)
    dana, other_dana = sign_in(mine, "Dana"), sign_in(theirs, "Dana")
    play_a_game(mine)
    play_a_game(mine, seed=3)
    play_a_game(theirs, seed=2)
    copied.cookies.update(mine.cookies)  # a copy of the guest's cookie
    assert copied.get("/api/me").json()["user"]["id"] == dana
    before, board_before = what_counts(mine, dana), board(mine)

    answer = mine.post("/api/register", json={"login": "dana", "password": PASSWORD, "claim": dana})
    assert answer.status_code == 200, answer.text
    assert answer.json()["user"] == {"id": dana, "name": "Dana", "guest": False}
    assert mine.get("/api/me").json()["user"] == {"id": dana, "name": "Dana", "guest": False}
    assert what_counts(mine, dana) == before  # nothing lost, nothing counted twice
    board_after = board(mine)
    assert set(board_after) == set(board_before) == {dana, other_dana}  # one player, not a guest and an account
    assert board_after[dana] == {**board_before[dana], "guest": False}
    assert board_after[other_dana] == board_before[other_dana]
    assert copied.get("/api/me").json()["user"] is None  # the guest's other sessions ended

    # The account goes on from the guest's rating: its next game counts once, on top.
    play_a_game(mine, seed=4)
    rating, stats, games, _ = what_counts(mine, dana)
    assert (rating["games"], stats["games"], games) == (before[0]["games"] + 1, before[1]["games"] + 1, before[2] + 1)
    assert mine.post("/api/logout", json={}).status_code == 200
    again = mine.post("/api/login", json={"login": "dana", "password": PASSWORD})
    assert again.json()["user"]["id"] == dana


def test_a_claim_keeps_the_guests_name_unless_another_is_given(app: Any) -> None:
    client = browser(app)
    guest = sign_in(client, "נועה")
    answer = client.post("/api/register", json={"login": "noa-k", "password": PASSWORD, "name": "Noa K",
                                                "claim": guest})
    assert answer.json()["user"] == {"id": guest, "name": "Noa K", "guest": False}


def test_a_claim_that_is_not_the_browsers_own_changes_nothing(app: Any) -> None:
    mine, theirs, nobody = browser(app), browser(app), browser(app)
    dana, other_dana = sign_in(mine, "Dana"), sign_in(theirs, "Dana")
    play_a_game(theirs)
    before = what_counts(theirs, other_dana)

    def refused(client: TestClient, login: str, claim: Any, status: int, code: str) -> None:
        answer = client.post("/api/register", json={"login": login, "password": PASSWORD, "claim": claim})
        assert (answer.status_code, answer.json()["code"]) == (status, code), answer.text
        if code != "login_taken":  # and no account was made
            assert browser(app).post("/api/login", json={"login": login, "password": PASSWORD}).status_code == 401

    refused(mine, "dana1", other_dana, 403, "claim_not_yours")  # another browser's guest
    refused(nobody, "dana2", other_dana, 403, "claim_not_yours")  # signed in as nobody
    refused(mine, "dana3", 2**31, 422, "invalid_request")  # no such row can exist
    for shape in ("1", True, [dana], {"id": dana}, 1.5):
        refused(mine, "dana4", shape, 422, "invalid_request")
    assert mine.post("/api/register", json={"login": "taken", "password": PASSWORD}).status_code == 200
    assert mine.post("/api/logout", json={}).status_code == 200
    dana = sign_in(mine, "Dana")
    refused(mine, "TAKEN", dana, 409, "login_taken")  # the guest stays a guest
    assert mine.get("/api/me").json()["user"] == {"id": dana, "name": "Dana", "guest": True}
    assert theirs.get("/api/me").json()["user"] == {"id": other_dana, "name": "Dana", "guest": True}
    assert what_counts(theirs, other_dana) == before

    # An account is claimed once: its own browser asking again is refused.
    claimed = theirs.post("/api/register", json={"login": "dana5", "password": PASSWORD, "claim": other_dana})
    assert claimed.status_code == 200
    answer = theirs.post("/api/register", json={"login": "dana6", "password": PASSWORD, "claim": other_dana})
    assert (answer.status_code, answer.json()["code"]) == (409, "claim_not_guest")
    assert what_counts(theirs, other_dana) == before
