"""Movie Fight turns: refresh, take and play, effects (own and group), the automa, the end."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.errors import IllegalMove
from games.movie_fight.cards import CARDS, DATA
from games.movie_fight.moves import Downgrade, Play, Refresh, Skip, Upgrade
from games.movie_fight.state import MovieFightState
from games.movie_fight.views import DOWNGRADE, PLAY, REFRESH, UPGRADE
from games.play import play_match, replay
from games.rng import Rng, derive_seed
from tests.movie_fight.helpers import GAME, cinema, new_state, play_randomly


def first_with_effect(predicate: object) -> int:
    return next(n for n, card in sorted(CARDS.items()) if predicate(card))  # type: ignore[operator]


def rig_offer(state: MovieFightState, cards: list[int]) -> None:
    """Put ``cards`` in the offer (taking them out of the deck); the state stays consistent."""
    pool = state.offer + state.deck
    for card in cards:
        pool.remove(card)
    state.offer = list(cards)
    state.deck = pool
    state._legal = state._compute_legal(state.turn) if state.turn is not None else ()


def test_a_game_is_twelve_cards_each() -> None:
    for players in (1, 2, 5):
        state = new_state(players, seed=players)
        play_randomly(state, players)
        assert all(len(c.cards()) == 12 for c in state.cinemas)
        if players == 1:
            assert len(state.automa_audience) + len(state.automa_screens) == 12
        assert state.outcome() is not None


def test_first_turn_offers_every_card_floor_and_side() -> None:
    state = new_state(3)
    assert state.phase == PLAY  # nothing upgraded: no refresh to decide
    moves = state.legal_moves(0)
    assert len(moves) == 3 * 2 * 2
    assert {m.card for m in moves if isinstance(m, Play)} == set(state.offer)


def test_playing_refills_the_offer_from_the_deck() -> None:
    state = new_state(2)
    top = state.deck[0]
    card = state.offer[0]
    state.apply(0, Play(card, 2, "audience"))
    assert card in state.cinemas[0].floors[1].audience
    assert top in state.offer and card not in state.offer
    assert state.to_move() == (1,)


def test_own_upgrade_effect_and_refresh_by_downgrading() -> None:
    state = new_state(2, seed=5)
    screen_upgrade = first_with_effect(
        lambda c: (
            c.effect.kind == "upgrade"
            and c.effect.side == "screen"
            and not c.effect.group
            and not c.effect.need
        )
    )
    rig_offer(state, [screen_upgrade, *state.offer[1:]])
    state.apply(0, Play(screen_upgrade, 1, "screen"))
    assert state.phase == UPGRADE and state.to_move() == (0,)
    assert state.legal_moves(0) == (Upgrade(screen_upgrade), Skip())
    state.apply(0, Upgrade(screen_upgrade))
    assert state.cinemas[0].upgraded == (screen_upgrade,)
    state.apply(1, state.legal_moves(1)[0])
    while state.to_move() != (0,):
        state.apply(
            state.to_move()[0],
            Skip()
            if Skip() in state.legal_moves(state.to_move()[0])
            else state.legal_moves(state.to_move()[0])[0],
        )
    assert state.phase == REFRESH
    assert state.legal_moves(0) == (Refresh(screen_upgrade), Skip())
    old_offer = list(state.offer)
    state.apply(0, Refresh(screen_upgrade))
    assert state.cinemas[0].upgraded == ()
    assert state.phase == PLAY and state.refreshed
    assert state.deck[-3:] == old_offer
    assert not set(old_offer) & set(state.offer)


def test_group_effect_asks_each_qualifying_player_owner_first() -> None:
    state = new_state(3, seed=2)
    group = first_with_effect(
        lambda c: (
            c.effect.kind == "upgrade"
            and c.effect.group
            and c.effect.side == "audience"
            and not c.effect.need
        )
    )
    viewers = [n for n in CARDS if n != group][:2]
    state.cinemas[0] = cinema(state.cinemas[0].tile, ((viewers[0],), ()))
    state.cinemas[2] = cinema(state.cinemas[2].tile, ((viewers[1],), ()))
    state.deck = [c for c in state.deck if c not in viewers]
    state.offer = [c for c in state.offer if c not in viewers]
    rig_offer(state, [group, *[c for c in state.offer if c != group][:2]])
    state.apply(0, Play(group, 1, "screen"))
    assert state.phase == UPGRADE and state.to_move() == (0,)
    state.apply(0, Upgrade(viewers[0]))
    # Seat 1 has no viewer: not asked. Seat 2 is.
    assert state.to_move() == (2,) and state.phase == UPGRADE
    assert state.legal_moves(2) == (Upgrade(viewers[1]), Skip())
    state.apply(2, Skip())
    assert state.to_move() == (1,) and state.phase == PLAY
    assert state.cinemas[2].upgraded == ()


def test_downgrade_then_upgrade() -> None:
    state = new_state(2, seed=3)
    swap = first_with_effect(lambda c: c.effect.kind == "downgrade-upgrade")
    a, b = [n for n in CARDS if n != swap][:2]
    state.deck = [c for c in state.deck if c not in (a, b)]
    state.offer = [c for c in state.offer if c not in (a, b)]
    rig_offer(state, [swap, *[c for c in state.offer if c != swap][:2]])
    state.cinemas[0] = cinema(state.cinemas[0].tile, ((a, b), ()), upgraded=(a,))
    state.phase = REFRESH  # as at the start of a turn with an upgraded card
    state._legal = state._compute_legal(0)
    assert state.legal_moves(0) == (Refresh(a), Skip())
    state.apply(0, Skip())
    state.apply(0, Play(swap, 2, "screen"))
    assert state.phase == DOWNGRADE
    assert state.legal_moves(0) == (Downgrade(a), Skip())
    state.apply(0, Downgrade(a))
    assert state.phase == UPGRADE
    assert Upgrade(a) not in state.legal_moves(0)
    with pytest.raises(IllegalMove):
        state.apply(0, Upgrade(a))
    state.apply(0, Upgrade(b))
    assert state.cinemas[0].upgraded == (b,)


def test_the_swap_effect_upgrades_once_it_has_downgraded() -> None:
    """The rulebook's effect is one swap, a downgrade and an upgrade of another card: the
    downgrade may be declined, but once made the upgrade must follow."""
    state = new_state(2, seed=3)
    swap = first_with_effect(lambda c: c.effect.kind == "downgrade-upgrade")
    a, b = [n for n in CARDS if n != swap][:2]
    state.deck = [c for c in state.deck if c not in (a, b)]
    state.offer = [c for c in state.offer if c not in (a, b)]
    rig_offer(state, [swap, *[c for c in state.offer if c != swap][:2]])
    state.cinemas[0] = cinema(state.cinemas[0].tile, ((a, b), ()), upgraded=(a,))
    state.phase = REFRESH
    state._legal = state._compute_legal(0)
    state.apply(0, Skip())
    state.apply(0, Play(swap, 2, "screen"))
    assert Skip() in state.legal_moves(0)
    state.apply(0, Downgrade(a))
    assert state.phase == UPGRADE
    assert state.legal_moves(0) and Skip() not in state.legal_moves(0)
    assert not state.is_legal(0, Skip())
    with pytest.raises(IllegalMove):
        state.apply(0, Skip())
    assert state.cinemas[0].upgraded == ()


def test_wild_symbols_do_not_meet_genre_effects() -> None:
    from games.movie_fight.effects import upgradable

    genre_effect = next(c.effect for c in CARDS.values() if c.effect.need == "genre")
    wild_only = [
        n
        for n, c in CARDS.items()
        if c.genres == ("wild",) and genre_effect.genre not in c.screen_bar.genres
    ]
    assert wild_only
    assert upgradable(cinema(1, ((), tuple(wild_only))), genre_effect) == ()


def test_the_automa_uses_half_decks_with_one_card_set_aside() -> None:
    state = new_state(1, seed=11, level=3)
    names = {card.name for card in DATA.automa_cards}
    assert state.automa_aside in names and len(state.automa_pile) == 6
    assert {state.automa_aside, *state.automa_pile} == names
    seen_first_half: list[str] = []
    while not state.is_over():
        seat = state.to_move()[0]
        before = len(state.automa_audience) + len(state.automa_screens)
        state.apply(seat, state.legal_moves(seat)[-1])
        after = len(state.automa_audience) + len(state.automa_screens)
        if after == 6 and before == 5:
            seen_first_half = list(state.automa_flipped)
    assert len(seen_first_half) == 6 and len(set(seen_first_half)) == 6
    assert len(state.automa_flipped) == 6
    outcome = state.outcome()
    assert outcome is not None and len(outcome.scores) == 1
    automa = outcome.detail["automa"]
    assert isinstance(automa, dict) and automa["level"] == 3


def test_the_automa_refresh_card_plays_the_lowest_number_as_a_viewer() -> None:
    state = new_state(1, seed=4)
    state.automa_pile = ["refresh", *[n for n in state.automa_pile if n != "refresh"]][:6]
    state.automa_aside = next(c.name for c in DATA.automa_cards if c.name not in state.automa_pile)
    deck_before = list(state.deck)
    card = state.offer[0]
    state.apply(0, Play(card, 1, "audience"))
    # The player's refill came from the deck top; then the automa refreshed the offer.
    new_offer = deck_before[1:4]
    assert state.automa_audience == [min(new_offer)]


def test_solo_result_against_the_automa() -> None:
    record = play_match(GAME, 1, "solo", ["heuristic"], {"level": 1})
    automa = record.outcome.detail["automa"]
    assert isinstance(automa, dict)
    mine = record.outcome.scores[0]
    assert automa["result"] == (
        "win" if mine > automa["score"] else "loss" if mine < automa["score"] else "draw"
    )


def test_higher_levels_score_more_for_the_same_play() -> None:
    scores = []
    for level in (1, 2, 3, 4):
        record = play_match(GAME, 1, "levels", ["first"], {"level": level})
        automa = record.outcome.detail["automa"]
        assert isinstance(automa, dict)
        scores.append(automa["score"])
    assert scores == sorted(scores) and scores[0] < scores[-1]


def test_ties_break_on_tickets() -> None:
    state = new_state(2)
    play_randomly(state, 9)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.tiebreaks[0].name == "tickets"


def test_replay_is_exact() -> None:
    record = play_match(GAME, 4, "replay", ["heuristic", "random", "first", "last"], {"side": "B"})
    state = replay(GAME, 4, "replay", record.moves, {"side": "B"})
    assert state.outcome() == record.outcome


def test_side_b_uses_the_b_conditions() -> None:
    tile = DATA.tiles[0]
    lower_b, upper_b = tile.conditions("B")
    assert (upper_b.kind, upper_b.tiers) == ("tickets", ((2, 1),))
    assert (lower_b.kind, lower_b.tiers) == ("distinct-equipment", ((2, 1),))
    state = new_state(2, side="B")
    assert replace(state.cinemas[0]).tile in range(1, 6)


def test_the_solo_automas_unflipped_cards_never_show() -> None:
    """The automa's pile is hidden chance: re-drawn, it changes nothing the player sees."""
    state = new_state(1, 3)
    rng = Rng(derive_seed("automa-pile", 1))
    redrawn = 0
    while not state.is_over():
        twin = state.indistinguishable(0, rng)
        assert twin.observe(0) == state.observe(0)
        redrawn += twin.automa_pile != state.automa_pile
        state.apply(0, rng.choice(state.legal_moves(0)))
    assert redrawn, "the automa's pile was never re-drawn"
