"""The directors' handbook at /hilfe/ (German) and /help/ (English), whatever the language switch
says: the page around it is in the handbook's language too (``tournament.handbook``)."""

from __future__ import annotations

from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.http import require_GET

from tournament import handbook

# the images change with a release, not during a day
IMAGE_MAX_AGE = 3600


@require_GET
def handbook_page(request: HttpRequest, language: str, chapter: str | None = None) -> HttpResponse:
    """A chapter, or the start page (``chapter`` None: the start page has no address of its own
    besides /hilfe/)."""
    book = handbook.of(language)
    found = book.chapter(handbook.INDEX if chapter is None else chapter)
    if found is None or chapter == handbook.INDEX:
        raise Http404("No such chapter in the handbook.")
    before, after = book.neighbours(found)
    other = handbook.of("en" if language == "de" else "de")
    with translation.override(book.language):
        response = render(
            request,
            "tournament/help/chapter.html",
            {
                "book": book,
                "chapter": found,
                "before": before,
                "after": after,
                "other": other,
                "other_chapter": other.chapter(found.slug),
            },
        )
    response["Content-Language"] = book.language
    return response


@require_GET
def handbook_image(request: HttpRequest, language: str, name: str) -> FileResponse:
    book = handbook.BOOKS[language]
    path = handbook.image_path(book, name)
    if path is None:
        raise Http404("No such image in the handbook.")
    response = FileResponse(path.open("rb"), content_type=handbook.IMAGE_TYPES[path.suffix])
    response["Cache-Control"] = f"max-age={IMAGE_MAX_AGE}"
    # an SVG is a document of its own: it may draw, nothing more
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    return response
