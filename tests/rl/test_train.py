"""whist train: contract rows replayed from self-play data, hands (not rows) held out, the numpy
network equal to scikit-learn's, the same weights for the same data and seed, and clear errors."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from sklearn.neural_network import MLPRegressor
from typer.testing import CliRunner

from israeli_whist.bots.judgement.learned import FEATURE_NAMES, LearnedEstimator, TrickModel
from israeli_whist.cli.main import app
from israeli_whist.rl.selfplay import MANIFEST, run_selfplay, selfplay_spec
from israeli_whist.rl.train import TrainError, contract_rows, fit, split_hands


@pytest.fixture(scope="module")
def israeli_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("selfplay") / "israeli"
    run_selfplay(selfplay_spec("israeli", ["basic", "random"], 30, seed=4, chunk_hands=10), folder)
    return folder


def test_contract_rows_are_every_bid_with_the_tricks_its_seat_took(israeli_data: Path) -> None:
    rows = contract_rows(israeli_data, "israeli")
    assert rows.features.shape == (len(rows), len(FEATURE_NAMES))
    hands, per_hand = np.unique(rows.hand, return_counts=True)
    assert len(hands) >= 20 and np.all(per_hand == 4)  # each seat bids once; cancelled deals have no rows
    for hand in hands:
        assert rows.tricks[rows.hand == hand].sum() == 13  # the tricks of the hand, shared out
    assert np.all(rows.hand_size == 13)
    assert np.all((rows.bid >= 0) & (rows.bid <= 13))


def test_the_held_out_rows_are_whole_hands() -> None:
    hands = np.repeat(np.arange(50), 4)
    held = split_hands(hands, 0.2, seed=1)
    assert held.sum() == 40
    for hand in range(50):
        assert len(set(held[hands == hand])) == 1
    assert not np.array_equal(held, split_hands(hands, 0.2, seed=2))


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")  # a few steps are enough to compare
def test_the_numpy_network_is_scikit_learn_s() -> None:
    rng = np.random.default_rng(0)
    x = rng.uniform(size=(60, len(FEATURE_NAMES)))
    y = x[:, :5].sum(axis=1) / 10
    mean, scale = x.mean(axis=0), x.std(axis=0)
    mlp = MLPRegressor(hidden_layer_sizes=(16, 8), max_iter=50, random_state=0).fit((x - mean) / scale, y)
    model = TrickModel("israeli", mean, scale, tuple(mlp.coefs_), tuple(mlp.intercepts_))
    fresh = rng.uniform(size=(25, len(FEATURE_NAMES)))
    np.testing.assert_allclose(model.share(fresh), mlp.predict((fresh - mean) / scale), rtol=0, atol=1e-9)


def test_whist_train_writes_weights_and_prints_both_estimates(israeli_data: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    first, second, other = tmp_path / "a.npz", tmp_path / "b.npz", tmp_path / "c.npz"
    result = runner.invoke(app, ["train", "--data", str(israeli_data), "--out", str(first), "--seed", "3",
                                 "--hidden", "16"])
    assert result.exit_code == 0, result.output
    assert "learned" in result.output and "basic" in result.output and "bid exactly made" in result.output
    runner.invoke(app, ["train", "--data", str(israeli_data), "--out", str(second), "--seed", "3", "--hidden", "16"])
    runner.invoke(app, ["train", "--data", str(israeli_data), "--out", str(other), "--seed", "4", "--hidden", "16"])
    assert first.read_bytes() == second.read_bytes()  # the same data and seed: the same file
    assert first.read_bytes() != other.read_bytes()
    estimator = LearnedEstimator.read(first)
    about = estimator.model.training
    assert about["seed"] == 3 and about["hidden"] == [16] and about["game"] == "israeli"
    assert 0 <= about["learned"]["exact"] <= 1 and about["basic"]["mean_absolute_error"] > 0


def test_fit_reports_what_it_measured(israeli_data: Path) -> None:
    rows = contract_rows(israeli_data, "israeli")
    result = fit(rows, 0, (8,))
    assert result.training_rows + result.held_out_rows == len(rows)
    held = rows.subset(split_hands(rows.hand, 0.2, 0))
    basic = np.clip(held.basic, 0, 13)
    assert result.basic.mean_absolute_error == pytest.approx(np.mean(np.abs(basic - held.tricks)))
    assert result.basic.exact == pytest.approx(np.mean(np.floor(basic + 0.5) == held.tricks))


def refused(args: list[str]) -> str:
    result = CliRunner().invoke(app, ["train", *args])
    assert result.exit_code in (1, 2), result.output
    assert "Traceback" not in result.output
    return " ".join(result.output.split())


def test_missing_empty_and_foreign_data_are_refused(tmp_path: Path, israeli_data: Path) -> None:
    out = str(tmp_path / "m.npz")
    assert "does not exist" in refused(["--data", str(tmp_path / "nowhere"), "--out", out])
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "holds no self-play data" in refused(["--data", str(empty), "--out", out])
    junk = tmp_path / "junk"
    junk.mkdir()
    (junk / "part-00000.parquet").write_text("not parquet")
    (junk / MANIFEST).write_text(json.dumps({"format": "whist-selfplay", "seed": 1}))
    assert "is not a Parquet file of whist selfplay" in refused(["--data", str(junk), "--out", out])
    assert "classic has no contract bids" in refused(["--data", str(israeli_data), "--out", out, "-g", "classic"])
    assert "holds no contract decision of whistiti" in refused(["--data", str(israeli_data), "--out", out,
                                                                "-g", "whistiti"])
    assert "Unknown game 'poker'" in refused(["--data", str(israeli_data), "--out", out, "-g", "poker"])
    assert "--holdout" in refused(["--data", str(israeli_data), "--out", out, "--holdout", "1.5"])
    assert "--hidden" in refused(["--data", str(israeli_data), "--out", out, "--hidden", "wide"])
    assert "1 to 4096 wide" in refused(["--data", str(israeli_data), "--out", out, "--hidden", "64,99999999"])
    assert "--alpha" in refused(["--data", str(israeli_data), "--out", out, "--alpha", "-1"])


def test_data_that_does_not_replay_from_its_seed_is_refused(tmp_path: Path, israeli_data: Path) -> None:
    moved = tmp_path / "moved"
    moved.mkdir()
    for path in israeli_data.iterdir():
        (moved / path.name).write_bytes(path.read_bytes())
    manifest = json.loads((moved / MANIFEST).read_text())
    (moved / MANIFEST).write_text(json.dumps({**manifest, "seed": manifest["seed"] + 1}))
    with pytest.raises(TrainError, match="does not replay from the seed 5"):
        contract_rows(moved, "israeli")


def test_without_scikit_learn_the_train_extra_is_named(israeli_data: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sklearn.neural_network", None)  # import fails as if not installed
    message = refused(["--data", str(israeli_data), "--out", str(tmp_path / "m.npz")])
    assert "pip install 'israeli-whist[train]'" in message


def test_the_docs_example_runs(rl_doc_examples: Callable[[str], list[str]], capsys: pytest.CaptureFixture[str]
                               ) -> None:
    (example,) = rl_doc_examples("The learned trick estimator")
    exec(compile(example, "docs/rl.md", "exec"), {})
    assert re.fullmatch(r"\d+ bids to learn from, \d+ held out\n", capsys.readouterr().out)
