"""German name order (Unicode Collation Algorithm via pyuca), the same on every database."""

from __future__ import annotations

from types import SimpleNamespace

from tournament.core.collation import by_name, by_rank_then_name, name_key


def person(last: str, first: str = "A") -> SimpleNamespace:
    return SimpleNamespace(last_name=last, first_name=first)


def test_umlauts_sort_with_their_base_letter():
    names = ["Schwörer", "Schulz", "Schäuble", "Scholz", "Schaefer", "Ölmann", "Otto", "Zeller"]
    ordered = sorted(names, key=name_key)
    assert ordered == [
        "Ölmann",
        "Otto",
        "Schaefer",
        "Schäuble",
        "Scholz",
        "Schulz",
        "Schwörer",
        "Zeller",
    ]


def test_case_and_particles_do_not_push_a_name_to_the_end():
    ordered = sorted(["Zeller", "von Berg", "Abel", "de Vries"], key=name_key)
    assert ordered == ["Abel", "de Vries", "von Berg", "Zeller"]


def test_the_first_name_breaks_a_tie_of_last_names():
    people = [person("Müller", "Ömer"), person("Müller", "Anna"), person("Mueller", "Zoe")]
    ordered = by_name(people, lambda p: p)
    assert [(p.last_name, p.first_name) for p in ordered] == [
        ("Mueller", "Zoe"),
        ("Müller", "Anna"),
        ("Müller", "Ömer"),
    ]


def test_standings_keep_their_ranks_and_order_only_equals_by_name():
    rows = [
        SimpleNamespace(rank=1, start_number=4, player=person("Zeller")),
        SimpleNamespace(rank=2, start_number=1, player=person("Schwörer")),
        SimpleNamespace(rank=2, start_number=2, player=person("Schäuble")),
        SimpleNamespace(rank=4, start_number=3, player=person("Abel")),
    ]
    ordered = by_rank_then_name(rows)
    assert [r.player.last_name for r in ordered] == ["Zeller", "Schäuble", "Schwörer", "Abel"]
