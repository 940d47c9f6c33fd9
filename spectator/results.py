"""A match's result in words, from its outcome's plain form (``matches.outcome``, or the
watch stream's): generic over games, which name their own tie-breaks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def tiebreaks_used(outcome: Mapping[str, Any], names: Sequence[str]) -> str:
    """The tie-breaks that ordered seats level on score, with the tied seats' values."""
    scores = [int(s) for s in outcome.get("scores") or []]
    tiebreaks = outcome.get("tiebreaks") or []
    forfeited = {int(s) for s in outcome.get("forfeited") or []}
    used: list[str] = []
    for score in sorted(set(scores), reverse=True):
        level = [s for s, value in enumerate(scores) if value == score and s not in forfeited]
        for tiebreak in tiebreaks:
            if len(level) < 2:
                break
            values = [int(v) for v in tiebreak.get("values") or []]
            if len(values) != len(scores):
                continue
            if len({values[s] for s in level}) > 1:
                shown = ", ".join(f"{_name(names, s)} {values[s]}" for s in level)
                used.append(f"{tiebreak.get('name', 'tie-break')} ({shown})")
                best = (max if tiebreak.get("higher_wins", False) else min)(
                    values[s] for s in level
                )
                level = [s for s in level if values[s] == best]
    return "; ".join(used)


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if seat < len(names) else f"seat {seat}"


def result(outcome: Mapping[str, Any] | None, names: Sequence[str]) -> dict[str, Any] | None:
    """``{winners, scores, tiebreaks, text}`` of an outcome, or None without one."""
    if not outcome:
        return None
    scores = [int(s) for s in outcome.get("scores") or []]
    ranks = [int(r) for r in outcome.get("ranks") or []] or [
        1 + sum(other > score for other in scores) for score in scores
    ]
    forfeited = [int(s) for s in outcome.get("forfeited") or []]
    winners = [seat for seat, rank in enumerate(ranks) if rank == 1]
    tiebreaks = tiebreaks_used(outcome, names)
    order = sorted(range(len(scores)), key=lambda s: (ranks[s], s))
    board = ", ".join(f"{_name(names, s)} {scores[s]}" for s in order)
    reference = (outcome.get("detail") or {}).get("reference")
    if len(scores) == 1 and isinstance(reference, Mapping):
        mine, theirs = scores[0], int(reference.get("score", 0))
        verdict = "beats" if mine > theirs else "loses to" if mine < theirs else "ties with"
        text = f"{_name(names, 0)} {verdict} {reference.get('player')}, {mine} to {theirs}"
    elif len(winners) == 1:
        text = f"{_name(names, winners[0])} wins: {board}"
    else:
        text = f"{_and([_name(names, s) for s in winners])} share the win: {board}"
    if tiebreaks:
        text += f"; tie-break: {tiebreaks}"
    if forfeited:
        text += f"; {_and([_name(names, s) for s in forfeited])} forfeited"
    return {"winners": winners, "scores": scores, "tiebreaks": tiebreaks, "text": text}
