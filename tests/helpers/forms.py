"""What a browser sends: the POST of a form as rendered or as a page shows it, and the posts the
tests send to the event, register and table forms."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

from django import forms
from django.http import HttpResponse

from tournament.play.forms import EventForm
from tournament.register.forms import RegisterForm


def as_browser_sends(form: forms.Form) -> dict[str, str]:
    """The POST a browser sends for a form left as rendered: every field with its initial value,
    an unticked checkbox left out (the event form keeps every game's settings in the page)."""
    data = {}
    for field in form:
        value = field.value()
        if isinstance(field.field, forms.BooleanField):
            if value:
                data[field.html_name] = "on"
        else:
            data[field.html_name] = "" if value is None else str(value)
    return data


class _FormReader(HTMLParser):
    """The fields of one form of a page, as a browser sends it left as shown."""

    def __init__(self, form_id: str) -> None:
        super().__init__(convert_charrefs=True)
        self.form_id, self.inside, self.select, self.textarea = form_id, False, None, None
        self.templates = 0  # inside a <template>: not part of the form as sent
        self.data: dict[str, str] = {}
        self.first_option: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "template":
            self.templates += 1
        if tag == "form":
            self.inside = a.get("id") == self.form_id
        elif not self.inside or self.templates:
            return
        elif tag == "input" and a.get("name"):
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.data[a["name"]] = a.get("value", "on")
            elif kind not in ("submit", "button"):
                self.data[a["name"]] = a.get("value", "")
        elif tag == "select":
            self.select = a.get("name")
        elif tag == "option" and self.select:
            self.first_option.setdefault(self.select, a.get("value", ""))
            if "selected" in a:
                self.data[self.select] = a.get("value", "")
        elif tag == "textarea":
            self.textarea = a.get("name")
            self.data[self.textarea] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "template":
            self.templates -= 1
        elif tag == "form":
            self.inside = False
        elif tag == "select":
            if self.select and self.select not in self.data:
                self.data[self.select] = self.first_option.get(self.select, "")
            self.select = None
        elif tag == "textarea":
            self.textarea = None

    def handle_data(self, data: str) -> None:
        if self.textarea:
            self.data[self.textarea] += data


def form_as_shown(page: HttpResponse | str, form_id: str) -> dict[str, str]:
    """What a browser sends for the form ``form_id`` of a page left as the page shows it (read
    from the HTML, not from the view's form: its hidden one-time key and token as rendered);
    the inputs of ``<template>``s inside it are not part of it."""
    text = page if isinstance(page, str) else page.content.decode()
    reader = _FormReader(form_id)
    reader.feed(text)
    return reader.data


def event_post(**fields: str) -> dict[str, str]:
    return {
        **as_browser_sends(EventForm()),
        "name": "Herbstturnier",
        "date": "2026-10-03",
        **fields,
    }


def register_post(**fields: str) -> dict[str, str]:
    return {**as_browser_sends(RegisterForm()), **fields}


HUGE = str(10**30)


# Cego, Halbe, declarer in seat 0 with 34 card points: lost, RULES.md 7 gives [−60, +20, +20, +20]
HALBE_LOST = {"contract": "halbe", "declarer": "0", "declarer_points": "34"}


HALBE_LOST_RESULTS = [-60, 20, 20, 20]


def cego_post(**fields: Any) -> dict[str, Any]:
    return {**HALBE_LOST, "action": "save", **fields}
