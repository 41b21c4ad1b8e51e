"""Games played to the end through the API, for the tests of finished games: a guest, a table,
and our seat's moves over the table's WebSocket (a random legal action each turn)."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

BOTS = [{"kind": "bot", "level": "basic"}] * 3


def sign_in(client: TestClient, name: str) -> int:
    response = client.post("/api/guest", json={"name": name})
    assert response.status_code == 200
    user_id: int = response.json()["user"]["id"]
    return user_id


def new_table(client: TestClient, game: str, options: dict[str, Any], seats: list[dict[str, str]],
              take_seat: int | None = 0, public: bool = True) -> dict[str, Any]:
    response = client.post("/api/tables", json={"game": game, "options": options, "seats": seats,
                                                 "take_seat": take_seat, "public": public})
    assert response.status_code == 201, response.text
    table: dict[str, Any] = response.json()
    return table


def play_to_the_end(client: TestClient, table_id: str, seed: int = 1) -> dict[str, Any]:
    """Play our seat, if we have one, or only watch, until the game is over; returns the last state."""
    rng = random.Random(seed)
    acted = -1
    with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
        for _ in range(20000):
            message = socket.receive_json()
            if message["type"] == "error":
                assert message["code"] == "stale", message
                message = message["state"]
            if message["type"] != "state":
                continue
            if message["score"]["over"]:
                return dict(message)
            view = message["view"]
            if view["player"] == message["you"] >= 0 and view["legal"] and message["version"] != acted:
                acted = message["version"]
                choice = rng.choice(view["legal"])["action"]
                socket.send_json({"type": "act", "action": choice, "version": acted, "id": f"a{acted}"})
    raise AssertionError("the game did not end")
