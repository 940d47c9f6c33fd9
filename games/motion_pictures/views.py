"""What a seat (or a spectator) sees of a Motion Pictures match: plain frozen values."""

from __future__ import annotations

from dataclasses import dataclass

from games.motion_pictures.cards import Filmmaker, Goal, Project, Trilogy

ACTION = "action"
DISCARD = "discard"
FIRING = "fire"
REFRESH = "refresh"
OVER = "over"


@dataclass(frozen=True)
class Slot:
    """A project place between seats ``gap`` and ``gap + 1`` (reachable by both); ``placed``
    holds each seat's filmmakers beside it, in seat order. ``project`` is None once the era
    pile could not replace a completed project."""

    slot: int
    gap: int
    project: Project | None
    placed: tuple[tuple[Filmmaker, ...], ...]


@dataclass(frozen=True)
class Studio:
    """The public side of one player: sizes of the hidden piles, and everything face up."""

    seat: int
    hand_size: int
    draw_size: int
    discard: tuple[Filmmaker, ...]
    trilogy_size: int
    fired: tuple[Filmmaker, ...]
    completed: tuple[Project, ...]
    small_goals: tuple[Goal, ...]
    fame: int
    """Fame gained from abilities so far (the rest is scored at the end)."""


@dataclass(frozen=True)
class MotionPicturesObservation:
    """A seat's whole knowledge; ``seat`` is None for a spectator.

    ``hand`` and ``trilogy_cards`` are the viewer's own; nobody sees the order of any draw pile.
    ``hiring`` is the row card being paid for and ``auditioning`` whether the top of the deck
    is, while ``discards_left`` more discards are owed.
    """

    seat: int | None
    players: int
    era: int
    eras: int
    round: int
    phase: str
    turn: int | None
    start_player: int
    era_ending: bool
    last_turn: int | None
    hand: tuple[Filmmaker, ...]
    trilogy_cards: tuple[Filmmaker, ...]
    row: tuple[Filmmaker, ...]
    deck_size: int
    era_piles: tuple[int, ...]
    trilogy: Trilogy
    big_goals: tuple[Goal, ...]
    small_goals: tuple[Goal, ...]
    slots: tuple[Slot, ...]
    studios: tuple[Studio, ...]
    hiring: Filmmaker | None
    auditioning: bool
    discards_left: int
