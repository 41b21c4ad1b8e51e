"""One small family of errors, each with a message a player understands."""

ECHO_LIMIT = 60  # characters of a value a message repeats: enough to recognise it, never a whole file
BIG_NUMBER_BITS = 256  # larger ints are described, not written: str() of thousands of digits is refused


class WhistError(ValueError):
    """Base of every error the engine raises on bad input."""


class NotationError(WhistError):
    """Text that does not name a card, call, bid or option."""


class IllegalActionError(WhistError):
    """A well-formed action that the rules do not allow now."""


class RulesError(WhistError):
    """An unknown option, a bad option value, or options that cannot go together."""


class RecordError(WhistError):
    """A game record that is malformed or does not replay."""


def quoted(value: object, limit: int = ECHO_LIMIT) -> str:
    """A value repeated in a message: its repr on one line, cut to about ``limit`` characters.

    Values come from people and from files, so they may be megabytes long, hold line breaks or
    bidi controls, be numbers of thousands of digits or lists nested thousands deep; repr escapes
    every unprintable character, and nothing here renders more than ``limit`` characters' worth.

    >>> quoted("QH")
    "'QH'"
    >>> quoted([1, [2, "x" * 100]], limit=20)
    "[1, [2, 'xxxxxxxxxxx..."
    >>> quoted(7 ** 10_000)
    '<a number of about 8451 digits>'
    """
    text = _short_repr(value, limit)
    return text if len(text) <= limit else text[:limit] + "..."


def _short_repr(value: object, budget: int) -> str:
    """repr of ``value``, stopping once ``budget`` characters are written (so long input costs little)."""
    budget = max(budget, 0)
    if isinstance(value, str):
        return repr(value[:budget + 1])  # one character more than fits, so that a longer text is cut
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() > BIG_NUMBER_BITS:
            return f"<a number of about {int(value.bit_length() * 0.30103)} digits>"
        return repr(value)
    if isinstance(value, list | tuple | dict):
        opening, closing = ("{", "}") if isinstance(value, dict) else ("(", ")") if isinstance(value, tuple) else \
            ("[", "]")
        items = value.items() if isinstance(value, dict) else value
        parts: list[str] = []
        used = 1
        for item in items:
            if used > budget:
                return opening + ", ".join(parts)  # the caller's cut adds "..."
            if isinstance(value, dict):
                key, inner = item
                part = _short_repr(key, budget - used) + ": " + _short_repr(inner, budget - used)
            else:
                part = _short_repr(item, budget - used)
            parts.append(part)
            used += len(part) + 2
        if isinstance(value, tuple) and len(value) == 1:
            closing = ",)"
        return opening + ", ".join(parts) + closing
    try:
        text = repr(value)
    except Exception:  # a message must not fail because a value cannot describe itself
        return f"<{type(value).__name__}>"
    return text if text.isprintable() else ascii(text)
