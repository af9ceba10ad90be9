"""The season, published (issue 15): a static website of a season that any web host serves
without Django, and that opens from a USB stick with ``file://``.

The same pages are in the app: every published page is the app's own public page (the season with
its side rankings, each event with its standings, side rankings, team ranking, seating and results
by table, each player's page), rendered by the app's own view as an anonymous visitor sees it.
Only the frame around the page's content is the publication's (``templates/publish/page.html``):
no forms, no scripts, no login, a link to the same page in the other language, the app's own
style sheet beside the pages. So a change to a page of the app (a new column, a chart on the
player page) is published too, and no table is written twice.

Links between published pages become relative file paths; a link to a page that is not published
(a table's sheet, the print and Excel pages, the projector, another season's event, a column's
sort order) keeps its text without the link, and an action button for such a page is left out.
Nothing refers to another site: the result needs neither a server nor the internet.

Layout of the output folder::

    index.html                  chooses German
    static/app.css, favicon.svg the app's own style sheet and icon
    de/index.html               season standings; de/saison-damen.html, ... its side rankings
    de/turnier/<event>/index.html   the event; rangliste.html (-damen, ...), mannschaften.html,
                                durchgang-<n>.html (results by table), durchgang-<n>-sitzplan.html
    de/spieler/index.html       the season's players; de/spieler/<uid>.html a player who
                                agreed to the lists and the season's website (no one else)
    de/datenschutz.html         the privacy notice (who answers for the players' data)
    en/...                      the same pages in English
"""

from __future__ import annotations

import datetime
import io
import json
import posixpath
import re
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from html import unescape
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.contrib.staticfiles import finders
from django.db.models import QuerySet
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.urls import resolve, reverse
from django.utils import timezone, translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.core import collation, shown
from tournament.core.query import clean_query
from tournament.models import Entry, Player, Round, Season

EVENTS = "turnier/"  # a folder of its own: an event's short name never meets a page's name
ROUND = "durchgang-"
PLAYER_FOLDER = "spieler/"
PLAYERS = f"{PLAYER_FOLDER}index.html"  # the publication's list of the season's players
PRIVACY = "datenschutz.html"  # the app's privacy notice: a published name needs it beside it
LANGUAGES = ("de", "en")  # German first: the root index opens it
STYLES = ("css/app.css", "img/favicon.svg")  # the app's own assets the pages use


class PublishError(Exception):
    """An app page could not be rendered for the publication."""


@dataclass(frozen=True)
class Page:
    url: str  # the page in the app: path and query, as an anonymous visitor asks for it
    path: str  # the published file, relative to a language folder


def season_pages(season: Season) -> list[Page]:
    """Every page of the publication, in the app and on disk. Three queries."""
    categories = [code for code in Player.Category.values if code]
    home = reverse("season", args=[season.slug])
    pages = [Page(home, "index.html"), Page(reverse("privacy"), PRIVACY)]
    for code in categories:
        pages.append(Page(_with(home, category=code), _category_file("saison", code)))
    events = list(season.events.order_by("date", "pk"))
    rounds: dict[int, list[int]] = {}
    for event_id, number in (
        Round.objects.filter(event__season=season)
        .exclude(status=Round.Status.DRAFT)
        .order_by("number")
        .values_list("event_id", "number")
    ):
        rounds.setdefault(event_id, []).append(number)
    for event in events:
        folder = f"{EVENTS}{event.slug}/"
        standings = reverse("event_standings", args=[event.slug])
        pages += [
            Page(reverse("event", args=[event.slug]), folder + "index.html"),
            Page(_with(standings, per_page="all"), folder + "rangliste.html"),
            Page(reverse("event_teams", args=[event.slug]), folder + "mannschaften.html"),
            Page(reverse("event_statistics", args=[event.slug]), folder + "statistik.html"),
        ]
        for code in categories:
            pages.append(
                Page(
                    _with(standings, category=code, per_page="all"),
                    folder + _category_file("rangliste", code),
                )
            )
        for number in rounds.get(event.pk, []):
            args = [event.slug, number]
            round_file = f"{folder}{ROUND}{number}"
            pages += [
                Page(reverse("round_seating", args=args), f"{round_file}-sitzplan.html"),
                Page(reverse("round_results", args=args), f"{round_file}.html"),
            ]
    for uid in _with_pages(season).order_by("pk").values_list("uid", flat=True):
        pages.append(Page(reverse("player", args=[uid]), f"{PLAYER_FOLDER}{uid}.html"))
    return pages


def _with_pages(season: Season) -> QuerySet[Player]:
    """The season's players who have a page in the publication: who played, and agreed to the
    public lists and to the season's website (``Player.has_public_page`` on the site). No page,
    and so no link, for anyone else: a link to a page not published keeps only its text."""
    played = Entry.objects.filter(event__season=season).played().values("player_id")
    return Player.objects.filter(pk__in=played, public_lists=True, public_season=True)


def _with(path: str, **query: str) -> str:
    return f"{path}?{urlencode(sorted(query.items()))}"


def _category_file(stem: str, code: str) -> str:
    return f"{stem}-{code}.html"


def _key(url: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """Which page an address means: its path and the query parameters that choose the content
    (``per_page=all`` only says "every row", which every published page shows)."""
    parts = urlsplit(url)
    query = tuple(sorted((k, v) for k, v in parse_qsl(parts.query) if k != "per_page"))
    return parts.path, query


def build_site(season: Season) -> dict[str, bytes]:
    """The whole publication: file path in the output folder → content. A player is named there
    only with the consents to the public lists and to the season's website (``core.shown``)."""
    with shown.for_the_published_site():
        return _build_site(season)


def _build_site(season: Season) -> dict[str, bytes]:
    pages = season_pages(season)
    published = {_key(page.url): page.path for page in pages}
    files: dict[str, bytes] = {}
    for asset in STYLES:
        found = finders.find(asset)
        if not found:
            raise PublishError(f"the app's {asset} is missing")
        files[f"static/{posixpath.basename(asset)}"] = Path(found).read_bytes()
    when = timezone.localtime()
    for language in LANGUAGES:
        with translation.override(language):
            for page in pages:
                html = _render_page(season, page, language, published, when)
                files[f"{language}/{page.path}"] = html.encode()
            files[f"{language}/{PLAYERS}"] = _players_page(season, language, when).encode()
    with translation.override(LANGUAGES[0]):
        files["index.html"] = render_to_string(
            "publish/index.html", {"season": season, "languages": _language_names()}
        ).encode()
    return files


def _language_names() -> list[tuple[str, str]]:
    names = dict(settings.LANGUAGES)
    result = []
    for code in LANGUAGES:
        with translation.override(code):
            result.append((code, str(names[code])))
    return result


# the list of files the last publication wrote into its folder: publishing again removes only
# what an earlier publication wrote, never a file someone put there by hand (an imprint page)
MANIFEST = ".published.json"


class FolderNotOurs(PublishError):
    """The folder holds files of the publication's names that no earlier publication wrote."""


def _published_before(output: Path) -> set[str]:
    try:
        names = json.loads((output / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    if not isinstance(names, list):
        return set()
    root = output.resolve()
    return {
        name
        for name in names
        if isinstance(name, str)
        and name != MANIFEST
        and (output / name).resolve().is_relative_to(root)
    }


def foreign_files(files: dict[str, bytes], output: Path) -> list[str]:
    """Files in ``output`` that the publication would write over although no earlier
    publication wrote them (its record does not name them): a page of the club's own called
    ``index.html``, or a folder published by a version of the app that kept no record."""
    before = _published_before(output)
    return sorted(name for name in files if name not in before and (output / name).is_file())


def write_site(files: dict[str, bytes], output: Path, *, replace: bool = False) -> list[str]:
    """Write ``files`` into ``output``; pages an earlier publication wrote there that are no
    longer published (a player merged into another, an event moved to another season) are
    removed, so that nobody finds them by their address, and so are the folders that leaves
    empty. Files it did not write stay. The pages removed.

    A file of a published page's name that no earlier publication wrote is written over only
    with ``replace``: else FolderNotOurs, and nothing is written. A folder without the record
    (new, the club's own, or published before the record was kept) thus loses nothing the
    first time: the files of other names stay, and nothing is removed."""
    before = _published_before(output)
    foreign = [] if replace else foreign_files(files, output)
    if foreign:
        shown = ", ".join(foreign[:3]) + (" …" if len(foreign) > 3 else "")
        raise FolderNotOurs(
            ngettext(
                "%(folder)s holds %(n)s file that the publication would write over, but that no "
                "earlier publication wrote (%(files)s). Publish into an empty folder, or say that "
                "it may be replaced (--replace); the other files there stay either way.",
                "%(folder)s holds %(n)s files that the publication would write over, but that no "
                "earlier publication wrote (%(files)s). Publish into an empty folder, or say that "
                "they may be replaced (--replace); the other files there stay either way.",
                len(foreign),
            )
            % {"folder": output, "n": len(foreign), "files": shown}
        )
    output.mkdir(parents=True, exist_ok=True)
    # the record first names both publications: cut short here, the next run still knows
    # every file this one may have written
    (output / MANIFEST).write_text(_manifest(before | set(files)), encoding="utf-8")
    for name, content in files.items():
        target = output / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
    stale = []
    root = output.resolve()
    for name in sorted(before - set(files)):
        page = output / name
        if page.is_file() or page.is_symlink():
            page.unlink()
            stale.append(name)
            _remove_empty_folders(page.parent, root)
    (output / MANIFEST).write_text(_manifest(files), encoding="utf-8")
    return stale


def _remove_empty_folders(folder: Path, root: Path) -> None:
    """``folder`` and the folders above it up to ``root``, as long as they are empty (an event
    no longer published leaves no empty folder behind; a folder holding anything stays)."""
    while folder.resolve() != root and folder.resolve().is_relative_to(root):
        try:
            folder.rmdir()
        except OSError:  # not empty, or not ours to remove
            return
        folder = folder.parent


def _manifest(names: Iterable[str]) -> str:
    return json.dumps(sorted(names), indent=0)


def zip_site(files: dict[str, bytes], folder: str) -> bytes:
    """The publication as one zip file, everything inside ``folder``/."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in sorted(files.items()):
            archive.writestr(f"{folder}/{name}", content)
        # as in a folder written by ``publish_season``: publishing into the unpacked folder later
        # removes what this publication wrote, and only that
        archive.writestr(f"{folder}/{MANIFEST}", _manifest(files))
    return buffer.getvalue()


def publish_season(
    *, season: Season, output: Path, replace: bool = False
) -> tuple[list[str], list[str]]:
    """Write the season's publication into the folder ``output``: the files written, and the
    pages of an earlier publication removed (see ``write_site``; ``replace``: files of the
    publication's names that no earlier publication wrote may be written over)."""
    files = build_site(season)
    stale = write_site(files, output, replace=replace)
    return sorted(files), stale


# --- one page ---------------------------------------------------------------------------------

MAIN = re.compile(r"<main\b[^>]*>(.*)</main>", re.S)
TITLE = re.compile(r"<title>(.*?)</title>", re.S)
DROPPED = re.compile(r"<(script|form|noscript)\b.*?</\1>", re.S | re.I)
ANCHOR = re.compile(r"<a\b([^>]*)>(.*?)</a>", re.S | re.I)
HREF = re.compile(r'\bhref="([^"]*)"')
SOURCE = re.compile(r'<img\b[^>]*\bsrc="([^"]*)"[^>]*>', re.I)
EMPTY_ACTIONS = re.compile(r'<p class="actions[^"]*">\s*</p>')
SITE_SUFFIX = " · Cego &amp; Co."


def _render_page(
    season: Season,
    page: Page,
    language: str,
    published: dict[tuple[str, tuple[tuple[str, str], ...]], str],
    when: datetime.datetime,
) -> str:
    html = _app_page(page.url, language)
    main = MAIN.search(html)
    title = TITLE.search(html)
    if main is None or title is None:
        raise PublishError(f"{page.url} has no <main> or <title>")
    content = _relinked(DROPPED.sub("", main.group(1)), page, published)
    content = EMPTY_ACTIONS.sub("", content)
    title_text = title.group(1).strip().removesuffix(SITE_SUFFIX)
    # the app's own escaped HTML, links rewritten
    return _framed(season, page.path, language, mark_safe(title_text), mark_safe(content), when)


def _framed(
    season: Season, path: str, language: str, title: str, content: str, when: datetime.datetime
) -> str:
    """A published page: ``content`` in the publication's frame, with the season's name, the
    list of players, and a link to the same page in the other language."""
    root = "../" * (path.count("/") + 1)  # from the page to the output folder
    others = [(code, name) for code, name in _language_names() if code != language]
    return render_to_string(
        "publish/page.html",
        {
            "season": season,
            "title": title,
            "content": content,
            "root": root,
            "home": _relative(path, "index.html"),
            "players": _relative(path, PLAYERS),
            "privacy": _relative(path, PRIVACY),
            "languages": [(code, name, f"{root}{code}/{path}") for code, name in others],
            "published": when,
        },
    )


def _players_page(season: Season, language: str, when: datetime.datetime) -> str:
    """The season's players who have a page, in German name order, each linked to it: the way
    to every player's page, whatever the standings link."""
    players = collation.by_name(_with_pages(season), lambda p: p)
    content = render_to_string("publish/players.html", {"season": season, "players": players})
    return _framed(season, PLAYERS, language, _("Players"), mark_safe(content), when)


def _app_page(url: str, language: str) -> str:
    """The app's page at ``url`` as an anonymous visitor gets it in ``language``."""
    request = RequestFactory().get(url)
    request.user = AnonymousUser()
    request.LANGUAGE_CODE = language
    request.GET = clean_query(request.GET)
    match = resolve(request.path_info)
    response = match.func(request, *match.args, **match.kwargs)
    if hasattr(response, "render"):
        response.render()
    if response.status_code != 200:
        raise PublishError(f"{url} answered {response.status_code}")
    return response.content.decode(response.charset)


def _relinked(
    content: str, page: Page, published: dict[tuple[str, tuple[tuple[str, str], ...]], str]
) -> str:
    """Links to published pages as relative file paths; other links lose their address (an
    action button for an unpublished page is left out); images other than the app's own assets
    are left out."""

    def anchor(match: re.Match[str]) -> str:
        attrs, text = match.group(1), match.group(2)
        href = HREF.search(attrs)
        if href is None:
            return match.group(0)
        target = _target(unescape(href.group(1)), page, published)
        if target is not None:
            return f"<a{attrs[: href.start(1)]}{target}{attrs[href.end(1) :]}>{text}</a>"
        if re.search(r'\bclass="[^"]*\bbutton\b', attrs):
            return ""
        return text

    def image(match: re.Match[str]) -> str:
        source = match.group(1)
        static = "/" + settings.STATIC_URL.strip("/") + "/"
        if source.startswith(static) and source.removeprefix(static) in STYLES:
            name = posixpath.basename(source)
            root = "../" * (page.path.count("/") + 1)
            return match.group(0).replace(source, f"{root}static/{name}")
        return ""

    return SOURCE.sub(image, ANCHOR.sub(anchor, content))


def _target(
    href: str, page: Page, published: dict[tuple[str, tuple[tuple[str, str], ...]], str]
) -> str | None:
    """The relative file path for a link on ``page``, or None where the link leads out of the
    publication."""
    if href.startswith("#"):
        return href
    parts = urlsplit(href)
    if parts.scheme or parts.netloc:
        return None
    here = urlsplit(page.url).path
    path = posixpath.normpath(posixpath.join(posixpath.dirname(here), parts.path))
    if parts.path.endswith("/") and not path.endswith("/"):
        path += "/"
    if not parts.path:
        path = here
    found = published.get(_key(f"{path}?{parts.query}"))
    if found is None:
        return None
    return _relative(page.path, found) + (f"#{parts.fragment}" if parts.fragment else "")


def _relative(source: str, target: str) -> str:
    """The path from the page ``source`` to ``target`` (both relative to a language folder)."""
    return posixpath.relpath(target, posixpath.dirname(source) or ".")
