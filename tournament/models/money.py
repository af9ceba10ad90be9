"""Money: the prize table and its settings, a finished event's prize assignment, fee categories,
the entry fees paid, the cash book's other items; whole cents everywhere."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.core.validators import single_line
from tournament.models.base import audit
from tournament.models.events import Entry, Event
from tournament.models.register import Player


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


class PrizeAssignment(models.Model):
    """A finished event's prize assignment as it was when the event was finished: who got which
    prize, with the names, clubs and ranks of that moment, and who was in line for a prize and
    why they did not get it (``tournament.money.prizes`` defines "in line"). Stored when the event
    is finished and dropped when it is reopened (``money.prizes.finish_event``/``reopen_event``),
    so that a later correction of a player (in another event, say) does not rewrite a prize-giving
    that has taken place. A snapshot, not live data: the lists are plain values, money in whole
    cents, no reference the database keeps in step.

    ``awards``, in the order the prizes are handed out: ``{"ranking", "place", "amount_cents",
    "goods", "sponsor", "winners": [{"name", "club", "rank", "entry"}], "passed": [{"name",
    "rank", "ranking", "place"}]}`` (``passed``: a player in line and the prize they hold);
    ``team_ties``: ``[{"rank", "teams": [names]}]``, teams sharing a prize place, whose lot is
    drawn at the prize table."""

    event = models.OneToOneField(Event, related_name="prize_assignment", on_delete=models.CASCADE)
    awards = models.JSONField(_("prizes awarded"), default=list)
    team_ties = models.JSONField(_("teams tied on a prize place"), default=list, blank=True)
    assigned_at = models.DateTimeField(_("assigned at"), auto_now_add=True)

    history = audit()

    class Meta:
        verbose_name = _("prize assignment")
        verbose_name_plural = _("prize assignments")

    def __str__(self) -> str:
        return str(self.event)


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
