"""The prize-giving, who gets which prize and why not (issue 28): a named prize before the rule's
goods, the reason shown wherever a player in line for a prize does not get it, and a finished
event's prize assignment kept as it was handed out.

The day in miniature: twelve players, money for places 1 to 3, goods for every second player
(places 1 to 6), a women's and a juniors' first prize. The best woman is on rank 5 and the best
junior on rank 6, both on a place the rule's goods would fill; the other woman is on rank 9, the
other junior last."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape

from tests.factories import make_entries, make_event, make_round, make_user
from tests.helpers.draw import next_round
from tests.helpers.forms import as_browser_sends
from tests.helpers.money import played, prize
from tests.helpers.pages import messages_of
from tests.helpers.pairs import fixed_pair_event, play_pairs_round
from tournament.models import Entry, Event, Player, Prize, PrizeAssignment, PrizeSettings, Table
from tournament.money import prizes
from tournament.play import confirmations, hands, lots, rounds

pytestmark = pytest.mark.django_db

R = Prize.Ranking
TOTALS = ([90, 30, -40, -80], [70, 20, -30, -60], [50, 10, -10, -50])
# rank → (first name, last name, category)
PEOPLE = {
    5: ("Anna", "Huber", Player.Category.WOMEN),
    6: ("Jonas", "Kern", Player.Category.JUNIORS),
    9: ("Berta", "Maier", Player.Category.WOMEN),
    12: ("Kai", "Lang", Player.Category.JUNIORS),
}


@pytest.fixture
def organiser(client):
    client.force_login(make_user())
    return client


def twelve_players() -> tuple[Event, dict[int, Entry]]:
    """One round of three tables, closed, not finished; the entries by rank (1 to 12)."""
    event = make_event(hands_per_round={"*": 1}, rounds_planned=1)
    make_entries(event, 12)
    rnd = make_round(event)
    entries = []
    for table, totals in zip(rnd.tables.order_by("number"), TOTALS, strict=True):
        hands.record_totals(table=table, totals=totals)
        confirmations.confirm_table(table=table)  # the players signed the paper sheet
        seats = table.seats.select_related("entry__player").order_by("position")
        entries += [(total, seat.entry) for total, seat in zip(totals, seats, strict=True)]
    rounds.close_round(round=rnd)
    by_rank = {
        rank: entry for rank, (_t, entry) in enumerate(sorted(entries, key=lambda x: -x[0]), 1)
    }
    for rank, (first, last, category) in PEOPLE.items():
        Player.objects.filter(pk=by_rank[rank].player_id).update(
            first_name=first, last_name=last, category=category
        )
    return Event.objects.get(pk=event.pk), by_rank


def post_prize_table(client, event: Event, rows: list[tuple[str, str, str, str]], **rule: str):
    """The prize table as the page shows it, with ``rows`` (ranking, place, euros, goods) typed
    into its first lines and the rule's fields set."""
    url = reverse("prize_table", args=[event.slug])
    page = client.get(url)
    formset, settings_form = page.context["formset"], page.context["settings_form"]
    data = {**as_browser_sends(formset.management_form), **as_browser_sends(settings_form)}
    for form in formset:
        data.update(as_browser_sends(form))
    for i, (ranking, place, euros, goods) in enumerate(rows):
        data.update(
            {
                f"prize-{i}-ranking": ranking,
                f"prize-{i}-place": place,
                f"prize-{i}-amount": euros,
                f"prize-{i}-goods": goods,
            }
        )
    data.update(rule)
    response = client.post(url, data)
    assert response.status_code == 302, messages_of(response)
    return response


def the_days_prizes(client, event: Event) -> None:
    post_prize_table(
        client,
        event,
        [
            ("overall", "1", "150", ""),
            ("overall", "2", "100", ""),
            ("overall", "3", "50", ""),
            ("damen", "1", "", "Blumenstrauß"),
            ("jugend", "1", "", "Jugendpokal"),
        ],
        every="2",
        goods="Flasche Wein",
        sponsor="Winzerkeller",
    )


def won(event: Event) -> dict[tuple[str, int], list[int]]:
    """(ranking, place) → the ranks of the winners."""
    return {
        (a.prize.ranking, a.prize.place): [w.rank for w in a.winners]
        for a in prizes.prize_giving(Event.objects.get(pk=event.pk)).awards
    }


def reason(rank: int, ranking_words: str) -> str:
    first, last, _category = PEOPLE[rank]
    return f"{last}, {first} (rank {rank}) has the 1st {ranking_words} prize"


def test_the_best_woman_and_junior_get_their_named_prizes_and_the_goods_pass_on(organiser):
    event, _by_rank = twelve_players()
    the_days_prizes(organiser, event)
    prizes_won = won(event)
    assert prizes_won[(R.WOMEN, 1)] == [5]
    assert prizes_won[(R.JUNIORS, 1)] == [6]
    assert [prizes_won[(R.OVERALL, place)] for place in range(1, 7)] == [
        [1],
        [2],
        [3],
        [4],
        [7],
        [8],
    ]
    # the rule still hands out its three bottles, to the first players without a prize
    giving = prizes.prize_giving(event)
    bottles = [a for a in giving.awards if a.prize.goods == "Flasche Wein" and a.winners]
    assert len(bottles) == 3


def test_the_reasons_are_shown_on_the_prize_table_the_prize_giving_its_print_and_projector(
    organiser,
):
    event, _by_rank = twelve_players()
    the_days_prizes(organiser, event)
    pages = {
        "prize table": reverse("prize_table", args=[event.slug]),
        "prize-giving": reverse("prize_giving", args=[event.slug]),
        "projector": reverse("prize_giving", args=[event.slug]) + "?beamer=1",
        "print": reverse("print_prize_giving", args=[event.slug]),
    }
    for name, url in pages.items():
        page = organiser.get(url).content.decode()
        rows = page.split("<tr")
        for place, text in ((5, reason(5, "women's")), (6, reason(6, "juniors'"))):
            # the goods of place 5 go to rank 7: the reason stands in that prize's line
            row = next((row for row in rows if escape(text) in row), "")
            assert f"Place {place}" in row, (name, text)


def test_a_side_prize_passed_on_says_who_was_in_line_and_why():
    event, e = played([60, 20, -30, -50])
    Player.objects.filter(pk__in=[e[0].player_id, e[2].player_id]).update(
        category=Player.Category.WOMEN
    )
    prize(event, 1, 15000)
    prize(event, 1, 3000, ranking=R.WOMEN)
    women = next(a for a in prizes.prize_giving(event).awards if a.prize.ranking == R.WOMEN)
    assert [w.entry_id for w in women.winners] == [e[2].pk]
    name = e[0].player.sort_name
    assert [p.text for p in women.passed] == [f"{name} (rank 1) has the 1st overall prize"]


def test_goods_left_over_for_want_of_players_say_why_they_are_not_awarded():
    event, e = played([60, 20, -30, -50])
    Player.objects.filter(pk=e[1].player_id).update(category=Player.Category.SENIORS)
    PrizeSettings.objects.create(event=event, every=1, goods="Wurst")
    prize(event, 1, goods="Pokal", ranking=R.SENIORS)
    giving = prizes.prize_giving(event)
    place_2 = next(a for a in giving.awards if a.prize.ranking == R.OVERALL and a.prize.place == 2)
    assert place_2.winners == []
    assert [p.text for p in place_2.passed] == [
        f"{e[1].player.sort_name} (rank 2) has the 1st seniors' prize"
    ]


# --- the finished event keeps its assignment (issue 28.11) --------------------------------------


def finish(client, event: Event):
    return client.post(
        reverse("event_finish", args=[event.slug]), {"action": "finish"}, follow=True
    )


def test_a_finished_events_prize_giving_stays_as_it_was_after_a_player_is_corrected(organiser):
    event, by_rank = twelve_players()
    the_days_prizes(organiser, event)
    assert "The event is finished" in finish(organiser, event).content.decode()
    giving_url = reverse("prize_giving", args=[event.slug])
    before = organiser.get(giving_url).content.decode()
    assert "Huber, Anna" in before

    # the best woman's name and category corrected on the player page afterwards
    anna = by_rank[5]
    edit = reverse("player_edit", args=[event.slug, anna.pk])
    form = organiser.get(edit).context["form"]
    data = {**as_browser_sends(form), "last_name": "Hubert", "category": ""}
    assert organiser.post(edit, data).status_code == 302
    assert Player.objects.get(pk=anna.player_id).last_name == "Hubert"

    after = organiser.get(giving_url).content.decode()
    assert prize_list(after) == prize_list(before)
    assert won(event)[(R.WOMEN, 1)] == [5]
    printed = organiser.get(reverse("print_prize_giving", args=[event.slug])).content.decode()
    assert "Huber, Anna" in printed and "Hubert" not in printed

    # reopened and finished again: the assignment follows the corrected player
    organiser.post(
        reverse("event_finish", args=[event.slug]),
        {"action": "reopen", "reason": "Kategorie korrigiert"},
    )
    assert not PrizeAssignment.objects.filter(event=event).exists()
    finish(organiser, event)
    again = organiser.get(giving_url).content.decode()
    assert "Hubert, Anna" in again and "Huber, Anna" not in again
    assert won(event)[(R.WOMEN, 1)] == [9]
    assert won(event)[(R.OVERALL, 5)] == [5]


def prize_list(page: str) -> str:
    return page[page.index('<table class="list prize-giving') : page.index("</table>")]


def test_finishing_with_players_tied_on_a_prize_place_asks_for_the_lot_first(organiser):
    event, e = played([40, 40, -40, -40], finish=False)
    prize(event, 1, 15000)
    prize(event, 2, 10000)
    response = finish(organiser, event)
    assert "draw lots before finishing the event" in response.content.decode()
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING
    lots.decide_by_lot(event=event, entries=[e[0], e[1]], seed=3)
    assert "The event is finished" in finish(organiser, event).content.decode()
    assert PrizeAssignment.objects.filter(event=event).exists()


def test_the_stored_prize_giving_costs_one_query_for_8_players_and_40(organiser):
    counts = []
    for players in (8, 40):
        event = make_event(hands_per_round={"*": 1}, rounds_planned=1)
        make_entries(event, players)
        rnd = make_round(event)
        for number, table in enumerate(rnd.tables.order_by("number")):
            size = table.seats.count()
            totals = [10 * (number + 1 + 50 * (size - 1 - i)) for i in range(size - 1)]
            totals.append(-sum(totals))
            hands.record_totals(table=table, totals=totals)
            confirmations.confirm_table(table=table)  # the players signed the paper sheet
        rounds.close_round(round=rnd)
        for place in range(1, 6):
            prize(event, place, 1000 * place)
        prize(event, 1, goods="Blumen", ranking=R.WOMEN)
        prize(event, 1, goods="Wurstsalat", ranking=R.LAST)
        assert "The event is finished" in finish(organiser, event).content.decode()
        event = Event.objects.get(pk=event.pk)
        with CaptureQueriesContext(connection) as queries:
            giving = prizes.prize_giving(event)
        assert giving.stored
        counts.append(len(queries))
    # the stored assignment
    assert counts == [1, 1]


def test_the_partners_of_a_fixed_ziege_pair_take_their_prizes_without_a_lot(organiser):
    """Partners of a fixed pair share every deal and so their rank: the prize-giving asks no lot
    between them (the lot refuses one: "nothing to draw"), the pair takes the prizes of its places
    and the event can be finished (issue 28.4: the director was stuck)."""
    event, teams = fixed_pair_event(4)
    play_pairs_round(make_round(event, seed=3), teams)
    play_pairs_round(next_round(event, seed=5), teams)
    for table in Table.objects.filter(round__event=event):
        confirmations.confirm_table(table=table)  # every player confirmed their sheet
    post_prize_table(organiser, event, [("overall", "1", "100", ""), ("overall", "2", "60", "")])
    winners = sorted(e.player.sort_name for e in teams[0].pair_members.all())

    page = organiser.get(reverse("prize_giving", args=[event.slug])).content.decode()

    assert "Ties on prize places" not in page
    listed = prize_list(page)
    assert all(escape(name) in listed for name in winners)
    response = finish(organiser, event)
    assert "The event is finished" in response.content.decode()
    assert won(event)[(R.OVERALL, 1)] + won(event)[(R.OVERALL, 2)] == [1, 1]
