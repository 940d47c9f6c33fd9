"""The statements of docs/protocol.md and the proto comments about what the games send, each
checked against the engines themselves (no arbiter needed: the arbiter sends what they make)."""

from __future__ import annotations

import re
from pathlib import Path

import games
from games.movie_tricks.cards import DATA
from games.play import step
from premiere_wire import outcome_pb2

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "protocol.md").read_text()
PROTO = ROOT / "proto" / "premiere" / "v1"

CODES = {
    "playing": r"[a-z]+-\d+(-blue)?",
    "start": r"start-\d+[AB]",
    "bonus": r"bonus-\d\d",
    "plus3": r"plus3-\d+",
}


def test_movie_tricks_card_kinds_and_codes_are_the_documented_ones() -> None:
    proto = (PROTO / "movie_tricks.proto").read_text()
    seen = set()
    for card in DATA.cards:
        assert card.kind in CODES, f"{card.code}: undocumented kind {card.kind!r}"
        assert re.fullmatch(CODES[card.kind], card.code), f"{card.code} is not a {card.kind} code"
        seen.add(card.kind)
    assert seen == set(CODES)
    for kind in CODES:
        assert f'"{kind}"' in proto and f"`{kind}`" in DOC


def asked_with_one_legal_move(game_id: str) -> bool:
    game = games.get(game_id)
    for seed in range(3):
        state = game.new(min(game.player_counts), f"forced-{seed}")
        while not state.is_over():
            asked = step(state)
            if any(len(request.legal) == 1 for request in asked):
                return True
            for request in asked:
                state.apply(request.seat, request.legal[-1])
    return False


def test_which_games_ask_a_decision_with_a_single_legal_move() -> None:
    """The protocol doc names exactly the games that still ask such a decision."""
    asking = {g for g in games.ids() if asked_with_one_legal_move(g)}
    ask = [games.get(g).title for g in sorted(asking)]
    others = [games.get(g).title for g in games.ids() if g not in asking]
    assert ask and others
    assert f"{' and '.join(ask)} still ask it" in DOC
    playing_it = DOC.split("still ask it", 1)[1].split("without asking", 1)[0]
    assert all(title in playing_it for title in others), playing_it


def test_magic_trick_play_and_sleeve_requests_differ_by_their_moves() -> None:
    game = games.get("magic-trick")
    state = game.new(3, "phases")
    groups = set()
    while not state.is_over():
        for request in step(state):
            if request.observation.phase == "play":
                groups.add(frozenset(type(move).kind for move in request.legal))
        for request in step(state):
            state.apply(request.seat, request.legal[-1])
    assert {kinds <= {"sleeve", "keep"} or kinds == {"play"} for kinds in groups} == {True}
    assert {"play"} in groups and any(kinds <= {"sleeve", "keep"} for kinds in groups)


def option_rows() -> dict[tuple[str, str], str]:
    section = DOC.split("### Game options", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) == 5 and cells[0] in games.ids():
            rows[(cells[0], cells[1].strip("`"))] = cells[2].strip("`")
    return rows


def test_every_game_option_is_documented_for_bot_authors_with_its_default() -> None:
    documented = option_rows()
    for game_id in games.ids():
        for spec in games.get(game_id).options:
            default = str(spec.default).lower() if isinstance(spec.default, bool) else spec.default
            assert documented.pop((game_id, spec.name)) == str(default), (game_id, spec.name)
    assert not documented, f"documented options no game has: {sorted(documented)}"


def test_the_outcome_on_the_wire_has_no_game_detail() -> None:
    assert "detail" not in outcome_pb2.Outcome.DESCRIPTOR.fields_by_name
    rules = (ROOT / "docs" / "rules" / "movie-tricks.md").read_text()
    assert "not sent on the wire" in rules
