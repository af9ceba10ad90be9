"""Who a player of an event bundle is in this installation (issue 15: one person, one player).

A bundle names each player by the identifier (``Player.uid``) of the installation that wrote it.
This module finds the local player for each, in this order:

1. **identifier**: a local player with that identifier (a player who travelled in a bundle
   before, or the association's own player exported and played in a hall);
2. **earlier decision**: an identifier a director already matched to a local player at an earlier
   import (``PlayerAlias``), so the next bundle from the same laptop does not ask again;
3. **the event's earlier import** (given by the caller as ``known``): the player of the same
   start number of the same event, imported before;
4. otherwise a **proposal**: local players whose name sounds the same (``names.name_key``: Maier /
   Meier / Mayer) and who share the club or the town, or of whom one side knows neither. The
   director decides "same person" or "new player"; nothing is merged by name alone. A player with
   the same name but another club *and* another town is a **homonym**: kept apart as a new
   player, and shown so the director can still say otherwise.

Decisions are given as ``{bundle uid: local uid}`` ("same person") or ``{bundle uid: NEW}``.
The one rule that decides without a director (``accept_exact``, the command's
``--accept-exact``): a proposal with exactly one candidate whose first name, last name, club and
town are all written the same (case, accents and spacing aside) is taken as the same person.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from tournament.core.names import NameIndex, normalise
from tournament.models import Player, PlayerAlias

NEW = "new"

# how a bundle's player was found (Match.how)
BY_IDENTIFIER = "identifier"
BY_ALIAS = "alias"
BY_ENTRY = "entry"
BY_DECISION = "same"
BY_EXACT = "exact"
PROPOSED = "proposed"
CREATED = "new"


class UnknownDecision(ValueError):
    """A decision that names a player nobody knows; the message says which."""


@dataclass(frozen=True)
class Person:
    """A bundle's player as written in the bundle."""

    uid: str
    first_name: str
    last_name: str
    club: str = ""
    town: str = ""
    category: str = ""

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name}"

    @property
    def place(self) -> str:
        return ", ".join(x for x in (self.club, self.town) if x) or "—"


@dataclass
class Match:
    person: Person
    how: str
    player: Player | None = None  # the local player; None: a new player is created
    candidates: list[Player] = field(default_factory=list)  # proposed: the director decides
    homonyms: list[Player] = field(default_factory=list)  # same name, other club and town

    @property
    def decided(self) -> bool:
        return self.how != PROPOSED

    @property
    def is_new(self) -> bool:
        return self.how == CREATED

    def explain(self) -> str:
        """How the player was found, in the director's words."""
        return {
            BY_IDENTIFIER: _("same identifier"),
            BY_ALIAS: _("matched at an earlier import"),
            BY_ENTRY: _("same start number at this event's earlier import"),
            BY_DECISION: _("same person (your decision)"),
            BY_EXACT: _("same name, club and town (accepted by rule)"),
            PROPOSED: _("possibly a known player: decide"),
            CREATED: _("new player"),
        }[self.how]


def place(player: Player) -> str:
    return ", ".join(x for x in (player.club, player.town) if x) or "—"


def _same_place(person: Person, player: Player) -> bool | None:
    """True: same club or same town; False: both sides name a club or town and none agrees;
    None: one side names neither (cannot tell)."""
    theirs = (normalise(person.club), normalise(person.town))
    ours = (normalise(player.club), normalise(player.town))
    if not any(theirs) or not any(ours):
        return None
    return any(a and a == b for a, b in zip(theirs, ours, strict=True))


def _written_alike(person: Person, player: Player) -> bool:
    return all(
        normalise(a) == normalise(b)
        for a, b in (
            (person.first_name, player.first_name),
            (person.last_name, player.last_name),
            (person.club, player.club),
            (person.town, player.town),
        )
    )


def _uid(text: str) -> str:
    try:
        return str(uuid.UUID(str(text).strip()))
    except ValueError as exc:
        raise UnknownDecision(
            _("“%(text)s” is not a player's identifier.") % {"text": text}
        ) from exc


def _normalised(decisions: Mapping[str, str]) -> dict[str, str]:
    """Decisions with identifiers written as this app writes them (a pasted one may differ in
    case or spaces); a value that is no identifier and not NEW is refused."""
    return {_uid(theirs): NEW if ours == NEW else _uid(ours) for theirs, ours in decisions.items()}


def match_players(
    people: Sequence[Person],
    *,
    decisions: Mapping[str, str] | None = None,
    known: Mapping[str, Player] | None = None,
    accept_exact: bool = False,
) -> list[Match]:
    """The local player of each bundle player (see the module docstring), without writing
    anything. ``known`` maps bundle identifiers to players already decided by the caller (the
    event's earlier import). Raises UnknownDecision for a decision about a player the bundle does
    not hold or naming a local player that does not exist. Three queries, four with a decision
    naming a player here."""
    decisions = _normalised(decisions or {})
    known = dict(known or {})
    uids = {p.uid for p in people}
    stray = sorted(set(decisions) - uids)
    if stray:
        raise UnknownDecision(
            _("The bundle holds no player with the identifier %(uid)s.") % {"uid": stray[0]}
        )
    by_uid = {str(p.uid): p for p in Player.objects.filter(uid__in=list(uids))}
    by_alias = {
        str(a.uid): a.player
        for a in PlayerAlias.objects.filter(uid__in=list(uids)).select_related("player")
    }
    chosen = {d for d in decisions.values() if d != NEW}
    chosen_players = {str(p.uid): p for p in Player.objects.filter(uid__in=list(chosen))}
    missing = sorted(chosen - set(chosen_players))
    if missing:
        raise UnknownDecision(
            _("There is no player with the identifier %(uid)s here.") % {"uid": missing[0]}
        )
    matches: dict[str, Match] = {}
    for person in people:
        if person.uid in by_uid:
            matches[person.uid] = Match(person, BY_IDENTIFIER, by_uid[person.uid])
        elif person.uid in by_alias:
            matches[person.uid] = Match(person, BY_ALIAS, by_alias[person.uid])
        elif person.uid in known:
            matches[person.uid] = Match(person, BY_ENTRY, known[person.uid])
    taken = {m.player.pk for m in matches.values() if m.player is not None}
    index = NameIndex(
        (p.first_name, p.last_name, p)
        for p in Player.objects.only("pk", "uid", "first_name", "last_name", "club", "town")
    )

    def found(person: Person) -> tuple[list[Player], list[Player]]:
        """Candidates and homonyms; a player already in this bundle's event is another person
        (one entry per player) and neither."""
        candidates: list[Player] = []
        homonyms: list[Player] = []
        for player in index.find(person.first_name, person.last_name):
            if player.pk not in taken:
                same = _same_place(person, player)
                (homonyms if same is False else candidates).append(player)
        return candidates, homonyms

    rest = [p for p in people if p.uid not in matches]
    # first what is decided, by the director or by the exact rule: whoever a player was decided
    # to be is no candidate for the others, whatever their order in the bundle
    for person in rest:
        decision = decisions.get(person.uid)
        if decision == NEW or (decision is None and not accept_exact):
            continue
        candidates, homonyms = found(person)
        if decision is not None:
            player = chosen_players[decision]
            matches[person.uid] = Match(person, BY_DECISION, player, candidates, homonyms)
        elif len(candidates) == 1 and _written_alike(person, candidates[0]):
            matches[person.uid] = Match(person, BY_EXACT, candidates[0], candidates, homonyms)
    taken |= {m.player.pk for m in matches.values() if m.player is not None}
    for person in rest:
        if person.uid in matches:
            continue
        candidates, homonyms = found(person)
        if decisions.get(person.uid) == NEW or not candidates:
            matches[person.uid] = Match(person, CREATED, None, candidates, homonyms)
        else:
            matches[person.uid] = Match(person, PROPOSED, None, candidates, homonyms)
    return [matches[p.uid] for p in people]


def clashes(matches: Sequence[Match]) -> list[str]:
    """Local players that two bundle players would both become (they are two entries of one
    event, so two people): one message each."""
    seen: dict[int, Match] = {}
    found = []
    for match in matches:
        if match.player is None:
            continue
        earlier = seen.setdefault(match.player.pk, match)
        if earlier is not match:
            found.append(
                _("%(a)s and %(b)s of the bundle cannot both be %(player)s.")
                % {"a": earlier.person, "b": match.person, "player": match.player}
            )
    return found


def person_from(data: Any) -> Person:
    """A bundle's player row (already checked by ``bundles``) as a Person."""
    return Person(
        uid=str(data["uid"]),
        first_name=data["first_name"],
        last_name=data["last_name"],
        club=data.get("club", ""),
        town=data.get("town", ""),
        category=data.get("category", ""),
    )
