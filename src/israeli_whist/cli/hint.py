"""The terminal table's hint: ``hint`` at the prompt (F4 in the full-screen table) shows the expert's
top choices for the player's turn, each with the points it is expected to bring in the hand, and a
one-line reason where one can be given, as the web table's hint does (``israeli_whist.bots.review``).
It is worked out from the seat's view alone, so it names no card the player cannot see. Local games
allow hints unless ``whist play --no-hints``; a saved game lists the hints used (the record's
``hands[].hints``)."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from israeli_whist.cli.cardtext import action_text, card_text
from israeli_whist.core.cards import parse_card
from israeli_whist.core.views import SeatView
from israeli_whist.core.wording import count_text

# The reasons' words (the web pages' are in their catalogues, ``hint.reason.*``).
REASONS = {
    "sure_trick": "{card} takes a trick for sure.",
    "safe_discard": "{card} is a safe discard: it cannot cost a trick.",
}


def work_out(view: SeatView, seed: str) -> dict[str, Any]:
    """The hint for the seat on move, as the web table gets it (``hint_json``)."""
    from israeli_whist.bots.review import hint_for, hint_json  # the search loads at the first hint, not at start

    return hint_json(hint_for(view, seed=seed))


def reason_text(reason: dict[str, Any] | None) -> Text | None:
    """The reason's line: its card in the table's colours.

    >>> print(reason_text({"key": "trumps_out", "args": {"count": 1}}))
    One trump is still out.
    >>> print(reason_text({"key": "sure_trick", "args": {"card": "QH"}}))
    Q♥ takes a trick for sure.
    """
    if reason is None:
        return None
    args = reason["args"]
    if reason["key"] == "trumps_out":
        count = args["count"]
        if not count:
            return Text("No trumps are out: yours are all that is left.")
        return Text("One trump is still out." if count == 1 else f"{count} trumps are still out.")
    card = card_text(parse_card(args["card"]))
    before, _, after = REASONS[reason["key"]].partition("{card}")
    return Text(before) + card + Text(after)


def hint_block(hint: dict[str, Any]) -> RenderableType:
    """The hint as the terminal shows it: the choices, best first, with the points each is expected
    to bring and its sampling error; the reason; and how many deals the values come from."""
    if not hint["options"]:
        return Text("Hint: nothing here needs weighing: the expert sees one sensible choice.")
    table = Table(box=None, show_header=False, pad_edge=False)
    table.add_column("choice")
    table.add_column("best", style="bold green")
    table.add_column("points", justify="right", style="bold")
    table.add_column("error", style="dim")
    for index, option in enumerate(hint["options"]):
        table.add_row(action_text(option["action"]), "best" if index == 0 else "", f"{option['value']:.1f}",
                      f"±{option['error']:.1f}")
    lines: list[RenderableType] = [Text("Hint: the expert's choices, and the points each is expected to bring in "
                                        "this hand", style="bold"), table]
    reason = reason_text(hint["reason"])
    if reason is not None:
        lines.append(reason)
    if hint["deals"]:
        lines.append(Text(f"From {count_text(hint['deals'], 'deal')} drawn to fit what you have seen.", style="dim"))
    return Group(*lines)
