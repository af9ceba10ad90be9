"""Spreadsheets coming in: player lists (XLSX or CSV) and a round's results filled in offline.

Both work in two steps: ``read_…`` turns the file into checked rows, each marked as accepted or
rejected with a reason, without writing anything; the ``save_…`` service writes all of it in one
transaction, and refuses if any row was rejected.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from typing import IO, Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from openpyxl import Workbook, load_workbook
from openpyxl.styles import Font, PatternFill
from openpyxl.utils import get_column_letter
from simple_history.utils import bulk_create_with_history

import scoring

from . import services
from .forms import HAND_FORMS, HandForm, explain, whole_number
from .models import Entry, Event, Player, Round, Seat, Table
from .names import NameIndex, name_key

MAX_ROWS = 20_000
NAME_LENGTH = 100
PLACE_LENGTH = 150


class UnreadableFile(Exception):
    """The file as a whole cannot be read; the message says why."""


def _key(text: Any) -> str:
    """A header or value compared loosely: case, accents, spaces and punctuation do not matter."""
    text = unicodedata.normalize("NFKD", str(text or "")).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", text.lower())


# --- reading files ----------------------------------------------------------------------------

ENCODINGS = ("utf-8-sig", "cp1252", "latin-1")  # UTF-8, then what Excel writes on Windows


def read_table(upload: IO[bytes], filename: str) -> list[list[Any]]:
    """Rows of the first sheet of an XLSX file, or of a CSV file (comma or semicolon)."""
    name = filename.lower()
    data = upload.read()
    if name.endswith(".xlsx"):
        try:
            workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        except Exception as exc:  # openpyxl raises many kinds for a broken file
            raise UnreadableFile(
                _("The file could not be read as an Excel workbook (.xlsx).")
            ) from exc
        sheet = workbook.worksheets[0]
        rows = [list(row) for row in sheet.iter_rows(values_only=True)]
        workbook.close()
        return rows
    if name.endswith((".csv", ".txt")):
        for encoding in ENCODINGS:
            try:
                text = data.decode(encoding)
                break
            except UnicodeDecodeError:
                continue
        sample = text[:4096]
        delimiter = ";" if sample.count(";") > sample.count(",") else ","
        try:
            return list(csv.reader(io.StringIO(text), delimiter=delimiter))
        except csv.Error as exc:
            raise UnreadableFile(
                _("The file is not a readable CSV list: %(error)s") % {"error": exc}
            ) from exc
    raise UnreadableFile(_("Upload an Excel file (.xlsx) or a CSV file (.csv)."))


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


def read_players(event: Event, rows: list[list[Any]]) -> PlayerImport:
    """Check a player list against the event: new player, known player, or rejected (and why)."""
    rows = [r for r in rows if any(str(c or "").strip() for c in r)]
    if not rows:
        raise UnreadableFile(_("The file is empty."))
    if len(rows) > MAX_ROWS:
        raise UnreadableFile(_("The file has more than %(n)s rows.") % {"n": MAX_ROWS})
    columns = _columns(rows[0])
    result = PlayerImport()

    def cell(row: list[Any], name: str) -> str:
        index = columns.get(name)
        if index is None or index >= len(row) or row[index] is None:
            return ""
        return str(row[index]).strip()

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


@transaction.atomic
def save_players(event: Event, rows: Iterable[dict[str, Any]], user: Any = None) -> int:
    """Register every row (creating new players); all or nothing. Returns the entries made.

    The rows are checked again against the database as it is now: a list previewed a minute ago
    may have been overtaken by a registration at the desk.
    """
    table = [
        [
            "first_name",
            "last_name",
            "club",
            "town",
            "category",
        ],
        *[[r["first_name"], r["last_name"], r["club"], r["town"], r["category"]] for r in rows],
    ]
    checked = read_players(event, table)
    if not checked.ok:
        bad = next(r for r in checked.rows if r.rejected)
        raise services.Refused(
            _("Nothing was saved: line %(line)s is rejected (%(reason)s).")
            % {"line": bad.line, "reason": bad.reason}
        )
    if event.status == Event.Status.FINISHED:
        raise services.Refused(_("The event is finished; no more players can be registered."))
    new = [
        Player(
            first_name=r.first_name,
            last_name=r.last_name,
            club=r.club,
            town=r.town,
            category=r.category,
        )
        for r in checked.rows
        if r.status == "new"
    ]
    created = iter(bulk_create_with_history(new, Player, default_user=user))
    start = (Entry.objects.filter(event=event).aggregate(n=Max("start_number"))["n"] or 0) + 1
    late = event.rounds.exclude(status=Round.Status.DRAFT).exists()
    entries = []
    for offset, row in enumerate(checked.rows):
        player_id = row.player_id if row.status == "matched" else next(created).pk
        entries.append(
            Entry(event=event, player_id=player_id, start_number=start + offset, late=late)
        )
    bulk_create_with_history(entries, Entry, default_user=user)
    return len(entries)


# --- results filled in offline ----------------------------------------------------------------

YES = {"ja", "j", "x", "yes", "y", "1", "true", "wahr"}
NO = {"nein", "n", "no", "0", "false", "falsch", ""}
SEAT_FIELDS = {"declarer", "announcer", "bidder", "partner", "claimant", "challenger"}
HEADER_ROWS = 3  # title, players, column names


def _form_class(event: Event) -> type[HandForm]:
    return HAND_FORMS[event.game]


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

    Seats are written as numbers 1, 2, 3 ... (or the player's name); yes/no as ja/nein.
    """
    event = rnd.event
    workbook = Workbook()
    workbook.remove(workbook.active)
    bold = Font(bold=True)
    fill = PatternFill("solid", fgColor="E5E9E0")
    for table, players in _round_tables(rnd):
        ws = workbook.create_sheet(_("Table %(n)s") % {"n": table.number})
        ws.append([f"{event.name} · " + _("Round %(n)s") % {"n": rnd.number}])
        ws.append([_("Players:")] + [f"{i + 1} = {name}" for i, name in enumerate(players)])
        fields = _template_fields(event, table, players)
        ws.append([_("Game")] + [label for _name, label in fields])
        for cell in ws[HEADER_ROWS]:
            cell.font = bold
            cell.fill = fill
        ws["A1"].font = Font(bold=True, size=13)
        for number in range(1, (event.hands_for(table.size) or 30) + 1):
            ws.append([number])
        ws.freeze_panes = f"B{HEADER_ROWS + 1}"
        for i in range(1, len(fields) + 2):
            ws.column_dimensions[get_column_letter(i)].width = 16
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
    event = rnd.event
    result = ResultImport()
    try:
        workbook = load_workbook(upload, data_only=True)
    except Exception as exc:  # a broken or foreign file
        raise UnreadableFile(_("The file could not be read as an Excel workbook (.xlsx).")) from exc
    sheets = {_key(ws.title): ws for ws in workbook.worksheets}
    form_class = _form_class(event)
    for table, players in _round_tables(rnd):
        ws = sheets.get(_key(_("Table %(n)s") % {"n": table.number}))
        if ws is None:
            result.problems.append(_("The sheet for table %(n)s is missing.") % {"n": table.number})
            continue
        header = [c.value for c in ws[HEADER_ROWS]]
        labels = {str(label): name for name, label in _template_fields(event, table, players)}
        columns = {i: labels[str(h)] for i, h in enumerate(header) if str(h) in labels}
        existing = table.hands.count()
        rows = list(ws.iter_rows(min_row=HEADER_ROWS + 1, values_only=True))
        filled = [r for r in rows if any(v not in (None, "") for v in r[1:])]
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
            continue
        for position, row in enumerate(filled, start=1):
            number = row[0] if isinstance(row[0], int) else position
            probe = form_class(table=table, players=players, every_seat=True)
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
                    f"{form.fields[n].label if n in form.fields else ''}: {' '.join(errs)}".strip(
                        ": "
                    )
                    for n, errs in form.errors.items()
                )
            result.rows.append(item)
    if not result.rows and not result.problems:
        result.problems.append(_("The workbook contains no games."))
    return result


@transaction.atomic
def save_results(rnd: Round, rows: Iterable[dict[str, Any]], user: Any = None) -> int:
    """Record the games of a checked result workbook (``{"table", "hand"}`` per game, in order);
    all or nothing: the engine checks each again, and one refusal saves none."""
    tables = {t.number: t for t in rnd.tables.select_related("round__event")}
    saved = 0
    for row in rows:
        table = tables.get(row.get("table"))
        if table is None:
            raise services.Refused(
                _("Table %(n)s is not part of this round.") % {"n": row.get("table")}
            )
        try:
            services.record_hand(table=table, data=row.get("hand") or {}, user=user)
        except scoring.InvalidHand as exc:
            raise services.Refused(
                _("Nothing was saved: table %(t)s, game %(n)s: %(error)s")
                % {"t": table.number, "n": saved + 1, "error": explain(exc)}
            ) from exc
        saved += 1
    return saved
