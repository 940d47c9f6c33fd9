"""SPRT head-to-head pairs: two bots, each pair of games on one deal with their seats swapped.

A round holds ``pairs`` pairs. Pair k of round r is two tables sharing one match seed (one deal)
and one group name. For N seats the table is a cycle: the candidates ``a`` and ``b`` sit next to
each other and the ``fillers`` (fixed built-ins, N - 2 of them, in their given order) fill the
rest; the cycle is turned by one seat for every pair played, so over every N consecutive pairs
each candidate sits in every seat exactly once in each order. The pair's second table is the
first with ``a`` and ``b`` exchanged, fillers unmoved: within a pair, each candidate held the
other's seat and cards, which is what cancels the deal's luck and the seat's advantage.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from games.rng import Seed, derive_seed
from workers import sprt as test
from workers.formats._common import BotId, Table, check_bots, check_seats
from workers.formats.declaration import (
    Figure,
    Groups,
    LeagueFormat,
    Listing,
    Progress,
    RoundRequest,
    Series,
    Shown,
    as_tables,
)
from workers.formats.declaration import Table as LeagueTable

__all__ = ["FORMAT", "SPRT_DEFAULTS", "sprt_pair_tables"]


def sprt_pair_tables(
    a: BotId,
    b: BotId,
    fillers: Sequence[BotId],
    seed: Seed,
    *,
    first_pair: int,
    pairs: int,
) -> tuple[Table, ...]:
    """The ``2 * pairs`` tables of pairs ``first_pair .. first_pair + pairs - 1`` (counted over
    the whole test, from 0), two consecutive tables per pair."""
    seats = len(fillers) + 2
    check_seats(seats)
    check_bots([a, b, *fillers])
    if pairs < 1 or first_pair < 0:
        raise ValueError("pairs must be >= 1 and first_pair >= 0")
    base = [a, b, *fillers]
    tables: list[Table] = []
    for k in range(first_pair, first_pair + pairs):
        turn = k % seats
        order = base[-turn:] + base[:-turn] if turn else list(base)
        swapped = [b if bot == a else a if bot == b else bot for bot in order]
        match_seed = derive_seed("premiere-sprt", seed, k)
        group = f"pair{k}"
        tables.append(Table(tuple(order), match_seed, group))
        tables.append(Table(tuple(swapped), match_seed, group))
    return tuple(tables)


# --- the league format -------------------------------------------------------------------------


SPRT_DEFAULTS: dict[str, Any] = {
    "elo0": 0.0,
    "elo1": 10.0,
    "alpha": 0.05,
    "beta": 0.05,
    "pairs_per_round": 4,
    "max_pairs": 2000,
}


def _settings(bots: Sequence[str], players: int, settings: Mapping[str, Any]) -> dict[str, Any]:
    """Two candidates, then exactly ``players - 2`` built-ins that fill the other seats."""
    unknown = set(settings) - set(SPRT_DEFAULTS)
    if unknown:
        raise ValueError(
            f"unknown sprt setting {', '.join(sorted(unknown))}; it takes"
            f" {', '.join(SPRT_DEFAULTS)}"
        )
    resolved = {**SPRT_DEFAULTS, **settings}
    try:
        test.SprtParams(
            float(resolved["elo0"]),
            float(resolved["elo1"]),
            float(resolved["alpha"]),
            float(resolved["beta"]),
        )
    except (TypeError, ValueError) as error:
        raise ValueError(f"sprt: {error}") from None
    for name in ("pairs_per_round", "max_pairs"):
        value = resolved[name]
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 100_000:
            raise ValueError(f"sprt: {name} is a whole number from 1 to 100000, not {value!r}")
    if len(bots) != players:
        raise ValueError(
            f"an sprt league lists the two bots to compare, then {players - 2} built-in"
            f" filler(s) for the other seats of a {players}-seat table ({len(bots)} given)"
        )
    fillers = bots[2:]
    if any(not bot.startswith("builtin:") for bot in fillers):
        raise ValueError("an sprt league fills the seats beyond the two compared with built-ins")
    for name in ("elo0", "elo1", "alpha", "beta"):
        resolved[name] = float(resolved[name])
    return resolved


def _params(settings: Mapping[str, Any]) -> test.SprtParams:
    merged = {**SPRT_DEFAULTS, **settings}
    return test.SprtParams(merged["elo0"], merged["elo1"], merged["alpha"], merged["beta"])


def _plan(request: RoundRequest) -> list[LeagueTable]:
    per_round = int({**SPRT_DEFAULTS, **request.settings}["pairs_per_round"])
    a, b, *fillers = request.bots
    return as_tables(
        sprt_pair_tables(
            a,
            b,
            fillers,
            derive_seed(request.seed, "sprt"),
            first_pair=(request.number - 1) * per_round,
            pairs=per_round,
        )
    )


def _rounds(settings: Mapping[str, Any]) -> int:
    merged = {**SPRT_DEFAULTS, **settings}
    return math.ceil(int(merged["max_pairs"]) / int(merged["pairs_per_round"]))


def _progress(bots: Sequence[str], groups: Groups, settings: Mapping[str, Any]) -> Progress:
    """The test so far over the whole pairs (a pair with a void table does not count: half a
    pair does not cancel the deal)."""
    a, b = bots[0], bots[1]
    scores = []
    for _group, tables in groups:
        if len(tables) != 2:
            continue
        games = []
        for seats, ranks in tables:
            games.append((ranks[seats.index(a)], ranks[seats.index(b)]))
        scores.append(test.pair_score(games[0], games[1]))
    params = _params(settings)
    now = test.state(test.pentanomial(scores), params)
    merged = {**SPRT_DEFAULTS, **settings}
    verdict = now.verdict
    if verdict is None and sum(now.pairs) >= int(merged["max_pairs"]):
        verdict = "inconclusive"
    estimate = test.elo_estimate(now.pairs)
    return Progress(
        state={
            "kind": "sprt",
            "a": a,
            "b": b,
            "elo0": params.elo0,
            "elo1": params.elo1,
            "alpha": params.alpha,
            "beta": params.beta,
            "pairs": list(now.pairs),
            "games": now.games,
            "score": now.score,
            "llr": round(now.llr, 6),
            "lower": round(now.lower, 6),
            "upper": round(now.upper, 6),
            "verdict": verdict,
            "max_pairs": int(merged["max_pairs"]),
            "elo": None if estimate is None else round(estimate.elo, 2),
            "elo_error": None
            if estimate is None or estimate.error is None
            else round(estimate.error, 2),
            "elo_low": None if estimate is None or estimate.low is None else round(estimate.low, 2),
            "elo_high": None
            if estimate is None or estimate.high is None
            else round(estimate.high, 2),
            "los": None if estimate is None else round(estimate.los, 4),
        },
        verdict=verdict,
    )


def _number(value: Any) -> str:
    """A setting as a person writes it: 10, not 10.0."""
    number = float(value)
    return str(int(number)) if number.is_integer() else repr(number)


def _signed(value: float, digits: int) -> str:
    sign = "+" if value >= 0 else "\N{MINUS SIGN}"
    return f"{sign}{abs(value):.{digits}f}"


def _elo_text(p: Mapping[str, Any]) -> str:
    if p.get("elo") is None:
        return "\N{EN DASH}"
    elo = _signed(p["elo"], 1)
    if p.get("elo_error") is not None:
        return f"{elo} \N{PLUS-MINUS SIGN} {p['elo_error']:.1f}"
    if p.get("elo_low") is not None:
        return f"{elo} (95%: at least {_signed(p['elo_low'], 0)})"
    if p.get("elo_high") is not None:
        return f"{elo} (95%: at most {_signed(p['elo_high'], 0)})"
    return f"{elo} (too few pairs for an interval)"


def _percent(value: float | None) -> str:
    return "\N{EN DASH}" if value is None else f"{value * 100:.1f}%"


_PAIR_SCORES = (
    ("0", "{b} finished above {a} in both games"),
    ("\N{VULGAR FRACTION ONE QUARTER}", "{b} above in one game, the other level"),
    ("\N{VULGAR FRACTION ONE HALF}", "one game each, or both level"),
    ("\N{VULGAR FRACTION THREE QUARTERS}", "{a} above in one game, the other level"),
    ("1", "{a} finished above {b} in both games"),
)


def _show(p: Mapping[str, Any]) -> Shown:
    a, b = p["a"], p["b"]
    elo0, elo1, alpha, beta = (_number(p[k]) for k in ("elo0", "elo1", "alpha", "beta"))
    counts = list(p["pairs"])
    pairs = sum(counts)
    verdict = p.get("verdict")
    long = {
        "H1": f"H1 accepted: {a} is stronger than {b} (by {elo1} Elo or more, with at most"
        f" {_number(p['alpha'] * 100)}% chance of a false positive)",
        "H0": f"H0 accepted: {a} is not stronger than {b} by more than {elo0} Elo (at most"
        f" {_number(p['beta'] * 100)}% chance of missing a real +{elo1})",
        "inconclusive": f"Inconclusive: {p.get('max_pairs') or 'the most'} pairs played without"
        " the LLR reaching a bound",
    }
    short = {
        "H1": f"H1 accepted: {a} is stronger",
        "H0": "H0 accepted: not stronger",
        "inconclusive": "stopped at the pair limit",
    }
    return Shown(
        title="Sequential test (SPRT)",
        short_title="SPRT head-to-head",
        summary=f"{a} vs {b}",
        question=f"Is {a} stronger than {b} by {elo1} Elo (H1), or by no more than {elo0} (H0)?"
        f" \N{GREEK SMALL LETTER ALPHA} = {alpha}, \N{GREEK SMALL LETTER BETA} = {beta}.",
        verdict=verdict,
        verdict_text=long.get(verdict, verdict)
        if verdict
        else "No verdict yet: the test goes on until the LLR reaches a bound",
        verdict_short=short.get(verdict, verdict) if verdict else "running",
        figures=(
            Figure("llr", "LLR", f"{p['llr']:.3f}"),
            Figure(
                "bounds",
                "bounds (H0 \N{HORIZONTAL ELLIPSIS} H1)",
                f"{p['lower']:.3f} \N{HORIZONTAL ELLIPSIS} {p['upper']:.3f}",
            ),
            Figure("pairs", "pairs / games", f"{pairs} / {p['games']}"),
            Figure("score", f"score of {a}", _percent(p.get("score"))),
            Figure("elo", f"Elo of {a} over {b}", _elo_text(p)),
            Figure("los", "LOS", _percent(p.get("los"))),
        ),
        brief=(
            Figure("bots", "Bots", f"{a} vs {b}"),
            Figure(
                "bounds",
                "Elo bounds, errors",
                f"[{elo0}, {elo1}] \N{GREEK SMALL LETTER ALPHA} {alpha}"
                f" \N{GREEK SMALL LETTER BETA} {beta}",
            ),
            Figure("pairs", "Pairs", " / ".join(str(n) for n in counts)),
            Figure(
                "llr",
                "Log-likelihood ratio",
                f"{p['llr']:.2f} in [{p['lower']:.2f}, {p['upper']:.2f}]",
            ),
        ),
        series=Series(
            key="llr",
            label="LLR",
            x_label="pairs played",
            low=float(p["lower"]),
            high=float(p["upper"]),
            low_label=f"H0 bound {p['lower']:.2f}",
            high_label=f"H1 bound {p['upper']:.2f}",
            note="log-likelihood ratio: H0 is accepted at the left end, H1 at the right",
        ),
        point=(float(pairs), float(p["llr"])),
        note=f"The log-likelihood ratio after every round, against the number of pairs: H1 is"
        f" accepted when it reaches the upper bound, H0 when it reaches the lower one. Elo"
        f" \N{PLUS-MINUS SIGN} is the 95% interval of {a}'s Elo over {b} from the pairs so far"
        f" (one-sided while the pairs are nearly all one way); LOS the chance that {a} is"
        f" stronger at all.",
        listings=(
            Listing(
                key="pentanomial",
                title="Pairs by score (the pentanomial counts)",
                note=f"Each pair is two games on one deal, with {a} and {b} in each other's"
                f" seats, so the luck of the cards cancels. A game scores 1 for {a} finishing"
                f" above {b}, \N{VULGAR FRACTION ONE HALF} level, 0 below (a forfeit is a loss);"
                " a pair scores the mean of its two games. The test counts pairs, not games.",
                columns=("Pair score", "Meaning", "Pairs", "Share"),
                numeric=(True, False, True, True),
                row_keys=tuple(score for score, _ in _PAIR_SCORES),
                rows=tuple(
                    (
                        score,
                        meaning.format(a=a, b=b),
                        str(n),
                        f"{n / pairs * 100:.0f}%" if pairs else "\N{EN DASH}",
                    )
                    for (score, meaning), n in zip(_PAIR_SCORES, counts, strict=True)
                ),
            ),
        ),
    )


FORMAT = LeagueFormat(
    "sprt",
    _plan,
    lambda _bots, _players: _rounds({}),
    min_bots=2,
    settings=_settings,
    settings_rounds=_rounds,
    rated=False,
    head_to_head=True,
    group_noun="pair",
    progress=_progress,
    show=_show,
)
