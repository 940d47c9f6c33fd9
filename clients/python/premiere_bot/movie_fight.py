"""Typed views of movie-fight (proto/premiere/v1/movie_fight.proto): its observation and
moves as frozen dataclasses. Generated from proto/premiere/v1 by `make proto`. Do not edit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, TypeAlias

from premiere_bot.entries import Entry

GAME = "movie-fight"


@dataclass(frozen=True, slots=True)
class Floor:
    """One floor of a cinema. Cards are named by their printed number (1..65); their contents
    are public game data (MovieFightData.cards of GameDataService.GetGameData).
    """

    DATA_ENTRIES: ClassVar[dict[str, str]] = {"audience": "cards", "screens": "cards"}
    """Fields naming entries of the game's data: field -> GameData table."""

    audience: tuple[Entry, ...]
    """Viewers, in the order they were slid in (oldest first)."""

    screens: tuple[Entry, ...]
    """Screens, in the order they were slid in (oldest first); movie order follows it."""


@dataclass(frozen=True, slots=True)
class Cinema:
    """One player's cinema."""

    DATA_ENTRIES: ClassVar[dict[str, str]] = {"tile": "tiles", "upgraded": "cards"}
    """Fields naming entries of the game's data: field -> GameData table."""

    tile: Entry
    """The cinema tile's number (1..5)."""

    floors: tuple[Floor, ...]
    """The 1st floor, then the 2nd floor."""

    upgraded: tuple[Entry, ...]
    """Upgraded cards, in increasing number."""


@dataclass(frozen=True, slots=True)
class Automa:
    """The solo automa: its level and its cards (it has no floors)."""

    DATA_ENTRIES: ClassVar[dict[str, str]] = {"audience": "cards", "screens": "cards"}
    """Fields naming entries of the game's data: field -> GameData table."""

    level: int
    """The automa level, 1 to 4."""

    audience: tuple[Entry, ...]
    """Cards it played as viewers, oldest first."""

    screens: tuple[Entry, ...]
    """Cards it played as screens, oldest first."""

    flipped: tuple[str, ...]
    """Automa cards turned over in the current half of the game, oldest first."""

    unflipped: int
    """Automa cards still to turn over in this half (the set-aside card not counted)."""


@dataclass(frozen=True, slots=True)
class Pending:
    """The screen effect being resolved."""

    DATA_ENTRIES: ClassVar[dict[str, str]] = {"card": "cards", "downgraded": "cards"}
    """Fields naming entries of the game's data: field -> GameData table."""

    owner: int
    """The seat whose card it is (0 in solo when the automa played it)."""

    card: Entry
    """The screen card whose effect is resolved."""

    seats: tuple[int, ...]
    """Seats still to be asked, the one deciding first."""

    downgraded: Entry | None
    """The card downgraded by a downgrade-then-upgrade effect, once chosen."""

    by_automa: bool
    """Whether the automa played the card (its group effect reaches the player)."""


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything one seat may know of a Movie Fight match: everything but the draw order."""

    DATA_ENTRIES: ClassVar[dict[str, str]] = {"offer": "cards"}
    """Fields naming entries of the game's data: field -> GameData table."""

    seat: int | None
    """The viewing seat; absent for a spectator."""

    players: int
    """Number of seats (1 = solo against the automa)."""

    side: str
    """The cinema tile side in play: 'A' or 'B'."""

    round: int
    """The current round, from 1."""

    rounds: int
    """Rounds in the game (12)."""

    phase: str
    """'refresh', 'play', 'downgrade', 'upgrade' or 'over'."""

    turn: int | None
    """The seat to decide now, if any."""

    active: int
    """The seat whose turn it is."""

    offer: tuple[Entry, ...]
    """The offer, oldest card first."""

    deck: int
    """Cards left in the draw deck."""

    cinemas: tuple[Cinema, ...]
    """Every seat's cinema, in seat order."""

    tickets: tuple[int, ...]
    """Tickets each seat sells now."""

    scores: tuple[int, ...]
    """What each seat would score if the game ended now."""

    refreshed: bool
    """Whether the offer was refreshed during this turn."""

    pending: Pending | None
    """The effect being resolved, if any."""

    automa: Automa | None
    """The automa, in solo."""

    automa_score: int | None
    """What the automa would score if the game ended now, in solo."""


@dataclass(frozen=True, slots=True)
class Refresh:
    """At the start of your turn: downgrade this upgraded card and lay out a new offer."""

    kind: ClassVar[str] = "refresh"

    DATA_ENTRIES: ClassVar[dict[str, str]] = {"card": "cards"}
    """Fields naming entries of the game's data: field -> GameData table."""

    card: Entry
    """The card to downgrade."""


@dataclass(frozen=True, slots=True)
class Play:
    """Take an offer card and slide it into your cinema."""

    kind: ClassVar[str] = "play"

    DATA_ENTRIES: ClassVar[dict[str, str]] = {"card": "cards"}
    """Fields naming entries of the game's data: field -> GameData table."""

    card: Entry
    """The offer card."""

    floor: int
    """Floor 1 or 2."""

    side: str
    """'audience' (as a viewer) or 'screen'."""


@dataclass(frozen=True, slots=True)
class Downgrade:
    """The downgrade-then-upgrade effect, first step: downgrade this card."""

    kind: ClassVar[str] = "downgrade"

    DATA_ENTRIES: ClassVar[dict[str, str]] = {"card": "cards"}
    """Fields naming entries of the game's data: field -> GameData table."""

    card: Entry
    """The card to downgrade."""


@dataclass(frozen=True, slots=True)
class Upgrade:
    """Use the effect being resolved to upgrade this card."""

    kind: ClassVar[str] = "upgrade"

    DATA_ENTRIES: ClassVar[dict[str, str]] = {"card": "cards"}
    """Fields naming entries of the game's data: field -> GameData table."""

    card: Entry
    """The card to upgrade."""


@dataclass(frozen=True, slots=True)
class Skip:
    """Decline: no refresh, or no upgrade from an effect."""

    kind: ClassVar[str] = "skip"


Move: TypeAlias = Refresh | Play | Downgrade | Upgrade | Skip
"""Any move of this game."""

MOVES: dict[str, type[Move]] = {
    Refresh.kind: Refresh,
    Play.kind: Play,
    Downgrade.kind: Downgrade,
    Upgrade.kind: Upgrade,
    Skip.kind: Skip,
}
