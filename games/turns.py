"""The turn loop of games in which one seat decides at a time."""

from __future__ import annotations

import abc
from typing import Any

from games.interface import Outcome, State


class OneSeatAtATime(State):
    """One seat decides at a time; a decision with a single legal move plays itself.

    Subclasses set ``turn`` (None once the match is over), ``result`` and call `_settle` after
    setting up; they supply `_compute_legal` and `_step`.
    """

    turn: int | None
    result: Outcome | None
    _legal: tuple[Any, ...]
    _cache_forced: tuple[tuple[int, Any], ...] = ()
    """The moves `_settle` applied on its own last time (derived: left out of equality)."""

    @abc.abstractmethod
    def _compute_legal(self, seat: int) -> tuple[Any, ...]: ...

    @abc.abstractmethod
    def _step(self, seat: int, move: Any) -> None: ...

    def to_move(self) -> tuple[int, ...]:
        return () if self.turn is None else (self.turn,)

    def legal_moves(self, seat: int) -> tuple[Any, ...]:
        return self._legal if seat == self.turn else ()

    def _apply(self, seat: int, move: Any) -> None:
        self._step(seat, move)
        self._settle()

    def outcome(self) -> Outcome | None:
        return self.result

    def forced_moves(self) -> tuple[tuple[int, Any], ...]:
        return self._cache_forced

    def _settle(self) -> None:
        forced: list[tuple[int, Any]] = []
        self._legal = ()
        while self.turn is not None:
            legal = self._compute_legal(self.turn)
            if len(legal) != 1:
                self._legal = legal
                break
            forced.append((self.turn, legal[0]))
            self._step(self.turn, legal[0])
        self._cache_forced = tuple(forced)
