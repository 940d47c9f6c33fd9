"""The Motion Pictures engine: set-up, turns, the end of each era, and final scoring.

On a turn a player shoots (plays a filmmaker beside a project or onto the trilogy), hires or
recruits; an empty hand passes. Projects lie in ``3 * players`` slots, three between each pair
of neighbours: slot ``k`` lies in gap ``k // 3``, between seats ``gap`` and ``gap + 1``. An era
ends at the end of the round in which a completed project could not be replaced, or after the
one player still holding cards has taken one more turn; the fourth era ends the game.

A decision with a single legal move is applied by the engine at once, never asked.
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any, ClassVar

from games.interface import (
    Outcome,
)
from games.motion_pictures.cards import (
    AUDITION,
    COMMERCIAL,
    COMPLETION_FAME,
    DATA,
    DRAW,
    FAME,
    FILMMAKERS,
    FIRE,
    GOALS,
    HIRE_DISCOUNT,
    MOVIE,
    ON_HIRE,
    ON_PLAY,
    ONGOING,
    PROJECTS_BY_ID,
    RECRUIT_DRAW,
    TV,
    WILD,
    Filmmaker,
    Project,
)
from games.motion_pictures.moves import (
    MOVE_TYPES,
    Audition,
    CommitTrilogy,
    Discard,
    Fire,
    HireAny,
    HireMatch,
    Move,
    Recruit,
    Refresh,
    Shoot,
    Skip,
)
from games.motion_pictures.rules import condition_met, is_complete
from games.motion_pictures.scoring import Final, final_outcome, public_fame
from games.motion_pictures.views import (
    ACTION,
    DISCARD,
    FIRING,
    OVER,
    REFRESH,
    MotionPicturesObservation,
    Slot,
    Studio,
)
from games.rng import Rng
from games.turns import OneSeatAtATime

RULES = DATA.rules
_AUDITION_TARGET = -1
_SKIP = Skip()
_AUDITION = Audition()
_SHOOT = tuple({f.id: Shoot(f.id, s) for f in FILMMAKERS} for s in range(12))
_COMMIT = {f.id: CommitTrilogy(f.id) for f in FILMMAKERS}
_HIRE_ANY = {f.id: HireAny(f.id) for f in FILMMAKERS}
_RECRUIT = {f.id: Recruit(f.id) for f in FILMMAKERS}
_DISCARD = {f.id: Discard(f.id) for f in FILMMAKERS}
_FIRE = {f.id: Fire(f.id) for f in FILMMAKERS}
_REFRESH = {f.id: Refresh(f.id) for f in FILMMAKERS}
_HIRE_MATCH = {
    (a.id, b.id): HireMatch(a.id, b.id)
    for a in FILMMAKERS
    for b in FILMMAKERS
    if a.specialty == b.specialty and b.start == 0
}
_SPECIALTY = tuple(f.specialty for f in FILMMAKERS)
_SKILLS = tuple(f.skills for f in FILMMAKERS)
_SKILL_COUNTS = tuple(
    tuple(Counter(skill for skill in f.skills if skill != WILD).items()) for f in FILMMAKERS
)
_NEED_COUNTS = tuple(Counter(p.needs) for p in PROJECTS_BY_ID)
_FORBIDDEN = tuple(frozenset(p.forbidden) for p in PROJECTS_BY_ID)
_ONGOING_CARDS = frozenset(
    f.id for f in FILMMAKERS if f.ability is not None and f.ability.timing == ONGOING
)


class MotionPicturesState(OneSeatAtATime):
    game_id: ClassVar[str] = "motion-pictures"
    move_types: ClassVar[tuple[type[Any], ...]] = MOVE_TYPES

    def __init__(self, players: int, rng: Rng) -> None:
        self._players = players
        self.rng = rng
        deck = list(DATA.advanced)
        rng.shuffle(deck)
        self.deck = deck
        """The Filmmakers Deck; its top is the end of the list."""
        self.row: list[int] = []
        self.row_order: list[int] = []
        """Row positions, least recently filled first (the colour rule replaces the newest)."""
        self.row_discards: list[int] = []
        for _ in range(RULES.row):
            self._fill_row(len(self.row))
        self._ensure_colours()

        big = [g.id for g in GOALS if g.big]
        small = [g.id for g in GOALS if not g.big]
        rng.shuffle(big)
        rng.shuffle(small)
        self.big_goals = sorted(big[: RULES.big_goals])
        self.small_goals = sorted(small[:players])
        self.unused_goals = big[RULES.big_goals :] + small[players:]
        trilogies = [t.id for t in DATA.trilogies]
        self.trilogy = rng.choice(trilogies)

        size = RULES.era_pile[players]
        self.era_piles: list[list[int]] = []
        self.boxed: list[list[int]] = []
        for era in range(1, RULES.eras + 1):
            pile = list(DATA.era_projects(era))
            rng.shuffle(pile)
            self.era_piles.append(pile[:size])
            self.boxed.append(pile[size:])

        self.slots: list[int | None] = [None] * (RULES.projects_per_side * players)
        self.placed: list[list[list[int]]] = [[[] for _ in range(players)] for _ in self.slots]
        self.hands = [sorted(DATA.starting(seat + 1)) for seat in range(players)]
        self.draws: list[list[int]] = [[] for _ in range(players)]
        self.discards: list[list[int]] = [[] for _ in range(players)]
        self.committed: list[list[int]] = [[] for _ in range(players)]
        self.fired: list[list[int]] = [[] for _ in range(players)]
        self.completed: list[list[int]] = [[] for _ in range(players)]
        self.claimed: list[list[int]] = [[] for _ in range(players)]
        self.fame = [0] * players
        self.secret: list[set[int]] = [set() for _ in range(players)]
        """Per seat, its cards no other seat has seen: auditioned and not shown since."""

        self.era = 1
        self.round = 1
        self.start = rng.below(players)
        self.turn: int | None = None
        self.phase = ACTION
        self.ending = False
        self.last_turn: int | None = None
        self.hiring: int | None = None
        self.discards_left = 0
        self.effects: list[tuple[str, int]] = []
        self.result: Outcome | None = None
        self._legal: tuple[Move, ...] = ()
        self._deal_projects()
        self._advance(None)
        self._settle()

    @property
    def players(self) -> int:
        return self._players

    # --- decisions -----------------------------------------------------------------------

    def reachable(self, seat: int) -> tuple[int, ...]:
        """The slots beside a seat: the gap to its left and the gap to its right."""
        return _reachable(self._players, seat)

    def _compute_legal(self, seat: int) -> tuple[Move, ...]:
        hand = self.hands[seat]
        if self.phase == DISCARD:
            return tuple(_DISCARD[c] for c in hand)
        if self.phase == FIRING:
            return (_SKIP, *(_FIRE[c] for c in hand))
        if self.phase == REFRESH:
            return (_SKIP, *(_REFRESH[c] for c in self.row))
        moves: list[Move] = list(map(_COMMIT.__getitem__, hand))
        moves += map(_RECRUIT.__getitem__, hand)
        row = self.row
        matching: dict[str, list[int]] = {}  # the row's cards by specialty, in row order
        for r in row:
            matching.setdefault(_SPECIALTY[r], []).append(r)
        for c in hand:
            same = matching.get(_SPECIALTY[c])
            if same:
                moves += [_HIRE_MATCH[c, r] for r in same]
        discount = self._ongoing(seat, HIRE_DISCOUNT)
        if len(hand) >= max(1, RULES.hire_any_cost - discount):
            moves += [_HIRE_ANY[r] for r in row]
        if self.deck and len(hand) >= max(1, RULES.audition_cost - discount):
            moves.append(_AUDITION)
        for slot in _reachable(self._players, seat):
            pid = self.slots[slot]
            if pid is None:
                continue
            project = PROJECTS_BY_ID[pid]
            shoot = _SHOOT[slot]
            if project.type in _OPEN_TYPES:
                moves += map(shoot.__getitem__, hand)
            elif project.type == TV:
                banned = _FORBIDDEN[pid]
                moves += [shoot[c] for c in hand if banned.isdisjoint(_SKILLS[c])]
            else:
                moves += [shoot[c] for c in _award_fits(project, self.placed[slot][seat], hand)]
        return tuple(moves)

    def _ongoing(self, seat: int, effect: str) -> int:
        """The summed strength of a seat's ongoing abilities of one effect lying on projects."""
        total = 0
        for placed in self.placed:
            for c in placed[seat]:
                if c not in _ONGOING_CARDS:
                    continue
                ability = FILMMAKERS[c].ability
                if ability is not None and ability.timing == ONGOING and ability.effect == effect:
                    total += ability.amount
        return total

    def _hire_cost(self, seat: int, cost: int) -> int:
        return max(1, cost - self._ongoing(seat, HIRE_DISCOUNT))

    def _step(self, seat: int, move: Move) -> None:
        hand = self.hands[seat]
        if isinstance(move, Shoot):
            self._shoot(seat, move.card, move.slot)
        elif isinstance(move, CommitTrilogy):
            hand.remove(move.card)
            self.committed[seat].append(move.card)
            self._end_turn(seat)
        elif isinstance(move, HireMatch):
            self._discard(seat, move.discard)
            self._hire(seat, move.hire)
        elif isinstance(move, HireAny | Audition):
            target = move.hire if isinstance(move, HireAny) else _AUDITION_TARGET
            base = RULES.hire_any_cost if isinstance(move, HireAny) else RULES.audition_cost
            self.hiring = target
            self.discards_left = self._hire_cost(seat, base)
            self.phase = DISCARD
        elif isinstance(move, Discard):
            self._discard(seat, move.card)
            self.discards_left -= 1
            if self.discards_left == 0:
                pending = self.hiring
                assert pending is not None
                self.hiring = None
                self._hire(seat, pending)
        elif isinstance(move, Recruit):
            self._discard(seat, move.discard)
            self._draw(seat, 1 + self._ongoing(seat, RECRUIT_DRAW))
            if self.row and self.deck:
                self.phase = REFRESH
            else:
                self._end_turn(seat)
        elif isinstance(move, Refresh):
            index = self.row.index(move.card)
            self.row_discards.append(move.card)
            self._fill_row(index)
            self._ensure_colours()
            self._end_turn(seat)
        elif isinstance(move, Fire):
            hand.remove(move.card)
            self.secret[seat].discard(move.card)
            self.fired[seat].append(move.card)
            self._run_effects(seat)
        elif isinstance(move, Skip):
            if self.phase == FIRING:
                self._run_effects(seat)
            else:
                self._end_turn(seat)

    # --- actions -------------------------------------------------------------------------

    def _discard(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self.secret[seat].discard(card)
        self.discards[seat].append(card)

    def _shoot(self, seat: int, card: int, slot: int) -> None:
        self.hands[seat].remove(card)
        self.secret[seat].discard(card)
        self.placed[slot][seat].append(card)
        ability = FILMMAKERS[card].ability
        if ability is not None and ability.timing == ON_PLAY:
            self.effects.append((ability.effect, ability.amount))
        pid = self.slots[slot]
        assert pid is not None
        project = PROJECTS_BY_ID[pid]
        if _completes(pid, tuple(self.placed[slot][seat])):
            for owner, placed in enumerate(self.placed[slot]):
                self.discards[owner].extend(placed)
                placed.clear()
            self.completed[seat].append(pid)
            if project.ability is not None:
                self.effects.append((project.ability.effect, project.ability.amount))
            self.fame[seat] += self._ongoing(seat, COMPLETION_FAME)
            pile = self.era_piles[self.era - 1]
            if pile:
                self.slots[slot] = pile.pop()
            else:
                self.slots[slot] = None
                self.ending = True
        self._run_effects(seat)

    def _hire(self, seat: int, target: int) -> None:
        if target == _AUDITION_TARGET:
            card = self.deck.pop()
            self.secret[seat].add(card)
        else:
            card = target
            index = self.row.index(card)
            self.row[index] = -1
            self._fill_row(index)
            self._ensure_colours()
        self.hands[seat].append(card)
        self.hands[seat].sort()
        self.phase = ACTION
        ability = FILMMAKERS[card].ability
        if ability is not None and ability.timing == ON_HIRE:
            self.effects.append((ability.effect, ability.amount))
        self._run_effects(seat)

    def _run_effects(self, seat: int) -> None:
        """Apply pending abilities in order; a fire ability waits for the player's choice."""
        self.phase = ACTION
        while self.effects:
            effect, amount = self.effects.pop(0)
            if effect == DRAW:
                self._draw(seat, amount)
            elif effect == AUDITION:
                for _ in range(amount):
                    if self.deck:
                        card = self.deck.pop()
                        self.secret[seat].add(card)
                        self.hands[seat].append(card)
                self.hands[seat].sort()
            elif effect == FAME:
                self.fame[seat] += amount
            elif effect == FIRE and self.hands[seat]:
                self.phase = FIRING
                return
        self._end_turn(seat)

    def _draw(self, seat: int, count: int) -> None:
        draws, hand = self.draws[seat], self.hands[seat]
        for _ in range(count):
            if not draws:
                draws.extend(self.discards[seat])
                self.discards[seat].clear()
                self.rng.shuffle(draws)
            if not draws:
                break
            hand.append(draws.pop())
        hand.sort()

    # --- the Filmmakers Row --------------------------------------------------------------

    def _fill_row(self, index: int) -> None:
        """Put the deck's top card at a row position, or close the gap if the deck is empty."""
        if index in self.row_order:
            self.row_order.remove(index)
        if not self.deck:
            if index < len(self.row):
                del self.row[index]
                self.row_order = [i - (i > index) for i in self.row_order]
            return
        card = self.deck.pop()
        if index < len(self.row):
            self.row[index] = card
        else:
            self.row.append(card)
        self.row_order.append(index)

    def _ensure_colours(self) -> None:
        """While fewer than three specialties show, the newest card whose specialty repeats
        goes under the deck and the top card replaces it (at most once per deck card)."""
        for _ in range(len(self.deck)):
            specialties = [FILMMAKERS[c].specialty for c in self.row]
            if len(set(specialties)) >= min(RULES.row_colours, len(self.row)):
                return
            index = next(
                i for i in reversed(self.row_order) if specialties.count(specialties[i]) > 1
            )
            self.deck.insert(0, self.row[index])
            self._fill_row(index)

    # --- turns and eras ------------------------------------------------------------------

    def _end_turn(self, seat: int) -> None:
        self.phase = ACTION
        if self.small_goals:
            completed = [PROJECTS_BY_ID[p] for p in self.completed[seat]]
            owned = self._owned(seat)
            committed = len(self.committed[seat])
            for goal in list(self.small_goals):
                if condition_met(GOALS[goal].condition, completed, owned, committed):
                    self.small_goals.remove(goal)
                    self.claimed[seat].append(goal)
        self._advance(seat)

    def _owned(self, seat: int) -> list[Filmmaker]:
        cards = self.hands[seat] + self.draws[seat] + self.discards[seat]
        cards += [c for placed in self.placed for c in placed[seat]]
        return [FILMMAKERS[c] for c in cards]

    def _advance(self, seat: int | None) -> None:
        """Give the turn to the next seat holding cards, or end the era."""
        n = self._players
        last_of_round = (self.start - 1) % n
        if seat is not None and (self.last_turn == seat or (self.ending and seat == last_of_round)):
            self._end_era()
            return
        holders = [s for s in range(n) if self.hands[s]]
        if not holders:
            self._end_era()
            return
        if len(holders) == 1 and self.last_turn is None:
            self.last_turn = holders[0]
        current = self.start if seat is None else (seat + 1) % n
        for _ in range(n + 1):
            if seat is not None and current == self.start:
                self.round += 1
                if self.round > RULES.era_rounds:
                    self._end_era()
                    return
            if self.hands[current]:
                self.turn = current
                self.phase = ACTION
                return
            if self.ending and current == last_of_round:
                self._end_era()
                return
            seat = current
            current = (current + 1) % n
        raise AssertionError("a seat holding cards was not found")

    def _deal_projects(self) -> None:
        pile = self.era_piles[self.era - 1]
        self.slots = [pile.pop() if pile else None for _ in self.slots]

    def _end_era(self) -> None:
        for seat in range(self._players):
            pool = self.hands[seat] + self.draws[seat] + self.discards[seat]
            pool += [c for placed in self.placed for c in placed[seat]]
            self.rng.shuffle(pool)
            split = max(0, len(pool) - RULES.hand)
            self.hands[seat] = sorted(pool[split:])
            self.draws[seat] = pool[:split]
            self.discards[seat] = []
        self.placed = [[[] for _ in range(self._players)] for _ in self.slots]
        self.boxed[self.era - 1].extend(pid for pid in self.slots if pid is not None)
        self.ending = False
        self.last_turn = None
        self.turn = None
        if self.era == RULES.eras:
            self._finish()
            return
        self.era += 1
        self.round = 1
        self.start = (self.start + 1) % self._players
        self._deal_projects()
        self._advance(None)

    def _finish(self) -> None:
        self.phase = OVER
        self.slots = [None] * len(self.slots)
        self.result = self.scored()

    def scored(self) -> Outcome:
        """The final scoring of every seat's position as it stands (the match's outcome when
        it ends; during the match, what the search's estimate starts from)."""
        return final_outcome(
            self.finals(), DATA.trilogies[self.trilogy], [GOALS[g] for g in self.big_goals]
        )

    def finals(self) -> list[Final]:
        """Every seat's position as final scoring reads it."""
        return [
            Final(
                completed=tuple(PROJECTS_BY_ID[p] for p in self.completed[seat]),
                owned=tuple(self._owned(seat)),
                committed=tuple(FILMMAKERS[c] for c in self.committed[seat]),
                small_goals=tuple(GOALS[g] for g in self.claimed[seat]),
                ability_fame=self.fame[seat],
            )
            for seat in range(self._players)
        ]

    # --- views ---------------------------------------------------------------------------

    def observe(self, seat: int) -> MotionPicturesObservation:
        return self._view(seat)

    def spectate(self) -> MotionPicturesObservation:
        return self._view(None)

    def _view(self, viewer: int | None) -> MotionPicturesObservation:
        per = RULES.projects_per_side
        return MotionPicturesObservation(
            seat=viewer,
            players=self._players,
            era=self.era,
            eras=RULES.eras,
            round=self.round,
            phase=self.phase,
            turn=self.turn,
            start_player=self.start,
            era_ending=self.ending,
            last_turn=self.last_turn,
            hand=() if viewer is None else _cards(self.hands[viewer]),
            trilogy_cards=() if viewer is None else _cards(sorted(self.committed[viewer])),
            row=_cards(self.row),
            deck_size=len(self.deck),
            era_piles=tuple(len(pile) for pile in self.era_piles),
            trilogy=DATA.trilogies[self.trilogy],
            big_goals=tuple(GOALS[g] for g in self.big_goals),
            small_goals=tuple(GOALS[g] for g in self.small_goals),
            slots=tuple(
                Slot(
                    slot=slot,
                    gap=slot // per,
                    project=None if pid is None else PROJECTS_BY_ID[pid],
                    placed=tuple(_cards(placed) for placed in self.placed[slot]),
                )
                for slot, pid in enumerate(self.slots)
            ),
            studios=tuple(
                Studio(
                    seat=seat,
                    hand_size=len(self.hands[seat]),
                    draw_size=len(self.draws[seat]),
                    discard=_cards(self.discards[seat]),
                    trilogy_size=len(self.committed[seat]),
                    fired=_cards(self.fired[seat]),
                    completed=tuple(PROJECTS_BY_ID[p] for p in self.completed[seat]),
                    small_goals=tuple(GOALS[g] for g in self.claimed[seat]),
                    fame=self.fame[seat],
                )
                for seat in range(self._players)
            ),
            hiring=(
                FILMMAKERS[self.hiring]
                if self.hiring is not None and self.hiring != _AUDITION_TARGET
                else None
            ),
            auditioning=self.hiring == _AUDITION_TARGET,
            discards_left=self.discards_left,
        )

    # --- copies and hidden information ---------------------------------------------------

    def current_scores(self) -> tuple[int, ...]:
        if self.result is not None:
            return self.result.scores
        return tuple(
            public_fame(self.fame[seat], self.completed[seat], self.claimed[seat])
            for seat in range(self._players)
        )

    def clone(self) -> MotionPicturesState:
        twin = object.__new__(MotionPicturesState)
        twin.__dict__.update(self.__dict__)
        twin.rng = self.rng.copy()
        for name in ("deck", "row", "row_order", "row_discards", "big_goals", "small_goals"):
            setattr(twin, name, list(getattr(self, name)))
        twin.unused_goals = list(self.unused_goals)
        twin.slots = list(self.slots)
        twin.effects = list(self.effects)
        twin.fame = list(self.fame)
        for name in (
            "era_piles",
            "boxed",
            "hands",
            "draws",
            "discards",
            "committed",
            "fired",
            "completed",
            "claimed",
        ):
            setattr(twin, name, [list(pile) for pile in getattr(self, name)])
        twin.placed = [[list(cards) for cards in placed] for placed in self.placed]
        twin.secret = [set(cards) for cards in self.secret]
        return twin

    def indistinguishable(self, seat: int, rng: Rng) -> MotionPicturesState:
        """Reshuffle everything `seat` cannot see: the order of every draw pile (its own too),
        the Filmmakers Deck, the era piles with the projects left in the box, the unused goals;
        and, for every other seat, which of its hidden cards (hand, draw pile, trilogy) lie
        where. Then fork the generator, so future shuffles differ too."""
        twin = self.clone()
        twin.rng = rng.fork(f"twin-{rng.below(1 << 62)}")
        for draws in twin.draws:
            rng.shuffle(draws)
        rng.shuffle(twin.deck)
        rng.shuffle(twin.unused_goals)
        for era in range(twin.era - 1, RULES.eras):
            pool = twin.era_piles[era] + twin.boxed[era]
            rng.shuffle(pool)
            size = len(twin.era_piles[era])
            twin.era_piles[era], twin.boxed[era] = pool[:size], pool[size:]
        twin._swap_secrets(seat, rng)
        for other in range(self._players):
            if other == seat:
                continue
            hand, draws, committed = twin.hands[other], twin.draws[other], twin.committed[other]
            pool = hand + draws + committed
            rng.shuffle(pool)
            twin.hands[other] = sorted(pool[: len(hand)])
            twin.draws[other] = pool[len(hand) : len(hand) + len(draws)]
            twin.committed[other] = pool[len(hand) + len(draws) :]
        if twin.turn is not None:
            twin._legal = twin._compute_legal(twin.turn)
        return twin

    def _swap_secrets(self, seat: int, rng: Rng) -> None:
        """Deal the other seats' secret cards and the Filmmakers Deck afresh among the same
        places: to `seat` an auditioned card could have been any card it has not seen."""
        places: list[tuple[list[int], int, int | None]] = [
            (self.deck, i, None) for i in range(len(self.deck))
        ]
        for other in range(self._players):
            if other == seat:
                continue
            for pile in (self.hands[other], self.draws[other], self.committed[other]):
                places.extend(
                    (pile, i, other) for i, c in enumerate(pile) if c in self.secret[other]
                )
        cards = [pile[i] for pile, i, _ in places]
        rng.shuffle(cards)
        for other in range(self._players):
            if other != seat:
                self.secret[other].clear()
        for (pile, i, owner), card in zip(places, cards, strict=True):
            pile[i] = card
            if owner is not None:
                self.secret[owner].add(card)
        for other in range(self._players):
            self.hands[other].sort()


def _award_fits(project: Project, mine: list[int], hand: list[int]) -> list[int]:
    """The hand cards an award admits: `rules.may_place`, with the counting done once."""
    admitted = _award_admits(project.id, tuple(mine))
    return [c for c in hand if c in admitted]


@functools.lru_cache(maxsize=4096)
def _completes(pid: int, mine: tuple[int, ...]) -> bool:
    """`rules.is_complete` of a project with these cards of one seat on it, remembered."""
    return is_complete(PROJECTS_BY_ID[pid], [FILMMAKERS[c] for c in mine])


@functools.lru_cache(maxsize=4096)
def _award_admits(pid: int, mine: tuple[int, ...]) -> frozenset[int]:
    """Every filmmaker an award admits with ``mine`` (the seat's cards) on it; remembered,
    for a search's playouts meet the same few awards and placements again and again."""
    rest = dict(_NEED_COUNTS[pid])
    used = 0
    for c in mine:
        used += len(_SKILLS[c])
        for skill, n in _SKILL_COUNTS[c]:
            rest[skill] = rest.get(skill, 0) - n
    spare = len(PROJECTS_BY_ID[pid].needs) - used
    return frozenset(
        c
        for c, skills in enumerate(_SKILLS)
        if len(skills) <= spare and all(rest.get(k, 0) >= n for k, n in _SKILL_COUNTS[c])
    )


_OPEN_TYPES = (MOVIE, COMMERCIAL)
"""Project types that take any filmmaker."""


@functools.cache
def _reachable(players: int, seat: int) -> tuple[int, ...]:
    per = RULES.projects_per_side
    gaps = sorted({seat, (seat - 1) % players})
    return tuple(g * per + i for g in gaps for i in range(per))


def _cards(ids: list[int]) -> tuple[Filmmaker, ...]:
    return tuple(FILMMAKERS[c] for c in ids)
