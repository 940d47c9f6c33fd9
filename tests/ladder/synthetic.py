"""Synthetic ladders for the database tests: bots and ended matches written straight into the
arbiter's tables, exactly as the arbiter's store writes them, without playing anything."""

from __future__ import annotations

import datetime
import json
import random
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import psycopg

from server.store import hash_token, new_token

GAME = "movie-tricks"
EPOCH = datetime.datetime(2024, 6, 1, tzinfo=datetime.UTC)


@dataclass(frozen=True)
class Synthetic:
    """A match to insert: seats are bot names or "builtin:<name>"."""

    seats: tuple[str, ...]
    ranks: tuple[int, ...]
    status: str = "finished"
    game: str = GAME
    id: str = ""

    def scores(self) -> list[int]:
        worst = max(self.ranks)
        return [10 * (worst - rank + 1) for rank in self.ranks]


def add_bots(conn: psycopg.Connection[Any], names: Sequence[str]) -> dict[str, int]:
    ids = {}
    for name in names:
        row = conn.execute(
            "INSERT INTO bots (name, token_hash) VALUES (%s, %s) RETURNING id",
            (name, hash_token(new_token())),
        ).fetchone()
        assert row is not None
        ids[name] = int(row[0])
    conn.commit()
    return ids


def insert_matches(
    conn: psycopg.Connection[Any], matches: Sequence[Synthetic], bots: dict[str, int]
) -> list[str]:
    """Insert the matches, finishing one second apart in list order; returns their ids."""
    ids = [match.id or str(uuid.uuid4()) for match in matches]
    match_rows = []
    seat_rows = []
    for position, (match_id, match) in enumerate(zip(ids, matches, strict=True)):
        ended = EPOCH + datetime.timedelta(seconds=position)
        finished = match.status == "finished"
        outcome = (
            {
                "scores": match.scores(),
                "ranks": list(match.ranks),
                "tiebreaks": [],
                "forfeited": [],
            }
            if finished
            else None
        )
        match_rows.append(
            (
                match_id,
                match.game,
                json.dumps({}),
                len(match.seats),
                f"seed-{position}",
                match.status,
                json.dumps(outcome) if outcome is not None else None,
                ended if match.status in ("finished", "void") else None,
                "synthetic void" if match.status == "void" else None,
            )
        )
        for seat, player in enumerate(match.seats):
            builtin = player.removeprefix("builtin:") if player.startswith("builtin:") else None
            seat_rows.append((match_id, seat, None if builtin else bots[player], builtin))
    with conn.cursor() as cursor:
        # Matches and seats in one transaction: the ladder's queue trigger fires on the match
        # row, and a rater sees the queued match only once its seats are there too.
        cursor.executemany(
            "INSERT INTO matches (id, game, options, players, seed, move_time_ms, time_bank_ms,"
            " strike_limit, status, outcome, finished_at, void_reason, created_at, rated)"
            " VALUES (%s, %s, %s, %s, %s, 1000, 10000, 3, %s, %s, %s, %s, now(), true)",
            match_rows,
        )
        cursor.executemany(
            "INSERT INTO match_seats (match_id, seat, bot_id, builtin) VALUES (%s, %s, %s, %s)",
            seat_rows,
        )
    conn.commit()
    return ids


def random_matches(
    count: int, names: Sequence[str], seed: int, seats: int = 4, ties: bool = True
) -> list[Synthetic]:
    """Four-player matches among ``names`` with random finishing orders, some with ties."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        players = rng.sample(list(names), seats)
        ranks = list(range(1, seats + 1))
        rng.shuffle(ranks)
        if ties and rng.random() < 0.2:
            # Two seats share the better of their two places; only comparisons of ranks matter.
            a, b = rng.sample(range(seats), 2)
            ranks[a] = ranks[b] = min(ranks[a], ranks[b])
        out.append(Synthetic(tuple(players), tuple(ranks)))
    return out


def rate_in_order(database_url: str, match_ids: Sequence[str], start: Any, results: Any) -> None:
    """A rater process: wait at the ``start`` barrier, rate ``match_ids`` in the order given,
    and put the number of matches this process rated on ``results``."""
    from ladder.store import rate_match

    with psycopg.connect(database_url, autocommit=True) as conn:
        start.wait()
        rated = sum(rate_match(conn, match_id) for match_id in match_ids)
    results.put(rated)
