"""Standings on pinned anchors' scale (ladder.standings, ``anchor`` as a mapping of pins): the
anchors land on their pins when the pins match their strengths, and two independent ladders
of the same game, however different their fields, report the same numbers within intervals."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ladder.standings import Standings, compile_log, fit, fold, pinned_offset

TO_ELO = 400 / math.log(10)
PINS = {"low": 1800.0, "high": 2200.0}


def _ladder(seed: int, truth: dict[str, float], matches: int) -> list[dict[str, int]]:
    """Four-player matches among ``truth``'s bots, finishing orders drawn from Plackett-Luce
    (strengths plus Gumbel noise, sorted)."""
    rng = np.random.default_rng(seed)
    names = list(truth)
    theta = np.array([truth[name] / TO_ELO for name in names])
    log = []
    for _ in range(matches):
        seats = rng.choice(len(names), size=4, replace=False)
        noisy = theta[seats] + rng.gumbel(size=4)
        ranks = np.argsort(np.argsort(-noisy)) + 1
        log.append({names[s]: int(r) for s, r in zip(seats, ranks, strict=True)})
    return log


def _field(extra: dict[str, float]) -> dict[str, float]:
    return {**PINS, "ann": 1950.0, "bob": 2100.0, "cyd": 2300.0, **extra}


def test_the_offset_is_least_squares_over_the_pins() -> None:
    assert pinned_offset({"a": 1300.0, "b": 1700.0}, {"a": -210.0, "b": 190.0}) == 1510.0
    assert pinned_offset({"a": 1300.0, "gone": 9.0}, {"a": 100.0, "z": 5.0}) == 1200.0
    with pytest.raises(ValueError, match="pinned"):
        pinned_offset({"gone": 1.0}, {"a": 0.0})


def test_anchors_pinned_as_far_apart_as_their_strengths_come_out_at_their_pins() -> None:
    standings = fit(compile_log(_ladder(1, _field({}), 3000)), anchor=PINS)
    by_bot = standings.by_bot()
    for name, pin in PINS.items():
        assert by_bot[name].low <= pin <= by_bot[name].high
        assert by_bot[name].rating == pytest.approx(pin, abs=25.0)
    assert (by_bot["low"].rating + by_bot["high"].rating) / 2 == pytest.approx(2000.0, abs=1e-9)
    for name, true in _field({}).items():
        assert by_bot[name].low <= true <= by_bot[name].high, name


def _same_within_intervals(one: Standings[str], two: Standings[str], names: list[str]) -> bool:
    a, b = one.by_bot(), two.by_bot()
    return all(
        abs(a[n].rating - b[n].rating) <= 1.96 * math.hypot(a[n].stderr, b[n].stderr) for n in names
    )


def test_two_independent_ladders_of_one_game_report_comparable_numbers() -> None:
    """The second ladder also holds four weak bots, which drag its field's mean down: on the
    default anchor (the field's mean at 1500) everybody else's number rises by about 150; on
    the anchors' scale the same bots read the same, within their intervals."""
    weak = {f"weak{i}": 1500.0 for i in range(4)}
    first = compile_log(_ladder(2, _field({}), 3000))
    second = compile_log(_ladder(3, _field(weak), 5000))
    names = ["ann", "bob", "cyd", *PINS]
    assert _same_within_intervals(fit(first, anchor=PINS), fit(second, anchor=PINS), names)
    assert not _same_within_intervals(fit(first), fit(second), names)


def test_a_folded_fit_and_a_stored_posterior_report_on_the_same_scale() -> None:
    log = _ladder(4, _field({}), 2000)
    exact = fit(compile_log(log), anchor=PINS)
    base = fit(compile_log(log[:1950]), anchor=PINS)
    assert base.posterior is not None
    folded = fold(base.posterior, log[1950:], anchor=PINS).by_bot()
    for name, entry in exact.by_bot().items():
        assert folded[name].rating == pytest.approx(entry.rating, abs=0.1)
        assert folded[name].stderr == pytest.approx(entry.stderr, rel=0.02)
    assert exact.posterior is not None
    again = fold(exact.posterior, (), anchor=PINS).by_bot()
    for name, entry in exact.by_bot().items():
        assert again[name].rating == pytest.approx(entry.rating, abs=1e-6)


def test_pins_absent_from_the_log_leave_the_default_anchor() -> None:
    log = compile_log([{"ann": 1, "bob": 2}, {"bob": 1, "ann": 2}])
    assert fit(log, anchor={"ghost": 2000.0}).by_bot() == fit(log).by_bot()
    partly = fit(log, anchor={"ann": 1600.0, "ghost": 100.0}).by_bot()
    assert partly["ann"].rating == pytest.approx(1600.0)
