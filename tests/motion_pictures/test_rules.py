"""Motion Pictures rules: set-up, each project type's placement and completion, the actions,
each ability and condition type, the end of an era, and final scoring."""

from __future__ import annotations

import dataclasses

import pytest

from games.errors import IllegalMove
from games.motion_pictures import MotionPicturesState
from games.motion_pictures.cards import (
    DATA,
    FILMMAKERS,
    GOALS,
    PROJECTS_BY_ID,
    Ability,
    Bonus,
    Condition,
    Filmmaker,
    Project,
)
from games.motion_pictures.moves import (
    Audition,
    CommitTrilogy,
    Discard,
    Fire,
    HireAny,
    HireMatch,
    Recruit,
    Refresh,
    Shoot,
    Skip,
)
from games.motion_pictures.rules import condition_met, is_complete, may_place, project_bonus
from games.motion_pictures.scoring import Final, final_outcome, trilogy_winner
from games.rng import Rng, derive_seed
from tests.motion_pictures.helpers import (
    GAME,
    advanced_with,
    arrange,
    filmmaker,
    new_state,
    play_randomly,
    project,
    quiet_row,
    starting,
)


def fm(skills: tuple[str, ...], specialty: str = "star", start: int = 0) -> Filmmaker:
    return Filmmaker(-1, "X", "X", specialty, skills, start, None)


def pj(
    type: str,
    needs: tuple[str, ...] = (),
    forbidden: tuple[str, ...] = (),
    count: int = 0,
    genre: str | None = None,
    bonus: Bonus | None = None,
    fame: int = 3,
) -> Project:
    if type == "movie" and genre is None:
        genre = "comedy"
    return Project(-1, "P", "P", 1, type, genre, needs, forbidden, count, fame, None, bonus)


# --- project types (pure rules) ----------------------------------------------------------


def test_movie_takes_anyone_and_completes_when_its_skills_are_covered() -> None:
    movie = pj("movie", ("camera", "acting", "acting"))
    assert may_place(movie, [], fm(("music",)))
    assert not is_complete(movie, [fm(("camera", "acting"))])
    assert is_complete(movie, [fm(("camera", "acting")), fm(("acting", "music"))])
    assert is_complete(movie, [fm(("camera", "any")), fm(("acting",))])
    anything = pj("movie", ("script", "any"))
    assert not is_complete(anything, [fm(("script",))])
    assert is_complete(anything, [fm(("script",)), fm(("music",))])


def test_commercial_counts_specialties_not_skills() -> None:
    ad = pj("commercial", ("star", "pre-production"))
    assert may_place(ad, [], fm(("camera",), "equipment"))
    assert not is_complete(ad, [fm(("acting", "script"), "star")])
    assert is_complete(ad, [fm(("camera",), "star"), fm(("camera",), "pre-production")])


def test_tv_refuses_forbidden_skills_and_counts_skills() -> None:
    tv = pj("tv", forbidden=("music",), count=3)
    assert not may_place(tv, [], fm(("camera", "music")))
    assert may_place(tv, [], fm(("camera", "camera")))
    assert may_place(tv, [], fm(("any",)))
    assert not is_complete(tv, [fm(("camera", "camera"))])
    assert is_complete(tv, [fm(("camera", "camera")), fm(("acting", "script"))])


def test_award_needs_an_exact_match_and_refuses_surplus() -> None:
    award = pj("award", ("camera", "camera", "script"))
    assert not may_place(award, [], fm(("camera", "music")))
    assert may_place(award, [], fm(("camera",)))
    placed = [fm(("camera", "script"))]
    assert may_place(award, placed, fm(("camera",)))
    assert not may_place(award, placed, fm(("script",)))
    assert not may_place(award, placed, fm(("camera", "camera")))
    assert is_complete(award, [*placed, fm(("camera",))])
    assert is_complete(award, [fm(("any", "script")), fm(("camera",))])


def test_only_own_filmmakers_complete_a_project() -> None:
    state = new_state(2, 3)
    movie = project(lambda p: p.type == "movie" and len(p.needs) == 2 and "any" not in p.needs)
    first, second = movie.needs
    mine = filmmaker(lambda f: f.start == 0 and f.skills == (first,))
    theirs = filmmaker(lambda f: f.start == 0 and second in f.skills and f.id != mine.id)
    arrange(state, 0, [mine, *[starting(0, s) for s in ("star",)]], {0: movie})
    state.placed[0][1] = [theirs.id]
    state.apply(0, Shoot(mine.id, 0))
    assert movie.id not in state.completed[0]
    assert state.placed[0][0] == [mine.id] and state.placed[0][1] == [theirs.id]


def test_completion_returns_everyone_to_their_discards_and_refills_the_slot() -> None:
    state = new_state(2, 4)
    ad = project(lambda p: p.type == "commercial" and len(p.needs) == 2 and p.ability is None)
    a, b = (starting(0, s) for s in ad.needs)
    other = starting(1, "star")
    arrange(state, 0, [a, b, starting(0, "equipment")], {0: ad})
    state.placed[0][0] = [a.id]
    state.hands[0].remove(a.id)
    state.placed[0][1] = [other.id]
    state.hands[1].remove(other.id)
    pile = list(state.era_piles[0])
    state._settle()
    state.apply(0, Shoot(b.id, 0))
    assert ad.id in state.completed[0]
    assert {a.id, b.id} <= set(state.discards[0]) and other.id in state.discards[1]
    assert state.slots[0] == pile[-1] and state.era_piles[0] == pile[:-1]
    assert state.placed[0] == [[], []]


def test_an_empty_era_pile_ends_the_era_with_the_round() -> None:
    state = new_state(3, 5)
    ad = project(lambda p: p.type == "commercial" and len(p.needs) == 2 and p.ability is None)
    a, b = (starting(0, s) for s in ad.needs)
    state.start = 0
    arrange(state, 0, [a, b, starting(0, "equipment")], {0: ad})
    state.era_piles[0].clear()
    state.apply(0, Shoot(a.id, 0))
    state.apply(1, CommitTrilogy(state.hands[1][0]))
    state.apply(2, CommitTrilogy(state.hands[2][0]))
    state.apply(0, Shoot(b.id, 0))
    assert state.ending and state.slots[0] is None and state.era == 1
    state.apply(1, CommitTrilogy(state.hands[1][0]))
    assert state.era == 1
    state.apply(2, CommitTrilogy(state.hands[2][0]))
    assert state.era == 2, "the era ends after the seat right of the start player"
    assert state.start == 1 and state.turn == 1 and state.round == 1


# --- set-up ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(3))
def test_setup(players: int, seed: int) -> None:
    state = new_state(players, seed)
    assert len(state.row) == 4
    assert len({FILMMAKERS[c].specialty for c in state.row}) >= 3
    assert len(state.big_goals) == 2 and len(state.small_goals) == players
    assert all(GOALS[g].big for g in state.big_goals)
    size = {2: 11, 3: 15, 4: 19}[players]
    assert len(state.slots) == 3 * players and None not in state.slots
    assert len(state.era_piles[0]) == size - 3 * players
    assert [len(p) for p in state.era_piles[1:]] == [size] * 3
    assert all(PROJECTS_BY_ID[p].era == 1 for p in state.slots if p is not None)
    for seat in range(players):
        hand = [FILMMAKERS[c] for c in state.hands[seat]]
        assert sorted(f.specialty for f in hand) == sorted(DATA.specialties)
        assert all(f.start == seat + 1 for f in hand)
        assert len(state.reachable(seat)) == 6
    if players == 2:
        assert set(state.reachable(0)) == set(state.reachable(1)) == set(range(6))
    else:
        shared = set(state.reachable(0)) & set(state.reachable(1))
        assert len(shared) == 3
    assert state.turn == state.start


def test_the_row_rule_redeals_until_three_colours_show() -> None:
    state = new_state(2, 1)
    stars = [f.id for f in FILMMAKERS if f.start == 0 and f.specialty == "star"]
    state.row = stars[:3] + [f.id for f in FILMMAKERS if f.start == 0][:1]
    state.row_order = [0, 1, 2, 3]
    state.deck = [c for c in state.deck if c not in state.row]
    state.row[3] = stars[3]
    state.deck.append(filmmaker(lambda f: f.start == 0 and f.specialty == "production").id)
    state._ensure_colours()
    assert len({FILMMAKERS[c].specialty for c in state.row}) >= 3
    assert stars[3] in state.deck, "the replaced card went under the deck"


# --- actions --------------------------------------------------------------------------------


def test_hire_by_matching_specialty() -> None:
    state = new_state(2, 2)
    card = filmmaker(lambda f: f.start == 0 and f.ability is None)
    state.deck = [c for c in state.deck if c != card.id]
    state.row[0] = card.id
    mine = starting(state.start, card.specialty)
    arrange(
        state,
        state.start,
        [mine, starting(state.start, "production" if card.specialty != "production" else "star")],
    )
    assert HireMatch(mine.id, card.id) in state.legal_moves(state.start)
    top = state.deck[-1]
    state.apply(state.start, HireMatch(mine.id, card.id))
    seat = state.start
    assert card.id in state.hands[seat] and mine.id in state.discards[seat]
    assert top in state.row or top in state.deck[:1]


def test_hire_any_costs_two_discards_and_audition_draws_the_deck_top() -> None:
    state = new_state(2, 2)
    seat = state.start
    hand = [starting(seat, s) for s in ("star", "equipment", "production")]
    quiet_row(state)
    arrange(state, seat, hand)
    target = state.row[1]
    state.apply(seat, HireAny(target))
    assert state.phase == "discard" and state.legal_moves(seat) == tuple(
        Discard(c) for c in state.hands[seat]
    )
    state.apply(seat, Discard(hand[0].id))
    assert target not in state.hands[seat]
    state.apply(seat, Discard(hand[1].id))
    assert state.hands[seat] == sorted([hand[2].id, target])
    other = state.turn
    assert other == 1 - seat
    arrange(state, other, [starting(other, "star"), starting(other, "production")])
    top = state.deck[-1]
    state.apply(other, Audition())
    state.apply(other, Discard(starting(other, "star").id))
    assert state.hands[other] == [top] and top in state.secret[other]


def test_recruit_discards_draws_reshuffles_and_may_refresh_the_row() -> None:
    state = new_state(2, 6)
    seat = state.start
    a, b = starting(seat, "star"), starting(seat, "equipment")
    arrange(state, seat, [a])
    state.discards[seat] = [b.id]
    state.draws[seat] = []
    state.apply(seat, Recruit(a.id))
    assert sorted(state.hands[seat]) in ([a.id], [b.id]) and len(state.draws[seat]) == 1
    assert state.phase == "refresh" and state.legal_moves(seat)[0] == Skip()
    old = state.row[2]
    state.apply(seat, Refresh(old))
    assert old not in state.row and old in state.row_discards and len(state.row) == 4
    assert state.turn == 1 - seat


def test_an_era_lasts_as_long_as_players_keep_recruiting() -> None:
    """The rulebook ends an era in two ways only: a completed project that cannot be replaced,
    or all players but one out of filmmakers. Recruiting round after round ends neither."""
    state = new_state(2, 8)
    while state.round <= 30:
        (seat,) = state.to_move()
        legal = state.legal_moves(seat)
        move = next((m for m in legal if isinstance(m, Recruit)), None)
        state.apply(seat, Skip() if move is None else move)
        assert state.era == 1
    assert all(len(hand) == 6 for hand in state.hands)


def test_an_empty_hand_passes_and_the_last_player_takes_one_more_turn() -> None:
    state = new_state(3, 7)
    state.start = 0
    arrange(state, 0, [starting(0, "star")])
    state.hands[1] = []
    state.apply(0, CommitTrilogy(starting(0, "star").id))
    assert state.turn == 2 and state.last_turn == 2, "seat 1 passed, seat 2 is the last"
    state.apply(2, CommitTrilogy(state.hands[2][0]))
    assert state.era == 2


def test_trilogy_cards_stay_committed_and_are_hidden() -> None:
    state = new_state(2, 8)
    seat = state.start
    card = state.hands[seat][0]
    state.apply(seat, CommitTrilogy(card))
    assert state.committed[seat] == [card]
    assert state.observe(seat).trilogy_cards == (FILMMAKERS[card],)
    assert state.observe(1 - seat).trilogy_cards == ()
    assert state.observe(1 - seat).studios[seat].trilogy_size == 1
    state._end_era()
    assert card not in state.hands[seat] + state.draws[seat] and state.committed[seat] == [card]


# --- abilities ------------------------------------------------------------------------------


def shoot_on_tv(state_seed: int, card: Filmmaker) -> tuple[int, MotionPicturesState]:
    state = new_state(2, state_seed)
    seat = state.start
    tv = project(
        lambda p: p.type == "tv" and not set(card.skills) & set(p.forbidden) and p.count > 4
    )
    arrange(state, seat, [card, starting(seat, "star"), starting(seat, "production")], {0: tv})
    return seat, state


def test_draw_ability_draws_from_the_own_pile() -> None:
    card = advanced_with("draw")
    seat, state = shoot_on_tv(10, card)
    state.draws[seat] = [starting(seat, "equipment").id]
    state.apply(seat, Shoot(card.id, 0))
    assert starting(seat, "equipment").id in state.hands[seat]


def test_audition_ability_takes_the_deck_top_secretly() -> None:
    card = advanced_with("audition")
    seat, state = shoot_on_tv(11, card)
    top = state.deck[-1]
    state.apply(seat, Shoot(card.id, 0))
    assert top in state.hands[seat] and top in state.secret[seat]


def test_fame_ability_on_play_and_on_hire() -> None:
    card = filmmaker(lambda f: f.ability == Ability("play", "fame", 1))
    seat, state = shoot_on_tv(12, card)
    state.apply(seat, Shoot(card.id, 0))
    assert state.fame[seat] == 1
    hired = filmmaker(
        lambda f: (
            f.ability is not None and f.ability.timing == "hire" and f.ability.effect == "fame"
        )
    )
    state = new_state(2, 12)
    seat = state.start
    state.row[0] = hired.id
    state.deck = [c for c in state.deck if c != hired.id]
    arrange(
        state,
        seat,
        [
            starting(seat, hired.specialty),
            starting(seat, "production" if hired.specialty != "production" else "star"),
        ],
    )
    state.apply(seat, HireMatch(starting(seat, hired.specialty).id, hired.id))
    assert hired.ability is not None and state.fame[seat] == hired.ability.amount


def test_fire_ability_removes_a_hand_card_or_may_be_declined() -> None:
    card = advanced_with("fire")
    seat, state = shoot_on_tv(13, card)
    state.apply(seat, Shoot(card.id, 0))
    assert state.phase == "fire" and state.legal_moves(seat)[0] == Skip()
    victim = starting(seat, "star").id
    state.apply(seat, Fire(victim))
    assert state.fired[seat] == [victim] and victim not in state.hands[seat]
    assert state.observe(1 - seat).studios[seat].fired == (FILMMAKERS[victim],)


def test_ongoing_hire_discount_makes_hire_any_cost_one() -> None:
    card = advanced_with("hire_discount")
    seat, state = shoot_on_tv(14, card)
    state.apply(seat, Shoot(card.id, 0))
    arrange(state, seat, [starting(seat, "star")])
    target = state.row[0]
    state.apply(seat, HireAny(target))
    assert target in state.hands[seat] and state.hands[seat] == [target], "one discard paid"


def test_ongoing_completion_fame_and_recruit_draw() -> None:
    card = advanced_with("completion_fame")
    seat, state = shoot_on_tv(15, card)
    state.apply(seat, Shoot(card.id, 0))
    ad = project(lambda p: p.type == "commercial" and len(p.needs) == 2)
    a, b = (starting(seat, s) for s in ad.needs)
    arrange(state, seat, [a, b], {1: ad})
    state.apply(seat, Shoot(a.id, 1))
    arrange(state, seat, [b])
    state.apply(seat, Shoot(b.id, 1))
    assert ad.id in state.completed[seat] and state.fame[seat] == 1

    card = advanced_with("recruit_draw")
    seat, state = shoot_on_tv(16, card)
    state.apply(seat, Shoot(card.id, 0))
    x, y, z = (starting(seat, s) for s in ("star", "equipment", "production"))
    arrange(state, seat, [x])
    state.draws[seat] = [y.id, z.id]
    state.apply(seat, Recruit(x.id))
    assert sorted(state.hands[seat]) == sorted([y.id, z.id])


def test_project_completion_ability_applies_to_the_completer() -> None:
    ad = project(
        lambda p: (
            p.type == "commercial"
            and len(p.needs) == 2
            and p.ability is not None
            and p.ability.effect == "draw"
        )
    )
    state = new_state(2, 17)
    seat = state.start
    a, b = (starting(seat, s) for s in ad.needs)
    extra = starting(seat, next(s for s in DATA.specialties if s not in ad.needs))
    arrange(state, seat, [a, b], {0: ad})
    state.draws[seat] = [extra.id]
    state.apply(seat, Shoot(a.id, 0))
    arrange(state, seat, [b])
    state.apply(seat, Shoot(b.id, 0))
    assert extra.id in state.hands[seat]


# --- goal conditions ------------------------------------------------------------------------


def test_each_condition_type() -> None:
    comedy, ad, award = pj("movie", fame=6), pj("commercial", fame=4), pj("award", fame=2)
    done = [comedy, ad, award]
    owned = [fm(("acting",), "star", 1), fm(("camera",), "star"), fm(("music",), "production")]
    assert condition_met(Condition("projects", "comedy", 1), done, owned, 0)
    assert not condition_met(Condition("projects", "movie", 2), done, owned, 0)
    assert condition_met(Condition("projects", "any", 3), done, owned, 0)
    assert condition_met(Condition("variety", "any", 3), done, owned, 0)
    assert not condition_met(Condition("variety", "any", 4), done, owned, 0)
    assert condition_met(Condition("project_fame", "any", 12), done, owned, 0)
    assert not condition_met(Condition("project_fame", "any", 13), done, owned, 0)
    assert condition_met(Condition("specialty", "star", 2), done, owned, 0)
    assert not condition_met(Condition("specialty", "production", 2), done, owned, 0)
    assert condition_met(Condition("advanced", "any", 2), done, owned, 0)
    assert not condition_met(Condition("advanced", "any", 3), done, owned, 0)
    assert condition_met(Condition("trilogy", "any", 2), done, owned, 2)
    assert not condition_met(Condition("trilogy", "any", 3), done, owned, 2)


def test_small_goals_are_claimed_once_by_the_first_to_meet_them() -> None:
    state = new_state(2, 18)
    seat = state.start
    goal = next(g for g in GOALS if g.condition.type == "trilogy" and not g.big)
    state.small_goals = [goal.id]
    state.committed[seat] = list(state.hands[seat][: goal.condition.count - 1])
    state.hands[seat] = state.hands[seat][goal.condition.count - 1 :]
    state._settle()
    state.apply(seat, CommitTrilogy(state.hands[seat][0]))
    assert state.claimed[seat] == [goal.id] and state.small_goals == []


# --- scoring --------------------------------------------------------------------------------


def test_trilogy_winner_and_its_ties() -> None:
    two, one = fm(("a", "b")), fm(("a",))
    assert trilogy_winner([[two], [one]]) == 0
    assert trilogy_winner([[two], [one, one]]) == 1, "tied skills: more filmmakers wins"
    assert trilogy_winner([[two, one], [one, two]]) is None, "still tied: nobody"
    assert trilogy_winner([[], []]) is None


def test_final_scoring_adds_every_part() -> None:
    trilogy = DATA.trilogies[0]
    big = dataclasses.replace(GOALS[0], condition=Condition("projects", "any", 1), fame=9)
    small = dataclasses.replace(GOALS[10], fame=3)
    blue = pj("award", fame=2, bonus=Bonus(trilogy.genre, 2))
    movie = pj("movie", fame=5, genre=trilogy.genre)
    finals = [
        Final((blue, movie), (fm(("x",)),) * 3, (fm(("a", "b", "c")),), (small,), 1),
        Final((movie,), (fm(("x",)),) * 5, (fm(("a",)),), (), 0),
    ]
    outcome = final_outcome(finals, trilogy, [big])
    # seat 0: trilogy 3//2=1, won (+5 card, a movie of the genre), big 9//2=4, projects 2+5+5,
    # bonus 2 per other movie of the genre (2), small 3, abilities 1.
    assert outcome.scores == (1 + 4 + 12 + 4 + 3 + 1, 0 + 4 + 5 + 0 + 0 + 0)
    assert outcome.detail["trilogy_winner"] == 0
    assert outcome.tiebreaks[0].values == (3, 5)
    assert outcome.tiebreaks[1].values == (1, 0), "a shared big goal is nobody's"


def test_ties_go_to_the_bigger_studio_then_more_goals() -> None:
    trilogy = DATA.trilogies[0]
    finals = [
        Final((), (fm(("x",)),) * 3, (), (), 0),
        Final((), (fm(("x",)),) * 4, (), (), 0),
    ]
    assert final_outcome(finals, trilogy, []).ranks == (2, 1)
    assert project_bonus(pj("award", bonus=Bonus("any", 1)), [pj("movie"), pj("tv")]) == 2


# --- eras and the whole game ----------------------------------------------------------------


def test_era_end_reshuffles_deals_six_and_removes_incomplete_projects() -> None:
    state = new_state(3, 19)
    seat = state.start
    placed = state.hands[seat][0]
    slot = state.reachable(seat)[0]
    state.apply(seat, Shoot(placed, slot))
    leftovers = [p for p in state.slots if p is not None]
    state._end_era()
    assert state.era == 2 and state.start == (seat + 1) % 3 and state.turn == state.start
    assert all(len(h) == 6 for h in state.hands)
    assert placed in state.hands[seat] + state.draws[seat]
    assert all(PROJECTS_BY_ID[p].era == 2 for p in state.slots if p is not None)
    assert set(leftovers) <= set(state.boxed[0])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_play_four_eras_and_keep_every_card(players: int) -> None:
    for seed in range(3):
        state = new_state(players, seed)
        play_randomly(state, seed)
        assert state.era == 4 and state.outcome() is not None
        owned = [
            c
            for s in range(players)
            for pile in (
                state.hands[s],
                state.draws[s],
                state.discards[s],
                state.committed[s],
                state.fired[s],
            )
            for c in pile
        ]
        everything = owned + state.deck + state.row + state.row_discards
        expected = [f.id for f in FILMMAKERS if f.start <= players]
        assert sorted(everything) == expected


@pytest.mark.parametrize("players", [2, 4])
def test_legal_shoots_are_exactly_what_the_placement_rules_allow(players: int) -> None:
    state = new_state(players, 21)
    rng = Rng(derive_seed("placement", players))
    checked = 0
    while not state.is_over():
        seat = state.to_move()[0]
        legal = state.legal_moves(seat)
        if state.phase == "action":
            expected = {
                Shoot(c, slot)
                for slot in state.reachable(seat)
                if (pid := state.slots[slot]) is not None
                for c in state.hands[seat]
                if may_place(
                    PROJECTS_BY_ID[pid],
                    [FILMMAKERS[m] for m in state.placed[slot][seat]],
                    FILMMAKERS[c],
                )
            }
            assert {m for m in legal if isinstance(m, Shoot)} == expected
            checked += 1
        state.apply(seat, rng.choice(legal))
    assert checked > 20


def test_illegal_moves_are_refused() -> None:
    state = new_state(2, 20)
    seat = state.start
    other = state.hands[1 - seat][0]
    with pytest.raises(IllegalMove):
        state.apply(seat, CommitTrilogy(other))
    with pytest.raises(IllegalMove):
        state.apply(seat, Discard(state.hands[seat][0]))


@pytest.mark.parametrize("players", GAME.player_counts)
def test_a_spectator_sees_no_hand_and_a_seat_sees_only_its_own(players: int) -> None:
    state = new_state(players, 5)
    rng = Rng(derive_seed("hands", players))
    checked = 0
    while not state.is_over() and checked < 60:
        spectator = state.spectate()
        assert spectator.hand == () and spectator.trilogy_cards == ()
        for seat in range(players):
            assert state.observe(seat).hand == tuple(FILMMAKERS[c] for c in state.hands[seat])
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_moves(seat)))
        checked += 1
    assert checked
