"""Small factory functions for test data (no JSON fixtures): each makes valid rows with the least
typing, through the services where the services would be used."""

from __future__ import annotations

import datetime
import itertools
from typing import Any

from django.contrib.auth import get_user_model

from tournament.models import Entry, Event, Player, Round, Season, Table
from tournament.play import hands, rounds
from tournament.register import services as register_services

_counter = itertools.count(1)


def make_user(
    username: str = "director", password: str = "pw-for-tests-only", *, staff: bool = True
) -> Any:
    """A director (staff: organiser of every event) unless ``staff=False``."""
    user_model = get_user_model()
    user = user_model.objects.filter(username=username).first()
    return user or user_model.objects.create_user(
        username=username, password=password, is_staff=staff
    )


def make_role(event: Event, role: str, username: str | None = None) -> Any:
    """A non-staff user with one role (organiser or scorer) for one event."""
    from tournament.models import EventRole

    user = make_user(username or f"{role}-{next(_counter)}", staff=False)
    EventRole.objects.create(event=event, user=user, role=role)
    return user


def new_player(**kwargs: Any) -> Player:
    """A player who agreed to be named in public, in the lists and on the season's website (as
    a recorded consent leaves a player, ``register.services.record_consents``), not saved yet; a
    test of the neutral label passes ``public_lists=False``."""
    n = next(_counter)
    defaults = {
        "first_name": f"Vorname{n}",
        "last_name": f"Nachname{n}",
        "club": "CC Test",
        "public_lists": True,
        "public_season": True,
    }
    return Player(**{**defaults, **kwargs})


def make_player(**kwargs: Any) -> Player:
    """``new_player``, saved."""
    player = new_player(**kwargs)
    player.save()
    return player


def make_season(**kwargs: Any) -> Season:
    n = next(_counter)
    return Season.objects.create(**{"name": f"Saison {n}", "slug": f"saison-{n}", **kwargs})


def make_event(game: str = "cego", **kwargs: Any) -> Event:
    n = next(_counter)
    defaults: dict[str, Any] = {
        "name": f"Turnier {n}",
        "slug": f"turnier-{n}",
        "date": datetime.date(2026, 10, 3),
        "game": game,
    }
    return Event.objects.create(**{**defaults, **kwargs})


def make_entries(event: Event, count: int, **player_kwargs: Any) -> list[Entry]:
    """``count`` new players entered in the event, numbered on, as the desk registers a list of
    new names (``register_players``: the players and entries written in bulk)."""
    return register_services.register_players(
        event=event, players=[new_player(**player_kwargs) for _ in range(count)]
    )


def make_round(event: Event, *, seed: int = 1, start: bool = True) -> Round:
    """Add the next round, draw it with a fixed seed and (by default) start it."""
    rnd = rounds.add_round(event=event)
    rnd = rounds.draw_round(round=rnd, seed=seed)
    if start:
        rnd = rounds.start_round(round=rnd)
    return rnd


def make_table(game: str = "cego", players: int = 4, **event_kwargs: Any) -> Table:
    """One started round with a single table of ``players``."""
    policy = Event.TablePolicy.MIXED if game == "cego" and players != 4 else None
    kwargs = dict(event_kwargs)
    if policy:
        kwargs.setdefault("table_policy", policy)
    if game in ("crazy_solo", "hennes_sibbe"):
        kwargs.setdefault("target_table_size", players)
        kwargs.setdefault("table_policy", Event.TablePolicy.MIXED)
    event = make_event(game, **kwargs)
    make_entries(event, players)
    rnd = make_round(event)
    return rnd.tables.get()


def cego(contract: str = "halbe", declarer: int = 0, points: int = 34, **extra: Any) -> dict:
    return {"contract": contract, "declarer": declarer, "declarer_points": points, **extra}


def challenge(loser: int = 0, seats: int = 3) -> dict:
    """A Hennes Sibbe challenge the claimant got wrong ("5 gelb", "Lüge!" from the next seat):
    the claimant takes the penalty card."""
    return {
        "claimant": loser,
        "challenger": (loser + 1) % seats,
        "claim": {"count": 5, "colour": "gelb"},
        "claim_correct": False,
    }


def make_played_season() -> Season:
    """Two events of a season, four players each (one woman, Eva Schwörer, in both), one hand
    each; a third event in another season, which the publication leaves out."""
    season = make_season(name="Schwarzwaldmeisterschaft 2026/27", slug="swm-2026")
    eva = make_player(first_name="Eva", last_name="Schwörer", category="damen")
    for n, (name, points) in enumerate((("Furtwangen", 47), ("Triberg", 34))):
        event = make_event(name=f"Turnier {name}", slug=f"turnier-{name.lower()}", season=season)
        entry = register_services.register_player(event=event, player=eva)
        make_entries(event, 3)
        table = make_round(event, seed=n + 1).tables.get()
        position = table.seats.get(entry=entry).position
        hands.record_hand(table=table, data=cego("halbe", position, points))
    elsewhere = make_event(name="Turnier Anderswo", slug="anderswo", season=make_season())
    register_services.register_player(event=elsewhere, player=eva)
    make_entries(elsewhere, 3)
    make_round(elsewhere)
    return season
