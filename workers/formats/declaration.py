"""What a league format declares, beside its pairing code: its name, its options (settings), how
it pairs a round and how long it naturally runs, how its results count in the standings, and,
for a format that ends on its own, its progress after each round and how that is drawn.

Each format module of this package ends with one ``FORMAT = LeagueFormat(...)``; the registry
(``workers.formats.registry``) finds them, so adding a format is one module (docs/leagues.md,
docs/architecture.md). Every round gets its own deal: table seeds are derived from the league
seed, the round number and the table, so no two tables of a league share one.

A format's progress is drawn generically: labelled values (``Figure``), a verdict, an optional
series (one point per round, between bounds) and tables of counts (``Shown``). The pages and
the ``premiere`` command draw a ``Shown`` and never name a format.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.rng import derive_seed
from workers.formats._common import Table as PairedTable
from workers.formats.matchmaking import Accepts

History = Sequence[tuple[int, tuple[str, ...], tuple[int, ...]]]
"""Finished results in play order: (round, seats, ranks). A whole duplicate group is one
result (its bots best first, ranked by their points summed over the group's tables)."""

Groups = Sequence[tuple[str, Sequence[tuple[tuple[str, ...], tuple[int, ...]]]]]
"""Finished tables by duplicate group, in play order: (group, [(seats, ranks), ...])."""


@dataclass(frozen=True)
class Table:
    seats: tuple[str, ...]
    seed: str
    group: str | None = None


@dataclass(frozen=True)
class RoundRequest:
    """Everything a format may look at to plan round ``number`` (from 1)."""

    bots: tuple[str, ...]
    players: int
    number: int
    seed: str
    history: History
    ratings: Mapping[str, float]
    settings: Mapping[str, Any] = field(default_factory=dict)
    """The format's own settings, as ``LeagueFormat.settings`` resolved them."""
    resting: frozenset[str] = frozenset()
    """Bots a format without a fixed schedule leaves out this round (on probation: fewer
    games)."""
    accepts: Mapping[str, Accepts] = field(default_factory=dict)
    """What each bot declared it accepts (table sizes, rated or casual, matches at once)."""
    provisional: frozenset[str] = frozenset()
    """Bots whose rating has not settled yet (new bots and versions)."""
    rated: bool = True
    withdrawn: frozenset[str] = frozenset()
    """The league's bots the arena no longer seats (removed, disabled): their tables are void."""
    withdrawn_at: Mapping[int, frozenset[str]] = field(default_factory=dict)
    """``withdrawn`` as it was when each earlier round was planned (by round number)."""


@dataclass(frozen=True)
class Progress:
    """What a format that can end early says after each round: ``state`` is shown as it is
    (JSON values), ``verdict`` set ends the league."""

    state: Mapping[str, Any]
    verdict: str | None = None


@dataclass(frozen=True)
class Figure:
    """One labelled value; ``key`` names it on the page (``data-figure``)."""

    key: str
    label: str
    text: str


@dataclass(frozen=True)
class Series:
    """A value drawn after every round (the page's chart ``<key>-chart``), between bounds."""

    key: str
    label: str
    x_label: str
    low: float
    high: float
    low_label: str
    high_label: str
    note: str


@dataclass(frozen=True)
class Listing:
    """A small table of the progress (the page's table ``<key>``), one row per ``row_keys``."""

    key: str
    title: str
    note: str
    columns: tuple[str, ...]
    numeric: tuple[bool, ...]
    """Which columns hold numbers (drawn right-aligned)."""
    row_keys: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Shown:
    """A progress as the pages and the command draw it, whatever the format."""

    title: str
    """The section's heading on the league's page."""
    short_title: str
    """The heading of the dashboard's section listing a game's leagues of this format."""
    summary: str
    """Who or what it is about, in a few words ("ada vs grace")."""
    question: str
    verdict: str | None
    verdict_text: str
    """The verdict in a sentence (what an open test waits for, while it has none)."""
    verdict_short: str
    figures: tuple[Figure, ...]
    brief: tuple[Figure, ...]
    """The figures of the dashboard's row, one column each."""
    series: Series | None
    point: tuple[float, float] | None
    """This progress as a point of ``series``: (x, y)."""
    note: str
    listings: tuple[Listing, ...]


def _no_settings(bots: Sequence[str], players: int, settings: Mapping[str, Any]) -> dict[str, Any]:
    if settings:
        raise ValueError(f"this format takes no settings, not {', '.join(sorted(settings))}")
    return {}


@dataclass(frozen=True)
class LeagueFormat:
    # the name and the options
    name: str
    plan: Callable[[RoundRequest], list[Table]]
    """The pairing: round ``number``'s tables."""
    natural_rounds: Callable[[int, int], int | None]
    """From (bots, seats per table): the format's natural length; None runs until stopped."""
    min_bots: int = 1
    endless: bool = False
    """Whether the format runs until stopped (no natural length at any table size)."""
    settings: Callable[[Sequence[str], int, Mapping[str, Any]], dict[str, Any]] = _no_settings
    """Checks (bots, seats, the operator's settings) and returns the settings with defaults."""
    settings_rounds: Callable[[Mapping[str, Any]], int | None] | None = None
    """The natural length from the resolved settings, where they decide it."""
    length: Callable[[Sequence[str], int, Mapping[str, Any], History, int], int] | None = None
    """The length from (bots, seats, resolved settings, results, rounds closed), where the
    results lengthen it (a knockout deals a void heat again in a round of its own)."""
    rated: bool = True
    """Whether its matches are rated unless the operator says otherwise."""
    head_to_head: bool = False
    """Whether it compares the first two bots, the others (built-ins) only filling seats."""
    # how its results count (the standings)
    swiss_byes: bool = False
    """Whether a bot left out of a round counts a bye in the standings."""
    duplicate: bool = False
    """Whether each table is a duplicate group, scored as one result."""
    group_noun: str = "group"
    """What a group of tables sharing one deal is called on the pages."""
    # the progress of a format that ends on its own
    progress: Callable[[Sequence[str], Groups, Mapping[str, Any]], Progress] | None = None
    """Its state after a round, from the finished groups."""
    show: Callable[[Mapping[str, Any]], Shown] | None = None
    """How a state of ``progress`` is drawn."""


def byes(bots: Sequence[str], history: History) -> list[str]:
    """Bots that sat out a round in which others played."""
    seated: dict[int, set[str]] = {}
    for number, seats, _ranks in history:
        seated.setdefault(number, set()).update(seats)
    return [bot for players in seated.values() for bot in bots if bot not in players]


def as_tables(tables: Sequence[PairedTable]) -> list[Table]:
    """A pairing function's tables as a league stores them (names, seeds in hex)."""
    return [Table(tuple(str(bot) for bot in t.seats), t.seed.hex(), t.group) for t in tables]


def round_seed(request: RoundRequest) -> bytes:
    return derive_seed(request.seed, "round", request.number)


def plan_solo(request: RoundRequest) -> list[Table]:
    """One-seat tables, whatever the format: every bot plays its own deal against the game's
    reference opponent each round, so there is nothing to pair."""
    return [
        Table((bot,), derive_seed(request.seed, "solo", request.number, index).hex())
        for index, bot in enumerate(request.bots)
    ]
