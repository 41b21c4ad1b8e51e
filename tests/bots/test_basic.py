"""The basic bot: legal in every game and preset, deterministic, view-only, and sensible in
a few decisions where the right answer is clear."""

from __future__ import annotations

import ast
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from israeli_whist.bots.judgement import basic_bidding
from israeli_whist.bots.matches.runner import play_to_end
from israeli_whist.bots.players.base import Bot, RandomBot
from israeli_whist.bots.players.basic import BasicBot
from israeli_whist.bots.players.registry import make_bot
from israeli_whist.core.actions import PASS, Action, Phase, bid_action, contract_action, contract_tricks, is_bid
from israeli_whist.core.cards import NO_TRUMP, SUIT_MASKS, SUITS, CardSet, card_set, cards_in, parse_card, parse_hand
from israeli_whist.core.games import make_game
from israeli_whist.core.games.classic import ClassicWhist
from israeli_whist.core.games.israeli import IsraeliWhist
from israeli_whist.core.games.whistiti import Whistiti, WhistitiRules
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.match import Match
from israeli_whist.core.state import HandState
from israeli_whist.core.views import SeatView, seat_view

BOTS_DIR = Path(__file__).parents[2] / "src" / "israeli_whist" / "bots"


class CheckedBot(Bot):
    """Wraps a bot and fails the test the moment it answers out of turn or illegally."""

    def __init__(self, inner: Bot) -> None:
        super().__init__(0)
        self.inner = inner
        self.decisions = 0

    def choose(self, view: SeatView) -> Action:
        assert view.is_my_turn
        action = self.inner.choose(view)
        assert action in view.legal_actions, (view.phase, action, view.legal_actions)
        self.decisions += 1
        return action


GAMES: list[tuple[str, str, Mapping[str, Any]]] = [
    *[("israeli", preset, {"hands": 4}) for preset in (
        "standard", "achim", "pagat", "three_no_clubs", "three_short_deck", "three_short_deck_40",
        "three_random_card")],
    ("israeli", "standard", {"hands": 2, "no_trump_allowed": False, "frisch_direction": "rotating"}),
    ("classic", "standard", {}),
    ("classic", "rubber", {}),
    *[("whistiti", "up_down", {"players": players}) for players in range(3, 8)],
]


def play_checked(game: HandGame, seed: int, basic_seats: set[int]) -> tuple[Match, list[CheckedBot]]:
    checked = [CheckedBot(BasicBot(seed * 10 + s) if s in basic_seats else RandomBot(seed * 10 + s))
               for s in range(game.players)]
    return play_to_end(Match.start(game, seed), dict(enumerate(checked))), checked


@pytest.mark.parametrize(("name", "preset", "options"), GAMES, ids=lambda x: str(x) if isinstance(x, str) else None)
def test_always_legal_in_full_games(name: str, preset: str, options: Mapping[str, Any]) -> None:
    game = make_game(name, preset, options)
    everyone = set(range(game.players))
    for seed in range(3):
        # All basic, and basic among random players, who make the odd bids a basic table never sees.
        for seats in (everyone, {0}):
            match, checked = play_checked(game, seed, seats)
            assert match.over
            assert all(checked[s].decisions > 0 for s in seats)


def test_phases_all_reached_in_israeli_games() -> None:
    """The legality test above means something only if every kind of decision came up."""
    game = make_game("israeli", "standard", {"hands": 4})
    phases: set[Phase] = set()

    class Recorder(BasicBot):
        def choose(self, view: SeatView) -> Action:
            phases.add(view.phase)
            return super().choose(view)

    for seed in range(6):
        play_to_end(Match.start(game, seed), {s: Recorder(s) for s in range(4)})
    assert phases == {Phase.AUCTION, Phase.FRISCH, Phase.CONTRACT, Phase.PLAY}


def test_registered_as_basic() -> None:
    assert isinstance(make_bot("basic", 3), BasicBot)
    assert BasicBot.level == "basic"


@pytest.mark.parametrize("name", ["israeli", "classic", "whistiti"])
def test_deterministic_for_a_seed(name: str) -> None:
    game = make_game(name, None, {"hands": 3} if name == "israeli" else {})
    runs = [play_to_end(Match.start(game, 11), {s: BasicBot(5) for s in range(game.players)}) for _ in range(2)]
    assert [r.final.history for r in runs[0].results] == [r.final.history for r in runs[1].results]
    assert runs[0].totals == runs[1].totals


# The bot sees only the view -----------------------------------------------------------------


def test_bot_modules_never_touch_the_full_state() -> None:
    """No basic module imports the state, the game or the match: all it can read is a SeatView."""
    forbidden = {f"israeli_whist.core.{name}" for name in ("state", "handgame", "match", "games")}
    paths = sorted(BOTS_DIR.glob("*/basic*.py"))
    assert [path.stem for path in paths] == ["basic_bidding", "basic_knowledge", "basic_play", "basic"]
    for path in paths:
        tree = ast.parse(path.read_text())
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        assert not imported & forbidden, path.name
        assert "HandState" not in path.read_text(), path.name


def swap_hidden_hands(state: HandState, a: int, b: int) -> HandState:
    """The same hand with seats ``a`` and ``b`` holding each other's cards, now and as dealt."""

    def swapped(hands: tuple[CardSet, ...]) -> tuple[CardSet, ...]:
        out = list(hands)
        out[a], out[b] = out[b], out[a]
        return tuple(out)

    return state._replace(hands=swapped(state.hands), deal=swapped(state.deal))


@pytest.mark.parametrize("name", ["israeli", "classic", "whistiti"])
def test_same_view_same_choice_whatever_the_hidden_cards(name: str) -> None:
    """At every decision of seat 0 in whole hands, a twin deal in which two other seats have
    swapped their cards gets the same answer: nothing the bot uses depends on hidden cards."""
    game = make_game(name)
    decisions = 0
    for seed in range(3):
        state = game.new_hand(seed % game.players, f"hidden/{seed}", 5)
        while not state.is_terminal:
            seat = state.player
            action = BasicBot(seat).choose(seat_view(state, seat))
            if seat == 0:
                twin = swap_hidden_hands(state, 1, 2)
                assert BasicBot(0).choose(seat_view(twin, 0)) == action
                decisions += 1
            state = state.apply(action)
    assert decisions >= 15


def test_choose_works_from_a_seat_view_alone() -> None:
    state = Whistiti(WhistitiRules(players=5)).new_hand(0, "alone", 6)
    view = seat_view(state, state.player)
    action = BasicBot(1).choose(view)
    assert action in view.legal_actions


# Targeted decisions -------------------------------------------------------------------------


def deal(game: HandGame, dealer: int, fixed: Mapping[int, str], size: int, turned: str | None = None) -> HandState:
    """A hand in which the seats in ``fixed`` hold those cards and the rest is filled in order."""
    turned_card = parse_card(turned) if turned else -1
    taken = 1 << turned_card if turned else 0
    hands = {seat: parse_hand(text) for seat, text in fixed.items()}
    for mask in hands.values():
        taken |= mask
    spare = [c for c in game.deck() if not taken >> c & 1]
    for seat in range(game.players):
        mask = hands.get(seat, 0)
        while mask.bit_count() < size:
            mask |= 1 << spare.pop(0)
        hands[seat] = mask
    used = 0
    for mask in hands.values():
        used |= mask
    unseen = card_set(c for c in game.deck() if not used >> c & 1)
    return game.start_hand(dealer, tuple(hands[s] for s in range(game.players)), unseen, turned_card, size)


def basic_choice(state: HandState) -> Action:
    return BasicBot(0).choose(seat_view(state, state.player))


STRONG = "AS KS QS JS AH KH QH JH AD KD QD JD AC"
HOPELESS = "2S 3S 4S 5S 2H 3H 4H 2D 3D 4D 2C 3C 4C"


def test_strong_hand_calls_in_the_auction() -> None:
    state = deal(IsraeliWhist(), 0, {1: STRONG}, 13)
    action = basic_choice(state)
    assert is_bid(action)


def test_hopeless_hand_passes() -> None:
    state = deal(IsraeliWhist(), 0, {1: HOPELESS}, 13)
    assert basic_choice(state) == PASS


def test_hopeless_hand_passes_over_an_opening_bid_and_strong_hand_overcalls() -> None:
    game = IsraeliWhist()
    state = deal(game, 0, {2: HOPELESS, 3: STRONG}, 13).apply(bid_action(5, 0))  # seat 1 opens 5 clubs
    assert basic_choice(state) == PASS
    action = basic_choice(state.apply(PASS))
    assert is_bid(action) and action > bid_action(5, 0)


def test_frisch_keeps_the_long_suit_and_the_aces() -> None:
    game = IsraeliWhist()
    hand = "AS KS QS JS TS 9S AH 7H 2H 8D 3D 6C 4C"
    state = deal(game, 0, {1: hand}, 13)
    for _ in range(4):
        state = state.apply(PASS)
    assert state.phase == Phase.FRISCH and state.player == 1
    passed: list[int] = []
    for _ in range(3):
        card = basic_choice(state)
        passed.append(card)
        state = state.apply(card)
    assert not card_set(passed) & parse_hand("AS KS QS JS TS 9S AH")


def test_weak_hand_bids_zero_and_strong_declarer_bids_high() -> None:
    game = IsraeliWhist()
    state = deal(game, 0, {1: STRONG, 2: HOPELESS}, 13)
    state = state.apply(bid_action(5, 3)).apply(PASS).apply(PASS).apply(PASS)
    assert state.phase == Phase.CONTRACT and state.player == 1
    declarer_bid = contract_tricks(basic_choice(state))
    assert declarer_bid >= 10
    state = state.apply(contract_action(declarer_bid))
    assert basic_choice(state) == contract_action(0)


def whistiti_play(fixed: Mapping[int, str], contracts: tuple[int, ...], led: list[str], turned: str) -> Action:
    """Seat 1 (left of the dealer) bids first; the contracts are given in seat order. Seat 1 then
    leads, since its bid is set highest, and the cards in ``led`` are played before the bot's turn."""
    game = Whistiti()
    size = parse_hand(fixed[1]).bit_count()
    state = deal(game, 0, fixed, size, turned)
    for seat in (1, 2, 3, 0):
        state = state.apply(contract_action(contracts[seat]))
    assert state.phase == Phase.PLAY and state.player == 1
    for text in led:
        state = state.apply(parse_card(text))
    return basic_choice(state)


def test_plays_the_highest_card_under_the_winner_when_it_needs_no_more_tricks() -> None:
    # Seat 1 leads the king of hearts; seat 2 has bid zero and holds the ace, queen and nine.
    action = whistiti_play({1: "KH 2C 3C", 2: "AH QH 9H"}, (0, 3, 0, 1), ["KH"], turned="2S")
    assert action == parse_card("QH")


def test_wins_with_the_lowest_card_that_does_it_when_tricks_are_needed() -> None:
    # Seat 0 plays last and still needs its trick: the king wins as well as the ace does.
    action = whistiti_play({1: "QH 2C 3C", 2: "4H 5C 6C", 3: "5H 7C 8C", 0: "AH KH 3H"},
                           (1, 3, 0, 0), ["QH", "4H", "5H"], turned="2S")
    assert action == parse_card("KH")


def test_ruffs_when_void_and_short_of_tricks() -> None:
    action = whistiti_play({1: "AH 2C 3C", 2: "4H 5C 6C", 3: "5H 7C 8C", 0: "3S 9D TD"},
                           (1, 3, 0, 0), ["AH", "4H", "5H"], turned="2S")
    assert action == parse_card("3S")


def test_discards_instead_of_ruffing_when_it_has_enough() -> None:
    action = whistiti_play({1: "AH 2C 3C", 2: "4H 5C 6C", 3: "5H 7C 8C", 0: "3S 9D AD"},
                           (0, 2, 0, 0), ["AH", "4H", "5H"], turned="2S")
    assert action == parse_card("AD")  # the most dangerous card goes while it cannot win


def test_classic_does_not_overtake_the_partners_ace() -> None:
    fixed = {0: "AH 2S 3S 4S 5S 6S 7S 8S 9S TS 2D 3D 4D",
             1: "3H 5D 6D 7D 8D 9D TD JD QD KD AD 2C 3C",
             2: "KH 2H 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
             3: "4H 5H 6H 7H 8H 9H TH JH QH AS KS QS JS"}
    state = deal(ClassicWhist(), 3, fixed, 13, turned="JS")  # dealer 3: seat 0 leads, spades trump
    state = state.apply(parse_card("AH")).apply(parse_card("3H"))
    assert state.player == 2
    assert basic_choice(state) == parse_card("2H")


def test_classic_second_hand_low_third_hand_high_and_ruffs_opponents() -> None:
    fixed = {0: "5H 2S 3S 4S 5S 6S 7S 8S 9S TS 2D 3D 4D",
             1: "KH 2H 6D 7D 8D 9D TD JD QD KD AD 2C 3C",
             2: "QH 3H 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
             3: "4H 5D 6H 7H 8H 9H TH JH AH AS KS QS JS"}
    state = deal(ClassicWhist(), 3, fixed, 13, turned="JS")  # dealer 3: seat 0 leads, spades trump
    state = state.apply(parse_card("5H"))
    assert basic_choice(state) == parse_card("2H")  # second hand low
    state = state.apply(parse_card("2H"))
    assert basic_choice(state) == parse_card("QH")  # third hand high


def test_remembered_suit_values_are_the_values_computed_afresh() -> None:
    """The memo of suit valuations is keyed by all they read: over hands of every size, packs
    with a suit left out and three to six players, a remembered answer is the fresh one."""
    rng = random.Random(5)
    for _ in range(400):
        size = rng.randrange(1, 14)
        hand = card_set(rng.sample(range(52), size))
        pack = (1 << 52) - 1 if rng.random() < 0.7 else ((1 << 52) - 1) & ~SUIT_MASKS[0]
        outlook = basic_bidding.Outlook(rng.choice([3, 4, 5, 6]), size, pack & ~hand)
        for strain in [*SUITS, NO_TRUMP]:
            remembered = basic_bidding.card_values(hand, strain, outlook)
            drawn = outlook.top_cards(hand, strain) if strain != NO_TRUMP else 0
            fresh: dict[int, float] = {}
            for suit in SUITS:
                mine = cards_in(hand & SUIT_MASKS[suit])[::-1]
                fresh.update(basic_bidding._valued_suit(mine, suit, strain, outlook, drawn))
            if strain != NO_TRUMP:
                basic_bidding._add_ruffs(fresh, hand, strain, outlook)
            assert remembered == fresh


@pytest.mark.skipif(basic_bidding._compiled is None, reason="needs the compiled estimate")
def test_the_compiled_estimate_is_the_python_one() -> None:
    """Random hands, strains, seat counts and packs (full, or cards left out as in the short
    decks and Whistiti's small deals): the same tricks, to the last bit on the Python this
    project runs (3.11 sums floats one by one; later versions compensate, hence the tolerance),
    and every path taken: voids, long suits, ruffs raised, no unknown card at all."""
    compiled = basic_bidding._compiled
    assert compiled is not None
    rng = random.Random(14)
    for _ in range(3000):
        players = rng.randrange(2, 8)
        size = rng.randrange(1, 52 // players + 1)
        pack = rng.sample(range(52), rng.randrange(size * players, 53)) if rng.random() < 0.4 else list(range(52))
        hand = card_set(rng.sample(pack, size))
        unknown = card_set(pack) & ~hand if rng.random() < 0.95 else 0
        strain = rng.randrange(5)
        outlook = basic_bidding.Outlook(players, size, unknown)
        expected = basic_bidding.estimate_tricks_python(hand, strain, outlook)
        assert compiled.estimate_tricks(hand, strain, players, size, unknown) == pytest.approx(expected, abs=1e-12)
    with pytest.raises(ValueError, match="strain 0-4"):
        compiled.estimate_tricks(1, 5, 4, 13, 2)
    with pytest.raises(ValueError, match="of the 52"):
        compiled.estimate_tricks(1 << 52, 0, 4, 13, 2)


@pytest.mark.skipif(basic_bidding._compiled is None, reason="needs the compiled estimate")
def test_the_compiled_estimate_through_its_cache_gives_the_same_doubles() -> None:
    """The bid inference in C keeps the binomial tails between estimates of one table: for many
    hands in a row through one cache, on random tables and packs, every estimate is the
    uncached one exactly."""
    compiled = basic_bidding._compiled
    assert compiled is not None
    rng = random.Random(15)
    for _ in range(60):
        players = rng.randrange(2, 8)
        size = rng.randrange(1, 52 // players + 1)
        pack = card_set(rng.sample(range(52), rng.randrange(size * players, 53)))
        strain = rng.randrange(5)
        hands = [card_set(rng.sample(cards_in(pack), size)) for _ in range(40)]
        cached = compiled.estimate_tricks_cached(hands, strain, players, size, pack)
        assert cached == [compiled.estimate_tricks(hand, strain, players, size, pack & ~hand) for hand in hands]
    with pytest.raises(ValueError, match="of the 52"):
        compiled.estimate_tricks_cached([1 << 52], 0, 4, 13, 2)
