"""Premiere bot SDK: subclass `Bot`, implement `decide`, and `run` it against an arbiter."""

from premiere_bot.bot import Bot, Decision
from premiere_bot.runner import run

__all__ = ["Bot", "Decision", "run"]
