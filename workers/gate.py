"""Bot standing in PostgreSQL: admitting new bots, their validation matches, probation, and the
operator's disable/enable; every change with an event (the decisions are in
``workers.standing``; docs/ratings.md, "Validation and probation", says what they mean).

Like ``workers.leagues``, every function re-reads what it needs and writes idempotently, so a
task run twice, or two workers at once, change nothing the second time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import psycopg

import games
from games.bots import bot_names
from premiere.admission import SeatStanding, judge
from workers.standing import (
    Change,
    Policy,
    ValidationMatch,
    inherited_change,
    probation_change,
    validation_change,
)

Row = dict[str, Any]

__all__ = [
    "Standing",
    "admit_new",
    "apply",
    "collect_validation",
    "decide",
    "events",
    "mark_validation_dispatched",
    "note",
    "plan_validation",
    "resolve_seats",
    "seat_standings",
    "seated",
    "set_enabled",
    "standing",
    "validation_request",
    "validation_to_dispatch",
]


@dataclass(frozen=True)
class Standing:
    bot: str
    state: str
    reason: str


def apply(conn: psycopg.Connection[Row], bot: str, old: str | None, change: Change) -> bool:
    """Move ``bot`` from state ``old`` (None: it has no standing yet) to the change's state,
    with its event, in one transaction; False if its state was no longer ``old``."""
    with conn.transaction():
        # The family's row, as the arbiter locks it while it seats the bot: a match is seated
        # on the standing before this change or after it, never in between.
        conn.execute(
            "SELECT 1 FROM bot_families WHERE id = (SELECT family_id FROM bot_families"
            " WHERE name = %s) FOR UPDATE",
            (bot,),
        )
        if old is None:
            done = conn.execute(
                "INSERT INTO bot_standing (bot, state, reason) VALUES (%s, %s, %s)"
                " ON CONFLICT (bot) DO NOTHING",
                (bot, change.state, change.message),
            )
        else:
            done = conn.execute(
                "UPDATE bot_standing SET state = %s, since = clock_timestamp(), reason = %s"
                " WHERE bot = %s AND state = %s",
                (change.state, change.message, bot, old),
            )
        if done.rowcount != 1:
            return False
        conn.execute(
            "INSERT INTO bot_events (bot, kind, message) VALUES (%s, %s, %s)",
            (bot, change.kind, change.message),
        )
    return True


def note(conn: psycopg.Connection[Row], bot: str, kind: str, message: str) -> None:
    """An event that changes no standing (a version made active, say)."""
    conn.execute(
        "INSERT INTO bot_events (bot, kind, message) VALUES (%s, %s, %s)", (bot, kind, message)
    )


def standing(conn: psycopg.Connection[Row], bot: str) -> Standing | None:
    row = conn.execute(
        "SELECT bot, state, reason FROM bot_standing WHERE bot = %s", (bot,)
    ).fetchone()
    return Standing(row["bot"], row["state"], row["reason"]) if row else None


def events(conn: psycopg.Connection[Row], bot: str, limit: int = 100) -> list[Row]:
    return conn.execute(
        "SELECT at, kind, message FROM bot_events WHERE bot = %s ORDER BY id DESC LIMIT %s",
        (bot, limit),
    ).fetchall()[::-1]


def _claimed(plays: Sequence[str] | None) -> list[str]:
    return sorted(plays) if plays else list(games.ids())


def admit_new(conn: psycopg.Connection[Row], policy: Policy) -> list[str]:
    """Give every bot that has connected and has no standing one. A new version takes its
    predecessor's (``workers.standing.inherited_change``: a version bump does not end a
    probation, and keeps what its lineage validated); a new bot validates (or is rated at once
    when there is no gate). Returns the bots admitted."""
    rows = conn.execute(
        "SELECT d.name, d.games, l.predecessor, l.family, p.state AS inherited"
        " FROM bot_directory d"
        " LEFT JOIN bot_lineage l ON l.name = d.name"
        " LEFT JOIN bot_standing p ON p.bot = l.predecessor"
        " WHERE NOT d.removed AND d.games IS NOT NULL"
        " AND NOT EXISTS (SELECT 1 FROM bot_standing s WHERE s.bot = d.name) ORDER BY d.name"
    ).fetchall()
    admitted = []
    for row in rows:
        claimed = _claimed(row["games"])
        change = inherited_change(row["predecessor"], row["inherited"], claimed, policy)
        if policy.matches == 0 and change.state == "rated" and row["family"]:
            # Validated before it stands rated: the arbiter re-judges every table it seats,
            # and must never see a rated bot its gate would call unvalidated.
            _validated(conn, row["family"], row["name"], claimed)
        if apply(conn, row["name"], None, change):
            admitted.append(row["name"])
    if policy.matches == 0:
        validate_without_gate(conn)
    return admitted


def validate_without_gate(conn: psycopg.Connection[Row]) -> None:
    """With no gate, every game a bot in rated play claims counts as validated."""
    for row in conn.execute(
        "SELECT l.family, s.bot, d.games FROM bot_standing s"
        " JOIN bot_lineage l ON l.name = s.bot JOIN bot_directory d ON d.name = s.bot"
        " WHERE s.state = 'rated'"
    ).fetchall():
        _validated(conn, row["family"], row["bot"], _claimed(row["games"]))


def _validated(
    conn: psycopg.Connection[Row], family: str, bot: str, claimed: Sequence[str]
) -> None:
    conn.execute(
        "INSERT INTO lineage_validations (family, game, bot) SELECT %s, g, %s"
        " FROM unnest(%s::text[]) g ON CONFLICT DO NOTHING",
        (family, bot, list(claimed)),
    )


def seat_standings(conn: psycopg.Connection[Row], seats: Sequence[str]) -> dict[str, SeatStanding]:
    """What the gate (``premiere.admission.judge``) needs of each registered seat name."""
    rows_of = seated(conn, seats)
    found = {
        row["bot"]: row
        for row in conn.execute(
            "SELECT * FROM seat_admission WHERE bot = ANY(%s)", (list(rows_of.values()),)
        ).fetchall()
    }
    return {
        name: SeatStanding.from_row(row)
        for name, bot in rows_of.items()
        if (row := found.get(bot)) is not None
    }


def withdrawn(conn: psycopg.Connection[Any], game: str, bots: Sequence[str]) -> frozenset[str]:
    """The registered bots among ``bots`` that the gate refuses at any table of ``game`` now
    (removed, disabled, an account disabled): a table seating one is void."""
    registered = [bot for bot in bots if not bot.startswith("builtin:")]
    standings = seat_standings(conn, registered)
    return frozenset(
        bot
        for bot in registered
        if bot not in standings or judge(game, [standings[bot]], rated=False).refused
    )


def _seat_name(conn: psycopg.Connection[Row], bot: str) -> str:
    """The seat name that seats exactly this bots row (a root with a version: NAME@VERSION)."""
    row = conn.execute(
        "SELECT name, version, family = name AS root FROM bot_lineage WHERE name = %s", (bot,)
    ).fetchone()
    if row is not None and row["root"] and row["version"]:
        return f"{row['name']}@{row['version']}"
    return bot


def plan_validation(conn: psycopg.Connection[Row], policy: Policy) -> int:
    """Plan the validation matches of every bot that needs some and is its family's active
    version: a validating bot in each game it claims, a rated one in each claimed game its
    lineage has not validated (validation is per game). ``policy.matches`` per game at its
    smallest table of two or more that the bot accepts, the other seats held by built-ins,
    the bot's seat rotated. An inactive version waits until it is made active."""
    if policy.matches == 0:
        return 0
    # Only a family's active version is validated, one validation at a time per family: a bot
    # that announces version after version cannot make the arbiter play more than that.
    rows = conn.execute(
        "SELECT s.bot, s.state, s.since, d.games, d.player_counts, l.family,"
        " coalesce((SELECT array_agg(v.game) FROM lineage_validations v"
        "   WHERE v.family = l.family), '{}') AS validated,"
        " coalesce((SELECT array_agg(DISTINCT v.game) FROM validation_matches v"
        "   WHERE v.bot = s.bot AND v.created_at >= s.since), '{}') AS attempted"
        " FROM bot_standing s"
        " JOIN bot_directory d ON d.name = s.bot"
        " JOIN bot_lineage l ON l.name = s.bot AND l.active"
        " WHERE s.state IN ('validating', 'rated')"
        " AND NOT EXISTS (SELECT 1 FROM validation_matches v JOIN bot_lineage o ON o.name = v.bot"
        "   WHERE o.family = l.family AND v.status IN ('planned', 'dispatched'))"
    ).fetchall()
    planned = 0
    for row in rows:
        seat = _seat_name(conn, row["bot"])
        if row["state"] == "validating":
            if row["attempted"]:
                continue
            wanted = _claimed(row["games"])
        else:
            done = set(row["validated"]) | set(row["attempted"])
            wanted = [g for g in _claimed(row["games"]) if g not in done]
        with conn.transaction():
            for game_id in wanted:
                planned += _plan_game(conn, row, seat, game_id, policy)
    return planned


def _plan_game(
    conn: psycopg.Connection[Row], row: Row, seat: str, game_id: str, policy: Policy
) -> int:
    engine = games.get(game_id)
    sizes = [
        n
        for n in engine.player_counts
        if n >= 2 and (row["player_counts"] is None or n in row["player_counts"])
    ]
    if not sizes:
        return 0  # it accepts no table of this game that seats others
    players = min(sizes)
    names = bot_names(engine)
    fill = [n for n in ("heuristic", "random", "first", "last") if n in names]
    start = conn.execute(
        "SELECT coalesce(max(number) + 1, 0) AS n FROM validation_matches"
        " WHERE bot = %s AND game = %s",
        (row["bot"], game_id),
    ).fetchone()
    assert start is not None
    for k in range(policy.matches):
        others = [f"builtin:{fill[(k + i) % len(fill)]}" for i in range(players - 1)]
        at = k % players
        seats = [*others[:at], seat, *others[at:]]
        conn.execute(
            "INSERT INTO validation_matches (bot, game, number, seats)"
            " VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
            (row["bot"], game_id, start["n"] + k, seats),
        )
    return policy.matches


def validation_to_dispatch(conn: psycopg.Connection[Row]) -> list[tuple[str, str, int]]:
    rows = conn.execute(
        "SELECT v.bot, v.game, v.number FROM validation_matches v"
        " JOIN bot_standing s ON s.bot = v.bot AND s.state IN ('validating', 'rated')"
        " WHERE v.status = 'planned' ORDER BY v.bot, v.game, v.number"
    ).fetchall()
    return [(r["bot"], r["game"], r["number"]) for r in rows]


def validation_request(
    conn: psycopg.Connection[Row], bot: str, game: str, number: int
) -> list[str] | None:
    """The seats of a validation match still to create, or None."""
    row = conn.execute(
        "SELECT v.seats FROM validation_matches v"
        " JOIN bot_standing s ON s.bot = v.bot AND s.state IN ('validating', 'rated')"
        " WHERE v.bot = %s AND v.game = %s AND v.number = %s AND v.status = 'planned'",
        (bot, game, number),
    ).fetchone()
    return list(row["seats"]) if row else None


def mark_validation_dispatched(
    conn: psycopg.Connection[Row], bot: str, game: str, number: int, match_id: str | None
) -> None:
    """Record the created match (None: the arbiter refused it, so it counts as void)."""
    conn.execute(
        "UPDATE validation_matches SET match_id = %s,"
        " status = CASE WHEN %s::uuid IS NULL THEN 'void' ELSE 'dispatched' END"
        " WHERE bot = %s AND game = %s AND number = %s AND status = 'planned'",
        (match_id, match_id, bot, game, number),
    )


def collect_validation(conn: psycopg.Connection[Row]) -> int:
    done = conn.execute(
        "UPDATE validation_matches v SET status = m.status FROM match_results m"
        " WHERE v.match_id = m.id AND v.status = 'dispatched' AND m.status IN ('finished', 'void')"
    )
    return done.rowcount


def decide(conn: psycopg.Connection[Row], policy: Policy) -> list[tuple[str, Change]]:
    """Settle validations whose matches all ended, and start or end probations."""
    changes: list[tuple[str, Change]] = []
    validating = conn.execute(
        "SELECT s.bot, s.state, s.since, l.family FROM bot_standing s"
        " JOIN bot_lineage l ON l.name = s.bot"
        " WHERE s.state IN ('validating', 'rated') AND EXISTS (SELECT 1 FROM validation_matches v"
        "   WHERE v.bot = s.bot AND v.created_at >= s.since) ORDER BY s.bot"
    ).fetchall()
    for row in validating:
        # A rated bot's validations are of the games its lineage had not validated yet.
        rows = conn.execute(
            "SELECT v.game, v.match_id, v.status, coalesce(f.faults, '{}') AS faults"
            " FROM validation_matches v"
            " LEFT JOIN bot_match_faults f ON f.match_id = v.match_id AND f.bot = v.bot"
            " WHERE v.bot = %s AND v.created_at >= %s AND (%s = 'validating' OR NOT EXISTS"
            "   (SELECT 1 FROM lineage_validations l WHERE l.family = %s AND l.game = v.game))"
            " ORDER BY v.game, v.number",
            (row["bot"], row["since"], row["state"], row["family"]),
        ).fetchall()
        if not rows:
            continue
        matches = [
            ValidationMatch(r["game"], str(r["match_id"]), r["status"], tuple(r["faults"]))
            for r in rows
            if r["status"] in ("finished", "void")
        ]
        change = validation_change(matches, expected=len(rows))
        if change is None:
            continue
        passed = sorted({m.game for m in matches}) if change.state == "rated" else []
        if row["state"] == "rated" and passed:
            # A rated bot validated one more game (failing it fails the bot, below).
            with conn.transaction():
                _validated(conn, row["family"], row["bot"], passed)
                note(conn, row["bot"], "validated", change.message)
            changes.append((row["bot"], change))
            continue
        with conn.transaction():
            if apply(conn, row["bot"], row["state"], change):
                _validated(conn, row["family"], row["bot"], passed)
                changes.append((row["bot"], change))
    # One round trip for every watched bot: its latest matches since its state began. A
    # probation is the lineage's (premiere/admission.py): the matches of every version of it
    # count towards ending it, so a version rolled back to, or a removal, neither ends it nor
    # leaves it unending.
    watched = conn.execute(
        "SELECT s.bot, s.state,"
        " coalesce(array_agg(f.n ORDER BY f.finished_at) FILTER (WHERE f.n IS NOT NULL), '{}')"
        "   AS recent"
        " FROM bot_standing s JOIN bot_lineage l ON l.name = s.bot LEFT JOIN LATERAL ("
        "   SELECT cardinality(faults) AS n, finished_at FROM bot_match_faults"
        "   WHERE (bot = s.bot OR (s.state = 'probation' AND bot IN"
        "     (SELECT o.name FROM bot_lineage o WHERE o.family = l.family)))"
        "   AND status = 'finished' AND finished_at > s.since"
        "   ORDER BY finished_at DESC LIMIT %s) f ON true"
        " WHERE s.state IN ('rated', 'probation') GROUP BY s.bot, s.state ORDER BY s.bot",
        (max(policy.window, policy.recover),),
    ).fetchall()
    for row in watched:
        change = probation_change(row["state"], list(row["recent"]), policy)
        if change is not None and apply(conn, row["bot"], row["state"], change):
            changes.append((row["bot"], change))
    return changes


def set_enabled(conn: psycopg.Connection[Row], bot: str, enabled: bool) -> Change:
    """The operator's switch. Disabling seats the bot nowhere; enabling validates it again."""
    if conn.execute("SELECT 1 FROM bot_directory WHERE name = %s", (bot,)).fetchone() is None:
        raise LookupError(f"no bot named {bot!r} (`premiere bots list` shows them)")
    current = standing(conn, bot)
    if enabled:
        change = Change(
            "validating",
            "enabled",
            "enabled by the operator: validating again before rated play.",
        )
        if current is not None and current.state not in ("disabled", "failed"):
            raise ValueError(f"bot {bot!r} is {current.state}, not disabled or failed")
    else:
        change = Change(
            "disabled", "disabled", "disabled by the operator: no matches until enabled."
        )
        if current is not None and current.state == "disabled":
            return change
    if not apply(conn, bot, current.state if current else None, change):
        raise RuntimeError(f"bot {bot!r} changed state meanwhile; try again")
    return change


def seated(conn: psycopg.Connection[Row], names: Sequence[str]) -> dict[str, str]:
    """For each registered seat name, the bots row it seats (as the arbiter resolves it): a
    bot's name seats its active version, NAME@VERSION that version. Unknown names are left
    out."""
    rows = conn.execute(
        "SELECT n AS seat, CASE WHEN l.name = n AND l.name = l.family THEN a.name"
        "   ELSE l.name END AS seated"
        " FROM unnest(%s::text[]) n"
        " JOIN bot_lineage l ON NOT l.removed AND (l.name = n"
        "   OR (l.name = l.family AND l.name || '@' || l.version = n))"
        " JOIN bot_lineage a ON a.family = l.family AND a.active",
        ([name for name in names if not name.startswith("builtin:")],),
    ).fetchall()
    return {row["seat"]: row["seated"] for row in rows}


def resolve_seats(conn: psycopg.Connection[Row], seats: Sequence[str]) -> dict[str, str | None]:
    """Each registered seat's standing by the name in the seat: that of the version it seats.
    None: no standing yet (or no such bot)."""
    rows = seated(conn, seats)
    states = {
        row["bot"]: row["state"]
        for row in conn.execute(
            "SELECT bot, state FROM bot_standing WHERE bot = ANY(%s)", (list(rows.values()),)
        ).fetchall()
    }
    return {
        name: states.get(rows[name]) if name in rows else None
        for name in seats
        if not name.startswith("builtin:")
    }
