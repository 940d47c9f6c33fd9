"""The decisions of Motion Pictures, one small step each. Cards are named by their integer id.

A turn is one action (shoot, trilogy, hire-match, hire-any, audition or recruit); some actions
continue with small follow-up steps (the discards that pay for a hire, the optional fire and
row refresh), which keeps every legal-move list short.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

from games.values import Among

_FILMMAKER = Among(label="filmmaker")
_SLOT = Among(tuple(range(12)))


@dataclass(frozen=True, order=True)
class Shoot:
    """Play this filmmaker from your hand beside the project in this slot."""

    kind: ClassVar[str] = "shoot"
    card: Annotated[int, _FILMMAKER]
    slot: Annotated[int, _SLOT]


@dataclass(frozen=True, order=True)
class CommitTrilogy:
    """Play this filmmaker face down on the trilogy, for the rest of the game."""

    kind: ClassVar[str] = "trilogy"
    card: Annotated[int, _FILMMAKER]


@dataclass(frozen=True, order=True)
class HireMatch:
    """Hire: discard ``discard`` and take row card ``hire`` of the same specialty."""

    kind: ClassVar[str] = "hire-match"
    discard: Annotated[int, _FILMMAKER]
    hire: Annotated[int, _FILMMAKER]


@dataclass(frozen=True, order=True)
class HireAny:
    """Hire: take row card ``hire``; the discards that pay for it follow one by one."""

    kind: ClassVar[str] = "hire-any"
    hire: Annotated[int, _FILMMAKER]


@dataclass(frozen=True, order=True)
class Audition:
    """Hire: take the top card of the Filmmakers Deck; the discards follow one by one."""

    kind: ClassVar[str] = "audition"


@dataclass(frozen=True, order=True)
class Recruit:
    """Recruit: discard this filmmaker and draw one; a row refresh may follow."""

    kind: ClassVar[str] = "recruit"
    discard: Annotated[int, _FILMMAKER]


@dataclass(frozen=True, order=True)
class Discard:
    """Pay for a hire: discard this filmmaker from your hand."""

    kind: ClassVar[str] = "discard"
    card: Annotated[int, _FILMMAKER]


@dataclass(frozen=True, order=True)
class Fire:
    """A fire ability: remove this filmmaker in your hand from the game."""

    kind: ClassVar[str] = "fire"
    card: Annotated[int, _FILMMAKER]


@dataclass(frozen=True, order=True)
class Refresh:
    """After a recruit: discard this row card and replace it from the Filmmakers Deck."""

    kind: ClassVar[str] = "refresh"
    card: Annotated[int, _FILMMAKER]


@dataclass(frozen=True, order=True)
class Skip:
    """Decline an optional step (a fire ability, the row refresh)."""

    kind: ClassVar[str] = "skip"


Move = (
    Shoot
    | CommitTrilogy
    | HireMatch
    | HireAny
    | Audition
    | Recruit
    | Discard
    | Fire
    | Refresh
    | Skip
)
MOVE_TYPES: tuple[type[Move], ...] = (
    Shoot,
    CommitTrilogy,
    HireMatch,
    HireAny,
    Audition,
    Recruit,
    Discard,
    Fire,
    Refresh,
    Skip,
)
