"""What a Motion Pictures position is worth to each seat, for a search that stops its playouts
short (`Game.estimate`): the final scoring as things stand (trilogy and big goals included),
plus part of the fame of each project a seat has filmmakers on, by how close they bring it to
completion, plus a little per advanced filmmaker owned for each era still to come."""

from __future__ import annotations

from games.motion_pictures.cards import DATA, FILMMAKERS, PROJECTS_BY_ID
from games.motion_pictures.rules import missing
from games.motion_pictures.state import MotionPicturesState

PROGRESS = 0.5
"""The share of a project's fame counted for a seat whose filmmakers all but complete it."""
ADVANCED = 0.5
"""Fame per advanced filmmaker owned, per era after the current one."""


def estimate(state: MotionPicturesState) -> tuple[float, ...]:
    players = state.players
    values = [float(score) for score in state.scored().scores]
    for slot, pid in enumerate(state.slots):
        if pid is None:
            continue
        project = PROJECTS_BY_ID[pid]
        for seat in range(players):
            placed = state.placed[slot][seat]
            if not placed:
                continue
            mine = [FILMMAKERS[card] for card in placed]
            have = sum(len(f.skills) for f in mine)
            short = missing(project, mine)
            values[seat] += PROGRESS * project.fame * have / max(have + short, 1)
    eras_after = DATA.rules.eras - state.era
    if eras_after > 0:
        for seat in range(players):
            owned = state.hands[seat] + state.draws[seat] + state.discards[seat]
            owned += [c for placed in state.placed for c in placed[seat]]
            advanced = sum(1 for card in owned if not FILMMAKERS[card].start)
            values[seat] += ADVANCED * eras_after * advanced
    return tuple(values)
