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

from tournament.models import Entry, Event, Player, Round, Season, Table, Team
from tournament.play import services, sheets
from tournament.register import services as register_services

DEMO_SEASON = "schwarzwaldmeisterschaft-2026-27"
DEMO_USER, DEMO_PASSWORD = "leitung", "cego-demo-2026"
DEMO_EVENTS = [
    "furtwangen-2026",
    "triberg-2026",
    "ziege-schonach-2026",
    "crazy-solo-titisee-2026",
    "hennes-sibbe-cup-2026",
]
PLAYERS_FILE = Path(settings.BASE_DIR) / "fixtures" / "demo_players.json"

# Share of contracts in a Cego tournament (roughly what the paper lists of a Meisterschaft show).
CEGO_MIX: list[tuple[str, int]] = [
    ("cego", 34),
    ("halbe", 20),
    ("eine", 11),
    ("leere", 7),
    ("zwei_leere", 4),
    ("zwei_verschiedene", 2),
    ("geiss", 1),
    ("solo", 9),
    ("bettel", 4),
    ("piccolo", 3),
    ("ulti", 2),
    ("raeuber", 3),
]


def _pick(rng: random.Random, mix: list[tuple[str, int]]) -> str:
    return rng.choices([k for k, _w in mix], weights=[w for _k, w in mix])[0]


def simulate_cego(rng: random.Random, seats: int, sitting_out: int | None) -> dict[str, Any]:
    active = [s for s in range(seats) if s != sitting_out]
    contract = _pick(rng, CEGO_MIX)
    if contract == "raeuber":
        cuts = sorted(rng.sample(range(1, 79), len(active) - 1))
        shares = [b - a for a, b in zip([0, *cuts], [*cuts, 79], strict=True)]
        points = [0] * seats
        for seat, share in zip(active, shares, strict=True):
            points[seat] = share
        hand: dict[str, Any] = {"contract": "raeuber", "points": points}
        if rng.random() < 0.3:
            hand["announcer"] = rng.choice(active)
        return hand
    hand = {"contract": contract, "declarer": rng.choice(active)}
    if contract in ("bettel", "piccolo"):
        target = 0 if contract == "bettel" else 1
        hand["declarer_tricks"] = target if rng.random() < 0.6 else rng.choice([0, 1, 2, 3])
    elif contract == "ulti":
        hand["won"] = rng.random() < 0.5
    else:
        if rng.random() < 0.03:
            hand["declarer_took_trick"] = False
        else:
            # a bid is made with a good hand: the declarer wins a bit more often than not
            hand["declarer_points"] = max(2, min(79, round(rng.gauss(43, 9))))
        if contract != "solo" and rng.random() < 0.05:
            hand["gegensolo"] = True
    return hand


def simulate_ziege(rng: random.Random) -> dict[str, Any]:
    roll = rng.random()
    if roll < 0.04:
        return {"team_a_points": 60}
    if roll < 0.08:
        return {"team_a_points": rng.choice([0, 120])}
    return {"team_a_points": max(1, min(119, round(rng.gauss(60, 22))))}


def simulate_crazy_solo(rng: random.Random, seats: int) -> dict[str, Any]:
    contracts = ["solo", "herz_solo", "alleingang", "alleingang_herz"]
    weights = [50, 25, 15, 10] if seats > 3 else [0, 0, 60, 40]
    contract = rng.choices(contracts, weights=weights)[0]
    bidder = rng.randrange(seats)
    hand: dict[str, Any] = {
        "contract": contract,
        "bidder": bidder,
        "soloist_points": max(0, min(120, round(rng.gauss(66, 18)))),
    }
    if contract in ("solo", "herz_solo"):
        hand["partner"] = rng.choice([s for s in range(seats) if s != bidder] + [None])
    return hand


def simulate_hennes_sibbe(rng: random.Random, seats: int) -> dict[str, Any]:
    claimant = rng.randrange(seats)
    return {
        "claimant": claimant,
        "challenger": (claimant + 1) % seats,
        "claim": {
            "count": rng.randint(3, 10),
            "colour": rng.choice(["rot", "gelb", "blau", "lila"]),
        },
        "claim_correct": rng.random() < 0.5,
    }


def simulate_hand(rng: random.Random, table: Table, number: int) -> dict[str, Any]:
    game = table.round.event.game
    if game == "cego":
        sitting_out = sheets.dealer_for(number, table.size) if table.size == 5 else None
        return simulate_cego(rng, table.size, sitting_out)
    if game == "ziege":
        return simulate_ziege(rng)
    if game == "crazy_solo":
        return simulate_crazy_solo(rng, table.size)
    return simulate_hennes_sibbe(rng, table.size)


def play_round(rnd: Round, rng: random.Random, user: Any, hands: int | None = None) -> None:
    """Play every table of a started round through the services."""
    event = rnd.event
    for table in rnd.tables.select_related("round__event"):
        wanted = hands if hands is not None else (event.hands_for(table.size) or 30)
        for number in range(1, wanted + 1):
            services.record_hand(table=table, data=simulate_hand(rng, table, number), user=user)


def _players() -> list[dict[str, str]]:
    return json.loads(PLAYERS_FILE.read_text(encoding="utf-8"))["players"]


def _register(event: Event, people: list[Player]) -> list[Entry]:
    return [register_services.register_player(event=event, player=p) for p in people]


def _run_event(
    event: Event, rng: random.Random, user: Any, *, closed: int, partial: int = 0
) -> None:
    for number in range(1, closed + (1 if partial else 0) + 1):
        rnd = services.add_round(event=event)
        services.draw_round(round=rnd, seed=event.pk * 1000 + number)
        services.start_round(round=rnd)
        if number <= closed:
            play_round(rnd, rng, user)
            # the players signed their sheets: the scorer confirms them, then the round closes
            for table in rnd.tables.all():
                services.confirm_table(table=table, user=user)
            services.close_round(round=rnd)
        else:
            play_round(rnd, rng, user, hands=partial)


@transaction.atomic
def load_demo(*, reset: bool = False) -> bool:
    """Create the demo season once (``reset`` replaces it). Returns False when it already exists."""
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
    rng = random.Random(20261129)
    season = Season.objects.create(name="Schwarzwaldmeisterschaft 2026/27", slug=DEMO_SEASON)
    start = datetime.date(2026, 10, 3)

    first = Event.objects.create(
        season=season,
        name="1. Turnier Furtwangen",
        slug="furtwangen-2026",
        date=start,
        venue="Festhalle Furtwangen",
        game="cego",
    )
    entries = _register(first, people[:40])
    clubs: dict[str, list[Entry]] = {}
    for entry in entries:
        clubs.setdefault(entry.player.club, []).append(entry)
    for club, members in sorted(clubs.items()):
        if len(members) >= 4:
            team = Team.objects.create(event=first, name=club, kind=Team.Kind.SQUAD)
            Entry.objects.filter(pk__in=[m.pk for m in members[:4]]).update(squad=team)
    _run_event(first, rng, user, closed=2)
    # four weeks ago: its prizes are handed out, its results final (the second one is running)
    services.finish_event(event=first, user=user)

    second = Event.objects.create(
        season=season,
        name="2. Turnier Triberg",
        slug="triberg-2026",
        date=start + datetime.timedelta(days=28),
        venue="Kurhaus Triberg",
        game="cego",
    )
    _register(second, people[4:40])
    _run_event(second, rng, user, closed=1, partial=10)

    ziege = Event.objects.create(
        name="Ziegen-Abend Schonach",
        slug="ziege-schonach-2026",
        date=start + datetime.timedelta(days=7),
        venue="Gasthaus Rößle",
        game="ziege",
        table_policy=Event.TablePolicy.SIT_OUT,
        rounds_planned=1,
    )
    _register(ziege, people[40:53])
    _run_event(ziege, rng, user, closed=1)

    crazy = Event.objects.create(
        name="Crazy-Solo-Runde Titisee",
        slug="crazy-solo-titisee-2026",
        date=start + datetime.timedelta(days=14),
        venue="Seehalle Titisee",
        game="crazy_solo",
        table_policy=Event.TablePolicy.MIXED,
        target_table_size=7,
        rounds_planned=1,
    )
    _register(crazy, people[44:58])
    _run_event(crazy, rng, user, closed=1)

    hennes = Event.objects.create(
        name="Hennes-Sibbe-Cup",
        slug="hennes-sibbe-cup-2026",
        date=start + datetime.timedelta(days=21),
        venue="Vereinsheim Gütenbach",
        game="hennes_sibbe",
        table_policy=Event.TablePolicy.MIXED,
        target_table_size=5,
        rounds_planned=1,
        hands_per_round={"5": 30},
    )
    _register(hennes, people[54:64])
    _run_event(hennes, rng, user, closed=1)
    return True
