"""What the ladder shows: leaderboards, rating histories, recent matches and replays.

Plain functions over a psycopg connection, returning frozen dataclasses that the gRPC service and
the JSON API both render. The official standings come from ``StandingsCache``, which refits a
game's Plackett-Luce standings from the rating history whenever the ladder has moved: a few
new matches are folded into the previous fit (``ladder.standings.fold``), more than a small
share of the log extend the compiled log and refit it exactly, warm-started from the previous
strengths; a voided match (the ladder's ``generation`` changes) recompiles the whole log. Fits
are kept in PostgreSQL (``ladder.snapshots``), so a restarted ladder starts from the last one.
"""

from __future__ import annotations

import dataclasses
import datetime
import logging
import threading
import time
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import psycopg

from ladder import elo, paging, published, scale, seats, snapshots
from ladder.errors import BadRequest, NotFound
from ladder.metrics import STANDINGS_FIT_SECONDS
from ladder.seats import SeatTable
from ladder.standings import (
    DEFAULT_PARAMS,
    MatchLog,
    Standings,
    StandingsParams,
    compile_log,
    default_anchor,
    extend_log,
    fit,
    fold,
)
from ladder.store import BUILTIN_PREFIX, pins_of, reference_ratings, tuples
from premiere_wire.convert import kind_field

__all__ = [
    "BadRequest",
    "HistoryPoint",
    "Interval",
    "Leaderboard",
    "LeaderboardEntry",
    "MatchPage",
    "MatchResult",
    "NotFound",
    "RatingHistory",
    "Replay",
    "SeatResult",
    "StandingsCache",
    "bot_standing",
    "bot_versions",
    "history_matches",
    "leaderboard",
    "league_progress",
    "leagues_of",
    "list_matches",
    "rating_history",
    "replay",
    "seat_advantage",
]

Connection = psycopg.Connection[Any]


@dataclass(frozen=True, slots=True)
class Interval:
    """An official standing: the estimate and its confidence interval, on the Elo scale."""

    rating: float
    low: float
    high: float
    stderr: float


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    rank: int
    player: str
    builtin: bool
    elo: float
    games: int
    provisional: bool
    standing: Interval | None
    last_played: datetime.datetime
    reference: bool = False
    """A built-in of fixed rating (a solo match's opponent): its Elo never moves."""
    anchor: bool = False
    """A built-in the operator pinned at its rating (docs/ratings.md, "Anchors"): its Elo never
    moves, and the standings are on the scale the anchors' pins set."""
    hosted: bool = False
    """A hosted version: an uploaded program the arena runs in its sandbox (docs/hosting.md)."""


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """A game's ladder, best official standing first. ``standings_matches`` is the number of
    matches the standings were fitted on (the rated matches at the time of the fit)."""

    game: str
    rated_matches: int
    standings_matches: int
    entries: tuple[LeaderboardEntry, ...]
    scale_moves: tuple[scale.ScaleMove, ...] = ()
    """The moves of the standings' scale in the last day (``ladder.scale``), oldest first."""
    next: str = ""
    """The cursor of the entries after these (empty: none; ``board_page``)."""


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    match_id: str
    seq: int
    applied_at: datetime.datetime
    seat: int
    rank: int
    seats: int
    before: float
    after: float
    delta: float
    games: int
    opponents: tuple[str, ...] = ()
    """The other players of the match, by seat."""


@dataclass(frozen=True, slots=True)
class RatingHistory:
    """A player's live Elo after each of its rated matches on one game, oldest first."""

    game: str
    player: str
    builtin: bool
    points: tuple[HistoryPoint, ...]
    next: str = ""
    """The cursor of the older points before these (empty: none)."""


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of a listed match; the rating fields are set for seats that were rated."""

    seat: int
    player: str
    builtin: bool
    score: int
    rank: int
    forfeited: bool
    rating_before: float | None
    rating_delta: float | None
    rated: bool
    """Whether this seat was rated (a bot seated twice is rated on its first seat only)."""


@dataclass(frozen=True, slots=True)
class MatchResult:
    match_id: str
    game: str
    finished_at: datetime.datetime
    seats: tuple[SeatResult, ...]
    outcome: Mapping[str, Any]
    rated: bool
    seq: int | None
    replay_path: str
    created_rated: bool = True
    """Whether the match was created rated: False for a casual challenge, a validation match,
    a table with a bot not in rated play (``unrated_reason`` says which); a match created rated
    reads ``rated`` False only until the ladder has rated it."""
    unrated_reason: str | None = None


@dataclass(frozen=True, slots=True)
class MatchPage:
    """Finished matches, most recent first; pass ``next_page_token`` back for the next page
    (empty when there is none)."""

    matches: tuple[MatchResult, ...]
    next_page_token: str


@dataclass(frozen=True, slots=True)
class Replay:
    """Everything needed to re-execute an ended match: (game, options, players, seed, moves)."""

    match_id: str
    game: str
    status: str
    options: Mapping[str, Any]
    players: tuple[str, ...]
    seed: str
    outcome: Mapping[str, Any] | None
    moves: tuple[Mapping[str, Any], ...]
    """Each decision: ply, seat, move, defaulted, and ``forced``, the moves the engine applied
    on its own right after it (``[{seat, move}]``; null for a move logged before the log kept
    them)."""
    forced_at_start: tuple[Mapping[str, Any], ...] | None = None
    """The moves the engine applied on its own at set-up (null: not kept)."""


def replay_path(match_id: str) -> str:
    """Where the JSON API serves a match's replay; the arbiter's MatchService.GetReplay serves
    the same record over gRPC."""
    return f"/api/matches/{match_id}/replay"


# --- standings ------------------------------------------------------------------------------


log = logging.getLogger("premiere.ladder")


@dataclass(frozen=True, slots=True)
class _Fitted:
    generation: int
    last_seq: int
    exact_seq: int
    log: MatchLog[int] | None
    """The compiled log up to ``exact_seq`` when this process compiled it; None after a start
    from a stored snapshot (an exact refit then reads the whole log)."""
    standings: Standings[int]
    seconds: float
    finished: float
    saved: float
    """When this process last stored the game's fit (``time.monotonic``), or started from it."""
    pins: Mapping[int, float] = dataclasses.field(default_factory=dict)
    """The pinned players (ladder player id -> rating) the standings are anchored on."""
    stored: tuple[int, int] = (-1, -1)
    """The (generation, last_seq) of the stored copy this process last wrote or read."""


class StandingsCache:
    """The last official standings of each game, refitted when the ladder has moved.

    Safe to share between threads: one fit per game at a time, and callers asking meanwhile
    wait for it and share its result. ``standings`` is always current; a server answers
    requests with ``latest`` (never waits for a refit once a game has been fitted) and keeps
    the fits current with ``refresh`` from a background loop.

    How a game moves on: matches rated since the last fit are folded into it while the matches
    folded since the last whole-log fit stay within ``exact_share`` of the log; past that, and
    after a void, the log is refitted exactly. A cache that has no fit of a game yet starts
    from the stored one (``ladder.snapshots``) and folds in only what was rated after it.

    What is stored, and when: a whole-log fit as soon as it is made (it took seconds to
    minutes; storing it is a small part of that); a folded fit only from ``refresh``, the
    background loop, at most every ``save_interval_s`` (``save``), never on a refit a request
    waits for: it is 8 MB on a 1,000-bot ladder. A fit that was never stored costs nothing but
    time: a restart folds in the matches since the stored one instead.
    """

    def __init__(
        self,
        params: StandingsParams = DEFAULT_PARAMS,
        exact_share: float = 0.05,
        save_interval_s: float = 30.0,
        exact_after_s: float = 10.0,
    ) -> None:
        self.params = params
        self.exact_share = exact_share
        self.save_interval_s = save_interval_s
        self.exact_after_s = exact_after_s
        self._fits: dict[str, _Fitted] = {}
        self._scales: dict[str, frozenset[int]] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def _lock(self, game: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(game, threading.Lock())

    def standings(self, conn: Connection, game: str, exact: bool = False) -> Standings[int]:
        """The standings of ``game`` over every rated match committed so far, keyed by player
        id; refits first if the ladder moved since the last fit. With ``exact``, a fit that
        folded matches in is replaced by a whole-log fit."""
        with self._lock(game):
            started = time.perf_counter()
            fitted, start = self._fit(conn, game, exact)
            if start is None:
                return fitted.standings
            return self._keep(conn, game, fitted, start, started).standings

    def _fit(self, conn: Connection, game: str, exact: bool = False) -> tuple[_Fitted, str | None]:
        """The game's fit as of now, and how it was made (None: the kept one was current)."""
        with conn.transaction():
            cur = tuples(conn)
            # One snapshot for the ladder's counters and the history rows they describe.
            cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            row = cur.execute(
                "SELECT generation, last_seq FROM ladders WHERE game = %s", (game,)
            ).fetchone()
            generation, last_seq = row if row is not None else (0, 0)
            pins = {player: rating for (_, player), rating in pins_of(cur, [game]).items()}
            cached = self._fits.get(game)
            warm: Mapping[int, float] | None = None
            if cached is None:
                restarted, warm = self._restart(conn, game, generation, last_seq, pins)
                if restarted is not None:
                    return restarted, "snapshot"
            reanchored = cached is not None and cached.pins != pins
            if cached is not None and reanchored:
                cached = self._reanchored(cached, pins)
            if (
                cached is not None
                and (cached.generation, cached.last_seq) == (generation, last_seq)
                and not (exact and cached.exact_seq < last_seq)
            ):
                return cached, ("anchors" if reanchored else None)
            current = cached is not None and cached.generation == generation
            if (
                cached is not None
                and current
                and cached.standings.posterior is not None  # None: the fit of an empty ladder
                and not exact
                and self._foldable(cached.exact_seq, last_seq)
            ):
                standings = fold(
                    cached.standings.posterior,
                    history_matches(conn, game, cached.last_seq, last_seq),
                    self.params,
                    anchor=pins,
                )
                fitted = dataclasses.replace(cached, last_seq=last_seq, standings=standings)
                return fitted, "fold"
            if cached is not None and current and cached.log is not None:
                start = "warm"
                matches = extend_log(
                    cached.log, history_matches(conn, game, cached.exact_seq, last_seq)
                )
            else:
                start = "cold"
                matches = compile_log(history_matches(conn, game, 0, last_seq))
        if cached is not None:
            warm = cached.standings.log_strengths
        standings = fit(matches, self.params, warm_start=warm, anchor=pins)
        stored_mark = cached.stored if cached is not None else (-1, -1)
        fitted = _Fitted(
            generation, last_seq, last_seq, matches, standings, 0.0, 0.0, 0.0, pins, stored_mark
        )
        return fitted, start

    def _restart(
        self,
        conn: Connection,
        game: str,
        generation: int,
        last_seq: int,
        pins: Mapping[int, float],
    ) -> tuple[_Fitted | None, Mapping[int, float] | None]:
        """A cache's first look at ``game``: the stored fit with the matches rated since folded
        in once, when it is of this generation and they are few enough; otherwise None, and
        the stored strengths (if of this generation) to warm-start the whole-log fit."""
        stored = snapshots.load(conn, game)
        if stored is None or stored.generation != generation:
            return None, None
        if stored.last_seq != last_seq and not self._foldable(stored.exact_seq, last_seq):
            posterior = stored.posterior
            return None, dict(zip(posterior.bots, posterior.theta.tolist(), strict=True))
        standings = fold(
            stored.posterior,
            history_matches(conn, game, stored.last_seq, last_seq),
            self.params,
            anchor=pins,
        )
        mark = (stored.generation, stored.last_seq)
        fitted = _Fitted(
            generation, last_seq, stored.exact_seq, None, standings,
            0.0, 0.0, time.monotonic(), pins, mark,
        )  # fmt: skip
        return fitted, None

    def _foldable(self, exact_seq: int, last_seq: int) -> bool:
        """Whether the matches after the last whole-log fit (``exact_seq``) stay within
        ``exact_share`` of the log once the ladder is at ``last_seq``."""
        return last_seq - exact_seq <= self.exact_share * last_seq

    def _reanchored(self, cached: _Fitted, pins: Mapping[int, float]) -> _Fitted | None:
        """The same fit on other pins (an operator set, moved or removed an anchor); None for
        the fit of an empty ladder, which holds nothing to re-anchor."""
        if cached.standings.posterior is None:
            return None
        standings = fold(cached.standings.posterior, (), self.params, anchor=pins)
        return dataclasses.replace(cached, standings=standings, pins=pins)

    def _keep(
        self, conn: Connection, game: str, fitted: _Fitted, start: str, started: float
    ) -> _Fitted:
        """Keep a new fit (its duration paces ``refresh``); store a whole-log fit at once."""
        if start in ("cold", "warm") and fitted.last_seq > 0:
            fitted = self._save(conn, game, fitted)
        seconds = time.perf_counter() - started
        kept = dataclasses.replace(fitted, seconds=seconds, finished=time.monotonic())
        self._fits[game] = kept
        self._scale(conn, game, kept)
        STANDINGS_FIT_SECONDS.labels(game, start).observe(seconds)
        return kept

    def _scale(self, conn: Connection, game: str, fitted: _Fitted) -> None:
        """Record a move of the game's scale (``ladder.scale``) when the established bots that
        set it changed; pinned anchors set a scale that never moves so."""
        if fitted.pins or fitted.standings.posterior is None:
            return
        now = default_anchor(fitted.standings)
        if self._scales.get(game) == now:
            return
        try:
            scale.record(conn, game, fitted.standings, self.params)
        except psycopg.Error:
            log.exception("could not record the scale of %s", game)
            return
        self._scales[game] = now

    def save(self, conn: Connection, game: str, force: bool = False) -> bool:
        """Store the kept fit of ``game`` if it is ahead of the stored copy and the last store
        was ``save_interval_s`` ago (or ``force``); returns whether it stored. Off the
        request path: ``refresh`` calls it."""
        with self._lock(game):
            fitted = self._fits.get(game)
            if (
                fitted is None
                or fitted.last_seq == 0
                or fitted.stored == (fitted.generation, fitted.last_seq)
                or not (force or time.monotonic() - fitted.saved >= self.save_interval_s)
            ):
                return False
            self._fits[game] = self._save(conn, game, fitted)
            return True

    def save_all(self, conn: Connection) -> int:
        """Store every kept fit that is ahead of its stored copy, now (a ladder stopping);
        returns how many it stored."""
        return sum(self.save(conn, game, force=True) for game in sorted(self._fits))

    @staticmethod
    def _save(conn: Connection, game: str, fitted: _Fitted) -> _Fitted:
        posterior = fitted.standings.posterior
        assert posterior is not None
        snapshot = snapshots.Snapshot(
            fitted.generation, fitted.last_seq, fitted.exact_seq, posterior
        )
        try:
            with conn.transaction():
                if snapshots.save(conn, game, snapshot):
                    published.publish(conn, game, fitted.standings)
        except psycopg.Error:
            # The fit stands without its copy; a restart then starts from an older one.
            log.exception("could not store the standings of %s", game)
            return dataclasses.replace(fitted, saved=time.monotonic())
        mark = (fitted.generation, fitted.last_seq)
        return dataclasses.replace(fitted, saved=time.monotonic(), stored=mark)

    def latest(self, conn: Connection, game: str) -> Standings[int]:
        """The last fit of ``game``, however old; fits first only if there is none yet."""
        cached = self._fits.get(game)
        return cached.standings if cached is not None else self.standings(conn, game)

    def refresh(self, conn: Connection, game: str, busy_share: float = 0.2) -> None:
        """Refit ``game`` if it moved, but leave at least (1/busy_share - 1) times the last
        refit's duration between refits: a 10 ms refit runs on every call, while a 1M-match
        ladder whose refit takes seconds is refitted less often, so that refits never take
        more than ``busy_share`` of a core. Then store the fit if that is due (``save``).

        At rest (no match rated for ``exact_after_s``), a fit that folded matches in is
        replaced by a whole-log fit, once: a fold approximates, so standings at rest are then
        a function of the matches alone, whenever and however often they were folded."""
        cached = self._fits.get(game)
        if (
            cached is not None
            and cached.exact_seq < cached.last_seq
            and time.monotonic() - cached.finished >= self.exact_after_s
        ):
            self.standings(conn, game, exact=True)
            self.save(conn, game)
            return
        if cached is not None:
            pause = cached.seconds * (1.0 / busy_share - 1.0)
            if time.monotonic() - cached.finished < pause:
                self.save(conn, game)
                return
        self.standings(conn, game)
        self.save(conn, game)


def history_matches(conn: Connection, game: str, after: int, upto: int) -> Iterator[dict[int, int]]:
    """The rated matches with after < seq <= upto, in order, as {player id: rank}; streamed
    with COPY so that a cold load of a long ladder does not hold every row at once."""
    with conn.cursor().copy(
        "COPY (SELECT seq, player_id, rank FROM rating_history"
        " WHERE game = %s AND seq > %s AND seq <= %s ORDER BY seq) TO STDOUT",
        (game, after, upto),
    ) as copy:
        copy.set_types(["int8", "int8", "int4"])
        current = -1
        match: dict[int, int] = {}
        for seq, player, rank in copy.rows():
            if seq != current:
                if match:
                    yield match
                current, match = seq, {}
            match[player] = rank
        if match:
            yield match


# --- queries --------------------------------------------------------------------------------


def leaderboard(
    conn: Connection,
    game: str,
    cache: StandingsCache,
    params: elo.EloParams = elo.DEFAULT_PARAMS,
    current: bool = True,
) -> Leaderboard:
    """Every player with a rated match on ``game``: live Elo, official standing with its
    interval, games played, provisional flag; established players first, each group by best
    official standing (a provisional bot never ranks above an established one). With ``current``
    false the standings are the cache's latest fit, which may trail the live ratings by the
    matches rated since (``standings_matches`` says how many it covers)."""
    standings = cache.standings(conn, game) if current else cache.latest(conn, game)
    by_player = standings.by_bot()
    with conn.transaction():
        cur = tuples(conn)
        counters = cur.execute(
            "SELECT last_seq - voided FROM ladders WHERE game = %s", (game,)
        ).fetchone()
        rows = cur.execute(
            "SELECT r.player_id, coalesce(b.name, %s || p.builtin), p.builtin IS NOT NULL,"
            " r.rating, r.games, coalesce(r.last_played, r.updated_at),"
            " coalesce(b.bundle_sha256 IS NOT NULL, false)"
            " FROM ratings r JOIN ladder_players p ON p.id = r.player_id"
            " LEFT JOIN bots b ON b.id = p.bot_id"
            " WHERE r.game = %s AND r.games > 0",
            (BUILTIN_PREFIX, game),
        ).fetchall()
        pinned = {
            BUILTIN_PREFIX + name
            for (name,) in cur.execute(
                "SELECT builtin FROM ladder_anchors WHERE game = %s", (game,)
            ).fetchall()
        }
        moves = scale.recent(conn, game)
    fixed = reference_ratings(game)
    unsorted = []
    hosted = {name for _, name, _, _, _, _, is_hosted in rows if is_hosted}
    for player_id, name, builtin, rating, games, updated_at, _ in rows:
        fitted = by_player.get(player_id)
        interval = (
            Interval(fitted.rating, fitted.low, fitted.high, fitted.stderr)
            if fitted is not None
            else None
        )
        unsorted.append((name, builtin, rating, games, updated_at, interval))
    # What the ladder is sure of first: an established bot above every provisional one (a bot
    # of two matches has a wide interval and could be anywhere), then by official standing.
    unsorted.sort(
        key=lambda row: (
            elo.is_provisional(row[3], params),
            row[5] is None,
            -(row[5].rating if row[5] is not None else 0.0),
            -row[2],
            row[0],
        )
    )
    entries = tuple(
        LeaderboardEntry(
            rank=position,
            player=name,
            builtin=builtin,
            elo=rating,
            games=games,
            provisional=elo.is_provisional(games, params),
            standing=interval,
            last_played=updated_at,
            reference=builtin and name.removeprefix(BUILTIN_PREFIX) in fixed,
            anchor=name in pinned,
            hosted=name in hosted,
        )
        for position, (name, builtin, rating, games, updated_at, interval) in enumerate(
            unsorted, start=1
        )
    )
    return Leaderboard(
        game=game,
        rated_matches=int(counters[0]) if counters is not None else 0,
        standings_matches=standings.matches,
        entries=entries,
        scale_moves=moves,
    )


def _board_key(entry: LeaderboardEntry) -> tuple[bool, bool, float, float, str]:
    """An entry's place in the leaderboard's order (``leaderboard``), as a keyset position."""
    standing = entry.standing
    return (
        entry.provisional,
        standing is None,
        -(standing.rating if standing is not None else 0.0),
        -entry.elo,
        entry.player,
    )


BOARD_KEY = (bool, bool, float, float, str)


def board_page(board: Leaderboard, limit: int, cursor: str = "") -> Leaderboard:
    """The entries of ``board`` after ``cursor``'s position, ``limit`` of them, with the cursor
    of the next page. The order comes from the standings fit, computed in Python over every
    player (ranks need them all), so the keyset is compared here rather than in SQL: the key is
    the entry's sort key, never its position, so a player rated between two pages does not
    shift the next one."""
    entries = board.entries
    if cursor:
        after = paging.decode("leaderboard", cursor, BOARD_KEY)
        entries = tuple(entry for entry in entries if _board_key(entry) > after)
    shown = entries[:limit]
    token = paging.encode("leaderboard", _board_key(shown[-1])) if len(entries) > limit else ""
    return dataclasses.replace(board, entries=shown, next=token)


def _player_id(conn: Connection, player: str) -> tuple[int, bool]:
    if "\x00" in player:
        # No name holds one, and PostgreSQL's text cannot: asked, it failed the query.
        raise BadRequest("player may not contain NUL characters")
    cur = tuples(conn)
    if player.startswith(BUILTIN_PREFIX):
        row = cur.execute(
            "SELECT id FROM ladder_players WHERE builtin = %s",
            (player.removeprefix(BUILTIN_PREFIX),),
        ).fetchone()
        builtin = True
    else:
        row = cur.execute(
            "SELECT p.id FROM ladder_players p JOIN bots b ON b.id = p.bot_id WHERE b.name = %s",
            (player,),
        ).fetchone()
        builtin = False
    if row is None:
        raise NotFound(f"no rated player {player!r}")
    return int(row[0]), builtin


def rating_history(
    conn: Connection, game: str, player: str, limit: int = 1000, cursor: str = ""
) -> RatingHistory:
    """A player's last ``limit`` rated matches on ``game`` (before ``cursor``'s, when given),
    oldest first; ``next`` is the cursor of the older ones. Raises NotFound when the player has
    never been rated on any ladder."""
    if not 1 <= limit <= 100_000:
        raise BadRequest("limit must be between 1 and 100000")
    (before,) = paging.decode("history", cursor, (int,)) if cursor else (None,)
    with conn.transaction():
        cur = tuples(conn)
        player_id, builtin = _player_id(conn, player)
        rows = cur.execute(
            # The seat's rank in the match's own outcome: a solo match is rated as a two-player
            # result against its reference player (h.rank), but the seat ranked 1 of 1.
            "SELECT h.match_id, h.seq, h.applied_at, h.seat,"
            " COALESCE((m.outcome->'ranks'->>h.seat)::int, h.rank), m.players, h.before,"
            " h.after, h.delta, h.games,"
            " ARRAY(SELECT coalesce(b.name, %s || s.builtin) FROM match_seats s"
            "       LEFT JOIN bots b ON b.id = s.bot_id"
            "       WHERE s.match_id = h.match_id AND s.seat <> h.seat ORDER BY s.seat)"
            " FROM rating_history h JOIN matches m ON m.id = h.match_id"
            " WHERE h.game = %s AND h.player_id = %s AND (%s::bigint IS NULL OR h.seq < %s)"
            " ORDER BY h.seq DESC LIMIT %s",
            (BUILTIN_PREFIX, game, player_id, before, before, limit + 1),
        ).fetchall()
    more = len(rows) > limit
    rows = rows[:limit]
    points = tuple(
        HistoryPoint(
            str(match_id), seq, at, seat, rank, seats, before, after, delta, games, tuple(others)
        )
        for match_id, seq, at, seat, rank, seats, before, after, delta, games, others in reversed(
            rows
        )
    )
    token = paging.encode("history", (int(rows[-1][1]),)) if more else ""
    return RatingHistory(game=game, player=player, builtin=builtin, points=points, next=token)


MATCHES_MAX_PAGE = 200
"""The most matches one page of ``list_matches`` holds."""


def _decode_token(token: str) -> tuple[datetime.datetime, uuid.UUID]:
    finished_at, match_id = paging.decode("matches", token, (datetime.datetime, str))
    try:
        return finished_at, uuid.UUID(match_id)
    except ValueError:
        raise BadRequest(f"bad cursor {token[:80]!r}") from None


def list_matches(
    conn: Connection, game: str, page_size: int = 20, page_token: str = ""
) -> MatchPage:
    """Finished matches of ``game``, most recent first, with their outcomes, who played, how
    each rated seat's live Elo moved, and where to fetch the replay."""
    page_size = paging.clamp(page_size, MATCHES_MAX_PAGE)
    with conn.transaction():
        cur = tuples(conn)
        if page_token:
            finished_at, last_id = _decode_token(page_token)
            matches = cur.execute(
                "SELECT id, finished_at, outcome, rated, unrated_reason FROM matches"
                " WHERE game = %s AND status = 'finished' AND (finished_at, id) < (%s, %s)"
                " ORDER BY finished_at DESC, id DESC LIMIT %s",
                (game, finished_at, last_id, page_size + 1),
            ).fetchall()
        else:
            matches = cur.execute(
                "SELECT id, finished_at, outcome, rated, unrated_reason FROM matches"
                " WHERE game = %s AND status = 'finished'"
                " ORDER BY finished_at DESC, id DESC LIMIT %s",
                (game, page_size + 1),
            ).fetchall()
        more = len(matches) > page_size
        matches = matches[:page_size]
        ids = [row[0] for row in matches]
        seats = cur.execute(
            "SELECT s.match_id, s.seat, coalesce(b.name, %s || s.builtin), s.builtin IS NOT NULL,"
            " h.before, h.delta, r.seq"
            " FROM match_seats s LEFT JOIN bots b ON b.id = s.bot_id"
            " LEFT JOIN rating_history h ON h.match_id = s.match_id AND h.seat = s.seat"
            " LEFT JOIN rated_matches r ON r.match_id = s.match_id"
            " WHERE s.match_id = ANY(%s) ORDER BY s.match_id, s.seat",
            (BUILTIN_PREFIX, ids),
        ).fetchall()
    by_match: dict[Any, list[tuple[Any, ...]]] = {}
    for row in seats:
        by_match.setdefault(row[0], []).append(row)
    results = []
    for match_id, finished_at, outcome, created_rated, unrated_reason in matches:
        rows = by_match.get(match_id, [])
        forfeited = set(outcome.get("forfeited") or [])
        # A finished match always has one score and rank per seat; a hand-edited one that
        # lacks them is listed with zeros rather than failing the whole page.
        scores = outcome.get("scores") or []
        ranks = outcome.get("ranks") or []
        seq = rows[0][6] if rows else None
        results.append(
            MatchResult(
                match_id=str(match_id),
                game=game,
                finished_at=finished_at,
                seats=tuple(
                    SeatResult(
                        seat=seat,
                        player=name,
                        builtin=builtin,
                        score=int(scores[seat]) if seat < len(scores) else 0,
                        rank=int(ranks[seat]) if seat < len(ranks) else 0,
                        forfeited=seat in forfeited,
                        rating_before=before,
                        rating_delta=delta,
                        rated=delta is not None,
                    )
                    for _, seat, name, builtin, before, delta, _ in rows
                ),
                outcome={
                    key: outcome.get(key, [])
                    for key in ("scores", "ranks", "tiebreaks", "forfeited")
                },
                rated=seq is not None,
                seq=seq,
                replay_path=replay_path(str(match_id)),
                created_rated=bool(created_rated),
                unrated_reason=None if created_rated else unrated_reason or "casual",
            )
        )
    last = matches[-1] if more and matches else None
    token = paging.encode("matches", (last[1], str(last[0]))) if last is not None else ""
    return MatchPage(matches=tuple(results), next_page_token=token)


def replay(conn: Connection, match_id: str) -> Replay:
    """An ended (finished or void) match's seed and moves. A running match's seed stays secret:
    it would tell its bots the cards to come. Raises NotFound otherwise."""
    try:
        key = uuid.UUID(match_id)
    except ValueError:
        raise NotFound(f"no match {match_id!r}") from None
    with conn.transaction():
        cur = tuples(conn)
        row = cur.execute(
            "SELECT game, status, options, seed, outcome, match_revealed(id), forced_at_start"
            " FROM matches WHERE id = %s",
            (key,),
        ).fetchone()
        if row is None or row[1] not in ("finished", "void"):
            raise NotFound(f"no ended match {match_id!r}")
        if not row[5]:
            raise NotFound(
                f"match {match_id!r} shares its deal with duplicate tables still playing; its"
                " replay is published when they have all ended"
            )
        players = cur.execute(
            "SELECT coalesce(b.name, %s || s.builtin) FROM match_seats s"
            " LEFT JOIN bots b ON b.id = s.bot_id WHERE s.match_id = %s ORDER BY s.seat",
            (BUILTIN_PREFIX, key),
        ).fetchall()
        moves = cur.execute(
            "SELECT ply, seat, move, defaulted, forced FROM match_moves WHERE match_id = %s"
            " ORDER BY ply",
            (key,),
        ).fetchall()
    game, status, options, seed, outcome, _revealed, forced_at_start = row
    return Replay(
        match_id=str(key),
        game=game,
        status=status,
        options=options,
        players=tuple(name for (name,) in players),
        seed=seed,
        outcome=outcome,
        moves=tuple(
            {
                "ply": ply,
                "seat": seat,
                "move": _proto_named(move),
                "defaulted": defaulted,
                "forced": _forced_named(forced),
            }
            for ply, seat, move, defaulted, forced in moves
        ),
        forced_at_start=_forced_named(forced_at_start),
    )


def _proto_named(move: Any) -> Any:
    """A logged move with its kind named as the proto's move field ("pass-guess" ->
    "pass_guess"); its other fields already are."""
    if isinstance(move, dict) and isinstance(move.get("kind"), str):
        return {**move, "kind": kind_field(move["kind"])}
    return move


def _forced_named(forced: Any) -> tuple[Mapping[str, Any], ...] | None:
    """Logged forced moves (``[{seat, move}]``) with their moves named as `_proto_named`."""
    if not isinstance(forced, list):
        return None
    return tuple({**item, "move": _proto_named(item.get("move"))} for item in forced)


def seat_advantage(conn: Connection, game: str, limit: int = 20000) -> list[SeatTable]:
    """Each seat's advantage on ``game`` from its latest ``limit`` finished matches (rated or
    not: every format rotates seats, docs/leagues.md), by player count."""
    rows = conn.execute(
        "SELECT outcome FROM matches WHERE game = %s AND status = 'finished'"
        " AND outcome IS NOT NULL ORDER BY finished_at DESC LIMIT %s",
        (game, limit),
    ).fetchall()
    return seats.seat_advantage(
        [int(rank) for rank in outcome.get("ranks") or []] for (outcome,) in rows
    )


def league_progress(conn: Connection, key: str) -> dict[str, Any]:
    """A league as the workers publish it (``league_progress``): its format, bots, settings,
    whether it is rated, its status and, for a format that ends on its own (the SPRT), its
    progress after the last round closed."""
    column = "id" if key.isdigit() else "name"
    row = conn.execute(
        "SELECT id, name, game, format, players, bots, settings, rated, status, progress,"
        f" progress_at, created_at, finished_at FROM league_progress WHERE {column} = %s",
        (int(key) if key.isdigit() else key,),
    ).fetchone()
    if row is None:
        raise NotFound(f"no league {key!r}")
    names = [
        "id",
        "name",
        "game",
        "format",
        "players",
        "bots",
        "settings",
        "rated",
        "status",
        "progress",
        "progress_at",
        "created_at",
        "finished_at",
    ]
    return dict(zip(names, row, strict=True))


def bot_versions(conn: Connection, name: str, params: elo.EloParams) -> dict[str, Any]:
    """A bot's lineage: every version of the family ``name`` belongs to, oldest first, each
    with its predecessor, whether it is the active one, and its live Elo on every game."""
    family = conn.execute(
        "SELECT family FROM bot_lineage WHERE name = %s AND NOT removed", (name,)
    ).fetchone()
    if family is None:
        raise NotFound(f"no bot {name!r}")
    rows = conn.execute(
        "SELECT name, version, predecessor, active, created_at FROM bot_lineage"
        " WHERE family = %s ORDER BY created_at, name",
        (family[0],),
    ).fetchall()
    ratings: dict[str, dict[str, Any]] = {}
    for player, game, rating, games in conn.execute(
        "SELECT player, game, rating, games FROM ladder_ratings WHERE player = ANY(%s)",
        ([row[0] for row in rows],),
    ).fetchall():
        ratings.setdefault(player, {})[game] = {
            "elo": rating,
            "games": games,
            "provisional": elo.is_provisional(games, params),
        }
    return {
        "family": family[0],
        "versions": [
            {
                "name": row[0],
                "version": row[1],
                "predecessor": row[2],
                "active": row[3],
                "created_at": row[4],
                "ratings": ratings.get(row[0], {}),
            }
            for row in rows
        ],
    }


def bot_standing(conn: Connection, name: str, limit: int = 100) -> dict[str, Any]:
    """A bot's standing (validating, failed, rated, probation, disabled; None before it first
    connects) and its latest events, oldest first, as the workers publish them."""
    if conn.execute("SELECT 1 FROM bot_lineage WHERE name = %s", (name,)).fetchone() is None:
        raise NotFound(f"no bot {name!r}")
    row = conn.execute(
        "SELECT state, since, reason FROM bot_standing_public WHERE bot = %s", (name,)
    ).fetchone()
    if row is None:
        # Registered but never connected: no standing yet.
        row = (None, None, "it gets one when it first connects")
    events = conn.execute(
        "SELECT at, kind, message FROM bot_events_public WHERE bot = %s ORDER BY id DESC LIMIT %s",
        (name, limit),
    ).fetchall()
    return {
        "bot": name,
        "state": row[0],
        "since": row[1],
        "reason": row[2],
        "events": [{"at": at, "kind": kind, "message": message} for at, kind, message in events][
            ::-1
        ],
    }


def leagues_of(
    conn: Connection, game: str, format: str | None, limit: int = 50, cursor: str = ""
) -> tuple[list[dict[str, Any]], str]:
    """The game's leagues, newest first (``format`` narrows them, e.g. ``sprt``), each as
    ``league_progress`` returns it, after ``cursor``'s; and the cursor of the next page (empty:
    none)."""
    (after,) = paging.decode("game-leagues", cursor, (int,)) if cursor else (None,)
    rows = conn.execute(
        "SELECT id FROM league_progress WHERE game = %s AND (%s::text IS NULL OR format = %s)"
        " AND (%s::bigint IS NULL OR id < %s) ORDER BY id DESC LIMIT %s",
        (game, format, format, after, after, limit + 1),
    ).fetchall()
    token = paging.encode("game-leagues", (int(rows[limit - 1][0]),)) if len(rows) > limit else ""
    return [league_progress(conn, str(row[0])) for row in rows[:limit]], token
