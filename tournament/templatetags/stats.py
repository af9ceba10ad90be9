"""Template filters of the statistics pages (issue 16)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

from tournament.core.formatting import signed
from tournament.results.charts import number

register = template.Library()


@register.filter
def average(value: Any) -> str:
    """An average in the reader's language, one decimal where it has any (12,5 in German; 60);
    "—" for none."""
    return "—" if value is None else number(round(value, 1))


@register.filter
def spread_rows(tables: Any) -> SafeString:
    """A round's spread table body, written here rather than by a template loop: 250 tables a
    round at championship size (every value is a whole number, nothing to escape)."""
    return mark_safe(
        "".join(
            f'<tr><th scope="row">{int(t.table)}</th><td class="num">{signed(t.high)}</td>'
            f'<td class="num">{signed(t.low)}</td><td class="num">{int(t.spread)}</td></tr>'
            for t in tables
        )
    )
