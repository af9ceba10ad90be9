from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # imported here, not above: the models and the games need the app registry, ready only now
        from django.conf import settings
        from django.core.cache import close_caches
        from django.core.signals import request_finished
        from simple_history.signals import pre_create_historical_record

        import tournament.checks  # noqa: F401 - registers the system checks
        from tournament import games
        from tournament.core.audit import note_actor
        from tournament.models import versions

        games.load()  # every game offered before the first request
        versions.connect()  # every write changes its event's version (the cached pages' key)
        pre_create_historical_record.connect(note_actor, dispatch_uid="tournament-history-actor")
        if settings.CACHES["default"]["BACKEND"] == "diskcache.DjangoCache":
            # the laptop's page cache keeps its SQLite files open between requests, as the
            # database connection is kept: closed after each request (Django's default for every
            # cache), each read opened them again, most of what a page from the cache cost
            request_finished.disconnect(close_caches)
