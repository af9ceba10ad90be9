"""Settlement for money games (issue 17): balances to the cent, transfers that settle them, the
fewest transfers checked against a brute force, a Crazy Solo table worked by hand, the pages."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.factories import cego, make_entries, make_event, make_round, make_table, make_user
from tournament.models import Event
from tournament.money import settlement
from tournament.money.settlement import Transfer, fewest_transfers
from tournament.play import events, hands, rounds

# --- the transfers, without the database -------------------------------------------------------


def received(transfers: list[Transfer], count: int) -> list[int]:
    """What each player ends up with: received minus paid."""
    net = [0] * count
    for t in transfers:
        net[t.payer] -= t.cents
        net[t.payee] += t.cents
    return net


def set_partitions(items: list[int]):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        yield [[first], *partition]
        for i in range(len(partition)):
            yield [*partition[:i], [first, *partition[i]], *partition[i + 1 :]]


def brute_force_fewest(balances: list[int]) -> int:
    """The fewest transfers by trying every partition of the players who owe or are owed: a
    settlement with t transfers joins the n players into at least n - t groups that each settle
    among themselves (each adds up to zero), and a group of k settles with k - 1, so the fewest
    is n minus the most zero-sum groups of any partition."""
    players = [i for i, b in enumerate(balances) if b]
    most = 0
    for partition in set_partitions(players):
        if all(sum(balances[i] for i in group) == 0 for group in partition):
            most = max(most, len(partition))
    return len(players) - most


def zero_sum(values: list[int]) -> list[int]:
    return [*values, -sum(values)]


@pytest.mark.parametrize(
    ("balances", "fewest"),
    [
        ([], 0),
        ([0, 0, 0], 0),
        ([500, -500], 1),
        ([300, -100, -100, -100], 3),
        # two pairs that settle among themselves: 2, not 3
        ([100, 200, -100, -200], 2),
        ([500, 300, -800, 400, -100, -300], 4),
        # {+7, -4, -3} and {+6, -5, -1}: 4 transfers where the greedy rule needs 5
        ([700, -400, -300, 600, -500, -100], 4),
        ([70, 50, -40, -30, -30, -20], 4),
    ],
)
def test_fewest_transfers_on_cases_worked_by_hand(balances, fewest):
    transfers, proven = fewest_transfers(balances)
    assert proven
    assert len(transfers) == fewest == brute_force_fewest(balances)
    assert received(transfers, len(balances)) == balances


def test_the_greedy_rule_alone_would_need_more_transfers_on_the_worked_case():
    balances = [700, -400, -300, 600, -500, -100]
    # largest debt to largest claim: 5→7, 4→6, 3→2 and 3→... : every group is mixed up
    greedy = settlement._settle(range(len(balances)), balances)
    assert len(greedy) == 5
    assert len(fewest_transfers(balances)[0]) == 4


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(min_value=-30, max_value=30).map(lambda x: x * 10), max_size=7))
def test_transfers_settle_every_balance_to_the_cent_in_the_fewest_transfers(values):
    balances = zero_sum(values)
    transfers, proven = fewest_transfers(balances)
    assert proven
    assert received(transfers, len(balances)) == balances
    assert all(t.cents > 0 and t.payer != t.payee for t in transfers)
    # nobody both pays and receives
    payers, payees = {t.payer for t in transfers}, {t.payee for t in transfers}
    assert not payers & payees
    assert len(transfers) == brute_force_fewest(balances)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(min_value=-2000, max_value=2000), min_size=20, max_size=60))
def test_a_large_field_is_settled_greedily_in_at_most_one_transfer_fewer_than_its_players(values):
    balances = zero_sum(values)
    transfers, _proven = fewest_transfers(balances)
    assert received(transfers, len(balances)) == balances
    owing = sum(1 for b in balances if b)
    assert len(transfers) <= max(owing - 1, 0)


def test_balances_that_do_not_add_up_to_zero_are_refused():
    with pytest.raises(ValueError, match="add up to 10"):
        fewest_transfers([20, -10])


def test_the_same_balances_always_give_the_same_transfers():
    balances = [120, -70, 30, -50, -30, 0, 40, -40]
    assert fewest_transfers(balances) == fewest_transfers(list(balances))


def test_a_table_of_twelve_is_settled_exactly():
    # three groups of four that each add up to zero, interleaved; each group's figures are
    # multiples of its own base (1, 40, 1,600 times 10 cents), so that no mix of groups does
    groups = [
        [10 * base * k for k in coefficients]
        for base, coefficients in (
            (1, (7, -1, -2, -4)),
            (40, (5, 3, -6, -2)),
            (1600, (-9, 4, 3, 2)),
        )
    ]
    balances = [groups[i % 3][i // 3] for i in range(12)]
    # no other set of players adds up to zero (all 4,096 subsets checked): three groups at
    # most, so nine transfers are the fewest
    designed = [{i for i in range(12) if i % 3 == g} for g in range(3)]
    for mask in range(1, 1 << 12):
        members = {i for i in range(12) if mask >> i & 1}
        if sum(balances[i] for i in members) == 0:
            assert all(group <= members or not group & members for group in designed)
    transfers, proven = fewest_transfers(balances)
    assert proven
    assert received(transfers, 12) == balances
    assert len(transfers) == 9


# --- the event's value per point and the pages --------------------------------------------------

pytestmark_db = pytest.mark.django_db


def german(client):
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "de"


def crazy_solo_table(value: int = 5):
    """Six seats of Crazy Solo at ``value`` cents a chip, one deal (RULES.md 7): Solo, bidder
    seat 0, partner seat 3, soloists 74 points → [+60, −30, −30, +60, −30, −30]."""
    table = make_table("crazy_solo", players=6, point_value_cents=value)
    hands.record_hand(
        table=table, data={"contract": "solo", "bidder": 0, "partner": 3, "soloist_points": 74}
    )
    return table


@pytestmark_db
def test_a_crazy_solo_table_in_money_worked_by_hand():
    table = crazy_solo_table(5)
    found = settlement.table_settlement(table)
    # +60 chips × 5 cents = 3,00 €; −30 × 5 = −1,50 €
    assert [(line.points, line.cents) for line in found.lines] == [
        (60, 300),
        (-30, -150),
        (-30, -150),
        (60, 300),
        (-30, -150),
        (-30, -150),
    ]
    seats = [line.player for line in found.lines]
    # four transfers, not five: each winner is paid by two losers, 1,50 € each
    assert found.fewest
    paid = sorted((seats.index(a.player), seats.index(b.player), c) for a, b, c in found.transfers)
    assert len(paid) == 4
    assert {payer for payer, _payee, _c in paid} == {1, 2, 4, 5}
    assert all(cents == 150 for _a, _b, cents in paid)
    assert [sum(c for _a, b, c in paid if b == winner) for winner in (0, 3)] == [300, 300]


@pytestmark_db
def test_an_event_settles_each_players_total_over_all_tables():
    event = make_event(hands_per_round={"4": 1}, point_value_cents=2)
    make_entries(event, 8)
    first = make_round(event)
    for table in first.tables.all():
        hands.record_hand(table=table, data=cego("halbe", 0, 47))  # +60, −20 × 3
    rounds.close_round(round=first)
    second = make_round(event, seed=9)
    for table in second.tables.all():
        hands.record_hand(table=table, data=cego("halbe", 1, 34))  # seat 1 −60, +20 × 3
    found = settlement.event_settlement(event)
    totals = {line.player.pk: line.points for line in found.lines}
    for entry in event.entries.all():
        assert totals[entry.player_id] == sum(r.points for r in entry.results.all())
    assert [line.cents for line in found.lines] == [2 * line.points for line in found.lines]
    net = {line.player.pk: 0 for line in found.lines}
    for payer, payee, cents in found.transfers:
        net[payer.player.pk] -= cents
        net[payee.player.pk] += cents
    assert net == {line.player.pk: line.cents for line in found.lines}
    assert len(found.transfers) == brute_force_fewest([line.cents for line in found.lines])


@pytestmark_db
def test_a_voided_table_pays_nothing():
    table = crazy_solo_table(5)
    hands.void_table(table=table, reason="Karten falsch gemischt")
    found = settlement.table_settlement(table)
    assert {line.cents for line in found.lines} == {0}
    assert found.transfers == []


@pytestmark_db
def test_a_money_value_is_refused_for_a_game_that_is_not_zero_sum():
    event = make_event("hennes_sibbe", target_table_size=4)
    event.point_value_cents = 10
    with pytest.raises(ValidationError) as caught:
        event.full_clean()
    assert "point_value_cents" in caught.value.message_dict
    event.point_value_cents = 10_001  # more than 100 euros a point
    event.game = "cego"
    with pytest.raises(ValidationError):
        event.full_clean()


@pytestmark_db
def test_the_event_form_sets_the_value_and_the_event_page_shows_it(client):
    event = make_event("crazy_solo", target_table_size=6, table_policy=Event.TablePolicy.MIXED)
    client.force_login(make_user())
    page = client.get(f"/turnier/{event.slug}/bearbeiten/")
    assert 'name="point_value_cents"' in page.content.decode()
    events.change_event_settings(event=event, values={"point_value_cents": 5})
    event.refresh_from_db()
    assert event.point_value_cents == 5
    german(client)
    html = client.get(f"/turnier/{event.slug}/").content.decode()
    assert "0,05\u00a0€" in html


@pytestmark_db
def test_the_table_settlement_page_shows_money_and_transfers(client):
    table = crazy_solo_table(5)
    german(client)
    html = client.get(f"/tisch/{table.pk}/abrechnung/").content.decode()
    assert "3,00\u00a0€" in html
    assert "\u22121,50\u00a0€" in html
    assert html.count('class="transfer"') == 4


@pytestmark_db
def test_the_table_sheet_links_to_its_settlement_only_in_a_money_game(client):
    money, other = crazy_solo_table(5), make_table()
    link = "/abrechnung/"
    assert f"/tisch/{money.pk}{link}" in client.get(f"/tisch/{money.pk}/").content.decode()
    assert link not in client.get(f"/tisch/{other.pk}/").content.decode()


@pytestmark_db
def test_the_table_settlement_of_a_game_not_played_for_money_says_so(client):
    table = make_table()
    response = client.get(f"/tisch/{table.pk}/abrechnung/")
    assert response.status_code == 200
    assert response.context["settlement"] is None


@pytestmark_db
def test_the_event_settlement_is_for_organisers(client):
    table = crazy_solo_table(5)
    event = table.round.event
    url = f"/turnier/{event.slug}/abrechnung/"
    assert client.get(url).status_code == 302  # to the login
    client.force_login(make_user("visitor", staff=False))
    assert client.get(url).status_code == 403
    client.force_login(make_user())
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('class="transfer"') == 4 + 4  # the event's and the table's


def _queries(client, url):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries)


@pytestmark_db
def test_the_settlement_pages_cost_the_same_queries_for_one_and_three_tables(client):
    client.force_login(make_user())
    counts = []
    for players in (4, 12):
        event = make_event(hands_per_round={"4": 2}, point_value_cents=1)
        make_entries(event, players)
        rnd = make_round(event)
        for table in rnd.tables.all():
            hands.record_hand(table=table, data=cego("halbe", 0, 47))
        counts.append(
            (
                _queries(client, f"/turnier/{event.slug}/abrechnung/"),
                _queries(client, f"/tisch/{rnd.tables.first().pk}/abrechnung/"),
            )
        )
    assert counts[0] == counts[1]
    # Event page, expect 6 queries: the event, the session and its user (staff: no role to
    # look up), the players' totals, the per-seat sums per table, the seats with players and
    # tables. Table page, 5: the table (with round and event), the per-seat sums, the seats with
    # players, the session and its user (base.html's menu)
    assert counts[0] == (6, 5)


@pytestmark_db
def test_an_emptied_money_value_means_not_played_for_money():
    event = make_event("crazy_solo", target_table_size=6, table_policy=Event.TablePolicy.MIXED)
    events.change_event_settings(event=event, values={"point_value_cents": 5})
    events.change_event_settings(event=event, values={"point_value_cents": None})
    event.refresh_from_db()
    assert event.point_value_cents == 0
    assert not settlement.is_money_game(event)
