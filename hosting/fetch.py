"""How a hosted bot's Pod gets its bundle: from the runner that started it, over HTTP, with a
key good for one fetch of one digest.

The runner draws a key per Pod (``Grants.grant``), puts it in the Pod's Secret beside the
bot's token, and serves ``GET /bundles/<sha256>`` (``BundleServer``) to a request bearing a
key granted for that digest, once. The Pod's init container (``premiere fetch-bundle``) reads
the key from its environment, fetches, and unpacks with ``premiere_wire.bundle.unpack``, which
verifies the SHA-256 and every rule of the archive again before writing a byte; so neither the
network nor the runner need be trusted for integrity. Only the init container sees the key;
the bot's container shares the Pod's network, but by the time it starts the key is spent, so
it can fetch nothing (no other author's bundle, not even its own again). The Pod needs no
database credentials and no route to the database: its only egress is the runner and the
arbiter.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from aiohttp import web

from premiere_wire.bundle import BundleError, Caps, Checked, unpack

__all__ = ["FETCH_PORT", "KEY_ENV", "BundleServer", "Grants", "fetch"]

FETCH_PORT = 8090
KEY_ENV = "BUNDLE_FETCH_KEY"
"""The init container's variable holding its key (not a PREMIERE_* setting: one Pod's secret)."""
_SHA256 = re.compile(r"[0-9a-f]{64}")


@dataclass
class _Grant:
    sha256: str
    expires: float


class Grants:
    """Fetch keys: each names one digest, is good once, and expires after ``ttl_s``. Only a
    hash of each key is held."""

    def __init__(self, ttl_s: float = 900.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl_s = ttl_s
        self.clock = clock
        self._grants: dict[str, _Grant] = {}

    @staticmethod
    def _hash(key: str) -> str:
        return hashlib.sha256(key.encode()).hexdigest()

    def grant(self, sha256: str) -> str:
        if not _SHA256.fullmatch(sha256):
            raise ValueError(f"not a SHA-256: {sha256[:80]!r}")
        now = self.clock()
        self._grants = {k: g for k, g in self._grants.items() if g.expires > now}
        key = secrets.token_urlsafe(32)
        self._grants[self._hash(key)] = _Grant(sha256, now + self.ttl_s)
        return key

    def take(self, key: str, sha256: str) -> bool:
        """Whether ``key`` was granted for ``sha256`` and is still good; it is spent either
        way if it was granted for this digest."""
        found = self._grants.get(self._hash(key))
        if found is None or found.sha256 != sha256:
            return False
        del self._grants[self._hash(key)]
        return found.expires > self.clock()

    def revoke(self, key: str) -> None:
        self._grants.pop(self._hash(key), None)

    def __len__(self) -> int:
        return len(self._grants)


class BundleServer:
    """``GET /bundles/<sha256>`` with ``Authorization: Bearer <key>``: the archive, once per
    key; 403 for any other key, 404 for a digest not stored. ``GET /healthz`` (the runner's
    probe) says ok; nothing else is served."""

    def __init__(
        self,
        grants: Grants,
        read: Callable[[str], bytes | None],
        host: str = "0.0.0.0",
        port: int = FETCH_PORT,
    ) -> None:
        self.grants = grants
        self.read = read
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    def app(self) -> web.Application:
        app = web.Application(client_max_size=1024)
        app.router.add_get("/bundles/{sha256}", self._get)
        app.router.add_get("/healthz", self._healthz)
        return app

    async def start(self) -> None:
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        if self.port == 0:
            self.port = int(self._runner.addresses[0][1])

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _healthz(self, _request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def _get(self, request: web.Request) -> web.Response:
        sha256 = request.match_info["sha256"]
        scheme, _, key = request.headers.get("Authorization", "").partition(" ")
        if not _SHA256.fullmatch(sha256) or scheme != "Bearer" or not self.grants.take(key, sha256):
            return web.Response(status=403, text="no key for this bundle\n")
        data = await asyncio.to_thread(self.read, sha256)
        if data is None:
            return web.Response(status=404, text="no such bundle\n")
        return web.Response(body=data, content_type="application/gzip")


def fetch(
    url: str, sha256: str, key: str, target: Path, caps: Caps | None = None, timeout_s: float = 60
) -> Checked:
    """Fetch bundle ``sha256`` from the runner at ``url`` and unpack it into ``target`` (empty),
    its digest and every rule checked; BundleError says what went wrong."""
    caps = caps or Caps()
    if not _SHA256.fullmatch(sha256):
        raise BundleError(f"not a SHA-256: {sha256[:80]!r}")
    if not url.startswith(("http://", "https://")):
        raise BundleError(f"the runner's address is an http:// URL, not {url[:80]!r}")
    request = urllib.request.Request(
        f"{url.rstrip('/')}/bundles/{sha256}", headers={"Authorization": f"Bearer {key}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            data = response.read(caps.max_bytes + 1)
    except OSError as error:
        raise BundleError(f"the runner did not give bundle {sha256[:12]}: {error}") from None
    if len(data) > caps.max_bytes:
        raise BundleError(f"archive over the cap of {caps.max_bytes >> 20} MiB")
    return unpack(data, sha256, target, caps)
