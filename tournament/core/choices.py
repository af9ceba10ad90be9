"""Choice values that code below the models needs (the draw plans tables by the table policy).

The models use these classes as their nested choices (``Event.TablePolicy``), so a value has one
home and the draw imports no model.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class TablePolicy(models.TextChoices):
    EXACT = "exact", _("Only full tables: the draw stops and says how many players are missing")
    SIT_OUT = "sit_out", _("Full tables; extra players sit out in turn")
    MIXED = "mixed", _("Smaller or larger tables where the player count needs them")


class Pairing(models.TextChoices):
    DRAWN = "drawn", _("Partners drawn every round")
    FIXED = "fixed", _("Fixed pairs registered as teams")
