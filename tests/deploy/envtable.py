"""The environment-variable tables of docs/operations.md, generated from the code.

The rows come from the settings models (``premiere.config.Settings``, shared, then each
service's own: ``server.config.ArbiterSettings``, ``workers.config.WorkerSettings``,
``hosting.config.RunnerSettings``, ``ladder.config.LadderSettings``,
``spectator.ratelimit.RateLimitSettings``) (name,
default, description) and from every ``os.environ`` read of a ``PREMIERE_*`` name in the
deployed packages; only the "read by" column and the meaning of the direct reads are written
here. tests/deploy/test_manifests.py checks that the document carries exactly these tables and
that each "read by" claim matches the code. After changing a setting, paste the output of

    .venv/bin/python -m tests.deploy.envtable

into docs/operations.md.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from pydantic_settings import BaseSettings

from hosting.config import RunnerSettings
from ladder.config import LadderSettings
from premiere.config import Settings
from server.config import ArbiterSettings
from spectator.ratelimit import RateLimitSettings
from workers.config import WorkerSettings

ROOT = Path(__file__).resolve().parents[2]

# Where each process's code lives (a file, a folder, or FILE::FUNCTION for one command of the
# CLI): a "read by" claim must be visible there.
PROCESS_SOURCES: dict[str, tuple[str, ...]] = {
    "arbiter": (
        "premiere/commands/services.py::arbiter",
        "server",
        "premiere/tls.py",
        "premiere/config.py::metrics_host",
    ),
    "worker": ("workers", "premiere/tls.py", "premiere/config.py::metrics_host"),
    "beat": ("workers/app.py", "workers/run.py"),
    "ladder": (
        "premiere/commands/ladder.py::ladder_command",
        "ladder",
        "spectator",
        "premiere/tls.py",
    ),
    "db upgrade": ("premiere/commands/db.py::db_upgrade",),
    "runner": ("premiere/commands/services.py::runner", "hosting"),
    "bots/league": (
        "premiere/commands/bots.py::bots_add",
        "premiere/commands/leagues.py::league_create",
    ),
    "up": ("premiere/stack.py", "premiere/state.py"),
    "premiere-bot run": (
        "clients/python/premiere_bot/cli.py",
        "clients/python/premiere_bot/hosted.py",
    ),
    "premiere-bot account/bots": ("clients/python/premiere_bot/author_cli.py",),
}

# Which processes read each setting.
READERS: dict[str, tuple[str, ...]] = {
    "PREMIERE_DATABASE_URL": ("arbiter", "worker", "ladder", "db upgrade", "bots/league"),
    "PREMIERE_ARBITER_ADDRESS": ("arbiter",),
    "PREMIERE_ARBITER_METRICS_PORT": ("arbiter",),
    "PREMIERE_MOVE_TIME_MS": ("arbiter",),
    "PREMIERE_TIME_BANK_MS": ("arbiter",),
    "PREMIERE_STRIKE_LIMIT": ("arbiter",),
    "PREMIERE_START_GRACE_S": ("arbiter",),
    "PREMIERE_REDIS_URL": ("arbiter", "worker", "beat", "ladder"),
    "PREMIERE_QUEUE": ("worker", "beat"),
    "PREMIERE_VISIBILITY_TIMEOUT_S": ("worker", "beat"),
    "PREMIERE_ARBITER_TARGET": ("worker", "ladder"),
    "PREMIERE_VALIDATION_MATCHES": ("worker",),
    "PREMIERE_PROBATION_WINDOW": ("worker",),
    "PREMIERE_PROBATION_THRESHOLD": ("worker",),
    "PREMIERE_PROBATION_RECOVER": ("worker",),
    "PREMIERE_OPERATOR_TOKEN": ("arbiter", "worker"),
    "PREMIERE_WORKER_METRICS_PORT": ("worker",),
    "PREMIERE_RESUME_GRACE_S": ("arbiter",),
    "PREMIERE_LADDER_GRPC_ADDRESS": ("ladder",),
    "PREMIERE_LADDER_HTTP_ADDRESS": ("ladder",),
    "PREMIERE_LADDER_RATE_INTERVAL_S": ("ladder",),
    "PREMIERE_LADDER_RATE_SETTLE_S": ("ladder",),
    "PREMIERE_LADDER_EXACT_AFTER_S": ("ladder",),
    "PREMIERE_LADDER_OMNISCIENT_DELAY_MOVES": ("ladder",),
    "PREMIERE_LADDER_MAX_LIVE_MATCHES": ("ladder",),
    "PREMIERE_LADDER_MAX_LIVE_VIEWERS": ("ladder",),
    "PREMIERE_LADDER_MAX_LIVE_VIEWERS_PER_ADDRESS": ("ladder",),
    "PREMIERE_LADDER_MAX_LIVE_MATCHES_PER_ADDRESS": ("ladder",),
    "PREMIERE_LADDER_METRICS_TOP_PLAYERS": ("ladder",),
    "PREMIERE_LADDER_METRICS_REFRESH_S": ("ladder",),
    "PREMIERE_RATE_LIMIT_ENABLED": ("ladder",),
    "PREMIERE_RATE_LIMIT_STORAGE": ("ladder",),
    "PREMIERE_RATE_LIMIT_CHEAP": ("ladder",),
    "PREMIERE_RATE_LIMIT_EXPENSIVE": ("ladder",),
    "PREMIERE_RATE_LIMIT_PAGES": ("ladder",),
    "PREMIERE_RATE_LIMIT_TRUSTED_PROXIES": ("ladder",),
    "PREMIERE_TICK_SECONDS": ("beat", "worker"),
    "PREMIERE_SEARCH_WORKERS": ("arbiter",),
    "PREMIERE_STATE_DIR": ("up",),
    "PREMIERE_ARBITER": ("premiere-bot run",),
    "PREMIERE_BOT_TOKEN": ("premiere-bot run",),
    "PREMIERE_ACCOUNT_TOKEN": ("premiere-bot account/bots",),
    "PREMIERE_TLS": ("premiere-bot run",),
    "PREMIERE_CA": ("premiere-bot run",),
    "PREMIERE_TLS_CERT": ("arbiter", "ladder"),
    "PREMIERE_TLS_KEY": ("arbiter", "ladder"),
    "PREMIERE_PLAINTEXT": ("arbiter", "ladder"),
    "PREMIERE_TLS_CA": ("worker", "ladder"),
    "PREMIERE_ARBITER_TLS": ("worker", "ladder"),
    "PREMIERE_ARBITER_TLS_NAME": ("worker", "ladder"),
    "PREMIERE_METRICS_HOST": ("arbiter", "worker"),
    "PREMIERE_MAX_OUTBOX": ("arbiter",),
    "PREMIERE_MAX_STREAMS_PER_BOT": ("arbiter",),
    "PREMIERE_MAX_STREAMS_PER_ACCOUNT": ("arbiter",),
    "PREMIERE_SIGNUP": ("arbiter",),
    "PREMIERE_MAX_BOTS_PER_ACCOUNT": ("arbiter",),
    "PREMIERE_MAX_VERSIONS_PER_DAY": ("arbiter",),
    "PREMIERE_MAX_CHALLENGES_PER_MINUTE": ("arbiter",),
    "PREMIERE_MAX_RATED_CHALLENGES_PER_DAY": ("arbiter",),
    "PREMIERE_MAX_WATCHERS_PER_MATCH": ("arbiter",),
    "PREMIERE_MAX_WATCHERS_PER_PEER": ("arbiter",),
    "PREMIERE_MAX_STREAMS_PER_PEER": ("arbiter", "ladder"),
    "PREMIERE_HELLO_TIMEOUT_S": ("arbiter", "ladder"),
    "PREMIERE_MAX_MESSAGE_BYTES": ("arbiter", "ladder"),
    "PREMIERE_MAX_REFUSALS_PER_MINUTE": ("arbiter",),
    "PREMIERE_MAX_REQUEST_ID_BYTES": ("arbiter",),
    "PREMIERE_MAX_CONNECTION_IDLE_S": ("arbiter", "ladder"),
    "PREMIERE_EXPORT_DIR": ("worker", "ladder"),
    "PREMIERE_MIN_MOVE_TIME_MS": ("arbiter",),
    "PREMIERE_MAX_MOVE_TIME_MS": ("arbiter",),
    "PREMIERE_MAX_TIME_BANK_MS": ("arbiter",),
    "PREMIERE_MAX_STRIKE_LIMIT": ("arbiter",),
    "PREMIERE_CHALLENGES": ("arbiter",),
    "PREMIERE_AUTHOR_EVENTS": ("arbiter",),
    "PREMIERE_MAX_OPEN_CHALLENGES": ("arbiter",),
    "PREMIERE_LADDER": ("premiere-bot run",),
    "PREMIERE_ARBITER_NAME": ("arbiter",),
    "PREMIERE_LEASE_S": ("arbiter",),
    "PREMIERE_RELAY": ("arbiter",),
    "PREMIERE_RETIRE_CHECK_S": ("arbiter",),
    "PREMIERE_LEASE_RENEW_S": ("arbiter",),
    "PREMIERE_PLACEMENT_WAIT_S": ("arbiter",),
    "PREMIERE_PEER_TOKEN": ("arbiter",),
    "PREMIERE_PEER_ADDRESS": ("arbiter",),
    "PREMIERE_PEER_ADVERTISE": ("arbiter",),
    "PREMIERE_RUNNER_BACKEND": ("runner",),
    "PREMIERE_RUNNER_ARBITER_SOCKET": ("runner",),
    "PREMIERE_RUNNER_BACKOFF_S": ("runner",),
    "PREMIERE_RUNNER_METRICS_PORT": ("runner",),
    "PREMIERE_RUNNER_UID_BASE": ("runner",),
    "PREMIERE_ARBITER_SOCKET": ("arbiter",),
    "PREMIERE_RUNNER_BWRAP": ("runner",),
    "PREMIERE_RUNNER_CPUS": ("runner",),
    "PREMIERE_RUNNER_FETCH_ADDRESS": ("runner",),
    "PREMIERE_RUNNER_FETCH_HOST": ("runner",),
    "PREMIERE_RUNNER_GVISOR": ("runner",),
    "PREMIERE_RUNNER_IDLE_S": ("runner",),
    "PREMIERE_RUNNER_IMAGE": ("runner",),
    "PREMIERE_RUNNER_MAX_MATCHES": ("runner",),
    "PREMIERE_RUNNER_MAX_RUNNING": ("runner",),
    "PREMIERE_RUNNER_MEMORY_MB": ("runner",),
    "PREMIERE_RUNNER_NAME": ("runner",),
    "PREMIERE_RUNNER_NAMESPACE": ("runner",),
    "PREMIERE_RUNNER_NODE_MODULES": ("runner",),
    "PREMIERE_RUNNER_OPEN_FILES": ("runner",),
    "PREMIERE_RUNNER_POD_UID": ("runner",),
    "PREMIERE_RUNNER_POLL_S": ("runner",),
    "PREMIERE_RUNNER_POOL": ("runner",),
    "PREMIERE_RUNNER_PROCESSES": ("runner",),
    "PREMIERE_RUNNER_SCRATCH_MB": ("runner",),
    "PREMIERE_RUNNER_WORK": ("runner",),
    "PREMIERE_HOSTED_LOG_KB": ("runner",),
    "PREMIERE_HOSTED": ("arbiter",),
    "PREMIERE_BUNDLE_MAX_MB": ("arbiter",),
    "PREMIERE_BUNDLE_UNPACKED_MB": ("arbiter",),
    "PREMIERE_BUNDLE_MAX_FILES": ("arbiter",),
    "PREMIERE_BUNDLE_QUOTA_MB": ("arbiter",),
    "PREMIERE_BOT_GAMES": ("premiere-bot run",),
    "PREMIERE_MAX_MATCHES": ("premiere-bot run",),
}

# Variables read straight from os.environ (not settings fields): what they mean.
DIRECT_MEANINGS: dict[str, str] = {
    "PREMIERE_SEARCH_WORKERS": "Worker processes in which the arbiter runs its search built-ins"
    " (`search:100`, `search:1000`) off its event loop. Unset: one per core.",
    "PREMIERE_TICK_SECONDS": "Seconds between beat's ticks (each tick decides what is due).",
    "PREMIERE_STATE_DIR": "Folder of the local stack's private PostgreSQL and Redis, its logs and"
    " `stack.json` (`premiere up`, `make demo`). Unset: the `.state` folder that `premiere up`"
    " made in the working directory or the nearest parent that has one, else `./.state`.",
    "PREMIERE_ARBITER": "host:port of the arbiter the bot dials (its `--arbiter` default).",
    "PREMIERE_BOT_TOKEN": "The bot's token from `premiere-bot bots create` (or an operator's"
    " `premiere bots add`; its `--token` default; pass it this way, not on a command line"
    " everyone can read).",
    "PREMIERE_ACCOUNT_TOKEN": "An author's account token from `premiere-bot account create` (the"
    " `--account-token` default; unset: the one that command stored, owner-only, in"
    " `$XDG_CONFIG_HOME/premiere/account.json`).",
    "PREMIERE_TLS": "`1` or `true`: dial the arbiter over TLS (its `--tls` default).",
    "PREMIERE_CA": "PEM file of the CA to trust instead of the system's roots (its `--ca`).",
    "PREMIERE_BOT_GAMES": "Comma-separated games a hosted bot plays (the runner sets it from"
    " the bundle's manifest; `python -m premiere_bot.hosted`).",
    "PREMIERE_MAX_MATCHES": "Most matches a hosted bot plays at once (the runner sets it from"
    " its pool and manifest; `python -m premiere_bot.hosted`).",
    "PREMIERE_LADDER": "host:port of the ladder's gRPC API, to print each match's rating change"
    " (its `--ladder` default; unset: no rating lines).",
}

# The deployed code: every Premiere process, and the bot SDK's runner.
SCANNED = (
    "games",
    "premiere",
    "server",
    "ladder",
    "workers",
    "clients/python/premiere_bot",
    "wire",
)


@dataclass(frozen=True)
class Row:
    name: str
    default: str
    readers: tuple[str, ...]
    meaning: str
    field: str | None  # the settings field, None for a direct os.environ read


class ServiceSettings(ArbiterSettings, WorkerSettings, RunnerSettings):
    """Every PREMIERE_* setting but the ladder's, at once: what a deployment's environment is
    checked against."""


def all_settings_rows() -> list[Row]:
    """The shared settings, then each service's own, in the order the document lists them."""
    shared = settings_rows(Settings)
    own = [
        row
        for model in (ArbiterSettings, WorkerSettings, RunnerSettings)
        for row in settings_rows(model)
        if row.field not in Settings.model_fields
    ]
    return shared + own + settings_rows(LadderSettings) + settings_rows(RateLimitSettings)


def settings_rows(model: type[BaseSettings]) -> list[Row]:
    prefix = str(model.model_config.get("env_prefix", ""))
    rows = []
    for field, info in model.model_fields.items():
        name = f"{prefix}{field}".upper()
        rows.append(
            Row(name, str(info.default), READERS.get(name, ()), info.description or "", field)
        )
    return rows


def _python_files(relative: str) -> list[Path]:
    path = ROOT / relative
    files = [path] if path.is_file() else sorted(path.rglob("*.py"))
    return [file for file in files if "wire" not in file.parts]


def source_texts(process: str) -> list[str]:
    """The code of ``process``, per PROCESS_SOURCES."""
    texts = []
    for source in PROCESS_SOURCES[process]:
        path, _, function = source.partition("::")
        for file in _python_files(path):
            text = file.read_text()
            if not function:
                texts.append(text)
                continue
            found = [
                ast.get_source_segment(text, node)
                for node in ast.walk(ast.parse(text))
                if isinstance(node, ast.FunctionDef) and node.name == function
            ]
            assert len(found) == 1 and found[0], f"no function {function} in {path}"
            texts.append(found[0])
    return texts


def direct_reads() -> dict[str, str | None]:
    """Every PREMIERE_* name read with os.environ.get / os.getenv / os.environ[...] in the
    deployed code, with its default (None when it has none)."""
    found: dict[str, str | None] = {}
    for folder in SCANNED:
        for file in _python_files(folder):
            for node in ast.walk(ast.parse(file.read_text(), str(file))):
                name: str | None = None
                default: str | None = None
                if isinstance(node, ast.Call) and node.args:
                    func = ast.unparse(node.func)
                    if func in ("os.environ.get", "os.getenv", "environ.get", "getenv"):
                        first = node.args[0]
                        if isinstance(first, ast.Constant) and isinstance(first.value, str):
                            name = first.value
                        if len(node.args) > 1 and isinstance(node.args[1], ast.Constant):
                            default = str(node.args[1].value)
                elif isinstance(node, ast.Subscript) and ast.unparse(node.value) == "os.environ":
                    key = node.slice
                    if isinstance(key, ast.Constant) and isinstance(key.value, str):
                        name = key.value
                if name is not None and name.startswith("PREMIERE_"):
                    found[name] = default
    return found


def direct_rows() -> list[Row]:
    fields = {row.name for row in all_settings_rows()}
    return [
        Row(
            name,
            "(none)" if default is None else default,
            READERS.get(name, ()),
            DIRECT_MEANINGS.get(name, ""),
            None,
        )
        for name, default in sorted(direct_reads().items())
        if name not in fields
    ]


def _table(rows: list[Row]) -> str:
    lines = ["| Variable | Default | Read by | Meaning |", "| --- | --- | --- | --- |"]
    for row in rows:
        readers = ", ".join(f"`{reader}`" for reader in row.readers)
        lines.append(f"| `{row.name}` | `{row.default}` | {readers} | {row.meaning} |")
    return "\n".join(lines)


def server_rows() -> list[Row]:
    """Settings of the Premiere processes, then direct reads by them."""
    direct = [row for row in direct_rows() if "premiere-bot run" not in row.readers]
    return all_settings_rows() + direct


def bot_rows() -> list[Row]:
    return [row for row in direct_rows() if "premiere-bot run" in row.readers]


def render() -> str:
    """The two tables, as they appear in docs/operations.md."""
    return f"{_table(server_rows())}\n\nFor bots (the Python SDK's runner):\n\n{_table(bot_rows())}"


if __name__ == "__main__":
    print(render())
