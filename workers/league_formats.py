"""League formats by name. Each format is registered explicitly, with how it plans a round and
how long it naturally runs, so adding one is one entry here (and its pure pairing function in
``workers.formats``); nothing else branches on a format's name.

Every round gets its own deal: table seeds are derived from the league seed, the round number
and the table, so no two tables of a league share one, however many rounds it runs.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.rng import derive_seed
from workers import formats, sprt
from workers.formats._common import least_used_seating

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
    accepts: Mapping[str, formats.Accepts] = field(default_factory=dict)
    """What each bot declared it accepts (table sizes, rated or casual, matches at once)."""
    provisional: frozenset[str] = frozenset()
    """Bots whose rating has not settled yet (new bots and versions)."""
    rated: bool = True


@dataclass(frozen=True)
class Progress:
    """What a format that can end early says after each round: ``state`` is shown as it is
    (JSON values), ``verdict`` set ends the league."""

    state: Mapping[str, Any]
    verdict: str | None = None


def _no_settings(bots: Sequence[str], players: int, settings: Mapping[str, Any]) -> dict[str, Any]:
    if settings:
        raise ValueError(f"this format takes no settings, not {', '.join(sorted(settings))}")
    return {}


@dataclass(frozen=True)
class LeagueFormat:
    name: str
    plan: Callable[[RoundRequest], list[Table]]
    natural_rounds: Callable[[int, int], int | None]
    """From (bots, seats per table): the format's natural length; None runs until stopped."""
    min_bots: int = 1
    swiss_byes: bool = False
    """Whether a bot left out of a round counts a bye in the standings."""
    endless: bool = False
    """Whether the format runs until stopped (no natural length at any table size)."""
    settings: Callable[[Sequence[str], int, Mapping[str, Any]], dict[str, Any]] = _no_settings
    """Checks (bots, seats, the operator's settings) and returns the settings with defaults."""
    progress: Callable[[Sequence[str], Groups, Mapping[str, Any]], Progress] | None = None
    """For a format that ends on its own: its state after a round, from the finished groups."""
    rated: bool = True
    """Whether its matches are rated unless the operator says otherwise."""
    settings_rounds: Callable[[Mapping[str, Any]], int | None] | None = None
    """The natural length from the resolved settings, where they decide it."""


def byes(bots: Sequence[str], history: History) -> list[str]:
    """Bots that sat out a round in which others played."""
    seated: dict[int, set[str]] = {}
    for number, seats, _ranks in history:
        seated.setdefault(number, set()).update(seats)
    return [bot for players in seated.values() for bot in bots if bot not in players]


def _tables(tables: Sequence[formats.Table]) -> list[Table]:
    return [Table(tuple(str(bot) for bot in t.seats), t.seed.hex(), t.group) for t in tables]


def _round_robin_round(request: RoundRequest) -> formats.Round:
    """Round ``number`` of one long schedule: past the first cycle the seating repeats its
    balance, but every round's tables have seeds of their own (a fresh deal)."""
    schedule = formats.round_robin(
        request.bots,
        request.players,
        derive_seed(request.seed, "round-robin"),
        rounds=request.number,
    )
    return schedule[request.number - 1]


def _round_seed(request: RoundRequest) -> bytes:
    return derive_seed(request.seed, "round", request.number)


def plan_solo(request: RoundRequest) -> list[Table]:
    """One-seat tables, whatever the format: every bot plays its own deal against the game's
    reference opponent each round, so there is nothing to pair."""
    return [
        Table((bot,), derive_seed(request.seed, "solo", request.number, index).hex())
        for index, bot in enumerate(request.bots)
    ]


def _plan_round_robin(request: RoundRequest) -> list[Table]:
    return _tables(_round_robin_round(request).tables)


def _plan_duplicate(request: RoundRequest) -> list[Table]:
    tables: list[Table] = []
    for index, group in enumerate(_round_robin_round(request).tables):
        label = f"r{request.number}g{index}"
        group_seed = derive_seed(request.seed, "duplicate", request.number, index)
        tables += _tables(formats.duplicate_tables(group.seats, group_seed, group=label))
    return tables


def _as_duplicate_groups(request: RoundRequest, tables: list[Table], kind: str) -> list[Table]:
    """Each planned table becomes a duplicate group of its bots: one deal, seats rotated."""
    grouped: list[Table] = []
    for index, table in enumerate(tables):
        label = f"r{request.number}g{index}"
        group_seed = derive_seed(request.seed, kind, request.number, index)
        grouped += _tables(formats.duplicate_tables(table.seats, group_seed, group=label))
    return grouped


def _plan_duplicate_swiss(request: RoundRequest) -> list[Table]:
    """Swiss pairing (on each group's one result so far), every table a duplicate group."""
    return _as_duplicate_groups(request, _plan_swiss(request), "duplicate-swiss")


def _plan_swiss(request: RoundRequest) -> list[Table]:
    results = [formats.MatchResult(seats, ranks) for _round, seats, ranks in request.history]
    skipped = byes(request.bots, request.history)
    points = {
        str(row.bot): round(float(row.points), 3)
        for row in formats.standings(results, bots=request.bots, byes=skipped)
    }
    met = [seats for _round, seats, _ranks in request.history]
    return _tables(
        formats.swiss_round(
            points, request.players, _round_seed(request), history=met, byes=skipped
        ).tables
    )


def _plan_gauntlet(request: RoundRequest) -> list[Table]:
    challenger, *field = request.bots
    return _tables(formats.gauntlet(challenger, field, request.players, _round_seed(request)))


def _plan_ladder(request: RoundRequest) -> list[Table]:
    games = Counter(bot for _round, seats, _ranks in request.history for bot in seats)
    entries = [
        formats.LadderEntry(
            bot,
            request.ratings.get(bot, 1500.0),
            games[bot],
            0,
            request.accepts.get(bot, formats.matchmaking.ANY),
            bot in request.provisional,
        )
        for bot in request.bots
        if bot not in request.resting
    ]
    batch = formats.matchmake(entries, request.players, _round_seed(request), rated=request.rated)
    # Seats rotate: each table is seated in the seats its bots have used least in the league.
    use: dict[tuple[formats.BotId, int], int] = Counter(
        (bot, seat) for _round, seats, _ranks in request.history for seat, bot in enumerate(seats)
    )
    return _tables(
        [
            formats.Table(least_used_seating(table.seats, use), table.seed, table.group)
            for table in batch.tables
        ]
    )


SPRT_DEFAULTS: dict[str, Any] = {
    "elo0": 0.0,
    "elo1": 10.0,
    "alpha": 0.05,
    "beta": 0.05,
    "pairs_per_round": 4,
    "max_pairs": 2000,
}


def _sprt_settings(
    bots: Sequence[str], players: int, settings: Mapping[str, Any]
) -> dict[str, Any]:
    """Two candidates, then exactly ``players - 2`` built-ins that fill the other seats."""
    unknown = set(settings) - set(SPRT_DEFAULTS)
    if unknown:
        raise ValueError(
            f"unknown sprt setting {', '.join(sorted(unknown))}; it takes"
            f" {', '.join(SPRT_DEFAULTS)}"
        )
    resolved = {**SPRT_DEFAULTS, **settings}
    try:
        sprt.SprtParams(
            float(resolved["elo0"]),
            float(resolved["elo1"]),
            float(resolved["alpha"]),
            float(resolved["beta"]),
        )
    except (TypeError, ValueError) as error:
        raise ValueError(f"sprt: {error}") from None
    for name in ("pairs_per_round", "max_pairs"):
        value = resolved[name]
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 100_000:
            raise ValueError(f"sprt: {name} is a whole number from 1 to 100000, not {value!r}")
    if len(bots) != players:
        raise ValueError(
            f"an sprt league lists the two bots to compare, then {players - 2} built-in"
            f" filler(s) for the other seats of a {players}-seat table ({len(bots)} given)"
        )
    fillers = bots[2:]
    if any(not bot.startswith("builtin:") for bot in fillers):
        raise ValueError("an sprt league fills the seats beyond the two compared with built-ins")
    for name in ("elo0", "elo1", "alpha", "beta"):
        resolved[name] = float(resolved[name])
    return resolved


def _sprt_params(settings: Mapping[str, Any]) -> sprt.SprtParams:
    merged = {**SPRT_DEFAULTS, **settings}
    return sprt.SprtParams(merged["elo0"], merged["elo1"], merged["alpha"], merged["beta"])


def _plan_sprt(request: RoundRequest) -> list[Table]:
    per_round = int({**SPRT_DEFAULTS, **request.settings}["pairs_per_round"])
    a, b, *fillers = request.bots
    return _tables(
        formats.sprt_pair_tables(
            a,
            b,
            fillers,
            derive_seed(request.seed, "sprt"),
            first_pair=(request.number - 1) * per_round,
            pairs=per_round,
        )
    )


def _sprt_rounds(settings: Mapping[str, Any]) -> int:
    merged = {**SPRT_DEFAULTS, **settings}
    return math.ceil(int(merged["max_pairs"]) / int(merged["pairs_per_round"]))


def _sprt_progress(bots: Sequence[str], groups: Groups, settings: Mapping[str, Any]) -> Progress:
    """The test so far over the whole pairs (a pair with a void table does not count: half a
    pair does not cancel the deal)."""
    a, b = bots[0], bots[1]
    scores = []
    for _group, tables in groups:
        if len(tables) != 2:
            continue
        games = []
        for seats, ranks in tables:
            games.append((ranks[seats.index(a)], ranks[seats.index(b)]))
        scores.append(sprt.pair_score(games[0], games[1]))
    params = _sprt_params(settings)
    now = sprt.state(sprt.pentanomial(scores), params)
    merged = {**SPRT_DEFAULTS, **settings}
    verdict = now.verdict
    if verdict is None and sum(now.pairs) >= int(merged["max_pairs"]):
        verdict = "inconclusive"
    estimate = sprt.elo_estimate(now.pairs)
    return Progress(
        state={
            "kind": "sprt",
            "a": a,
            "b": b,
            "elo0": params.elo0,
            "elo1": params.elo1,
            "alpha": params.alpha,
            "beta": params.beta,
            "pairs": list(now.pairs),
            "games": now.games,
            "score": now.score,
            "llr": round(now.llr, 6),
            "lower": round(now.lower, 6),
            "upper": round(now.upper, 6),
            "verdict": verdict,
            "max_pairs": int(merged["max_pairs"]),
            "elo": None if estimate is None else round(estimate.elo, 2),
            "elo_error": None
            if estimate is None or estimate.error is None
            else round(estimate.error, 2),
            "elo_low": None if estimate is None or estimate.low is None else round(estimate.low, 2),
            "elo_high": None
            if estimate is None or estimate.high is None
            else round(estimate.high, 2),
            "los": None if estimate is None else round(estimate.los, 4),
        },
        verdict=verdict,
    )


_FORMATS: dict[str, LeagueFormat] = {
    entry.name: entry
    for entry in (
        LeagueFormat("round-robin", _plan_round_robin, formats.cycle_length),
        LeagueFormat(
            "swiss",
            _plan_swiss,
            lambda bots, _players: max(1, math.ceil(math.log2(max(bots, 2)))),
            swiss_byes=True,
        ),
        LeagueFormat("gauntlet", _plan_gauntlet, lambda _bots, _players: 1, min_bots=2),
        LeagueFormat("ladder", _plan_ladder, lambda _bots, _players: None, endless=True),
        LeagueFormat("duplicate", _plan_duplicate, formats.cycle_length),
        LeagueFormat(
            "sprt",
            _plan_sprt,
            lambda _bots, _players: _sprt_rounds({}),
            min_bots=2,
            settings_rounds=_sprt_rounds,
            settings=_sprt_settings,
            progress=_sprt_progress,
            rated=False,
        ),
        LeagueFormat(
            "duplicate-swiss",
            _plan_duplicate_swiss,
            lambda bots, _players: max(1, math.ceil(math.log2(max(bots, 2)))),
            swiss_byes=True,
        ),
    )
}


def get(name: str) -> LeagueFormat:
    try:
        return _FORMATS[name]
    except KeyError:
        raise ValueError(f"unknown format {name!r}; choose from {', '.join(names())}") from None


def names() -> tuple[str, ...]:
    return tuple(_FORMATS)
