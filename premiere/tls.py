"""TLS for the arbiter's and the ladder's ports, and gRPC server options that bound resources.

A port speaks TLS when PREMIERE_TLS_CERT and PREMIERE_TLS_KEY are set. Otherwise it speaks
plaintext only on a loopback address (nothing off the machine reaches it) or when
PREMIERE_PLAINTEXT asks for it (behind a TLS proxy); anything else refuses to start.
"""

from __future__ import annotations

import ipaddress
import ssl
from pathlib import Path
from typing import Any

import grpc

from premiere.config import Settings

NEEDS_TLS = (
    "set PREMIERE_TLS_CERT and PREMIERE_TLS_KEY (PEM files), or PREMIERE_PLAINTEXT=true to"
    " serve without TLS (loopback or behind a TLS proxy only)"
)


def loopback(address: str) -> bool:
    host = address.rpartition(":")[0].strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _pair(settings: Settings, address: str) -> tuple[bytes, bytes] | None:
    if bool(settings.tls_cert) != bool(settings.tls_key):
        raise SystemExit("PREMIERE_TLS_CERT and PREMIERE_TLS_KEY go together")
    if not settings.tls_cert or not settings.tls_key:
        if not (settings.plaintext or loopback(address)):
            raise SystemExit(f"{address} is not a loopback address: {NEEDS_TLS}")
        return None
    return Path(settings.tls_key).read_bytes(), Path(settings.tls_cert).read_bytes()


def add_port(server: grpc.aio.Server, address: str, settings: Settings) -> int:
    """Bind `address` with TLS, or plaintext when asked for; 0 when the bind failed."""
    pair = _pair(settings, address)
    if pair is None:
        return int(server.add_insecure_port(address))
    credentials = grpc.ssl_server_credentials([pair])
    return int(server.add_secure_port(address, credentials))


def http_ssl_context(settings: Settings, address: str) -> ssl.SSLContext | None:
    """The same certificate for an HTTP port (the ladder's JSON API and page)."""
    if _pair(settings, address) is None:
        return None
    assert settings.tls_cert and settings.tls_key
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(settings.tls_cert, settings.tls_key)
    return context


def server_options(settings: Settings) -> list[tuple[str, Any]]:
    """Message sizes, handshake and idle timeouts, and streams per connection."""
    return [
        ("grpc.so_reuseport", 0),
        ("grpc.max_receive_message_length", settings.max_message_bytes),
        ("grpc.max_send_message_length", 4 * settings.max_message_bytes),
        ("grpc.server_handshake_timeout_ms", int(settings.hello_timeout_s * 1000)),
        ("grpc.max_connection_idle_ms", int(settings.max_connection_idle_s * 1000)),
        ("grpc.max_concurrent_streams", settings.max_streams_per_peer),
        ("grpc.http2.max_pings_without_data", 0),
        ("grpc.keepalive_permit_without_calls", 1),
    ]


def client_channel(target: str, settings: Settings) -> grpc.Channel:
    """A channel from the workers to the arbiter: TLS when PREMIERE_ARBITER_TLS is set."""
    if not settings.arbiter_tls:
        return grpc.insecure_channel(target)
    roots = Path(settings.tls_ca).read_bytes() if settings.tls_ca else None
    options = (
        [("grpc.ssl_target_name_override", settings.arbiter_tls_name)]
        if settings.arbiter_tls_name
        else []
    )
    credentials = grpc.ssl_channel_credentials(root_certificates=roots)
    return grpc.secure_channel(target, credentials, options=options)
