"""Pure rules arithmetic of Magic Trick: trick winners and hand scores."""

from __future__ import annotations

from collections.abc import Sequence

from games.magic_trick.cards import RED, Card

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
