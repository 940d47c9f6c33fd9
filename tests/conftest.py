"""Suite-wide fixtures, and the end of every process the run started.

Each pytest process (each xdist worker too), when it exits (normally, on Ctrl-C or on
SIGTERM), stops what its tests spawned and still runs, then ends whatever else is still below
it. An orphan (a process whose parent died first) is not below it any more: `make test` runs
under tests/guard.py, which adopts orphans and ends them. (pytest itself does not adopt: it
would have to collect their exits, and the tests' own Popen objects collect theirs.)"""

from __future__ import annotations

import atexit
import os
import signal
from collections.abc import Iterator
from types import FrameType

import pytest
from hypothesis import settings

from premiere.children import end_descendants
from tests.processes import mark, stop_all, stop_since

# Hypothesis's per-example deadline (200 ms) measures how loaded the machine is, not the code:
# on two busy cores a first call took 274 ms and its repeat 0.5 ms. What must be fast has a
# timing test of its own.
settings.register_profile("premiere", deadline=None)
settings.load_profile("premiere")

# The ladder's per-client HTTP limits stay on in every process the tests start (their
# middleware and Redis counters run), but far above what any test asks: every test's clients
# are 127.0.0.1 and count together in one Redis. The limits' own test
# (tests/spectator/test_api_hygiene.py) sets tiny ones.
for _cost in ("CHEAP", "EXPENSIVE", "PAGES"):
    os.environ.setdefault(f"PREMIERE_RATE_LIMIT_{_cost}", "100000/minute")


def _end_everything() -> None:
    stop_all()
    end_descendants()


def _interrupted(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def pytest_configure(config: pytest.Config) -> None:
    # Registered first, so it runs last: after the private servers' own stop (services.py).
    atexit.register(_end_everything)
    # A run started in the background of a script (`make test &`, nohup) inherits SIGINT
    # ignored, and so would every process it starts: the tests that press Ctrl-C on a child
    # (`premiere up`, the guard, the demo) would wait out their timeouts. A handler of Python's
    # own is reset by exec, so the children start as from a terminal.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    for signum in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(signum) == signal.SIG_DFL:
            signal.signal(signum, _interrupted)


LONGEST_FIRST = (
    "tests/integration/test_newcomer.py",
    "tests/integration/test_hosted.py",
    "tests/integration/test_up_interrupted.py",
    "tests/spectator/test_watching.py",
    "tests/spectator/test_rough_edges.py",
    "tests/integration/test_events.py",
    "tests/spectator/test_exports.py",
    "tests/integration/test_stack.py",
    "tests/integration/test_bench_quick.py",
    "tests/partitions/test_partitions.py",
)
"""The modules whose tests take longest (one to four minutes each on two shared cores), run
first: a worker that starts one of them last keeps the whole run waiting for it, while one
that starts them first leaves the short tests to share out at the end (xdist's worksteal
takes them from its queue for the idle worker)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Whole modules move, in their own order, so their module fixtures are made once."""

    def rank(item: pytest.Item) -> int:
        module = item.nodeid.split("::")[0]
        return LONGEST_FIRST.index(module) if module in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """After the fixtures' own clean-up (an interrupted session's included)."""
    stop_all()


@pytest.fixture(autouse=True)
def _no_process_outlives_its_test() -> Iterator[None]:
    """Function-scoped, so it is set up after every wider fixture of the test and stops only
    what the test and its function-scoped fixtures spawned."""
    start = mark()
    yield
    stop_since(start)
