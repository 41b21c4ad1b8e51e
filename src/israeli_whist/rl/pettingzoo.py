"""PettingZoo environments of the three games: ``env("israeli", nt_minimum=8, preset="achim")``.

Agents are ``player_0`` .. ``player_{n-1}``, one per seat. Each observation is a dict, as in
PettingZoo's classic card games: ``observation``, the seat's view as a vector
(``israeli_whist.rl.encoding``), and ``action_mask``, 1 for each legal action. Actions are the game's
flat action space (``israeli_whist.core.actions``). An episode is one deal (``episode="hand"``, the
default) or a whole game (``episode="game"``); each hand pays every seat its points as the
match counts them, when it ends. A one-hand episode of Whistiti deals a hand drawn from the whole
schedule with the deal (``hand_number=N`` fixes it: ``israeli_whist.rl.hands``).

An illegal action ends the episode (``illegal_action="end"``, as PettingZoo's classic games do):
the agent that took it is paid one point less than the least its seat can score in the hand,
the others nothing, and its info says why. ``"raise"`` refuses it instead, and ``"replace"``
plays a random legal action. See docs/rl.md.

Two orders of turns:

- ``turns="natural"`` (default): the agent selected is the seat whose turn it is, as in the
  game: a trick's winner leads the next, a Frisch has each seat choose three cards in a row.
- ``turns="round_robin"``: every agent acts once per cycle, in seat order, and each cycle is
  one turn of the game: the seat to act plays, the others take the extra ``wait`` action (the
  last one; their mask offers nothing else). This is the form PettingZoo's parallel API and
  ``max_cycles`` assume; ``parallel_env`` uses it.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.logger import warn
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import aec_to_parallel, turn_based_aec_to_parallel
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from israeli_whist.core.errors import IllegalActionError, RulesError, quoted
from israeli_whist.core.games import game_for_rules
from israeli_whist.rl.encoding import action_space_size, observation_bounds
from israeli_whist.rl.episode import EPISODES, ILLEGAL_ACTIONS, Episode, as_action, choice_of
from israeli_whist.rl.options import game_rules
from israeli_whist.rl.render import table_text

TURN_ORDERS = ("natural", "round_robin")
PARAMETERS = ("preset", "episode", "hand_number", "render_mode", "max_cycles", "illegal_action", "turns")

Observation = dict[str, np.ndarray]


def check_max_cycles(max_cycles: object) -> int | None:
    if max_cycles is None:
        return None
    if isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 1:
        raise RulesError(f"max_cycles is a whole number of turns, 1 or more (or None), not {quoted(max_cycles)}")
    return max_cycles


def check_render_mode(render_mode: object) -> str | None:
    if render_mode is not None and render_mode != "ansi":
        raise RulesError(f"render_mode must be 'ansi' or None, not {quoted(render_mode)}")
    return render_mode


# PettingZoo ships no type information, so its AECEnv is Any to mypy.
class WhistAECEnv(AECEnv[str, Observation, int | None]):  # type: ignore[misc]
    """One table of a game; see the module docstring and ``env``."""

    # Each table replaces it with its own (its name, and whether its turns are round robin).
    metadata: dict[str, Any] = {  # noqa: RUF012
        "name": "whist_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str = "israeli", *, preset: str | None = None, episode: str = "hand",
                 hand_number: int | None = None, render_mode: str | None = None, max_cycles: int | None = None,
                 illegal_action: str = "end", turns: str = "natural", **options: Any) -> None:
        super().__init__()
        self.rules = game_rules(game, preset, options, PARAMETERS)
        self.game = game_for_rules(self.rules)
        self.render_mode = check_render_mode(render_mode)
        self.max_cycles = check_max_cycles(max_cycles)
        self.illegal_action = choice_of("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        self.round_robin = choice_of("turns", turns, TURN_ORDERS) == "round_robin"
        self.metadata = {**self.metadata, "name": f"whist_{game}_v0", "is_parallelizable": self.round_robin}
        self._episode = Episode(self.game, choice_of("episode", episode, EPISODES), hand_number)
        self._rng = random.Random()

        players = self.game.players
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.wait_action = action_space_size(self.rules) if self.round_robin else -1
        actions = action_space_size(self.rules) + (1 if self.round_robin else 0)
        low, high = observation_bounds(self.rules)
        self._observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8),
        }) for agent in self.possible_agents}
        self._action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}

        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]
        self._actor = -1  # round robin: the seat whose turn this cycle is
        self._acted = False  # round robin: it has taken its turn in this cycle
        self._points = [0.0] * players  # points of hands ended since the last payout

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    @property
    def match(self) -> Any:
        """The ``Match`` under way (its hands, results and totals), for inspection."""
        return self._episode.match

    def _agent(self, seat: int) -> str:
        return self.possible_agents[seat]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    # The cycle -----------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self._episode.start(self._rng)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._points = [0.0] * self.game.players
        self._start_cycle()

    def _start_cycle(self) -> None:
        self._actor, self._acted = self._episode.player, False
        self.agent_selection = self._agent(0 if self.round_robin else self._actor)

    def observe(self, agent: str) -> Observation:
        seat = self._seat(agent)
        mask = self._episode.mask(seat)
        if self.round_robin:
            waiting = seat != self._actor or self._acted
            mask = np.append(mask * (not waiting), np.int8(waiting)).astype(np.int8)
        return {"observation": self._episode.observation(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.infos = {a: {} for a in self.agents}
        if self.round_robin:
            self._round_robin_step(agent, action)
        else:
            self._take_turn(agent, action)
            self._settle()
            if not self._episode_ended():
                self.agent_selection = self._agent(self._episode.player)
        self._accumulate_rewards()

    def _round_robin_step(self, agent: str, action: Any) -> None:
        seat = self._seat(agent)
        if seat == self._actor and not self._acted:
            self._take_turn(agent, action)
            self._acted = True
        else:
            self._wait(agent, action)
        if self._episode.forfeited:  # told at once, not at the end of the cycle: every agent is done
            self._settle()
            return
        if seat < len(self.possible_agents) - 1:
            self.agent_selection = self._agent(seat + 1)
        else:  # the cycle ends: what its turn brought is told now, to every agent at once
            self._settle()
            self._start_cycle()

    def _take_turn(self, agent: str, action: Any) -> None:
        chosen, illegal = self._episode.checked(action, self.illegal_action, self._rng)
        if illegal is not None:
            self.infos[agent]["illegal_action"] = illegal
        if chosen is None:
            self._forfeit(agent)
            return
        if illegal is not None:
            self.infos[agent]["illegal_action_replaced"] = True
        self._add_points(self._episode.act(chosen))

    def _add_points(self, points: tuple[int, ...] | None) -> None:
        if points is not None:
            self._points = [p + q for p, q in zip(self._points, points, strict=True)]

    def _forfeit(self, agent: str) -> None:
        """End the episode on ``agent``'s illegal action (paid when the step settles)."""
        self._add_points(self._episode.forfeit(self._seat(agent)))

    def _wait(self, agent: str, action: Any) -> None:
        try:
            waited = as_action(action) == self.wait_action
        except IllegalActionError:
            waited = False
        if waited:
            return
        turn = f"it is {self._agent(self._actor)}'s turn" if self._actor >= 0 else "the episode is over"
        illegal = f"{agent} must wait ({self.wait_action}) now: {turn}, not {quoted(action)}"
        if self.illegal_action == "raise":
            raise IllegalActionError(illegal)
        self.infos[agent]["illegal_action"] = illegal
        if self.illegal_action == "end":
            self._forfeit(agent)
        else:
            self.infos[agent]["illegal_action_replaced"] = True

    def _settle(self) -> None:
        """Pay the points of hands that ended, and end the episode where it is over."""
        for seat, points in enumerate(self._points):
            self.rewards[self._agent(seat)] = points
        self._points = [0.0] * self.game.players
        if self._episode.over:
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_cycles is not None and self._episode.turns >= self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)

    def _episode_ended(self) -> bool:
        return any(self.terminations.values()) or any(self.truncations.values())

    def render(self) -> str | None:
        if self.render_mode is None:
            warn("render() was called without a render_mode: pass render_mode='ansi'")
            return None
        episode = self._episode
        return table_text(episode.hand, episode.deal_number, episode.totals)

    def close(self) -> None:
        """Nothing to release: the environment holds no files, windows or processes."""


def raw_env(game: str = "israeli", **kwargs: Any) -> WhistAECEnv:
    """The environment without PettingZoo's order-enforcing wrapper."""
    return WhistAECEnv(game, **kwargs)


def env(game: str = "israeli", **kwargs: Any) -> AECEnv[str, Observation, int | None]:
    """An AEC environment of ``game`` ("israeli", "classic" or "whistiti"), with every rule option
    of ``whist rules`` as a keyword (``preset`` too) and the parameters of ``WhistAECEnv``.

    >>> table = env("whistiti", players=5, schedule="3")
    >>> table.reset(seed=1)
    >>> table.agent_selection in table.possible_agents
    True
    """
    return OrderEnforcingWrapper(raw_env(game, **kwargs))


def parallel_env(game: str = "israeli", *, turns: str = "round_robin",
                 **kwargs: Any) -> ParallelEnv[str, Observation, int | None]:
    """A parallel environment: every agent gives an action at every step. With round-robin turns
    (the default) each step is one turn of the game and all but the seat to act must wait; with
    natural turns only the action of the seat to act counts (``info["active_agent"]`` names it)."""
    aec = raw_env(game, turns=turns, **kwargs)
    if aec.round_robin:
        return aec_to_parallel(aec)
    return turn_based_aec_to_parallel(aec)
