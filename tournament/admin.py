"""The Django admin for every model. Hand changes made here go through the services, so the result
cache and the history stay right."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from simple_history.admin import SimpleHistoryAdmin

from . import services
from .models import (
    Confirmation,
    Entry,
    Event,
    EventRole,
    Hand,
    LotDraw,
    Player,
    Result,
    Round,
    Season,
    Seat,
    Table,
    Team,
)


@admin.register(Player)
class PlayerAdmin(SimpleHistoryAdmin):
    list_display = ["last_name", "first_name", "club", "town", "category"]
    list_filter = ["category"]
    search_fields = ["last_name", "first_name", "club", "town"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "best_of"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "game", "season", "status"]
    list_filter = ["game", "status", "season"]
    search_fields = ["name", "venue"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "event", "kind"]
    list_filter = ["kind"]


@admin.register(Entry)
class EntryAdmin(SimpleHistoryAdmin):
    list_display = ["start_number", "player", "event", "status", "late"]
    list_filter = ["event", "status"]
    search_fields = ["player__last_name", "player__first_name"]
    list_select_related = ["player", "event"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "status", "seed", "repeat_meetings"]
    list_filter = ["status"]


@admin.register(Table)
class TableAdmin(SimpleHistoryAdmin):
    list_display = ["round", "number", "size", "voided"]
    list_select_related = ["round__event"]


@admin.register(Seat)
class SeatAdmin(SimpleHistoryAdmin):
    list_display = ["round", "table", "position", "entry"]
    list_select_related = ["round__event", "table", "entry__player"]


@admin.register(Hand)
class HandAdmin(SimpleHistoryAdmin):
    list_display = ["table", "number", "kind", "entered_by", "updated_at"]
    list_select_related = ["table__round__event", "entered_by"]
    readonly_fields = ["version", "entered_by", "entered_at", "updated_at"]

    def save_model(self, request: HttpRequest, obj: Hand, form: Any, change: bool) -> None:
        # the admin may change the stored hand; the table's results are then computed again
        super().save_model(request, obj, form, change)
        services.rescore_table(obj.table)

    def delete_model(self, request: HttpRequest, obj: Hand) -> None:
        table = obj.table
        super().delete_model(request, obj)
        services.rescore_table(table)


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin):
    """The result cache: read only; it is rebuilt from the hands."""

    list_display = ["hand", "position", "entry", "points", "counts"]
    list_select_related = ["hand", "entry__player"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(LotDraw)
class LotDrawAdmin(admin.ModelAdmin):
    list_display = ["event", "entries", "drawn_by", "drawn_at"]


@admin.register(EventRole)
class EventRoleAdmin(admin.ModelAdmin):
    """Give a user the organiser or scorer role for one event."""

    list_display = ["event", "user", "role"]
    list_filter = ["role", "event"]
    list_select_related = ["event", "user"]


@admin.register(Confirmation)
class ConfirmationAdmin(SimpleHistoryAdmin):
    list_display = ["table", "position", "via", "user", "confirmed_at"]
    list_select_related = ["table__round__event", "user"]
