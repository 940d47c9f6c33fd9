"""What the spectator pages show of bots and their authors beside the leaderboard: every bot
(``list_bots``), a bot's page (ratings, recent matches, faults, health) and an author's.

Read-only queries over the ladder's tables and, like the replays, the arbiter's match tables
(``docs/architecture.md``). Nothing here reveals what a running match hides: no seeds, no moves
of running matches, no fault details of running matches (a detail may name the card a bot
tried to play). The leagues' pages read ``spectator.leagues``, the running matches
``spectator.running``.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

import psycopg

from ladder import elo, queries
from ladder.metrics_snapshot import BEGUN
from ladder.queries import NotFound, _player_id
from ladder.store import BUILTIN_PREFIX, tuples
from spectator.events import division_history

Connection = psycopg.Connection[Any]


RECENT_MATCHES = 20


MAX_PAGE = 500


RECENT_FAULTS = 20


WINDOWS = (("day", datetime.timedelta(days=1)), ("week", datetime.timedelta(days=7)))


FAULT_KINDS = ("timeout", "illegal", "malformed", "disconnect")


@dataclass(frozen=True, slots=True)
class GameRating:
    game: str
    elo: float
    games: int
    history: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class RecentMatch:
    match_id: str
    game: str
    status: str
    seat: int
    seats: int
    rank: int | None
    score: int | None
    forfeited: bool
    finished_at: datetime.datetime | None
    players: tuple[str, ...]
    rated: bool
    """Created rated (a casual, validation or probation match is not)."""
    elo_before: float | None
    elo_after: float | None
    """The bot's live Elo on the game around this match, once the ladder rated it."""
    faults: dict[str, int]
    """Faults blamed on the bot in this match, by kind."""


@dataclass(frozen=True, slots=True)
class Fault:
    """A fault blamed on the bot in an ended match: where it happened, never its detail."""

    match_id: str
    game: str
    ply: int
    kind: str
    at: datetime.datetime


@dataclass(frozen=True, slots=True)
class Health:
    """A bot's faults and decision latency as the arbiter recorded them over one window."""

    window: str
    matches: int
    decisions: int
    faults: dict[str, int]
    forfeits: int
    latency_ms: dict[str, float | None]


@dataclass(frozen=True, slots=True)
class BotProfile:
    player: str
    builtin: bool
    registered_at: datetime.datetime | None
    last_connected_at: datetime.datetime | None
    removed: bool
    games_declared: tuple[str, ...] | None
    ratings: tuple[GameRating, ...]
    recent: tuple[RecentMatch, ...]
    health: tuple[Health, ...]
    standing: dict[str, Any] | None
    """validating, failed, rated, probation or disabled, since when, why, and its latest
    events (``ladder.queries.bot_standing``); None for a built-in."""
    versions: dict[str, Any] | None
    """Its family's versions (``ladder.queries.bot_versions``); None for a built-in or a
    removed bot."""
    faults: tuple[Fault, ...]
    page: int
    page_size: int
    has_more: bool
    account: str | None = None
    """The author's account that owns it (``operator`` for the operator's bots); None for a
    built-in."""
    version: str | None = None
    """The version this entry is, as the bot announced it in its Hello (None: none named)."""
    playing: int = 0
    """Matches it is seated at now: while it plays, it is connected, whatever the time of its
    last Hello."""
    hosting: dict[str, Any] | None = None
    """For a hosted version (an uploaded bundle the arena runs): its pool, starts, decisions
    and the kernel's count of its CPU time per decision; None for any other."""
    divisions: tuple[dict[str, Any], ...] = ()
    """Its seasons in divisions leagues (``spectator.events.division_history``): league,
    event, season, division, final place, and promoted, relegated or stayed."""


def bot_profile(
    conn: Connection, player: str, now: datetime.datetime | None = None, page: int = 0
) -> BotProfile:
    """A bot (or ``builtin:<name>``) by name: its standing, versions, ratings per game with
    their history, its matches (``page`` of them, newest first, each with its rating change
    and faults), its latest faults with their matches, and its health over the last day and
    week."""
    if not 0 <= page <= MAX_PAGE:
        raise queries.BadRequest(f"page is from 0 to {MAX_PAGE}")
    with conn.transaction():
        cur = tuples(conn)
        builtin = player.startswith(BUILTIN_PREFIX)
        if builtin:
            name = player.removeprefix(BUILTIN_PREFIX)
            seat_filter, key = "s.builtin = %s", name
            registered = connected = account = version = None
            removed, declared, hosted = False, None, False
            if not cur.execute(
                "SELECT 1 FROM match_seats WHERE builtin = %s LIMIT 1", (name,)
            ).fetchone():
                raise NotFound(f"no player {player[:80]!r}")
        else:
            row = cur.execute(
                "SELECT b.id, b.created_at, b.last_connected_at, b.removed_at IS NOT NULL,"
                " b.games, l.account, b.version, b.bundle_sha256 IS NOT NULL FROM bots b"
                " JOIN bot_lineage l ON l.name = b.name WHERE b.name = %s",
                (player,),
            ).fetchone()
            if row is None:
                raise NotFound(f"no bot {player[:80]!r}")
            bot_id, registered, connected, removed, games, account, version, hosted = row
            declared = tuple(games) if games is not None else None
            seat_filter, key = "s.bot_id = %s", bot_id
        ratings: list[GameRating] = []
        try:
            player_id, _ = _player_id(conn, player)
        except NotFound:
            player_id = None
        if player_id is not None:
            rows = cur.execute(
                "SELECT game, rating, games FROM ratings WHERE player_id = %s AND games > 0"
                " ORDER BY game",
                (player_id,),
            ).fetchall()
            for game, live, played in rows:
                points = cur.execute(
                    "SELECT after FROM (SELECT seq, after FROM rating_history"
                    " WHERE game = %s AND player_id = %s ORDER BY seq DESC LIMIT 200) h"
                    " ORDER BY seq",
                    (game, player_id),
                ).fetchall()
                ratings.append(GameRating(game, live, played, tuple(p for (p,) in points)))
        recent, more = _recent(cur, seat_filter, key, page)
        (playing,) = cur.execute(
            "SELECT count(*) FROM match_seats s JOIN matches m ON m.id = s.match_id"
            f" WHERE {seat_filter} AND m.status = 'running'",
            (key,),
        ).fetchone() or (0,)
        faults = _faults(cur, seat_filter, key)
        standing = versions = hosting = None
        if hosted:
            usage = cur.execute(
                "SELECT pool, starts, cpu_ms, decisions FROM hosted_usage WHERE bot_id = %s",
                (key,),
            ).fetchone()
            pool, starts, cpu_ms, decisions = usage or ("", 0, 0, 0)
            hosting = {
                "pool": pool,
                "starts": starts,
                "decisions": decisions,
                "cpu_ms_per_decision": round(cpu_ms / decisions, 2) if decisions else None,
            }
        if not builtin:
            standing = queries.bot_standing(conn, player, limit=10)
            try:
                versions = queries.bot_versions(conn, player, elo.DEFAULT_PARAMS)
            except NotFound:
                versions = None
        clock = cur.execute("SELECT now()").fetchone()
        moment = now or (clock[0] if clock else datetime.datetime.now(datetime.UTC))
        health = tuple(
            _health(cur, seat_filter, key, label, moment - span) for label, span in WINDOWS
        )
    return BotProfile(
        player=player,
        builtin=builtin,
        registered_at=registered,
        last_connected_at=connected,
        removed=removed,
        games_declared=declared,
        ratings=tuple(ratings),
        recent=recent,
        health=health,
        standing=standing,
        versions=versions,
        faults=faults,
        page=page,
        page_size=RECENT_MATCHES,
        has_more=more,
        account=account,
        version=version,
        playing=int(playing),
        hosting=hosting,
        divisions=() if builtin else tuple(division_history(conn, player)),
    )


def _recent(
    cur: Any, seat_filter: str, key: Any, page: int
) -> tuple[tuple[RecentMatch, ...], bool]:
    rows = cur.execute(
        "SELECT m.id, m.game, m.status, s.seat, m.players, m.outcome, s.forfeited,"
        " m.finished_at,"
        " (SELECT array_agg(coalesce(b.name, %s || o.builtin) ORDER BY o.seat)"
        "  FROM match_seats o LEFT JOIN bots b ON b.id = o.bot_id WHERE o.match_id = m.id),"
        " m.rated, h.before, h.after,"
        " (SELECT coalesce(jsonb_object_agg(k.kind, k.n), '{}') FROM (SELECT f.kind, count(*) n"
        "  FROM match_faults f WHERE f.match_id = m.id AND f.seat = s.seat AND f.blame = 'bot'"
        "  GROUP BY f.kind) k)"
        " FROM match_seats s JOIN matches m ON m.id = s.match_id"
        " LEFT JOIN rating_history h ON h.match_id = m.id AND h.seat = s.seat"
        f" WHERE {seat_filter} AND m.status <> 'pending'"
        " ORDER BY coalesce(m.finished_at, m.started_at, m.created_at) DESC, m.id, s.seat"
        " LIMIT %s OFFSET %s",
        (BUILTIN_PREFIX, key, RECENT_MATCHES + 1, page * RECENT_MATCHES),
    ).fetchall()
    recent = []
    for row in rows[:RECENT_MATCHES]:
        (match_id, game, status, seat, seats, outcome, forfeited, finished, players) = row[:9]
        rated, before, after, kinds = row[9:]
        ended = status == "finished" and outcome is not None
        ranks = outcome.get("ranks") or [] if ended else []
        scores = outcome.get("scores") or [] if ended else []
        recent.append(
            RecentMatch(
                match_id=str(match_id),
                game=game,
                status=status,
                seat=seat,
                seats=seats,
                rank=int(ranks[seat]) if seat < len(ranks) else None,
                score=int(scores[seat]) if seat < len(scores) else None,
                forfeited=bool(forfeited),
                finished_at=finished,
                players=tuple(players or ()),
                rated=bool(rated),
                elo_before=None if before is None else float(before),
                elo_after=None if after is None else float(after),
                faults={str(k): int(n) for k, n in sorted((kinds or {}).items())},
            )
        )
    return tuple(recent), len(rows) > RECENT_MATCHES


def _faults(cur: Any, seat_filter: str, key: Any) -> tuple[Fault, ...]:
    """The latest faults blamed on the player, in ended matches only (a running match's
    faults would say where it stands)."""
    rows = cur.execute(
        "SELECT f.match_id, m.game, f.ply, f.kind, f.at"
        " FROM match_seats s JOIN matches m ON m.id = s.match_id"
        " JOIN match_faults f ON f.match_id = s.match_id AND f.seat = s.seat"
        f" WHERE {seat_filter} AND f.blame = 'bot' AND m.status IN ('finished', 'void')"
        " ORDER BY f.at DESC, f.id DESC LIMIT %s",
        (key, RECENT_FAULTS),
    ).fetchall()
    return tuple(
        Fault(str(match_id), game, int(ply), kind, at) for match_id, game, ply, kind, at in rows
    )


def health_queries(seat_filter: str) -> tuple[str, str, str]:
    """A player's seats, moves (latency) and faults over matches begun since a moment; each
    takes the player's key (``seat_filter``'s one parameter) and the moment."""
    seats = "FROM match_seats s JOIN matches m ON m.id = s.match_id"
    where = f" WHERE {seat_filter} AND {BEGUN} >= %s"
    return (
        f"SELECT count(*), count(*) FILTER (WHERE s.forfeited) {seats}{where}",
        "SELECT count(*),"
        " percentile_cont(0.5) WITHIN GROUP (ORDER BY mv.elapsed_ms),"
        " percentile_cont(0.9) WITHIN GROUP (ORDER BY mv.elapsed_ms),"
        " percentile_cont(0.99) WITHIN GROUP (ORDER BY mv.elapsed_ms),"
        f" max(mv.elapsed_ms) {seats}"
        f" JOIN match_moves mv ON mv.match_id = s.match_id AND mv.seat = s.seat{where}",
        f"SELECT f.kind, count(*) {seats}"
        f" JOIN match_faults f ON f.match_id = s.match_id AND f.seat = s.seat{where}"
        " AND f.blame = 'bot' GROUP BY f.kind",
    )


def _health(cur: Any, seat_filter: str, key: Any, label: str, since: datetime.datetime) -> Health:
    """Decisions and latency come from the move log (``elapsed_ms``, the time the arbiter
    waited for the answer), faults from the fault log, over matches started since ``since``.
    Kinds and counts only: a fault's detail stays private (``docs/security.md``)."""
    seats_sql, moves_sql, faults_sql = health_queries(seat_filter)
    matches, forfeits = cur.execute(seats_sql, (key, since)).fetchone()
    decisions, p50, p90, p99, worst = cur.execute(moves_sql, (key, since)).fetchone()
    kinds = dict(cur.execute(faults_sql, (key, since)).fetchall())
    faults = {kind: int(kinds.pop(kind, 0)) for kind in FAULT_KINDS}
    faults.update({str(kind): int(count) for kind, count in kinds.items()})
    return Health(
        window=label,
        matches=int(matches),
        decisions=int(decisions),
        faults=faults,
        forfeits=int(forfeits),
        latency_ms={
            "p50": _ms(p50),
            "p90": _ms(p90),
            "p99": _ms(p99),
            "max": _ms(worst),
        },
    )


def _ms(value: Any) -> float | None:
    return None if value is None else round(float(value), 1)


@dataclass(frozen=True, slots=True)
class BotEntry:
    player: str
    builtin: bool
    version: str | None
    active: bool
    standing: str | None
    """validating, failed, rated, probation or disabled; None before it first connects (and
    for a built-in)."""
    last_connected_at: datetime.datetime | None
    ratings: dict[str, dict[str, float | int]]
    """Live Elo and rated games per game."""
    account: str | None = None
    """The account that owns it; None for a built-in."""


MAX_LISTED_BOTS = 1000


def list_bots(conn: Connection, account: str | None = None) -> tuple[BotEntry, ...]:
    """Every registered bot and version not removed (by family, oldest version first), then
    the built-ins that have played a rated match, each with its standing and live ratings;
    with ``account``, that account's bots only."""
    with conn.transaction():
        cur = tuples(conn)
        rated: dict[str, dict[str, dict[str, float | int]]] = {}
        for player, game, rating, games in cur.execute(
            "SELECT player, game, rating, games FROM ladder_ratings WHERE games > 0"
            " ORDER BY player, game"
        ).fetchall():
            rated.setdefault(player, {})[game] = {"elo": float(rating), "games": int(games)}
        rows = cur.execute(
            "SELECT l.name, l.version, l.active, s.state, b.last_connected_at, l.account"
            " FROM bot_lineage l JOIN bots b ON b.name = l.name"
            " LEFT JOIN bot_standing_public s ON s.bot = l.name"
            " WHERE NOT l.removed AND (%s::text IS NULL OR l.account = %s)"
            " ORDER BY l.family, l.created_at, l.name LIMIT %s",
            (account, account, MAX_LISTED_BOTS),
        ).fetchall()
    bots = [
        BotEntry(name, False, version, bool(active), state, connected, rated.get(name, {}), owner)
        for name, version, active, state, connected, owner in rows
    ]
    if account is None:
        bots.extend(
            BotEntry(player, True, None, True, None, None, ratings)
            for player, ratings in sorted(rated.items())
            if player.startswith(BUILTIN_PREFIX)
        )
    return tuple(bots)


@dataclass(frozen=True, slots=True)
class AuthorProfile:
    name: str
    state: str
    created_at: datetime.datetime
    bots: tuple[BotEntry, ...]
    """Its bots and their versions (not removed), each with its standing and live ratings."""
    matches: int = 0
    """Finished matches any of its bots played."""
    wins: int = 0
    """Of those, the ones a bot of its finished first in (a shared first place counts)."""
    recent: tuple[dict[str, Any], ...] = ()
    """Its bots' latest matches, newest first: id, game, status, when, players."""
    leagues: tuple[dict[str, Any], ...] = ()
    """Leagues any of its bots is in, newest first: name, game, format, status."""


AUTHOR_RECENT = 10


AUTHOR_LEAGUES = 20


def author_profile(conn: Connection, name: str) -> AuthorProfile:
    """An author's account as anyone may see it: its name, state, bots, totals, latest
    matches and leagues (never a token)."""
    cur = tuples(conn)
    row = cur.execute(
        "SELECT name, state, created_at FROM accounts WHERE name = %s", (name,)
    ).fetchone()
    if row is None:
        raise NotFound(f"no author {name[:80]!r}")
    owned = cur.execute(
        "SELECT b.id, b.name FROM bots b JOIN bot_lineage l ON l.name = b.name"
        " WHERE l.account = %s",
        (name,),
    ).fetchall()
    ids = [bot_id for bot_id, _ in owned]
    names = [bot for _, bot in owned]
    played = cur.execute(
        "SELECT count(DISTINCT m.id),"
        " count(DISTINCT m.id) FILTER (WHERE (m.outcome->'ranks'->>s.seat)::int = 1)"
        " FROM match_seats s JOIN matches m ON m.id = s.match_id"
        " WHERE s.bot_id = ANY(%s) AND m.status = 'finished'",
        (ids,),
    ).fetchone() or (0, 0)
    recent = cur.execute(
        "SELECT m.id, m.game, m.status, coalesce(m.finished_at, m.created_at),"
        " ARRAY(SELECT coalesce(b.name, %s || s.builtin) FROM match_seats s"
        "       LEFT JOIN bots b ON b.id = s.bot_id WHERE s.match_id = m.id ORDER BY s.seat)"
        " FROM matches m WHERE m.id IN (SELECT match_id FROM match_seats WHERE bot_id = ANY(%s))"
        " AND m.status <> 'pending' ORDER BY coalesce(m.finished_at, m.created_at) DESC LIMIT %s",
        (BUILTIN_PREFIX, ids, AUTHOR_RECENT),
    ).fetchall()
    leagues = cur.execute(
        "SELECT name, game, format, status FROM leagues WHERE bots && %s::text[]"
        " ORDER BY created_at DESC LIMIT %s",
        (names, AUTHOR_LEAGUES),
    ).fetchall()
    return AuthorProfile(
        row[0],
        row[1],
        row[2],
        list_bots(conn, name),
        matches=int(played[0]),
        wins=int(played[1]),
        recent=tuple(
            {"match_id": str(m), "game": g, "status": s, "at": at, "players": list(p)}
            for m, g, s, at, p in recent
        ),
        leagues=tuple({"name": n, "game": g, "format": f, "status": s} for n, g, f, s in leagues),
    )
