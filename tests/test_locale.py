"""German first: the German catalogue is complete, compiled, and covers every string."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")


def test_the_german_catalogue_has_no_untranslated_or_fuzzy_entry():
    catalogue = polib.pofile(str(PO))
    assert catalogue.untranslated_entries() == []
    assert [e.msgid for e in catalogue.fuzzy_entries()] == []
    assert len(catalogue) > 300


def test_the_compiled_catalogue_matches_the_german_one():
    source = {(e.msgctxt, e.msgid): (e.msgstr, dict(e.msgstr_plural)) for e in polib.pofile(PO)}
    compiled = {(e.msgctxt, e.msgid): (e.msgstr, dict(e.msgstr_plural)) for e in polib.mofile(MO)}
    source.pop((None, ""), None)
    compiled.pop((None, ""), None)
    assert compiled == source, "run: msgfmt -o locale/de/LC_MESSAGES/django.mo ...django.po"


def test_placeholders_survive_translation():
    for entry in polib.pofile(str(PO)):
        for original, translated in [(entry.msgid, entry.msgstr)] + [
            (entry.msgid_plural, text) for text in entry.msgstr_plural.values()
        ]:
            if not original:
                continue
            for marker in ("%(", "{"):
                wanted = sorted(p for p in _placeholders(original, marker))
                found = sorted(p for p in _placeholders(translated, marker))
                # a plural form may leave out the number ("ein Tisch" for "%(n)s table")
                assert set(found) <= set(wanted) and (entry.msgid_plural or found == wanted), (
                    entry.msgid
                )


def _placeholders(text: str, marker: str) -> list[str]:

    pattern = r"%\((\w+)\)" if marker == "%(" else r"(?<!\{)\{(\w+)\}(?!\})"
    return re.findall(pattern, text)


def test_makemessages_finds_no_string_missing_from_the_catalogue(tmp_path):
    if shutil.which("xgettext") is None:
        if os.environ.get("REQUIRE_GETTEXT"):
            pytest.fail("GNU gettext is missing; .ci/run installs it")
        pytest.skip("GNU gettext (xgettext) is not installed")
    for name in ("manage.py", "tournament", "scoring", "templates"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, tmp_path / name)
    (tmp_path / "locale").mkdir()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))},
        "DJANGO_SETTINGS_MODULE": "tournament.settings",
        "DJANGO_DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'x.sqlite3'}",
    }
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "de", "--no-obsolete"],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
        timeout=300,
    )
    fresh = {(e.msgctxt, e.msgid) for e in polib.pofile(str(tmp_path / PO.relative_to(ROOT)))}
    known = {(e.msgctxt, e.msgid) for e in polib.pofile(str(PO))}
    assert sorted(m for _c, m in fresh - known) == []
