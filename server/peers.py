"""Arbiter to arbiter: one long-lived gRPC stream per pair of arbiters, carrying the relay's
asks, answers, lifecycle news and claims in batches (`PeerService.Link`, proto/peer.proto).

Each arbiter serves `PeerService` on a port of its own (PREMIERE_PEER_ADDRESS) and publishes
where others reach it (`Relay` writes it into Redis beside its presence). Of each pair, the
arbiter whose name sorts first dials the other; the caller must send the shared secret
(PREMIERE_PEER_TOKEN), so a bot (or anyone else) that reaches the port is refused.

A `Link` batches whatever was queued for its peer in one turn of the event loop into one
`PeerBatch`, sends an empty batch as a heartbeat when idle, and ends when the stream ends or
its peer falls silent for PEER_SILENT_S (a cut link drops packets without a word). What it
was carrying is then the relay's to send again through Redis (`Relay._link_lost`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc

from premiere_wire import peer_pb2, peer_pb2_grpc

log = logging.getLogger("premiere.peers")

PEER_HEARTBEAT_S = 0.25
"""An idle link sends an empty batch this often."""
PEER_SILENT_S = 1.0
"""A link whose peer sent nothing (not even a heartbeat) for this long is taken for dropped."""
DIAL_PAUSE_S = 0.5
"""Between two tries at dialling a peer."""
DIAL_WAIT_S = 2.0
"""How long dialling a peer (until its first batch answers ours) may take."""

Deliver = Callable[["PeerLink", peer_pb2.PeerBatch], None]
Lost = Callable[["PeerLink"], None]
_EOF = getattr(grpc.aio, "EOF")  # noqa: B009 (not in grpc's type stubs)


class PeerLink:
    """One stream to one other arbiter, from either end."""

    def __init__(self, peer: str) -> None:
        self.peer = peer
        self.up = True
        self.pending: dict[str, peer_pb2.PeerAsk] = {}
        """Asks sent on this link and not answered yet: sent again through Redis if it drops."""
        self._batch = peer_pb2.PeerBatch()
        self._ready = asyncio.Event()
        self._heard_at = time.monotonic()
        self._closed = asyncio.Event()

    def ask(self, ask: peer_pb2.PeerAsk) -> None:
        self.pending[ask.id] = ask
        self._batch.asks.append(ask)
        self._ready.set()

    def answer(self, answer: peer_pb2.PeerAnswer) -> None:
        self._batch.answers.append(answer)
        self._ready.set()

    def news(self, bot_id: int, message: bytes) -> None:
        self._batch.news.add(bot_id=bot_id, message=message)
        self._ready.set()

    def claim(self, match_id: str) -> None:
        self._batch.claims.append(match_id)
        self._ready.set()

    def gone(self, bot_id: int) -> None:
        self._batch.gone.append(bot_id)
        self._ready.set()

    def close(self) -> None:
        self._closed.set()

    async def run(
        self,
        read: Callable[[], Awaitable[Any]],
        write: Callable[[peer_pb2.PeerBatch], Awaitable[None]],
        deliver: Deliver,
    ) -> None:
        """Until the stream ends, its peer falls silent, or `close`; then the link is down."""
        tasks = [
            asyncio.create_task(self._read(read, deliver)),
            asyncio.create_task(self._write(write)),
            asyncio.create_task(self._watch()),
            asyncio.create_task(self._closed.wait()),
        ]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self.up = False
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _read(self, read: Callable[[], Awaitable[Any]], deliver: Deliver) -> None:
        while True:
            batch = await read()
            if batch is _EOF or batch is None:
                return
            self._heard_at = time.monotonic()
            deliver(self, batch)

    async def _write(self, write: Callable[[peer_pb2.PeerBatch], Awaitable[None]]) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(PEER_HEARTBEAT_S):
                    await self._ready.wait()
            self._ready.clear()
            batch, self._batch = self._batch, peer_pb2.PeerBatch()
            await write(batch)

    async def _watch(self) -> None:
        while time.monotonic() - self._heard_at < PEER_SILENT_S:
            await asyncio.sleep(PEER_HEARTBEAT_S)
        log.warning("peer %s silent for %.1f s; dropping the link", self.peer, PEER_SILENT_S)


def _bearer(token: str) -> tuple[tuple[str, str]]:
    return (("authorization", f"Bearer {token}"),)


class Peers(peer_pb2_grpc.PeerServiceServicer):
    """This arbiter's links to the others: serves the peer port, dials the peers whose names
    sort after its own, and hands every batch received to `deliver`, every link that went down
    to `lost`."""

    def __init__(self, name: str, token: str, deliver: Deliver, lost: Lost) -> None:
        self.name = name
        self._token = token
        self._deliver = deliver
        self._lost = lost
        self.links: dict[str, PeerLink] = {}
        self._dialing: dict[str, asyncio.Task[None]] = {}
        self._addresses: dict[str, str] = {}
        self._server: grpc.aio.Server | None = None

    def up(self) -> list[PeerLink]:
        return [link for link in self.links.values() if link.up]

    def link(self, peer: str) -> PeerLink | None:
        """The link to `peer` when it is up."""
        link = self.links.get(peer)
        return link if link is not None and link.up else None

    # --- serving -------------------------------------------------------------------------

    async def serve(self, address: str) -> int:
        """Serve PeerService on `address` (plaintext: a private network's port); the port."""
        self._server = grpc.aio.server()
        peer_pb2_grpc.add_PeerServiceServicer_to_server(self, self._server)
        port = self._server.add_insecure_port(address)
        if port == 0:
            raise SystemExit(f"cannot bind the peer port {address}")
        await self._server.start()
        return int(port)

    def _authorized(self, context: grpc.aio.ServicerContext[Any, Any]) -> bool:
        sent = ""
        for key, value in context.invocation_metadata() or ():
            if key.lower() == "authorization" and isinstance(value, str):
                sent = value
        expected = f"Bearer {self._token}"
        return bool(self._token) and hmac.compare_digest(sent.encode(), expected.encode())

    async def Link(  # type: ignore[override]
        self,
        request_iterator: AsyncIterator[peer_pb2.PeerBatch],
        context: grpc.aio.ServicerContext[peer_pb2.PeerBatch, peer_pb2.PeerBatch],
    ) -> None:
        if not self._authorized(context):
            await context.abort(
                grpc.StatusCode.UNAUTHENTICATED,
                "the peer service is for Premiere's arbiters: send 'authorization: Bearer"
                " <PREMIERE_PEER_TOKEN>'",
            )
        hello = await anext(request_iterator, None)
        if hello is None or not hello.sender or hello.sender == self.name:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "name the sending arbiter")
        await context.write(peer_pb2.PeerBatch(sender=self.name))
        link = PeerLink(hello.sender)
        old = self.links.get(hello.sender)
        if old is not None:
            old.close()
        self.links[hello.sender] = link
        log.info("peer link from %s up", hello.sender)
        self._deliver(link, hello)
        try:
            await link.run(lambda: anext(request_iterator, None), context.write, self._deliver)
        finally:
            self._down(link)

    def _down(self, link: PeerLink) -> None:
        link.up = False
        if self.links.get(link.peer) is link:
            del self.links[link.peer]
        log.warning("peer link with %s down", link.peer)
        self._lost(link)

    # --- dialling ------------------------------------------------------------------------

    def known(self, addresses: dict[str, str]) -> None:
        """The live arbiters and their peer addresses (from Redis): dial those whose names
        sort after this one's, stop dialling those gone."""
        self._addresses = {name: a for name, a in addresses.items() if name > self.name}
        for name in self._addresses:
            if name not in self._dialing:
                self._dialing[name] = asyncio.create_task(self._keep(name), name=f"peer-{name}")
        for name in list(self._dialing):
            if name not in self._addresses:
                self._dialing.pop(name).cancel()

    async def _keep(self, peer: str) -> None:
        while peer in self._addresses:
            try:
                await self._dial(peer, self._addresses[peer])
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.debug("dialling peer %s failed: %s", peer, error)
            await asyncio.sleep(DIAL_PAUSE_S)

    async def _dial(self, peer: str, address: str) -> None:
        async with grpc.aio.insecure_channel(address) as channel:
            stub = peer_pb2_grpc.PeerServiceStub(channel)
            call = stub.Link(metadata=_bearer(self._token))  # type: ignore[call-arg]
            try:
                async with asyncio.timeout(DIAL_WAIT_S):
                    await call.write(peer_pb2.PeerBatch(sender=self.name))
                    hello = await call.read()
                if not isinstance(hello, peer_pb2.PeerBatch) or hello.sender != peer:
                    log.warning("peer at %s is not %s; dropping the link", address, peer)
                    return
                link = PeerLink(peer)
                self.links[peer] = link
                log.info("peer link to %s up", peer)
                try:
                    await link.run(call.read, call.write, self._deliver)
                finally:
                    self._down(link)
            finally:
                call.cancel()

    async def close(self) -> None:
        for task in self._dialing.values():
            task.cancel()
        await asyncio.gather(*self._dialing.values(), return_exceptions=True)
        for link in list(self.links.values()):
            link.close()
        if self._server is not None:
            await self._server.stop(grace=0.5)
