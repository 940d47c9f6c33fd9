"""Applying live Elo in SQL: one match at a time (``_prepare``, ``_apply``), a void's replay of
the rest of its ladder (``_replay_from``), and what the batches (``ladder.batches``) share with
them: how a seat's player is read and added, the reference opponent's pinned ratings, and the
game's advisory lock. ``ladder.store`` states the guarantees and holds the entry points."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.rows import tuple_row

from games import registry
from games.reference import ReferenceResult, reference_result
from ladder import elo

log = logging.getLogger("premiere.ladder")


Connection = psycopg.Connection[Any]


PlayerKey = tuple[int | None, str | None]
"""A seat's player as stored on the seat: (bot_id, None) or (None, builtin name)."""


GAME_LOCK_KEY = "hashtextextended('premiere.ladder:' || %s, 0)"
"""One game's advisory lock key (the game is its parameter): each rating holds it shared, and
a void or a change of the game's anchors holds it alone, so none runs while a rating is in
flight."""


def tuples(conn: Connection) -> psycopg.Cursor[tuple[Any, ...]]:
    """A cursor returning plain tuples, whatever row factory the caller's connection has (the
    workers use dict rows)."""
    return conn.cursor(row_factory=tuple_row)


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """A seat that takes part in the rating: its number, its player's key and its final rank."""

    seat: int
    player: PlayerKey
    rank: int


def rated_seats(players: Sequence[PlayerKey], ranks: Sequence[int]) -> list[RatedSeat]:
    """The seats a match rates, in seat order: each player's first seat (see module doc)."""
    if len(players) != len(ranks):
        raise ValueError(f"{len(players)} seats but {len(ranks)} ranks")
    chosen: dict[PlayerKey, RatedSeat] = {}
    for seat, (player, rank) in enumerate(zip(players, ranks, strict=True)):
        if player not in chosen:
            chosen[player] = RatedSeat(seat, player, int(rank))
    return list(chosen.values())


def _prepare(conn: Connection, game: str, match_id: Any, params: elo.EloParams) -> bool:
    """Make sure the ladder, the players and their ratings rows exist, in a short transaction
    of its own, so that the rating transaction only ever locks rows that exist (``FOR UPDATE``
    cannot lock a row another transaction has inserted but not committed). A ratings row at
    the start rating with no games is what a player without one has anyway."""
    with conn.transaction():
        cur = tuples(conn)
        # Each insert skips rows that exist before trying: ON CONFLICT alone would wait for
        # any transaction that is updating the existing row, i.e. for a rating in flight.
        cur.execute(
            "INSERT INTO ladders (game) SELECT %s::text"
            " WHERE NOT EXISTS (SELECT 1 FROM ladders WHERE game = %s) ON CONFLICT DO NOTHING",
            (game, game),
        )
        cur.execute(_ADD_BOT_PLAYERS, ([match_id],))
        cur.execute(_ADD_BUILTIN_PLAYERS, ([match_id],))
        cur.execute(_ADD_RATINGS, (game, params.start_rating, [match_id], [match_id], game, game))
        row = cur.execute("SELECT outcome FROM matches WHERE id = %s", (match_id,)).fetchone()
        fixed = reference_ratings(game)
        reference = reference_result(row[0] if row else None, fixed)
        if reference is not None:
            _prepare_reference(cur, game, reference.player, fixed[reference.player])
    return True


def reference_ratings(game: str) -> dict[str, float]:
    """The game's built-in players of fixed rating (none for most games)."""
    try:
        return dict(registry.get(game).reference_players)
    except KeyError:
        return {}


def _prepare_reference(
    cur: psycopg.Cursor[tuple[Any, ...]], game: str, name: str, rating: float
) -> None:
    cur.execute(
        "INSERT INTO ladder_players (builtin) SELECT %s::text WHERE NOT EXISTS"
        " (SELECT 1 FROM ladder_players WHERE builtin = %s) ON CONFLICT (builtin) DO NOTHING",
        (name, name),
    )
    cur.execute(
        "INSERT INTO ratings (game, player_id, rating)"
        " SELECT %s, id, %s FROM ladder_players p WHERE builtin = %s AND NOT EXISTS"
        " (SELECT 1 FROM ratings r WHERE r.game = %s AND r.player_id = p.id)"
        " ON CONFLICT DO NOTHING",
        (game, rating, name, game),
    )


def pins_of(cur: psycopg.Cursor[tuple[Any, ...]], games: list[str]) -> dict[tuple[str, int], float]:
    """(game, ladder player id) -> pinned rating of every player the ladders of ``games`` hold
    still: the operator's anchors (``ladder.anchors``) and the games' reference players. Read
    under the games' rating lock, which setting an anchor takes alone."""
    found: dict[tuple[str, int], float] = {}
    for game, player_id, rating in cur.execute(
        "SELECT a.game, p.id, a.rating FROM ladder_anchors a"
        " JOIN ladder_players p ON p.builtin = a.builtin WHERE a.game = ANY(%s)",
        (games,),
    ):
        found[(game, int(player_id))] = float(rating)
    for game in games:
        fixed = reference_ratings(game)
        if fixed:
            for player_id, name in cur.execute(
                "SELECT id, builtin FROM ladder_players WHERE builtin = ANY(%s)", (list(fixed),)
            ):
                found[(game, int(player_id))] = fixed[name]
    return found


_SEAT_PLAYERS = (
    "SELECT s.seat, p.id AS player_id, s.bot_id, s.builtin FROM match_seats s"
    " JOIN ladder_players p ON p.bot_id = s.bot_id WHERE s.match_id = %s"
    " UNION ALL"
    " SELECT s.seat, p.id, s.bot_id, s.builtin FROM match_seats s"
    " JOIN ladder_players p ON p.builtin = s.builtin WHERE s.match_id = %s"
)


def _apply(conn: Connection, game: str, match_id: Any, params: elo.EloParams) -> bool:
    with conn.transaction():
        cur = tuples(conn)
        cur.execute(f"SELECT pg_advisory_xact_lock_shared({GAME_LOCK_KEY})", (game,))
        match = cur.execute(
            "SELECT status, outcome, players, finished_at FROM matches WHERE id = %s", (match_id,)
        ).fetchone()
        assert match is not None
        status, outcome, players, finished_at = match
        if status != "finished":
            cur.execute("DELETE FROM rating_queue WHERE match_id = %s", (match_id,))
            return False
        guard = cur.execute(
            "INSERT INTO rated_matches (match_id, game, seats) VALUES (%s, %s, 0)"
            " ON CONFLICT (match_id) DO NOTHING RETURNING match_id",
            (match_id, game),
        ).fetchone()
        if guard is None:
            return False
        cur.execute("DELETE FROM rating_queue WHERE match_id = %s", (match_id,))

        ranks = _ranks(outcome, players, match_id)
        seats = cur.execute(f"{_SEAT_PLAYERS} ORDER BY 1", (match_id, match_id)).fetchall()
        if [seat for seat, *_ in seats] != list(range(players)):
            raise ValueError(f"match {match_id}: seats {[s for s, *_ in seats]} of {players}")
        player_ids = {(bot_id, builtin): player_id for _, player_id, bot_id, builtin in seats}
        chosen = rated_seats([(bot_id, builtin) for _, _, bot_id, builtin in seats], ranks)
        fixed = reference_ratings(game)
        reference = reference_result(outcome, fixed) if len(chosen) == 1 else None
        if reference is not None:
            chosen, player_ids = _against_reference(cur, chosen[0], players, reference)
        if len(chosen) < 2:
            return False

        ids = [player_ids[seat.player] for seat in chosen]
        locked = {
            player_id: (rating, games)
            for player_id, rating, games in cur.execute(
                "SELECT player_id, rating, games FROM ratings"
                " WHERE game = %s AND player_id = ANY(%s) ORDER BY player_id FOR UPDATE",
                (game, sorted(ids)),
            )
        }
        pinned = pins_of(cur, [game])
        pins = [pinned.get((game, player_id)) for player_id in ids]
        before = [
            locked[player_id] if pin is None else (pin, locked[player_id][1])
            for player_id, pin in zip(ids, pins, strict=True)
        ]
        update = elo.pinned_update(
            [rating for rating, _ in before],
            [games for _, games in before],
            [seat.rank for seat in chosen],
            pins,
            params,
        )
        seq_row = cur.execute(
            "UPDATE ladders SET last_seq = last_seq + 1 WHERE game = %s RETURNING last_seq",
            (game,),
        ).fetchone()
        assert seq_row is not None
        seq = seq_row[0]
        cur.execute(
            "UPDATE rated_matches SET seq = %s, seats = %s WHERE match_id = %s",
            (seq, len(chosen), match_id),
        )
        with conn.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO rating_history (match_id, seat, game, seq, player_id, rank, before,"
                " after, delta, games, pinned)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                [
                    (
                        match_id,
                        seat.seat,
                        game,
                        seq,
                        player_id,
                        seat.rank,
                        old,
                        new,
                        delta,
                        n + 1,
                        pin,
                    )
                    for seat, player_id, (old, n), new, delta, pin in zip(
                        chosen, ids, before, update.ratings, update.deltas, pins, strict=True
                    )
                ],
            )
            cursor.executemany(
                "UPDATE ratings SET rating = %s, games = games + 1, updated_at = now(),"
                " last_played = %s WHERE game = %s AND player_id = %s",
                [
                    (new, finished_at, game, player_id)
                    for player_id, new in zip(ids, update.ratings, strict=True)
                ],
            )
    return True


def _against_reference(
    cur: psycopg.Cursor[tuple[Any, ...]],
    seat: RatedSeat,
    players: int,
    reference: ReferenceResult,
) -> tuple[list[RatedSeat], dict[PlayerKey, int]]:
    """A solo match as two rated seats: the bot, and the reference player in seat ``players``
    (after the real seats), ranked by points; a forfeit loses."""
    name = reference.player
    row = cur.execute("SELECT id FROM ladder_players WHERE builtin = %s", (name,)).fetchone()
    assert row is not None, "prepared before the rating transaction"
    player_id = cur.execute(
        "SELECT p.id FROM ladder_players p WHERE p.bot_id IS NOT DISTINCT FROM %s"
        " AND p.builtin IS NOT DISTINCT FROM %s",
        seat.player,
    ).fetchone()
    assert player_id is not None
    mine, theirs = reference.ranks
    chosen = [RatedSeat(seat.seat, seat.player, mine), RatedSeat(players, (None, name), theirs)]
    return chosen, {seat.player: int(player_id[0]), (None, name): int(row[0])}


def _ranks(outcome: Any, players: int, match_id: Any) -> list[int]:
    ranks = outcome.get("ranks") if isinstance(outcome, dict) else None
    if (
        not isinstance(ranks, list)
        or len(ranks) != players
        or not all(isinstance(rank, int) and rank >= 1 for rank in ranks)
    ):
        raise ValueError(f"match {match_id}: outcome has no valid ranks: {outcome!r}")
    return ranks


def _replay_from(
    conn: Connection,
    game: str,
    seq: int,
    voided_players: Iterable[int],
    params: elo.EloParams,
) -> None:
    """Re-rate every history row of ``game`` after ``seq`` from the ratings as they stood
    before ``seq``, and set the ratings rows of every player concerned to their last value."""
    cur = tuples(conn)
    rows = cur.execute(
        "SELECT seq, match_id, seat, player_id, rank, before, after, games, pinned"
        " FROM rating_history WHERE game = %s AND seq > %s ORDER BY seq, seat",
        (game, seq),
    ).fetchall()
    concerned = sorted({row[3] for row in rows} | set(voided_players))
    fixed = reference_ratings(game)
    references = {
        player_id: fixed[name]
        for player_id, name in cur.execute(
            "SELECT id, builtin FROM ladder_players WHERE builtin = ANY(%s)", (list(fixed),)
        )
    }
    starts = {
        player_id: start
        for player_id, start in cur.execute(
            "SELECT player_id, start FROM ratings WHERE game = %s AND player_id = ANY(%s)"
            " AND start IS NOT NULL",
            (game, concerned),
        )
    }
    state: dict[int, tuple[float, int]] = {
        player_id: (references.get(player_id, starts.get(player_id, params.start_rating)), 0)
        for player_id in concerned
    }
    for player_id, after, games in cur.execute(
        "SELECT DISTINCT ON (player_id) player_id, after, games FROM rating_history"
        " WHERE game = %s AND player_id = ANY(%s) AND seq < %s ORDER BY player_id, seq DESC",
        (game, concerned, seq),
    ):
        state[player_id] = (after, games)

    changed = io.StringIO()
    start = 0
    while start < len(rows):
        stop = start
        while stop < len(rows) and rows[stop][0] == rows[start][0]:
            stop += 1
        match = rows[start:stop]
        ids = [row[3] for row in match]
        # A row rated before pins were recorded is pinned if its player is a reference player.
        pins = [row[8] if row[8] is not None else references.get(row[3]) for row in match]
        update = elo.pinned_update(
            [state[player_id][0] for player_id in ids],
            [state[player_id][1] for player_id in ids],
            [row[4] for row in match],
            pins,
            params,
        )
        for row, new, delta in zip(match, update.ratings, update.deltas, strict=True):
            old, games = state[row[3]]
            state[row[3]] = (new, games + 1)
            changed.write(f"{row[1]}\t{row[2]}\t{old!r}\t{new!r}\t{delta!r}\t{games + 1}\n")
        start = stop

    for (_, player_id), pin in pins_of(cur, [game]).items():
        if player_id in state:  # a pinned player's row stays at its pin of the moment
            state[player_id] = (pin, state[player_id][1])

    cur.execute(
        "CREATE TEMPORARY TABLE replayed (match_id uuid, seat integer, before double precision,"
        " after double precision, delta double precision, games integer) ON COMMIT DROP"
    )
    with conn.cursor().copy("COPY replayed FROM STDIN") as copy:
        copy.write(changed.getvalue())
    cur.execute(
        "UPDATE rating_history h SET before = r.before, after = r.after, delta = r.delta,"
        " games = r.games FROM replayed r WHERE h.match_id = r.match_id AND h.seat = r.seat"
    )
    with conn.cursor() as cursor:
        cursor.executemany(
            "UPDATE ratings SET rating = %s, games = %s, updated_at = now()"
            " WHERE game = %s AND player_id = %s",
            [(rating, games, game, player_id) for player_id, (rating, games) in state.items()],
        )
    cur.execute(_LAST_PLAYED, (game, concerned))


_LAST_PLAYED = (
    "UPDATE ratings r SET last_played = (SELECT m.finished_at FROM rating_history h"
    " JOIN matches m ON m.id = h.match_id WHERE h.game = r.game AND h.player_id = r.player_id"
    " ORDER BY h.seq DESC LIMIT 1) WHERE r.game = %s AND r.player_id = ANY(%s)"
)
"""Each of some players' ``last_played`` read again from the history: after a void took out a
match that may have been a player's last (the rating paths set it as they rate)."""


_SEAT_PLAYERS_OF_MANY = (
    "SELECT s.match_id, s.seat, p.id AS player_id, s.bot_id, s.builtin FROM match_seats s"
    " JOIN ladder_players p ON p.bot_id = s.bot_id WHERE s.match_id = ANY(%s::uuid[])"
    " UNION ALL"
    " SELECT s.match_id, s.seat, p.id, s.bot_id, s.builtin FROM match_seats s"
    " JOIN ladder_players p ON p.builtin = s.builtin WHERE s.match_id = ANY(%s::uuid[])"
)


# What a match's rating needs to exist before its transaction locks it (`_prepare` for one
# match, `_prepare_batch` for many): ladder players for its seats, then a ratings row for each,
# a new version of a bot starting from its lineage's last live rating on the game (that of the
# version of the family rated on it most recently, whether or not it is the direct predecessor;
# docs/ratings.md, "Bot versions"), anybody else from the start. Each insert skips rows that
# exist before trying: ON CONFLICT alone would wait for any transaction updating the row.
_ADD_BOT_PLAYERS = (
    "INSERT INTO ladder_players (bot_id)"
    " SELECT DISTINCT s.bot_id FROM match_seats s WHERE s.match_id = ANY(%s::uuid[])"
    " AND s.bot_id IS NOT NULL"
    " AND NOT EXISTS (SELECT 1 FROM ladder_players p WHERE p.bot_id = s.bot_id)"
    " ORDER BY s.bot_id ON CONFLICT (bot_id) DO NOTHING"
)


_ADD_BUILTIN_PLAYERS = (
    "INSERT INTO ladder_players (builtin)"
    " SELECT DISTINCT s.builtin FROM match_seats s WHERE s.match_id = ANY(%s::uuid[])"
    " AND s.builtin IS NOT NULL"
    " AND NOT EXISTS (SELECT 1 FROM ladder_players p WHERE p.builtin = s.builtin)"
    " ORDER BY s.builtin ON CONFLICT (builtin) DO NOTHING"
)


_ADD_RATINGS = (
    "INSERT INTO ratings (game, player_id, bot_id, rating, start)"
    " SELECT DISTINCT ON (seats.player_id) %s::text, seats.player_id, seats.bot_id,"
    " coalesce(pr.rating, %s::double precision), pr.rating FROM ("
    f"{_SEAT_PLAYERS_OF_MANY}) seats"
    " LEFT JOIN bots b ON b.id = seats.bot_id"
    " LEFT JOIN LATERAL (SELECT r.rating FROM bots f"
    "   JOIN ladder_players fp ON fp.bot_id = f.id"
    "   JOIN ratings r ON r.game = %s AND r.player_id = fp.id"
    "   WHERE coalesce(f.family_id, f.id) = coalesce(b.family_id, b.id) AND f.id <> b.id"
    "   ORDER BY (SELECT max(h.seq) FROM rating_history h"
    "     WHERE h.game = r.game AND h.player_id = r.player_id) DESC NULLS LAST, f.id DESC"
    "   LIMIT 1) pr ON b.predecessor_id IS NOT NULL"
    " WHERE NOT EXISTS (SELECT 1 FROM ratings r"
    " WHERE r.game = %s AND r.player_id = seats.player_id)"
    " ORDER BY seats.player_id ON CONFLICT DO NOTHING"
)
