"""Magic Trick moves in words. Suits are public (the backs are coloured); a rank is named only
once the card is face up (played, up a sleeve) or to a viewer who has seen it (its sorter)."""

from __future__ import annotations

from typing import Any

from games.interface import Labels, ScoreBreakdown, ScorePart, Viewer, knows
from games.magic_trick.cards import RANKS, SUITS, Card
from games.magic_trick.moves import KeepSleeveEmpty, PlayCard, SleeveCard, SortCard
from games.magic_trick.scoring import BID_MET_POINTS, PRESTIGE_POINTS, trick_winner
from games.magic_trick.state import MagicTrickState
from games.magic_trick.views import MagicTrickObservation

SORT = "sort"


def card_name(card: Card) -> str:
    return f"{card.suit} {card.rank}"


def describe(before: MagicTrickState, seat: int, move: Any, viewer: Viewer) -> str:
    if isinstance(move, PlayCard):
        card = before.fans[seat][move.slot]
        text = f"plays the {card_name(card)}"
        if len(before.current) == before.players - 1:
            plays = [(s, before.fans[s][slot]) for s, slot in before.current]
            if trick_winner([*plays, (seat, card)]) == seat:
                text += " and takes the trick"
        return text
    if isinstance(move, SleeveCard):
        return f"puts the {card_name(before.fans[seat][move.slot])} up the sleeve"
    if isinstance(move, KeepSleeveEmpty):
        return "keeps the sleeve empty for now"
    if isinstance(move, SortCard):
        if knows(viewer, seat):
            return f"sorts the {card_name(Card(move.suit, move.rank))} next"
        return "sorts a card"
    raise TypeError(f"not a Magic Trick move: {move!r}")


def group(before: MagicTrickState) -> str:
    hand = f"hand {min(before.hand_no, before.players - 1) + 1} of {before.players}"
    if before.phase == SORT:
        return f"{hand}, sorting"
    return f"{hand}, trick {len(before.tricks) + 1}"


def labels() -> Labels:
    return {"card": {f"{suit}-{rank}": f"{suit} {rank}" for suit in SUITS for rank in RANKS}}


def names_in(view: MagicTrickObservation) -> frozenset[str]:
    cards: list[Card] = [*view.sorting, *view.sorted]
    if view.set_aside is not None:
        cards.append(view.set_aside)
    for trick in (*view.tricks, *([view.current] if view.current else [])):
        cards.extend(play.card for play in trick.plays)
    for past in view.past_hands:
        cards.extend(past.sleeves)
    names = {card_name(card) for card in cards}
    names.update(
        f"{slot.suit} {slot.rank}" for fan in view.fans for slot in fan if slot.rank is not None
    )
    return frozenset(names)


def score_rules(prestige: bool) -> str:
    bonus = (
        f", {PRESTIGE_POINTS} more for prestige when the suits taken number the bid too"
        if prestige
        else ""
    )
    return (
        "Each player deals one hand. In every hand the card a player keeps up the sleeve is a"
        f" bid: taking exactly that many tricks scores {BID_MET_POINTS}{bonus}; missing it"
        " costs one point per trick too many or too few. A score is the sum of its hands."
    )


def _tricks(count: int) -> str:
    return f"{count} trick{'' if count == 1 else 's'}"


def explain_score(final: MagicTrickState) -> ScoreBreakdown:
    seats = []
    for seat in range(final.players):
        parts = []
        for number, hand in enumerate(final.past, start=1):
            sleeve = hand.sleeves[seat]
            taken = hand.tricks[seat]
            head = f"hand {number}: the {card_name(sleeve)} up the sleeve bid {sleeve.rank}"
            if sleeve.rank == taken:
                text = f"{head}, took {_tricks(taken)}: bid met, +{BID_MET_POINTS}"
                if hand.prestige[seat]:
                    text += f"; {hand.suits[seat]} suits taken: prestige, +{PRESTIGE_POINTS}"
            else:
                off = abs(sleeve.rank - taken)
                text = f"{head}, took {_tricks(taken)}: {off} off the bid, \u2212{off}"
            parts.append(ScorePart(hand.points[seat], text))
        seats.append(tuple(parts))
    return tuple(seats)
