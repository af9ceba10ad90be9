"""The standings tables of the live pages (django-tables2): an event's standings, the season's and
the team ranking, with their columns (the library imported as ``tables``: a card table is a
``models.Table``). The event's standings table takes the standings query itself: django-tables2
sorts it and pages it in the database, so a page reads only the rows it shows. The workbooks and
print pages (``paper``) read the same standings queries without these classes."""

from __future__ import annotations

from html import escape
from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from tournament.core.formatting import VOID, signed
from tournament.games.base import Figure, GameType
from tournament.models import Entry, Event, Round, Seat
from tournament.results import standings
from tournament.results.standings import place_text


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
    """A player's result in one round (the game's round figure: signed where it is a change);
    "—" where their table's round is voided (it counts nothing, which is not a result of 0). The
    table's ``voided`` maps round numbers to entry ids."""

    def __init__(self, number: int, **kwargs: Any) -> None:
        self.number = number
        super().__init__(**kwargs)

    def render(self, value: Any, record: Any = None, table: Any = None) -> str:  # type: ignore[override]
        voided = getattr(table, "voided", {}) or {}
        if value is None or (record is not None and record.pk in voided.get(self.number, ())):
            return VOID  # a round not played, or voided
        game = getattr(table, "game", None)
        return game.round_figure.text(value) if game is not None else signed(value)


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


def _html(value: Any) -> str:
    """A cell's text as HTML: what is marked safe as it is, anything else escaped."""
    return value if isinstance(value, SafeString) else escape(str(value))


NO_PLAYER = "00000000-0000-0000-0000-000000000000"


class PlayerLinks:
    """Players' names as links to their pages, the address reversed once (per table): a
    ``reverse`` per row of a thousand cost as much as the rest of the row."""

    def __init__(self) -> None:
        self.page = reverse("player", args=[NO_PLAYER])

    def __call__(self, uid: Any, name: str) -> SafeString:
        href = self.page.replace(NO_PLAYER, str(uid))
        return mark_safe(f'<a href="{href}">{escape(name)}</a>')  # the name escaped


# a phone shows the figures that rank; the sums they are made of are on the wider screens and on
# paper
DETAIL = {"td": {"class": "num detail"}, "th": {"class": "num detail"}}


class StandingsTable(tables.Table):
    # a rank's players in German name order, as the standings query gives them
    rank = tables.Column(
        verbose_name=_("Rank"),
        attrs={"td": {"class": "num rank"}},
        order_by=("rank", "player__name_key", "start_number"),
    )
    start_number = NumberColumn(
        verbose_name=_("No."), attrs={"td": {"class": "num no"}, "th": {"class": "num no"}}
    )
    name = tables.Column(
        verbose_name=_("Name"), accessor="player__last_name", order_by="player__name_key"
    )
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
        template_name = "tournament/includes/standings_table.html"

    def __init__(
        self,
        *args: Any,
        provisional: set[int] | None = None,
        voided: dict[int, set[int]] | None = None,
        last: tuple[Any, ...] | None = None,
        **kwargs: Any,
    ) -> None:
        self.provisional = provisional or set()
        self.voided = voided or {}
        self.last = last  # what ranks the last place (``EntryQuerySet.last_place``)
        self.player_link = PlayerLinks()
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

    def body(self) -> list[dict[str, Any]]:
        """The rows of the page shown (sorted and sliced by the database), each written as this
        table's columns write their cells, for a plain template (``standings_table.html``):
        django-tables2's own template, or a template loop over the page's cells, costs several
        times as much as a row joined here. Each cell is escaped as Django's ``escape`` does
        (``html.escape``), without its lazy-translation checks per call."""
        columns = [
            (c.name, c.column, c.column.attrs.get("td", {}).get("class", "")) for c in self.columns
        ]
        records = [row.record for row in self.paginated_rows]
        # the round columns of the rows shown, one query for the page (the standings query
        # joins a round's seats only to sort by it)
        seats = Seat.objects.filter(entry_id__in=[r.pk for r in records])
        self.round_figures = seats.round_figures(self.game)
        return [
            {
                "withdrawn": not record.is_active,
                "cells": mark_safe(
                    "".join(
                        f'<td class="{td}">{_html(self._cell(name, column, record))}</td>'
                        for name, column, td in columns
                    )
                ),
            }
            for record in records
        ]

    def _cell(self, name: str, column: tables.Column, entry: Entry) -> Any:
        match name:
            case "rank":
                return self.render_rank(entry)
            case "start_number":
                return entry.start_number
            case "name":
                return self.render_name(entry)
            case "club":
                return entry.player.public_club
        if isinstance(column, RoundColumn):
            return column.render(self.round_figures.get((entry.pk, column.number)), entry, self)
        return column.render(getattr(entry, name))

    def render_name(self, record: Entry) -> SafeString:
        player = record.player
        name = player.public_name(record.start_number, sort=True)
        # a player called by initials has no public page to link to
        if player.has_public_page:
            text = self.player_link(player.uid, name)
        else:
            text = mark_safe(escape(name))  # the name escaped
        if record.pk in self.provisional:
            text += self.name_tags["provisional"]
        if not record.is_active:
            text += self.name_tags["withdrawn"]
        if self.last is not None and standings.is_last(record, self.last, self.game):
            text += self.name_tags["last"]
        return text


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
    table = StandingsTable(data, extra_columns=extra, exclude=exclude, sequence=sequence, **kwargs)
    table.game = game
    return table


class FigureTextColumn(SignedColumn):
    """A column of one standings figure, written as the figure reads (signed where it is a
    change, a count or a holding without a plus)."""

    def __init__(self, figure: Figure, **kwargs: Any) -> None:
        self.figure = figure
        kwargs.setdefault("verbose_name", figure.heading)
        super().__init__(**kwargs)

    def render(self, value: Any) -> str:
        return self.figure.text(value)


class SeasonEventColumn(FigureTextColumn):
    """One event's result in the season table (the game's result figure), marked where the
    player withdrew from it; the heading of an event still running carries the standings'
    provisional mark (*)."""

    def __init__(self, event: Event, figure: Figure, running: bool = False) -> None:
        self.event_id = event.pk
        self.running = running
        super().__init__(figure, verbose_name=event.name, accessor=f"event_{event.pk}")

    @property
    def header(self) -> Any:
        if not self.running:
            return self.verbose_name
        return format_html(
            '{} <span class="tag provisional" title="{}">*</span>',
            self.verbose_name,
            _("still running"),
        )

    def render(self, value: Any, record: dict[str, Any]) -> str:  # type: ignore[override]
        text = self.figure.text(value)
        if self.event_id in record.get("withdrawn", ()):
            return format_html('{} <span class="tag">{}</span>', text, _("withdrawn"))
        return text


class SeasonTable(tables.Table):
    rank = tables.Column(verbose_name=_("Rank"), attrs={"td": {"class": "num rank"}})
    name = tables.Column(verbose_name=_("Name"), order_by="name_key")
    club = tables.Column(verbose_name=_("Club"))
    total = SignedColumn(verbose_name=_("Total"))

    def render_name(self, value: str, record: dict[str, Any]) -> SafeString:
        uid = record.get("uid")
        return self.player_link(uid, value) if uid else value

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.player_link = PlayerLinks()
        super().__init__(*args, **kwargs)

    class Meta:
        sequence = ("rank", "name", "club", "...", "total")
        order_by = ("rank",)
        attrs = {"class": "standings"}
        empty_text = _("No results in this season yet.")


def season_table(
    game: GameType,
    events: list[Any],
    rows: list[dict[str, Any]],
    running: set[int] | None = None,
) -> SeasonTable:
    """The season standings: a column per event with the player's result there (the game's
    result figure), their sum under the figure's heading, then the other figures that decide
    the order (``standings.season_figures``); ``running`` names the events still running
    (``standings.running_events``), whose columns are marked provisional."""
    running = running or set()
    result, *others = standings.season_figures(game)
    extra: list[tuple[str, tables.Column]] = [
        (f"event_{e.pk}", SeasonEventColumn(e, result, e.pk in running)) for e in events
    ]
    extra.append(("total", FigureTextColumn(result, accessor="total")))
    extra += [(f.name, FigureTextColumn(f, accessor=f.name, orderable=False)) for f in others]
    sequence = ("rank", "name", "club", *(name for name, _column in extra))
    return SeasonTable(rows, extra_columns=extra, sequence=sequence)


class SideTable(tables.Table):
    rank = tables.Column(verbose_name=_("Rank"), attrs={"td": {"class": "num rank"}})
    name = tables.Column(verbose_name=_("Team"))
    members = tables.Column(verbose_name=_("Players"), orderable=False)
    total = SignedColumn(verbose_name=_("Total"))

    class Meta:
        attrs = {"class": "standings"}
        empty_text = _("No teams registered.")
