"""Premiere's application shell: the `premiere` command and what it runs."""

from premiere_wire.transport import prefer_poller_transport

prefer_poller_transport()  # before anything imports grpc
