"""How Premiere's processes prefer gRPC's transport to be set up.

gRPC reads its experiment switches once, when it is first imported, from the environment
variable `GRPC_EXPERIMENTS`. With `event_engine_listener` off, the connections a Python server
accepts are served by the completion-queue poller that grpc.aio already runs, instead of being
handed between that poller and EventEngine's own threads for every message: about a fifth less
server CPU per message, for the arbiter and a bare echo alike (`make bench` measures both with
it). The client side (`event_engine_client`) would save bots CPU too, but without EventEngine a
client reconnects to a server that was down much more slowly, so it keeps gRPC's default.

This only sets a default: a `GRPC_EXPERIMENTS` already in the environment (even empty) wins.
"""

from __future__ import annotations

import os

EXPERIMENTS = "-event_engine_listener"


def prefer_poller_transport() -> None:
    """Call before gRPC is first imported; afterwards it changes nothing."""
    os.environ.setdefault("GRPC_EXPERIMENTS", EXPERIMENTS)
