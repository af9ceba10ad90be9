"""Template filters of the statistics pages (issue 16)."""

from __future__ import annotations

from typing import Any

from django import template

from ..charts import number

register = template.Library()


@register.filter
def average(value: Any) -> str:
    """An average in the reader's language, one decimal where it has any (12,5 in German; 60);
    "—" for none."""
    return "—" if value is None else number(round(value, 1))
