"""The demo season: players from ``fixtures/demo_players.json``, hands from a seeded simulator.

Every hand goes through the real services and the real engine, so the demo shows exactly what a
tournament would. The simulator draws a realistic mix of contracts; it knows nothing of scoring.
"""

from __future__ import annotations

import datetime
import json
import random
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.module_loading import import_string

from tournament.models import Consent, Entry, Event, Player, Round, Season, Table, Team, versions
from tournament.play import confirmations, events, hands, rounds
from tournament.register import services as register_services

DEMO_SEASON = "schwarzwaldmeisterschaft-2026-27"
DEMO_USER, DEMO_PASSWORD = "leitung", "cego-demo-2026"
PLAYERS_FILE = Path(settings.BASE_DIR) / "fixtures" / "demo_players.json"
# the demo's events, each with its game, settings, players and how far it has been played
EVENTS_FILE = Path(settings.BASE_DIR) / "fixtures" / "demo_events.json"


def _events() -> list[dict[str, Any]]:
    return json.loads(EVENTS_FILE.read_text(encoding="utf-8"))["events"]


DEMO_EVENTS = [spec["slug"] for spec in _events()]


def simulate_hand(rng: random.Random, table: Table, number: int) -> dict[str, Any]:
    """A hand of the table's game from the game's own simulator (``GameType.simulator``)."""
    simulate = import_string(table.round.event.game_type.simulator)
    return simulate(rng, table.size, number)


def play_round(rnd: Round, rng: random.Random, user: Any, hand_count: int | None = None) -> None:
    """Play every table of a started round through the services."""
    event = rnd.event
    for table in rnd.tables.select_related("round__event"):
        wanted = hand_count if hand_count is not None else (event.hands_for(table.size) or 30)
        for number in range(1, wanted + 1):
            hands.record_hand(table=table, data=simulate_hand(rng, table, number), user=user)


def _players() -> list[dict[str, str]]:
    return json.loads(PLAYERS_FILE.read_text(encoding="utf-8"))["players"]


def _register(event: Event, people: list[Player]) -> list[Entry]:
    return [register_services.register_player(event=event, player=p) for p in people]


def _club_squads(event: Event, entries: list[Entry]) -> None:
    """A team of four for every club with four players or more (its first four)."""
    clubs: dict[str, list[Entry]] = {}
    for entry in entries:
        clubs.setdefault(entry.player.club, []).append(entry)
    for club, members in sorted(clubs.items()):
        if len(members) >= 4:
            team = Team.objects.create(event=event, name=club, kind=Team.Kind.SQUAD)
            Entry.objects.filter(pk__in=[m.pk for m in members[:4]]).update(squad=team)


def _run_event(
    event: Event, rng: random.Random, user: Any, *, closed: int, partial: int = 0
) -> None:
    for number in range(1, closed + (1 if partial else 0) + 1):
        rnd = rounds.add_round(event=event)
        rounds.draw_round(round=rnd, seed=event.pk * 1000 + number)
        rounds.start_round(round=rnd)
        if number <= closed:
            play_round(rnd, rng, user)
            # the players signed their sheets: the scorer confirms them, then the round closes
            for table in rnd.tables.all():
                confirmations.confirm_table(table=table, user=user)
            rounds.close_round(round=rnd)
        else:
            play_round(rnd, rng, user, hand_count=partial)


@transaction.atomic
@versions.at_the_end()
def load_demo(*, reset: bool = False) -> bool:
    """Create the demo season once (``reset`` replaces it). Returns False when it already exists.
    One transaction: the events' and the season's versions are written once, at its end, not
    with each of its thousand games."""
    existing = Season.objects.filter(slug=DEMO_SEASON).first()
    if existing and not reset:
        return False
    if existing:
        Event.objects.filter(slug__in=DEMO_EVENTS).delete()
        Event.objects.filter(season=existing).delete()
        existing.delete()

    user_model = get_user_model()
    user = user_model.objects.filter(username=DEMO_USER).first()
    if user is None:
        user = user_model.objects.create_superuser(DEMO_USER, "", DEMO_PASSWORD)

    people = [Player.objects.get_or_create(**p)[0] for p in _players()]
    # the demo's made-up players agreed at the desk to be named in public, as a club's players
    # do (issue 46): the consent is recorded, so that the bundles carry it
    register_services.record_consents(
        consents=[
            Consent(
                player=p,
                lists=True,
                season_site=True,
                wording=Consent.WORDING,
                via=Consent.Via.DESK,
                given_at=timezone.now(),
            )
            for p in people
            if not p.public_lists
        ],
        user=user,
        reason="demo",
    )
    rng = random.Random(20261129)
    season = Season.objects.create(name="Schwarzwaldmeisterschaft 2026/27", slug=DEMO_SEASON)
    start = datetime.date(2026, 10, 3)

    for spec in _events():
        event = Event.objects.create(
            season=season if spec.get("in_season") else None,
            name=spec["name"],
            slug=spec["slug"],
            date=start + datetime.timedelta(days=spec["days"]),
            venue=spec["venue"],
            game=spec["game"],
            **spec.get("settings", {}),
        )
        low, high = spec["players"]
        entries = _register(event, people[low:high])
        if spec.get("squads"):
            _club_squads(event, entries)
        _run_event(event, rng, user, closed=spec["closed"], partial=spec.get("partial", 0))
        if spec.get("finished"):
            # weeks ago: its prizes are handed out, its results final (the next one is running)
            events.finish_event(event=event, user=user)
    return True
