"""Pure rules arithmetic of Magic Trick: trick winners and hand scores."""

from __future__ import annotations

from collections.abc import Sequence

from games.interface import Outcome, TieBreak
from games.magic_trick.cards import RED, Card
from games.magic_trick.views import HandResult

BID_MET_POINTS = 3
PRESTIGE_POINTS = 2


def trick_winner(plays: Sequence[tuple[int, Card]]) -> int:
    """The seat that wins a complete trick: highest red card, else highest of the suit led."""
    lead_suit = plays[0][1].suit
    reds = [(card.rank, seat) for seat, card in plays if card.suit == RED]
    if reds:
        return max(reds)[1]
    return max((card.rank, seat) for seat, card in plays if card.suit == lead_suit)[1]


def bid_met(sleeve_rank: int, tricks: int) -> bool:
    return sleeve_rank == tricks


def earned_prestige(sleeve_rank: int, tricks: int, suits_taken: int) -> bool:
    """Prestige needs the bid met and as many distinct suits taken as the sleeve card's rank."""
    return bid_met(sleeve_rank, tricks) and suits_taken == sleeve_rank


def hand_points(sleeve_rank: int, tricks: int, suits_taken: int, prestige: bool) -> int:
    """+3 for a met bid (+2 more with prestige), else minus the distance to the bid."""
    if not bid_met(sleeve_rank, tricks):
        return -abs(sleeve_rank - tricks)
    bonus = PRESTIGE_POINTS if prestige and earned_prestige(sleeve_rank, tricks, suits_taken) else 0
    return BID_MET_POINTS + bonus


def final_outcome(
    scores: Sequence[int], prestige_count: Sequence[int], last_hand: HandResult, prestige: bool
) -> Outcome:
    """Rank by score; ties go to more prestige bonuses, or, playing without them, to a met bid
    in the last hand with the fewest tricks. Whatever still ties shares the rank."""
    tiebreaks: tuple[TieBreak, ...]
    if prestige:
        tiebreaks = (TieBreak("prestige bonuses", tuple(prestige_count)),)
    else:
        met = tuple(
            int(bid_met(card.rank, tricks))
            for card, tricks in zip(last_hand.sleeves, last_hand.tricks, strict=True)
        )
        fewest = tuple(t if m else 0 for m, t in zip(met, last_hand.tricks, strict=True))
        tiebreaks = (
            TieBreak("met the bid in the last hand", met),
            TieBreak("fewest tricks among those who met it", fewest, higher_wins=False),
        )
    return Outcome.ranked(scores, tiebreaks)
