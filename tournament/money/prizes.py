"""Prizes of an event (issue 17): the prize table, who gets which prize, the prize-giving list,
and a finished event's prize assignment as it was handed out (issue 28).

Who gets which prize (one prize per player unless the organiser allows one per ranking,
``PrizeSettings.several``):

- A *named prize* is a line of the prize table (a ``Prize`` row): a ranking's place. It is offered
  to the player on its place in its ranking (the n-th active player of the overall list, or of the
  women, juniors, seniors among them), then down that ranking while players turn it down. A player
  keeps the better of two prizes offered: more money, then goods over none, then the overall
  ranking over a side ranking, then the better place (``_value``).
- The *rule's goods* ("goods for every n-th player", ``PrizeSettings.every``/``goods``) come after
  every named prize: they fill the overall places 1 to field ÷ n that have no named prize of their
  own, and go to the players without a prize (without an overall prize where several are allowed)
  in the order of the standings. A player on such a place who has a named prize (the best woman
  with the women's prize) leaves the goods to the next player without a prize below, so the rule
  still hands out as many goods as it names. Issue 28.1: the best woman on rank 6 of 42 took the
  rule's bottle and the women's prize went to the third woman.
- A player is *in line* for a prize when the prize's ranking puts them on its place, or when a
  named prize passes on to them from a player above who does not take it. A player in line who does
  not get the prize has another prize (the better one, or a named one before the rule's goods):
  each award lists them with that prize (``Passed``), and the pages say so in a few words ("has the
  2nd overall prize"). A withdrawn player is in no ranking, so in line for nothing. The rule's
  goods passed on from one place to the next list only the player on its place: the players
  between hold goods of the same rule.

Until the event is finished the assignment is computed from the standings on every view. When
it is finished (``finish_event``) the assignment is stored with the names, clubs and ranks of that
moment (``PrizeAssignment``) and every page reads it from there; reopening the event drops it.
Finishing is refused while players share a prize place without a lot (the stored list could not
follow a lot drawn later). An event finished without this module (before assignments were stored,
or the demo's, finished by ``play.events.finish_event`` directly) has none stored and is computed
as before.

Money is whole cents everywhere (``int``, never a float), shown with ``formatting.euros``."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.humanize.templatetags.humanize import ordinal
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament.core import shown
from tournament.core.audit import noted as _noted
from tournament.core.errors import Refused
from tournament.models import Entry, Event, Prize, PrizeAssignment, PrizeSettings
from tournament.money.lock import lock_event
from tournament.play import confirmations, events
from tournament.play import reads as play_reads
from tournament.results import pairs, standings

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
# why a player in line did not get a prize: the prize they have instead
HAS_PRIZE = {
    Ranking.OVERALL: gettext_lazy("%(name)s (rank %(rank)s) has the %(ordinal)s overall prize"),
    Ranking.WOMEN: gettext_lazy("%(name)s (rank %(rank)s) has the %(ordinal)s women's prize"),
    Ranking.JUNIORS: gettext_lazy("%(name)s (rank %(rank)s) has the %(ordinal)s juniors' prize"),
    Ranking.SENIORS: gettext_lazy("%(name)s (rank %(rank)s) has the %(ordinal)s seniors' prize"),
}


# --- prizes -------------------------------------------------------------------------------------


@dataclass
class Winner:
    """Who receives a prize: an entry, or a team of four. ``entry`` is there while the assignment
    is computed; a stored assignment keeps only the entry's id."""

    name: str
    club: str = ""
    rank: int = 0
    entry: Entry | None = None
    entry_id: int | None = None


@dataclass
class Passed:
    """A player in line for a prize who does not get it, and the prize they have instead (its
    ranking and place). ``entry`` is there while the assignment is computed; a stored
    assignment keeps the entry's id (one stored before it did: none)."""

    name: str
    rank: int
    ranking: str
    place: int
    entry: Entry | None = None
    entry_id: int | None = None

    @property
    def text(self) -> str:
        """In a few words, e.g. "Huber, Anna (rank 6) has the 1st women's prize"."""
        return str(HAS_PRIZE[self.ranking]) % {
            "name": self.name,
            "rank": self.rank,
            "ordinal": ordinal(self.place),
        }


@dataclass
class Award:
    prize: Prize
    winners: list[Winner] = field(default_factory=list)
    passed: list[Passed] = field(default_factory=list)

    @property
    def heading(self) -> str:
        return place_label(self.prize)


@dataclass
class Tie:
    """Players sharing a rank where the order among them decides a prize: a lot is needed."""

    rank: int
    entries: list[Entry] = field(default_factory=list)
    teams: list[str] = field(default_factory=list)
    # what the tie is between, as the page names it: players, or fixed pairs by their registered
    # names with the partners after them (``pairs.unit_names``)
    names: list[str] = field(default_factory=list)


@dataclass
class PrizeGiving:
    awards: list[Award]  # in the order they are handed out, last prize first
    ties: list[Tie]
    finished: bool
    stored: bool = False  # read from the assignment stored when the event was finished

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
    """How much a player wants a named prize, larger is better (see the module docstring)."""
    preference = PLAYER_RANKINGS.index(prize.ranking) if prize.ranking in PLAYER_RANKINGS else 9
    return (prize.amount_cents, 1 if prize.goods else 0, -preference, -prize.place)


def _candidates(rows: Sequence[Entry]) -> dict[str, list[Entry]]:
    """Per player ranking, the active entries in standings order (withdrawn players get none)."""
    active = [row for row in rows if row.is_active]
    found: dict[str, list[Entry]] = {Ranking.OVERALL: active}
    for ranking in PLAYER_RANKINGS[1:]:
        found[ranking] = [row for row in active if row.player.category == ranking]
    return found


def _key(entry: Entry, ranking: str, several: bool) -> Any:
    """What a player may hold once: one prize, or one prize per ranking with ``several``."""
    return (entry.pk, ranking) if several else entry.pk


def _match(
    prizes: list[Prize], candidates: dict[str, list[Entry]], several: bool
) -> dict[int, Entry]:
    """Index of a named prize in ``prizes`` → its winner: each prize is offered to the player on
    its place, then down its ranking while players turn it down; a player keeps the best prize
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
            key = _key(entry, prize.ranking, several)
            current = held.get(key)
            if current is None or _value(prize) > _value(prizes[current]):
                held[key] = i
                holder[i] = entry
                if current is not None:
                    del holder[current]
                    free.append(current)
                break
    return holder


def _player_awards(
    named: list[Prize],
    rule: PrizeSettings,
    candidates: dict[str, list[Entry]],
    several: bool,
) -> list[Award]:
    """The awards of the player rankings: the named prizes first, then the rule's goods on the
    overall places without a prize of their own; each with the players in line who do not get it
    (see the module docstring)."""
    holder = _match(named, candidates, several)
    held = {_key(entry, named[i].ranking, several): i for i, entry in holder.items()}

    def passed(entry: Entry, ranking: str) -> Passed:
        prize = named[held[_key(entry, ranking, several)]]
        return Passed(
            entry.player.sort_name, entry.rank, prize.ranking, prize.place, entry, entry.pk
        )

    awards = []
    for i, prize in enumerate(named):
        line = candidates[prize.ranking]
        winner = holder.get(i)
        stop = line.index(winner) if winner is not None else len(line)
        awards.append(
            Award(
                prize,
                [_winner(winner)] if winner is not None else [],
                [passed(entry, prize.ranking) for entry in line[prize.place - 1 : stop]],
            )
        )
    if not (rule.every and rule.goods):
        return awards
    line = candidates[Ranking.OVERALL]
    taken = {p.place for p in named if p.ranking == Ranking.OVERALL}
    places = [place for place in range(1, len(line) // rule.every + 1) if place not in taken]
    goods_places = set(places)
    unserved = [
        (place, entry)
        for place, entry in enumerate(line, start=1)
        if _key(entry, Ranking.OVERALL, several) not in held
    ][: len(places)]
    on_place = {place: entry for place, entry in unserved if place in goods_places}
    # the goods of a place whose player has a named prize pass to the next player without one
    moved_on = [entry for place, entry in unserved if place not in on_place]
    for place in places:
        goods = Prize(
            event_id=rule.event_id,
            ranking=Ranking.OVERALL,
            place=place,
            goods=rule.goods,
            sponsor=rule.sponsor,
        )
        if place in on_place:
            awards.append(Award(goods, [_winner(on_place[place])]))
            continue
        winner = moved_on.pop(0) if moved_on else None
        in_line = line[place - 1]
        awards.append(
            Award(
                goods,
                [_winner(winner)] if winner is not None else [],
                [passed(in_line, Ranking.OVERALL)]
                if _key(in_line, Ranking.OVERALL, several) in held
                else [],
            )
        )
    return awards


def _outcome(awards: list[Award]) -> set[tuple[Any, ...]]:
    """What each player receives: two equal goods prizes on two places are the same to him."""
    return {
        (winner.entry_id, award.prize.ranking, _prize_key(award.prize))
        for award in awards
        for winner in award.winners
    }


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
    named: list[Prize],
    rule: PrizeSettings,
    candidates: dict[str, list[Entry]],
    awards: list[Award],
    units: dict[int, Any],
) -> list[Tie]:
    """Groups of active players on one rank whose order changes who wins which prize. The
    partners of a fixed pair share every deal and so their rank: they are one unit, never a tie
    to draw (``pairs.units``; the lot refuses it), and take the prizes of their places in name
    order."""
    groups: dict[int, list[Entry]] = defaultdict(list)
    for entry in candidates[Ranking.OVERALL]:
        groups[entry.rank].append(entry)
    ties = []
    decided = _outcome(awards)
    for rank, group in sorted(groups.items()):
        if len({units.get(entry.pk, entry.pk) for entry in group}) < 2:
            continue
        for by in range(1, len(group)):
            other = _player_awards(named, rule, _rotated(candidates, group, by), rule.several)
            if _outcome(other) != decided:
                ties.append(Tie(rank=rank, entries=group))
                break
    return ties


def _winner(entry: Entry) -> Winner:
    return Winner(
        name=entry.player.sort_name,
        club=entry.player.club,
        rank=entry.rank,
        entry=entry,
        entry_id=entry.pk,
    )


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


def prize_giving(event: Event, *, public: bool = False) -> PrizeGiving:
    """Who wins which prize, in the order the prizes are handed out. A finished event's as it was
    stored when it was finished (one query); otherwise, and for an event finished before
    assignments were stored, computed from the current standings (``computed_prize_giving``).
    ``public``: the players named as public pages name them (``publicly_named``)."""
    giving = None
    if event.status == Event.Status.FINISHED:
        stored = PrizeAssignment.objects.filter(event=event).first()
        if stored is not None:
            giving = _from_stored(stored)
    if giving is None:
        giving = computed_prize_giving(event)
    return publicly_named(giving) if public else giving


def publicly_named(giving: PrizeGiving) -> PrizeGiving:
    """``giving`` as the public reads it (the list on the projector, and for everybody but the
    organiser): a player with the consent to the public lists as the list names them, any other
    by the neutral label (``core.shown``: initials and start number) and without the club. A
    stored list reads its players' consents (one query); a computed one has them. A team keeps
    its name, its members named as the team ranking names them."""
    # a player passed over holds the named prize the line names: its winner, where a list
    # stored before the passed players' entries were kept does not say who it is
    holder = {
        (a.prize.ranking, a.prize.place): a.winners[0].entry_id
        for a in giving.awards
        if len(a.winners) == 1
    }
    lines: list[Winner | Passed] = []
    for award in giving.awards:
        lines += [w for w in award.winners if w.entry_id is not None]
        for passed in award.passed:
            passed.entry_id = passed.entry_id or holder.get((passed.ranking, passed.place))
            lines.append(passed)
    entries = {line.entry.pk: line.entry for line in lines if line.entry is not None}
    missing = {line.entry_id for line in lines if line.entry_id is not None} - entries.keys()
    if missing:
        entries |= Entry.objects.select_related("player").in_bulk(missing)
    for line in lines:
        entry = entries.get(line.entry_id) if line.entry_id is not None else None
        if entry is not None and shown.named(entry.player.public_lists, entry.player.public_season):
            continue  # as the list names them
        if entry is None:
            # not found (removed since): the initials of the name kept, nothing more
            last, _comma, first = line.name.partition(", ")
            line.name = shown.initials(first, last)
        else:
            line.name = entry.player.public_name(entry.start_number, sort=True)
        if isinstance(line, Winner):
            line.club = ""
    return giving


def computed_prize_giving(event: Event) -> PrizeGiving:
    """Who wins which prize from the current standings (provisional until the event is
    finished). Three queries: the prizes, the settings, the standings; one more for the pairs of
    an event in fixed pairs, two more for the teams where a team prize exists."""
    prizes = list(Prize.objects.filter(event=event))
    rule = settings_of(event)
    rows = list(Entry.objects.standings(event))
    candidates = _candidates(rows)
    active = candidates[Ranking.OVERALL]
    named = [p for p in prizes if p.ranking in PLAYER_RANKINGS]
    player_awards = _player_awards(named, rule, candidates, rule.several)
    awards: dict[str, list[Award]] = defaultdict(list)
    for award in player_awards:
        awards[award.prize.ranking].append(award)
    ties = _undecided(named, rule, candidates, player_awards, pairs.units(event))
    if ties:
        pair_names = pairs.pair_names(event)
        for tie in ties:
            tie.names = pairs.unit_names(tie.entries, pair_names, members=True)
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


# --- the assignment of a finished event (issue 28.11) -------------------------------------------


def _stored_awards(giving: PrizeGiving) -> list[dict[str, Any]]:
    return [
        {
            "ranking": award.prize.ranking,
            "place": award.prize.place,
            "amount_cents": award.prize.amount_cents,
            "goods": award.prize.goods,
            "sponsor": award.prize.sponsor,
            "winners": [
                {"name": w.name, "club": w.club, "rank": w.rank, "entry": w.entry_id}
                for w in award.winners
            ],
            "passed": [
                {
                    "name": p.name,
                    "rank": p.rank,
                    "ranking": p.ranking,
                    "place": p.place,
                    "entry": p.entry_id,
                }
                for p in award.passed
            ],
        }
        for award in giving.awards
    ]


def _from_stored(stored: PrizeAssignment) -> PrizeGiving:
    awards = [
        Award(
            Prize(
                event_id=stored.event_id,
                ranking=row["ranking"],
                place=row["place"],
                amount_cents=row["amount_cents"],
                goods=row["goods"],
                sponsor=row["sponsor"],
            ),
            [
                Winner(name=w["name"], club=w["club"], rank=w["rank"], entry_id=w["entry"])
                for w in row["winners"]
            ],
            [
                Passed(p["name"], p["rank"], p["ranking"], p["place"], entry_id=p.get("entry"))
                for p in row["passed"]
            ],
        )
        for row in stored.awards
    ]
    ties = [Tie(rank=tie["rank"], teams=tie["teams"]) for tie in stored.team_ties]
    return PrizeGiving(awards=awards, ties=ties, finished=True, stored=True)


@transaction.atomic
def finish_event(*, event: Event, user: Any = None, confirm_sheets: bool = False) -> Event:
    """Finish the event (``play.events.finish_event``: every round closed) and store its prize
    assignment as it stands, in the same transaction. Refused while players share a prize place
    without a lot: the stored list could not follow a lot drawn afterwards.

    Refused too while a counting table's sheet is not confirmed (issue 43.9): the standings would
    stay marked provisional (*) after the event is final. The director confirms those sheets on
    their table sheets first, or has them confirmed here in their name (``confirm_sheets``), each
    with its history row as at the table sheet."""
    event = events.finish_event(event=event, user=user)
    open_sheets = play_reads.unconfirmed_tables(event)
    if open_sheets and not confirm_sheets:
        raise Refused(
            _(
                "The players have not confirmed every sheet (%(tables)s). Confirm them on their "
                "table sheets, or tick “Confirm the open sheets as director” and finish again."
            )
            % {"tables": play_reads.sheets_named(open_sheets)}
        )
    for table in open_sheets:
        confirmations.confirm_table(table=table, user=user)
    giving = computed_prize_giving(event)
    tied = [tie for tie in giving.ties if tie.entries]
    if tied:
        raise Refused(
            _("Players share a prize place (%(players)s): draw lots before finishing the event.")
            % {"players": "; ".join(", ".join(t.names) for t in tied)}
        )
    assignment = PrizeAssignment(
        event=event,
        awards=_stored_awards(giving),
        team_ties=[{"rank": tie.rank, "teams": tie.teams} for tie in giving.ties],
    )
    _noted(assignment, user, "").save()
    return event


@transaction.atomic
def reopen_event(*, event: Event, reason: str, user: Any = None) -> Event:
    """Take a finished event back (``play.events.reopen_event``, with a reason) and drop its
    stored prize assignment: until it is finished again, the prizes follow the standings."""
    event = events.reopen_event(event=event, reason=reason, user=user)
    for stored in PrizeAssignment.objects.filter(event=event):
        _noted(stored, user, reason.strip()).delete()
    return event


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
    lock_event(event)
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
