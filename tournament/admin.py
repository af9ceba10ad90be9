"""The Django admin for every model.

What the standings are computed from is read-only here: rounds, hands, seats, tables, results,
confirmations and draws by lot change only through the app's pages and services, where the engine
checks every hand, a reason is asked and the result cache is rebuilt in the same transaction
(issue 10: an admin edit left the standings stale and bypassed the engine). An event's game and
rule settings change on the event's edit page, which rescores the stored games. An entry's
corrections here keep the players page's rules."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from simple_history.admin import SimpleHistoryAdmin

from tournament.models import (
    CashItem,
    Confirmation,
    Consent,
    Entry,
    EntryFee,
    Event,
    EventRole,
    FeeCategory,
    Hand,
    LotDraw,
    Player,
    PlayerAlias,
    Prize,
    PrizeSettings,
    Result,
    Round,
    Season,
    Seat,
    Table,
    Team,
)
from tournament.register import reads, services


class ReadOnly:
    """View only: no adding, changing or deleting (the app's services do that)."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class NoRevert:
    """The history stays visible, but an old version cannot be restored from it: simple-history's
    revert form saves without asking for the change permission."""

    def history_form_view(
        self, request: HttpRequest, object_id: str, version_id: str, extra_context: Any = None
    ) -> HttpResponse:
        if request.method == "POST":
            raise PermissionDenied
        return super().history_form_view(  # type: ignore[misc]
            request, object_id, version_id, extra_context
        )


class ReadOnlyHistoryAdmin(ReadOnly, NoRevert, SimpleHistoryAdmin):
    pass


@admin.register(Player)
class PlayerAdmin(SimpleHistoryAdmin):
    list_display = ["last_name", "first_name", "club", "town", "category"]
    list_filter = ["category"]
    search_fields = ["last_name", "first_name", "club", "town"]
    # what the latest consent allows: changed by recording a consent, never by hand
    readonly_fields = ["public_lists", "town_shown", "public_season"]


@admin.register(Consent)
class ConsentAdmin(ReadOnlyHistoryAdmin):
    """Consents as given (issue 46): a record, never changed; a new consent is recorded at the
    desk or comes with a registration, a list or a bundle."""

    list_display = ["player", "lists", "season_site", "town", "by_guardian", "via", "given_at"]
    list_filter = ["via", "wording"]
    search_fields = ["player__last_name", "player__first_name"]


@admin.register(PlayerAlias)
class PlayerAliasAdmin(admin.ModelAdmin):
    """Identifiers of other installations matched to a player at a bundle's import: deleting one
    undoes a wrong "same person" for the next import (the entries already made stay)."""

    list_display = ["uid", "player", "decided_by", "decided_at"]
    search_fields = ["uid", "player__last_name", "player__first_name"]
    readonly_fields = ["uid", "player", "decided_by", "decided_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # made by a bundle's import or a merge, never typed in


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "game", "best_of"]
    prepopulated_fields = {"slug": ["name"]}


class LocksItsRow:
    """A change saved here first locks the row, as the services do (the admin's page runs in a
    transaction): on PostgreSQL a game being stored holds its round's and event's rows shared
    (``play.locks.table_for_a_game``), and a plain UPDATE would not wait for it. What the form
    did not change is then taken from the locked row, not from the page as it was read: a
    save writes every column, and a draw, a rule change or a finish committed while the form
    was open must not be undone by a change of the venue. "Changed" is measured against the
    values the page showed (each field carries them in a hidden ``initial-`` input), not against
    the row as it is when the form comes back: a point value set on the event's page after the
    form was opened stays, unless this form changed it too."""

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any):
        form = super().get_form(request, obj, change=change, **kwargs)  # type: ignore[misc]
        if obj is not None:
            for field in form.base_fields.values():
                field.show_hidden_initial = True
        return form

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if change:
            model = type(obj)
            current = model.objects.select_for_update().get(pk=obj.pk)
            typed = set(form.changed_data)
            for field in model._meta.concrete_fields:
                if field.name not in typed and not field.primary_key:
                    setattr(obj, field.attname, getattr(current, field.attname))
        super().save_model(request, obj, form, change)


@admin.register(Event)
class EventAdmin(LocksItsRow, NoRevert, SimpleHistoryAdmin):
    """The game and the rule settings of an existing event change on its edit page only: that page
    rescores the stored games and keeps the reason in the event's history."""

    list_display = ["name", "date", "game", "season", "status"]
    list_filter = ["game", "status", "season"]
    search_fields = ["name", "venue"]
    prepopulated_fields = {"slug": ["name"]}

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        # a new event starts in registration: the draw and the finish set its status
        return ["game", "rules", "status"] if obj is not None else ["status"]


class TeamAdminForm(forms.ModelForm):
    class Meta:
        model = Team
        fields = ["name"]

    def clean_name(self) -> str:
        # the event and kind are read-only here, so the form's own check of "one name per kind
        # in an event" would be skipped and the database refuse the save
        name = self.cleaned_data["name"]
        taken = Team.objects.filter(
            event_id=self.instance.event_id, kind=self.instance.kind, name=name
        )
        if taken.exclude(pk=self.instance.pk).exists():
            if self.instance.kind == Team.Kind.PAIR:
                message = _("A pair called %(name)s already exists.")
            else:
                message = _("A team called %(name)s already exists.")
            raise ValidationError(message % {"name": name})
        return name


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    """A team's name may be corrected here. It is made with its first player at registration
    (a team of four) or on the players page (a Ziege pair); its event and kind stay, and it is
    not deleted here: its players' results would leave the team ranking and the prizes."""

    list_display = ["name", "event", "kind"]
    list_filter = ["kind"]
    readonly_fields = ["event", "kind"]
    form = TeamAdminForm

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class EntryAdminForm(forms.ModelForm):
    """A correction here keeps the rules of the players page: no withdrawal while the player is
    seated in a round that has not started, a team of the entry's event with at most four
    players, a Ziege pair of its event with two."""

    class Meta:
        model = Entry
        fields = ["player", "status", "late", "squad", "pair"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        kinds = {"squad": Team.Kind.SQUAD, "pair": Team.Kind.PAIR}
        for name, kind in kinds.items():
            if name in self.fields:
                self.fields[name].queryset = Team.objects.filter(
                    event_id=self.instance.event_id, kind=kind
                )

    def clean_player(self) -> Player:
        # the event is read-only here, so the form's own check of "a player once per event"
        # would be skipped and the database refuse the save
        player = self.cleaned_data["player"]
        others = Entry.objects.filter(event_id=self.instance.event_id, player=player)
        if others.exclude(pk=self.instance.pk).exists():
            raise ValidationError(_("%(player)s is already registered.") % {"player": player})
        return player

    def clean_status(self) -> str:
        status = self.cleaned_data["status"]
        if status == Entry.Status.WITHDRAWN and self.instance.status != status:
            refused = reads.withdrawal_refused(self.instance)
            if refused:
                raise ValidationError(refused)
        return status

    def _joins(self, name: str, size: int, message: str) -> Team | None:
        team = self.cleaned_data.get(name)
        if team is not None and team.pk != getattr(self.instance, f"{name}_id"):
            members = Entry.objects.filter(**{name: team}).exclude(pk=self.instance.pk)
            if members.count() >= size:
                raise ValidationError(message % {"team": team.name})
        return team

    def clean_squad(self) -> Team | None:
        return self._joins(
            "squad", services.SQUAD_SIZE, _("The team %(team)s already has four players.")
        )

    def clean_pair(self) -> Team | None:
        pair = self._joins("pair", 2, _("The pair %(team)s already has two players."))
        if (pair.pk if pair is not None else None) == self.instance.pair_id:
            return pair
        # fixed pairs sit opposite each other: the draw placed them so, and a round of them
        # drawn or being played keeps its seats
        seated = reads.seat_at_a_table(self.instance, Round.Status.SEATED, Round.Status.PLAYING)
        if seated is not None:
            raise ValidationError(
                _(
                    "%(player)s is seated in round %(round)s: a pair changes only between rounds. "
                    "If that round has not started, remove it on its seating page, change the "
                    "pair, then add and draw the round again."
                )
                % {"player": self.instance.player, "round": seated.round.number}
            )
        return pair


@admin.register(Entry)
class EntryAdmin(LocksItsRow, NoRevert, SimpleHistoryAdmin):
    """Status, team and pair may be corrected here, under the players page's rules
    (``EntryAdminForm``), and the player: an entry registered to the wrong one of two namesakes
    (its results go with it; the history keeps who changed it). What ties an entry to its
    results and to a draw by lot (event, start number, lot) may not be changed, nor may an
    entry with its results be deleted."""

    form = EntryAdminForm
    readonly_fields = ["event", "start_number", "lot"]
    list_display = ["start_number", "player", "event", "status", "late"]
    list_filter = ["event", "status"]
    search_fields = ["player__last_name", "player__first_name"]
    list_select_related = ["player", "event"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # registration numbers the entry and marks it late: the players page

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Round)
class RoundAdmin(ReadOnly, admin.ModelAdmin):
    """Read-only: a round is added, drawn, started, closed and (until it starts) removed on the
    director's pages, which check what each step needs (a round is closed only when every table
    has entered its games). Its event and number place its results in the standings' columns;
    its seed is the draw's."""

    list_display = ["event", "number", "status", "seed", "repeat_meetings"]
    list_filter = ["status"]


@admin.register(Table)
class TableAdmin(ReadOnlyHistoryAdmin):
    list_display = ["round", "number", "size", "voided"]
    list_select_related = ["round__event"]


@admin.register(Seat)
class SeatAdmin(ReadOnlyHistoryAdmin):
    list_display = ["round", "table", "position", "entry"]
    list_select_related = ["round__event", "table", "entry__player"]


@admin.register(Hand)
class HandAdmin(ReadOnlyHistoryAdmin):
    """Read-only: a correction goes through the table page (engine check, reason, rescoring)."""

    list_display = ["table", "number", "kind", "entered_by", "updated_at"]
    list_select_related = ["table__round__event", "entered_by"]


@admin.register(Result)
class ResultAdmin(ReadOnly, admin.ModelAdmin):
    """The result cache: read only; it is rebuilt from the hands."""

    list_display = ["hand", "position", "entry", "points", "counts"]
    list_select_related = ["hand", "entry__player"]


@admin.register(LotDraw)
class LotDrawAdmin(ReadOnly, admin.ModelAdmin):
    """The record of a draw: read only (its lots are drawn on the standings page)."""

    list_display = ["event", "entries", "drawn_by", "drawn_at", "lapsed_at"]


@admin.register(EventRole)
class EventRoleAdmin(admin.ModelAdmin):
    """Give a user the organiser or scorer role for one event."""

    list_display = ["event", "user", "role"]
    list_filter = ["role", "event"]
    list_select_related = ["event", "user"]


@admin.register(Confirmation)
class ConfirmationAdmin(ReadOnlyHistoryAdmin):
    """Read-only: a seat is confirmed by its player's phone or by a scorer on the table's page,
    which lock the table and mark the sheet confirmed once every seat is (the standings' marks
    of provisional results follow it); a confirmation made or deleted here would do neither."""

    list_display = ["table", "position", "via", "user", "confirmed_at"]
    list_select_related = ["table__round__event", "user"]


# prizes, fees and the cash book (issue 17): money changes on the organiser's pages only, where
# every write is one transaction with its history; here it is read, with that history
for model in (PrizeSettings, Prize, FeeCategory, EntryFee, CashItem):
    admin.site.register(model, ReadOnlyHistoryAdmin)
