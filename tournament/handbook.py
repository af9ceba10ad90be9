"""The directors' handbook: ``docs/handbuch`` (German) and ``docs/guide`` (English), the project's
own Markdown files, read and rendered once per change of a file and served at ``/hilfe/`` and
``/help/`` (``views.help``). docs/handbook-format.md says how the files are written.

A chapter is one file; its sections are its ``## Title {#anchor}`` headings, and a section that
documents pages names their URL names on the line under its heading (``<!-- pages: a b -->``):
that is where a page's "?" link leads (``templatetags.help``). Links are written as on GitHub
(``2-the-morning.md#checkin``, ``img/desk.png``) and rewritten to the app's addresses here.

The HTML is trusted: it comes from the project's files and nothing a user sends reaches it. On the
floor of ``core``: it imports nothing of the app.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from xml.etree.ElementTree import Element

import markdown
from django.urls import Resolver404, resolve, reverse
from markdown.treeprocessors import Treeprocessor

ROOT = Path(__file__).resolve().parent.parent
INDEX = "index"
EXTENSIONS = ["attr_list", "toc", "tables", "fenced_code"]
IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".svg": "image/svg+xml"}


@dataclass(frozen=True)
class Book:
    """One language's handbook: where its files are and the URL names of its pages."""

    language: str
    folder: Path
    url_name: str  # the start page; "<url_name>_chapter" and "<url_name>_image" the others


BOOKS = {
    "de": Book("de", ROOT / "docs" / "handbuch", "handbook"),
    "en": Book("en", ROOT / "docs" / "guide", "guide"),
}

HEADING = re.compile(r"^(?P<level>#{1,6})\s+(?P<title>.*?)\s*(?:\{(?P<attrs>[^}]*)\})?\s*$")
ANCHOR = re.compile(r"#(?P<anchor>[A-Za-z0-9_-]+)")
PAGES = re.compile(r"^<!--\s*pages:(?P<names>.*?)-->\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
BOLD = re.compile(r"\*\*(?P<label>.+?)\*\*", re.S)
IDS = re.compile(r'\sid="(?P<id>[^"]+)"')
IMAGE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


@dataclass(frozen=True)
class Section:
    """A second-level heading with its anchor, the URL names it documents and its bold labels."""

    anchor: str
    title: str
    pages: tuple[str, ...]
    labels: tuple[str, ...]


@dataclass(frozen=True)
class Chapter:
    slug: str
    title: str
    html: str
    sections: tuple[Section, ...]
    ids: frozenset[str]  # every id of the rendered HTML: what a link's #anchor may name
    links: tuple[str, ...]  # every link and image as written in the Markdown
    problems: tuple[str, ...]  # what breaks the format (docs/handbook-format.md)


@dataclass(frozen=True)
class Handbook:
    book: Book
    base: str  # the start page's address, "/hilfe/"
    chapters: tuple[Chapter, ...]
    _by_slug: dict[str, Chapter] = field(repr=False, compare=False)
    _by_page: dict[str, tuple[Chapter, Section]] = field(repr=False, compare=False)

    @property
    def language(self) -> str:
        return self.book.language

    def chapter(self, slug: str) -> Chapter | None:
        return self._by_slug.get(slug)

    def neighbours(self, chapter: Chapter) -> tuple[Chapter | None, Chapter | None]:
        """The chapters before and after this one, in reading order."""
        at = self.chapters.index(chapter)
        before = self.chapters[at - 1] if at > 0 else None
        after = self.chapters[at + 1] if at + 1 < len(self.chapters) else None
        return before, after

    def section_of(self, url_name: str) -> tuple[Chapter, Section] | None:
        """The section that documents the page of this URL name, if one does."""
        return self._by_page.get(url_name)

    def chapter_url(self, slug: str) -> str:
        return self.base if slug == INDEX else f"{self.base}{slug}/"

    def image_url(self, name: str) -> str:
        return f"{self.base}img/{name}"


def chapter_order(slug: str) -> tuple[bool, str]:
    """The start page first, then the chapters by file name (1-…, 2-…)."""
    return (slug != INDEX, slug)


# --- reading, once per change of a file -----------------------------------------------------------

_read: dict[tuple[Path, str], tuple[tuple[Any, ...], Handbook]] = {}


def _signature(folder: Path) -> tuple[Any, ...]:
    try:
        with os.scandir(folder) as entries:
            return tuple(
                sorted(
                    (e.name, e.stat().st_mtime_ns, e.stat().st_size)
                    for e in entries
                    if e.name.endswith(".md")
                )
            )
    except FileNotFoundError:
        return ()


def read(book: Book, base: str) -> Handbook:
    """The handbook of ``book`` with its links rewritten under ``base``; the files are parsed again
    only when one of them changed (a few stat calls a request)."""
    signature = _signature(book.folder)
    kept = _read.get((book.folder, base))
    if kept is not None and kept[0] == signature:
        return kept[1]
    handbook = parse(book, base)
    _read[(book.folder, base)] = (signature, handbook)
    return handbook


def of(language: str) -> Handbook:
    """The handbook of a language (German for any other) at its addresses in the app."""
    book = BOOKS.get(language, BOOKS["de"])
    return read(book, reverse(book.url_name))


def parse(book: Book, base: str) -> Handbook:
    files = sorted(book.folder.glob("*.md"), key=lambda p: chapter_order(p.stem))
    slugs = {path.stem for path in files}
    chapters = tuple(
        _chapter(path.stem, path.read_text(encoding="utf-8"), base, slugs) for path in files
    )
    by_page: dict[str, tuple[Chapter, Section]] = {}
    for chapter in chapters:
        for section in chapter.sections:
            for name in section.pages:
                by_page.setdefault(name, (chapter, section))
    return Handbook(book, base, chapters, {c.slug: c for c in chapters}, by_page)


def _chapter(slug: str, text: str, base: str, slugs: set[str]) -> Chapter:
    links: list[str] = []
    rewrite = _rewriter(base, slugs)
    md = markdown.Markdown(extensions=[*EXTENSIONS, _LinkExtension(links, rewrite)])
    html = md.convert(text)
    title, sections, problems = _structure(text)
    return Chapter(
        slug=slug,
        title=title or slug,
        html=html,
        sections=sections,
        ids=frozenset(m["id"] for m in IDS.finditer(html)),
        links=tuple(links),
        problems=tuple(problems),
    )


def _structure(text: str) -> tuple[str, tuple[Section, ...], list[str]]:
    """The chapter's title, its sections and what is wrong with their form, read from the source
    line by line (fenced code left out)."""
    title = ""
    problems: list[str] = []
    sections: list[dict[str, Any]] = []
    fenced = False
    awaiting_pages = False  # the line after a section heading may name its pages
    for number, line in enumerate(text.splitlines(), start=1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        heading = HEADING.match(line)
        pages = PAGES.match(line.strip())
        if heading and len(heading["level"]) == 1:
            if title:
                problems.append(f"line {number}: a second '# title'")
            title = _plain(heading["title"])
        elif heading and len(heading["level"]) == 2:
            anchor = ANCHOR.search(heading["attrs"] or "")
            if anchor is None:
                problems.append(f"line {number}: section '{heading['title']}' has no {{#anchor}}")
            sections.append(
                {
                    "anchor": anchor["anchor"] if anchor else "",
                    "title": _plain(heading["title"]),
                    "pages": (),
                    "text": [],
                }
            )
            awaiting_pages = True
            continue
        elif pages:
            if awaiting_pages and sections:
                sections[-1]["pages"] = tuple(pages["names"].split())
            else:
                problems.append(f"line {number}: a pages line not directly under a '##' heading")
        elif sections:
            sections[-1]["text"].append(line)
        if line.strip():
            awaiting_pages = False
    if not title:
        problems.append("no '# title' line")
    anchors = [s["anchor"] for s in sections if s["anchor"]]
    twice = sorted({a for a in anchors if anchors.count(a) > 1})
    problems += [f"anchor #{a} used twice" for a in twice]
    return (
        title,
        tuple(
            Section(s["anchor"], s["title"], s["pages"], _labels("\n".join(s["text"])))
            for s in sections
        ),
        problems,
    )


def _plain(title: str) -> str:
    return " ".join(title.replace("**", "").replace("`", "").split())


def _labels(text: str) -> tuple[str, ...]:
    """The bold texts of a section, whitespace-normalised, each once, in order."""
    found = (" ".join(m["label"].split()) for m in BOLD.finditer(_without_code(text)))
    return tuple(dict.fromkeys(found))


def _without_code(text: str) -> str:
    return re.sub(r"`[^`\n]*`", "", text)


# --- links --------------------------------------------------------------------------------------


def _rewriter(base: str, slugs: set[str]) -> Callable[[str], str]:
    """``X.md#a`` to the chapter's address, ``img/x.png`` to the app's image address; anything else
    (``#a``, ``/turnier/…``) stays as written."""

    def rewrite(target: str) -> str:
        parts = urlsplit(target)
        if parts.scheme or parts.netloc:
            return target
        fragment = f"#{parts.fragment}" if parts.fragment else ""
        path = parts.path
        if path.endswith(".md") and "/" not in path and path[:-3] in slugs:
            slug = path[:-3]
            return (base if slug == INDEX else f"{base}{slug}/") + fragment
        if path.startswith("img/") and path.count("/") == 1:
            return f"{base}{path}"
        return target

    return rewrite


class _Links(Treeprocessor):
    def __init__(self, md: markdown.Markdown, found: list[str], rewrite: Callable[[str], str]):
        super().__init__(md)
        self.found = found
        self.rewrite = rewrite

    def run(self, root: Element) -> None:
        for element in root.iter():
            attribute = {"a": "href", "img": "src"}.get(element.tag)
            target = element.get(attribute) if attribute else None
            if target is not None:
                self.found.append(target)
                element.set(attribute, self.rewrite(target))


class _HeadingLevels(Treeprocessor):
    """A heading is rendered at most one level below the heading before it: a reader moving by
    headings (axe-core's heading-order, WCAG 1.3.1) finds no level missing. The start page's
    parts are ``###`` under its ``#`` title: a ``##`` would be a section, which needs the same
    anchor in both languages (docs/handbook-format.md), and the two start pages differ."""

    def run(self, root: Element) -> None:
        # the headings this one is under: (level written, level rendered)
        above: list[tuple[int, int]] = []
        for element in root.iter():
            if len(element.tag) == 2 and element.tag[0] == "h" and element.tag[1] in "123456":
                written = int(element.tag[1])
                while above and above[-1][0] >= written:
                    above.pop()
                rendered = above[-1][1] + 1 if above else written
                element.tag = f"h{rendered}"
                above.append((written, rendered))


class _LinkExtension(markdown.Extension):
    def __init__(self, found: list[str], rewrite: Callable[[str], str]):
        super().__init__()
        self.found = found
        self.rewrite = rewrite

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        # after the inline patterns made the links (priority 20)
        md.treeprocessors.register(_Links(md, self.found, self.rewrite), "handbook_links", 4)
        md.treeprocessors.register(_HeadingLevels(md), "handbook_heading_levels", 3)


def problems(handbook: Handbook) -> list[str]:
    """Everything broken in the handbook, one line each (``<file>: …``): the format, and every
    link that leads nowhere: another chapter or its anchor, an image, a page of the app. A link
    out of the app is refused too: the hall has no internet."""
    found: list[str] = []
    for chapter in handbook.chapters:
        where = f"{chapter.slug}.md"
        found += [f"{where}: {problem}" for problem in chapter.problems]
        for target in chapter.links:
            problem = _link_problem(handbook, chapter, target)
            if problem:
                found.append(f"{where}: link '{target}' {problem}")
    return found


def _link_problem(handbook: Handbook, chapter: Chapter, target: str) -> str:
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return "leads out of the app (the handbook is read offline)"
    path, anchor = parts.path, parts.fragment
    if not path:
        return "" if anchor in chapter.ids else f"names no anchor of {chapter.slug}.md"
    if path.startswith("/"):
        try:
            resolve(path)
        except Resolver404:
            return "is no page of the app"
        return ""
    if path.endswith(".md") and "/" not in path:
        other = handbook.chapter(path[:-3])
        if other is None:
            return "names no chapter of the handbook"
        if anchor and anchor not in other.ids:
            return f"names no anchor of {other.slug}.md"
        return ""
    if path.startswith("img/") and path.count("/") == 1:
        return "" if image_path(handbook.book, path[4:]) else "names no image in img/"
    return "is neither a chapter (X.md#anchor), an image (img/x.png) nor a page of the app"


def image_path(book: Book, name: str) -> Path | None:
    """The file of an image of ``book``'s ``img/`` folder, or None: only a .png, .jpg or .svg
    that is a file directly inside that folder (no other folder, no link out of it)."""
    if not IMAGE_NAME.match(name) or Path(name).suffix not in IMAGE_TYPES:
        return None
    folder = (book.folder / "img").resolve()
    path = (folder / name).resolve()
    if path.parent != folder or not path.is_file():
        return None
    return path
