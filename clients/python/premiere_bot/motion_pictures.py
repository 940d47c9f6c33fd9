"""Typed views of motion-pictures (proto/premiere/v1/motion_pictures.proto): its observation and
moves as frozen dataclasses. Generated from proto/premiere/v1 by `make proto`. Do not edit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, TypeAlias

GAME = "motion-pictures"


@dataclass(frozen=True, slots=True)
class Ability:
    """A card ability: an effect of some strength, applied at a moment."""

    timing: str
    """'play' (when shot beside a project), 'hire' (when hired), 'ongoing' (while it lies
    beside a project) or 'complete' (a project's ability, for the player completing it).
    """

    effect: str
    """'draw', 'audition', 'fame', 'fire' (immediate) or 'hire_discount', 'completion_fame',
    'recruit_draw' (ongoing).
    """

    amount: int
    """The strength: cards drawn, fame gained, discards saved."""


@dataclass(frozen=True, slots=True)
class Filmmaker:
    """A filmmaker card."""

    id: int
    """Stable card id; moves name filmmakers by it."""

    code: str
    """Short printable code, e.g. 'S1-star' or 'A07'."""

    name: str
    """The filmmaker's name."""

    specialty: str
    """The specialty (background colour), e.g. 'star'."""

    skills: tuple[str, ...]
    """Skill icons; 'any' is the wildcard."""

    start: int
    """The starting set (1-4) it belongs to; 0 for an advanced filmmaker."""

    ability: Ability | None
    """Its ability, if any."""


@dataclass(frozen=True, slots=True)
class Bonus:
    """The end-game bonus of a blue-background project."""

    kind: str
    """What it counts: a genre, 'movie', 'commercial', 'tv', 'award' or 'any'."""

    fame: int
    """Fame per other completed project of that kind."""


@dataclass(frozen=True, slots=True)
class Project:
    """A project card."""

    id: int
    """Stable card id."""

    code: str
    """Short printable code, e.g. 'P17'."""

    name: str
    """The project's title."""

    era: int
    """The era (1-4) whose pile it belongs to; 0 for a won trilogy card."""

    type: str
    """'movie', 'commercial', 'tv' or 'award'."""

    genre: str | None
    """The genre of a movie."""

    needs: tuple[str, ...]
    """Required skills (movie, award) or specialties (commercial); 'any' takes any skill."""

    forbidden: tuple[str, ...]
    """Skills a TV series forbids."""

    count: int
    """Skills a TV series needs."""

    fame: int
    """Fame it scores at the end."""

    ability: Ability | None
    """Its completion ability, if any."""

    bonus: Bonus | None
    """Its end-game bonus (blue background), if any."""


@dataclass(frozen=True, slots=True)
class Trilogy:
    """The trilogy card in play."""

    id: int
    """Stable id."""

    code: str
    """Short printable code."""

    name: str
    """Its title."""

    genre: str
    """The genre of movie it counts as for its winner."""

    fame: int
    """Fame its winner scores with it."""


@dataclass(frozen=True, slots=True)
class Condition:
    """A goal's requirement."""

    type: str
    """'projects', 'variety', 'project_fame', 'specialty', 'advanced' or 'trilogy'."""

    kind: str
    """The project kind or specialty it counts, or 'any'."""

    count: int
    """How many are needed."""


@dataclass(frozen=True, slots=True)
class Goal:
    """A big or small goal."""

    id: int
    """Stable id."""

    code: str
    """Short printable code."""

    name: str
    """Its title."""

    big: bool
    """Big goals are checked at the end; small goals are claimed the moment they are met."""

    condition: Condition | None
    """What it requires."""

    fame: int
    """Fame it is worth."""


@dataclass(frozen=True, slots=True)
class Filmmakers:
    """A list of filmmakers: one seat's filmmakers beside a project."""

    filmmakers: tuple[Filmmaker, ...]
    """The filmmakers, in the order played."""


@dataclass(frozen=True, slots=True)
class Slot:
    """A project place between two neighbouring seats."""

    slot: int
    """Slot index; moves name it."""

    gap: int
    """The gap it lies in: between seats gap and gap + 1."""

    project: Project | None
    """The project there; absent once the era pile could not replace a completed one."""

    placed: tuple[Filmmakers, ...]
    """Per seat, in seat order, the filmmakers it placed beside the project."""


@dataclass(frozen=True, slots=True)
class Studio:
    """The public side of one player's studio."""

    seat: int
    """The seat."""

    hand_size: int
    """Cards in hand."""

    draw_size: int
    """Cards in the draw pile."""

    discard: tuple[Filmmaker, ...]
    """The discard pile, face up."""

    trilogy_size: int
    """Filmmakers committed face down to the trilogy."""

    fired: tuple[Filmmaker, ...]
    """Filmmakers removed from the game by fire abilities."""

    completed: tuple[Project, ...]
    """Completed projects."""

    small_goals: tuple[Goal, ...]
    """Small goals claimed."""

    fame: int
    """Fame gained from abilities so far."""


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything one seat may know of a Motion Pictures match."""

    seat: int | None
    """The viewing seat; absent for a spectator."""

    players: int
    """Number of seats."""

    era: int
    """The current era, from 1."""

    eras: int
    """Eras in the game."""

    round: int
    """The round within the era, from 1."""

    phase: str
    """'action', 'discard', 'fire', 'refresh' or 'over'."""

    turn: int | None
    """The seat to decide now, if any."""

    start_player: int
    """The seat holding the start player token this era."""

    era_ending: bool
    """Whether the era pile ran out: the era ends with this round."""

    last_turn: int | None
    """The one seat still holding cards, whose turn is the era's last."""

    hand: tuple[Filmmaker, ...]
    """The viewer's hand."""

    trilogy_cards: tuple[Filmmaker, ...]
    """The viewer's own filmmakers on the trilogy."""

    row: tuple[Filmmaker, ...]
    """The Filmmakers Row."""

    deck_size: int
    """Cards left in the Filmmakers Deck."""

    era_piles: tuple[int, ...]
    """Projects left in each era's pile."""

    trilogy: Trilogy | None
    """The trilogy card."""

    big_goals: tuple[Goal, ...]
    """The big goals in play."""

    small_goals: tuple[Goal, ...]
    """The small goals not yet claimed."""

    slots: tuple[Slot, ...]
    """Every project slot."""

    studios: tuple[Studio, ...]
    """Every seat's studio, in seat order."""

    hiring: Filmmaker | None
    """The row card being paid for by discards, if any."""

    auditioning: bool
    """Whether the discards being made pay for an audition."""

    discards_left: int
    """Discards still owed for the hire."""


@dataclass(frozen=True, slots=True)
class Shoot:
    """Shoot: play a filmmaker beside a project."""

    kind: ClassVar[str] = "shoot"

    card: int
    """The filmmaker's id."""

    slot: int
    """The project's slot."""


@dataclass(frozen=True, slots=True)
class CommitTrilogy:
    """Shoot: play a filmmaker face down on the trilogy."""

    kind: ClassVar[str] = "trilogy"

    card: int
    """The filmmaker's id."""


@dataclass(frozen=True, slots=True)
class HireMatch:
    """Hire: discard one filmmaker, take a row card of the same specialty."""

    kind: ClassVar[str] = "hire-match"

    discard: int
    """The filmmaker discarded."""

    hire: int
    """The row card taken."""


@dataclass(frozen=True, slots=True)
class HireAny:
    """Hire: take any row card; the paying discards follow."""

    kind: ClassVar[str] = "hire-any"

    hire: int
    """The row card taken."""


@dataclass(frozen=True, slots=True)
class Audition:
    """Hire: audition the top card of the Filmmakers Deck; the paying discards follow."""

    kind: ClassVar[str] = "audition"


@dataclass(frozen=True, slots=True)
class Recruit:
    """Recruit: discard a filmmaker and draw one."""

    kind: ClassVar[str] = "recruit"

    discard: int
    """The filmmaker discarded."""


@dataclass(frozen=True, slots=True)
class Discard:
    """Pay for a hire with a filmmaker from hand."""

    kind: ClassVar[str] = "discard"

    card: int
    """The filmmaker discarded."""


@dataclass(frozen=True, slots=True)
class Fire:
    """A fire ability: remove a filmmaker in hand from the game."""

    kind: ClassVar[str] = "fire"

    card: int
    """The filmmaker fired."""


@dataclass(frozen=True, slots=True)
class Refresh:
    """After a recruit: replace a row card from the Filmmakers Deck."""

    kind: ClassVar[str] = "refresh"

    card: int
    """The row card discarded."""


@dataclass(frozen=True, slots=True)
class Skip:
    """Decline an optional step (fire, row refresh)."""

    kind: ClassVar[str] = "skip"


Move: TypeAlias = (
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
"""Any move of this game."""

MOVES: dict[str, type[Move]] = {
    Shoot.kind: Shoot,
    CommitTrilogy.kind: CommitTrilogy,
    HireMatch.kind: HireMatch,
    HireAny.kind: HireAny,
    Audition.kind: Audition,
    Recruit.kind: Recruit,
    Discard.kind: Discard,
    Fire.kind: Fire,
    Refresh.kind: Refresh,
    Skip.kind: Skip,
}
