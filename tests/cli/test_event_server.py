"""A board played in the web app and the same board played with ``whist event play`` meet the same bots:
the person's moves of a server board typed at the terminal's prompts get the server's bot answers,
action for action, from the event's seed and rules alone (``core.duplicate``, ``bots.matches.boardbots``)."""

from __future__ import annotations

import io
import random
from pathlib import Path

from fastapi.testclient import TestClient
from rich.console import Console
from server_kit import connect, event_seed, sign_in, stored_actions, use

from israeli_whist.cli.eventfile import load_event, new_event, save_event
from israeli_whist.cli.eventplay import play_board
from israeli_whist.core.actions import action_name
from israeli_whist.server.app import create_app
from israeli_whist.server.settings import ServerSettings

OPTIONS = {"nt_minimum": "6", "frisch_rounds": "1"}  # house rules, which the file writes out whole
BOARD = 2  # dealt by the second seat


def play_on_server(client: TestClient, settings: ServerSettings) -> tuple[str, list[tuple[int, str]]]:
    """An event's board played through the API, the person choosing among the legal actions by a
    generator seeded with the step; the event's seed and the board's actions as stored."""
    ann = sign_in(client, "Ann")
    body = {"name": "Club", "game": "israeli", "options": OPTIONS, "boards": 2, "bot_level": "hard",
            "public": False, "hours": 1}
    event = use(client, ann).post("/api/events", json=body).json()
    played = use(client, ann).post(f"/api/events/{event['id']}/boards/{BOARD}/play", json={"invite": event["invite"]})
    table = played.json()["table"]
    with connect(client, ann, table) as conn:
        while True:
            state = conn.until(lambda m: m["type"] == "state" and (m["score"]["over"] or m["view"]["player"] == 0)) \
                if not (conn.state["score"]["over"] or conn.state["view"]["player"] == 0) else conn.state
            if state["score"]["over"]:
                break
            legal = [option["action"] for option in state["view"]["legal"]]
            assert conn.act(random.Random(state["version"]).choice(legal), state["version"])["type"] == "ack"
    stored = stored_actions(settings.database_url, table)
    actions = [(seat, action_name(action)) for _, seat, action, _ in stored]
    return event_seed(settings.database_url, event["id"]), actions


def test_the_terminal_meets_the_servers_bots(app_settings: ServerSettings, tmp_path: Path) -> None:
    with TestClient(create_app(app_settings)) as client:
        seed, on_server = play_on_server(client, app_settings)
    assert any(seat != 0 for seat, _ in on_server) and any(seat == 0 for seat, _ in on_server)

    path = tmp_path / "club.json"
    save_event(new_event("Club", "israeli", None, OPTIONS, seed, 2, "hard"), path)
    moves = iter(text for seat, text in on_server if seat == 0)

    def type_the_servers_moves(prompt: str) -> str:
        return next(moves) if "(legal: " in prompt else ""  # Enter between deals, where one is thrown in

    code = play_board(path, load_event(path), "Ann", BOARD, Console(file=io.StringIO()), type_the_servers_moves)
    assert code == 0
    assert list(load_event(path).results[0].actions) == on_server
