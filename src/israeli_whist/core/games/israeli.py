"""Israeli Whist (docs/rules.md#israeli-whist): its rules and presets, the trump auction, Frisch,
contracts, its scoring and its score sheet's entry; ``israeli_whist.core.games`` registers it."""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, cast

from israeli_whist.core.actions import (
    CONTRACT_BASE,
    PASS,
    Action,
    Phase,
    action_name,
    bid_action,
    bid_level,
    bid_strain,
    is_bid,
)
from israeli_whist.core.cards import (
    CLUBS,
    FIVE,
    FOUR,
    NO_TRUMP,
    STRAIN_LETTERS,
    SUIT_MASKS,
    CardSet,
    card_set,
    card_suit,
    cards_in,
    long_name,
)
from israeli_whist.core.errors import RulesError
from israeli_whist.core.handgame import IS_TERMINAL, LOG, PHASE, PLAYER, HandGame
from israeli_whist.core.rules import Rules, option
from israeli_whist.core.sheetentry import (
    EntryScore,
    SheetEntry,
    SheetError,
    SheetHand,
    check_contracts,
    check_tricks,
    no_unknown_keys,
    numbers,
    revokes_of,
    strain_of,
    whole,
)
from israeli_whist.core.state import FIELD, HandState, make_state
from israeli_whist.core.traits import GameTraits
from israeli_whist.core.wording import count_text, only_tricks

CALLS, HIGH_BID, DECLARER, PASSES = FIELD["calls"], FIELD["high_bid"], FIELD["declarer"], FIELD["passes"]
HANDS, FRISCH_ROUND, FRISCH_SELECTED, FRISCH_PASSES = (
    FIELD["hands"], FIELD["frisch_round"], FIELD["frisch_selected"], FIELD["frisch_passes"])
TRUMP, CONTRACTS = FIELD["trump"], FIELD["contracts"]

ISRAELI_REVOKE_PENALTY = 100  # docs/rules.md#israeli-whist-play: a revoke caught at the table costs 100 points


# Scoring --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ZeroScores:
    """What a zero bid scores. A failed zero scores ``first`` for the first trick taken and
    ``further`` for each trick after it (standard: -50, then +10 a trick: -50, -40, -30...)."""

    made_under: int
    made_over: int
    failed_under_first: int
    failed_under_further: int
    failed_over_first: int
    failed_over_further: int


# House rules differ mostly here, so they are data: add a row, not code.
ZERO_SCORES: dict[str, ZeroScores] = {
    "standard": ZeroScores(50, 25, -50, 10, -50, 10),
    "achim": ZeroScores(50, 30, -50, 10, -30, 0),
}


def israeli_score(contract: int, taken: int, *, over: bool, zero_scoring: str = "standard",
                  high_contract_first_undertrick: bool = False) -> int:
    """Points for one player in Israeli Whist; ``over`` is whether contracts sum above the tricks.

    >>> israeli_score(3, 3, over=True)
    19
    >>> israeli_score(4, 6, over=True)
    -20
    """
    if contract == 0:
        table = ZERO_SCORES[zero_scoring]
        if taken == 0:
            return table.made_over if over else table.made_under
        first, further = ((table.failed_over_first, table.failed_over_further) if over
                          else (table.failed_under_first, table.failed_under_further))
        return first + further * (taken - 1)
    if taken == contract:
        return contract * contract + 10
    difference = abs(taken - contract)
    if high_contract_first_undertrick and contract >= 7 and taken < contract:
        return -15 - 10 * (difference - 1)
    return -10 * difference


# The score sheet's entry ---------------------------------------------------------------------


@dataclass(frozen=True)
class IsraeliEntry(SheetEntry):
    """One hand of Israeli Whist as the scorer enters it.

    ``declarer`` is None when every player passed through the last Frisch and the hand is
    cancelled; otherwise the auction's result (``level`` in ``strain``, after ``frisch`` Frisch
    rounds), each player's contract, tricks taken, and revokes (each costs 100 points).

    >>> IsraeliEntry.from_dict({"declarer": 0, "level": 6, "strain": "NT", "frisch": 1,
    ...                         "contracts": [7, 2, 0, 1], "tricks": [7, 3, 1, 2]}).strain
    4
    >>> IsraeliEntry.all_passed().to_dict()
    {'declarer': None}
    """

    declarer: int | None
    level: int = 0
    strain: int = 0
    contracts: tuple[int, ...] = ()
    tricks: tuple[int, ...] = ()
    revokes: tuple[int, ...] = ()  # empty: nobody revoked
    frisch: int = 0  # Frisch rounds before the winning bid: each one raises the minimum level

    FIELDS: ClassVar[tuple[str, ...]] = ("declarer", "level", "strain", "frisch", "contracts", "tricks", "revokes")

    @classmethod
    def all_passed(cls) -> IsraeliEntry:
        return cls(declarer=None)

    @property
    def cancelled(self) -> bool:
        return self.declarer is None

    def to_dict(self) -> dict[str, Any]:
        if self.declarer is None:
            return {"declarer": None}
        data: dict[str, Any] = {"declarer": self.declarer, "level": self.level, "strain": STRAIN_LETTERS[self.strain],
                                "frisch": self.frisch, "contracts": list(self.contracts), "tricks": list(self.tricks)}
        if any(self.revokes):
            data["revokes"] = list(self.revokes)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> IsraeliEntry:
        no_unknown_keys(data, cls.FIELDS)
        if "declarer" not in data:
            raise SheetError("'declarer' is missing: the declarer's seat, or null when everyone passed")
        if data["declarer"] is None:
            if set(data) - {"declarer", "frisch"}:
                raise SheetError("A hand in which everyone passed has no contracts, tricks or revokes")
            return cls.all_passed()
        return cls(declarer=whole(data, "declarer"), level=whole(data, "level"), strain=strain_of(data.get("strain")),
                   frisch=whole(data, "frisch", 0), contracts=numbers(data, "contracts"),
                   tricks=numbers(data, "tricks"), revokes=numbers(data, "revokes", required=False))

    def score(self, hand: SheetHand) -> EntryScore:
        rules = cast(IsraeliRules, hand.rules)  # a sheet scores an entry of its own game only
        n, size, names = len(hand.players), hand.hand_size, hand.players
        if self.declarer is None:
            return EntryScore((0,) * n, (0,) * n)
        if not 0 <= self.declarer < n:
            raise SheetError(f"The declarer is a seat from 0 to {n - 1}, not {self.declarer}")
        if not 0 <= self.strain <= NO_TRUMP:
            raise SheetError(f"The trump strain is 0 to {NO_TRUMP} (clubs to no trump), not {self.strain}")
        if self.strain not in bid_strains(rules):
            raise SheetError(unbiddable_strain(rules, self.strain))
        if not 0 <= self.frisch <= rules.frisch_rounds:
            raise SheetError(f"This table plays at most {rules.frisch_rounds} Frisch rounds, not {self.frisch}")
        low = minimum_level(rules, self.strain, self.frisch)
        strain = STRAIN_LETTERS[self.strain]
        if not low <= self.level <= size:
            after = f" after {count_text(self.frisch, 'Frisch round')}" if self.frisch else ""
            raise SheetError(f"A bid in {strain}{after} is from {low} to {size}, not {self.level}")
        declarer = names[self.declarer]
        # The declarer bids first, then the others to the left: the last bidder sits on the declarer's right.
        over_under = check_contracts(self.contracts, size, (self.declarer - 1) % n, names)
        if self.contracts[self.declarer] < self.level:
            raise SheetError(f"The declarer, {declarer}, must bid at least the auction level, {self.level}, "
                             f"not {self.contracts[self.declarer]}")
        check_tricks(self.tricks, size, names)
        revokes = revokes_of(self.revokes, size, names)
        points = tuple(israeli_score(c, t, over=over_under == "over", zero_scoring=rules.zero_scoring,
                                     high_contract_first_undertrick=rules.high_contract_first_undertrick)
                       for c, t in zip(self.contracts, self.tricks, strict=True))
        penalties = tuple(-ISRAELI_REVOKE_PENALTY * r for r in revokes)
        return EntryScore(points, penalties, over_under=over_under)


# Rules ----------------------------------------------------------------------------------------

FORM_PLAYERS = {
    "four_players": 4,
    "three_no_clubs": 3,
    "three_short_deck": 3,
    "three_short_deck_40": 3,
    "three_random_card": 3,
}

# Cards left out of the pack in each form, and cards dealt to each player.
FORM_DECKS: dict[str, tuple[list[int], int]] = {
    "four_players": (list(range(52)), 13),
    "three_no_clubs": ([c for c in range(52) if not SUIT_MASKS[CLUBS] >> c & 1], 13),
    "three_short_deck": ([c for c in range(52) if c % 13 > FIVE], 12),
    "three_short_deck_40": ([c for c in range(52) if c % 13 > FOUR], 12),
    "three_random_card": (list(range(52)), 17),
}
_FORM_DECK_MASKS: dict[str, CardSet] = {form: card_set(cards) for form, (cards, _) in FORM_DECKS.items()}


@dataclass(frozen=True)
class IsraeliRules(Rules):
    GAME: ClassVar[str] = "israeli"
    traits: ClassVar[GameTraits] = GameTraits(
        trump_auction=True, frisch=True,
        rewards_zero_bids=True,  # a made zero scores 50 (25 over), more than most contracts
        sheet_fields=IsraeliEntry.FIELDS,
        players_hint="three players play one of the three-player forms (option form)")

    form: str = option("four_players", "Players and deck: four players, or one of the three-player forms",
                       choices=tuple(FORM_PLAYERS), common=True)
    auction_starts: str = option("left_of_dealer", "Who makes the first trump call",
                                 choices=("left_of_dealer", "dealer"))
    nt_minimum: int = option(7, "Lowest level of a no-trump bid", low=5, high=13)
    auction_end: str = option("three_passes", "three_passes: a bid and three passes end it; four_passes: "
                              "the high bidder may raise after three passes, all four must pass",
                              choices=("three_passes", "four_passes"))
    no_trump_allowed: bool = option(True, "Whether no-trump bids are allowed")
    frisch_rounds: int = option(3, "Frisch rounds before a redeal when all pass (0: redeal at once)", low=0, high=3)
    frisch_raises_minimum: bool = option(True, "Each Frisch raises the minimum bid by one (6, 7, 8)")
    frisch_direction: str = option("left", "Where Frisch cards go; rotating: left, across, right (4 players)",
                                   choices=("left", "rotating", "right"))
    high_contract_first_undertrick: bool = option(
        False, "A failed contract of 7+ that falls short loses 15 for the first trick, not 10")
    zero_scoring: str = option("standard", "Zero-bid scores: standard (made +50 under, +25 over; failed -50, "
                               "then +10 a trick), or achim (in an over hand made +30, failed a flat -30)",
                               choices=tuple(ZERO_SCORES))
    hands: int = option(12, "Hands in a game (0: no limit, play to target)", low=0, high=1000, common=True)
    target: int | None = option(None, "End the game when a player's total reaches this score", low=1, high=100000,
                                common=True)

    PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "standard": {},
        "achim": {"zero_scoring": "achim"},
        "pagat": {"auction_end": "four_passes"},
        "nt5": {"nt_minimum": 5},
        "no_nt": {"no_trump_allowed": False},
        "three_no_clubs": {"form": "three_no_clubs"},
        "three_short_deck": {"form": "three_short_deck"},
        "three_short_deck_40": {"form": "three_short_deck_40"},
        "three_random_card": {"form": "three_random_card"},
    }

    @property
    def players(self) -> int:
        return FORM_PLAYERS[self.form]

    @property
    def deck_mask(self) -> CardSet:
        return _FORM_DECK_MASKS[self.form]

    def check(self) -> None:
        if self.players == 3 and self.frisch_direction == "rotating":
            raise RulesError("frisch_direction=rotating needs four players: three players pass left or right")
        if self.hands == 0 and self.target is None:
            raise RulesError("A game needs an end: set hands above 0 or a target")


# The game -------------------------------------------------------------------------------------

_AUCTION, _CONTRACT = Phase.AUCTION, Phase.CONTRACT
STRAIN_NAMES = ("clubs", "diamonds", "hearts", "spades", "no trump")


def bid_strains(rules: IsraeliRules) -> tuple[int, ...]:
    """The strains that may be bid, lowest first: the suits left in the form's pack (three players
    without the clubs cannot bid clubs: a clubs "trump" would be a no-trump hand at a lower
    level), then no-trump where the table allows it."""
    deck = FORM_DECKS[rules.form][0]
    suits = tuple(suit for suit in range(NO_TRUMP) if any(card_suit(card) == suit for card in deck))
    return (*suits, NO_TRUMP) if rules.no_trump_allowed else suits


def minimum_level(rules: IsraeliRules, strain: int, frisch_round: int) -> int:
    """The lowest level of a bid in ``strain`` in the auction after ``frisch_round`` Frisch rounds."""
    level = 5 + (frisch_round if rules.frisch_raises_minimum else 0)
    return max(level, rules.nt_minimum) if strain == NO_TRUMP else level


def unbiddable_strain(rules: IsraeliRules, strain: int) -> str:
    """Why ``strain`` cannot be bid at this table (it is not in ``bid_strains``)."""
    if strain == NO_TRUMP:
        return "No-trump bids are not allowed at this table"
    return f"There are no {STRAIN_NAMES[strain]} in this pack: {STRAIN_NAMES[strain]} cannot be bid"


class IsraeliWhist(HandGame):
    title = "Israeli Whist"
    rules_type = IsraeliRules
    sheet_entry = IsraeliEntry
    rules: IsraeliRules

    def __init__(self, rules: IsraeliRules | None = None) -> None:
        super().__init__(rules)
        self._open_calls: dict[tuple[int, int, Action], tuple[Action, ...]] = {}

    def hand_size(self, hand_number: int) -> int:
        return FORM_DECKS[self.rules.form][1]

    def deck(self) -> list[int]:
        return list(FORM_DECKS[self.rules.form][0])

    def auction_starter(self, dealer: int) -> int:
        return (dealer + 1) % self.players if self.rules.auction_starts == "left_of_dealer" else dealer

    def opening(self, dealer: int, turned_card: int) -> dict[str, Any]:
        return {"phase": Phase.AUCTION, "player": self.auction_starter(dealer), "contracts": (-1,) * self.players}

    # The whole game ----------------------------------------------------------------------------

    @property
    def frisch_rounds(self) -> int:
        return self.rules.frisch_rounds

    def lowest_bid(self, frisch_round: int) -> int:
        return minimum_level(self.rules, CLUBS, frisch_round)

    def hands_in_game(self) -> int | None:
        return self.rules.hands if self.rules.hands > 0 else None

    def is_over(self, played: int, totals: Sequence[int], games_won: Sequence[int]) -> bool:
        rules = self.rules
        if rules.target is not None and max(totals) >= rules.target:
            return True
        return rules.hands > 0 and played >= rules.hands

    def players_options(self, players: int, options: Mapping[str, str]) -> dict[str, str]:
        rules = self.rules
        if players == rules.players:
            return {}
        # Three players without a chosen form play without the clubs; a form the user chose wins,
        # and one that does not fit the count is an error rather than a silent change.
        if players == 3 and rules.form == "four_players" and "form" not in options:
            return {"form": "three_no_clubs"}
        if players in (3, 4):
            raise RulesError(f"--players {players} does not fit form {rules.form}, "
                             f"which is for {rules.players} players")
        raise RulesError(f"Israeli Whist is for 4 players, or 3 with a three-player form; not {players}")

    def hands_options(self, hands: int) -> dict[str, str]:
        return {"hands": str(hands)}

    def options_set_by_boards(self) -> tuple[str, ...]:
        return (*super().options_set_by_boards(), "target")  # a board is one hand: no target ends it sooner

    def entry_choices(self) -> dict[str, Any]:
        rules = self.rules
        return {
            # The lowest level of each strain after 0, 1, 2... Frisch rounds, for the page's choices.
            "min_levels": [[minimum_level(rules, strain, frisch) for strain in range(NO_TRUMP + 1)]
                           for frisch in range(rules.frisch_rounds + 1)],
            # The strains the trump field offers: the engine's, so that no form offers a strain it refuses.
            "bid_strains": [STRAIN_LETTERS[strain] for strain in bid_strains(rules)],
        }

    # Trump auction -------------------------------------------------------------------------

    def min_level(self, strain: int, frisch_round: int) -> int:
        return minimum_level(self.rules, strain, frisch_round)

    def bids_allowed(self, frisch_round: int, hand_size: int) -> list[Action]:
        """Every bid allowed in this auction round, lowest first (bid actions sort like bids)."""
        return sorted(bid_action(level, strain) for strain in bid_strains(self.rules)
                      for level in range(self.min_level(strain, frisch_round), hand_size + 1))

    def open_calls(self, state: HandState) -> tuple[Action, ...]:
        """Pass and every bid allowed above the high bid: one shared tuple per situation, since
        states are immutable."""
        key = (state.frisch_round, state.hand_size, state.high_bid)
        calls = self._open_calls.get(key)
        if calls is None:
            bids = self.bids_allowed(state.frisch_round, state.hand_size)
            calls = self._open_calls[key] = (PASS, *bids[bisect.bisect_right(bids, state.high_bid):])
        return calls

    # The auction and the contracts are served here, before the general dispatch of HandGame,
    # because every saved call counts in random playouts.

    def legal_actions(self, state: HandState) -> Sequence[Action]:
        phase = state.phase
        if phase == _AUCTION:
            return self.open_calls(state)
        if phase == _CONTRACT:
            return self.contract_choices(state)
        return super().legal_actions(state)

    def apply(self, state: HandState, action: Action) -> HandState:
        phase = state.phase
        if phase == _AUCTION and action in self.open_calls(state):
            return self._call(state, action)
        if phase == _CONTRACT and action in self.contract_choices(state):
            return self.bid_contract(state, action - CONTRACT_BASE)
        return super().apply(state, action)

    def legal_other(self, state: HandState) -> Sequence[Action]:
        if state.phase == _AUCTION:
            return self.open_calls(state)
        # Frisch: any card still held and not yet chosen.
        seat = state.player
        return cards_in(state.hands[seat] & ~state.frisch_selected[seat])

    def apply_other(self, state: HandState, action: Action) -> HandState:
        if state.phase == _AUCTION:
            return self._call(state, action)
        return self._choose_frisch_card(state, action)

    def _call(self, state: HandState, action: Action) -> HandState:
        seat, n = state.player, self.players
        v = list(state)
        v[LOG] = (state.action_log, action)
        v[CALLS] = state.calls + ((state.frisch_round, seat, action),)
        v[PLAYER] = (seat + 1) % n
        if action != PASS:
            v[HIGH_BID], v[DECLARER], v[PASSES] = action, seat, 0
            return make_state(v)
        passes = state.passes + 1
        v[PASSES] = passes
        if state.high_bid < 0:
            if passes == n:
                return self._all_passed(state, v)
            return make_state(v)
        if passes == (n if self.rules.auction_end == "four_passes" else n - 1):
            v[PHASE], v[PLAYER], v[TRUMP] = Phase.CONTRACT, state.declarer, bid_strain(state.high_bid)
        return make_state(v)

    def _all_passed(self, state: HandState, v: list[Any]) -> HandState:
        if state.frisch_round < self.rules.frisch_rounds:
            v[PHASE], v[PLAYER] = Phase.FRISCH, self.auction_starter(state.dealer)
        else:
            v[PHASE], v[PLAYER], v[IS_TERMINAL] = Phase.CANCELLED, -1, True
        return make_state(v)

    # Frisch ----------------------------------------------------------------------------------

    def frisch_offset(self, frisch_round: int) -> int:
        """How many seats to the left the cards of this Frisch round travel."""
        direction = self.rules.frisch_direction
        if direction == "left":
            return 1
        if direction == "right":
            return self.players - 1
        return (1, 2, 3)[frisch_round]  # rotating: left, across, right

    def _choose_frisch_card(self, state: HandState, card: int) -> HandState:
        seat, n = state.player, self.players
        v = list(state)
        v[LOG] = (state.action_log, card)
        selected = list(state.frisch_selected)
        selected[seat] |= 1 << card
        v[FRISCH_SELECTED] = tuple(selected)
        if selected[seat].bit_count() < 3:
            return make_state(v)
        if (seat + 1) % n != self.auction_starter(state.dealer):
            v[PLAYER] = (seat + 1) % n
            return make_state(v)
        # Every seat has chosen: the cards change hands all at once.
        offset = self.frisch_offset(state.frisch_round)
        v[HANDS] = tuple((state.hands[s] & ~selected[s]) | selected[(s - offset) % n] for s in range(n))
        v[FRISCH_PASSES] = state.frisch_passes + (tuple(selected),)
        v[FRISCH_SELECTED] = (0,) * n
        v[FRISCH_ROUND] = state.frisch_round + 1
        v[PHASE], v[PLAYER], v[PASSES] = Phase.AUCTION, self.auction_starter(state.dealer), 0
        return make_state(v)

    # Contracts and play -----------------------------------------------------------------------

    def min_contract(self, state: HandState, seat: int) -> int:
        return bid_level(state.high_bid)

    def first_leader(self, state: HandState, contracts: list[int]) -> int:
        return state.declarer

    def hand_scores(self, state: HandState) -> tuple[int, ...]:
        over = sum(state.contracts) > state.hand_size
        rules = self.rules
        return tuple(
            israeli_score(c, t, over=over, zero_scoring=rules.zero_scoring,
                          high_contract_first_undertrick=rules.high_contract_first_undertrick)
            for c, t in zip(state.contracts, state.tricks_won, strict=True))

    # Messages ----------------------------------------------------------------------------

    def why_other_illegal(self, state: HandState, action: Action) -> str:
        if state.phase == Phase.FRISCH:
            if not 0 <= action < 52:
                return f"It is time to choose a card to pass, not {action_name(action)}"
            if state.frisch_selected[state.player] >> action & 1:
                return f"You have already chosen {long_name(action)}"
            return f"You don't hold {long_name(action)}"
        if not (action == PASS or is_bid(action)):
            return f"It is time to make a trump call (pass or a bid), not {action_name(action)}"
        level, strain = bid_level(action), bid_strain(action)
        if strain not in bid_strains(self.rules):
            return unbiddable_strain(self.rules, strain)
        if level > state.hand_size:
            return f"{only_tricks(state.hand_size)}: the highest level is {state.hand_size}"
        minimum = self.min_level(strain, state.frisch_round)
        if level < minimum:
            return f"The minimum bid in {STRAIN_NAMES[strain]} is now {minimum}"
        high = state.high_bid
        return (f"A bid must beat {bid_level(high)} {STRAIN_NAMES[bid_strain(high)]}: "
                "bid a higher level, or the same level in a higher strain")
