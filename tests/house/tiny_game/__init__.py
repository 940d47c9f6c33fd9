"""Last Token, a throwaway sixth game for the test that adding a game takes only its folder, one
line of proto/games.toml and one .proto file (tiny_game.proto, beside this module).

Two players take turns removing one to `most` tokens from a pile; whoever takes the last token
wins. The pile's size and `most` are the game's data. Everything is public and nothing is left
to chance."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from games.interface import (
    Game,
    Labels,
    Options,
    OptionValue,
    Outcome,
    ScoreBreakdown,
    ScorePart,
    State,
    Viewer,
)
from games.rng import Rng

DATA = {"pile": 7, "most": 2}


@dataclass(frozen=True)
class Take:
    """Remove `tokens` tokens from the pile."""

    kind: ClassVar[str] = "take"
    tokens: int


@dataclass(frozen=True)
class PileView:
    """What everyone sees: the pile, whose turn it is, and who took last."""

    pile: int
    to_move: int
    last_taker: int | None
    taken: tuple[int, ...]


class LastTokenState(State):
    game_id: ClassVar[str] = "tiny-game"
    move_types: ClassVar[tuple[type[Any], ...]] = (Take,)

    def __init__(self, pile: int, most: int) -> None:
        self.pile = pile
        self.most = most
        self.turn = 0
        self.last_taker: int | None = None
        self.taken = [0, 0]

    @property
    def players(self) -> int:
        return 2

    def to_move(self) -> tuple[int, ...]:
        return () if self.pile == 0 else (self.turn,)

    def legal_moves(self, seat: int) -> tuple[Any, ...]:
        if seat not in self.to_move():
            return ()
        return tuple(Take(n) for n in range(1, min(self.most, self.pile) + 1))

    def _apply(self, seat: int, move: Any) -> None:
        self.pile -= move.tokens
        self.taken[seat] += move.tokens
        self.last_taker = seat
        self.turn = 1 - seat

    def observe(self, seat: int) -> Any:
        return self.spectate()

    def spectate(self) -> Any:
        return PileView(self.pile, self.turn, self.last_taker, tuple(self.taken))

    def outcome(self) -> Outcome | None:
        if self.pile:
            return None
        return Outcome.ranked(self.current_scores())

    def clone(self) -> State:
        copy = LastTokenState(self.pile, self.most)
        copy.turn, copy.last_taker, copy.taken = self.turn, self.last_taker, list(self.taken)
        return copy

    def current_scores(self) -> tuple[int, ...]:
        if self.pile:
            return (0, 0)
        return tuple(int(seat == self.last_taker) for seat in range(2))

    def indistinguishable(self, seat: int, rng: Rng) -> State:
        return self.clone()


class TinyGame(Game):
    id: ClassVar[str] = "tiny-game"
    title: ClassVar[str] = "Last Token"
    player_counts: ClassVar[tuple[int, ...]] = (2,)
    move_types: ClassVar[tuple[type[Any], ...]] = (Take,)
    private_information: ClassVar[bool] = False

    def _new(self, players: int, rng: Rng, options: Mapping[str, OptionValue]) -> State:
        return LastTokenState(DATA["pile"], DATA["most"])

    def max_decisions(self, players: int, options: Options | None = None) -> int:
        return DATA["pile"]

    def describe(self, before: State, seat: int, move: Any, viewer: Viewer) -> str:
        return f"takes {move.tokens}"

    def group(self, before: State) -> str:
        return "the pile"

    def labels(self) -> Labels:
        return {}

    def score_rules(self, players: int, options: Options | None = None) -> str:
        return "Whoever takes the last token scores 1."

    def explain_score(self, final: State) -> ScoreBreakdown:
        scores = final.current_scores()
        return tuple(
            (ScorePart(score, "took the last token" if score else "did not"),) for score in scores
        )

    def names_in(self, view: Any) -> frozenset[str]:
        return frozenset()

    def data(self) -> Mapping[str, Any]:
        return DATA
