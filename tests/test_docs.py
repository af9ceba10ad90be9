"""The rules document the README points to lives in the project and agrees with the engine."""

from __future__ import annotations

import re
from pathlib import Path

import scoring

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
GAME_NAMES = {game.name: key for key, game in scoring.GAMES.items()}


def documented_settings() -> dict[str, dict[str, str]]:
    """The table "All rule settings": game → setting → default, as written."""
    section = RULES.read_text().split("## All rule settings", 1)[1]
    rows = re.findall(r"^\| ([^|]+) \| `(\w+)` \| ([^|]+) \|", section, re.M)
    found: dict[str, dict[str, str]] = {}
    for game, setting, default in rows:
        found.setdefault(GAME_NAMES[game.strip()], {})[setting] = default.strip().strip("`")
    return found


def written(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def test_the_readme_points_to_the_rules_inside_the_project():
    readme = (ROOT / "README.md").read_text()
    assert "docs/rules.md" in readme
    assert "../shared/" not in readme
    assert RULES.exists()


def test_every_rule_setting_is_documented_with_the_engines_default():
    documented = documented_settings()
    expected = {
        game: {key: written(value) for key, value in scoring.default_rules(game).items()}
        for game in scoring.GAMES
    }
    assert documented == expected


def test_every_game_has_its_section():
    text = RULES.read_text()
    for game in scoring.GAMES.values():
        assert f"\n## {game.name}\n" in text


README_MAX_LINES = 200


def test_the_readme_stays_short():
    """The README is the way in; the detail lives in docs/ (a longer README is not read)."""
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= README_MAX_LINES


def test_every_file_of_docs_the_readme_links_to_exists():
    readme = (ROOT / "README.md").read_text()
    linked = set(re.findall(r"\]\((docs/[^)#\s]+)", readme))
    linked |= set(re.findall(r"`(docs/[^`#\s]+)`", readme))
    assert linked, "the README links to no file of docs/"
    assert sorted(path for path in linked if not (ROOT / path).exists()) == []


def test_the_bundle_format_links_its_schema_and_every_file_it_links_exists():
    """docs/bundle-format.md documents the schema file the import checks every bundle against."""
    page = ROOT / "docs" / "bundle-format.md"
    linked = set(re.findall(r"\]\(([^)#\s:]+)\)", page.read_text()))
    assert "../tournament/publish/bundles/bundle.schema.json" in linked
    assert sorted(p for p in linked if not (page.parent / p).resolve().exists()) == []
