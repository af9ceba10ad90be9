"""The register: players (one person, one player, across events and seasons) and the identifiers
other installations gave them."""

from __future__ import annotations

import uuid

from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from tournament.core import shown
from tournament.core.collation import stored_name_key
from tournament.core.validators import single_line
from tournament.models.base import audit


class NameKeyField(models.TextField):
    """The player's name as the standings sort it (German order, ``collation.stored_name_key``),
    written from the names whenever the row is saved, as ``auto_now`` writes a time: the
    database orders a rank's players by it, so a page reads only the rows it shows."""

    computed = True  # ``models.bulk`` writes it from the row, too

    def pre_save(self, model_instance: models.Model, add: bool) -> str:
        key = stored_name_key(model_instance.last_name, model_instance.first_name)
        setattr(model_instance, self.attname, key)
        return key


class Player(models.Model):
    class Category(models.TextChoices):
        NONE = "", _("—")
        WOMEN = "damen", _("Women")
        JUNIORS = "jugend", _("Juniors")
        SENIORS = "senioren", _("Seniors")

    first_name = models.CharField(_("first name"), max_length=100, validators=[single_line])
    last_name = models.CharField(_("last name"), max_length=100, validators=[single_line])
    club = models.CharField(_("club"), max_length=150, blank=True, validators=[single_line])
    town = models.CharField(_("town"), max_length=150, blank=True, validators=[single_line])
    category = models.CharField(
        _("category"), max_length=20, choices=Category.choices, blank=True, default=""
    )
    # the player's identity across events, seasons and installations: it travels in event
    # bundles, so that a player registered in two halls is one player in the season (issue 15)
    uid = models.UUIDField(_("identifier"), unique=True, default=uuid.uuid4, editable=False)
    name_key = NameKeyField(default="", editable=False)
    # how far the player's latest recorded consent reaches (issue 46), written with each consent
    # by ``register.services.record_consent``: the public pages read it with the player's name,
    # in the query that reads the name, never a query of their own
    public_lists = models.BooleanField(_("name and club in public lists"), default=False)
    town_shown = models.BooleanField(_("town in public"), default=False)
    public_season = models.BooleanField(_("on the published season website"), default=False)

    # the public_* fields repeat the consents, whose own history says who recorded each
    history = audit(excluded_fields=["name_key", "public_lists", "town_shown", "public_season"])

    class Meta:
        ordering = ["last_name", "first_name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        indexes = [models.Index(fields=["last_name", "first_name"])]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name}"

    def get_absolute_url(self) -> str:
        return reverse("player", args=[self.uid])

    @property
    def sort_name(self) -> str:
        return f"{self.last_name}, {self.first_name}"

    def public_name(self, number: int | None = None, *, sort: bool = False) -> str:
        """The name as public pages write it, as far as the consent reaches (``core.shown``);
        ``number``: the start number the neutral label carries."""
        return shown.name(
            self.first_name,
            self.last_name,
            lists=self.public_lists,
            season=self.public_season,
            number=number,
            sort=sort,
        )

    @property
    def has_public_page(self) -> bool:
        """Whether the player's public page exists, and the public pages link to it: only where
        they may name the player (``core.shown.named``; on the season's website, with the
        consent to the website too). A player they call by initials has no page."""
        return shown.named(self.public_lists, self.public_season)

    @property
    def public_club(self) -> str:
        return shown.club(self.club, lists=self.public_lists, season=self.public_season)

    @property
    def public_town(self) -> str:
        """The town, where the player agreed to it being shown with the name."""
        allowed = self.town_shown and shown.named(self.public_lists, self.public_season)
        return self.town if allowed else ""


class PlayerAlias(models.Model):
    """Another installation's identifier for a player of this one: a director decided at an
    event bundle's import that the bundle's player is this player (``register.identity``), so the
    next bundle from the same laptop finds the player by identifier without asking again."""

    uid = models.UUIDField(_("identifier"), unique=True)
    player = models.ForeignKey(Player, related_name="aliases", on_delete=models.CASCADE)
    decided_by = models.CharField(_("decided by"), max_length=150, blank=True)
    decided_at = models.DateTimeField(_("decided at"), auto_now_add=True)

    class Meta:
        verbose_name = _("player identifier from another installation")
        verbose_name_plural = _("player identifiers from other installations")

    def __str__(self) -> str:
        return f"{self.uid} → {self.player}"


class DistinctPlayers(models.Model):
    """Two players of the same or a similar name whom a director decided are two people ("another
    person" at a player list's import, or at the register), stored with the lower id first: the
    register no longer flags them as probably the same person."""

    first = models.ForeignKey(Player, related_name="+", on_delete=models.CASCADE)
    second = models.ForeignKey(Player, related_name="+", on_delete=models.CASCADE)
    decided_by = models.CharField(_("decided by"), max_length=150, blank=True)
    decided_at = models.DateTimeField(_("decided at"), auto_now_add=True)

    class Meta:
        verbose_name = _("two different people")
        verbose_name_plural = _("two different people")
        constraints = [
            models.UniqueConstraint(fields=["first", "second"], name="distinct_players_once"),
            models.CheckConstraint(
                condition=models.Q(first__lt=models.F("second")), name="distinct_players_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first_id} ≠ {self.second_id}"


class Consent(models.Model):
    """A player's consent as given (issue 46): what it covers, the words agreed to (their
    version), when and how it was given. The latest one counts; an earlier one is kept, as its
    history is. A consent withdrawn is a consent of its own that covers nothing. It travels in
    the event bundles with its identifier, so that it is recorded once in every installation."""

    # the version of the consent's words (the online form's boxes, ``register.forms``): a change
    # of those words is a new version, so that each consent says which words it answered
    WORDING = "2026-12"
    # the consent the online form asked before this record was kept (its words: "name and club
    # are shown in the event's published lists"), as the migration that began the record wrote it
    WORDING_BEFORE = "2026-07"
    # a consent a player list brings (its consent column): given on the club's own form, in its
    # words, which the list does not name
    WORDING_LIST = "list"

    class Via(models.TextChoices):
        ONLINE = "online", _("online registration form")
        # the desk's boxes, and the register's player page (what the player said at the desk,
        # by letter or by e-mail: the note kept with it says which)
        DESK = "desk", _("by the organiser (at the desk, by letter or e-mail)")
        IMPORT = "import", _("player list import")
        BUNDLE = "bundle", _("event bundle")

    uid = models.UUIDField(_("identifier"), unique=True, default=uuid.uuid4, editable=False)
    player = models.ForeignKey(Player, related_name="consents", on_delete=models.CASCADE)
    lists = models.BooleanField(_("name and club in the event's public lists"), default=False)
    town = models.BooleanField(_("town"), default=False)
    season_site = models.BooleanField(_("the published season website"), default=False)
    by_guardian = models.BooleanField(_("given by a parent or guardian"), default=False)
    wording = models.CharField(_("wording version"), max_length=20)
    via = models.CharField(_("given"), max_length=10, choices=Via.choices)
    given_at = models.DateTimeField(_("given at"))

    history = audit()

    class Meta:
        verbose_name = _("consent")
        verbose_name_plural = _("consents")
        indexes = [models.Index(fields=["player", "given_at"])]

    def __str__(self) -> str:
        return f"{self.player_id} {self.given_at:%Y-%m-%d %H:%M} {self.via}"
