"""Movie Tricks moves in words. Every move names a card that is face up once moved (a played
card joins the trick, a drafted or bonus card a tableau, a hand in front of all or the
discards), so every viewer is told the same."""

from __future__ import annotations

from typing import Any

from games.interface import Labels, ScoreBreakdown, ScorePart, Viewer
from games.movie_tricks.cards import (
    BANG,
    CARDS,
    CATEGORIES,
    CGI,
    COLUMN,
    DATA,
    HERO,
    NOTE,
    PLAYING,
    PLUS3,
    ROLES,
    SOUNDTRACK,
    START,
    VILLAIN,
    Card,
)
from games.movie_tricks.moves import (
    BonusToHand,
    BonusToTableau,
    ChooseTrump,
    ClaimGoal,
    DeclineGoal,
    DiscardBonus,
    DraftCard,
    PlayCard,
)
from games.movie_tricks.scoring import count, family_lines, rows, score_pads
from games.movie_tricks.state import MovieTricksState
from games.movie_tricks.views import MovieTricksObservation


def card_name(card: Card) -> str:
    if card.kind == PLAYING:
        return f"{card.suit} {card.value}"
    if card.kind == START:
        return f"{card.category} {card.value} starting card"
    if card.kind == PLUS3:
        return "+3 card"
    return f"{card.suit} {card.value} {card.category} bonus"


def _the(card: int) -> str:
    return f"the {card_name(CARDS[card])}"


def describe(before: MovieTricksState, seat: int, move: Any, viewer: Viewer) -> str:
    if isinstance(move, PlayCard):
        return f"plays {_the(move.card)}" + (" boosted by a +3 card" if move.boost else "")
    if isinstance(move, DraftCard):
        return f"drafts {_the(move.card)} into {CARDS[move.card].category}"
    if isinstance(move, ClaimGoal):
        stars = DATA.stars(move.need)
        return f"claims the {move.need}-props goal ({stars} stars)"
    if isinstance(move, DeclineGoal):
        return "claims no props goal"
    if isinstance(move, BonusToHand):
        return f"takes {_the(move.card)} into hand"
    if isinstance(move, BonusToTableau):
        return f"places {_the(move.card)} in {CARDS[move.card].category}"
    if isinstance(move, DiscardBonus):
        return f"discards {_the(move.card)}"
    if isinstance(move, ChooseTrump):
        return f"makes {move.suit} trump"
    raise TypeError(f"not a Movie Tricks move: {move!r}")


def group(before: MovieTricksState) -> str:
    return f"round {min(before.round, before.rounds)} of {before.rounds}"


def labels() -> Labels:
    return {"card": {str(card.id): card_name(card) for card in CARDS}}


def names_in(view: MovieTricksObservation) -> frozenset[str]:
    cards: list[Card] = [*view.hand, *view.market, *view.display, *view.discards]
    cards.extend(card for hand in view.known_hands for card in hand)
    cards.extend(play.card for play in view.plays)
    cards.extend(card for t in view.tableaus for column in t.columns for card in column)
    return frozenset(card_name(card) for card in cards)


def score_rules(family: bool) -> str:
    if family:
        return (
            "Family scoring: every complete movie (a row across the four categories) scores"
            f" its cards' values, and every symbol in the tableau scores"
            f" {DATA.rules.family_symbol_points}."
        )
    return (
        "The score pad: the best movie (the highest row across the four categories), the"
        " weakest category's total, CGI (points per bang and the last CGI card's value), the"
        " props goal claimed, Roles (villains and heroes, a bonus when they balance) and"
        " Soundtrack (most, middle or fewest notes)."
    )


def _plural(number: int, word: str) -> str:
    return f"{number} {word}{'' if number == 1 else 's'}"


def explain_score(final: MovieTricksState) -> ScoreBreakdown:
    columns = [[[CARDS[c] for c in column] for column in t] for t in final.tableaus]
    out: list[tuple[ScorePart, ...]] = []
    if final.family:
        for tableau in columns:
            movies, symbols = family_lines(tableau)
            made = rows(tableau)
            symbols_held = sum(len(card.symbols) for column in tableau for card in column)
            out.append(
                (
                    ScorePart(movies, f"{_plural(len(made), 'complete movie')}: {movies} points"),
                    ScorePart(
                        symbols,
                        f"{_plural(symbols_held, 'symbol')}"
                        f" \u00d7 {DATA.rules.family_symbol_points}",
                    ),
                )
            )
        return tuple(out)
    pads = score_pads(columns, final.claimed, final.soundtrack_die)
    cgi, roles, soundtrack = COLUMN[CGI], COLUMN[ROLES], COLUMN[SOUNDTRACK]
    notes = [count(t[soundtrack], NOTE) for t in columns]
    for seat, (tableau, pad) in enumerate(zip(columns, pads, strict=True)):
        made = rows(tableau)
        best = (
            f"best movie: row {made.index(pad.best_movie) + 1} of {len(made)}"
            if made
            else "best movie: no complete movie"
        )
        totals = [sum(card.value for card in column) for column in tableau]
        weakest = (
            f"weakest category: {CATEGORIES[totals.index(min(totals))]}"
            if all(tableau)
            else "weakest category: a category is empty"
        )
        bangs = count(tableau[cgi], BANG)
        last = tableau[cgi][-1].value if tableau[cgi] else 0
        goal = final.claimed[seat]
        villains, heroes = count(tableau[roles], VILLAIN), count(tableau[roles], HERO)
        balance = " (balanced: bonus included)" if villains == heroes else ""
        rivals = notes[:seat] + notes[seat + 1 :]
        die = f", the die {final.soundtrack_die}" if final.soundtrack_die is not None else ""
        out.append(
            (
                ScorePart(pad.best_movie, best),
                ScorePart(pad.weakest_category, weakest),
                ScorePart(pad.cgi, f"CGI: {_plural(bangs, 'bang')}, last CGI card worth {last}"),
                ScorePart(
                    pad.props,
                    f"Props: the {goal}-props goal" if goal is not None else "Props: no goal",
                ),
                ScorePart(
                    pad.roles,
                    f"Roles: {_plural(villains, 'villain')}, {heroes} hero"
                    f"{'' if heroes == 1 else 'es'}{balance}",
                ),
                ScorePart(
                    pad.soundtrack,
                    f"Soundtrack: {_plural(notes[seat], 'note')} against"
                    f" {', '.join(map(str, rivals)) or 'no one'}{die}",
                ),
            )
        )
    return tuple(out)
