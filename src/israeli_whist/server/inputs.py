"""What the server takes from a client, checked at the edge: numbers that fit, and text that encodes.

Past the edge an int goes into SQLite or PostgreSQL (64 bits) and into the engine's compiled
parts (a C long), and a str is encoded as UTF-8 for the database and the wire. JSON knows
neither limit: ``2**64``, ``1e400`` (which Python reads as infinity) and ``"\\ud800"`` (a lone
surrogate, which Python reads as a str that no UTF-8 encoder takes) are all JSON that parses.
So every request body (``Body``), query and path number (``RowNumber``) and WebSocket message
(``json_problem``) is checked here, and a value past these limits is the client's mistake:
a 422, or a ``malformed`` error message, never an error deep inside.
"""

from __future__ import annotations

import math
import re
from typing import Annotated, Any

from annotated_types import Ge, Le
from pydantic import BaseModel, model_validator

# Ids, offsets, page numbers and versions: far past any real one, and inside every int column.
MAX_ROW_NUMBER = 2**31 - 1
# The largest whole number a browser's JSON reads exactly; nothing the server takes is larger.
MAX_JSON_INT = 2**53

RowNumber = Annotated[int, Ge(0), Le(MAX_ROW_NUMBER)]
"""A number that names or counts rows: an id, an offset, a hand's number. As a parameter,
``Annotated[RowNumber, Query(...)]`` (a ``Query`` given as the default would drop the bounds)."""

PageSize = Annotated[int, Ge(1), Le(100)]
"""How many rows a page of a list holds."""

LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def is_encodable(text: str) -> bool:
    """Whether ``text`` encodes as UTF-8: no lone surrogate (Python's str holds only lone ones).

    >>> is_encodable("שלום 🂡"), is_encodable("\\ud800")
    (True, False)
    """
    return LONE_SURROGATE.search(text) is None


def json_problem(value: Any) -> str | None:
    """Why parsed JSON ``value`` cannot be taken, for people; None if it can.

    Walked with a list, not recursion: JSON nested as deep as the parser allows must not
    overflow the stack here.

    >>> json_problem({"a": [1, "b", None, 2.5]}) is None
    True
    >>> json_problem([2**64])
    'Numbers are at most 2**53 (9007199254740992) either way'
    """
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if not is_encodable(item):
                return "Text may not hold a lone surrogate (such as \\ud800): it is not Unicode"
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int):
            if not -MAX_JSON_INT <= item <= MAX_JSON_INT:
                return f"Numbers are at most 2**53 ({MAX_JSON_INT}) either way"
        elif isinstance(item, float):
            if not math.isfinite(item):
                return "Numbers are finite: NaN and Infinity are not JSON"
        elif isinstance(item, dict):
            pending.extend(item)
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return None


class Body(BaseModel):
    """A request's JSON body. Every string in it, however deep (rule options, score sheet
    entries), encodes, and every number is one the server can hold."""

    @model_validator(mode="before")
    @classmethod
    def plain_json(cls, data: Any) -> Any:
        problem = json_problem(data)
        if problem is not None:
            raise ValueError(problem)
        return data
