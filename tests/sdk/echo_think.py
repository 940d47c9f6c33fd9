"""Bench-only: bench.echo's client with a pause after every round trip, as a bot has between
the requests of its matches (the arbiter's turn). A process that sleeps between messages pays
gRPC's thread wake-ups on each one, which an echo client running flat out amortizes.

python -m tests.sdk.echo_think PORT SIZE STREAMS N PAUSE_S   # prints cpu_us_per_message
"""

from __future__ import annotations

import asyncio
import sys
import time

import grpc

from bench.echo import METHOD, _identity


async def client(port: int, size: int, streams: int, count: int, pause: float) -> float:
    payload = b"x" * size
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        call_factory = channel.stream_stream(METHOD, _identity, _identity)

        async def one_stream() -> None:
            call = call_factory()  # type: ignore[call-arg]
            for _ in range(count):
                await call.write(payload)
                await call.read()
                await asyncio.sleep(pause)
            await call.done_writing()

        cpu = time.process_time()
        await asyncio.gather(*(one_stream() for _ in range(streams)))
        return (time.process_time() - cpu) / (streams * count) * 1e6


if __name__ == "__main__":
    port, size, streams, count = (int(a) for a in sys.argv[1:5])
    print(f"{asyncio.run(client(port, size, streams, count, float(sys.argv[5]))):.1f}")
