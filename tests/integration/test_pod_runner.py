"""``premiere runner --backend kubernetes`` against a real database and a real bundle server,
with the Kubernetes API server played by ``FakeCluster`` (no cluster here).

The fake keeps Pods and Secrets as the API would and acts as a kubelet: it runs the init
container's fetch (``hosting.fetch.fetch``) with the command and key the Pod and its Secret
carry, against the runner's real bundle server serving the uploaded bundle from PostgreSQL;
then either says what the bot prints and how it ends, or (``run_bots``) runs the bot
container's own command, from the fetched bundle, with the Pod's environment (its token
resolved from the Secret) against a real arbiter.
Everything of the runner (tokens, logs, events, crash back-off, idle stops, clean-up) and of
``KubernetesBackend`` (manifests, create, wait, log stream, delete) is the real code.
"""

from __future__ import annotations

import asyncio
import copy
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from kubernetes.client.exceptions import ApiException

from hosting.fetch import fetch
from hosting.pod_runner import PodRunner
from hosting.pods import BOT_ID_LABEL, KubernetesBackend, PodConfig
from hosting.runner import RunnerConfig
from hosting.sandbox import Limits
from premiere_wire.bundle import BundleError, Caps, pack
from server import accounts
from server.bundles import bundle_data, store
from server.store import hash_token
from tests.integration.services import Arbiter, free_port


class LogStream:
    def __init__(self, cluster: FakeCluster, name: str) -> None:
        self.cluster = cluster
        self.name = name

    def stream(self, _size: int) -> Iterator[bytes]:
        sent = 0
        while True:
            pod = self.cluster.pods.get(self.name)
            lines = self.cluster.output.get(self.name, [])
            while sent < len(lines):
                yield lines[sent]
                sent += 1
            if pod is None or pod["status"]["phase"] in ("Succeeded", "Failed"):
                return
            time.sleep(0.02)


class FakeCluster:
    """The API server's bookkeeping for Pods and Secrets, and a kubelet that runs each Pod's
    init container (the bundle fetch) for real."""

    def __init__(self, scratch: Path, run_bots: bool = False) -> None:
        self.scratch = scratch
        self.run_bots = run_bots
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self.failing_reads = 0
        self.pods: dict[str, dict[str, Any]] = {}
        self.secrets: dict[str, dict[str, Any]] = {}
        self.output: dict[str, list[bytes]] = {}
        self.fetched: dict[str, Path] = {}
        self.created: list[str] = []
        self.deleted: list[str] = []
        self.say = [b"hello from the bot\n", b"playing\n"]

    def create_namespaced_secret(self, namespace: str, body: dict[str, Any]) -> None:
        assert namespace == body["metadata"]["namespace"] == "premiere-bots"
        assert body["metadata"]["name"] not in self.secrets
        self.secrets[body["metadata"]["name"]] = copy.deepcopy(body)

    def create_namespaced_pod(self, namespace: str, body: dict[str, Any]) -> None:
        name = body["metadata"]["name"]
        assert namespace == body["metadata"]["namespace"]
        assert name in self.secrets, "the Secret a Pod refers to is made first"
        self.pods[name] = copy.deepcopy(body) | {"status": {"phase": "Pending"}}
        self.created.append(name)
        threading.Thread(target=self._kubelet, args=(name,), daemon=True).start()

    def _kubelet(self, name: str) -> None:
        pod = self.pods[name]
        (init,) = pod["spec"]["initContainers"]
        (ref,) = [e["valueFrom"]["secretKeyRef"] for e in init["env"] if "valueFrom" in e]
        key = self.secrets[ref["name"]]["stringData"][ref["key"]]
        premiere, subcommand, url, sha256, _target = init["command"]
        assert (premiere, subcommand) == ("premiere", "fetch-bundle")
        target = self.scratch / name
        try:
            fetch(url, sha256, key, target)
        except BundleError:
            pod["status"] = {
                "phase": "Failed",
                "initContainerStatuses": [
                    {"state": {"terminated": {"exitCode": 1, "reason": "Error"}}}
                ],
            }
            return
        self.fetched[name] = target
        pod["status"] = {"phase": "Running"}
        if not self.run_bots:
            self.output[name] = list(self.say)
            return
        self._run_bot(name, pod, target)

    def _run_bot(self, name: str, pod: dict[str, Any], bundle: Path) -> None:
        (bot,) = pod["spec"]["containers"]
        env = {"PATH": os.environ["PATH"]}
        for item in bot["env"]:
            if "value" in item:
                env[item["name"]] = item["value"]
            else:
                ref = item["valueFrom"]["secretKeyRef"]
                env[item["name"]] = self.secrets[ref["name"]]["stringData"][ref["key"]]
        command = list(bot["command"])
        if command[0] == "python":
            command[0] = sys.executable  # the image's python: here, the test's
        assert bot["workingDir"] == "/bot"
        process = subprocess.Popen(
            command, cwd=bundle, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        self.processes[name] = process
        self.output[name] = []
        assert process.stdout is not None
        for line in process.stdout:
            self.output[name].append(line)
        code = process.wait()
        if name in self.pods:
            self.end(name, code, "Completed" if code == 0 else "Error")

    def end(self, name: str, code: int, reason: str) -> None:
        self.pods[name]["status"] = {
            "phase": "Succeeded" if code == 0 else "Failed",
            "containerStatuses": [{"state": {"terminated": {"exitCode": code, "reason": reason}}}],
        }

    def read_namespaced_pod(self, name: str, namespace: str) -> dict[str, Any]:
        if self.failing_reads > 0:
            self.failing_reads -= 1
            raise ApiException(status=500, reason="etcd is having a bad day")
        if name not in self.pods:
            raise ApiException(status=404)
        return copy.deepcopy(self.pods[name])

    def read_namespaced_pod_log(self, name: str, namespace: str, **options: Any) -> LogStream:
        assert options["container"] == "bot" and options["follow"]
        pod = self.pods.get(name)
        if pod is None:
            raise ApiException(status=404)
        if pod["status"]["phase"] == "Pending":
            raise ApiException(status=400)
        return LogStream(self, name)

    def delete_namespaced_pod(self, name: str, namespace: str, **_: Any) -> None:
        if self.pods.pop(name, None) is None:
            raise ApiException(status=404)
        self.deleted.append(name)
        process = self.processes.pop(name, None)
        if process is not None:
            process.kill()

    def delete_namespaced_secret(self, name: str, namespace: str, **_: Any) -> None:
        if self.secrets.pop(name, None) is None:
            raise ApiException(status=404)

    def delete_collection_namespaced_pod(self, namespace: str, label_selector: str) -> None:
        key, _, value = label_selector.partition("=")
        for name in [n for n, p in self.pods.items() if p["metadata"]["labels"][key] == value]:
            del self.pods[name]

    def delete_collection_namespaced_secret(self, namespace: str, label_selector: str) -> None:
        key, _, value = label_selector.partition("=")
        for name in [n for n, s in self.secrets.items() if s["metadata"]["labels"][key] == value]:
            del self.secrets[name]


class Identity:
    def sanitize_for_serialization(self, obj: Any) -> Any:
        return obj

    def close(self) -> None:
        pass


class FakeClusterBackend(KubernetesBackend):
    """KubernetesBackend with FakeCluster in place of the client's CoreV1Api."""

    def __init__(self, cluster: FakeCluster, config: PodConfig, database_url: str) -> None:
        super().__init__(
            config,
            lambda sha256: bundle_data(database_url, sha256),
            gvisor="on",
            fetch_bind=config.fetch_url.removeprefix("http://"),
        )
        self.cluster = cluster

    async def open(self) -> None:
        self.api = Identity()
        self.core = self.cluster
        await asyncio.to_thread(self._sweep)
        await self.server.start()


BOT_SOURCE = """from premiere_bot import Bot


class MyBot(Bot):
    max_matches = 20
"""


def upload(database_url: str, folder: Path, language: str, entry: str) -> int:
    folder.mkdir()
    (folder / "premiere-bot.toml").write_text(
        f'name = "podbot"\nlanguage = "{language}"\nentry = "{entry}"\ngames = ["magic-trick"]\n'
    )
    (folder / "mybot.py").write_text(BOT_SOURCE)
    (folder / "bot.js").write_text("console.log('hi')\n")
    owner = f"alice{uuid.uuid4().hex[:6]}"
    accounts.create_account(database_url, owner, "open")
    account = accounts.account_named(database_url, owner)
    root = f"{owner}-bot"
    accounts.create_bot(database_url, account, root, 10)
    stored = store(database_url, account, root, "", pack(folder), Caps(), 1 << 30, None)
    with psycopg.connect(database_url) as conn:
        row = conn.execute("SELECT id FROM bots WHERE name = %s", (stored.name,)).fetchone()
    assert row is not None
    return int(row[0])


def seat(database_url: str, bot_id: int) -> str:
    match = str(uuid.uuid4())
    with psycopg.connect(database_url) as conn:
        conn.execute(
            "INSERT INTO matches (id, game, options, players, seed, move_time_ms, time_bank_ms,"
            " strike_limit, status) VALUES (%s, 'magic-trick', '{}', 2, '1', 1000, 0, 3,"
            " 'pending')",
            (match,),
        )
        conn.execute(
            "INSERT INTO match_seats (match_id, seat, bot_id) VALUES (%s, 0, %s)",
            (match, bot_id),
        )
        conn.execute(
            "INSERT INTO match_seats (match_id, seat, builtin) VALUES (%s, 1, 'random')", (match,)
        )
    return match


def rows(database_url: str, query: str, *args: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(database_url) as conn:
        return conn.execute(query, args).fetchall()


async def until(check: Any, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not await asyncio.to_thread(check):
        assert time.monotonic() < deadline, f"timed out waiting for {check.__name__}"
        await asyncio.sleep(0.05)


def make_runner(
    database_url: str, tmp_path: Path, arbiter: str = "127.0.0.1:50051", run_bots: bool = False
) -> tuple[FakeCluster, PodRunner]:
    cluster = FakeCluster(tmp_path / "kubelet", run_bots)
    port = free_port()
    config = PodConfig(
        image="premiere:0.1.0",
        arbiter=arbiter,
        fetch_url=f"http://127.0.0.1:{port}",
        runner="runner",
    )
    backend = FakeClusterBackend(cluster, config, database_url)
    runner = PodRunner(
        RunnerConfig(
            database_url=database_url,
            arbiter=arbiter,
            work=tmp_path / "work",
            bwrap="",
            poll_s=0.05,
            idle_s=0.5,
        ),
        backend,
    )
    return cluster, runner


@pytest.fixture
def setup(database_url: str, tmp_path: Path) -> tuple[FakeCluster, PodRunner]:
    return make_runner(database_url, tmp_path)


def test_a_hosted_version_with_work_runs_as_a_pod_and_is_cleaned_up(
    database_url: str, setup: tuple[FakeCluster, PodRunner], tmp_path: Path
) -> None:
    cluster, runner = setup
    bot_id = upload(database_url, tmp_path / "bundle", "python", "mybot:MyBot")
    match = seat(database_url, bot_id)

    async def scenario() -> None:
        await runner.backend.open()
        try:
            await runner.tick()
            (name,) = cluster.pods
            pod, secret = cluster.pods[name], cluster.secrets[name]
            assert pod["metadata"]["labels"][BOT_ID_LABEL] == str(bot_id)
            assert pod["spec"]["runtimeClassName"] == "gvisor"
            (stored,) = rows(
                database_url,
                "SELECT token_hash FROM hosted_credentials WHERE bot_id = %s",
                bot_id,
            )
            assert stored[0] == hash_token(secret["stringData"]["token"]), (
                "the Pod's token is the one the arbiter accepts"
            )

            def fetched_from_the_database() -> bool:
                return name in cluster.fetched

            await until(fetched_from_the_database)
            assert (cluster.fetched[name] / "mybot.py").read_text() == BOT_SOURCE
            assert len(runner.backend.grants) == 0, "the fetch key is spent"

            def logged() -> bool:
                lines = rows(
                    database_url,
                    "SELECT source, line FROM hosted_logs WHERE bot_id = %s ORDER BY id",
                    bot_id,
                )
                return ("stdout", "playing") in lines

            await until(logged)

            cluster.end(name, 137, "OOMKilled")

            def crashed() -> bool:
                return bool(
                    rows(
                        database_url,
                        "SELECT 1 FROM hosted_events WHERE bot_id = %s AND kind = 'crashed'"
                        " AND message LIKE '%%OOMKilled%%'",
                        bot_id,
                    )
                )

            await until(crashed)
            assert bot_id not in runner.running
            assert cluster.pods == {} and cluster.secrets == {}, "Pod and Secret deleted"
            assert not rows(
                database_url, "SELECT 1 FROM hosted_credentials WHERE bot_id = %s", bot_id
            ), "its token is dead"

            await asyncio.sleep(2.1)  # the back-off after one exit
            await runner.tick()
            (again,) = cluster.pods
            assert again != name
            assert cluster.secrets[again]["stringData"]["token"] != secret["stringData"]["token"]

            with psycopg.connect(database_url) as conn:
                conn.execute("UPDATE matches SET status = 'finished' WHERE id = %s", (match,))
            await runner.tick()
            await asyncio.sleep(0.6)
            await runner.tick()
            assert bot_id not in runner.running
            assert cluster.pods == {} and cluster.secrets == {}
            await runner.flush_logs()  # the runner writes output and its lines in batches
            (stopped,) = rows(
                database_url,
                "SELECT line FROM hosted_logs WHERE bot_id = %s AND line LIKE 'stopped:%%'",
                bot_id,
            )
            assert "idle" in stopped[0]
        finally:
            for running in list(runner.running):
                await runner.stop(running, "test over")
            await runner.backend.close()

    asyncio.run(scenario())


def test_a_node_bot_is_refused_with_an_event_and_no_pod(
    database_url: str, setup: tuple[FakeCluster, PodRunner], tmp_path: Path
) -> None:
    cluster, runner = setup
    bot_id = upload(database_url, tmp_path / "bundle", "node", "bot.js")
    seat(database_url, bot_id)

    async def scenario() -> None:
        await runner.backend.open()
        try:
            await runner.tick()
        finally:
            await runner.backend.close()

    asyncio.run(scenario())
    assert cluster.created == [] and cluster.secrets == {}
    (event,) = rows(
        database_url, "SELECT kind, message FROM hosted_events WHERE bot_id = %s", bot_id
    )
    assert event[0] == "hosting-failed" and "node" in event[1]
    assert not rows(database_url, "SELECT 1 FROM hosted_credentials WHERE bot_id = %s", bot_id)
    assert len(runner.backend.grants) == 0


def test_leftovers_of_a_previous_run_are_deleted_at_start(
    database_url: str, setup: tuple[FakeCluster, PodRunner]
) -> None:
    cluster, runner = setup
    labels = {"metadata": {"labels": {"premiere.io/runner": "runner"}}}
    others = {"metadata": {"labels": {"premiere.io/runner": "another"}}}
    cluster.pods = {"bot-1-old": copy.deepcopy(labels), "bot-2-theirs": copy.deepcopy(others)}
    cluster.secrets = {"bot-1-old": copy.deepcopy(labels)}

    async def scenario() -> None:
        await runner.backend.open()
        await runner.backend.close()

    asyncio.run(scenario())
    assert list(cluster.pods) == ["bot-2-theirs"] and cluster.secrets == {}


def test_the_pods_bot_logs_in_to_a_real_arbiter_with_the_pods_environment(
    arbiter: Arbiter, tmp_path: Path
) -> None:
    """The bot container's command, run from the fetched bundle with the Pod's environment
    alone: it logs in with the Secret's token as the hosted version, and says the manifest's
    games and the pool's cap on matches."""
    database_url = arbiter.database_url
    cluster, runner = make_runner(database_url, tmp_path, arbiter.address, run_bots=True)
    bot_id = upload(database_url, tmp_path / "bundle", "python", "mybot:MyBot")
    seat(database_url, bot_id)

    async def scenario() -> None:
        await runner.backend.open()
        try:
            await runner.tick()

            def said_hello() -> bool:
                found = rows(
                    database_url,
                    "SELECT games, max_matches FROM bots"
                    " WHERE id = %s AND last_connected_at IS NOT NULL",
                    bot_id,
                )
                return bool(found)

            await until(said_hello, 30)
            ((games, most),) = rows(
                database_url, "SELECT games, max_matches FROM bots WHERE id = %s", bot_id
            )
            assert list(games) == ["magic-trick"]
            assert most == 8, "the pool caps the class's 20 (PREMIERE_MAX_MATCHES)"
            assert bot_id in runner.running, "still connected, still running"
        finally:
            for running in list(runner.running):
                await runner.stop(running, "test over")
            await runner.backend.close()

    asyncio.run(scenario())
    assert cluster.processes == {} and cluster.pods == {}


def test_a_failing_api_server_does_not_end_a_running_pod(
    database_url: str, setup: tuple[FakeCluster, PodRunner], tmp_path: Path
) -> None:
    cluster, runner = setup
    bot_id = upload(database_url, tmp_path / "bundle", "python", "mybot:MyBot")
    ((sha256,),) = rows(
        database_url, "SELECT sha256 FROM hosted_versions WHERE bot_id = %s", bot_id
    )
    limits = Limits(
        cpus=1.0,
        memory_mb=256,
        processes=64,
        open_files=256,
        scratch_mb=32,
        max_matches=2,
        file_mb=32,
    )

    async def scenario() -> None:
        await runner.backend.open()
        try:
            pod = await runner.backend.start(
                bot_id, "podbot", "python", "mybot:MyBot", (), sha256, "token", limits
            )
            cluster.failing_reads = 3
            waiting = asyncio.create_task(runner.backend.wait(pod, every_s=0.01))
            await asyncio.sleep(0.3)
            assert not waiting.done() and cluster.failing_reads == 0
            cluster.end(pod.name, 0, "Completed")
            ended = await asyncio.wait_for(waiting, 5)
            assert (ended.code, ended.reason) == (0, "Completed")
            await runner.backend.stop(pod)
            assert cluster.pods == {} and cluster.secrets == {}
        finally:
            await runner.backend.close()

    asyncio.run(scenario())
