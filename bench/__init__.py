"""`make bench`: every figure next to a reference measured in the same run (docs/benchmarks.md)."""

from premiere_wire.transport import prefer_poller_transport

prefer_poller_transport()  # before anything imports grpc
