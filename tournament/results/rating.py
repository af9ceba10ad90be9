"""A rating across events and seasons (issue 16): a multiplayer skill estimate per player and game,
shown as its own list beside the official standings, which it never changes.

What it is computed from
    Every counting table of a closed round is one *match*: its players are ranked by their result
    there (the sum of their results at that table for the round, read the way the game's standings
    read it: Cego points and Crazy Solo chips higher first, Ziege by matches won then the
    difference, Hennes Sibbe fewest penalty cards first). Equal results share a rank. A voided
    table counts nothing, and neither does a round still being played: its tables are not finished.
    Matches are taken in event date order (then the event's short name), then round and table
    number, seats in seat order: the same stored hands always give the same numbers.

The model
    openskill's Plackett-Luce model (Weng and Lin's Bayesian approximation, a free relative of
    TrueSkill) with its published defaults: every player starts at mu 25 with uncertainty sigma
    25/3; beta 25/6 is how much one table's result varies around a player's skill; tau 25/300 is
    added to sigma before every match, so that a rating keeps moving over a long career; kappa
    0.0001 keeps the variance positive. The figure shown is the ordinal mu - 3 sigma: a player is
    at least this strong with 99.7 % certainty, so that a new player starts at 0 and rises by
    playing well and often. Each game has its own list: a Cego rating says nothing about Ziege.

Provisional
    A player with fewer than :data:`PROVISIONAL_TABLES` tables counted (three days of two
    Durchgänge) is marked provisional: sigma is still large and the figure moves a lot.

When it is computed
    ``manage.py compute_ratings`` recomputes everything in one transaction. The rating page checks
    whether anything it reads has changed since the last computation and recomputes that game
    first if so (:func:`current`): a cheap look at the events' versions on every visit, a digest of
    the closed rounds' results only when a version moved, and the whole recompute only when that
    digest moved too, i.e. about once per closed round or correction, not per game entered.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, Max, Q, Sum
from django.utils import timezone
from django.utils.formats import number_format
from openskill.models import PlackettLuce

from tournament import games
from tournament.core import formatting
from tournament.games.base import GameType
from tournament.models import Event, Hand, Rating, RatingBasis, Result, Round

# Plackett-Luce parameters (openskill's defaults, written out so that a library upgrade that
# changed a default cannot change the ratings unnoticed)
MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
KAPPA = 0.0001
# the figure shown: mu - Z * sigma
Z = 3.0
# fewer tables than this: provisional (three days of two Durchgänge)
PROVISIONAL_TABLES = 6

SUMMED = ("points", "inflicted", "matches_won", "games_lost")


def model() -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU, kappa=KAPPA)


@dataclass
class Match:
    """One table's round: its players (Player ids, in seat order), their ranks (1 best, shared on
    equal results) and the games each played there."""

    players: list[int] = field(default_factory=list)
    ranks: list[int] = field(default_factory=list)
    hands: list[int] = field(default_factory=list)


@dataclass
class Skill:
    mu: float = MU
    sigma: float = SIGMA
    tables: int = 0
    hands: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - Z * self.sigma


def table_ranks(game: GameType, seats: list[dict[str, int]]) -> list[int]:
    """Competition ranks (1, 2, 2, 4) of a table's seats from their summed result fields, in the
    order of the game's standings (RULES.md 6)."""
    keys = []
    for sums in seats:
        key = []
        for figure, (_name, order) in zip(game.deciding(), game.ranking, strict=True):
            value = figure.of_sums(sums)
            key.append(-value if order == "desc" else value)
        keys.append(tuple(key))
    return [1 + sum(other < key for other in keys) for key in keys]


def matches(game_key: str) -> Iterator[Match]:
    """The game's matches in rating order (two queries: the events, the summed results)."""
    game = games.get(game_key)
    rows = (
        Result.objects.filter(
            event__game=game_key,
            round__status=Round.Status.CLOSED,
            counts=True,
            table__voided=False,
        )
        .values("table_id", "position", "entry__player_id", "event_id", "table__size")
        .annotate(
            **{name: Sum(name) for name in SUMMED},
            played=Count("id", filter=Q(hand__kind=Hand.Kind.HAND)),
            totals=Count("id", filter=Q(hand__kind=Hand.Kind.TOTALS)),
        )
        .order_by(
            "event__date", "event__slug", "round__number", "table__number", "table_id", "position"
        )
    )
    # for a paper sheet's totals: how many games they stand for (the event's games per round)
    events = {e.pk: e for e in Event.objects.filter(game=game_key).only("hands_per_round", "game")}
    table: int | None = None
    seats: list[dict[str, Any]] = []
    for row in rows.iterator(chunk_size=2000):
        if row["table_id"] != table and seats:
            yield _match(game, seats, events)
            seats = []
        table = row["table_id"]
        seats.append(row)
    if seats:
        yield _match(game, seats, events)


def _match(game: GameType, seats: list[dict[str, Any]], events: dict[int, Event]) -> Match:
    hands = []
    for seat in seats:
        played = seat["played"]
        if seat["totals"]:
            # a paper sheet's totals stand for the round's games (Hand.Kind.TOTALS)
            played += events[seat["event_id"]].hands_for(seat["table__size"]) or 0
        hands.append(played)
    return Match(
        players=[seat["entry__player_id"] for seat in seats],
        ranks=table_ranks(game, seats),
        hands=hands,
    )


def rate(all_matches: Iterable[Match]) -> dict[int, Skill]:
    """Every player's skill after ``all_matches`` in order. Pure: no database."""
    rating = model()
    skills: dict[int, Skill] = {}
    for match in all_matches:
        if len(match.players) < 2:
            continue
        current = [skills.setdefault(player, Skill()) for player in match.players]
        teams = [[rating.rating(mu=skill.mu, sigma=skill.sigma)] for skill in current]
        rated = rating.rate(teams, ranks=[float(rank) for rank in match.ranks])
        for skill, (new,), hands in zip(current, rated, match.hands, strict=True):
            skill.mu, skill.sigma = new.mu, new.sigma
            skill.tables += 1
            skill.hands += hands
    return skills


def _digest(values: Iterable[Any]) -> str:
    return hashlib.sha256(repr(list(values)).encode()).hexdigest()


def versions_digest(game_key: str) -> str:
    """Changes with every write to any of the game's events (one query over the events)."""
    return _digest(Event.objects.filter(game=game_key).order_by("pk").values_list("pk", "version"))


def data_digest(game_key: str) -> str:
    """Changes when what the rating reads changes (two queries): the closed rounds' counting
    results (a correction or rescoring writes new rows: a new highest id), who played them (a
    merge of two players), and the events' dates (their order)."""
    results = Result.objects.filter(
        event__game=game_key,
        round__status=Round.Status.CLOSED,
        counts=True,
        table__voided=False,
    ).aggregate(
        rows=Count("id"), last=Max("id"), points=Sum("points"), players=Sum("entry__player_id")
    )
    dates = Event.objects.filter(game=game_key).order_by("pk").values_list("pk", "date", "slug")
    return _digest([sorted(results.items()), *dates])


@transaction.atomic
def compute_ratings(*, game: str | None = None) -> int:
    """Recompute the ratings of one game (or of every game) from the stored results, replacing
    the stored ones; returns the number of players rated."""
    keys = [game] if game is not None else [g.key for g in games.all_games()]
    return sum(_compute(key, versions_digest(key), data_digest(key)) for key in keys)


def _compute(key: str, seen: str, data: str) -> int:
    """Replace the stored ratings of game ``key``, noting what they were computed from."""
    now = timezone.now()
    skills = rate(matches(key))
    Rating.objects.filter(game=key).delete()
    Rating.objects.bulk_create(
        Rating(
            player_id=player,
            game=key,
            mu=skill.mu,
            sigma=skill.sigma,
            ordinal=skill.ordinal,
            tables=skill.tables,
            hands=skill.hands,
            updated_at=now,
        )
        for player, skill in sorted(skills.items())
    )
    RatingBasis.objects.update_or_create(
        game=key, defaults={"versions": seen, "data": data, "computed_at": now}
    )
    return len(skills)


def current(game_key: str) -> RatingBasis | None:
    """The basis of the game's stored ratings, recomputed first if what they read has changed
    (see the module's docstring). Two small queries when nothing was written since the last
    look: the basis and the events' versions."""
    basis = RatingBasis.objects.filter(game=game_key).first()
    seen = versions_digest(game_key)
    if basis is not None and basis.versions == seen:
        return basis
    data = data_digest(game_key)
    if basis is not None and basis.data == data:
        RatingBasis.objects.filter(pk=basis.pk).update(versions=seen)
        basis.versions = seen
        return basis
    try:
        with transaction.atomic():
            # one recompute at a time: a second visitor waits here, then finds it done
            locked = RatingBasis.objects.select_for_update().filter(game=game_key).first()
            if locked is None or locked.data != data:
                _compute(game_key, seen, data)
    except IntegrityError:  # another visitor created the first basis meanwhile: theirs stands
        pass
    return RatingBasis.objects.filter(game=game_key).first()


def ratings(game_key: str) -> Any:
    """The game's ratings, best first, with the players (one query)."""
    return (
        Rating.objects.filter(game=game_key)
        .select_related("player")
        .order_by("-ordinal", "-mu", "player__last_name", "player__first_name", "player__pk")
    )


def shown(ordinal: float) -> str:
    """The rating as the page writes it: one decimal in the reader's format, the typographic
    minus of every other signed number (tournament.core.formatting)."""
    text = number_format(abs(ordinal), decimal_pos=1)
    return f"{formatting.MINUS}{text}" if round(ordinal, 1) < 0 else text
