"""Forms of money: the prize table and its settings, fee categories, a cash book item."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.core.fields import EuroField, LabelledCells
from tournament.core.validators import single_line
from tournament.models import CashItem, Player, Prize, PrizeSettings


class PrizeForm(LabelledCells, forms.Form):
    """One line of the prize table; a line left empty is skipped."""

    ranking = forms.ChoiceField(label=_("ranking"), choices=Prize.Ranking.choices)
    place = forms.IntegerField(label=_("place"), min_value=1, max_value=1000, required=False)
    amount = EuroField(label=_("money (€)"), required=False)
    goods = forms.CharField(
        label=_("goods"), max_length=200, required=False, validators=[single_line]
    )
    sponsor = forms.CharField(
        label=_("sponsor"), max_length=200, required=False, validators=[single_line]
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not (data.get("amount") or (data.get("goods") or "").strip()):
            data["empty"] = True
            return data
        data["empty"] = False
        if data.get("ranking") == Prize.Ranking.LAST:
            data["place"] = 1
        elif not data.get("place"):
            self.add_error("place", _("Give the place this prize is for."))
        return data

    def values(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "ranking": data["ranking"],
            "place": data["place"],
            "amount_cents": data["amount"],
            "goods": data["goods"].strip(),
            "sponsor": data["sponsor"].strip(),
        }


class PrizeSettingsForm(forms.ModelForm):
    class Meta:
        model = PrizeSettings
        fields = ["several", "every", "goods", "sponsor"]

    def clean_every(self) -> int | None:
        every = self.cleaned_data.get("every")
        if every is not None and not 1 <= every <= 100:
            raise forms.ValidationError(_("Give a number from 1 to 100, or leave it empty."))
        return every


class FeeCategoryForm(LabelledCells, forms.Form):
    pk = forms.IntegerField(widget=forms.HiddenInput, required=False)
    name = forms.CharField(label=_("name"), max_length=100, required=False)
    amount = EuroField(label=_("amount (€)"), required=False)
    player_category = forms.ChoiceField(
        label=_("default for"), choices=Player.Category.choices, required=False
    )

    def clean_name(self) -> str:
        name = self.cleaned_data.get("name", "").strip()
        single_line(name)
        return name

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        # a fee with a name and no amount would be saved as free: the organiser says so with a
        # 0, or clears the name of a suggested fee the event does not charge
        # (the amount as typed: the field cleans a blank one to 0)
        if cleaned.get("name") and not (self["amount"].data or "").strip():
            self.add_error(
                "amount",
                _(
                    "Give the amount of “%(name)s” (0 for a free fee), or clear its name to "
                    "leave it out."
                )
                % {"name": cleaned["name"]},
            )
        return cleaned


class CashItemForm(forms.Form):
    description = forms.CharField(label=_("item"), max_length=200, validators=[single_line])
    direction = forms.ChoiceField(label=_("income or expense"), choices=CashItem.Direction.choices)
    via = forms.ChoiceField(label=_("paid via"), choices=CashItem.Via.choices)
    amount = EuroField(label=_("amount (€)"))

    def clean_amount(self) -> int:
        cents = self.cleaned_data["amount"]
        if not 0 < cents <= 100_000_000:
            raise forms.ValidationError(_("Give an amount above zero."))
        return cents


PrizeFormSet = forms.formset_factory(PrizeForm, extra=0, max_num=300, absolute_max=300)


FeeCategoryFormSet = forms.formset_factory(FeeCategoryForm, extra=0, max_num=30, absolute_max=30)
