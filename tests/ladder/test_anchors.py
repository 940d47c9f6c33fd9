"""Pinned anchors in real PostgreSQL: a ladder seeded with anchors keeps them at their pins while
other bots play, one match at a time and in batches, through a void's replay, and its official
standings report on the anchors' scale, from a fresh fit, a fold and a stored snapshot alike."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import psycopg
import pytest

from ladder import elo
from ladder.anchors import anchors, remove_anchor, set_anchor
from ladder.queries import StandingsCache, leaderboard
from ladder.store import rate_finished, rate_match, void_match
from tests.ladder.synthetic import GAME, Synthetic, add_bots, insert_matches
from tests.ladder.test_store import stored_ratings

Conn = psycopg.Connection[Any]
TO_ELO = 400 / math.log(10)
PINS = {"builtin:random": 1100.0, "builtin:heuristic": 1500.0}
TRUTH = {**PINS, "ann": 1200.0, "bob": 1350.0, "cyd": 1600.0, "dan": 1450.0}


def plackett_luce(count: int, seed: int) -> list[Synthetic]:
    """Three-player matches among TRUTH's players, orders drawn from their strengths."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        seats = rng.sample(list(TRUTH), 3)
        noisy = [TRUTH[s] / TO_ELO - math.log(-math.log(rng.random())) for s in seats]
        order = sorted(range(3), key=lambda i: -noisy[i])
        ranks = [0, 0, 0]
        for place, seat in enumerate(order, start=1):
            ranks[seat] = place
        out.append(Synthetic(tuple(seats), tuple(ranks)))
    return out


def expected(matches: list[Synthetic]) -> tuple[dict[str, float], dict[str, int]]:
    """Live Elo one match at a time with the anchors pinned, independently of ladder.store."""
    ratings: dict[str, float] = {}
    games: dict[str, int] = {}
    for match in matches:
        update = elo.pinned_update(
            [ratings.get(p, elo.DEFAULT_PARAMS.start_rating) for p in match.seats],
            [games.get(p, 0) for p in match.seats],
            list(match.ranks),
            [PINS.get(p) for p in match.seats],
        )
        for player, rating in zip(match.seats, update.ratings, strict=True):
            ratings[player] = rating
            games[player] = games.get(player, 0) + 1
    return ratings, games


def seeded(conn: Conn, matches: list[Synthetic]) -> list[str]:
    for player, rating in PINS.items():
        set_anchor(conn, GAME, player, rating)
    bots = add_bots(conn, [name for name in TRUTH if not name.startswith("builtin:")])
    return insert_matches(conn, matches, bots)


def test_anchors_keep_their_pins_and_the_standings_report_on_their_scale(
    database_url: str, conn: Conn
) -> None:
    matches = plackett_luce(1500, seed=5)
    ids = seeded(conn, matches)
    for match_id in ids[:40]:  # one transaction per match, then the rest in batches
        assert rate_match(conn, match_id)
    assert rate_finished(database_url) == len(ids) - 40

    assert stored_ratings(conn) == expected(matches)
    pinned = conn.execute(
        "SELECT coalesce('builtin:' || p.builtin, '?'), h.before, h.after, h.delta, h.pinned"
        " FROM rating_history h JOIN ladder_players p ON p.id = h.player_id"
        " WHERE h.pinned IS NOT NULL"
    ).fetchall()
    assert len(pinned) == sum(p in PINS for m in matches for p in m.seats)
    assert all(
        after == before == pin == PINS[name] and delta == 0.0
        for name, before, after, delta, pin in pinned
    )

    board = {entry.player: entry for entry in leaderboard(conn, GAME, StandingsCache()).entries}
    for player, pin in PINS.items():
        assert board[player].anchor and board[player].elo == pin
        standing = board[player].standing
        assert standing is not None and standing.low <= pin <= standing.high
    assert not any(board[name].anchor for name in ("ann", "bob", "cyd", "dan"))
    levels = [s.rating for p in PINS if (s := board[p].standing) is not None]
    assert np.mean(levels) == pytest.approx(np.mean(list(PINS.values())), abs=1e-6)
    for name, true in TRUTH.items():
        standing = board[name].standing
        assert standing is not None and abs(standing.rating - true) <= 3 * standing.stderr, name


def test_a_void_replays_the_ladder_with_the_pins_it_was_rated_with(
    database_url: str, conn: Conn
) -> None:
    matches = plackett_luce(200, seed=6)
    ids = seeded(conn, matches)
    assert rate_finished(database_url) == len(ids)
    set_anchor(conn, GAME, "builtin:random", 900.0)  # moved after the fact: history keeps 1100
    assert void_match(conn, ids[10], "test")
    ratings, games = expected(matches[:10] + matches[11:])
    ratings["builtin:random"] = 900.0  # its row follows the pin of the moment
    assert stored_ratings(conn) == (ratings, games)


def test_setting_moving_and_removing_an_anchor(database_url: str, conn: Conn) -> None:
    bots = add_bots(conn, ["ann"])
    cache = StandingsCache()
    assert leaderboard(conn, GAME, cache).entries == (), "an empty fit, re-anchored below"
    set_anchor(conn, GAME, "builtin:random", 1400.0)
    insert_matches(conn, [Synthetic(("ann", "builtin:random"), (1, 2))], bots)
    assert rate_finished(database_url) == 1
    first = {e.player: e for e in leaderboard(conn, GAME, cache).entries}
    assert first["builtin:random"].anchor and first["builtin:random"].elo == 1400.0
    assert remove_anchor(conn, GAME, "builtin:random")
    before = {e.player: e for e in leaderboard(conn, GAME, cache).entries}
    assert not before["builtin:random"].anchor
    set_anchor(conn, GAME, "builtin:random", 1234.5)
    assert anchors(conn) == anchors(conn, GAME) and [a.rating for a in anchors(conn)] == [1234.5]
    board = {e.player: e for e in leaderboard(conn, GAME, cache).entries}
    assert board["builtin:random"].anchor and board["builtin:random"].elo == 1234.5
    pinned = board["builtin:random"].standing
    assert pinned is not None and pinned.rating == pytest.approx(1234.5)
    assert remove_anchor(conn, GAME, "builtin:random")
    assert not remove_anchor(conn, GAME, "builtin:random")
    insert_matches(conn, [Synthetic(("ann", "builtin:random"), (2, 1), id="")], bots)
    assert rate_finished(database_url) == 1
    after = {e.player: e for e in leaderboard(conn, GAME, cache).entries}
    assert not after["builtin:random"].anchor and after["builtin:random"].elo > 1234.5
    for refused in ("ann", "builtin:nobody", "builtin:random "):
        with pytest.raises(ValueError):
            set_anchor(conn, GAME, refused, 1500.0)
    with pytest.raises(ValueError):
        set_anchor(conn, GAME, "builtin:random", float("inf"))
    with pytest.raises(ValueError):
        set_anchor(conn, "no-such-game", "builtin:random", 1500.0)


def test_a_restart_from_the_stored_fit_reports_on_the_anchors_scale(
    database_url: str, conn: Conn
) -> None:
    ids = seeded(conn, plackett_luce(300, seed=7))
    assert rate_finished(database_url) == len(ids)
    first = leaderboard(conn, GAME, StandingsCache()).entries
    restarted = leaderboard(conn, GAME, StandingsCache()).entries
    assert [(e.player, e.standing) for e in first] == [(e.player, e.standing) for e in restarted]
    levels = [e.standing.rating for e in restarted if e.anchor and e.standing is not None]
    assert len(levels) == 2 and np.mean(levels) == pytest.approx(1300.0, abs=1e-6)
