"""Movie Fight scoring: the rulebook's worked example, requirements, wilds, goals, the automa."""

from __future__ import annotations

from games.movie_fight.cards import CARDS
from games.movie_fight.scoring import (
    assignments,
    automa_base,
    automa_tickets,
    breakdown,
    floor_facts,
    measure,
    sequence_found,
    solo_ticket_points,
    ticket_points,
    tier_points,
)
from tests.movie_fight.helpers import cinema

# Elise's cinema as the rulebook's scoring example describes it, from the data file's cards.
# 2nd floor: the couple (54: fantasy, action and speakers, 7) and grandpa (23: three different
# viewers, 3), both upgraded, the kid on grandpa's bar making the third viewer; screens 6
# (fantasy, speakers, a ticket), 12 (action, mystery, two tickets) and 28 (3D, 2 victory
# points). 1st floor: the critic (3: romance ? mystery, 9), the old lady (36, upgraded: four
# different viewers, 6, the kid on her bar the fourth) and the boy in the black shirt (16,
# wanting subtitles); screens 43 (romance), 20 (action, 3D), 22 (mystery, speakers) and 34
# (speakers, two tickets). The example names no cinema tile; tile 3's A side (a fantasy on the
# 2nd floor, two different viewers on the 1st) is one she meets.
ELISE = cinema(
    tile=3,
    first=((3, 36, 16), (43, 20, 22, 34)),
    second=((54, 23), (6, 12, 28)),
    upgraded=(23, 36, 54),
)


def test_elise_scores_68() -> None:
    part = breakdown(ELISE, "A")
    assert part.cinema == 20
    assert part.viewers == (7 + 3) + (9 + 6)
    assert part.bonus == 1 + 2
    assert part.equipment_goal == 3
    assert part.viewers_goal == 5 + 8
    assert part.tickets == 5
    places = ticket_points([part.tickets, 7])
    assert places == (4, 8)
    assert part.subtotal + places[0] == 68


def test_elise_floor_by_floor() -> None:
    lower = cinema(3, (ELISE.floors[0].audience, ELISE.floors[0].screens), upgraded=(36,))
    upper = cinema(3, ((), ()), (ELISE.floors[1].audience, ELISE.floors[1].screens), (23, 54))
    assert breakdown(upper, "A").viewers == 7 + 3
    assert breakdown(upper, "A").bonus == 1 + 2
    assert breakdown(upper, "A").viewers_goal == 5
    assert breakdown(lower, "A").viewers == 9 + 6
    assert breakdown(lower, "A").viewers_goal == 8
    assert breakdown(lower, "A").bonus == 0


def test_a_viewer_on_an_upgraded_bar_is_in_the_audience() -> None:
    """Without her upgrade the old lady sees three viewers, not four, and the floor drops to
    the goals card's lower tier as well."""
    plain = cinema(3, (ELISE.floors[0].audience, ELISE.floors[0].screens))
    assert breakdown(plain, "A").viewers == 9 + 3
    assert breakdown(plain, "A").viewers_goal == 5


def test_wild_assignment_is_exact_not_greedy() -> None:
    # Viewers 60 (2/4/6 for 1/2/3 romances), 63 (2/4/6 for 1/2/3 sci-fi) and 14 (4 for three
    # distinct genres) watch a romance (53) and two wilds (45, 18). Each wild alone is worth
    # most as a romance (+2) or a sci-fi (+2), and both as romance or both as sci-fi gives 6.
    # The optimum spreads them: one sci-fi and one mystery (or any third genre) gives
    # 2 (one romance) + 2 (one sci-fi) + 4 (three genres) = 8.
    lone = cinema(2, ((), ()), ((60, 63, 14), (53, 45, 18)))
    assert breakdown(lone, "A").viewers == 8
    brute = max(
        sum(
            tier_points(
                CARDS[n].requirement, measure(CARDS[n].requirement, facts, movies, CARDS[n].viewer)
            )
            for n in (60, 63, 14)
        )
        for facts in [floor_facts(lone.floors[1], ())]
        for movies in assignments(facts.movies, final=True)
    )
    assert brute == 8


def test_a_wild_is_one_genre_for_every_viewer() -> None:
    # Viewers 1 (two romances: 3) and 17 (one mystery: 2) on a floor whose only movies are a
    # romance (43) and one wild (45): the wild is romance (3) or mystery (2), never both.
    assert breakdown(cinema(2, ((1, 17), (43, 45))), "A").viewers == 3


def test_sequences_need_later_cards_or_a_gap() -> None:
    same_card = [(0, "romance"), (0, "action")]
    assert not sequence_found(same_card, ("romance", "|", "action"))
    assert sequence_found([(0, "romance"), (2, "action")], ("romance", "|", "action"))
    assert not sequence_found([(1, "action"), (2, "romance")], ("romance", "|", "action"))
    assert not sequence_found([(0, "romance"), (1, "mystery")], ("romance", "?", "mystery"))
    assert sequence_found(
        [(0, "romance"), (0, "fantasy"), (0, "mystery")], ("romance", "?", "mystery")
    )


def test_wilds_are_not_movies_during_the_game() -> None:
    final = breakdown(cinema(2, ((1,), (43, 45))), "A")
    live = breakdown(cinema(2, ((1,), (43, 45))), "A", final=False)
    assert final.viewers == 3
    assert live.viewers == 0


def test_ticket_places_by_player_count() -> None:
    assert ticket_points([5, 3, 1]) == (8, 4, 1)
    assert ticket_points([5, 5, 1]) == (8, 8, 1)
    assert ticket_points([2, 0]) == (8, 0)
    assert ticket_points([9, 7, 5, 3, 1]) == (12, 8, 4, 1, 0)
    assert ticket_points([1, 2, 3, 4]) == (1, 4, 8, 12)


def test_goals_card_tables() -> None:
    # Three distinct viewers on one floor: 5; equipment: 3D only -> 1.
    part = breakdown(cinema(1, ((3, 2, 16), (48,))), "A")
    assert part.viewers_goal == 5
    assert part.equipment_goal == 1
    six = breakdown(cinema(1, ((1, 2, 3, 4, 6, 7, 8), ())), "A")
    assert six.viewers_goal == 11  # 6 or more distinct viewers


def test_automa_scores_every_viewer_at_its_best() -> None:
    audience = (1, 3)  # up to 6, and 9
    screens = (2, 34)  # 1 bonus point; 34 has 2 tickets, 2's bar 0, 34's bar none
    assert automa_base(audience, screens, 1) == 6 + 9 + 15 + 1
    assert automa_base(audience, screens, 4) == 6 + 9 + 30 + 1
    tickets = automa_tickets(audience, screens, 2)
    bars = CARDS[1].audience_bar.tickets + CARDS[3].audience_bar.tickets
    bars += sum(CARDS[n].tickets + CARDS[n].screen_bar.tickets for n in screens)
    assert tickets == 2 + bars
    assert automa_tickets((), (), 1) + 1 == automa_tickets((), (), 2)
    assert automa_tickets((), (), 3) == automa_tickets((), (), 4) == 3


def test_solo_ticket_comparison() -> None:
    assert solo_ticket_points(5, 3) == (8, 4)
    assert solo_ticket_points(2, 3) == (4, 8)
    assert solo_ticket_points(3, 3) == (8, 8)
