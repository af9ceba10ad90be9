"""The rating: each player's skill estimate after each rated round, and what it came from."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament import games
from tournament.models.register import Player


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
