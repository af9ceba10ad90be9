"""Names that are probably one person: the spellings a desk or a club list produces."""

from __future__ import annotations

import pytest

from tournament.core.names import NameIndex, name_key, normalise


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("Schäuble", "schaeuble"),
        ("SCHÄUBLE", "schaeuble"),
        ("Strauß", "strauss"),
        ("Müller-Lüdenscheidt", "mueller luedenscheidt"),
        ("  Jürgen  ", "juergen"),
        ("José", "jose"),
        ("", ""),
    ],
)
def test_normalise_spells_out_umlauts_and_drops_case_and_accents(written, expected):
    assert normalise(written) == expected


@pytest.mark.parametrize(
    ("one", "other"),
    [
        (("Uwe", "Maier"), ("Uwe", "Maier")),
        (("Uwe", "Maier"), ("uwe", "MAIER")),
        (("Uwe", "Maier"), ("Uwe", "Meier")),
        (("Uwe", "Maier"), ("Uwe", "Mayer")),
        (("Uwe", "Meyer"), ("Uwe", "Mayer")),
        (("Wolfgang", "Schäuble"), ("Wolfgang", "Schaeuble")),
        (("Jürgen", "Müller"), ("Juergen", "Mueller")),
        (("Jürgen", "Müller"), ("Jurgen", "Muller")),
        (("Hans-Peter", "Schmidt"), ("Hans Peter", "Schmitt")),
        (("Klaus", "Strauß"), ("Klaus", "Strauss")),
    ],
)
def test_spellings_of_one_name_share_a_key(one, other):
    assert name_key(*one) == name_key(*other)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        (("Uwe", "Maier"), ("Uwe", "Mader")),
        (("Uwe", "Maier"), ("Ute", "Maier")),
        (("Uwe", "Maier"), ("Hans", "Maier")),
        (("Uwe", "Maier"), ("Maier", "Uwe")),
        (("Anna", "Schmidt"), ("Anna", "Schneider")),
        (("Spieler1", "Test"), ("Spieler2", "Test")),
        (("Spieler1", "Test"), ("Spieler", "Test")),
        (("Gast.", "Test"), ("Gast!", "Test")),
        (("Anna", "Test 2"), ("Anna", "Test 3")),
    ],
)
def test_different_names_have_different_keys(one, other):
    assert name_key(*one) != name_key(*other)


def test_the_index_finds_every_known_spelling_and_nothing_for_an_empty_name():
    index = NameIndex([("Uwe", "Maier", 1), ("Uwe", "Meier", 2), ("Uwe", "Mader", 3)])
    assert index.find("Uwe", "Mayer") == [1, 2]
    assert index.find("Uwe", "") == []
    assert index.find("", "") == []
