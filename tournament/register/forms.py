"""Forms of registration: a player, a player registered for an event (with the likely known
players: one person, one player), a fixed pair."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.core.fields import REASON_LENGTH
from tournament.core.names import NameIndex
from tournament.core.validators import single_line
from tournament.models import Consent, Entry, EntryFee, Event, Player
from tournament.register.services import ANONYMISED_BECAUSE, PLAYER_FIELDS


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = list(PLAYER_FIELDS)

    def values(self) -> dict[str, Any]:
        """The validated fields, for ``services.correct_player``."""
        return {name: self.cleaned_data[name] for name in self.Meta.fields}


class AnonymiseForm(forms.Form):
    """The reason a director anonymises a player (the player's request: when, how it came),
    kept in the player's history after the words saying what happened."""

    reason = forms.CharField(
        label=_("Reason"),
        max_length=REASON_LENGTH - len(ANONYMISED_BECAUSE),
        validators=[single_line],
    )


class ConsentForm(forms.ModelForm):
    """A consent as the player states it now, at the desk or by mail (issue 46): the boxes ticked
    are what it covers, none ticked is a withdrawal (a consent that covers nothing). Recorded as
    given at the desk, now, in the words of ``Consent.WORDING``; the note says how it came."""

    reason = forms.CharField(
        label=_("Reason"),
        max_length=REASON_LENGTH,
        validators=[single_line],
        help_text=_("How the player said it, e.g. at the desk, or by e-mail of 3 May."),
    )

    class Meta:
        model = Consent
        fields = ["lists", "season_site", "town", "by_guardian"]
        # the desk's words for the same boxes (``RegisterForm``)
        labels = {
            "lists": _("name and club in the event's public lists"),
            "season_site": _("on the season's published website"),
            "town": _("town on the player page"),
            "by_guardian": _("given by a parent or guardian (a player under 16)"),
        }

    def __init__(
        self, *args: Any, player: Player, current: Consent | None = None, **kwargs: Any
    ) -> None:
        # the boxes start as the consent that counts now: a change unticks or ticks one box
        # (not who gave it: a grown player's own word is not a guardian's)
        if current is not None:
            kwargs.setdefault(
                "initial",
                {name: getattr(current, name) for name in ("lists", "season_site", "town")},
            )
        consent = Consent(
            player=player,
            wording=Consent.WORDING,
            via=Consent.Via.DESK,
            given_at=timezone.now(),
        )
        # on the player's page beside the player form, whose town is another field
        kwargs.setdefault("prefix", "consent")
        super().__init__(*args, instance=consent, **kwargs)


class RegisterForm(forms.Form):
    """Register an existing player, or a new one by name.

    A new name that is probably a known player's (same name, or a close spelling: Maier/Meier,
    Schäuble/Schaeuble) is not created silently: the form shows the known players with club and
    town and asks whether it is the same person (``same_person``: a player's id, or ``new``).
    """

    NEW = "new"

    player = forms.ModelChoiceField(
        queryset=Player.objects.all(), required=False, label=_("Known player")
    )
    first_name = forms.CharField(
        label=_("first name"), max_length=100, required=False, validators=[single_line]
    )
    last_name = forms.CharField(
        label=_("last name"), max_length=100, required=False, validators=[single_line]
    )
    club = forms.CharField(
        label=_("club"), max_length=150, required=False, validators=[single_line]
    )
    town = forms.CharField(
        label=_("town"), max_length=150, required=False, validators=[single_line]
    )
    category = forms.ChoiceField(
        label=_("category"), choices=Player.Category.choices, required=False
    )
    team = forms.CharField(
        label=_("Team of four"),
        max_length=150,
        required=False,
        validators=[single_line],
        help_text=_("For the team ranking: the team's name (created with its first member)."),
    )
    same_person = forms.CharField(required=False, max_length=20)
    # the fee taken at the desk with the registration (issue 17; ``money.register_entry``)
    fee = forms.ChoiceField(
        label=_("entry fee"), choices=EntryFee.Status.choices, required=False, initial="open"
    )
    # the consent the player gives the desk, as far as the player says (issue 46): none ticked
    # records none, and the public pages name the player by a neutral label
    consent_lists = forms.BooleanField(
        required=False, label=_("name and club in the event's public lists")
    )
    consent_season = forms.BooleanField(
        required=False, label=_("on the season's published website")
    )
    consent_town = forms.BooleanField(required=False, label=_("town on the player page"))
    # a junior under 16 at the desk: the parent or guardian beside them gives it (DSGVO Art. 8)
    consent_guardian = forms.BooleanField(
        required=False, label=_("given by a parent or guardian (a player under 16)")
    )

    def __init__(self, *args: Any, event: Event | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.event = event
        self.candidates: list[Player] = []
        # two people of one name are told apart by club and town
        self.fields["player"].label_from_instance = described  # type: ignore[attr-defined]
        if event is not None:  # who is registered already is no choice any more
            self.fields["player"].queryset = Player.objects.exclude(entries__event=event)
            self.fields["player"].error_messages["invalid_choice"] = _(
                "This player can no longer be chosen: registered for this event already, or "
                "merged into another player meanwhile. Choose again from the list."
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("player"):
            return data
        if self.has_error("first_name") or self.has_error("last_name"):
            return data  # the name field says what is wrong with it
        first, last = (data.get("first_name") or "").strip(), (data.get("last_name") or "").strip()
        if not (first and last):
            raise forms.ValidationError(
                _("Choose a known player, or give the first and last name of a new one.")
            )
        self.candidates = likely_players(first, last, event=self.event)
        answer = data.get("same_person") or ""
        if not self.candidates or answer == self.NEW:
            return data
        chosen = next((p for p in self.candidates if str(p.pk) == answer), None)
        if chosen is None:
            raise forms.ValidationError(
                _(
                    "A player with this name or a very similar one is already known. "
                    "Is it the same person? Choose below."
                ),
                code="duplicate",
            )
        data["player"] = chosen
        return data

    def get_player(self) -> Player:
        """The player chosen, or a new one, not saved: ``services.register_player`` creates it
        with the entry."""
        data = self.cleaned_data
        if data.get("player"):
            return data["player"]
        return Player(
            first_name=data["first_name"].strip(),
            last_name=data["last_name"].strip(),
            club=data.get("club", "").strip(),
            town=data.get("town", "").strip(),
            category=data.get("category", ""),
        )

    def consent_given(self) -> Consent | None:
        """The consent the desk ticked, now, not saved yet; None when none of what it covers is
        ticked (the guardian's box alone records nothing)."""
        data = self.cleaned_data
        ticked = [data.get(f"consent_{name}") for name in ("lists", "season", "town")]
        if not any(ticked):
            return None
        lists, season_site, town = (bool(t) for t in ticked)
        return Consent(
            lists=lists,
            season_site=season_site,
            town=town,
            by_guardian=bool(data.get("consent_guardian")),
            wording=Consent.WORDING,
            via=Consent.Via.DESK,
            given_at=timezone.now(),
        )


def described(player: Player) -> str:
    """A player as a list of choices shows them: name, club, town."""
    return " · ".join(x for x in (player.sort_name, player.club, player.town) if x)


def likely_players(first_name: str, last_name: str, *, event: Event | None = None) -> list[Player]:
    """Known players whose name is probably this one, each marked ``registered`` when already
    entered in ``event``. Two queries (every player's name is compared in Python: a few
    thousand short rows)."""
    index = NameIndex(
        (p.first_name, p.last_name, p)
        for p in Player.objects.only("pk", "first_name", "last_name", "club", "town")
    )
    found = index.find(first_name, last_name)
    registered: set[int] = set()
    if event is not None and found:
        registered = set(
            Entry.objects.filter(event=event, player__in=found).values_list("player_id", flat=True)
        )
    for player in found:
        player.registered = player.pk in registered
    return found


class OnlineRegistrationForm(PlayerForm):
    """The public form: who registers (the register's own fields), with the consents it asks
    (stored as given, ``consent_given``). It never binds the registration to a known player, nor
    shows who is known: the public has nothing that proves a person is a known player. A
    registration under a name the register knows waits for the desk, which sees the person
    (``online.register_online``, ``checkin.check_in``).

    The register keeps no birth date, so the form asks whether the player is under 16; a player
    under 16 registers only with the box of a parent or guardian ticked (DSGVO Art. 8)."""

    # the words of these boxes are ``Consent.WORDING``: a change of them is a new version there
    consent = forms.BooleanField(
        label=_(
            "I agree that my name and club are shown in the event's published lists "
            "(participants, standings)."
        ),
        error_messages={"required": _("Without this consent we cannot register you.")},
    )
    consent_season = forms.BooleanField(
        required=False,
        label=_("My name, club and results may also be shown on the season's published website."),
    )
    consent_town = forms.BooleanField(
        required=False, label=_("My town may be shown with my name on my player page.")
    )
    under_16 = forms.BooleanField(required=False, label=_("I am under 16."))
    guardian = forms.BooleanField(
        required=False,
        label=_(
            "I am a parent or guardian of the player under 16 and agree to this registration "
            "and to the consents above."
        ),
    )
    submission = forms.UUIDField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial["submission"] = uuid.uuid4()

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("under_16") and not data.get("guardian"):
            self.add_error(
                "guardian",
                _("A player under 16 registers only with a parent's or guardian's consent."),
            )
        return data

    def get_player(self) -> Player:
        """The person as typed: a player not saved yet."""
        return self.instance

    def consent_given(self) -> Consent:
        """The consent as ticked, now, not saved yet (its player is saved with the entry)."""
        data = self.cleaned_data
        return Consent(
            lists=data["consent"],
            season_site=data["consent_season"],
            town=data["consent_town"],
            by_guardian=data["under_16"],
            wording=Consent.WORDING,
            via=Consent.Via.ONLINE,
            given_at=timezone.now(),
        )


class PairForm(forms.Form):
    """Ziege with fixed pairs: two registered players who always sit opposite."""

    first = forms.ModelChoiceField(queryset=Entry.objects.none(), label=_("Player"))
    second = forms.ModelChoiceField(queryset=Entry.objects.none(), label=_("partner"))
    name = forms.CharField(
        label=_("Pair name"), max_length=150, required=False, validators=[single_line]
    )

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        unpaired = Entry.objects.filter(event=event, pair__isnull=True).select_related("player")
        self.fields["first"].queryset = unpaired
        self.fields["second"].queryset = unpaired
