"""What `premiere up` shows while the demo runs: a progress bar per league, live leaderboards."""

from __future__ import annotations

import json
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.console import Console, Group
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from workers import leagues
from workers.planning import plan


@dataclass
class LeagueView:
    name: str
    game: str
    total: int
    done: int = 0
    rounds_closed: int = 0
    rounds: int = 0
    closed_before: int | None = None
    """Rounds already closed when the watch began (a reused demo league has some)."""


def expected_tables(league: leagues.League) -> int:
    """Tables the whole league will play; exact for the history-free formats."""
    rounds = league.rounds or 1
    return sum(
        len(
            plan(
                league.format, league.bots, league.players, n, league.seed, [], {}, league.settings
            )
        )
        for n in range(1, rounds + 1)
    )


def leaderboard(api: str, game: str) -> list[dict[str, Any]]:
    try:
        with urllib.request.urlopen(f"{api}/games/{game}/leaderboard", timeout=5) as reply:
            entries: list[dict[str, Any]] = json.load(reply)["entries"]
            return entries
    except (urllib.error.URLError, OSError, ValueError, KeyError):
        return []


def watch(
    database_url: str,
    names: list[str],
    api: str,
    alive: Callable[[], None],
    console: Console | None = None,
) -> None:
    """Refresh every second until interrupted; `alive` raises if a stack process died."""
    console = console or Console()
    with leagues.connect(database_url) as conn:
        found = [leagues.get_league(conn, name) for name in names]
    views = [
        LeagueView(lg.name, lg.game, expected_tables(lg), rounds=lg.rounds or 0)
        for lg in found
        if lg is not None
    ]
    progress = Progress(
        TextColumn("{task.description:<36}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("matches  {task.fields[rounds]}"),
        console=console,
    )
    tasks = {v.name: progress.add_task(v.name, total=v.total, rounds="") for v in views}
    interactive = console.is_terminal
    try:
        with Live(
            Group(progress), console=console, refresh_per_second=2, auto_refresh=interactive
        ) as live:
            _loop(database_url, views, api, alive, console, live, progress, tasks, interactive)
    except KeyboardInterrupt:
        return


def _loop(
    database_url: str,
    views: list[LeagueView],
    api: str,
    alive: Callable[[], None],
    console: Console,
    live: Live,
    progress: Progress,
    tasks: dict[str, Any],
    interactive: bool,
) -> None:
    announced = False
    summarised = False
    last: dict[str, tuple[int, int]] = {}
    while True:
        alive()
        ended: list[tuple[leagues.League, list[dict[str, Any]]]] = []
        with leagues.connect(database_url) as conn:
            for view in views:
                league = leagues.get_league(conn, view.name)
                assert league is not None
                if league.status in ("finished", "cancelled"):
                    ended.append((league, leagues.current_standings(conn, league)))
                state = leagues.progress(conn, league.id)
                view.done = int(state["tables_done"])
                view.rounds_closed = int(state["rounds_closed"])
                if view.closed_before is None:
                    view.closed_before = view.rounds_closed
                rounds = f"rounds {view.rounds_closed}/{view.rounds}"
                progress.update(tasks[view.name], completed=view.done, rounds=rounds)
                if not interactive and last.get(view.name) != (view.done, view.rounds_closed):
                    last[view.name] = (view.done, view.rounds_closed)
                    console.print(f"{view.name}: {view.done}/{view.total} matches, {rounds}")
        if interactive:
            live.update(Group(progress, *(_board(v.game, leaderboard(api, v.game)) for v in views)))
        finished = {league.name for league, _ in ended}
        if not announced and all(
            v.rounds_closed > (v.closed_before or 0) or v.name in finished for v in views
        ):
            announced = True
            console.print("[bold green]every demo league has finished a round[/]")
            if not interactive:
                for view in views:
                    console.print(_board(view.game, leaderboard(api, view.game)))
        if not summarised and len(ended) == len(views):
            summarised = True
            console.print("[bold green]every demo league has finished; final standings:[/]")
            for league, rows in ended:
                console.print(standings_table(league, rows))
        sys.stdout.flush()
        time.sleep(1.0)


def standings_table(league: leagues.League, rows: list[dict[str, Any]]) -> Table:
    """A league's standings: points from ranks, games and wins, best first."""
    table = Table(title=f"{league.name} ({league.status})", title_justify="left", expand=False)
    for column in ("#", "bot", "points", "games", "wins"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for row in rows:
        table.add_row(
            str(row["rank"]), row["bot"], f"{row['points']:g}", str(row["games"]), str(row["wins"])
        )
    return table


def _board(game: str, entries: list[dict[str, Any]]) -> Table:
    table = Table(title=f"{game} ladder", title_justify="left", expand=False)
    for column in ("#", "player", "live Elo", "standing (95%)", "games"):
        table.add_column(column, justify="right" if column != "player" else "left")
    for entry in entries[:6]:
        standing = entry.get("standing")
        interval = (
            f"{standing['rating']:.0f} [{standing['low']:.0f}, {standing['high']:.0f}]"
            if standing
            else "-"
        )
        table.add_row(
            str(entry["rank"]),
            entry["player"],
            f"{entry['elo']:.0f}",
            interval,
            str(entry["games"]),
        )
    return table
