"""Player files to import: rows as German Excel writes them, in each format."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import HttpResponse
from django.test import Client
from openpyxl import Workbook

from tournament.core import reading
from tournament.models import (
    Entry,
    Event,
    Player,
)
from tournament.register import imports

GERMAN = ["Vorname", "Nachname", "Verein", "Ort", "Kategorie"]


PLAYERS = [
    ["Anna", "Müller", "CC Rottweil", "Rottweil", "Damen"],
    ["Jörg", "Weiß", "Cego-Freunde Hüfingen", "Hüfingen", ""],
    ["Lena", "Schäfer", "", "Titisee-Neustadt", "Jugend"],
]


def counts() -> tuple[int, int]:
    return Player.objects.count(), Entry.objects.count()


def csv_file(rows: list[list[Any]], encoding: str) -> bytes:
    """As German Excel saves "CSV": semicolons, CRLF, UTF-8 with a BOM or Windows-1252."""
    text = io.StringIO()
    csv.writer(text, delimiter=";").writerows(rows)
    return text.getvalue().encode(encoding)


def preview_of(event: Event, rows: list[list[Any]], fmt: str = "xlsx") -> imports.PlayerImport:
    name, make = FORMATS[fmt]
    return imports.read_players(event, reading.read_table(io.BytesIO(make(rows)), name))


def upload(client: Client, url: str, name: str, content: bytes) -> HttpResponse:
    return client.post(url, {"file": SimpleUploadedFile(name, content)})


def xlsx_file(rows: list[list[Any]]) -> bytes:
    book = Workbook()
    for row in rows:
        book.active.append(row)
    output = io.BytesIO()
    book.save(output)
    return output.getvalue()


FORMATS: dict[str, tuple[str, Callable[[list[list[Any]]], bytes]]] = {
    "xlsx": ("spieler.xlsx", xlsx_file),
    "csv-utf8-bom": ("spieler.csv", lambda rows: csv_file(rows, "utf-8-sig")),
    "csv-cp1252": ("spieler.csv", lambda rows: csv_file(rows, "cp1252")),
}
