"""Form fields and small forms every domain's forms use: a whole number, an amount in euros, a
seat chosen by the player's name, a reason for a change, an upload. No model, no game."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.core.validators import single_line

NONE = ""


INT_MAX = 2**31 - 1  # what every database stores in an integer column


def whole_number(text: Any, high: int = INT_MAX) -> int | None:
    """A plain number typed or sent in a URL (ASCII digits only), or None: "²" or "1e9" or a
    hundred digits are not numbers here."""
    text = str(text or "").strip()
    if not re.fullmatch(r"[0-9]{1,18}", text):
        return None
    value = int(text)
    return value if value <= high else None


UPLOAD_MAX_BYTES = 5 * 1024 * 1024


class UploadForm(forms.Form):
    file = forms.FileField(label=_("File"), help_text=_("Excel (.xlsx) or CSV"))

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > UPLOAD_MAX_BYTES:
            raise forms.ValidationError(_("The file is larger than 5 MB."))
        return upload


REASON_LENGTH = 100  # what the history keeps of a change's reason (simple-history's column)


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=REASON_LENGTH, validators=[single_line])


# --- hand forms -------------------------------------------------------------------------------


def seat_choices(
    players: list[str], blank: str | None = None, without: int | None = None
) -> list[tuple[str, str]]:
    choices = [(str(i), name) for i, name in enumerate(players) if i != without]
    return [(NONE, blank), *choices] if blank is not None else choices


class SeatChoiceField(forms.ChoiceField):
    """A seat chosen by the player's name. A seat that is at the table but may not be chosen for
    this game (the dealer who sits out) is left out of the choices, and sent anyway it is refused
    with its own reason instead of Django's "not one of the available choices"."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.unavailable: dict[str, str] = {}

    def validate(self, value: Any) -> None:
        if value in self.unavailable:
            raise forms.ValidationError(self.unavailable[value], code="unavailable")
        super().validate(value)


# --- prizes, fees and the cash book (issue 17) --------------------------------------------------

EUROS = re.compile(r"(\d{1,7})(?:[.,](\d{1,2}))?")


def cents_of(text: str) -> int | None:
    """ "150", "12,50", "12.5 €" → whole cents; None for anything else (no thousands marks: "1.234"
    would be read differently in German and English)."""
    text = str(text).replace("€", "").replace("\u00a0", "").replace(" ", "")
    match = EUROS.fullmatch(text)
    if match is None:
        return None
    whole, part = match.groups()
    return int(whole) * 100 + int((part or "0").ljust(2, "0"))


class EuroField(forms.CharField):
    """An amount of money typed in euros, cleaned to whole cents (never a float)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 20)
        super().__init__(**kwargs)
        self.widget.attrs.update({"inputmode": "decimal", "size": 8, "autocomplete": "off"})

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, int):
            return f"{value // 100},{value % 100:02d}" if value % 100 else str(value // 100)
        return value

    def clean(self, value: Any) -> int:
        text = super().clean(value)
        if not text:
            return 0
        cents = cents_of(text)
        if cents is None:
            raise forms.ValidationError(
                _("Give an amount in euros, e.g. 150 or 12,50 (no thousands separator).")
            )
        return cents


class LabelledCells:
    """A form shown as one row of a table: each input carries its column's name for screen
    readers (there is no <label> in a table cell)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[call-arg]
        for field in self.fields.values():  # type: ignore[attr-defined]
            field.widget.attrs.setdefault("aria-label", field.label)
