"""Typed errors raised by engines. None of them leaves a state changed."""

from __future__ import annotations


class GameError(Exception):
    """Base of every error an engine raises on bad input."""


class MoveError(GameError):
    """A move was refused; the state is exactly as it was before."""

    def __init__(self, seat: int, move: object, reason: str) -> None:
        super().__init__(f"seat {seat}: {reason} ({move!r})")
        self.seat = seat
        self.move = move
        self.reason = reason


class NotYourTurn(MoveError):
    """The seat has no decision pending."""


class IllegalMove(MoveError):
    """A well-formed move that the rules do not allow now."""


class MalformedMove(MoveError):
    """Not a move of this game at all: wrong type, missing or mistyped fields."""


class OptionError(GameError, ValueError):
    """Unknown option, or a value outside the option's choices."""


class PlayerCountError(GameError, ValueError):
    """The game does not support that many players."""


class ForcedMismatch(GameError):
    """A move log's record of the moves the engine applied on its own differs from what the
    engine applies from the same seed and decisions: the log was edited, or the rules changed
    since it was written."""
