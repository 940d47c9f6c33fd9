"""Many bots in one process: one BotGateway stream per bot token, each answering a random legal
move at once, for the scale benchmarks (`bench.thousand`, `bench.capacity`).

    python -m bench.load ADDRESS TOKENS GAME MAX_MATCHES [CHANNELS]

TOKENS is a file of bot tokens, one a line; every token gets its own stream, spread over
CHANNELS connections (HTTP/2 caps the streams of one connection). The process prints
``ready N`` once every stream holds its Welcome, then plays until killed. SIGUSR1 toggles
holding: while held, decision requests are kept unanswered (a live match then waits on its
pending decision, which is how the arbiter's memory per live match is measured); toggling back
answers every kept request. SIGUSR2 prints ``bytes RECEIVED SENT``: the serialized sizes of
the messages the streams took and sent so far (gRPC's and HTTP/2's framing not counted).
"""

from __future__ import annotations

import asyncio
import random
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc

from premiere_wire import bot_gateway_pb2, bot_gateway_pb2_grpc

CLIENT = "premiere-bench-load/0.1"


class Streams:
    def __init__(self, game: str, max_matches: int) -> None:
        self.game = game
        self.max_matches = max_matches
        self.held = False
        self.released = asyncio.Event()
        self.released.set()
        self.welcomed = 0
        self.all_welcomed = asyncio.Event()
        self.expected = 0
        self.opening = asyncio.Semaphore(64)
        """Streams being opened at once (each is a few database round trips at the arbiter)."""
        self.received = 0
        self.sent = 0

    def report(self) -> None:
        print(f"bytes {self.received} {self.sent}", flush=True)

    def toggle(self) -> None:
        self.held = not self.held
        if self.held:
            self.released.clear()
        else:
            self.released.set()

    async def one(self, stub: Any, token: str) -> None:
        """A stream of the bot; opened again if it fails before its Welcome (two thousand
        streams opening at once on a busy machine can miss the arbiter's Hello timeout)."""
        for _ in range(5):
            welcomed = asyncio.Event()
            try:
                async with self.opening:
                    opened = asyncio.create_task(self.stream(stub, token, welcomed))
                    waiting = asyncio.create_task(welcomed.wait())
                    await asyncio.wait([opened, waiting], return_when=asyncio.FIRST_COMPLETED)
                    waiting.cancel()
                await opened
                return
            except grpc.aio.AioRpcError:
                if welcomed.is_set():
                    raise
                await asyncio.sleep(1)
        raise RuntimeError("a stream failed to open five times")

    async def stream(
        self,
        stub: Any,
        token: str,
        welcomed: asyncio.Event,
    ) -> None:
        answers: asyncio.Queue[bot_gateway_pb2.ConnectRequest] = asyncio.Queue()
        hello = bot_gateway_pb2.Hello(
            games=[self.game], max_matches=self.max_matches, client=CLIENT, batches=True
        )
        await answers.put(bot_gateway_pb2.ConnectRequest(hello=hello))

        async def outgoing() -> AsyncIterator[bot_gateway_pb2.ConnectRequest]:
            while True:
                yield await answers.get()

        call = stub.Connect(outgoing(), metadata=(("authorization", f"Bearer {token}"),))
        pick = random.Random(token).randrange
        async for response in call:
            self.received += response.ByteSize()
            kind = response.WhichOneof("message")
            if kind == "welcome":
                welcomed.set()
                self.welcomed += 1
                if self.welcomed == self.expected:
                    self.all_welcomed.set()
                continue
            if kind == "decision":
                requests = [response.decision]
            elif kind == "decisions":
                requests = list(response.decisions.requests)
            else:
                continue
            if self.held:
                await self.released.wait()
            batch = [
                bot_gateway_pb2.DecisionAnswer(
                    request_id=r.request_id, legal_move_index=pick(len(r.legal_moves))
                )
                for r in requests
            ]
            if len(batch) == 1:
                message = bot_gateway_pb2.ConnectRequest(answer=batch[0])
            else:
                message = bot_gateway_pb2.ConnectRequest(
                    answers=bot_gateway_pb2.AnswerBatch(answers=batch)
                )
            self.sent += message.ByteSize()
            answers.put_nowait(message)


async def main(address: str, tokens_file: str, game: str, max_matches: int, channels: int) -> None:
    tokens = Path(tokens_file).read_text().split()
    streams = Streams(game, max_matches)
    streams.expected = len(tokens)
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGUSR1, streams.toggle)
    loop.add_signal_handler(signal.SIGUSR2, streams.report)
    options = [("grpc.max_concurrent_streams", 1 << 20)]
    opened = [grpc.aio.insecure_channel(address, options=options) for _ in range(channels)]
    stubs = [bot_gateway_pb2_grpc.BotGatewayServiceStub(c) for c in opened]
    tasks = [
        asyncio.create_task(streams.one(stubs[n % channels], token))
        for n, token in enumerate(tokens)
    ]
    await streams.all_welcomed.wait()
    print(f"ready {len(tokens)}", flush=True)
    done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
    for task in done:
        task.result()


if __name__ == "__main__":
    asyncio.run(
        main(
            sys.argv[1],
            sys.argv[2],
            sys.argv[3],
            int(sys.argv[4]),
            int(sys.argv[5]) if len(sys.argv) > 5 else 8,
        )
    )
