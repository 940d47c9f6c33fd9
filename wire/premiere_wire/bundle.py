"""Hosted-bot bundles: the manifest, the archive an author uploads, and the checks every
archive passes before a byte of it is stored or run.

A bundle is a folder with ``premiere-bot.toml`` at its root. It travels as a gzip-compressed
tar made by ``pack`` (sorted, owner 0, time 0, so the same folder gives the same bytes and the
same SHA-256). ``check`` reads an archive as hostile input: it refuses, with one
``BundleError`` naming the rule, anything but plain files and folders below the root, set-id
bits, more than the caps allow (compressed, unpacked, files, path length), and an invalid
manifest. It decompresses through a counting reader, so a decompression bomb is stopped at the
cap, not after it. ``unpack`` verifies the digest, checks again, and writes read-only files.

Shared by the SDK (``premiere-bot bundle check`` and ``upload``) and the server, which keeps
its own caps (``Caps``) and never trusts what the SDK checked.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import re
import stat
import tarfile
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import IO, Any

__all__ = [
    "LANGUAGES",
    "MANIFEST",
    "BundleError",
    "Caps",
    "Checked",
    "Limits",
    "Manifest",
    "check",
    "digest",
    "pack",
    "parse_manifest",
    "unpack",
]

MANIFEST = "premiere-bot.toml"
LANGUAGES = ("python", "node", "binary")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_GAME = re.compile(r"[a-z][a-z0-9-]{0,39}")
_PYTHON_ENTRY = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*:[A-Za-z_][A-Za-z0-9_]*")
_VERSION = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,31}")


class BundleError(ValueError):
    """A bundle refused: the message names the rule it broke."""


@dataclass(frozen=True)
class Caps:
    """What one bundle may be. The server's are the arena's (``PREMIERE_BUNDLE_*``)."""

    max_bytes: int = 32 << 20
    """Compressed archive."""
    max_unpacked_bytes: int = 128 << 20
    max_files: int = 4000
    max_path: int = 240


@dataclass(frozen=True)
class Limits:
    """What a bundle asks for; zero means the pool's value. Never above the arena's maxima
    (``hosting.sandbox.Pool``), and CPU is never asked: every bot of a pool gets the same."""

    memory_mb: int = 0
    processes: int = 0
    open_files: int = 0
    scratch_mb: int = 0
    max_matches: int = 0


@dataclass(frozen=True)
class Manifest:
    name: str
    language: str
    entry: str
    """python: ``module:Class``; node: a script; binary: an executable; paths inside the bundle."""
    games: tuple[str, ...]
    """The games it plays; () is every game."""
    version: str = ""
    limits: Limits = field(default_factory=Limits)


@dataclass(frozen=True)
class Checked:
    manifest: Manifest
    sha256: str
    size: int
    unpacked: int
    files: int


def _fail(rule: str) -> BundleError:
    return BundleError(rule)


def parse_manifest(text: str) -> Manifest:
    """The manifest ``premiere-bot.toml`` holds, or BundleError saying what is wrong."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise _fail(f"{MANIFEST}: not valid TOML ({error})") from None
    known = {"name", "language", "entry", "games", "version", "limits"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise _fail(f"{MANIFEST}: unknown key {unknown[0]!r} (known: {', '.join(sorted(known))})")
    name = data.get("name")
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise _fail(
            f"{MANIFEST}: name must be 1-64 letters, digits and . _ - starting with a letter"
            " or digit"
        )
    language = data.get("language")
    if language not in LANGUAGES:
        raise _fail(f"{MANIFEST}: language must be one of {', '.join(LANGUAGES)}")
    entry = data.get("entry")
    if not isinstance(entry, str) or not entry:
        raise _fail(f"{MANIFEST}: entry is required (python: module:Class; node, binary: a path)")
    if language == "python":
        if not _PYTHON_ENTRY.fullmatch(entry):
            raise _fail(f"{MANIFEST}: a python entry is module:Class, such as mybot:MyBot")
    else:
        _relative(entry, f"{MANIFEST}: entry")
    games = data.get("games", [])
    if not isinstance(games, list) or not all(
        isinstance(g, str) and _GAME.fullmatch(g) for g in games
    ):
        raise _fail(f'{MANIFEST}: games is a list of game ids, such as ["magic-trick"]')
    if len(set(games)) != len(games) or len(games) > 16:
        raise _fail(f"{MANIFEST}: games must name each game once")
    version = data.get("version", "")
    if not isinstance(version, str) or (version and not _VERSION.fullmatch(version)):
        raise _fail(f"{MANIFEST}: version is 1-32 letters, digits and . _ + -")
    return Manifest(name, language, entry, tuple(games), version, _limits(data.get("limits", {})))


def _limits(table: Any) -> Limits:
    if not isinstance(table, dict):
        raise _fail(f"{MANIFEST}: [limits] is a table")
    names = {f for f in Limits.__dataclass_fields__}
    values: dict[str, int] = {}
    for key, value in table.items():
        if key not in names:
            raise _fail(f"{MANIFEST}: unknown limit {key!r} (known: {', '.join(sorted(names))})")
        if not isinstance(value, int) or isinstance(value, bool) or not 0 < value < 1 << 31:
            raise _fail(f"{MANIFEST}: limits.{key} must be a positive whole number")
        values[key] = value
    return Limits(**values)


def _relative(path: str, what: str) -> PurePosixPath:
    if "\\" in path or "\x00" in path:
        raise _fail(f"{what}: {path[:80]!r} holds a backslash or NUL")
    pure = PurePosixPath(path)
    if pure.is_absolute():
        raise _fail(f"{what}: {path[:80]!r} is an absolute path")
    if ".." in pure.parts:
        raise _fail(f"{what}: {path[:80]!r} climbs out of the bundle (..)")
    if not pure.parts or pure.parts == (".",):
        raise _fail(f"{what}: empty path")
    return pure


class _Counting(io.RawIOBase):
    """The decompressed stream, refusing to give more than ``limit`` bytes."""

    def __init__(self, inner: IO[bytes] | gzip.GzipFile, limit: int) -> None:
        self.inner = inner
        self.limit = limit
        self.count = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.inner.read(min(len(buffer), 1 << 16))
        self.count += len(data)
        if self.count > self.limit:
            raise _fail(f"unpacked size over the cap of {self.limit >> 20} MiB (a bomb?)")
        buffer[: len(data)] = data
        return len(data)


def _members(data: bytes, caps: Caps) -> Iterator[tuple[tarfile.TarFile, tarfile.TarInfo]]:
    if len(data) > caps.max_bytes:
        raise _fail(f"archive over the cap of {caps.max_bytes >> 20} MiB")
    # Headers and padding count too: a tar of many empty files is bounded like their contents.
    raw = _Counting(gzip.GzipFile(fileobj=io.BytesIO(data)), caps.max_unpacked_bytes + (8 << 20))
    try:
        with tarfile.open(fileobj=io.BufferedReader(raw), mode="r|") as archive:
            for member in archive:
                yield archive, member
    except (tarfile.TarError, OSError, EOFError, gzip.BadGzipFile) as error:
        raise _fail(
            f"not a gzip-compressed tar archive ({type(error).__name__}: {error})"
        ) from None


def _check_member(member: tarfile.TarInfo, caps: Caps) -> PurePosixPath:
    name = member.name
    if len(name) > caps.max_path:
        raise _fail(f"path {name[:60]!r}... longer than {caps.max_path} characters")
    path = _relative(name, "path")
    if member.issym() or member.islnk():
        raise _fail(f"{name[:80]!r} is a link: bundles hold plain files and folders only")
    if member.ischr() or member.isblk() or member.isfifo():
        raise _fail(f"{name[:80]!r} is a device or pipe: bundles hold plain files and folders only")
    if member.issparse() or not (member.isfile() or member.isdir()):
        raise _fail(f"{name[:80]!r} is not a plain file or folder")
    if member.mode & (stat.S_ISUID | stat.S_ISGID | stat.S_ISVTX):
        raise _fail(f"{name[:80]!r} has a set-id or sticky bit")
    return PurePosixPath(*[p for p in path.parts if p != "."])


def check(data: bytes, caps: Caps = Caps()) -> Checked:
    """Every rule a bundle must keep, without writing anything; its manifest and digest."""
    files = 0
    unpacked = 0
    seen: set[PurePosixPath] = set()
    plain: set[PurePosixPath] = set()
    manifest_text: str | None = None
    for archive, member in _members(data, caps):
        path = _check_member(member, caps)
        if path in seen:
            raise _fail(f"{member.name[:80]!r} appears twice")
        seen.add(path)
        if member.isfile():
            plain.add(path)
        files += 1
        if files > caps.max_files:
            raise _fail(f"more than {caps.max_files} files and folders")
        unpacked += member.size
        if unpacked > caps.max_unpacked_bytes:
            raise _fail(f"unpacked size over the cap of {caps.max_unpacked_bytes >> 20} MiB")
        if member.isfile() and str(path) == MANIFEST:
            source = archive.extractfile(member)
            assert source is not None
            raw = source.read(64 << 10)
            try:
                manifest_text = raw.decode()
            except UnicodeDecodeError:
                raise _fail(f"{MANIFEST} is not UTF-8 text") from None
    for path in seen:
        for parent in path.parents:
            if parent in plain:
                raise _fail(f"{str(parent)[:80]!r} is both a file and a folder")
    if manifest_text is None:
        raise _fail(f"no {MANIFEST} at the bundle's root")
    manifest = parse_manifest(manifest_text)
    if manifest.language != "python" and PurePosixPath(manifest.entry) not in seen:
        raise _fail(f"{MANIFEST}: entry {manifest.entry!r} is not a file of the bundle")
    return Checked(manifest, digest(data), len(data), unpacked, files)


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def pack(folder: Path, caps: Caps = Caps()) -> bytes:
    """The folder as a bundle archive, the same bytes for the same content. Links, devices
    and anything else but files and folders are refused here already, so an author hears
    of them before uploading; caches (``__pycache__``, ``.git``) are left out."""
    folder = folder.resolve()
    if not (folder / MANIFEST).is_file():
        raise _fail(f"no {MANIFEST} in {folder}")
    parse_manifest((folder / MANIFEST).read_text())
    buffer = io.BytesIO()
    with (
        gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0, compresslevel=6) as zipped,
        tarfile.open(fileobj=zipped, mode="w", format=tarfile.PAX_FORMAT) as archive,
    ):
        for path in _walk(folder):
            relative = path.relative_to(folder).as_posix()
            info = archive.gettarinfo(str(path), arcname=relative)
            if info.issym():
                raise _fail(f"{relative!r} is a link: bundles hold plain files and folders only")
            regular = path.is_file()
            if not (regular or path.is_dir()) or not (
                info.isfile() or info.isdir() or info.islnk()
            ):
                raise _fail(f"{relative!r} is not a plain file or folder")
            info.type = tarfile.REGTYPE if regular else tarfile.DIRTYPE
            info.linkname = ""
            info.size = path.stat().st_size if regular else 0
            info.mode = 0o755 if info.isdir() or info.mode & 0o111 else 0o644
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            info.mtime = 0
            info.pax_headers = {}
            if info.isfile():
                with path.open("rb") as source:
                    archive.addfile(info, source)
            else:
                archive.addfile(info)
    data = buffer.getvalue()
    check(data, caps)
    return data


_SKIPPED = {"__pycache__", ".git", ".mypy_cache", ".pytest_cache", ".ruff_cache"}


def _walk(folder: Path) -> Iterator[Path]:
    for root, dirs, names in os.walk(folder, followlinks=False):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED)
        base = Path(root)
        for d in dirs:
            if (base / d).is_symlink():
                raise _fail(f"{(base / d).relative_to(folder)!s} is a link")
            yield base / d
        for name in sorted(names):
            if name.endswith(".pyc"):
                continue
            if (base / name).is_symlink():
                raise _fail(f"{(base / name).relative_to(folder)!s} is a link")
            yield base / name


def unpack(data: bytes, sha256: str, target: Path, caps: Caps = Caps()) -> Checked:
    """Write the bundle into the empty folder ``target``: its digest verified first, every
    rule checked again, files read-only (executable where the archive says so)."""
    if digest(data) != sha256:
        raise _fail("the bundle's SHA-256 does not match its name: refused")
    checked = check(data, caps)
    target.mkdir(parents=True, exist_ok=True)
    if any(target.iterdir()):
        raise _fail(f"{target} is not empty")
    folders: list[Path] = []
    for archive, member in _members(data, caps):
        path = target.joinpath(*_check_member(member, caps).parts)
        if member.isdir():
            path.mkdir(parents=True, exist_ok=True)
            folders.append(path)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        source = archive.extractfile(member)
        assert source is not None
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        mode = 0o555 if member.mode & 0o111 else 0o444
        with os.fdopen(os.open(path, flags, 0o600), "wb") as out:
            while chunk := source.read(1 << 16):
                out.write(chunk)
        os.chmod(path, mode)
    for folder in sorted(folders, key=lambda p: len(p.parts), reverse=True):
        os.chmod(folder, 0o555)
    return checked
