"""A hint at the table: the expert's top choices for the seat on move, valued in expected points
as the review values them (``israeli_whist.bots.review.weighing``), and a one-line reason where
a plain one holds: the card is a sure trick, a safe discard, or, with a trump suit, how many
trumps the others may still hold. Made from the seat's view alone: it names no hidden card."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from israeli_whist.bots.judgement.basic_knowledge import played_cards
from israeli_whist.bots.review.settings import DEFAULT_SETTINGS, ReviewSettings
from israeli_whist.bots.review.weighing import OptionValue, option_values, weigh_options
from israeli_whist.bots.search.sampling import game_pack
from israeli_whist.core.actions import Action, Phase, action_name, bid_strain, is_bid, is_card
from israeli_whist.core.cards import NO_TRUMP, SUIT_MASKS, Card
from israeli_whist.core.tricks import trick_winner
from israeli_whist.core.views import SeatView

TOP_CHOICES = 3


@dataclass(frozen=True)
class Reason:
    key: str  # "sure_trick", "safe_discard" or "trumps_out": the pages word it
    args: dict[str, Any]


@dataclass(frozen=True)
class Hint:
    seat: int
    phase: str
    options: tuple[OptionValue, ...]  # best first
    reason: Reason | None
    deals: int


def hint_for(view: SeatView, *, seed: str | int = 0, settings: ReviewSettings = DEFAULT_SETTINGS,
             primer: SeatView | None = None) -> Hint:
    """The hint for the seat of ``view``, which must be on move (ValueError otherwise)."""
    if not view.legal_actions:
        raise ValueError("A hint is for the seat on move")
    weighed = weigh_options(view, hinted_calls(view), seed=str(seed), deals=settings.deals, primer=primer)
    if weighed is None:  # one legal choice (or one worth weighing): nothing to compare
        only = view.legal_actions[0] if len(view.legal_actions) == 1 else None
        options: tuple[OptionValue, ...] = () if only is None else (OptionValue(only, 0.0, 0.0),)
        return Hint(view.seat, view.phase.name.lower(), options, None, 0)
    race, runs = weighed
    shown = {weighed_action: action for action, weighed_action in sorted(runs.items())}  # one card a run
    ranked = [option for option in option_values(race, runs) if shown.get(runs[option.action]) == option.action]
    top = tuple(ranked[:TOP_CHOICES])
    return Hint(view.seat, view.phase.name.lower(), top, reason(view, top[0].action), race.deals)


def hinted_calls(view: SeatView) -> tuple[Action, ...]:
    """In the trump auction, the cheapest legal bid in every strain: the expert weighs only the
    strains its hand might carry, and a hint that shows pass alone would show nothing to
    compare."""
    if view.phase != Phase.AUCTION:
        return ()
    cheapest: dict[int, Action] = {}
    for action in view.legal_actions:
        if is_bid(action):
            cheapest.setdefault(bid_strain(action), action)
    return tuple(cheapest.values())


def reason(view: SeatView, best: int) -> Reason | None:
    """A plain reason for the best card, where one holds; None in the bidding."""
    if view.phase != Phase.PLAY or not is_card(best):
        return None
    if sure_trick(view, best):
        return Reason("sure_trick", {"card": action_name(best)})
    trick = [card for _, card in view.trick]
    if trick and not view.hand & SUIT_MASKS[trick[0] // 13] and best // 13 != view.trump:
        return Reason("safe_discard", {"card": action_name(best)})
    if view.trump != NO_TRUMP:
        return Reason("trumps_out", {"count": (live_cards(view) & SUIT_MASKS[view.trump]).bit_count()})
    return None


def live_cards(view: SeatView) -> int:
    """Cards this seat has not seen: in another hand, or out of play where the game leaves some."""
    shown = 1 << view.turned_card if view.turned_card >= 0 else 0
    return game_pack(view) & ~view.hand & ~played_cards(view) & ~shown


def sure_trick(view: SeatView, card: Card) -> bool:
    """Whether ``card`` wins the trick under way whatever the seats still to play hold."""
    cards = [c for _, c in view.trick] + [card]
    if trick_winner(cards, view.trump) != len(cards) - 1:
        return False
    if len(cards) == view.players:
        return True
    live, suit = live_cards(view), card // 13
    if live & SUIT_MASKS[suit] & ~((2 << card) - 1):  # a higher card of its suit may be out
        return False
    return suit == view.trump or view.trump == NO_TRUMP or not live & SUIT_MASKS[view.trump]


def hint_json(hint: Hint) -> dict[str, Any]:
    return {
        "seat": hint.seat, "phase": hint.phase, "deals": hint.deals,
        "options": [{"action": o.action, "name": action_name(o.action), "value": round(o.value, 2),
                     "error": round(o.error, 2)} for o in hint.options],
        "reason": None if hint.reason is None else {"key": hint.reason.key, "args": hint.reason.args},
    }
