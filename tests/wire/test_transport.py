"""Premiere's processes ask gRPC for its poller transport before gRPC is first imported, and an
operator's own `GRPC_EXPERIMENTS` (even empty) wins."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from premiere_wire.transport import EXPERIMENTS

SHOW = "import os, {package}, grpc; print(repr(os.environ.get('GRPC_EXPERIMENTS')))"


@pytest.mark.parametrize("package", ["premiere", "bench"])
def test_importing_an_entry_package_sets_the_default(package: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "GRPC_EXPERIMENTS"}
    shown = subprocess.run(
        [sys.executable, "-c", SHOW.format(package=package)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert shown == repr(EXPERIMENTS)


@pytest.mark.parametrize("mine", ["", "-event_engine_dns"])
def test_an_operators_setting_wins(mine: str) -> None:
    env = {**os.environ, "GRPC_EXPERIMENTS": mine}
    shown = subprocess.run(
        [sys.executable, "-c", SHOW.format(package="premiere")],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert shown == repr(mine)
