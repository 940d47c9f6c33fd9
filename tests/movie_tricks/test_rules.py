"""Movie Tricks rules on the engine itself: set-up, the round, bonus cards, goals, the end."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator

import pytest

from games.errors import IllegalMove
from games.movie_tricks.cards import CARDS, DATA, PLUS3, PROPS, START, Card
from games.movie_tricks.moves import (
    BonusToHand,
    BonusToTableau,
    ChooseTrump,
    ClaimGoal,
    DeclineGoal,
    DiscardBonus,
    Move,
    PlayCard,
)
from games.movie_tricks.scoring import distinct_props
from games.movie_tricks.state import MovieTricksState, rounds_in_game
from games.movie_tricks.views import Play, Tableau
from games.rng import Rng, derive_seed
from tests.movie_tricks.helpers import new_state, play_randomly

COUNTS = (2, 3, 4, 5)
ROUNDS = {2: 7, 3: 13, 4: 13, 5: 10}


def steps(state: MovieTricksState, seed: int | str) -> Iterator[tuple[int, Move, MovieTricksState]]:
    """Random playout: yields (seat, move, the state before the move) after applying it."""
    rng = Rng(derive_seed("movie-tricks-steps", seed))
    while not state.is_over():
        seat = state.to_move()[0]
        move = rng.choice(state.legal_moves(seat))
        before = state.clone()
        state.apply(seat, move)
        yield seat, move, before


def after(before: MovieTricksState, seat: int, move: Move) -> MovieTricksState:
    twin = before.clone()
    twin.apply(seat, move)
    return twin


def plus3_held(state: MovieTricksState, seat: int) -> int:
    return sum(1 for c in state.hands[seat] if CARDS[c].kind == PLUS3)


def ranking(plays: list[tuple[int, int, bool]], trump: str | None) -> list[int]:
    """Seats from highest to lowest card, worked out independently of the engine."""
    lead = CARDS[plays[0][1]].suit

    def key(index: int) -> tuple[int, int, int]:
        _, card, boost = plays[index]
        suit = CARDS[card].suit
        group = 2 if suit == trump else 1 if suit == lead else 0
        return (group, CARDS[card].value + 3 * boost, -index)

    return [plays[i][0] for i in sorted(range(len(plays)), key=key, reverse=True)]


# --- set-up -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("family", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_deal(players: int, family: bool, seed: int) -> None:
    state = new_state(players, seed, family)
    assert [len(hand) for hand in state.hands] == [{2: 10, 3: 13, 4: 13, 5: 10}[players]] * players
    everything = [c for hand in state.hands for c in hand] + state.unused + state.draw_deck
    assert len(everything) == len(set(everything))
    expected = {
        c
        for c in DATA.playing
        if (players >= 4 or not CARDS[c].blue) and not (players == 2 and CARDS[c].value in (1, 10))
    }
    assert set(everything) == expected
    assert len(expected) == {2: 32, 3: 40, 4: 52, 5: 52}[players]
    assert len(state.unused) == {2: 0, 3: 1, 4: 0, 5: 2}[players]
    assert len(state.draw_deck) == (12 if players == 2 else 0)


@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("family", [False, True])
def test_bonus_deck_sizes(players: int, family: bool) -> None:
    state = new_state(players, 7, family)
    in_use = len(state.bonus_deck) + len(state.display)
    if family:
        assert state.display == []
        assert in_use == {2: 7, 3: 13, 4: 13, 5: 20}[players]
        assert state.goals == []
    else:
        assert len(state.display) == 2
        assert in_use == {2: 8, 3: 14, 4: 14, 5: 21}[players]
        assert state.goals == [3, 4, 5, 6, 7, 8, 9, 10]
    assert in_use + len(state.bonus_unused) == 21
    assert len({*state.bonus_deck, *state.display, *state.bonus_unused}) == 21


@pytest.mark.parametrize("players", COUNTS)
def test_first_market_is_one_face_of_distinct_starting_cards(players: int) -> None:
    faces = set()
    for seed in range(12):
        state = new_state(players, seed)
        assert len(state.market) == (5 if players == 2 else players)
        assert all(CARDS[c].kind == START for c in state.market)
        pairs = [next(p for p in DATA.start if c in p) for c in state.market]
        assert len(set(pairs)) == len(pairs)
        faces |= set(state.market)
    assert len(faces) > 6


def test_director_is_drawn_and_round_one_has_no_trump() -> None:
    assert {new_state(4, seed).director for seed in range(40)} == {0, 1, 2, 3}
    state = new_state(4, 1)
    assert state.trump is None
    assert state.to_move() == (state.director,)


# --- the round --------------------------------------------------------------------------


@pytest.mark.parametrize("players", COUNTS)
def test_follow_the_lead_suit_if_you_can(players: int) -> None:
    for seed in range(3):
        for seat, _, before in steps(new_state(players, seed), seed):
            if before.phase != "play" or not before.plays:
                continue
            lead = CARDS[before.plays[0][1]].suit
            hand = {CARDS[c] for c in before.hands[seat] if CARDS[c].kind != PLUS3}
            legal = {CARDS[m.card] for m in before.legal_moves(seat) if isinstance(m, PlayCard)}
            if any(c.suit == lead for c in hand):
                assert legal == {c for c in hand if c.suit == lead}
            else:
                assert legal == hand


@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("family", [False, True])
def test_every_round_step_by_step(players: int, family: bool) -> None:
    """Play order, draft order, pawn, bonus takers, trump and the next market, every round."""
    state = new_state(players, 11, family)
    rng = Rng(derive_seed("detail", players, int(family)))
    trump_choices: Counter[str] = Counter()
    while not state.is_over():
        this_round, director, market = state.round, state.director, list(state.market)
        plus3_before = [plus3_held(state, seat) for seat in range(players)]
        assert state.phase == "play"
        while state.phase == "play":
            state.apply(state.turn or 0, rng.choice(state.legal_moves(state.turn or 0)))
        plays = list(state.plays)
        per_seat = 2 if players == 2 else 1
        assert [p[0] for p in plays] == [
            (director + i) % players for i in range(players * per_seat)
        ]
        order = ranking(plays, state.trump)
        drafters: list[int] = []
        bonus_takers: list[int] = []
        trump_set_by: list[tuple[str, str | None]] = []
        while not state.is_over() and state.round == this_round:
            seat = state.to_move()[0]
            move = rng.choice(state.legal_moves(seat))
            phase, first_pick = state.phase, state.bonus_taken == 0
            if phase == "draft":
                drafters.append(seat)
            if phase == "bonus":
                bonus_takers.append(seat)
                assert isinstance(move, BonusToHand | BonusToTableau | DiscardBonus)
                card = CARDS[move.card]
                if first_pick and card.kind != PLUS3 and not isinstance(move, DiscardBonus):
                    trump_set_by.append(("card", card.suit))
            if phase == "trump":
                assert isinstance(move, ChooseTrump)
                trump_set_by.append(("free", move.suit))
                trump_choices[move.suit] += 1
            state.apply(seat, move)
        # The last drafter's single remaining card is placed without asking.
        forced = 0 if players == 2 else 1
        assert drafters == order[: len(order) - forced]
        assert state.pawn == order[0]
        if players == 2:
            assert bonus_takers == [1 - order[0]]
        else:
            expected = order[::-1][: DATA.setup[players].bonus_picks]
            assert bonus_takers == expected[: len(bonus_takers)]
            for missing in expected[len(bonus_takers) :]:
                # A second pick with a single option (a drawn +3 card) is taken without asking.
                assert plus3_held(state, missing) == plus3_before[missing] + 1
        assert len(trump_set_by) == 1
        assert state.trump == trump_set_by[0][1]
        if state.is_over():
            break
        assert state.director == order[0]
        taken = {c for tableau in state.tableaus for column in tableau for c in column}
        leftover = [c for c in market if c not in taken]
        assert len(leftover) == (1 if players == 2 else 0)
        assert sorted(state.market) == sorted(leftover + [card for _, card, _ in plays])
    assert trump_choices


@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("family", [False, True])
def test_the_game_ends_exactly_when_the_bonus_deck_runs_out(players: int, family: bool) -> None:
    assert rounds_in_game(players, family) == ROUNDS[players]
    picks = DATA.setup[players].bonus_picks
    for seed in range(3):
        state = new_state(players, seed, family)
        rounds_seen: set[int] = set()

        def note(s: MovieTricksState, seen: set[int] = rounds_seen) -> None:
            seen.add(s.round)

        play_randomly(state, seed, note)
        assert state.round == max(rounds_seen) == ROUNDS[players]
        assert state.bonus_deck == []
        taken = 21 - len(state.display) - len(state.bonus_unused)
        assert taken == ROUNDS[players] * picks
        assert len(state.display) == (0 if family else 1)
        cards_per_seat = (2 if players == 2 else 1) * ROUNDS[players]
        placed = sum(len(column) for tableau in state.tableaus for column in tableau)
        assert placed >= players * cards_per_seat
        assert state.outcome() is not None


def test_two_players_draw_one_card_each_after_every_round_but_the_last() -> None:
    state = new_state(2, 5)
    sizes = []
    rng = Rng(derive_seed("draws", 5))
    while not state.is_over():
        if state.phase == "play" and not state.plays:
            sizes.append(len(state.draw_deck))
        state.apply(state.turn or 0, rng.choice(state.legal_moves(state.turn or 0)))
    assert sizes == [12, 10, 8, 6, 4, 2, 0]
    assert state.soundtrack_die in DATA.rules.die
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.detail["soundtrack die"] == state.soundtrack_die


# --- +3 cards ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", COUNTS)
def test_plus3_cards(players: int) -> None:
    boosted = 0
    for seed in range(12):
        for seat, move, before in steps(new_state(players, seed), seed):
            if before.phase == "play":
                holds = any(CARDS[c].kind == PLUS3 for c in before.hands[seat])
                may = holds and not before.boosted[seat]
                legal = before.legal_moves(seat)
                assert any(isinstance(m, PlayCard) and m.boost for m in legal) == may
            if isinstance(move, PlayCard) and move.boost:
                boosted += 1
                nxt = after(before, seat, move)
                gone = [c for c in before.hands[seat] if c not in nxt.hands[seat]]
                assert len(gone) == 2 and CARDS[gone[1 - gone.index(move.card)]].kind == PLUS3
                assert [c for c in nxt.discards if c not in before.discards] == [
                    c for c in gone if c != move.card
                ]
            if (
                isinstance(move, BonusToHand | BonusToTableau | DiscardBonus)
                and CARDS[move.card].kind == PLUS3
            ):
                assert not isinstance(move, BonusToTableau)
                nxt = after(before, seat, move)
                if before.bonus_taken == 0:
                    assert nxt.phase == "trump"
                else:
                    assert nxt.trump == before.trump
    assert boosted > 0


# --- props goals ------------------------------------------------------------------------


@pytest.mark.parametrize("players", COUNTS)
def test_props_goal_only_when_placing_props_and_only_once(players: int) -> None:
    claims = 0
    for seed in range(6):
        state = new_state(players, seed)
        for seat, move, before in steps(state, seed):
            nxt = after(before, seat, move)
            placed = [c for c in nxt.tableaus[seat][1] if c not in before.tableaus[seat][1]]
            if nxt.phase == "claim" and nxt.turn == seat and before.phase != "claim":
                assert placed and CARDS[placed[0]].category == PROPS
                assert before.claimed[seat] is None
            if isinstance(move, ClaimGoal | DeclineGoal):
                have = distinct_props([CARDS[c] for c in before.tableaus[seat][1]])
                legal = before.legal_moves(seat)
                assert DeclineGoal() in legal
                assert {m.need for m in legal if isinstance(m, ClaimGoal)} == {
                    need for need in before.goals if need <= have
                }
            if isinstance(move, ClaimGoal):
                claims += 1
                assert nxt.claimed[seat] == move.need
                assert move.need not in nxt.goals
                if players == 2 and before.props_die is None:
                    die = nxt.props_die
                    assert die in DATA.rules.die
                    target = die if die in before.goals and die != move.need else die - 1
                    assert nxt.goals_discarded == [target]
                    assert sorted([*nxt.goals, move.need, target]) == sorted(before.goals)
                else:
                    assert nxt.goals_discarded == before.goals_discarded
        assert all(
            sum(1 for need in [state.claimed[s]] if need is not None) <= 1 for s in range(players)
        )
        assert (
            len(state.goals)
            + len(state.goals_discarded)
            + sum(need is not None for need in state.claimed)
            == 8
        )
    assert claims > 0


def test_family_variant_has_no_display_and_no_goals() -> None:
    for players in COUNTS:
        state = new_state(players, 2, family=True)
        for seat, move, before in steps(state, 2):
            assert not isinstance(move, ClaimGoal | DeclineGoal)
            if before.phase == "bonus":
                assert len(before.display) == 1
                assert before.observe((seat + 1) % players).display == tuple(
                    CARDS[c] for c in before.display
                )
            else:
                assert before.display == []
        assert state.claimed == [None] * players
        assert state.soundtrack_die is None
        outcome = state.outcome()
        assert outcome is not None
        assert [tb.name for tb in outcome.tiebreaks] == ["movies", "symbols"]


# --- what a seat sees --------------------------------------------------------------------


def cards_in(value: object) -> Iterator[Card]:
    """Every card an observation holds, wherever it sits in its fields (nested dataclasses,
    tuples, lists and dicts), found by walking its structure, not by reading its repr."""
    if isinstance(value, Card):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for item in dataclasses.fields(value):
            yield from cards_in(getattr(value, item.name))
    elif isinstance(value, dict):
        for item in value.values():
            yield from cards_in(item)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from cards_in(item)


def test_cards_in_finds_a_card_wherever_it_is_nested() -> None:
    card = CARDS[DATA.playing[0]]
    nested = {"x": [(Play(0, card, False),)], "y": Tableau(((), (card,)), None)}
    assert [c.id for c in cards_in(nested)] == [card.id, card.id]


@pytest.mark.parametrize("players", COUNTS)
def test_a_seat_never_sees_other_hidden_cards(players: int) -> None:
    state = new_state(players, 9)
    rng = Rng(derive_seed("peek", players))
    seen_hidden = 0
    while not state.is_over():
        for viewer in range(players):
            obs = state.observe(viewer)
            assert [c.id for c in obs.hand] == sorted(state.hands[viewer])
            assert obs.hand_sizes == tuple(len(h) for h in state.hands)
            visible = {card.id for card in cards_in(obs)}
            assert set(state.hands[viewer]) <= visible
            hidden = (
                {
                    c
                    for seat, hand in enumerate(state.hands)
                    if seat != viewer
                    for c in hand
                    if CARDS[c].kind == "playing"
                }
                | set(state.unused)
                | set(state.draw_deck)
            )
            seen_hidden += len(hidden)
            assert not visible & hidden, sorted(visible & hidden)
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_moves(seat)))
    assert seen_hidden, "no card was ever hidden from any seat"


def test_a_refused_move_changes_nothing() -> None:
    state = new_state(3, 4)
    seat = state.to_move()[0]
    snapshot = state.clone()
    not_held = next(c for c in DATA.playing if c not in state.hands[seat])
    with pytest.raises(IllegalMove):
        state.apply(seat, PlayCard(not_held, False))
    with pytest.raises(IllegalMove):
        state.apply(seat, BonusToHand(state.display[0]))
    assert state == snapshot
