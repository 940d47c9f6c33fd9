"""Pure rules arithmetic of Movie Tricks: card ranking and the score pad.

A tableau is four columns of cards (CGI, Props, Roles, Soundtrack), each oldest first; row
``r`` of a tableau is the ``r``-th card of every column, and it is a movie only when all four
columns reach that far.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.interface import Outcome, TieBreak
from games.movie_tricks.cards import (
    BANG,
    CGI,
    COLUMN,
    DATA,
    HERO,
    NOTE,
    ROLES,
    SOUNDTRACK,
    VILLAIN,
    Card,
)
from games.values import JSON

Columns = Sequence[Sequence[Card]]

PAD_ROWS: tuple[str, ...] = (
    "best movie",
    "weakest category",
    "CGI",
    "Props",
    "Roles",
    "Soundtrack",
)
"""The score pad from top to bottom: also the tie-break order."""

FAMILY_ROWS: tuple[str, ...] = ("movies", "symbols")


def rank_order(plays: Sequence[tuple[str | None, int]], trump: str | None) -> list[int]:
    """Indices of the plays, given as (suit, value) in play order, from highest rank to lowest.

    Trump beats the lead suit, which beats everything else; within a group the higher value
    wins, regardless of suit among the others; equal values go to the card played first.
    """
    lead = plays[0][0]

    def key(index: int) -> tuple[int, int, int]:
        suit, value = plays[index]
        group = 2 if suit == trump else 1 if suit == lead else 0
        return (-group, -value, index)

    return sorted(range(len(plays)), key=key)


def rows(columns: Columns) -> list[int]:
    """The value of every complete row (movie), top to bottom."""
    depth = min(len(column) for column in columns)
    return [sum(column[r].value for column in columns) for r in range(depth)]


def best_movie(columns: Columns) -> int:
    return max(rows(columns), default=0)


def weakest_category(columns: Columns) -> int:
    """The lowest column total, or 0 while any column is empty."""
    if any(not column for column in columns):
        return 0
    return min(sum(card.value for card in column) for column in columns)


def count(cards: Sequence[Card], symbol: str) -> int:
    return sum(card.symbols.count(symbol) for card in cards)


def cgi_points(column: Sequence[Card]) -> int:
    """2 per Bang symbol, plus the value of the CGI card placed last."""
    last = column[-1].value if column else 0
    return DATA.rules.bang_points * count(column, BANG) + last


def distinct_props(column: Sequence[Card]) -> int:
    return len({symbol for card in column for symbol in card.symbols})


def roles_points(villains: int, heroes: int) -> int:
    """The Roles table, once for villains and once for heroes, +8 when they are equal.

    The bonus has no exception: a Roles column with no villain and no hero is balanced too.
    """
    table = DATA.roles_points
    points = table[min(villains, len(table) - 1)] + table[min(heroes, len(table) - 1)]
    if villains == heroes:
        points += DATA.rules.roles_balance_bonus
    return points


def soundtrack_points(notes: Sequence[int], dummy: int | None = None) -> list[int]:
    """18 for the most symbols, 0 for the fewest, 12 for the rest; ties share the 18 or the 0,
    and when everybody ties everybody gets 18. ``dummy`` is the 2-player die, which competes
    like a third player but scores nothing itself."""
    rules = DATA.rules
    field = [*notes, dummy] if dummy is not None else list(notes)
    most, fewest = max(field), min(field)
    points = []
    for n in notes:
        if n == most:
            points.append(rules.soundtrack_most)
        elif n == fewest:
            points.append(rules.soundtrack_fewest)
        else:
            points.append(rules.soundtrack_middle)
    return points


@dataclass(frozen=True)
class ScorePad:
    """One player's column of the score pad, in pad order."""

    best_movie: int
    weakest_category: int
    cgi: int
    props: int
    roles: int
    soundtrack: int

    @property
    def lines(self) -> tuple[int, ...]:
        return (
            self.best_movie,
            self.weakest_category,
            self.cgi,
            self.props,
            self.roles,
            self.soundtrack,
        )

    @property
    def total(self) -> int:
        return sum(self.lines)


def score_pads(
    tableaus: Sequence[Columns], goals: Sequence[int | None], dummy: int | None = None
) -> list[ScorePad]:
    """Final scoring of every player; ``goals`` holds each player's claimed goal (its need)."""
    cgi, roles, soundtrack = COLUMN[CGI], COLUMN[ROLES], COLUMN[SOUNDTRACK]
    notes = [count(columns[soundtrack], NOTE) for columns in tableaus]
    music = soundtrack_points(notes, dummy)
    pads = []
    for seat, columns in enumerate(tableaus):
        goal = goals[seat]
        pads.append(
            ScorePad(
                best_movie=best_movie(columns),
                weakest_category=weakest_category(columns),
                cgi=cgi_points(columns[cgi]),
                props=DATA.stars(goal) if goal is not None else 0,
                roles=roles_points(count(columns[roles], VILLAIN), count(columns[roles], HERO)),
                soundtrack=music[seat],
            )
        )
    return pads


def standard_outcome(pads: Sequence[ScorePad], dummy: int | None = None) -> Outcome:
    """Most points wins; ties go down the score pad line by line; what remains is shared."""
    by_line = list(zip(*(pad.lines for pad in pads), strict=True))
    tiebreaks = [TieBreak(name, values) for name, values in zip(PAD_ROWS, by_line, strict=True)]
    detail: dict[str, JSON] = {
        name: list(values) for name, values in zip(PAD_ROWS, by_line, strict=True)
    }
    if dummy is not None:
        detail["soundtrack die"] = dummy
    return Outcome.ranked([pad.total for pad in pads], tiebreaks, detail)


def family_lines(columns: Columns) -> tuple[int, int]:
    """Family scoring: (every complete movie's value, 2 points per symbol of any kind)."""
    symbols = sum(len(card.symbols) for column in columns for card in column)
    return sum(rows(columns)), DATA.rules.family_symbol_points * symbols


def family_outcome(tableaus: Sequence[Columns]) -> Outcome:
    """Family variant: movies plus symbols; ties go to movies, then symbols, then are shared."""
    lines = [family_lines(columns) for columns in tableaus]
    tiebreaks = [
        TieBreak(name, tuple(line[i] for line in lines)) for i, name in enumerate(FAMILY_ROWS)
    ]
    detail: dict[str, JSON] = {}
    for i, name in enumerate(FAMILY_ROWS):
        detail[name] = [line[i] for line in lines]
    return Outcome.ranked([sum(line) for line in lines], tiebreaks, detail)
