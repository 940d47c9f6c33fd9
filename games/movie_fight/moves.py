"""The decisions of Movie Fight. Cards are named by their printed number."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, order=True)
class Refresh:
    """At the start of your turn: downgrade this upgraded card and lay out a new offer."""

    kind: ClassVar[str] = "refresh"
    card: int


@dataclass(frozen=True, order=True)
class Play:
    """Take this offer card and slide it into floor 1 or 2 as a viewer or a screen."""

    kind: ClassVar[str] = "play"
    card: int
    floor: int
    side: str


@dataclass(frozen=True, order=True)
class Downgrade:
    """The downgrade-then-upgrade effect, first step: downgrade this card."""

    kind: ClassVar[str] = "downgrade"
    card: int


@dataclass(frozen=True, order=True)
class Upgrade:
    """Use the effect being resolved to upgrade this card of your cinema."""

    kind: ClassVar[str] = "upgrade"
    card: int


@dataclass(frozen=True, order=True)
class Skip:
    """Decline: no refresh at the start of the turn, or no upgrade from an effect."""

    kind: ClassVar[str] = "skip"


Move = Refresh | Play | Downgrade | Upgrade | Skip
MOVE_TYPES: tuple[type[Move], ...] = (Refresh, Play, Downgrade, Upgrade, Skip)
