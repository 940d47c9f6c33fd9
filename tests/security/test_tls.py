"""Finding: no TLS anywhere, so bot tokens crossed the network in clear text. The arbiter and
the ladder serve TLS from a certificate in the settings, the Python SDK (--tls/--ca) and the
Node bot (--ca) dial it, and a non-loopback port without a certificate refuses to start."""

from __future__ import annotations

import os
import ssl
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from premiere_wire import match_pb2
from tests.integration.services import BIN, Arbiter, free_port, start_bot, wait_ended
from tests.integration.test_node_bot import node_bot

RANDOM = "premiere_bot.examples.random_bot:RandomBot"


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost, made with the openssl CLI."""
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "ec",
            "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return cert, key


@pytest.fixture
def tls_arbiter(
    database_url: str, tmp_path: Path, certificate: tuple[Path, Path]
) -> Iterator[Arbiter]:
    cert, key = certificate
    settings = {"PREMIERE_TLS_CERT": str(cert), "PREMIERE_TLS_KEY": str(key)}
    server = Arbiter(database_url, free_port(), free_port(), settings=settings)
    server.tls_ca = cert.read_bytes()
    server.start(tmp_path / "arbiter.log")
    try:
        yield server
    finally:
        server.stop()


def test_bots_play_over_tls(
    tls_arbiter: Arbiter, tmp_path: Path, certificate: tuple[Path, Path]
) -> None:
    cert, _ = certificate
    tokens = {name: tls_arbiter.add_bot(name) for name in ("py", "node")}
    bot = start_bot(tls_arbiter, RANDOM, tokens["py"], tmp_path / "py.log", ["--ca", str(cert)])
    try:
        with node_bot(
            tls_arbiter, tokens["node"], tmp_path / "node.log", extra=("--ca", str(cert))
        ):
            stub = tls_arbiter.matches()
            request = match_pb2.CreateMatchRequest(game="magic-trick", rated=True)
            for seat in ("py", "node"):
                request.seats.add(bot=seat)
            request.seats.add(builtin="random")
            match_id = stub.CreateMatch(request, timeout=10).match_id
            match = wait_ended(stub, match_id)
            assert match.status == match_pb2.MATCH_STATUS_FINISHED, tls_arbiter.log()
            assert list(match.faults) == []
    finally:
        bot.kill()
        bot.wait(10)
    plain = grpc.insecure_channel(tls_arbiter.address)
    with pytest.raises(grpc.RpcError) as refused:
        from premiere_wire import match_pb2_grpc

        match_pb2_grpc.MatchServiceStub(plain).GetMatch(
            match_pb2.GetMatchRequest(match_id=match_id), timeout=5
        )
    assert refused.value.code() == grpc.StatusCode.UNAVAILABLE


def test_the_ladder_serves_tls(
    database_url: str, tmp_path: Path, certificate: tuple[Path, Path]
) -> None:
    cert, key = certificate
    http = f"127.0.0.1:{free_port()}"
    env = dict(
        os.environ,
        PREMIERE_DATABASE_URL=database_url,
        PREMIERE_TLS_CERT=str(cert),
        PREMIERE_TLS_KEY=str(key),
        PREMIERE_LADDER_GRPC_ADDRESS=f"127.0.0.1:{free_port()}",
        PREMIERE_LADDER_HTTP_ADDRESS=http,
    )
    log = tmp_path / "ladder.log"
    process = subprocess.Popen(
        [str(BIN / "premiere"), "ladder", "--no-migrate"], env=env, stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    trusted = ssl.create_default_context(cafile=str(cert))
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(
                    f"https://{http}/healthz", context=trusted, timeout=5
                ) as r:
                    assert r.status == 200
                    break
            except (urllib.error.URLError, ConnectionError):
                assert process.poll() is None, log.read_text()
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
        with pytest.raises((urllib.error.URLError, ConnectionError)):
            urllib.request.urlopen(f"http://{http}/healthz", timeout=5)
    finally:
        process.terminate()
        process.wait(15)


def test_a_public_port_without_a_certificate_refuses_to_start(database_url: str) -> None:
    env = dict(os.environ, PREMIERE_DATABASE_URL=database_url)
    env.pop("PREMIERE_PLAINTEXT", None)
    result = subprocess.run(
        [str(BIN / "premiere"), "arbiter", "--no-migrate", "--address", f"0.0.0.0:{free_port()}",
         "--metrics-port", str(free_port())],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode != 0
    assert "PREMIERE_TLS_CERT" in result.stderr + result.stdout
