"""What the ladder's Prometheus collector (``ladder.metrics.PlayerCollector``) exports, read
from the database in one transaction: rated matches and players per game, the best players'
live Elo, and their faults and decision times over the last day."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import psycopg

from ladder.store import BUILTIN_PREFIX, tuples

Connection = psycopg.Connection[Any]

BEGUN = "coalesce(m.started_at, m.created_at)"
"""When a match began, as the health windows count it: the expression of the index
``matches_begun`` (migration 0013), which these queries need to read only the window's matches."""


@dataclass(frozen=True, slots=True)
class PlayerMetrics:
    game: str
    player: str
    rating: float
    games: int


@dataclass(frozen=True, slots=True)
class MetricsSnapshot:
    """What ``ladder.metrics.PlayerCollector`` exports. Bounded: at most ``top`` players per
    game (best live Elo first), and faults and latency only for those players."""

    games: tuple[tuple[str, int, int], ...]  # (game, rated matches, rated players)
    players: tuple[PlayerMetrics, ...]
    faults: tuple[tuple[str, str, int], ...]  # (player, kind, count over the last day)
    latency_ms: tuple[tuple[str, str, float], ...]  # (player, quantile, ms over the last day)


def metrics_snapshot(conn: Connection, top: int) -> MetricsSnapshot:
    with conn.transaction():
        cur = tuples(conn)
        counts = cur.execute(
            "SELECT l.game, l.last_seq - l.voided,"
            " (SELECT count(*) FROM ratings r WHERE r.game = l.game AND r.games > 0)"
            " FROM ladders l ORDER BY l.game"
        ).fetchall()
        rows = cur.execute(
            "SELECT game, player, rating, games, bot_id, builtin FROM ("
            " SELECT r.game, coalesce(b.name, %s || p.builtin) AS player, r.rating, r.games,"
            " p.bot_id, p.builtin,"
            " row_number() OVER (PARTITION BY r.game ORDER BY r.rating DESC, r.player_id) AS n"
            " FROM ratings r JOIN ladder_players p ON p.id = r.player_id"
            " LEFT JOIN bots b ON b.id = p.bot_id WHERE r.games > 0) ranked"
            " WHERE n <= %s ORDER BY game, rating DESC",
            (BUILTIN_PREFIX, top),
        ).fetchall()
        bots = sorted({bot_id for *_, bot_id, _ in rows if bot_id is not None})
        builtins = sorted({builtin for *_, builtin in rows if builtin is not None})
        recent = (
            "FROM match_seats s JOIN matches m ON m.id = s.match_id"
            " LEFT JOIN bots b ON b.id = s.bot_id"
            " WHERE (s.bot_id = ANY(%s) OR s.builtin = ANY(%s))"
            f" AND {BEGUN} >= now() - interval '1 day'"
        )
        name = "coalesce(b.name, %s || s.builtin)"
        fault_join = "JOIN match_faults f ON f.match_id = s.match_id AND f.seat = s.seat WHERE"
        move_join = "JOIN match_moves mv ON mv.match_id = s.match_id AND mv.seat = s.seat WHERE"
        faults = cur.execute(
            f"SELECT {name}, f.kind, count(*) {recent.replace('WHERE', fault_join, 1)}"
            " AND f.blame = 'bot' GROUP BY 1, 2 ORDER BY 1, 2",
            (BUILTIN_PREFIX, bots, builtins),
        ).fetchall()
        latency = cur.execute(
            f"SELECT {name},"
            " percentile_cont(0.5) WITHIN GROUP (ORDER BY mv.elapsed_ms),"
            " percentile_cont(0.9) WITHIN GROUP (ORDER BY mv.elapsed_ms),"
            " percentile_cont(0.99) WITHIN GROUP (ORDER BY mv.elapsed_ms)"
            f" {recent.replace('WHERE', move_join, 1)}"
            " GROUP BY 1 ORDER BY 1",
            (BUILTIN_PREFIX, bots, builtins),
        ).fetchall()
    return MetricsSnapshot(
        games=tuple((game, int(rated), int(players)) for game, rated, players in counts),
        players=tuple(
            PlayerMetrics(game, player, float(rating), int(games))
            for game, player, rating, games, _, _ in rows
        ),
        faults=tuple((player, kind, int(count)) for player, kind, count in faults),
        latency_ms=tuple(
            (player, quantile, float(value))
            for player, *values in latency
            for quantile, value in zip(("0.5", "0.9", "0.99"), values, strict=True)
            if value is not None
        ),
    )
