"""The decisions of Movie Fight. Cards are named by their printed number."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

from games.movie_fight.cards import AUDIENCE, SCREEN
from games.values import Among

_CARD = Among(label="card")


@dataclass(frozen=True, order=True)
class Refresh:
    """At the start of your turn: downgrade this upgraded card and lay out a new offer."""

    kind: ClassVar[str] = "refresh"
    card: Annotated[int, _CARD]


@dataclass(frozen=True, order=True)
class Play:
    """Take this offer card and slide it into floor 1 or 2 as a viewer or a screen."""

    kind: ClassVar[str] = "play"
    card: Annotated[int, _CARD]
    floor: Annotated[int, Among((1, 2))]
    side: Annotated[str, Among((AUDIENCE, SCREEN))]


@dataclass(frozen=True, order=True)
class Downgrade:
    """The downgrade-then-upgrade effect, first step: downgrade this card."""

    kind: ClassVar[str] = "downgrade"
    card: Annotated[int, _CARD]


@dataclass(frozen=True, order=True)
class Upgrade:
    """Use the effect being resolved to upgrade this card of your cinema."""

    kind: ClassVar[str] = "upgrade"
    card: Annotated[int, _CARD]


@dataclass(frozen=True, order=True)
class Skip:
    """Decline: no refresh at the start of the turn, or no upgrade from an effect."""

    kind: ClassVar[str] = "skip"


Move = Refresh | Play | Downgrade | Upgrade | Skip
MOVE_TYPES: tuple[type[Move], ...] = (Refresh, Play, Downgrade, Upgrade, Skip)
