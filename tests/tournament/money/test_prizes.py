"""Prizes: the prize list per ranking, who wins what from the standings (ties, lots, one prize
per player, withdrawn players, more or fewer prizes than players), and the prize-giving list."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_entries, make_event, make_round, make_user
from tests.helpers.money import played, prize
from tournament.core import errors
from tournament.models import Entry, Event, LotDraw, Player, Prize, PrizeSettings, Team
from tournament.money import prizes
from tournament.play import events, lots

pytestmark = pytest.mark.django_db

R = Prize.Ranking


def categorise(entry: Entry, category: str) -> None:
    Player.objects.filter(pk=entry.player_id).update(category=category)


def winners(event) -> dict[tuple[str, int], list[int]]:
    """(ranking, place) → start numbers of the winners."""
    giving = prizes.prize_giving(event)
    return {
        (a.prize.ranking, a.prize.place): [w.entry.start_number for w in a.winners if w.entry]
        for a in giving.awards
    }


def numbers(*entries: Entry) -> list[int]:
    return [e.start_number for e in entries]


def test_prizes_go_to_the_places_in_order_of_the_standings():
    event, e = played([60, 20, -30, -50])
    prize(event, 1, 15000)
    prize(event, 2, 10000)
    prize(event, 3, 5000)
    won = winners(event)
    assert won[(R.OVERALL, 1)] == numbers(e[0])
    assert won[(R.OVERALL, 2)] == numbers(e[1])
    assert won[(R.OVERALL, 3)] == numbers(e[2])
    assert prizes.prize_giving(event).money_cents == 30000


def test_the_prize_giving_list_reads_from_the_last_prize_to_the_first():
    event, e = played([60, 20, -30, -50])
    prize(event, 1, 15000)
    prize(event, 2, goods="Präsentkorb")
    prize(event, 1, goods="Wurstsalat", ranking=R.LAST)
    prize(event, 1, 3000, ranking=R.WOMEN)
    categorise(e[2], Player.Category.WOMEN)
    order = [(a.prize.ranking, a.prize.place) for a in prizes.prize_giving(event).awards]
    assert order == [(R.LAST, 1), (R.WOMEN, 1), (R.OVERALL, 2), (R.OVERALL, 1)]


def test_more_prizes_than_players_leaves_the_lowest_prizes_unawarded():
    event, e = played([60, 20, -30, -50])
    for place in range(1, 7):
        prize(event, place, goods=f"Preis {place}")
    giving = prizes.prize_giving(event)
    won = winners(event)
    assert [won[(R.OVERALL, p)] for p in range(1, 5)] == [numbers(x) for x in e]
    assert [a.prize.place for a in giving.unawarded] == [6, 5]


def test_fewer_prizes_than_players_leaves_the_rest_without_one():
    event, e = played([60, 20, -30, -50])
    prize(event, 1, 15000)
    giving = prizes.prize_giving(event)
    assert [[w.entry.pk for w in a.winners] for a in giving.awards] == [[e[0].pk]]
    assert giving.ties == []


def test_a_withdrawn_player_gets_no_prize_and_the_next_player_moves_up():
    event, e = played([60, 20, -30, -50])
    Entry.objects.filter(pk=e[0].pk).update(status=Entry.Status.WITHDRAWN)
    prize(event, 1, 15000)
    prize(event, 2, 10000)
    prize(event, 1, goods="Wurstsalat", ranking=R.LAST)
    Entry.objects.filter(pk=e[3].pk).update(status=Entry.Status.WITHDRAWN)
    won = winners(event)
    assert won[(R.OVERALL, 1)] == numbers(e[1])
    assert won[(R.OVERALL, 2)] == numbers(e[2])
    # the last place among the players still in the event
    assert won[(R.LAST, 1)] == numbers(e[2])


def test_a_tie_on_a_prize_place_without_a_lot_asks_for_one():
    event, e = played([40, 40, -40, -40])
    prize(event, 1, 15000)
    prize(event, 2, 10000)
    giving = prizes.prize_giving(event)
    assert [sorted(x.pk for x in tie.entries) for tie in giving.ties] == [
        sorted([e[0].pk, e[1].pk])
    ]


def test_a_lot_already_drawn_decides_the_tie_on_a_prize_place():
    event, e = played([40, 40, -40, -40])
    prize(event, 1, 15000)
    prize(event, 2, 10000)
    draw = lots.decide_by_lot(event=event, entries=[e[0], e[1]], user=make_user(), seed=7)
    first, second = draw.entries
    won = winners(event)
    assert won[(R.OVERALL, 1)] == [first]
    assert won[(R.OVERALL, 2)] == [second]
    assert prizes.prize_giving(event).ties == []


def test_a_tie_whose_players_get_the_same_prize_needs_no_lot():
    event, _e = played([60, 20, -40, -40])
    prize(event, 3, goods="Präsentkorb")
    prize(event, 4, goods="Präsentkorb")
    assert prizes.prize_giving(event).ties == []


def test_a_tie_just_beyond_the_prize_places_needs_no_lot():
    event, _e = played([60, 20, -40, -40])
    prize(event, 1, 15000)
    prize(event, 2, 10000)
    assert prizes.prize_giving(event).ties == []


def test_a_tie_between_the_last_prize_and_no_prize_asks_for_a_lot():
    event, _e = played([60, 20, -40, -40])
    prize(event, 3, goods="Präsentkorb")
    assert len(prizes.prize_giving(event).ties) == 1


def test_a_side_winner_who_also_wins_overall_keeps_the_better_prize():
    event, e = played([60, 20, -30, -50])
    categorise(e[0], Player.Category.WOMEN)
    categorise(e[2], Player.Category.WOMEN)
    prize(event, 1, 15000)
    prize(event, 1, 3000, ranking=R.WOMEN)
    won = winners(event)
    assert won[(R.OVERALL, 1)] == numbers(e[0])
    # the best woman's prize passes to the next woman
    assert won[(R.WOMEN, 1)] == numbers(e[2])


def test_a_better_side_prize_passes_the_overall_prize_on():
    event, e = played([60, 20, -30, -50])
    categorise(e[2], Player.Category.JUNIORS)
    prize(event, 3, goods="Gutschein")
    prize(event, 1, 5000, ranking=R.JUNIORS)
    won = winners(event)
    assert won[(R.JUNIORS, 1)] == numbers(e[2])
    assert won[(R.OVERALL, 3)] == numbers(e[3])


def test_on_equal_worth_the_overall_prize_is_kept():
    event, e = played([60, 20, -30, -50])
    categorise(e[1], Player.Category.WOMEN)
    categorise(e[3], Player.Category.WOMEN)
    prize(event, 2, goods="Präsentkorb")
    prize(event, 1, goods="Blumenstrauß", ranking=R.WOMEN)
    won = winners(event)
    assert won[(R.OVERALL, 2)] == numbers(e[1])
    assert won[(R.WOMEN, 1)] == numbers(e[3])


def test_on_equal_money_a_side_prize_with_goods_wins_over_the_overall_prize_without():
    # the handbook's example: 20 € and a hamper for the best woman win over 20 € for 3rd overall
    event, e = played([60, 20, -30, -50])
    categorise(e[2], Player.Category.WOMEN)
    categorise(e[3], Player.Category.WOMEN)
    prize(event, 3, 2000)
    prize(event, 1, 2000, goods="Präsentkorb", ranking=R.WOMEN)
    won = winners(event)
    assert won[(R.WOMEN, 1)] == numbers(e[2])
    assert won[(R.OVERALL, 3)] == numbers(e[3])


def test_the_organiser_may_allow_an_overall_and_a_side_prize_for_one_player():
    event, e = played([60, 20, -30, -50])
    categorise(e[0], Player.Category.WOMEN)
    categorise(e[2], Player.Category.WOMEN)
    PrizeSettings.objects.create(event=event, several=True)
    prize(event, 1, 15000)
    prize(event, 1, 3000, ranking=R.WOMEN)
    won = winners(event)
    assert won[(R.OVERALL, 1)] == numbers(e[0])
    assert won[(R.WOMEN, 1)] == numbers(e[0])


def test_a_side_prize_without_anyone_of_the_category_is_not_awarded():
    event, _e = played([60, 20, -30, -50])
    prize(event, 1, 3000, ranking=R.JUNIORS)
    assert prizes.prize_giving(event).awards[0].winners == []
    assert prizes.prize_giving(event).money_cents == 0


def test_the_last_place_gets_the_consolation_prize_as_well():
    event, e = played([60, 20, -30, -50])
    for place in range(1, 5):
        prize(event, place, goods="Sachpreis")
    prize(event, 1, goods="Wurstsalat", ranking=R.LAST)
    won = winners(event)
    assert won[(R.LAST, 1)] == numbers(e[3])
    assert won[(R.OVERALL, 4)] == numbers(e[3])


def test_a_tie_for_the_last_place_shares_the_consolation_prize():
    event, e = played([60, 20, -40, -40])
    prize(event, 1, goods="Wurstsalat", ranking=R.LAST)
    assert sorted(winners(event)[(R.LAST, 1)]) == sorted(numbers(e[2], e[3]))


def test_the_rule_gives_goods_to_every_second_player():
    event, e = played([60, 20, -30, -50], [50, 10, -20, -40])
    prize(event, 1, 15000)
    PrizeSettings.objects.create(event=event, every=2, goods="Präsentkorb", sponsor="Dorfladen")
    giving = prizes.prize_giving(event)
    overall = [a for a in giving.awards if a.prize.ranking == R.OVERALL]
    assert [a.prize.place for a in overall] == [4, 3, 2, 1]
    assert [a.prize.goods for a in overall[:3]] == ["Präsentkorb"] * 3
    assert [a.winners[0].entry.start_number for a in overall] == numbers(e[5], e[1], e[4], e[0])


def test_team_prizes_go_to_the_teams_of_four_and_leave_the_members_prizes_alone():
    event, e = played([60, 20, -30, -50])
    team = Team.objects.create(event=event, name="Die Geißen")
    Entry.objects.filter(pk__in=[e[0].pk, e[1].pk]).update(squad=team)
    other = Team.objects.create(event=event, name="Die Trulls")
    Entry.objects.filter(pk__in=[e[2].pk, e[3].pk]).update(squad=other)
    prize(event, 1, 15000)
    prize(event, 1, goods="Pokal", ranking=R.TEAMS)
    giving = prizes.prize_giving(event)
    team_award = next(a for a in giving.awards if a.prize.ranking == R.TEAMS)
    assert [w.name for w in team_award.winners] == ["Die Geißen"]
    assert winners(event)[(R.OVERALL, 1)] == numbers(e[0])


def test_the_prize_giving_is_provisional_until_the_event_is_finished():
    event, _e = played([60, 20, -30, -50], finish=False)
    assert not prizes.prize_giving(event).finished
    events.finish_event(event=event)
    assert prizes.prize_giving(Event.objects.get(pk=event.pk)).finished


def test_an_event_with_a_round_still_open_cannot_be_finished():
    event = make_event(hands_per_round={"*": 1})
    make_entries(event, 4)
    make_round(event)
    with pytest.raises(errors.Refused, match="Round 1 is not closed yet"):
        events.finish_event(event=event)


def test_saving_the_prize_table_replaces_it_and_refuses_a_place_given_twice():
    event, _e = played([60, 20, -30, -50])
    prize(event, 1, 10000)
    prize(event, 5, goods="Alt")
    rows = [
        {"ranking": R.OVERALL, "place": 1, "amount_cents": 15000, "goods": "", "sponsor": ""},
        {"ranking": R.WOMEN, "place": 1, "amount_cents": 0, "goods": "Blumen", "sponsor": "X"},
    ]
    prizes.save_prize_table(
        event=event, prizes=rows, several=False, every=None, goods="", sponsor=""
    )
    assert list(event.prizes.values_list("ranking", "place", "amount_cents")) == [
        (R.WOMEN, 1, 0),
        (R.OVERALL, 1, 15000),
    ]
    with pytest.raises(errors.Refused, match="one prize only"):
        prizes.save_prize_table(
            event=event, prizes=rows + rows[:1], several=False, every=None, goods="", sponsor=""
        )
    assert event.prizes.count() == 2


# --- the pages ----------------------------------------------------------------------------------


@pytest.fixture
def organiser(client):
    client.force_login(make_user())
    return client


def test_the_organiser_enters_the_prize_table_in_euros(organiser):
    event, _e = played([60, 20, -30, -50], finish=False)
    url = reverse("prize_table", args=[event.slug])
    assert organiser.get(url).status_code == 200
    data = {
        "prize-TOTAL_FORMS": "4",
        "prize-INITIAL_FORMS": "0",
        "prize-0-ranking": "overall",
        "prize-0-place": "1",
        "prize-0-amount": "150",
        "prize-1-ranking": "overall",
        "prize-1-place": "2",
        "prize-1-goods": "Präsentkorb",
        "prize-1-sponsor": "Dorfladen",
        "prize-2-ranking": "last",
        "prize-2-goods": "Wurstsalat",
        "prize-3-ranking": "overall",
        "prize-3-place": "3",
        "every": "",
        "goods": "",
        "sponsor": "",
    }
    assert organiser.post(url, data).status_code == 302
    assert list(event.prizes.values_list("ranking", "place", "amount_cents", "goods")) == [
        ("last", 1, 0, "Wurstsalat"),
        ("overall", 1, 15000, ""),
        ("overall", 2, 0, "Präsentkorb"),
    ]
    page = organiser.get(url).content.decode()
    assert "Dorfladen" in page


def test_a_prize_with_money_that_is_not_a_number_is_refused_with_a_message(organiser):
    event, _e = played([60, 20, -30, -50], finish=False)
    data = {
        "prize-TOTAL_FORMS": "1",
        "prize-INITIAL_FORMS": "0",
        "prize-0-ranking": "overall",
        "prize-0-place": "1",
        "prize-0-amount": "hundert",
    }
    response = organiser.post(reverse("prize_table", args=[event.slug]), data)
    assert response.status_code == 200
    assert b"Give an amount in euros" in response.content
    assert not event.prizes.exists()


def test_the_prize_giving_list_is_public_once_the_event_is_finished(client):
    event, e = played([60, 20, -30, -50], finish=False)
    prize(event, 1, 15000)
    prize(event, 1, goods="Wurstsalat", ranking=R.LAST)
    url = reverse("prize_giving", args=[event.slug])
    assert client.get(url).status_code == 302  # to the login: a preview for the organiser
    events.finish_event(event=event)
    page = client.get(url).content.decode()
    last, first = page.index(e[3].player.sort_name), page.index(e[0].player.sort_name)
    assert last < first  # handed out from the last prize to the first
    assert "150.00" in page
    for variant in ("?beamer=1", ""):
        assert client.get(url + variant).status_code == 200
    printed = client.get(reverse("print_prize_giving", args=[event.slug])).content.decode()
    assert "Wurstsalat" in printed


def test_the_prize_page_offers_the_lot_for_an_undecided_tie(organiser):
    event, e = played([40, 40, -40, -40])
    prize(event, 1, 15000)
    prize(event, 2, 10000)
    page = organiser.get(reverse("prize_table", args=[event.slug])).content.decode()
    assert reverse("decide_lot", args=[event.slug]) in page
    assert f'name="entry" value="{e[0].pk}"' in page


def test_a_scorer_cannot_edit_the_prize_table(client):
    from tests.factories import make_role

    event = make_event()
    client.force_login(make_role(event, "scorer"))
    assert client.get(reverse("prize_table", args=[event.slug])).status_code == 403
    assert client.post(reverse("event_finish", args=[event.slug])).status_code == 403


def test_the_prize_giving_costs_the_same_queries_for_8_players_and_40():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for players in (8, 40):
        event = make_event(hands_per_round={"*": 1})
        make_entries(event, players)
        make_round(event)
        for place in range(1, 6):
            prize(event, place, 1000 * place)
        prize(event, 1, goods="Blumen", ranking=R.WOMEN)
        with CaptureQueriesContext(connection) as queries:
            prizes.prize_giving(event)
        counts.append(len(queries))
    # the prizes, the settings, the standings
    assert counts == [3, 3]


def test_teams_tied_on_a_prize_place_are_named_for_a_lot():
    event, e = played([40, -40, 40, -40])
    first = Team.objects.create(event=event, name="Die Geißen")
    Entry.objects.filter(pk__in=[e[0].pk, e[1].pk]).update(squad=first)
    second = Team.objects.create(event=event, name="Die Trulls")
    Entry.objects.filter(pk__in=[e[2].pk, e[3].pk]).update(squad=second)
    prize(event, 1, goods="Pokal", ranking=R.TEAMS)
    ties = prizes.prize_giving(event).ties
    assert [sorted(t.teams) for t in ties] == [["Die Geißen", "Die Trulls"]]


def test_a_lot_drawn_from_the_prize_page_names_the_order_and_returns_there(organiser):
    event, e = played([40, 40, -40, -40])
    prize(event, 1, 15000)
    prize(event, 2, 10000)
    page = organiser.get(reverse("prize_table", args=[event.slug])).content.decode()
    assert 'name="back" value="prize_table"' in page
    url = reverse("decide_lot", args=[event.slug])
    asked = organiser.post(url, {"entry": [e[0].pk, e[1].pk], "back": "prize_table"})
    assert reverse("prize_table", args=[event.slug]) in asked.content.decode()  # "cancel"
    drawn = organiser.post(
        url, {"entry": [e[0].pk, e[1].pk], "back": "prize_table", "confirmed": "1"}, follow=True
    )
    assert drawn.redirect_chain[-1][0] == reverse("prize_table", args=[event.slug])
    order = LotDraw.objects.get(event=event).entries
    names = {x.start_number: str(x.player) for x in e}
    said = f"Drawn by lot, in this order: {names[order[0]]}, {names[order[1]]}."
    assert said in drawn.content.decode()
    # a page that is not one of the lot's pages is no way back: the standings
    other = organiser.post(
        url, {"entry": [e[2].pk, e[3].pk], "back": "//evil.example", "confirmed": "1"}
    )
    assert other["Location"] == reverse("event_standings", args=[event.slug])


# --- finishing with sheets the players have not confirmed (issue 43.9) ------------------------


def _closed_with_an_unconfirmed_sheet(director) -> tuple[Event, list]:
    """Two tables entered as totals at the table sheet; table 1's sheet confirmed there by the
    scorer, table 2's not; the round closed all the same, as the round page asks."""
    event = make_event(hands_per_round={"*": 1}, rounds_planned=1)
    make_entries(event, 8)
    rnd = make_round(event)
    tables = list(rnd.tables.order_by("number"))
    for table, totals in zip(tables, ([60, 20, -30, -50], [50, 10, -20, -40]), strict=True):
        data = {f"total_{i}": str(v) for i, v in enumerate(totals)}
        director.post(reverse("table_totals", args=[table.pk]), data)
    director.post(reverse("table_confirm", args=[tables[0].pk]), {"action": "confirm"})
    close = reverse("round_close", args=[event.slug, 1])
    assert b"Close round 1?" in director.post(close).content
    director.post(close, {"confirmed": "1"})
    return Event.objects.get(pk=event.pk), tables


def test_finishing_with_a_sheet_not_confirmed_says_which_and_how_to_confirm_it(director):
    event, tables = _closed_with_an_unconfirmed_sheet(director)
    page = director.get(reverse("prize_table", args=[event.slug])).content.decode()
    assert "The players have not confirmed these sheets" in page
    assert f'href="{tables[1].get_absolute_url()}">round 1, table 2</a>' in page
    assert 'name="confirm_sheets"' in page

    finish = reverse("event_finish", args=[event.slug])
    refused = director.post(finish, {"action": "finish"}, follow=True).content.decode()
    assert "The players have not confirmed every sheet (round 1: table 2)" in refused
    assert "tick “Confirm the open sheets as director”" in refused
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    assert (
        b'class="tag provisional"'
        in director.get(reverse("event_standings", args=[event.slug])).content
    )


def test_a_finished_event_is_no_longer_provisional_once_the_director_confirmed_its_sheets(
    director,
):
    event, tables = _closed_with_an_unconfirmed_sheet(director)
    finish = reverse("event_finish", args=[event.slug])
    done = director.post(finish, {"action": "finish", "confirm_sheets": "1"}, follow=True)
    assert b"The event is finished" in done.content
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    standings = director.get(reverse("event_standings", args=[event.slug])).content.decode()
    assert "Provisional" not in standings
    assert 'class="tag provisional"' not in standings
    # the confirmation is the director's, in the table's history as at the table sheet
    history = " ".join(
        director.get(reverse("table_history", args=[tables[1].pk])).content.decode().split()
    )
    assert history.count("<td>director</td> <td><strong>Confirmation by") == 4
    assert "<div>Confirmed: <del>—</del>" in history
    assert "Confirmed" in director.get(tables[1].get_absolute_url()).content.decode()
