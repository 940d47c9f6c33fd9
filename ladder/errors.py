"""The errors a query of the ladder raises for its caller to answer (404, 400)."""

from __future__ import annotations


class NotFound(LookupError):
    """No such bot, match, or nothing to show yet."""


class BadRequest(ValueError):
    """A malformed argument (a page token, a limit)."""
