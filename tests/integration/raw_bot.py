"""A bot that speaks the wire by hand: it can send forged answers or bytes that are not protobuf.

python raw_bot.py ADDRESS TOKEN garbage   # a valid Hello, then garbage bytes
python raw_bot.py ADDRESS TOKEN thief     # forged request ids, then honest answers
"""

from __future__ import annotations

import queue
import sys

import grpc

from premiere_wire import bot_gateway_pb2

METHOD = "/premiere.v1.BotGatewayService/Connect"


def main(address: str, token: str, mode: str) -> None:
    outbox: queue.Queue[bytes | None] = queue.Queue()
    hello = bot_gateway_pb2.ConnectRequest(hello=bot_gateway_pb2.Hello(max_matches=1))
    outbox.put(hello.SerializeToString())

    def requests():  # type: ignore[no-untyped-def]
        while (item := outbox.get()) is not None:
            yield item

    channel = grpc.insecure_channel(address)
    connect = channel.stream_stream(
        METHOD, request_serializer=lambda raw: raw, response_deserializer=lambda raw: raw
    )
    stream = connect(requests(), metadata=(("authorization", f"Bearer {token}"),))
    try:
        for raw in stream:
            message = bot_gateway_pb2.ConnectResponse.FromString(raw)
            if message.WhichOneof("message") != "decision":
                continue
            request = message.decision
            if mode == "garbage":
                outbox.put(b"\xff\xfe\x00garbage, not a protobuf message\x07" * 3)
                continue
            match, _, number = request.request_id.rpartition(":")
            for forged in (f"{match}:{int(number) + 1}", f"{match}:{int(number) - 1}", "x:0"):
                answer = bot_gateway_pb2.DecisionAnswer(request_id=forged, legal_move_index=0)
                outbox.put(bot_gateway_pb2.ConnectRequest(answer=answer).SerializeToString())
            own = request.request_id
            answer = bot_gateway_pb2.DecisionAnswer(request_id=own, legal_move_index=0)
            outbox.put(bot_gateway_pb2.ConnectRequest(answer=answer).SerializeToString())
            outbox.put(bot_gateway_pb2.ConnectRequest(answer=answer).SerializeToString())
    except grpc.RpcError as error:
        print(f"stream ended: {error.code().name}", flush=True)
    finally:
        outbox.put(None)


if __name__ == "__main__":
    main(*sys.argv[1:4])
