"""Rate limits of the HTTP server, per client, counted in Redis by the ``limits`` library (a
moving window; ``async+redis://``).

Every route belongs to a class (``spectator.api_routes``): ``cheap`` (the small JSON answers),
``expensive`` (replays, their views, the live event streams, the seat statistics) and
``page`` (the HTML pages); /metrics, /healthz, the static files and the API's own description
are never limited. Each class has its own limit (PREMIERE_RATE_LIMIT_CHEAP, _EXPENSIVE,
_PAGES), counted apart for each client.

The client is the peer address of the connection. Behind a reverse proxy every request comes
from the proxy's address, so PREMIERE_RATE_LIMIT_TRUSTED_PROXIES names the proxies (addresses
or networks) whose ``X-Forwarded-For`` is believed: the client is the right-most address of
that header not itself a trusted proxy. The default trusts no proxy, and the header is then
ignored (a client could write any address into it).

Over the limit the answer is 429 with ``Retry-After`` and a JSON body
``{"error": "rate_limited", "limit": "...", "retry_after": N}``. When Redis cannot be reached
the request is served unlimited (every route only reads), the failure is logged (at most once
a minute) and counted in ``premiere_rate_limit_unavailable_total``, and Redis is not tried
again for a second, so that a Redis outage never turns into errors or slow answers.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

from aiohttp import web
from limits import RateLimitItem, parse
from limits.aio.storage import RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import StorageError
from prometheus_client import Counter
from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

log = logging.getLogger("premiere.ladder")

LIMITED = Counter(
    "premiere_rate_limited_total",
    "HTTP requests refused with 429 by the per-client rate limits, by route class.",
    ["cost"],
)
UNAVAILABLE = Counter(
    "premiere_rate_limit_unavailable_total",
    "HTTP requests served without a rate-limit check because Redis could not be reached.",
)

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class RateLimitSettings(BaseSettings):
    """The per-client limits of the ladder's HTTP server (``spectator.ratelimit``)."""

    model_config = SettingsConfigDict(env_prefix="PREMIERE_RATE_LIMIT_", extra="ignore")

    enabled: bool = Field(
        default=True, description="Whether the ladder's HTTP server limits each client's rate."
    )
    storage: str = Field(
        default="",
        description="Redis of the rate-limit counters, as an async+redis:// URL; empty: the"
        " Redis of PREMIERE_REDIS_URL.",
    )
    cheap: str = Field(
        default="600/minute",
        description="Limit of each client on the small JSON answers"
        " (limits' notation: N/second, N/minute, N/hour, or N per M minutes).",
    )
    expensive: str = Field(
        default="30/minute",
        description="Limit of each client on the replays, replay views, live event streams"
        " and seat statistics.",
    )
    pages: str = Field(default="120/minute", description="Limit of each client on the HTML pages.")
    trusted_proxies: str = Field(
        default="",
        description="Comma-separated addresses or networks of the reverse proxies whose"
        " X-Forwarded-For names the client; empty: the header is ignored and the client is"
        " the connection's peer.",
    )


def redis_storage_url(redis_url: str) -> str:
    """The ``limits`` storage URL of a ``redis://`` or ``rediss://`` URL."""
    return redis_url if redis_url.startswith("async+") else "async+" + redis_url


def trusted_networks(text: str) -> tuple[Network, ...]:
    """The networks of PREMIERE_RATE_LIMIT_TRUSTED_PROXIES; a bare address is a /32 (or
    /128). A malformed entry stops the server at start rather than trusting the wrong peer."""
    found = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        try:
            found.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise SystemExit(
                f"PREMIERE_RATE_LIMIT_TRUSTED_PROXIES: not an address or network: {item!r}"
            ) from None
    return tuple(found)


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None


def client_address(
    peer: str | None, forwarded_for: Iterable[str], trusted: Iterable[Network]
) -> str:
    """The client of a request from ``peer`` carrying ``X-Forwarded-For`` headers: the peer,
    unless the peer is a trusted proxy; then the right-most forwarded address that is not a
    trusted proxy (addresses to its left were written by the client and prove nothing). A
    malformed entry stops the walk at the last address a trusted proxy vouched for."""
    networks = tuple(trusted)
    if peer is None:
        return "unknown"

    def is_trusted(text: str) -> bool:
        address = _address(text)
        return address is not None and any(address in network for network in networks)

    if not networks or not is_trusted(peer):
        return peer
    hops = [hop.strip() for header in forwarded_for for hop in header.split(",")]
    client = peer
    for hop in reversed(hops):
        address = _address(hop)
        if address is None:
            break
        client = str(address)
        if not is_trusted(client):
            break
    return client


@dataclass(frozen=True, slots=True)
class Decision:
    allowed: bool
    limit: RateLimitItem
    remaining: int
    reset_at: float


class RateLimits:
    """The per-client limits of each route class, counted in one Redis."""

    RETRY_REDIS_S = 1.0
    LOG_EVERY_S = 60.0

    def __init__(self, settings: RateLimitSettings, redis_url: str) -> None:
        self.items: dict[str, RateLimitItem] = {
            "cheap": parse(settings.cheap),
            "expensive": parse(settings.expensive),
            "page": parse(settings.pages),
        }
        self.trusted = trusted_networks(settings.trusted_proxies)
        self.storage = RedisStorage(
            redis_storage_url(settings.storage or redis_url),
            wrap_exceptions=True,
            implementation="redispy",
            key_prefix="premiere-http-limits",
            socket_timeout=0.5,
            socket_connect_timeout=0.5,
        )
        self.limiter = MovingWindowRateLimiter(self.storage)
        self._down_until = 0.0
        self._logged_at = -math.inf

    def client(self, request: web.Request) -> str:
        return client_address(
            request.remote, request.headers.getall("X-Forwarded-For", []), self.trusted
        )

    async def check(self, cost: str, client: str) -> Decision | None:
        """Count one request of ``client`` on class ``cost``; None when Redis is out of reach
        (the request is served unchecked)."""
        item = self.items[cost]
        now = time.monotonic()
        if now < self._down_until:
            UNAVAILABLE.inc()
            return None
        try:
            allowed = await self.limiter.hit(item, cost, client)
            stats = await self.limiter.get_window_stats(item, cost, client)
        except (StorageError, OSError) as error:
            self._down_until = now + self.RETRY_REDIS_S
            UNAVAILABLE.inc()
            if now - self._logged_at >= self.LOG_EVERY_S:
                self._logged_at = now
                log.warning("rate limits not checked: Redis out of reach (%s)", error)
            return None
        return Decision(allowed, item, stats.remaining, stats.reset_time)


def limit_text(item: RateLimitItem) -> str:
    """``120/minute``, ``10 per 5 seconds``: the limit as its setting spells it."""
    per = item.GRANULARITY.name
    return (
        f"{item.amount}/{per}"
        if item.multiples == 1
        else f"{item.amount} per {item.multiples} {per}s"
    )


def middleware(
    limits: RateLimits, cost_of: Callable[[web.Request], str | None]
) -> Callable[..., Awaitable[web.StreamResponse]]:
    """The aiohttp middleware that counts each request on its route's class (``cost_of``:
    None for an unlimited route) and answers 429 past the limit."""

    @web.middleware
    async def limit(
        request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        cost = cost_of(request)
        if cost is None:
            return await handler(request)
        decision = await limits.check(cost, limits.client(request))
        if decision is None:
            return await handler(request)
        reset = max(0, math.ceil(decision.reset_at - time.time()))
        headers = {
            "RateLimit-Limit": str(decision.limit.amount),
            "RateLimit-Remaining": str(max(0, decision.remaining)),
            "RateLimit-Reset": str(reset),
        }
        if not decision.allowed:
            LIMITED.labels(cost).inc()
            retry = max(1, reset)
            return web.json_response(
                {
                    "error": "rate_limited",
                    "limit": limit_text(decision.limit),
                    "retry_after": retry,
                },
                status=429,
                headers={**headers, "Retry-After": str(retry)},
            )
        response = await handler(request)
        if not response.prepared:
            response.headers.update(headers)
        return response

    return limit
