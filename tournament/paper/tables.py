"""django-tables2 declarations for standings and lists (imported as ``tables``: a card table is a
``models.Table``).

django-tables2 declares the columns, sorts and paginates; the rows of the body are written here in
Python (:class:`RowsInPython`, template ``django_tables2/rows.html``): the library's own template
does per cell what is the same for every row of a column (the cell's attributes, the accessor, the
render method's signature), which made the sortable page with 1,000 rows take a second.
"""

from __future__ import annotations

import html
import itertools
from collections.abc import Callable
from typing import Any

import django_tables2 as tables
from django.conf import settings
from django.db import models
from django.template.base import render_value_in_context
from django.template.context import Context
from django.urls import reverse
from django.utils.formats import localize
from django.utils.functional import cached_property
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.translation import gettext_lazy as _
from django_tables2.columns import BoundColumn, ManyToManyColumn
from django_tables2.columns.linkcolumn import BaseLinkColumn
from django_tables2.data import TableListData
from django_tables2.rows import BoundRow
from django_tables2.utils import A, AttributeDict, OrderByTuple, signature

from tournament.core.formatting import VOID, signed
from tournament.games.base import Figure, GameType
from tournament.models import Entry, Event, Round
from tournament.results.standings import place_text

# what a cell's render method may ask for (django-tables2's names), besides the row itself
CELL_ARGUMENTS = ("value", "record", "column", "bound_column", "table")
ROWS_TEMPLATE = "django_tables2/rows.html"
PLAIN = Context()  # how {{ cell }} writes a value: localized, escaped unless safe


def _static(attrs: dict[str, Any]) -> bool:
    return not any(callable(value) or isinstance(value, dict) for value in attrs.values())


class _Cell:
    """How one column writes its cells, worked out once per table: the ``<td>`` with its
    attributes, the value's accessor and which arguments the render method takes. A column this
    cannot do the same way as django-tables2's template (attributes computed per record, links,
    many-to-many, choices shown by their display text) is written cell by cell through
    django-tables2 itself."""

    def __init__(self, bound_column: BoundColumn, sample: Any) -> None:
        self.bound_column = bound_column
        column = bound_column.column
        td = bound_column.attrs["td"]
        declared = {**bound_column._table.attrs, **column.attrs}
        declared_td = declared.get("td", declared.get("cell", {}))
        self.by_library = (
            not _static(declared_td)
            or bool(bound_column.link)
            or isinstance(column, (BaseLinkColumn, ManyToManyColumn))
            or self._shows_choices(bound_column, sample)
        )
        self.start = format_html("<td {}>", td.as_html())
        self.accessor = A(bound_column.accessor)
        self.bits = self.accessor.bits
        self.empty = column.empty_values
        self.default = bound_column.default
        self.render = bound_column.render
        names, catch_all = signature(bound_column.render)
        self.wants = CELL_ARGUMENTS if catch_all else tuple(n for n in names if n != "bound_row")
        self.wants_row = bool(catch_all) or "bound_row" in names
        self.missing = not catch_all and any(
            n not in CELL_ARGUMENTS and n != "bound_row" for n in names
        )
        self.localize = column.localize
        # the plain Column.render gives the value back: no call needed
        self.identity = getattr(self.render, "__func__", None) is tables.Column.render

    @staticmethod
    def _shows_choices(bound_column: BoundColumn, sample: Any) -> bool:
        if sample is None or isinstance(sample, dict):
            return False
        path, _sep, _last = A(bound_column.accessor).rpartition(A.SEPARATOR)
        owner = A(path).resolve(sample, quiet=True) if path else sample
        if not isinstance(owner, models.Model):
            return False
        field = A(bound_column.accessor).get_field(sample)
        return bool(getattr(field, "choices", None))

    def value_of(self, record: Any) -> Any:
        if isinstance(record, dict) and self.accessor in record:
            return record[self.accessor]
        try:
            current = record
            for bit in self.bits:
                current = getattr(current, bit)
                if callable(current):
                    return self.accessor.resolve(record)
            return current
        except Exception:  # as django-tables2: anything not found is empty
            try:
                return self.accessor.resolve(record)
            except Exception:
                return None

    def html(self, record: Any, row: BoundRow) -> str:
        if self.by_library:
            content = row.get_cell(self.bound_column.name)
            self.bound_column.current_value = content
            self.bound_column.current_record = record
            start = format_html("<td {}>", self.bound_column.attrs["td"].as_html())
            return f"{start}{self._written(content)}</td>"
        value = self.value_of(record)
        if value in self.empty:
            content = self.default
        elif self.missing:
            content = None  # as django-tables2: a render method it cannot call gives None
        elif self.identity:
            content = value
        elif self.wants == ("value",):
            content = self.render(value=value)
        else:
            arguments = {
                "value": value,
                "record": record,
                "column": self.bound_column.column,
                "bound_column": self.bound_column,
                "table": self.bound_column._table,
            }
            kwargs = {name: arguments[name] for name in self.wants}
            if self.wants_row:
                kwargs["bound_row"] = row
            content = self.render(**kwargs)
        return f"{self.start}{self._written(content)}</td>"

    def _written(self, content: Any) -> str:
        """The cell's content as ``{{ cell }}`` (or its ``localize`` filters) writes it."""
        if self.localize is None:
            kind = type(content)
            if isinstance(content, SafeData):
                return content
            if kind is str:
                return html.escape(content)
            if kind is int and not settings.USE_THOUSAND_SEPARATOR:
                return str(content)
            return render_value_in_context(content, PLAIN)
        if self.localize:
            return conditional_escape(localize(content, use_l10n=True))
        return conditional_escape(localize(content, use_l10n=False))


class RowsInPython:
    """A django-tables2 table whose body rows are written in Python (see the module docstring):
    the same rows, classes and cells as the library's template, without per-cell template work.
    The header, pagination and empty text stay in the template; a table's ``Meta`` names it:
    ``template_name = ROWS_TEMPLATE``."""

    # the column the rows usually arrive sorted by (the standings, by rank: ranks shared, names in
    # German order within a rank): asked for that order, rows that are in it already are kept as
    # they are (what django-tables2's stable sort would give) instead of sorted again through its
    # accessors, a few milliseconds for 1,000 rows
    arrives_sorted_by = ""

    @property
    def order_by(self) -> Any:
        return tables.Table.order_by.fget(self)  # type: ignore[attr-defined]

    @order_by.setter
    def order_by(self, value: Any) -> None:
        wanted = value.split(",") if isinstance(value, str) else list(value or ())
        column = self.arrives_sorted_by
        if column and [str(alias) for alias in wanted] == [column] and self._in_order(column):
            self._order_by = OrderByTuple([column])
            return
        tables.Table.order_by.fset(self, value)  # type: ignore[attr-defined]

    def _in_order(self, column: str) -> bool:
        data: Any = self.data  # type: ignore[attr-defined]
        if not isinstance(data, TableListData):
            return False
        values = [
            row.get(column) if isinstance(row, dict) else getattr(row, column, None)
            for row in data.data
        ]
        try:
            return all(a <= b for a, b in itertools.pairwise(values))
        except TypeError:  # a row without a value there
            return False

    def body_html(self) -> SafeString:
        table: Any = self
        rows = table.paginated_rows
        records = list(rows)
        sample = records[0].record if records else None
        cells = [_Cell(column, sample) for column in table.columns]
        row_attrs = _row_attrs(table)
        parts = []
        for row in records:
            record = row.record
            attrs = row_attrs(record)
            even_odd = row.get_even_odd_css_class()
            attrs["class"] = f"{attrs['class']} {even_odd}" if attrs.get("class") else even_odd
            parts.append(f"<tr {_attributes(attrs)}>")
            parts.extend(cell.html(record, row) for cell in cells)
            parts.append("</tr>")
        return mark_safe("".join(parts))  # every part is escaped above


def _attributes(attrs: dict[str, Any]) -> str:
    """``AttributeDict(attrs).as_html()`` without its format_html_join per row."""
    written = []
    for key, value in attrs.items():
        value = value() if callable(value) else value
        if key not in AttributeDict.blacklist and value is not None:
            written.append(f'{conditional_escape(key)}="{conditional_escape(value)}"')
    return " ".join(written)


def _row_attrs(table: Any) -> Callable[[Any], dict[str, Any]]:
    """The table's ``row_attrs`` for a record, each callable's signature read once."""
    plain = {k: v for k, v in table.row_attrs.items() if not callable(v)}
    computed = []
    for key, function in table.row_attrs.items():
        if callable(function):
            names, catch_all = signature(function)
            computed.append((key, function, names, catch_all))

    def attrs(record: Any) -> dict[str, Any]:
        values = dict(plain)
        arguments = {"table": table, "record": record}
        for key, function, names, catch_all in computed:
            if catch_all:
                values[key] = function(**arguments)
            elif all(name in arguments for name in names):
                values[key] = function(**{name: arguments[name] for name in names})
            else:
                values[key] = None
        return values

    return attrs


class SignedColumn(tables.Column):
    """A score column: right-aligned, plus or minus as on the sheet."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("attrs", {"td": {"class": "num"}, "th": {"class": "num"}})
        super().__init__(*args, **kwargs)

    def render(self, value: Any) -> str:
        return signed(value)

    def value(self, value: Any) -> Any:
        return value


class RoundColumn(SignedColumn):
    """A player's result in one round; "—" where their table's round is voided (it counts
    nothing, which is not a result of 0). The table's ``voided`` maps round numbers to entry ids."""

    def __init__(self, number: int, **kwargs: Any) -> None:
        self.number = number
        super().__init__(**kwargs)

    def render(self, value: Any, record: Any = None, table: Any = None) -> str:  # type: ignore[override]
        voided = getattr(table, "voided", {}) or {}
        if value is None or (record is not None and record.pk in voided.get(self.number, ())):
            return VOID  # a round not played, or voided
        return signed(value)


class NumberColumn(tables.Column):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("attrs", {"td": {"class": "num"}, "th": {"class": "num"}})
        super().__init__(*args, **kwargs)


class FigureColumn(NumberColumn):
    """A game's standings figure (tournament.games): signed where it is a change, and the total
    as the game shows it (Crazy Solo: chips held, the start balance plus every result)."""

    def __init__(self, game: GameType, figure: Figure, rules: dict[str, Any]) -> None:
        self.game, self.figure, self.rules = game, figure, rules
        attrs = DETAIL if figure.detail else {"td": {"class": "num"}, "th": {"class": "num"}}
        super().__init__(verbose_name=figure.heading, accessor=figure.name, attrs=attrs)

    def shown(self, value: Any) -> int:
        if self.figure.name == "total":
            return self.game.shown_total(int(value), self.rules)
        return int(value)

    def render(self, value: Any) -> str:
        return self.figure.text(self.shown(value))

    def value(self, value: Any) -> int:
        return self.shown(value)


class _PlayerPage:
    """The player page's address up to the player's identifier, reversed once per process: a
    ``reverse()`` per row of a 1,000-row standings costs as much as the rest of the row."""

    @cached_property
    def prefix(self) -> str:
        marker = "00000000-0000-0000-0000-000000000000"
        return reverse("player", args=[marker]).removesuffix(f"{marker}/")


PLAYER_PAGE = _PlayerPage()


def player_link(uid: Any, name: str) -> str:
    """A player's name (escaped here) as a link to their page."""
    return f'<a href="{PLAYER_PAGE.prefix}{uid}/">{html.escape(name)}</a>'


# a phone shows the figures that rank; the sums they are made of are on the wider screens and on
# paper
DETAIL = {"td": {"class": "num detail"}, "th": {"class": "num detail"}}


class StandingsTable(RowsInPython, tables.Table):
    arrives_sorted_by = "rank"

    rank = tables.Column(verbose_name=_("Rank"), attrs={"td": {"class": "num rank"}})
    start_number = NumberColumn(
        verbose_name=_("No."), attrs={"td": {"class": "num no"}, "th": {"class": "num no"}}
    )
    # rows are a list (``standings.named_rows``): the name sorts by its German collation key
    name = tables.Column(verbose_name=_("Name"), accessor="player__last_name", order_by="name_key")
    club = tables.Column(verbose_name=_("Club"), accessor="player__club")
    total = SignedColumn(verbose_name=_("Total"))

    class Meta:
        model = Entry
        fields: tuple[str, ...] = ()
        sequence = ("rank", "start_number", "name", "club", "...", "total")
        order_by = ("rank",)
        attrs = {"class": "standings"}
        row_attrs = {"class": lambda record: "withdrawn" if not record.is_active else ""}
        empty_text = _("Nobody has played yet.")
        template_name = ROWS_TEMPLATE

    def __init__(
        self,
        *args: Any,
        provisional: set[int] | None = None,
        voided: dict[int, set[int]] | None = None,
        **kwargs: Any,
    ) -> None:
        self.provisional = provisional or set()
        self.voided = voided or {}
        super().__init__(*args, **kwargs)

    @cached_property
    def name_tags(self) -> dict[str, str]:
        """The marks after a name, translated once per table (in the language of the request)."""
        return {
            "provisional": format_html(
                ' <span class="tag provisional" title="{}">*</span>',
                _("includes results not yet confirmed by the table"),
            ),
            "withdrawn": format_html(' <span class="tag">{}</span>', _("withdrawn")),
            "last": format_html(' <span class="tag last">{}</span>', _("last place")),
        }

    def render_rank(self, record: Entry) -> str:
        """The place, with "(by lot)" where a draw by lot decided it."""
        return place_text(record)

    def render_name(self, record: Entry) -> SafeString:
        player = record.player
        name = f"{html.escape(player.last_name)}, {html.escape(player.first_name)}"
        text = f'<a href="{PLAYER_PAGE.prefix}{player.uid}/">{name}</a>'
        if record.pk in self.provisional:
            text += self.name_tags["provisional"]
        if not record.is_active:
            text += self.name_tags["withdrawn"]
        if getattr(record, "is_last", False):
            text += self.name_tags["last"]
        return mark_safe(text)  # the names are escaped, the marks are format_html's


def standings_table(event: Event, data: Any, rounds: list[Round], **kwargs: Any) -> StandingsTable:
    """The standings table of an event: a column per round, then the game's own columns."""
    extra: list[tuple[str, tables.Column]] = [
        (
            f"round_{r.number}",
            RoundColumn(
                r.number,
                verbose_name=_("R%(n)s") % {"n": r.number},
                accessor=f"round_{r.number}",
                attrs={"td": {"class": "num round"}, "th": {"class": "num round"}},
            ),
        )
        for r in rounds
    ]
    game = event.game_type
    rules = event.full_rules()
    extra += [(figure.name, FigureColumn(game, figure, rules)) for figure in game.columns()]
    exclude = () if game.total_column else ("total",)
    # the figures in the ranking's order, the total among them (not always last)
    sequence = ("rank", "start_number", "name", "club", *(name for name, _column in extra))
    return StandingsTable(data, extra_columns=extra, exclude=exclude, sequence=sequence, **kwargs)


class SeasonEventColumn(SignedColumn):
    """One event's score in the season table, marked where the player withdrew from it; the
    heading of an event still running carries the standings' provisional mark (*)."""

    def __init__(self, event: Event, running: bool = False) -> None:
        self.event_id = event.pk
        self.running = running
        super().__init__(verbose_name=event.name, accessor=f"event_{event.pk}")

    @property
    def header(self) -> Any:
        if not self.running:
            return self.verbose_name
        return format_html(
            '{} <span class="tag provisional" title="{}">*</span>',
            self.verbose_name,
            _("still running"),
        )

    def render(self, value: Any, record: dict[str, Any]) -> str:
        if self.event_id in record.get("withdrawn", ()):
            return format_html('{} <span class="tag">{}</span>', signed(value), _("withdrawn"))
        return signed(value)


class SeasonTable(RowsInPython, tables.Table):
    arrives_sorted_by = "rank"

    rank = tables.Column(verbose_name=_("Rank"), attrs={"td": {"class": "num rank"}})
    name = tables.Column(verbose_name=_("Name"), order_by="name_key")
    club = tables.Column(verbose_name=_("Club"))
    total = SignedColumn(verbose_name=_("Total"))

    def render_name(self, value: str, record: dict[str, Any]) -> SafeString:
        uid = record.get("uid")
        return mark_safe(player_link(uid, value) if uid else html.escape(value))

    class Meta:
        sequence = ("rank", "name", "club", "...", "total")
        order_by = ("rank",)
        attrs = {"class": "standings"}
        empty_text = _("No results in this season yet.")
        template_name = ROWS_TEMPLATE


def season_table(
    events: list[Any], rows: list[dict[str, Any]], running: set[int] | None = None
) -> SeasonTable:
    """The season standings: a column per event, then the sum; ``running`` names the events
    still running (``standings.running_events``), whose columns are marked provisional."""
    running = running or set()
    extra = [(f"event_{e.pk}", SeasonEventColumn(e, e.pk in running)) for e in events]
    return SeasonTable(rows, extra_columns=extra)


class SideTable(RowsInPython, tables.Table):
    rank = tables.Column(verbose_name=_("Rank"), attrs={"td": {"class": "num rank"}})
    name = tables.Column(verbose_name=_("Team"))
    members = tables.Column(verbose_name=_("Players"), orderable=False)
    total = SignedColumn(verbose_name=_("Total"))

    class Meta:
        attrs = {"class": "standings"}
        empty_text = _("No teams registered.")
        template_name = ROWS_TEMPLATE
