"""``whist train``: the learned trick estimator (``israeli_whist.bots.judgement.learned``) fitted to self-play data.

The rows are the contract decisions of ``whist selfplay``'s Parquet files. Their features are not
stored there: each hand is replayed from its deal (the run's seed, in ``_selfplay.json``) and its
recorded actions, and the features are computed from the bidder's ``SeatView`` at its bid, so a
change of features needs no new self-play. The replay also gives the target, the tricks each seat
took, and checks itself: every recorded action must be the recorded seat's and legal.

Hands, never rows, are held out, so no hand is seen in training and judged after; the held-out
rows compare the network with the basic bot's estimate (``estimate_tricks``, plus the declarer's
bonus that ``contract_bid`` adds) and with the contract the self-play bot bid.

The same data and seed give the same weights, byte for byte: the split, the network's start and
its batches all come from the seed, and the linear algebra runs on one thread.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow.parquet as pq

from israeli_whist.bots.judgement.basic_bidding import DECLARER_BONUS, Outlook, estimate_tricks
from israeli_whist.bots.judgement.learned import FEATURE_NAMES, TrickModel
from israeli_whist.bots.judgement.learned_features import features
from israeli_whist.core.actions import Phase, contract_tricks
from israeli_whist.core.errors import WhistError
from israeli_whist.core.games import make_game
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.match import deal_seed
from israeli_whist.core.views import seat_view
from israeli_whist.core.wording import count_text, needs_extra
from israeli_whist.rl.selfplay import FORMAT, MANIFEST

COLUMNS = ["game", "options", "hand", "dealer", "step", "seat", "phase", "action"]
DEFAULT_HIDDEN = (32,)
# Strong L2 weight decay: with a few thousand bids, weaker values overfit (measured on an inner split
# of the training hands of 1,000 expert hands: alpha 0.01 -> 1.43 tricks off, 0.1 -> 1.12, 1 -> 0.96).
DEFAULT_ALPHA = 1.0
DEFAULT_HOLDOUT = 0.2
Vector = npt.NDArray[np.float64]


class TrainError(WhistError):
    """Training that cannot run as asked: no scikit-learn, no data, data of another kind."""


@dataclass(frozen=True)
class ContractRows:
    """One row per contract decision of the data: the bidder's features and what happened."""

    game: str
    features: npt.NDArray[np.float64]
    tricks: Vector  # what the bidder took in the hand
    hand_size: Vector
    hand: npt.NDArray[np.int64]  # the hand's number in the run: the unit of the held-out split
    basic: Vector  # the basic bot's estimate, with its declarer's bonus
    bid: Vector  # the contract the self-play bot bid

    def __len__(self) -> int:
        return len(self.tricks)

    def subset(self, keep: npt.NDArray[np.bool_]) -> ContractRows:
        return ContractRows(self.game, self.features[keep], self.tricks[keep], self.hand_size[keep],
                            self.hand[keep], self.basic[keep], self.bid[keep])


# Reading and replaying ---------------------------------------------------------------------------


def data_files(folder: Path) -> tuple[list[Path], dict[str, Any]]:
    """The Parquet files of a self-play folder and its manifest, or a ``TrainError`` that says what
    is wrong with the folder."""
    if not folder.exists():
        raise TrainError(f"--data {folder} does not exist; make self-play data with: whist selfplay --out {folder}")
    if not folder.is_dir():
        raise TrainError(f"--data {folder} is a file; give the folder that whist selfplay wrote")
    files = sorted(folder.glob("part-*.parquet"))
    manifest_path = folder / MANIFEST
    if not files or not manifest_path.is_file():
        raise TrainError(f"{folder} holds no self-play data (part-*.parquet files and {MANIFEST}, as whist "
                         "selfplay writes them)")
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise TrainError(f"Cannot read {manifest_path}: {error}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT or not isinstance(manifest.get("seed"), int):
        raise TrainError(f"{manifest_path} is not a manifest of whist selfplay (format {FORMAT!r} and a seed)")
    return files, manifest


def read_decisions(files: Sequence[Path]) -> dict[str, list[Any]]:
    """The columns needed for the replay, from every file, in order."""
    merged: dict[str, list[Any]] = {name: [] for name in COLUMNS}
    for path in files:
        try:
            table = pq.read_table(path, columns=COLUMNS)
        except Exception as error:  # pyarrow raises several kinds (ArrowInvalid, OSError, KeyError...)
            raise TrainError(f"{path} is not a Parquet file of whist selfplay ({error})") from None
        for name, values in table.to_pydict().items():
            merged[name].extend(values)
    return merged


def contract_rows(folder: Path, game_name: str, progress: Callable[[int, int], None] | None = None) -> ContractRows:
    """Every contract decision of ``game_name`` in the self-play folder, replayed."""
    if not make_game(game_name).rules.traits.contracts:
        raise TrainError(f"{game_name} has no contract bids, so no rows to learn the trick estimator from")
    files, manifest = data_files(folder)
    columns = read_decisions(files)
    steps: dict[int, list[int]] = {}
    bid_on: set[int] = set()  # the hands with contract rows (not the cancelled ones)
    for index, (name, phase) in enumerate(zip(columns["game"], columns["phase"], strict=True)):
        if name == game_name:
            steps.setdefault(columns["hand"][index], []).append(index)
            if phase == "contract":
                bid_on.add(columns["hand"][index])
    hands = sorted(bid_on)
    if not hands:
        held = sorted(set(columns["game"]))
        raise TrainError(f"{folder} holds no contract decision of {game_name} (its games: {', '.join(held)})")
    games: dict[str, HandGame] = {}
    built: list[tuple[Any, ...]] = []
    for done, hand_number in enumerate(hands):
        rows = sorted(steps[hand_number], key=lambda i: columns["step"][i])
        options = columns["options"][rows[0]]
        game = games.get(options) or games.setdefault(options, make_game(game_name, None, json.loads(options)))
        built.extend(replay_hand(game, manifest["seed"], hand_number, [columns[c] for c in COLUMNS], rows))
        if progress is not None:
            progress(done + 1, len(hands))
    feats, tricks, size, hand, basic, bid = zip(*built, strict=True)
    return ContractRows(game_name, np.stack(feats), np.array(tricks, dtype=np.float64),
                        np.array(size, dtype=np.float64), np.array(hand, dtype=np.int64),
                        np.array(basic, dtype=np.float64), np.array(bid, dtype=np.float64))


def replay_hand(game: HandGame, seed: int, hand_number: int, cells: list[list[Any]],
                rows: list[int]) -> list[tuple[Any, ...]]:
    """The contract rows of one hand: (features, tricks, hand size, hand, basic estimate, bid)."""
    cell = dict(zip(COLUMNS, cells, strict=True))
    state = game.new_hand(cell["dealer"][rows[0]], deal_seed(seed, hand_number), hand_number)
    decisions = []
    for index in rows:
        seat, action = cell["seat"][index], cell["action"][index]
        if state.is_terminal or state.player != seat or action not in state.legal_actions():
            raise TrainError(f"Hand {hand_number} does not replay from the seed {seed} of {MANIFEST} (its step "
                             f"{cell['step'][index]}); the data was made by another version of the rules")
        if cell["phase"][index] == "contract":
            view = seat_view(state, seat)
            basic = estimate_tricks(view.hand, view.trump, Outlook.from_view(view))
            if view.rules.traits.trump_auction and seat == view.declarer:
                basic += DECLARER_BONUS
            decisions.append((seat, features(view), state.hand_size, basic, contract_tricks(action)))
        state = state.apply(action)
    if state.phase != Phase.OVER:
        raise TrainError(f"Hand {hand_number} of the data ends unfinished; its file is cut short")
    return [(feats, state.tricks_won[seat], size, hand_number, basic, bid)
            for seat, feats, size, basic, bid in decisions]


# Training ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Accuracy:
    """How near an estimator came to the tricks taken, over the held-out rows."""

    mean_absolute_error: float
    exact: float  # share of rows where the rounded estimate is the tricks taken ("bid exactly made")

    @classmethod
    def of(cls, estimate: Vector, tricks: Vector) -> Accuracy:
        rounded = np.floor(estimate + 0.5)
        return cls(float(np.mean(np.abs(estimate - tricks))), float(np.mean(rounded == tricks)))


@dataclass(frozen=True)
class TrainResult:
    model: TrickModel
    training_rows: int
    held_out_rows: int
    held_out_hands: int
    learned: Accuracy
    basic: Accuracy
    bid: Accuracy  # the self-play bot's own contract, read as its estimate

    def report(self) -> dict[str, Any]:
        def figures(accuracy: Accuracy) -> dict[str, float]:
            return {"mean_absolute_error": round(accuracy.mean_absolute_error, 4), "exact": round(accuracy.exact, 4)}

        return {"training_rows": self.training_rows, "held_out_rows": self.held_out_rows,
                "held_out_hands": self.held_out_hands, "learned": figures(self.learned),
                "basic": figures(self.basic), "self_play_bid": figures(self.bid)}


def split_hands(hands: npt.NDArray[np.int64], holdout: float, seed: int) -> npt.NDArray[np.bool_]:
    """True for the rows of the held-out hands: a ``holdout`` share of the hands, drawn by ``seed``."""
    unique = np.unique(hands)
    chosen = np.random.default_rng(seed).permutation(unique)[:max(1, round(holdout * len(unique)))]
    if len(chosen) == len(unique):
        raise TrainError(f"{count_text(len(unique), 'hand')} {'is' if len(unique) == 1 else 'are'} too few to hold "
                         "some out and train on the rest; play more")
    return np.isin(hands, chosen)


def require_sklearn() -> Any:
    try:
        from sklearn.neural_network import MLPRegressor
    except ImportError:
        raise TrainError(needs_extra("whist train", "train")) from None
    return MLPRegressor


def fit(rows: ContractRows, seed: int, hidden: Sequence[int] = DEFAULT_HIDDEN, holdout: float = DEFAULT_HOLDOUT,
        about: dict[str, Any] | None = None, alpha: float = DEFAULT_ALPHA) -> TrainResult:
    """The network fitted to the training hands of ``rows`` and judged on the held-out hands."""
    mlp_class = require_sklearn()
    from sklearn.exceptions import ConvergenceWarning
    from threadpoolctl import threadpool_limits  # installed with scikit-learn

    if not 0 < holdout < 1:
        raise TrainError(f"--holdout is a share of the hands between 0 and 1, not {holdout}")
    if not alpha >= 0:
        raise TrainError(f"--alpha is a weight decay, 0 or more, not {alpha}")
    if not hidden or any(width < 1 for width in hidden):
        raise TrainError(f"--hidden gives the width of each hidden layer, each at least 1, not {list(hidden)}")
    held = split_hands(rows.hand, holdout, seed)
    train, test = rows.subset(~held), rows.subset(held)
    mean = train.features.mean(axis=0)
    scale = train.features.std(axis=0)
    scale[scale == 0] = 1.0  # a column that never varies in training stays as it is
    mlp = mlp_class(hidden_layer_sizes=tuple(hidden), alpha=alpha, batch_size=min(128, int(0.9 * len(train))),
                    learning_rate_init=1e-3,
                    max_iter=200, early_stopping=True, validation_fraction=0.1, n_iter_no_change=15,
                    random_state=seed)
    with threadpool_limits(1), warnings.catch_warnings():
        # Stopping at max_iter is a choice here, not a fault: the held-out figures say how good it is.
        warnings.simplefilter("ignore", ConvergenceWarning)
        mlp.fit((train.features - mean) / scale, train.tricks / train.hand_size)
    model = TrickModel(rows.game, mean, scale, tuple(np.asarray(w, np.float64) for w in mlp.coefs_),
                       tuple(np.asarray(b, np.float64) for b in mlp.intercepts_))
    learned = np.clip(model.share(test.features) * test.hand_size, 0, test.hand_size)
    result = TrainResult(model, len(train), len(test), len(np.unique(test.hand)), Accuracy.of(learned, test.tricks),
                         Accuracy.of(np.clip(test.basic, 0, test.hand_size), test.tricks),
                         Accuracy.of(test.bid, test.tricks))
    details = {**(about or {}), "seed": seed, "hidden": list(hidden), "alpha": alpha, "holdout": holdout,
               "iterations": int(mlp.n_iter_), **result.report()}
    return TrainResult(TrickModel(model.game, model.mean, model.scale, model.weights, model.biases,
                                  json.dumps(details, sort_keys=True)),
                       result.training_rows, result.held_out_rows, result.held_out_hands, result.learned,
                       result.basic, result.bid)


__all__ = ["FEATURE_NAMES", "Accuracy", "ContractRows", "TrainError", "TrainResult", "contract_rows", "fit",
           "split_hands"]
