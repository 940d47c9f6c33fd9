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


def card_name(card: Card) -> str:
    genres = ", ".join(card.genres) or "no genre"
    return f"{card.viewer.replace('-', ' ')} / {genres} (card {card.number})"


def _the(number: int) -> str:
    return f"the {card_name(CARDS[number])}"


def describe(before: MovieFightState, seat: int, move: Any, viewer: Viewer) -> str:
    if isinstance(move, Refresh):
        return f"downgrades {_the(move.card)} to lay out a new offer"
    if isinstance(move, Play):
        card = CARDS[move.card]
        if move.side == AUDIENCE:
            return (
                f"seats the {card.viewer.replace('-', ' ')} (card {card.number}) as a viewer"
                f" on floor {move.floor}"
            )
        genres = ", ".join(card.genres) or "no-genre"
        return f"screens the {genres} film (card {card.number}) on floor {move.floor}"
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
