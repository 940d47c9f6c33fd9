"""`premiere arbiter`: the gRPC server with its services, health, reflection and /metrics."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1.health import aio as health_aio  # type: ignore[attr-defined]
from grpc_reflection.v1alpha import reflection
from prometheus_client import start_http_server
from psycopg.conninfo import conninfo_to_dict

from premiere.clean_errors import CleanErrors
from premiere.config import metrics_host
from premiere.gc_tuning import tune_for_service
from premiere.tls import add_port, server_options
from premiere_wire import (
    author_pb2,
    bot_gateway_pb2,
    game_data_pb2,
    game_data_pb2_grpc,
    match_pb2,
    match_pb2_grpc,
)
from server import builtins
from server.arbiter import Arbiter
from server.authors import AuthorService
from server.authors import add_to_server as add_authors
from server.config import ArbiterSettings
from server.events import EventHub
from server.game_data import GameDataService
from server.gateway import BotGateway
from server.gateway import add_to_server as add_gateway
from server.match_service import MatchService
from server.relay import Relay
from server.router import Router
from server.store import Store

log = logging.getLogger("premiere.arbiter")

READY = "premiere.ready"
"""Health service name that is SERVING only while the database answers (readiness probes);
the overall health ("") stays SERVING while the process runs (liveness)."""

SERVICES = (
    bot_gateway_pb2.DESCRIPTOR.services_by_name["BotGatewayService"].full_name,
    match_pb2.DESCRIPTOR.services_by_name["MatchService"].full_name,
    author_pb2.DESCRIPTOR.services_by_name["AuthorService"].full_name,
    game_data_pb2.DESCRIPTOR.services_by_name["GameDataService"].full_name,
)


async def _watch_database(store: Store, health: health_aio.HealthServicer) -> None:
    serving = None
    while True:
        up = await store.reachable()
        if up != serving:
            status = (
                health_pb2.HealthCheckResponse.SERVING
                if up
                else (health_pb2.HealthCheckResponse.NOT_SERVING)
            )
            await health.set(READY, status)
            if serving is not None:
                log.warning("database %s", "reachable again" if up else "unreachable: not ready")
            serving = up
        await asyncio.sleep(2.0)


async def serve(settings: ArbiterSettings, stop: asyncio.Event | None = None) -> None:
    """Run until `stop` is set or SIGTERM/SIGINT arrives; unfinished matches stay resumable."""
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, stop.set)
    store = Store(settings.database_url)
    await store.start()
    router = Router(settings.max_streams_per_bot, settings.max_request_id_bytes)
    hub = EventHub()
    relay: Relay | None = None
    arbiter = Arbiter(store, router, hub, settings)
    if settings.relay:
        namespace = conninfo_to_dict(settings.database_url).get("dbname") or ""
        relay = Relay(router, settings.redis_url, arbiter.owner, str(namespace))
        if settings.peer_token:
            listen = settings.peer_address or f"{settings.arbiter_address.rpartition(':')[0]}:0"
            await relay.use_peers(settings.peer_token, listen, settings.peer_advertise)
            log.info("peer port on %s (reached at %s)", listen, relay.peer_address)
        await relay.start()
        arbiter.use_relay(relay)
    log.info("arbiter %s%s", arbiter.owner, " (relay on)" if relay else "")
    server = grpc.aio.server(interceptors=[CleanErrors()], options=server_options(settings))
    gateway = BotGateway(store, router, settings, arbiter)
    add_gateway(gateway, server)
    add_authors(AuthorService(settings.database_url, settings), server)
    matches = MatchService(arbiter, store, hub, settings.operator_token, settings)
    match_pb2_grpc.add_MatchServiceServicer_to_server(matches, server)
    game_data_pb2_grpc.add_GameDataServiceServicer_to_server(GameDataService(), server)
    health = health_aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health, server)
    reflection.enable_server_reflection(
        (
            *SERVICES,
            health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
            reflection.SERVICE_NAME,
        ),
        server,
    )
    port = add_port(server, settings.arbiter_address, settings)
    if port == 0:
        raise SystemExit(f"cannot bind {settings.arbiter_address}")
    if settings.arbiter_socket:
        socket = Path(settings.arbiter_socket)
        socket.unlink(missing_ok=True)
        if server.add_insecure_port(f"unix:{socket}") == 0:
            raise SystemExit(f"cannot bind unix:{socket}")
    if not settings.operator_token:
        log.warning("no PREMIERE_OPERATOR_TOKEN: nobody can create matches over the network")
    host = metrics_host(settings)
    start_http_server(settings.arbiter_metrics_port, addr=host)
    await server.start()
    if settings.arbiter_socket:
        # Hosted bots connect as their own unprivileged users; their token is what counts.
        os.chmod(settings.arbiter_socket, 0o666)
    for name in ("", *SERVICES):
        await health.set(name, health_pb2.HealthCheckResponse.SERVING)
    log.info(
        "arbiter listening on %s (%s), metrics on %s:%d",
        settings.arbiter_address,
        "TLS" if settings.tls_cert else "plaintext",
        host,
        settings.arbiter_metrics_port,
    )
    await arbiter.start()
    tune_for_service()
    ready = asyncio.create_task(_watch_database(store, health), name="readiness")
    try:
        await stop.wait()
    finally:
        ready.cancel()
        log.info("arbiter stopping")
        await health.enter_graceful_shutdown()
        await arbiter.stop()
        builtins.shutdown()
        await server.stop(grace=1.0)
        await gateway.close()
        if relay is not None:
            await relay.close()
        await store.close()
