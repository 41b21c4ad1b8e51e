"""Fuzzing the hint message (server/hints.py) with any JSON of any type in its fields (the id, and
fields it does not read), at a practice table and at a rated one, from the seat on turn and from a
spectator. No traceback, no ``internal`` answer, nothing logged; every answer is a hint or a refusal
with one of the codes an ask can meet; the socket stays usable and the game as it was; and the game
stores exactly the hints it sent. Examples are derandomized, as in test_server_fuzz.py."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from server_kit import connect, create_table, errors_logged, live, logged_text, reply_to, sign_in
from test_server_fuzz import fuzz, json_values, raw_json, texts

from israeli_whist.server.api_tables import message_id_of
from israeli_whist.server.app import create_app
from israeli_whist.server.hintstore import game_hints
from israeli_whist.server.settings import ServerSettings

EXAMPLES = 120
# What an ask may be answered with here: the table's own refusals (no stale: nothing moves meanwhile).
CODES = {"hints_off", "spectator", "not_your_turn", "malformed", "too_large"}

# Fields of any name too: an ask reads only its type and id.
asks = st.builds(lambda extra, ask: {**extra, **ask}, st.dictionaries(texts, json_values, max_size=3),
                 st.fixed_dictionaries({"type": st.just("hint")},
                                       optional={"id": st.one_of(json_values, texts), "version": json_values,
                                                 "action": json_values, "seat": json_values}))


@pytest.fixture
def client(app_settings: ServerSettings) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings)) as test_client:
        yield test_client


def test_hint_asks_of_any_shape(client: TestClient) -> None:
    ann, cid = sign_in(client, "Ann"), sign_in(client, "Cid")
    practice = create_table(client, ann, "hbbb", options={"hands": 8}, hints=True)["id"]
    rated = create_table(client, ann, "hbbb", options={"hands": 8})["id"]
    counts = {"hints": 0, "errors": 0}
    with errors_logged() as logged, connect(client, ann, practice) as seated, \
            connect(client, cid, practice) as watching, connect(client, ann, rated) as at_rated:
        # The bots call until Ann's turn, then wait on her: from here only a move could change the game.
        for conn in (seated, at_rated):
            conn.until(lambda m: m["type"] == "state" and m["view"]["player"] == m["you"])
        table = live(client.app, practice)

        @fuzz(EXAMPLES)
        @given(message=asks, where=st.sampled_from(["seated", "watching", "rated"]))
        def one_ask(message: dict[str, Any], where: str) -> None:
            conn = {"seated": seated, "watching": watching, "rated": at_rated}[where]
            version, match = table.version, table.match
            conn.send_text(raw_json(message))
            reply = conn.until(lambda m: m["type"] in ("hint", "error"))
            if reply["type"] == "hint":
                counts["hints"] += 1
                assert where == "seated" and reply["hint"]["seat"] == 0 and reply["version"] == version
            else:
                counts["errors"] += 1
                assert reply["code"] in CODES, reply
                assert where != "seated" or reply["code"] in ("malformed", "too_large"), reply
            # The id echoed where it can be, else null (a message past the limit is not read at all).
            assert reply["id"] == (None if reply.get("code") == "too_large" else message_id_of(message)), reply
            assert table.version == version and table.match is match, "a hint changed the game"
            assert reply_to(conn, '{"type": "ping"}') == {"type": "pong"}
            assert not logged, logged_text(logged)

        one_ask()
    with client.app.state.store.begin() as c:  # type: ignore[attr-defined]
        stored = game_hints(c, practice)
    print(f"hint fuzz: {counts}, {len(stored)} stored")
    assert len(stored) == counts["hints"] > EXAMPLES // 5 and counts["errors"] > EXAMPLES // 5
    assert all(hint == {"hand": 1, "step": stored[0]["step"], "seat": 0} for hint in stored)
    assert not logged, logged_text(logged)
