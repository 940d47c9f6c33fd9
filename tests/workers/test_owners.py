"""No rated match in any format seats two bots of one owner: whatever tables a format plans
(round robin, Swiss, gauntlet, ladder, duplicate, SPRT, solo), the verdict every table passes
before it is created (``premiere.admission.judge``, as ``workers.dispatch`` calls it) is rated
only when each owner holds one seat, and refuses the table when a rated league did not allow
one owner twice."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from premiere.admission import SeatStanding, judge
from workers.formats import registry
from workers.planning import plan

GAME = "movie-tricks"
BOTS = ("ada", "grace", "edsger", "barbara", "donald", "ken")


@settings(max_examples=60, deadline=None)
@given(
    format=st.sampled_from(registry.names()),
    owners=st.lists(st.sampled_from(["alice", "bob", "carol"]), min_size=6, max_size=6),
    players=st.sampled_from([2, 3]),
    rounds=st.integers(min_value=1, max_value=4),
    allow=st.booleans(),
)
def test_no_format_gets_a_rated_table_seating_one_owner_twice(
    format: str, owners: list[str], players: int, rounds: int, allow: bool
) -> None:
    bots = (
        BOTS
        if not registry.get(format).head_to_head
        else ("ada", "grace", *[f"builtin:b{i}" for i in range(2, players)])
    )
    owner_of = dict(zip(BOTS, owners, strict=True))
    standing = {bot: SeatStanding(bot, owner_of[bot], "rated", frozenset({GAME})) for bot in BOTS}
    history: list[tuple[int, tuple[str, ...], tuple[int, ...]]] = []
    for number in range(1, rounds + 1):
        for table in plan(format, bots, players, number, "league-seed", history, {}):
            seats = [standing.get(seat) for seat in table.seats]
            verdict = judge(GAME, seats, rated=True, allow_same_owner=allow)
            held = [owner_of[s] for s in table.seats if s in owner_of]
            twice = len(set(held)) < len(held)
            assert verdict.rated == (not twice)
            if twice:
                assert (verdict.refused is None) == allow
                assert verdict.unrated_reason == ("same-owner" if allow else None)
            history.append((number, table.seats, tuple(range(1, len(table.seats) + 1))))
