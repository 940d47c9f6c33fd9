"""Typed views resolve the numbers and ids that name cards, tiles and films to the served
entries, and stay the plain values they were (equal, hashable, sent back as they are)."""

from __future__ import annotations

import subprocess
import sys

import pytest

import games
from premiere.game_data import game_data
from premiere_bot import entries, movie_fight, movie_trailer, typed
from premiere_wire import bot_gateway_pb2
from server.codec import move_to_wire, observation_to_wire


def _request(game_id: str, players: int) -> bot_gateway_pb2.DecisionRequest:
    """The first decision of a match, as the arbiter sends it."""
    game = games.get(game_id)
    state = game.new(players, "entries")
    seat = state.to_move()[0]
    legal = state.legal_moves(seat)
    request = bot_gateway_pb2.DecisionRequest(game=game_id, seat=seat)
    request.observation.CopyFrom(observation_to_wire(game, state.observe(seat)))
    request.legal_moves.extend(move_to_wire(game, move) for move in legal)
    return request


def test_movie_fight_cards_are_read_as_entries_of_the_served_data() -> None:
    entries.register(game_data("movie-fight"))
    request = _request("movie-fight", 2)
    observation = typed.observation(request)
    assert isinstance(observation, movie_fight.Observation)
    cards = {card.number: card for card in game_data("movie-fight").movie_fight.cards}
    first = observation.offer[0]
    assert isinstance(first, entries.Entry) and first == request.observation.movie_fight.offer[0]
    assert list(first.genres) == list(cards[int(first)].genres)
    assert first.viewer == cards[int(first)].viewer
    assert observation.cinemas[0].tile.a_points > 0
    plays = [m for m in typed.legal_moves(request) if isinstance(m, movie_fight.Play)]
    assert plays and all(isinstance(m.card, entries.Entry) for m in plays)
    wire = typed.move_to_wire("movie-fight", plays[0])
    assert wire == request.legal_moves[list(typed.legal_moves(request)).index(plays[0])]


def test_movie_trailer_films_are_read_as_str_entries() -> None:
    entries.register(game_data("movie-trailer"))
    request = _request("movie-trailer", 3)
    moves = typed.legal_moves(request)
    films = [m for m in moves if isinstance(m, movie_trailer.ChooseFilm)]
    assert films, moves
    film = films[0].film
    assert isinstance(film, entries.StrEntry) and film.entry.id == film
    assert (
        next(f.category for f in film.fits)
        == game_data("movie-trailer").movie_trailer.categories[0].name
    )


def test_a_number_the_data_does_not_know_says_so() -> None:
    unknown = entries.Entry(999)
    assert unknown == 999 and hash(unknown) == hash(999) and repr(unknown) == "999"
    with pytest.raises(AttributeError, match="names nothing in the game data"):
        _ = unknown.genres


def test_a_bot_imports_the_typed_views_of_the_games_it_reads_only() -> None:
    """A bot starts without building the dataclasses of every game (tens of milliseconds of
    a hosted bot's start): a game's views are imported with its first request."""
    script = (
        "import sys\n"
        "import premiere_bot, premiere_bot.runner\n"
        "from premiere_bot import typed, views\n"
        "from premiere_wire import bot_gateway_pb2\n"
        "loaded = lambda: sorted(g for g, m in views.MODULES.items() if m in sys.modules)\n"
        "print(loaded())\n"
        "request = bot_gateway_pb2.DecisionRequest(game='magic-trick')\n"
        "request.observation.magic_trick.SetInParent()\n"
        "print(type(typed.observation(request)).__module__, loaded())\n"
        "try:\n"
        "    typed.observation(bot_gateway_pb2.DecisionRequest(game='chess'))\n"
        "except typed.UnknownGame as error:\n"
        "    print(error)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    ).stdout.splitlines()
    assert out[0] == "[]"
    assert out[1] == "premiere_bot.magic_trick ['magic-trick']"
    assert "no typed views of 'chess'" in out[2] and "'movie-fight'" in out[2]
