"""``whist rules`` lists every option and preset, whole, even in 80 columns."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from israeli_whist.cli.main import app
from israeli_whist.core.games import RULES_BY_GAME


def test_rules_lists_every_option_and_preset_of_every_game(runner: CliRunner) -> None:
    result = runner.invoke(app, ["rules"], env={"COLUMNS": "80"})
    assert result.exit_code == 0
    words = set(result.output.split())
    for rules_cls in RULES_BY_GAME.values():
        for name in rules_cls.option_names():
            assert name in words, name
        for preset in rules_cls.PRESETS:
            assert preset in words, preset


@pytest.mark.parametrize("game", list(RULES_BY_GAME))
def test_rules_of_one_game(runner: CliRunner, game: str) -> None:
    result = runner.invoke(app, ["rules", game])
    assert result.exit_code == 0
    words = set(result.output.split())
    assert set(RULES_BY_GAME[game].option_names()) <= words
    others = {name for other, cls in RULES_BY_GAME.items() if other != game for name in cls.option_names()}
    assert not (others - set(RULES_BY_GAME[game].option_names())) & words


def test_rules_show_defaults_and_preset_changes(runner: CliRunner) -> None:
    result = runner.invoke(app, ["rules", "israeli"], env={"COLUMNS": "120"})
    assert "default: 7  allowed: 5..13" in result.output
    assert "zero_scoring=achim" in result.output
    assert "auction_end=four_passes" in result.output


def test_unknown_game_is_refused(runner: CliRunner) -> None:
    result = runner.invoke(app, ["rules", "bridge"])
    assert result.exit_code == 2
