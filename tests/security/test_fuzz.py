"""Bounded fuzzing of every RPC of the arbiter and the ladder: random bytes and mutations of
valid requests, anonymous and with credentials. The services answer each with a deliberate
status (never UNKNOWN or INTERNAL, never a multi-line or class-naming reason), stay SERVING,
keep their memory bounded, and anonymous calls write nothing."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import grpc
import psycopg
import pytest
from google.protobuf import message_factory
from grpc_health.v1 import health_pb2, health_pb2_grpc
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from premiere_wire import bot_gateway_pb2, ladder_pb2, match_pb2
from tests.integration.services import OPERATOR_TOKEN, Arbiter, free_port, scratch_database
from tests.ladder.test_api import Ladder
from tests.security.test_misbehaving_clients import rss_kib

FUZZ = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
DELIBERATE = {
    grpc.StatusCode.OK,
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.NOT_FOUND,
    grpc.StatusCode.UNAUTHENTICATED,
    grpc.StatusCode.PERMISSION_DENIED,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
    grpc.StatusCode.DEADLINE_EXCEEDED,
    grpc.StatusCode.OUT_OF_RANGE,
}
FORBIDDEN_IN_DETAILS = ("Traceback", "<class", "psycopg", "Error'>")


@pytest.fixture(scope="module")
def services(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Arbiter, Ladder, str]]:
    folder: Path = tmp_path_factory.mktemp("fuzz")
    with scratch_database() as url:
        arbiter = Arbiter(url, free_port(), free_port())
        arbiter.start(folder / "arbiter.log")
        ladder = Ladder(url, folder / "ladder.log")
        try:
            ladder.wait_serving()
            token = arbiter.add_bot("fuzzed")
            yield arbiter, ladder, token
        finally:
            ladder.stop()
            arbiter.stop()


def seeds() -> dict[str, list[bytes]]:
    """Valid requests of every RPC, to mutate."""
    create = match_pb2.CreateMatchRequest(game="magic-trick", seed="s", rated=True)
    for name in ("random", "heuristic", "random"):
        create.seats.add(builtin=name)
    create.time_control.move_time_ms = 100
    some_id = str(uuid.uuid4())
    hello = bot_gateway_pb2.ConnectRequest(hello=bot_gateway_pb2.Hello(max_matches=2))
    answer = bot_gateway_pb2.ConnectRequest(
        answer=bot_gateway_pb2.DecisionAnswer(request_id=f"{some_id}:0", legal_move_index=1)
    )
    ladder = {}
    for method in ladder_pb2.DESCRIPTOR.services_by_name["LadderService"].methods:
        cls = message_factory.GetMessageClass(method.input_type)
        message = cls()
        for field in method.input_type.fields:
            if field.type == field.TYPE_STRING and not field.is_repeated:
                setattr(message, field.name, "magic-trick" if "game" in field.name else "fuzzed")
        ladder[f"/premiere.v1.LadderService/{method.name}"] = [message.SerializeToString()]
    return {
        "/premiere.v1.MatchService/CreateMatch": [create.SerializeToString()],
        "/premiere.v1.MatchService/CreateMatches": [
            match_pb2.CreateMatchesRequest(matches=[create, create]).SerializeToString()
        ],
        "/premiere.v1.MatchService/GetMatch": [
            match_pb2.GetMatchRequest(match_id=some_id).SerializeToString()
        ],
        "/premiere.v1.MatchService/GetReplay": [
            match_pb2.GetReplayRequest(match_id=some_id, seat=0).SerializeToString()
        ],
        "/premiere.v1.MatchService/WatchMatch": [
            match_pb2.WatchMatchRequest(match_id=some_id).SerializeToString()
        ],
        "/premiere.v1.BotGatewayService/Connect": [
            hello.SerializeToString(),
            answer.SerializeToString(),
        ],
        **ladder,
    }


SEEDS = seeds()


@st.composite
def mutated(draw: st.DrawFn, method: str) -> bytes:
    if draw(st.booleans()):
        return bytes(draw(st.binary(max_size=300)))
    data = bytearray(draw(st.sampled_from(SEEDS[method])))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["flip", "insert", "delete", "truncate"]))
        position = draw(st.integers(0, max(0, len(data) - 1)))
        if kind == "flip" and data:
            data[position] ^= 1 << draw(st.integers(0, 7))
        elif kind == "insert":
            data[position:position] = draw(st.binary(min_size=1, max_size=20))
        elif kind == "delete" and data:
            del data[position]
        elif kind == "truncate":
            del data[position:]
    return bytes(data)


def check(error: grpc.RpcError) -> None:
    assert error.code() in DELIBERATE, (error.code(), error.details())
    details = error.details() or ""
    assert "\n" not in details and not any(word in details for word in FORBIDDEN_IN_DETAILS)


def call(address: str, method: str, payload: bytes, metadata: tuple[tuple[str, str], ...]) -> None:
    with grpc.insecure_channel(address) as channel:
        identity = {"request_serializer": lambda b: b, "response_deserializer": lambda b: b}
        try:
            if method.endswith("WatchMatch"):
                stream = channel.unary_stream(method, **identity)
                list(stream(payload, timeout=2, metadata=metadata))
            elif method.endswith("Connect"):
                stream = channel.stream_stream(method, **identity)
                list(stream(iter([payload]), timeout=2, metadata=metadata))
            else:
                channel.unary_unary(method, **identity)(payload, timeout=5, metadata=metadata)
        except grpc.RpcError as error:
            check(error)


def counts(database_url: str) -> tuple[int, ...]:
    with psycopg.connect(database_url) as conn:
        tables = ("matches", "bots", "match_moves", "match_faults", "leagues")
        return tuple(conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables)  # type: ignore[index]


ARBITER_METHODS = [m for m in SEEDS if "LadderService" not in m]
LADDER_METHODS = [m for m in SEEDS if "LadderService" in m]


@pytest.mark.parametrize("method", ARBITER_METHODS)
def test_arbiter_rpcs_answer_garbage_deliberately(
    services: tuple[Arbiter, Ladder, str], method: str
) -> None:
    arbiter, _, token = services
    before = counts(arbiter.database_url)
    memory = rss_kib(arbiter)

    @FUZZ
    @given(payload=mutated(method))
    def anonymous(payload: bytes) -> None:
        call(arbiter.address, method, payload, ())

    anonymous()
    assert counts(arbiter.database_url) == before, "an anonymous call wrote something"
    credential = OPERATOR_TOKEN if "MatchService" in method else token

    @FUZZ
    @given(payload=mutated(method))
    def authenticated(payload: bytes) -> None:
        call(arbiter.address, method, payload, (("authorization", f"Bearer {credential}"),))

    authenticated()
    assert arbiter.healthy()
    assert (rss_kib(arbiter) - memory) / 1024 < 60


@pytest.mark.parametrize("method", LADDER_METHODS)
def test_ladder_rpcs_answer_garbage_deliberately(
    services: tuple[Arbiter, Ladder, str], method: str
) -> None:
    arbiter, ladder, _ = services
    before = counts(arbiter.database_url)

    @FUZZ
    @given(payload=mutated(method))
    def anonymous(payload: bytes) -> None:
        call(ladder.grpc_address, method, payload, ())

    anonymous()
    assert counts(arbiter.database_url) == before
    health = health_pb2_grpc.HealthStub(ladder.channel)
    reply = health.Check(health_pb2.HealthCheckRequest(), timeout=5)
    assert reply.status == health_pb2.HealthCheckResponse.SERVING
