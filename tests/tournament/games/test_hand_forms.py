"""The hand forms as a scorer meets them: seats counted from 1, the five-seat dealer who sits
out, Berg, and Hennes Sibbe's cards (typed in the short form or tapped in)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

import scoring
from tests.factories import cego, make_table, make_user
from tests.helpers.pages import field_error
from tournament.games.cego.form import CegoHandForm
from tournament.games.hennes_sibbe import parse_cards
from tournament.games.hennes_sibbe.form import HennesSibbeHandForm
from tournament.games.words import explain
from tournament.models import Hand, Table
from tournament.play import hands, imports
from tournament.play.forms import TotalsForm
from tournament.views.common import table_players

pytestmark = pytest.mark.django_db

PLAYERS5 = ["Anna Huber", "Bert Maier", "Carla Vogt", "Dieter Kern", "Emil Roth"]


@pytest.fixture
def scorer(client: Client) -> Client:
    client.force_login(make_user())
    return client


def cego_form(table: Table, data: dict[str, Any], number: int | None = None) -> CegoHandForm:
    return CegoHandForm(data, table=table, players=table_players(table), number=number)


def options(html: str, name: str) -> list[str]:
    """The values a <select name=...> offers on a rendered page."""
    select = re.search(rf'<select name="{name}".*?</select>', html, re.S)
    assert select, f"no select {name}"
    return re.findall(r'<option value="([^"]*)"', select.group(0))


# --- seats in messages are counted from 1 ---------------------------------------------------------


def test_an_engine_message_names_the_seat_from_1_with_the_players_name() -> None:
    hand = {"contract": "cego", "declarer": 4, "declarer_points": 40, "sitting_out": 4}
    with pytest.raises(scoring.InvalidHand) as exc:
        scoring.score("cego", hand, seats=5)
    text = explain(exc.value, PLAYERS5)
    assert "seat 5 (Emil Roth) sits out" in text
    assert "seat 4" not in text


def test_the_german_message_no_longer_says_seat_0() -> None:
    hand = {"contract": "cego", "declarer": 0, "declarer_points": 40, "sitting_out": 0}
    with pytest.raises(scoring.InvalidHand) as exc:
        scoring.score("cego", hand, seats=5)
    with translation.override("de"):
        text = explain(exc.value, PLAYERS5)
        bare = explain(exc.value)
    assert text.startswith("Platz 1 (Anna Huber) setzt")
    assert bare.startswith("Platz 1 setzt")
    assert "Platz 0" not in text + bare


def test_a_seat_out_of_range_is_explained_in_seats_from_1() -> None:
    hand = {"claimant": 7, "challenger": 0, "claim": {"count": 2, "colour": "rot"}}
    with pytest.raises(scoring.InvalidHand) as exc:
        scoring.score("hennes_sibbe", {**hand, "claim_correct": True}, seats=4)
    text = explain(exc.value)
    assert text == "must be one of the players in seats 1 to 4, got seat 8"


# --- five seats: the dealer sits out --------------------------------------------------------------


def test_the_five_seat_dealer_is_neither_offered_as_declarer_nor_given_raeuber_points() -> None:
    table = make_table(players=5)
    form = cego_form(table, {})  # game 1: seat 0 deals and sits out
    assert [value for value, _ in form.fields["declarer"].choices] == ["", "1", "2", "3", "4"]
    assert [value for value, _ in form.fields["announcer"].choices] == ["", "1", "2", "3", "4"]
    assert [name for name in form.fields if name.startswith("points_")] == [
        "points_1",
        "points_2",
        "points_3",
        "points_4",
    ]
    hands.record_hand(table=table, data=cego("cego", 1, 40))
    second = cego_form(table, {})  # game 2: seat 1 deals
    assert "1" not in [value for value, _ in second.fields["declarer"].choices]
    assert "points_1" not in second.fields and "points_0" in second.fields


def test_a_correction_offers_the_players_of_that_games_number() -> None:
    table = make_table(players=5)
    for declarer in (1, 2, 3):
        hands.record_hand(table=table, data=cego("cego", declarer, 40))
    # game 2 was dealt by seat 1, whatever game comes next
    form = cego_form(table, {}, number=2)
    assert "1" not in [value for value, _ in form.fields["declarer"].choices]
    assert "0" in [value for value, _ in form.fields["declarer"].choices]


def test_the_dealer_posted_as_declarer_anyway_is_refused_by_name(scorer: Client) -> None:
    table = make_table(players=5)
    players = table_players(table)
    data = {"contract": "halbe", "declarer": "0", "declarer_points": "50", "action": "save"}
    response = scorer.post(reverse("table", args=[table.pk]), data)
    assert response.status_code == 200
    errors = response.context["form"].errors["declarer"]
    assert errors == [f"{players[0]} deals this game and sits out: choose one of the players."]
    assert not table.hands.exists()


def test_the_table_page_of_a_five_seat_table_leaves_the_dealer_out(scorer: Client) -> None:
    table = make_table(players=5)
    html = scorer.get(reverse("table", args=[table.pk])).content.decode()
    assert options(html, "declarer") == ["", "1", "2", "3", "4"]
    assert 'name="points_0"' not in html
    assert 'name="points_4"' in html
    assert "deals this game and sits out" in html
    # the table link builds the same form
    link = Client().get(reverse("table_link", args=[table.token])).content.decode()
    assert options(link, "declarer") == ["", "1", "2", "3", "4"]


def test_a_five_seat_raeuber_is_saved_with_0_for_the_dealer(scorer: Client) -> None:
    table = make_table(players=5)
    data = {"contract": "raeuber", "action": "save"}
    data |= {f"points_{i}": str(p) for i, p in zip((1, 2, 3, 4), (30, 20, 15, 14), strict=True)}
    response = scorer.post(reverse("table", args=[table.pk]), data)
    assert response.status_code == 302
    hand = table.hands.get()
    assert hand.data["points"] == [0, 30, 20, 15, 14]
    points = list(hand.results.order_by("position").values_list("points", flat=True))
    assert points == [0, -120, 40, 40, 40]


def test_a_four_seat_table_offers_every_player() -> None:
    table = make_table()
    form = cego_form(table, {})
    assert [value for value, _ in form.fields["declarer"].choices] == ["", "0", "1", "2", "3"]
    assert form.sitting_out_name == ""


# --- Berg -----------------------------------------------------------------------------------------


def test_berg_without_points_is_a_berg() -> None:
    table = make_table()
    for points in ("", "0"):
        form = cego_form(
            table, {"contract": "cego", "declarer": "0", "berg": "on", "declarer_points": points}
        )
        assert form.is_valid(), form.errors
        assert form.hand == {"contract": "cego", "declarer": 0, "declarer_took_trick": False}
        assert form.result == [-120, 40, 40, 40]


def test_berg_with_card_points_typed_is_refused_at_the_points(scorer: Client) -> None:
    table = make_table()
    data = {"contract": "cego", "declarer": "0", "berg": "on", "declarer_points": "34"}
    response = scorer.post(reverse("table", args=[table.pk]), {**data, "action": "save"})
    assert response.status_code == 200
    errors = " ".join(response.context["form"].errors["declarer_points"])
    assert "Berg" in errors and "34" in errors
    assert not table.hands.exists()
    # the stored-hand path says the same
    with pytest.raises(scoring.InvalidHand, match="Berg"):
        hands.record_hand(
            table=table,
            data={
                "contract": "cego",
                "declarer": 0,
                "declarer_took_trick": False,
                "declarer_points": 34,
            },
        )


# --- Hennes Sibbe cards ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cards"),
    [
        ("rot rot goat", ["rot", "rot", "goat"]),
        ("Rot, rot  Bock", ["rot", "rot", "goat"]),
        ("2 rot b", ["rot", "rot", "goat"]),
        ("2rot 3x gr", ["rot", "rot", "gruen", "gruen", "gruen"]),
        ("grün gruen h rgb ogl", ["gruen", "gruen", "hennes", "joker_rgb", "joker_ogl"]),
        ("o ge bl l", ["orange", "gelb", "blau", "lila"]),
        ("", []),
    ],
)
def test_cards_are_read_from_the_short_form(text: str, cards: list[str]) -> None:
    assert parse_cards(text, "hand_0") == cards


@pytest.mark.parametrize(
    ("text", "shown"),
    [("rot g", "“g”"), ("3", "number"), ("25 rot", "“25”"), ("rot 2", "number")],
)
def test_a_mistake_in_the_short_form_says_what_is_wrong_and_what_is_allowed(
    text: str, shown: str
) -> None:
    with pytest.raises(scoring.InvalidHand) as exc:
        parse_cards(text, "hand_0")
    assert exc.value.field == "hand_0"
    assert shown in exc.value.reason


def hennes_post(**fields: str) -> dict[str, str]:
    data = {
        "claimant": "0",
        "challenger": "1",
        "claim_count": "3",
        "claim_colour": "rot",
        "claim_correct": "",
        "action": "save",
    }
    return {**data, **fields}


def test_a_reveal_with_no_cards_at_all_is_refused(scorer: Client) -> None:
    table = make_table("hennes_sibbe", 4)
    response = scorer.post(reverse("table", args=[table.pk]), hennes_post())
    assert response.status_code == 200
    assert "no cards entered" in " ".join(response.context["form"].errors["claim_correct"])
    assert not table.hands.exists()


def test_a_reveal_typed_in_the_short_form_is_counted(scorer: Client) -> None:
    table = make_table("hennes_sibbe", 4)
    data = hennes_post(hand_0="2 rot", hand_2="b")
    response = scorer.post(reverse("table", args=[table.pk]), data)
    assert response.status_code == 302
    hand = table.hands.get()
    assert hand.data["reveal"]["hands"] == [["rot", "rot"], [], ["goat"], []]
    # 2 Rot and a ball goat make 3: the claim was right, the challenger (seat 1) takes the card
    assert list(hand.results.order_by("position").values_list("points", flat=True)) == [0, 1, 0, 0]


def test_a_joker_among_the_drillings_is_refused_in_the_words_typed(scorer: Client) -> None:
    """Issue 43: "bock" typed as a Drilling's colour was refused as "got 'goat'", the engine's
    name, which no scorer typed or can look up."""
    table = make_table("hennes_sibbe", 4)
    response = scorer.post(
        reverse("table", args=[table.pk]), hennes_post(hand_0="2 rot", drillings="bock")
    )
    assert response.status_code == 200
    shown = html.unescape(field_error(response.content.decode(), "drillings"))
    assert shown.startswith("“bock” does not belong here; write rot (r), orange (o)")
    assert "goat" not in shown
    assert not table.hands.exists()


@pytest.mark.parametrize("typed", ["9 b", "20 rot", "2 rot 2 gelb bock ogl"])
def test_a_hand_of_more_than_five_cards_is_refused_at_that_players_hand(
    scorer: Client, typed: str
) -> None:
    """Issue 43: nine jokers in one hand and "20 rot" were counted; a hand holds five cards."""
    table = make_table("hennes_sibbe", 4)
    response = scorer.post(reverse("table", args=[table.pk]), hennes_post(hand_2=typed))
    assert response.status_code == 200
    count = len(parse_cards(typed, "hand_2"))
    assert field_error(response.content.decode(), "hand_2") == (
        "a hand holds at most 5 cards (five are dealt, each turn draws one and lays one off), "
        f"got {count}"
    )
    assert not table.hands.exists()


def test_who_called_luege_is_not_preselected_and_must_be_chosen(scorer: Client) -> None:
    table = make_table("hennes_sibbe", 4)
    url = reverse("table", args=[table.pk])
    html = scorer.get(url).content.decode()
    select = html.split('name="challenger"', 1)[1].split("</select>", 1)[0]
    # the page opens with "—", not with the first seat (who is also the claimant's default)
    assert re.search(r'<option value=""[^>]*selected[^>]*>—</option>', select)
    assert not re.search(r'<option value="\d+"[^>]*selected', select)
    response = scorer.post(url, hennes_post(challenger="", claim_correct="on"))
    assert response.status_code == 200
    assert response.context["form"].errors["challenger"]
    assert not table.hands.exists()


def test_the_valid_card_words_are_shown_before_the_first_mistake(scorer: Client) -> None:
    table = make_table("hennes_sibbe", 4)
    html = scorer.get(reverse("table", args=[table.pk])).content.decode()
    words = html.split('id="card-words"', 1)[1].split("</p>", 1)[0]
    for word in ("rot (r)", "grün (gr)", "bock (b)", "hennes (h)", "rgb", "ogl"):
        assert word in words
    # the first card field follows the words, and every card field points to them
    assert html.index('id="card-words"') < html.index('name="hand_0"')
    # the four hands (no one holds a penalty card before the first challenge)
    assert html.count('aria-describedby="card-words"') == 4
    # and the card buttons the script puts under each field
    buttons = html.split('<template id="card-buttons">', 1)[1].split("</template>", 1)[0]
    assert re.findall(r'data-word="([^"]+)"', buttons) == [
        "rot",
        "orange",
        "gelb",
        "grün",
        "blau",
        "lila",
        "bock",
        "hennes",
        "rgb",
        "ogl",
    ]
    # every word a button writes is one the form reads
    assert parse_cards(" ".join(re.findall(r'data-word="([^"]+)"', buttons)), "hand_0")


def test_penalty_cards_typed_are_checked_against_those_the_player_holds(scorer: Client) -> None:
    table = make_table("hennes_sibbe", 4)
    url = reverse("table", args=[table.pk])
    players = table_players(table)
    # the first challenge: the claim was right, the challenger (second player) takes a card
    assert scorer.post(url, hennes_post(claim_correct="yes")).status_code == 302
    # the first player holds none: no Rot among their penalty cards
    response = scorer.post(url, hennes_post(hand_0="2 rot", penalty_0="rot"))
    assert response.status_code == 200
    assert field_error(response.content.decode(), "penalty_0") == (
        f"{players[0]} holds no penalty card in this game: leave the field empty"
    )
    # the second player holds one, not two
    response = scorer.post(url, hennes_post(hand_0="2 rot", penalty_1="rot o"))
    assert field_error(response.content.decode(), "penalty_1") == (
        f"{players[1]} holds 1 penalty card in this game, not 2"
    )
    assert table.hands.count() == 1
    # the one card the second player holds is taken
    assert scorer.post(url, hennes_post(hand_0="2 rot", penalty_1="rot")).status_code == 302
    assert table.hands.count() == 2


def test_only_the_players_holding_penalty_cards_are_asked_for_them(scorer: Client) -> None:
    """Issue 43: a penalty-card field for every player made the phone's form of eight players
    3,940 px long; a player without penalty cards has none to reveal."""
    table = make_table("hennes_sibbe", 4)
    url = reverse("table", args=[table.pk])
    players = table_players(table)

    def asked() -> list[str]:
        page = scorer.get(url).content.decode()
        return re.findall(r'name="penalty_(\d)"', page)

    assert asked() == []
    # the claim was right: the challenger (second player) takes a penalty card
    assert scorer.post(url, hennes_post(claim_correct="yes")).status_code == 302
    assert asked() == ["1"]
    page = scorer.get(url).content.decode()
    assert f"{players[1]}: penalty cards" in page
    assert f"{players[0]}: penalty cards" not in page
    # the next challenge is counted with that card
    response = scorer.post(url, hennes_post(hand_0="rot", penalty_1="rot bock"))
    assert response.status_code == 200
    assert "holds 1 penalty card in this game, not 2" in field_error(
        response.content.decode(), "penalty_1"
    )
    assert scorer.post(url, hennes_post(hand_0="2 rot", penalty_1="rot")).status_code == 302
    assert table.hands.get(number=2).data["reveal"]["penalty_cards"] == [[], ["rot"], [], []]


def test_penalty_cards_go_back_when_a_game_ends(scorer: Client) -> None:
    table = make_table("hennes_sibbe", 3, rules={"penalty_limit": 1})
    url = reverse("table", args=[table.pk])
    # the second player takes the one penalty card and loses the game: the next game starts afresh
    assert scorer.post(url, hennes_post(claim_correct="yes")).status_code == 302
    response = scorer.post(url, hennes_post(hand_0="2 rot", penalty_1="rot"))
    assert "holds no penalty card in this game" in field_error(
        response.content.decode(), "penalty_1"
    )


def test_a_hennes_form_with_the_tables_verdict_needs_no_cards() -> None:
    table = make_table("hennes_sibbe", 3)
    form = HennesSibbeHandForm(
        hennes_post(claim_correct="no"), table=table, players=table_players(table)
    )
    assert form.is_valid(), form.errors
    assert form.result == [1, 0, 0]


# --- paper totals -----------------------------------------------------------------------------


def test_cego_totals_must_be_multiples_of_10_named_by_player() -> None:
    table = make_table()
    players = table_players(table)
    data = {"total_0": "35", "total_1": "-35", "total_2": "0", "total_3": "0"}
    form = TotalsForm(data, table=table, players=players)
    assert not form.is_valid()
    assert form.errors["total_0"] == [
        "must be a multiple of 10, as every Cego game's result is; got 35"
    ]


def test_crazy_solo_totals_need_not_be_multiples_of_10() -> None:
    table = make_table("crazy_solo", 4)
    hands.record_totals(table=table, totals=[15, -5, -5, -5])
    assert table.hands.get().kind == Hand.Kind.TOTALS


def test_an_event_with_a_bettel_of_25_takes_totals_in_fives() -> None:
    table = make_table(rules={"bettel": 25})
    hands.record_totals(table=table, totals=[25, -25, 0, 0])
    other = make_table(rules={"bettel": 25})
    with pytest.raises(scoring.InvalidHand, match="multiple of 5"):
        hands.record_totals(table=other, totals=[23, -23, 0, 0])


def test_card_points_sent_for_the_dealer_anyway_are_refused_by_name(scorer: Client) -> None:
    table = make_table(players=5)
    players = table_players(table)
    data = {"contract": "raeuber", "action": "save", "points_0": "9"}
    data |= {f"points_{i}": str(p) for i, p in zip((1, 2, 3, 4), (30, 20, 10, 10), strict=True)}
    response = scorer.post(reverse("table", args=[table.pk]), data)
    assert response.status_code == 200
    errors = response.context["form"].non_field_errors()
    assert errors == [
        f"{players[0]}: must be 0: seat 1 ({players[0]}) sits out and takes no part in Räuber"
    ]
    assert "points[0]" not in response.content.decode()
    assert not table.hands.exists()


def test_a_five_seat_rounds_excel_template_has_every_seats_columns() -> None:
    import io

    from openpyxl import load_workbook

    table = make_table(players=5)
    players = table_players(table)
    with translation.override("en"):
        book = load_workbook(imports.result_template(table.round))
        sheet = book["Table 1"]
        header = [cell.value for cell in sheet[3]]
        # every seat deals some game, so every seat needs its Räuber column and declarer choice
        assert all(name in header for name in players)
        # game 2: seat 1 deals; a Räuber of the other four is read, with 0 for the dealer
        points = dict(zip(players, (30, 0, 20, 15, 14), strict=True))
        for column, label in enumerate(header, start=1):
            if label == "Contract":
                sheet.cell(row=4, column=column, value="Cego")
                sheet.cell(row=5, column=column, value="Räuber")
            elif label == "Declarer":
                sheet.cell(row=4, column=column, value=2)
            elif label == "Declarer's card points":
                sheet.cell(row=4, column=column, value=40)
            elif label in points:
                sheet.cell(row=5, column=column, value=points[label])
        upload = io.BytesIO()
        book.save(upload)
        upload.seek(0)
        preview = imports.read_results(table.round, upload)
    assert [row.error for row in preview.rows] == ["", ""]
    assert preview.rows[1].hand["points"] == [30, 0, 20, 15, 14]


def test_the_totals_page_names_the_player_whose_total_is_not_in_tens(client: Client) -> None:
    table = make_table()
    players = table_players(table)
    client.force_login(make_user())
    data = {"total_0": "30", "total_1": "-15", "total_2": "-15", "total_3": "0"}
    response = client.post(reverse("table_totals", args=[table.pk]), data, follow=True)
    errors = [str(m) for m in response.context["messages"] if m.level_tag == "error"]
    assert errors == [
        f"{players[1]}: must be a multiple of 10, as every Cego game's result is; got -15"
    ]
    assert not table.hands.exists()


def test_a_stored_reveal_is_shown_for_correction_in_the_short_form() -> None:
    hand = {
        "claimant": 0,
        "challenger": 1,
        "claim": {"count": 3, "colour": "gruen"},
        "reveal": {
            "hands": [["gruen", "goat"], ["joker_ogl"], []],
            "penalty_cards": [[], [], ["hennes"]],
            "drillings": ["gruen"],
        },
    }
    initial = HennesSibbeHandForm.initial_from(hand)
    assert (initial["hand_0"], initial["hand_1"], initial["penalty_2"]) == (
        "grün bock",
        "ogl",
        "hennes",
    )
    assert initial["drillings"] == "grün"
    # and read back as the same cards
    assert parse_cards(initial["hand_0"], "hand_0") == ["gruen", "goat"]
