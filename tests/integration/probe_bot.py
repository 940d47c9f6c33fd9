"""A bot that logs when each decision request arrives and when it answers, as JSON lines.

python probe_bot.py ADDRESS TOKEN LOG DELAY_S SLOW_S

Every request is answered from its own thread after DELAY_S seconds (SLOW_S for the first
request whose observation is in a guessing phase), so a slow answer never holds up the
receipt of the next request. It always answers with the first legal move.
"""

from __future__ import annotations

import json
import queue
import sys
import threading
import time

import grpc

from premiere_wire import bot_gateway_pb2

METHOD = "/premiere.v1.BotGatewayService/Connect"


def main(address: str, token: str, log_path: str, delay: float, slow: float) -> None:
    outbox: queue.Queue[bytes | None] = queue.Queue()
    hello = bot_gateway_pb2.ConnectRequest(hello=bot_gateway_pb2.Hello(max_matches=1))
    outbox.put(hello.SerializeToString())
    lock = threading.Lock()
    log = open(log_path, "a")  # noqa: SIM115 - closed when the stream ends
    slow_left = [slow > 0]

    def write(event: str, request: bot_gateway_pb2.DecisionRequest) -> None:
        view = request.observation.WhichOneof("game")
        observation = getattr(request.observation, view) if view else None
        record = {
            "event": event,
            "t": time.time(),
            "seat": request.seat,
            "decision": request.decision_number,
            "deadline": request.deadline_unix_ms,
            "phase": getattr(observation, "phase", ""),
            "turn": getattr(observation, "turn", -1),
            "tile": getattr(observation, "scoring_tile", -1),
            "guesses": [
                [g.scoring_tile, g.seat, g.film if g.HasField("film") else None]
                for g in getattr(observation, "guesses", ())
            ],
        }
        with lock:
            log.write(json.dumps(record) + "\n")
            log.flush()

    def answer(request: bot_gateway_pb2.DecisionRequest, wait: float) -> None:
        time.sleep(wait)
        write("send", request)
        reply = bot_gateway_pb2.DecisionAnswer(request_id=request.request_id, legal_move_index=0)
        outbox.put(bot_gateway_pb2.ConnectRequest(answer=reply).SerializeToString())

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
            write("recv", request)
            wait = delay
            observation = getattr(request.observation, request.observation.WhichOneof("game"))
            if slow_left[0] and getattr(observation, "phase", "") == "guess":
                slow_left[0] = False
                wait = slow
            threading.Thread(target=answer, args=(request, wait), daemon=True).start()
    except grpc.RpcError as error:
        print(f"stream ended: {error.code().name}", flush=True)
    finally:
        outbox.put(None)
        log.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5]))
