"""The lock every money list of an event is saved under (the prize table, the fee categories)."""

from __future__ import annotations

from tournament.models import Event


def lock_event(event: Event) -> None:
    """Lock the event's row until the transaction ends, so that two organisers saving the same
    event's list save one after the other, not into each other. Call it inside the save's
    transaction, before reading the rows it replaces."""
    Event.objects.select_for_update().filter(pk=event.pk).values_list("pk").first()
