"""Hosted bots on Kubernetes: each started hosted version is a Pod of its own.

``pod_manifest`` and ``secret_manifest`` are pure: they turn a ``PodLaunch`` (what
``hosting.sandbox.Launch`` says of a bot, with its bundle named by digest instead of a local
folder) into plain dicts, so every security field can be read by a test without a cluster.
``KubernetesBackend`` is the thin part that creates, watches, reads the output of and deletes
those Pods with the official client.

What a hosted Pod gets:

- the gVisor RuntimeClass (``runtimeClassName``) when the cluster has one, or always/never
  where a setting says so;
- Guaranteed QoS: CPU and memory requests equal to the pool's limits, and ephemeral storage
  for the bundle, the scratch ``/tmp`` and its logs;
- no service-account token, no service links, no host namespaces; it runs as a fixed
  unprivileged uid, with no privilege escalation, every capability dropped, the runtime's
  default seccomp profile and a read-only root; ``/tmp`` is an emptyDir of ``scratch_mb``;
- its bundle from an init container (``premiere fetch-bundle``, hosting/fetch.py) that fetches
  it from the runner with a one-time key, verifies the digest and unpacks it into an emptyDir
  mounted read-only at ``/bot`` in the bot's container;
- the bwrap sandbox's environment contract: ``PREMIERE_ARBITER`` (the arbiter Service's
  cluster IP: a hosted Pod has no DNS), ``PREMIERE_BOT_TOKEN`` from a Secret made for this Pod
  alone and deleted with it, ``PREMIERE_BOT_GAMES``, ``PREMIERE_MAX_MATCHES``;
- labels (``LABELS``) that deploy/k8s/runner.yaml's NetworkPolicy selects: no ingress, egress
  only to the arbiter's gRPC port and this runner's fetch port.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import socket
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

from hosting.fetch import FETCH_PORT, KEY_ENV, BundleServer, Grants
from hosting.sandbox import Limits, Unavailable

__all__ = [
    "BOT_DIR",
    "LABELS",
    "KubernetesBackend",
    "PodConfig",
    "PodExit",
    "PodLaunch",
    "bot_command",
    "manifests",
    "pod_manifest",
    "secret_manifest",
]

log = logging.getLogger("premiere.runner.pods")

BOT_DIR = "/bot"
LABELS = {
    "app.kubernetes.io/name": "premiere",
    "app.kubernetes.io/component": "hosted-bot",
}
BOT_ID_LABEL = "premiere.io/bot-id"
RUNNER_LABEL = "premiere.io/runner"
FETCH_MEMORY_MB = 256
"""The init container's memory: Python and one archive (capped at 32 MiB by default) in it."""
LOG_MB = 16
"""Room counted for the container's log files in its ephemeral-storage."""
BACKLOG = 1000
"""Output lines held for the runner at most; more are dropped (the runner keeps 50 a second)."""
_DNS_LABEL = re.compile(r"[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")


@dataclass(frozen=True)
class PodLaunch:
    """One hosted version to start as a Pod: ``hosting.sandbox.Launch`` without the local
    paths (the bundle is fetched by ``sha256``), with the fetch key the runner granted."""

    bot_id: int
    name: str
    language: str
    entry: str
    games: tuple[str, ...]
    sha256: str
    token: str
    fetch_key: str
    limits: Limits


@dataclass(frozen=True)
class PodConfig:
    """Where and how hosted Pods run (RunnerSettings' ``runner_*`` for Kubernetes)."""

    image: str
    arbiter: str
    """host:port the bot dials: an IP (the arbiter Service's), since hosted Pods get no DNS."""
    fetch_url: str
    """http://IP:port of this runner's bundle server."""
    runner: str
    """This runner's name: a label on its Pods, so it deletes its own leftovers only."""
    namespace: str = "premiere-bots"
    runtime_class: str | None = "gvisor"
    uid: int = 65534
    bundle_mb: int = 160
    """The bundle emptyDir's size: the unpacked cap (128 MiB by default) and folders."""
    pull_policy: str = "IfNotPresent"


def _cpu(cpus: float) -> str:
    return f"{max(1, round(cpus * 1000))}m"


def bot_command(language: str, entry: str) -> list[str]:
    """What the bot's container runs, from ``/bot`` (its working directory). Python bots run
    in the image's interpreter with the SDK (``premiere_bot.hosted``; ``-m`` puts the working
    directory, the bundle, first on the path); binaries run as they are. The image has no
    Node.js, so Node bots need the bwrap runner."""
    if language == "python":
        return ["python", "-m", "premiere_bot.hosted", entry]
    if language == "binary":
        return [f"{BOT_DIR}/{entry}"]
    raise Unavailable(
        f"hosted {language} bots cannot run on Kubernetes (the image has no {language} runtime)"
    )


def resource_name(bot_id: int, nonce: str) -> str:
    name = f"bot-{bot_id}-{nonce}"
    if not _DNS_LABEL.fullmatch(name):
        raise ValueError(f"not a valid Pod name: {name!r}")
    return name


def _labels(launch: PodLaunch, config: PodConfig) -> dict[str, str]:
    return {**LABELS, BOT_ID_LABEL: str(launch.bot_id), RUNNER_LABEL: config.runner}


def _metadata(name: str, launch: PodLaunch, config: PodConfig) -> dict[str, Any]:
    return {
        "name": name,
        "namespace": config.namespace,
        "labels": _labels(launch, config),
        "annotations": {"premiere.io/bot": launch.name, "premiere.io/bundle": launch.sha256},
    }


def secret_manifest(launch: PodLaunch, config: PodConfig, name: str) -> dict[str, Any]:
    """The Pod's Secret: the bot's token (for its container) and the fetch key (for the init
    container); immutable, deleted with the Pod."""
    return {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": _metadata(name, launch, config),
        "type": "Opaque",
        "immutable": True,
        "stringData": {"token": launch.token, "fetch-key": launch.fetch_key},
    }


def _container_security(config: PodConfig) -> dict[str, Any]:
    return {
        "runAsNonRoot": True,
        "runAsUser": config.uid,
        "runAsGroup": config.uid,
        "allowPrivilegeEscalation": False,
        "privileged": False,
        "readOnlyRootFilesystem": True,
        "capabilities": {"drop": ["ALL"]},
        "seccompProfile": {"type": "RuntimeDefault"},
    }


def _secret_env(variable: str, secret: str, key: str) -> dict[str, Any]:
    return {"name": variable, "valueFrom": {"secretKeyRef": {"name": secret, "key": key}}}


def pod_manifest(launch: PodLaunch, config: PodConfig, name: str) -> dict[str, Any]:
    """The Pod for ``launch`` (see the module's docstring); ``name`` names its Secret too."""
    limits = launch.limits
    scratch = f"{limits.scratch_mb}Mi"
    storage = f"{limits.scratch_mb + config.bundle_mb + LOG_MB}Mi"
    bot_resources = {
        "cpu": _cpu(limits.cpus),
        "memory": f"{limits.memory_mb}Mi",
        "ephemeral-storage": storage,
    }
    fetch_resources = {
        "cpu": _cpu(limits.cpus),
        "memory": f"{FETCH_MEMORY_MB}Mi",
        "ephemeral-storage": storage,
    }
    env = [
        {"name": "PREMIERE_ARBITER", "value": config.arbiter},
        _secret_env("PREMIERE_BOT_TOKEN", name, "token"),
        {"name": "PREMIERE_BOT_GAMES", "value": ",".join(launch.games)},
        {"name": "PREMIERE_MAX_MATCHES", "value": str(limits.max_matches)},
        {"name": "PREMIERE_HOSTED", "value": "1"},
        {"name": "HOME", "value": "/tmp"},
        {"name": "TMPDIR", "value": "/tmp"},
        {"name": "LANG", "value": "C.UTF-8"},
        {"name": "PYTHONDONTWRITEBYTECODE", "value": "1"},
        {"name": "PYTHONUNBUFFERED", "value": "1"},
    ]
    spec: dict[str, Any] = {
        "restartPolicy": "Never",
        "automountServiceAccountToken": False,
        "enableServiceLinks": False,
        "hostNetwork": False,
        "hostPID": False,
        "hostIPC": False,
        "shareProcessNamespace": False,
        "terminationGracePeriodSeconds": 2,
        "securityContext": {
            "runAsNonRoot": True,
            "runAsUser": config.uid,
            "runAsGroup": config.uid,
            "fsGroup": config.uid,
            "seccompProfile": {"type": "RuntimeDefault"},
        },
        "initContainers": [
            {
                "name": "fetch",
                "image": config.image,
                "imagePullPolicy": config.pull_policy,
                "command": [
                    "premiere",
                    "fetch-bundle",
                    config.fetch_url,
                    launch.sha256,
                    BOT_DIR,
                ],
                "env": [
                    _secret_env(KEY_ENV, name, "fetch-key"),
                    {"name": "HOME", "value": "/tmp"},
                    {"name": "TMPDIR", "value": "/tmp"},
                ],
                "resources": {"requests": fetch_resources, "limits": fetch_resources},
                "securityContext": _container_security(config),
                "volumeMounts": [
                    {"name": "bundle", "mountPath": BOT_DIR},
                    {"name": "tmp", "mountPath": "/tmp"},
                ],
            }
        ],
        "containers": [
            {
                "name": "bot",
                "image": config.image,
                "imagePullPolicy": config.pull_policy,
                "command": bot_command(launch.language, launch.entry),
                "workingDir": BOT_DIR,
                "env": env,
                "resources": {"requests": bot_resources, "limits": bot_resources},
                "securityContext": _container_security(config),
                "volumeMounts": [
                    {"name": "bundle", "mountPath": BOT_DIR, "readOnly": True},
                    {"name": "tmp", "mountPath": "/tmp"},
                ],
            }
        ],
        "volumes": [
            {"name": "bundle", "emptyDir": {"sizeLimit": f"{config.bundle_mb}Mi"}},
            {"name": "tmp", "emptyDir": {"sizeLimit": scratch}},
        ],
    }
    if config.runtime_class is not None:
        spec["runtimeClassName"] = config.runtime_class
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": _metadata(name, launch, config),
        "spec": spec,
    }


def manifests(
    launch: PodLaunch, config: PodConfig, nonce: str | None = None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(Pod, Secret) for ``launch``, named ``bot-<id>-<nonce>`` (a fresh nonce by default, so
    a restart never waits for the last Pod's deletion)."""
    name = resource_name(launch.bot_id, nonce or secrets.token_hex(4))
    return pod_manifest(launch, config, name), secret_manifest(launch, config, name)


# --- the cluster ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PodExit:
    """How a hosted Pod ended: the bot's exit status (or the init container's, when the
    bundle could not be fetched) and the kubelet's reason (OOMKilled, Error, ...)."""

    code: int
    reason: str


def exit_of(pod: dict[str, Any]) -> PodExit | None:
    """The Pod's end, from its status as a dict (``ApiClient().sanitize_for_serialization``),
    or None while it runs."""
    status = pod.get("status") or {}
    phase = status.get("phase")
    if phase not in ("Succeeded", "Failed"):
        return None
    for group, prefix in (("initContainerStatuses", "bundle fetch: "), ("containerStatuses", "")):
        for item in status.get(group) or []:
            ended = (item.get("state") or {}).get("terminated")
            if ended and (group == "containerStatuses" or ended.get("exitCode", 0) != 0):
                return PodExit(int(ended.get("exitCode", 1)), prefix + str(ended.get("reason", "")))
    return PodExit(1, str(status.get("reason") or phase))


def resolve(address: str) -> str:
    """host:port with the host as an IP address (hosted Pods have no DNS to look it up)."""
    host, _, port = address.rpartition(":")
    host = host.strip("[]")
    info = socket.getaddrinfo(host, int(port), type=socket.SOCK_STREAM)
    ip = str(info[0][4][0])
    return f"[{ip}]:{port}" if ":" in ip else f"{ip}:{port}"


@dataclass
class PodRun:
    name: str
    fetch_key: str
    bot_id: int


class KubernetesBackend:
    """Starts, watches and stops hosted Pods in ``config.namespace`` with the official
    client, serving their bundles from this process (hosting/fetch.py).

    ``gvisor``: "on" always asks for the gvisor RuntimeClass (a cluster without it refuses
    the Pods: nothing runs unsandboxed), "off" never, "auto" asks the RuntimeClass API once at
    ``open`` and uses it when the cluster has it."""

    def __init__(
        self,
        config: PodConfig,
        read_bundle: Callable[[str], bytes | None],
        gvisor: Literal["auto", "on", "off"] = "auto",
        fetch_bind: str = f"0.0.0.0:{FETCH_PORT}",
    ) -> None:
        self.config = config
        self.gvisor = gvisor
        self.grants = Grants()
        host, _, port = fetch_bind.rpartition(":")
        self.server = BundleServer(self.grants, read_bundle, host or "0.0.0.0", int(port))
        self.arbiter_target = config.arbiter
        self.core: Any = None
        self.api: Any = None

    async def open(self) -> None:
        from kubernetes import client
        from kubernetes import config as kube_config

        try:
            kube_config.load_incluster_config()  # type: ignore[no-untyped-call]
        except kube_config.ConfigException:
            try:
                await asyncio.to_thread(kube_config.load_kube_config)
            except (kube_config.ConfigException, OSError) as error:
                raise Unavailable(
                    "no Kubernetes cluster: not in a Pod with a service account, and no"
                    f" usable kubeconfig ({error})"
                ) from None
        self.api = client.ApiClient()
        self.core = client.CoreV1Api(self.api)
        runtime = await asyncio.to_thread(self._runtime_class, client)
        self.config = replace(self.config, runtime_class=runtime)
        log.info("runner: hosted Pods in %s, runtime class %s", self.config.namespace, runtime)
        await asyncio.to_thread(self._sweep)
        await self.server.start()

    def _runtime_class(self, client: Any) -> str | None:
        if self.gvisor == "off":
            return None
        if self.gvisor == "on":
            return "gvisor"
        from kubernetes.client.exceptions import ApiException

        try:
            client.NodeV1Api(self.api).read_runtime_class("gvisor")
        except ApiException as error:
            if error.status == 404:
                log.warning(
                    "runner: the cluster has no gvisor RuntimeClass; hosted Pods run with"
                    " its default runtime"
                )
                return None
            raise
        return "gvisor"

    def _selector(self) -> str:
        return f"{RUNNER_LABEL}={self.config.runner}"

    def _sweep(self) -> None:
        """Delete this runner's Pods and Secrets left from a previous run."""
        namespace = self.config.namespace
        self.core.delete_collection_namespaced_pod(namespace, label_selector=self._selector())
        self.core.delete_collection_namespaced_secret(namespace, label_selector=self._selector())

    async def close(self) -> None:
        await self.server.close()
        if self.api is not None:
            self.api.close()

    async def start(
        self,
        bot_id: int,
        name: str,
        language: str,
        entry: str,
        games: tuple[str, ...],
        sha256: str,
        token: str,
        limits: Limits,
    ) -> PodRun:
        bot_command(language, entry)
        arbiter = await asyncio.to_thread(resolve, self.arbiter_target)
        config = replace(self.config, arbiter=arbiter)
        key = self.grants.grant(sha256)
        launch = PodLaunch(bot_id, name, language, entry, games, sha256, token, key, limits)
        pod, secret = manifests(launch, config)
        run = PodRun(pod["metadata"]["name"], key, bot_id)
        try:
            await asyncio.to_thread(self.core.create_namespaced_secret, config.namespace, secret)
            await asyncio.to_thread(self.core.create_namespaced_pod, config.namespace, pod)
        except Exception:
            await self.stop(run)
            raise
        return run

    async def stop(self, run: PodRun) -> None:
        from kubernetes.client.exceptions import ApiException

        self.grants.revoke(run.fetch_key)
        namespace = self.config.namespace
        for delete in (self.core.delete_namespaced_pod, self.core.delete_namespaced_secret):
            with contextlib.suppress(ApiException):
                await asyncio.to_thread(delete, run.name, namespace, grace_period_seconds=2)

    def _read(self, run: PodRun) -> dict[str, Any]:
        pod = self.core.read_namespaced_pod(run.name, self.config.namespace)
        data: dict[str, Any] = self.api.sanitize_for_serialization(pod)
        return data

    async def wait(self, run: PodRun, every_s: float = 2.0) -> PodExit:
        """Until the Pod has ended (a Pod deleted under us ends it too)."""
        from kubernetes.client.exceptions import ApiException

        while True:
            try:
                pod = await asyncio.to_thread(self._read, run)
            except ApiException as error:
                if error.status == 404:
                    return PodExit(137, "deleted")
                log.warning("runner: reading Pod %s: %s; trying again", run.name, error.reason)
                await asyncio.sleep(every_s * 5)
                continue
            except Exception as error:  # the API server unreachable: the Pod may still run
                log.warning("runner: reading Pod %s: %s; trying again", run.name, error)
                await asyncio.sleep(every_s * 5)
                continue
            ended = exit_of(pod)
            if ended is not None:
                return ended
            await asyncio.sleep(every_s)

    async def lines(self, run: PodRun, limit: int = 4000) -> AsyncIterator[str]:
        """The bot container's output (stdout and stderr together, as the kubelet keeps it),
        a line at a time, each cut at ``limit`` characters; from when the container starts
        until it ends. The stream is read in a thread; lines beyond ``BACKLOG`` not yet taken
        are dropped there, so a flood never grows this process, and the thread stops at its
        next chunk once the consumer is gone."""
        from kubernetes.client.exceptions import ApiException

        queue: asyncio.Queue[str | None] = asyncio.Queue()
        loop = asyncio.get_running_loop()
        gone = threading.Event()

        def hand(item: str | None) -> None:
            if item is None or queue.qsize() < BACKLOG:
                queue.put_nowait(item)

        def send(item: str | None) -> None:
            with contextlib.suppress(RuntimeError):  # the loop has closed
                loop.call_soon_threadsafe(hand, item)

        def follow() -> None:
            try:
                response = self.core.read_namespaced_pod_log(
                    run.name,
                    self.config.namespace,
                    container="bot",
                    follow=True,
                    _preload_content=False,
                )
                pending = b""
                for chunk in response.stream(4096):
                    if gone.is_set():
                        return
                    pending += chunk
                    *done, pending = pending.split(b"\n")
                    for raw in done:
                        send(raw[:limit].decode(errors="replace"))
                    pending = pending[: limit * 2]
                if pending:
                    send(pending[:limit].decode(errors="replace"))
            finally:
                send(None)

        try:
            while True:
                task = asyncio.create_task(asyncio.to_thread(follow))
                while (line := await queue.get()) is not None:
                    yield line
                try:
                    await task
                    return
                except ApiException as error:
                    if error.status != 400:  # 400: the container is still waiting to start
                        raise
                await asyncio.sleep(1.0)
        finally:
            gone.set()
