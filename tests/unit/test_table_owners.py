"""One owner per table: each table names its owning service in the migrations, the owner is
the only service whose code writes it, and the workers read other services' data only through
the owners' views."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MIGRATIONS = ROOT / "premiere" / "migrations"
SERVICES = {"arbiter": "server", "ladder": "ladder", "workers": "workers", "runner": "hosting"}

# The one write across a boundary, stated in docs/architecture.md: an operator's void of a
# finished match marks it void in the same transaction that replays the ladder without it.
CROSSING = {("ladder", "matches")}


def sql() -> str:
    return "\n".join(path.read_text() for path in sorted(MIGRATIONS.glob("*.sql")))


def owners() -> tuple[dict[str, str], dict[str, str]]:
    text = sql()
    tables = set(re.findall(r"CREATE TABLE (\w+)", text))
    views = set(re.findall(r"CREATE VIEW (\w+)", text))
    owned = dict(re.findall(r"COMMENT ON (?:TABLE|VIEW) (\w+) IS 'owner: (\w+)'", text))
    missing = sorted((tables | views) - set(owned))
    assert not missing, f"no owner stated for {missing}"
    return (
        {name: owned[name] for name in tables},
        {name: owned[name] for name in views},
    )


def statements(package: str) -> list[tuple[str, str, str]]:
    """(file, verb, table) of every SQL table reference in the package's Python code."""
    found = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for verb, name in re.findall(
            r"\b(INSERT INTO|DELETE FROM|UPDATE|FROM|JOIN)\s+(\w+)", path.read_text()
        ):
            found.append((str(path.relative_to(ROOT)), verb, name))
    return found


def test_every_table_and_view_has_one_owning_service() -> None:
    tables, views = owners()
    assert set(tables.values()) | set(views.values()) <= set(SERVICES)
    assert {"matches", "ratings", "leagues"} <= set(tables)


def test_only_the_owner_writes_a_table() -> None:
    tables, _ = owners()
    checked = set()
    for service, package in SERVICES.items():
        for path, verb, name in statements(package):
            if verb in ("INSERT INTO", "DELETE FROM", "UPDATE") and name in tables:
                checked.add(service)
                owner = tables[name]
                assert owner == service or (service, name) in CROSSING, (
                    f"{path}: {service} writes {name}, which {owner} owns"
                )
    assert checked == set(SERVICES), f"no write of a table found in {set(SERVICES) - checked}"


def test_workers_read_other_services_through_their_views() -> None:
    tables, views = owners()
    read = statements("workers")
    assert read, "no SQL statement found in workers"
    for path, _verb, name in read:
        if name in tables:
            assert tables[name] == "workers", f"{path} reads {name}; use a view of its owner"
        if name in views:
            assert views[name] != "workers"
    used = {name for _path, _verb, name in statements("workers")}
    assert {"match_results", "bot_directory", "ladder_ratings"} <= used
