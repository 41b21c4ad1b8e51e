"""A Gymnasium environment: one learning seat at a table of bots.

``WhistEnv("israeli", seat=0, bots="basic", nt_minimum=8)``, or through Gymnasium once this
module is imported: ``import israeli_whist.rl.gym`` then ``gymnasium.make("whist/Israeli-v0")`` (also
``whist/Classic-v0`` and ``whist/Whistiti-v0``; rule options are keywords of ``make``).

The observation is the learning seat's view as a vector (``israeli_whist.rl.encoding``); the action is
one of the game's flat actions. ``info["action_mask"]`` and ``action_masks()`` (the convention of
``sb3-contrib``'s MaskablePPO) tell which are legal. ``step`` plays the learner's action, then
lets the bots act until it is the learner's turn again or the episode is over; the reward is the
learner's points of every hand that ended meanwhile. An illegal action ends the episode with one
point less than the least the learner's seat can score in the hand (``illegal_action="end"``, the
default, so that checkers and learners that sample without the mask run), or raises
(``illegal_action="raise"``), or is replaced by a random legal one (``"replace"``).

A one-hand episode of Whistiti deals a hand drawn from the whole schedule (``hand_number=N``
fixes it: ``israeli_whist.rl.hands``). ``reset(seed=...)`` fixes the deals, the hand's place, the
first dealer and the bots' choices, for every level that searches a fixed amount (all but
``expert``'s CPU-time budget: a warning says so).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from israeli_whist.bots.matches.runner import bot_action
from israeli_whist.bots.players.base import Bot
from israeli_whist.bots.players.expert import ExpertBot
from israeli_whist.bots.players.registry import make_bot
from israeli_whist.core.errors import RulesError, quoted
from israeli_whist.core.games import GAMES, game_for_rules
from israeli_whist.rl.encoding import Mask, Vector, action_space_size, observation_bounds
from israeli_whist.rl.episode import EPISODES, ILLEGAL_ACTIONS, Episode, choice_of
from israeli_whist.rl.options import game_rules
from israeli_whist.rl.pettingzoo import check_render_mode
from israeli_whist.rl.render import table_text

PARAMETERS = ("seat", "bots", "preset", "episode", "hand_number", "render_mode", "illegal_action")
BotChoice = str | Bot  # a bot level (``israeli_whist.bots.players.registry.BOT_LEVELS``) or a bot ready to play



class WhistEnv(gymnasium.Env[Vector, np.int64]):
    """One learning ``seat``; every other seat a bot (one level for all, or one per seat in seat
    order, the learner's seat left out). See the module docstring and docs/rl.md."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 (Gymnasium's declaration)

    def __init__(self, game: str = "israeli", seat: int = 0, bots: BotChoice | Sequence[BotChoice] = "basic", *,
                 preset: str | None = None, episode: str = "hand", hand_number: int | None = None,
                 render_mode: str | None = None, illegal_action: str = "end", **options: Any) -> None:
        self.rules = game_rules(game, preset, options, PARAMETERS)
        self.game = game_for_rules(self.rules)
        players = self.game.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise RulesError(f"seat is a seat of the table, 0 to {players - 1}, not {quoted(seat)}")
        self.seat = seat
        self.bot_seats = [s for s in range(players) if s != seat]
        self._bot_choices = self._bot_choices_of(bots)
        self.render_mode = check_render_mode(render_mode)
        self.illegal_action = choice_of("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        self._episode = Episode(self.game, choice_of("episode", episode, EPISODES), hand_number)
        self._rng = random.Random(0)
        self._bots: dict[int, Bot] = {}

        low, high = observation_bounds(self.rules)
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space = spaces.Discrete(action_space_size(self.rules))

    def _bot_choices_of(self, bots: BotChoice | Sequence[BotChoice]) -> dict[int, BotChoice]:
        others = self.bot_seats
        if isinstance(bots, str | Bot):
            choices: list[BotChoice] = [bots] * len(others)
        else:
            choices = list(bots)
            if len(choices) != len(others):
                raise RulesError(f"bots names one bot for each of the {len(others)} other seats "
                                 f"{others}, not {len(choices)}")
        for choice in choices:
            if not isinstance(choice, str | Bot):
                raise RulesError(f"A bot is a level name or a Bot, not {quoted(choice)}")
            bot = make_bot(choice) if isinstance(choice, str) else choice  # an unknown level is refused now
            if searches_for_time(bot):
                gymnasium.logger.warn(
                    f"bots: {quoted(choice if isinstance(choice, str) else type(choice).__name__)} searches for a CPU "
                    "time each decision, so reset(seed=...) does not fix its choices (they depend on the machine's "
                    "speed and load); 'expert:deals=64' searches a fixed number of deals and does")
        return dict(zip(others, choices, strict=True))

    @property
    def match(self) -> Any:
        """The ``Match`` under way (its hands, results and totals), for inspection."""
        return self._episode.match

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Vector, dict[str, Any]]:
        super().reset(seed=seed)
        # Python's generator deals, seeds the bots and replaces illegal actions; drawn from
        # Gymnasium's, so that reset(seed=...) fixes them all.
        self._rng = random.Random(int(self.np_random.integers(2**63)))
        self._bots = {s: make_bot(c, self._rng.getrandbits(64)) if isinstance(c, str) else c
                      for s, c in self._bot_choices.items()}
        self._episode.start(self._rng)
        self._play_bots()  # no hand can end before every seat has acted, the learner's included
        return self._episode.observation(self.seat), self._info()

    def step(self, action: Any) -> tuple[Vector, float, bool, bool, dict[str, Any]]:
        episode = self._episode
        chosen, illegal = episode.checked(action, self.illegal_action, self._rng)
        if chosen is None:  # the illegal action ends the episode
            reward = float(episode.forfeit(self.seat)[self.seat])
        else:
            points = episode.act(chosen)
            reward = float(points[self.seat]) if points is not None else 0.0
            reward += self._play_bots()
        info = self._info()
        if illegal is not None:
            info["illegal_action"] = illegal
            if chosen is not None:
                info["illegal_action_replaced"] = True
        return episode.observation(self.seat), reward, episode.over, False, info

    def _play_bots(self) -> float:
        """The bots act until the learner's turn or the end; the learner's points meanwhile."""
        episode, points = self._episode, 0.0
        while not episode.over and episode.player != self.seat:
            action = bot_action(episode.match.hand, self._bots)
            assert action is not None  # every seat but the learner's has a bot
            ended = episode.act(action)
            if ended is not None:
                points += ended[self.seat]
        return points

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._episode.mask(self.seat)}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Which actions are legal now (the method MaskablePPO asks)."""
        mask: Mask = self._episode.mask(self.seat)
        return mask.astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode: pass render_mode='ansi'")
            return None
        episode = self._episode
        return table_text(episode.hand, episode.deal_number, episode.totals)


def searches_for_time(bot: Bot) -> bool:
    """Whether ``bot`` searches for a CPU time each decision, so that its choices depend on the
    machine's speed and load, not only on its seed (``expert``, ``expert@100ms``)."""
    return isinstance(bot, ExpertBot) and bot.settings.time_budget is not None


def gym_id(game: str) -> str:
    """Gymnasium's id of a game of the registry: ``whist/Israeli-v0``, ``whist/Whistiti-v0``..."""
    return f"whist/{game.capitalize()}-v0"


def register_environments() -> dict[str, str]:
    """A Gymnasium id for every game of the registry (``israeli_whist.core.games``), by game. Importing
    this module does it; a game registered later is given its id by calling this again (an id made
    already is left as it is)."""
    ids = {game: gym_id(game) for game in GAMES}
    for game, env_id in ids.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="israeli_whist.rl.gym:WhistEnv", kwargs={"game": game})
    return ids


GYM_IDS = register_environments()  # the games registered when this module was imported
