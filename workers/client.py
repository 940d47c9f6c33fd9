"""The workers' gRPC channel to the arbiter, opened lazily in each process.

Celery's prefork pool forks worker processes; a gRPC channel must not cross a fork, so each
process opens its own on first use and reopens it if it finds itself in a new process.
"""

from __future__ import annotations

import os

import grpc

from premiere.config import Settings
from premiere.tls import client_channel
from premiere_wire import match_pb2_grpc

_channel: tuple[int, grpc.Channel, match_pb2_grpc.MatchServiceStub] | None = None


def matches(settings: Settings) -> match_pb2_grpc.MatchServiceStub:
    global _channel
    if _channel is None or _channel[0] != os.getpid():
        channel = client_channel(settings.arbiter_target, settings)
        _channel = (os.getpid(), channel, match_pb2_grpc.MatchServiceStub(channel))
    return _channel[2]
