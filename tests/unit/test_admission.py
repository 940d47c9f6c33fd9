"""The one gate (premiere.admission.judge), as a pure function: refusals, owners, standing and
per-game validation, each rule on its own and the order they are applied in."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from premiere.admission import UNRATED_REASONS, SeatStanding, judge

GAME = "magic-trick"


def seat(
    bot: str = "a",
    owner: str | None = None,
    state: str | None = "rated",
    validated: frozenset[str] = frozenset({GAME}),
    **flags: bool,
) -> SeatStanding:
    return SeatStanding(bot, owner or f"owner-of-{bot}", state, validated, **flags)


def test_a_table_of_validated_rated_bots_of_different_owners_is_rated() -> None:
    verdict = judge(GAME, [seat("a"), seat("b"), None], rated=True)
    assert (verdict.refused, verdict.rated, verdict.unrated_reason) == (None, True, None)


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        ({"removed": True}, "a was removed"),
        ({"account_active": False}, "a's account is disabled"),
        ({"disabled": True}, "a is disabled"),
    ],
)
def test_removed_disabled_or_closed_accounts_are_refused_rated_or_not(
    flags: dict[str, bool], said: str
) -> None:
    for rated in (True, False):
        verdict = judge(GAME, [seat("a", **flags), None], rated=rated)
        assert verdict.refused == said and not verdict.rated


def test_a_disabled_standing_is_refused() -> None:
    assert judge(GAME, [seat(state="disabled"), None], rated=False).refused == "a is disabled"


@pytest.mark.parametrize(
    ("state", "reason"),
    [
        (None, "validating"),
        ("validating", "validating"),
        ("failed", "failed"),
        ("probation", "probation"),
    ],
)
def test_a_bot_not_in_rated_play_makes_the_table_unrated(state: str | None, reason: str) -> None:
    verdict = judge(GAME, [seat("a", state=state), seat("b")], rated=True)
    assert (verdict.refused, verdict.rated, verdict.unrated_reason) == (None, False, reason)


def test_validation_is_per_game() -> None:
    other = seat("a", validated=frozenset({"movie-tricks"}))
    verdict = judge(GAME, [other, None], rated=True)
    assert (verdict.rated, verdict.unrated_reason) == (False, "unvalidated")
    assert judge("movie-tricks", [other, None], rated=True).rated


def test_one_owner_twice_is_refused_for_rated_play_and_allowed_casually() -> None:
    twice = [seat("x@v1", owner="alice"), seat("x@v2", owner="alice"), None]
    refused = judge(GAME, twice, rated=True)
    assert refused.refused is not None and "alice" in refused.refused and not refused.rated
    casual = judge(GAME, twice, rated=False)
    assert (casual.refused, casual.rated, casual.unrated_reason) == (None, False, "casual")
    allowed = judge(GAME, twice, rated=True, allow_same_owner=True)
    assert (allowed.refused, allowed.rated, allowed.unrated_reason) == (None, False, "same-owner")


def test_a_validation_match_is_never_rated_but_still_refuses_disabled_bots() -> None:
    verdict = judge(GAME, [seat("a"), None], rated=True, validation=True)
    assert (verdict.rated, verdict.unrated_reason) == (False, "validation")
    assert judge(GAME, [seat("a", disabled=True)], rated=False, validation=True).refused


def test_the_most_telling_reason_is_kept() -> None:
    seats = [seat("a", state="probation"), seat("b", state="validating"), seat("c")]
    assert judge(GAME, seats, rated=True).unrated_reason == "validating"


def test_built_in_seats_alone_are_rated() -> None:
    assert judge(GAME, [None, None, None], rated=True).rated


states = st.sampled_from([None, "validating", "failed", "rated", "probation", "disabled"])
seats = st.lists(
    st.one_of(
        st.none(),
        st.builds(
            SeatStanding,
            bot=st.sampled_from("abcd"),
            owner=st.sampled_from(["alice", "bob", "operator:x", "operator:y"]),
            state=states,
            validated=st.frozensets(st.sampled_from([GAME, "movie-fight"])),
            removed=st.booleans(),
            account_active=st.booleans(),
            disabled=st.booleans(),
        ),
    ),
    min_size=1,
    max_size=5,
)


@given(seats, st.booleans(), st.booleans(), st.booleans())
def test_a_rated_verdict_always_keeps_every_promise(
    table: list[SeatStanding | None], rated: bool, validation: bool, allow: bool
) -> None:
    verdict = judge(GAME, table, rated=rated, validation=validation, allow_same_owner=allow)
    registered = [s for s in table if s is not None]
    if verdict.rated:
        owners = [s.owner for s in registered]
        assert rated and not validation and len(set(owners)) == len(owners)
        assert all(s.state == "rated" and GAME in s.validated for s in registered)
        assert not any(s.removed or s.disabled or not s.account_active for s in registered)
    if verdict.refused is None:
        assert not any(s.removed or s.disabled or not s.account_active for s in registered)
        assert verdict.rated or verdict.unrated_reason in UNRATED_REASONS
    else:
        assert not verdict.rated and verdict.unrated_reason is None
