"""Bundles as hostile input: every archive attack is refused with one error naming its rule,
before anything is written; a good folder packs to the same bytes every time."""

from __future__ import annotations

import gzip
import io
import stat
import tarfile
from collections.abc import Callable
from pathlib import Path

import pytest

from premiere_wire.bundle import MANIFEST, BundleError, Caps, check, pack, parse_manifest, unpack

GOOD = 'name = "probe"\nlanguage = "python"\nentry = "bot:Bot"\ngames = ["magic-trick"]\n'


def archive(*members: tuple[tarfile.TarInfo, bytes | None], manifest: bool = True) -> bytes:
    buffer = io.BytesIO()
    with (
        gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as zipped,
        tarfile.open(fileobj=zipped, mode="w", format=tarfile.GNU_FORMAT) as tar,
    ):
        if manifest:
            info = tarfile.TarInfo(MANIFEST)
            info.size = len(GOOD)
            tar.addfile(info, io.BytesIO(GOOD.encode()))
        for info, data in members:
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    return buffer.getvalue()


def member(name: str, data: bytes = b"x", **fields: object) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    for key, value in fields.items():
        setattr(info, key, value)
    return info, data


def special(name: str, kind: bytes, **fields: object) -> tuple[tarfile.TarInfo, None]:
    info = tarfile.TarInfo(name)
    info.type = kind
    for key, value in fields.items():
        setattr(info, key, value)
    return info, None


ATTACKS: dict[str, tuple[Callable[[], bytes], str]] = {
    "absolute path": (lambda: archive(member("/etc/cron.d/evil")), "absolute path"),
    "climbs out": (lambda: archive(member("../../evil.py")), "climbs out"),
    "climbs out inside": (lambda: archive(member("a/../../evil.py")), "climbs out"),
    "symbolic link": (
        lambda: archive(special("escape", tarfile.SYMTYPE, linkname="/etc/passwd")),
        "is a link",
    ),
    "hard link": (
        lambda: archive(special("escape", tarfile.LNKTYPE, linkname="/etc/shadow")),
        "is a link",
    ),
    "character device": (
        lambda: archive(special("mem", tarfile.CHRTYPE, devmajor=1, devminor=1)),
        "device",
    ),
    "block device": (lambda: archive(special("disk", tarfile.BLKTYPE)), "device"),
    "fifo": (lambda: archive(special("pipe", tarfile.FIFOTYPE)), "device or pipe"),
    "set-uid bit": (lambda: archive(member("tool", mode=0o4755)), "set-id"),
    "set-gid bit": (lambda: archive(member("tool", mode=0o2755)), "set-id"),
    "no manifest": (lambda: archive(member("bot.py"), manifest=False), "no premiere-bot.toml"),
    "duplicate": (lambda: archive(member("bot.py"), member("./bot.py")), "twice"),
    "file and folder": (lambda: archive(member("lib"), member("lib/x.py")), "both a file"),
    "not gzip": (lambda: b"PK\x03\x04 a zip file", "not a gzip-compressed tar"),
    "truncated": (lambda: archive(member("bot.py", b"y" * 5000))[:-40], "not a gzip"),
    "backslash": (lambda: archive(member("a\\..\\..\\x")), "backslash"),
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_each_archive_attack_is_refused_naming_its_rule(attack: str, tmp_path: Path) -> None:
    make, rule = ATTACKS[attack]
    data = make()
    with pytest.raises(BundleError, match=rule):
        check(data)
    target = tmp_path / "out"
    with pytest.raises(BundleError):
        unpack(data, __import__("hashlib").sha256(data).hexdigest(), target)
    assert not target.exists() or not any(target.iterdir())


def test_a_decompression_bomb_stops_at_the_cap_not_after_it() -> None:
    # 64 MiB of zeros compress to about 64 KiB; the cap is 8 MiB.
    bomb = archive(member("zeros", bytes(64 << 20)))
    assert len(bomb) < 1 << 20
    with pytest.raises(BundleError, match="unpacked size over the cap"):
        check(bomb, Caps(max_unpacked_bytes=8 << 20))


def test_size_and_count_caps() -> None:
    many = archive(*(member(f"f{i}.py") for i in range(50)))
    with pytest.raises(BundleError, match="more than 20 files"):
        check(many, Caps(max_files=20))
    with pytest.raises(BundleError, match="archive over the cap"):
        check(many, Caps(max_bytes=100))
    with pytest.raises(BundleError, match="longer than"):
        check(archive(member("a" * 300)))


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("name = 'x'\nlanguage = 'ruby'\nentry = 'a'\n", "language must be one of"),
        ("name = '../x'\nlanguage = 'python'\nentry = 'a:B'\n", "name must be"),
        ("name = 'x'\nlanguage = 'python'\nentry = 'os.system'\n", "module:Class"),
        ("name = 'x'\nlanguage = 'node'\nentry = '/usr/bin/node'\n", "absolute path"),
        ("name = 'x'\nlanguage = 'binary'\nentry = '../bin'\n", "climbs out"),
        ("name = 'x'\nlanguage = 'python'\nentry = 'a:B'\nlimits = {memory_mb = -1}\n", "positive"),
        ("name = 'x'\nlanguage = 'python'\nentry = 'a:B'\nlimits = {gpu = 1}\n", "unknown limit"),
        ("name = 'x'\nlanguage = 'python'\nentry = 'a:B'\nnetwork = true\n", "unknown key"),
        ("name = 'x'\nlanguage = 'python'\nentry = 'a:B'\ngames = 'all'\n", "games is a list"),
        ("name = [", "not valid TOML"),
    ],
)
def test_manifest_errors_name_the_field(text: str, rule: str) -> None:
    with pytest.raises(BundleError, match=rule):
        parse_manifest(text)


def bundle_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "bot"
    (folder / "lib").mkdir(parents=True)
    (folder / MANIFEST).write_text(GOOD)
    (folder / "bot.py").write_text("print('hi')\n")
    (folder / "lib" / "run.sh").write_text("#!/bin/sh\n")
    (folder / "lib" / "run.sh").chmod(0o755)
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "bot.cpython-311.pyc").write_bytes(b"\0")
    return folder


def test_pack_is_deterministic_and_unpack_is_read_only(tmp_path: Path) -> None:
    folder = bundle_folder(tmp_path)
    first = pack(folder)
    (folder / "bot.py").touch()  # a new mtime changes nothing
    assert pack(folder) == first
    checked = check(first)
    assert checked.manifest.games == ("magic-trick",) and checked.files == 4
    target = tmp_path / "unpacked"
    unpack(first, checked.sha256, target)
    assert (target / "bot.py").read_text() == "print('hi')\n"
    assert not (target / "__pycache__").exists()
    assert stat.S_IMODE((target / "bot.py").stat().st_mode) == 0o444
    assert stat.S_IMODE((target / "lib" / "run.sh").stat().st_mode) == 0o555
    assert stat.S_IMODE((target / "lib").stat().st_mode) == 0o555


def test_unpack_verifies_the_digest(tmp_path: Path) -> None:
    data = pack(bundle_folder(tmp_path))
    with pytest.raises(BundleError, match="SHA-256 does not match"):
        unpack(data, "0" * 64, tmp_path / "out")


def test_pack_refuses_a_link_before_upload(tmp_path: Path) -> None:
    folder = bundle_folder(tmp_path)
    (folder / "secrets").symlink_to("/etc/passwd")
    with pytest.raises(BundleError, match="is a link"):
        pack(folder)
