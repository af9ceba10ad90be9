"""A round of Ziege in fixed pairs on the director's round page: repeats counted between pairs,
and pairs moved whole (a partner is never swapped alone)."""

from __future__ import annotations

import pytest

from tests.factories import make_round
from tests.helpers.draw import tables_of
from tests.helpers.pages import page_text
from tests.helpers.pairs import fixed_pair_event, play_pairs_round
from tournament.models import Round, Seat

pytestmark = pytest.mark.django_db


def _draw_round_two(director, pairs: int) -> str:
    event, teams = fixed_pair_event(pairs)
    play_pairs_round(make_round(event, seed=3), teams)
    director.post(f"/turnier/{event.slug}/durchgang/neu/")
    director.post(f"/turnier/{event.slug}/durchgang/2/draw/", {"seed": "7"})
    return page_text(director.get(f"/turnier/{event.slug}/durchgang/2/"))


def test_round_two_counts_no_repeat_where_four_pairs_can_all_meet_new_pairs(director):
    text = _draw_round_two(director, 4)

    # partners always sit together: they are no repeat meeting
    assert "Repeat meetings: 0 tables where two pairs meet again" in text
    assert "pairs of players" not in text


def test_round_two_counts_one_repeat_where_two_pairs_must_meet_again(director):
    text = _draw_round_two(director, 2)

    assert "Repeat meetings: 1 table where two pairs meet again" in text


@pytest.fixture
def drawn(director):
    event, teams = fixed_pair_event(4)
    rnd = make_round(event, seed=3, start=False)
    return event, teams, rnd


def test_the_round_page_offers_no_swap_of_a_single_partner(director, drawn):
    event, _teams, _rnd = drawn

    page = director.get(f"/turnier/{event.slug}/durchgang/1/").content.decode()

    assert f'action="/turnier/{event.slug}/durchgang/1/swap/"' not in page
    assert f'action="/turnier/{event.slug}/durchgang/1/swap_pairs/"' in page
    assert '<label for="id_pairs-first">Pair:</label>' in page
    assert '<label for="id_pairs-second">swaps places with:</label>' in page


def test_a_forged_swap_of_one_partner_is_refused_with_a_sentence(director, drawn):
    event, teams, rnd = drawn
    before = tables_of(rnd)
    first = teams[0].pair_members.first()
    other = teams[1].pair_members.first()

    response = director.post(
        f"/turnier/{event.slug}/durchgang/1/swap/",
        {"first": first.pk, "second": other.pk},
        follow=True,
    )

    assert response.status_code == 200
    assert "a partner is not swapped alone: swap the whole pair" in page_text(response)
    assert tables_of(Round.objects.get(pk=rnd.pk)) == before


def test_two_pairs_swap_places_and_partners_stay_opposite(director, drawn):
    event, teams, rnd = drawn
    seat = {s.entry_id: (s.table_id, s.position) for s in Seat.objects.filter(round=rnd)}
    one, two = (list(t.pair_members.order_by("pk")) for t in (teams[0], teams[1]))
    if seat[one[0].pk][0] == seat[two[0].pk][0]:  # the same table: take a pair of the other one
        two = list(teams[2].pair_members.order_by("pk"))
        if seat[one[0].pk][0] == seat[two[0].pk][0]:
            two = list(teams[3].pair_members.order_by("pk"))

    response = director.post(
        f"/turnier/{event.slug}/durchgang/1/swap_pairs/",
        {"pairs-first": teams[0].pk, "pairs-second": two[0].pair_id},
        follow=True,
    )

    assert "Pairs swapped." in page_text(response)
    now = {s.entry_id: (s.table_id, s.position) for s in Seat.objects.filter(round=rnd)}
    assert {now[e.pk] for e in one} == {seat[e.pk] for e in two}
    assert {now[e.pk] for e in two} == {seat[e.pk] for e in one}
    for a, b in (one, two):
        assert now[a.pk][0] == now[b.pk][0]
        assert abs(now[a.pk][1] - now[b.pk][1]) == 2


def test_drawn_partners_still_get_the_swap_of_two_players_with_labels(director):
    event, _teams = fixed_pair_event(2, pairing="drawn")
    make_round(event, seed=3, start=False)

    page = director.get(f"/turnier/{event.slug}/durchgang/1/").content.decode()

    assert f'action="/turnier/{event.slug}/durchgang/1/swap/"' in page
    assert '<label for="id_first">Player:</label>' in page
    assert '<label for="id_second">swaps with:</label>' in page
