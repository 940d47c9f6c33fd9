"""One match seen one decision at a time: what every adapter here drives.

Learning and search tools expect one seat to act at a time. A simultaneous step (several
seats in `State.to_move`) is therefore served in turn, in seat order: each answer is held
back, unapplied, until every seat of the step has answered, then all are applied together.
While answers are held, each seat still to answer sees the step as it was (the engine's state
has not changed) and its legal moves are those of the step; a resampled table
(`Table.resample`) replaces the held answers of other seats by fresh random legal moves of
the resampled state, so nothing of them reaches the seat resampling.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.interface import Game, Options, Outcome, State
from games.rng import Rng, Seed


class Table:
    """A match of ``game`` in progress, with the moves told to each seat so far."""

    def __init__(self, game: Game, state: State, told: Sequence[tuple[str, ...]] = ()) -> None:
        self.game = game
        self.state = state
        self.players = state.players
        self.held: dict[int, Any] = {}
        self.told: list[tuple[str, ...]] = list(told) or [() for _ in range(self.players)]
        """Per seat, every decision so far in the game's own words as told to that seat."""
        self.tell = True
        """Whether to keep `told` (an information-state string needs it; a playout does not)."""

    @classmethod
    def new(cls, game: Game, players: int, seed: Seed, options: Options | None = None) -> Table:
        return cls(game, game.new(players, seed, options))

    def clone(self) -> Table:
        copy = Table(self.game, self.state.clone(), self.told)
        copy.held = dict(self.held)
        copy.tell = self.tell
        return copy

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        return self.clone()

    def waiting(self) -> tuple[int, ...]:
        """The seats of the current step that have not answered yet, in seat order."""
        return tuple(seat for seat in sorted(self.state.to_move()) if seat not in self.held)

    def current(self) -> int | None:
        """The one seat asked now, or None once the match is over."""
        if not self.held:
            to_move = self.state.to_move()
            return min(to_move) if to_move else None
        waiting = self.waiting()
        return waiting[0] if waiting else None

    def legal_moves(self, seat: int) -> tuple[Any, ...]:
        if seat in self.held or seat not in self.state.to_move():
            return ()
        return self.state.legal_moves(seat)

    def observe(self, seat: int) -> Any:
        return self.state.observe(seat)

    def outcome(self) -> Outcome | None:
        return self.state.outcome()

    def is_over(self) -> bool:
        return self.state.is_over()

    def play(self, move: Any) -> None:
        """The current seat answers; the step is applied once every seat of it has."""
        to_move = self.state.to_move()
        if len(to_move) == 1 and not self.held:
            self._apply({to_move[0]: move})
            return
        seat = self.current()
        if seat is None:
            raise ValueError("the match is over")
        if not self.state.is_legal(seat, move):
            raise ValueError(f"{move!r} is not a legal move of seat {seat}")
        self.held[seat] = move
        if self.waiting():
            return
        held, self.held = self.held, {}
        self._apply(held)

    def _apply(self, answers: dict[int, Any]) -> None:
        """Apply answers in seat order (the engine refuses an illegal one: `MoveError`)."""
        for answering, answer in sorted(answers.items()):
            told = self.told
            if self.tell:
                told = [
                    (*told[viewer], self.game.describe(self.state, answering, answer, viewer))
                    for viewer in range(self.players)
                ]
            self.state.apply(answering, answer)
            self.told = told

    def resample(self, seat: int, rng: Rng) -> Table:
        """A table ``seat`` cannot tell from this one: the engine's `State.indistinguishable`,
        the seat's own held answer kept and every other held answer drawn again at random.
        Every seat's record of what it was told becomes this seat's: the other seats' own
        records name what this seat may not know."""
        mine = self.told[seat]
        copy = Table(self.game, self.state.indistinguishable(seat, rng), [mine] * self.players)
        copy.tell = self.tell
        for other in sorted(self.held):
            copy.held[other] = (
                self.held[other] if other == seat else rng.choice(copy.state.legal_moves(other))
            )
        return copy
