"""What the log tells: one sentence a line, so that the narrow log beside the card table wraps inside
a sentence only (it wrapped mid-phrase, two sentences to a line), and each seat's own actions as "You"."""

from __future__ import annotations

import re

from israeli_whist.cli.narrate import action_lines
from israeli_whist.core.actions import PASS
from israeli_whist.core.games import make_game
from israeli_whist.core.state import HandState
from israeli_whist.core.views import seat_view

NAMES = ["Ann", "Bot 2", "Bot 3", "Bot 4"]
SECOND_SENTENCE = re.compile(r"[.;!?] +[A-Z]")


def told(state: HandState, seat: int, passing: bool) -> list[str]:
    """Every line ``seat`` is told through a hand: passes in the auction (a Frisch) or the first bid."""
    lines: list[str] = []
    while not state.is_terminal:
        legal = state.legal_actions()
        action = PASS if passing and PASS in legal else legal[1] if len(legal) > 1 and PASS in legal else legal[0]
        after = state.apply(action)
        lines += [line.plain for line in action_lines(seat_view(state, seat), state.player, action,
                                                      seat_view(after, seat), NAMES)]
        state = after
    return lines


def test_the_log_says_one_sentence_a_line() -> None:
    said: list[str] = []
    for seed in range(4):
        for passing in (False, True):
            said += told(make_game("israeli").new_hand(seed % 4, f"narrate-{seed}"), seed % 4, passing)
    assert any("wins the auction" in line or "win the auction" in line for line in said)
    assert any(line.startswith("All pass: Frisch") for line in said)
    assert any(line.startswith("Contracts: ") for line in said)
    for line in said:
        for part in line.split("\n"):
            assert not SECOND_SENTENCE.search(part), part
