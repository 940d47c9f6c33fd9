"""Motion Pictures: hire filmmakers and shoot projects over four eras (a deck-builder)."""

from games.motion_pictures.game import MotionPictures
from games.motion_pictures.state import MotionPicturesState

__all__ = ["MotionPictures", "MotionPicturesState"]
