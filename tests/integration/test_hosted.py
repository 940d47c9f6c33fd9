"""Hosted bots end to end, on a real stack (arbiter, Celery worker and beat, ladder,
PostgreSQL) and a real sandbox: a new author with only the stack's address writes a bot in
Python (an OpenSpiel policy too), Node and Go, uploads each with `premiere-bot upload`, and
sees it validated and rated without running a process of their own. Then hostile hosted bots
(one floods its output, one crashes in a loop) leave an honest bot's match and the runner
unharmed, and a removed bot's process ends."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from premiere_wire import match_pb2
from tests.integration.services import (
    BIN,
    ROOT,
    Arbiter,
    Workers,
    free_port,
    start_bot,
    wait_ended,
)
from tests.integration.test_authors import CLEAN, author
from tests.integration.test_leagues import query
from tests.integration.test_node_bot import node_executable, node_package_files
from tests.spectator.test_dashboard import CHROMIUM, CHROMIUM_ARGS, eventually

NODE = ROOT / "clients" / "node"


@pytest.fixture
def arena(database_url: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Arbiter]:
    server = Arbiter(
        database_url,
        free_port(),
        free_port(),
        settings={
            "PREMIERE_SIGNUP": "open",
            "PREMIERE_HOSTED": "true",
            "PREMIERE_VALIDATION_MATCHES": "1",
            **getattr(request, "param", {}),
        },
    )
    socket = server.settings.get("PREMIERE_ARBITER_SOCKET")
    if socket:
        Path(socket).parent.mkdir(mode=0o755)
        Path(socket).parent.chmod(0o755)  # searchable by the sandbox users whatever the umask
    try:
        server.start(tmp_path / "arbiter.log")
        yield server
    finally:
        server.stop()
        if socket:
            shutil.rmtree(Path(socket).parent, ignore_errors=True)


class Runner:
    def __init__(self, arena: Arbiter, log: Path, **settings: str) -> None:
        # The runner's folder must be searchable by the sandbox users (pytest's is not).
        self.work = Path(tempfile.mkdtemp(prefix="premiere-runner-"))
        self.metrics_port = free_port()
        self.log = log
        env = arena.env(
            PREMIERE_ARBITER_TARGET=arena.address,
            PREMIERE_RUNNER_WORK=str(self.work),
            PREMIERE_RUNNER_POLL_S="0.5",
            PREMIERE_RUNNER_METRICS_PORT=str(self.metrics_port),
            **settings,
        )
        self.process = subprocess.Popen(
            [str(BIN / "premiere"), "runner"],
            env=env,
            stdout=log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        subprocess.run(["chmod", "-R", "u+w", str(self.work)], check=False)
        shutil.rmtree(self.work, ignore_errors=True)


def bundle(folder: Path, manifest: str, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True)
    (folder / "premiere-bot.toml").write_text(manifest)
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


def node_bundle(folder: Path) -> Path:
    """Node's client as a bundle; gRPC for Node comes from the runtime (the client's own
    node_modules, which make test installs), as docs/hosting.md says."""
    node_executable()
    folder.mkdir(parents=True)
    for name in node_package_files():
        shutil.copy(NODE / name, folder / name)
    shutil.copytree(NODE / "proto", folder / "proto")
    (folder / "premiere-bot.toml").write_text(
        'name = "node-bot"\nlanguage = "node"\nentry = "bot.js"\ngames = ["magic-trick"]\n'
    )
    return folder


def go_bundle(folder: Path, binary: Path) -> Path:
    """The Go bot, built by clients/go/build.sh (the go_bot_build fixture), as a bundle."""
    folder.mkdir(parents=True)
    shutil.copy(binary, folder / "premiere-bot-go")
    (folder / "premiere-bot.toml").write_text(
        'name = "go-bot"\nlanguage = "binary"\nentry = "premiere-bot-go"\n'
        'games = ["movie-tricks"]\n'
    )
    return folder


@pytest.fixture
def chromium() -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright

    assert CHROMIUM.exists(), f"Chromium not found at {CHROMIUM}: make test installs it"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield launched
        finally:
            launched.close()


def see_hosting_marked(http: str, browser: Browser, tmp_path: Path) -> None:
    """The leaderboard marks the hosted bot, the bot page says it is hosted and shows its
    CPU time per decision, as a visitor sees them, at 1366 and 390 px."""

    def profile() -> dict[str, Any] | None:
        with urllib.request.urlopen(f"{http}/api/bots/hana-py", timeout=10) as reply:
            found: dict[str, Any] = json.load(reply)
        hosting = found["hosting"]
        return found if hosting and hosting["cpu_ms_per_decision"] is not None else None

    shown = eventually(profile, "the hosted bot's CPU per decision measured", 60)
    assert shown["hosting"]["decisions"] > 0 and shown["hosting"]["pool"] == "standard"
    with urllib.request.urlopen(f"{http}/api/games/magic-trick/leaderboard", timeout=10) as reply:
        board = json.load(reply)
    marked = {e["player"] for e in board["entries"] if e["hosted"]}
    assert marked == {"hana-py"}, board["entries"]
    for width in (1366, 390):
        page = browser.new_page(viewport={"width": width, "height": 900})
        try:
            page.goto(f"{http}/?game=magic-trick")
            row = page.locator("#leaderboard tbody tr", has_text="hana-py")
            row.locator(".badge.hosted").wait_for(state="visible", timeout=20_000)
            assert row.locator(".badge.hosted").inner_text() == "hosted"
            builtin = page.locator("#leaderboard tbody tr", has_text="builtin:random")
            assert builtin.locator(".badge.hosted").count() == 0
            page.goto(f"{http}/bots/hana-py")
            page.get_by_text("hosted: the arena runs it in its sandbox").wait_for(timeout=20_000)
            text = page.locator("#standing-section").inner_text()
            assert "CPU per decision" in text and " ms over " in text, text
            page.screenshot(path=str(tmp_path / f"hosted-bot-{width}.png"), full_page=True)
        finally:
            page.close()


def test_a_new_author_hosts_python_node_and_go_bots_with_premiere_bot_alone(
    arena: Arbiter, tmp_path: Path, chromium: Browser, go_bot_build: Path
) -> None:
    workers = Workers(arena, tmp_path)
    workers.start_worker()
    workers.start_beat()
    workers.start_ladder()
    runner = Runner(arena, tmp_path / "runner.log")
    home = tmp_path / "home"
    try:
        made = author(arena, home, "account", "create", "hana", "--save")
        assert made.returncode == 0, made.stderr
        uploads = {
            "hana-py": ROOT / "clients" / "python" / "hosted",
            "hana-node": node_bundle(tmp_path / "node"),
            "hana-go": go_bundle(tmp_path / "go", go_bot_build),
            # An OpenSpiel policy (research/examples/hosted): OpenSpiel, numpy and the engines
            # come from the runtime, as docs/research.md says.
            "hana-spiel": ROOT / "research" / "examples" / "hosted",
        }
        tokens = {}
        for name, folder in uploads.items():
            created = author(arena, home, "bots", "create", name)
            assert created.returncode == 0, created.stderr
            tokens[name] = created.stdout.strip()
            sent = author(arena, home, "upload", str(folder), "--bot", name)
            assert sent.returncode == 0, sent.stderr
            assert sent.stdout.strip() == name
            assert "once validated" in sent.stderr

        for name in uploads:
            shown = author(
                arena, home, "bots", "events", name, "--wait", "rated", "--timeout", "240"
            )
            assert shown.returncode == 0, (shown.stdout, runner.log.read_text()[-3000:])
        validated = query(
            arena,
            "SELECT l.family, count(*) AS games FROM lineage_validations v"
            " JOIN bot_lineage l ON l.name = v.bot GROUP BY l.family ORDER BY l.family",
        )
        assert {row["family"]: row["games"] for row in validated} == {
            "hana-go": 1,
            "hana-node": 1,
            "hana-py": 2,
            "hana-spiel": 1,
        }

        # A rated match against the built-ins, played by the hosted Python bot.
        request = match_pb2.CreateMatchRequest(game="magic-trick", rated=True)
        request.seats.add(bot="hana-py")
        request.seats.add(builtin="random")
        request.seats.add(builtin="heuristic")
        match_id = arena.matches().CreateMatch(request, timeout=10).match_id
        assert wait_ended(arena.matches(), match_id).status == match_pb2.MATCH_STATUS_FINISHED
        eventually(
            lambda: (
                query(arena, "SELECT 1 FROM rated_matches WHERE match_id = %s", match_id) or None
            ),
            "the hosted bot's match rated",
            180,
        )
        logs = author(arena, home, "bots", "logs", "hana-py", "--match", match_id)
        assert logs.returncode == 0 and "connected to unix:/run/premiere/arbiter.sock" in (
            author(arena, home, "bots", "logs", "hana-py").stdout
        )
        # Nobody but the owner reads a hosted bot's output.
        other = tmp_path / "other"
        assert author(arena, other, "account", "create", "mallory", "--save").returncode == 0
        peek = author(arena, other, "bots", "logs", "hana-py")
        assert peek.returncode == 1 and "your account has no bot" in peek.stderr
        usage = query(arena, "SELECT starts, cpu_ms, decisions FROM hosted_usage")
        assert usage and all(row["starts"] >= 1 for row in usage)
        see_hosting_marked(workers.ladder_http, chromium, tmp_path)

        # A hosted-only league seats hosted bots and built-ins: a dial-in bot is refused ...
        workers.cli("bots", "add", "dialer")
        league = [
            "league", "create", "--game", "magic-trick", "--format", "round-robin",
            "--players", "3", "--hosted-only",
        ]  # fmt: skip
        with pytest.raises(RuntimeError, match="dial in"):
            workers.cli(*league, "--name", "machines", "--bots", "hana-py,dialer,builtin:random")
        workers.cli(
            *league, "--name", "programs", "--rounds", "2", "--every", "1d",
            "--bots", "hana-py,builtin:random,builtin:heuristic",
        )  # fmt: skip
        assert "hosted bots only" in workers.cli("league", "show", "programs")

        def tables() -> list[dict[str, Any]]:
            return query(
                arena,
                "SELECT t.round, t.status, m.status AS match FROM league_tables t"
                " JOIN leagues l ON l.id = t.league_id LEFT JOIN matches m ON m.id = t.match_id"
                " WHERE l.name = 'programs' ORDER BY t.round",
            )

        eventually(
            lambda: [t for t in tables() if t["match"] == "finished"] or None,
            "the hosted-only league's first round played",
            90,
        )
        # ... and so is a hostile author's dial-in version made active after the league
        # began: its next table is not played (void), whatever the gate says of its standing.
        dialled = start_bot(
            arena, CLEAN, tokens["hana-py"], tmp_path / "dial-in.log", ["--bot-version", "home"]
        )
        try:
            eventually(
                lambda: (
                    query(arena, "SELECT 1 FROM bot_lineage WHERE name = 'hana-py@home' AND active")
                    or None
                ),
                "the dial-in version active",
                60,
            )
            eventually(
                lambda: (
                    query(
                        arena,
                        "SELECT 1 FROM league_rounds r JOIN leagues l ON l.id = r.league_id"
                        " WHERE l.name = 'programs' AND r.status = 'closed'",
                    )
                    or None
                ),
                "the first round closed",
                60,
            )
            workers.cli("league", "run-now", "programs")
            eventually(
                lambda: [t for t in tables() if t["round"] == 2 and t["status"] == "void"] or None,
                "the dial-in version's hosted-only table refused",
                90,
            )
            assert not [t for t in tables() if t["round"] == 2 and t["match"]]
        finally:
            dialled.terminate()
            dialled.wait(10)
        assert runner.alive()
    finally:
        runner.stop()
        workers.stop()


FLOOD = """
import sys
from premiere_bot import Bot

class Flood(Bot):
    def __init__(self):
        for i in range(50_000):
            print("flood line", i, "x" * 200)
        sys.stdout.flush()

    def decide(self, observation, legal_moves):
        print("deciding " + "y" * 5000)
        return 0
"""

FORK_BOMB = """
import os, time
from premiere_bot import Bot

class ForkBomb(Bot):
    def __init__(self):
        while True:
            try:
                os.fork()
            except OSError:
                time.sleep(0.01)
"""

MEMORY_BOMB = """
from premiere_bot import Bot

class MemoryBomb(Bot):
    def __init__(self):
        hoard = []
        while True:
            hoard.append(bytearray(16 << 20))
"""

CRASH = """
import os
from premiere_bot import Bot

class Crash(Bot):
    def __init__(self):
        print("crashing on purpose", flush=True)
        os._exit(3)
"""


UID_BASE = 310_000
SOCKETS = Path(tempfile.gettempdir()) / f"premiere-arbiter-socket-{uuid.uuid4().hex[:8]}"
"""Made by the arena that listens there, and removed with it (not at import: every process
that collects this module would leave one behind)."""


@pytest.mark.parametrize(
    # Every hosted bot reaches the arbiter from the runner's address: the per-address stream
    # cap must not count them together (here one stream an address: three bots play at once).
    # The sandboxes mount the arbiter's own socket here (the first test relays over TCP).
    "arena",
    [
        {
            "PREMIERE_MAX_STREAMS_PER_PEER": "1",
            "PREMIERE_ARBITER_SOCKET": str(SOCKETS / "arbiter.sock"),
        }
    ],
    indirect=True,
)
def test_hostile_hosted_bots_leave_the_runner_and_other_matches_unharmed(
    arena: Arbiter, tmp_path: Path
) -> None:
    runner = Runner(
        arena,
        tmp_path / "runner.log",
        PREMIERE_RUNNER_BACKOFF_S="0.2",
        PREMIERE_RUNNER_IDLE_S="900",
        PREMIERE_HOSTED_LOG_KB="64",
        PREMIERE_RUNNER_ARBITER_SOCKET=str(SOCKETS / "arbiter.sock"),
        # Two bombs spinning at their full share must leave this 2-core machine some room.
        PREMIERE_RUNNER_CPUS="0.4",
        # Its sandbox users, apart from those of any other runner on this machine.
        PREMIERE_RUNNER_UID_BASE=str(UID_BASE),
    )
    home = tmp_path / "home"
    try:
        assert author(arena, home, "account", "create", "eve", "--save").returncode == 0
        folders = {
            "honest": ROOT / "clients" / "python" / "hosted",
            "flood": bundle(
                tmp_path / "flood",
                'name = "flood"\nlanguage = "python"\nentry = "flood:Flood"\n',
                {"flood.py": FLOOD},
            ),
            "forkbomb": bundle(
                tmp_path / "forkbomb",
                'name = "forkbomb"\nlanguage = "python"\nentry = "bomb:ForkBomb"\n',
                {"bomb.py": FORK_BOMB},
            ),
            "membomb": bundle(
                tmp_path / "membomb",
                'name = "membomb"\nlanguage = "python"\nentry = "bomb:MemoryBomb"\n',
                {"bomb.py": MEMORY_BOMB},
            ),
            "crash": bundle(
                tmp_path / "crash",
                'name = "crash"\nlanguage = "python"\nentry = "crash:Crash"\n',
                {"crash.py": CRASH},
            ),
        }
        for name, folder in folders.items():
            assert author(arena, home, "bots", "create", name).returncode == 0
            sent = author(arena, home, "upload", str(folder), "--bot", name)
            assert sent.returncode == 0, sent.stderr
            arena.admit(name, ["magic-trick"])
        stub = arena.matches()
        matches = {}
        for name in folders:
            request = match_pb2.CreateMatchRequest(game="magic-trick", seed=f"hostile-{name}")
            request.seats.add(bot=name)
            request.seats.add(builtin="random")
            request.seats.add(builtin="random")
            request.time_control.move_time_ms = 2000
            matches[name] = stub.CreateMatch(request, timeout=10).match_id
        honest = wait_ended(stub, matches["honest"], 120)
        assert honest.status == match_pb2.MATCH_STATUS_FINISHED
        assert not [f for f in honest.faults if f.seat == 0], honest.faults
        flood = wait_ended(stub, matches["flood"], 180)
        assert flood.status == match_pb2.MATCH_STATUS_FINISHED

        def crash_loop() -> bool:
            shown = author(arena, home, "bots", "events", "crash")
            return "crash-loop" in shown.stdout

        eventually(crash_loop, "the crashing bot stopped with a crash-loop event", 90)
        # The memory bomb is killed at its limit (and again, until its crash loop stops it);
        # the fork bomb holds its process limit and nothing else, until it is stopped.
        eventually(
            lambda: "killed" in author(arena, home, "bots", "logs", "membomb").stdout or None,
            "the memory bomb killed at its limit",
            60,
        )
        kept = query(
            arena,
            "SELECT count(*) AS lines, coalesce(max(length(line)), 0) AS longest,"
            " bool_or(line LIKE '%%dropped (flood)%%') AS noted FROM hosted_logs l"
            " JOIN bots b ON b.id = l.bot_id WHERE b.name = 'flood'",
        )[0]
        assert kept["lines"] <= 64 * 1024 // 200 + 5, kept
        assert kept["longest"] <= 1000 and kept["noted"], kept
        assert (
            "connected to unix:/run/premiere/arbiter.sock"
            in author(arena, home, "bots", "logs", "honest").stdout
        )
        scraped = (
            urllib.request.urlopen(f"http://127.0.0.1:{runner.metrics_port}/metrics", timeout=10)
            .read()
            .decode()
        )
        samples = {
            line.split()[0]: float(line.split()[1])
            for line in scraped.splitlines()
            if line.startswith("premiere_runner_stops_total{")
        }
        assert samples['premiere_runner_stops_total{reason="crash-loop"}'] >= 1
        assert samples['premiere_runner_stops_total{reason="crashed"}'] >= 4
        (dropped,) = [
            float(line.split()[1])
            for line in scraped.splitlines()
            if line.startswith("premiere_runner_dropped_lines_total ")
        ]
        assert dropped > 1000
        assert runner.alive()

        # A removed bot's process ends within seconds, even with work and warm.
        removed = author(arena, home, "bots", "remove", "honest")
        assert removed.returncode == 0
        eventually(
            lambda: "stopped honest: retired" in runner.log.read_text() or None,
            "the removed bot's process stopped",
            30,
        )
    finally:
        runner.stop()

    # Every process of every sandbox ended with the runner, the fork bomb's too.
    def left() -> list[str]:
        users = subprocess.run(["ps", "-eo", "uid="], capture_output=True, text=True)
        return [uid for uid in users.stdout.split() if UID_BASE <= int(uid) <= UID_BASE + 64]

    deadline = time.monotonic() + 10
    while left() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not left()


def _upload(arena: Arbiter, token: str, parts: list[Any]) -> Any:
    import grpc

    from premiere_wire import author_pb2_grpc

    with arena.channel() as channel:
        stub = author_pb2_grpc.AuthorServiceStub(channel)
        try:
            return stub.UploadBundle(
                iter(parts), metadata=(("authorization", f"Bearer {token}"),), timeout=30
            )
        except grpc.RpcError as error:
            return error


def _parts(bot: str, data: bytes, sha256: str | None = None, size: int | None = None) -> list[Any]:
    import hashlib

    from premiere_wire import author_pb2

    header = author_pb2.UploadBundleHeader(
        bot=bot,
        size=len(data) if size is None else size,
        sha256=hashlib.sha256(data).hexdigest() if sha256 is None else sha256,
    )
    return [author_pb2.UploadBundleRequest(header=header)] + [
        author_pb2.UploadBundleRequest(chunk=data[i : i + 65536])
        for i in range(0, len(data), 65536)
    ]


@pytest.mark.parametrize("arena", [{"PREMIERE_BUNDLE_QUOTA_MB": "1"}], indirect=True)
def test_an_upload_is_checked_before_a_byte_is_kept_and_a_refusal_leaves_nothing(
    arena: Arbiter, tmp_path: Path
) -> None:
    """Straight to AuthorService, as a hostile client would send it (not through the CLI,
    which refuses most of these before sending)."""
    import io
    import os
    import tarfile

    import grpc

    from premiere_wire import author_pb2
    from tests.hosting.test_bundles import ATTACKS

    home = tmp_path / "home"
    made = author(arena, home, "account", "create", "mallet", "--save")
    token = made.stdout.strip()
    assert author(arena, home, "bots", "create", "mb").returncode == 0

    def nothing_kept() -> None:
        assert query(arena, "SELECT count(*) AS n FROM bundles")[0]["n"] == 0
        assert query(arena, "SELECT version FROM bots WHERE name LIKE 'mb%%'") == [
            {"version": None}
        ]

    for attack in ("absolute path", "climbs out", "symbolic link", "hard link", "set-uid bit"):
        make, rule = ATTACKS[attack]
        refused = _upload(arena, token, _parts("mb", make()))
        assert refused.code() == grpc.StatusCode.INVALID_ARGUMENT, attack
        assert refused.details().startswith("bundle refused: ") and rule in refused.details()
    nothing_kept()

    wrong = _upload(arena, token, _parts("mb", ATTACKS["absolute path"][0](), sha256="0" * 64))
    assert wrong.code() == grpc.StatusCode.DATA_LOSS
    chunk_first = _upload(arena, token, [author_pb2.UploadBundleRequest(chunk=b"x")])
    assert chunk_first.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "header first" in chunk_first.details()
    short = _upload(arena, token, _parts("mb", b"abc", size=10))
    assert short.code() == grpc.StatusCode.INVALID_ARGUMENT and "ended early" in short.details()
    huge = _upload(arena, token, _parts("mb", b"abc", size=1 << 40))
    assert huge.code() == grpc.StatusCode.INVALID_ARGUMENT
    other = _upload(arena, token, _parts("someone-elses", b"abc"))
    assert other.code() == grpc.StatusCode.NOT_FOUND
    nothing_kept()

    # The quota: 1 MiB an account; a bundle of 700 KiB of noise fits once, not twice.
    def noise() -> bytes:
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
            for name, data in (
                ("premiere-bot.toml", b'name = "mb"\nlanguage = "python"\nentry = "a:B"\n'),
                ("blob", os.urandom(700 << 10)),
            ):
                info = tarfile.TarInfo(name)
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
        return buffer.getvalue()

    kept = _upload(arena, token, _parts("mb", noise()))
    assert kept.name == "mb" and kept.stored_bytes > 700 << 10
    over = _upload(arena, token, _parts("mb", noise()))
    assert over.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and "quota" in over.details()
    assert query(arena, "SELECT count(*) AS n FROM bundles")[0]["n"] == 1
    assert len(query(arena, "SELECT 1 FROM bots WHERE name LIKE 'mb%%'")) == 1


@pytest.mark.parametrize("arena", [{"PREMIERE_HOSTED": "false"}], indirect=True)
def test_an_arena_without_a_runner_refuses_uploads_in_one_line(
    arena: Arbiter, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    assert author(arena, home, "account", "create", "nora", "--save").returncode == 0
    assert author(arena, home, "bots", "create", "nb").returncode == 0
    refused = author(
        arena, home, "upload", str(ROOT / "clients" / "python" / "hosted"), "--bot", "nb"
    )
    assert refused.returncode == 1
    assert "runs no hosted bots" in refused.stderr and "FAILED_PRECONDITION" in refused.stderr
    assert query(arena, "SELECT count(*) AS n FROM bundles")[0]["n"] == 0
