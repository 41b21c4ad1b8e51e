"""A fast perfect-information policy that plays a hand out to its end: how the expert bot
imagines the rest of a sampled deal.

Inside a sampled deal every hand is known, so the policy can tell exactly whether a card wins
the trick under way or can still be beaten by a seat yet to play. Each seat plays the way the
basic bot's rules of thumb would with that knowledge: in Israeli Whist and Whistiti it takes
tricks while it needs them and sheds them once its contract is made; in Classic Whist it plays
for its side. The policy is deterministic and works on card masks only, so that a playout
costs a few hundred microseconds in Python. The compiled twin (``fastplayout.pyx``, built
by pip install where a C compiler is at hand) makes the same choices without a Python object
per card; ``final_tricks`` uses it when it is there.
"""

from __future__ import annotations

from types import ModuleType

from israeli_whist.core.actions import Phase
from israeli_whist.core.cards import SUIT_MASKS, CardSet
from israeli_whist.core.state import HandState

_compiled: ModuleType | None
try:
    from israeli_whist.bots.search import fastplayout as _compiled
except ImportError:  # built without a C compiler: the extension is optional in setup.py
    _compiled = None

# ABOVE[c]: the cards of c's suit ranked above c.
ABOVE: tuple[CardSet, ...] = tuple(SUIT_MASKS[c // 13] & ~((2 << c) - 1) for c in range(52))
SUIT_OF: tuple[CardSet, ...] = tuple(SUIT_MASKS[c // 13] for c in range(52))


def lowest(mask: CardSet) -> int:
    return (mask & -mask).bit_length() - 1


def highest(mask: CardSet) -> int:
    return mask.bit_length() - 1


def lowest_rank(mask: CardSet, trump: int) -> int:
    """The lowest-ranked card of ``mask``, side suits before trumps: the cheapest to give up."""
    side = mask & ~SUIT_MASKS[trump] if trump < 4 else mask
    pool = side or mask
    return min((lowest(pool & s) for s in SUIT_MASKS if pool & s), key=lambda c: c % 13)


def highest_rank(mask: CardSet) -> int:
    return max((highest(mask & s) for s in SUIT_MASKS if mask & s), key=lambda c: c % 13)


def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` beats ``best``, the card now winning the trick."""
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trump


def can_beat(hand: CardSet, card: int, led_suit: CardSet, trump: int) -> bool:
    """Whether a seat holding ``hand`` can play a card above ``card`` to a trick led in ``led_suit``."""
    follow = hand & led_suit
    if follow:
        return bool(follow & ABOVE[card]) if led_suit & (1 << card) else False
    if trump == 4:
        return False
    trumps = hand & SUIT_MASKS[trump]
    if card // 13 == trump:
        return bool(trumps & ABOVE[card])
    return bool(trumps)


def policy_card(state: HandState) -> int:
    """The card the policy plays for the seat on move (the state is in the play phase)."""
    seat, hands, trick, trump = state.player, state.hands, state.trick, state.trump
    n = len(hands)
    hand = hands[seat]
    led = SUIT_OF[trick[0]] if trick else 0
    legal = (hand & led) or hand
    if not legal & (legal - 1):
        return lowest(legal)
    partnership = not state.contracts
    # The seats still to play to this trick; in the partnership game, only the opponents.
    later = [hands[(seat + k) % n] for k in range(1, n - len(trick)) if not partnership or k % 2]
    if not trick:
        return _lead(state, seat, legal, partnership)
    best_index = 0
    for i in range(1, len(trick)):
        if beats(trick[i], trick[best_index], trump):
            best_index = i
    best = trick[best_index]
    winners = [c for c in _cards(legal) if beats(c, best, trump)]
    safe = [c for c in winners if not any(can_beat(h, c, led, trump) for h in later)]
    if partnership:
        partner_winning = (len(trick) - best_index) % 2 == 0
        if partner_winning and not any(can_beat(h, best, led, trump) for h in later):
            return _cheapest(legal, led, trump)
        return min(safe, key=_rank) if safe else _cheapest(legal, led, trump)
    if state.contracts[seat] > state.tricks_won[seat]:
        return min(safe, key=_rank) if safe else _cheapest(legal, led, trump)
    losers = [c for c in _cards(legal) if not beats(c, best, trump)]
    if losers:
        return max(losers, key=_rank)  # keep the low cards for ducking later
    if any(any(can_beat(h, c, led, trump) for h in later) for c in winners):
        return _cheapest(legal, led, trump)  # the lowest card leaves the most room to overtake it
    return highest_rank(legal)  # the trick is this seat's anyway: spend its most dangerous card


def _lead(state: HandState, seat: int, legal: CardSet, partnership: bool) -> int:
    hands, trump = state.hands, state.trump
    n = len(hands)
    others = [hands[(seat + k) % n] for k in range(1, n) if not (partnership and k == 2)]
    rest = 0
    for h in others:
        rest |= h
    sure = [c for c in _cards(legal) if not any(can_beat(h, c, SUIT_OF[c], trump) for h in others)]
    wants = partnership or state.contracts[seat] > state.tricks_won[seat]
    if wants:
        if sure:
            return min(sure, key=lambda c: (c // 13 == trump, c % 13))
        suits = [s for s in range(4) if legal & SUIT_MASKS[s]]
        longest = max(suits, key=lambda s: (s != trump, (legal & SUIT_MASKS[s]).bit_count(), s))
        return lowest(legal & SUIT_MASKS[longest])
    beaten = [c for c in _cards(legal) if c not in sure]
    if beaten:
        # The card most surely overtaken: most higher cards out, side suits first.
        return max(beaten, key=lambda c: ((rest & ABOVE[c]).bit_count(), c // 13 != trump, -(c % 13)))
    return highest_rank(legal)


def _cheapest(legal: CardSet, led: CardSet, trump: int) -> int:
    if legal & led:
        return lowest(legal)
    return lowest_rank(legal, trump)


def _rank(card: int) -> int:
    return card % 13


def _cards(mask: CardSet) -> list[int]:
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


def play_out(state: HandState) -> HandState:
    """The hand played to its end by the policy, from a state in the play phase."""
    while not state.is_terminal:
        state = state.apply(policy_card(state))
    return state


def final_tricks(state: HandState, compiled: bool = True) -> tuple[int, ...]:
    """Each seat's tricks once the policy has played the hand out from ``state`` (play phase)."""
    if compiled and _compiled is not None:
        won: tuple[int, ...] = _compiled.play_out_tricks(
            state.hands, state.trump, state.leader, state.trick, state.tricks_won, state.contracts)
        return won
    return play_out(state).tricks_won


def played_out(state: HandState) -> HandState:
    """``state`` with the policy's final trick counts and the hand over: what is scored. Only
    the counts and the scores are meaningful; the tricks themselves are not listed."""
    return state._replace(tricks_won=final_tricks(state), phase=Phase.OVER, player=-1, is_terminal=True)


def compiled_playout_available() -> bool:
    return _compiled is not None
