"""deploy/ checked against the code: the image, the compose file, the Kubernetes manifests, the
Prometheus scrape config, the Grafana dashboard and docs/operations.md.

Every `premiere ...` command must parse with the real CLI; every PREMIERE_* variable must be a
setting the code reads, with a valid value; the addresses must be reachable from other
containers and agree with the ports published, probed and scraped; every image is pinned; every
metric and label on the dashboard exists in the metrics modules, and its SQL runs on the
ladder's real tables. No Docker engine or cluster is needed: `docker compose config` is used
when it is installed; `kubectl kustomize` is required (scripts/prerequisites.sh installs it).
"""

from __future__ import annotations

import ast
import functools
import json
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import click
import pytest
import yaml
from click.testing import CliRunner

from ladder.config import LadderSettings
from premiere.cli import main
from tests.deploy import envtable
from tests.deploy.envtable import ServiceSettings
from tests.deploy.k8smodels import load as load_model

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
IMAGE = f"premiere:{PYPROJECT['project']['version']}"

# The process each `premiere` command path runs.
PROCESSES = {
    ("arbiter",): "arbiter",
    ("worker",): "worker",
    ("beat",): "beat",
    ("ladder",): "ladder",
    ("db", "upgrade"): "db upgrade",
    ("runner",): "runner",
}
# Variables each process cannot do without in a deployment (the defaults point at 127.0.0.1).
REQUIRED_ENV = {
    "arbiter": {"PREMIERE_DATABASE_URL"},
    "worker": {"PREMIERE_DATABASE_URL", "PREMIERE_REDIS_URL", "PREMIERE_ARBITER_TARGET"},
    "beat": {"PREMIERE_REDIS_URL"},
    "ladder": {"PREMIERE_DATABASE_URL"},
    "db upgrade": {"PREMIERE_DATABASE_URL"},
    "runner": {"PREMIERE_DATABASE_URL", "PREMIERE_ARBITER_TARGET"},
}
# CLI options that override a setting (premiere/commands/): process -> {param: settings field}.
FLAG_FIELDS = {
    "arbiter": {"address": "arbiter_address", "metrics_port": "arbiter_metrics_port"},
    "worker": {"metrics_port": "worker_metrics_port"},
    "ladder": {
        "grpc_address": "grpc_address",
        "http_address": "http_address",
        "interval": "rate_interval_s",
    },
    "runner": {"target": "arbiter_target", "backend": "runner_backend"},
}
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
METRIC_MODULES = ("server/metrics.py", "workers/metrics.py", "ladder/metrics.py")


# --- reading the files ----------------------------------------------------------------------


def load_yaml(path: Path) -> Any:
    with path.open() as stream:
        return yaml.safe_load(stream)


@functools.cache
def compose() -> dict[str, Any]:
    data = load_yaml(DEPLOY / "compose.yaml")
    assert isinstance(data, dict)
    return data


def k8s_files() -> list[Path]:
    return sorted(path for path in K8S.glob("*.yaml") if path.name != "kustomization.yaml")


@functools.cache
def k8s_objects() -> tuple[dict[str, Any], ...]:
    objects = []
    for path in k8s_files():
        with path.open() as stream:
            for document in yaml.safe_load_all(stream):
                if document is not None:
                    document.setdefault("_file", path.name)
                    objects.append(document)
    return tuple(objects)


def k8s(kind: str) -> list[dict[str, Any]]:
    return [obj for obj in k8s_objects() if obj["kind"] == kind]


@functools.cache
def k8s_example_secrets() -> tuple[dict[str, Any], ...]:
    """The Secret the operator makes (deploy/k8s/examples): not applied, so nothing starts
    with a value shipped in the repository."""
    with (K8S / "examples" / "secret.yaml").open() as stream:
        return tuple(doc for doc in yaml.safe_load_all(stream) if doc)


def k8s_one(kind: str, name: str) -> dict[str, Any]:
    found = [obj for obj in k8s(kind) if obj["metadata"]["name"] == name]
    if not found and kind == "Secret":
        found = [obj for obj in k8s_example_secrets() if obj["metadata"]["name"] == name]
    assert len(found) == 1, f"expected one {kind} {name!r} in deploy/k8s, found {len(found)}"
    return found[0]


def workloads() -> list[dict[str, Any]]:
    return k8s("Deployment") + k8s("StatefulSet")


_COMPOSE_VARIABLE = re.compile(r"\$\{(\w+)(?::?-([^}]*)|:\?([^}]*))?\}|\$(\w+)")


def interpolate(value: Any) -> str:
    """A compose value as `docker compose` gives it with the operator's secrets set: a variable
    is either required (`${NAME:?why}`: compose refuses to start without it; here it reads
    "set-NAME") or has a default."""
    text = str(value).replace("$$", "\0")

    def default(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(4)
        if match.group(3) is not None:
            return f"set-{name}"
        assert match.group(2) is not None, f"compose variable {name} has no default: {value!r}"
        return match.group(2)

    return _COMPOSE_VARIABLE.sub(default, text).replace("\0", "$")


def compose_env(service: dict[str, Any]) -> dict[str, str]:
    raw = service.get("environment") or {}
    if isinstance(raw, list):
        raw = dict(item.split("=", 1) for item in raw)
    return {key: interpolate(value) for key, value in raw.items()}


def argv(command: Any) -> list[str]:
    if command is None:
        return []
    return shlex.split(command) if isinstance(command, str) else [str(part) for part in command]


# --- the CLI --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Invocation:
    path: tuple[str, ...]
    args: tuple[str, ...]
    params: dict[str, Any]

    @property
    def process(self) -> str | None:
        return PROCESSES.get(self.path)


def parse_premiere(words: list[str], where: str) -> Invocation:
    """Resolve `premiere <group> <command> [flags]` with the real click commands, and parse the
    flags with them: an unknown command, flag or bad value fails here."""
    assert words and words[0] == "premiere", f"{where}: not a premiere command: {words}"
    command: click.Command = main
    path: list[str] = []
    rest = list(words[1:])
    while isinstance(command, click.Group):
        if command.invoke_without_command and (not rest or rest[0].startswith("-")):
            break  # a group that runs on its own too (`premiere ladder [flags]`)
        assert rest, f"{where}: `{' '.join(words)}` names a group, not a command"
        name = rest.pop(0)
        sub = command.get_command(click.Context(command), name)
        assert sub is not None, f"{where}: premiere has no command {' '.join([*path, name])!r}"
        path.append(name)
        command = sub
    result = CliRunner().invoke(main, [*path, "--help"])
    assert result.exit_code == 0, f"{where}: premiere {' '.join(path)} --help: {result.output}"
    options = {opt for param in command.params for opt in (*param.opts, *param.secondary_opts)}
    for word in rest:
        if word.startswith("-"):
            assert word.split("=", 1)[0] in options, (
                f"{where}: premiere {' '.join(path)} has no option {word}; it has {sorted(options)}"
            )
    try:
        context = command.make_context(f"premiere {' '.join(path)}", list(rest))
    except click.ClickException as error:
        raise AssertionError(f"{where}: `{' '.join(words)}`: {error.format_message()}") from None
    return Invocation(tuple(path), tuple(rest), dict(context.params))


def known_variables() -> set[str]:
    rows = envtable.all_settings_rows()
    return {row.name for row in rows} | set(envtable.direct_reads())


def effective_settings(
    invocation: Invocation, env: dict[str, str]
) -> tuple[ServiceSettings, LadderSettings]:
    """The settings the process would run with: its environment over the defaults, its flags
    over both. Built from explicit values only, so this test's own environment plays no part;
    a value the settings reject fails here."""
    built = []
    for model in (ServiceSettings, LadderSettings):
        prefix = str(model.model_config.get("env_prefix", ""))
        values: dict[str, Any] = {}
        for name, info in model.model_fields.items():
            variable = f"{prefix}{name}".upper()
            values[name] = env.get(variable, info.default)
        for param, target in FLAG_FIELDS.get(invocation.process or "", {}).items():
            if target in values and invocation.params.get(param) is not None:
                values[target] = invocation.params[param]
        built.append(model(**values))
    settings, ladder = built
    assert isinstance(settings, ServiceSettings) and isinstance(ladder, LadderSettings)
    return settings, ladder


def host_port(address: str) -> tuple[str, int]:
    host, _, port = address.rpartition(":")
    assert host and port.isdigit(), f"not a host:port address: {address!r}"
    return host.strip("[]"), int(port)


@dataclass
class Container:
    """One Premiere process as deployed: where, its command, environment and settings."""

    where: str
    invocation: Invocation
    env: dict[str, str]
    settings: ServiceSettings = field(init=False)
    ladder: LadderSettings = field(init=False)

    def __post_init__(self) -> None:
        self.settings, self.ladder = effective_settings(self.invocation, self.env)

    @property
    def process(self) -> str:
        process = self.invocation.process
        assert process is not None, f"{self.where}: runs {self.invocation.path}, not a service"
        return process

    def grpc_port(self) -> int:
        if self.process == "arbiter":
            return host_port(self.settings.arbiter_address)[1]
        return host_port(self.ladder.grpc_address)[1]

    def metrics_port(self) -> int | None:
        return {
            "arbiter": self.settings.arbiter_metrics_port,
            "worker": self.settings.worker_metrics_port,
            "ladder": host_port(self.ladder.http_address)[1],
        }.get(self.process)

    def bound_addresses(self) -> list[str]:
        return {
            "arbiter": [self.settings.arbiter_address],
            "ladder": [self.ladder.grpc_address, self.ladder.http_address],
            "runner": [self.settings.runner_fetch_address],
        }.get(self.process, [])


def check_container(container: Container) -> None:
    where = container.where
    premiere = {name for name in container.env if name.startswith("PREMIERE_")}
    unknown = premiere - known_variables()
    assert not unknown, f"{where}: no Premiere code reads {sorted(unknown)}"
    missing = REQUIRED_ENV[container.process] - set(container.env)
    assert not missing, f"{where}: {container.process} needs {sorted(missing)}"
    for address in container.bound_addresses():
        host, _ = host_port(address)
        assert host not in LOOPBACK, f"{where}: binds {address}, unreachable from other hosts"


# --- compose --------------------------------------------------------------------------------


def compose_services() -> dict[str, dict[str, Any]]:
    services = compose()["services"]
    assert isinstance(services, dict)
    return services


@functools.cache
def compose_containers() -> dict[str, Container]:
    found = {}
    for name, service in compose_services().items():
        words = argv(service.get("command"))
        if service.get("image") == IMAGE or "build" in service:
            where = f"compose service {name}"
            found[name] = Container(where, parse_premiere(words, where), compose_env(service))
    return found


def compose_by_process(process: str) -> list[str]:
    return [name for name, c in compose_containers().items() if c.process == process]


def test_compose_has_every_service() -> None:
    services = set(compose_services())
    required = {"postgres", "redis", "migrate", "arbiter", "worker", "beat", "ladder"}
    assert required | {"prometheus", "grafana"} <= services
    processes = {name: c.process for name, c in compose_containers().items()}
    assert processes == {
        "migrate": "db upgrade",
        "arbiter": "arbiter",
        "worker": "worker",
        "beat": "beat",
        "ladder": "ladder",
    }


def test_compose_premiere_services_are_configured() -> None:
    for container in compose_containers().values():
        check_container(container)


def _compose_address(url_or_address: str) -> tuple[str, int | None]:
    if "://" in url_or_address:
        parts = urlsplit(url_or_address)
        assert parts.hostname is not None
        return parts.hostname, parts.port
    return host_port(url_or_address)


def test_compose_services_reach_each_other() -> None:
    services = compose_services()
    postgres = compose_env(services["postgres"])
    arbiters = {name: compose_containers()[name] for name in compose_by_process("arbiter")}
    for name, container in compose_containers().items():
        database = urlsplit(container.settings.database_url)
        if "PREMIERE_DATABASE_URL" in container.env:
            assert (database.hostname, database.port or 5432) == ("postgres", 5432), name
            assert database.username == postgres["POSTGRES_USER"], name
            assert database.password == postgres["POSTGRES_PASSWORD"], name
            assert database.path.lstrip("/") == postgres["POSTGRES_DB"], name
        if "PREMIERE_REDIS_URL" in container.env:
            redis = urlsplit(container.settings.redis_url)
            assert (redis.hostname, redis.port or 6379) == ("redis", 6379), name
        if container.process == "worker":
            host, port = _compose_address(container.settings.arbiter_target)
            assert host in arbiters, f"{name}: PREMIERE_ARBITER_TARGET {host} is no arbiter"
            assert port == arbiters[host].grpc_port(), f"{name}: arbiter gRPC port is not {port}"


def test_compose_published_ports_are_the_ports_served() -> None:
    published = 0
    for name, container in compose_containers().items():
        served = (
            {container.grpc_port(), container.metrics_port()}
            if container.process
            in (
                "arbiter",
                "ladder",
            )
            else set()
        )
        for mapping in compose_services()[name].get("ports", []):
            inside = int(str(mapping).rsplit(":", 1)[-1].split("/")[0])
            assert inside in served, f"compose {name} publishes {mapping}; it serves {served}"
            published += 1
    assert published, "compose publishes no port at all"


def test_compose_dependencies_and_files_exist() -> None:
    services = compose_services()
    for name, service in services.items():
        depends = service.get("depends_on") or {}
        items = depends.items() if isinstance(depends, dict) else ((d, {}) for d in depends)
        for other, spec in items:
            assert other in services, f"compose {name} depends on unknown {other}"
            condition = (spec or {}).get("condition", "service_started")
            if condition == "service_healthy":
                assert "healthcheck" in services[other], f"{other} has no healthcheck"
            if condition == "service_completed_successfully":
                assert services[other].get("restart") == "no", f"{other} is not a one-shot"
        for volume in service.get("volumes", []):
            source = str(volume).split(":", 1)[0]
            if source.startswith("."):
                assert (DEPLOY / source).exists(), f"compose {name} mounts missing {source}"
            else:
                assert source in (compose().get("volumes") or {}), f"undeclared volume {source}"
        if "build" in service:
            build = service["build"]
            context = (DEPLOY / build["context"]).resolve()
            assert context == ROOT, "the image builds from the repository root"
            assert (context / build["dockerfile"]).is_file()
            assert service["image"] == IMAGE
    assert services["migrate"]["restart"] == "no"
    for name in ("arbiter", "worker", "ladder"):
        depends = services[name]["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully", name


def test_compose_healthchecks_are_valid_python() -> None:
    for name, service in compose_services().items():
        test = (service.get("healthcheck") or {}).get("test")
        if test and test[:3] == ["CMD", "python", "-c"]:
            compile(test[3], f"compose {name} healthcheck", "exec")
    ladder_check = compose_services()["ladder"]["healthcheck"]["test"][3]
    port = compose_containers()["ladder"].metrics_port()
    assert f"127.0.0.1:{port}/healthz" in ladder_check
    assert "/healthz" in ladder_routes()
    arbiter_check = compose_services()["arbiter"]["healthcheck"]["test"][3]
    assert f"127.0.0.1:{compose_containers()['arbiter'].grpc_port()}" in arbiter_check


def test_compose_scales_workers_only() -> None:
    """A worker may be scaled (no container name, no published port); beat is one."""
    services = compose_services()
    assert "container_name" not in services["worker"] and "ports" not in services["worker"]
    assert len(compose_by_process("beat")) == 1
    assert len(compose_by_process("arbiter")) == 1


# --- Prometheus and Grafana -----------------------------------------------------------------


def test_prometheus_scrapes_every_metrics_port() -> None:
    config = load_yaml(DEPLOY / "prometheus" / "prometheus.yml")
    containers = compose_containers()
    scraped: set[str] = set()
    for job in config["scrape_configs"]:
        assert job.get("metrics_path", "/metrics") == "/metrics", job["job_name"]
        targets = [t for static in job.get("static_configs", []) for t in static["targets"]]
        for dns in job.get("dns_sd_configs", []):
            assert dns.get("type", "SRV") == "A", "A records carry no port: give `port`"
            targets += [f"{name}:{dns['port']}" for name in dns["names"]]
        assert targets, job["job_name"]
        for target in targets:
            host, port = host_port(target)
            assert host in containers, f"{job['job_name']}: {host} is no Premiere service"
            assert port == containers[host].metrics_port(), (
                f"{job['job_name']}: {host} serves /metrics on {containers[host].metrics_port()},"
                f" not {port}"
            )
            scraped.add(host)
    with_metrics = {name for name, c in containers.items() if c.metrics_port() is not None}
    assert with_metrics == scraped == {"arbiter", "worker", "ladder"}
    volumes = compose_services()["prometheus"]["volumes"]
    assert "./prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro" in volumes


def test_promtool_accepts_the_config_and_the_dashboard_queries(tmp_path: Path) -> None:
    """With Prometheus's own checker when it is installed (make test installs Debian's
    prometheus): the scrape config, and every dashboard expression as a recording rule."""
    promtool = shutil.which("promtool")
    if promtool is None:
        pytest.skip("no promtool here; the scrape config is checked above without it")
    config = subprocess.run(
        [promtool, "check", "config", str(DEPLOY / "prometheus" / "prometheus.yml")],
        capture_output=True,
        text=True,
    )
    assert config.returncode == 0, config.stdout + config.stderr
    rules = [
        {"record": f"premiere:dashboard:panel_{panel['id']}_{target['refId']}", "expr": expr}
        for panel, target in dashboard_targets()
        if (expr := target.get("expr"))
    ]
    assert rules
    path = tmp_path / "dashboard-rules.yml"
    path.write_text(yaml.safe_dump({"groups": [{"name": "dashboard", "rules": rules}]}))
    checked = subprocess.run(
        [promtool, "check", "rules", str(path)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def declared_metrics() -> dict[str, tuple[str, frozenset[str]]]:
    """name -> (type, label names) of every metric the metrics modules declare."""
    found = {}
    kinds = {"Counter", "Gauge", "Histogram", "Summary", "GaugeMetricFamily"}
    for module in METRIC_MODULES:
        tree = ast.parse((ROOT / module).read_text())
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            kind = node.func.id if isinstance(node.func, ast.Name) else None
            if kind not in kinds or not node.args or not isinstance(node.args[0], ast.Constant):
                continue
            labels: Any = node.args[2] if len(node.args) > 2 else None
            for keyword in node.keywords:
                if keyword.arg in ("labelnames", "labels"):
                    labels = keyword.value
            names = frozenset(ast.literal_eval(labels)) if labels is not None else frozenset()
            found[str(node.args[0].value)] = (str(kind), names)
    return found


def exposed_series() -> dict[str, frozenset[str]]:
    """Every series name Prometheus sees from those metrics, with its labels."""
    series: dict[str, frozenset[str]] = {"up": frozenset({"job", "instance"})}
    for name, (kind, labels) in declared_metrics().items():
        if kind == "Counter":
            base = name.removesuffix("_total")
            series |= {f"{base}_total": labels, f"{base}_created": labels}
        elif kind == "Histogram":
            series |= {f"{name}_bucket": labels | {"le"}, f"{name}_sum": labels}
            series |= {f"{name}_count": labels, f"{name}_created": labels}
        else:
            series[name] = labels
    return series


def test_metric_modules_declare_the_dashboard_basics() -> None:
    """Guards the AST reading above: it must see the metrics the dashboard is built on."""
    declared = declared_metrics()
    assert declared["premiere_arbiter_decisions_total"] == (
        "Counter",
        frozenset({"game", "result"}),
    )
    assert declared["premiere_arbiter_decision_seconds"] == ("Histogram", frozenset({"game"}))
    assert declared["premiere_worker_queue_depth"] == ("GaugeMetricFamily", frozenset({"queue"}))


@functools.cache
def dashboard() -> dict[str, Any]:
    data = json.loads((DEPLOY / "grafana" / "dashboards" / "premiere.json").read_text())
    assert isinstance(data, dict)
    return data


def dashboard_targets() -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    for panel in dashboard()["panels"]:
        for target in panel.get("targets", []):
            yield panel, target


def datasources() -> dict[str, dict[str, Any]]:
    path = DEPLOY / "grafana" / "provisioning" / "datasources" / "datasources.yaml"
    return {source["uid"]: source for source in load_yaml(path)["datasources"]}


_IDENTIFIER = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
_GROUPING = re.compile(r"\b(?:by|without)\s*\(([^)]*)\)")


def test_dashboard_queries_use_real_metrics_and_labels() -> None:
    series = exposed_series()
    expressions = []
    for panel, target in dashboard_targets():
        if target["datasource"]["type"] != "prometheus":
            continue
        expr = target["expr"]
        expressions.append(expr)
        used = {word for word in _IDENTIFIER.findall(expr) if word.startswith("premiere_")}
        if re.search(r"\bup\b", expr):
            used.add("up")
        assert used, f"{panel['title']}: {expr} reads no Premiere metric"
        unknown = used - set(series)
        assert not unknown, f"{panel['title']}: no such metric {sorted(unknown)}"
        labels = frozenset().union(*(series[name] for name in used))
        for grouping in _GROUPING.findall(expr):
            for label in filter(None, (part.strip() for part in grouping.split(","))):
                assert label in labels, f"{panel['title']}: {expr}: no label {label!r}"
    text = "\n".join(expressions)
    for needle in (
        "rate(premiere_arbiter_decisions_total[1m])",
        "histogram_quantile(0.5, sum by (le) (rate(premiere_arbiter_decision_seconds_bucket",
        "histogram_quantile(0.99, sum by (le) (rate(premiere_arbiter_decision_seconds_bucket",
        "premiere_arbiter_timeouts_total",
        "premiere_worker_queue_depth",
        "premiere_arbiter_live_matches",
        "premiere_arbiter_connected_bots",
        "rate(premiere_ladder_matches_rated_total",
    ):
        assert needle in text, f"the dashboard has no panel with {needle}"


def test_dashboard_datasources_are_provisioned() -> None:
    sources = datasources()
    assert sources["premiere-prometheus"]["url"] == "http://prometheus:9090"
    postgres = sources["premiere-postgres"]
    assert postgres["url"] == "postgres:5432"
    assert (
        postgres["jsonData"]["database"]
        == compose_env(compose_services()["postgres"])["POSTGRES_DB"]
    )
    script = (DEPLOY / "postgres" / "10-grafana-reader.sh").read_text()
    assert f"CREATE ROLE {postgres['user']} LOGIN" in script
    password = postgres["secureJsonData"]["password"]
    variable = re.fullmatch(r"\$\{(\w+)\}", password)
    assert variable, "the reader's password comes from the environment"
    grafana_env = compose_env(compose_services()["grafana"])
    postgres_env = compose_env(compose_services()["postgres"])
    assert grafana_env[variable.group(1)] == postgres_env[variable.group(1)]
    used = [target["datasource"] for _, target in dashboard_targets()]
    used += [variable["datasource"] for variable in dashboard()["templating"]["list"]]
    for reference in used:
        assert reference["uid"] in sources, reference
        assert sources[reference["uid"]]["type"] == reference["type"], reference


def test_grafana_finds_the_dashboard() -> None:
    provider = load_yaml(DEPLOY / "grafana" / "provisioning" / "dashboards" / "premiere.yaml")
    path = provider["providers"][0]["options"]["path"]
    mounts = dict(str(volume).split(":")[:2] for volume in compose_services()["grafana"]["volumes"])
    assert mounts["./grafana/dashboards"] == path
    assert mounts["./grafana/provisioning"] == "/etc/grafana/provisioning"
    home = compose_env(compose_services()["grafana"])["GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH"]
    assert home == f"{path}/premiere.json"
    ids = [panel["id"] for panel in dashboard()["panels"]]
    assert len(ids) == len(set(ids)), "panel ids must be unique"


def test_dashboard_reads_prometheus_not_the_database() -> None:
    """The leaderboards come from the ladder's per-player metrics (premiere_ladder_player_*,
    tests/ladder/test_watching.py checks they match the ladder's leaderboard), not from SQL."""
    sources = {target["datasource"]["uid"] for _, target in dashboard_targets()}
    assert sources == {"premiere-prometheus"}
    variable = dashboard()["templating"]["list"][0]
    assert variable["datasource"]["uid"] == "premiere-prometheus"
    assert "premiere_ladder_game_rated_matches" in variable["definition"]
    text = "\n".join(target["expr"] for _, target in dashboard_targets())
    for needle in (
        'premiere_ladder_player_rating{game="$game"}',
        'premiere_ladder_player_games{game="$game"}',
        "premiere_ladder_player_faults_day",
        "premiere_ladder_player_latency_ms_day",
    ):
        assert needle in text, f"the dashboard has no panel with {needle}"


# --- Kubernetes -----------------------------------------------------------------------------

KINDS = {
    ("v1", "Namespace"),
    ("v1", "ConfigMap"),
    ("v1", "Secret"),
    ("v1", "Service"),
    ("apps/v1", "Deployment"),
    ("apps/v1", "StatefulSet"),
    ("batch/v1", "Job"),
    ("autoscaling/v2", "HorizontalPodAutoscaler"),
    ("policy/v1", "PodDisruptionBudget"),
    ("v1", "ServiceAccount"),
    ("v1", "ResourceQuota"),
    ("networking.k8s.io/v1", "NetworkPolicy"),
    ("rbac.authorization.k8s.io/v1", "Role"),
    ("rbac.authorization.k8s.io/v1", "RoleBinding"),
    ("rbac.authorization.k8s.io/v1", "ClusterRole"),
    ("rbac.authorization.k8s.io/v1", "ClusterRoleBinding"),
}
CLUSTER_SCOPED = {"Namespace", "ClusterRole", "ClusterRoleBinding"}
# What may live beside hosted bots' Pods: their fences and the runner's rights there.
HOSTED_NAMESPACE_KINDS = {"NetworkPolicy", "ResourceQuota", "Role", "RoleBinding"}


def test_k8s_files_parse_and_are_all_applied() -> None:
    kustomization = load_yaml(K8S / "kustomization.yaml")
    assert sorted(kustomization["resources"]) == [path.name for path in k8s_files()]
    namespaces = [obj["metadata"]["name"] for obj in k8s("Namespace")]
    assert namespaces == ["premiere", "premiere-bots"]
    for obj in k8s_objects():
        where = f"{obj['_file']}: {obj['kind']}"
        assert (obj["apiVersion"], obj["kind"]) in KINDS, where
        assert obj["metadata"]["name"], where
        namespace = obj["metadata"].get("namespace")
        if obj["kind"] in CLUSTER_SCOPED:
            assert namespace is None, where
        elif obj["kind"] in HOSTED_NAMESPACE_KINDS and namespace == "premiere-bots":
            continue
        else:
            assert namespace == "premiere", where


def test_kubectl_kustomize_renders_the_manifests() -> None:
    kubectl = shutil.which("kubectl")
    assert kubectl is not None, "kubectl is needed: scripts/prerequisites.sh installs it"
    result = subprocess.run(
        [kubectl, "kustomize", str(K8S)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    rendered = [doc for doc in yaml.safe_load_all(result.stdout) if doc]
    assert sorted((d["kind"], d["metadata"]["name"]) for d in rendered) == sorted(
        (d["kind"], d["metadata"]["name"]) for d in k8s_objects()
    )


def test_hosted_pods_follow_the_image_the_operator_sets(tmp_path: Path) -> None:
    """`kustomize edit set image` (docs/operations.md) renames the image everywhere, and the
    runner's PREMIERE_RUNNER_IMAGE with it, so hosted Pods pull what the cluster can."""
    kubectl = shutil.which("kubectl")
    assert kubectl is not None, "kubectl is needed: scripts/prerequisites.sh installs it"
    copy = tmp_path / "k8s"
    shutil.copytree(K8S, copy)
    with (copy / "kustomization.yaml").open("a") as stream:
        stream.write("images:\n  - name: premiere\n    newName: registry.example.com/premiere\n")
    result = subprocess.run(
        [kubectl, "kustomize", str(copy)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    (runner,) = [
        doc
        for doc in yaml.safe_load_all(result.stdout)
        if doc and doc["kind"] == "Deployment" and doc["metadata"]["name"] == "runner"
    ]
    (container,) = pod_spec(runner)["containers"]
    assert container["image"].startswith("registry.example.com/premiere:")
    env = {item["name"]: item.get("value") for item in container["env"]}
    assert env["PREMIERE_RUNNER_IMAGE"] == container["image"]


def pod_spec(obj: dict[str, Any]) -> dict[str, Any]:
    spec = obj["spec"]["template"]["spec"]
    assert isinstance(spec, dict)
    return spec


def container_env(container: dict[str, Any], where: str) -> dict[str, str]:
    """The environment a container gets, with ConfigMap and Secret references resolved."""
    env: dict[str, str] = {}
    for source in container.get("envFrom", []):
        if "configMapRef" in source:
            env |= k8s_one("ConfigMap", source["configMapRef"]["name"])["data"]
        else:
            env |= k8s_one("Secret", source["secretRef"]["name"])["stringData"]
    for item in container.get("env", []):
        if "value" in item:
            env[item["name"]] = str(item["value"])
            continue
        ref = item["valueFrom"]
        if "fieldRef" in ref:
            field = ref["fieldRef"]["fieldPath"]
            assert field in ("metadata.name", "status.podIP"), where
            what = "name" if field == "metadata.name" else "IP"
            env[item["name"]] = f"(the pod's {what}, in {where})"
            continue
        if "secretKeyRef" in ref:
            data = k8s_one("Secret", ref["secretKeyRef"]["name"])["stringData"]
            key = ref["secretKeyRef"]["key"]
        else:
            data = k8s_one("ConfigMap", ref["configMapKeyRef"]["name"])["data"]
            key = ref["configMapKeyRef"]["key"]
        assert key in data, f"{where}: {item['name']} refers to missing key {key}"
        env[item["name"]] = str(data[key])
    return env


@functools.cache
def k8s_containers() -> dict[str, tuple[Container, dict[str, Any], dict[str, Any]]]:
    """name -> (Container, the container spec, its workload) for every Premiere container."""
    found = {}
    for obj in [*workloads(), *k8s("Job")]:
        for spec in pod_spec(obj)["containers"]:
            if spec["image"].split("/")[-1] != IMAGE:
                continue
            where = f"{obj['kind']} {obj['metadata']['name']}"
            words = argv(spec.get("command")) + argv(spec.get("args"))
            invocation = parse_premiere(words, where)
            found[obj["metadata"]["name"]] = (
                Container(where, invocation, container_env(spec, where)),
                spec,
                obj,
            )
    return found


def test_k8s_runs_every_process() -> None:
    processes = {name: entry[0].process for name, entry in k8s_containers().items()}
    assert processes == {
        "premiere-migrate": "db upgrade",
        "arbiter": "arbiter",
        "worker": "worker",
        "beat": "beat",
        "ladder": "ladder",
        "runner": "runner",
    }
    for container, _, _ in k8s_containers().values():
        check_container(container)


def test_k8s_config_is_complete_and_valid() -> None:
    config = k8s_one("ConfigMap", "premiere-config")["data"]
    unknown = {name for name in config if name.startswith("PREMIERE_")} - known_variables()
    assert not unknown, f"premiere-config sets {sorted(unknown)}, which no code reads"
    assert all(isinstance(value, str) for value in config.values()), "ConfigMap values are text"
    secret = k8s_one("Secret", "premiere-db")["stringData"]
    assert "PREMIERE_DATABASE_URL" not in config, "the database URL is a secret"
    database = urlsplit(secret["PREMIERE_DATABASE_URL"])
    postgres = k8s_one("StatefulSet", "postgres")
    postgres_env = container_env(pod_spec(postgres)["containers"][0], "postgres")
    assert database.password == postgres_env["POSTGRES_PASSWORD"]
    assert database.username == postgres_env["POSTGRES_USER"]
    assert database.path.lstrip("/") == postgres_env["POSTGRES_DB"]


def labels_match(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return all(labels.get(key) == value for key, value in selector.items())


def test_k8s_selectors_match_templates() -> None:
    for obj in workloads():
        selector = obj["spec"]["selector"]["matchLabels"]
        labels = obj["spec"]["template"]["metadata"]["labels"]
        assert selector and labels_match(selector, labels), obj["metadata"]["name"]
    kinds = [(obj["kind"], obj["metadata"]["name"]) for obj in workloads()]
    assert len(kinds) == len(set(kinds))


def service_workload(service: dict[str, Any]) -> dict[str, Any]:
    selector = service["spec"]["selector"]
    chosen = [
        obj
        for obj in workloads()
        if labels_match(selector, obj["spec"]["template"]["metadata"]["labels"])
    ]
    name = service["metadata"]["name"]
    assert len(chosen) == 1, f"Service {name} selects {len(chosen)} workloads"
    return chosen[0]


def container_port(obj: dict[str, Any], port: int | str) -> int:
    """A container port of the workload, by number or name."""
    for spec in pod_spec(obj)["containers"]:
        for item in spec.get("ports", []):
            if port in (item["containerPort"], item.get("name")):
                return int(item["containerPort"])
    raise AssertionError(f"{obj['metadata']['name']} has no container port {port!r}")


def service_port(name: str, port: int) -> int:
    """The container port that Service `name`'s `port` reaches."""
    service = k8s_one("Service", name)
    for item in service["spec"]["ports"]:
        if item["port"] == port:
            return container_port(service_workload(service), item.get("targetPort", port))
    raise AssertionError(f"Service {name} has no port {port}")


def test_k8s_services_select_workloads_and_their_ports() -> None:
    for service in k8s("Service"):
        workload = service_workload(service)
        for item in service["spec"]["ports"]:
            container_port(workload, item.get("targetPort", item["port"]))
    containers = k8s_containers()
    arbiter = containers["arbiter"][0]
    ladder = containers["ladder"][0]
    assert service_port("arbiter", 50051) == arbiter.grpc_port()
    assert service_port("arbiter", 9101) == arbiter.metrics_port()
    assert service_port("arbiter-bots", 50051) == arbiter.grpc_port()
    assert k8s_one("Service", "arbiter-bots")["spec"]["type"] == "LoadBalancer"
    assert service_port("ladder", 50061) == ladder.grpc_port()
    assert service_port("ladder", 8080) == ladder.metrics_port()


def _reach(url_or_address: str, scheme_default: int) -> int:
    """The container port a URL or host:port reaches, through the Service it names."""
    host, port = _compose_address(url_or_address)
    return service_port(host, port or scheme_default)


def test_k8s_processes_reach_each_other() -> None:
    containers = k8s_containers()
    postgres = container_port(k8s_one("StatefulSet", "postgres"), "postgres")
    redis = container_port(k8s_one("Deployment", "redis"), "redis")
    for container, _, _ in containers.values():
        if "PREMIERE_DATABASE_URL" in container.env:
            assert _reach(container.settings.database_url, 5432) == postgres == 5432
        if "PREMIERE_REDIS_URL" in container.env:
            assert _reach(container.settings.redis_url, 6379) == redis == 6379
    worker = containers["worker"][0]
    host, port = host_port(worker.settings.arbiter_target)
    assert service_workload(k8s_one("Service", host))["metadata"]["name"] == "arbiter"
    assert service_port(host, port) == containers["arbiter"][0].grpc_port()


def test_k8s_probes_resources_and_scraping() -> None:
    uid = dockerfile_user()
    for name, (container, spec, obj) in k8s_containers().items():
        resources = spec["resources"]
        assert {"cpu", "memory"} <= set(resources["requests"]), name
        assert {"cpu", "memory"} <= set(resources["limits"]), name
        security = pod_spec(obj)["securityContext"]
        assert security["runAsNonRoot"] is True and security["runAsUser"] == uid, name
        if spec["securityContext"].get("readOnlyRootFilesystem") and container.process not in (
            "db upgrade",
        ):
            mounts = {mount["mountPath"] for mount in spec.get("volumeMounts", [])}
            assert "/tmp" in mounts, f"{name}: Celery, metrics and beat write to /tmp"
        annotations = obj["spec"]["template"]["metadata"].get("annotations", {})
        port = container.metrics_port()
        if port is None:
            assert "prometheus.io/scrape" not in annotations, name
            continue
        assert annotations["prometheus.io/scrape"] == "true", name
        assert annotations["prometheus.io/port"] == str(port), name
        assert annotations["prometheus.io/path"] == "/metrics", name
        assert container_port(obj, port) == port, name
    arbiter, spec, obj = k8s_containers()["arbiter"]
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert spec[probe]["grpc"]["port"] == arbiter.grpc_port(), probe
    # Readiness follows the database (server/app.py READY); liveness only the process.
    from server.app import READY

    assert spec["readinessProbe"]["grpc"]["service"] == READY
    assert "service" not in spec["livenessProbe"]["grpc"]
    ladder, spec, obj = k8s_containers()["ladder"]
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        check = spec[probe]["httpGet"]
        assert check["path"] in ladder_routes(), probe
        assert container_port(obj, check["port"]) == ladder.metrics_port(), probe
    worker, spec, obj = k8s_containers()["worker"]
    assert container_port(obj, spec["livenessProbe"]["httpGet"]["port"]) == worker.metrics_port()
    from hosting.fetch import BundleServer, Grants

    runner, spec, obj = k8s_containers()["runner"]
    check = spec["livenessProbe"]["httpGet"]
    routes = {
        r.canonical for r in BundleServer(Grants(), lambda _sha: None).app().router.resources()
    }
    assert check["path"] in routes
    assert container_port(obj, check["port"]) == host_port(runner.settings.runner_fetch_address)[1]


def test_k8s_replicas_strategies_and_autoscaling() -> None:
    beat = k8s_one("Deployment", "beat")
    assert beat["spec"]["replicas"] == 1 and beat["spec"]["strategy"]["type"] == "Recreate"
    arbiter = k8s_one("Deployment", "arbiter")
    assert arbiter["spec"]["replicas"] >= 2, "a killed arbiter's matches go to another"
    strategy = arbiter["spec"]["strategy"]
    assert strategy["type"] == "RollingUpdate"
    assert strategy["rollingUpdate"]["maxUnavailable"] == 0
    settings = k8s_containers()["arbiter"][0].settings
    assert settings.relay, "bots reach any arbiter only through the relay"
    assert settings.lease_renew_s < settings.lease_s
    (budget,) = k8s("PodDisruptionBudget")
    assert budget["spec"]["selector"]["matchLabels"] == arbiter["spec"]["selector"]["matchLabels"]
    assert budget["spec"]["minAvailable"] >= 1
    (hpa,) = k8s("HorizontalPodAutoscaler")
    target = hpa["spec"]["scaleTargetRef"]
    assert (target["apiVersion"], target["kind"]) == ("apps/v1", "Deployment")
    workers = k8s_one("Deployment", target["name"])
    assert k8s_containers()[workers["metadata"]["name"]][0].process == "worker"
    assert "replicas" not in workers["spec"], "the autoscaler owns the worker count"
    assert 1 <= hpa["spec"]["minReplicas"] < hpa["spec"]["maxReplicas"]
    (metric,) = hpa["spec"]["metrics"]
    assert metric["resource"]["name"] == "cpu"
    assert metric["resource"]["target"]["type"] == "Utilization"
    job = k8s_one("Job", "premiere-migrate")
    assert pod_spec(job)["restartPolicy"] in ("OnFailure", "Never")


def test_k8s_objects_fit_the_kubernetes_schemas() -> None:
    """Each object read into the official client's model: required fields, types, and no
    field the API does not have."""
    for obj in [*k8s_objects(), *k8s_example_secrets()]:
        load_model(obj, f"{obj.get('_file', 'examples/secret.yaml')}: {obj['kind']}")


# The Kubernetes client calls hosting/pods.py makes -> the (API group, resource, verb) each needs.
CLIENT_CALLS = {
    "create_namespaced_pod": ("", "pods", "create"),
    "read_namespaced_pod": ("", "pods", "get"),
    "delete_namespaced_pod": ("", "pods", "delete"),
    "delete_collection_namespaced_pod": ("", "pods", "deletecollection"),
    "read_namespaced_pod_log": ("", "pods/log", "get"),
    "create_namespaced_secret": ("", "secrets", "create"),
    "delete_namespaced_secret": ("", "secrets", "delete"),
    "delete_collection_namespaced_secret": ("", "secrets", "deletecollection"),
    "read_runtime_class": ("node.k8s.io", "runtimeclasses", "get"),
}


def granted(role: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {
        (group, resource, verb)
        for rule in role["rules"]
        for group in rule["apiGroups"]
        for resource in rule["resources"]
        for verb in rule["verbs"]
    }


def test_k8s_runner_may_do_what_it_calls_and_no_more() -> None:
    source = (ROOT / "hosting" / "pods.py").read_text()
    called = set(re.findall(r"(?:self\.core|Api\(self\.api\))\.(\w+)", source))
    assert "create_namespaced_pod" in called and "read_runtime_class" in called
    unknown = called - set(CLIENT_CALLS)
    assert not unknown, f"hosting/pods.py calls {sorted(unknown)}: add them here and to the Role"
    needed = {CLIENT_CALLS[name] for name in called}
    role = k8s_one("Role", "runner")
    assert role["metadata"]["namespace"] == "premiere-bots"
    cluster = k8s_one("ClusterRole", "premiere-runner-runtimeclass")
    assert granted(role) | granted(cluster) == needed
    assert granted(cluster) == {("node.k8s.io", "runtimeclasses", "get")}
    (rule,) = cluster["rules"]
    assert rule["resourceNames"] == ["gvisor"], "one object, not every RuntimeClass"
    for obj in (role, cluster):
        for rule in obj["rules"]:
            assert "*" not in [*rule["verbs"], *rule["resources"], *rule["apiGroups"]]
    assert not {verb for _, resource, verb in granted(role) if resource == "secrets"} & {
        "get",
        "list",
        "watch",
    }, "the runner never reads a Secret back"
    runner = k8s_one("Deployment", "runner")
    account = pod_spec(runner)["serviceAccountName"]
    k8s_one("ServiceAccount", account)
    for binding, target in (
        (k8s_one("RoleBinding", "runner"), role),
        (k8s_one("ClusterRoleBinding", "premiere-runner-runtimeclass"), cluster),
    ):
        assert binding["roleRef"]["kind"] == target["kind"]
        assert binding["roleRef"]["name"] == target["metadata"]["name"]
        assert binding["subjects"] == [
            {"kind": "ServiceAccount", "name": account, "namespace": "premiere"}
        ]
        assert binding["metadata"].get("namespace") == target["metadata"].get("namespace")
    others = [obj for obj in workloads() if obj is not runner]
    assert all("serviceAccountName" not in pod_spec(obj) for obj in others)


def test_k8s_runner_starts_hosted_pods_where_the_fences_are() -> None:
    from hosting.fetch import FETCH_PORT
    from hosting.pods import LABELS

    container, spec, runner = k8s_containers()["runner"]
    assert container.invocation.params["backend"] == "kubernetes"
    assert runner["spec"]["replicas"] == 1, "two runners would start the same bots twice"
    assert runner["spec"]["strategy"]["type"] == "Recreate"
    settings = container.settings
    assert settings.runner_image == spec["image"], "hosted Pods run the runner's own image"
    namespace = k8s_one("Namespace", settings.runner_namespace)
    assert namespace["metadata"]["labels"]["pod-security.kubernetes.io/enforce"] == "restricted"
    assert k8s_one("Role", "runner")["metadata"]["namespace"] == settings.runner_namespace
    fetch_port = host_port(settings.runner_fetch_address)[1]
    assert fetch_port == FETCH_PORT == container_port(runner, "fetch")
    arbiter_host, arbiter_port = host_port(settings.arbiter_target)
    assert service_workload(k8s_one("Service", arbiter_host))["metadata"]["name"] == "arbiter"
    assert k8s_containers()["arbiter"][0].settings.hosted, "the arbiters take uploads"

    policies = {
        obj["metadata"]["name"]: obj
        for obj in k8s("NetworkPolicy")
        if obj["metadata"]["namespace"] == settings.runner_namespace
    }
    assert set(policies) == {"default-deny", "hosted-bot"}
    deny = policies["default-deny"]["spec"]
    assert deny["podSelector"] == {} and sorted(deny["policyTypes"]) == ["Egress", "Ingress"]
    assert "ingress" not in deny and "egress" not in deny
    hosted = policies["hosted-bot"]["spec"]
    assert hosted["podSelector"]["matchLabels"] == LABELS
    assert sorted(hosted["policyTypes"]) == ["Egress", "Ingress"]
    assert hosted.get("ingress", []) == [], "nothing reaches a hosted bot"
    reached = []
    for rule in hosted["egress"]:
        (peer,) = rule["to"]
        assert set(peer) == {"namespaceSelector", "podSelector"}, "pods, never an ipBlock"
        assert peer["namespaceSelector"]["matchLabels"] == {
            "kubernetes.io/metadata.name": "premiere"
        }
        (workload,) = [
            obj
            for obj in workloads()
            if labels_match(
                peer["podSelector"]["matchLabels"], obj["spec"]["template"]["metadata"]["labels"]
            )
        ]
        ports = [(item["protocol"], item["port"]) for item in rule["ports"]]
        reached.append((workload["metadata"]["name"], ports))
    assert sorted(reached) == [
        ("arbiter", [("TCP", service_port(arbiter_host, arbiter_port))]),
        ("runner", [("TCP", fetch_port)]),
    ], "hosted Pods reach the arbiter and their runner only: no DNS, no database"
    quota = k8s_one("ResourceQuota", "hosted-bots")
    assert quota["metadata"]["namespace"] == settings.runner_namespace
    assert int(quota["spec"]["hard"]["pods"]) == settings.runner_max_running


def test_k8s_peer_port_is_reached_by_arbiters_only() -> None:
    """The arbiters' peer port (their peer links, PREMIERE_PEER_ADDRESS) is open to arbiter
    Pods only, each advertising its Pod IP; the bots' and metrics ports stay open."""
    container, _, workload = k8s_containers()["arbiter"]
    settings = container.settings
    assert settings.peer_address is not None and settings.peer_advertise is not None
    port = int(settings.peer_address.rpartition(":")[2])
    assert settings.peer_advertise.endswith(f":{port}") and "IP" in settings.peer_advertise
    assert port == container_port(workload, "peer")
    (policy,) = [o for o in k8s("NetworkPolicy") if o["metadata"]["name"] == "arbiter-peers"]
    assert policy["spec"]["podSelector"]["matchLabels"] == spec_labels("arbiter")
    by_port = {}
    for rule in policy["spec"]["ingress"]:
        for item in rule["ports"]:
            by_port[item["port"]] = rule.get("from")
    assert by_port[port] == [{"podSelector": {"matchLabels": spec_labels("arbiter")}}]
    assert by_port[50051] is None and by_port[9101] is None
    for service in k8s("Service"):
        assert port not in [p["port"] for p in service["spec"]["ports"]], "no Service exposes it"


def spec_labels(name: str) -> dict[str, str]:
    _, _, workload = k8s_containers()[name]
    labels = workload["spec"]["template"]["metadata"]["labels"]
    assert isinstance(labels, dict)
    return labels


# --- images ---------------------------------------------------------------------------------


def images() -> list[tuple[str, str]]:
    found = [(f"compose {name}", s["image"]) for name, s in compose_services().items()]
    for obj in [*workloads(), *k8s("Job")]:
        for spec in pod_spec(obj)["containers"] + pod_spec(obj).get("initContainers", []):
            found.append((f"{obj['kind']} {obj['metadata']['name']}", spec["image"]))
    return found


def test_every_image_is_pinned() -> None:
    for where, image in images():
        if "@sha256:" in image:
            continue
        name, _, tag = image.rpartition(":")
        assert name and "/" not in tag, f"{where}: {image} has no tag"
        assert tag != "latest", f"{where}: {image} is not pinned"
        assert not re.fullmatch(r"\d+", tag), f"{where}: {image}: pin a full version"
    premiere = {image for _, image in images() if image.split("/")[-1].startswith("premiere:")}
    assert premiere == {IMAGE}, "the Premiere image is tagged with the project's version"
    third_party = {image.split(":")[0] for _, image in images()} - {"premiere"}
    assert {image for where, image in images() if where.startswith("compose postgres")} == {
        image for where, image in images() if where == "StatefulSet postgres"
    }
    assert third_party >= {"postgres", "redis", "prom/prometheus", "grafana/grafana"}


# --- the Dockerfile -------------------------------------------------------------------------


def dockerfile() -> list[tuple[str, str]]:
    """(instruction, arguments) with continuation lines joined and comments dropped."""
    text = (DEPLOY / "Dockerfile").read_text()
    joined = re.sub(r"\\\n", " ", text)
    steps = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            instruction, _, rest = line.partition(" ")
            steps.append((instruction.upper(), rest.strip()))
    return steps


def dockerfile_user() -> int:
    users = [rest for instruction, rest in dockerfile() if instruction == "USER"]
    assert users, "the image runs as a non-root user"
    uid = users[-1].split(":")[0]
    assert uid.isdigit() and int(uid) != 0, "USER is a numeric non-root uid (for runAsNonRoot)"
    return int(uid)


def copied_sources() -> list[str]:
    sources = []
    for instruction, rest in dockerfile():
        if instruction == "COPY":
            words = [word for word in rest.split() if not word.startswith("--")]
            sources += words[:-1]
    return sources


def test_dockerfile_installs_the_distribution() -> None:
    steps = dockerfile()
    assert steps[0] == ("FROM", "python:3.11-slim"), steps[0]
    runs = [rest for instruction, rest in steps if instruction == "RUN"]
    assert any(
        'pip install ./wire ./clients/python ".[k8s,research,export]"' in run for run in runs
    )
    extras = PYPROJECT["project"]["optional-dependencies"]
    assert "k8s" in extras, "the runner's extra"
    assert "research" in extras, "OpenSpiel, which hosted Python bots may import"
    assert "export" in extras, "the workers' exports"
    for source in copied_sources():
        assert (ROOT / source).exists(), f"COPY {source}: no such file in the build context"
    packages = {
        pattern.rstrip("*")
        for pattern in PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]
    }
    missing = {package for package in packages if (ROOT / package).is_dir()} - set(copied_sources())
    assert not missing, f"the image would install without {sorted(missing)}"
    assert PYPROJECT["project"]["readme"] in copied_sources()
    ignored = [
        line.strip()
        for line in (DEPLOY / "Dockerfile.dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    for source in copied_sources():
        for pattern in ignored:
            assert not (source == pattern or source.startswith(pattern.rstrip("/") + "/")), (
                f"Dockerfile.dockerignore drops {source}, which the Dockerfile copies"
            )
    workdirs = [rest for instruction, rest in steps if instruction == "WORKDIR"]
    assert workdirs[-1] != "/src", "run from site-packages, not from the copied sources"
    dockerfile_user()
    cmd = [rest for instruction, rest in steps if instruction == "CMD"][-1]
    assert json.loads(cmd) == ["premiere", "--help"]
    assert CliRunner().invoke(main, ["--help"]).exit_code == 0
    exposed = {
        int(port) for instruction, rest in steps if instruction == "EXPOSE" for port in rest.split()
    }
    for container, _, _ in k8s_containers().values():
        ports = {container.metrics_port()}
        if container.process in ("arbiter", "ladder"):
            ports.add(container.grpc_port())
        assert ports - {None} <= exposed, f"{container.where}: EXPOSE {sorted(exposed)}"


def test_the_image_install_carries_the_package_data(tmp_path: Path) -> None:
    """`pip install .` in the image is not editable: the wheel alone must carry the SQL
    migrations and the card data, or `premiere db upgrade` applies nothing there."""
    pytest.importorskip("setuptools")
    context = tmp_path / "src"
    for source in copied_sources():
        origin = ROOT / source
        if origin.is_dir():
            shutil.copytree(
                origin,
                context / source,
                ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build"),
            )
        else:
            (context / source).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(origin, context / source)
    out = tmp_path / "wheels"
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--quiet",
            "--wheel-dir",
            str(out),
            str(context),
        ],
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr
    (wheel,) = out.glob("premiere-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    data = [
        path.relative_to(ROOT).as_posix()
        for package in ("games", "premiere", "server", "ladder", "workers")
        for path in (ROOT / package).rglob("*")
        if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts
    ]
    assert any(name.startswith("premiere/migrations/") for name in data)
    missing = sorted(set(data) - names)
    assert not missing, f"the wheel lacks {missing}: list them in [tool.setuptools.package-data]"


# --- docs/operations.md ---------------------------------------------------------------------


@functools.cache
def ladder_routes() -> frozenset[str]:
    from spectator.http import http_app

    app = http_app(None)  # type: ignore[arg-type]
    return frozenset(resource.canonical for resource in app.router.resources())


def test_operations_doc_has_the_generated_env_tables() -> None:
    text = (ROOT / "docs" / "operations.md").read_text()
    assert envtable.render() in text, (
        "docs/operations.md's variable tables are out of date: paste the output of"
        " `.venv/bin/python -m tests.deploy.envtable`"
    )


def test_env_table_says_truly_who_reads_what() -> None:
    rows = envtable.server_rows() + envtable.bot_rows()
    assert {row.name for row in rows} == set(envtable.READERS), "READERS is stale or incomplete"
    assert set(envtable.DIRECT_MEANINGS) == {row.name for row in rows if row.field is None}
    for row in rows:
        assert row.readers and row.meaning, row.name
        needle = re.compile(rf"\.{row.field}\b" if row.field else re.escape(row.name))
        for reader in row.readers:
            assert any(needle.search(text) for text in envtable.source_texts(reader)), (
                f"{row.name}: nothing in {envtable.PROCESS_SOURCES[reader]} reads it"
            )
