"""Play: hands (the raw input, the truth), their per-seat results (a rebuildable cache), draws by
lot and the players' confirmations of a sheet."""

from __future__ import annotations

from django.conf import settings
from django.db import connection, models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from tournament.models.base import audit
from tournament.models.events import Entry, Event, Round, Seat, Table
from tournament.models.querysets import HandQuerySet


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
    # when a phone sent this game again after the server had lost it (a laptop restored from
    # its copy, issue 45): the phone keeps the games the server acknowledged until the round
    # closes, and the table's sheet and the director's check after the change show these
    resent_at = models.DateTimeField(
        _("sent again by the phone"), null=True, blank=True, editable=False
    )

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
        # the player's own personal link (issue 29): tied to the person, whichever phone
        PLAYER = "player", _("personal link")

    table = models.ForeignKey(Table, related_name="confirmations", on_delete=models.CASCADE)
    position = models.PositiveSmallIntegerField(_("seat"))
    via = models.CharField(max_length=10, choices=Via.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, related_name="+", on_delete=models.SET_NULL, null=True
    )
    # the phone that confirmed through the table link (a digest of its long-lived random cookie),
    # kept for the confirmations made so before issue 43: the cookie is the phone's own choice,
    # so the table link confirms no seat any more. Empty for every other confirmation.
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


def provisional_entries(event: Event) -> set[int]:
    """Entries seated at a counting table with games whose sheet is not confirmed yet: the seats
    of the event's open tables (not voided, not confirmed) that have a hand. One query, computed
    with each new version of the standings. Written out in SQL, as the seats' sums are
    (play.scores.sum_seats), since the ORM's building of the query cost more than running it; it
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
