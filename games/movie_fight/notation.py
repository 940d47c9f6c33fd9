"""Movie Fight moves in words. Every card is public game data and every move is made in the
open (only the deck's order is hidden), so every viewer is told the same."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.interface import Labels, Viewer
from games.movie_fight.cards import AUDIENCE, CARDS, DATA, Card
from games.movie_fight.moves import Downgrade, Play, Refresh, Skip, Upgrade
from games.movie_fight.views import REFRESH, MovieFightObservation

if TYPE_CHECKING:
    from games.movie_fight.state import MovieFightState


def _base_name(card: Card) -> str:
    genres = ", ".join(card.genres) or "no genre"
    return f"{card.viewer.replace('-', ' ')} ({genres})"


def _names() -> dict[int, str]:
    """One name per card, the same in every move and on the board: its viewer and its film's
    genres; a card sharing both with another gets its place among them ("#2") too."""
    seen: dict[str, int] = {}
    shared = {_base_name(c) for c in CARDS.values()}
    shared = {n for n in shared if sum(_base_name(c) == n for c in CARDS.values()) > 1}
    names = {}
    for number in sorted(CARDS):
        base = _base_name(CARDS[number])
        if base in shared:
            seen[base] = seen.get(base, 0) + 1
            base = f"{base} #{seen[base]}"
        names[number] = base
    return names


NAMES = _names()


def card_name(card: Card) -> str:
    return NAMES[card.number]


def _the(number: int) -> str:
    return f"the {card_name(CARDS[number])}"


def describe(before: MovieFightState, seat: int, move: Any, viewer: Viewer) -> str:
    if isinstance(move, Refresh):
        return f"downgrades {_the(move.card)} to lay out a new offer"
    if isinstance(move, Play):
        if move.side == AUDIENCE:
            return f"seats {_the(move.card)} as a viewer on floor {move.floor}"
        return f"screens {_the(move.card)} as a film on floor {move.floor}"
    if isinstance(move, Downgrade):
        return f"downgrades {_the(move.card)}"
    if isinstance(move, Upgrade):
        return f"upgrades {_the(move.card)}"
    if isinstance(move, Skip):
        return "keeps the offer" if before.phase == REFRESH else "upgrades nothing"
    raise TypeError(f"not a Movie Fight move: {move!r}")


def group(before: MovieFightState) -> str:
    return f"round {min(before.round, DATA.rounds)} of {DATA.rounds}"


def labels() -> Labels:
    return {
        "card": {str(number): card_name(card) for number, card in CARDS.items()},
        "tile": {str(tile.number): f"cinema {tile.number}" for tile in DATA.tiles},
    }


def names_in(view: MovieFightObservation) -> frozenset[str]:
    numbers = [*view.offer]
    for cinema in view.cinemas:
        numbers.extend(cinema.cards())
    if view.automa is not None:
        numbers.extend((*view.automa.audience, *view.automa.screens))
    if view.pending is not None:
        numbers.append(view.pending.card)
    return frozenset(card_name(CARDS[n]) for n in numbers)
