"""Findings: default credentials in deploy/, the example bot's token on its command line, a
world-readable .state/stack.json, /metrics on 0.0.0.0 beside a loopback arbiter, and Grafana
reading every table (the seeds of running matches among them) for anonymous viewers."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import uuid
from pathlib import Path
from typing import Any

import psycopg
import pytest
import yaml

from premiere import stack as stack_module
from premiere.stack import Stack, write_description
from tests.integration.services import Arbiter, admin_url, free_port, scratch_database

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
SECRETS = (
    "POSTGRES_PASSWORD",
    "PREMIERE_OPERATOR_TOKEN",
    "GRAFANA_READER_PASSWORD",
    "GRAFANA_ADMIN_PASSWORD",
)


def test_compose_refuses_to_start_without_its_secrets() -> None:
    text = (DEPLOY / "compose.yaml").read_text()
    for name in SECRETS:
        uses = re.findall(r"\$\{" + name + r"(:?[-?][^}]*)?\}", text)
        assert uses, name
        assert all(use.startswith(":?") for use in uses), f"{name} has a default: {uses}"
    assert "change-me" not in text and ":-admin" not in text
    grafana = yaml.safe_load(text)["services"]["grafana"]["environment"]
    assert grafana["GF_AUTH_ANONYMOUS_ENABLED"] == "false"
    assert "GF_AUTH_ANONYMOUS_ORG_ROLE" not in grafana


def test_kubernetes_ships_no_secret_values() -> None:
    applied = (DEPLOY / "k8s" / "kustomization.yaml").read_text()
    assert "secret.yaml" not in applied.split("resources:")[1]
    for path in (DEPLOY / "k8s").glob("*.yaml"):
        for document in yaml.safe_load_all(path.read_text()):
            assert not (document and document.get("kind") == "Secret"), path


def test_grafana_reads_only_prometheus_and_at_most_the_ladder_views() -> None:
    """Every panel reads the services' metrics; should a panel ever query PostgreSQL again, it
    may read the public views only (its reader role can see nothing else)."""
    dashboard = json.loads((DEPLOY / "grafana" / "dashboards" / "premiere.json").read_text())
    targets = [target for panel in dashboard["panels"] for target in panel.get("targets", [])]
    assert targets
    assert all(target["datasource"]["type"] == "prometheus" for target in targets)
    for sql in (target["rawSql"] for target in targets if "rawSql" in target):
        tables = set(re.findall(r"\b(?:FROM|JOIN)\s+(\w+)", sql, re.IGNORECASE))
        assert tables <= {"public_ratings", "public_rating_history", "public_ended_matches"}, sql
    script = (DEPLOY / "postgres" / "10-grafana-reader.sh").read_text()
    assert "DEFAULT PRIVILEGES" not in script and "GRANT SELECT" not in script


def test_a_ladder_reader_cannot_see_seeds_or_running_matches() -> None:
    role = f"reader_{uuid.uuid4().hex[:10]}"
    with scratch_database() as url, psycopg.connect(admin_url(), autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {role} LOGIN IN ROLE premiere_ladder_reader")
        try:
            with psycopg.connect(url, autocommit=True) as owner:
                owner.execute(
                    "INSERT INTO matches (id, game, options, players, seed, move_time_ms,"
                    " time_bank_ms, strike_limit, status) VALUES"
                    " (%s, 'magic-trick', '{}', 3, 'secret-seed', 100, 0, 0, 'running')",
                    (uuid.uuid4(),),
                )
                owner.execute(f"GRANT CONNECT ON DATABASE {url.rsplit('/', 1)[1]} TO {role}")
            base, _, _ = url.rpartition("@")
            scheme = base.split("//")[0]
            as_reader = f"{scheme}//{role}@{url.rpartition('@')[2]}"
            with psycopg.connect(as_reader, autocommit=True) as conn:
                for view in ("public_ratings", "public_rating_history", "public_ended_matches"):
                    conn.execute(f"SELECT * FROM {view}").fetchall()
                assert conn.execute("SELECT count(*) FROM public_ended_matches").fetchone() == (0,)
                columns = [
                    c.name
                    for c in conn.execute("SELECT * FROM public_ended_matches").description or ()
                ]
                assert "seed" not in columns
                for table in (
                    "matches",
                    "bots",
                    "match_moves",
                    "match_faults",
                    "leagues",
                    "league_tables",
                ):
                    with pytest.raises(psycopg.errors.InsufficientPrivilege):
                        conn.execute(f"SELECT * FROM {table}")
        finally:
            admin.execute(f"DROP OWNED BY {role}")
            admin.execute(f"DROP ROLE {role}")


class Captured:
    def __init__(self) -> None:
        self.calls: list[tuple[list[str], dict[str, str]]] = []

    def __call__(self, command: Any, *, env: Any = None, **_: Any) -> Any:
        self.calls.append((list(command), dict(env or {})))
        return subprocess.Popen(["true"])


def test_premiere_up_hands_a_generated_operator_token_to_its_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    added = ("PREMIERE_OPERATOR_TOKEN", "PREMIERE_CHALLENGES", "PREMIERE_SIGNUP")
    for variable in added:
        monkeypatch.delenv(variable, raising=False)
    captured = Captured()
    monkeypatch.setattr(stack_module, "spawn", captured)
    monkeypatch.setattr(Stack, "_wait_for_arbiter", lambda self: None)
    Stack(tmp_path).start_processes()
    tokens = {env.get("PREMIERE_OPERATOR_TOKEN") for _, env in captured.calls}
    assert len(captured.calls) == 4 and len(tokens) == 1
    token = tokens.pop()
    assert token and len(token) >= 40
    assert all(token not in " ".join(command) for command, _ in captured.calls)
    assert all(env["PREMIERE_CHALLENGES"] == "rated" for _, env in captured.calls)
    # The stack's own settings reach its children only, never this process's environment
    # (later tests' servers would inherit them).
    assert not [variable for variable in added if variable in os.environ]


def test_premiere_up_passes_the_bot_token_by_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "logs").mkdir()
    (tmp_path / "example-bot.json").write_text(json.dumps({"name": "ex", "token": "pmb_secret"}))
    monkeypatch.setenv("PREMIERE_OPERATOR_TOKEN", "pmo_operator")
    captured = Captured()
    monkeypatch.setattr(stack_module, "spawn", captured)
    Stack(tmp_path).start_example_bot()
    [(command, env)] = captured.calls
    assert "pmb_secret" not in " ".join(command) and "--token" not in command
    assert env["PREMIERE_BOT_TOKEN"] == "pmb_secret"
    assert "PREMIERE_OPERATOR_TOKEN" not in env


def test_state_files_are_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PREMIERE_DATABASE_URL", "postgresql://u:password@db/premiere")
    monkeypatch.setenv("PREMIERE_REDIS_URL", "redis://r")
    path = write_description(Stack(tmp_path))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def _listening(port: int) -> set[str]:
    """Local addresses listening on `port` (from /proc/net/tcp and tcp6, hex)."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, _, hexport = local.partition(":")
            if state == "0A" and int(hexport, 16) == port:
                found.add(address)
    return found


def test_metrics_bind_the_arbiters_host(database_url: str, tmp_path: Path) -> None:
    server = Arbiter(database_url, free_port(), free_port())
    server.start(tmp_path / "arbiter.log")
    try:
        assert _listening(server.metrics_port) == {"0100007F"}
    finally:
        server.stop()
