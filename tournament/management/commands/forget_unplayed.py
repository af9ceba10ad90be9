"""``manage.py forget_unplayed [--apply]``: retention (issue 46.5). A player who registered and
never played (cancelled, left on the waiting list, did not come), every event of theirs
finished, is anonymised as on request (``register.services.forget_never_played``): no event
needs their name, club and town any more. The digests of the addresses the online registration
kept for its limit are deleted once the limit no longer counts them. Without ``--apply`` it only
lists whom it would anonymise. Run it after each event day::

    .venv/bin/python manage.py forget_unplayed            # who would be anonymised
    .venv/bin/python manage.py forget_unplayed --apply
"""

from django.core.management.base import BaseCommand

from tournament.register import online, reads, services


class Command(BaseCommand):
    help = (
        "Anonymise the players who registered and never played, once every event of theirs is "
        "finished, and delete the registration limit's old address digests. Without --apply, "
        "list them only."
    )

    def add_arguments(self, parser):
        parser.add_argument("--apply", action="store_true", help="anonymise them (else: list)")

    def handle(self, *args, **options):
        if not options["apply"]:
            players = [p for p in reads.never_played() if not services.is_anonymised(p)]
            for player in players:
                self.stdout.write(f"{player.uid}  {player.sort_name}")
            self.stdout.write(f"{len(players)} to anonymise (run again with --apply).")
            return
        forgotten = services.forget_never_played()
        digests = online.forget_attempts()
        self.stdout.write(
            f"Anonymised {len(forgotten)} players who never played; "
            f"deleted {digests} old address digests."
        )
