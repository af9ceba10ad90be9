from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # imported here, not above: the models and the games need the app registry, ready only now
        from simple_history.signals import pre_create_historical_record

        import tournament.checks  # noqa: F401 - registers the system checks
        from tournament import games
        from tournament.core.audit import note_actor
        from tournament.models import versions

        games.load()  # every game offered before the first request
        versions.connect()  # every write changes its event's version (the cached pages' key)
        pre_create_historical_record.connect(note_actor, dispatch_uid="tournament-history-actor")
