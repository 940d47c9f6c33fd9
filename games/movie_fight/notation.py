"""Movie Fight moves in words. Every card is public game data and every move is made in the
open (only the deck's order is hidden), so every viewer is told the same."""

from __future__ import annotations

from typing import Any

from games.interface import Labels, ScoreBreakdown, ScorePart, Viewer
from games.movie_fight.cards import AUDIENCE, CARDS, DATA, Card
from games.movie_fight.moves import Downgrade, Play, Refresh, Skip, Upgrade
from games.movie_fight.scoring import (
    automa_tickets,
    breakdown,
    solo_ticket_points,
    ticket_points,
)
from games.movie_fight.state import MovieFightState
from games.movie_fight.views import REFRESH, MovieFightObservation


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


def score_rules(solo: bool) -> str:
    against = (
        "and the ticket comparison: more tickets sold than the automa's scores"
        f" {DATA.ticket_winner}, fewer {DATA.ticket_loser}"
        if solo
        else "and the ticket ranking: places by tickets sold against the other cinemas (a"
        " cinema that sold none earns nothing)"
    )
    return (
        "A cinema scores its viewers (each floor at its best, or with the cinema tile's"
        " conditions met for the tile's points), the bonus points of its cards, the equipment"
        f" and viewers goals, {against}."
    )


def _tickets(count: int) -> str:
    return f"{count} ticket{'' if count == 1 else 's'}"


def explain_score(final: MovieFightState) -> ScoreBreakdown:
    parts = [breakdown(cinema, final.side) for cinema in final.cinemas]
    sold = [p.tickets for p in parts]
    if final.solo:
        theirs = automa_tickets(final.automa_audience, final.automa_screens, final.level)
        mine, _ = solo_ticket_points(sold[0], theirs)
        places: tuple[int, ...] = (mine,)
        versus = [f"against the automa's {theirs}"]
    else:
        places = ticket_points(sold)
        versus = [
            f"place {1 + sum(other > count for other in sold)} of {len(sold)}" for count in sold
        ]
    out = []
    for seat, p in enumerate(parts):
        out.append(
            (
                ScorePart(
                    p.cinema,
                    "cinema tile: every floor met its condition"
                    if p.cinema
                    else "cinema tile: conditions not met (or worth less than the floors alone)",
                ),
                ScorePart(p.viewers, "viewers on the floors"),
                ScorePart(p.bonus, "bonus points printed on the cards"),
                ScorePart(p.equipment_goal, "equipment goal"),
                ScorePart(p.viewers_goal, "viewers goal (distinct viewers on a floor)"),
                ScorePart(places[seat], f"tickets: {_tickets(sold[seat])}, {versus[seat]}"),
            )
        )
    return tuple(out)
