"""bench/review_pacing.py: the game it stores is a finished game the server replays and reviews,
and the pacing it takes off each bot move is the one the server adds (``live.py``)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from bench_kit import load_bench

from israeli_whist.server import history
from israeli_whist.server.db import Store
from israeli_whist.server.live import HAND_OVER_DELAYS, TRICK_OVER_DELAYS


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_bench("review_pacing")


def test_the_stored_game_is_finished_and_replays(bench: ModuleType, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'whist.db'}"
    table_id = bench.store_finished_game(url, "basic", "seed")
    store = Store(url)
    try:
        with store.begin() as c:
            row = history.table_row(c, table_id)
            assert row is not None and row["status"] == "finished"
            record = history.game_record(c, row)
    finally:
        store.close()
    assert record["finished"] and len(record["hands"]) >= bench.GAME_HANDS
    assert len([h for h in record["hands"] if not h.get("cancelled")]) == bench.GAME_HANDS


def state(hands: int, tricks_played: int, trick: list[Any]) -> dict[str, Any]:
    return {"score": {"hands": [{}] * hands}, "view": {"tricks_played": tricks_played, "trick": trick}}


def test_the_pause_before_a_move_is_the_servers(bench: ModuleType) -> None:
    assert bench.pause_after(state(1, 0, []), hands_before=0) == HAND_OVER_DELAYS  # the hand just ended
    assert bench.pause_after(state(1, 3, []), hands_before=1) == TRICK_OVER_DELAYS  # a trick just ended
    assert bench.pause_after(state(1, 3, [1]), hands_before=1) == 1
    assert bench.pause_after(state(1, 0, []), hands_before=1) == 1  # the auction of a hand under way
