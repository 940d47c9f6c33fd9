"""Rating many queued matches in one transaction: each match's players and ratings are read
for the whole batch at once, the updates planned in memory in finish order, and written back
with one statement per table. ``ladder.store`` falls back to one match at a time
(``ladder.apply``) when a batch fails."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import psycopg

from games.reference import reference_result
from ladder import elo
from ladder.apply import (
    _ADD_BOT_PLAYERS,
    _ADD_BUILTIN_PLAYERS,
    _ADD_RATINGS,
    _SEAT_PLAYERS_OF_MANY,
    GAME_LOCK_KEY,
    Connection,
    RatedSeat,
    _prepare_reference,
    _ranks,
    log,
    pins_of,
    rated_seats,
    reference_ratings,
    tuples,
)
from ladder.metrics import MATCHES_RATED, RATING_FAILURES


@dataclass(slots=True)
class _Rating:
    """One player's live Elo as it stands in the batch being applied, and when it last played
    (the end of its last rated match)."""

    rating: float
    games: int
    last_played: Any


@dataclass(frozen=True, slots=True)
class _Planned:
    """A match of a batch that rates: who, as whom, on which ladder."""

    match_id: Any
    game: str
    chosen: list[RatedSeat]
    ids: list[int]
    finished_at: Any


def _apply_batch(conn: Connection, match_ids: list[Any], params: elo.EloParams) -> tuple[int, int]:
    """Rate a prefix of ``match_ids`` (finish order) in one transaction; returns (matches rated,
    matches of ``match_ids`` dealt with). The same steps as ``_prepare`` and ``_apply`` one
    match after the other, with the same results bit for bit, in a few statements per batch:

    - the game locks (shared), then each match's status, so a void excludes the batch;
    - the ``rated_matches`` guards of every match at once: one another application holds is
      left to it, exactly as in ``_apply`` (the guard comes before any ratings lock, so the
      order of locks is the one ``_apply`` takes);
    - the ratings rows of every player, locked in (game, player id) order, then the matches'
      updates applied one after the other in memory, in finish order;
    - the sequence numbers, from each game's ``ladders`` row as the last step.

    The batch stops before a match that brings in a new version of a bot (other than its first
    match): such a version starts from its lineage's live rating as it stands when it is
    prepared, which the earlier matches of the batch may still change.

    A match whose outcome or seats are malformed is logged, counted and left queued.
    """
    with conn.transaction():
        cur = tuples(conn)
        match_ids = match_ids[: _batch_end(cur, match_ids)]
        games = [
            game
            for (game,) in cur.execute(
                "SELECT DISTINCT game FROM matches WHERE id = ANY(%s) ORDER BY game",
                (match_ids,),
            )
        ]
        for game in games:
            cur.execute(f"SELECT pg_advisory_xact_lock_shared({GAME_LOCK_KEY})", (game,))
        found = {
            match_id: (game, status, rated, outcome, players, finished_at)
            for match_id, game, status, rated, outcome, players, finished_at in cur.execute(
                "SELECT id, game, status, rated, outcome, players, finished_at FROM matches"
                " WHERE id = ANY(%s)",
                (match_ids,),
            )
        }
        ratable = [
            match_id
            for match_id in match_ids
            if match_id in found and found[match_id][1] == "finished" and found[match_id][2]
        ]
        _prepare_batch(cur, ratable, found, params)
        seats: dict[Any, list[tuple[int, int, Any, Any]]] = {}
        for match_id, seat, player_id, bot_id, builtin in cur.execute(
            _SEAT_PLAYERS_OF_MANY + " ORDER BY 1, 2", (ratable, ratable)
        ):
            seats.setdefault(match_id, []).append((seat, player_id, bot_id, builtin))
        references = _reference_ids(cur, games)

        planned: dict[Any, _Planned | None] = {}
        for match_id in ratable:
            game, _, _, outcome, players, finished_at = found[match_id]
            try:
                planned[match_id] = _plan(
                    match_id,
                    game,
                    outcome,
                    players,
                    finished_at,
                    seats.get(match_id, []),
                    references,
                )
            except ValueError:
                RATING_FAILURES.inc()
                log.exception("could not rate match %s; it stays queued", match_id)
        guarded = {
            match_id
            for (match_id,) in cur.execute(
                "INSERT INTO rated_matches (match_id, game, seats)"
                " SELECT m, g, 0 FROM unnest(%s::uuid[], %s::text[]) AS u (m, g)"
                " ON CONFLICT (match_id) DO NOTHING RETURNING match_id",
                (list(planned), [found[match_id][0] for match_id in planned]),
            )
        }
        # Rated here, rated already by whoever held the guard, or not to be rated at all.
        # (Sets: a batch's hundreds of ids are looked up once each, not searched in a list.)
        ratable_ids = set(ratable)
        done = [m for m in match_ids if m not in ratable_ids or m in planned]
        cur.execute("DELETE FROM rating_queue WHERE match_id = ANY(%s)", (done,))

        rating = [p for m in ratable if m in guarded and (p := planned[m]) is not None]
        applied = _apply_planned(conn, rating, params)
    for game in applied:
        MATCHES_RATED.labels(game).inc(applied[game])
    return sum(applied.values()), len(match_ids)


def _batch_end(cur: psycopg.Cursor[tuple[Any, ...]], match_ids: list[Any]) -> int:
    """How many of ``match_ids`` go in this batch: up to the first, after the first, that seats
    a bot version with a predecessor and no live rating on that game yet."""
    newcomers = {
        match_id
        for (match_id,) in cur.execute(
            "SELECT DISTINCT s.match_id FROM match_seats s JOIN matches m ON m.id = s.match_id"
            " JOIN bots b ON b.id = s.bot_id WHERE s.match_id = ANY(%s)"
            " AND b.predecessor_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ladder_players p"
            " JOIN ratings r ON r.player_id = p.id AND r.game = m.game WHERE p.bot_id = b.id)",
            (match_ids,),
        )
    }
    for position, match_id in enumerate(match_ids):
        if position > 0 and match_id in newcomers:
            return position
    return len(match_ids)


def _prepare_batch(
    cur: psycopg.Cursor[tuple[Any, ...]],
    match_ids: list[Any],
    found: dict[Any, tuple[str, str, bool, Any, int, Any]],
    params: elo.EloParams,
) -> None:
    """``_prepare`` for every match of a batch, in the batch's own transaction: the rows it
    inserts are its own, so it can lock them; a concurrent ``_prepare`` of the same player waits
    for it or skips the row, as between two ``_prepare``."""
    if not match_ids:
        return
    games = sorted({found[match_id][0] for match_id in match_ids})
    cur.execute(
        "INSERT INTO ladders (game) SELECT g FROM unnest(%s::text[]) g"
        " WHERE NOT EXISTS (SELECT 1 FROM ladders l WHERE l.game = g) ORDER BY g"
        " ON CONFLICT DO NOTHING",
        (games,),
    )
    cur.execute(_ADD_BOT_PLAYERS, (match_ids,))
    cur.execute(_ADD_BUILTIN_PLAYERS, (match_ids,))
    for game in games:
        of_game = [match_id for match_id in match_ids if found[match_id][0] == game]
        cur.execute(_ADD_RATINGS, (game, params.start_rating, of_game, of_game, game, game))
        fixed = reference_ratings(game)
        named = {
            reference.player
            for match_id in of_game
            if (reference := reference_result(found[match_id][3], fixed)) is not None
        }
        for name in sorted(named):
            _prepare_reference(cur, game, name, fixed[name])


def _reference_ids(cur: psycopg.Cursor[tuple[Any, ...]], games: list[str]) -> dict[str, int]:
    """The ladder player ids of the reference players of ``games``, by name."""
    names = sorted({name for game in games for name in reference_ratings(game)})
    if not names:
        return {}
    return dict(
        cur.execute(
            "SELECT builtin, id FROM ladder_players WHERE builtin = ANY(%s)", (names,)
        ).fetchall()
    )


def _plan(
    match_id: Any,
    game: str,
    outcome: Any,
    players: int,
    finished_at: Any,
    seats: list[tuple[int, int, Any, Any]],
    references: dict[str, int],
) -> _Planned | None:
    """Who a match rates (``_apply``'s choice of seats, reference player included), or None
    when fewer than two distinct players are left. Raises ValueError for a malformed match."""
    ranks = _ranks(outcome, players, match_id)
    if [seat for seat, *_ in seats] != list(range(players)):
        raise ValueError(f"match {match_id}: seats {[s for s, *_ in seats]} of {players}")
    player_ids = {(bot_id, builtin): player_id for _, player_id, bot_id, builtin in seats}
    chosen = rated_seats([(bot_id, builtin) for _, _, bot_id, builtin in seats], ranks)
    fixed = reference_ratings(game)
    reference = reference_result(outcome, fixed) if len(chosen) == 1 else None
    if reference is not None:
        mine, theirs = reference.ranks
        seat = chosen[0]
        chosen = [
            RatedSeat(seat.seat, seat.player, mine),
            RatedSeat(players, (None, reference.player), theirs),
        ]
        player_ids[(None, reference.player)] = references[reference.player]
    if len(chosen) < 2:
        return None
    return _Planned(
        match_id, game, chosen, [player_ids[seat.player] for seat in chosen], finished_at
    )


_HISTORY_TYPES = [
    "uuid",
    "int4",
    "text",
    "int8",
    "int8",
    "int4",
    "float8",
    "float8",
    "float8",
    "int4",
    "float8",
]
"""The columns of a batch's ``rating_history`` COPY, sent in binary (no text round trip)."""


def _apply_planned(
    conn: Connection, planned: list[_Planned], params: elo.EloParams
) -> dict[str, int]:
    """Apply the live Elo of ``planned`` (guarded, in finish order) and record it; returns how
    many matches each game rated."""
    if not planned:
        return {}
    cur = tuples(conn)
    keys = sorted({(p.game, player_id) for p in planned for player_id in p.ids})
    state = {
        (game, player_id): _Rating(rating, games, last_played)
        for game, player_id, rating, games, last_played in cur.execute(
            "SELECT game, player_id, rating, games, last_played FROM ratings"
            " WHERE (game, player_id) IN (SELECT * FROM unnest(%s::text[], %s::bigint[]))"
            " ORDER BY game, player_id FOR UPDATE",
            ([game for game, _ in keys], [player_id for _, player_id in keys]),
        )
    }
    pinned = pins_of(cur, sorted({p.game for p in planned}))
    counts: dict[str, int] = {}
    for match in planned:
        counts[match.game] = counts.get(match.game, 0) + 1
    first_seq = {}
    for game in sorted(counts):
        row = cur.execute(
            "UPDATE ladders SET last_seq = last_seq + %s WHERE game = %s RETURNING last_seq",
            (counts[game], game),
        ).fetchone()
        assert row is not None
        first_seq[game] = row[0] - counts[game] + 1

    history = []
    numbered = []
    for match in planned:
        before = [state[(match.game, player_id)] for player_id in match.ids]
        match_pins = [pinned.get((match.game, player_id)) for player_id in match.ids]
        for player, pin in zip(before, match_pins, strict=True):
            if pin is not None:
                player.rating = pin
        update = elo.pinned_update(
            [player.rating for player in before],
            [player.games for player in before],
            [seat.rank for seat in match.chosen],
            match_pins,
            params,
        )
        seq = first_seq[match.game]
        first_seq[match.game] += 1
        numbered.append((match.match_id, seq, len(match.chosen)))
        for seat, player_id, player, new, delta, pin in zip(
            match.chosen, match.ids, before, update.ratings, update.deltas, match_pins, strict=True
        ):
            history.append(
                (
                    match.match_id,
                    seat.seat,
                    match.game,
                    seq,
                    player_id,
                    seat.rank,
                    player.rating,
                    new,
                    delta,
                    player.games + 1,
                    pin,
                )
            )
            player.rating, player.games = new, player.games + 1
            player.last_played = match.finished_at

    cur.execute(
        "UPDATE rated_matches r SET seq = u.seq, seats = u.seats"
        " FROM unnest(%s::uuid[], %s::bigint[], %s::integer[]) AS u (match_id, seq, seats)"
        " WHERE r.match_id = u.match_id",
        tuple(list(column) for column in zip(*numbered, strict=True)),
    )
    with cur.copy(
        "COPY rating_history (match_id, seat, game, seq, player_id, rank, before, after, delta,"
        " games, pinned) FROM STDIN (FORMAT BINARY)"
    ) as copy:
        copy.set_types(_HISTORY_TYPES)
        for record in history:
            copy.write_row(record)
    cur.execute(
        "UPDATE ratings r SET rating = u.rating, games = u.games, updated_at = now(),"
        " last_played = u.last_played"
        " FROM unnest(%s::text[], %s::bigint[], %s::double precision[], %s::integer[],"
        " %s::timestamptz[]) AS u (game, player_id, rating, games, last_played)"
        " WHERE r.game = u.game AND r.player_id = u.player_id",
        (
            [game for game, _ in keys],
            [player_id for _, player_id in keys],
            [state[key].rating for key in keys],
            [state[key].games for key in keys],
            [state[key].last_played for key in keys],
        ),
    )
    return counts
