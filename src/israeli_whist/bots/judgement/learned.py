"""The learned trick estimator: how many tricks a seat will take, guessed at its contract bid
(Israeli Whist and Whistiti, where the trump is known when the contracts are bid).

A small multilayer perceptron, trained by ``whist train`` (``israeli_whist.rl.train``) on expert self-play
and shipped as ``models/<game>.npz``; it runs here with numpy alone, so a plain install plays with
it. Its inputs (``FEATURE_NAMES``) come from a ``SeatView`` only: the seat's cards, the trump, its
place at the table, and the contracts bid before it (``israeli_whist.bots.judgement.learned_features``).

Three ways in:

- ``estimator.tricks(view)``: the seat's own estimate, at its bid or later (its cards as they
  were at the bid are the cards it holds and those it has played);
- ``estimator.tricks_for(hand, trump, seat, view)``: any seat's estimate for a hand it might hold,
  in the context it saw at its bid, read from any later view of the same hand (the bid inference
  asks this of imagined hands of the other seats);
- ``estimator.tricks_for_hands(hands, trump, seat, view)``: the same for many hands at once, one
  matrix product instead of a call each.
"""

from __future__ import annotations

import functools
import io
import json
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from israeli_whist.bots.judgement.learned_features import FEATURE_NAMES, features, features_for, hand_at_bid
from israeli_whist.core.cards import CardSet
from israeli_whist.core.errors import WhistError
from israeli_whist.core.views import SeatView

__all__ = ["FEATURE_NAMES", "LearnedEstimator", "ModelError", "TrickModel", "features", "features_for",
           "hand_at_bid", "shipped_games"]

MODEL_FORMAT = "whist-trick-estimator"
MODEL_VERSION = 1
Matrix = npt.NDArray[np.float64]


class ModelError(WhistError):
    """A model file that is missing, of another format, or made for other features."""


@dataclass(frozen=True)
class TrickModel:
    """A multilayer perceptron with ReLU hidden layers and one linear output, which is the share of
    the hand's tricks the seat takes; the inputs are standardised first (``(x - mean) / scale``)."""

    game: str
    mean: Matrix
    scale: Matrix
    weights: tuple[Matrix, ...]  # layer i maps its inputs to its outputs: shape (inputs, outputs)
    biases: tuple[Matrix, ...]
    about: str = "{}"  # JSON: how it was trained (data, seed, held-out figures), for people to read

    def share(self, rows: Matrix) -> Matrix:
        """The predicted share of the tricks for each row of features, unclipped."""
        layer = (rows - self.mean) / self.scale
        last = len(self.weights) - 1
        for i, (weight, bias) in enumerate(zip(self.weights, self.biases, strict=True)):
            layer = layer @ weight + bias
            if i < last:
                np.maximum(layer, 0.0, out=layer)
        return np.asarray(layer[:, 0], dtype=np.float64)

    def to_bytes(self) -> bytes:
        """The .npz file: the same bytes for the same model (every entry dated 1980-01-01, where
        ``numpy.savez`` would stamp the time of writing)."""
        arrays: dict[str, npt.NDArray[Any]] = {
            "format": np.array(MODEL_FORMAT), "version": np.array(MODEL_VERSION), "game": np.array(self.game),
            "feature_names": np.array(FEATURE_NAMES), "mean": self.mean, "scale": self.scale,
            "layers": np.array(len(self.weights)), "about": np.array(self.about),
        }
        for i, (weight, bias) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"weight_{i}"], arrays[f"bias_{i}"] = weight, bias
        sink = io.BytesIO()
        with zipfile.ZipFile(sink, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, array in arrays.items():
                entry = io.BytesIO()
                np.lib.format.write_array(entry, np.asarray(array), allow_pickle=False)
                info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, entry.getvalue())
        return sink.getvalue()

    def save(self, path: Path) -> None:
        path.write_bytes(self.to_bytes())

    @classmethod
    def from_bytes(cls, data: bytes, source: str) -> TrickModel:
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as npz:
                arrays = {name: npz[name] for name in npz.files}
        except (OSError, ValueError, zipfile.BadZipFile) as error:
            raise ModelError(f"{source} is not a trick estimator's .npz file ({error})") from None
        if str(arrays.get("format", "")) != MODEL_FORMAT:
            raise ModelError(f"{source} is not a trick estimator's .npz file (no format {MODEL_FORMAT!r} in it)")
        if int(arrays["version"]) != MODEL_VERSION:
            raise ModelError(f"{source} is of model format version {int(arrays['version'])}; "
                             f"this whist reads version {MODEL_VERSION}")
        if tuple(str(name) for name in arrays["feature_names"]) != FEATURE_NAMES:
            raise ModelError(f"{source} was trained on other features than this whist computes; train it again")
        layers = int(arrays["layers"])
        return cls(str(arrays["game"]), arrays["mean"].astype(np.float64), arrays["scale"].astype(np.float64),
                   tuple(arrays[f"weight_{i}"].astype(np.float64) for i in range(layers)),
                   tuple(arrays[f"bias_{i}"].astype(np.float64) for i in range(layers)), str(arrays["about"]))

    @classmethod
    def read(cls, path: Path) -> TrickModel:
        try:
            data = path.read_bytes()
        except OSError as error:
            raise ModelError(f"Cannot read the model {path}: {error.strerror or error}") from None
        return cls.from_bytes(data, str(path))

    @property
    def training(self) -> dict[str, Any]:
        """What ``whist train`` wrote about the run (``about``), as a dict."""
        loaded = json.loads(self.about)
        return loaded if isinstance(loaded, dict) else {}


@functools.cache  # the package's files do not change while it runs
def shipped_games() -> tuple[str, ...]:
    """The games with an estimator inside the package."""
    folder = resources.files("israeli_whist.bots.judgement").joinpath("models")
    return tuple(sorted(entry.name.removesuffix(".npz") for entry in folder.iterdir() if entry.name.endswith(".npz")))


@dataclass(frozen=True)
class LearnedEstimator:
    """Tricks a seat will take, from a trained ``TrickModel``."""

    model: TrickModel

    @classmethod
    def load(cls, game: str) -> LearnedEstimator:
        """The estimator shipped for ``game`` (one object per game, read once)."""
        return _shipped(game)

    @classmethod
    def read(cls, path: Path) -> LearnedEstimator:
        return cls(TrickModel.read(path))

    def tricks(self, view: SeatView) -> float:
        """The seat's expected tricks in this hand, from its view at its contract bid or later."""
        return self.tricks_for(hand_at_bid(view), view.trump, view.seat, view)

    def tricks_for(self, hand: CardSet, trump: int, seat: int, view: SeatView) -> float:
        """What ``seat`` would expect to take holding ``hand`` (every card it held when it bid), with
        the contracts bid before it as ``view`` shows them: ``view`` may be any view of the same hand
        from that bid on, of any seat."""
        return float(self.tricks_for_hands([hand], trump, seat, view)[0])

    def tricks_for_hands(self, hands: Sequence[CardSet], trump: int, seat: int, view: SeatView) -> Matrix:
        """``tricks_for`` of each hand in ``hands``, in one pass of the network."""
        rows = np.stack([features_for(hand, trump, seat, view) for hand in hands]) if hands else \
            np.zeros((0, len(FEATURE_NAMES)))
        return self.tricks_of_features(rows, view.hand_size)

    def tricks_of_features(self, rows: Matrix, hand_size: int) -> Matrix:
        """Expected tricks for rows of ``features``, each within 0 and the hand's size."""
        return np.clip(self.model.share(rows) * hand_size, 0.0, float(hand_size))


@functools.cache
def _shipped(game: str) -> LearnedEstimator:
    games = shipped_games()
    if game not in games:
        raise ModelError(f"No learned trick estimator ships for {game!r}; there is one for: {', '.join(games)}")
    data = resources.files("israeli_whist.bots.judgement").joinpath("models", f"{game}.npz").read_bytes()
    return LearnedEstimator(TrickModel.from_bytes(data, f"the shipped model for {game}"))
