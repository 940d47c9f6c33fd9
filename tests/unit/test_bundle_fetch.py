"""hosting/fetch.py: a hosted Pod's init container fetches its bundle from the runner with a
one-time key, over a real HTTP server on loopback, and unpacks it only if the digest holds."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from hosting.fetch import KEY_ENV, BundleServer, Grants, fetch
from premiere.cli import main
from premiere_wire.bundle import BundleError, digest, pack


def make_bundle(folder: Path, name: str = "fetched") -> bytes:
    folder.mkdir()
    (folder / "premiere-bot.toml").write_text(
        f'name = "{name}"\nlanguage = "python"\nentry = "mybot:MyBot"\n'
    )
    (folder / "mybot.py").write_text("class MyBot:\n    pass\n")
    return pack(folder)


class Served:
    """A BundleServer on 127.0.0.1 in a thread of its own, over ``bundles``."""

    def __init__(
        self, bundles: dict[str, bytes], read: Callable[[str], bytes | None] | None = None
    ):
        self.grants = Grants()
        self.loop = asyncio.new_event_loop()
        self.server = BundleServer(self.grants, read or bundles.get, "127.0.0.1", 0)
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self.server.start(), self.loop).result(10)
        self.url = f"http://127.0.0.1:{self.server.port}"

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self.server.close(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


@pytest.fixture
def bundle(tmp_path: Path) -> tuple[str, bytes]:
    data = make_bundle(tmp_path / "src")
    return digest(data), data


@pytest.fixture
def served(bundle: tuple[str, bytes]) -> Iterator[Served]:
    sha256, data = bundle
    server = Served({sha256: data})
    yield server
    server.close()


def test_a_granted_key_fetches_and_unpacks_once(
    served: Served, bundle: tuple[str, bytes], tmp_path: Path
) -> None:
    sha256, _ = bundle
    key = served.grants.grant(sha256)
    checked = fetch(served.url, sha256, key, tmp_path / "bot")
    assert checked.manifest.name == "fetched" and checked.sha256 == sha256
    assert (tmp_path / "bot" / "mybot.py").read_text() == "class MyBot:\n    pass\n"
    assert not (tmp_path / "bot" / "mybot.py").stat().st_mode & 0o222, "unpacked read-only"
    with pytest.raises(BundleError, match="403"):
        fetch(served.url, sha256, key, tmp_path / "again")
    assert not (tmp_path / "again").exists()
    assert len(served.grants) == 0


def test_no_key_a_wrong_key_or_a_revoked_key_gets_nothing(
    served: Served, bundle: tuple[str, bytes], tmp_path: Path
) -> None:
    sha256, _ = bundle
    for key in ("", "guessed", served.grants.grant("0" * 64)):
        with pytest.raises(BundleError, match="403"):
            fetch(served.url, sha256, key, tmp_path / "bot")
    key = served.grants.grant(sha256)
    served.grants.revoke(key)
    with pytest.raises(BundleError, match="403"):
        fetch(served.url, sha256, key, tmp_path / "bot")
    assert not (tmp_path / "bot").exists()


def test_a_key_for_one_bundle_does_not_open_another(tmp_path: Path) -> None:
    mine = make_bundle(tmp_path / "mine", "mine")
    theirs = make_bundle(tmp_path / "theirs", "theirs")
    server = Served({digest(mine): mine, digest(theirs): theirs})
    try:
        key = server.grants.grant(digest(mine))
        with pytest.raises(BundleError, match="403"):
            fetch(server.url, digest(theirs), key, tmp_path / "bot")
        assert fetch(server.url, digest(mine), key, tmp_path / "bot").manifest.name == "mine"
    finally:
        server.close()


def test_bytes_that_do_not_match_the_digest_are_refused(
    bundle: tuple[str, bytes], tmp_path: Path
) -> None:
    sha256, _ = bundle
    other = make_bundle(tmp_path / "other", "other")
    server = Served({}, read=lambda _sha: other)
    try:
        key = server.grants.grant(sha256)
        with pytest.raises(BundleError, match="does not match"):
            fetch(server.url, sha256, key, tmp_path / "bot")
        assert not (tmp_path / "bot").exists()
    finally:
        server.close()


def test_an_unknown_digest_is_not_found(served: Served, tmp_path: Path) -> None:
    key = served.grants.grant("f" * 64)
    with pytest.raises(BundleError, match="404"):
        fetch(served.url, "f" * 64, key, tmp_path / "bot")


def test_keys_expire_and_hold_only_hashes() -> None:
    now = [0.0]
    grants = Grants(ttl_s=10, clock=lambda: now[0])
    key = grants.grant("a" * 64)
    assert key not in str(vars(grants))
    now[0] = 11
    assert not grants.take(key, "a" * 64)
    with pytest.raises(ValueError):
        grants.grant("../etc/passwd")


def test_fetch_refuses_what_is_not_an_http_url(tmp_path: Path) -> None:
    with pytest.raises(BundleError, match="http"):
        fetch("file:///etc", "a" * 64, "k", tmp_path / "bot")


def test_premiere_fetch_bundle(served: Served, bundle: tuple[str, bytes], tmp_path: Path) -> None:
    sha256, _ = bundle
    target = tmp_path / "bot"
    args = ["fetch-bundle", served.url, sha256, str(target)]
    missing = CliRunner().invoke(main, args, env={KEY_ENV: ""})
    assert missing.exit_code == 1 and KEY_ENV in missing.output
    key = served.grants.grant(sha256)
    done = CliRunner().invoke(main, args, env={KEY_ENV: key})
    assert done.exit_code == 0, done.output
    assert f"unpacked fetched ({sha256[:12]})" in done.output
    assert (target / "premiere-bot.toml").is_file()
    again = CliRunner().invoke(main, [*args[:-1], str(tmp_path / "again")], env={KEY_ENV: key})
    assert again.exit_code == 1 and "403" in again.output


def test_the_runners_probe_is_answered(served: Served) -> None:
    import urllib.request

    with urllib.request.urlopen(f"{served.url}/healthz", timeout=10) as response:
        assert response.read() == b"ok\n"
