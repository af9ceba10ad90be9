"""German name order (Unicode Collation Algorithm via pyuca), the same on every database."""

from __future__ import annotations

from types import SimpleNamespace

from tournament.core.collation import by_name, name_key, stored_name_key


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


def test_the_stored_name_key_sorts_as_the_collation_on_every_database():
    """``Player.name_key`` is compared as text by SQLite and PostgreSQL: it must order names as
    the collation does, a last name that begins another one first, umlauts with their base."""
    names = [
        ("Schwörer", "Anna"),
        ("Schäuble", "Bernd"),
        ("Schwor", "Clara"),
        ("Mu", "Dieter"),
        ("Müller", "Ömer"),
        ("Muller", "Anna"),
        ("Müller", "Anna"),
        ("Zeller", ""),
        ("von Berg", "Eva"),
        ("", "Fritz"),
    ]
    by_text = sorted(names, key=lambda n: stored_name_key(*n))
    assert by_text == sorted(names, key=lambda n: name_key(*n))
    assert all(set(stored_name_key(*n)) <= set("0123456789") for n in names)
