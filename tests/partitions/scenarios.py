"""The partition scenarios: a cluster, a league, a schedule of faults, then the checker.

Every scenario starts the same cast (PostgreSQL, Redis, two arbiters with the relay on, a
worker with beat creating the league's matches on arbiter1, the ladder, bots alpha on
arbiter2 and beta on arbiter1 unless the scenario gives them other homes), runs a duplicate
league of three-seat magic-trick (both bots and a built-in, so both bots sit at every table,
alpha's decisions forwarded through the relay), injects its faults, heals everything, and
waits for the league to finish and be rated.
The bots answer after `Scenario.answer_s` (a match then lasts several seconds), so the faults
fall inside matches; a run in which either bot was never asked anything fails.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from tests.partitions.cluster import Cluster, running_cluster
from tests.partitions.history import Checker, Report, Verdict, read_records

LEAGUE = "partitions"
ENTRANTS = ["alpha", "beta", "builtin:heuristic"]
HOMES = {"alpha": "arbiter2", "beta": "arbiter1"}
PLACED_HOMES = {"alpha": "arbiter2", "beta": "arbiter2"}


@dataclass
class Run:
    """What a scenario's schedule acts through; every action is written down."""

    cluster: Cluster
    started: float = field(default_factory=time.time)
    faults: list[str] = field(default_factory=list)
    last_heal: float = field(default_factory=time.time)

    def note(self, text: str) -> None:
        self.faults.append(f"t+{time.time() - self.started:5.1f}s {text}")

    def cut(self, a: str, b: str) -> None:
        self.cluster.network.cut(a, b)
        self.note(f"cut {a} <-> {b}")

    def heal(self, a: str, b: str) -> None:
        self.cluster.network.heal(a, b)
        self.last_heal = time.time()

    def isolate(self, node: str) -> None:
        self.cluster.network.isolate(node)
        self.note(f"isolate {node}")

    def rejoin(self, node: str) -> None:
        self.cluster.network.rejoin(node)
        self.last_heal = time.time()

    def pause(self, name: str) -> None:
        self.cluster.procs[name].pause()
        self.note(f"SIGSTOP {name}")

    def resume(self, name: str) -> None:
        self.cluster.procs[name].resume()
        self.last_heal = time.time()

    def restart_postgres(self) -> None:
        self.note("restart PostgreSQL")
        self.cluster.restart_postgres()
        self.last_heal = time.time()

    def hosting(self, arbiter: str, timeout: float = 90) -> list[str]:
        """Until `arbiter` hosts a running match with at least one move logged."""

        def found() -> list[str]:
            held = self.cluster.hosted_by(arbiter)
            return [m for m in held if self._moves(m) > 0]

        return list(self.cluster.wait_for(f"{arbiter} hosting a match", found, timeout))

    def tables_planned(self, timeout: float = 60) -> None:
        """Until the league's first round is planned (its dispatch begins in the same task)."""

        def found() -> bool:
            rows = self.cluster.rows(
                "SELECT count(*) AS n FROM league_tables t JOIN leagues l ON l.id = t.league_id"
                " WHERE l.name = %s",
                LEAGUE,
            )
            return int(rows[0]["n"]) > 0

        self.cluster.wait_for("the league's first round planned", found, timeout)

    def streams_on(self, arbiter: str, bots: list[str], timeout: float = 60) -> None:
        """Until every one of `bots` holds a live stream on `arbiter`."""

        def found() -> bool:
            return set(bots) <= set(self.cluster.streams_on(arbiter))

        self.cluster.wait_for(f"{', '.join(bots)} connected to {arbiter}", found, timeout)

    def _moves(self, match_id: str) -> int:
        rows = self.cluster.rows(
            "SELECT count(*) AS n FROM match_moves WHERE match_id = %s", match_id
        )
        return int(rows[0]["n"])


Schedule = Callable[[Run], None]


@dataclass(frozen=True)
class Scenario:
    name: str
    schedule: Schedule
    bound_s: float = 60.0
    """Every match ends within this long after the last heal."""
    bot_links_cut: bool = False
    rounds: int = 1
    answer_s: float = 0.05
    """How long the bots take to answer."""
    late_s: float = 0.0
    """When set, each bot answers one decision of each match this late (past the move time)."""
    settings: dict[str, str] = field(default_factory=dict)
    extra: tuple[Callable[[Cluster, Run], Verdict], ...] = ()
    opening: Schedule | None = None
    """Faults injected before the league is created (its first round opens at the next tick)."""
    homes: dict[str, str] = field(default_factory=lambda: dict(HOMES))
    """The arbiter each bot dials."""
    bots_first: bool = False
    """Start the bots before the opening (else after the league is created)."""


def run(scenario: Scenario, folder: Path, weakness: str = "") -> Report:
    began = time.monotonic()
    with running_cluster(
        folder, arbiter_settings=dict(scenario.settings), weakness=weakness
    ) as cluster:
        cluster.start_workers("arbiter1")
        cluster.wait_serving_all()
        schedule = Run(cluster)

        def start_bots() -> None:
            for bot, home in scenario.homes.items():
                cluster.start_bot(bot, home, scenario.answer_s, scenario.late_s)

        if scenario.bots_first:
            start_bots()
        if scenario.opening is not None:
            scenario.opening(schedule)
        cluster.create_league(LEAGUE, ENTRANTS, scenario.rounds)
        if not scenario.bots_first:
            start_bots()
        scenario.schedule(schedule)
        cluster.network.heal_all()
        for proc in cluster.procs.values():
            proc.resume()
        _wait_done(cluster, schedule.last_heal + scenario.bound_s + 30)
        checker = Checker(cluster.rows, read_records(folder))
        report = checker.check(
            scenario.name,
            schedule.faults,
            schedule.last_heal,
            scenario.bound_s,
            scenario.bot_links_cut,
        )
        report.verdicts.append(checker.every_bot_played(sorted(scenario.homes)))
        report.verdicts += [extra(cluster, schedule) for extra in scenario.extra]
    report.seconds = time.monotonic() - began
    return report


def _wait_done(cluster: Cluster, until: float) -> None:
    """Until the league is finished and every finished match rated, or `until` passes (the
    checker then says what is missing)."""
    while time.time() < until:
        league = cluster.rows("SELECT status FROM leagues WHERE name = %s", LEAGUE)
        unrated = cluster.rows(
            "SELECT count(*) AS n FROM matches m WHERE m.status = 'finished' AND m.rated"
            " AND NOT EXISTS (SELECT 1 FROM rated_matches r WHERE r.match_id = m.id)"
        )[0]["n"]
        if league and league[0]["status"] == "finished" and unrated == 0:
            return
        time.sleep(0.5)


# --- checks only some scenarios need ----------------------------------------------------

_SELF_FENCED = re.compile(
    r"^(\S+ \S+) premiere\.arbiter WARNING lease of match (\S+) unrenewed .*self-fenced"
)


def _self_fenced(cluster: Cluster, arbiter: str) -> dict[str, float]:
    """match id -> when `arbiter` stopped hosting it on its own (from its log)."""
    found: dict[str, float] = {}
    for line in cluster.procs[arbiter].log.read_text(errors="replace").splitlines():
        hit = _SELF_FENCED.match(line)
        if hit:
            at = datetime.strptime(hit.group(1), "%Y-%m-%d %H:%M:%S,%f").timestamp()
            found.setdefault(hit.group(2), at)
    return found


def stopped_before_takeover(cluster: Cluster, run: Run) -> Verdict:
    """Each match another arbiter took over from arbiter1 while arbiter1 was cut or paused:
    arbiter1 had stopped hosting it (self-fenced) before the takeover was logged."""
    verdict = Verdict("the cut arbiter stopped hosting before its lease could be taken over")
    fenced = _self_fenced(cluster, "arbiter1")
    takeovers = cluster.rows(
        "SELECT match_id::text AS mid, min(at) AS at FROM match_faults WHERE kind = 'restart'"
        " GROUP BY match_id"
    )
    if not takeovers:
        verdict.problems.append("no match was taken over (the scenario tested nothing)")
    for row in takeovers:
        stopped = fenced.get(row["mid"])
        if stopped is None:
            verdict.problems.append(f"{row['mid'][:8]} taken over; arbiter1 never stopped it")
        elif stopped > row["at"].timestamp():
            late = stopped - row["at"].timestamp()
            verdict.problems.append(f"{row['mid'][:8]} stopped {late:.2f} s after the takeover")
    return verdict


_STOPPED = re.compile(
    r"^(\S+ \S+) premiere\.arbiter WARNING (?:lease of match (\S+) unrenewed"
    r"|match (\S+) is hosted by another arbiter now|lost the lease of match (\S+);)"
)


def stopped_on_resuming(cluster: Cluster, run: Run) -> Verdict:
    """A paused arbiter cannot act before its leases move; once resumed it stops hosting each
    match taken from it within 2 s (self-fenced, fenced by a refused write, or by renewal)."""
    verdict = Verdict("the resumed arbiter stopped hosting its moved matches within 2 s")
    stopped: dict[str, float] = {}
    for line in cluster.procs["arbiter1"].log.read_text(errors="replace").splitlines():
        hit = _STOPPED.match(line)
        if hit:
            at = datetime.strptime(hit.group(1), "%Y-%m-%d %H:%M:%S,%f").timestamp()
            match_id = next(g for g in hit.groups()[1:] if g)
            stopped.setdefault(match_id, at)
    moved = cluster.rows(
        "SELECT DISTINCT match_id::text AS mid FROM match_faults WHERE kind = 'restart'"
    )
    if not moved:
        verdict.problems.append("no match was taken over (the scenario tested nothing)")
    for row in moved:
        when = stopped.get(row["mid"])
        if when is None:
            verdict.problems.append(f"{row['mid'][:8]} moved; arbiter1 never stopped it")
        elif when > run.last_heal + 2:
            late = when - run.last_heal
            verdict.problems.append(f"{row['mid'][:8]} stopped {late:.1f} s after resuming")
    return verdict


def bots_served_by_new_holder(cluster: Cluster, run: Run) -> Verdict:
    """The bots of taken-over matches answered the new holder: after each takeover, the
    match's moves are the bots' own (none defaulted)."""
    verdict = Verdict("the bots were served by the new holder (no move defaulted after it)")
    for row in cluster.rows(
        "SELECT f.match_id::text AS mid, f.ply, count(mv.ply) AS defaulted FROM match_faults f"
        " JOIN match_moves mv ON mv.match_id = f.match_id AND mv.ply >= f.ply AND mv.defaulted"
        " WHERE f.kind = 'restart' GROUP BY f.match_id, f.ply"
    ):
        if row["defaulted"]:
            verdict.problems.append(f"{row['mid'][:8]}: {row['defaulted']} defaulted moves")
    return verdict


def placement_taken_back(cluster: Cluster, run: Run) -> Verdict:
    """Both bots' streams are on arbiter2, so arbiter1 places every match there. A match made
    while arbiter2 was cut from PostgreSQL saw its placement lapse: arbiter1 took it up with the
    next fencing number (2) and held it to its end, arbiter2's claim (reaching the database
    after the heal) refused. A match made after the heal was claimed by arbiter2 (fencing
    number 1): placement itself worked."""
    verdict = Verdict("each lapsed placement taken up with the next fencing number and kept")
    leases = cluster.rows(
        "SELECT m.id::text AS mid, m.created_at, l.owner, l.fence FROM matches m"
        " LEFT JOIN match_leases l ON l.match_id = m.id ORDER BY m.created_at"
    )
    lapsed = [r for r in leases if r["created_at"].timestamp() < run.last_heal]
    if not lapsed:
        verdict.problems.append("no match was made during the cut (the scenario tested nothing)")
    for row in leases:
        holder = (row["owner"] or "nobody").split("/", 1)[0]
        expected = ("arbiter1", 2) if row in lapsed else ("arbiter2", 1)
        if (holder, row["fence"]) != expected:
            verdict.problems.append(
                f"{row['mid'][:8]} ended held by {holder} with fencing number {row['fence']},"
                f" not by {expected[0]} with {expected[1]}"
            )
    return verdict


_LINK_DROPPED = re.compile(r"premiere\.peers WARNING peer link with (arbiter\d)/\S+ down")


def peer_link_fell_back(cluster: Cluster, run: Run) -> Verdict:
    """The arbiters' peer link carried alpha's decisions (arbiter1 hosts, alpha's stream is on
    arbiter2) and was dropped by each cut; what it carried then went through Redis: no move
    defaulted or fault charged to anyone, and no request reached a bot twice."""
    verdict = Verdict(
        "decisions fell back to Redis when the arbiters' link was cut, none lost or doubled"
    )
    path = cluster.procs["arbiter1"].log
    log = path.read_text(errors="replace")
    if not any(hit.group(1) == "arbiter2" for hit in _LINK_DROPPED.finditer(log)):
        verdict.problems.append("arbiter1 never saw its peer link to arbiter2 drop")
    for fault in cluster.rows(
        "SELECT match_id::text AS mid, ply, kind, blame FROM match_faults WHERE kind <> 'restart'"
    ):
        verdict.problems.append(
            f"{fault['mid'][:8]} ply {fault['ply']} {fault['kind']} ({fault['blame']})"
        )
    seen: dict[tuple[str, str], int] = {}
    for record in read_records(path.parent):
        if record["kind"] == "request":
            key = (record["bot"], record["request_id"])
            seen[key] = seen.get(key, 0) + 1
    verdict.problems += [f"{bot} asked {rid} {n} times" for (bot, rid), n in seen.items() if n > 1]
    return verdict


# --- the schedules ----------------------------------------------------------------------


def arbiter_postgres_cut(run: Run) -> None:
    """Held 5 s: past the self-fence (2.5 s) and the takeover (3 s lease, 0.5 s renewal)."""
    run.hosting("arbiter1")
    run.cut("arbiter1", "pg")
    time.sleep(5)
    run.heal("arbiter1", "pg")


def arbiter_redis_cut(run: Run) -> None:
    run.hosting("arbiter1")
    run.cut("arbiter1", "redis")
    time.sleep(5)
    run.heal("arbiter1", "redis")


def stalled_arbiter(run: Run) -> None:
    """arbiter1, where the worker creates the league's matches, cut from PostgreSQL before the
    first round opens: the round's CreateMatches waits in it for the database."""
    run.cut("arbiter1", "pg")


def placed_bots_connected(run: Run) -> None:
    """Both bots hold their streams on arbiter2 before the league's first round opens, so
    arbiter1, where the worker creates the matches, places each one on arbiter2; arbiter2 is
    cut from PostgreSQL before that, so it hears of each placement but cannot claim it."""
    run.streams_on("arbiter2", sorted(PLACED_HOMES))
    run.cut("arbiter2", "pg")


def placed_arbiter_postgres_cut(run: Run) -> None:
    """The placements lapse (PREMIERE_PLACEMENT_WAIT_S, 2 s) and arbiter1 hosts the matches,
    asking the bots through arbiter2's relay; the cut is healed only once arbiter1 has logged
    moves, so arbiter2's stalled claims reach the database after the takeover."""
    run.hosting("arbiter1")
    time.sleep(2)
    run.heal("arbiter2", "pg")


def peer_link_cut(run: Run) -> None:
    """arbiter1 hosts, asking alpha through arbiter2 on their peer link; the link is cut (both
    still reach Redis and PostgreSQL) twice, each time past the link's silence limit."""
    run.hosting("arbiter1")
    for _ in range(2):
        time.sleep(1.5)
        run.cut("arbiter1", "arbiter2")
        time.sleep(3)
        run.heal("arbiter1", "arbiter2")


def worker_redis_cut(run: Run) -> None:
    """The worker loses the broker while a round's dispatch is in flight. The round's own
    dispatch, and a tick's second try at its still-waiting tables, both wait on the stalled
    arbiter1 until it heals; by then the worker's acknowledgements go nowhere, so its tasks
    are delivered again after the heal. Every table must still be played by one match."""
    run.tables_planned()
    time.sleep(2.5)
    run.cut("workers", "redis")
    run.heal("arbiter1", "pg")
    time.sleep(8)
    run.heal("workers", "redis")


def bot_arbiter_flapping(run: Run) -> None:
    """alpha's link flaps; the bots also answer one decision a match after its deadline
    (`Scenario.late_s`), so a late answer arrives while the bot's next request waits, and must
    be refused by its request id, not taken for the next answer."""
    run.hosting("arbiter1")
    for _ in range(5):
        run.cut("alpha", "arbiter2")
        time.sleep(1.5)
        run.heal("alpha", "arbiter2")
        time.sleep(2.0)


def paused_arbiter(run: Run) -> None:
    run.hosting("arbiter1")
    run.pause("arbiter1")
    time.sleep(8)
    run.resume("arbiter1")


def postgres_restart(run: Run) -> None:
    """Two arbiters write: arbiter1 hosts the league's matches, and a short cut first hands
    one of them to arbiter2; then PostgreSQL restarts under both."""
    run.hosting("arbiter1")
    run.cut("arbiter1", "pg")
    time.sleep(4)
    run.heal("arbiter1", "pg")
    run.hosting("arbiter1")
    run.restart_postgres()


FAULTS: dict[str, tuple[Callable[[Run], None], Callable[[Run], None]]] = {
    "arbiter1-pg": (lambda r: r.cut("arbiter1", "pg"), lambda r: r.heal("arbiter1", "pg")),
    "arbiter2-pg": (lambda r: r.cut("arbiter2", "pg"), lambda r: r.heal("arbiter2", "pg")),
    "arbiter1-redis": (
        lambda r: r.cut("arbiter1", "redis"),
        lambda r: r.heal("arbiter1", "redis"),
    ),
    "workers-redis": (lambda r: r.cut("workers", "redis"), lambda r: r.heal("workers", "redis")),
    "alpha-arbiter2": (
        lambda r: r.cut("alpha", "arbiter2"),
        lambda r: r.heal("alpha", "arbiter2"),
    ),
    "pause-arbiter2": (lambda r: r.pause("arbiter2"), lambda r: r.resume("arbiter2")),
    "pause-arbiter1": (lambda r: r.pause("arbiter1"), lambda r: r.resume("arbiter1")),
}


def random_schedule(seed: int, duration_s: float) -> Schedule:
    """A fixed-seed schedule of every fault above: one at a time, each held 1-8 s, with 1-4 s
    of calm between; the same seed gives the same sequence of faults and holds."""

    def schedule(run: Run) -> None:
        rng = random.Random(seed)
        run.hosting("arbiter1")
        end = time.monotonic() + duration_s
        while time.monotonic() < end:
            name = rng.choice(sorted(FAULTS))
            inject, heal = FAULTS[name]
            inject(run)
            time.sleep(rng.uniform(1, 8))
            heal(run)
            if rng.random() < 0.1:
                run.restart_postgres()
            time.sleep(rng.uniform(1, 4))

    return schedule


def scenarios() -> dict[str, Scenario]:
    every = (stopped_before_takeover, bots_served_by_new_holder)
    return {
        s.name: s
        for s in (
            Scenario("arbiter-postgres-cut", arbiter_postgres_cut, extra=every),
            Scenario("arbiter-redis-cut", arbiter_redis_cut),
            Scenario("worker-redis-cut", worker_redis_cut, opening=stalled_arbiter),
            Scenario(
                "bot-arbiter-flapping",
                bot_arbiter_flapping,
                bot_links_cut=True,
                rounds=2,
                late_s=3.0,
            ),
            Scenario("paused-arbiter", paused_arbiter, extra=(stopped_on_resuming,)),
            Scenario("postgres-restart", postgres_restart),
            Scenario(
                "placed-arbiter-postgres-cut",
                placed_arbiter_postgres_cut,
                opening=placed_bots_connected,
                homes=PLACED_HOMES,
                bots_first=True,
                settings={"PREMIERE_PLACEMENT_WAIT_S": "2"},
                extra=(placement_taken_back,),
            ),
            Scenario("peer-link-cut", peer_link_cut, extra=(peer_link_fell_back,)),
            Scenario(
                "random-schedule",
                random_schedule(seed=27, duration_s=150),
                bot_links_cut=True,
                rounds=6,
                bound_s=90,
            ),
        )
    }


def summary(reports: list[Report]) -> str:
    return "\n\n".join(r.text() for r in reports)
