"""Self-play data: bots play hands and every decision becomes a row of a Parquet file.

The work is cut into chunks of ``chunk_hands`` hands, and each chunk is one file,
``part-00000.parquet``, ``part-00001.parquet``, ... named by its index. Everything in a chunk is
seeded from the run's seed and the hand's number, as in ``israeli_whist.bots.matches.tournament``:

- hand ``h`` is dealt from ``f"{seed}/{h}"`` (``deal_seed``) by dealer ``h % n``, as hand number
  ``h`` (the Whistiti schedule cycles by it); an Israeli Whist deal that no one bids on is
  cancelled, and its decisions are kept like any other's, with zero points;
- seat ``s`` of hand ``h`` is played by ``levels[(s + h) % len(levels)]``, seeded ``f"{seed}/{h}/{s}"``,
  so with several levels each sits in every seat in turn;

so a chunk's rows do not depend on where, when or beside what it runs, and its bytes are written the
same way every time (one row group, fixed schema, zstd, no timestamps): a seed gives the same files
on any machine with the same pyarrow, whichever backend ran the chunks (in this process, a process
pool, or Ray tasks: ``israeli_whist.rl.raybackend``).

Every observation is ``israeli_whist.rl.encoding.encode_observation`` of the acting seat's ``SeatView``, the
same view the bot was shown, so no row holds a card that seat could not see. The columns are
listed in ``SCHEMA_NOTES`` and docs/rl.md.
"""

from __future__ import annotations

import functools
import io
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from israeli_whist.bots.matches.processes import process_pool
from israeli_whist.bots.players.base import ActionValues, Bot
from israeli_whist.bots.players.expert import ExpertSettings
from israeli_whist.bots.players.registry import check_level, is_entry_point, make_bot, parse_level
from israeli_whist.core.actions import Phase
from israeli_whist.core.errors import WhistError
from israeli_whist.core.folders import writable_folder
from israeli_whist.core.games import make_game
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.match import deal_seed
from israeli_whist.core.state import HandState
from israeli_whist.core.views import seat_view
from israeli_whist.rl.encoding import action_mask, action_space_size, encode_observation, observation_size

FORMAT = "whist-selfplay"
FORMAT_VERSION = 1
DEFAULT_CHUNK_HANDS = 100
MANIFEST = "_selfplay.json"  # the underscore: readers of a folder of Parquet files pass it by
PARQUET_OPTIONS: dict[str, Any] = {  # every setting that shapes the bytes, stated, so no default can move them
    "compression": "zstd", "compression_level": 3, "use_dictionary": True, "write_statistics": True,
    "version": "2.6", "data_page_version": "1.0", "store_schema": True,
}


class SelfPlayError(WhistError):
    """Self-play that cannot be run as asked (bad bots, hands, chunk size or output folder)."""


@dataclass(frozen=True)
class SelfPlaySpec:
    """Everything that decides the rows and the files."""

    game: str
    levels: tuple[str, ...]
    hands: int
    seed: int = 0
    preset: str | None = None
    options: tuple[tuple[str, str], ...] = ()
    chunk_hands: int = DEFAULT_CHUNK_HANDS

    def build_game(self) -> HandGame:
        return make_game(self.game, self.preset, dict(self.options))

    @property
    def chunks(self) -> int:
        return -(-self.hands // self.chunk_hands)

    def chunk_hand_range(self, chunk: int) -> range:
        return range(chunk * self.chunk_hands, min(self.hands, (chunk + 1) * self.chunk_hands))

    def seat_level(self, hand: int, seat: int) -> str:
        return self.levels[(seat + hand) % len(self.levels)]


def selfplay_spec(game: str, levels: Sequence[str], hands: int, seed: int = 0, preset: str | None = None,
                  options: dict[str, str] | None = None, chunk_hands: int = DEFAULT_CHUNK_HANDS) -> SelfPlaySpec:
    return SelfPlaySpec(game, tuple(levels), hands, seed, preset, tuple(sorted((options or {}).items())),
                        chunk_hands)


def check_spec(spec: SelfPlaySpec) -> HandGame:
    """The game of ``spec``; raises ``WhistError`` with a message for the user where it cannot run."""
    if not spec.levels:
        raise SelfPlayError("Self-play needs at least one bot level")
    for level in spec.levels:
        check_level(level)
    if spec.hands < 1:
        raise SelfPlayError(f"Self-play needs at least one hand, not {spec.hands}")
    if spec.chunk_hands < 1:
        raise SelfPlayError(f"A chunk holds at least one hand, not {spec.chunk_hands}")
    return spec.build_game()


def timed_levels(levels: Iterable[str]) -> list[str]:
    """The levels that search for a time a decision (``expert`` and ``hard`` by default): their
    choices, so the rows, depend on the machine's speed and load. A deal cap
    (``expert:deals=64``) gives the same rows on every machine. A researcher's own bot (an entry
    point) is not known to search or not, so it is not named.

    >>> timed_levels(["basic", "expert", "expert:deals=64", "expert-2026", "mybots.agent:make"])
    ['expert']
    """
    timed = []
    for level in levels:
        if is_entry_point(level):
            continue
        bot_class, settings = parse_level(level)
        settings = settings or getattr(bot_class, "settings", None)
        if isinstance(settings, ExpertSettings) and settings.time_budget is not None:
            timed.append(level)
    return timed


# The rows ----------------------------------------------------------------------------------------

SCHEMA_NOTES: tuple[tuple[str, str], ...] = (
    ("game", "the game's name: israeli, classic or whistiti"),
    ("options", "every rule option of the game played, as JSON text with sorted keys"),
    ("hand", "the hand's number in the run, from 0; hand h is dealt from the seed f'{seed}/{h}'"),
    ("dealer", "the seat that dealt the hand"),
    ("step", "the decision's place in the hand, from 0"),
    ("seat", "the seat that decided"),
    ("level", "the level of the bot in that seat"),
    ("phase", "auction, frisch, contract or play"),
    ("observation", "israeli_whist.rl.encoding.encode_observation of the seat's view, which the bot was shown"),
    ("legal_mask", "the legal actions (israeli_whist.rl.encoding.action_mask)"),
    ("action", "the action taken, in israeli_whist.core.actions' flat action space"),
    ("action_values", "null where the bot gave no values; else the bot's value of each action it weighed, "
                      "null for the others (the expert's search: the seat's mean points for the hand, or its "
                      "side's mean tricks in Classic Whist's card play)"),
    ("points", "the hand's final points of the seat (Classic Whist: its side's, honours included)"),
    ("hand_points", "the hand's final points of every seat, by seat"),
    ("cancelled", "the deal was cancelled (Israeli Whist: no bid after the last Frisch); all points are 0"),
)


def row_schema(observation_length: int, actions: int) -> pa.Schema:
    types = {
        "game": pa.string(), "options": pa.string(), "hand": pa.int64(), "dealer": pa.int8(), "step": pa.int16(),
        "seat": pa.int8(), "level": pa.string(), "phase": pa.string(),
        "observation": pa.list_(pa.float32(), observation_length), "legal_mask": pa.list_(pa.bool_(), actions),
        "action": pa.int16(), "action_values": pa.list_(pa.float32(), actions), "points": pa.int32(),
        "hand_points": pa.list_(pa.int32()), "cancelled": pa.bool_(),
    }
    notes = dict(SCHEMA_NOTES)
    return pa.schema([pa.field(name, kind, nullable=name == "action_values",
                               metadata={"description": notes[name]}) for name, kind in types.items()])


def schema_markdown() -> str:
    """The columns as a Markdown table, the sizes named (docs/rl.md shows it; a test holds the page
    to it)."""
    sizes = {"[observation_size]": 100_001, "[action_space_size]": 100_002}  # stand-ins, found and renamed
    schema = row_schema(*sizes.values())
    notes = dict(SCHEMA_NOTES)
    lines = ["| column | Arrow type | meaning |", "|---|---|---|"]
    for column in schema:
        kind = str(column.type)
        for name, stand_in in sizes.items():
            kind = kind.replace(f"[{stand_in}]", name)
        lines.append(f"| `{column.name}` | `{kind}`{' or null' if column.nullable else ''} | {notes[column.name]} |")
    return "\n".join(lines)


@dataclass
class Columns:
    """The rows of one chunk, column by column, as they are played."""

    observations: list[np.ndarray[Any, Any]] = field(default_factory=list)
    masks: list[np.ndarray[Any, Any]] = field(default_factory=list)
    values: list[ActionValues | None] = field(default_factory=list)
    cells: dict[str, list[Any]] = field(default_factory=lambda: {
        name: [] for name in ("hand", "dealer", "step", "seat", "level", "phase", "action", "points",
                              "hand_points", "cancelled")})

    def __len__(self) -> int:
        return len(self.observations)


def play_hand_rows(spec: SelfPlaySpec, game: HandGame, hand_number: int, columns: Columns) -> None:
    """Hand ``hand_number`` of the run, each decision added to ``columns``."""
    n = game.players
    bots: dict[int, Bot] = {seat: make_bot(spec.seat_level(hand_number, seat), f"{spec.seed}/{hand_number}/{seat}")
                            for seat in range(n)}
    hand = game.new_hand(hand_number % n, deal_seed(spec.seed, hand_number), hand_number)
    first = len(columns)
    cells = columns.cells
    while not hand.is_terminal:
        seat = hand.player
        view = seat_view(hand, seat)
        action, values = bots[seat].choose_with_values(view)
        columns.observations.append(encode_observation(view))
        columns.masks.append(action_mask(view))
        columns.values.append(values)
        cells["step"].append(len(columns) - 1 - first)
        cells["seat"].append(seat)
        cells["level"].append(spec.seat_level(hand_number, seat))
        cells["phase"].append(view.phase.name.lower())
        cells["action"].append(action)
        hand = hand.apply(action)
    points = final_points(game, hand)
    decisions = len(columns) - first
    cells["hand"].extend([hand_number] * decisions)
    cells["dealer"].extend([hand.dealer] * decisions)
    cells["points"].extend(points[seat] for seat in cells["seat"][first:])
    cells["hand_points"].extend([list(points)] * decisions)
    cells["cancelled"].extend([hand.phase == Phase.CANCELLED] * decisions)


def final_points(game: HandGame, hand: HandState) -> tuple[int, ...]:
    """Each seat's points for the finished hand, scored on its own as the tournament does (in
    Classic Whist with honours as at the start of a game)."""
    points, _honours = game.match_points(hand, (0, 0))
    return tuple(points)


def options_text(game: HandGame) -> str:
    return json.dumps(game.rules.to_dict(), sort_keys=True, separators=(",", ":"))


def chunk_table(spec: SelfPlaySpec, chunk: int, on_hand: Callable[[], None] | None = None) -> pa.Table:
    """The rows of chunk ``chunk``, in the order they were decided."""
    game = spec.build_game()
    columns = Columns()
    for hand_number in spec.chunk_hand_range(chunk):
        play_hand_rows(spec, game, hand_number, columns)
        if on_hand is not None:
            on_hand()
    width, actions = observation_size(game.rules), action_space_size(game.rules)
    schema = row_schema(width, actions)
    rows = len(columns)
    data: dict[str, pa.Array] = {
        "game": pa.array([game.name] * rows, pa.string()),
        "options": pa.array([options_text(game)] * rows, pa.string()),
        "observation": pa.FixedSizeListArray.from_arrays(_flat(columns.observations, np.float32), width),
        "legal_mask": pa.FixedSizeListArray.from_arrays(
            pa.array(_flat(columns.masks, np.bool_)), actions),
        "action_values": values_array(columns.values, actions),
    }
    for name, cells in columns.cells.items():
        data[name] = pa.array(cells, schema.field(name).type)
    return pa.Table.from_arrays([data[name] for name in schema.names], schema=schema)


def _flat(arrays: list[np.ndarray[Any, Any]], dtype: type[Any]) -> np.ndarray[Any, Any]:
    if not arrays:
        return np.zeros(0, dtype=dtype)
    return np.concatenate(arrays).astype(dtype, copy=False)


def values_array(values: list[ActionValues | None], actions: int) -> pa.FixedSizeListArray:
    """One list per row: null where the bot gave no values, else a value per action, null for the
    actions it did not weigh."""
    flat = np.zeros(len(values) * actions, dtype=np.float32)
    valued = np.zeros(len(values) * actions, dtype=np.bool_)
    for row, given in enumerate(values):
        for action, value in (given or {}).items():
            flat[row * actions + action] = value
            valued[row * actions + action] = True
    items = pa.array(flat, pa.float32(), mask=~valued)
    return pa.FixedSizeListArray.from_arrays(items, actions,
                                             mask=pa.array([given is None for given in values], pa.bool_()))


def parquet_bytes(table: pa.Table) -> bytes:
    """The Parquet file of ``table``: one row group, the same bytes for the same rows."""
    sink = io.BytesIO()
    pq.write_table(table, sink, row_group_size=max(1, table.num_rows), **PARQUET_OPTIONS)
    return sink.getvalue()


@dataclass(frozen=True)
class ChunkResult:
    chunk: int
    hands: int
    decisions: int
    parquet: bytes


def play_chunk(spec: SelfPlaySpec, chunk: int, on_hand: Callable[[], None] | None = None) -> ChunkResult:
    """Chunk ``chunk`` played and written as Parquet bytes; the same wherever it runs."""
    table = chunk_table(spec, chunk, on_hand)
    return ChunkResult(chunk, len(spec.chunk_hand_range(chunk)), table.num_rows, parquet_bytes(table))


# Running -----------------------------------------------------------------------------------------

# Runs ``play`` on each chunk index, yielding the results in any order (``RaySession.map_unordered``).
ChunkMapper = Callable[[Callable[[int], ChunkResult], Sequence[int]], Iterable[ChunkResult]]


def chunk_file(chunk: int) -> str:
    return f"part-{chunk:05d}.parquet"


@dataclass(frozen=True)
class SelfPlaySummary:
    spec: SelfPlaySpec
    folder: Path
    decisions: int
    files: tuple[str, ...]


def prepare_folder(folder: Path) -> None:
    """Make ``folder`` (and its parents), refusing a file, an unwritable place, or a folder that
    already holds self-play files (mixing two runs' chunks would make a data set no seed describes)."""
    writable_folder(folder, "--out", SelfPlayError)
    if (folder / MANIFEST).exists() or any(folder.glob("part-*.parquet")):
        raise SelfPlayError(f"{folder} already holds self-play files; choose another --out or remove them")


def run_selfplay(spec: SelfPlaySpec, folder: Path, workers: int = 1, map_chunks: ChunkMapper | None = None,
                 on_hands: Callable[[int], None] | None = None) -> SelfPlaySummary:
    """Play every chunk and write its file into ``folder``, then the manifest ``_selfplay.json``.

    ``workers`` processes play the chunks (1: this one), unless ``map_chunks`` runs them elsewhere
    (Ray). ``on_hands(done)`` is told the hands played so far: after each hand in this process,
    after each chunk elsewhere."""
    game = check_spec(spec)
    prepare_folder(folder)
    decisions = 0
    hands_done = 0

    def hand_played() -> None:
        nonlocal hands_done
        hands_done += 1
        if on_hands is not None:
            on_hands(hands_done)

    in_process = map_chunks is None and (workers <= 1 or spec.chunks == 1)  # told each hand as it ends
    if map_chunks is not None:
        results: Iterable[ChunkResult] = map_chunks(functools.partial(play_chunk, spec), range(spec.chunks))
    elif in_process:
        results = (play_chunk(spec, chunk, hand_played) for chunk in range(spec.chunks))
    else:
        results = _process_pool(spec, min(workers, spec.chunks))
    counts: dict[int, int] = {}
    for result in results:
        (folder / chunk_file(result.chunk)).write_bytes(result.parquet)
        counts[result.chunk] = result.decisions
        decisions += result.decisions
        if not in_process:
            hands_done += result.hands
            if on_hands is not None:
                on_hands(hands_done)
    files = tuple(chunk_file(chunk) for chunk in range(spec.chunks))
    manifest = manifest_data(spec, game, [counts[chunk] for chunk in range(spec.chunks)])
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return SelfPlaySummary(spec, folder, decisions, files)


def _process_pool(spec: SelfPlaySpec, workers: int) -> Iterator[ChunkResult]:
    with process_pool(workers) as pool:
        futures = [pool.submit(play_chunk, spec, chunk) for chunk in range(spec.chunks)]
        for future in as_completed(futures):
            yield future.result()


def manifest_data(spec: SelfPlaySpec, game: HandGame, decisions: Sequence[int]) -> dict[str, Any]:
    """What ``_selfplay.json`` says: the run's settings and each file's hands and rows. Nothing in it
    depends on the machine or the time, so it is as reproducible as the files."""
    return {
        "format": FORMAT, "format_version": FORMAT_VERSION, "game": spec.game, "preset": spec.preset,
        "options": dict(spec.options), "rules": game.rules.to_dict(), "bots": list(spec.levels),
        "hands": spec.hands, "seed": spec.seed, "chunk_hands": spec.chunk_hands,
        "observation_size": observation_size(game.rules), "action_space_size": action_space_size(game.rules),
        "pyarrow": pa.__version__, "parquet": {k: v for k, v in PARQUET_OPTIONS.items()},
        "decisions": sum(decisions),
        "files": [{"file": chunk_file(chunk), "hands": [spec.chunk_hand_range(chunk).start,
                                                        spec.chunk_hand_range(chunk).stop],
                   "decisions": count} for chunk, count in enumerate(decisions)],
        "columns": dict(SCHEMA_NOTES),
    }
