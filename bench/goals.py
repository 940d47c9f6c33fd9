"""Issue #28's goals (and #29's for the search levels): each is answered by the rows tagged
with its key, either by their ratio (figure / reference) or by the figure itself."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bench.rows import Row, ratio


@dataclass(frozen=True)
class Goal:
    key: str
    figure: str
    before: str
    goal: str
    met: Callable[[float], bool]
    unit: str = "x"
    """"x": the goal is on the row's ratio; "+": on the figure minus the reference (a reference
    that can be zero); any other unit: on its figure, in that unit."""


GOALS: tuple[Goal, ...] = (
    Goal(
        "hosted-start",
        "hosted Python bot: sandbox start to first decision, p50 (issue #40)",
        "not measured",
        "≤ 100 ms",
        lambda v: v <= 100,
        unit="ms",
    ),
    Goal(
        "hosted-round-trip",
        "hosted bot's decision round trip vs the same bot dialling in over TCP (issue #40)",
        "not measured",
        "≤ 1.1x",
        lambda r: r <= 1.1,
    ),
    Goal(
        "hosted-many",
        "50 hosted bots in concurrent matches: arbiter decisions/s vs 50 dial-in bots (#40)",
        "not measured",
        "≥ 0.9x",
        lambda r: r >= 0.9,
    ),
    Goal(
        "arbiter-throughput",
        "arbiter decisions/s, 16 matches, every move durable, vs echo at 16 streams",
        "0.119x",
        "≥ 0.35x",
        lambda r: r >= 0.35,
    ),
    Goal(
        "arbiter-cpu",
        "arbiter CPU per decision vs echo server CPU per message, 16 matches",
        "8.3x",
        "≤ 3x",
        lambda r: r <= 3.0,
    ),
    Goal(
        "round-trip",
        "round trip p50, 1 match vs echo + one PostgreSQL commit",
        "1.93x",
        "≤ 1.2x",
        lambda r: r <= 1.2,
    ),
    Goal(
        "observation",
        "engine observation path vs OpenSpiel oh_hell info-state (Magic Trick / Movie Tricks)",
        "1.39x / 1.33x",
        "≥ 1.5x",
        lambda r: r >= 1.5,
    ),
    Goal(
        "playout",
        "engine random playout vs OpenSpiel oh_hell (Magic Trick / Movie Tricks)",
        "0.40x / 0.42x",
        "≥ 0.5x",
        lambda r: r >= 0.5,
    ),
    Goal(
        "research-adapter",
        "random playout through the OpenSpiel adapter vs the engine's own, decisions per CPU-s"
        " (Magic Trick / Motion Pictures / Movie Fight / Movie Trailer / Movie Tricks, #45)",
        "0.32x / 0.48x / 0.51x / 0.16x / 0.29x",
        "≥ 0.5x",
        lambda r: r >= 0.5,
    ),
    Goal(
        "research-ismcts",
        "OpenSpiel's ISMCTS through the adapter vs a random seat in its place, mean score of"
        " the seat, same deals (Magic Trick / Motion Pictures / Movie Fight / Movie Trailer /"
        " Movie Tricks, #45; `make bench-search`)",
        "won 20 of 20 three-seat Movie Tricks matches (one game)",
        "> +0 (score above random's)",
        lambda d: d > 0,
        unit="+",
    ),
    Goal(
        "league-round",
        "league round to last match rated vs the same tables on the arbiter alone",
        "0.37x",
        "≥ 0.8x",
        lambda r: r >= 0.8,
    ),
    Goal(
        "ladder-cold",
        "ladder standings cold start, 1,000,000 stored matches",
        "12.6 s",
        "≤ 2 s",
        lambda v: v <= 2.0,
        unit="s",
    ),
    Goal(
        "ladder-warm",
        "ladder warm refit after 1,000 new matches on that ladder",
        "3.1 s",
        "≤ 0.5 s",
        lambda v: v <= 0.5,
        unit="s",
    ),
    Goal(
        "ladder-rate",
        "rating the queue, per match, on that ladder",
        "2.9 ms",
        "≤ 1 ms",
        lambda v: v <= 1.0,
        unit="ms",
    ),
    Goal(
        "ladder-rest",
        "standings at rest vs an independent whole-log fit, 1,000,000 stored matches",
        "up to 7 points",
        "≤ 0.01 points",
        lambda v: v <= 0.01,
        unit="points",
    ),
    Goal(
        "thousand-throughput",
        "1,000 concurrent matches on one arbiter: decisions/s while all are live vs 64 matches,"
        " same run (#44)",
        "not measured",
        "≥ 0.9x",
        lambda r: r >= 0.9,
    ),
    Goal(
        "thousand-starved",
        "1,000 matches: decisions whose round trip took over a tenth of their move clock",
        "not measured",
        "0",
        lambda v: v == 0,
        unit="decisions",
    ),
    Goal(
        "thousand-finished",
        "1,000 matches: matches finished of matches created",
        "not measured",
        "1x",
        lambda r: r >= 1.0,
    ),
    Goal(
        "thousand-match-memory",
        "arbiter memory per live match (RSS delta, 1,000 live matches)",
        "not measured",
        "≤ 64 KiB",
        lambda v: v <= 64,
        unit="KiB",
    ),
    Goal(
        "thousand-stream-memory",
        "arbiter memory per connected idle bot stream (RSS delta, 2,000 streams)",
        "not measured",
        "≤ 32 KiB",
        lambda v: v <= 32,
        unit="KiB",
    ),
    Goal(
        "capacity-holds",
        "arbiter CPU per decision, three arbiters (relay) vs one, same run",
        "not measured",
        "≤ 1.25x",
        lambda r: r <= 1.25,
    ),
    Goal(
        "placement-throughput",
        "two arbiters, matches created on the one without the bots: decisions/s vs one"
        " arbiter (#44), 1 / 8 matches",
        "0.49x / 0.49x",
        "≥ 0.85x",
        lambda r: r >= 0.85,
    ),
    Goal(
        "placement-overhead",
        "two arbiters: routing overhead per decision, p50 (#44), 1 / 8 matches",
        "0.95 / 3.9 ms",
        "≤ 0.3 ms",
        lambda v: v <= 0.3,
        unit="ms",
    ),
    Goal(
        "ladder10m-cold",
        "ladder standings cold start, 10,000,000 stored matches",
        "not measured",
        "≤ 1 s",
        lambda v: v <= 1.0,
        unit="s",
    ),
    Goal(
        "ladder10m-board",
        "ladder leaderboard query, 10,000,000 stored matches",
        "not measured",
        "≤ 20 ms",
        lambda v: v <= 20,
        unit="ms",
    ),
    Goal(
        "ladder10m-rest",
        "standings at rest vs an independent whole-log fit, 10,000,000 stored matches",
        "not measured",
        "≤ 0.01 points",
        lambda v: v <= 0.01,
        unit="points",
    ),
    Goal(
        "ladder10m-rate",
        "rating the queue, per match, 10,000,000 stored matches",
        "not measured",
        "≤ 0.3 ms",
        lambda v: v <= 0.3,
        unit="ms",
    ),
    Goal(
        "search-elo",
        "search:1000 over heuristic, Elo (issue #29), per game",
        "-61 .. +436",
        "≥ +150",
        lambda v: v >= 150,
        unit="Elo",
    ),
    Goal(
        "knockout-luck",
        "strongest of four built-ins wins ≥ 90% of knockouts in every game where its edge over"
        " the next is ≥ +150 Elo (default heat length; bench.knockout_luck), per such game",
        "not measured",
        "≥ 90%",
        lambda v: v >= 90,
        unit="%",
    ),
    Goal(
        "search-cpu",
        "search:1000 CPU per decision (issue #29), per game",
        "0.22 .. 0.56 s",
        "≤ 1000 ms",
        lambda v: v <= 1000,
        unit="ms",
    ),
)


def _answer(goal: Goal, item: Row) -> float | None:
    if goal.unit == "x":
        return ratio(item)
    if goal.unit == "+":
        value, reference = item.get("value"), item.get("reference_value")
        if isinstance(value, int | float) and isinstance(reference, int | float):
            return float(value) - float(reference)
        return None
    value = item.get("value")
    return float(value) if isinstance(value, int | float) else None


def _text(goal: Goal, value: float) -> str:
    if goal.unit == "+":
        return f"{value:+.3g}"
    return f"{value:.3g}x" if goal.unit == "x" else f"{value:.3g} {goal.unit}"


def table(rows: list[Row]) -> list[str]:
    """The goals table in Markdown, with the measured answers (each module's last run) and
    whether each goal is met."""
    lines = [
        "| figure | before | goal | measured | met |",
        "| --- | --- | --- | --- | --- |",
    ]
    for goal in GOALS:
        answers = [_answer(goal, item) for item in rows if item.get("goal") == goal.key]
        measured = [a for a in answers if a is not None]
        now = " / ".join(_text(goal, a) for a in measured) or "not measured"
        met = ", ".join("yes" if goal.met(a) else "no" for a in measured) or "n/a"
        lines.append(f"| {goal.figure} | {goal.before} | {goal.goal} | {now} | {met} |")
    return lines
