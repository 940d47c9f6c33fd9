"""Typed views of movie-tricks (proto/premiere/v1/movie_tricks.proto): its observation and
moves as frozen dataclasses. Generated from proto/premiere/v1 by `make proto`. Do not edit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, TypeAlias

GAME = "movie-tricks"


@dataclass(frozen=True, slots=True)
class Card:
    """One face of a Movie Tricks card (playing, starting, bonus or +3 card)."""

    id: int
    """Stable card id; moves name cards by it."""

    code: str
    """Short printable code from the card list (MovieTricksData.cards of GameDataService):
    'red-9' (a playing card: suit and value, '-blue' for its blue twin), 'start-4A'
    (starting card 4, side A), 'bonus-07' (a suited bonus card) or 'plus3-3' (a +3 card).
    """

    kind: str
    """'playing', 'start', 'bonus' (a suited bonus card) or 'plus3' (a +3 bonus card, no
    suit).
    """

    suit: str | None
    """The suit; absent for starting cards and +3 cards."""

    value: int
    """The value used to rank the card in a trick."""

    category: str | None
    """'CGI', 'Props', 'Roles' or 'Soundtrack'; absent for +3 cards."""

    symbols: tuple[str, ...]
    """The symbols its category scores."""

    blue: bool
    """Whether it carries a blue quote (used with 4 and 5 players only)."""

    duplicate: bool
    """Whether it carries the duplicate marker."""


@dataclass(frozen=True, slots=True)
class Goal:
    """A props goal card: this many distinct props symbols are worth these stars."""

    need: int
    """Distinct props symbols required."""

    stars: int
    """Stars it scores."""


@dataclass(frozen=True, slots=True)
class Play:
    """A card played this round."""

    seat: int
    """The seat that played it."""

    card: Card | None
    """The card."""

    boosted: bool
    """Whether a +3 card was added to it."""


@dataclass(frozen=True, slots=True)
class Cards:
    """A list of cards: one tableau column, or one seat's known hand cards."""

    cards: tuple[Card, ...]
    """The cards, oldest first."""


@dataclass(frozen=True, slots=True)
class Tableau:
    """One player's tableau."""

    columns: tuple[Cards, ...]
    """The four columns: CGI, Props, Roles, Soundtrack."""

    goal: int | None
    """The `need` of the props goal this player claimed, if any."""


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything one seat may know of a Movie Tricks match."""

    seat: int | None
    """The viewing seat; absent for a spectator."""

    players: int
    """Number of seats."""

    family: bool
    """Whether the family variant is played."""

    round: int
    """The current round, from 1."""

    rounds: int
    """Rounds in the game for this player count and variant."""

    phase: str
    """'play', 'draft', 'claim', 'bonus', 'trump' or 'over'."""

    turn: int | None
    """The seat to decide now, if any."""

    director: int
    """The seat holding the director pawn (leads the round)."""

    trump: str | None
    """The suit under the trump marker, if any."""

    hand: tuple[Card, ...]
    """The viewer's own hand."""

    hand_sizes: tuple[int, ...]
    """Cards in each seat's hand."""

    known_hands: tuple[Cards, ...]
    """Per seat, the bonus cards everyone saw it take into its hand and not yet played."""

    plays: tuple[Play, ...]
    """Cards played this round, in play order."""

    pick_order: tuple[int, ...]
    """Seats still to choose from the market this round, in order."""

    bonus_order: tuple[int, ...]
    """Seats still to take a bonus card this round, in order."""

    market: tuple[Card, ...]
    """The market."""

    display: tuple[Card, ...]
    """The face-up bonus display."""

    bonus_deck: int
    """Cards left in the bonus deck."""

    draw_deck: int
    """Cards left in the draw deck (2 players)."""

    discards: tuple[Card, ...]
    """Discarded cards, face up."""

    goals: tuple[Goal, ...]
    """Props goals still available."""

    goals_discarded: tuple[int, ...]
    """Props goals removed by the die (2 players), by `need`."""

    tableaus: tuple[Tableau, ...]
    """Every seat's tableau, in seat order."""

    props_die: int | None
    """The die's result for the props goal discard (2 players), once rolled."""

    soundtrack_die: int | None
    """The dummy soundtrack player's die (2 players), once rolled."""


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play a card from your hand."""

    kind: ClassVar[str] = "play"

    card: int
    """The card id."""

    boost: bool
    """Add one of your +3 cards to it."""


@dataclass(frozen=True, slots=True)
class DraftCard:
    """Take a market card into your tableau."""

    kind: ClassVar[str] = "draft"

    card: int
    """The card id."""


@dataclass(frozen=True, slots=True)
class ClaimGoal:
    """Right after placing a Props card: claim a props goal."""

    kind: ClassVar[str] = "claim"

    need: int
    """The goal's `need`."""


@dataclass(frozen=True, slots=True)
class DeclineGoal:
    """Right after placing a Props card: claim nothing now."""

    kind: ClassVar[str] = "decline"


@dataclass(frozen=True, slots=True)
class BonusToHand:
    """Bonus option: take this bonus card into your hand."""

    kind: ClassVar[str] = "bonus-hand"

    card: int
    """The card id."""


@dataclass(frozen=True, slots=True)
class BonusToTableau:
    """Bonus option: place this bonus card in your tableau."""

    kind: ClassVar[str] = "bonus-tableau"

    card: int
    """The card id."""


@dataclass(frozen=True, slots=True)
class DiscardBonus:
    """Bonus option: discard this bonus card, then set the trump marker."""

    kind: ClassVar[str] = "bonus-discard"

    card: int
    """The card id."""


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    """Put the trump marker on a suit."""

    kind: ClassVar[str] = "trump"

    suit: str
    """The suit."""


Move: TypeAlias = (
    PlayCard
    | DraftCard
    | ClaimGoal
    | DeclineGoal
    | BonusToHand
    | BonusToTableau
    | DiscardBonus
    | ChooseTrump
)
"""Any move of this game."""

MOVES: dict[str, type[Move]] = {
    PlayCard.kind: PlayCard,
    DraftCard.kind: DraftCard,
    ClaimGoal.kind: ClaimGoal,
    DeclineGoal.kind: DeclineGoal,
    BonusToHand.kind: BonusToHand,
    BonusToTableau.kind: BonusToTableau,
    DiscardBonus.kind: DiscardBonus,
    ChooseTrump.kind: ChooseTrump,
}
