"""Template filters of the statistics pages (issue 16)."""

from __future__ import annotations

from typing import Any

from django import template

from ..charts import number

register = template.Library()


@register.filter
def average(value: Any) -> str:
    """An average with one decimal in the reader's language (12,5 in German); "—" for none."""
    return "—" if value is None else number(value, 1)
