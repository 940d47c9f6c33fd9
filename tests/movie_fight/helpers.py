"""Build Movie Fight cinemas and states from card numbers, and drive states with plain steps."""

from __future__ import annotations

import datetime
import json
import uuid
from collections.abc import Sequence
from typing import Any

import psycopg

from games.movie_fight import MovieFight, MovieFightState
from games.movie_fight.views import Cinema, Floor
from games.play import play_match
from games.rng import Rng, derive_seed
from games.values import to_plain

GAME = MovieFight()


def cinema(
    tile: int,
    first: tuple[Sequence[int], Sequence[int]],
    second: tuple[Sequence[int], Sequence[int]] = ((), ()),
    upgraded: Sequence[int] = (),
) -> Cinema:
    """A cinema from (audience, screens) of the 1st and of the 2nd floor."""
    return Cinema(
        tile=tile,
        floors=(Floor(tuple(first[0]), tuple(first[1])), Floor(tuple(second[0]), tuple(second[1]))),
        upgraded=tuple(sorted(upgraded)),
    )


def new_state(
    players: int, seed: int | str = 1, side: str = "A", level: int = 1
) -> MovieFightState:
    state = GAME.new(players, seed, {"side": side, "level": level})
    assert isinstance(state, MovieFightState)
    return state


def play_randomly(state: MovieFightState, seed: int | str = 0) -> None:
    rng = Rng(derive_seed("movie-fight-test", seed))
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_moves(seat)))


def insert_solo(
    conn: psycopg.Connection[Any], bot_id: int, level: int, seed: str, bot: str
) -> tuple[str, dict[str, Any]]:
    """A solo match really played in-process by a built-in bot, stored as the arbiter stores it
    (the remote bot ``bot_id`` in seat 0)."""
    record = play_match(GAME, 1, seed, [bot], {"level": level})
    outcome = to_plain(record.outcome)
    assert isinstance(outcome, dict)
    match_id = str(uuid.uuid4())
    with conn.transaction():
        conn.execute(
            "INSERT INTO matches (id, game, options, players, seed, move_time_ms, time_bank_ms,"
            " strike_limit, status, outcome, finished_at, created_at, rated)"
            " VALUES (%s, %s, %s, 1, %s, 1000, 10000, 3, 'finished', %s, %s, now(), true)",
            (
                match_id,
                GAME.id,
                json.dumps(record.options),
                seed,
                json.dumps(outcome),
                datetime.datetime.now(datetime.UTC),
            ),
        )
        conn.execute(
            "INSERT INTO match_seats (match_id, seat, bot_id, builtin) VALUES (%s, 0, %s, NULL)",
            (match_id, bot_id),
        )
    return match_id, outcome
