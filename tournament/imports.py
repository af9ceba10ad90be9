"""Spreadsheets coming in: player lists (XLSX or CSV) and a round's results filled in offline.

Both work in two steps: ``read_…`` turns the file into checked rows, each marked as accepted or
rejected with a reason, without writing anything; the ``save_…`` service writes all of it in one
transaction, and refuses if any row was rejected. The preview carries a key: a confirm sent twice
(a double click, a retry) is recognised and saves nothing the second time.

A file is read with hard limits (README, "Uploads") checked before anything is unpacked or built
in memory: its size, the size and packing of the parts of a workbook, the number of XML elements,
the rows and columns that hold data, and the time spent reading. A sheet's declared size is never
trusted; rows are read one at a time as they come.
"""

from __future__ import annotations

import csv
import io
import re
import time
import unicodedata
import uuid
import warnings
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from typing import IO, Any
from xml.parsers import expat

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from openpyxl import Workbook, load_workbook
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._reader import WorkSheetParser

import scoring
from tournament import exports, services
from tournament.forms import UPLOAD_MAX_BYTES, HandForm, explain, whole_number
from tournament.models import Entry, Event, Hand, Player, Round, Seat, Table
from tournament.names import NameIndex, name_key
from tournament.validators import one_line, single_line

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
PLAYER_ROWS_MAX = 5000  # rows of a player list, the header included
COLUMNS_MAX = 50  # columns with data in a player list
GAMES_MAX = 300  # games in one table's sheet of a result workbook
RESULT_COLUMNS_MAX = 60  # a result sheet's columns (Hennes Sibbe at 8 seats has the most)
READ_SECONDS = 20  # reading one file, from the first byte to the checked rows


class UnreadableFile(Exception):
    """The file as a whole cannot be read; the message says why."""


class AlreadyImported(services.Refused):
    """The same preview was confirmed before: its rows are saved already, nothing more is."""


def _key(text: Any) -> str:
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


def _read_bytes(upload: IO[bytes]) -> bytes:
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
    gives more than a part's declared size."""
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


def _open_workbook(data: bytes, budget: Budget) -> Any:
    """A checked workbook opened read-only (its sheets are read with ``_sheet_rows``)."""
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


def _sheet_rows(
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


def _too_long() -> UnreadableFile:
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
                raise _too_long()
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
    data = _read_bytes(upload)
    if name.endswith((".csv", ".txt")):
        return _csv_rows(data, budget)
    workbook = _open_workbook(data, budget)
    try:
        if not workbook.worksheets:
            raise _not_a_workbook()
        sheet = workbook.worksheets[0]
        return [
            values
            for _number, values in _sheet_rows(
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


# --- players ----------------------------------------------------------------------------------

PLAYER_HEADERS: dict[str, tuple[str, ...]] = {
    "first_name": ("vorname", "firstname", "first", "givenname", "rufname"),
    "last_name": ("nachname", "name", "lastname", "last", "surname", "familienname", "zuname"),
    "club": ("verein", "club", "klub"),
    "town": ("ort", "wohnort", "stadt", "town", "city", "place"),
    "category": ("kategorie", "klasse", "wertung", "category", "class", "group"),
}
CATEGORY_WORDS = {
    "": "",
    "damen": "damen",
    "dame": "damen",
    "frauen": "damen",
    "women": "damen",
    "woman": "damen",
    "ladies": "damen",
    "d": "damen",
    "jugend": "jugend",
    "junioren": "jugend",
    "juniors": "jugend",
    "junior": "jugend",
    "youth": "jugend",
    "j": "jugend",
    "senioren": "senioren",
    "senior": "senioren",
    "seniors": "senioren",
    "s": "senioren",
}


@dataclass
class PlayerRow:
    line: int
    first_name: str
    last_name: str
    club: str = ""
    town: str = ""
    category: str = ""
    status: str = "new"  # new, matched, rejected
    reason: str = ""
    player_id: int | None = None
    # a new player whose name is probably a known player's or another line's (names.py): shown
    # in the preview, so that the organiser can register that one or merge later
    similar: str = ""

    @property
    def rejected(self) -> bool:
        return self.status == "rejected"


@dataclass
class PlayerImport:
    rows: list[PlayerRow] = field(default_factory=list)
    # signed into the preview's confirm: the saved rows carry it, so a second confirm is known
    key: str = field(default_factory=lambda: uuid.uuid4().hex)

    @property
    def ok(self) -> bool:
        return bool(self.rows) and not any(r.rejected for r in self.rows)

    def count(self, status: str) -> int:
        return sum(1 for r in self.rows if r.status == status)

    @property
    def counts(self) -> dict[str, int]:
        return {s: self.count(s) for s in ("new", "matched", "rejected")}

    def payload(self) -> list[dict[str, Any]]:
        return [asdict(r) for r in self.rows]


def _columns(header: list[Any]) -> dict[str, int]:
    found: dict[str, int] = {}
    for index, title in enumerate(header):
        key = _key(title)
        for name, aliases in PLAYER_HEADERS.items():
            if key in aliases and name not in found:
                found[name] = index
    missing = [n for n in ("first_name", "last_name") if n not in found]
    if missing:
        raise UnreadableFile(
            _(
                "The first row must name the columns; found no column for %(missing)s. "
                "Use Vorname, Nachname, Verein, Ort, Kategorie (or First name, Last name, Club, "
                "Town, Category)."
            )
            % {"missing": ", ".join(missing)}
        )
    return found


def _control_character(item: PlayerRow) -> str:
    """The reason a row's text is refused, naming the field (the check the model fields make)."""
    for name in ("first_name", "last_name", "club", "town"):
        try:
            single_line(getattr(item, name))
        except ValidationError as exc:
            return f"{Player._meta.get_field(name).verbose_name}: {exc.messages[0]}"
    return ""


def read_players(event: Event, rows: list[list[Any]]) -> PlayerImport:
    """Check a player list against the event: new player, known player, or rejected (and why)."""
    rows = [r for r in rows if any(str(c or "").strip() for c in r)]
    if not rows:
        raise UnreadableFile(_("The file is empty."))
    if len(rows) > PLAYER_ROWS_MAX:
        raise _too_long()
    columns = _columns(rows[0])
    result = PlayerImport()

    def cell(row: list[Any], name: str) -> str:
        index = columns.get(name)
        if index is None or index >= len(row) or row[index] is None:
            return ""
        return one_line(str(row[index]))

    players = list(Player.objects.only("pk", "first_name", "last_name", "club", "town"))
    known = {(_key(p.first_name), _key(p.last_name), _key(p.club)): p.pk for p in players}
    registered = set(Entry.objects.filter(event=event).values_list("player_id", flat=True))
    similar_known = NameIndex((p.first_name, p.last_name, p) for p in players)
    similar_lines: dict[tuple[str, str], PlayerRow] = {}
    seen: dict[tuple[str, str, str], int] = {}
    for line, row in enumerate(rows[1:], start=2):
        item = PlayerRow(
            line=line,
            first_name=cell(row, "first_name"),
            last_name=cell(row, "last_name"),
            club=cell(row, "club"),
            town=cell(row, "town"),
            category=cell(row, "category"),
        )
        result.rows.append(item)
        category = CATEGORY_WORDS.get(_key(item.category))
        if not item.first_name or not item.last_name:
            item.status, item.reason = "rejected", _("first and last name are required")
        elif refused := _control_character(item):
            item.status, item.reason = "rejected", refused
        elif len(item.first_name) > NAME_LENGTH or len(item.last_name) > NAME_LENGTH:
            item.status, item.reason = "rejected", _("a name is longer than 100 characters")
        elif len(item.club) > PLACE_LENGTH or len(item.town) > PLACE_LENGTH:
            item.status, item.reason = "rejected", _("club or town is longer than 150 characters")
        elif category is None:
            item.status, item.reason = (
                "rejected",
                _("unknown category “%(value)s” (Damen, Jugend, Senioren or empty)")
                % {"value": item.category},
            )
        else:
            item.category = category
            key = (_key(item.first_name), _key(item.last_name), _key(item.club))
            if key in seen:
                item.status, item.reason = (
                    "rejected",
                    _("the same player as in line %(line)s") % {"line": seen[key]},
                )
                continue
            seen[key] = line
            item.player_id = known.get(key)
            if item.player_id in registered:
                item.status, item.reason = "rejected", _("already registered for this event")
            elif item.player_id:
                item.status = "matched"
            else:
                item.similar = _similar(item, similar_known, similar_lines, registered)
    return result


def _similar(
    item: PlayerRow,
    known: NameIndex,
    lines: dict[tuple[str, str], PlayerRow],
    registered: set[int],
) -> str:
    """Who a new row's player probably is: known players with club and town, or an earlier
    line of the same file (One person, one player)."""
    found = []
    for player in known.find(item.first_name, item.last_name):
        place = ", ".join(x for x in (player.club, player.town) if x) or "—"
        text = f"{player} ({place})"
        if player.pk in registered:
            text += " – " + _("already registered for this event")
        found.append(text)
    key = name_key(item.first_name, item.last_name)
    earlier = lines.setdefault(key, item)
    if earlier is not item:
        found.append(
            _("line %(line)s: %(name)s")
            % {"line": earlier.line, "name": f"{earlier.first_name} {earlier.last_name}"}
        )
    return "; ".join(found)


def _import_reason(key: str | None) -> str:
    """The change reason in the history of every player and entry an import creates."""
    return f"import {key}" if key else "import"


@transaction.atomic
def save_players(
    event: Event, rows: Iterable[dict[str, Any]], user: Any = None, *, key: str | None = None
) -> int:
    """Register every row (creating new players); all or nothing. Returns the entries made.

    The rows go through ``services.register_players``, like a registration at the desk: start
    numbers, the late flag and the refusals are decided there. The event row is locked first, so
    confirms sent at the same moment take turns (PostgreSQL; SQLite writes one transaction at a
    time anyway), and the rows are checked again against the database as it is then: a list
    previewed a minute ago may have been overtaken by a registration at the desk, or by the same
    list confirmed a moment before. ``key`` is the preview's: a second confirm of it raises
    ``AlreadyImported`` and saves nothing.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    reason = _import_reason(key)
    if key:
        done = Entry.history.filter(
            event_id=event.pk, history_type="+", history_change_reason=reason
        ).count()
        if done:
            raise AlreadyImported(
                ngettext(
                    "This list was already imported: %(n)s player; nothing more was saved.",
                    "This list was already imported: %(n)s players; nothing more was saved.",
                    done,
                )
                % {"n": done}
            )
    table = [
        ["first_name", "last_name", "club", "town", "category"],
        *[[r["first_name"], r["last_name"], r["club"], r["town"], r["category"]] for r in rows],
    ]
    checked = read_players(event, table)
    if not checked.ok:
        bad = next(r for r in checked.rows if r.rejected)
        raise services.Refused(
            _("Nothing was saved: line %(line)s is rejected (%(reason)s).")
            % {"line": bad.line, "reason": bad.reason}
        )
    known = Player.objects.in_bulk([r.player_id for r in checked.rows if r.status == "matched"])
    players = [
        known[r.player_id]
        if r.status == "matched"
        else Player(
            first_name=r.first_name,
            last_name=r.last_name,
            club=r.club,
            town=r.town,
            category=r.category,
        )
        for r in checked.rows
    ]
    entries = services.register_players(event=event, players=players, user=user, reason=reason)
    return len(entries)


# --- results filled in offline ----------------------------------------------------------------

YES = {"ja", "j", "x", "yes", "y", "1", "true", "wahr"}
NO = {"nein", "n", "no", "0", "false", "falsch", ""}
SEAT_FIELDS = {"declarer", "announcer", "bidder", "partner", "claimant", "challenger"}
HEADER_ROWS = 3  # title, players, column names


def _form_class(event: Event) -> type[HandForm]:
    return event.game_type.hand_form


def _template_fields(event: Event, table: Table, players: list[str]) -> list[tuple[str, str]]:
    form = _form_class(event)(table=table, players=players, every_seat=True)
    return [(f.name, str(f.label)) for f in form.visible_fields()]


def _round_tables(rnd: Round) -> Iterator[tuple[Table, list[str]]]:
    seats = (
        Seat.objects.filter(round=rnd, table__isnull=False)
        .select_related("entry__player", "table__round__event")
        .order_by("table__number", "position")
    )
    current: Table | None = None
    names: list[str] = []
    for seat in seats:
        if current is not None and seat.table_id != current.pk:
            yield current, names
            names = []
        current = seat.table
        names.append(str(seat.entry.player))
    if current is not None:
        yield current, names


def result_template(rnd: Round, output: IO[bytes] | None = None) -> IO[bytes]:
    """One sheet per table: the players by seat, then a row per game with the hand's inputs.

    Seats are written as numbers 1, 2, 3 ... (or the player's name); yes/no as ja/nein. Written
    like every workbook through ``exports.Sheet``: a player's name heads a column (Räuber's card
    points) and never becomes a formula.
    """
    event = rnd.event
    workbook = Workbook(write_only=True)
    title = f"{event.name} · " + _("Round %(n)s") % {"n": rnd.number}
    for table, players in _round_tables(rnd):
        fields = _template_fields(event, table, players)
        sheet = exports.Sheet(
            workbook,
            _("Table %(n)s") % {"n": table.number},
            [(_("Game"), 16, exports.INTEGER)] + [(label, 16, None) for _name, label in fields],
            above=[
                [title],
                [_("Players:")] + [f"{i + 1} = {name}" for i, name in enumerate(players)],
            ],
            freeze_column="B",
            autofilter=False,
        )
        for number in range(1, (event.hands_for(table.size) or 30) + 1):
            sheet.append([number])
        sheet.close()
    if not workbook.worksheets:  # a round not drawn yet: a workbook needs a sheet
        exports.Sheet(workbook, _("Round %(n)s") % {"n": rnd.number}, [(title, 40, None)])
    output = output or io.BytesIO()
    workbook.save(output)
    return output


@dataclass
class ResultRow:
    table: int
    number: int
    hand: dict[str, Any] | None = None
    results: list[int] | None = None
    error: str = ""


@dataclass
class ResultImport:
    rows: list[ResultRow] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    # signed into the preview's confirm; each game's submission key is derived from it
    key: str = field(default_factory=lambda: uuid.uuid4().hex)

    @property
    def ok(self) -> bool:
        return bool(self.rows) and not self.problems and not any(r.error for r in self.rows)

    def payload(self) -> list[dict[str, Any]]:
        return [{"table": r.table, "hand": r.hand} for r in self.rows]


def _cell_to_form(name: str, value: Any, form: HandForm, players: list[str]) -> str:
    """A spreadsheet cell as the form would receive it: seats as 0-based numbers, choices by
    their key or their label, yes/no as the form's values."""
    if value is None:
        return ""
    text = str(value).strip()
    if isinstance(value, float) and value.is_integer():
        text = str(int(value))
    bound = form.fields[name]
    if name in SEAT_FIELDS:
        if whole_number(text) is not None and 1 <= int(text) <= len(players):
            return str(int(text) - 1)
        lowered = [_key(p) for p in players]
        if _key(text) in lowered:
            return str(lowered.index(_key(text)))
        return text and f"?{text}"
    if bound.widget.input_type == "checkbox":
        return "on" if _key(text) in YES else ""
    choices = getattr(bound, "choices", None)
    if choices:
        keys = [str(key) for key, _label in choices]
        for key, label in choices:
            if _key(text) in (_key(key), _key(label)):
                return str(key)
        # yes/no questions answered in the sheet's words (ja, nein, x)
        if "yes" in keys and _key(text) in YES:
            return "yes"
        if "no" in keys and text and _key(text) in NO:
            return "no"
    return text


def read_results(rnd: Round, upload: IO[bytes]) -> ResultImport:
    """Check an uploaded result workbook as typed entry would be checked; nothing is saved."""
    result = ResultImport()
    budget = Budget()
    workbook = _open_workbook(_read_bytes(upload), budget)
    try:
        sheets = {_key(ws.title): ws for ws in workbook.worksheets}
        for table, players in _round_tables(rnd):
            ws = sheets.get(_key(_("Table %(n)s") % {"n": table.number}))
            if ws is None:
                result.problems.append(
                    _("The sheet for table %(n)s is missing.") % {"n": table.number}
                )
                continue
            rows = dict(
                _sheet_rows(
                    workbook,
                    ws,
                    rows=HEADER_ROWS + GAMES_MAX,
                    columns=RESULT_COLUMNS_MAX,
                    budget=budget,
                    where=_("The sheet for table %(n)s") % {"n": table.number},
                )
            )
            _read_table_sheet(result, table, players, rows, budget)
    finally:
        workbook.close()
    if not result.rows and not result.problems:
        result.problems.append(_("The workbook contains no games."))
    return result


def _read_table_sheet(
    result: ResultImport,
    table: Table,
    players: list[str],
    rows: dict[int, list[Any]],
    budget: Budget,
) -> None:
    event = table.round.event
    form_class = _form_class(event)
    labels: dict[str, str] = {}
    for name, label in _template_fields(event, table, players):
        # as the template wrote it (a name like "=1+1" with Excel's text mark), or as typed
        labels[exports.text(str(label))] = name
        labels.setdefault(str(label), name)
    header = rows.get(HEADER_ROWS, [])
    columns = {i: labels[str(h)] for i, h in enumerate(header) if str(h) in labels}
    filled = [
        values
        for number, values in sorted(rows.items())
        if number > HEADER_ROWS and any(v not in (None, "") for v in values[1:])
    ]
    existing = table.hands.count()
    if filled and existing:
        result.problems.append(
            ngettext(
                "Table %(n)s already has %(games)s game entered; delete it first or enter "
                "the rest by hand.",
                "Table %(n)s already has %(games)s games entered; delete them first or enter "
                "the rest by hand.",
                existing,
            )
            % {"n": table.number, "games": existing}
        )
        return
    # the fields' choices, for every row (every seat: a five-seat table's dealer changes per game)
    probe = form_class(table=table, players=players, every_seat=True)
    for position, row in enumerate(filled, start=1):
        budget.check()  # every game is checked by the engine, as typed entry is
        number = row[0] if isinstance(row[0], int) else position
        data = {
            name: _cell_to_form(name, row[i] if i < len(row) else None, probe, players)
            for i, name in columns.items()
        }
        form = form_class(data, table=table, players=players, number=position)
        item = ResultRow(table=table.number, number=number)
        if number != position:
            item.error = _("games must be numbered 1, 2, 3 … without gaps")
        elif form.is_valid():
            item.hand, item.results = form.hand, form.result
        else:
            item.error = "; ".join(
                f"{form.fields[n].label if n in form.fields else ''}: {' '.join(errs)}".strip(": ")
                for n, errs in form.errors.items()
            )
        result.rows.append(item)


def _game_keys(key: str | None, rows: list[dict[str, Any]]) -> list[uuid.UUID | None]:
    """Each game's submission key, derived from the preview's key: table and game number."""
    try:
        base = uuid.UUID(str(key)) if key else None
    except ValueError:
        base = None
    if base is None:
        return [None] * len(rows)
    games: dict[Any, int] = {}
    keys: list[uuid.UUID | None] = []
    for row in rows:
        games[row.get("table")] = games.get(row.get("table"), 0) + 1
        keys.append(uuid.uuid5(base, f"{row.get('table')}/{games[row.get('table')]}"))
    return keys


@transaction.atomic
def save_results(
    rnd: Round, rows: Iterable[dict[str, Any]], user: Any = None, *, key: str | None = None
) -> int:
    """Record the games of a checked result workbook (``{"table", "hand"}`` per game, in order);
    all or nothing: the engine checks each again, and one refusal saves none.

    The round and its tables are locked first, so confirms sent at the same moment take turns and
    no game entered through a table link slips in between; then the preview's checks are made
    again. Each game carries a submission key derived from the preview's ``key``: a second confirm
    raises ``AlreadyImported`` and saves nothing.
    """
    rnd = Round.objects.select_for_update().get(pk=rnd.pk)
    rows = list(rows)
    tables = {
        t.number: t for t in Table.objects.select_for_update().filter(round=rnd).order_by("pk")
    }
    keys = _game_keys(key, rows)
    if any(keys):
        done = Hand.objects.filter(table__round=rnd, submission_key__in=keys).count()
        if done:
            raise AlreadyImported(
                ngettext(
                    "This workbook was already imported: %(n)s game; nothing more was saved.",
                    "This workbook was already imported: %(n)s games; nothing more was saved.",
                    done,
                )
                % {"n": done}
            )
    for row in rows:
        if row.get("table") not in tables:
            raise services.Refused(
                _("Table %(n)s is not part of this round.") % {"n": row.get("table")}
            )
    busy = sorted(
        set(
            Hand.objects.filter(
                table__round=rnd, table__number__in={row["table"] for row in rows}
            ).values_list("table__number", flat=True)
        )
    )
    if busy:
        raise services.Refused(
            ngettext(
                "Round %(round)s already has games at table %(tables)s; nothing was saved.",
                "Round %(round)s already has games at tables %(tables)s; nothing was saved.",
                len(busy),
            )
            % {"round": rnd.number, "tables": ", ".join(str(n) for n in busy)}
        )
    saved = 0
    for row, game_key in zip(rows, keys, strict=True):
        table = tables[row["table"]]
        try:
            services.record_hand(
                table=table, data=row.get("hand") or {}, user=user, submission_key=game_key
            )
        except scoring.InvalidHand as exc:
            raise services.Refused(
                _("Nothing was saved: table %(t)s, game %(n)s: %(error)s")
                % {"t": table.number, "n": saved + 1, "error": explain(exc)}
            ) from exc
        saved += 1
    return saved
