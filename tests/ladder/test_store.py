"""Live Elo in real PostgreSQL: exactly once under concurrent processes, never for unfinished or
void matches, voids replayed, and the queries the leaderboard is made of."""

from __future__ import annotations

import multiprocessing
import random
import uuid
from collections.abc import Sequence
from typing import Any

import psycopg
import pytest

from ladder import elo
from ladder.queries import (
    BadRequest,
    NotFound,
    StandingsCache,
    history_matches,
    leaderboard,
    list_matches,
    rating_history,
    replay,
)
from ladder.standings import compile_log, fit
from ladder.store import rate_finished, rate_match, rate_queued, rated_seats, void_match
from tests.ladder.synthetic import (
    GAME,
    Synthetic,
    add_bots,
    insert_matches,
    random_matches,
    rate_in_order,
)

Conn = psycopg.Connection[Any]
NAMES = [f"bot{i:02d}" for i in range(14)]
POOL = [*NAMES, "builtin:random", "builtin:heuristic"]


def expected_ladder(
    matches: Sequence[Synthetic],
) -> tuple[dict[str, float], dict[str, int], list[list[tuple[str, float, float]]]]:
    """Live Elo applied one match at a time in the given order, written independently of
    ladder.store: each player rated on its first seat only. Returns the final ratings, the
    games played, and per match the (player, before, after) of each rated seat."""
    ratings: dict[str, float] = {}
    games: dict[str, int] = {}
    history = []
    for match in matches:
        first: dict[str, int] = {}
        for seat, player in enumerate(match.seats):
            first.setdefault(player, seat)
        players = list(first)
        before = [ratings.get(p, elo.DEFAULT_PARAMS.start_rating) for p in players]
        update = elo.update(
            before,
            [games.get(p, 0) for p in players],
            [match.ranks[first[p]] for p in players],
        )
        for player, rating in zip(players, update.ratings, strict=True):
            ratings[player] = rating
            games[player] = games.get(player, 0) + 1
        history.append(list(zip(players, before, update.ratings, strict=True)))
    return ratings, games, history


def stored_ratings(conn: Conn) -> tuple[dict[str, float], dict[str, int]]:
    rows = conn.execute(
        "SELECT coalesce(b.name, 'builtin:' || p.builtin), r.rating, r.games FROM ratings r"
        " JOIN ladder_players p ON p.id = r.player_id LEFT JOIN bots b ON b.id = p.bot_id"
        " WHERE r.game = %s AND r.games > 0",
        (GAME,),
    ).fetchall()
    return {name: rating for name, rating, _ in rows}, {name: games for name, _, games in rows}


def recorded_order(conn: Conn) -> list[str]:
    rows = conn.execute(
        "SELECT match_id, seq FROM rated_matches WHERE game = %s AND seq IS NOT NULL"
        " AND voided_at IS NULL ORDER BY seq",
        (GAME,),
    ).fetchall()
    return [str(match_id) for match_id, _ in rows]


def stored_history(conn: Conn) -> dict[str, list[tuple[str, float, float]]]:
    rows = conn.execute(
        "SELECT h.match_id, coalesce(b.name, 'builtin:' || p.builtin), h.before, h.after"
        " FROM rating_history h JOIN ladder_players p ON p.id = h.player_id"
        " LEFT JOIN bots b ON b.id = p.bot_id ORDER BY h.match_id, h.seat"
    ).fetchall()
    history: dict[str, list[tuple[str, float, float]]] = {}
    for match_id, name, before, after in rows:
        history.setdefault(str(match_id), []).append((name, before, after))
    return history


def check_against_sequential(conn: Conn, by_id: dict[str, Synthetic]) -> None:
    """The stored ladder is exactly one sequential application in the recorded order."""
    order = recorded_order(conn)
    ratings, games, history = expected_ladder([by_id[match_id] for match_id in order])
    assert stored_ratings(conn) == (ratings, games)
    assert stored_history(conn) == dict(zip(order, history, strict=True))


def test_rated_seats_keep_each_players_first_seat() -> None:
    seats = rated_seats([(None, "random"), (7, None), (None, "random"), (3, None)], [4, 1, 2, 3])
    assert [(s.seat, s.player, s.rank) for s in seats] == [
        (0, (None, "random"), 4),
        (1, (7, None), 1),
        (3, (3, None), 3),
    ]
    with pytest.raises(ValueError):
        rated_seats([(1, None)], [1, 2])


def test_eight_processes_rate_1000_matches_exactly_once(database_url: str, conn: Conn) -> None:
    """Eight processes apply the same 1,000 results, each in its own order with duplicates;
    the ladder ends exactly where one sequential application in its recorded order ends."""
    bots = add_bots(conn, NAMES)
    matches = random_matches(1000, POOL, seed=5)
    # A few matches seat one built-in twice: only its first seat is rated.
    matches[10] = Synthetic(("builtin:random", "bot00", "builtin:random", "bot01"), (1, 4, 2, 3))
    matches[11] = Synthetic(("bot02", "builtin:random", "bot03", "builtin:random"), (2, 1, 2, 4))
    ids = insert_matches(conn, matches, bots)
    by_id = dict(zip(ids, matches, strict=True))

    context = multiprocessing.get_context("spawn")
    start = context.Barrier(8)
    results = context.Queue()
    processes = []
    for worker in range(8):
        rng = random.Random(worker)
        order = list(ids)
        rng.shuffle(order)
        order += rng.choices(ids, k=150)
        rng.shuffle(order)
        processes.append(
            context.Process(target=rate_in_order, args=(database_url, order, start, results))
        )
    for process in processes:
        process.start()
    counts = [results.get(timeout=120) for _ in processes]
    for process in processes:
        process.join(30)
        assert process.exitcode == 0

    assert sum(counts) == 1000, counts
    assert len([count for count in counts if count > 0]) > 1, "no concurrency happened"
    seqs = [seq for (seq,) in conn.execute("SELECT seq FROM rated_matches ORDER BY seq")]
    assert seqs == list(range(1, 1001))
    per_match = conn.execute(
        "SELECT r.match_id, count(h.match_id) FROM rated_matches r"
        " LEFT JOIN rating_history h ON h.match_id = r.match_id GROUP BY r.match_id"
    ).fetchall()
    assert {str(m): n for m, n in per_match} == {
        match_id: len(set(match.seats)) for match_id, match in by_id.items()
    }
    check_against_sequential(conn, by_id)
    assert conn.execute("SELECT count(*) FROM rating_queue").fetchone() == (0,)
    assert rate_finished(database_url) == 0


def test_unfinished_and_void_matches_are_never_rated(database_url: str, conn: Conn) -> None:
    bots = add_bots(conn, NAMES[:4])
    seats = tuple(NAMES[:4])
    ranks = (1, 2, 3, 4)
    specs = [
        Synthetic(seats, ranks, status="pending"),
        Synthetic(seats, ranks, status="running"),
        Synthetic(seats, ranks, status="void"),
        Synthetic(seats, ranks),
        Synthetic(("builtin:random", "builtin:random"), (1, 2)),
    ]
    pending, running, void, finished, alone = insert_matches(conn, specs, bots)

    assert rate_finished(database_url) == 1
    for match_id in (pending, running, void, finished, alone):
        assert rate_match(conn, match_id) is False
    rated = dict(conn.execute("SELECT match_id::text, seq FROM rated_matches").fetchall())
    # One player in both seats: recorded so it is not looked at again, but nothing is rated.
    assert rated == {finished: 1, alone: None}
    assert conn.execute("SELECT count(*) FROM rating_history").fetchone() == (4,)
    assert conn.execute("SELECT count(*) FROM rating_queue").fetchone() == (0,)

    # The arbiter finishing a running match queues it (a trigger), and it is rated once.
    conn.execute(
        "UPDATE matches SET status = 'finished', finished_at = now(),"
        ' outcome = \'{"scores": [4, 3, 2, 1], "ranks": [1, 2, 3, 4]}\' WHERE id = %s',
        (running,),
    )
    assert rate_finished(database_url) == 1
    assert rate_match(conn, running) is False
    with pytest.raises(LookupError):
        rate_match(conn, str(uuid.uuid4()))


def test_the_rated_matches_guard_alone_keeps_a_second_application_out(
    database_url: str, conn: Conn
) -> None:
    """Exactly once is the ``rated_matches`` insert's promise, not only rating_history's key:
    with that key dropped, applying a rated match again still changes nothing."""
    bots = add_bots(conn, NAMES[:3])
    (match_id,) = insert_matches(conn, [Synthetic(tuple(NAMES[:3]), (1, 2, 3))], bots)
    assert rate_match(conn, match_id) is True
    conn.execute("ALTER TABLE rating_history DROP CONSTRAINT rating_history_pkey")

    def snapshot() -> tuple[Any, ...]:
        return (
            stored_ratings(conn),
            conn.execute("SELECT count(*) FROM rating_history").fetchone(),
            conn.execute("SELECT last_seq FROM ladders WHERE game = %s", (GAME,)).fetchone(),
            conn.execute("SELECT seq, seats FROM rated_matches").fetchall(),
        )

    before = snapshot()
    assert before[1] == (3,) and before[3] == [(1, 3)]
    for _ in range(2):
        assert rate_match(conn, match_id) is False
    assert snapshot() == before


def test_an_unrated_finished_match_is_never_rated(database_url: str, conn: Conn) -> None:
    bots = add_bots(conn, NAMES[:2])
    casual, rated = insert_matches(
        conn, [Synthetic(tuple(NAMES[:2]), (1, 2)), Synthetic(tuple(NAMES[:2]), (2, 1))], bots
    )
    conn.execute(
        "UPDATE matches SET rated = false, unrated_reason = 'casual' WHERE id = %s", (casual,)
    )
    assert rate_match(conn, casual) is False
    assert rate_finished(database_url) == 1
    assert recorded_order(conn) == [rated]
    assert conn.execute("SELECT count(*) FROM rating_history").fetchone() == (2,)


def test_rate_match_refuses_an_open_transaction(database_url: str) -> None:
    with psycopg.connect(database_url) as conn:
        conn.execute("SELECT 1")
        with pytest.raises(RuntimeError):
            rate_match(conn, str(uuid.uuid4()))


def test_a_malformed_outcome_stays_queued_without_blocking_the_rest(
    database_url: str, conn: Conn
) -> None:
    bots = add_bots(conn, NAMES[:4])
    bad, good = insert_matches(
        conn,
        [Synthetic(tuple(NAMES[:2]), (1, 2)), Synthetic(tuple(NAMES[2:4]), (2, 1))],
        bots,
    )
    conn.execute("UPDATE matches SET outcome = '{\"ranks\": [1]}' WHERE id = %s", (bad,))
    assert rate_finished(database_url) == 1
    assert [str(m) for (m,) in conn.execute("SELECT match_id FROM rating_queue")] == [bad]
    assert recorded_order(conn) == [good]
    # Listing still works: the broken match shows what it has, and is not rated.
    listed = {m.match_id: m for m in list_matches(conn, GAME).matches}
    assert [(s.rank, s.score) for s in listed[bad].seats] == [(1, 0), (0, 0)]
    assert not listed[bad].rated and listed[good].rated


def test_voiding_a_rated_match_replays_the_ladder_without_it(database_url: str, conn: Conn) -> None:
    bots = add_bots(conn, NAMES)
    matches = random_matches(80, POOL, seed=9)
    ids = insert_matches(conn, matches, bots)
    by_id = dict(zip(ids, matches, strict=True))
    assert rate_finished(database_url) == 80
    cache = StandingsCache()
    assert cache.standings(conn, GAME).matches == 80

    voided = recorded_order(conn)[25]
    assert void_match(conn, voided, "operator: bot was misconfigured") is True
    assert void_match(conn, voided, "twice") is False
    assert voided not in recorded_order(conn)
    check_against_sequential(conn, by_id)
    assert conn.execute(
        "SELECT status, void_reason FROM matches WHERE id = %s", (voided,)
    ).fetchone() == ("void", "operator: bot was misconfigured")
    assert rate_match(conn, voided) is False

    # The standings drop it too: a full refit over the 79 matches left.
    refit = cache.standings(conn, GAME)
    assert refit.matches == 79
    cold = fit(
        compile_log(
            {player: by_id[m].ranks[by_id[m].seats.index(player)] for player in by_id[m].seats}
            for m in recorded_order(conn)
        )
    )
    by_name = names_by_player(conn)
    assert sorted((by_name[s.bot], round(s.rating, 6)) for s in refit.entries) == sorted(
        (s.bot, round(s.rating, 6)) for s in cold.entries
    )

    unrated = insert_matches(conn, [Synthetic(tuple(NAMES[:2]), (1, 2))], bots)[0]
    assert void_match(conn, unrated, "before rating") is True
    assert rate_finished(database_url) == 0
    running = insert_matches(conn, [Synthetic(tuple(NAMES[:2]), (1, 2), status="running")], bots)
    with pytest.raises(ValueError):
        void_match(conn, running[0], "the arbiter's job")


def names_by_player(conn: Conn) -> dict[int, str]:
    rows = conn.execute(
        "SELECT p.id, coalesce(b.name, 'builtin:' || p.builtin) FROM ladder_players p"
        " LEFT JOIN bots b ON b.id = p.bot_id"
    ).fetchall()
    return dict(rows)


def test_standings_warm_refit_agrees_with_a_cold_fit(database_url: str, conn: Conn) -> None:
    bots = add_bots(conn, NAMES)
    first = insert_matches(conn, random_matches(150, POOL, seed=1), bots)
    assert rate_finished(database_url) == len(first)
    cache = StandingsCache()
    before = cache.standings(conn, GAME)
    assert cache.standings(conn, GAME) is before, "an unchanged ladder is not refitted"
    insert_matches(conn, random_matches(40, POOL, seed=2), bots)
    assert rate_finished(database_url) == 40
    assert cache.latest(conn, GAME) is before, "latest answers from the last fit"
    cache.refresh(conn, GAME, busy_share=1e-9)
    assert cache.latest(conn, GAME) is before, "refresh waits long after a fit when told to"
    cache.refresh(conn, GAME, busy_share=1.0)
    warm = cache.latest(conn, GAME)
    cold = fit(compile_log(history_matches(conn, GAME, 0, 190)))
    assert warm.matches == cold.matches == 190
    assert warm.iterations <= cold.iterations
    warm_by = warm.by_bot()
    for entry in cold.entries:
        assert warm_by[entry.bot].rating == pytest.approx(entry.rating, abs=1e-6)
        assert warm_by[entry.bot].high == pytest.approx(entry.high, abs=1e-6)


def test_leaderboard_history_matches_and_replay(database_url: str, conn: Conn) -> None:
    bots = add_bots(conn, NAMES[:6])
    # bot00 beats everyone, every time; built-ins fill seats and are rated too.
    players = [*NAMES[:6], "builtin:random"]
    rng = random.Random(3)
    matches = []
    for _ in range(60):
        seats = rng.sample(players, 4)
        if "bot00" not in seats:
            seats[0] = "bot00"
        others = [p for p in seats if p != "bot00"]
        order = ["bot00", *rng.sample(others, len(others))]
        matches.append(Synthetic(tuple(seats), tuple(order.index(p) + 1 for p in seats)))
    ids = insert_matches(conn, matches, bots)
    conn.execute(
        "INSERT INTO match_moves (match_id, ply, seat, move) VALUES (%s, 0, 1, %s), (%s, 1, 0, %s)",
        (ids[0], '{"kind": "pass"}', ids[0], '{"kind": "play", "card": 3}'),
    )
    assert rate_finished(database_url) == 60
    cache = StandingsCache()

    board = leaderboard(conn, GAME, cache)
    assert board.rated_matches == board.standings_matches == 60
    assert [e.rank for e in board.entries] == list(range(1, 8))
    top = board.entries[0]
    assert top.player == "bot00" and top.games == 60 and not top.provisional
    assert top.standing is not None and top.standing.low < top.standing.rating < top.standing.high
    standings = [e.standing.rating for e in board.entries if e.standing is not None]
    assert standings == sorted(standings, reverse=True)
    builtin = next(e for e in board.entries if e.player == "builtin:random")
    assert builtin.builtin and builtin.provisional == (builtin.games < 20)
    ratings, games = stored_ratings(conn)
    assert {e.player: (e.elo, e.games) for e in board.entries} == {
        name: (ratings[name], games[name]) for name in ratings
    }
    last_finished = {
        row[0]: row[1]
        for row in conn.execute(
            "SELECT coalesce(b.name, 'builtin:' || s.builtin), max(m.finished_at)"
            " FROM match_seats s JOIN matches m ON m.id = s.match_id"
            " LEFT JOIN bots b ON b.id = s.bot_id GROUP BY 1"
        ).fetchall()
    }
    assert {e.player: e.last_played for e in board.entries} == last_finished

    history = rating_history(conn, GAME, "bot00")
    assert len(history.points) == 60
    assert [p.seq for p in history.points] == sorted(p.seq for p in history.points)
    assert history.points[-1].after == top.elo
    for earlier, later in zip(history.points, history.points[1:], strict=False):
        assert later.before == earlier.after
        assert later.games == earlier.games + 1
    assert all(p.delta > 0 for p in history.points), "a bot that always wins always gains"
    assert len(rating_history(conn, GAME, "bot00", limit=5).points) == 5
    assert rating_history(conn, GAME, "builtin:random").builtin
    with pytest.raises(NotFound):
        rating_history(conn, GAME, "nobody")
    with pytest.raises(BadRequest):
        rating_history(conn, GAME, "bot00", limit=0)

    seen: list[str] = []
    token = ""
    while True:
        page = list_matches(conn, GAME, page_size=25, page_token=token)
        seen += [m.match_id for m in page.matches]
        token = page.next_page_token
        if not token:
            break
    assert seen == list(reversed(ids)), "most recent first, every match once"
    newest = list_matches(conn, GAME, page_size=1).matches[0]
    spec = matches[-1]
    assert [s.player for s in newest.seats] == list(spec.seats)
    assert [s.rank for s in newest.seats] == list(spec.ranks)
    assert newest.rated and newest.seq is not None
    assert newest.replay_path == f"/api/matches/{newest.match_id}/replay"
    assert all(s.rating_delta is not None for s in newest.seats)
    with pytest.raises(BadRequest):
        list_matches(conn, GAME, page_token="not-a-token")

    full = replay(conn, ids[0])
    assert full.players == matches[0].seats
    assert [m["move"] for m in full.moves] == [{"kind": "pass"}, {"kind": "play", "card": 3}]
    assert full.seed == "seed-0"
    running = insert_matches(conn, [Synthetic(tuple(NAMES[:2]), (1, 2), status="running")], bots)
    with pytest.raises(NotFound):
        replay(conn, running[0])
    with pytest.raises(NotFound):
        replay(conn, "not-a-uuid")


def test_empty_ladder(conn: Conn) -> None:
    board = leaderboard(conn, GAME, StandingsCache())
    assert (board.rated_matches, board.standings_matches, board.entries) == (0, 0, ())
    assert list_matches(conn, GAME).matches == ()


def test_the_queue_is_rated_in_finish_order_whatever_the_arrival_order(
    database_url: str, conn: Conn
) -> None:
    """Matches saved in one order but finished in another are applied in finish order, one
    pass at a time; one that finished a moment ago is rated at once when nothing is still
    being committed (``test_horizon.py`` tries what is)."""
    bots = add_bots(conn, NAMES[:6])
    matches = random_matches(12, NAMES[:6], seed=7)
    ids = insert_matches(conn, matches, bots)
    shuffled = ids[:]
    random.Random(3).shuffle(shuffled)
    for position, match_id in enumerate(shuffled):
        for table in ("matches", "rating_queue"):
            column = "id" if table == "matches" else "match_id"
            conn.execute(
                f"UPDATE {table} SET finished_at = now() - make_interval(mins => 60 - %s)"
                f" WHERE {column} = %s",
                (position, match_id),
            )

    with psycopg.connect(database_url, autocommit=True) as other:
        other.execute("SELECT pg_advisory_lock(hashtextextended('premiere.ladder.rating-pass', 0))")
        assert rate_finished(database_url) == 0  # another pass holds the lock
    assert rate_finished(database_url) == 12
    order = [
        str(match_id)
        for (match_id,) in conn.execute("SELECT match_id FROM rated_matches ORDER BY seq")
    ]
    assert order == shuffled
    by_id = dict(zip(ids, matches, strict=True))
    check_against_sequential(conn, {match_id: by_id[match_id] for match_id in shuffled})

    (late,) = insert_matches(conn, [Synthetic(tuple(NAMES[:2]), (1, 2))], bots)
    conn.execute("UPDATE rating_queue SET finished_at = now() WHERE match_id = %s", (late,))
    with psycopg.connect(database_url, autocommit=True) as fresh:
        assert rate_queued(fresh, elo.DEFAULT_PARAMS, 60.0) == 1
