"""The three games registered with OpenSpiel (israeli_whist.rl.openspiel): OpenSpiel's own checks, the
deal as chance, observations made from seat views, serialization, and ISMCTS with our resampler."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from open_spiel.python.algorithms import ismcts, mcts, outcome_sampling_mccfr

from israeli_whist.bots.players.registry import make_bot
from israeli_whist.core.actions import PASS, Phase
from israeli_whist.core.cards import SUIT_MASKS
from israeli_whist.core.errors import RulesError
from israeli_whist.core.games import make_game
from israeli_whist.core.state import HandState
from israeli_whist.core.views import seat_view
from israeli_whist.rl.encoding import encode_observation, observation_text
from israeli_whist.rl.openspiel import WhistBot, load
from israeli_whist.rl.openspiel_observer import remembered_markdown
from israeli_whist.rl.openspiel_resample import resample, resampler
from israeli_whist.rl.openspiel_state import WhistState, cards_drawn

# Each game with its defaults and with options changed (several at once).
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("israeli", {}),
    ("israeli", {"preset": "three_random_card", "frisch_direction": "right", "auction_end": "four_passes",
                 "dealer": 2}),
    ("classic", {}),
    ("classic", {"honours": True, "target": 3, "dealer": 3}),
    ("whistiti", {}),  # the hand's place drawn by chance first
    ("whistiti", {"hand_number": 4}),
    ("whistiti", {"preset": "oh_hell"}),
    ("whistiti", {"players": 6, "schedule": "8,2", "first_lead": "left_of_dealer", "dealer": 5}),
]


def config_id(config: tuple[str, dict[str, Any]]) -> str:
    game, options = config
    return "-".join([game, *(f"{k}={v}" for k, v in options.items())])


def play(state: WhistState, choose: Callable[[WhistState], int], rng: random.Random) -> WhistState:
    """Deal with ``rng`` and let ``choose`` act until the hand ends."""
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(choose(state))
    return state


def hand_of(state: WhistState) -> HandState:
    assert state.hand is not None, "the cards are dealt"
    return state.hand


def dealt(game: pyspiel.Game, rng: random.Random) -> WhistState:
    state: WhistState = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    return state


def pass_mostly(rng: random.Random) -> Callable[[WhistState], int]:
    """Random actions, passing nine calls in ten: Israeli Whist then reaches its Frisch rounds."""
    def choose(state: WhistState) -> int:
        legal = state.legal_actions()
        return PASS if PASS in legal and rng.random() < 0.9 else int(rng.choice(legal))
    return choose


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_openspiel_random_sim_test_with_serialization(config: tuple[str, dict[str, Any]]) -> None:
    game = load(config[0], **config[1])
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_the_games_are_registered_under_their_names() -> None:
    names = set(pyspiel.registered_names())
    assert {"python_israeli_whist", "python_classic_whist", "python_whistiti"} <= names
    game = pyspiel.load_game("python_whistiti(players=5,schedule=1;3;5,hand_number=2)")
    assert game.num_players() == 5
    assert game.new_initial_state().get_game().whist_game.hand_size(2) == 5


def test_every_rule_option_is_a_parameter() -> None:
    game = load("israeli", preset="achim", nt_minimum="5", target=200)
    params = game.get_parameters()
    assert params["zero_scoring"] == "achim" and params["nt_minimum"] == 5 and params["target"] == 200
    assert load("israeli").get_parameters()["target"] == 0, "no target is 0"
    assert game.rules == make_game("israeli", "achim", {"nt_minimum": 5, "target": 200}).rules
    assert load("whistiti", schedule="1,3,5").get_parameters()["schedule"] == "1;3;5"
    # OpenSpiel would read "12" as a number, and a game string must say the same game again.
    twelve = load("whistiti", schedule="12")
    assert twelve.get_parameters()["schedule"] == "12;" and twelve.rules.hand_sizes() == (12,)
    assert pyspiel.load_game(str(twelve)).rules == twelve.rules


@pytest.mark.parametrize(("call", "message"), [
    (lambda: load("bridge"), "Unknown game 'bridge'; games: israeli, classic, whistiti"),
    (lambda: load("whistiti", colour="red"), "Unknown option 'colour' for whistiti"),
    (lambda: load("whistiti", players=9), "players must be between 3 and 7"),
    (lambda: load("classic", honours="maybe"), "honours is true or false"),
    (lambda: load("whistiti", first_lead="dealer"), "first_lead must be one of highest_bidder, left_of_dealer"),
    (lambda: load("classic", dealer=4), "dealer is a seat from 0 to 3, not 4"),
    (lambda: load("classic", dealer="north"), "dealer is a whole number"),
    (lambda: load("whistiti", schedule="1,2", hand_number=2), "hand_number is the hand's place in the game, 0 to 1"),
])
def test_bad_games_and_options_are_refused_in_words(call: Callable[[], object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        call()


@settings(max_examples=100, deadline=None)
@given(name=st.sampled_from(["dealer", "hand_number", "players", "schedule"]),
       value=st.one_of(st.integers(), st.text(max_size=8), st.floats(), st.none(), st.booleans(),
                       st.integers().map(str)))
def test_any_game_parameter_makes_a_game_or_is_refused_in_words(name: str, value: Any) -> None:
    """Numbers of any size included, which OpenSpiel itself cannot hold."""
    try:
        game = load("whistiti", **{name: value})
    except RulesError:
        return
    assert game.new_initial_state().is_chance_node()


def test_an_unknown_parameter_in_a_game_string_is_refused() -> None:
    with pytest.raises(pyspiel.SpielError, match="colour"):
        pyspiel.load_game("python_whistiti(colour=red)")


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_the_deal_is_chance_and_the_rest_is_the_engine(config: tuple[str, dict[str, Any]]) -> None:
    """The chance actions (after the hand's place, where chance draws it) deal the cards one at a
    time from left of the dealer; replaying every player action through the engine from that deal
    gives the same hand and the same points."""
    game = load(config[0], **config[1])
    rng = random.Random(3)
    state = play(game.new_initial_state(), pass_mostly(rng), rng)
    whist_game = game.whist_game
    history = state.history()
    (place,) = state.place_drawn or (game.hand_number,)
    start = len(state.place_drawn)
    draws = cards_drawn(whist_game, place)
    assert start + draws <= game.max_chance_nodes_in_history()
    cards = history[start:start + draws]
    pack = cards + [c for c in whist_game.deck() if c not in cards]
    hand = whist_game.deal_cards(game.dealer, pack, place)
    for action in history[start + draws:]:
        hand = hand.apply(action)
    assert hand == state.hand
    assert state.returns() == list(hand.scores())
    assert all(game.min_utility() <= r <= game.max_utility() for r in state.returns())


def test_chance_outcomes_are_the_undealt_cards_of_the_pack() -> None:
    game = load("israeli", preset="three_short_deck")
    state = game.new_initial_state()
    assert [a for a, _ in state.chance_outcomes()] == game.whist_game.deck()
    state.apply_action(game.whist_game.deck()[0])
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 35 and sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert game.max_chance_outcomes() == 36


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_observations_are_the_seat_views_encoding(config: tuple[str, dict[str, Any]]) -> None:
    game = load(config[0], **config[1])
    rng = random.Random(8)
    state = dealt(game, rng)
    for _ in range(6):
        for seat in range(game.num_players()):
            view = seat_view(hand_of(state), seat)
            assert np.array_equal(np.asarray(state.observation_tensor(seat), np.float32), encode_observation(view))
            assert state.observation_string(seat) == observation_text(view)
            info = np.asarray(state.information_state_tensor(seat), np.float32)
            assert np.array_equal(info[:len(encode_observation(view))], encode_observation(view))
        state.apply_action(pass_mostly(rng)(state))


def test_the_information_state_remembers_what_the_observation_forgets() -> None:
    """Classic Whist: the turned-up trump goes back to the dealer's hand after the first trick,
    and the tricks before the last are summed up in the observation; the information state keeps both."""
    game = load("classic")
    rng = random.Random(4)
    state = dealt(game, rng)
    turned = hand_of(state).turned_card
    for _ in range(8):
        state.apply_action(rng.choice(state.legal_actions()))
    observation, info = state.observation_string(1), state.information_state_string(1)
    assert "turned up" not in observation
    assert "turned up at the deal" in info and "trick 1: seat 1 led" in info and "trick 2:" in info
    tensor = np.asarray(state.information_state_tensor(1))
    assert tensor[-52 + turned] == 1.0, "the last piece is the card turned up at the deal"


# Perfect recall --------------------------------------------------------------------------------

RECALL_CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("israeli", {}),
    ("israeli", {"frisch_direction": "rotating", "auction_end": "four_passes"}),
    ("israeli", {"form": "three_no_clubs", "frisch_direction": "right"}),
    ("classic", {}),
    ("whistiti", {"players": 3, "hand_number": 4}),
]


def long_auctions(rng: random.Random) -> Callable[[WhistState], int]:
    """Random actions, with auctions that pass often and bid low, so that calls come round the
    table many times, seats pass and bid again, and deals go to the Frisch."""
    def choose(state: WhistState) -> int:
        legal = state.legal_actions()
        if PASS not in legal:
            return int(rng.choice(legal))
        bids = [int(action) for action in legal if action != PASS]
        if not bids or rng.random() < 0.55:
            return PASS
        return bids[min(int(rng.expovariate(1.0)), len(bids) - 1)]
    return choose


@pytest.mark.parametrize("config", RECALL_CONFIGS, ids=config_id)
def test_the_information_state_tensor_has_perfect_recall(config: tuple[str, dict[str, Any]]) -> None:
    """For every player, two positions have the same information-state tensor exactly when they
    have the same information-state string, the auction included. Two histories can meet only
    within one deal (the tensor holds the player's cards), so each deal is played out many ways."""
    game = load(config[0], **config[1])
    rng = random.Random(0)
    choose = long_auctions(rng)
    positions = 0
    for _deal in range(2):
        root = dealt(game, rng)
        by_tensor: dict[tuple[int, bytes], str] = {}
        by_text: dict[tuple[int, str], bytes] = {}
        for _playout in range(20):
            state = root.clone()
            while True:
                for player in range(game.num_players()):
                    tensor = np.asarray(state.information_state_tensor(player), np.float32).tobytes()
                    text = state.information_state_string(player)
                    assert by_tensor.setdefault((player, tensor), text) == text, "one tensor, two information states"
                    assert by_text.setdefault((player, text), tensor) == tensor, "one information state, two tensors"
                    positions += 1
                if state.is_terminal():
                    break
                state.apply_action(choose(state))
    assert positions > 1000


@pytest.mark.parametrize("config", [("israeli", {}), ("classic", {}), ("whistiti", {"players": 3, "schedule": "1,2"})],
                         ids=config_id)
def test_outcome_sampling_mccfr_runs_on_the_games(config: tuple[str, dict[str, Any]]) -> None:
    """OpenSpiel's Monte Carlo CFR, which assumes perfect recall, learns a policy over the legal
    actions of each information state it meets (Whistiti's hand drawn by its chance node)."""
    game = load(config[0], **config[1])
    np.random.seed(0)  # the solver samples with NumPy's global generator
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(10):
        solver.iteration()
    policy = solver.average_policy()
    state = dealt(game, random.Random(1))
    probabilities = policy.action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions())
    assert sum(probabilities.values()) == pytest.approx(1.0)


def test_no_observation_shows_a_hidden_card() -> None:
    """Two deals that differ only in the cards seat 0 cannot see give seat 0 the same
    information state, its strings and tensors (every other seat's differ)."""
    game = load("whistiti", preset="oh_hell")
    rng = random.Random(5)
    state = dealt(game, rng)
    for _ in range(9):
        state.apply_action(rng.choice(state.legal_actions()))
    other = resample(state, 0, random.Random(1))
    assert hand_of(other).hands != hand_of(state).hands
    for method in ("information_state_string", "observation_string"):
        assert getattr(other, method)(0) == getattr(state, method)(0)
    for method in ("information_state_tensor", "observation_tensor"):
        assert list(getattr(other, method)(0)) == list(getattr(state, method)(0))
    assert other.information_state_string(1) != state.information_state_string(1)


def test_while_dealing_each_seat_sees_only_its_own_cards() -> None:
    game = load("whistiti", preset="oh_hell")
    state = game.new_initial_state()
    for card in (0, 1, 2, 3, 4):  # dealer 0: seat 1 gets the first and the fifth card
        state.apply_action(card)
    assert state.information_state_string(1) == "seat 1: dealing, 5 cards dealt; yours: 2♣ 6♣"
    assert state.observation_string(2) == "seat 2: dealing, 5 cards dealt"
    assert not any(state.information_state_tensor(1))


def test_serialization_round_trip_mid_hand() -> None:
    game = load("israeli", frisch_rounds=1)
    rng = random.Random(11)
    state = dealt(game, rng)
    for _ in range(12):
        state.apply_action(pass_mostly(rng)(state))
    text = pyspiel.serialize_game_and_state(game, state)
    again_game, again = pyspiel.deserialize_game_and_state(text)
    assert str(again_game) == str(game) and again.history() == state.history()
    assert again.hand == state.hand and str(again) == str(state)
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert len(state.history()) + 1 == len(copy.history()), "a clone moves on alone"


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    game = load("whistiti", preset="oh_hell")
    state = dealt(game, random.Random(2))
    before = state.history()
    with pytest.raises(Exception, match="It is time to bid a number of tricks"):
        state.apply_action(3)
    assert state.history() == before


# The resampler ----------------------------------------------------------------------------------


def check_resample(state: WhistState, seed: int) -> None:
    for seat in range(state.get_game().num_players()):
        other = resample(state, seat, random.Random(seed))
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert list(other.information_state_tensor(seat)) == list(state.information_state_tensor(seat))
        assert other.current_player() == state.current_player()
        assert other.legal_actions() == state.legal_actions() or state.current_player() != seat


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_resampled_states_match_the_players_information(config: tuple[str, dict[str, Any]]) -> None:
    game = load(config[0], **config[1])
    rng = random.Random(12)
    state = dealt(game, rng)
    choose = pass_mostly(rng)
    step = 0
    while not state.is_terminal():
        if step % 3 == 0:
            check_resample(state, step)
        state.apply_action(choose(state))
        step += 1


def test_resampling_through_three_frisch_rounds() -> None:
    """Israeli Whist after Frisch rounds: the cards the others passed among themselves are made
    up, and a card this seat passed is found where a path of passes can have taken it."""
    for seed in range(4):
        game = load("israeli", frisch_direction="rotating" if seed % 2 else "left")
        rng = random.Random(seed)
        state = dealt(game, rng)
        while hand_of(state).frisch_round < 3 or hand_of(state).phase == Phase.FRISCH:
            legal = state.legal_actions()
            state.apply_action(PASS if PASS in legal else rng.choice(legal))
        assert hand_of(state).phase == Phase.AUCTION
        check_resample(state, seed)
        while hand_of(state).phase != Phase.PLAY and not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        for _ in range(10 if not state.is_terminal() else 0):
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            check_resample(state, seed)


def test_resampling_during_a_frisch() -> None:
    game = load("israeli")
    rng = random.Random(6)
    state = dealt(game, rng)
    for _ in range(4 + 7):  # four passes, then seats 1 and 2 choose and seat 3 one card
        legal = state.legal_actions()
        state.apply_action(PASS if PASS in legal else rng.choice(legal))
    assert hand_of(state).phase == Phase.FRISCH and state.current_player() == 3
    check_resample(state, 1)


def test_resampled_hands_respect_shown_voids() -> None:
    """Unlike oh_hell's own resampler: a seat that showed out of a suit is never given one."""
    game = load("whistiti", preset="oh_hell")
    for seed in range(30):
        rng = random.Random(seed)
        state = dealt(game, rng)
        while hand_of(state).phase != Phase.PLAY or not any(
                cards[0] // 13 != card // 13 for _, cards, _ in hand_of(state).tricks for card in cards[1:]):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        leader, cards, _ = next(t for t in hand_of(state).tricks if any(c // 13 != t[1][0] // 13 for c in t[1]))
        void_seat = next((leader + i) % 4 for i, c in enumerate(cards) if c // 13 != cards[0] // 13)
        suit = cards[0] // 13
        me = next(s for s in range(4) if s != void_seat)
        draw = random.Random(seed)
        for _ in range(10):
            other = resample(state, me, draw)
            assert not hand_of(other).hands[void_seat] & SUIT_MASKS[suit]
        return
    raise AssertionError("no seat showed out in 30 hands")


# ISMCTS -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["whistiti", "classic", "israeli"])
def test_python_ismcts_plays_a_hand_with_our_resampler(name: str) -> None:
    game = load(name, **({"preset": "oh_hell"} if name == "whistiti" else {}))
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=10.0, max_simulations=3, random_state=np.random.RandomState(1))
    bot.set_resampler(resampler(2))
    rng = random.Random(7)
    ours = WhistBot(make_bot("basic", 1))
    state = play(game.new_initial_state(), lambda s: bot.step(s) if s.current_player() % 2 else ours.step(s), rng)
    assert state.is_terminal() and len(state.returns()) == 4


def test_python_ismcts_without_a_resampler_uses_the_states_own() -> None:
    """``resample_from_infostate`` of our state is our sampler too, so ISMCTS needs no callback."""
    game = load("classic")
    state = dealt(game, random.Random(3))
    other = state.resample_from_infostate(2, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.information_state_string(2) == state.information_state_string(2)
    assert other.history() != state.history()
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=np.random.RandomState(1))
    assert bot.step(state) in state.legal_actions()


def test_our_bots_play_the_registered_games() -> None:
    game = load("israeli")
    bots = [WhistBot(make_bot("basic", seat)) for seat in range(4)]
    state = play(game.new_initial_state(), lambda s: bots[s.current_player()].step(s), random.Random(1))
    assert state.is_terminal()


def test_the_docs_show_the_information_state_of_the_code(rl_doc_section: Callable[[str], str]) -> None:
    names = {"israeli": "Israeli", "classic": "Classic", "whistiti": "Whistiti (4 players)"}
    marker = "<!-- information state: israeli_whist.rl.openspiel_observer.remembered_markdown -->\n"
    shown = rl_doc_section("OpenSpiel").split(marker)[1].split("\n<!-- /information state -->")[0]
    assert shown == remembered_markdown([(title, make_game(game).rules) for game, title in names.items()])
    lengths = [load(game).information_state_tensor_shape()[0] for game in names]
    assert shown.splitlines()[-1] == f"| (length) | {' | '.join(map(str, lengths))} | |", "the tensors OpenSpiel gives"


def test_the_docs_example_runs(rl_doc_examples: Callable[[str], list[str]], capsys: pytest.CaptureFixture[str]
                               ) -> None:
    (example,) = rl_doc_examples("OpenSpiel")
    exec(compile(example, "docs/rl.md", "exec"), {})
    returns, last_trick = capsys.readouterr().out.splitlines()
    assert len(returns.split(",")) == 4 and last_trick.startswith("trick 12: seat ")
