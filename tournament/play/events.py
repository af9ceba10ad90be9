"""Writes of an event and a season: creating them, changing an event's settings (new rule settings
rescore every stored game at once), finishing an event and reopening it. Each is one function,
one transaction."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.core.audit import User, actor, noted
from tournament.core.errors import Refused
from tournament.models import Event, EventRole, Round, Season, Table
from tournament.play.lots import lapse_stale_lots
from tournament.play.reads import (
    EVENT_SETTINGS,
    SEASON_FIELDS,
    RuleChangeEffect,
    changed_entries,
    entry_figures,
    game_fixed_message,
    stored_hand_count,
)
from tournament.play.scores import rescore_table


@transaction.atomic
def change_event_settings(
    *, event: Event, values: dict[str, Any], user: User = None, reason: str = ""
) -> RuleChangeEffect:
    """Change an event's settings (``values``: field → new value).

    New rule settings rescore every stored game at once, in this transaction, so the standings
    never show a mix of old and new rules; a reason is then required and kept with the user in the
    event's history. A setting that makes a stored game invalid is refused naming the game. The
    game itself is fixed once seats are drawn (the tables and hands are that game's).
    """
    unknown = set(values) - EVENT_SETTINGS
    if unknown:
        raise ValueError(f"not event settings: {sorted(unknown)}")
    current = Event.objects.select_for_update().get(pk=event.pk)
    old_rules = current.full_rules()
    if values.get("game", current.game) != current.game and (
        current.rounds.exclude(status=Round.Status.DRAFT).exists()
    ):
        raise Refused(game_fixed_message(current))
    for name, value in values.items():
        setattr(current, name, value)
    try:
        current.full_clean()
    except ValidationError as exc:
        raise Refused(" ".join(exc.messages)) from exc
    rescore = current.full_rules() != old_rules and stored_hand_count(current) > 0
    if rescore and not reason.strip():
        raise Refused(_("Give a reason for changing the rule settings of stored games."))
    current._change_reason = reason.strip()
    if actor(user) is not None:
        current._history_user = actor(user)
    current.save()
    if not rescore:
        return RuleChangeEffect(hands=0, players=0)
    before = entry_figures(current)
    for table in Table.objects.filter(round__event=current).select_related("round__event"):
        rescore_table(table, check_lots=False)
    hands = stored_hand_count(current)
    lapse_stale_lots(event=current, user=user)
    return RuleChangeEffect(hands=hands, players=changed_entries(before, entry_figures(current)))


def _checked(model: type[Any], values: dict[str, Any], allowed: frozenset[str]) -> Any:
    """A new, unsaved ``model`` from ``values``, checked like its form checks it (Refused says
    what is wrong); a field outside ``allowed`` is a programming error."""
    unknown = set(values) - allowed
    if unknown:
        raise ValueError(f"not {model.__name__} fields: {sorted(unknown)}")
    instance = model(**values)
    try:
        instance.full_clean()
    except ValidationError as exc:
        raise Refused(" ".join(exc.messages)) from exc
    return instance


@transaction.atomic
def create_event(*, values: dict[str, Any], user: User = None) -> Event:
    """Create an event with its settings (``values``: field → value, as for
    ``change_event_settings``). The user who creates it becomes its organiser, so that an
    organiser who is not a director may run it; the event's history names them."""
    event = _checked(Event, values, EVENT_SETTINGS)
    noted(event, user, "").save()
    if actor(user) is not None:
        EventRole.objects.create(event=event, user=user, role=EventRole.Role.ORGANISER)
    return event


@transaction.atomic
def create_season(*, values: dict[str, Any]) -> Season:
    """Create a season (``values``: field → value). A season keeps no history of its own: what
    counts for it are its events, which do."""
    season = _checked(Season, values, SEASON_FIELDS)
    season.save()
    return season


@transaction.atomic
def finish_event(*, event: Event, user: User = None) -> Event:
    """Finish an event once every round is closed: the standings are final and the prizes are
    handed out (``tournament.money``)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == Event.Status.FINISHED:
        raise Refused(_("The event is finished already."))
    rounds = list(event.rounds.values_list("number", "status"))
    if not rounds:
        raise Refused(_("The event has no round yet."))
    still_open = [str(number) for number, status in rounds if status != Round.Status.CLOSED]
    if still_open:
        raise Refused(
            ngettext(
                "Round %(rounds)s is not closed yet.",
                "Rounds %(rounds)s are not closed yet.",
                len(still_open),
            )
            % {"rounds": ", ".join(still_open)}
        )
    event.status = Event.Status.FINISHED
    noted(event, user, "finished").save(update_fields=["status"])
    return event


@transaction.atomic
def reopen_event(*, event: Event, reason: str, user: User = None) -> Event:
    """Take a finished event back (a correction after the prize-giving list was read)."""
    if not reason.strip():
        raise Refused(_("Give a reason for reopening the event."))
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status != Event.Status.FINISHED:
        raise Refused(_("Only a finished event can be reopened."))
    event.status = Event.Status.RUNNING
    noted(event, user, reason.strip()).save(update_fields=["status"])
    return event
