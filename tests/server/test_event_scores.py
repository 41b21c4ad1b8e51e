"""The scores kept per event (server/eventscores.py) are the duplicate scoring of core.duplicate,
event by event and across events for the ranking. That a kept event is scored again when one more
of its plays finishes: tests/server/test_events_api.py."""

from __future__ import annotations

import math
from collections import defaultdict

from hypothesis import given
from hypothesis import strategies as st

from israeli_whist.core.duplicate import score_field, standings
from israeli_whist.server.eventscores import _ranked, _scored

# (board, seat, user, points, name): a few boards, seats and players, so that fields hold several.
plays = st.lists(st.tuples(st.integers(1, 3), st.integers(0, 1), st.integers(1, 6), st.integers(-40, 40)),
                 max_size=40, unique_by=lambda p: (p[0], p[2]))  # a player plays a board once


def as_rows(found: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, float]]:
    return [(board, seat, user, float(points)) for board, seat, user, points in found]


@given(plays)
def test_an_event_is_scored_as_core_duplicate_scores_it(found: list[tuple[int, int, int, int]]) -> None:
    scored = _scored((len(found), None), as_rows(found))
    fields: dict[tuple[int, int], dict[int, float]] = defaultdict(dict)
    for board, seat, user, points in found:
        fields[(board, seat)][user] = points
    assert scored.standings == standings(fields)
    for (board, _seat), field in fields.items():
        for user, score in score_field(field).items():
            assert scored.boards[(board, user)] == score
    assert {user: len(p) for user, p in scored.percents.items()} == {row.player: row.boards for row in scored.standings}


@given(st.lists(plays, min_size=1, max_size=4), st.integers(1, 4))
def test_the_ranking_is_every_board_of_every_event_together(events: list[list[tuple[int, int, int, int]]],
                                                            ranked_boards: int) -> None:
    ranked = _ranked([_scored((len(e), None), as_rows(e)) for e in events], ranked_boards)
    fields: dict[tuple[int, int, int], dict[int, float]] = defaultdict(dict)
    for number, found in enumerate(events):
        for board, seat, user, points in found:
            fields[(number, board, seat)][user] = points
    whole = {row.player: row for row in standings(fields)}
    assert {r.user for r in ranked} == set(whole)
    for r in ranked:
        assert r.standing.boards == whole[r.user].boards
        assert math.isclose(r.standing.percent, whole[r.user].percent, abs_tol=1e-9)
        assert math.isclose(r.standing.above_average, whole[r.user].above_average, abs_tol=1e-9)
        assert r.provisional == (r.standing.boards < ranked_boards)
    # The settled first, each group by mean percentage, then points above the fields; placed 1, 2,
    # 2, 4 within the settled, the provisional after every settled player.
    keys = [(r.provisional, -r.standing.percent, -r.standing.above_average) for r in ranked]
    assert keys == sorted(keys)
    settled = sum(1 for r in ranked if not r.provisional)
    for index, r in enumerate(ranked):
        assert r.place <= index + 1 and (r.place > settled if r.provisional else r.place <= settled)
        if index and ranked[index - 1].provisional == r.provisional and r.place != index + 1:
            assert r.place == ranked[index - 1].place  # level with the one before
