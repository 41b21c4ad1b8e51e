"""What every game shares: dealing from a seed, the contract bidding of Israeli Whist
and Whistiti, and trick play. Each game subclasses ``HandGame`` and overrides small hooks.
"""

from __future__ import annotations

import functools
import math
import operator
import random
from collections.abc import Sequence
from typing import Any, ClassVar

from israeli_whist.core.actions import (
    CONTRACT_BASE,
    Action,
    Phase,
    action_name,
    contract_tricks,
    is_card,
    is_contract,
)
from israeli_whist.core.cards import (
    CARD_BITS,
    SUIT_NAMES,
    CardSet,
    cards_in,
    long_name,
)
from israeli_whist.core.errors import IllegalActionError, quoted
from israeli_whist.core.rules import Rules
from israeli_whist.core.sheetentry import SheetEntry
from israeli_whist.core.state import FIELD, HandState, make_state
from israeli_whist.core.tricks import SUIT_MASK_OF_CARD
from israeli_whist.core.wholegame import WholeGame
from israeli_whist.core.wording import only_tricks

HANDS, PHASE, PLAYER, LOG = FIELD["hands"], FIELD["phase"], FIELD["player"], FIELD["action_log"]
LEADER, CONTRACTS, DECLARER, IS_TERMINAL = FIELD["leader"], FIELD["contracts"], FIELD["declarer"], FIELD["is_terminal"]

PHASE_VERBS = {
    Phase.AUCTION: "make a trump call (pass or a bid)",
    Phase.FRISCH: "choose a card to pass",
    Phase.CONTRACT: "bid a number of tricks",
    Phase.PLAY: "play a card",
}


_PLAY, _CONTRACT = Phase.PLAY, Phase.CONTRACT
_CONTRACT_CHOICES: dict[tuple[int, int, int], tuple[Action, ...]] = {}


def shuffled(cards: list[int], rng: random.Random) -> list[int]:
    """A uniformly shuffled copy of ``cards``, from one draw of random bits.

    The draw is read as a number in the mixed radix 52, 51, ..., 2 (a Fisher-Yates
    shuffle); 64 bits beyond log2(52!) keep its bias below 2**-64. One draw is
    several times faster than ``random.shuffle``, which dominates dealing.
    """
    n = len(cards)
    bits = math.lgamma(n + 1) / math.log(2) + 64
    x = rng.getrandbits(int(bits) + 1)
    for i in range(n - 1, 0, -1):
        x, j = divmod(x, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards




class HandGame(WholeGame):
    """The rules of one game, applied to hand states. Stateless apart from the rules.

    Besides the hand, each game answers what differs above it (``WholeGame``): the sides, the
    end of the game, places and honours. Callers ask these hooks rather than which game is
    played, so a new game is one module and a ``register_game`` line (``israeli_whist.core.games``).
    """

    name: ClassVar[str] = ""  # the registry's name, taken from the rules type: one spelling
    title: ClassVar[str] = ""
    rules_type: ClassVar[type[Rules]] = Rules
    sheet_entry: ClassVar[type[SheetEntry] | None] = None  # a hand on a score sheet for real cards, if the game has one
    rules: Rules

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        cls.name = cls.rules_type.GAME

    def __init__(self, rules: Rules | None = None) -> None:
        """The game with ``rules``, or with its rules type's defaults."""
        self.rules = rules if rules is not None else self.rules_type()
        self.players: int = self.rules.players

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.rules == self.rules

    def __hash__(self) -> int:
        return hash((self.name, self.rules))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.rules!r})"

    # Dealing -------------------------------------------------------------------------------

    def hand_size(self, hand_number: int) -> int:
        """Cards dealt to each seat in the given hand (0-based) of a game."""
        raise NotImplementedError

    def deck(self) -> list[int]:
        return list(range(52))

    def new_hand(self, dealer: int, seed: int | str | random.Random, hand_number: int = 0) -> HandState:
        """Shuffle and deal. The same seed always gives the same deal; a ``random.Random``
        may be passed instead to draw many deals from one generator."""
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        # Shuffling the cards' bits rather than the cards deals the same cards, and lets the
        # hands be summed in C below.
        return self.deal_bits(dealer, shuffled(list(self.deck_bits), rng), hand_number, checked=False)

    @functools.cached_property
    def deck_bits(self) -> tuple[CardSet, ...]:
        """The bit of each card of ``deck()``, in the same order."""
        return tuple(CARD_BITS[card] for card in self.deck())

    def deal_cards(self, dealer: int, cards: Sequence[int], hand_number: int = 0, *,
                   checked: bool = True) -> HandState:
        """Deal a shuffled pack one card at a time to the left, starting left of the dealer."""
        return self.deal_bits(dealer, [CARD_BITS[card] for card in cards], hand_number, checked=checked)

    def deal_bits(self, dealer: int, bits: Sequence[CardSet], hand_number: int, *, checked: bool) -> HandState:
        """``deal_cards`` for a pack given as each card's bit."""
        n, size = self.players, self.hand_size(hand_number)
        dealt = n * size
        hands = [0] * n
        for offset in range(n):
            # The cards are distinct, so adding their bits is or-ing them.
            hands[(dealer + 1 + offset) % n] = sum(bits[offset:dealt:n])
        position = self.turned_position(dealt, len(bits))
        turned = bits[position].bit_length() - 1 if position >= 0 else -1
        return self.start_hand(dealer, tuple(hands), sum(bits[dealt:]), turned, size, checked=checked)

    def turned_position(self, dealt: int, pack: int) -> int:
        """Where in the shuffled pack the card turned face up for trump is, if the game turns
        one (-1 if not), given how many cards were dealt out of how many."""
        return -1

    def start_hand(self, dealer: int, hands: tuple[CardSet, ...], unseen: CardSet, turned_card: int,
                   hand_size: int, *, checked: bool = True) -> HandState:
        """A hand from given cards (a record, a test position); checks that the cards are sound."""
        n = self.players
        if checked:
            self.check_deal(dealer, hands, unseen, turned_card, hand_size)
        zeros = (0,) * n
        values: list[Any] = [
            self, dealer, hands, unseen & ~(1 << turned_card if turned_card >= 0 else 0), hands, Phase.PLAY, -1,
            (), (), -1, -1, 0, 0, zeros, (), -1, (), -1, (), (), zeros, turned_card, hand_size, False]
        for name, value in self.opening(dealer, turned_card).items():
            values[FIELD[name]] = value
        return make_state(values)

    def check_deal(self, dealer: int, hands: tuple[CardSet, ...], unseen: CardSet, turned_card: int,
                   hand_size: int) -> None:
        n = self.players
        if len(hands) != n:
            raise IllegalActionError(f"{self.title} deals to {n} players, not {len(hands)}")
        seen = unseen
        for seat, hand in enumerate(hands):
            if hand.bit_count() != hand_size:
                raise IllegalActionError(f"Seat {seat} must hold {hand_size} cards, not {hand.bit_count()}")
            if seen & hand:
                raise IllegalActionError(f"A card is dealt twice: {', '.join(map(long_name, cards_in(seen & hand)))}")
            seen |= hand
        if not 0 <= dealer < n:
            raise IllegalActionError(f"No seat {dealer} to deal")

    def opening(self, dealer: int, turned_card: int) -> dict[str, Any]:
        """Fields of a new hand that differ by game: its first phase and who acts first."""
        raise NotImplementedError

    # The action cycle ----------------------------------------------------------------------

    def legal_actions(self, state: HandState) -> Sequence[Action]:
        """Legal actions outside trick play (``HandState.legal_actions`` lists plays itself)."""
        phase = state.phase
        if phase == _CONTRACT:
            return self.contract_choices(state)
        if phase < _CONTRACT:
            return self.legal_other(state)
        return state.legal_actions() if phase == _PLAY else ()

    def legal_other(self, state: HandState) -> Sequence[Action]:
        """Legal actions in phases that only some games have (auction, Frisch)."""
        raise NotImplementedError

    def apply(self, state: HandState, action: Action) -> HandState:
        """Apply an action outside trick play (``HandState.apply`` plays legal cards itself)."""
        phase = state.phase
        if phase == _PLAY and action in state.legal_actions():
            return state.apply(int(action))  # int-like (numpy, an int subclass): HandState.apply takes exact ints
        if phase == _CONTRACT and action in self.contract_choices(state):
            return self.bid_contract(state, action - CONTRACT_BASE)
        if phase < _CONTRACT and action in self.legal_other(state):
            return self.apply_other(state, action)
        raise IllegalActionError(self.why_illegal(state, action))

    def apply_other(self, state: HandState, action: Action) -> HandState:
        raise NotImplementedError

    # Contract bidding (Israeli Whist phase 2, Whistiti) ---------------------------------------

    def min_contract(self, state: HandState, seat: int) -> int:
        """The lowest contract the declarer may bid (other seats may always bid 0)."""
        return 0

    def legal_contracts(self, state: HandState) -> list[int]:
        return [contract_tricks(a) for a in self.contract_choices(state)]

    def contract_choices(self, state: HandState) -> tuple[Action, ...]:
        """The contract actions open to the bidder, shared between states (they are immutable)."""
        seat = state.player
        low, size = self.min_contract(state, seat) if seat == state.declarer else 0, state.hand_size
        contracts = state.contracts
        # The last bidder may not make the contracts add up to the tricks: someone must fail.
        forbidden = size - (sum(contracts) + 1) if contracts.count(-1) == 1 else -1
        key = (low, size, forbidden)
        choices = _CONTRACT_CHOICES.get(key)
        if choices is None:
            choices = _CONTRACT_CHOICES[key] = tuple(
                CONTRACT_BASE + n for n in range(low, size + 1) if n != forbidden)
        return choices

    def bid_contract(self, state: HandState, tricks: int) -> HandState:
        seat = state.player
        v = list(state)
        contracts = list(state.contracts)
        contracts[seat] = tricks
        v[CONTRACTS] = tuple(contracts)
        v[LOG] = (state.action_log, CONTRACT_BASE + tricks)
        if -1 in contracts:
            v[PLAYER] = (seat + 1) % self.players
        else:
            leader = self.first_leader(state, contracts)
            v[PHASE], v[PLAYER], v[LEADER], v[DECLARER] = Phase.PLAY, leader, leader, leader
        return make_state(v)

    def first_leader(self, state: HandState, contracts: list[int]) -> int:
        raise NotImplementedError

    def frisch_offset(self, frisch_round: int) -> int:
        """How many seats to the left Frisch cards travel; only Israeli Whist has a Frisch."""
        return 1

    # Scores ------------------------------------------------------------------------------

    def hand_scores(self, state: HandState) -> tuple[int, ...]:
        raise NotImplementedError

    # Messages ----------------------------------------------------------------------------

    def why_illegal(self, state: HandState, action: Action) -> str:
        """A player's explanation of why ``action`` is not allowed in ``state``."""
        phase = state.phase
        if phase >= Phase.OVER:
            return "The hand is over: no more actions"
        try:
            action = operator.index(action)  # an int, or int-like such as numpy's
            name = action_name(action)
        except (TypeError, ValueError):
            return f"{quoted(action)} is not an action"
        if phase == Phase.PLAY:
            if not is_card(action):
                return f"It is time to play a card, not {name}"
            hand = state.hands[state.player]
            if not hand >> action & 1:
                return f"You don't hold {long_name(action)}"
            led = state.trick[0] // 13
            held = cards_in(hand & SUIT_MASK_OF_CARD[state.trick[0]])
            return f"You must follow {SUIT_NAMES[led]}: you hold {long_name(held[-1])}"
        if phase == Phase.CONTRACT:
            if not is_contract(action):
                return f"It is time to {PHASE_VERBS[phase]}, not {name}"
            return self.why_contract_illegal(state, contract_tricks(action))
        return self.why_other_illegal(state, action)

    def why_contract_illegal(self, state: HandState, tricks: int) -> str:
        low = self.min_contract(state, state.player) if state.player == state.declarer else 0
        if tricks > state.hand_size:
            return f"{only_tricks(state.hand_size)}: you cannot bid {tricks}"
        if tricks < low:
            return f"As declarer you must bid at least your auction level, {low}"
        return (f"As the last bidder you may not bid {tricks}: the contracts would add up to "
                f"{state.hand_size}, the number of tricks")

    def why_other_illegal(self, state: HandState, action: Action) -> str:
        return f"It is time to {PHASE_VERBS[state.phase]}, not {action_name(action)}"
