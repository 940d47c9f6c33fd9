"""Magic Trick moves in words. Suits are public (the backs are coloured); a rank is named only
once the card is face up (played, up a sleeve) or to a viewer who has seen it (its sorter)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.interface import Labels, Viewer, knows
from games.magic_trick.cards import RANKS, SUITS, Card
from games.magic_trick.moves import KeepSleeveEmpty, PlayCard, SleeveCard, SortCard
from games.magic_trick.scoring import trick_winner
from games.magic_trick.views import MagicTrickObservation

if TYPE_CHECKING:
    from games.magic_trick.state import MagicTrickState

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
