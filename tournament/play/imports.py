"""A round's results filled in offline: the result workbook to print or fill in, read back as
checked games per table, saved in one transaction (a preview first; the same preview confirmed
twice saves once)."""

from __future__ import annotations

import io
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from openpyxl import Workbook

import scoring
from tournament.core import errors
from tournament.core import workbook as core_workbook
from tournament.core.fields import whole_number
from tournament.core.reading import (
    AlreadyImported,
    Budget,
    header_key,
    open_workbook,
    read_bytes,
    sheet_rows,
)
from tournament.games.words import describe_hand, explain
from tournament.models import Event, Hand, Round, Seat, Table
from tournament.play import hands
from tournament.play.forms import HandForm, hand_form_class

GAMES_MAX = 300  # games in one table's sheet of a result workbook
RESULT_COLUMNS_MAX = 60  # a result sheet's columns (Hennes Sibbe at 8 seats has the most)


# --- players ----------------------------------------------------------------------------------


# --- results filled in offline ----------------------------------------------------------------

YES = {"ja", "j", "x", "yes", "y", "1", "true", "wahr"}
NO = {"nein", "n", "no", "0", "false", "falsch", ""}
SEAT_FIELDS = {"declarer", "announcer", "bidder", "partner", "claimant", "challenger"}
HEADER_ROWS = 3  # title, players, column names


def _form_class(event: Event) -> type[HandForm]:
    return hand_form_class(event.game_type)


def _template_fields(event: Event, table: Table, players: list[str]) -> list[tuple[str, str]]:
    form = _form_class(event)(table=table, players=players, every_seat=True)
    return [(f.name, str(f.label)) for f in form.visible_fields()]


def _column_guide(form: HandForm, name: str, players: list[str]) -> tuple[str, list[str]]:
    """What goes into a field's column of the result workbook, as a note on its name, and the
    values its drop-down offers (none: any value), in the words ``_cell_to_form`` reads."""
    field = form.fields[name]
    if name in SEAT_FIELDS:
        numbers = [str(n) for n in range(1, len(players) + 1)]
        note = _(
            "The player's number 1 to %(n)s (row 2 lists them) or the player's name. "
            "Empty where nobody did."
        ) % {"n": len(players)}
        return note, numbers
    if field.widget.input_type == "checkbox":
        return _("%(yes)s or %(no)s (empty: %(no)s).") % {"yes": _("yes"), "no": _("no")}, [
            _("yes"),
            _("no"),
        ]
    choices = [(str(key), str(label)) for key, label in getattr(field, "choices", ())]
    if choices:
        offered = [label for key, label in choices if key != ""]
        note = _("One of: %(values)s.") % {"values": "; ".join(offered)}
        empty = next((label for key, label in choices if key == ""), None)
        if empty is not None and any(c.isalpha() for c in empty):  # not the form's "—"
            note += " " + _("Empty: %(meaning)s.") % {"meaning": empty}
        return note, offered
    if field.widget.input_type == "number":
        note = _("A whole number, as on the paper sheet.")
    else:
        note = _("As on the paper sheet.")
    if field.help_text:
        note += " " + str(field.help_text)
    return note, []


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

    Seats are written as numbers 1, 2, 3 ... (or the player's name); yes/no as ja/nein. Each
    column's name carries a note saying what goes into it, and a column of seats, yes/no or
    choices a drop-down of the values it takes (``_column_guide``). Written like every workbook
    through ``exports.Sheet``: a player's name heads a column (Räuber's card points) and never
    becomes a formula.
    """
    event = rnd.event
    workbook = Workbook(write_only=True)
    title = f"{event.name} · " + _("Round %(n)s") % {"n": rnd.number}
    for table, players in _round_tables(rnd):
        form = _form_class(event)(table=table, players=players, every_seat=True)
        fields = [(f.name, str(f.label)) for f in form.visible_fields()]
        guides = [_column_guide(form, name, players) for name, _label in fields]
        games = event.hands_for(table.size) or 30
        sheet = core_workbook.Sheet(
            workbook,
            _("Table %(n)s") % {"n": table.number},
            [(_("Game"), 16, core_workbook.INTEGER)]
            + [(label, 16, None) for _name, label in fields],
            above=[
                [title],
                [_("Players:")] + [f"{i + 1} = {name}" for i, name in enumerate(players)],
            ],
            freeze_column="B",
            autofilter=False,
            notes=[
                _(
                    "One row per game played, in the order of the paper sheet. Leave the "
                    "rows of games not played empty."
                )
            ]
            + [note for note, _values in guides],
        )
        for column, (_note, values) in enumerate(guides, start=2):
            sheet.offer(
                column,
                values,
                games,
                _("Not one of the values offered: the import will say whether it can read it."),
            )
        for number in range(1, games + 1):
            sheet.append([number])
        sheet.close()
    if not workbook.worksheets:  # a round not drawn yet: a workbook needs a sheet
        core_workbook.Sheet(workbook, _("Round %(n)s") % {"n": rnd.number}, [(title, 40, None)])
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
    # what the preview shows to check against the paper sheet: the game in one line (contract
    # and its inputs, as the table sheet writes it) and each seat's table total after this game
    played: str = ""
    totals: list[int] | None = None

    @property
    def seats(self) -> list[tuple[int, int]]:
        """Each seat's points of this game with its table total after it."""
        return list(zip(self.results or [], self.totals or [], strict=True))


@dataclass
class TablePreview:
    """One table of the preview: its players by seat and its games."""

    number: int
    players: list[str]
    rows: list[ResultRow]


@dataclass
class ResultImport:
    rows: list[ResultRow] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    # signed into the preview's confirm; each game's submission key is derived from it
    key: str = field(default_factory=lambda: uuid.uuid4().hex)
    # each table's players by seat, as the workbook's sheet names them
    players: dict[int, list[str]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return bool(self.rows) and not self.problems and not any(r.error for r in self.rows)

    @property
    def tables(self) -> list[TablePreview]:
        """The games table by table, in the workbook's order."""
        return [
            TablePreview(number, players, [r for r in self.rows if r.table == number])
            for number, players in self.players.items()
            if any(r.table == number for r in self.rows)
        ]

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
        lowered = [header_key(p) for p in players]
        if header_key(text) in lowered:
            return str(lowered.index(header_key(text)))
        return text and f"?{text}"
    if bound.widget.input_type == "checkbox":
        return "on" if header_key(text) in YES else ""
    choices = getattr(bound, "choices", None)
    if choices:
        keys = [str(key) for key, _label in choices]
        for key, label in choices:
            if header_key(text) in (header_key(key), header_key(label)):
                return str(key)
        # yes/no questions answered in the sheet's words (ja, nein, x)
        if "yes" in keys and header_key(text) in YES:
            return "yes"
        if "no" in keys and text and header_key(text) in NO:
            return "no"
    return text


def read_results(rnd: Round, upload: IO[bytes]) -> ResultImport:
    """Check an uploaded result workbook as typed entry would be checked; nothing is saved."""
    result = ResultImport()
    budget = Budget()
    workbook = open_workbook(read_bytes(upload), budget)
    try:
        sheets = {header_key(ws.title): ws for ws in workbook.worksheets}
        for table, players in _round_tables(rnd):
            ws = sheets.get(header_key(_("Table %(n)s") % {"n": table.number}))
            if ws is None:
                result.problems.append(
                    _("The sheet for table %(n)s is missing.") % {"n": table.number}
                )
                continue
            rows = dict(
                sheet_rows(
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
        labels[core_workbook.text(str(label))] = name
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
    result.players[table.number] = players
    running = [0] * len(players)
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
            item.played = describe_hand(event.game, form.hand, players)
            running = [a + b for a, b in zip(running, form.result, strict=True)]
            item.totals = running
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
            raise errors.Refused(
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
        raise errors.Refused(
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
            hands.record_hand(
                table=table, data=row.get("hand") or {}, user=user, submission_key=game_key
            )
        except scoring.InvalidHand as exc:
            raise errors.Refused(
                _("Nothing was saved: table %(t)s, game %(n)s: %(error)s")
                % {"t": table.number, "n": saved + 1, "error": explain(exc)}
            ) from exc
        saved += 1
    return saved
