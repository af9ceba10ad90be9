"""The tournament's data, and the words used for it everywhere in code, templates and tests.

player
    A person across events: first and last name, club, town, optional category (Damen, Jugend, ...).
season
    A series of events whose results are added up, e.g. "Schwarzwaldmeisterschaft 2026/27".
event
    One tournament: a date, a venue, one game, its rule settings (checked by ``scoring``), how
    tables are sized and how many hands a table plays per round.
entry
    A player taking part in one event, with a start number. An entry can come late or withdraw.
team
    Entries grouped at registration: a *pair* of Ziege partners who always sit opposite, or a
    *squad* of four whose totals add up to a side ranking.
round
    A Durchgang: seats are drawn for it, its tables play a fixed number of hands, then it closes.
    Status: draft → seated (drawn) → playing → closed.
table
    The players sitting together for one round. A table's round can be voided by the director: it
    then counts nothing for its players.
seat
    An entry at a table, at a position numbered from 0 in the order of the table sheet (the scoring
    engine's seat number). An entry that sits out a round has a seat without a table.
hand
    One game at a table (a Cego game, a Ziege deal, a Crazy Solo deal, a Hennes Sibbe challenge):
    the hand dict the scoring engine takes, stored as entered. A table in the paper fallback
    instead has one *totals* hand with each player's total for the round.
result
    One seat's result of one hand, as the engine computed it: a rebuildable cache for fast sums
    (``manage.py recompute_scores`` rebuilds it from the hands).
"""

from __future__ import annotations

import secrets
import uuid
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import connection, models
from django.db.models import Q
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from scoring import InvalidHand
from tournament import games
from tournament.core import choices
from tournament.core.addresses import validate_origin
from tournament.core.validators import single_line
from tournament.models.defaults import first_version
from tournament.models.querysets import EntryQuerySet, HandQuerySet, SeatQuerySet


class Audited(models.Model):
    """Fields every history row has besides simple-history's own: who acted when no user was logged
    in (a table link), in words a director can read."""

    history_actor = models.CharField(max_length=150, blank=True)

    class Meta:
        abstract = True


def audit(**options: Any) -> HistoricalRecords:
    return HistoricalRecords(bases=[Audited], **options)


class Versioned(models.Model):
    """A row whose ``version`` every write to what it holds changes (``models.versions``): the
    cached pages' key and ETag. Only ``versions`` writes it, in one UPDATE that adds 1: a save of
    the whole row leaves it alone, so that a row read before another write cannot set it back to
    a number whose cached page shows something else."""

    version = models.PositiveBigIntegerField(default=first_version, editable=False)

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if (
            not self._state.adding
            and kwargs.get("update_fields") is None
            and not kwargs.get("force_insert")
        ):
            kwargs["update_fields"] = [
                f.name
                for f in self._meta.concrete_fields
                if not f.primary_key and f.name != "version"
            ]
        super().save(*args, **kwargs)

    @classmethod
    def from_db(cls, db: Any, field_names: Any, values: Any) -> Any:
        instance = super().from_db(db, field_names, values)
        instance._season_at_load = getattr(instance, "season_id", None)
        return instance


def new_token() -> str:
    """An unguessable table link (about 190 bits)."""
    return secrets.token_urlsafe(24)


# the most games a table plays in one round, for every way of giving it (one bound, issue 11)
HANDS_MAX = 10_000
# the most one point or chip may be worth in a money game: 100 euros (issue 17)
POINT_VALUE_MAX = 10_000


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

    history = audit()

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


def reserved_slugs() -> frozenset[str]:
    """Every literal path segment the site uses under /turnier/ and /saison/ ("neu", "bearbeiten",
    ...): an event or season with one of these as its short name would hide a page, or be hidden
    by one (issue 11)."""
    from django.urls import get_resolver

    words: set[str] = set()
    for pattern in get_resolver().url_patterns:
        route = str(getattr(pattern, "pattern", ""))
        head, _sep, rest = route.partition("/")
        if head in ("turnier", "saison"):
            words |= {part for part in rest.split("/") if part and "<" not in part}
    return frozenset(words)


def check_slug(slug: str) -> None:
    if slug in reserved_slugs():
        raise ValidationError(
            {
                "slug": _(
                    "“%(slug)s” is the name of a page of this site; choose another short name."
                )
                % {"slug": slug}
            }
        )


class Season(Versioned):
    """A season holds the events of one game: their totals are added up, so they must be the same
    kind of number, ranked the same way (issue 10)."""

    name = models.CharField(_("name"), max_length=200, validators=[single_line])
    slug = models.SlugField(_("short name"), unique=True)
    game = models.CharField(_("game"), max_length=20, choices=games.choices, default=games.default)
    best_of = models.PositiveSmallIntegerField(
        _("best results counted"),
        null=True,
        blank=True,
        help_text=_("Count only each player's best N events; empty counts all of them."),
    )

    class Meta:
        ordering = ["-id"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("season", args=[self.slug])

    def clean(self) -> None:
        check_slug(self.slug)
        if self.pk and self.events.exclude(game=self.game).exists():
            raise ValidationError({"game": _("This season already holds events of another game.")})


class Event(Versioned):
    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    TablePolicy = choices.TablePolicy
    Pairing = choices.Pairing

    season = models.ForeignKey(
        Season,
        verbose_name=_("season"),
        related_name="events",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
    )
    name = models.CharField(_("name"), max_length=200, validators=[single_line])
    slug = models.SlugField(_("short name"), unique=True)
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=200, blank=True, validators=[single_line])
    game = models.CharField(_("game"), max_length=20, choices=games.choices, default=games.default)
    rules = models.JSONField(_("rule settings"), default=dict, blank=True)
    table_policy = models.CharField(
        _("table sizes"), max_length=10, choices=TablePolicy.choices, default=TablePolicy.EXACT
    )
    target_table_size = models.PositiveSmallIntegerField(
        _("preferred table size"),
        default=4,
        help_text=_("Only for games played at tables of different sizes."),
    )
    hands_per_round = models.JSONField(
        _("hands per round by table size"),
        default=dict,
        blank=True,
        help_text=_(
            'For example {"4": 24, "5": 25}, or {"*": 24} for every size. Missing sizes '
            "use the game's default."
        ),
    )
    rounds_planned = models.PositiveSmallIntegerField(_("rounds"), default=2)
    pairing = models.CharField(
        _("Ziege partners"), max_length=10, choices=Pairing.choices, default=Pairing.DRAWN
    )
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.REGISTRATION
    )
    # what the QR codes on the table sheets point to (tournament.core.addresses)
    public_url = models.CharField(
        _("address for phones"),
        max_length=200,
        blank=True,
        validators=[validate_origin],
        help_text=_(
            "The address phones in the hall open, printed in the table sheets' QR codes, for "
            "example http://192.168.1.20:8000. Empty: the server's setting DJANGO_PUBLIC_URL "
            "(make serve sets it to this laptop's network address)."
        ),
    )
    # the event's identity across installations: a newer bundle of the same event updates it
    # wherever it was imported, even under another short name (issue 15, tournament.bundles)
    uid = models.UUIDField(_("identifier"), unique=True, default=uuid.uuid4, editable=False)

    # money games (issue 17): what one point or chip is worth, in whole cents; 0 = not played for
    # money. The settlement multiplies exactly (tournament.money.settlement), never through a float.
    point_value_cents = models.PositiveIntegerField(
        _("money per point (cents)"),
        default=0,
        blank=True,  # left empty: 0 (Event.clean)
        validators=[MaxValueValidator(POINT_VALUE_MAX)],
        help_text=_(
            "For games played for money: what one point or chip is worth, in cents (5 = 0.05 €). "
            "0: not a money game."
        ),
    )

    history = audit(excluded_fields=["version"])

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        constraints = [
            models.CheckConstraint(
                condition=Q(target_table_size__gte=3, target_table_size__lte=12),
                name="event_target_table_size_3_to_12",
            ),
            models.CheckConstraint(
                condition=Q(rounds_planned__gte=1), name="event_rounds_at_least_1"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("event", args=[self.slug])

    @property
    def game_type(self) -> games.GameType:
        """The game's plug-in (tournament.games): everything the event's game means."""
        return games.get(self.game)

    def full_rules(self) -> dict[str, Any]:
        """The game's defaults with this event's settings over them."""
        return {**self.game_type.default_rules(), **(self.rules or {})}

    def hands_for(self, size: int) -> int | None:
        """Hands a table of ``size`` plays in a round (None: no fixed number, the time decides)."""
        chosen = self.hands_per_round or {}
        value = chosen.get(str(size), chosen.get("*"))
        if value is not None:
            return int(value)
        return self.game_type.default_hands(size)

    def clean(self) -> None:
        errors: dict[str, Any] = {}
        if self.point_value_cents is None:  # an emptied field: not played for money
            self.point_value_cents = 0
        if self.hands_per_round is None:  # an emptied field: the game's defaults
            self.hands_per_round = {}
        if self.rules is None:
            self.rules = {}
        try:
            check_slug(self.slug)
        except ValidationError as exc:
            errors.update(exc.message_dict)
        # a season's ranking adds up one game's totals (see Season)
        if self.season_id and self.season.game != self.game:
            errors["season"] = _(
                "%(season)s is a season for %(game)s; choose a season of this event's game."
            ) % {"season": self.season, "game": self.season.get_game_display()}
        game = games.find(self.game)
        if game is not None:
            try:
                game.check_rules(self.rules or {})
            except InvalidHand as exc:
                errors["rules"] = [f"{exc.field}: {exc.explain(gettext)}"]
        if (
            game
            and game.table_size_chosen
            and not game.min_seats <= self.target_table_size <= game.max_seats
        ):
            errors["target_table_size"] = _(
                "%(game)s is played at tables of %(low)s to %(high)s."
            ) % {"game": game.name, "low": game.min_seats, "high": game.max_seats}
        by_size = self.hands_per_round if isinstance(self.hands_per_round, dict) else {"?": None}
        for size, hands in by_size.items():
            if (
                not (str(size).isdigit() or size == "*")
                or not isinstance(hands, int)
                or isinstance(hands, bool)  # JSON's true is no number of games
                or not 1 <= hands <= HANDS_MAX
            ):
                errors["hands_per_round"] = _(
                    "Give a whole number of games (1 to %(max)s) for each table size, "
                    'e.g. {"4": 24}.'
                ) % {"max": number_format(HANDS_MAX, force_grouping=True)}
        # a settlement moves money from losers to winners: only a zero-sum game has both
        if self.point_value_cents and game is not None and not game.zero_sum:
            errors["point_value_cents"] = _(
                "%(game)s is not scored in points that winners win from losers; it cannot be "
                "played for money per point. Leave 0."
            ) % {"game": game.name}
        if errors:
            raise ValidationError(errors)


class Team(models.Model):
    class Kind(models.TextChoices):
        PAIR = "pair", _("Ziege pair")
        SQUAD = "squad", _("Team of four")

    event = models.ForeignKey(Event, related_name="teams", on_delete=models.CASCADE)
    name = models.CharField(_("name"), max_length=150, validators=[single_line])
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.SQUAD)

    class Meta:
        ordering = ["name"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.UniqueConstraint(fields=["event", "kind", "name"], name="team_name_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        WITHDRAWN = "withdrawn", _("withdrawn")

    event = models.ForeignKey(Event, related_name="entries", on_delete=models.CASCADE)
    player = models.ForeignKey(Player, related_name="entries", on_delete=models.PROTECT)
    start_number = models.PositiveIntegerField(_("start number"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE
    )
    late = models.BooleanField(_("late entry"), default=False)
    squad = models.ForeignKey(
        Team,
        verbose_name=_("team"),
        related_name="squad_members",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
    )
    pair = models.ForeignKey(
        Team,
        verbose_name=_("Ziege pair"),
        related_name="pair_members",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
    )
    lot = models.PositiveSmallIntegerField(
        _("lot"), null=True, blank=True, help_text=_("Order drawn by lot among tied players.")
    )

    objects = EntryQuerySet.as_manager()
    history = audit()

    class Meta:
        ordering = ["start_number"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="entry_player_once"),
            models.UniqueConstraint(fields=["event", "start_number"], name="entry_start_number"),
        ]

    def __str__(self) -> str:
        return f"{self.start_number} {self.player}"

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE


class Round(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("not drawn")
        SEATED = "seated", _("seated")
        PLAYING = "playing", _("playing")
        CLOSED = "closed", _("closed")

    event = models.ForeignKey(Event, related_name="rounds", on_delete=models.CASCADE)
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    seed = models.BigIntegerField(_("draw seed"), null=True, blank=True)
    repeat_meetings = models.PositiveIntegerField(_("repeat meetings"), default=0)
    # what the draw planned the table sizes from (player count, policy, ...), explained in the
    # reader's language by ``draw.explain``
    draw_basis = models.JSONField(_("basis of the draw"), null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_from_1"),
        ]

    def __str__(self) -> str:
        return _("Round %(number)s") % {"number": self.number}


class Table(models.Model):
    round = models.ForeignKey(Round, related_name="tables", on_delete=models.CASCADE)
    number = models.PositiveSmallIntegerField(_("number"))
    size = models.PositiveSmallIntegerField(_("players"))
    voided = models.BooleanField(_("voided"), default=False)
    void_reason = models.CharField(
        _("reason for voiding"), max_length=300, blank=True, validators=[single_line]
    )
    token = models.CharField(_("table link"), max_length=64, unique=True, default=new_token)
    submitted_at = models.DateTimeField(_("submitted at"), null=True, blank=True)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)

    history = audit()

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
            models.CheckConstraint(
                condition=Q(size__gte=3, size__lte=12), name="table_size_3_to_12"
            ),
            models.CheckConstraint(
                condition=Q(voided=False) | ~Q(void_reason=""), name="table_void_needs_reason"
            ),
        ]

    def __str__(self) -> str:
        return _("Table %(number)s") % {"number": self.number}

    def get_absolute_url(self) -> str:
        return reverse("table", args=[self.pk])

    def get_link_url(self) -> str:
        """The table link printed as the sheet's QR code: the players' way to enter and confirm."""
        return reverse("table_link", args=[self.token])


class TablePhone(models.Model):
    """What a table's phone last reported with a game it sent (issue 14): how many games it still
    holds unsent and how many the server refused, so that the director walks to the right table.
    A report, not a result: kept apart from the table's row and its history."""

    table = models.OneToOneField(Table, related_name="phone", on_delete=models.CASCADE)
    waiting = models.PositiveIntegerField(_("games waiting on the phone"), default=0)
    refused = models.PositiveIntegerField(_("games refused"), default=0)
    seen_at = models.DateTimeField(_("last heard from"))
    refusal = models.CharField(_("last refusal"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("table phone")
        verbose_name_plural = _("table phones")

    def __str__(self) -> str:
        return str(self.table)


class Seat(models.Model):
    round = models.ForeignKey(Round, related_name="seats", on_delete=models.CASCADE)
    table = models.ForeignKey(
        Table, related_name="seats", on_delete=models.CASCADE, null=True, blank=True
    )
    position = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    entry = models.ForeignKey(Entry, related_name="seats", on_delete=models.CASCADE)
    # The seat's counting results summed (zero at a voided table): written with the results
    # (``services.rescore_table``, ``void_table``, ``restore_table``), so that the standings
    # and the season add up a few seats per player instead of every game's result.
    points = models.IntegerField(default=0, editable=False)
    inflicted = models.IntegerField(default=0, editable=False)
    matches_won = models.IntegerField(default=0, editable=False)
    games_lost = models.IntegerField(default=0, editable=False)

    objects = SeatQuerySet.as_manager()
    # the sums are a cache of the results, whose hands have their own history
    history = audit(excluded_fields=["points", "inflicted", "matches_won", "games_lost"])

    class Meta:
        ordering = ["table__number", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="seat_entry_once_per_round"),
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.CheckConstraint(
                condition=Q(table__isnull=True, position__isnull=True)
                | Q(table__isnull=False, position__isnull=False),
                name="seat_table_and_position_together",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry.player} @ {self.table_id}:{self.position}"


class Hand(models.Model):
    class Kind(models.TextChoices):
        HAND = "hand", _("game")
        TOTALS = "totals", _("totals for the round")

    table = models.ForeignKey(Table, related_name="hands", on_delete=models.CASCADE)
    number = models.PositiveSmallIntegerField(_("game number"))
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.HAND)
    dealer = models.PositiveSmallIntegerField(_("dealer"), null=True, blank=True)
    data = models.JSONField(_("hand"))
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        related_name="+",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
    )
    entered_at = models.DateTimeField(_("entered at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("changed at"), auto_now=True)
    version = models.PositiveIntegerField(default=1)
    # the form's one-time key: a form sent twice (a retry after a timeout) stores one hand
    submission_key = models.UUIDField(null=True, blank=True, editable=False)

    objects = HandQuerySet.as_manager()
    history = audit()

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_number_unique"),
            models.UniqueConstraint(
                fields=["table", "submission_key"], name="hand_submission_once"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_from_1"),
        ]
        indexes = [
            # when the last result came in (the projector's line): each table's latest change
            # read from the index alone, not from the table's rows
            models.Index(fields=["table", "updated_at"], name="hand_table_changed"),
        ]

    def __str__(self) -> str:
        return _("Game %(number)s") % {"number": self.number}

    def get_absolute_url(self) -> str:
        """The scorer's page to correct or delete this hand."""
        return reverse("hand_edit", args=[self.table_id, self.number])


class Result(models.Model):
    """One seat's share of one hand; event, round and entry are copied in for one-table sums."""

    hand = models.ForeignKey(Hand, related_name="results", on_delete=models.CASCADE)
    position = models.PositiveSmallIntegerField()
    entry = models.ForeignKey(Entry, related_name="results", on_delete=models.CASCADE)
    table = models.ForeignKey(Table, related_name="results", on_delete=models.CASCADE)
    round = models.ForeignKey(Round, related_name="results", on_delete=models.CASCADE)
    event = models.ForeignKey(Event, related_name="results", on_delete=models.CASCADE)
    points = models.IntegerField(default=0)
    # Ziege: the defeat points this seat's team charged the other team in this deal
    inflicted = models.IntegerField(default=0)
    # Ziege: 1 on the deal that ends a match won by this seat's team
    matches_won = models.SmallIntegerField(default=0)
    # Hennes Sibbe: 1 on the challenge that brings this seat to the penalty limit
    games_lost = models.SmallIntegerField(default=0)
    counts = models.BooleanField(default=True, help_text="False while the table is voided")

    class Meta:
        ordering = ["hand", "position"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "position"], name="result_position_unique"),
        ]
        indexes = [
            models.Index(fields=["event", "entry"], name="result_event_entry"),
            # covers the standings' join from an entry to its results: no table lookups
            models.Index(fields=["entry", "counts", "round", "points"], name="result_entry_cover"),
        ]

    def __str__(self) -> str:
        return f"{self.hand_id}:{self.position} {self.points:+d}"


class LotDraw(models.Model):
    """A director's draw by lot between tied entries, kept as a record of who did it and when.

    It splits one tie only: ``tie`` keeps the tied result and ``tied`` everyone who had it. When a
    correction changes that tie, the lot lapses (``lapsed_at``) and the tie shows again."""

    event = models.ForeignKey(Event, related_name="lot_draws", on_delete=models.CASCADE)
    entries = models.JSONField(help_text="Start numbers in the order drawn")
    tie = models.JSONField(default=list, help_text="The standings keys the entries were tied on")
    tied = models.JSONField(default=list, help_text="Start numbers of everyone tied at the draw")
    lapsed_at = models.DateTimeField(null=True, blank=True)
    seed = models.BigIntegerField()
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, related_name="+", on_delete=models.SET_NULL, null=True
    )
    drawn_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-drawn_at"]
        verbose_name = _("draw by lot")
        verbose_name_plural = _("draws by lot")

    def __str__(self) -> str:
        return f"{self.event}: {', '.join(str(n) for n in self.entries)}"


class Confirmation(models.Model):
    """A player's (or a scorer's) agreement with a table's sheet for the round."""

    class Via(models.TextChoices):
        LINK = "link", _("table link")
        SCORER = "scorer", _("scorer")

    table = models.ForeignKey(Table, related_name="confirmations", on_delete=models.CASCADE)
    position = models.PositiveSmallIntegerField(_("seat"))
    via = models.CharField(max_length=10, choices=Via.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, related_name="+", on_delete=models.SET_NULL, null=True
    )
    # the phone that confirmed through the table link (a digest of its long-lived random cookie);
    # one phone confirms one seat of a table, so the players' confirmation means each player
    # tapped on their own phone. Empty for a scorer's confirmation.
    device = models.CharField(_("phone"), max_length=64, blank=True, default="")
    confirmed_at = models.DateTimeField(auto_now_add=True)

    history = audit()

    class Meta:
        ordering = ["table", "position"]
        verbose_name = _("confirmation")
        verbose_name_plural = _("confirmations")
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="confirmation_once"),
            models.UniqueConstraint(
                fields=["table", "device"],
                condition=~Q(device=""),
                name="confirmation_one_seat_per_phone",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}:{self.position} {self.via}"


class EventRole(models.Model):
    """Who may do what for one event: an organiser everything, a scorer the results."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("organiser")
        SCORER = "scorer", _("scorer")

    event = models.ForeignKey(Event, related_name="roles", on_delete=models.CASCADE)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, related_name="event_roles", on_delete=models.CASCADE
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices)

    class Meta:
        verbose_name = _("role")
        verbose_name_plural = _("roles")
        constraints = [
            models.UniqueConstraint(fields=["event", "user"], name="event_role_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user} – {self.get_role_display()} – {self.event}"


class Rating(models.Model):
    """A player's rating in one game across every event and season (issue 16,
    ``tournament.results.rating``): a rebuildable cache of the stored hands, like the results;
    ``ordinal`` is the figure shown."""

    player = models.ForeignKey(Player, related_name="ratings", on_delete=models.CASCADE)
    game = models.CharField(_("game"), max_length=20, choices=games.choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(_("rating"))
    tables = models.PositiveIntegerField(_("tables"))
    hands = models.PositiveIntegerField(_("games"))
    updated_at = models.DateTimeField(_("computed at"))

    class Meta:
        ordering = ["game", "-ordinal"]
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="rating_player_game_once"),
        ]
        indexes = [models.Index(fields=["game", "-ordinal"], name="rating_game_ordinal")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.game} {self.ordinal:.2f}"


class RatingBasis(models.Model):
    """What one game's ratings were computed from: ``versions`` is a digest of its events'
    versions (cheap to read, changes with every write), ``data`` a digest of what the rating
    reads (closed rounds' counting results, event dates, players). The page recomputes when both
    differ."""

    game = models.CharField(max_length=20, unique=True)
    versions = models.CharField(max_length=64, blank=True)
    data = models.CharField(max_length=64, blank=True)
    computed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.game} {self.computed_at}"


# --- prizes, entry fees and the cash book (issue 17; the logic is in tournament.money) ----------


class PrizeSettings(models.Model):
    """How an event's prizes are given, besides the prize list: whether one player may take an
    overall and a side prize, and a rule for goods prizes over a share of the field ("every
    second player gets a prize")."""

    event = models.OneToOneField(Event, related_name="prize_settings", on_delete=models.CASCADE)
    several = models.BooleanField(
        _("a player may win several prizes"),
        default=False,
        help_text=_(
            "Off: one prize per player; a side-ranking winner who also wins an overall prize "
            "keeps the better one and the other passes to the next player in that ranking."
        ),
    )
    every = models.PositiveSmallIntegerField(
        _("goods for every n-th player"),
        null=True,
        blank=True,
        help_text=_(
            "For example 2: the better half of the field gets a prize; places without a prize of "
            "their own get the goods below. Empty: no such rule."
        ),
    )
    goods = models.CharField(
        _("goods under the rule"), max_length=200, blank=True, validators=[single_line]
    )
    sponsor = models.CharField(
        _("sponsor of the goods"), max_length=200, blank=True, validators=[single_line]
    )

    history = audit()

    class Meta:
        verbose_name = _("prize settings")
        verbose_name_plural = _("prize settings")
        constraints = [
            models.CheckConstraint(
                condition=Q(every__isnull=True) | (Q(every__gte=1) & ~Q(goods="")),
                name="prize_rule_has_goods",
            ),
        ]

    def __str__(self) -> str:
        return str(self.event)


class Prize(models.Model):
    """One prize of the prize list: money (whole cents), goods or both, for a ranking's place."""

    class Ranking(models.TextChoices):
        OVERALL = "overall", _("Overall ranking")
        WOMEN = "damen", _("Women's ranking")
        JUNIORS = "jugend", _("Juniors' ranking")
        SENIORS = "senioren", _("Seniors' ranking")
        TEAMS = "teams", _("Team ranking")
        LAST = "last", _("Last place")

    event = models.ForeignKey(Event, related_name="prizes", on_delete=models.CASCADE)
    ranking = models.CharField(
        _("ranking"), max_length=10, choices=Ranking.choices, default=Ranking.OVERALL
    )
    place = models.PositiveSmallIntegerField(_("place"), default=1)
    amount_cents = models.PositiveIntegerField(_("money"), default=0)
    goods = models.CharField(_("goods"), max_length=200, blank=True, validators=[single_line])
    sponsor = models.CharField(_("sponsor"), max_length=200, blank=True, validators=[single_line])

    history = audit()

    class Meta:
        ordering = ["event", "ranking", "place"]
        verbose_name = _("prize")
        verbose_name_plural = _("prizes")
        constraints = [
            models.UniqueConstraint(fields=["event", "ranking", "place"], name="prize_place_once"),
            models.CheckConstraint(condition=Q(place__gte=1), name="prize_place_from_1"),
            models.CheckConstraint(
                condition=Q(amount_cents__gt=0) | ~Q(goods=""), name="prize_money_or_goods"
            ),
            # the last place has one consolation prize (a tie for it shares that one)
            models.CheckConstraint(
                condition=~Q(ranking="last") | Q(place=1), name="prize_last_place_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_ranking_display()} {self.place}"


class FeeCategory(models.Model):
    """An entry fee of one event (full, reduced for members, free for juniors), in whole cents.
    ``player_category`` makes it the default for players of that category."""

    event = models.ForeignKey(Event, related_name="fee_categories", on_delete=models.CASCADE)
    name = models.CharField(_("name"), max_length=100, validators=[single_line])
    amount_cents = models.PositiveIntegerField(_("amount"), default=0)
    player_category = models.CharField(
        _("default for"),
        max_length=20,
        choices=Player.Category.choices,
        blank=True,
        default="",
    )
    position = models.PositiveSmallIntegerField(_("order"), default=0)

    history = audit()

    class Meta:
        ordering = ["event", "position", "pk"]
        verbose_name = _("fee category")
        verbose_name_plural = _("fee categories")
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="fee_category_name_once"),
        ]

    def __str__(self) -> str:
        return self.name


class EntryFee(models.Model):
    """What an entry has paid: the status set at the desk, and the amount taken, kept as it was
    when it was paid (a later change of the category's amount does not rewrite the cash)."""

    class Status(models.TextChoices):
        OPEN = "open", _("not paid")
        CASH = "cash", _("paid cash")
        AHEAD = "ahead", _("paid ahead")
        WAIVED = "waived", _("waived")

    entry = models.OneToOneField(Entry, related_name="fee", on_delete=models.CASCADE)
    category = models.ForeignKey(
        FeeCategory,
        verbose_name=_("fee"),
        related_name="fees",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
    )
    status = models.CharField(
        _("fee status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    paid_cents = models.PositiveIntegerField(_("paid"), default=0)
    changed_at = models.DateTimeField(_("changed at"), auto_now=True)

    history = audit()

    class Meta:
        verbose_name = _("entry fee")
        verbose_name_plural = _("entry fees")
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["cash", "ahead"]) | Q(paid_cents=0),
                name="entry_fee_paid_only_when_paid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry}: {self.get_status_display()}"


class CashItem(models.Model):
    """An item of the cash book the organiser adds: hall rent, sponsor money, the change float."""

    class Direction(models.TextChoices):
        IN = "in", _("income")
        OUT = "out", _("expense")

    class Via(models.TextChoices):
        BOX = "box", _("cash box")
        BANK = "bank", _("bank")

    event = models.ForeignKey(Event, related_name="cash_items", on_delete=models.CASCADE)
    description = models.CharField(_("item"), max_length=200, validators=[single_line])
    direction = models.CharField(
        _("income or expense"), max_length=3, choices=Direction.choices, default=Direction.OUT
    )
    via = models.CharField(_("paid via"), max_length=4, choices=Via.choices, default=Via.BOX)
    amount_cents = models.PositiveIntegerField(_("amount"))
    created_at = models.DateTimeField(_("entered at"), auto_now_add=True)

    history = audit()

    class Meta:
        ordering = ["event", "created_at", "pk"]
        verbose_name = _("cash book item")
        verbose_name_plural = _("cash book items")
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="cash_item_amount"),
        ]

    def __str__(self) -> str:
        return self.description


def provisional_entries(event: Event) -> set[int]:
    """Entries seated at a counting table with games whose sheet is not confirmed yet: the seats
    of the event's open tables (not voided, not confirmed) that have a hand. One query, computed
    with each new version of the standings. Written out in SQL, as the seats' sums are
    (services.sum_seats), since the ORM's building of the query cost more than running it; it
    asks each table whether it has a hand rather than joining its hands, which is faster."""
    seat, table, rnd, hand = (m._meta.db_table for m in (Seat, Table, Round, Hand))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT s.entry_id FROM {seat} s "
            f"JOIN {table} t ON t.id = s.table_id JOIN {rnd} r ON r.id = t.round_id "
            "WHERE r.event_id = %s AND NOT t.voided AND t.confirmed_at IS NULL "
            f"AND EXISTS (SELECT 1 FROM {hand} h WHERE h.table_id = t.id)",
            [event.pk],
        )
        return {entry_id for (entry_id,) in cursor.fetchall()}
