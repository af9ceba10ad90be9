"""A player list coming in (XLSX or CSV): read into checked rows with the likely known players, a
preview, then saved in one transaction (a list with a refused row saves nothing)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from tournament.core import errors
from tournament.core.names import NameIndex, name_key
from tournament.core.reading import (
    NAME_LENGTH,
    PLACE_LENGTH,
    PLAYER_HEADERS,
    PLAYER_ROWS_MAX,
    AlreadyImported,
    UnreadableFile,
    header_key,
    too_long,
)
from tournament.core.validators import one_line, single_line
from tournament.models import Consent, Entry, Event, Player
from tournament.register import services

CATEGORY_WORDS = {
    "": "",
    "damen": "damen",
    "dame": "damen",
    "frauen": "damen",
    "women": "damen",
    "woman": "damen",
    "ladies": "damen",
    "d": "damen",
    "jugend": "jugend",
    "junioren": "jugend",
    "juniors": "jugend",
    "junior": "jugend",
    "youth": "jugend",
    "j": "jugend",
    "senioren": "senioren",
    "senior": "senioren",
    "seniors": "senioren",
    "s": "senioren",
}

NO_CONSENT = "none"  # a list's "nein": a consent that covers nothing
CONSENT_LABELS = {
    "lists": pgettext_lazy("consent", "lists"),
    "season": pgettext_lazy("consent", "season website"),
    "town": pgettext_lazy("consent", "town"),
    NO_CONSENT: pgettext_lazy("consent", "none (nein)"),
}

# what a list's consent column may say the player agreed to (issue 46): name and club in the
# public lists, the published season website, the town; several words in one cell. "nein" says
# the player agreed to nothing: a consent that covers nothing, which withdraws an earlier one;
# an empty cell says nothing, and nothing is recorded
CONSENT_WORDS = {
    "ja": "lists",
    "yes": "lists",
    "x": "lists",
    "listen": "lists",
    "lists": "lists",
    "saison": "season",
    "season": "season",
    "website": "season",
    "ort": "town",
    "wohnort": "town",
    "town": "town",
    "nein": NO_CONSENT,
    "no": NO_CONSENT,
    "keine": NO_CONSENT,
    "none": NO_CONSENT,
}
CONSENT_ORDER = ("lists", "season", "town")
PLAYER_COLUMNS = ("first_name", "last_name", "club", "town", "category")


def consent_of(text: str) -> str | None:
    """The consent a list's cell names, as the words of ``CONSENT_ORDER`` joined by commas;
    ``NO_CONSENT`` where it says "nein" (a consent that covers nothing), "" where it is empty
    (none recorded); None when the cell holds a word that means none of them, or says "nein"
    beside a consent."""
    found = set()
    for word in re.split(r"[\s,;/+]+", text.strip().lower()):
        if not word:
            continue
        meaning = CONSENT_WORDS.get(word)
        if meaning is None:
            return None
        found.add(meaning)
    if NO_CONSENT in found:
        return NO_CONSENT if found == {NO_CONSENT} else None
    return ",".join(name for name in CONSENT_ORDER if name in found)


def covered(code: str) -> dict[str, bool]:
    """What a consent of ``consent_of`` covers, as the consent's fields (``NO_CONSENT``:
    nothing)."""
    names = set(code.split(","))
    return {"lists": "lists" in names, "season_site": "season" in names, "town": "town" in names}


def consent_label(code: str) -> str:
    """A consent of ``consent_of`` in words, for the preview: "lists, season website, town",
    "none (nein)", or "" where the list records none."""
    if code == NO_CONSENT:
        return str(CONSENT_LABELS[NO_CONSENT])
    return ", ".join(str(CONSENT_LABELS[name]) for name in code.split(",") if name)


@dataclass
class PlayerRow:
    line: int
    first_name: str
    last_name: str
    club: str = ""
    town: str = ""
    category: str = ""
    # the consent the list records (``consent_of``: "lists,season,town", NO_CONSENT for "nein",
    # "" for none)
    consent: str = ""
    status: str = "new"  # new, matched, rejected
    reason: str = ""
    player_id: int | None = None
    # a new player whose name is probably a known player's or another line's (names.py): shown
    # in the preview, so that the organiser can register that one or merge later
    similar: str = ""
    # the known players (ids) a new row's player probably is: the preview asks "same person or
    # another person?" for them (``save_players``' decisions)
    candidates: list[int] = field(default_factory=list)

    @property
    def rejected(self) -> bool:
        return self.status == "rejected"

    @property
    def consent_label(self) -> str:
        """The consent in words (``consent_label``), or as the file wrote it where it means
        nothing the import knows (the row is refused)."""
        code = consent_of(self.consent)  # a code read already reads as itself
        return self.consent if code is None else consent_label(code)

    @property
    def category_label(self) -> str:
        """The category in words (Damen, Jugend, Senioren), or as the file wrote it when the row
        was refused before its category was read."""
        if self.category in Player.Category.values:
            return str(Player.Category(self.category).label) if self.category else ""
        return self.category


@dataclass
class PlayerImport:
    rows: list[PlayerRow] = field(default_factory=list)
    # signed into the preview's confirm: the saved rows carry it, so a second confirm is known
    key: str = field(default_factory=lambda: uuid.uuid4().hex)

    @property
    def ok(self) -> bool:
        return bool(self.rows) and not any(r.rejected for r in self.rows)

    def count(self, status: str) -> int:
        return sum(1 for r in self.rows if r.status == status)

    @property
    def counts(self) -> dict[str, int]:
        return {s: self.count(s) for s in ("new", "matched", "rejected")}

    def payload(self) -> list[dict[str, Any]]:
        return [asdict(r) for r in self.rows]


def _columns(header: list[Any]) -> dict[str, int]:
    found: dict[str, int] = {}
    for index, title in enumerate(header):
        key = header_key(title)
        for name, aliases in PLAYER_HEADERS.items():
            if key in aliases and name not in found:
                found[name] = index
    missing = [n for n in ("first_name", "last_name") if n not in found]
    if missing:
        raise UnreadableFile(
            _(
                "The first row must name the columns; found no column for %(missing)s. "
                "Use Vorname, Nachname, Verein, Ort, Kategorie (or First name, Last name, Club, "
                "Town, Category)."
            )
            % {"missing": ", ".join(missing)}
        )
    return found


def _control_character(item: PlayerRow) -> str:
    """The reason a row's text is refused, naming the field (the check the model fields make)."""
    for name in ("first_name", "last_name", "club", "town"):
        try:
            single_line(getattr(item, name))
        except ValidationError as exc:
            return f"{Player._meta.get_field(name).verbose_name}: {exc.messages[0]}"
    return ""


def read_players(event: Event, rows: list[list[Any]]) -> PlayerImport:
    """Check a player list against the event: new player, known player, or rejected (and why)."""
    rows = [r for r in rows if any(str(c or "").strip() for c in r)]
    if not rows:
        raise UnreadableFile(_("The file is empty."))
    if len(rows) > PLAYER_ROWS_MAX:
        raise too_long()
    columns = _columns(rows[0])
    result = PlayerImport()

    def cell(row: list[Any], name: str) -> str:
        index = columns.get(name)
        if index is None or index >= len(row) or row[index] is None:
            return ""
        return one_line(str(row[index]))

    players = list(Player.objects.only("pk", "first_name", "last_name", "club", "town"))
    known = {
        (header_key(p.first_name), header_key(p.last_name), header_key(p.club)): p.pk
        for p in players
    }
    registered = set(Entry.objects.filter(event=event).values_list("player_id", flat=True))
    similar_known = NameIndex((p.first_name, p.last_name, p) for p in players)
    similar_lines: dict[tuple[str, str], PlayerRow] = {}
    seen: dict[tuple[str, str, str], int] = {}
    for line, row in enumerate(rows[1:], start=2):
        item = PlayerRow(
            line=line,
            first_name=cell(row, "first_name"),
            last_name=cell(row, "last_name"),
            club=cell(row, "club"),
            town=cell(row, "town"),
            category=cell(row, "category"),
            consent=cell(row, "consent"),
        )
        result.rows.append(item)
        category = CATEGORY_WORDS.get(header_key(item.category))
        consent = consent_of(item.consent)
        if not item.first_name or not item.last_name:
            item.status, item.reason = "rejected", _("first and last name are required")
        elif refused := _control_character(item):
            item.status, item.reason = "rejected", refused
        elif len(item.first_name) > NAME_LENGTH or len(item.last_name) > NAME_LENGTH:
            item.status, item.reason = "rejected", _("a name is longer than 100 characters")
        elif len(item.club) > PLACE_LENGTH or len(item.town) > PLACE_LENGTH:
            item.status, item.reason = "rejected", _("club or town is longer than 150 characters")
        elif category is None:
            item.status, item.reason = (
                "rejected",
                _("unknown category “%(value)s” (Damen, Jugend, Senioren or empty)")
                % {"value": item.category},
            )
        elif consent is None:
            item.status, item.reason = (
                "rejected",
                _(
                    "consent “%(value)s” not understood: ja, Saison, Ort (several in one cell), "
                    "nein alone, or empty"
                )
                % {"value": item.consent},
            )
        else:
            item.category, item.consent = category, consent
            key = (header_key(item.first_name), header_key(item.last_name), header_key(item.club))
            if key in seen:
                item.status, item.reason = (
                    "rejected",
                    _("the same player as in line %(line)s") % {"line": seen[key]},
                )
                continue
            seen[key] = line
            item.player_id = known.get(key)
            if item.player_id in registered:
                item.status, item.reason = "rejected", _("already registered for this event")
            elif item.player_id:
                item.status = "matched"
            else:
                item.similar = _similar(item, similar_known, similar_lines, registered)
                item.candidates = [
                    p.pk
                    for p in similar_known.find(item.first_name, item.last_name)
                    if p.pk not in registered
                ]
    return result


def place(player: Player) -> str:
    return ", ".join(x for x in (player.club, player.town) if x) or "—"


def candidates_of(preview: PlayerImport) -> dict[int, list[tuple[Player, str]]]:
    """The known players each row's question names, with club and town, by line (one query)."""
    wanted = {pk for row in preview.rows for pk in row.candidates}
    known = Player.objects.in_bulk(wanted) if wanted else {}
    return {
        row.line: [(known[pk], place(known[pk])) for pk in row.candidates if pk in known]
        for row in preview.rows
        if row.candidates
    }


def _similar(
    item: PlayerRow,
    known: NameIndex,
    lines: dict[tuple[str, str], PlayerRow],
    registered: set[int],
) -> str:
    """Who a new row's player probably is: known players with club and town, or an earlier
    line of the same file (One person, one player)."""
    found = []
    for player in known.find(item.first_name, item.last_name):
        text = f"{player} ({place(player)})"
        if player.pk in registered:
            text += " – " + _("already registered for this event")
        found.append(text)
    key = name_key(item.first_name, item.last_name)
    earlier = lines.setdefault(key, item)
    if earlier is not item:
        found.append(
            _("line %(line)s: %(name)s")
            % {"line": earlier.line, "name": f"{earlier.first_name} {earlier.last_name}"}
        )
    return "; ".join(found)


def _import_reason(key: str | None) -> str:
    """The change reason in the history of every player and entry an import creates."""
    return f"import {key}" if key else "import"


SAME = "same"
ANOTHER = "new"


def decision_field(line: int) -> str:
    """The name of the preview's question for a line: same person or another person."""
    return f"same-{line}"


@transaction.atomic
def save_players(
    event: Event,
    rows: Iterable[dict[str, Any]],
    user: Any = None,
    *,
    key: str | None = None,
    decisions: dict[int, str] | None = None,
) -> int:
    """Register every row (creating new players); all or nothing. Returns the entries made.

    ``decisions`` answers the preview's question for each new row whose player is probably a
    known one (line → the known player's id: the same person, registered as that player; or
    ``ANOTHER``: a new player, and the two are recorded as two people, so the register does not
    flag them again). With decisions given, a row asked about and not answered refuses the list;
    without (the command), such a row is a new player, as before the question.

    The rows go through ``services.register_players``, like a registration at the desk: start
    numbers, the late flag and the refusals are decided there. The event row is locked first, so
    confirms sent at the same moment take turns (PostgreSQL; SQLite writes one transaction at a
    time anyway), and the rows are checked again against the database as it is then: a list
    previewed a minute ago may have been overtaken by a registration at the desk, or by the same
    list confirmed a moment before. ``key`` is the preview's: a second confirm of it raises
    ``AlreadyImported`` and saves nothing.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    reason = _import_reason(key)
    if key:
        done = Entry.history.filter(
            event_id=event.pk, history_type="+", history_change_reason=reason
        ).count()
        if done:
            raise AlreadyImported(
                ngettext(
                    "This list was already imported: %(n)s player; nothing more was saved.",
                    "This list was already imported: %(n)s players; nothing more was saved.",
                    done,
                )
                % {"n": done}
            )
    table = [
        [*PLAYER_COLUMNS, "consent"],
        # a preview made before the consent column was read has none
        *[[*(r[n] for n in PLAYER_COLUMNS), r.get("consent", "")] for r in rows],
    ]
    checked = read_players(event, table)
    if not checked.ok:
        bad = next(r for r in checked.rows if r.rejected)
        raise errors.Refused(
            _("Nothing was saved: line %(line)s is rejected (%(reason)s).")
            % {"line": bad.line, "reason": bad.reason}
        )
    distinct: list[tuple[int, list[int]]] = []  # row index → the known players it is not
    for index, row in enumerate(checked.rows):
        if decisions is None or not row.candidates:
            continue
        answer = str(decisions.get(row.line, "")).strip()
        if answer == ANOTHER:
            distinct.append((index, row.candidates))
        elif answer.isdigit() and int(answer) in row.candidates:
            row.status, row.player_id = "matched", int(answer)
        else:
            raise errors.Refused(
                _(
                    "Nothing was saved: line %(line)s (%(name)s) is probably a known player. "
                    "Choose “same person” or “another person” for it."
                )
                % {"line": row.line, "name": f"{row.first_name} {row.last_name}"}
            )
    known = Player.objects.in_bulk([r.player_id for r in checked.rows if r.status == "matched"])
    players = [
        known[r.player_id]
        if r.status == "matched"
        else Player(
            first_name=r.first_name,
            last_name=r.last_name,
            club=r.club,
            town=r.town,
            category=r.category,
        )
        for r in checked.rows
    ]
    entries = services.register_players(event=event, players=players, user=user, reason=reason)
    now = timezone.now()
    services.record_consents(
        consents=[
            Consent(
                player=entry.player,
                **covered(row.consent),
                # the club's own words, on its own form: the list does not say which
                wording=Consent.WORDING_LIST,
                via=Consent.Via.IMPORT,
                given_at=now,
            )
            for row, entry in zip(checked.rows, entries, strict=True)
            if row.consent
        ],
        user=user,
        reason=reason,
    )
    services.record_distinct(
        pairs=[(entries[index].player_id, other) for index, others in distinct for other in others],
        user=user,
    )
    return len(entries)
