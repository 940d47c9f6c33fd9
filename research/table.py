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

_UNKNOWN = -2
"""`Table._current` before the seat asked is worked out."""


class Table:
    """A match of ``game`` in progress, with the moves told to each seat so far.

    The engine's state is changed only through `play` (the seat asked now is remembered
    between plays). What each seat is told is worked out when first read: until then a playout
    only logs its answers, and `told` replays them on a copy of the state from before the first
    (the engines replay exactly from a state and its moves), then tells as it goes."""

    def __init__(self, game: Game, state: State, told: Sequence[tuple[str, ...]] = ()) -> None:
        self.game = game
        self.state = state
        self.players = state.players
        self.held: dict[int, Any] = {}
        self._told: list[tuple[str, ...]] = list(told) or [() for _ in range(self.players)]
        self._log: list[tuple[int, Any]] = []
        """Answers applied since `_before` that `_told` does not hold yet, in order."""
        self._before: State | None = None
        self._telling = False
        """Whether `told` has been read: from then on each answer is told as it is applied."""
        self._current = _UNKNOWN
        self.tell = True
        """Whether to keep `told` (an information-state string needs it; a playout does not)."""

    @property
    def told(self) -> list[tuple[str, ...]]:
        """Per seat, every decision so far in the game's own words as told to that seat."""
        if self._log:
            assert self._before is not None
            state = self._before.clone()
            told = self._told
            for answering, answer in self._log:
                told = self._telling_of(told, state, answering, answer)
                state.apply(answering, answer)
            self._told, self._log, self._before = told, [], None
        self._telling = True
        return self._told

    def _telling_of(
        self, told: list[tuple[str, ...]], state: State, answering: int, answer: Any
    ) -> list[tuple[str, ...]]:
        describe = self.game.describe
        return [
            (*told[viewer], describe(state, answering, answer, viewer))
            for viewer in range(self.players)
        ]

    @classmethod
    def new(cls, game: Game, players: int, seed: Seed, options: Options | None = None) -> Table:
        return cls(game, game.new(players, seed, options))

    def clone(self) -> Table:
        """A copy to play on; it logs its answers until its own `told` is read."""
        copy = Table(self.game, self.state.clone(), self._told)
        copy.held = dict(self.held)
        copy.tell = self.tell
        copy._log = list(self._log)
        copy._before = self._before
        copy._current = self._current
        return copy

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        return self.clone()

    def waiting(self) -> tuple[int, ...]:
        """The seats of the current step that have not answered yet, in seat order."""
        return tuple(seat for seat in sorted(self.state.to_move()) if seat not in self.held)

    def current(self) -> int | None:
        """The one seat asked now, or None once the match is over."""
        if self._current != _UNKNOWN:
            return None if self._current < 0 else self._current
        if not self.held:
            to_move = self.state.to_move()
            seat = min(to_move) if to_move else None
        else:
            waiting = self.waiting()
            seat = waiting[0] if waiting else None
        self._current = -1 if seat is None else seat
        return seat

    def legal_moves(self, seat: int) -> tuple[Any, ...]:
        if seat != self.current() and (seat in self.held or seat not in self.state.to_move()):
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
        self._current = _UNKNOWN
        to_move = self.state.to_move()
        if len(to_move) == 1 and not self.held:
            self._apply(to_move[0], move)
            return
        seat = self.current()
        self._current = _UNKNOWN
        if seat is None:
            raise ValueError("the match is over")
        if not self.state.is_legal(seat, move):
            raise ValueError(f"{move!r} is not a legal move of seat {seat}")
        self.held[seat] = move
        if self.waiting():
            return
        held, self.held = self.held, {}
        for answering, answer in sorted(held.items()):
            self._apply(answering, answer)

    def _apply(self, answering: int, answer: Any) -> None:
        """Apply one answer (the engine refuses an illegal one: `MoveError`)."""
        if not self.tell:
            self.state.apply(answering, answer)
        elif self._telling:
            told = self._telling_of(self._told, self.state, answering, answer)
            self.state.apply(answering, answer)
            self._told = told
        else:
            if not self._log:
                self._before = self.state.clone()
            self.state.apply(answering, answer)
            self._log.append((answering, answer))

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
