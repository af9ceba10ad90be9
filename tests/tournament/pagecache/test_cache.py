"""The laptop's page cache (tournament.pagecache.filecache): a folder the gunicorn workers share."""

from __future__ import annotations

from pathlib import Path

from tournament.pagecache.filecache import PageFileCache


def test_the_folder_is_kept_to_its_size_but_looked_at_once_a_minute(tmp_path: Path):
    cache = PageFileCache(str(tmp_path), {"OPTIONS": {"MAX_ENTRIES": 10, "CULL_FREQUENCY": 2}})
    for i in range(30):
        cache.set(f"page-{i}", "x" * 100)
    # the first write looked (an empty folder); the rest of the minute nobody looks again
    assert len(list(tmp_path.glob("*.djcache"))) == 30
    cache.cull_every = 0  # a minute later
    cache.set("one-more", "x")
    assert len(list(tmp_path.glob("*.djcache"))) == 30 - 15 + 1


def test_what_another_worker_wrote_is_read(tmp_path: Path):
    writer = PageFileCache(str(tmp_path), {})
    reader = PageFileCache(str(tmp_path), {})
    writer.set("standings", "<table>…</table>")
    assert reader.get("standings") == "<table>…</table>"
    assert not reader.add("standings", "other")
