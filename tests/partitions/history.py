"""The history checker: what the bots were asked and answered (their records) against what the
database holds once a run is over, judged against each of Premiere's promises.

Each promise gets a verdict (`Verdict`): passed, or failed with the first few counterexamples.
A "move acknowledged" is a bot's answer to decision N of a match after which the match went on
(some bot of that match was asked a later decision): the host only asks the next decision once
the move is durable, so an acknowledged move must be in the log, as answered, at its ply.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import games
from games.play import step
from games.values import to_plain

Rows = Callable[..., list[dict[str, Any]]]


@dataclass
class Verdict:
    promise: str
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def line(self) -> str:
        if self.ok:
            return f"  PASS  {self.promise}"
        shown = "; ".join(self.problems[:3])
        more = f" (+{len(self.problems) - 3} more)" if len(self.problems) > 3 else ""
        return f"  FAIL  {self.promise}: {shown}{more}"


@dataclass
class Report:
    scenario: str
    faults: list[str]
    matches: int
    acknowledged: int
    verdicts: list[Verdict]
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return all(v.ok for v in self.verdicts)

    def text(self) -> str:
        head = (
            f"scenario {self.scenario}: {len(self.faults)} faults injected, {self.matches}"
            f" matches played, {self.acknowledged} moves acknowledged ({self.seconds:.0f} s)"
        )
        faults = [f"  fault {f}" for f in self.faults]
        return "\n".join([head, *faults, *(v.line() for v in self.verdicts)])


def read_records(folder: Path) -> list[dict[str, Any]]:
    records = []
    for path in sorted(folder.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            if line.strip():
                records.append(json.loads(line))
    return records


def answers(records: Iterable[dict[str, Any]]) -> dict[str, dict[int, dict[str, Any]]]:
    """match -> decision number -> the (last) answer the bot gave to it."""
    found: dict[str, dict[int, dict[str, Any]]] = defaultdict(dict)
    for r in records:
        if r["kind"] == "request":
            found[r["match"]][r["decision"]] = r
    return found


def _acknowledged(
    record: dict[str, Any],
    requests: list[dict[str, Any]],
    restarts: list[tuple[int, float]],
    players: int,
) -> bool:
    n, t, boot = record["decision"], record["t"], _boot(record["request_id"])
    for later in requests:
        if (
            _boot(later["request_id"]) == boot
            and later["decision"] >= n + players
            and later["t"] > t
            and not any(ply <= n and t < at < later["t"] for ply, at in restarts)
        ):
            return True
    return False


def _boot(request_id: str) -> str:
    """Request ids are "<match>:<boot>:<n>"; the boot tag names one host process."""
    return request_id.rsplit(":", 2)[-2]


HANDOFF_S = 0.1
"""The least time between one host's last request of a match and another host's first. A
handoff takes longer: the old host stops asking by L - R + R/2 after its last renewal, and the
new one may take the match only L after it (R/2 = 0.25 s with the scenarios' lease). Two
hosts asking at once alternate at the bots' answering pace, far closer than this."""


def overlaps(requests: Iterable[tuple[float, str]]) -> list[str]:
    """The handoffs, in one match's requests (time, host), too close to be a handoff.

    A match may move from one host to another and back (its first host cut from the database,
    then the second): each host's turns may span another's, but the turns never interleave.
    """
    problems = []
    previous: tuple[float, str] | None = None
    for t, host in sorted(requests):
        if previous is not None and host != previous[1] and t - previous[0] < HANDOFF_S:
            problems.append(
                f"host {host} asked {t - previous[0]:.3f} s after host {previous[1]} did"
            )
        previous = (t, host)
    return problems


class Checker:
    def __init__(self, rows: Rows, records: list[dict[str, Any]]) -> None:
        self.rows = rows
        self.records = records

    def matches(self) -> list[dict[str, Any]]:
        return self.rows("SELECT *, id::text AS mid FROM matches ORDER BY created_at")

    # --- the promises --------------------------------------------------------------------

    def one_writer(self) -> Verdict:
        """Per match, the fencing numbers of its moves never go down with the ply, none is
        above the lease's, and every ply is logged once, in order from 0."""
        verdict = Verdict("one writer per match (fencing numbers only go up)")
        leases = {r["mid"]: r["fence"] for r in self.rows(
            "SELECT match_id::text AS mid, fence FROM match_leases")}  # fmt: skip
        by_match: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for move in self.rows(
            "SELECT match_id::text AS mid, ply, fence FROM match_moves ORDER BY match_id, ply"
        ):
            by_match[move["mid"]].append(move)
        for mid, moves in by_match.items():
            fences = [m["fence"] or 0 for m in moves]
            if fences != sorted(fences):
                verdict.problems.append(f"{mid[:8]} fences {fences}")
            if [m["ply"] for m in moves] != list(range(len(moves))):
                verdict.problems.append(f"{mid[:8]} plies not 0..{len(moves) - 1}")
            if mid in leases and max(fences, default=0) > leases[mid]:
                verdict.problems.append(f"{mid[:8]} a move above the lease's fence")
        return verdict

    def no_acknowledged_move_lost(self) -> tuple[Verdict, int]:
        """Each acknowledged answer is at its ply in the log: the same move (re-executed from
        the seed, the answer's index among the legal moves), or a default with a fault.

        An answer to decision N is acknowledged when the same host (the boot tag in the
        request ids, and no resumption of the match in between that went back to N or
        before) later asked decision N + players or above: that request belongs to a later
        step (a step asks at most every seat, all at once), and a host asks a step only once
        every move of the step before is durable."""
        verdict = Verdict("no acknowledged move lost")
        given = answers(self.records)
        faulted = {(r["mid"], r["ply"]) for r in self.rows(
            "SELECT match_id::text AS mid, ply FROM match_faults")}  # fmt: skip
        count = 0
        for match in self.matches():
            mid = match["mid"]
            if mid not in given:
                continue
            moves = self.rows(
                "SELECT ply, seat, move, defaulted FROM match_moves WHERE match_id = %s"
                " ORDER BY ply",
                mid,
            )
            legal_at = self._legal_by_ply(match, moves)
            restarts = [
                (r["ply"], r["at"].timestamp())
                for r in self.rows(
                    "SELECT ply, at FROM match_faults WHERE match_id = %s AND kind = 'restart'",
                    mid,
                )
            ]
            mine = [r for r in self.records if r["kind"] == "request" and r["match"] == mid]
            for decision, record in given[mid].items():
                if not _acknowledged(record, mine, restarts, match["players"]):
                    continue
                count += 1
                if decision >= len(moves):
                    verdict.problems.append(f"{mid[:8]} ply {decision} acknowledged, not logged")
                    continue
                move = moves[decision]
                if move["seat"] != record["seat"]:
                    verdict.problems.append(f"{mid[:8]} ply {decision} logged for another seat")
                    continue
                if move["defaulted"]:
                    if (mid, decision) not in faulted:
                        verdict.problems.append(f"{mid[:8]} ply {decision} defaulted, no fault")
                    continue
                game = games.get(match["game"])
                decoded = game.decode_move(move["move"], move["seat"])
                legal = legal_at.get(decision, ())
                index = legal.index(decoded) if decoded in legal else -1
                if index != record["index"]:
                    verdict.problems.append(
                        f"{mid[:8]} ply {decision}: answered {record['index']}, logged {index}"
                    )
        return verdict, count

    def _legal_by_ply(
        self, match: dict[str, Any], moves: list[dict[str, Any]]
    ) -> dict[int, tuple[Any, ...]]:
        """The legal moves each logged ply was chosen from, re-executing the match as its
        hosts did: a step asks every awaited seat from one state, and a host that resumes a
        match (a `restart` fault at that ply) starts a new step there."""
        game = games.get(match["game"])
        state = game.new(match["players"], match["seed"], match["options"])
        restarts = self.rows(
            "SELECT ply FROM match_faults WHERE match_id = %s AND kind = 'restart'", match["mid"]
        )
        resumed = {r["ply"] for r in restarts}
        legal_at: dict[int, tuple[Any, ...]] = {}
        ply = 0
        while ply < len(moves) and not state.is_over():
            asked = step(state)
            size = next((k for k in range(1, len(asked)) if ply + k in resumed), len(asked))
            for k, a in enumerate(asked[:size]):
                legal_at[ply + k] = a.legal
            for move in moves[ply : ply + size]:
                state.apply(move["seat"], game.decode_move(move["move"], move["seat"]))
            ply += size
        return legal_at

    def one_asker_at_a_time(self) -> Verdict:
        """Per match, the hosts (boot tags) that asked its bots took turns (`overlaps`), by
        when each host sent its requests: a request held in a cut link reaches its bot after
        the heal, maybe after the match moved, but was asked while its host held the match."""
        verdict = Verdict("one host asks a match's bots at a time")
        asked: dict[str, list[tuple[float, str]]] = defaultdict(list)
        for r in self.records:
            if r["kind"] == "request":
                asked[r["match"]].append((r.get("sent", r["t"]), _boot(r["request_id"])))
        for mid, requests in asked.items():
            verdict.problems += [f"{mid[:8]}: {problem}" for problem in overlaps(requests)]
        return verdict

    def every_bot_played(self, bots: list[str]) -> Verdict:
        """Each recording bot was asked decisions: a run in which one never played tested
        nothing of its links."""
        verdict = Verdict("every bot of the scenario was asked decisions (it tested something)")
        asked = {r["bot"] for r in self.records if r["kind"] == "request"}
        verdict.problems += [f"{bot} was never asked" for bot in bots if bot not in asked]
        return verdict

    def every_match_ends(self, last_heal: float, bound_s: float) -> Verdict:
        """Finished, or void with a reason, at most `bound_s` after the last heal, or after
        its creation for a match created later."""
        verdict = Verdict(f"every match ends within {bound_s:g} s of the last heal")
        for match in self.matches():
            mid = match["mid"][:8]
            if match["status"] not in ("finished", "void"):
                verdict.problems.append(f"{mid} is {match['status']}")
            elif match["status"] == "void" and not match["void_reason"]:
                verdict.problems.append(f"{mid} void without a reason")
            elif match["finished_at"] is not None:
                since = max(last_heal, match["created_at"].timestamp())
                late = match["finished_at"].timestamp() - since
                if late > bound_s:
                    verdict.problems.append(f"{mid} ended {late:.1f} s after the heal or its start")
        return verdict

    def replays(self) -> Verdict:
        """Every finished match re-executes from its seed and log to its stored outcome."""
        verdict = Verdict("every finished match replays to its outcome")
        for match in self.matches():
            if match["status"] != "finished":
                continue
            game = games.get(match["game"])
            state = game.new(match["players"], match["seed"], match["options"])
            for move in self.rows(
                "SELECT seat, move FROM match_moves WHERE match_id = %s ORDER BY ply", match["mid"]
            ):
                state.apply(move["seat"], game.decode_move(move["move"], move["seat"]))
            outcome = state.outcome()
            forfeited = self.rows(
                "SELECT seat FROM match_seats WHERE match_id = %s AND forfeited", match["mid"]
            )
            gone = [s["seat"] for s in forfeited]
            if outcome is None or to_plain(outcome.with_forfeits(gone)) != match["outcome"]:
                verdict.problems.append(f"{match['mid'][:8]} does not replay to its outcome")
        return verdict

    def rated_once_in_order(self) -> Verdict:
        verdict = Verdict("every finished rated match rated exactly once, in finish order")
        unrated = self.rows(
            "SELECT m.id::text AS mid FROM matches m WHERE m.status = 'finished' AND m.rated"
            " AND NOT EXISTS (SELECT 1 FROM rated_matches r WHERE r.match_id = m.id)"
        )
        verdict.problems += [f"{r['mid'][:8]} not rated" for r in unrated]
        twice = self.rows(
            "SELECT r.match_id::text AS mid, r.seats, count(h.seat) AS n FROM rated_matches r"
            " LEFT JOIN rating_history h ON h.match_id = r.match_id WHERE r.voided_at IS NULL"
            " AND r.seq IS NOT NULL GROUP BY r.match_id, r.seats HAVING count(h.seat) <> r.seats"
        )
        verdict.problems += [
            f"{r['mid'][:8]} {r['n']} ratings for {r['seats']} seats" for r in twice
        ]
        for game in {r["game"] for r in self.rows("SELECT DISTINCT game FROM rated_matches")}:
            by_seq = self.rows(
                "SELECT r.match_id FROM rated_matches r JOIN matches m ON m.id = r.match_id"
                " WHERE r.game = %s AND r.seq IS NOT NULL ORDER BY r.seq",
                game,
            )
            by_finish = self.rows(
                "SELECT r.match_id FROM rated_matches r JOIN matches m ON m.id = r.match_id"
                " WHERE r.game = %s AND r.seq IS NOT NULL ORDER BY m.finished_at, m.id",
                game,
            )
            if by_seq != by_finish:
                verdict.problems.append(f"{game}: rated out of finish order")
        return verdict

    def league_rounds_close(self) -> Verdict:
        verdict = Verdict("league rounds close")
        for league in self.rows("SELECT id, name, status FROM leagues"):
            if league["status"] != "finished":
                verdict.problems.append(f"league {league['name']} is {league['status']}")
            open_rounds = self.rows(
                "SELECT number FROM league_rounds WHERE league_id = %s AND status <> 'closed'",
                league["id"],
            )
            verdict.problems += [f"{league['name']} round {r['number']} open" for r in open_rounds]
        return verdict

    def one_match_per_table(self) -> Verdict:
        """However often a table's dispatch ran (a task redelivered after a lost ack, a retry
        after a cut), the table was played by one match: every match the scenario's cluster
        created is the match of one league table."""
        verdict = Verdict("each league table played by one match")
        for row in self.rows(
            "SELECT m.id::text AS mid, m.idempotency_key AS key FROM matches m"
            " WHERE NOT EXISTS (SELECT 1 FROM league_tables t WHERE t.match_id = m.id)"
        ):
            verdict.problems.append(f"{row['mid'][:8]} ({row['key']}) is no table's match")
        return verdict

    def no_strike_for_infrastructure(self, bot_links_cut: bool) -> Verdict:
        """The scenario's bots always answer at once: any fault blamed on a bot is the
        infrastructure's, unless the scenario cut the bots' own links (then a disconnect or a
        timeout may be theirs, and only other kinds count)."""
        verdict = Verdict("no strike or forfeit charged to a bot for an infrastructure fault")
        allowed = ("disconnect", "timeout") if bot_links_cut else ()
        for fault in self.rows(
            "SELECT match_id::text AS mid, ply, kind, detail FROM match_faults WHERE blame = 'bot'"
        ):
            if fault["kind"] not in allowed:
                verdict.problems.append(
                    f"{fault['mid'][:8]} ply {fault['ply']} {fault['kind']}: {fault['detail']}"
                )
        if not bot_links_cut:
            forfeits = self.rows("SELECT match_id::text AS mid FROM match_seats WHERE forfeited")
            verdict.problems += [f"{r['mid'][:8]} a seat forfeited" for r in forfeits]
        return verdict

    def nothing_hidden_revealed(self) -> Verdict:
        """Every request and start a bot received names a seat that bot holds in that match
        (a request to anyone else would show that seat's hidden cards)."""
        verdict = Verdict("nothing hidden revealed (each seat's requests reach its own bot)")
        seats = {
            (r["mid"], r["seat"]): r["name"]
            for r in self.rows(
                "SELECT s.match_id::text AS mid, s.seat, b.name FROM match_seats s"
                " JOIN bots b ON b.id = s.bot_id"
            )
        }
        for record in self.records:
            if record["kind"] in ("request", "started"):
                holder = seats.get((record["match"], record["seat"]))
                if holder != record["bot"]:
                    verdict.problems.append(
                        f"{record['bot']} got seat {record['seat']} of {record['match'][:8]}"
                        f" (held by {holder})"
                    )
        return verdict

    def check(
        self,
        scenario: str,
        faults: list[str],
        last_heal: float,
        bound_s: float,
        bot_links_cut: bool,
    ) -> Report:
        moves, count = self.no_acknowledged_move_lost()
        verdicts = [
            self.one_writer(),
            self.one_asker_at_a_time(),
            moves,
            self.every_match_ends(last_heal, bound_s),
            self.replays(),
            self.rated_once_in_order(),
            self.league_rounds_close(),
            self.one_match_per_table(),
            self.no_strike_for_infrastructure(bot_links_cut),
            self.nothing_hidden_revealed(),
        ]
        return Report(scenario, faults, len(self.matches()), count, verdicts)
