"""Magic Trick's deck, set-up and scoring as plain values, named as `MagicTrickData` in
proto/premiere/v1/magic_trick.proto (this game has no data file: its figures are constants)."""

from __future__ import annotations

from typing import Any

from games.magic_trick.cards import CARD_SET_ASIDE, HAND_SIZE, RANKS, RED, SUITS, SUITS_REMOVED
from games.magic_trick.scoring import BID_MET_POINTS, PRESTIGE_POINTS


def describe() -> dict[str, Any]:
    return {
        "suits": list(SUITS),
        "trump": RED,
        "ranks": list(RANKS),
        "deals": [
            {
                "players": players,
                "hand_size": HAND_SIZE[players],
                "suits_removed": SUITS_REMOVED[players],
                "card_set_aside": CARD_SET_ASIDE[players],
            }
            for players in sorted(HAND_SIZE)
        ],
        "bid_met_points": BID_MET_POINTS,
        "prestige_points": PRESTIGE_POINTS,
    }
