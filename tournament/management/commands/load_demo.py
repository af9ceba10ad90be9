"""``manage.py load_demo [--reset]``: the demo season loaded (``demo``: two Cego tournaments, a
Ziege, a Crazy Solo and a Hennes Sibbe event, every hand played through the engine), with a
director's login.

Run by ``make demo`` and by whoever wants to try the app or show it; ``--reset`` replaces a demo
season already there. Example::

    .venv/bin/python manage.py load_demo --reset
"""

from django.core.management.base import BaseCommand

from tournament.demo import DEMO_PASSWORD, DEMO_USER, load_demo


class Command(BaseCommand):
    help = (
        "Load the demo season (two Cego tournaments, a Ziege, a Crazy Solo and a Hennes Sibbe "
        "event, every hand played through the scoring engine) unless it is already there."
    )

    def add_arguments(self, parser):
        parser.add_argument("--reset", action="store_true", help="replace an existing demo season")

    def handle(self, *args, **options):
        if load_demo(reset=options["reset"]):
            self.stdout.write(self.style.SUCCESS("Demo season loaded."))
        else:
            self.stdout.write("Demo season already loaded (use --reset to load it again).")
        self.stdout.write(f"Director login: {DEMO_USER} / {DEMO_PASSWORD}")
