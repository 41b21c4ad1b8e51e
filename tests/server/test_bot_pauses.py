"""The bots give the pages time to show what a move ended: a bot waits two delays after a trick's
last card (the page holds the trick, then sends it to its winner) and four at a new hand (the last
hand's summary is read), one delay otherwise."""

from __future__ import annotations

import random
from pathlib import Path

from israeli_whist.core.actions import Phase
from israeli_whist.server.db import SeatRow, Store, TableRow
from israeli_whist.server.live import HAND_OVER_DELAYS, TRICK_OVER_DELAYS, LiveTable
from israeli_whist.server.workers import ThreadThinkers


def test_a_bot_waits_longer_after_a_trick_and_between_hands(tmp_path: Path) -> None:
    row = TableRow(id="pauses", game="israeli", preset=None, options={"hands": 2}, seed="pauses", first_dealer=0,
                   public=True, invite="inv", status="playing", move_timer=None, created_by=None, totals=None)
    seats = [SeatRow(n, "human", None, None) for n in range(4)]
    store = Store(f"sqlite:///{tmp_path / 'pauses.db'}")
    store.add_table(row, seats)
    table = LiveTable(row, seats, {}, store, bot_delay=0.8, grace_seconds=30.0, thinkers=ThreadThinkers())
    rng = random.Random(3)
    match = table.match
    seen: dict[str, set[int]] = {"trick over": set(), "new hand": set(), "other": set()}
    while not match.over:
        table.match = match
        pause = table._pause_in_delays()
        hand = match.hand
        if match.results and not hand.history:
            seen["new hand"].add(pause)
        elif hand.phase == Phase.PLAY and hand.tricks and not hand.trick:
            seen["trick over"].add(pause)
        else:
            seen["other"].add(pause)
        match = match.apply(rng.choice(list(match.legal_actions())))
    assert seen == {"trick over": {TRICK_OVER_DELAYS}, "new hand": {HAND_OVER_DELAYS}, "other": {1}}, seen
    assert TRICK_OVER_DELAYS > 1 and HAND_OVER_DELAYS > TRICK_OVER_DELAYS
