"""Divisions: the field split into tiers that each play a round robin season, the top of each
division promoted and the bottom relegated between seasons.

The league's bots, in the order given, make the first seasons' divisions (an event lists its
entrants strongest first, so division 1 holds the strongest): ``size`` bots a division (the
remainder spread over the divisions, so their sizes differ by at most one, each at least
``size``). A season is one round robin cycle in every division at once (a smaller division,
whose cycle is shorter, sits out the season's last rounds). After it, at each boundary the
bottom ``move`` of the higher division and the top ``move`` of the lower one swap; a division
ranks by points from ranks (ties to the bot placed higher at the season's start). Every
season's deals are its own. Settings: ``size`` (default 4), ``move`` (default 1, less than half
the smallest division) and ``seasons`` (default 2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games.rng import derive_seed
from workers.formats.declaration import (
    History,
    LeagueFormat,
    RoundRequest,
    as_tables,
)
from workers.formats.declaration import Table as LeagueTable
from workers.formats.round_robin import cycle_length, round_robin
from workers.formats.standings import match_points

__all__ = [
    "FORMAT",
    "Place",
    "Season",
    "season_of",
    "seasons",
    "split",
    "standings_of",
    "tiers",
]


def split(bots: Sequence[str], size: int) -> list[list[str]]:
    """``bots`` (in order) cut into ``len(bots) // size`` divisions of near-equal sizes."""
    count = max(1, len(bots) // size)
    base, extra = divmod(len(bots), count)
    out, start = [], 0
    for index in range(count):
        width = base + (1 if index < extra else 0)
        out.append(list(bots[start : start + width]))
        start += width
    return out


def season_length(divisions: Sequence[Sequence[str]], seats: int) -> int:
    return max(cycle_length(len(division), seats) for division in divisions)


def season_of(number: int, length: int) -> tuple[int, int]:
    """(season, round within it), both from 1, of league round ``number``."""
    season, local = divmod(number - 1, length)
    return season + 1, local + 1


def standings_of(division: Sequence[str], rows: History) -> list[str]:
    """The division best first by points from ranks in ``rows``; ties to the earlier place."""
    points = {bot: Fraction(0) for bot in division}
    for _number, seats, ranks in rows:
        if set(seats) <= set(points):
            for bot, value in zip(seats, match_points(ranks), strict=True):
                points[bot] += value
    return sorted(division, key=lambda bot: (-points[bot], division.index(bot)))


def tiers(
    bots: Sequence[str], seats: int, settings: Mapping[str, Any], history: History, season: int
) -> list[list[str]]:
    """The divisions of ``season`` (from 1): the first from the order given, each next one
    after the promotions and relegations of the season before (from ``history``)."""
    divisions = split(bots, settings["size"])
    length = season_length(divisions, seats)
    move = settings["move"]
    for done in range(1, season):
        rows = [row for row in history if season_of(row[0], length)[0] == done]
        ranked = [standings_of(division, rows) for division in divisions]
        for upper in range(len(ranked) - 1):
            high, low = ranked[upper], ranked[upper + 1]
            down, up = high[len(high) - move :], low[:move]
            ranked[upper] = high[: len(high) - move] + up
            ranked[upper + 1] = down + low[move:]
        divisions = ranked
    return divisions


@dataclass(frozen=True)
class Place:
    """A bot's place in its division in one season: points and games so far, and once the
    season is over, whether it moves: "promoted", "relegated", "stayed", or "final" (the last
    season, after which nobody moves)."""

    bot: str
    place: int
    points: Fraction
    games: int
    move: str | None


@dataclass(frozen=True)
class Season:
    """One season: its divisions (division 1 first), each best first; ``over`` once every
    round of it has closed."""

    number: int
    over: bool
    divisions: tuple[tuple[Place, ...], ...]


def seasons(
    bots: Sequence[str], seats: int, settings: Mapping[str, Any], history: History, closed: int
) -> list[Season]:
    """The seasons begun by the ``closed`` rounds (the first, at least), with each division's
    table: its bots by points from ranks (ties to the earlier place at the season's start)."""
    resolved = settings if "season_rounds" in settings else _settings(bots, seats, settings)
    length = int(resolved["season_rounds"])
    move = int(resolved["move"])
    last = int(resolved["seasons"])
    begun = min(last, season_of(closed + 1, length)[0])
    out: list[Season] = []
    for number in range(1, begun + 1):
        over = closed >= number * length
        rows = [row for row in history if season_of(row[0], length)[0] == number]
        divisions = tiers(bots, seats, resolved, history, number)
        tables = []
        for index, division in enumerate(divisions):
            ranked = standings_of(division, rows)
            points = {bot: Fraction(0) for bot in division}
            games = dict.fromkeys(division, 0)
            for _round, seated, ranks in rows:
                if set(seated) <= set(points):
                    for bot, value in zip(seated, match_points(ranks), strict=True):
                        points[bot] += value
                        games[bot] += 1
            places = []
            for place, bot in enumerate(ranked, start=1):
                moved: str | None = None
                if over:
                    if number == last:
                        moved = "final"
                    elif index > 0 and place <= move:
                        moved = "promoted"
                    elif index < len(divisions) - 1 and place > len(ranked) - move:
                        moved = "relegated"
                    else:
                        moved = "stayed"
                places.append(Place(bot, place, points[bot], games[bot], moved))
            tables.append(tuple(places))
        out.append(Season(number, over, tuple(tables)))
    return out


def _settings(bots: Sequence[str], players: int, settings: Mapping[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(settings) - {"size", "move", "seasons"})
    if unknown:
        raise ValueError(f"divisions take size, move and seasons, not {', '.join(unknown)}")
    resolved = {"size": 4, "move": 1, "seasons": 2, **settings}
    for key in ("size", "move", "seasons"):
        if not isinstance(resolved[key], int) or resolved[key] < 1:
            raise ValueError(f"{key} is a whole number of 1 or more")
    if resolved["size"] < players:
        raise ValueError(f"a division of {resolved['size']} cannot fill tables of {players}")
    if len(bots) < resolved["size"]:
        raise ValueError(f"{len(bots)} bots cannot fill a division of {resolved['size']}")
    smallest = min(len(division) for division in split(bots, resolved["size"]))
    if 2 * resolved["move"] >= smallest:
        raise ValueError(f"move is less than half the smallest division ({smallest})")
    length = season_length(split(bots, resolved["size"]), players)
    return {**resolved, "season_rounds": length}


def _rounds(settings: Mapping[str, Any]) -> int | None:
    """Seasons times a season's rounds, once the settings are resolved against the field."""
    if "season_rounds" not in settings:
        return None
    return int(settings["seasons"]) * int(settings["season_rounds"])


def _plan(request: RoundRequest) -> list[LeagueTable]:
    settings = request.settings
    if "season_rounds" not in settings:
        settings = _settings(request.bots, request.players, settings)
    season, local = season_of(request.number, settings["season_rounds"])
    tables: list[LeagueTable] = []
    for index, division in enumerate(
        tiers(request.bots, request.players, settings, request.history, season)
    ):
        if local > cycle_length(len(division), request.players):
            continue
        seed = derive_seed(request.seed, "divisions", season, index)
        tables += as_tables(round_robin(division, request.players, seed)[local - 1].tables)
    return tables


FORMAT = LeagueFormat(
    "divisions",
    _plan,
    lambda _bots, _players: None,
    min_bots=2,
    settings=_settings,
    settings_rounds=_rounds,
)
