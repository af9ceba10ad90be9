"""Events and their seasons, teams, entries, rounds (Durchgänge), tables, the tables' phones, seats,
and who may direct or score an event."""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring import InvalidHand
from tournament import games
from tournament.core import choices
from tournament.core.addresses import validate_origin
from tournament.core.validators import single_line
from tournament.models.base import (
    HANDS_MAX,
    PLACES_MAX,
    POINT_VALUE_MAX,
    Versioned,
    audit,
    new_token,
)
from tournament.models.querysets import EntryQuerySet, SeatQuerySet
from tournament.models.register import Player


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

    # online registration before the day (issue 29, tournament.register.online): open or not,
    # until when, for how many players, and whether a full event keeps a waiting list
    registration_open = models.BooleanField(
        _("online registration open"),
        default=False,
        help_text=_("Players register themselves on the event's public page."),
    )
    registration_closes = models.DateTimeField(
        _("registration closes"),
        null=True,
        blank=True,
        help_text=_("Empty: open until the organiser closes it or the first round is drawn."),
    )
    capacity = models.PositiveIntegerField(
        _("places"),
        null=True,
        blank=True,
        validators=[MaxValueValidator(PLACES_MAX)],
        help_text=_("How many players the hall seats, for example 144. Empty: no limit."),
    )
    waiting_list = models.BooleanField(
        _("waiting list"),
        default=True,
        help_text=_("When the places are taken, further players go on a waiting list in order."),
    )

    # when this installation last gave the event to the hall (its bundle exported for the hall,
    # ``publish.bundles.export.for_the_hall``): online registration here closed then, and the
    # bundle that comes back keeps the entries made here since that it does not hold
    sent_to_hall_at = models.DateTimeField(
        _("sent to the hall"), null=True, blank=True, editable=False
    )

    # when the latest game arrived (the projector's "last result"), written with the game
    # (``play.hands.note_latest_game``), so that no page sorts the event's games for it
    last_result_at = models.DateTimeField(null=True, blank=True, editable=False)

    history = audit(excluded_fields=["version", "previous_version", "last_result_at"])

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

    @property
    def in_fixed_pairs(self) -> bool:
        """Whether the event plays in fixed pairs registered as teams (a game with pairs, Ziege,
        set to fixed pairing): a pair is then one unit of the draw, the lot and the standings."""
        return self.game_type.fixed_pairs and self.pairing == self.Pairing.FIXED

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


# the result fields an entry sums over its seats, stored as ``sum_<field>``
SEAT_SUMS = ("points", "inflicted", "matches_won", "games_lost")
ENTRY_SUMS = tuple(f"sum_{field}" for field in SEAT_SUMS)


class Entry(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        WITHDRAWN = "withdrawn", _("withdrawn")
        # registered online when the places were taken: plays only when moved up (issue 29)
        WAITING = "waiting", _("waiting list")

    class Source(models.TextChoices):
        DESK = "desk", _("registered by the organiser")
        ONLINE = "online", _("registered online")
        WALK_IN = "walk_in", _("walk-in at the check-in")

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
    # the player's day (issue 29): how the entry came, when it was made (the waiting list's
    # order), when the player checked in at the desk, and the personal link /m/<token>/
    source = models.CharField(
        _("registered"), max_length=10, choices=Source.choices, default=Source.DESK
    )
    registered_at = models.DateTimeField(_("registered at"), default=timezone.now)
    present_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    token = models.CharField(_("personal link"), max_length=64, unique=True, default=new_token)
    # the one-time key of the online form that made the entry: the same form sent twice
    # registers once and shows the same confirmation
    submission_key = models.UUIDField(null=True, blank=True, unique=True, editable=False)
    # registered online under a name the register knows: who the person is, the desk settles
    # when it sees them (``register.checkin.settle_identity``), never the public form
    identity_pending = models.BooleanField(_("identity to confirm at the desk"), default=False)
    # The entry's counting results summed over its seats (``Seat.points`` ...), written by the
    # same transaction that writes the seats' sums (``play.scores.sum_seats``): the standings
    # rank these, one row per entry.
    sum_points = models.IntegerField(default=0, editable=False)
    sum_inflicted = models.IntegerField(default=0, editable=False)
    sum_matches_won = models.IntegerField(default=0, editable=False)
    sum_games_lost = models.IntegerField(default=0, editable=False)

    objects = EntryQuerySet.as_manager()
    # the link itself is no history: a reissued link is a row with its reason, not the secret;
    # the sums are a cache of the results, whose hands have their own history
    history = audit(excluded_fields=["token", "submission_key", *ENTRY_SUMS])

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

    @property
    def is_waiting(self) -> bool:
        return self.status == self.Status.WAITING

    @property
    def is_withdrawn(self) -> bool:
        return self.status == self.Status.WITHDRAWN

    def get_link_url(self) -> str:
        """The player's personal link: no login, the token is the permission."""
        return reverse("personal_link", args=[self.token])


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
    # when a correction moved a total of a sheet the players had confirmed: their confirmations
    # lapsed (the history keeps them) and the sheet reads "changed after confirmation: confirm
    # again" until everyone has confirmed it anew
    confirmation_lapsed_at = models.DateTimeField(
        _("changed after confirmation"), null=True, blank=True
    )

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
    # (``play.scores.rescore_table``, ``play.hands.void_table``, ``restore_table``), so that the
    # standings and the season add up a few seats per player instead of every game's result.
    points = models.IntegerField(default=0, editable=False)
    inflicted = models.IntegerField(default=0, editable=False)
    matches_won = models.IntegerField(default=0, editable=False)
    games_lost = models.IntegerField(default=0, editable=False)

    objects = SeatQuerySet.as_manager()
    # the sums are a cache of the results, whose hands have their own history
    history = audit(excluded_fields=list(SEAT_SUMS))

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


class BundleUpload(models.Model):
    """An event bundle a director uploaded, kept between the import page's preview and the
    confirmation (``publish.bundles.staging``): the confirmation names it by its token instead of
    sending the file back, and finds it only for the user and browser session that uploaded it."""

    token = models.CharField(max_length=64, unique=True, default=new_token)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, related_name="+", on_delete=models.CASCADE)
    name = models.CharField(_("file"), max_length=255)
    data = models.BinaryField()
    uploaded_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("uploaded event bundle")
        verbose_name_plural = _("uploaded event bundles")

    def __str__(self) -> str:
        return self.name
