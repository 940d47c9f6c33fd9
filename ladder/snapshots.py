"""The last standings fit of each game, kept in PostgreSQL (table ``standings_snapshots``).

A restarted ladder reads its game's snapshot and folds in only the matches rated since
(``ladder.standings.fold``) instead of refitting the whole log: on a 1M-match ladder that is
reading one 8 MB row instead of 4M history rows. What is kept is exactly a fit's ``Posterior``
and the ladder counters it covers; the arrays travel as raw little-endian bytes, in binary
(no hex text either way), and the loaded arrays are used in place, not copied.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import psycopg
from psycopg.rows import tuple_row

from ladder.standings import Posterior

__all__ = ["Snapshot", "load", "save"]

Connection = psycopg.Connection[Any]
_FLOATS = np.dtype("<f8")
_INTS = np.dtype("<i8")


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A stored fit: the ladder's ``generation`` and ``last_seq`` it covers, the ``last_seq``
    of its last whole-log fit (``exact_seq``), and the fit itself, keyed by player id."""

    generation: int
    last_seq: int
    exact_seq: int
    posterior: Posterior[int]


def save(conn: Connection, game: str, snapshot: Snapshot) -> bool:
    """Store ``snapshot`` as the game's, unless the stored one is as far on (generations only
    grow, and so does last_seq within one): several ladder processes may save. Returns whether
    it stored."""
    posterior = snapshot.posterior
    with conn.transaction():
        stored = conn.cursor(row_factory=tuple_row).execute(
            "INSERT INTO standings_snapshots (game, generation, last_seq, exact_seq, matches,"
            " player_ids, theta, games, hessian)"
            " VALUES (%s, %s, %s, %s, %s, %b, %b, %b, %b)"
            " ON CONFLICT (game) DO UPDATE SET generation = excluded.generation,"
            " last_seq = excluded.last_seq, exact_seq = excluded.exact_seq,"
            " matches = excluded.matches, player_ids = excluded.player_ids,"
            " theta = excluded.theta, games = excluded.games, hessian = excluded.hessian,"
            " saved_at = now()"
            " WHERE (excluded.generation, excluded.last_seq)"
            " > (standings_snapshots.generation, standings_snapshots.last_seq)",
            (
                game,
                snapshot.generation,
                snapshot.last_seq,
                snapshot.exact_seq,
                posterior.matches,
                np.asarray(posterior.bots, dtype=_INTS).tobytes(),
                np.asarray(posterior.theta, dtype=_FLOATS).tobytes(),
                np.asarray(posterior.games, dtype=_INTS).tobytes(),
                np.ascontiguousarray(posterior.hessian, dtype=_FLOATS).tobytes(),
            ),
        )
    return stored.rowcount == 1


def load(conn: Connection, game: str) -> Snapshot | None:
    """The game's stored fit, or None. Call it inside the transaction that reads the ladder's
    counters, so that both come from one snapshot of the database."""
    cursor = conn.cursor(row_factory=tuple_row, binary=True)
    row = cursor.execute(
        "SELECT generation, last_seq, exact_seq, matches, player_ids, theta, games, hessian"
        " FROM standings_snapshots WHERE game = %s",
        (game,),
    ).fetchone()
    if row is None:
        return None
    generation, last_seq, exact_seq, matches, player_ids, theta, games, hessian = row
    bots = np.frombuffer(player_ids, dtype=_INTS)
    n = bots.size
    # frombuffer views the bytes read, read-only: nothing here or in ``fold`` writes to them.
    posterior: Posterior[int] = Posterior(
        bots=tuple(bots.tolist()),
        theta=np.frombuffer(theta, dtype=_FLOATS).astype(np.float64, copy=False),
        hessian=np.frombuffer(hessian, dtype=_FLOATS).astype(np.float64, copy=False).reshape(n, n),
        games=np.frombuffer(games, dtype=_INTS).astype(np.int64, copy=False),
        matches=int(matches),
    )
    return Snapshot(int(generation), int(last_seq), int(exact_seq), posterior)
