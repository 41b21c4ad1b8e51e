"""Every game of the registry (``israeli_whist.core.games``) registered with OpenSpiel, one hand per
episode, under a name made from its title: ``python_israeli_whist``, ``python_classic_whist``,
``python_whistiti``.

>>> game = load("whistiti", players=3, schedule="2,5", hand_number=1)
>>> game.num_players(), game.get_parameters()["schedule"]
(3, '2;5')
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 52)

Every rule option of the game is a game parameter (``whist rules`` lists them), with two more:
``dealer`` (the seat that deals) and ``hand_number`` (which hand of the game it is, 0 first: it
sets Whistiti's number of cards; -1, the default, has a chance node draw it before the deal,
every place of Whistiti's schedule equally likely: ``israeli_whist.rl.hands``). An optional
number option (Israeli Whist's ``target``) is 0 for none, and a list (Whistiti's ``schedule``)
is written with ``;`` in a game string, since OpenSpiel splits parameters on commas, and a list
of one number ends with ``;`` (``12;``), since OpenSpiel would read ``12`` as a number; ``load``
takes either form.

The deal is chance, one card at a time (``israeli_whist.rl.openspiel_state``), so OpenSpiel's search,
its resampling and its records all see it; returns are the hand's points. What a player
observes is in ``israeli_whist.rl.openspiel_observer``; a resampler for ISMCTS that draws the hidden
cards with our exact deal sampler is in ``israeli_whist.rl.openspiel_resample``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import pyspiel

from israeli_whist.bots.players.base import Bot
from israeli_whist.core.actions import MAX_TRICKS, STRAINS
from israeli_whist.core.errors import RulesError, quoted
from israeli_whist.core.games import GAMES, RULES_BY_GAME, game_for_rules, make_rules
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.rules import Rules, option_kind
from israeli_whist.rl.encoding import MAX_FRISCH_ROUNDS, action_space_size
from israeli_whist.rl.hands import DRAWN, check_hand_number, hand_places, points_bounds
from israeli_whist.rl.openspiel_observer import WhistObserver, make_observer
from israeli_whist.rl.openspiel_state import WhistState, cards_drawn

GAME_PARAMETERS = ("dealer", "hand_number")  # parameters that are not rule options
LIST_SEPARATOR = ";"  # a list option's separator in a game string


def parameter_defaults(rules_type: type[Rules]) -> dict[str, Any]:
    """Every parameter of a game with its default: the rule options, then ``dealer`` and ``hand_number``."""
    defaults: dict[str, Any] = {}
    for f in dataclasses.fields(rules_type):
        value = f.default
        defaults[f.name] = 0 if value is None else _spiel_text(value) if isinstance(value, str) else value
    return {**defaults, "dealer": 0, "hand_number": DRAWN}


def _spiel_text(text: str) -> str:
    """A text option as a game string holds it: lists with ``;``, and a text OpenSpiel would read
    as a number (a one-hand schedule, ``12``) with a ``;`` after it, so that it stays text."""
    text = text.replace(",", LIST_SEPARATOR)
    return text + LIST_SEPARATOR if text and not text.strip("+-0123456789.") else text


def rules_from_parameters(game: str, params: Mapping[str, Any]) -> Rules:
    """The rules a parameter set means; RulesError for an unknown option or a bad value."""
    rules_type = RULES_BY_GAME[game]
    options: dict[str, Any] = {}
    for f in dataclasses.fields(rules_type):
        if f.name not in params:
            continue
        value = params[f.name]
        if f.default is None and option_kind(f) == "number" and value == 0:
            value = None
        elif isinstance(value, str):
            value = value.rstrip(LIST_SEPARATOR).replace(LIST_SEPARATOR, ",")
        options[f.name] = value
    unknown = set(params) - set(options) - set(GAME_PARAMETERS)
    if unknown:
        raise RulesError(f"Unknown option {quoted(sorted(unknown)[0])} for {game}; options: "
                         f"{', '.join(rules_type.option_names())}, {', '.join(GAME_PARAMETERS)}")
    return make_rules(game, None, options)


def most_decisions(rules: Rules, hand_size: int) -> int:
    """An upper bound on the decisions of a hand: every trump call of every auction (each bid
    beats the last, with at most one round of passes between bids), the Frisch passes, the
    contracts and the cards."""
    n = rules.players
    decisions = n * hand_size + (n if rules.traits.contracts else 0)
    if rules.traits.trump_auction:
        auctions = MAX_FRISCH_ROUNDS + 1
        decisions += auctions * (MAX_TRICKS * STRAINS + 1) * n + MAX_FRISCH_ROUNDS * 3 * n
    return decisions


def short_name(game: str) -> str:
    """OpenSpiel's name of one of our games, from its title: ``python_israeli_whist``."""
    return "python_" + GAMES[game].title.lower().replace(" ", "_")


def game_type(game: str) -> pyspiel.GameType:
    rules_type = RULES_BY_GAME[game]
    players = _player_counts(rules_type)
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"Python {GAMES[game].title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(players),
        min_num_players=min(players),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_defaults(rules_type),
    )


def _player_counts(rules_type: type[Rules]) -> set[int]:
    """The table sizes a game allows: its ``players`` option's range, or those of its presets."""
    for f in dataclasses.fields(rules_type):
        if f.name == "players":
            return set(range(f.metadata["low"], f.metadata["high"] + 1))
    return {rules_type.preset(name).players for name in rules_type.PRESETS}


class WhistGame(pyspiel.Game):  # type: ignore[misc]
    """One hand of a whist game under given rules, dealt by chance. Each game is a subclass
    naming its ``game``: OpenSpiel keeps the class it registers until the process ends."""

    game = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.rules = rules_from_parameters(self.game, params)
        self.whist_game = game_for_rules(self.rules)
        n = self.whist_game.players
        self.dealer = check_dealer(self.whist_game, params.get("dealer", 0))
        fixed = check_hand_number(self.whist_game, params.get("hand_number", DRAWN))
        places = hand_places(self.whist_game) if fixed is None else range(fixed, fixed + 1)
        # The hand's place: a chance node draws it where the places differ, else it is known.
        self.hand_number = places[0] if len(places) == 1 else DRAWN
        self.places = places
        bounds = [points_bounds(self.whist_game, place) for place in places]
        info = pyspiel.GameInfo(
            num_distinct_actions=action_space_size(self.rules),
            max_chance_outcomes=max(len(self.whist_game.deck()), len(places)),
            num_players=n,
            min_utility=float(min(low for low, _ in bounds)),
            max_utility=float(max(high for _, high in bounds)),
            utility_sum=None,
            max_game_length=most_decisions(self.rules, max(self.whist_game.hand_size(p) for p in places)),
        )
        super().__init__(game_type(self.game), info, params)

    def new_initial_state(self) -> WhistState:
        return WhistState(self)

    def max_chance_nodes_in_history(self) -> int:
        drawn_place = 1 if self.hand_number == DRAWN else 0
        return drawn_place + max(cards_drawn(self.whist_game, place) for place in self.places)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> WhistObserver:
        return make_observer(self.rules, iig_obs_type, params)


# The WhistGame subclass OpenSpiel holds for each of our games, by game.
GAME_CLASSES: dict[str, type[WhistGame]] = {}


def register_games() -> dict[str, type[WhistGame]]:
    """Register every game of the registry with OpenSpiel. Importing this module does it, and
    ``load`` does it for a game registered since (a game registered already is left as it is)."""
    for game in GAMES:
        if game not in GAME_CLASSES:
            spiel_class = type(f"{GAMES[game].__name__}Spiel", (WhistGame,), {"game": game})
            pyspiel.register_game(game_type(game), spiel_class)
            GAME_CLASSES[game] = spiel_class
    return GAME_CLASSES


register_games()


def load(game: str, preset: str | None = None, **options: Any) -> pyspiel.Game:
    """``load("whistiti", players=5, schedule="1,3,5")``: the registered OpenSpiel game with these
    options (text or typed values, checked by the engine's rules) and ``dealer``/``hand_number``."""
    if game not in GAMES:
        raise RulesError(f"Unknown game {quoted(game)}; games: {', '.join(GAMES)}")
    register_games()
    extra = {name: options.pop(name) for name in GAME_PARAMETERS if name in options}
    rules = make_rules(game, preset, options)
    params: dict[str, Any] = {}
    for f in dataclasses.fields(rules):
        value = getattr(rules, f.name)
        params[f.name] = 0 if value is None else _spiel_text(value) if isinstance(value, str) else value
    for name, value in extra.items():
        number = value if isinstance(value, int) and not isinstance(value, bool) else None
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            number = int(value.strip())
        if value is None and name == "hand_number":
            number = DRAWN
        if number is None:
            raise RulesError(f"{name} is a whole number, not {quoted(value)}")
        params[name] = number
    # Checked here too, before OpenSpiel, which cannot hold a number beyond 64 bits.
    whist_game = game_for_rules(rules)
    check_dealer(whist_game, params.get("dealer", 0))
    check_hand_number(whist_game, params.get("hand_number", DRAWN))
    return pyspiel.load_game(short_name(game), params)


def check_dealer(game: HandGame, value: object) -> int:
    """``value`` if it is a seat of the table; else a RulesError that says which are."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < game.players:
        return value
    raise RulesError(f"dealer is a seat from 0 to {game.players - 1}, not {quoted(value)}")


class WhistBot(pyspiel.Bot):  # type: ignore[misc]
    """One of our bots (``israeli_whist.bots.players.registry.make_bot``) as an OpenSpiel bot of our games: it
    is given the seat's ``SeatView``, as at our own tables."""

    def __init__(self, bot: Bot) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = bot

    def step(self, state: WhistState) -> int:
        view = state.seat_view(state.current_player())
        if view is None or not view.is_my_turn:
            raise ValueError("A bot acts at its seat's turn, once the cards are dealt")
        return int(self.bot.choose(view))

    def restart_at(self, state: WhistState) -> None:
        pass

    def provides_policy(self) -> bool:
        return False
