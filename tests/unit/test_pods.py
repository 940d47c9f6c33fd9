"""hosting/pods.py's manifests: a hosted bot's Pod and Secret, read into the official
Kubernetes client's models (the API's schema) and checked field by field. No cluster."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import pytest
import yaml

from hosting.pods import (
    BOT_DIR,
    LABELS,
    PodConfig,
    PodLaunch,
    exit_of,
    manifests,
    resolve,
)
from hosting.sandbox import Launch, Pool, Runtime, Unavailable, bwrap_argv, limits_for
from premiere.cli import main
from premiere_wire.bundle import Limits as Asked
from tests.deploy.k8smodels import load
from tests.integration.services import free_port

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "hosted-the-bots-own-token"
KEY = "the-one-time-fetch-key"
SHA = "ab" * 32
CONFIG = PodConfig(
    image="premiere:0.1.0",
    arbiter="10.96.0.12:50051",
    fetch_url="http://10.244.1.7:8090",
    runner="runner",
)
LIMITS = limits_for(Pool(cpus=0.5), Asked(memory_mb=256, scratch_mb=32, max_matches=3))


def launch(**changes: Any) -> PodLaunch:
    values: dict[str, Any] = {
        "bot_id": 42,
        "name": "alice-bot.3",
        "language": "python",
        "entry": "mybot:MyBot",
        "games": ("magic-trick", "movie-fight"),
        "sha256": SHA,
        "token": TOKEN,
        "fetch_key": KEY,
        "limits": LIMITS,
    }
    return PodLaunch(**(values | changes))


def built(config: PodConfig = CONFIG, **changes: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    return manifests(launch(**changes), config, nonce="c0ffee")


def containers(pod: dict[str, Any]) -> dict[str, dict[str, Any]]:
    spec = pod["spec"]
    return {c["name"]: c for c in [*spec["initContainers"], *spec["containers"]]}


def env_of(container: dict[str, Any]) -> dict[str, Any]:
    return {item["name"]: item.get("value", item.get("valueFrom")) for item in container["env"]}


def test_the_pod_and_secret_fit_the_kubernetes_schema() -> None:
    pod, secret = built()
    model = load(pod, "Pod")
    assert model.spec.automount_service_account_token is False
    assert model.spec.runtime_class_name == "gvisor"
    assert model.spec.restart_policy == "Never"
    assert model.spec.enable_service_links is False
    assert not model.spec.host_network and not model.spec.host_pid and not model.spec.host_ipc
    assert model.spec.security_context.run_as_non_root is True
    assert model.spec.security_context.run_as_user == 65534
    assert model.spec.security_context.seccomp_profile.type == "RuntimeDefault"
    for container in [*model.spec.init_containers, *model.spec.containers]:
        security = container.security_context
        assert security.allow_privilege_escalation is False, container.name
        assert security.privileged is False, container.name
        assert security.read_only_root_filesystem is True, container.name
        assert security.capabilities.drop == ["ALL"] and not security.capabilities.add
        assert security.seccomp_profile.type == "RuntimeDefault"
        assert security.run_as_non_root is True and security.run_as_user == 65534
    secret_model = load(secret, "Secret")
    assert secret_model.immutable is True
    assert secret_model.metadata.name == model.metadata.name == "bot-42-c0ffee"
    assert secret_model.metadata.namespace == model.metadata.namespace == "premiere-bots"


def test_the_schema_check_catches_a_misplaced_field() -> None:
    pod, _ = built()
    pod["spec"]["containers"][0]["readOnlyRootFileSystem"] = True
    with pytest.raises(AssertionError, match="readOnlyRootFileSystem"):
        load(pod, "Pod")
    del pod["spec"]["containers"][0]["readOnlyRootFileSystem"]
    del pod["spec"]["containers"][0]["name"]
    with pytest.raises(AssertionError, match="name"):
        load(pod, "Pod")


def test_requests_equal_limits_guaranteed_qos() -> None:
    pod, _ = built()
    for name, container in containers(pod).items():
        resources = container["resources"]
        assert resources["requests"] == resources["limits"], name
        assert {"cpu", "memory", "ephemeral-storage"} <= set(resources["limits"]), name
    bot = containers(pod)["bot"]["resources"]["limits"]
    assert bot["cpu"] == "500m" and bot["memory"] == "256Mi"
    storage = int(bot["ephemeral-storage"].removesuffix("Mi"))
    assert storage >= LIMITS.scratch_mb + CONFIG.bundle_mb


def test_tmp_is_the_scratch_size_and_the_bundle_is_read_only_for_the_bot() -> None:
    pod, _ = built()
    volumes = {v["name"]: v for v in pod["spec"]["volumes"]}
    assert volumes["tmp"] == {"name": "tmp", "emptyDir": {"sizeLimit": "32Mi"}}
    assert volumes["bundle"]["emptyDir"]["sizeLimit"] == f"{CONFIG.bundle_mb}Mi"
    assert set(volumes) == {"tmp", "bundle"}, "no hostPath, no other volume"
    mounts = {m["name"]: m for m in containers(pod)["bot"]["volumeMounts"]}
    assert mounts["bundle"] == {"name": "bundle", "mountPath": BOT_DIR, "readOnly": True}
    assert mounts["tmp"]["mountPath"] == "/tmp" and not mounts["tmp"].get("readOnly")
    fetch_mounts = {m["name"]: m for m in containers(pod)["fetch"]["volumeMounts"]}
    assert not fetch_mounts["bundle"].get("readOnly"), "the init container writes the bundle"


def test_the_bot_gets_the_sandboxes_environment_contract() -> None:
    pod, secret = built()
    bwrap = bwrap_argv(
        Launch(
            bot_id=42,
            name="alice-bot.3",
            language="python",
            entry="mybot:MyBot",
            games=("magic-trick", "movie-fight"),
            bundle=Path("/b"),
            socket_dir=Path("/s"),
            token=TOKEN,
            limits=LIMITS,
            runtime=Runtime(Path("/usr/bin/python3"), Path("/usr"), Path("/p")),
        )
    )
    sandbox = {bwrap[i + 1]: bwrap[i + 2] for i, word in enumerate(bwrap) if word == "--setenv"}
    env = env_of(containers(pod)["bot"])
    premiere = {name for name in sandbox if name.startswith("PREMIERE_")}
    assert {name for name in env if name.startswith("PREMIERE_")} == premiere
    for name in premiere - {"PREMIERE_ARBITER", "PREMIERE_BOT_TOKEN"}:
        assert env[name] == sandbox[name], name
    assert env["PREMIERE_ARBITER"] == CONFIG.arbiter
    assert env["PREMIERE_BOT_GAMES"] == "magic-trick,movie-fight"
    assert env["PREMIERE_MAX_MATCHES"] == "3"
    name = secret["metadata"]["name"]
    assert env["PREMIERE_BOT_TOKEN"] == {"secretKeyRef": {"name": name, "key": "token"}}
    assert secret["stringData"]["token"] == TOKEN
    assert containers(pod)["bot"]["command"] == [
        "python",
        "-m",
        "premiere_bot.hosted",
        "mybot:MyBot",
    ]
    assert containers(pod)["bot"]["workingDir"] == BOT_DIR


def test_secrets_live_in_the_secret_only_and_each_container_sees_its_own() -> None:
    pod, secret = built()
    text = json.dumps(pod)
    assert TOKEN not in text and KEY not in text
    assert secret["stringData"] == {"token": TOKEN, "fetch-key": KEY}
    refs = {
        name: sorted(
            item["valueFrom"]["secretKeyRef"]["key"]
            for item in container["env"]
            if "secretKeyRef" in item.get("valueFrom", {})
        )
        for name, container in containers(pod).items()
    }
    assert refs == {"fetch": ["fetch-key"], "bot": ["token"]}
    assert "envFrom" not in text


def test_the_init_container_runs_a_real_premiere_command() -> None:
    pod, _ = built()
    command = containers(pod)["fetch"]["command"]
    assert command[:2] == ["premiere", "fetch-bundle"]
    sub = main.get_command(click.Context(main), command[1])
    assert sub is not None
    context = sub.make_context("premiere fetch-bundle", command[2:])
    assert context.params["url"] == CONFIG.fetch_url
    assert context.params["sha256"] == SHA
    assert str(context.params["target"]) == BOT_DIR


def test_the_network_policy_selects_hosted_pods() -> None:
    pod, _ = built()
    labels = pod["metadata"]["labels"]
    assert LABELS.items() <= labels.items()
    documents = list(yaml.safe_load_all((ROOT / "deploy/k8s/hosted-bots.yaml").read_text()))
    policies = [d for d in documents if d and d["kind"] == "NetworkPolicy"]
    (policy,) = [p for p in policies if p["spec"]["podSelector"]]
    assert policy["metadata"]["namespace"] == pod["metadata"]["namespace"]
    assert policy["spec"]["podSelector"]["matchLabels"].items() <= labels.items()


def test_runtime_class_off_binary_and_node_bots_and_names() -> None:
    pod, _ = built(PodConfig(**{**vars(CONFIG), "runtime_class": None}))
    assert "runtimeClassName" not in pod["spec"]
    binary, _ = built(language="binary", entry="bin/bot")
    assert containers(binary)["bot"]["command"] == [f"{BOT_DIR}/bin/bot"]
    with pytest.raises(Unavailable, match="node"):
        built(language="node", entry="bot.js")
    first, _ = manifests(launch(), CONFIG)
    second, _ = manifests(launch(), CONFIG)
    assert first["metadata"]["name"] != second["metadata"]["name"]
    assert first["metadata"]["labels"]["premiere.io/bot-id"] == "42"


def test_exit_of_reads_the_pods_end() -> None:
    assert exit_of({"status": {"phase": "Running"}}) is None
    assert exit_of({"status": {"phase": "Pending"}}) is None
    oom = {
        "status": {
            "phase": "Failed",
            "initContainerStatuses": [{"state": {"terminated": {"exitCode": 0}}}],
            "containerStatuses": [
                {"state": {"terminated": {"exitCode": 137, "reason": "OOMKilled"}}}
            ],
        }
    }
    assert exit_of(oom) is not None and (exit_of(oom).code, exit_of(oom).reason) == (
        137,
        "OOMKilled",
    )  # type: ignore[union-attr]
    fetch_failed = {
        "status": {
            "phase": "Failed",
            "initContainerStatuses": [
                {"state": {"terminated": {"exitCode": 1, "reason": "Error"}}}
            ],
        }
    }
    ended = exit_of(fetch_failed)
    assert ended is not None and ended.code == 1 and ended.reason == "bundle fetch: Error"
    evicted = exit_of({"status": {"phase": "Failed", "reason": "Evicted"}})
    assert evicted is not None and evicted.reason == "Evicted"


def test_resolve_gives_an_address_a_pod_without_dns_can_dial() -> None:
    assert resolve("127.0.0.1:50051") == "127.0.0.1:50051"
    assert resolve("localhost:7") in ("127.0.0.1:7", "[::1]:7")


def test_the_kubernetes_runner_outside_a_cluster_says_so(tmp_path: Path) -> None:
    from click.testing import CliRunner

    result = CliRunner().invoke(
        main,
        ["runner", "--backend", "kubernetes"],
        env={
            "KUBERNETES_SERVICE_HOST": None,
            "KUBECONFIG": str(tmp_path / "none"),
            "HOME": str(tmp_path),
            "PREMIERE_RUNNER_FETCH_HOST": "127.0.0.1",
            "PREMIERE_RUNNER_WORK": str(tmp_path / "work"),
            "PREMIERE_RUNNER_METRICS_PORT": str(free_port()),
        },
    )
    assert result.exit_code == 1, result.output
    assert "no Kubernetes cluster" in result.output
    assert "Traceback" not in result.output
