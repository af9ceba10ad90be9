"""How a public page names a player (issue 46): as far as the player's consent reaches.

Every public page, print, workbook and the published season website write a player's name and
club through ``name`` and ``club`` here, the one place that decides: with a recorded consent to
the public lists the name and club as registered; without one a neutral label, the initials and
the start number ("M. K. (Nr. 17)"; the initials alone where a page has no start number, as the
season's standings and a player's page), and no club. The season's published website also needs
the consent to that website (``for_the_published_site``). The director's own pages (the
register, the desk, the list of players) write the names as they are.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.utils.translation import gettext as _

# the season's website is being written (``publish.season``): a player is named there only with
# the consent to that website too; the page cache keeps those pages apart (``pagecache.pages``)
_SITE: ContextVar[bool] = ContextVar("published_site", default=False)


@contextmanager
def for_the_published_site() -> Iterator[None]:
    """Within the block, pages are written for the season's published website."""
    token = _SITE.set(True)
    try:
        yield
    finally:
        _SITE.reset(token)


def audience() -> str:
    """For whom pages are written now: "site" (the published season) or "app"."""
    return "site" if _SITE.get() else "app"


def named(lists: bool, season: bool) -> bool:
    """Does the consent (to the public lists; to the season's website) let a page name the
    player, for the pages written now?"""
    return lists and (season or not _SITE.get())


def initials(first_name: str, last_name: str) -> str:
    return " ".join(f"{word[:1].upper()}." for word in (first_name, last_name) if word.strip())


def name(
    first_name: str,
    last_name: str,
    *,
    lists: bool,
    season: bool,
    number: int | None = None,
    sort: bool = False,
) -> str:
    """The player's name as a public page writes it: "First Last" (``sort``: "Last, First") with
    the consent, else the neutral label."""
    if named(lists, season):
        return f"{last_name}, {first_name}" if sort else f"{first_name} {last_name}"
    label = initials(first_name, last_name)
    if number is None:
        return label
    return _("%(initials)s (No. %(number)s)") % {"initials": label, "number": number}


def club(club: str, *, lists: bool, season: bool) -> str:
    """The club as a public page writes it: nothing without the consent."""
    return club if named(lists, season) else ""


def reach(*, first_name: str, last_name: str, lists: bool, season: bool, town: bool) -> str:
    """What the public pages show of a player whose consent covers ``lists``, ``season`` (the
    season's website) and ``town``, in a sentence for the director: the town and the website
    only with the name in the lists, as ``name`` and ``club`` decide."""
    if not lists:
        return _("The public pages show the player only as %(label)s, without club and town.") % {
            "label": initials(first_name, last_name)
        }
    shown = [_("name and club in the event's public lists")]
    if town:
        shown.append(_("town on the player page"))
    if season:
        shown.append(_("on the season's published website"))
    return _("The public pages show: %(what)s.") % {"what": ", ".join(shown)}
