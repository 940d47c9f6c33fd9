"""Premiere's engines for learning and search tools: OpenSpiel games, PettingZoo and Gymnasium
environments, built from the game interface alone (`games.interface`, `games.registry`).

`research.actions` numbers every move of a game once; `research.encoding` turns a seat's view
into numbers; `research.table` serves simultaneous steps one seat at a time; the adapters
(`research.openspiel`, `research.pettingzoo`, `research.gym`) need ``premiere[research]``.
"""
