"""The rule card: the event's rules on an A5 card, values and example from the engine."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

import scoring
from tests.factories import make_event
from tournament.paper import rulecard

pytestmark = pytest.mark.django_db

MINUS = "\u2212"


def text_of(response) -> str:
    """The page as a reader sees it: tags removed, entities decoded, whitespace collapsed."""
    content = response.content.decode()
    content = re.sub(r"<[^>]+>", " ", content)
    return re.sub(r"\s+", " ", html.unescape(content))


def german(client: Client) -> Client:
    client.cookies["django_language"] = "de"
    return client


@pytest.mark.parametrize("game", list(scoring.GAMES))
def test_every_game_has_a_rule_card_in_german_by_default(game: str) -> None:
    event = make_event(game, target_table_size=4)
    response = Client().get(reverse("rule_card", args=[event.slug]))
    assert response.status_code == 200
    text = text_of(response)
    assert text.count(f"Regelkarte · {event.get_game_display()}") == 2  # two A5 cards per sheet
    assert "Beispiel" in text
    assert "Abweichungen vom Standard" in text


def card_text(client: Client, event) -> str:
    response = client.get(reverse("rule_card", args=[event.slug]))
    assert response.status_code == 200
    return text_of(response)


def test_the_cego_card_shows_the_contract_values_and_the_default_example(client: Client) -> None:
    text = card_text(client, make_event("cego"))
    assert "Halbe W = 2 W = 3" in text
    assert "Geiß W = 7 W = 8" in text
    assert "Bettel 30" in text
    assert "Piccolo 40" in text
    assert "Ulti 80" in text
    assert "Räuber 40" in text
    assert "to each: 80" not in text  # the announcer's double amount is worded, not a bare label
    # RULES.md 7: Halbe, 34 card points → lost, G 6, F 2, −60 for the declarer, +20 for each other
    assert "G = 40 − 34 = 6, F = 2" in text
    assert f"{MINUS}60 +20 +20 +20" in text
    assert "Nothing: every rule setting is the default." in text


def test_the_cego_card_follows_changed_settings(client: Client) -> None:
    event = make_event(
        "cego", rules={"bettel": 35, "win_threshold": 45, "gegensolo_raises": "cego_only"}
    )
    text = card_text(client, event)
    assert "Bettel 35" in text
    assert "Halbe W = 2 W = 2" in text  # after a Gegensolo only a Cego counts one step higher
    assert "Cego W = 1 W = 2" in text
    assert "won with D ≥ 45" in text
    # the example moves with the threshold: 39 card points, lost, G 1, F 1, V 10
    assert "D = 39 < 45: lost" in text
    assert f"{MINUS}30 +10 +10 +10" in text
    assert "Bettel is worth: 35 (default: 30)" in text
    assert "The declarer wins with at least (card points): 45 (default: 40)" in text
    assert "After a Gegensolo, one step higher counts: only for a Cego (default: for every" in text
    assert "Nothing: every rule setting is the default." not in text


@pytest.mark.parametrize(
    ("game", "rules", "size"),
    [
        ("cego", {}, 4),
        ("cego", {"win_threshold": 61, "solo_double": "after_rounding"}, 4),
        ("cego", {"total_points": 120, "win_threshold": 3}, 4),
        ("ziege", {"match_limit": 7}, 4),
        ("crazy_solo", {}, 6),
        ("crazy_solo", {"rounding": "up"}, 3),
        ("crazy_solo", {}, 11),
        ("hennes_sibbe", {}, 4),
        ("hennes_sibbe", {"hennes_value": 1, "jokers_fit_all": True}, 5),
    ],
)
def test_the_examples_result_is_the_engines(game: str, rules: dict, size: int) -> None:
    event = make_event(game, rules=rules, target_table_size=size)
    card = rulecard.rule_card(event)
    assert card.example_result
    values = [int(v.replace(MINUS, "-").replace("+", "")) for v in card.example_result]
    assert sum(values) == 0 or game in ("ziege", "hennes_sibbe")
    hand = EXAMPLES[game](event, card)
    seats = len(card.example_seats)
    assert values == scoring.score(game, hand, seats, event.full_rules())


EXAMPLES = {
    "cego": lambda event, card: {
        "contract": "halbe",
        "declarer": 0,
        "declarer_points": max(0, event.full_rules()["win_threshold"] - 6),
    },
    "ziege": lambda event, card: {"team_a_points": 25},
    "crazy_solo": lambda event, card: (
        (
            {"contract": "solo", "bidder": 0, "partner": len(card.example_seats) // 2}
            if len(card.example_seats) >= 4
            else {"contract": "alleingang", "bidder": 0}
        )
        | {"soloist_points": 74}
    ),
    "hennes_sibbe": lambda event, card: {
        "claimant": 0,
        "challenger": 3,
        "claim": {"count": 10, "colour": "rot"},
        "reveal": {
            "hands": [
                ["rot", "hennes", "blau"],
                ["rot", "goat"],
                ["gelb", "rot"],
                ["lila", "joker_rgb"],
            ],
            "penalty_cards": [[], [], [], []],
            "drillings": [],
        },
    },
}


def test_the_crazy_solo_card_has_the_rules_md_example_at_six_seats(client: Client) -> None:
    text = card_text(client, make_event("crazy_solo", target_table_size=6))
    # RULES.md 7: Solo, bidder 0, partner 3, 74 → 14·2 = 28 → 30; g = 4
    assert "A = |74 − 60| · 2 = 28 → 30" in text
    assert f"+60 {MINUS}30 {MINUS}30 +60 {MINUS}30 {MINUS}30" in text
    assert "Herz-Solo m = 3" in text
    assert "Everyone starts with 150 chips." in text


def test_the_ziege_card_shows_the_engines_defeat_points_and_the_match_limit(client) -> None:
    text = card_text(client, make_event("ziege", rules={"match_limit": 7}))
    assert "31 to 59 card points 2" in text
    assert "0 to 30 card points 4" in text
    assert "no trick taken 6" in text
    assert "reaches 7 defeat points" in text
    assert "4 0 4 0" in text  # RULES.md 7: 25 with a trick charges team A 4
    assert "A match ends at (defeat points): 7 (default: 12)" in text


def test_the_hennes_sibbe_card_counts_the_example_with_the_events_hennes_value(client) -> None:
    default = card_text(client, make_event("hennes_sibbe"))
    assert "Count 12 ≥ 10: the claim was right, seat 4 takes a penalty card." in default
    changed = card_text(client, make_event("hennes_sibbe", rules={"hennes_value": 1}))
    assert "Count 6 < 10: the claim was wrong, seat 1 takes a penalty card." in changed
    assert "Hennes Sibbe counts for the claimant: 1 (default: 7)" in changed


def test_the_event_page_and_the_rounds_print_links_lead_to_the_rule_card(client) -> None:
    from tests.factories import make_table

    event = make_table().round.event
    url = reverse("rule_card", args=[event.slug])
    assert url in client.get(reverse("event", args=[event.slug])).content.decode()
    assert url in client.get(reverse("round_seating", args=[event.slug, 1])).content.decode()


def test_an_unknown_event_has_no_rule_card(client: Client) -> None:
    assert client.get(reverse("rule_card", args=["gibt-es-nicht"])).status_code == 404


def test_the_rule_card_costs_one_query(client: Client, django_assert_num_queries) -> None:
    event = make_event("cego", rules={"bettel": 35})
    url = reverse("rule_card", args=[event.slug])
    # Expect 1 query: the event with its season; everything else is the engine's arithmetic
    with django_assert_num_queries(1):
        assert client.get(url).status_code == 200
