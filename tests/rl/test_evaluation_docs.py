"""docs/rl.md's evaluation protocol: its example bot plays legal hands from a policy's weights,
and what it says ``whist tournament`` prints is what it prints."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from israeli_whist.bots.matches.tournament import run_tournament, spec_from
from israeli_whist.cli.tournament import difference_lines, summary_table
from israeli_whist.core.games import make_game
from israeli_whist.rl.encoding import action_space_size, observation_size

SECTION = "Evaluating your own agent"
DIFFERENCE = re.compile(r"\S+ - \S+: [+-]\d+\.\d\d points a hand, paired by deal; "
                        r"95% CI \[-?\d+\.\d\d, -?\d+\.\d\d\] \((above zero|below zero|includes zero)\)")


def test_the_example_bot_plays_a_hand_from_the_policys_weights(
        rl_doc_examples: Callable[[str], list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = make_game("whistiti").rules
    rng = np.random.default_rng(0)
    np.save(tmp_path / "whistiti-policy.npy", rng.normal(size=(action_space_size(rules), observation_size(rules) + 1)))
    monkeypatch.chdir(tmp_path)
    (example,) = rl_doc_examples(SECTION)
    namespace: dict[str, Any] = {}
    exec(compile(example, "docs/rl.md", "exec"), namespace)
    hand = namespace["hand"]
    assert hand.is_terminal and hand.hand_size == 7
    bot = namespace["make_policy_bot"](5)
    again = namespace["make_policy_bot"](5)
    assert bot.weights is again.weights, "the weights are loaded once"


def test_the_lines_the_docs_quote_are_the_commands(rl_doc_section: Callable[[str], str]) -> None:
    section = rl_doc_section(SECTION)
    quoted = re.search(r"`(\S+ - \S+: .*?\))`", section)
    assert quoted and DIFFERENCE.fullmatch(quoted.group(1))
    result = run_tournament(spec_from("whistiti", ["basic", "random"], deals=3, seed=1), workers=1)
    (line,) = difference_lines(result)
    assert DIFFERENCE.fullmatch(line)
    columns = [column.header for column in summary_table(result).columns]
    for column in ("mean", "±95% CI", "made", "0 made", "over", "under", "ms mean", "ms med"):
        assert column in columns and f"`{column}`" in section
    summary = result.summary()
    assert {"ci95", "above_zero"} <= set(summary["differences"][0]) and "results" in summary
    assert ["".join("AB"[b] for b in seating) for seating in result.arrangements] == [
        "AABB", "ABAB", "ABBA", "BAAB", "BABA", "BBAA"]
    assert "AABB, ABAB, ABBA, BAAB, BABA, BBAA" in section
