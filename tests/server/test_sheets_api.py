"""The score sheet API (/api/sheets): create, list, read, add and take back hands, who may change
a sheet, and every kind of bad request."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_kit import CHANGE

from israeli_whist.server import api_sheets
from israeli_whist.server.app import create_app
from israeli_whist.server.settings import ServerSettings

NAMES = ["Ann", "Ben", "Dan", "Eve"]
HAND = {"declarer": 1, "level": 5, "strain": "S", "contracts": [3, 5, 0, 4], "tricks": [3, 6, 0, 4]}


@pytest.fixture
def client(app_settings: ServerSettings) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings)) as test_client:
        yield test_client


def sign_in(client: TestClient, name: str = "Scorer") -> int:
    response = client.post("/api/guest", json={"name": name})
    assert response.status_code == 200
    user_id: int = response.json()["user"]["id"]
    return user_id


def other_client(client: TestClient) -> TestClient:
    """A second browser on the same app: its own cookies (the app is already started)."""
    return TestClient(client.app)


def new_sheet(client: TestClient, game: str = "israeli", names: list[str] | None = None,
              preset: str | None = None, **options: Any) -> dict[str, Any]:
    response = client.post("/api/sheets", json={"game": game, "preset": preset, "options": options,
                                                "players": names or NAMES})
    assert response.status_code == 201, response.text
    sheet: dict[str, Any] = response.json()
    return sheet


def add(client: TestClient, sheet_id: str, entry: dict[str, Any], number: int | None = None) -> dict[str, Any]:
    response = client.post(f"/api/sheets/{sheet_id}/hands", json={"entry": entry, "number": number})
    assert response.status_code == 201, response.text
    sheet: dict[str, Any] = response.json()
    return sheet


def refused(response: Any, status: int, fragment: str) -> None:
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    text = detail if isinstance(detail, str) else " ".join(d["msg"] for d in detail)
    assert fragment in text, text


def test_a_sheet_needs_a_session(client: TestClient) -> None:
    refused(client.post("/api/sheets", json={"players": NAMES}), 401, "Sign in")
    refused(client.get("/api/sheets"), 401, "Sign in")


def test_create_enter_hands_and_read_the_sheet(client: TestClient) -> None:
    sign_in(client)
    sheet = new_sheet(client, hands=2)
    assert sheet["mine"] and sheet["players"] == NAMES and sheet["options"] == {"hands": 2}
    assert sheet["hands"] == [] and sheet["totals"] == [0, 0, 0, 0] and not sheet["over"]
    assert sheet["next"] == {"number": 1, "dealer": 0, "hand_size": 13}
    assert sheet["min_levels"][0] == [5, 5, 5, 5, 7] and sheet["min_levels"][3] == [8, 8, 8, 8, 8]
    after = add(client, sheet["id"], HAND, number=1)
    first = after["hands"][0]
    assert first["points"] == [19, -10, 50, 26] and first["over_under"] == "under" and first["dealer"] == 0
    assert first["entry"] == {**HAND, "frisch": 0}
    assert after["totals"] == [19, -10, 50, 26] and after["next"]["dealer"] == 1
    after = add(client, sheet["id"], {**HAND, "revokes": [0, 0, 0, 1]}, number=2)
    assert after["hands"][1]["points"] == [19, -10, 50, -74] and after["hands"][1]["penalties"] == [0, 0, 0, -100]
    assert after["over"] and after["places"] == [2, 3, 1, 4] and after["next"] is None
    read = client.get(f"/api/sheets/{sheet['id']}").json()
    assert read == after


def test_my_sheets_are_listed_newest_first(client: TestClient) -> None:
    sign_in(client)
    first = new_sheet(client)
    add(client, first["id"], HAND)
    second = new_sheet(client, "whistiti", ["A", "B", "C"], players=3)
    listed = client.get("/api/sheets").json()["sheets"]
    assert [s["id"] for s in listed] == [second["id"], first["id"]]
    assert listed[1]["totals"] == [19, -10, 50, 26] and listed[1]["hands_played"] == 1
    assert listed[0]["game"] == "whistiti" and listed[0]["hands_total"] == 17
    stranger = other_client(client)
    sign_in(stranger, "Stranger")
    assert stranger.get("/api/sheets").json() == {"sheets": []}


def test_bad_hands_are_refused_with_the_reason(client: TestClient) -> None:
    sign_in(client)
    sheet_id = new_sheet(client)["id"]
    url = f"/api/sheets/{sheet_id}/hands"
    refused(client.post(url, json={"entry": {**HAND, "contracts": [3, 5, 1, 4]}}), 422,
            "The contracts add up to 13, the number of tricks, so someone must fail: "
            "the last bidder, Ann, may not bid 3")
    refused(client.post(url, json={"entry": {**HAND, "tricks": [3, 6, 0, 3]}}), 422,
            "The tricks add up to 12, but the hand has 13")
    refused(client.post(url, json={"entry": {**HAND, "level": 6}}), 422,
            "The declarer, Ben, must bid at least the auction level, 6")
    refused(client.post(url, json={"entry": {**HAND, "level": 4}}), 422, "A bid in S is from 5 to 13")
    refused(client.post(url, json={"entry": {**HAND, "strain": "Z"}}), 422, "trump strain is one of")
    refused(client.post(url, json={"entry": {**HAND, "contracts": [3, 5, "0", 4]}}), 422, "'contracts' must be")
    refused(client.post(url, json={"entry": {**HAND, "bid": 5}}), 422, "Unknown field 'bid'")
    refused(client.post(url, json={"entry": {"tricks": [7, 6]}}), 422, "'declarer' is missing")
    # Malformed bodies: FastAPI's own checks.
    refused(client.post(url, json={"entry": [1, 2]}), 422, "dictionary")
    refused(client.post(url, json={"hand": HAND}), 422, "Field required")
    refused(client.post(url, content=b"not json", headers={"Content-Type": "application/json"}), 422, "JSON")
    refused(client.post(url, json={"entry": HAND, "number": "two"}), 422, "integer")
    assert client.get(f"/api/sheets/{sheet_id}").json()["hands"] == []


def test_bad_sheets_are_refused(client: TestClient) -> None:
    sign_in(client)
    for body, fragment in [
        ({"game": "bridge", "players": NAMES}, "Unknown game 'bridge'"),
        ({"game": "israeli", "preset": "nope", "players": NAMES}, "No preset 'nope'"),
        ({"game": "israeli", "options": {"colour": "red"}, "players": NAMES}, "Unknown option 'colour'"),
        ({"game": "israeli", "options": {"hands": "many"}, "players": NAMES}, "hands is a whole number"),
        ({"game": "israeli", "players": NAMES[:3]}, "needs 4 players, not 3"),
        ({"game": "whistiti", "options": {"players": 5}, "players": NAMES}, "needs 5 players, not 4"),
        ({"game": "classic", "players": ["Ann", "Ben", "ann", "Eve"]}, "Two players are called"),
        ({"game": "classic", "players": ["Ann", "<b>", "Dan", "Eve"]}, "without < or >"),
        ({"game": "classic", "players": ["Ann", "", "Dan", "Eve"]}, "1 to 40 characters"),
        ({"game": "classic"}, "Field required"),
        ({"game": "classic", "players": "Ann"}, "list"),
        ({"game": "classic", "players": NAMES, "options": []}, "dictionary"),
    ]:
        refused(client.post("/api/sheets", json=body), 422, fragment)
    assert client.get("/api/sheets").json() == {"sheets": []}


def test_only_the_owner_changes_a_sheet_others_may_follow_it(client: TestClient) -> None:
    sign_in(client, "Owner")
    sheet_id = new_sheet(client)["id"]
    add(client, sheet_id, HAND)
    stranger = other_client(client)
    seen = stranger.get(f"/api/sheets/{sheet_id}").json()  # a link is enough to follow the score
    assert not seen["mine"] and seen["totals"] == [19, -10, 50, 26]
    refused(stranger.post(f"/api/sheets/{sheet_id}/hands", json={"entry": HAND}), 401, "Sign in")
    sign_in(stranger, "Stranger")
    refused(stranger.post(f"/api/sheets/{sheet_id}/hands", json={"entry": HAND}), 403, "Only the scorer")
    refused(stranger.delete(f"/api/sheets/{sheet_id}/hands/1", headers=CHANGE), 403, "Only the scorer")
    refused(stranger.delete(f"/api/sheets/{sheet_id}", headers=CHANGE), 403, "Only the scorer")
    assert len(client.get(f"/api/sheets/{sheet_id}").json()["hands"]) == 1


def test_unknown_sheets_are_404(client: TestClient) -> None:
    sign_in(client)
    refused(client.get("/api/sheets/nope"), 404, "No such score sheet")
    refused(client.post("/api/sheets/nope/hands", json={"entry": HAND}), 404, "No such score sheet")
    refused(client.delete("/api/sheets/nope/hands/1", headers=CHANGE), 404, "No such score sheet")
    refused(client.delete("/api/sheets/nope", headers=CHANGE), 404, "No such score sheet")


def test_a_stale_or_repeated_hand_is_refused(client: TestClient) -> None:
    sign_in(client)
    sheet_id = new_sheet(client)["id"]
    add(client, sheet_id, HAND, number=1)
    # A second tap on "add" sends number 1 again: refused, not stored twice.
    refused(client.post(f"/api/sheets/{sheet_id}/hands", json={"entry": HAND, "number": 1}), 409,
            "the next hand is number 2, not 1")
    assert len(client.get(f"/api/sheets/{sheet_id}").json()["hands"]) == 1


def test_no_hands_after_the_end(client: TestClient) -> None:
    sign_in(client)
    sheet_id = new_sheet(client, hands=1)["id"]
    assert add(client, sheet_id, HAND)["over"]
    refused(client.post(f"/api/sheets/{sheet_id}/hands", json={"entry": HAND}), 409, "The game is over")


def test_a_sheet_has_a_limit_of_hands(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(api_sheets, "MAX_HANDS", 2)
    sign_in(client)
    sheet_id = new_sheet(client, hands=0, target=1000)["id"]
    add(client, sheet_id, {"declarer": None})
    add(client, sheet_id, HAND)
    refused(client.post(f"/api/sheets/{sheet_id}/hands", json={"entry": HAND}), 409, "at most 2 hands")


def test_take_back_only_the_last_hand(client: TestClient) -> None:
    sign_in(client)
    sheet_id = new_sheet(client, hands=2)["id"]
    add(client, sheet_id, {"declarer": None})
    add(client, sheet_id, HAND)
    refused(client.delete(f"/api/sheets/{sheet_id}/hands/1", headers=CHANGE), 409, "Only the last hand, number 2")
    refused(client.delete(f"/api/sheets/{sheet_id}/hands/3", headers=CHANGE), 404, "no hand 3")
    back = client.delete(f"/api/sheets/{sheet_id}/hands/2", headers=CHANGE).json()
    assert len(back["hands"]) == 1 and back["hands"][0]["cancelled"] and back["totals"] == [0, 0, 0, 0]
    assert back["next"] == {"number": 2, "dealer": 0, "hand_size": 13}  # the same dealer deals again
    back = client.delete(f"/api/sheets/{sheet_id}/hands/1", headers=CHANGE).json()
    assert back["hands"] == []
    refused(client.delete(f"/api/sheets/{sheet_id}/hands/1", headers=CHANGE), 404, "no hand 1")
    assert add(client, sheet_id, HAND, number=1)["hands_played"] == 1


def test_delete_a_sheet(client: TestClient) -> None:
    sign_in(client)
    sheet_id = new_sheet(client)["id"]
    add(client, sheet_id, HAND)
    assert client.delete(f"/api/sheets/{sheet_id}", headers=CHANGE).status_code == 204
    refused(client.get(f"/api/sheets/{sheet_id}"), 404, "No such score sheet")
    assert client.get("/api/sheets").json() == {"sheets": []}


def test_classic_and_whistiti_sheets(client: TestClient) -> None:
    sign_in(client)
    classic = new_sheet(client, "classic", preset="honours")
    assert classic["rules"]["honours"] and classic["game_points"] == [0, 0]
    assert classic["traits"]["partnerships"] and classic["traits"]["sheet_fields"] == ["tricks", "honours", "revokes"]
    refused(client.post(f"/api/sheets/{classic['id']}/hands", json={"entry": {"tricks": [7, 6]}}), 422,
            "This sheet counts honours")
    after = add(client, classic["id"], {"tricks": [7, 6], "honours": [1, 3], "revokes": [1, 0]})
    assert after["hands"][0]["points"] == [1, 5, 1, 5] and after["hands"][0]["honours"] == [0, 2]
    assert after["hands"][0]["penalties"] == [0, 3, 0, 3] and after["game_points"] == [0, 0]
    assert after["over"] and after["games_won"] == [0, 1] and after["places"] == [2, 1, 2, 1]
    assert after["hands"][0]["game_won"] == 1
    whistiti = new_sheet(client, "whistiti", ["A", "B", "C"], players=3, schedule="2,1")
    assert whistiti["next"] == {"number": 1, "dealer": 0, "hand_size": 2} and "min_levels" not in whistiti
    assert whistiti["traits"]["hand_size_varies"] and whistiti["traits"]["contract_word"] == "bid"
    refused(client.post(f"/api/sheets/{whistiti['id']}/hands",
                        json={"entry": {"contracts": [1, 1, 0], "tricks": [1, 1, 0]}}), 422,
            "the last bidder, A, may not bid 1")
    after = add(client, whistiti["id"], {"contracts": [1, 1, 1], "tricks": [2, 0, 0]})
    assert after["hands"][0]["points"] == [-5, -5, -5] and after["next"]["hand_size"] == 1
    after = add(client, whistiti["id"], {"contracts": [1, 1, 0], "tricks": [0, 1, 0]})
    assert after["totals"] == [-10, 10, 5] and after["over"] and after["places"] == [3, 1, 2]


def test_sheets_survive_a_restart(app_settings: ServerSettings) -> None:
    with TestClient(create_app(app_settings)) as first:
        sign_in(first)
        sheet_id = new_sheet(first, "whistiti")["id"]
        add(first, sheet_id, {"contracts": [1, 1, 0, 0], "tricks": [1, 0, 0, 0]})
        cookies = dict(first.cookies)
    with TestClient(create_app(app_settings), cookies=cookies) as second:
        resumed = second.get(f"/api/sheets/{sheet_id}").json()
        assert resumed["mine"] and resumed["totals"] == [15, -5, 10, 10]
        assert resumed["next"] == {"number": 2, "dealer": 1, "hand_size": 2}
        after = add(second, sheet_id, {"contracts": [1, 1, 0, 1], "tricks": [1, 1, 0, 0]}, number=2)
        assert after["totals"] == [30, 10, 20, 5]


def test_three_players_without_clubs_offer_and_take_no_clubs_bid(client: TestClient) -> None:
    sign_in(client)
    assert new_sheet(client)["bid_strains"] == ["C", "D", "H", "S", "NT"]
    assert new_sheet(client, preset="no_nt")["bid_strains"] == ["C", "D", "H", "S"]
    sheet = new_sheet(client, names=NAMES[:3], preset="three_no_clubs")
    assert sheet["bid_strains"] == ["D", "H", "S", "NT"]
    clubs = {"declarer": 0, "level": 5, "strain": "C", "contracts": [5, 4, 2], "tricks": [5, 4, 4]}
    refused(client.post(f"/api/sheets/{sheet['id']}/hands", json={"entry": clubs}), 422, "no clubs in this pack")
    assert add(client, sheet["id"], {**clubs, "strain": "D"})["hands_played"] == 1
