"""Exceptions raised by the conquian library.

Every error the library raises on bad input derives from :class:`ConquianError`;
the ones a caller would expect to be ``ValueError`` also derive from it.
"""

from __future__ import annotations


class ConquianError(Exception):
    """Root of every error raised by the library."""


class InvalidNotationError(ConquianError, ValueError):
    """Text that cannot be read: a bad card token, action, position or record line."""


class InvalidMeldError(ConquianError, ValueError):
    """Cards that do not form a valid meld (set or run)."""


class InvalidRulesError(ConquianError, ValueError):
    """An unknown preset, an unknown flag, a bad flag value or an invalid combination of flags."""


class InvalidStateError(ConquianError, ValueError):
    """A position that cannot arise in a game (lost or duplicated cards, bad partition, ...)."""


class IllegalActionError(ConquianError, ValueError):
    """A well-formed action that is not allowed in the current position.

    The state it was applied to is left unchanged.
    """

    def __init__(self, message: str, action: object = None) -> None:
        super().__init__(message)
        self.action = action


class AmbiguousActionError(ConquianError, ValueError):
    """A short form of an action that matches more than one legal action."""

    def __init__(self, message: str, candidates: tuple[object, ...] = ()) -> None:
        super().__init__(message)
        self.candidates = candidates


class GameOverError(IllegalActionError):
    """An action applied to a deal that has already ended."""


class RecordError(ConquianError, ValueError):
    """A game record that is malformed or does not replay.

    ``action_number`` is the 1-based number of the offending action, when there is one.
    """

    def __init__(self, message: str, action_number: int | None = None) -> None:
        super().__init__(message)
        self.action_number = action_number
