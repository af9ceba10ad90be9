"""django-tables2 declarations for standings and lists (imported as ``tables``: a card table is a
``models.Table``)."""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from .formatting import VOID, signed
from .games.base import Figure, GameType
from .models import Entry, Event, Round


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
        if record is not None and record.pk in voided.get(self.number, ()):
            return VOID
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


# a phone shows the figures that rank; the sums they are made of are on the wider screens and on
# paper
DETAIL = {"td": {"class": "num detail"}, "th": {"class": "num detail"}}


class StandingsTable(tables.Table):
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

    def render_name(self, record: Entry) -> str:
        text = format_html("{}, {}", record.player.last_name, record.player.first_name)
        if record.pk in self.provisional:
            text = format_html(
                '{} <span class="tag provisional" title="{}">*</span>',
                text,
                _("includes results not yet confirmed by the table"),
            )
        if not record.is_active:
            text = format_html('{} <span class="tag">{}</span>', text, _("withdrawn"))
        if getattr(record, "is_last", False):
            text = format_html('{} <span class="tag last">{}</span>', text, _("last place"))
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
    extra += [(figure.name, FigureColumn(game, figure, rules)) for figure in game.figures]
    exclude: tuple[str, ...] = ()
    if game.total_column:
        extra.append(("total", FigureColumn(game, game.total, rules)))
    else:
        exclude = ("total",)
    return StandingsTable(data, extra_columns=extra, exclude=exclude, **kwargs)


class SeasonEventColumn(SignedColumn):
    """One event's score in the season table, marked where the player withdrew from it."""

    def __init__(self, event: Event) -> None:
        self.event_id = event.pk
        super().__init__(verbose_name=event.name, accessor=f"event_{event.pk}")

    def render(self, value: Any, record: dict[str, Any]) -> str:
        if self.event_id in record.get("withdrawn", ()):
            return format_html('{} <span class="tag">{}</span>', signed(value), _("withdrawn"))
        return signed(value)


class SeasonTable(tables.Table):
    rank = tables.Column(verbose_name=_("Rank"), attrs={"td": {"class": "num rank"}})
    name = tables.Column(verbose_name=_("Name"), order_by="name_key")
    club = tables.Column(verbose_name=_("Club"))
    total = SignedColumn(verbose_name=_("Total"))

    class Meta:
        sequence = ("rank", "name", "club", "...", "total")
        order_by = ("rank",)
        attrs = {"class": "standings"}
        empty_text = _("No results in this season yet.")


def season_table(events: list[Any], rows: list[dict[str, Any]]) -> SeasonTable:
    """The season standings: a column per event, then the sum."""
    extra = [(f"event_{e.pk}", SeasonEventColumn(e)) for e in events]
    return SeasonTable(rows, extra_columns=extra)


class SideTable(tables.Table):
    rank = tables.Column(verbose_name=_("Rank"), attrs={"td": {"class": "num rank"}})
    name = tables.Column(verbose_name=_("Team"))
    members = tables.Column(verbose_name=_("Players"), orderable=False)
    total = SignedColumn(verbose_name=_("Total"))

    class Meta:
        attrs = {"class": "standings"}
        empty_text = _("No teams registered.")
