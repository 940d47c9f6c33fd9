from games.registry import all_games, get, ids

__all__ = ["all_games", "get", "ids"]
