"""The commands that run Premiere's processes: `premiere arbiter`, `runner`, `worker`, `beat`,
`up` (all of them on one machine), and `fetch-bundle` (a hosted bot's bundle, for a Pod)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import click


@click.command()
@click.option("--address", help="host:port to bind (default PREMIERE_ARBITER_ADDRESS).")
@click.option("--metrics-port", type=int, help="Port of /metrics (PREMIERE_ARBITER_METRICS_PORT).")
@click.option("--no-migrate", is_flag=True, help="Do not apply pending migrations first.")
def arbiter(address: str | None, metrics_port: int | None, no_migrate: bool) -> None:
    """Run the gRPC arbiter until SIGTERM or Ctrl-C."""
    import asyncio
    import logging

    from premiere.db import upgrade
    from server.app import serve
    from server.config import ArbiterSettings

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    overrides: dict[str, object] = {}
    if address:
        overrides["arbiter_address"] = address
    if metrics_port is not None:
        overrides["arbiter_metrics_port"] = metrics_port
    settings = ArbiterSettings(**overrides)  # type: ignore[arg-type]
    if not no_migrate:
        upgrade(settings.database_url)
    asyncio.run(serve(settings))


@click.command()
@click.option("--arbiter", "target", help="host:port of the arbiter (PREMIERE_ARBITER_TARGET).")
@click.option(
    "--backend",
    type=click.Choice(["bwrap", "kubernetes"]),
    help="bwrap: a sandbox on this machine; kubernetes: a Pod per bot (PREMIERE_RUNNER_BACKEND).",
)
def runner(target: str | None, backend: str | None) -> None:
    """Run hosted bots in their sandboxes until SIGTERM or Ctrl-C (docs/hosting.md)."""
    import logging

    from hosting.config import RunnerSettings
    from hosting.runner import RunnerConfig, serve
    from hosting.sandbox import Pool, Unavailable, detect

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    settings = RunnerSettings()
    kubernetes = (backend or settings.runner_backend) == "kubernetes"
    from prometheus_client import start_http_server

    from premiere.config import metrics_host

    start_http_server(settings.runner_metrics_port, addr=metrics_host(settings))
    bwrap = ""
    if not kubernetes:
        try:
            bwrap = detect(settings.runner_bwrap)
        except Unavailable as error:
            raise click.ClickException(str(error)) from None
    modules = settings.runner_node_modules or str(
        Path(__file__).resolve().parents[2] / "clients" / "node" / "node_modules"
    )
    config = RunnerConfig(
        database_url=settings.database_url,
        arbiter=target or settings.arbiter_target,
        work=settings.work_path(),
        bwrap=bwrap,
        pool=Pool(
            name=settings.runner_pool,
            cpus=settings.runner_cpus,
            memory_mb=settings.runner_memory_mb,
            processes=settings.runner_processes,
            open_files=settings.runner_open_files,
            scratch_mb=settings.runner_scratch_mb,
            max_matches=settings.runner_max_matches,
        ),
        poll_s=settings.runner_poll_s,
        idle_s=settings.runner_idle_s,
        log_kb=settings.hosted_log_kb,
        max_running=settings.runner_max_running,
        backoff_s=settings.runner_backoff_s,
        uid_base=settings.runner_uid_base,
        arbiter_socket=(
            Path(settings.runner_arbiter_socket) if settings.runner_arbiter_socket else None
        ),
        node_packages=Path(modules),
    )
    if kubernetes:
        from importlib.util import find_spec

        if find_spec("kubernetes") is None:
            raise click.ClickException(
                "the kubernetes backend needs the k8s extra: pip install 'premiere[k8s]'"
            )
        from hosting import pod_runner

        try:
            pod_runner.serve(config, pod_runner.backend_from_settings(settings, config.arbiter))
        except Unavailable as error:
            raise click.ClickException(str(error)) from None
        return
    serve(config)


@click.command("fetch-bundle")
@click.argument("url")
@click.argument("sha256")
@click.argument("target", type=click.Path(file_okay=False, path_type=Path))
def fetch_bundle(url: str, sha256: str, target: Path) -> None:
    """Fetch bundle SHA256 from the runner at URL and unpack it into the empty folder TARGET
    (a hosted Pod's init container; the key is in $BUNDLE_FETCH_KEY)."""
    from hosting.fetch import KEY_ENV, fetch
    from premiere_wire.bundle import BundleError

    key = os.environ.get(KEY_ENV)
    if not key:
        raise click.ClickException(f"{KEY_ENV} is not set: the runner puts the fetch key there")
    try:
        checked = fetch(url, sha256, key, target)
    except BundleError as error:
        raise click.ClickException(str(error)) from None
    click.echo(
        f"unpacked {checked.manifest.name} ({sha256[:12]}): {checked.files} files,"
        f" {checked.unpacked} bytes"
    )


@click.command()
@click.option("--concurrency", type=int, default=2, show_default=True)
@click.option("--metrics-port", type=int, help="Port of /metrics (PREMIERE_WORKER_METRICS_PORT).")
def worker(concurrency: int, metrics_port: int | None) -> None:
    """Run a Celery worker for leagues, match dispatch and ratings."""
    from workers.run import run_worker

    run_worker(concurrency, metrics_port)


@click.command()
def beat() -> None:
    """Run Celery beat: it ticks, and each tick decides which rounds are due."""
    from workers.run import run_beat

    run_beat()


@click.command()
@click.option(
    "--demo/--no-demo",
    default=True,
    show_default=True,
    help="Create a demo league over every game and run the example bot.",
)
def up(demo: bool) -> None:
    """Start the whole stack locally (private PostgreSQL/Redis unless PREMIERE_* name them)."""
    from premiere.children import adopt_orphans
    from premiere.stack import Stack, ladder_http, shut_down, write_description
    from premiere.state import running_stack, state_dir
    from premiere.watch import watch

    folder = state_dir()
    running = running_stack(folder)
    if running is not None:
        raise click.ClickException(
            f"already running from {folder} (process {running['launcher']}; dashboard"
            f" {running.get('ladder_api', '?')}); stop it with Ctrl-C where it runs first"
        )
    adopt_orphans()
    stack = Stack(folder)
    try:
        click.echo("starting PostgreSQL and Redis (private unless configured) ...")
        stack.start_services()
        click.echo("starting the arbiter, the ladder, a worker and beat ...")
        stack.start_processes()
        if stack.hosting is None:
            click.echo("hosted bots: on (a runner starts uploaded bots in their sandbox)")
        else:
            click.echo(f"hosted bots: off ({stack.hosting}); everything else runs as usual")
        described = write_description(stack)
        click.echo(f"arbiter (bots connect here): {stack.settings.arbiter_address}")
        click.echo(f"dashboard: http://{ladder_http()}/  (JSON API under /api/games)")
        click.echo(f"logs and {described.name}: {stack.folder}")
        if not demo:
            click.echo("running; Ctrl-C stops everything")
            while True:
                stack.check_alive()
                time.sleep(1)
        stack.start_example_bot()
        hosted = stack.start_hosted_example()
        if hosted is not None:
            click.echo(f"hosted example bot: {hosted} (clients/python/hosted, run by the runner)")
        names = stack.create_demo_leagues(hosted)
        write_description(stack)
        click.echo(f"demo leagues: {', '.join(names)}; Ctrl-C stops everything")
        api = f"http://{ladder_http()}/api"
        watch(stack.env["PREMIERE_DATABASE_URL"], names, api, stack.check_alive)
    except KeyboardInterrupt:
        click.echo("stopping ...")
    except (RuntimeError, TimeoutError) as error:
        raise click.ClickException(str(error)) from None
    except PermissionError as error:
        raise click.ClickException(
            f"{error}. As root, the private PostgreSQL and Redis run as user 'nobody', who must"
            " be able to enter every folder above the project: move it (e.g. under /srv or"
            " /opt), run as an ordinary user, or set PREMIERE_DATABASE_URL and"
            " PREMIERE_REDIS_URL to servers of your own"
        ) from None
    finally:
        shut_down(stack)
