"""An event's life cycle in real PostgreSQL, driven tick by tick with the clock given
(``workers.events.advance``, what the beat's tick calls): entry opens at its time, a tick twice
changes nothing twice, a paused event neither opens nor starts, at the start the entrants the
gate still admits become a league seeded strongest first, too few of them cancel it with the
reason, and the event ends with its league."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest

from tests.integration.services import scratch_database
from workers import events, leagues

GAME = "movie-tricks"
T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def conn() -> Iterator[psycopg.Connection[Any]]:
    with scratch_database() as url, leagues.connect(url) as connection:
        yield connection


def rated(conn: psycopg.Connection[Any], *names: str) -> None:
    """Bots in rated play in the game, as the workers leave them after validation, each with a
    live rating and an official standing (ladder_players/ratings/published_standings) so the
    seeding can order them."""
    for rating, name in enumerate(names):
        conn.execute(
            "INSERT INTO bots (name, token_hash) VALUES (%s, %s)", (name, f"hash-of-{name}")
        )
        conn.execute("INSERT INTO bot_standing (bot, state) VALUES (%s, 'rated')", (name,))
        conn.execute(
            "INSERT INTO lineage_validations (family, game, bot)"
            " SELECT family, %s, name FROM bot_lineage WHERE name = %s",
            (GAME, name),
        )
        conn.execute("INSERT INTO ladders (game) VALUES (%s) ON CONFLICT DO NOTHING", (GAME,))
        player = conn.execute(
            "INSERT INTO ladder_players (bot_id) SELECT id FROM bots WHERE name = %s RETURNING id",
            (name,),
        ).fetchone()
        assert player is not None
        conn.execute(
            "INSERT INTO ratings (game, player_id, rating) VALUES (%s, %s, %s)",
            (GAME, player["id"], 1400 + 50 * rating),
        )
        conn.execute(
            "INSERT INTO published_standings (game, player_id, rating, low, high, games,"
            " provisional, matches) VALUES (%s, %s, %s, %s, %s, 30, false, 90)",
            (GAME, player["id"], 1400 + 50 * rating, 1350 + 50 * rating, 1450 + 50 * rating),
        )


def enter(conn: psycopg.Connection[Any], event: events.Event, *bots: str) -> None:
    for bot in bots:
        conn.execute(
            "INSERT INTO event_entries (event_id, bot, account) VALUES (%s, %s, %s)",
            (event.id, bot, f"{bot}-lab"),
        )


def make(conn: psycopg.Connection[Any], name: str, fmt: str = "knockout") -> events.Event:
    return events.create_event(
        conn,
        name=name,
        game=GAME,
        format=fmt,
        players=2,
        opens_at=T0 + timedelta(minutes=10),
        starts_at=T0 + timedelta(minutes=20),
    )


def test_an_event_opens_starts_seeded_and_ends_with_its_league(
    conn: psycopg.Connection[Any],
) -> None:
    rated(conn, "ada", "grace", "edsger")
    cup = make(conn, "cup")
    assert cup.status == "announced"
    assert events.advance(conn, T0) == []
    assert events.advance(conn, T0 + timedelta(minutes=10)) == [("cup", "open")]
    assert events.advance(conn, T0 + timedelta(minutes=11)) == []
    enter(conn, cup, "ada", "grace", "edsger")
    conn.execute("UPDATE bot_standing SET state = 'probation' WHERE bot = 'ada'")
    assert events.advance(conn, T0 + timedelta(minutes=20)) == [("cup", "running")]
    started = events.get_event(conn, "cup")
    assert started is not None and started.league_id is not None
    league = leagues.get_league(conn, started.league_id)
    assert league is not None
    # ada fell back to probation since it entered: left out. The others strongest first.
    assert league.bots == ("edsger", "grace") and league.format == "knockout"
    assert league.rated and league.name == "event-cup"
    assert events.advance(conn, T0 + timedelta(minutes=21)) == []
    leagues.set_status(conn, league.id, "cancelled")
    assert events.advance(conn, T0 + timedelta(minutes=22)) == [("cup", "cancelled")]


def test_a_paused_event_waits_and_too_few_entrants_cancel_it_saying_why(
    conn: psycopg.Connection[Any],
) -> None:
    rated(conn, "ada")
    cup = make(conn, "small-cup", fmt="round-robin")
    assert events.set_status(conn, "small-cup", "paused") == "paused"
    assert events.advance(conn, T0 + timedelta(minutes=30)) == []
    assert events.set_status(conn, "small-cup", "active") == "announced"
    enter(conn, cup, "ada")
    assert events.advance(conn, T0 + timedelta(minutes=30)) == [("small-cup", "cancelled")]
    ended = events.get_event(conn, "small-cup")
    assert ended is not None and ended.status == "cancelled"
    assert ended.reason == "1 entrants could be seated; the event needs 2"
    with pytest.raises(ValueError, match="cancelled; it cannot become paused"):
        events.set_status(conn, "small-cup", "paused")


def test_an_event_is_checked_against_its_game_and_format_when_announced(
    conn: psycopg.Connection[Any],
) -> None:
    with pytest.raises(ValueError, match="unknown format 'pyramid'"):
        make(conn, "odd", fmt="pyramid")
    with pytest.raises(ValueError, match="rated"):
        make(conn, "odd", fmt="sprt")
    with pytest.raises(ValueError, match="starts after its entry opens"):
        events.create_event(
            conn, name="odd", game=GAME, format="swiss", players=2, opens_at=T0,
            starts_at=T0 - timedelta(minutes=1),
        )  # fmt: skip


def test_a_void_heat_is_dealt_again_and_then_decided_without_the_withdrawn_bot(
    conn: psycopg.Connection[Any],
) -> None:
    """Every table of a knockout's first round void (ada was removed meanwhile): the league
    deals the heats again in rounds of their own, lengthening itself, and after the replays
    the tie-break sends the better seed through, the withdrawn bot last."""
    rated(conn, "ada", "grace", "edsger", "barbara")
    league = leagues.create_league(
        conn,
        name="cup",
        game=GAME,
        format="knockout",
        players=2,
        bots=["ada", "grace", "edsger", "barbara"],
        settings={"deals": 1},
        rated=True,
    )
    assert league.rounds == 2
    seeds = []
    for number in (1, 2, 3):
        assert leagues.open_round(conn, league.id, T0) == number
        tables = leagues.plan_round(conn, league.id, number)
        assert sorted(set(t.seats) for t in tables) == sorted(
            [{"ada", "barbara"}, {"ada", "barbara"}, {"grace", "edsger"}, {"grace", "edsger"}],
        )
        seeds.append({t.seed for t in tables})
        if number == 1:
            conn.execute("UPDATE bots SET removed_at = now() WHERE name = 'ada'")
        for table_no in range(len(tables)):
            leagues.record_refusal(conn, league.id, number, table_no)
        assert leagues.close_round(conn, league.id, number) is not None
        after = leagues.get_league(conn, league.id)
        assert after is not None and after.status == "active"
        assert after.rounds == 2 + min(number, 2)  # one more round for each replay
    assert not set.intersection(*seeds)  # every replay on a new deal
    recorded = conn.execute(
        "SELECT number, withdrawn FROM league_rounds WHERE league_id = %s ORDER BY number",
        (league.id,),
    ).fetchall()
    assert [(r["number"], r["withdrawn"]) for r in recorded] == [
        (1, []),
        (2, ["ada"]),
        (3, ["ada"]),
    ]
    assert leagues.open_round(conn, league.id, T0) == 4
    final = leagues.plan_round(conn, league.id, 4)
    assert {frozenset(t.seats) for t in final} == {frozenset({"grace", "barbara"})}
