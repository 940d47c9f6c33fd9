"""A hosted bot's only way out: a Unix socket in its sandbox whose every connection the
runner carries, byte for byte, to the arbiter's gRPC address. The bot speaks the same
protocol as any bot (HTTP/2 to ``unix:/run/premiere/arbiter.sock``); the socket reaches the
arbiter and nothing else, and the arbiter may be on another machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path

__all__ = ["Relay"]

CHUNK = 1 << 16


class Relay:
    """Serves ``socket`` for one bot, relaying to ``host:port``; at most ``max_connections``
    at a time (a bot needs one; more are refused, so it cannot make the runner hold many)."""

    def __init__(self, socket: Path, host: str, port: int, max_connections: int = 4) -> None:
        self.socket = socket
        self.host = host
        self.port = port
        self.max_connections = max_connections
        self.server: asyncio.base_events.Server | None = None
        self.open: set[asyncio.Task[None]] = set()
        self.bytes_in = 0
        self.bytes_out = 0

    async def start(self, owner: int | None = None) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.socket.unlink()
        self.server = await asyncio.start_unix_server(self._serve, path=str(self.socket))
        if owner is not None:
            os.chown(self.socket, owner, owner)
            os.chmod(self.socket, 0o600)
        else:
            os.chmod(self.socket, 0o600)

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for task in list(self.open):
            task.cancel()
        for task in list(self.open):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(FileNotFoundError):
            self.socket.unlink()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        if len(self.open) >= self.max_connections:
            writer.close()
            return
        self.open.add(task)
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(self.host, self.port)
        except OSError:
            self.open.discard(task)
            writer.close()
            return
        try:
            await asyncio.gather(
                self._pipe(reader, upstream_writer, inbound=True),
                self._pipe(upstream_reader, writer, inbound=False),
            )
        finally:
            self.open.discard(task)
            for w in (writer, upstream_writer):
                w.close()

    async def _pipe(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, inbound: bool
    ) -> None:
        try:
            while data := await reader.read(CHUNK):
                if inbound:
                    self.bytes_in += len(data)
                else:
                    self.bytes_out += len(data)
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            with contextlib.suppress(Exception):
                writer.write_eof()
