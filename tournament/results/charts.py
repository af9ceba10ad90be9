"""Charts for the statistics pages: SVG drawn on the server by pygal, inline in the page.

Why pygal and not matplotlib's SVG backend: pygal writes SVG and nothing else, in pure Python
with one small dependency, and draws a chart in a few milliseconds; matplotlib pulls in numpy and
a font machinery, takes a second to import and writes text as paths unless told otherwise. What
the pages need (lines and bars with translated axis titles and German numbers) pygal does.

Every chart is static: pygal puts a script for its tooltips into each SVG, which is taken out
here, so that the chart reads without JavaScript, prints, and loads nothing from elsewhere (no
CDN: halls often have no internet). The chart is a picture of numbers that the page also writes
in a table below it (for screen readers and for copying), so the SVG is hidden from screen
readers (``aria-hidden``) and the table is the text.

The statistics' own charts are built here too, from the numbers ``player_stats`` and
``event_stats`` count: the contracts declared and won, a player's result per event, a season's
rank and total after each event, and the events' names along an axis and in a chart's table. A
game's plug-in (``games/<game>/stats.py``) asks here for its contracts' chart.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pygal
from django.utils.formats import date_format, number_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from pygal.style import Style

from tournament.core.formatting import MINUS
from tournament.games.base import Figure, GameType
from tournament.models import Event
from tournament.results.counting import ContractLine

# pygal's own script (tooltips, its config as JSON): the chart must read without it
SCRIPT = re.compile(r"<script\b[^>]*>.*?</script>|<script\b[^>]*/>", re.S)
# pygal's comments name its web site: nothing a reader needs, and no address in the page source
COMMENT = re.compile(r"<!--.*?-->", re.S)
WIDTH, HEIGHT = 480, 300
# the plot's share of the width once the axis and its labels are drawn, and a character's width
# at the label font's size: enough to tell whether the labels fit side by side
PLOT_WIDTH = 400
CHAR_WIDTH = 0.62 * 12
SLANT = 40  # degrees

STYLE = Style(
    background="transparent",
    plot_background="#ffffff",
    foreground="#1d2b33",
    foreground_strong="#1d2b33",
    foreground_subtle="#c9cfd2",
    font_family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
    label_font_size=12,
    major_label_font_size=12,
    title_font_size=15,
    legend_font_size=13,
    value_font_size=12,
    colors=("#1f5f8b", "#c2741b", "#2e7d4f", "#9b2d30"),
    opacity="1",
    opacity_hover="1",
    transition="none",
)


def number(value: Any, decimals: int | None = None) -> str:
    """A number as the reader's language writes it (1.350 and 12,5 in German), with the
    typographic minus the pages use; whole numbers without decimals, others with one."""
    if value is None:
        return ""
    if decimals is None:
        decimals = 0 if float(value).is_integer() else 1
    text = number_format(abs(value), decimal_pos=decimals, force_grouping=True)
    return f"{MINUS}{text}" if value < 0 else text


@dataclass
class Chart:
    """A chart and its numbers: ``labels`` along the x axis, one list of values per series."""

    title: str
    x_title: str
    y_title: str
    labels: list[str]
    series: list[tuple[str, list[Any]]] = field(default_factory=list)
    kind: str = "line"  # or "bar"
    # a rank: 1 at the top
    inverted: bool = False
    # the table's first column, where the axis is too short for it (default: the labels)
    names: list[str] | None = None
    # whole numbers on the axis, never 4,2 games or 0,5 players: set for counts and ranks, and
    # taken for any chart whose values are all whole numbers (every result is)
    whole: bool = False
    # how the table writes each series' values, where not as a ``number``: a result as the
    # standings write it (``formatting.signed``, +1030), so the page reads the same above and below
    texts: tuple[Callable[[Any], str], ...] = ()

    def svg(self) -> SafeString:
        return render(self)

    @property
    def rows(self) -> list[tuple[str, list[str]]]:
        """The table below the chart: one row per label, a formatted value per series."""
        texts = [self.texts[n] if n < len(self.texts) else number for n in range(len(self.series))]
        return [
            (
                label,
                [
                    "" if values[i] is None else text(values[i])
                    for text, (_name, values) in zip(texts, self.series, strict=True)
                ],
            )
            for i, label in enumerate(self.names or self.labels)
        ]


def render(chart: Chart) -> SafeString:
    """The chart as an inline SVG element (safe: pygal escapes every text it writes)."""
    kind = pygal.Bar if chart.kind == "bar" else pygal.Line
    slant = SLANT if slanted(chart.labels) else 0
    # long slanted labels take their room from the picture's height, not from the plot's
    longest = max((len(label) for label in chart.labels), default=0) * CHAR_WIDTH
    extra = max(0, round(longest * math.sin(math.radians(slant))) - 60)
    drawn = kind(
        style=STYLE,
        width=WIDTH,
        height=HEIGHT + extra,
        explicit_size=False,
        disable_xml_declaration=True,
        js=(),
        title=None,
        x_title=chart.x_title,
        y_title=chart.y_title,
        show_legend=len(chart.series) > 1,
        legend_at_bottom=True,
        legend_at_bottom_columns=len(chart.series),
        # labels are written whole (a contract's name is its only name on the chart), slanted
        # where they would not fit side by side; pygal widens the margins for them
        x_label_rotation=slant,
        truncate_label=-1,
        inverse_y_axis=chart.inverted,
        value_formatter=number,
        print_values=False,
        show_minor_x_labels=len(chart.labels) <= 16,
        no_data_text="",
        margin=8,
        margin_right=36,
        margin_bottom=16,
        spacing=10,
        dots_size=4,
        tooltip_border_radius=0,
    )
    values = [v for _name, series in chart.series for v in series if v is not None]
    if chart.whole or all(isinstance(v, int) for v in values):
        # bars grow from 0; a rank's axis starts at the best rank shown
        drawn.y_labels = whole_ticks(
            values, from_zero=chart.kind == "bar", least=1 if chart.inverted else None
        )
    drawn.x_labels = chart.labels
    for name, series in chart.series:
        drawn.add(name, list(series))
    text = drawn.render(is_unicode=True)
    text = COMMENT.sub("", SCRIPT.sub("", text))
    # hidden from screen readers: the table below says the same in text
    text = text.replace("<svg ", '<svg aria-hidden="true" focusable="false" ', 1)
    # the picture's own title (pygal writes "Pygal" where it draws none), for the chart seen on
    # its own: saved, opened, or the pointer resting on it; the page writes it above the chart
    text = text.replace("<title>Pygal</title>", f"<title>{escape(chart.title)}</title>", 1)
    return mark_safe(text)  # pygal escapes every text it writes into the SVG, the title is escaped


def slanted(labels: list[str]) -> bool:
    """Whether the x axis' labels must slant: more than four, or one longer than its share of
    the width (Crazy Solo's "Alleingang mit Herz" beside three others)."""
    if len(labels) > 4:
        return True
    return bool(labels) and max(len(label) for label in labels) * CHAR_WIDTH > PLOT_WIDTH / len(
        labels
    )


def whole_ticks(values: list[int], from_zero: bool, least: int | None = None) -> list[int]:
    """Whole-numbered axis labels over ``values``: about six steps of 1, 2 or 5 times a power
    of ten, from the step below the lowest value to the step above the highest (including 0
    for bars, which grow from it; never below ``least``, a rank's 1)."""
    if not values:
        return [0, 1]
    low, high = min(values), max(values)
    if from_zero:
        low, high = min(low, 0), max(high, 0)
    raw = max(1, math.ceil((high - low) / 6))
    power = 10 ** (len(str(raw)) - 1)
    step = next(f * power for f in (1, 2, 5, 10) if f * power >= raw)
    start = low // step * step
    if least is not None:
        start = max(least, start)
    end = -(-high // step) * step
    ticks = list(range(start, end + 1, step))
    return ticks if len(ticks) > 1 else [start, start + step]


# --- the statistics' charts ---------------------------------------------------------------------


def contract_chart(lines: list[ContractLine], x_title: str, game: GameType) -> Chart:
    """The contracts declared and won as bars, titled with the game they were played in."""
    return Chart(
        title=_("%(game)s: contracts declared and won") % {"game": game.name},
        x_title=x_title,
        y_title=_("Games"),
        labels=[line.name for line in lines],
        series=[
            (_("declared"), [line.played for line in lines]),
            (_("won"), [line.won for line in lines]),
        ],
        kind="bar",
        whole=True,
    )


def event_results_chart(
    game: GameType, figure: Figure, events: list[Event], values: list[int], running: list[bool]
) -> Chart:
    """A player's result in each event of one game as bars (the game's projector ``figure``,
    oldest event first), each event in the table marked where it is still ``running``."""
    return Chart(
        title=_("%(game)s: result per event") % {"game": game.name},
        x_title=_("Event"),
        y_title=str(figure.heading),
        labels=axis_labels(events),
        names=[
            event_label(event, running=still) for event, still in zip(events, running, strict=True)
        ],
        series=[(str(figure.heading), list(values))],
        kind="bar",
        texts=(figure.text,),
    )


def season_rank_chart(events: list[Event], ranks: list[int | None]) -> Chart:
    """A player's season rank after each of the season's events (1 at the top)."""
    return Chart(
        title=_("Season rank after each event"),
        x_title=_("Event"),
        y_title=_("Season rank"),
        labels=axis_labels(events),
        series=[(_("Season rank"), list(ranks))],
        inverted=True,
        whole=True,
    )


def season_total_chart(events: list[Event], totals: list[int | None]) -> Chart:
    """A player's season total after each of the season's events."""
    return Chart(
        title=_("Season total after each event"),
        x_title=_("Event"),
        y_title=_("Season total"),
        labels=axis_labels(events),
        series=[(_("Season total"), list(totals))],
    )


def season_course_table(
    events: list[Event],
    *,
    played: list[bool],
    running: list[bool],
    provisional: list[bool],
    ranks: list[int | None],
    totals: list[int | None],
    total_text: Callable[[Any], str],
) -> Chart:
    """Both season charts' numbers in one table, each event named in full and marked as the
    season page marks it (``event_label``); the total written by ``total_text``, as the season
    page writes it."""
    return Chart(
        title=_("Season rank and total after each event"),
        x_title=_("Event"),
        y_title="",
        labels=axis_labels(events),
        names=[
            event_label(event, played=was_played, running=still, provisional=open_)
            for event, was_played, still, open_ in zip(
                events, played, running, provisional, strict=True
            )
        ],
        series=[(_("Season rank"), list(ranks)), (_("Season total"), list(totals))],
        texts=(number, total_text),
    )


def short_label(event: Event) -> str:
    """An event on a chart's axis: its date, short (the table below names it)."""
    return date_format(event.date, "SHORT_DATE_FORMAT")


def axis_labels(events: list[Event]) -> list[str]:
    """Events along a chart's axis: their dates, or their names where two share a date."""
    dates = [short_label(event) for event in events]
    return dates if len(set(dates)) == len(dates) else [event.name for event in events]


def long_label(event: Event) -> str:
    """An event in a chart's table: date and name."""
    return f"{short_label(event)} {event.name}"


def event_label(
    event: Event, *, played: bool = True, running: bool = False, provisional: bool = False
) -> str:
    """An event in a chart's table, saying where the player did not play it, where it is still
    running, and where the season's figures after it are ``provisional`` because they include
    an earlier event still running (as the season page marks them)."""
    label = long_label(event)
    if not played and running:
        return _("%(event)s (not played, still running)") % {"event": label}
    if running:
        return _("%(event)s (still running)") % {"event": label}
    if not played and provisional:
        return _("%(event)s (not played; season figures provisional)") % {"event": label}
    if provisional:
        return _("%(event)s (season figures provisional)") % {"event": label}
    if not played:
        return _("%(event)s (not played)") % {"event": label}
    return label
