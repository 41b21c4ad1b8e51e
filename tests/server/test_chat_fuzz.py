"""Fuzzing talk at a table (server/chat.py): chat messages, reactions, the creator's choice of who
may talk and the request for the recent messages, with any JSON of any type in every field, text of
any size and any Unicode (lone surrogates, bidi controls, joiners, private use, unassigned code
points), from a seat and from a spectator. No traceback, no ``internal`` answer, nothing logged;
the socket stays usable (a ping still gets its pong) and the game as it was; and every message
anyone is sent is text as the rules make it: 1 to 200 characters of UTF-8, no invisible character
but the emoji's joiner. Examples are derandomized, as in test_server_fuzz.py."""

from __future__ import annotations

import dataclasses
import json
import unicodedata
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from server_kit import connect, create_table, errors_logged, live, logged_text, reply_to, sign_in
from test_server_fuzz import NASTY_TEXT, fuzz, json_values, raw_json, texts

from israeli_whist.server.app import create_app
from israeli_whist.server.chat import MAX_CHAT, REACTIONS
from israeli_whist.server.chatstore import CHAT_MODES
from israeli_whist.server.settings import RateLimits, ServerSettings

EXAMPLES = 600

any_unicode = st.text(st.characters(codec=None), min_size=0, max_size=400)
long_texts = st.sampled_from([MAX_CHAT * "é", (MAX_CHAT + 1) * "x", "e\u0301" * MAX_CHAT, "\u202e" * 3000,
                              "🂡" * 900, " \n\t" * 500, "<img src=x onerror=alert(1)>"])
chat_texts = st.one_of(texts, any_unicode, long_texts, st.sampled_from(NASTY_TEXT), json_values)
talk = st.one_of(
    st.fixed_dictionaries({"type": st.just("chat"), "text": chat_texts}, optional={"id": json_values}),
    st.fixed_dictionaries({"type": st.just("react"), "reaction": st.one_of(st.sampled_from(REACTIONS), texts,
                                                                           json_values)},
                          optional={"id": json_values}),
    st.fixed_dictionaries({"type": st.just("chat_mode"), "mode": st.one_of(st.sampled_from(CHAT_MODES), texts,
                                                                           json_values)},
                          optional={"id": json_values}),
    st.fixed_dictionaries({"type": st.sampled_from(["chat", "react", "chat_mode", "chat_log"])},
                          optional={"text": json_values, "reaction": json_values, "mode": json_values,
                                    "id": json_values}),
)


@pytest.fixture
def client(app_settings: ServerSettings) -> Iterator[TestClient]:
    # As fast as Hypothesis can send: no rate limits here (test_chat.py tests the chat's).
    with TestClient(create_app(dataclasses.replace(app_settings, rate_limits=RateLimits.off()))) as test_client:
        yield test_client


def shown_as_the_rules_make_it(said: dict[str, Any]) -> None:
    if "reaction" in said:
        assert said["reaction"] in REACTIONS
        return
    text = said["text"]
    text.encode("utf-8")  # strict: no lone surrogate
    assert 1 <= len(text) <= MAX_CHAT and text == " ".join(text.split())
    assert unicodedata.normalize("NFC", text) == text
    assert all(unicodedata.category(char) not in ("Cc", "Cf", "Cs", "Co", "Cn") or char == "\u200d" for char in text)


def test_talk_of_any_shape(client: TestClient) -> None:
    ann, cid = sign_in(client, "Ann"), sign_in(client, "Cid")
    table_id = create_table(client, ann, "hbbb", options={"hands": 8})["id"]
    table = live(client.app, table_id)
    counts = {"examples": 0, "acks": 0, "errors": 0}
    with errors_logged() as logged, connect(client, ann, table_id) as seated, \
            connect(client, cid, table_id) as watching:
        # The bots make their calls until Ann's turn, then wait on her: from here only talk could
        # change the game.
        seated.until(lambda m: m["type"] == "state" and m["view"]["player"] == m["you"])

        @fuzz(EXAMPLES)
        @given(message=talk, from_seat=st.booleans())
        def one_message(message: dict[str, Any], from_seat: bool) -> None:
            conn = seated if from_seat else watching
            version, match = table.version, table.match
            if message.get("type") == "chat_log":
                conn.send_text(raw_json(message))
                reply = conn.until(lambda m: m["type"] in ("chat_log", "error"))
            else:
                reply = reply_to(conn, raw_json(message))
            counts["examples"] += 1
            counts["acks" if reply["type"] in ("ack", "chat_log") else "errors"] += 1
            if reply["type"] == "error":
                assert reply["code"] != "internal", reply
            assert table.version == version and table.match is match, "talk changed the game"
            assert reply_to(conn, '{"type": "ping"}') == {"type": "pong"}
            assert not logged, logged_text(logged)

        one_message()
    said = [m["message"] for conn in (seated, watching) for m in conn.messages if m["type"] == "chat"]
    said += [m for conn in (seated, watching) for log in conn.messages if log["type"] == "chat_log"
             for m in log["messages"]]
    for message in said:
        json.dumps(message, ensure_ascii=False).encode("utf-8")
        shown_as_the_rules_make_it(message)
    print(f"chat fuzz: {counts}, {len(said)} messages shown")
    assert counts["examples"] >= EXAMPLES and counts["acks"] > EXAMPLES // 10 and counts["errors"] > EXAMPLES // 4
    assert not logged, logged_text(logged)
