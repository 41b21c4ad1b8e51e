"""A table whose stored actions no longer replay is left out at start; the others carry on."""

from __future__ import annotations

import sqlite3

from fastapi.testclient import TestClient
from server_kit import create_table, sign_in

from israeli_whist.server.app import create_app
from israeli_whist.server.settings import ServerSettings


def test_a_table_that_does_not_replay_is_left_out_and_the_others_resume(app_settings: ServerSettings) -> None:
    with TestClient(create_app(app_settings)) as client:
        ann = sign_in(client, "Ann")
        broken = create_table(client, ann, "hhhh", options={"hands": 1})["id"]
        sound = create_table(client, ann, "hhhh", options={"hands": 1})["id"]
    # Seat 1 calls first (left of the dealer): an action stored for seat 0 cannot be replayed.
    with sqlite3.connect(app_settings.database_url.removeprefix("sqlite:///")) as db:
        db.execute("INSERT INTO actions (table_id, seq, seat, action, by_bot, created_at) "
                   "VALUES (?, 0, 0, 52, 0, '2026-11-29 00:00:00')", (broken,))
    with TestClient(create_app(app_settings)) as client:
        assert client.get("/health").json()["tables"] == 1
        assert client.get(f"/api/tables/{broken}").status_code == 404
        assert client.get(f"/api/tables/{sound}").status_code == 200
