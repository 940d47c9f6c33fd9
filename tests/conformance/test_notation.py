"""Every game tells every move in words, to every viewer, naming nothing that viewer may not
see; reports a score per seat at every step; and lists the moves it applies on its own."""

from __future__ import annotations

import functools
import re
from typing import Any

import pytest

from games import all_games
from games.interface import EVERYONE, SPECTATOR, Game, State, Viewer
from games.rng import Rng

CASES = [
    pytest.param(game, players, variant, id=f"{game.id}-{players}p-{i}")
    for game in all_games()
    for players in game.player_counts
    for i, variant in enumerate(game.variants())
]
MATCHES = 4


def _texts(game: Game, before: State, seat: int, move: Any, names: frozenset[str]) -> None:
    viewers: list[Viewer] = [SPECTATOR, EVERYONE, *range(before.players)]
    for viewer in viewers:
        text = game.describe(before, seat, move, viewer)
        assert isinstance(text, str) and text.strip(), (viewer, move)
        assert "{" not in text and "}" not in text, text
        if viewer is SPECTATOR:
            leaked = [name for name in names if _names(_without_longer(text, name, game), name)]
            assert not leaked, f"{text!r} names {leaked}, hidden from a spectator"


def _without_longer(text: str, name: str, game: Game) -> str:
    """The text without the longer names that contain ``name`` ("Executive Producer")."""
    for other in _all_names(game):
        if name in other and other != name:
            text = text.replace(other, "")
    return text


def _names(text: str, name: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


@functools.cache
def _all_names(game: Game) -> tuple[str, ...]:
    return tuple(name for kind in game.labels().values() for name in kind.values())


def _hidden(game: Game, before: State, seat: int, after: State) -> frozenset[str] | None:
    """Names the move showed a seat (another seat, or the mover a card it did not hold) that
    the spectator sees neither before nor after: a spectator's text must not name them.

    None when the move took names off the spectator's view (a hand ends and the next is dealt,
    a row card is hired): names can then come back hidden in another seat's new cards, and
    only the texts' shape is checked. A card the mover held before is left out: a view does
    not tell a card laid face down from one laid face up and shuffled away at once."""
    shown_before = game.names_in(before.spectate())
    shown_after = game.names_in(after.spectate())
    if not shown_before <= shown_after:
        return None
    seen = frozenset().union(
        *(game.names_in(after.observe(s)) for s in range(after.players) if s != seat)
    )
    seen |= game.names_in(after.observe(seat)) - game.names_in(before.observe(seat))
    return (seen - shown_after) & _unique_names(game)


@functools.cache
def _unique_names(game: Game) -> frozenset[str]:
    """Names only one card (film, tile...) bears: a name shared by several copies may be told
    of a face-up one while another is hidden."""
    names = _all_names(game)
    return frozenset(name for name in names if names.count(name) == 1)


@pytest.mark.parametrize(("game", "players", "variant"), CASES)
def test_every_move_is_told_and_hides_what_it_must(
    game: Game, players: int, variant: dict[str, Any]
) -> None:
    labels = game.labels()
    assert labels and all(isinstance(k, str) and v for k, v in labels.items())
    described = checked = 0
    for match in range(MATCHES):
        rng = Rng(f"notation-{game.id}-{players}-{match}".encode())
        state = game.new(players, f"{match:064x}", variant)
        before_forced = state.clone()
        for seat, move in state.forced_moves():
            _texts(game, before_forced, seat, move, frozenset())
        while not state.is_over():
            assert len(state.current_scores()) == players
            seat = sorted(state.to_move())[0]
            move = rng.choice(state.legal_moves(seat))
            before = state.clone()
            group = game.group(before)
            assert group and "{" not in group
            state.apply(seat, move)
            hidden = _hidden(game, before, seat, state)
            checked += hidden is not None
            _texts(game, before, seat, move, hidden or frozenset())
            described += 1
            for auto_seat, auto in state.forced_moves():
                _texts(game, before, auto_seat, auto, hidden or frozenset())
        outcome = state.outcome()
        assert outcome is not None and state.current_scores() == outcome.scores
    assert checked > described // 2, (checked, described)


def test_forced_moves_are_what_the_engine_would_have_asked() -> None:
    """Each game with forced moves lists them, and they are the only legal moves at the time:
    replaying a match and asking each seat at every step finds exactly the decisions plus the
    listed moves."""
    found = 0
    for game in all_games():
        for players in game.player_counts:
            state = game.new(players, "f" * 64, game.variants()[0])
            rng = Rng(f"forced-{game.id}-{players}".encode())
            found += len(state.forced_moves())
            while not state.is_over():
                seat = sorted(state.to_move())[0]
                state.apply(seat, rng.choice(state.legal_moves(seat)))
                for auto_seat, auto in state.forced_moves():
                    assert 0 <= auto_seat < players
                    assert isinstance(auto, game.move_types)
                    found += 1
    assert found > 0
