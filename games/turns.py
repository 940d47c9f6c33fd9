"""The turn loop of games in which one seat decides at a time."""

from __future__ import annotations

import abc
from typing import Any

from games.interface import Outcome, State

_ALONE = tuple((seat,) for seat in range(64))
"""`to_move`'s answer for each seat, made once (no game seats more than a few players)."""


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
        turn = self.turn
        return () if turn is None else _ALONE[turn]

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
        """Play every single-move decision on its own until a seat has a choice (or the match
        ends). Written for the usual case, a choice at once, to make no list of forced moves."""
        self._legal = ()
        turn = self.turn
        if turn is None:
            self._cache_forced = ()
            return
        legal = self._compute_legal(turn)
        if len(legal) != 1:
            self._legal = legal
            self._cache_forced = ()
            return
        forced: list[tuple[int, Any]] = []
        while True:
            forced.append((turn, legal[0]))
            self._step(turn, legal[0])
            turn = self.turn
            if turn is None:
                break
            legal = self._compute_legal(turn)
            if len(legal) != 1:
                self._legal = legal
                break
        self._cache_forced = tuple(forced)
