"""Prizes of an event (issue 17): the prize table, who gets which prize, the prize-giving list.

Money is whole cents everywhere (``int``, never a float), shown with ``formatting.euros``."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournament.core import collation
from tournament.core.audit import noted as _noted
from tournament.core.errors import Refused
from tournament.models import Entry, Event, Prize, PrizeSettings
from tournament.results import standings

Ranking = Prize.Ranking
# the player rankings in the order a player prefers them when two prizes are worth the same
PLAYER_RANKINGS = (Ranking.OVERALL, Ranking.WOMEN, Ranking.JUNIORS, Ranking.SENIORS)
# the order prizes are handed out: the consolation prize first, the winner last
HANDING_OUT = (
    Ranking.LAST,
    Ranking.TEAMS,
    Ranking.SENIORS,
    Ranking.JUNIORS,
    Ranking.WOMEN,
    Ranking.OVERALL,
)


# --- prizes -------------------------------------------------------------------------------------


@dataclass
class Winner:
    """Who receives a prize: an entry, or a team of four."""

    name: str
    club: str = ""
    rank: int = 0
    entry: Entry | None = None


@dataclass
class Award:
    prize: Prize
    winners: list[Winner] = field(default_factory=list)

    @property
    def heading(self) -> str:
        return place_label(self.prize)


@dataclass
class Tie:
    """Players sharing a rank where the order among them decides a prize: a lot is needed."""

    rank: int
    entries: list[Entry] = field(default_factory=list)
    teams: list[str] = field(default_factory=list)


@dataclass
class PrizeGiving:
    awards: list[Award]  # in the order they are handed out, last prize first
    ties: list[Tie]
    finished: bool

    @property
    def money_cents(self) -> int:
        """Prize money handed out: each prize once (a shared consolation prize is one prize)."""
        return sum(a.prize.amount_cents for a in self.awards if a.winners)

    @property
    def unawarded(self) -> list[Award]:
        return [a for a in self.awards if not a.winners]


def place_label(prize: Prize) -> str:
    if prize.ranking == Ranking.LAST:
        return str(_("Last place"))
    if prize.ranking == Ranking.OVERALL:
        return _("Place %(n)s") % {"n": prize.place}
    return _("%(ranking)s, place %(n)s") % {
        "ranking": prize.get_ranking_display(),
        "n": prize.place,
    }


def settings_of(event: Event) -> PrizeSettings:
    """The event's prize settings, unsaved defaults where the organiser has set none (one query)."""
    return PrizeSettings.objects.filter(event=event).first() or PrizeSettings(event=event)


def _value(prize: Prize) -> tuple[int, int, int, int]:
    """How much a player wants a prize, larger is better (see the module docstring)."""
    preference = PLAYER_RANKINGS.index(prize.ranking) if prize.ranking in PLAYER_RANKINGS else 9
    return (prize.amount_cents, 1 if prize.goods else 0, -preference, -prize.place)


def _with_rule(prizes: list[Prize], rule: PrizeSettings, field_size: int) -> list[Prize]:
    """The prize list with the rule's goods on every overall place of the better 1/n of the
    field that has no prize of its own ("every second player": 85 players, 42 prizes)."""
    if not rule.every or not rule.goods:
        return prizes
    taken = {p.place for p in prizes if p.ranking == Ranking.OVERALL}
    extra = [
        Prize(
            event_id=rule.event_id,
            ranking=Ranking.OVERALL,
            place=place,
            goods=rule.goods,
            sponsor=rule.sponsor,
        )
        for place in range(1, field_size // rule.every + 1)
        if place not in taken
    ]
    return sorted([*prizes, *extra], key=lambda p: (p.ranking, p.place))


def _candidates(rows: Sequence[Entry]) -> dict[str, list[Entry]]:
    """Per player ranking, the active entries in standings order (withdrawn players get none)."""
    active = [row for row in rows if row.is_active]
    found: dict[str, list[Entry]] = {Ranking.OVERALL: active}
    for ranking in PLAYER_RANKINGS[1:]:
        found[ranking] = [row for row in active if row.player.category == ranking]
    return found


def _match(
    prizes: list[Prize], candidates: dict[str, list[Entry]], several: bool
) -> dict[int, Entry]:
    """Index of a prize in ``prizes`` → its winner: each prize is offered to the player on its
    place, then down its ranking while players turn it down; a player keeps the best prize
    offered (one per player, or one per player and ranking with ``several``)."""
    # a place's prize starts at that place: the players above it are served by the prizes above
    pointer = [prize.place - 1 for prize in prizes]
    holder: dict[int, Entry] = {}
    held: dict[Any, int] = {}
    free = list(range(len(prizes)))
    while free:
        i = free.pop(0)
        prize = prizes[i]
        line = candidates[prize.ranking]
        while pointer[i] < len(line):
            entry = line[pointer[i]]
            pointer[i] += 1
            key = (entry.pk, prize.ranking) if several else entry.pk
            current = held.get(key)
            if current is None or _value(prize) > _value(prizes[current]):
                held[key] = i
                holder[i] = entry
                if current is not None:
                    del holder[current]
                    free.append(current)
                break
    return holder


def _rotated(candidates: dict[str, list[Entry]], group: list[Entry], by: int) -> dict:
    """The candidate lists with the tied ``group`` in another order."""
    members = {e.pk for e in group}
    order = group[by:] + group[:by]
    result = {}
    for ranking, line in candidates.items():
        taken = iter([e for e in order if e in line])
        result[ranking] = [next(taken) if e.pk in members else e for e in line]
    return result


def _undecided(
    prizes: list[Prize],
    candidates: dict[str, list[Entry]],
    several: bool,
    holder: dict[int, Entry],
) -> list[Tie]:
    """Groups of active players on one rank whose order changes who wins which prize."""

    def outcome(won: dict[int, Entry]) -> set[tuple[Any, ...]]:
        # what each player receives: two equal goods prizes on two places are the same to him
        return {(entry.pk, prizes[i].ranking, _prize_key(prizes[i])) for i, entry in won.items()}

    groups: dict[int, list[Entry]] = defaultdict(list)
    for entry in candidates[Ranking.OVERALL]:
        groups[entry.rank].append(entry)
    ties = []
    decided = outcome(holder)
    for rank, group in sorted(groups.items()):
        if len(group) < 2:
            continue
        for by in range(1, len(group)):
            other = _match(prizes, _rotated(candidates, group, by), several)
            if outcome(other) != decided:
                ties.append(Tie(rank=rank, entries=group))
                break
    return ties


def _winner(entry: Entry) -> Winner:
    return Winner(name=entry.player.sort_name, club=entry.player.club, rank=entry.rank, entry=entry)


def _last_place(prize: Prize, active: list[Entry]) -> Award:
    """The consolation prize: everyone on the last rank among the active players, nobody while
    everyone shares the first rank."""
    last = max((row.rank for row in active), default=1)
    if last <= 1:
        return Award(prize)
    return Award(prize, [_winner(row) for row in active if row.rank == last])


def _team_awards(prizes: list[Prize], teams: list[dict[str, Any]]) -> tuple[list[Award], list[Tie]]:
    by_place = {p.place: p for p in prizes}
    awards = []
    for place, prize in sorted(by_place.items()):
        team = teams[place - 1] if place <= len(teams) else None
        winners = (
            [Winner(name=team["name"], club=team["members"], rank=team["rank"])] if team else []
        )
        awards.append(Award(prize, winners))
    ties = []
    ranks: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for place, team in enumerate(teams, start=1):
        ranks[team["rank"]].append((place, team["name"]))
    for rank, group in sorted(ranks.items()):
        shares = {_prize_key(by_place.get(place)) for place, _name in group}
        if len(group) > 1 and len(shares) > 1:
            ties.append(Tie(rank=rank, teams=[name for _place, name in group]))
    return awards, ties


def _prize_key(prize: Prize | None) -> tuple[int, str, str] | None:
    return None if prize is None else (prize.amount_cents, prize.goods, prize.sponsor)


def prize_giving(event: Event) -> PrizeGiving:
    """Who wins which prize, from the current standings (provisional until the event is
    finished), in the order the prizes are handed out. Three queries: the prizes, the settings,
    the standings; two more for the teams where a team prize exists."""
    prizes = list(Prize.objects.filter(event=event))
    rule = settings_of(event)
    rows = collation.by_rank_then_name(Entry.objects.standings(event))
    candidates = _candidates(rows)
    active = candidates[Ranking.OVERALL]
    prizes = _with_rule(prizes, rule, len(active))
    player_prizes = [p for p in prizes if p.ranking in PLAYER_RANKINGS]
    holder = _match(player_prizes, candidates, rule.several)
    awards: dict[str, list[Award]] = defaultdict(list)
    for i, prize in enumerate(player_prizes):
        entry = holder.get(i)
        awards[prize.ranking].append(Award(prize, [_winner(entry)] if entry else []))
    ties = _undecided(player_prizes, candidates, rule.several, holder)
    for prize in prizes:
        if prize.ranking == Ranking.LAST:
            awards[Ranking.LAST].append(_last_place(prize, active))
    team_prizes = [p for p in prizes if p.ranking == Ranking.TEAMS]
    if team_prizes:
        awards[Ranking.TEAMS], team_ties = _team_awards(
            team_prizes, standings.team_standings(event)
        )
        ties += team_ties
    ordered = []
    for ranking in HANDING_OUT:
        ordered += sorted(awards[ranking], key=lambda a: a.prize.place, reverse=True)
    return PrizeGiving(awards=ordered, ties=ties, finished=event.status == Event.Status.FINISHED)


def _lock(event: Event) -> None:
    """Two organisers saving the same list one after the other, not into each other."""
    Event.objects.select_for_update().filter(pk=event.pk).values_list("pk").first()


@transaction.atomic
def save_prize_table(
    *,
    event: Event,
    prizes: Sequence[dict[str, Any]],
    several: bool,
    every: int | None,
    goods: str,
    sponsor: str,
    user: Any = None,
) -> list[Prize]:
    """Replace the event's prize list with ``prizes`` (dicts with ranking, place, amount_cents,
    goods, sponsor) and store the settings. A prize kept on its ranking and place is updated,
    so its history reads as one prize."""
    keys = [(p["ranking"], p["place"]) for p in prizes]
    if len(set(keys)) != len(keys):
        raise Refused(_("Each place of a ranking can have one prize only."))
    if every and not goods.strip():
        raise Refused(_("Name the goods the rule gives, e.g. “gift basket”."))
    _lock(event)
    settings = PrizeSettings.objects.select_for_update().filter(event=event).first()
    settings = settings or PrizeSettings(event=event)
    settings.several, settings.every = several, every or None
    settings.goods, settings.sponsor = goods.strip(), sponsor.strip()
    _noted(settings, user, "").save()
    rows = Prize.objects.select_for_update().filter(event=event)
    stored = {(p.ranking, p.place): p for p in rows}
    kept = []
    for values in prizes:
        prize = stored.pop((values["ranking"], values["place"]), None) or Prize(event=event)
        before = _prize_key(prize) if prize.pk else None
        for name in ("ranking", "place", "amount_cents", "goods", "sponsor"):
            setattr(prize, name, values[name])
        if not prize.amount_cents and not prize.goods:
            raise Refused(_("Give each prize an amount of money or a description of the goods."))
        if before != _prize_key(prize):
            _noted(prize, user, "").save()
        kept.append(prize)
    for prize in stored.values():
        _noted(prize, user, "").delete()
    return kept
