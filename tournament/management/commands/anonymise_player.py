"""``manage.py anonymise_player UID --reason TEXT``: a player anonymised on the player's request
(issue 46.4, ``register.services.anonymise_player``): name, club and town replaced by a neutral
label everywhere, the history's earlier versions included, the personal links stopped; the
results and every ranking stay. Example::

    .venv/bin/python manage.py anonymise_player 6f1c…e2 --reason "Bitte per E-Mail vom 3.12."
"""

import uuid

from django.core.management.base import BaseCommand, CommandError

from tournament.core import errors
from tournament.models import Player
from tournament.register import services


class Command(BaseCommand):
    help = (
        "Anonymise a player on request: name, club and town replaced by a neutral label in the "
        "register, the history and the prize-giving lists, the personal links stopped; results "
        "and rankings stay. Publish the season again afterwards."
    )

    def add_arguments(self, parser):
        parser.add_argument("player", help="the player's identifier (the register's player page)")
        parser.add_argument("--reason", required=True, help="why (the player's request), kept")

    def handle(self, *args, **options):
        try:
            player = Player.objects.get(uid=uuid.UUID(options["player"]))
        except (ValueError, Player.DoesNotExist) as exc:
            raise CommandError(f"No player with the identifier {options['player']!r}.") from exc
        try:
            done = services.anonymise_player(player=player, reason=options["reason"])
        except errors.Refused as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"Anonymised: now {done.first_name} {done.last_name}.")
