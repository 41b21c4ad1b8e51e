"""One rule for people's names (server, score sheet, terminal): any text is either refused with a
message or made into a name that shows what it is."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from israeli_whist.core.errors import WhistError
from israeli_whist.core.names import MAX_NAME, REFUSED, NameRefused, normal_name


@pytest.mark.parametrize(("text", "name"), [
    ("  Ann   Lee ", "Ann Lee"),
    ("Cafe\u0301", "Caf\u00e9"),  # composed, so it equals the name typed the other way
    ("דני", "דני"),
    ("🂡", "🂡"),
    ("x" * MAX_NAME, "x" * MAX_NAME),
])
def test_names_are_trimmed_and_composed(text: str, name: str) -> None:
    assert normal_name(text) == name


@pytest.mark.parametrize(("text", "fragment"), [
    ("", "this one is empty"),
    ("\t \n", "control character"),
    ("\u202eEve", "invisible formatting character (U+202E RIGHT-TO-LEFT OVERRIDE)"),
    ("\u2066Eve\u2069", "invisible formatting character (U+2066"),
    ("E\u200dve", "invisible formatting character (U+200D"),
    ("\ud800", "lone surrogate (U+D800)"),
    ("\ue000", "private-use character (U+E000)"),
    ("\u3164", "drawn as nothing"),
    ("\u0301", "needs a letter"),
    ("<b>", "without < or >"),
    ("x" * (MAX_NAME + 1), f"1 to {MAX_NAME} characters, not {MAX_NAME + 1}"),
])
def test_names_that_hide_or_disguise_are_refused(text: str, fragment: str) -> None:
    with pytest.raises(NameRefused) as refused:
        normal_name(text)
    assert fragment in str(refused.value)
    assert isinstance(refused.value, WhistError)  # every front end answers it as a refusal, not a crash


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=60))
def test_any_text_is_a_clean_name_or_a_refusal(text: str) -> None:
    try:
        name = normal_name(text)
    except NameRefused as refused:
        assert str(refused).startswith("A name ")
        return
    assert 1 <= len(name) <= MAX_NAME and name == name.strip() and "  " not in name
    assert unicodedata.normalize("NFC", name) == name
    assert not any(unicodedata.category(char) in REFUSED for char in name)
    assert normal_name(name) == name  # a stored name is taken again unchanged
