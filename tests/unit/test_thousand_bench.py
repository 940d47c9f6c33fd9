"""bench.thousand's goal row compares like with like: both runs while all their matches were
live, or, when either had no such window, both over their whole runs."""

from __future__ import annotations

from bench.thousand import live_or_whole


def run(live: float, whole: float, window: float) -> dict[str, float]:
    return {"live_per_second": live, "per_second": whole, "live_window": window}


def test_both_windows_compare_live_figures() -> None:
    assert live_or_whole(run(3000, 2500, 1.0), run(2800, 2600, 1.0)) == (3000, 2800, False)


def test_a_missing_window_compares_whole_runs_on_both_sides() -> None:
    # The thousand's live figure falls back to its whole run; the few's must too.
    assert live_or_whole(run(2646, 2646, 0.0), run(3029, 2350, 1.0)) == (2646, 2350, True)
    # The few are the mean of two runs: one without a window is no window.
    assert live_or_whole(run(3000, 2500, 1.0), run(2800, 2600, 0.5)) == (2500, 2600, True)
