"""Magic Trick: trick-taking where you never see your own ranks, and bid with a sleeve card."""

from games.magic_trick.game import MagicTrick
from games.magic_trick.state import MagicTrickState

__all__ = ["MagicTrick", "MagicTrickState"]
