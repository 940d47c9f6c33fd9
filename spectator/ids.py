"""Match ids as the HTTP side takes them: any spelling ``uuid.UUID`` reads (upper case, no
hyphens, braces, ``urn:uuid:``) is the same match, and every cache, feed and link uses its one
canonical form (lower case, hyphenated)."""

from __future__ import annotations

import uuid

from ladder.queries import NotFound

__all__ = ["canonical_match_id"]

MAX_LENGTH = 64


def canonical_match_id(text: str) -> str:
    """The canonical spelling of a match id; NotFound for anything that is not one."""
    if len(text) > MAX_LENGTH:
        raise NotFound("no such match")
    try:
        return str(uuid.UUID(text))
    except ValueError:
        raise NotFound(f"no match {text[:MAX_LENGTH]!r}") from None
