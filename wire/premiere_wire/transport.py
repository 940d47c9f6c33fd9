"""How Premiere's processes prefer gRPC's transport to be set up.

gRPC reads its experiment switches once, when it is first imported, from the environment
variable `GRPC_EXPERIMENTS`. With `event_engine_client` and `event_engine_listener` off, a
Python process's connections are served by the completion-queue poller that grpc.aio already
runs, instead of being handed between that poller and EventEngine's own threads for every
message. On a decision round trip that cut CPU per message by about a quarter to a third, for
the arbiter, the bot SDK and a bare echo alike (`make bench` measures every side with it).

This only sets a default: a `GRPC_EXPERIMENTS` already in the environment (even empty) wins.
"""

from __future__ import annotations

import os

EXPERIMENTS = "-event_engine_client,-event_engine_listener"


def prefer_poller_transport() -> None:
    """Call before gRPC is first imported; afterwards it changes nothing."""
    os.environ.setdefault("GRPC_EXPERIMENTS", EXPERIMENTS)
