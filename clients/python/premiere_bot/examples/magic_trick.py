"""Magic Trick played by the same heuristic as the arbiter's built-in bot.

It runs the engine's own bot code on the decoded observation, so it needs Premiere's `games`
package installed next to the SDK (as in the Premiere repository).
"""

from __future__ import annotations

from games.magic_trick.heuristic import HeuristicBot
from games.magic_trick.moves import MOVE_TYPES
from games.magic_trick.views import MagicTrickObservation
from games.rng import Rng, derive_seed
from premiere_bot import Bot, Decision
from premiere_wire import bot_gateway_pb2
from premiere_wire.convert import build

KINDS = {cls.kind: cls for cls in MOVE_TYPES}


class MagicTrickBot(Bot):
    games = ("magic-trick",)
    max_matches = 8

    def decide(self, request: bot_gateway_pb2.DecisionRequest) -> Decision:
        observation = build(MagicTrickObservation, request.observation.magic_trick)
        legal = []
        for move in request.legal_moves:
            typed = move.magic_trick
            kind = typed.WhichOneof("kind")
            assert kind is not None
            legal.append(build(KINDS[kind], getattr(typed, kind)))
        rng = Rng(derive_seed(request.match_id, request.decision_number))
        return legal.index(HeuristicBot(rng).choose(observation, legal))
