"""What a state of our OpenSpiel games shows the code that reads it: the observer
(``israeli_whist.rl.openspiel_observer``) and the resampler (``israeli_whist.rl.openspiel_resample``)
read a state through this, and ``WhistState`` (``israeli_whist.rl.openspiel_state``) is the one
kind, so neither imports the module that makes states."""

from __future__ import annotations

from typing import Any, Protocol

from israeli_whist.core.state import HandState
from israeli_whist.core.views import SeatView


class SeenState(Protocol):
    """A hand under way, dealt by chance one card at a time (see ``WhistState``)."""

    @property
    def hand(self) -> HandState | None: ...

    @property
    def memo(self) -> dict[Any, str]: ...

    @property
    def drawn(self) -> tuple[int, ...]: ...

    @property
    def place_drawn(self) -> tuple[int, ...]: ...

    def seat_view(self, seat: int) -> SeatView | None: ...

    def dealt_view(self, seat: int) -> SeatView | None: ...

    def cards_received(self, seat: int) -> tuple[int, ...]: ...

    def get_game(self) -> Any: ...  # pyspiel's game, which makes new states

    def apply_action(self, action: int) -> None: ...
