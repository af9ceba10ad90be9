"""Formatting shared by pages, print and projector: one minus sign, a dash for voided results."""

from __future__ import annotations

import pytest

from tournament import games
from tournament.templatetags.tournament import amount, euros, result, signed

MINUS = "\u2212"


@pytest.mark.parametrize(
    ("value", "shown"),
    [(20, "+20"), (-60, f"{MINUS}60"), (0, "0"), ("-30", f"{MINUS}30"), (None, ""), ("", "")],
)
def test_a_result_is_written_with_plus_or_the_real_minus_sign(value, shown):
    assert signed(value) == shown


@pytest.mark.parametrize(("value", "shown"), [(150, "150"), (-30, f"{MINUS}30"), (0, "0")])
def test_an_amount_has_no_plus_but_the_same_minus(value, shown):
    assert amount(value) == shown


def test_the_standings_figure_is_signed_for_cego_and_an_amount_elsewhere():
    def total_text(value, game):  # the total as the standings page, print and projector write it
        return games.get(game).total.text(value)

    assert total_text(120, "cego") == "+120"
    assert total_text(-40, "crazy_solo") == f"{MINUS}40"
    assert total_text(3, "hennes_sibbe") == "3"


def test_a_voided_result_is_a_dash_not_zero():
    assert result(0, True) == "\u2014"
    assert result(-20, False) == f"{MINUS}20"


def test_no_hyphen_minus_is_ever_written():
    for value in range(-1000, 1001, 7):
        assert "-" not in signed(value) + amount(value)


def test_a_game_with_one_trick_or_one_point_is_written_in_the_singular():
    from django.utils import translation

    from tournament.games.words import describe_hand

    players = ["Anna", "Bernd", "Clara", "Dieter"]
    piccolo = {"contract": "piccolo", "declarer": 0, "declarer_tricks": 1}
    assert describe_hand("cego", piccolo, players) == "Piccolo, Anna, 1 trick"
    halbe = {"contract": "halbe", "declarer": 1, "declarer_points": 1}
    assert describe_hand("cego", halbe, players) == "Halbe, Bernd, 1 point"
    with translation.override("de"):
        assert describe_hand("cego", piccolo, players) == "Piccolo, Anna, 1 Stich"
        assert describe_hand("cego", {**halbe, "declarer_points": 34}, players).endswith("34 Augen")


@pytest.mark.parametrize(
    ("cents", "german", "english"),
    [
        (15000, "150,00\u00a0€", "€150.00"),
        (123450, "1.234,50\u00a0€", "€1,234.50"),
        (5, "0,05\u00a0€", "€0.05"),
        (-2050, f"{MINUS}20,50\u00a0€", f"{MINUS}€20.50"),
        (0, "0,00\u00a0€", "€0.00"),
    ],
)
def test_money_reads_as_euros_in_german_and_english(cents, german, english):
    from django.utils import translation

    with translation.override("de"):
        assert euros(cents) == german
    with translation.override("en"):
        assert euros(cents) == english
