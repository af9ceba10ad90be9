"""Spreadsheets coming in, read safely: an XLSX or CSV upload becomes rows, within limits of size,
parts, XML elements and time, before anything is interpreted (``register.imports`` reads player
lists from the rows, ``play.imports`` a round's results)."""

from __future__ import annotations

import csv
import io
import re
import time
import unicodedata
import warnings
import zipfile
from typing import IO, Any
from xml.parsers import expat

from django.utils.translation import gettext as _
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._reader import WorkSheetParser

from tournament.core.errors import Refused
from tournament.core.fields import UPLOAD_MAX_BYTES

NAME_LENGTH = 100
PLACE_LENGTH = 150

# Limits for an uploaded file. A season's player list has a few hundred rows; a round's results
# at most some 40 tables of up to 50 games. A 5,000-row list of 17 columns unpacks to 3.4 MB in
# some 175,000 XML elements, a round of 40 tables to 1.1 MB; real workbooks pack 10 to 16 to one.
UNPACKED_MAX_BYTES = 20 * 1024 * 1024  # all parts of a workbook together, unpacked
PACKING_MAX_RATIO = 100  # unpacked to packed, for a part larger than PACKING_CHECKED_FROM
PACKING_CHECKED_FROM = 1024 * 1024
PARTS_MAX = 1000  # files inside a workbook (a round of 250 tables has some 260)
ELEMENTS_MAX = 500_000  # XML elements in all parts: bounds the memory openpyxl needs
COLUMNS_MAX = 50  # columns with data in a player list
READ_SECONDS = 20  # reading one file, from the first byte to the checked rows


class UnreadableFile(Exception):
    """The file as a whole cannot be read; the message says why."""


def header_key(text: Any) -> str:
    """A header or value compared loosely: case, accents, spaces and punctuation do not matter."""
    text = unicodedata.normalize("NFKD", str(text or "")).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", text.lower())


# --- reading files ----------------------------------------------------------------------------

ENCODINGS = ("utf-8-sig", "cp1252", "latin-1")  # UTF-8, then what Excel writes on Windows


class Budget:
    """The time one file may take to read; ``check`` is called as the reading goes on."""

    def __init__(self) -> None:
        self.seconds = READ_SECONDS
        self.deadline = time.monotonic() + READ_SECONDS

    def check(self) -> None:
        if time.monotonic() >= self.deadline:
            raise UnreadableFile(
                _(
                    "Reading the file took longer than %(seconds)s seconds and was stopped. "
                    "Save only the sheet you need as a new file (or as CSV) and upload that."
                )
                % {"seconds": self.seconds}
            )


def read_bytes(upload: IO[bytes]) -> bytes:
    data = upload.read(UPLOAD_MAX_BYTES + 1)
    if len(data) > UPLOAD_MAX_BYTES:
        raise UnreadableFile(
            _(
                "The file is larger than %(mb)s MB; a player list or a round's results are far "
                "smaller. Check that this is the right file."
            )
            % {"mb": UPLOAD_MAX_BYTES // (1024 * 1024)}
        )
    return data


def _not_a_workbook() -> UnreadableFile:
    return UnreadableFile(_("The file could not be read as an Excel workbook (.xlsx)."))


def _check_archive(archive: zipfile.ZipFile, budget: Budget) -> None:
    """Refuse a workbook whose parts unpack to too much, are packed too tightly (a zip bomb), or
    hold too many XML elements or a document type declaration (an entity bomb), before openpyxl
    unpacks or parses any of it. The sizes are the archive's own: Python's zip reader never
    gives more than a part's declared size.

    openpyxl parses through defusedxml as well (requirements.txt), which refuses a declared
    entity on its own; the declaration is still refused here first, because this message says
    what to do where openpyxl's says "invalid XML" (tests/tournament/core/test_reading.py)."""
    parts = archive.infolist()
    if len(parts) > PARTS_MAX:
        raise UnreadableFile(
            _(
                "The workbook consists of more than %(limit)s parts; a player list or a round's "
                "results need far fewer. Save only the sheets you need as a new file."
            )
            % {"limit": PARTS_MAX}
        )
    if sum(part.file_size for part in parts) > UNPACKED_MAX_BYTES:
        raise UnreadableFile(
            _(
                "The workbook unpacks to more than %(mb)s MB; a player list or a round's results "
                "take far less. Save only the sheet you need as a new .xlsx file (or as CSV) and "
                "upload that."
            )
            % {"mb": UNPACKED_MAX_BYTES // (1024 * 1024)}
        )
    for part in parts:
        packed = max(part.compress_size, 1)
        if part.file_size > PACKING_CHECKED_FROM and part.file_size > PACKING_MAX_RATIO * packed:
            raise UnreadableFile(
                _(
                    "The workbook is packed suspiciously tightly (more than %(ratio)s to 1). Open "
                    "it in Excel or LibreOffice, save it as a new .xlsx file and upload that."
                )
                % {"ratio": PACKING_MAX_RATIO}
            )
    elements = 0

    def count(_name: str, _attributes: Any) -> None:
        nonlocal elements
        elements += 1
        if elements > ELEMENTS_MAX:
            raise UnreadableFile(
                _(
                    "The workbook holds more than %(limit)s cells and other parts; a player list "
                    "or a round's results hold far fewer. Save only the sheet you need as a new "
                    "file and upload that."
                )
                % {"limit": ELEMENTS_MAX}
            )

    def declaration(*_args: Any) -> None:
        raise UnreadableFile(
            _(
                "The workbook contains XML that Excel never writes (a document type declaration). "
                "Open it in Excel or LibreOffice, save it as a new .xlsx file and upload that."
            )
        )

    for part in parts:
        with archive.open(part) as source:
            chunk = source.read(256 * 1024)
            # every part that could be parsed as XML is counted, whatever its name says; an image
            # (a club's logo) is not XML and is left alone
            if not chunk.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(
                (b"<", b"\xff\xfe", b"\xfe\xff")
            ):
                continue
            parser = expat.ParserCreate()
            parser.StartElementHandler = count
            parser.StartDoctypeDeclHandler = declaration
            parser.EntityDeclHandler = declaration
            while chunk:
                parser.Parse(chunk, False)
                budget.check()
                chunk = source.read(256 * 1024)
            parser.Parse(b"", True)


def open_workbook(data: bytes, budget: Budget) -> Any:
    """A checked workbook opened read-only (its sheets are read with ``sheet_rows``)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            _check_archive(archive, budget)
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except UnreadableFile:
        raise
    except Exception as exc:  # zipfile, expat and openpyxl raise many kinds for a broken file
        raise _not_a_workbook() from exc
    budget.check()
    return workbook


def sheet_rows(
    workbook: Any, sheet: Any, *, rows: int, columns: int, budget: Budget, where: str
) -> list[tuple[int, list[Any]]]:
    """(row number, values) of each row of a sheet that holds data, read one row at a time as the
    file has it: the sheet's declared dimension is ignored and empty rows are skipped, however
    far apart the filled ones are. Data beyond ``rows`` or ``columns`` is refused.

    openpyxl's own row parser (what its read-only sheets use) does the reading; its read-only
    ``iter_rows`` would pad every row to the declared width and every gap between rows."""
    found: list[tuple[int, list[Any]]] = []
    try:
        with sheet._get_source() as source, warnings.catch_warnings():
            warnings.simplefilter("ignore")  # openpyxl warns of dates out of range
            parser = WorkSheetParser(
                source,
                sheet._shared_strings,
                data_only=True,
                epoch=workbook.epoch,
                date_formats=workbook._date_formats,
                timedelta_formats=workbook._timedelta_formats,
            )
            for number, cells in parser.parse():
                budget.check()
                values = {c["column"]: c["value"] for c in cells if c["value"] not in (None, "")}
                if not values:
                    continue
                if number > rows:
                    raise UnreadableFile(
                        _(
                            "%(where)s has data beyond row %(limit)s, the most that is read. "
                            "Remove what is below the list, or split the list into several files."
                        )
                        % {"where": where, "limit": rows}
                    )
                widest = max(values)
                if widest > columns:
                    raise UnreadableFile(_too_wide(number, columns))
                found.append((number, [values.get(i) for i in range(1, widest + 1)]))
    except UnreadableFile:
        raise
    except Exception as exc:  # a cell openpyxl cannot make sense of: a broken or forged file
        raise _not_a_workbook() from exc
    return found


def _too_wide(row: int, columns: int) -> UnreadableFile:
    return UnreadableFile(
        _(
            "Row %(row)s has data beyond column %(limit)s (%(letter)s); remove the columns to the "
            "right of the list."
        )
        % {"row": row, "limit": columns, "letter": get_column_letter(columns)}
    )


def too_long() -> UnreadableFile:
    return UnreadableFile(
        _("The list has more than %(limit)s rows; split it into several files.")
        % {"limit": PLAYER_ROWS_MAX}
    )


def _csv_rows(data: bytes, budget: Budget) -> list[list[Any]]:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        encodings: tuple[str, ...] = ("utf-16",)  # Excel's "Unicode text"
    else:
        encodings = ENCODINGS
    text = ""
    for encoding in encodings:
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    else:
        raise UnreadableFile(_("The file is not a readable CSV list: unknown text encoding."))
    sample = text[:4096]
    delimiter = max((";", ",", "\t"), key=sample.count)
    result: list[list[Any]] = []
    try:
        for number, row in enumerate(csv.reader(io.StringIO(text), delimiter=delimiter), 1):
            if number % 100 == 0:
                budget.check()
            while row and not row[-1].strip():
                row.pop()
            if not row:
                continue
            if len(row) > COLUMNS_MAX:
                raise _too_wide(number, COLUMNS_MAX)
            result.append(row)
            if len(result) > PLAYER_ROWS_MAX:
                raise too_long()
    except csv.Error as exc:
        raise UnreadableFile(
            _("The file is not a readable CSV list: %(error)s") % {"error": exc}
        ) from exc
    return result


def read_table(upload: IO[bytes], filename: str) -> list[list[Any]]:
    """The rows holding data of the first sheet of an XLSX file, or of a CSV file (comma,
    semicolon or tab), within the limits above."""
    name = filename.lower()
    if not name.endswith((".xlsx", ".csv", ".txt")):
        raise UnreadableFile(_("Upload an Excel file (.xlsx) or a CSV file (.csv)."))
    budget = Budget()
    data = read_bytes(upload)
    if name.endswith((".csv", ".txt")):
        return _csv_rows(data, budget)
    workbook = open_workbook(data, budget)
    try:
        if not workbook.worksheets:
            raise _not_a_workbook()
        sheet = workbook.worksheets[0]
        return [
            values
            for _number, values in sheet_rows(
                workbook,
                sheet,
                rows=PLAYER_ROWS_MAX,
                columns=COLUMNS_MAX,
                budget=budget,
                where=_("The sheet “%(name)s”") % {"name": sheet.title},
            )
        ]
    finally:
        workbook.close()


PLAYER_ROWS_MAX = 5000  # rows of a player list, the header included


class AlreadyImported(Refused):
    """The same preview was confirmed before: its rows are saved already, nothing more is."""


PLAYER_HEADERS: dict[str, tuple[str, ...]] = {
    "first_name": ("vorname", "firstname", "first", "givenname", "rufname"),
    "last_name": ("nachname", "name", "lastname", "last", "surname", "familienname", "zuname"),
    "club": ("verein", "club", "klub"),
    "town": ("ort", "wohnort", "stadt", "town", "city", "place"),
    "category": ("kategorie", "klasse", "wertung", "category", "class", "group"),
    "consent": ("einwilligung", "zustimmung", "consent"),
}
