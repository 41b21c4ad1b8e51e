"""Duplicate events on several nodes (israeli_whist.server.events on one PostgreSQL): the same play
against a board's seeded bots gets the same bot answers on every node and at any time of the
event, after a restart, and after the node has played other boards; and those answers are the
ones the seed promises (``core.duplicate.decision_seed``), made again here without a server."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_kit import Player, connect, event_seed, sign_in, stored_actions, use

from israeli_whist.bots.players.registry import make_bot
from israeli_whist.core.duplicate import board_game, board_match, board_seed, decision_seed
from israeli_whist.core.views import seat_view
from israeli_whist.server.app import create_app
from israeli_whist.server.settings import ServerSettings

Message = dict[str, Any]


@pytest.fixture
def settings(app_settings: ServerSettings, postgres_url: str) -> ServerSettings:
    return dataclasses.replace(app_settings, database_url=postgres_url, lease_seconds=2.0)


@contextmanager
def node(settings: ServerSettings, name: str) -> Iterator[TestClient]:
    with TestClient(create_app(dataclasses.replace(settings, node_name=name))) as client:
        yield client


def start(client: TestClient, player: Player, event: Message, board: int) -> str:
    response = use(client, player).post(f"/api/events/{event['id']}/boards/{board}/play",
                                        json={"invite": event["invite"]})
    assert response.status_code == 201, response.text
    return str(response.json()["table"])


def play_scripted(client: TestClient, player: Player, table_id: str, moves: int | None = None) -> str:
    """Play the board at ``table_id`` to its end (or for ``moves`` of the person's moves) with the same
    person's choices for the same states: each drawn from the legal actions by a generator seeded
    with the number of actions so far."""
    with connect(client, player, table_id) as conn:
        while moves is None or moves > 0:
            state = conn.state
            if not state["score"]["over"] and state["view"]["player"] != 0:
                state = conn.until(lambda m: m["type"] == "state" and (m["score"]["over"] or m["view"]["player"] == 0))
            if state["score"]["over"]:
                break
            legal = [option["action"] for option in state["view"]["legal"]]
            choice = random.Random(state["version"]).choice(legal)
            assert conn.act(choice, state["version"])["type"] == "ack"
            moves = None if moves is None else moves - 1
    return table_id


def test_the_same_play_meets_the_same_bots_on_every_node_and_at_any_time(settings: ServerSettings) -> None:
    with node(settings, "north") as north, node(settings, "south") as south:
        ann, ben = sign_in(north, "Ann"), sign_in(south, "Ben")
        body = {"name": "Two nodes", "boards": 2, "bot_level": "hard", "public": False, "hours": 1}
        event = use(north, ann).post("/api/events", json=body).json()
        first = play_scripted(north, ann, start(north, ann, event, 2))
        play_scripted(south, ben, start(south, ben, event, 1))  # south has played another board meanwhile
        second = play_scripted(south, ben, start(south, ben, event, 2))
    with node(settings, "east") as east:  # a node started later
        dana, eli = sign_in(east, "Dana"), sign_in(east, "Eli")
        third = play_scripted(east, dana, start(east, dana, event, 2))
        fourth = play_scripted(east, eli, start(east, eli, event, 2), moves=4)  # stopped mid-board ...
    with node(settings, "west") as west:  # ... and finished on a node that rebuilt the table
        play_scripted(west, eli, fourth)
    played = [stored_actions(settings.database_url, table) for table in (first, second, third, fourth)]
    assert played[0] == played[1] == played[2] == played[3]
    played = [stored_actions(settings.database_url, table) for table in (first, second, third)]
    assert any(by_bot for *_, by_bot in played[0])

    # The bots' answers are those of a bot made afresh from the board, the seat and the step.
    seed = event_seed(settings.database_url, event["id"])
    game = board_game("israeli", None, {}, 2)
    match = board_match(game, seed, 2)
    for step, seat, action, by_bot in played[0]:
        if by_bot:
            bot = make_bot("hard", decision_seed(board_seed(seed, 2), seat, step))
            assert bot.choose(seat_view(match.hand, seat)) == action, f"step {step}"
        match = match.apply(action)
    assert match.over
