"""What an OpenSpiel player observes of a whist hand: the observation and the information state,
as tensors and as text, every one made from the seat's ``SeatView``.

- The **observation** is ``israeli_whist.rl.encoding``'s vector and text of the view: the same numbers
  the PettingZoo and Gymnasium environments give.
- The **information state** adds what a player remembers and the observation sums up: every
  trick in order (who led, and the card of each seat), every bid of the auction under way and
  who made it, the cards passed and received in each Frisch round, and the card turned up at
  the deal (Classic Whist's goes back into the dealer's hand, so the view stops showing it). Its
  text adds every trump call of every round and every trick.

The information-state tensor has **perfect recall**, as OpenSpiel's algorithms for imperfect
information (CFR, its relatives, their best responses) assume: two positions whose texts differ
for a player have different tensors for that player. The auction is where that takes care: bids
only rise and the seats call in turn, so the bids with their bidders give the whole auction in
order (the passes are the turns between them, and the seat to act the passes since the last),
and earlier auctions, before a Frisch, were all passes. ``pieces`` lists the tensor's parts.

While the cards are being dealt there is no view yet and no one decides: the tensors are zero,
and the texts say how far the deal has gone (the information state also the cards this seat
has been dealt).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from israeli_whist.core.actions import BID_BASE, PASS, STRAINS, action_display
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
from israeli_whist.rl.openspiel_seen import SeenState


def most_tricks(rules: Rules) -> int:
    """The largest hand these rules deal: the trick history has room for that many tricks."""
    game = game_for_rules(rules)
    hands = game.hands_in_game() or 1  # a game to a target repeats its deal size
    return max(game.hand_size(i) for i in range(hands))


@dataclass(frozen=True)
class Piece:
    """One part of an observer's tensor: its name in the observer's ``dict``, its shape, and what it holds."""

    name: str
    shape: tuple[int, ...]
    meaning: str

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


def bid_count(rules: Rules) -> int:
    """Bids up to the largest deal's level, every strain: the rows of ``auction_bids``."""
    return most_tricks(rules) * STRAINS


def pieces(rules: Rules, perfect_recall: bool) -> tuple[Piece, ...]:
    """The parts of the observation tensor (``perfect_recall=False``: the encoding's slices) or of
    the information-state tensor (those slices, then what a player remembers), in order."""
    found = [Piece(s.name, (s.length,), s.meaning) for s in observation_layout(rules)]
    return tuple(found) + (remembered(rules) if perfect_recall else ())


def remembered(rules: Rules) -> tuple[Piece, ...]:
    """What the information-state tensor adds to the observation's slices."""
    n, tricks = rules.players, most_tricks(rules)
    found = [Piece("trick_history", (tricks, n, DECK_SIZE), "per trick in order, per seat relative to the "
                    "player, its card (the trick under way included)"),
              Piece("trick_leaders", (tricks, n), "per trick, the relative seat that led it")]
    if rules.traits.trump_auction:
        found += [Piece("auction_bids", (bid_count(rules), n), "per bid (level 1 clubs first, as the actions "
                        "count them), the relative seat that made it in the auction under way"),
                  Piece("frisch_history", (MAX_FRISCH_ROUNDS, 2, DECK_SIZE), "per Frisch round, the cards the "
                        "player passed, then those it received")]
    if rules.traits.turned_card != "none":
        found.append(Piece("turned_at_deal", (DECK_SIZE,), "the card turned up at the deal"))
    return tuple(found)


def remembered_markdown(tables: Sequence[tuple[str, Rules]]) -> str:
    """The information-state tensor under several rule sets as one Markdown table (``docs/rl.md``
    holds its output): the observation, then each part it adds with its shape (``-`` where that
    table has none), and the whole length."""
    shapes = [{piece.name: piece for piece in remembered(rules)} for _, rules in tables]
    meanings = {piece.name: piece.meaning for layout in shapes for piece in layout.values()}
    lines = ["| part | " + " | ".join(title for title, _ in tables) + " | meaning |", "|" + "---|" * (len(tables) + 2),
             "| (the observation) | " + " | ".join(str(observation_size(rules)) for _, rules in tables)
             + " | the observation vector, its slices named as in the layout above |"]
    for name, meaning in meanings.items():
        cells = ["x".join(map(str, layout[name].shape)) if name in layout else "-" for layout in shapes]
        lines.append(f"| `{name}` | " + " | ".join(cells) + f" | {meaning} |")
    sizes = [str(sum(piece.size for piece in pieces(rules, perfect_recall=True))) for _, rules in tables]
    lines.append("| (length) | " + " | ".join(sizes) + " | |")
    return "\n".join(lines)


class WhistObserver:
    """OpenSpiel's Python observer (``set_from``, ``string_from``, ``tensor``, ``dict``) for one
    seat's view, with or without perfect recall."""

    def __init__(self, rules: Rules, perfect_recall: bool) -> None:
        self.rules = rules
        self.perfect_recall = perfect_recall
        parts = pieces(rules, perfect_recall)
        self.tensor: npt.NDArray[np.float32] = np.zeros(sum(piece.size for piece in parts), np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        offset = 0
        for piece in parts:
            self.dict[piece.name] = self.tensor[offset:offset + piece.size].reshape(piece.shape)
            offset += piece.size

    def set_from(self, state: SeenState, player: int) -> None:
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
        if "auction_bids" in self.dict:
            bids = self.dict["auction_bids"]
            for frisch_round, seat, call in view.calls:
                if frisch_round == view.frisch_round and call != PASS:  # earlier auctions were all passes
                    bids[call - BID_BASE, (seat - me) % n] = 1.0
        if "frisch_history" in self.dict:
            frisch = self.dict["frisch_history"]
            for r, (passed, received) in enumerate(zip(view.frisch_passed, view.frisch_received, strict=True)):
                frisch[r, 0] = card_bits(passed)
                frisch[r, 1] = card_bits(received)

    def string_from(self, state: SeenState, player: int) -> str:
        key = (self.perfect_recall, player)
        text = state.memo.get(key)
        if text is None:
            text = state.memo[key] = self._string(state, player)
        return text

    def _string(self, state: SeenState, player: int) -> str:
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
