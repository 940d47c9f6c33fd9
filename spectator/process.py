"""The ``premiere ladder`` process: the ladder's gRPC service and its rating and metrics loops
(``ladder.service``), and the HTTP server of the JSON API and the pages (``spectator.http``), in
one asyncio loop."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from typing import Any

from aiohttp import web
from grpc_health.v1 import health_pb2
from psycopg_pool import ConnectionPool

from ladder.config import LadderSettings
from ladder.queries import StandingsCache
from ladder.queue_watch import QueueWatch
from ladder.service import SERVICE, Ladder, grpc_server, metrics_loop, rate_loop
from premiere.config import Settings
from premiere.tls import http_ssl_context
from premiere_wire import match_pb2_grpc
from spectator import live
from spectator.http import http_app
from spectator.ratelimit import RateLimits, RateLimitSettings

log = logging.getLogger("premiere.ladder")


def _split(address: str) -> tuple[str, int]:
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise SystemExit(f"not a host:port address: {address!r}")
    return host.strip("[]"), int(port)


async def serve(
    database_url: str, settings: LadderSettings, stop: asyncio.Event | None = None
) -> None:
    """Run until ``stop`` is set or SIGTERM/SIGINT arrives."""
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, stop.set)
    pool: ConnectionPool[Any] = ConnectionPool(
        database_url,
        min_size=1,
        max_size=4,
        kwargs={"autocommit": True},
        check=ConnectionPool.check_connection,
        open=False,
    )
    await asyncio.to_thread(pool.open, True, 30.0)
    cache = StandingsCache(exact_after_s=settings.exact_after_s)
    ladder = Ladder(pool, cache, settings.rate_settle_s)

    shared = Settings()
    server, health = grpc_server(ladder, settings.grpc_address, shared)
    channel = live.arbiter_channel(shared)
    stub = match_pb2_grpc.MatchServiceStub(channel)
    hub = live.LiveHub(
        pool,
        lambda: stub,
        settings.max_live_matches,
        settings.max_live_viewers,
        settings.omniscient_delay_moves,
        settings.max_live_viewers_per_address,
        settings.max_live_matches_per_address,
    )
    limit_settings = RateLimitSettings()
    limits = RateLimits(limit_settings, shared.redis_url) if limit_settings.enabled else None
    runner = web.AppRunner(http_app(ladder, hub, limits, limit_settings), access_log=None)
    await runner.setup()
    host, port = _split(settings.http_address)
    tls = http_ssl_context(shared, settings.http_address)
    site = web.TCPSite(runner, host, port, ssl_context=tls)
    await site.start()
    await server.start()
    watch = QueueWatch(database_url)
    rating = asyncio.create_task(rate_loop(ladder, settings.rate_interval_s, watch, stop))
    exporting = asyncio.create_task(metrics_loop(pool, settings, stop))
    for name in ("", SERVICE):
        await health.set(name, health_pb2.HealthCheckResponse.SERVING)
    log.info(
        "ladder listening: gRPC on %s, HTTP%s on %s; rating every %.1f s",
        settings.grpc_address,
        "S" if tls else "",
        settings.http_address,
        settings.rate_interval_s,
    )
    try:
        await stop.wait()
    finally:
        log.info("ladder stopping")
        await health.enter_graceful_shutdown()
        stop.set()
        await rating
        try:  # the folded fits not stored yet, so that the next start folds less
            await ladder.store_fits()
        except Exception:
            log.exception("could not store the standings on the way out")
        await watch.close()
        await exporting
        await server.stop(grace=1.0)
        await runner.cleanup()
        await channel.close(None)
        await asyncio.to_thread(pool.close)
