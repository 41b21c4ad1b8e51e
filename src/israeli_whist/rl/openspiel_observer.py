"""What an OpenSpiel player observes of a whist hand: the observation and the information state,
as tensors and as text, every one made from the seat's ``SeatView``.

- The **observation** is ``israeli_whist.rl.encoding``'s vector and text of the view: the same numbers
  the PettingZoo and Gymnasium environments give.
- The **information state** adds what a player remembers and the observation sums up: every
  trick in order (who led, and the card of each seat), the cards passed and received in each
  Frisch round, and the card turned up at the deal (Classic Whist's goes back into the dealer's
  hand, so the view stops showing it). Its text adds every trump call of every round and every
  trick. The vector sums up the calls of the auction under way by each seat's last call and the
  high bid.

While the cards are being dealt there is no view yet: the tensors are zero, and the texts say
how far the deal has gone (the information state also the cards this seat has been dealt).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import pyspiel

from israeli_whist.core.actions import PASS, action_display
from israeli_whist.core.cards import DECK_SIZE, symbol_name
from israeli_whist.core.games import game_for_rules
from israeli_whist.core.rules import Rules
from israeli_whist.core.views import SeatView
from israeli_whist.rl.encoding import (
    MAX_FRISCH_ROUNDS,
    card_bits,
    encode_observation,
    observation_layout,
    observation_size,
    observation_text,
)

if TYPE_CHECKING:
    from israeli_whist.rl.openspiel_state import WhistState


def most_tricks(rules: Rules) -> int:
    """The largest hand these rules deal: the trick history has room for that many tricks."""
    game = game_for_rules(rules)
    hands = game.hands_in_game() or 1  # a game to a target repeats its deal size
    return max(game.hand_size(i) for i in range(hands))


class WhistObserver:
    """OpenSpiel's Python observer (``set_from``, ``string_from``, ``tensor``, ``dict``) for one
    seat's view, with or without perfect recall."""

    def __init__(self, rules: Rules, perfect_recall: bool) -> None:
        self.rules = rules
        self.perfect_recall = perfect_recall
        n = rules.players
        self.tricks = most_tricks(rules)
        pieces: list[tuple[str, tuple[int, ...]]] = [(s.name, (s.length,)) for s in observation_layout(rules)]
        if perfect_recall:
            pieces += [("trick_history", (self.tricks, n, DECK_SIZE)), ("trick_leaders", (self.tricks, n))]
            if rules.has_auction:
                pieces.append(("frisch_history", (MAX_FRISCH_ROUNDS, 2, DECK_SIZE)))
            if rules.turned_card_is_dealers or rules.turned_card_from_stock:
                pieces.append(("turned_at_deal", (DECK_SIZE,)))
        total = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor: npt.NDArray[np.float32] = np.zeros(total, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        offset = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[offset:offset + size].reshape(shape)
            offset += size

    def set_from(self, state: WhistState, player: int) -> None:
        self.tensor.fill(0.0)
        view = state.seat_view(player)
        if view is None:
            return
        self.tensor[:observation_size(self.rules)] = encode_observation(view)
        if self.perfect_recall:
            self._fill_history(view)
            dealt = state.dealt_view(player)
            if "turned_at_deal" in self.dict and dealt is not None and dealt.turned_card >= 0:
                self.dict["turned_at_deal"][dealt.turned_card] = 1.0

    def _fill_history(self, view: SeatView) -> None:
        n, me = view.players, view.seat
        history, leaders = self.dict["trick_history"], self.dict["trick_leaders"]
        tricks: list[tuple[int, tuple[int, ...]]] = [(leader, cards) for leader, cards, _ in view.tricks]
        if view.trick:
            tricks.append((view.trick[0][0], tuple(card for _, card in view.trick)))
        for number, (leader, cards) in enumerate(tricks):
            leaders[number, (leader - me) % n] = 1.0
            for i, card in enumerate(cards):
                history[number, (leader + i - me) % n, card] = 1.0
        if "frisch_history" in self.dict:
            frisch = self.dict["frisch_history"]
            for r, (passed, received) in enumerate(zip(view.frisch_passed, view.frisch_received, strict=True)):
                frisch[r, 0] = card_bits(passed)
                frisch[r, 1] = card_bits(received)

    def string_from(self, state: WhistState, player: int) -> str:
        key = (self.perfect_recall, player)
        text = state.memo.get(key)
        if text is None:
            text = state.memo[key] = self._string(state, player)
        return text

    def _string(self, state: WhistState, player: int) -> str:
        view = state.seat_view(player)
        if view is None:
            text = f"seat {player}: dealing, {len(state.drawn)} cards dealt"
            if self.perfect_recall:
                text += "; yours: " + (" ".join(symbol_name(c) for c in state.cards_received(player)) or "-")
            return text
        text = observation_text(view)
        if not self.perfect_recall:
            return text
        dealt = state.dealt_view(player)
        turned = dealt.turned_card if dealt is not None else -1
        return text + "\n" + history_text(view, turned)


def history_text(view: SeatView, turned_at_deal: int = -1) -> str:
    """Every trump call and every trick of the hand, in order, and the card turned up at the
    deal: what a player remembers."""
    lines = [f"turned up at the deal: {symbol_name(turned_at_deal)}"] if turned_at_deal >= 0 else []
    if view.calls:
        lines.append("calls: " + "; ".join(f"{r + 1}.{seat} {'pass' if call == PASS else action_display(call)}"
                                           for r, seat, call in view.calls))
    for number, (leader, cards, winner) in enumerate(view.tricks, 1):
        lines.append(f"trick {number}: seat {leader} led {_cards(cards)}, seat {winner} won")
    return "\n".join(lines) or "no call or trick yet"


def _cards(cards: tuple[int, ...]) -> str:
    return " ".join(symbol_name(c) for c in cards)


def make_observer(rules: Rules, iig_obs_type: Any, params: Any) -> WhistObserver:
    """The observer OpenSpiel asks for: a seat's own view, with perfect recall or without."""
    if params:
        raise ValueError(f"Observation parameters are not supported; got {params}")
    if iig_obs_type is None:
        return WhistObserver(rules, perfect_recall=False)
    if not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
        raise ValueError("Whist observations are one seat's own view: public information and that seat's "
                         "private cards (IIGObservationType(perfect_recall=...) with the defaults)")
    return WhistObserver(rules, perfect_recall=iig_obs_type.perfect_recall)
