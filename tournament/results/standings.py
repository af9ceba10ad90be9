"""Standings beyond the event list: side rankings, teams, a round by table, the season.

Each function costs a fixed number of queries, whatever the size of the event or season.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from django.db.models import Count, Exists, OuterRef, Q, Sum, Value
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy as _

from tournament import games
from tournament.core import collation, shown
from tournament.games.base import GameType
from tournament.models import Entry, Event, Player, Result, Round, Season, Seat, Team
from tournament.results import pairs

PRIZE_PLACES = 3
T = TypeVar("T")
# the prize-giving list shows this many places (and the last place)
PRIZE_LIST = 10


def shared_ranks(values: Sequence[Any]) -> list[int]:
    """Competition ranking (1, 2, 2, 4) of values already sorted best first."""
    ranks: list[int] = []
    for i, value in enumerate(values):
        ranks.append(ranks[-1] if i and value == values[i - 1] else i + 1)
    return ranks


def place_text(entry: Any) -> str:
    """An entry's place as the standings write it: "3", or "3 (by lot)" when a draw by lot between
    tied entries decided it (the lot is the last of the ranking's keys, ``EntryQuerySet``; a lot
    that lapsed is gone from the entry)."""
    if getattr(entry, "lot", None) is None:
        return str(entry.rank)
    return _("%(rank)s (by lot)") % {"rank": entry.rank}


def mark_last_place(rows: Sequence[T]) -> Sequence[T]:
    """Every entry on the last rank is last (a tie for the last place shares the consolation
    prize); nobody is last while everyone shares the first rank. Returns ``rows``."""
    last = max((row.rank for row in rows), default=1)  # type: ignore[attr-defined]
    for row in rows:
        row.is_last = last > 1 and row.rank == last  # type: ignore[attr-defined]
    return rows


def is_last(entry: Any, last: tuple[Any, ...] | None, game: GameType) -> bool:
    """Whether a row of the standings query is on the last place (``EntryQuerySet.last_place``),
    unless everyone shares the first rank (as ``mark_last_place``)."""
    keys = (*(getattr(entry, name) for name, _order in game.ranking), entry.lot)
    return entry.rank > 1 and keys == last


def prize_list(rows: Sequence[Any]) -> list[Any]:
    """The prize-giving list: the prize places and everyone on the last place; ``gap`` marks a row
    after places left out."""
    shown = []
    for i, row in enumerate(rows):
        if row.rank <= PRIZE_LIST or row.is_last:
            row.gap = bool(shown) and rows[i - 1] is not shown[-1]
            shown.append(row)
    return shown


def rounds_of(event: Event) -> list[Round]:
    """The event's rounds in order, each with ``voided_tables`` (one query). The order is asked
    for: Django leaves a model's default ordering out of a query with GROUP BY, and PostgreSQL
    then gives the rounds in any order (the standings' round columns swapped now and then)."""
    return list(
        event.rounds.annotate(
            voided_tables=Count("tables", filter=Q(tables__voided=True))
        ).order_by("number")
    )


def voided_entries(rounds: Sequence[Round]) -> dict[int, set[int]]:
    """Entries whose table's round is voided, by round number: their result there is "—", not 0.
    One query, and none when no table of these rounds is voided (``rounds_of``)."""
    affected = [r.pk for r in rounds if getattr(r, "voided_tables", 1)]
    if not affected:
        return {}
    voided: dict[int, set[int]] = defaultdict(set)
    for number, entry_id in Seat.objects.filter(
        round_id__in=affected, table__voided=True
    ).values_list("round__number", "entry_id"):
        voided[number].add(entry_id)
    return dict(voided)


def ranking(event: Event) -> dict[int, tuple[int, int]]:
    """Every ranked entry's rank and result (the game's result figure) as the standings show
    them, by entry: one query, kept per version of the event for the players' own pages
    (``views.playerday``)."""
    game, rules = event.game_type, event.full_rules()
    figure = game.result_figure()
    ranked = Entry.objects.standings(event).values_list("pk", "rank", figure.name)
    return {pk: (rank, game.shown(figure, value, rules)) for pk, rank, value in ranked}


def standing_in(
    ranking: dict[int, tuple[int, int]], entry: Entry, game: GameType
) -> dict[str, Any] | None:
    """An entry's rank and result in the event's ``ranking``, how many are ranked, and the
    result as the standings write it under its heading; None before the entry has played."""
    place = ranking.get(entry.pk)
    if place is None:
        return None
    figure = game.result_figure()
    return {
        "rank": place[0],
        "result": place[1],
        "heading": figure.heading,
        "text": figure.text(place[1]),
        "of": len(ranking),
    }


def prize_ties(event: Event) -> list[list[Entry]]:
    """Groups of entries sharing a prize place (not yet decided by lot): one query."""
    groups: dict[int, list[Entry]] = defaultdict(list)
    for entry in Entry.objects.standings(event):
        if entry.rank <= PRIZE_PLACES:
            groups[entry.rank].append(entry)
    # a fixed Ziege pair is one unit: partners always tie, and only two pairs need a lot
    unit = pairs.units(event)
    return [
        group
        for _rank, group in sorted(groups.items())
        if len({unit.get(e.pk, e.pk) for e in group}) > 1
    ]


def team_standings(event: Event) -> list[dict[str, Any]]:
    """Teams of four: the sum of their members' totals (RULES.md 6). Two queries. A team
    whose players all left it (a correction in the admin) is no team of the ranking."""
    teams = list(
        Team.objects.filter(event=event, kind=Team.Kind.SQUAD)
        .filter(Exists(Entry.objects.filter(squad=OuterRef("pk"))))
        .annotate(
            total=Coalesce(
                Sum("squad_members__seats__points"),
                Value(0),
            )
        )
        .prefetch_related("squad_members__player")
        .order_by("-total", "name")
    )
    ranks = shared_ranks([t.total for t in teams])
    return [
        {
            "rank": rank,
            "name": team.name,
            "members": ", ".join(_member(m) for m in team.squad_members.all()),
            "total": team.total,
        }
        for rank, team in zip(ranks, teams, strict=True)
    ]


def _member(entry: Entry) -> str:
    """A team member as the public team ranking names them (``Player.public_name``)."""
    name = entry.player.public_name(entry.start_number)
    return name if entry.is_active else f"{name} ({_('withdrawn')})"


def round_tables(rnd: Round) -> list[dict[str, Any]]:
    """A round's results by table: each seat's round figure (``GameType.round_figure``, as the
    standings' round column: Ziege's difference), its ``text`` as they write it. Two queries."""
    game = rnd.event.game_type
    figure = game.round_figure
    seats = list(
        Seat.objects.filter(round=rnd, table__isnull=False)
        .select_related("entry__player", "table")
        .order_by("table__number", "position")
    )
    totals = {
        (row["table_id"], row["position"]): row["figure"]
        for row in Result.objects.filter(round=rnd)
        .values("table_id", "position")
        .annotate(figure=Sum(figure.expression("")))
    }
    tables: dict[int, dict[str, Any]] = {}
    for seat in seats:
        table = tables.setdefault(seat.table_id, {"table": seat.table, "seats": []})
        value = totals.get((seat.table_id, seat.position), 0)
        table["seats"].append({"seat": seat, "points": value, "text": figure.text(value)})
    return list(tables.values())


def _summed_fields(game: GameType) -> tuple[str, ...]:
    """The result fields the season adds up: the total's and those of the game's ranking and
    result figures (Cego ranks by points alone, so its season sums one field, as its floor
    does)."""
    fields = {"points"}
    for name in {game.result, *(name for name, _order in game.ranking)}:
        fields.update(field for _weight, field in game.figure(name).of)
    return tuple(sorted(fields))


def as_shown(game: GameType, sums: dict[str, int], rules: dict[str, Any]) -> dict[str, int]:
    """An entry's summed result fields with its points as the event shows its total (Crazy
    Solo: the chips held, the start balance plus every result), so that a season adds up and
    ranks the figures each event shows."""
    return {**sums, "points": game.shown_total(sums["points"], rules)}


def season_figures(game: GameType) -> list[Any]:
    """The figures of the season's columns after each event's: the result, then the other
    figures that decide the order (Ziege: the difference, then the defeat points taken)."""
    result = game.result_figure()
    return [result, *(f for f in game.deciding() if f.name != result.name)]


def ranking_key(game: GameType, sums: dict[str, int]) -> tuple[int, ...]:
    """A sort key, smaller is better, from summed result fields (an entry's in its event, a
    player's over a season): the game's standings order (``GameType.ranking``, RULES.md 6), as
    the season ranks its players and the player page an event's entries. Equal keys share a
    rank (``shared_ranks``)."""
    return tuple(
        -game.figure(name).of_sums(sums) if order == "desc" else game.figure(name).of_sums(sums)
        for name, order in game.ranking
    )


def season_sums(
    game: GameType, events: list[dict[str, int]], best_of: int, fields: Sequence[str]
) -> dict[str, int]:
    """A player's season sums of ``fields`` from each event's sums: all events, or the best
    ``best_of`` of them in the game's standings order."""
    if best_of:
        events = sorted(events, key=lambda sums: ranking_key(game, sums))[:best_of]
    return {name: sum(sums[name] for sums in events) for name in fields}


def still_running(event: Event) -> bool:
    """Whether the event's results may still change: until the director finishes it (every round
    closed, ``play.events.finish_event``: "the standings are final") a game can still be entered or
    corrected. The season counts such an event all the same (RULES.md 6: the sum over the
    season's events) and marks its figures provisional."""
    return event.status != Event.Status.FINISHED


def running_events(events: Iterable[Event], rows: Iterable[dict[str, Any]]) -> set[int]:
    """The ids of the season's events still running that have a result in ``rows``
    (``season_standings``): their columns, and the totals and ranks made of them, are provisional.
    An event nobody has played yet has nothing to mark."""
    rows = list(rows)
    return {
        event.pk
        for event in events
        if still_running(event) and any(row[f"event_{event.pk}"] is not None for row in rows)
    }


def season_standings(
    season: Season, category: str = ""
) -> tuple[list[Event], list[dict[str, Any]]]:
    """One column per event, the player's result there (the game's result figure, as the event
    shows it), and their sum, optionally of each player's best N events; then the season's other
    figures that decide the order (``season_figures``). ``category`` ranks the players of one
    category among themselves (a side ranking). A season holds one game, and ranks in that
    game's order (best events, too, are best by that order). Three queries: the events, each
    entry's sums, the players' names."""
    events = list(season.events.order_by("date", "pk"))
    game = games.get(season.game)
    summed = _summed_fields(game)
    # only events a player played in (an entry that never sat at a table is not ranked); a
    # withdrawal is marked per event
    entries = Entry.objects.filter(event__in=[e.pk for e in events]).played()
    if category:
        entries = entries.filter(player__category=category)
    # grouped by short columns only: the names come once per player from the third query, not
    # once per event through the GROUP BY (PostgreSQL sorted 67,000 joined rows by text for it)
    rows = entries.values_list("player_id", "event_id", "status").annotate(
        **{f"sum_{name}": Coalesce(Sum(f"seats__{name}"), Value(0)) for name in summed}
    )
    scores: dict[int, dict[int, int]] = defaultdict(dict)
    figures: dict[int, list[dict[str, int]]] = defaultdict(list)
    withdrawn: dict[int, set[int]] = defaultdict(set)
    rules = {event.pk: event.full_rules() for event in events}
    figure = game.result_figure()
    for player_id, event_id, status, *sums in rows:
        values = as_shown(game, dict(zip(summed, sums, strict=True)), rules[event_id])
        # each event's column: the player's result there, as the event's standings show it
        scores[player_id][event_id] = figure.of_sums(values)
        figures[player_id].append(values)
        if status == Entry.Status.WITHDRAWN:
            withdrawn[player_id].add(event_id)
    # a subquery, not a list of ids: a season's players are thousands of parameters
    names = Player.objects.filter(pk__in=entries.values("player_id")).values_list(
        "pk", "first_name", "last_name", "club", "uid", "public_lists", "public_season"
    )
    result = []
    for player_id, first_name, last_name, club, uid, lists, on_site in names:
        sums = season_sums(game, figures[player_id], season.best_of, summed)
        consent = {"lists": lists, "season": on_site}
        row = {
            # as far as the consent reaches (``core.shown``): the season's pages are all public
            "name": shown.name(first_name, last_name, sort=True, **consent),
            "name_key": collation.name_key(last_name, first_name),
            "club": shown.club(club, **consent),
            # the link to the player's page, where there is one (``Player.has_public_page``)
            "uid": uid if shown.named(lists, on_site) else None,
            # the season's result: the sum of the events' (of the best N)
            "total": figure.of_sums(sums),
            "key": ranking_key(game, sums),
            "withdrawn": withdrawn[player_id],
        }
        for other in season_figures(game)[1:]:
            row[other.name] = other.of_sums(sums)
        played = scores[player_id]
        for event in events:
            row[f"event_{event.pk}"] = played.get(event.pk)
        result.append(row)
    result.sort(key=lambda r: (r["key"], r["name_key"]))
    for rank, row in zip(shared_ranks([r["key"] for r in result]), result, strict=True):
        row["rank"] = rank
    return events, result
