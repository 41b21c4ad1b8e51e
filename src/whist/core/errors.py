"""One small family of errors, each with a message a player understands."""


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
