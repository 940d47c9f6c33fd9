"""The Movie Trailer engine: a Director's secret film, clue tiles asked for slot by slot,
guesses in turn (or all at once in the speed game), six scoring tiles per turn."""

from __future__ import annotations

import functools
import itertools
import operator
from typing import Any, ClassVar

from games.interface import (
    Outcome,
    State,
)
from games.movie_trailer.catalog import (
    FACE_DOWN,
    Catalog,
    Placement,
    catalog,
    consistent,
    possible_films,
)
from games.movie_trailer.moves import (
    MOVE_TYPES,
    ChooseFilm,
    Guess,
    Move,
    PassGuess,
    PickSlot,
    PlaceTile,
)
from games.movie_trailer.views import GuessView, MovieTrailerObservation, SlotView, TurnResult
from games.rng import Rng

FILM = "film"
SLOT = "slot"
TILE = "tile"
GUESS = "guess"
OVER = "over"

STANDARD = "standard"
SHORT = "short"
MAX_ROUNDS = 4
"""The ``rounds`` option: 0 lets ``length`` decide, otherwise turns = rounds x players."""


_PASS = PassGuess()


FilmMoves = tuple[tuple[ChooseFilm, ...], tuple[Move, ...]]


@functools.cache
def _every_film_move() -> FilmMoves:
    """Every film's choice, and a pass followed by every guess (catalog order), made once:
    the same objects come back in every list (the wire encoder remembers them by identity)."""
    films = catalog().films
    return tuple(ChooseFilm(f.id) for f in films), (_PASS, *(Guess(f.id) for f in films))


def _film_moves(used: list[int]) -> FilmMoves:
    """Choices, and a pass followed by the guesses, among the films not shown in an earlier
    turn (catalog order)."""
    choices, guesses = _every_film_move()
    for film in sorted(used, reverse=True):
        choices = choices[:film] + choices[film + 1 :]
        guesses = guesses[: film + 1] + guesses[film + 2 :]
    return choices, guesses


def _without(moves: FilmMoves, shown: list[int], film: int) -> FilmMoves:
    """``moves`` of the films not in ``shown`` with ``film`` taken out too."""
    at = film - sum(other < film for other in shown)
    choices, guesses = moves
    return choices[:at] + choices[at + 1 :], guesses[: at + 1] + guesses[at + 2 :]


@functools.cache
def _every_pick() -> tuple[PickSlot, ...]:
    return tuple(PickSlot(slot) for slot in range(len(catalog().slot_category)))


@functools.cache
def _place(tile: int) -> PlaceTile:
    return PlaceTile(tile)


@functools.cache
def _guess(film: str) -> Guess:
    return Guess(film)


class MovieTrailerState(State):
    game_id: ClassVar[str] = "movie-trailer"
    move_types: ClassVar[tuple[type[Any], ...]] = MOVE_TYPES

    def __init__(self, players: int, rng: Rng, turns: int, speed: bool) -> None:
        self._players = players
        self.rng = rng
        self.turns = turns
        self.speed = speed
        self.first_director = rng.below(players)
        self.turn = 0
        self.scores = [0] * players
        self.used: list[int] = []
        self.past: list[TurnResult] = []
        self.phase = FILM
        self.film: int | None = None
        self.board: list[int | None] = []
        self._cache_board_view: tuple[SlotView, ...] | None = None
        """The board as every seat sees it, made from `placements` when first asked."""
        self.placements: list[Placement] = []
        self.shown = 0
        self.picker = 0
        self.pending_slot: int | None = None
        self.guessers: list[int] = []
        self.pending: dict[int, Move] = {}
        self.guesses: list[GuessView] = []
        self._cache_legal: dict[int, tuple[Move, ...]] = {}
        """Each seat's legal moves, until the next move."""
        self._cache_films: tuple[int, FilmMoves] = (0, _every_film_move())
        """`_film_moves` of the first so many shown films (films are only added to `used`)."""
        self._start_turn()

    @property
    def players(self) -> int:
        return self._players

    @property
    def data(self) -> Catalog:
        return catalog()

    @property
    def director(self) -> int:
        return (self.first_director + self.turn) % self._players

    def spectators_from(self, seat: int) -> list[int]:
        """Every Spectator clockwise (to the left), starting with `seat`."""
        n = self._players
        director = self.director
        return [(seat + k) % n for k in range(n) if (seat + k) % n != director]

    def _next_spectator(self, seat: int) -> int:
        """The Spectator to the left of `seat` (`seat` itself when it is the only one)."""
        n = self._players
        director = self.director
        following = (seat + 1) % n
        while following == director:
            following = (following + 1) % n
        return following

    def _start_turn(self) -> None:
        self.phase = FILM
        self.film = None
        self.board = [None] * len(self.data.slot_category)
        self._cache_board_view = None
        self.placements = []
        self.shown = 0
        self.picker = (self.director + 1) % self._players
        self.pending_slot = None
        self.guessers = []
        self.pending = {}
        self.guesses = []

    # --- the interface -------------------------------------------------------------------

    def to_move(self) -> tuple[int, ...]:
        if self.phase in (FILM, TILE):
            return (self.director,)
        if self.phase == SLOT:
            return (self.picker,)
        if self.phase == GUESS:
            if self.speed:
                director = self.director
                return tuple(
                    s for s in range(self._players) if s != director and s not in self.pending
                )
            return (self.guessers[0],)
        return ()

    def legal_moves(self, seat: int) -> tuple[Move, ...]:
        found = self._cache_legal.get(seat)
        if found is None:
            found = self._cache_legal[seat] = self._compute_legal(seat)
        return found

    def _compute_legal(self, seat: int) -> tuple[Move, ...]:
        phase = self.phase
        if phase == GUESS:
            return self._films()[1] if seat in self.to_move() else ()
        if phase == SLOT:
            if seat != self.picker:
                return ()
            free = map(operator.is_, self.board, itertools.repeat(None))
            return tuple(itertools.compress(_every_pick(), free))
        if phase == OVER or seat != self.director:
            return ()
        if phase == FILM:
            return self._films()[0]
        return tuple(map(_place, sorted(self._free_fits())))

    def _films(self) -> FilmMoves:
        """`_film_moves` of the films shown so far, made again only when one is added."""
        count, moves = self._cache_films
        used = self.used
        if count != len(used):
            if count == len(used) - 1:
                moves = _without(moves, used[:-1], used[-1])
            else:
                moves = _film_moves(used)
            self._cache_films = (len(used), moves)
        return moves

    def _free_fits(self) -> frozenset[int]:
        assert self.film is not None and self.pending_slot is not None
        fits = self.data.films[self.film].fits[self.data.slot_category[self.pending_slot]]
        return fits.difference(self.board)  # tiles are numbered from 1: no None nor FACE_DOWN

    def _apply(self, seat: int, move: Any) -> None:
        self._cache_legal = {}
        kind = type(move)
        if kind is Guess or kind is PassGuess:  # most moves: a guess after every clue
            self._guess(seat, move)
        elif kind is ChooseFilm:
            self.film = self.data.film(move.film).index
            self.phase = SLOT
        elif kind is PickSlot:
            self.pending_slot = move.slot
            if self._free_fits():
                self.phase = TILE
            else:
                self._lay(move.slot, FACE_DOWN)
                if None not in self.board:
                    self._end_turn(())
        else:
            assert self.pending_slot is not None
            self._lay(self.pending_slot, move.tile)
            self.phase = GUESS
            self.guessers = self.spectators_from(self.picker)

    def _guess(self, seat: int, move: Move) -> None:
        if self.speed:
            self.pending[seat] = move
            if len(self.pending) == self._players - 1:
                answers = [(s, self.pending[s]) for s in sorted(self.pending)]
                self.pending = {}
                self._resolve(answers)
        else:
            self.guessers.pop(0)
            self._resolve([(seat, move)], last=not self.guessers)

    def _lay(self, slot: int, tile: int) -> None:
        self.board[slot] = tile
        self._cache_board_view = None
        self.placements.append(Placement(slot, tile))
        self.pending_slot = None

    def _board_view(self) -> tuple[SlotView, ...]:
        found = self._cache_board_view
        if found is None:
            names = self.data.slot_names
            views = [SlotView(name, None, False, None) for name in names]
            for order, placed in enumerate(self.placements):
                slot, tile = placed.slot, placed.tile
                views[slot] = SlotView(names[slot], tile or None, tile == FACE_DOWN, order)
            found = self._cache_board_view = tuple(views)
        return found

    def _resolve(self, answers: list[tuple[int, Move]], last: bool = True) -> None:
        """Make guesses public; score a right one, else move on when everyone has spoken."""
        assert self.film is not None
        film_id = self.data.films[self.film].id
        shown = self.shown
        right: list[int] = []
        for seat, move in answers:
            named = move.film if type(move) is Guess else None
            self.guesses.append(GuessView(shown, seat, named))
            if named == film_id:
                right.append(seat)
        if right:
            self._end_turn(tuple(right))
        elif last:
            self.shown += 1
            self.picker = self._next_spectator(self.picker)
            if self.shown == len(self.data.scoring) or None not in self.board:
                self._end_turn(())
            else:
                self.phase = SLOT

    def _end_turn(self, right: tuple[int, ...]) -> None:
        assert self.film is not None
        face_down = sum(tile == FACE_DOWN for tile in self.board)
        director_half = spectator_half = 0
        if right:
            tile = self.data.scoring[self.shown]
            director_half = 2 * max(0, tile.director - face_down)
            spectator_half = 2 * tile.spectator if len(right) == 1 else tile.spectator
            self.scores[self.director] += director_half
            for seat in right:
                self.scores[seat] += spectator_half
        self.past.append(
            TurnResult(
                self.director,
                self.data.films[self.film].id,
                right,
                self.shown if right else None,
                face_down,
                director_half,
                spectator_half,
            )
        )
        self.used.append(self.film)
        self.turn += 1
        if self.turn == self.turns:
            self.phase = OVER
        else:
            self._start_turn()

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        return Outcome.ranked(self.scores, detail={"unit": "half movie points"})

    # --- views ---------------------------------------------------------------------------

    def observe(self, seat: int) -> MovieTrailerObservation:
        return self._view(seat)

    def spectate(self) -> MovieTrailerObservation:
        return self._view(None)

    def _view(self, viewer: int | None) -> MovieTrailerObservation:
        over = self.phase == OVER
        return MovieTrailerObservation(
            seat=viewer,
            players=self._players,
            speed=self.speed,
            turn=min(self.turn, self.turns - 1),
            turns=self.turns,
            director=self.director if not over else self.past[-1].director,
            phase=self.phase,
            film=self.data.films[self.film].id
            if self.film is not None and viewer == self.director and not over
            else None,
            picker=self.picker if self.phase == SLOT else None,
            pending_slot=self.pending_slot,
            scoring_tile=self.shown,
            board=self._board_view(),
            guesses=tuple(self.guesses),
            past_turns=tuple(self.past),
            half_points=tuple(self.scores),
        )

    # --- copies and hidden information ---------------------------------------------------

    def current_scores(self) -> tuple[int, ...]:
        return tuple(self.scores)

    def clone(self) -> MovieTrailerState:
        twin = object.__new__(MovieTrailerState)
        twin.__dict__.update(self.__dict__)
        twin.rng = self.rng.copy()
        twin.scores = list(self.scores)
        twin.used = list(self.used)
        twin.past = list(self.past)
        twin.board = list(self.board)
        twin.placements = list(self.placements)
        twin.guessers = list(self.guessers)
        twin.pending = dict(self.pending)
        twin.guesses = list(self.guesses)
        twin._cache_legal = dict(self._cache_legal)
        return twin

    def plausible_moves(self, seat: int) -> tuple[Move, ...]:
        """A Spectator weighs naming only a film the board still allows (or passing): a
        search cannot try each of some 300 films in 100 playouts, and a random one of them
        would almost never be right, where a Spectator who reads the board often is."""
        legal = self.legal_moves(seat)
        if self.phase != GUESS or not legal:
            return legal
        films = self.data.films
        return (_PASS, *(_guess(films[index].id) for index in self.candidates()))

    def candidates(self) -> list[int]:
        """Films (by index) that everything public this turn still allows."""
        wrong = {g.film for g in self.guesses if g.film is not None}
        used = set(self.used)
        return [
            film.index
            for film in possible_films(self.data, self.placements)
            if film.index not in used
            and film.id not in wrong
            and consistent(film, self.placements, self.data.slot_category, self.pending_slot)
        ]

    def indistinguishable(self, seat: int, rng: Rng) -> MovieTrailerState:
        """Another film the board allows, and other unspoken speed-game guesses."""
        twin = self.clone()
        twin.rng = rng.fork(f"twin-{rng.below(1 << 62)}")
        twin._cache_legal = {}
        if self.film is not None and seat != self.director:
            twin.film = rng.choice(self.candidates())
        for other in list(twin.pending):
            if other != seat:
                twin.pending[other] = rng.choice(self._guess_moves())
        return twin

    def _guess_moves(self) -> tuple[Move, ...]:
        """A speed-game guesser's options, also once its answer is in."""
        return self._films()[1]
