"""A decision request leaves the arbiter as bytes (`server.router.Request`): framed into its
`ConnectResponse` by hand and passed through the gateway's serializer untouched. Both must be
exactly what the generated classes write."""

from __future__ import annotations

from premiere_wire import bot_gateway_pb2
from server.gateway import _serialize_response
from server.router import Request


def request(size: int) -> bot_gateway_pb2.DecisionRequest:
    return bot_gateway_pb2.DecisionRequest(
        request_id="m:b00t:7", match_id="m", game="magic-trick", seat=2, decision_number=size
    )


def test_a_framed_request_is_the_connect_response_carrying_it() -> None:
    for size in (0, 1, 127, 128, 300, 20_000):
        message = request(size)
        message.legal_moves.add().magic_trick.play.slot = 3
        message.observation.magic_trick.hands = 3
        message.match_id = "m" * size
        framed = Request.of(message).framed()
        expected = bot_gateway_pb2.ConnectResponse(decision=message)
        assert framed == expected.SerializeToString()
        assert bot_gateway_pb2.ConnectResponse.FromString(framed) == expected
        assert bot_gateway_pb2.DecisionRequest.FromString(Request.of(message).data) == message


def test_the_gateway_serializer_passes_bytes_through_and_serializes_messages() -> None:
    welcome = bot_gateway_pb2.ConnectResponse(
        welcome=bot_gateway_pb2.Welcome(bot_name="b", server="s")
    )
    assert _serialize_response(welcome) == welcome.SerializeToString()
    framed = Request.of(request(1)).framed()
    assert _serialize_response(framed) is framed
