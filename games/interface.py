"""The one interface every engine implements, and the outcome every match ends with.

A match is fully described by (game, options, players, seed, moves): states are built by
``Game.new`` and changed only by ``State.apply``; chance comes from the match's `Rng`.
"""

from __future__ import annotations

import abc
import itertools
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Literal, final

from games.errors import (
    ForcedMismatch,
    IllegalMove,
    MalformedMove,
    NotYourTurn,
    OptionError,
    PlayerCountError,
)
from games.levels import Rollouts, Tuning
from games.rng import Rng, Seed, derive_seed
from games.values import JSON, move_from_plain, to_plain

OptionValue = bool | int | str
Options = Mapping[str, OptionValue]

EVERYONE: Final = "everyone"
SPECTATOR: Final = None
Viewer = int | Literal["everyone"] | None
"""Who a move is told to: a seat (what that seat may know), ``SPECTATOR`` (public information
only) or ``EVERYONE`` (every hand shown: an ended match)."""

Labels = Mapping[str, Mapping[str, str]]
"""Display names of what a game's views show, by kind ("card", "film", ...) then by the id
the views use (as a string)."""


@dataclass(frozen=True)
class OptionSpec:
    """One option (variant switch) of a game, with its default and allowed values."""

    name: str
    default: OptionValue
    choices: tuple[OptionValue, ...]
    doc: str = ""


@dataclass(frozen=True)
class TieBreak:
    """A criterion applied after the score, in order; ``values`` holds one per seat."""

    name: str
    values: tuple[int, ...]
    higher_wins: bool = True


@dataclass(frozen=True)
class ScorePart:
    """One part of a seat's final score: its points and, in words, where they came from."""

    points: int
    text: str


ScoreBreakdown = tuple[tuple[ScorePart, ...], ...]
"""Per seat, the parts its final score is made of; each seat's parts add up to its score in
`State.outcome`."""


@dataclass(frozen=True)
class Outcome:
    """Final result: per-seat scores, ranks (1 = best, tied seats share a rank), tie-breaks."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    tiebreaks: tuple[TieBreak, ...] = ()
    detail: Mapping[str, JSON] = field(default_factory=dict)
    forfeited: tuple[int, ...] = ()

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 1)

    def with_forfeits(self, seats: Sequence[int]) -> Outcome:
        """Rank forfeited seats below every other seat, keeping the order within each group."""
        gone = frozenset(seats) | frozenset(self.forfeited)
        keys = [
            (int(seat not in gone), *key)
            for seat, key in enumerate(sort_keys(self.scores, self.tiebreaks))
        ]
        return Outcome(
            scores=self.scores,
            ranks=rank_by_keys(keys),
            tiebreaks=self.tiebreaks,
            detail=self.detail,
            forfeited=tuple(sorted(gone)),
        )

    @classmethod
    def ranked(
        cls,
        scores: Sequence[int],
        tiebreaks: Sequence[TieBreak] = (),
        detail: Mapping[str, JSON] | None = None,
    ) -> Outcome:
        """Build an outcome whose ranks follow from the scores and then the tie-breaks."""
        return cls(
            scores=tuple(scores),
            ranks=rank_by_keys(sort_keys(scores, tiebreaks)),
            tiebreaks=tuple(tiebreaks),
            detail=dict(detail or {}),
        )


def sort_keys(scores: Sequence[int], tiebreaks: Sequence[TieBreak]) -> list[tuple[int, ...]]:
    """Per seat, the tuple that orders seats best-first when sorted descending."""
    return [
        (score, *(tb.values[seat] if tb.higher_wins else -tb.values[seat] for tb in tiebreaks))
        for seat, score in enumerate(scores)
    ]


def rank_by_keys(keys: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Competition ranking ("1224"): a seat's rank is 1 + the number of seats strictly ahead."""
    return tuple(1 + sum(other > key for other in keys) for key in keys)


class State(abc.ABC):
    """A match in progress. Mutated only by `apply`; `clone` gives an independent copy."""

    game_id: ClassVar[str]
    move_types: ClassVar[tuple[type[Any], ...]]

    @property
    @abc.abstractmethod
    def players(self) -> int: ...

    @abc.abstractmethod
    def to_move(self) -> tuple[int, ...]:
        """Seats whose decision is awaited: one, several in a simultaneous step, none at the end."""

    @abc.abstractmethod
    def legal_moves(self, seat: int) -> tuple[Any, ...]:
        """Every move the seat may make now; empty when the seat is not to move."""

    @abc.abstractmethod
    def _apply(self, seat: int, move: Any) -> None:
        """Apply a move already checked to be legal."""

    @abc.abstractmethod
    def observe(self, seat: int) -> Any:
        """Exactly what the seat may know now, as a plain frozen value."""

    @abc.abstractmethod
    def spectate(self) -> Any:
        """What a spectator at the table sees: public information only."""

    @abc.abstractmethod
    def outcome(self) -> Outcome | None:
        """The final result, or None while the match runs."""

    @abc.abstractmethod
    def clone(self) -> State: ...

    @abc.abstractmethod
    def current_scores(self) -> tuple[int, ...]:
        """Every seat's score now, in the unit of `Outcome.scores` (equal to them at the end)."""

    def plausible_moves(self, seat: int) -> tuple[Any, ...]:
        """The moves a search (`games.search`) weighs and its random playouts draw from: every
        legal move, unless a game narrows them to those worth weighing (a guess named only
        among the titles the board still allows). Never empty while `legal_moves` is not, and
        always among them."""
        return self.legal_moves(seat)

    def forced_moves(self) -> tuple[tuple[int, Any], ...]:
        """The (seat, move) pairs the engine applied on its own (a seat's only legal move)
        during the last `apply`, or during set-up before any `apply`; oldest first."""
        return ()

    @abc.abstractmethod
    def indistinguishable(self, seat: int, rng: Rng) -> State:
        """A state that differs only in what `seat` cannot know (hidden cards, future deals).

        The conformance suite uses it to prove that observations leak nothing.
        """

    def __eq__(self, other: object) -> bool:
        """Structural equality over every field, the generator included; attributes named
        ``_cache_*`` hold what is derived from the rest (memoized views) and are left out."""
        return type(self) is type(other) and _fields(self) == _fields(other)

    __hash__ = None  # type: ignore[assignment]

    def is_over(self) -> bool:
        return not self.to_move()

    @final
    def apply(self, seat: int, move: Any) -> None:
        """Apply a move, or raise a `MoveError` subclass and leave the state untouched.

        The one gate of every engine: a move is applied only when it is among
        `legal_moves(seat)` now, so a move of another seat, phase or point of the match is
        refused whatever the engine's `_apply` would make of it. Engines hand out the same
        move objects again, so identity is tried first (a plain loop: cheaper than any C
        iterator set up for the few moves there are); a move made elsewhere
        (decoded from a log) is then compared by equality."""
        legal = self.legal_moves(seat)
        for candidate in legal:
            if candidate is move:
                self._apply(seat, move)
                return
        if seat not in self.to_move():
            raise NotYourTurn(seat, move, "no decision of this seat is pending")
        if not isinstance(move, self.move_types):
            raise MalformedMove(seat, move, f"not a {self.game_id} move")
        if move not in legal:
            raise IllegalMove(seat, move, "not among the legal moves")
        self._apply(seat, move)

    @final
    def is_legal(self, seat: int, move: Any) -> bool:
        """Whether `move` is among `legal_moves(seat)`: exactly what `apply` accepts."""
        legal = self.legal_moves(seat)
        return any(map(operator.is_, legal, itertools.repeat(move))) or move in legal

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Refuse an engine that replaces the gate: `apply` and `is_legal` are the interface's."""
        super().__init_subclass__(**kwargs)
        for name in ("apply", "is_legal"):
            if name in vars(cls):
                raise TypeError(f"{cls.__name__} overrides State.{name}; implement _apply")


def _fields(state: object) -> dict[str, Any]:
    return {k: v for k, v in vars(state).items() if not k.startswith("_cache_")}


class Game(abc.ABC):
    """A game's static description and its factory of states."""

    id: ClassVar[str]
    title: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]]
    options: ClassVar[tuple[OptionSpec, ...]] = ()
    move_types: ClassVar[tuple[type[Any], ...]]
    private_information: ClassVar[bool] = True
    """False when every seat sees everything but chance (a shuffled deck): the conformance
    suite then asks `State.indistinguishable` to re-draw that chance, not another seat's view."""
    reference_players: ClassVar[Mapping[str, float]] = {}
    """Built-in opponents of fixed rating that a one-seat outcome may name in its
    ``detail["reference"]`` (``{"player": name, "score": points}``): the ladder rates such a
    match as a two-player game against that player, whose rating never moves."""
    search_levels: ClassVar[Mapping[str, Tuning | Rollouts]] = {}
    """How each search built-in (`games.search.LEVELS`) plays this game where it differs from
    the default tree search: a `Tuning` of the tree search, or `Rollouts` (the heuristic's
    rollouts instead of tree search), by level name; measured in docs/ratings.md."""
    bench_players: ClassVar[int | None] = None
    """The table benchmarks play this game at (`bench_table`); None: its smallest table of two
    seats or more."""
    openspiel_peer: ClassVar[str | None] = None
    """The OpenSpiel game whose engine this one's is measured against (bench/engines.py), if
    any."""

    @abc.abstractmethod
    def _new(self, players: int, rng: Rng, options: Mapping[str, OptionValue]) -> State: ...

    @abc.abstractmethod
    def max_decisions(self, players: int, options: Options | None = None) -> int:
        """An upper bound on the decisions of any match; the conformance suite holds us to it."""

    def new(self, players: int, seed: Seed, options: Options | None = None) -> State:
        if players not in self.player_counts:
            raise PlayerCountError(f"{self.id} is played by {self.player_counts}, not {players}")
        resolved = self.resolve_options(options)
        rng = Rng(derive_seed(self.id, seed))
        return self._new(players, rng, resolved)

    def resolve_options(self, options: Options | None) -> dict[str, OptionValue]:
        """Fill in defaults; refuse unknown names and values outside an option's choices."""
        given = dict(options or {})
        resolved: dict[str, OptionValue] = {}
        for spec in self.options:
            value = given.pop(spec.name, spec.default)
            if value not in spec.choices or type(value) is not type(spec.default):
                raise OptionError(f"{self.id}: option {spec.name}={value!r} not in {spec.choices}")
            resolved[spec.name] = value
        if given:
            raise OptionError(f"{self.id}: unknown options {sorted(given)}")
        return resolved

    def variants(self) -> list[dict[str, OptionValue]]:
        """Every combination of option values: what the conformance suite must cover."""
        names = [spec.name for spec in self.options]
        combos = itertools.product(*(spec.choices for spec in self.options))
        return [dict(zip(names, combo, strict=True)) for combo in combos]

    def golden_player_counts(self) -> tuple[int, ...]:
        """The player counts a golden replay is recorded at (the least unless a game needs
        more, such as a solo mode beside a table of several)."""
        return (min(self.player_counts),)

    def golden_variants(self) -> list[dict[str, OptionValue]]:
        """The option sets a golden replay is recorded for (the defaults unless a game needs
        one per mode)."""
        return [{}]

    def encode_move(self, move: Any) -> JSON:
        return to_plain(move)

    def decode_move(self, data: object, seat: int = -1) -> Any:
        """Parse a move from plain data; raises `MalformedMove` on anything unexpected."""
        return move_from_plain(data, self.move_types, seat)

    def encode_forced(self, forced: Sequence[tuple[int, Any]]) -> list[JSON]:
        """Moves the engine applied on its own (`State.forced_moves`) as a move log keeps
        them: ``{"seat": seat, "move": encoded move}`` each, oldest first."""
        return [{"seat": seat, "move": self.encode_move(move)} for seat, move in forced]

    def checked_forced(self, state: State, logged: object) -> tuple[tuple[int, Any], ...]:
        """``state.forced_moves()``, held to a move log's record of them: ``logged`` in
        `encode_forced`'s form, or None for a log that kept none (nothing to check). Raises
        `ForcedMismatch` when the two differ (its message names no move: it may reach a page
        while the match runs)."""
        forced = state.forced_moves()
        if logged is not None and logged != self.encode_forced(forced):
            raise ForcedMismatch(
                f"{self.id}: the log's forced moves differ from the {len(forced)} the engine"
                " applies on its own here"
            )
        return forced

    @abc.abstractmethod
    def describe(self, before: State, seat: int, move: Any, viewer: Viewer) -> str:
        """The move in words, told to ``viewer``, naming nothing that viewer may not see.

        ``before`` is the state the move was decided in; for a move from
        `State.forced_moves`, the state before the decision that led to it (the text then
        rests on the move and the game's data alone)."""

    @abc.abstractmethod
    def group(self, before: State) -> str:
        """The label under which a move made in ``before`` is listed ("hand 2, trick 3")."""

    @abc.abstractmethod
    def labels(self) -> Labels:
        """Display names of everything this game's views show by id (`Labels`)."""

    @abc.abstractmethod
    def score_rules(self, players: int, options: Options | None = None) -> str:
        """How this game's final score is made at a table of ``players``, in a sentence or
        two (told once per replay)."""

    @abc.abstractmethod
    def explain_score(self, final: State) -> ScoreBreakdown:
        """How each seat's final score of the ended match ``final`` was made, in words: the
        parts of every seat, adding up to its score in ``final.outcome()``. Told only once the
        match has ended, so it may name any card."""

    @abc.abstractmethod
    def names_in(self, view: Any) -> frozenset[str]:
        """The display names of every card (film, tile...) that ``view`` shows: what a text
        told to that view's holder may name."""

    def data(self) -> Mapping[str, Any]:
        """The game's printed material and rules figures as plain values, read from its data
        file and named as the fields of its `<Name>Data` message in its own .proto file."""
        return {}

    def data_version(self) -> int:
        """The version number of the game's data file (0 when it has none)."""
        return 0

    def heuristic_bots(self) -> Mapping[str, Callable[..., Any]]:
        """Game-specific built-in bots by name (the generic `random` is always available)."""
        return {}

    def estimate(self, state: State) -> tuple[float, ...] | None:
        """Each seat's expected final score from ``state``, in the unit of `Outcome.scores`:
        what a search (`games.search`, `games.rollouts`) that stops its playouts short scores
        them by. None, the default, when the game offers no such estimate there: every playout
        is then played out to the end of the match."""
        return None

    def bench_table(self) -> int:
        """The player count benchmarks play this game at (`bench_players`)."""
        if self.bench_players is not None:
            return self.bench_players
        return min(count for count in self.player_counts if count >= 2)


def knows(viewer: Viewer, seat: int) -> bool:
    """Whether ``viewer`` may see what only ``seat`` holds."""
    return viewer in (EVERYONE, seat)


def parse_option_value(spec: OptionSpec, text: str) -> OptionValue:
    """Read a command-line value ("true", "3", "side-b") with the type of the option's default."""
    if isinstance(spec.default, bool):
        lowered = text.strip().lower()
        if lowered in ("true", "yes", "on", "1"):
            return True
        if lowered in ("false", "no", "off", "0"):
            return False
        raise OptionError(f"option {spec.name} is true or false, not {text!r}")
    if isinstance(spec.default, int):
        try:
            return int(text)
        except ValueError:
            raise OptionError(f"option {spec.name} is a whole number, not {text!r}") from None
    return text


def options_as_text(options: Mapping[str, OptionValue]) -> dict[str, str]:
    """The inverse of `parse_option_value`, for the wire: True -> "true", 3 -> "3"."""
    return {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in options.items()}


def parse_options(game: Game, pairs: Sequence[str]) -> dict[str, OptionValue]:
    """Parse ``name=value`` strings against a game's options, then validate them."""
    specs = {spec.name: spec for spec in game.options}
    parsed: dict[str, OptionValue] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep:
            raise OptionError(f"expected name=value, got {pair!r}")
        spec = specs.get(name.strip())
        if spec is None:
            known = ", ".join(specs) or "none"
            raise OptionError(f"{game.id} has no option {name!r} (options: {known})")
        parsed[spec.name] = parse_option_value(spec, text)
    return game.resolve_options(parsed)
