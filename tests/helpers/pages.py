"""What a reader reads of an answer: a page's text and tables, its messages, the projector's lines,
a form's error, the way to the login."""

from __future__ import annotations

import html
import io
import json
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qs, urlsplit

import openpyxl
from django.contrib.messages import get_messages
from django.http import HttpResponse
from django.urls import reverse
from django.utils.html import escape

MINUS = "\u2212"  # the sheet writes −60 with a real minus sign, as on paper


def total_shown(text: str) -> int:
    """A total as a page prints it: +60, −60 (a real minus sign), 0."""
    return int(text.strip().replace(MINUS, "-").replace("+", ""))


def assert_sent_to_login(response: HttpResponse, url: str) -> None:
    assert response.status_code == 302
    target = urlsplit(response["Location"])
    assert target.path == reverse("login")
    # back to the page asked for after the login, with its search (the desk's ?q=) if it had one
    asked = urlsplit(url)
    assert parse_qs(target.query)["next"] == [
        asked.path + (f"?{asked.query}" if asked.query else "")
    ]


def messages_of(response: HttpResponse) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def field_error(content: str, field: str) -> str:
    """The error shown next to one field of a hand form (its ``data-field`` block)."""
    block = content.split(f'data-field="{field}"', 1)[1].split("data-field=", 1)[0]
    match = re.search(r'<div class="error">(.*?)</div>', block, re.S)
    assert match, f"no error shown next to {field}"
    return match.group(1)


def workbook_cells(content: bytes) -> list[str]:
    """Every filled cell of every sheet of an Excel workbook, as text, sheet by sheet and row
    by row: what a person reading the file reads."""
    book = openpyxl.load_workbook(io.BytesIO(content), read_only=True)
    return [
        str(value)
        for sheet in book.worksheets
        for row in sheet.iter_rows(values_only=True)
        for value in row
        if value is not None
    ]


def shows(response: HttpResponse, text: str) -> bool:
    """The text is on the page, in the JSON, or in a cell of the downloaded workbook."""
    kind = response["Content-Type"]
    if "spreadsheetml" in kind:
        return any(text in cell for cell in workbook_cells(response.content))
    if kind.startswith("application/json"):
        return text in response.content.decode()
    return escape(text) in response.content.decode()


@dataclass
class ProjectorLine:
    """A line of the projector as its script writes it (static/js/projector.js)."""

    rank: str
    name: str
    marks: list[str]  # the marks after the name, as written: "*", "(withdrawn)", "last place"
    club: str
    value: str

    @property
    def text(self) -> str:
        return " ".join([self.rank, self.name, *self.marks, self.club, self.value])


def projector_lines(content: str | bytes) -> tuple[list[ProjectorLine], str]:
    """The projector's lines and its status line, from its rows' JSON or from the projector page
    (the lines it shows first are in the page), as the script writes them."""
    text = content.decode() if isinstance(content, bytes) else content
    if found := re.search(
        r'<script id="projector-lines" type="application/json">(.*?)</script>', text, re.S
    ):
        text = found.group(1)
    data = json.loads(text)
    lines = [
        ProjectorLine(f"{rank}.", name, [data["marks"][m][1] for m in marks], club, value)
        for rank, name, club, value, marks in data["lines"]
    ]
    return lines, data["status"]


class _Tables(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tables: list[tuple[str, list[list[str]]]] = []
        self._cell: list[str] | None = None
        self._caption: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag == "table":
            self.tables.append(("", []))
        elif tag == "caption":
            self._caption = []
        elif tag == "tr" and self.tables:
            self.tables[-1][1].append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "br" and self._cell is not None:
            self._cell.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "caption" and self._caption is not None:
            self.tables[-1] = (" ".join("".join(self._caption).split()), self.tables[-1][1])
            self._caption = None
        elif tag in ("td", "th") and self._cell is not None:
            self.tables[-1][1][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        for part in (self._cell, self._caption):
            if part is not None:
                part.append(data)


def html_tables(html: str) -> list[tuple[str, list[list[str]]]]:
    """Each table of a page as a reader reads it: its caption and its rows of cell texts (a line
    break in a cell read as a space)."""
    parser = _Tables()
    parser.feed(html)
    return parser.tables


def page_text(response: HttpResponse) -> str:
    """What a reader reads of an HTML page: its text without the tags, spaces collapsed."""
    body = re.sub(r"(?s)<(script|template|style)\b.*?</\1>", " ", response.content.decode())
    text = html.unescape(re.sub(r"<[^>]+>", " ", body))
    return re.sub(r"\s+", " ", text)


def html_table(content: str | bytes, marker: str = 'class="standings') -> list[dict[str, str]]:
    """The rows of the first table whose opening tag holds ``marker``, as a reader reads them:
    each row's cells by their column's heading, tags left out, spaces collapsed."""
    text = content.decode() if isinstance(content, bytes) else content
    start = text.index(marker)
    table = text[text.rindex("<table", 0, start) : text.index("</table>", start)]

    def words(cell: str) -> str:
        return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", cell))).strip()

    head, _sep, body = table.partition("</thead>")
    headings = [words(c) for c in re.findall(r"<th\b[^>]*>(.*?)</th>", head, re.S)]
    return [
        dict(
            zip(
                headings,
                (words(c) for c in re.findall(r"<td\b[^>]*>(.*?)</td>", row, re.S)),
                strict=False,
            )
        )
        for row in re.findall(r"<tr\b[^>]*>(.*?)</tr>", body, re.S)
    ]
