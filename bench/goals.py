"""Issue #15's goals: each is a ratio (figure / reference) that rows tagged with its key answer."""

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


GOALS: tuple[Goal, ...] = (
    Goal(
        "arbiter-throughput",
        "arbiter decisions/s, 16 matches, every move durable, vs echo at 16 streams",
        "0.10x",
        "≥ 0.35x",
        lambda r: r >= 0.35,
    ),
    Goal(
        "arbiter-cpu",
        "arbiter CPU per decision vs echo server CPU per message",
        "~9x",
        "≤ 3x",
        lambda r: r <= 3.0,
    ),
    Goal(
        "round-trip",
        "round trip p50, 1 match vs echo + one PostgreSQL commit",
        "≈ 1.2x",
        "≤ 1.2x (keep)",
        lambda r: r <= 1.2,
    ),
    Goal(
        "observation",
        "engine observation path vs OpenSpiel oh_hell info-state (Magic Trick / Movie Tricks)",
        "0.66x / 1.04x",
        "≥ 1.5x",
        lambda r: r >= 1.5,
    ),
    Goal(
        "playout",
        "engine random playout vs OpenSpiel oh_hell (Magic Trick / Movie Tricks)",
        "0.44x / 0.77x",
        "≥ 0.5x / keep",
        lambda r: r >= 0.5,
    ),
)


def table(rows: list[Row]) -> list[str]:
    """The goals table in Markdown, with this run's ratios and whether each goal is met."""
    lines = [
        "| figure | issue #15 (before) | goal | this run | met |",
        "| --- | --- | --- | --- | --- |",
    ]
    for goal in GOALS:
        found = [(item, ratio(item)) for item in rows if item.get("goal") == goal.key]
        measured = [r for _, r in found if r is not None]
        now = " / ".join(f"{r:.3g}x" for r in measured) or "not measured"
        met = ", ".join("yes" if goal.met(r) else "no" for r in measured) or "n/a"
        lines.append(f"| {goal.figure} | {goal.before} | {goal.goal} | {now} | {met} |")
    return lines
