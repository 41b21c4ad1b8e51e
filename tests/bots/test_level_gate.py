"""The one gate for bot levels (``israeli_whist.bots.players.registry``): any text is a bot or one line that says
why not, for the command line's levels and for a web client's seat alike; and each setting of a
searching level is listed once, in the table the parser, the errors and the help read."""

from __future__ import annotations

from dataclasses import fields

import pytest
from hypothesis import given
from hypothesis import strategies as st

from israeli_whist.bots.players.expert import ExpertBot, ExpertSettings
from israeli_whist.bots.players.registry import (
    BOT_LEVELS,
    LEVEL_FORMS,
    LEVEL_HELP,
    LEVEL_SETTINGS,
    SETTING_FORMS,
    LevelSetting,
    UnknownLevelError,
    check_level,
    check_level_name,
    is_entry_point,
    make_bot,
)

# Text a level may be: names, budgets and settings pieces among any Unicode (lone surrogates and
# bidi controls included), joined the ways a level is written.
PIECES = st.one_of(st.sampled_from([*BOT_LEVELS, "@", ":", "=", "100ms", "1.5s", "deals=64", "exact=3", "infer=2",
                                    "bidslope=15", "ending=", "0", "999999", "\u202e", "\ud800", "\x00"]),
                   st.text(max_size=8))
LEVEL_TEXT = st.lists(PIECES, max_size=6).map("".join)


def assert_one_line(error: UnknownLevelError) -> None:
    text = str(error)
    assert text.startswith("Unknown bot level ") and text.isprintable() and len(text) < 1000, text


@given(LEVEL_TEXT)
def test_any_text_is_a_bot_or_one_line_saying_why_not(level: str) -> None:
    if is_entry_point(level):  # an import: the entry points' own tests
        return
    try:
        bot = make_bot(level, 1)
    except UnknownLevelError as error:
        assert_one_line(error)
        return
    assert check_level(level) == level
    name = level.split("@")[0].split(":")[0]
    assert isinstance(bot, BOT_LEVELS[name])


@given(st.one_of(LEVEL_TEXT, st.sampled_from(["expert@100ms", "expert:deals=8", "mybots.agent:make", "os:getcwd"])))
def test_a_tables_seat_takes_level_names_only(level: str) -> None:
    if level in BOT_LEVELS:
        assert check_level_name(level) == level
        return
    with pytest.raises(UnknownLevelError) as refused:
        check_level_name(level)
    assert_one_line(refused.value)
    assert f"a table's seat takes one of the levels {', '.join(BOT_LEVELS)}" in str(refused.value)


@pytest.mark.parametrize("setting", LEVEL_SETTINGS, ids=lambda setting: setting.key)
def test_each_setting_reaches_its_fields_within_its_bounds(setting: LevelSetting) -> None:
    assert set(setting.fields) <= {field.name for field in fields(ExpertSettings)}
    for number in (setting.low, setting.high):
        bot = make_bot(f"expert:{setting.key}={number}")
        assert isinstance(bot, ExpertBot)
        for name in setting.fields:
            assert getattr(bot.settings, name) == number / setting.per
    for number in (setting.low - 1, setting.high + 1):
        with pytest.raises(UnknownLevelError, match=f"{setting.key} is a whole number from {setting.low} to "
                                                    f"{setting.high}"):
            make_bot(f"expert:{setting.key}={number}")
    assert setting.form in SETTING_FORMS and f"{setting.form}: {setting.meaning}" in LEVEL_HELP


def test_the_errors_and_the_help_word_the_forms_in_one_text() -> None:
    names = ", ".join(BOT_LEVELS)
    with pytest.raises(UnknownLevelError) as refused:
        make_bot("genius")
    assert str(refused.value) == f"Unknown bot level 'genius'; levels: {names}; or {LEVEL_FORMS}"
    # The help is the same text, with each setting's meaning in place of the list of their forms.
    meanings = "; ".join(f"{setting.form}: {setting.meaning}" for setting in LEVEL_SETTINGS)
    help_text = LEVEL_HELP
    assert help_text == f"{names}; or {LEVEL_FORMS.replace(f'the settings {SETTING_FORMS}', meanings)}"
