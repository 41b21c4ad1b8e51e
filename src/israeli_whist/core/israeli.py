"""Israeli Whist (docs/rules.md#israeli-whist): trump auction, Frisch, contracts, play, scoring."""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from typing import Any

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
from israeli_whist.core.cards import CLUBS, NO_TRUMP, STRAIN_LETTERS, card_suit, cards_in, long_name
from israeli_whist.core.errors import RulesError
from israeli_whist.core.handgame import IS_TERMINAL, LOG, PHASE, PLAYER, HandGame
from israeli_whist.core.rules import FORM_DECKS, IsraeliRules
from israeli_whist.core.scoring import israeli_score
from israeli_whist.core.state import FIELD, HandState, make_state
from israeli_whist.core.wording import only_tricks

CALLS, HIGH_BID, DECLARER, PASSES = FIELD["calls"], FIELD["high_bid"], FIELD["declarer"], FIELD["passes"]
HANDS, FRISCH_ROUND, FRISCH_SELECTED, FRISCH_PASSES = (
    FIELD["hands"], FIELD["frisch_round"], FIELD["frisch_selected"], FIELD["frisch_passes"])
TRUMP, CONTRACTS = FIELD["trump"], FIELD["contracts"]


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

