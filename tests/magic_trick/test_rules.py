"""Magic Trick rules, table-driven, with the rulebook's own examples."""

from __future__ import annotations

from collections import Counter

import pytest

from games.errors import IllegalMove
from games.magic_trick.cards import RED, SUITS, Card
from games.magic_trick.moves import KeepSleeveEmpty, PlayCard, SleeveCard
from games.magic_trick.scoring import final_outcome, hand_points, trick_winner
from games.magic_trick.views import HandResult
from tests.magic_trick.helpers import finish_sorting, new_state, play_first_legal

# --- deck preparation -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "hand_size", "suits_in_play", "set_aside"),
    [(3, 13, 5, True), (4, 14, 7, False), (5, 11, 7, True)],
)
@pytest.mark.parametrize("seed", range(6))
def test_deck_preparation(
    players: int, hand_size: int, suits_in_play: int, set_aside: bool, seed: int
) -> None:
    state = new_state(players, seed)
    piles = [state.to_sort[s] + state.placed[s] for s in range(players)]
    dealt = [card for pile in piles for card in pile]
    assert [len(pile) for pile in piles] == [hand_size] * players
    assert len(set(dealt)) == len(dealt)
    assert len(state.suits) == suits_in_play
    assert RED in state.suits
    assert RED not in state.removed_suits
    assert len(state.removed_suits) == 7 - suits_in_play
    assert {card.suit for card in dealt} <= set(state.suits)
    assert (state.set_aside is not None) == set_aside
    everything = dealt + ([state.set_aside] if state.set_aside else [])
    assert len(everything) == suits_in_play * 8
    assert state.set_aside not in dealt


def test_three_player_suits_removed_once_per_game() -> None:
    state = new_state(3, 11)
    finish_sorting(state)
    removed = state.removed_suits
    while state.hand_no == 0:
        play_first_legal(state)
    assert state.removed_suits == removed
    assert not any(card.suit in removed for pile in state.to_sort for card in pile)


def test_removed_suits_vary_with_the_seed() -> None:
    assert len({new_state(3, seed).removed_suits for seed in range(30)}) > 5


# --- sorting and who sees what ------------------------------------------------------------


def test_sorter_decides_only_between_equal_ranks() -> None:
    state = new_state(4, 3)
    for seat in state.to_move():
        moves = state.legal_moves(seat)
        assert len(moves) >= 2
        assert len({m.rank for m in moves}) == 1
        assert moves[0].rank == max(c.rank for c in state.to_sort[seat])


def test_sorted_hand_goes_to_the_left_in_descending_order() -> None:
    state = new_state(4, 5)
    finish_sorting(state)
    placed = [list(p) for p in state.placed]
    for owner in range(4):
        fan = state.fans[owner]
        assert fan == placed[(owner - 1) % 4]
        assert [c.rank for c in fan] == sorted((c.rank for c in fan), reverse=True)


def test_sort_order_of_equal_ranks_is_the_sorters_choice() -> None:
    state = new_state(4, 5)
    seat = state.to_move()[0]
    choice = state.legal_moves(seat)[-1]
    state.apply(seat, choice)
    assert state.placed[seat][-1] == Card(choice.suit, choice.rank)


def test_who_sees_what_during_play() -> None:
    state = new_state(4, 2)
    finish_sorting(state)
    for viewer in range(4):
        obs = state.observe(viewer)
        for owner, fan in enumerate(obs.fans):
            assert [slot.suit for slot in fan] == [c.suit for c in state.fans[owner]]
            ranks_known = [slot.rank is not None for slot in fan]
            assert all(ranks_known) == (owner == (viewer + 1) % 4)
            assert any(ranks_known) == (owner == (viewer + 1) % 4)
    spectator = state.spectate()
    assert all(slot.rank is None for fan in spectator.fans for slot in fan)


def test_sort_pile_is_private_to_its_sorter() -> None:
    state = new_state(3, 4)
    obs = [state.observe(s) for s in range(3)]
    for seat in range(3):
        mine = set(obs[seat].sorting) | set(obs[seat].sorted)
        assert mine == set(state.to_sort[seat]) | set(state.placed[seat])
    assert state.spectate().sorting == ()


def test_played_and_sleeved_cards_become_public() -> None:
    state = new_state(3, 8)
    finish_sorting(state)
    leader = state.turn
    move = state.legal_moves(leader)[0]
    state.apply(leader, move)
    sleeve = state.legal_moves(leader)[0]
    assert isinstance(sleeve, SleeveCard)
    state.apply(leader, sleeve)
    for viewer in [None, 0, 1, 2]:
        obs = state.spectate() if viewer is None else state.observe(viewer)
        assert obs.fans[leader][move.slot].rank == state.fans[leader][move.slot].rank
        assert obs.fans[leader][sleeve.slot].rank == state.fans[leader][sleeve.slot].rank
        assert obs.fans[leader][sleeve.slot].place == "sleeve"


# --- tricks -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("plays", "winner"),
    [
        ([("blue", 3), ("blue", 5), ("green", 7)], 1),
        ([("blue", 3), ("red", 0), ("blue", 7)], 1),
        ([("green", 7), ("red", 2), ("red", 6), ("green", 1)], 2),
        ([("red", 1), ("red", 0), ("black", 7)], 0),
        ([("yellow", 0), ("black", 7), ("orange", 7), ("purple", 7), ("blue", 7)], 0),
    ],
)
def test_trick_winner(plays: list[tuple[str, int]], winner: int) -> None:
    assert trick_winner([(seat, Card(s, r)) for seat, (s, r) in enumerate(plays)]) == winner


def test_must_follow_suit_when_able() -> None:
    state = new_state(4, 9)
    finish_sorting(state)
    play_first_legal(state)
    seat = state.turn
    lead = state.fans[state.current[0][0]][state.current[0][1]].suit
    in_hand = [slot for slot, place in enumerate(state.places[seat]) if place == "hand"]
    same = [slot for slot in in_hand if state.fans[seat][slot].suit == lead]
    expected = same or in_hand
    assert [m.slot for m in state.legal_moves(seat)] == expected
    others = [slot for slot in in_hand if slot not in expected]
    if others:
        before = state.clone()
        with pytest.raises(IllegalMove):
            state.apply(seat, PlayCard(others[0]))
        assert state == before


def test_trick_winner_leads_next_and_left_of_dealer_leads_first() -> None:
    state = new_state(5, 12)
    finish_sorting(state)
    assert state.turn == (state.dealer + 1) % 5
    for _ in range(5):
        play_first_legal(state)
    assert state.turn == state.tricks[0].winner


# --- the sleeve ---------------------------------------------------------------------------


def test_sleeve_offered_right_after_playing_and_only_once() -> None:
    state = new_state(3, 21)
    finish_sorting(state)
    leader = state.turn
    state.apply(leader, state.legal_moves(leader)[0])
    moves = state.legal_moves(leader)
    assert state.to_move() == (leader,)
    assert moves[-1] == KeepSleeveEmpty()
    in_hand = [slot for slot, place in enumerate(state.places[leader]) if place == "hand"]
    assert [m.slot for m in moves if isinstance(m, SleeveCard)] == in_hand
    state.apply(leader, moves[0])
    while state.turn != leader:
        play_first_legal(state)
    state.apply(leader, state.legal_moves(leader)[0])
    assert state.pending == "play"


def test_sleeved_card_cannot_be_played() -> None:
    state = new_state(4, 17)
    finish_sorting(state)
    leader = state.turn
    state.apply(leader, state.legal_moves(leader)[0])
    sleeve = SleeveCard(state.legal_moves(leader)[1].slot)
    state.apply(leader, sleeve)
    while state.turn != leader and state.hand_no == 0:
        play_first_legal(state)
    assert PlayCard(sleeve.slot) not in state.legal_moves(leader)


def test_last_card_goes_up_the_sleeve_when_none_was_chosen() -> None:
    state = new_state(4, 23)
    finish_sorting(state)
    while len(state.tricks) < state.hand_size - 2:
        play_first_legal(state, sleeve=False)
    last_two = {
        seat: [state.fans[seat][slot] for slot, p in enumerate(state.places[seat]) if p == "hand"]
        for seat in range(4)
    }
    assert all(len(cards) == 2 for cards in last_two.values())
    played = {}
    for _ in range(4):
        seat = state.turn
        move = state.legal_moves(seat)[0]
        played[seat] = state.fans[seat][move.slot]
        state.apply(seat, move)
    hand = state.past[0]
    for seat in range(4):
        assert hand.sleeves[seat] == next(c for c in last_two[seat] if c != played[seat])
    assert sum(hand.tricks) == 13


def test_no_sleeve_offer_in_the_last_trick() -> None:
    state = new_state(3, 30)
    finish_sorting(state)
    while len(state.tricks) < state.hand_size - 2:
        play_first_legal(state, sleeve=False)
    leader = state.turn
    state.apply(leader, state.legal_moves(leader)[0])
    assert state.pending == "play"


# --- scoring ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sleeve", "tricks", "suits", "prestige", "points"),
    [
        (3, 1, 1, True, -2),  # the rulebook's example: a 3 with 1 trick
        (3, 5, 4, True, -2),  # ... or with 5 tricks
        (3, 3, 2, True, 3),
        (3, 3, 3, True, 5),  # prestige: as many suits as the sleeve's rank
        (3, 3, 3, False, 3),  # no prestige when playing without it
        (0, 0, 0, True, 5),  # the 0 bid, with prestige
        (0, 0, 0, False, 3),
        (0, 2, 2, True, -2),
        (7, 0, 0, True, -7),
        (5, 8, 5, True, -3),  # more than 7 tricks always misses
        (2, 2, 4, True, 3),
    ],
)
def test_hand_points(sleeve: int, tricks: int, suits: int, prestige: bool, points: int) -> None:
    assert hand_points(sleeve, tricks, suits, prestige) == points


def _last(sleeves: list[int], tricks: list[int]) -> HandResult:
    n = len(sleeves)
    return HandResult(
        dealer=0,
        sleeves=tuple(Card("blue", r) for r in sleeves),
        tricks=tuple(tricks),
        suits=(0,) * n,
        points=(0,) * n,
        prestige=(False,) * n,
    )


@pytest.mark.parametrize(
    ("scores", "prestige_count", "ranks"),
    [
        ([10, 8, 6], [0, 0, 0], (1, 2, 3)),
        ([10, 10, 6], [1, 2, 0], (2, 1, 3)),
        ([10, 10, 6], [2, 2, 0], (1, 1, 3)),  # still tied: shared victory
        ([4, 4, 4, 4], [0, 1, 1, 3], (4, 2, 2, 1)),
    ],
)
def test_ties_with_prestige_go_to_more_prestige_bonuses(
    scores: list[int], prestige_count: list[int], ranks: tuple[int, ...]
) -> None:
    last = _last([0] * len(scores), [0] * len(scores))
    assert final_outcome(scores, prestige_count, last, prestige=True).ranks == ranks


@pytest.mark.parametrize(
    ("scores", "sleeves", "tricks", "ranks"),
    [
        ([9, 9, 1], [2, 1, 0], [2, 1, 5], (2, 1, 3)),  # both met: fewer tricks wins
        ([9, 9, 1], [2, 3, 0], [2, 1, 5], (1, 2, 3)),  # only one met
        ([9, 9, 1], [4, 3, 0], [2, 1, 5], (1, 1, 3)),  # neither met: shared
        ([9, 9, 9], [1, 1, 0], [1, 1, 4], (1, 1, 3)),  # met with equal tricks: shared
    ],
)
def test_ties_without_prestige_go_to_the_fewest_tricks_bid_met_last_hand(
    scores: list[int], sleeves: list[int], tricks: list[int], ranks: tuple[int, ...]
) -> None:
    outcome = final_outcome(scores, [0] * len(scores), _last(sleeves, tricks), prestige=False)
    assert outcome.ranks == ranks


@pytest.mark.parametrize("players", [3, 4, 5])
def test_one_hand_per_player_with_dealer_rotating(players: int) -> None:
    state = new_state(players, 40 + players)
    while not state.is_over():
        if state.phase == "sort":
            finish_sorting(state)
        else:
            play_first_legal(state, sleeve=True)
    assert [hand.dealer for hand in state.past] == list(range(players))
    totals = [sum(hand.points[s] for hand in state.past) for s in range(players)]
    outcome = state.outcome()
    assert outcome is not None
    assert list(outcome.scores) == totals


def test_suit_names() -> None:
    assert SUITS[0] == RED
    assert Counter(SUITS).most_common(1)[0][1] == 1
