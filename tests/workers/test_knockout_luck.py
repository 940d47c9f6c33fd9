"""How much the deal decides a knockout, measured by simulation through the format's own
planning: a field of known skills in a game where the deal favours some seats by far more than
the skill gaps, played as the knockout plays it (each heat one sealed deal in every seat
order) and, for comparison, with each heat a single table of that deal. The duplicate heats
cancel the deal's seat luck, so the strongest bot wins far more often (numbers in
docs/leagues.md, "Knockout")."""

from __future__ import annotations

import random

from workers.formats.knockout import knockout_rounds, replay
from workers.planning import PlayedTable, Table, fold_duplicates, plan

SEATS = 4
FIELD = 16
GAP = 1.0
"""Skill between neighbouring bots."""
DEAL = 6.0
"""Spread of what the deal gives each seat (six times the skill gap)."""
NOISE = 1.0
"""Spread of everything else in a table's result."""
RUNS = 200


def _ranks(scores: list[float]) -> tuple[int, ...]:
    return tuple(1 + sum(other > mine for other in scores) for mine in scores)


def _table(table: Table, skill: dict[str, float], rng: random.Random) -> tuple[int, ...]:
    deal = random.Random(table.seed)
    luck = [deal.gauss(0, DEAL) for _ in table.seats]
    return _ranks([skill[b] + luck[s] + rng.gauss(0, NOISE) for s, b in enumerate(table.seats)])


def champion(run: int, duplicate: bool) -> str:
    rng = random.Random(run)
    bots = [f"b{k:02d}" for k in range(FIELD)]
    skill = {bot: GAP * k for k, bot in enumerate(bots)}  # b15 is the strongest
    seeds = tuple(rng.sample(bots, FIELD))  # seeding knows nothing of the skills
    league_seed = f"{run:032x}"
    history: list[tuple[int, tuple[str, ...], tuple[int, ...]]] = []
    for number in range(1, knockout_rounds(FIELD, SEATS) + 1):
        tables = plan("knockout", seeds, SEATS, number, league_seed, history, {})
        if duplicate:
            played = [
                PlayedTable(number, t.seats, t.seed, t.group, _table(t, skill, rng)) for t in tables
            ]
            history += fold_duplicates(played)
        else:
            for first in {t.group: t for t in reversed(tables)}.values():
                ranks = _table(first, skill, rng)
                order = sorted(zip(ranks, first.seats, strict=True))
                history.append((number, tuple(b for _, b in order), tuple(r for r, _ in order)))
    _rounds, _results, ranking = replay(seeds, SEATS, history)
    assert ranking is not None
    return ranking[0]


def test_duplicate_heats_let_skill_not_the_deal_decide_the_champion() -> None:
    strongest = f"b{FIELD - 1:02d}"
    duplicate = sum(champion(run, True) == strongest for run in range(RUNS)) / RUNS
    single = sum(champion(run, False) == strongest for run in range(RUNS)) / RUNS
    print(f"strongest bot champion: duplicate heats {duplicate:.0%}, single tables {single:.0%}")
    assert duplicate >= 0.55
    assert duplicate >= single + 0.25
