"""What every model shares: history rows (simple-history) and the event version that pages are
cached by, the secret of a link, and the bounds of the numbers a director types."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import models
from simple_history.models import HistoricalRecords

from tournament.models.defaults import first_version


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
    # the version just before (``models.versions``): its pages may be served while this one's
    # are computed (``pagecache.pages``)
    previous_version = models.PositiveBigIntegerField(null=True, editable=False)

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
                if not f.primary_key and f.name not in ("version", "previous_version")
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


# the most players an event's online registration takes (a hall of 2,000 is plenty)
PLACES_MAX = 10_000


# the most games a table plays in one round, for every way of giving it (one bound, issue 11)
HANDS_MAX = 10_000


# the most one point or chip may be worth in a money game: 100 euros (issue 17)
POINT_VALUE_MAX = 10_000
