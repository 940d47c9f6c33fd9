"""A bare grpc.aio bidirectional echo: the reference for the arbiter's decision round trip.

python -m bench.echo serve                        # prints its port, echoes until killed
python -m bench.echo client PORT SIZE STREAMS N   # prints p50_ms p99_ms messages_per_s cpu_s
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from collections.abc import AsyncIterator

import grpc

METHOD = "/bench.Echo/Echo"


def _identity(data: bytes) -> bytes:
    return data


async def serve() -> None:
    async def echo(
        requests: AsyncIterator[bytes], context: grpc.aio.ServicerContext[bytes, bytes]
    ) -> AsyncIterator[bytes]:
        async for message in requests:
            yield message

    handler = grpc.method_handlers_generic_handler(
        "bench.Echo",
        {"Echo": grpc.stream_stream_rpc_method_handler(echo, _identity, _identity)},
    )
    server = grpc.aio.server()
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    print(port, flush=True)
    await server.wait_for_termination()


async def client(port: int, size: int, streams: int, count: int) -> None:
    payload = b"x" * size
    samples: list[float] = []
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        call_factory = channel.stream_stream(METHOD, _identity, _identity)

        async def one_stream() -> None:
            call = call_factory()  # type: ignore[call-arg]
            for _ in range(count):
                sent = time.perf_counter()
                await call.write(payload)
                await call.read()
                samples.append(time.perf_counter() - sent)
            await call.done_writing()

        started = time.perf_counter()
        cpu = time.process_time()
        await asyncio.gather(*(one_stream() for _ in range(streams)))
        seconds = time.perf_counter() - started
        cpu = time.process_time() - cpu
    ordered = sorted(samples)
    p50 = statistics.median(ordered) * 1000
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000
    print(f"{p50:.3f} {p99:.3f} {len(ordered) / seconds:.1f} {cpu:.6f}")


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        asyncio.run(serve())
    else:
        asyncio.run(client(*(int(a) for a in sys.argv[2:6])))
