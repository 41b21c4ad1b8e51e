"""Self-play data: the rows are the hands really played, seen only through each seat's view,
the files are the same bytes for the same seed however the work is split, and bad runs are refused."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from israeli_whist.bots.players.expert import ExpertBot, ExpertSettings
from israeli_whist.core.games import make_game
from israeli_whist.core.match import deal_seed
from israeli_whist.core.views import seat_view
from israeli_whist.rl.encoding import action_mask, action_space_size, encode_observation, observation_size
from israeli_whist.rl.selfplay import (
    MANIFEST,
    Columns,
    SelfPlayError,
    SelfPlaySpec,
    check_spec,
    chunk_table,
    play_chunk,
    play_hand_rows,
    prepare_folder,
    run_selfplay,
    schema_markdown,
    selfplay_spec,
)


def read_folder(folder: Path) -> pa.Table:
    return pa.concat_tables(pq.read_table(path) for path in sorted(folder.glob("part-*.parquet")))


@pytest.mark.parametrize(("game", "options"), [("israeli", {}), ("classic", {"honours": "true"}),
                                               ("whistiti", {"players": "5"})])
def test_each_row_is_a_decision_of_the_hand_replayed_from_its_seed(game: str, options: dict[str, str]) -> None:
    spec = selfplay_spec(game, ["basic", "random"], 3, seed=5, options=options, chunk_hands=3)
    table = chunk_table(spec, 0)
    hand_game = make_game(game, None, options)
    rows = table.to_pylist()
    assert table.schema.field("observation").type == pa.list_(pa.float32(), observation_size(hand_game.rules))
    assert table.schema.field("legal_mask").type == pa.list_(pa.bool_(), action_space_size(hand_game.rules))
    assert {row["game"] for row in rows} == {game}
    assert {row["options"] for row in rows} == {json.dumps(hand_game.rules.to_dict(), sort_keys=True,
                                                           separators=(",", ":"))}
    assert sorted({row["hand"] for row in rows}) == [0, 1, 2]
    for number in range(3):
        hand = hand_game.new_hand(number % hand_game.players, deal_seed(5, number), number)
        decisions = [row for row in rows if row["hand"] == number]
        for step, row in enumerate(decisions):
            view = seat_view(hand, hand.player)  # what that seat saw, and all a row may hold
            assert (row["step"], row["seat"], row["dealer"]) == (step, hand.player, hand.dealer)
            assert row["phase"] == hand.phase.name.lower()
            assert row["level"] == ["basic", "random"][(hand.player + number) % 2]
            assert np.array_equal(np.array(row["observation"], dtype=np.float32), encode_observation(view))
            assert np.array_equal(np.array(row["legal_mask"], dtype=np.int8), action_mask(view))
            assert row["legal_mask"][row["action"]]
            assert row["action_values"] is None  # neither the basic nor the random bot values its choices
            hand = hand.apply(row["action"])
        assert hand.is_terminal
        points = list(hand_game.match_points(hand, (0, 0))[0])
        assert all(row["hand_points"] == points and row["points"] == points[row["seat"]] for row in decisions)
        assert not any(row["cancelled"] for row in decisions)


def test_a_cancelled_deal_keeps_its_decisions_with_zero_points() -> None:
    spec = selfplay_spec("israeli", ["basic"], 200, seed=0)
    columns = Columns()
    play_hand_rows(spec, spec.build_game(), 146, columns)  # the basic bots all pass, three Frisches long
    assert len(columns) > 0
    assert set(columns.cells["cancelled"]) == {True}
    assert columns.cells["hand_points"][0] == [0, 0, 0, 0]
    assert "frisch" in columns.cells["phase"]


def test_the_experts_rows_carry_its_search_values_over_legal_actions_only() -> None:
    spec = selfplay_spec("israeli", ["expert"], 1, seed=2)
    rows = chunk_table(spec, 0).to_pylist()
    valued = [row for row in rows if row["action_values"] is not None]
    assert valued, "the expert searched no decision"
    assert any(row["phase"] == "play" for row in valued) and any(row["phase"] == "contract" for row in valued)
    for row in valued:
        values = {action: value for action, value in enumerate(row["action_values"]) if value is not None}
        assert len(values) >= 2
        assert all(row["legal_mask"][action] for action in values)
        assert values[row["action"]] == max(values.values())  # it plays what its own search values most


def test_the_experts_choice_is_the_same_with_or_without_its_values() -> None:
    # Bound by deals, not time: the timed expert draws as many deals as the CPU allows, so two
    # searches of one position under load may differ, and rightly.
    settings = ExpertSettings(racing=True).with_deals(24)
    game = make_game("classic")
    hand = game.new_hand(0, "values", 0)
    searched = 0
    for step in range(24):  # six tricks
        view = seat_view(hand, hand.player)
        action = ExpertBot(f"same/{step}", settings).choose(view)
        again, values = ExpertBot(f"same/{step}", settings).choose_with_values(view)
        assert action == again
        assert values is None or action in values
        searched += values is not None
        hand = hand.apply(action)
    assert searched >= 6


def test_the_same_seed_gives_the_same_bytes_and_another_seed_others() -> None:
    spec = selfplay_spec("israeli", ["random", "basic"], 4, seed=11, chunk_hands=4)
    first = play_chunk(spec, 0)
    assert first == play_chunk(spec, 0)
    assert first.parquet != play_chunk(selfplay_spec("israeli", ["random", "basic"], 4, seed=12, chunk_hands=4),
                                       0).parquet
    assert (first.hands, first.decisions) == (4, pq.read_table(pa.BufferReader(first.parquet)).num_rows)


def test_the_rows_do_not_depend_on_the_chunks_or_the_workers(tmp_path: Path) -> None:
    spec = selfplay_spec("classic", ["basic", "random"], 7, seed=3, chunk_hands=3)
    progress: list[int] = []
    summary = run_selfplay(spec, tmp_path / "one", workers=1, on_hands=progress.append)
    assert progress == list(range(1, 8))  # told after every hand
    assert summary.files == ("part-00000.parquet", "part-00001.parquet", "part-00002.parquet")
    run_selfplay(spec, tmp_path / "pool", workers=2)
    for name in (*summary.files, MANIFEST):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "pool" / name).read_bytes()
    whole = selfplay_spec("classic", ["basic", "random"], 7, seed=3, chunk_hands=7)
    run_selfplay(whole, tmp_path / "whole", workers=1)
    assert read_folder(tmp_path / "whole").equals(read_folder(tmp_path / "one"))
    manifest = json.loads((tmp_path / "one" / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["decisions"] == summary.decisions == read_folder(tmp_path / "one").num_rows
    assert [f["hands"] for f in manifest["files"]] == [[0, 3], [3, 6], [6, 7]]
    assert manifest["bots"] == ["basic", "random"] and manifest["seed"] == 3


@pytest.mark.parametrize(("spec", "message"), [
    (SelfPlaySpec("israeli", ("basic", "clever"), 5), "Unknown bot level 'clever'"),
    (SelfPlaySpec("israeli", (), 5), "at least one bot level"),
    (SelfPlaySpec("israeli", ("basic",), 0), "at least one hand, not 0"),
    (SelfPlaySpec("israeli", ("basic",), -4), "at least one hand, not -4"),
    (SelfPlaySpec("israeli", ("basic",), 5, chunk_hands=0), "at least one hand, not 0"),
    (SelfPlaySpec("poker", ("basic",), 5), "Unknown game 'poker'"),
    (SelfPlaySpec("israeli", ("basic",), 5, options=(("colour", "red"),)), "Unknown option 'colour'"),
    (SelfPlaySpec("israeli", ("basic",), 5, options=(("hands", "many"),)), "whole number"),
])
def test_a_run_that_cannot_be_made_is_refused_with_a_message(spec: SelfPlaySpec, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        check_spec(spec)


def test_an_output_folder_that_cannot_take_the_files_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "file.txt"
    file.write_text("x", encoding="utf-8")
    with pytest.raises(SelfPlayError, match="is a file, not a folder"):
        prepare_folder(file)
    with pytest.raises(SelfPlayError, match="Cannot make the folder"):
        prepare_folder(file / "below")
    run_selfplay(selfplay_spec("whistiti", ["random"], 1), tmp_path / "data")
    with pytest.raises(SelfPlayError, match="already holds self-play files"):
        run_selfplay(selfplay_spec("whistiti", ["random"], 1), tmp_path / "data")


def test_the_docs_show_the_columns_of_the_code(rl_doc_section: Callable[[str], str]) -> None:
    section = rl_doc_section("Self-play data")
    marker = "<!-- columns: israeli_whist.rl.selfplay.schema_markdown -->\n"
    shown = section.split(marker)[1].split("\n<!-- /columns -->")[0]
    assert shown == schema_markdown()


def test_the_docs_example_runs(rl_doc_examples: Callable[[str], list[str]], capsys: pytest.CaptureFixture[str]
                               ) -> None:
    (example,) = rl_doc_examples("Self-play data")
    exec(compile(example, "docs/rl.md", "exec"), {})
    assert re.fullmatch(r"\d+ decisions, 881 numbers each; [1-9]\d* searched by the expert\n", capsys.readouterr().out)
