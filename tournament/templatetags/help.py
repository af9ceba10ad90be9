"""The handbook's way into every page: the "?" link in the page header, to the section that
documents the page (its URL name in a section's pages line, docs/handbook-format.md), and the
handbook's start page for the menu. Read from the handbook's files, kept per process: no query,
and the same link for every visitor of a page in a language (the page cache keeps pages whole).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournament import handbook

register = template.Library()


def help_url(url_name: str, language: str) -> str | None:
    """Where the "?" link of a page leads in this language, or None if no section documents it."""
    book = handbook.of(language)
    found = book.section_of(url_name)
    if found is None:
        return None
    chapter, section = found
    return f"{book.chapter_url(chapter.slug)}#{section.anchor}"


@register.simple_tag(takes_context=True)
def help_link(context: Any) -> str:
    request = context.get("request")
    match = getattr(request, "resolver_match", None)
    url = help_url(match.url_name, get_language()) if match and match.url_name else None
    if url is None:
        return ""
    label = _("Help for this page")
    return format_html(
        '<a class="help-link no-print" href="{}" aria-label="{}" title="{}">?</a>',
        url,
        label,
        label,
    )


@register.simple_tag
def handbook_url() -> str:
    """The handbook's start page in the language of the page."""
    return reverse(handbook.BOOKS.get(get_language(), handbook.BOOKS["de"]).url_name)


@register.filter
def chapter_url(book: handbook.Handbook, chapter: handbook.Chapter) -> str:
    return book.chapter_url(chapter.slug)
