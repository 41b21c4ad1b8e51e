"""The ladder of bot levels: is each level a real step above the one below, and what rating
does each level earn?

Two runs, both duplicate matches of ``israeli_whist.bots.matches.tournament`` (the same deals with the two bots
in every seat arrangement), per game:

- **Neighbouring pairs** (the default): easy-medium, medium-hard and hard-expert (``--pairs``
  chooses). It prints the mean points a hand of the higher level less the lower one's, paired
  by deal, with its 95% confidence interval, and whether the interval is above zero.
- **Round robin** (``--round-robin``): every pair of ``--levels`` in every game. Each hand it
  plays feeds OpenSkill's Plackett-Luce model, the leaderboard's (``israeli_whist.server.ratings``):
  each seat a team of one (in Classic Whist each side a team of two), places by the hand's
  points, ties tied. A level's rating is updated by each seat it held. The ratings are then
  shifted, per game, so that medium's mu is 25: a new player starts level with the basic bot.
  ``--rows`` keeps every hand (JSON lines, one match a line, written as each match ends) and
  ``--from-rows`` rates such a file again without playing; ``--write`` writes the games rated
  into ``src/israeli_whist/bots/matches/ladder_ratings.py``, the other games' ratings kept as they were.

A researcher's own bot joins the round robin by its entry point, as in ``whist tournament``
(``israeli_whist.bots.players.registry``): ``--levels easy,medium,hard,expert,mybots.agent:make`` rates it on the
leaderboard's scale beside the levels. Every level is checked before the first match, and
``--write`` takes the shipped levels only: the ratings module is what the server reads.

The expert thinks for a CPU-time budget, so its results depend on the machine's speed.

Run:  python bench/ladder.py [--pairs easy-medium,medium-hard,hard-expert] [--games israeli,classic,whistiti]
          [--hands 2000] [--seed 0] [--workers 1] [--json FILE]
      python bench/ladder.py --round-robin [--levels easy,medium,hard,expert[,package.module:factory]] [--hands 300]
          [--rows FILE] [--from-rows FILE] [--write]
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import shlex
import sys
import textwrap
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from openskill.models import PlackettLuce, PlackettLuceRating

from israeli_whist.bots.matches.tournament import TournamentResult, run_tournament, seat_arrangements, spec_from
from israeli_whist.bots.players.registry import BOT_LEVELS, check_level
from israeli_whist.core.errors import WhistError
from israeli_whist.core.games import GAMES, make_game

LADDER = ("easy", "medium", "hard", "expert")
NEIGHBOURS = tuple(f"{low}-{high}" for low, high in itertools.pairwise(LADDER))
ANCHOR_LEVEL, ANCHOR_MU = "medium", 25.0  # the basic bot's rating, where a new player starts
RATINGS_MODULE = Path(__file__).resolve().parents[1] / "src/israeli_whist/bots/matches/ladder_ratings.py"
MODEL = PlackettLuce()
T = TypeVar("T")


@dataclass(frozen=True)
class Hand:
    """One hand of the round robin, as the rating sees it."""

    game: str
    levels: tuple[str, ...]  # the level in each seat
    points: tuple[int, ...]  # by seat


def deals_for(game_name: str, hands: int, bots: int = 2) -> int:
    """Whole deals enough for ``hands`` hands: each deal is played in every seat arrangement."""
    game = make_game(game_name)
    arrangements = len(seat_arrangements(game.players, bots, game.rules.traits.partnerships))
    return -(-hands // arrangements)


def play_match(game: str, levels: Sequence[str], hands: int, seed: int, workers: int) -> TournamentResult:
    return run_tournament(spec_from(game, levels, deals_for(game, hands), seed), workers=workers)


def ci_text(difference: dict[str, Any]) -> str:
    low, high = difference["ci95"]
    if low is None or high is None:
        return "95% CI n/a"
    return f"95% CI [{low:+.2f}, {high:+.2f}]"


# Neighbouring pairs ----------------------------------------------------------------------------


def parse_pairs(text: str) -> list[tuple[str, str]]:
    pairs = []
    for item in text.split(","):
        low, dash, high = item.partition("-")
        if not dash or low not in LADDER or high not in LADDER or LADDER.index(low) >= LADDER.index(high):
            raise SystemExit(f"--pairs: {item!r} is not LOW-HIGH of the levels {', '.join(LADDER)} (e.g. easy-medium)")
        pairs.append((low, high))
    return pairs


def run_pairs(args: argparse.Namespace) -> None:
    records = []
    for game in args.games.split(","):
        for low, high in parse_pairs(args.pairs):
            started = time.monotonic()
            result = play_match(game, [high, low], args.hands, args.seed, args.workers)
            summary = result.summary()
            (difference,) = summary["differences"]
            times = summary["decision_time"]
            separated = "separated" if difference["above_zero"] else "NOT separated (the CI reaches zero)"
            print(f"{GAMES[game].title}: {high} - {low} = {difference['mean_difference']:+.2f} points a hand, "
                  f"{ci_text(difference)}, {summary['hands_played']} hands ({summary['deals']} deals), {separated}; "
                  f"median ms a decision {high} {times[high]['median_ms']:.2f}, {low} {times[low]['median_ms']:.2f}; "
                  f"{time.monotonic() - started:.0f} s", flush=True)
            records.append({"game": game, "high": high, "low": low, "seed": args.seed,
                            "hands": summary["hands_played"], "deals": summary["deals"],
                            "difference": difference, "decision_time": times})
    if args.json:
        args.json.write_text(json.dumps(records, indent=2) + "\n")


# Round robin -----------------------------------------------------------------------------------


def hands_of(result: TournamentResult) -> list[Hand]:
    levels = result.spec.levels
    return [Hand(result.spec.game, tuple(levels[bot] for bot in row.seating), row.points) for row in result.rows]


def play_round_robin(args: argparse.Namespace) -> Iterator[list[Hand]]:
    """Every pair of levels in every game, one match at a time; each match's hands are also
    appended to ``--rows`` as soon as it ends, so that a long run interrupted keeps what it played."""
    levels = args.levels.split(",")
    for game in args.games.split(","):
        for first, second in itertools.combinations(levels, 2):
            started = time.monotonic()
            result = play_match(game, [second, first], args.hands, args.seed, args.workers)
            summary = result.summary()
            (difference,) = summary["differences"]
            print(f"{GAMES[game].title}: {second} - {first} = {difference['mean_difference']:+.2f} points a hand, "
                  f"{ci_text(difference)}, {summary['hands_played']} hands, {time.monotonic() - started:.0f} s",
                  flush=True)
            hands = hands_of(result)
            if args.rows:
                with args.rows.open("a") as out:
                    out.write(json.dumps({"command": this_command(), "game": game, "levels": [second, first],
                                          "seed": args.seed,
                                          "difference": difference,
                                          "hands": [[list(h.levels), list(h.points)] for h in hands]}) + "\n")
            yield hands


def this_command() -> str:
    return "python " + " ".join(shlex.quote(a) for a in ["bench/ladder.py", *sys.argv[1:]])


def read_rows(path: Path) -> Iterator[tuple[str, list[Hand]]]:
    """The matches of a ``--rows`` file: the command that played each, and its hands."""
    for line in path.read_text().splitlines():
        match = json.loads(line)
        hands = [Hand(match["game"], tuple(levels), tuple(points)) for levels, points in match["hands"]]
        yield match.get("command", "(not recorded)"), hands


def places(points: Sequence[float]) -> list[int]:
    """1 + how many did better: the hand's ranking, ties tied.

    >>> places([10, -20, 10, 5])
    [1, 4, 1, 3]
    """
    return [1 + sum(other > mine for other in points) for mine in points]


def interleave(matches: Iterable[Sequence[T]]) -> list[T]:
    """The hands of all matches in one order, each match's spread evenly through it, so that no
    pair of levels is rated all at the end, however long its match (an online rating weighs
    recent hands more).

    >>> interleave([[1, 2, 3, 4], [10, 11], [20]])
    [1, 10, 2, 20, 3, 11, 4]
    """
    timed = [((index + 0.5) / len(match), number, item)
             for number, match in enumerate(matches) for index, item in enumerate(match)]
    return [item for _, _, item in sorted(timed, key=lambda entry: entry[:2])]


def rate_hand(ratings: dict[str, PlackettLuceRating], hand: Hand, side_of: Sequence[int]) -> None:
    """Update the levels' ratings by one hand: each side a team (a seat alone, or two partners).

    A level that holds several seats is one player seen several times: its new mu takes the
    change of every seat it held, and its sigma every seat's narrowing (both are evidence)."""
    teams: dict[int, list[int]] = {}
    for seat, side in enumerate(side_of):
        teams.setdefault(side, []).append(seat)
    members = list(teams.values())
    before = [[MODEL.rating(mu=ratings[hand.levels[s]].mu, sigma=ratings[hand.levels[s]].sigma) for s in team]
              for team in members]
    team_points = [hand.points[team[0]] for team in members]  # partners score alike
    after = MODEL.rate(before, ranks=[float(p) for p in places(team_points)])
    change: dict[str, tuple[float, float]] = {}  # level: (mu change, sigma factor)
    for team, rated in zip(members, after, strict=True):
        for seat, rating in zip(team, rated, strict=True):
            level = hand.levels[seat]
            old = ratings[level]
            mu_change, factor = change.get(level, (0.0, 1.0))
            change[level] = (mu_change + rating.mu - old.mu, factor * rating.sigma / old.sigma)
    for level, (mu_change, factor) in change.items():
        old = ratings[level]
        ratings[level] = MODEL.rating(mu=old.mu + mu_change, sigma=old.sigma * factor)


def ladder_order(level: str) -> tuple[int, str]:
    """random first, then the ladder from easy up, then any other level by name."""
    order = ("random", *LADDER)
    return (order.index(level), "") if level in order else (len(order), level)


def rate_games(hands: Sequence[Hand]) -> dict[str, dict[str, tuple[float, float]]]:
    """Per game, each level's (mu, sigma), shifted so that medium's mu is 25."""
    by_game: dict[str, list[Hand]] = {}
    for hand in hands:
        by_game.setdefault(hand.game, []).append(hand)
    table: dict[str, dict[str, tuple[float, float]]] = {}
    for game_name, game_hands in by_game.items():
        game = make_game(game_name)
        side_of = [game.side_of(seat) if game.rules.traits.partnerships else seat for seat in range(game.players)]
        ratings: dict[str, PlackettLuceRating] = {}
        for hand in game_hands:
            for level in hand.levels:
                ratings.setdefault(level, MODEL.rating())
            rate_hand(ratings, hand, side_of)
        shift = ANCHOR_MU - ratings[ANCHOR_LEVEL].mu if ANCHOR_LEVEL in ratings else 0.0
        table[game_name] = {level: (round(r.mu + shift, 2), round(r.sigma, 2))
                            for level, r in sorted(ratings.items(), key=lambda item: ladder_order(item[0]))}
    return table


def ratings_module(table: dict[str, dict[str, tuple[float, float]]], sources: dict[str, str]) -> str:
    """The text of ``ladder_ratings.py``: each game's ratings, and in ``LADDER_SOURCES`` how
    they were made."""
    lines = [
        '"""The bot levels\' ratings per game, measured by the ladder\'s round robin. Generated by',
        "``bench/ladder.py --round-robin --write``: do not edit.",
        "",
        "Each value is (mu, sigma) on OpenSkill's Plackett-Luce model, shifted so that medium (the",
        "basic bot) has mu 25, where a new player starts; see bench/ladder.py. ``LADDER_SOURCES``",
        "says, per game, when and from which hands its ratings were made: a run of some games only",
        "replaces those games' ratings.",
        '"""',
        "",
        "LADDER_RATINGS: dict[str, dict[str, tuple[float, float]]] = {",
    ]
    for game, levels in sorted(table.items()):
        lines.append(f'    "{game}": {{')
        lines.extend(f'        "{level}": ({mu}, {sigma}),' for level, (mu, sigma) in levels.items())
        lines.append("    },")
    lines += ["}", "", "LADDER_SOURCES: dict[str, str] = {"]
    for game in sorted(table):
        pieces = textwrap.wrap(sources[game], 88, break_long_words=False, break_on_hyphens=False)
        lines.append(f'    "{game}": (')
        lines.extend(f"        {json.dumps(piece + (' ' if i < len(pieces) - 1 else ''))}"
                     for i, piece in enumerate(pieces))
        lines.append("    ),")
    lines.append("}")
    return "\n".join(lines) + "\n"


def source_text(played_by: Sequence[str], hands: int) -> str:
    """How a game's ratings were made: today, this command, and the commands that played its hands."""
    today = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d")
    return f"Made on {today} by {this_command()} from {hands} hands, played by: {'; '.join(played_by)}"


def current_ratings() -> tuple[dict[str, dict[str, tuple[float, float]]], dict[str, str]]:
    """The ratings module as it stands (read from its file, not the installed package): the
    games a run does not rate keep their ratings and sources."""
    namespace: dict[str, Any] = {}
    exec(compile(RATINGS_MODULE.read_text(), str(RATINGS_MODULE), "exec"), namespace)
    return dict(namespace["LADDER_RATINGS"]), dict(namespace.get("LADDER_SOURCES", {}))


def check_levels(levels: Iterable[str], write: bool) -> None:
    """Every level a bot (an entry point imported and asked for one), before the first match; with
    ``write``, only the shipped levels, whose ratings the server reads."""
    for level in levels:
        if write and level not in BOT_LEVELS:
            raise SystemExit(f"--write keeps the ratings of the shipped levels only, not of {level!r}: "
                             "rate it without --write (or with --json)")
        try:
            check_level(level)
        except WhistError as error:
            raise SystemExit(f"--levels: {error}") from None


def run_round_robin(args: argparse.Namespace) -> None:
    if args.from_rows:
        read = [match for path in args.from_rows for match in read_rows(path)]
        played_by = list(dict.fromkeys(command for command, _ in read))
        matches = [hands for _, hands in read]
        if args.write:
            check_levels(sorted({level for hands in matches for hand in hands for level in hand.levels}), True)
    else:
        check_levels(args.levels.split(","), args.write)
        if args.rows:
            args.rows.write_text("")
        played_by = [this_command()]
        matches = list(play_round_robin(args))
    hands = interleave(matches)
    table = rate_games(hands)
    for game, levels in table.items():
        text = ", ".join(f"{level} {mu:.2f} (sigma {sigma:.2f})" for level, (mu, sigma) in levels.items())
        print(f"{GAMES[game].title} ratings: {text}")
    if args.json:
        args.json.write_text(json.dumps(table, indent=2) + "\n")
    if args.write:
        ratings, sources = current_ratings()
        for game in table:
            ratings[game] = table[game]
            sources[game] = source_text(played_by, sum(hand.game == game for hand in hands))
        RATINGS_MODULE.write_text(ratings_module(ratings, sources))
        print(f"wrote {RATINGS_MODULE} ({', '.join(GAMES[game].title for game in table)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default=",".join(GAMES), help="games of the registry, by name (default: all)")
    parser.add_argument("--pairs", default=",".join(NEIGHBOURS), help="LOW-HIGH pairs of levels, comma-separated")
    parser.add_argument("--hands", type=int, help="hands a match, rounded up to whole deals "
                        "(default 2000 for pairs, 300 for the round robin)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--round-robin", action="store_true", help="every pair of --levels, rated")
    parser.add_argument("--levels", default=",".join(LADDER), help="the round robin's levels")
    parser.add_argument("--rows", type=Path, help="round robin: keep every hand in this file (JSON lines)")
    parser.add_argument("--from-rows", type=Path, nargs="+", help="round robin: rate the hands of these files, "
                        "playing none")
    parser.add_argument("--write", action="store_true", help=f"round robin: write {RATINGS_MODULE.name}")
    args = parser.parse_args()
    if args.hands is None:
        args.hands = 300 if args.round_robin else 2000
    if args.hands < 1:
        raise SystemExit("--hands: at least 1")
    if args.round_robin:
        run_round_robin(args)
    else:
        run_pairs(args)


if __name__ == "__main__":
    main()
