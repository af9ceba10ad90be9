"""An import written: the plan applied in one transaction, everything or nothing. Every row
written keeps a history row naming the bundle and the director; the result rows are this
installation's own (``play.scores.rescore_table``). The same bundle imported again writes
nothing."""

from __future__ import annotations

import datetime
import itertools
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import DatabaseError, connection, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.core import audit
from tournament.core.audit import bulk_attrs
from tournament.models import (
    Confirmation,
    Consent,
    Entry,
    Event,
    Hand,
    LotDraw,
    Player,
    PlayerAlias,
    Round,
    Seat,
    Table,
    Team,
    bulk,
    versions,
)
from tournament.play import events, hands, scores
from tournament.publish.bundles import BundleError
from tournament.publish.bundles.export import CONSENT_FIELDS, EVENT_FIELDS, event_content_lots
from tournament.publish.bundles.plan import (
    Plan,
    lots_of,
    number_of,
    plan_import,
    seating_of,
    without,
)
from tournament.register import services

# --- writing an import ------------------------------------------------------------------------


def _parsed(value: str | None) -> datetime.datetime | None:
    return datetime.datetime.fromisoformat(value) if value is not None else None


def import_reason(content: Mapping[str, Any], source: str, user: Any, by: str = "") -> str:
    """The history's reason for every row an import writes (``by``: who imports, when there is
    no user, e.g. the command line's account)."""
    # in English, like the other reasons the app writes itself: the history shows it in the
    # reader's language (history.MACHINE_REASONS)
    who = user.get_username() if audit.actor(user) is not None else (by or "system")
    when = content.get("exported_at") or "?"
    return f"imported from bundle {source or '-'} (exported {when}) by {who}"


@transaction.atomic
def apply_import(
    content: dict[str, Any],
    *,
    decisions: Mapping[str, str] | None = None,
    accept_exact: bool = False,
    user: Any = None,
    source: str = "",
    by: str = "",
    reason: str = "",
) -> Plan:
    """Import the checked ``content``: all of it in one transaction, or nothing. The plan is made
    again here, with the event locked, so that what is written fits the database as it is now.
    An event made here or finished here changes only with the director's ``reason`` (kept in the
    history of every row written). Returns the plan written (``unchanged``: nothing was
    written)."""
    plan = plan_import(content, decisions=decisions, accept_exact=accept_exact, lock=True)
    if plan.undecided:
        raise BundleError(
            ngettext(
                "Decide first whether %(names)s is a known player or a new one.",
                "Decide first for %(n)s players whether each is a known player or a new one: "
                "%(names)s.",
                len(plan.undecided),
            )
            % {
                "n": len(plan.undecided),
                "names": ", ".join(str(m.person) for m in plan.undecided),
            }
        )
    if plan.problems:
        raise BundleError(" ".join(plan.problems))
    if plan.unchanged:
        return plan
    note = import_reason(content, source, user, by)
    if plan.needs_reason:
        if not reason.strip():
            raise BundleError(
                _(
                    "%(event)s was made on this installation or is finished here: the bundle "
                    "changes it only when you confirm it and give a reason. Nothing was imported."
                )
                % {"event": plan.event}
            )
        note += f": {' '.join(reason.split())[:300]}"
    try:
        with transaction.atomic():
            _Writer(plan, user, note).write()
    except DatabaseError as exc:
        raise BundleError(
            _("The bundle does not fit this database (%(error)s); nothing was imported.")
            % {"error": exc}
        ) from exc
    return plan


def _set_times(rows: Sequence[tuple[Any, Mapping[str, Any]]]) -> None:
    """Give rows the times of the other installation (a save sets ``auto_now`` fields to now):
    one statement run for all rows of a model, not a query per row."""
    by_statement: dict[tuple[type[Any], tuple[str, ...]], list[list[Any]]] = {}
    for instance, values in rows:
        model = type(instance)
        fields = [model._meta.get_field(name) for name in values]
        for name, value in values.items():
            setattr(instance, name, value)
        by_statement.setdefault((model, tuple(values)), []).append(
            [f.get_db_prep_value(values[f.name], connection) for f in fields] + [instance.pk]
        )
    quote = connection.ops.quote_name
    for (model, names), params in by_statement.items():
        columns = ", ".join(f"{quote(model._meta.get_field(n).column)} = %s" for n in names)
        sql = f"UPDATE {quote(model._meta.db_table)} SET {columns} WHERE {quote('id')} = %s"
        with connection.cursor() as cursor:
            cursor.executemany(sql, params)


class _Writer:
    """Writes one plan; every row with a history row naming the import (``reason``)."""

    def __init__(self, plan: Plan, user: Any, reason: str) -> None:
        self.plan = plan
        self.content = plan.content
        self.user = audit.actor(user)
        self.reason = reason
        self.users = self._users()
        self.rescore: dict[int, Table] = {}  # the tables whose results are written again
        self.fresh_tables: list[Table] = []  # created here: no results to replace
        # each game's figures, as scored here (a new game has no primary key yet: a list)
        self.scored: list[tuple[Hand, list[list[int]]]] = []
        # written in bulk once every round is through (a few queries for the whole event)
        self.fresh_hands: list[Hand] = []
        self.fresh_confirmations: list[Confirmation] = []
        self.times: list[tuple[Any, dict[str, Any]]] = []
        self.table_hands: dict[int, list[Hand]] = {}

    def _users(self) -> dict[str, Any]:
        """The other installation's user names that are users here too."""
        from django.contrib.auth import get_user_model

        names = {
            h["entered_by"] for r in self.content["rounds"] for t in r["tables"] for h in t["hands"]
        }
        names |= {
            c["user"]
            for r in self.content["rounds"]
            for t in r["tables"]
            for c in t["confirmations"]
        }
        names |= {d["drawn_by"] for d in self.content["lot_draws"]}
        model = get_user_model()
        return {
            u.get_username(): u
            for u in model.objects.filter(**{f"{model.USERNAME_FIELD}__in": names - {""}})
        }

    def _noted(self, instance: Any, reason: str | None = None) -> Any:
        return audit.noted(instance, self.user, reason or self.reason)

    def _bulk(self, objects: list[Any], key: Sequence[str], scope: Any) -> list[Any]:
        """Insert new rows with their history rows: three queries for any number of rows
        (``models.bulk``); ``key`` tells the rows in ``scope`` apart."""
        bulk.insert(
            objects,
            key=key,
            scope=scope,
            user=self.user,
            reason=self.reason,
            attrs=bulk_attrs(),
        )
        return objects

    def write(self) -> None:
        self.players = self._players()
        self.event = self._event()
        teams = self._teams()
        self.entries = self._entries(teams)
        self._rounds()
        in_event = {"table__round__event": self.event}
        # each game with its own reason (who entered it), the times of the other installation
        self._bulk(self.fresh_hands, ("table_id", "number"), Hand.objects.filter(**in_event))
        self._bulk(
            self.fresh_confirmations,
            ("table_id", "position"),
            Confirmation.objects.filter(**in_event),
        )
        _set_times(self.times)
        self.lots_of()
        scores.rescore_tables(
            event=self.event,
            hands={
                table: sorted(self.table_hands[table.pk], key=lambda h: h.number)
                for table in self.rescore.values()
            },
            fresh=self.fresh_tables,
            # every game of the bundle was scored here by ``plan_import`` in this transaction
            # and agrees with the figures it carries
            scored=dict(self.scored),
        )
        Team.objects.filter(event=self.event).exclude(
            pk__in=[t.pk for t in teams.values()]
        ).delete()
        # every entry's totals and the latest game, whatever the bundle changed
        scores.sum_entries(
            f"SELECT id FROM {Entry._meta.db_table} WHERE event_id = %s", [self.event.pk]
        )
        hands.note_latest_game(self.event)
        versions.changed(self.event)

    # players and the event

    def _players(self) -> dict[str, Player]:
        """Bundle identifier → player here; new players are created with the bundle's
        identifier, so that it stays theirs in every installation."""
        found = {}
        new: list[tuple[str, Player]] = []
        aliases = []
        fresh = self.plan.fresh_identifiers
        existing_aliases = set(
            PlayerAlias.objects.filter(
                uid__in=[m.person.uid for m in self.plan.matches]
            ).values_list("uid", flat=True)
        )
        for match in self.plan.matches:
            person = match.person
            if match.player is None:
                player = Player(
                    # a new player whose identifier is a local player's gets one of their own
                    uid=uuid.uuid4() if person.uid in fresh else uuid.UUID(person.uid),
                    first_name=person.first_name,
                    last_name=person.last_name,
                    club=person.club,
                    town=person.town,
                    category=person.category,
                )
                try:
                    # the identifier is no player's here (else it had matched): no query per row
                    player.full_clean(exclude=["uid"])
                except ValidationError as exc:
                    raise BundleError(f"{person}: {' '.join(exc.messages)}") from exc
                new.append((person.uid, player))
            else:
                found[person.uid] = match.player
                if (
                    str(match.player.uid) != person.uid
                    and uuid.UUID(person.uid) not in existing_aliases
                ):
                    aliases.append(
                        PlayerAlias(
                            uid=uuid.UUID(person.uid),
                            player=match.player,
                            decided_by=self.user.get_username() if self.user else "",
                        )
                    )
        self._bulk(
            [player for _uid, player in new],
            ("uid",),
            Player.objects.filter(uid__in=[player.uid for _uid, player in new]),
        )
        found.update(new)
        PlayerAlias.objects.bulk_create(aliases)
        self._consents(found)
        return found

    def _consents(self, players: Mapping[str, Player]) -> None:
        """Each player's consents as the bundle carries them, recorded where new here."""
        services.record_consents(
            consents=[
                Consent(
                    uid=uuid.UUID(data["uid"]),
                    player=players[person["uid"]],
                    **{name: data[name] for name in CONSENT_FIELDS},
                    given_at=_parsed(data["given_at"]),
                )
                for person in self.content["players"]
                for data in person.get("consents", [])
            ],
            user=self.user,
            reason=self.reason,
        )

    def _event(self) -> Event:
        data = self.content["event"]
        values = {name: data[name] for name in EVENT_FIELDS}
        values["date"] = datetime.date.fromisoformat(data["date"])
        event = self.plan.event
        if event is None:
            season = self.plan.season
            if season is None and self.content["season"] is not None:
                season = events.create_season(values=dict(self.content["season"]))
            event = Event(uid=uuid.UUID(data["uid"]), season=season, **values)
        else:
            del values["slug"]  # the short name here stays: links to the event keep working
            if all(getattr(event, k) == v for k, v in values.items()):
                return event
            for name, value in values.items():
                setattr(event, name, value)
        try:
            event.full_clean()
        except ValidationError as exc:
            raise BundleError(" ".join(exc.messages)) from exc
        self._noted(event).save()
        return event

    def _teams(self) -> dict[tuple[str, str], Team]:
        teams = {(t.kind, t.name): t for t in Team.objects.filter(event=self.event)}
        missing = [
            Team(event=self.event, kind=t["kind"], name=t["name"])
            for t in self.content["teams"]
            if (t["kind"], t["name"]) not in teams
        ]
        for team in Team.objects.bulk_create(missing):
            teams[(team.kind, team.name)] = team
        wanted = {(t["kind"], t["name"]) for t in self.content["teams"]}
        return {key: team for key, team in teams.items() if key in wanted}

    def _entries(self, teams: dict[tuple[str, str], Team]) -> dict[int, Entry]:
        """Each player's entry, found by player: a bundle that gives two players each other's
        start numbers moves the entries (their seats and games stay theirs)."""
        by_player = {e.player_id: e for e in Entry.objects.filter(event=self.event)}
        used = {e.start_number for e in by_player.values()}
        wanted = {e["start_number"]: e for e in self.content["entries"]}
        here: dict[int, Entry] = {}
        new, changed = [], []
        # the personal links of the bundle that entries here hold already: one query
        tokens = [e["token"] for e in wanted.values() if e.get("token")]
        token_holders = dict(
            Entry.objects.filter(token__in=tokens).values_list("token", "pk") if tokens else ()
        )
        for number, data in wanted.items():
            values = {
                "player": self.players[data["player"]],
                "start_number": number,
                "status": data["status"],
                "late": data["late"],
                "squad": teams.get((Team.Kind.SQUAD, data["squad"])),
                "pair": teams.get((Team.Kind.PAIR, data["pair"])),
                "lot": data["lot"],
            }
            # the player's day, where the bundle has it (issue 29; older bundles do not)
            for name in ("source", "registered_at", "present_at"):
                if name in data:
                    values[name] = _parsed(data[name]) if name != "source" else data[name]
            if "identity_pending" in data:  # registered online under a known name (issue 43)
                values["identity_pending"] = data["identity_pending"]
            if values.get("registered_at") is None:
                values.pop("registered_at", None)
            entry = by_player.pop(values["player"].pk, None)
            token = data.get("token")
            # the personal link printed or sent before the day keeps working in the hall,
            # unless it is another entry's here (then the entry keeps a link of its own)
            holder = token_holders.get(token)
            here_too = holder is not None and holder != getattr(entry, "pk", None)
            if token and (entry is None or entry.token != token) and not here_too:
                values["token"] = token
            if entry is None:
                new.append(Entry(event=self.event, **values))
                continue
            if any(getattr(entry, k) != v for k, v in values.items()):
                changed.append((entry, values))
            here[number] = entry
        kept = {e.pk for e in self.plan.kept}
        for entry in by_player.values():  # players no longer in the bundle
            if entry.pk not in kept:
                self._noted(entry).delete()
        free = (n for n in itertools.count(1) if n not in used and n not in wanted)
        # made here after the event left for the hall: kept, on a number the bundle leaves free
        for entry in self.plan.kept:
            if entry.start_number in wanted:
                entry.start_number = next(free)
                self._noted(entry).save(update_fields=["start_number"])
        # numbers change hands: the entries that move step aside to free numbers first (the
        # database keeps one entry per number at every moment)
        moving = [e for e, values in changed if e.start_number != values["start_number"]]
        for entry in moving:
            Entry.objects.filter(pk=entry.pk).update(start_number=next(free))
        for entry, values in changed:
            for name, value in values.items():
                setattr(entry, name, value)
            self._noted(entry).save()
        for entry in self._bulk(new, ("start_number",), Entry.objects.filter(event=self.event)):
            here[entry.start_number] = entry
        return here

    # rounds, tables, seats, games

    def _rounds(self) -> None:
        here = {r.number: r for r in Round.objects.filter(event=self.event)}
        self.hands_here: dict[int, list[Hand]] = {}
        for hand in Hand.objects.filter(table__round__event=self.event):
            self.hands_here.setdefault(hand.table_id, []).append(hand)
        self.confirmations_here: dict[int, list[Confirmation]] = {}
        for confirmation in Confirmation.objects.filter(table__round__event=self.event):
            self.confirmations_here.setdefault(confirmation.table_id, []).append(confirmation)
        wanted = {r["number"]: r for r in self.content["rounds"]}
        for number in sorted(set(here) - set(wanted)):
            self._clear_round(here[number])
            here[number].delete()
        for number, data in sorted(wanted.items()):
            rnd = here.get(number) or Round(event=self.event, number=number)
            values = {k: data[k] for k in ("status", "seed", "repeat_meetings", "draw_basis")}
            if rnd.pk is None or any(getattr(rnd, k) != v for k, v in values.items()):
                for name, value in values.items():
                    setattr(rnd, name, value)
                rnd.save()
            rnd.event = self.event
            tables = {t.number: t for t in Table.objects.filter(round=rnd)}
            if tables and self._seating_here(rnd, tables) != seating_of(data):
                self._clear_round(rnd)
                tables = {}
            if not tables and (data["tables"] or data["sitting_out"]):
                tables = self._seat(rnd, data)
            for table_data in data["tables"]:
                table = tables[table_data["number"]]
                table.round = rnd
                self._table(table, table_data)

    def _seating_here(self, rnd: Round, tables: dict[int, Table]) -> Any:
        numbers = {e.pk: n for n, e in self.entries.items()}
        seats: dict[int, dict[int, int]] = {}
        out = []
        for table_id, position, entry_id in Seat.objects.filter(round=rnd).values_list(
            "table_id", "position", "entry_id"
        ):
            if table_id is None:
                out.append(numbers.get(entry_id))
            else:
                seats.setdefault(table_id, {})[position] = numbers.get(entry_id)
        rows = []
        for number, table in sorted(tables.items()):
            placed = seats.get(table.pk, {})
            positions = range(max([table.size - 1, *placed]) + 1)
            rows.append((number, table.size, [placed.get(p) for p in positions]))
        return sorted(n for n in out if n is not None), rows

    def _clear_round(self, rnd: Round) -> None:
        """Take a round's seats and tables away (the other installation drew it again), each
        with its history row."""
        for hand in Hand.objects.filter(table__round=rnd):
            self._noted(hand).delete()
        for confirmation in Confirmation.objects.filter(table__round=rnd):
            self._noted(confirmation).delete()
        for seat in Seat.objects.filter(round=rnd):
            self._noted(seat).delete()
        for table in Table.objects.filter(round=rnd):
            self._noted(table).delete()

    def _seat(self, rnd: Round, data: Mapping[str, Any]) -> dict[int, Table]:
        tables = self._bulk(
            [
                Table(
                    round=rnd,
                    number=t["number"],
                    size=t["size"],
                    voided=t["voided"],
                    void_reason=t["void_reason"],
                    submitted_at=_parsed(t["submitted_at"]),
                    confirmed_at=_parsed(t["confirmed_at"]),
                )
                for t in sorted(data["tables"], key=number_of)
            ],
            ("number",),
            Table.objects.filter(round=rnd),
        )
        by_number = {t.number: t for t in tables}
        seats = [
            Seat(round=rnd, table=by_number[t["number"]], position=p, entry=self.entries[n])
            for t in data["tables"]
            for p, n in enumerate(t["seats"])
            if n is not None
        ]
        seats += [Seat(round=rnd, entry=self.entries[n]) for n in data["sitting_out"]]
        self._bulk(seats, ("entry_id",), Seat.objects.filter(round=rnd))
        self.rescore.update((table.pk, table) for table in tables)
        self.fresh_tables += tables
        return by_number

    def _table(self, table: Table, data: Mapping[str, Any]) -> None:
        values = {
            "voided": data["voided"],
            "void_reason": data["void_reason"],
            "submitted_at": _parsed(data["submitted_at"]),
            "confirmed_at": _parsed(data["confirmed_at"]),
        }
        changed = any(getattr(table, k) != v for k, v in values.items())
        if changed:
            for name, value in values.items():
                setattr(table, name, value)
            self._noted(table).save()
            self.rescore.setdefault(table.pk, table)
        if self._hands(table, data["hands"]):
            self.rescore.setdefault(table.pk, table)
        self._confirmations(table, data["confirmations"])

    def _hands(self, table: Table, wanted_list: Sequence[Mapping[str, Any]]) -> bool:
        here = {h.number: h for h in self.hands_here.get(table.pk, [])}
        wanted = {h["number"]: h for h in wanted_list}
        written = False
        for number in sorted(set(here) - set(wanted)):
            self._noted(here.pop(number)).delete()
        for number, data in sorted(wanted.items()):
            hand = here.get(number)
            values = {
                "kind": data["kind"],
                "dealer": data["dealer"],
                "data": data["data"],
                "version": data["version"],
                "entered_at": _parsed(data["entered_at"]),
                "updated_at": _parsed(data["updated_at"]),
                "entered_by": self.users.get(data["entered_by"]),
            }
            if hand is not None and all(
                getattr(hand, k) == v for k, v in values.items() if k != "entered_by"
            ):
                continue
            new = hand is None
            hand = hand or Hand(table=table, number=number)
            for name, value in values.items():
                setattr(hand, name, value)
            note = self.reason
            if data["entered_by"]:
                note += f"; entered by {data['entered_by']}"
            self._noted(hand, note)
            if new:  # inserted in bulk with the times of the other installation
                self.fresh_hands.append(hand)
                here[number] = hand
            else:
                hand.save()
                # the times of the other installation: saving sets them to now
                self.times.append((hand, {k: values[k] for k in ("entered_at", "updated_at")}))
            written = True
        self.table_hands[table.pk] = list(here.values())
        # the hands here are the bundle's now: its figures are this installation's scores
        self.scored += [(here[number], wanted[number]["results"]) for number in here]
        return written or bool(set(here) - set(wanted))

    def _confirmations(self, table: Table, wanted_list: Sequence[Mapping[str, Any]]) -> None:
        here = {c.position: c for c in self.confirmations_here.get(table.pk, [])}
        wanted = {c["position"]: c for c in wanted_list}

        def same(c: Confirmation, data: Mapping[str, Any]) -> bool:
            return (c.via, c.device, c.confirmed_at) == (
                data["via"],
                data["device"],
                _parsed(data["confirmed_at"]),
            )

        stale = [p for p in here if p not in wanted or not same(here[p], wanted[p])]
        for position in stale:
            self._noted(here.pop(position)).delete()
        for position, data in sorted(wanted.items()):
            if position in here:
                continue
            confirmation = Confirmation(
                table=table,
                position=position,
                via=data["via"],
                device=data["device"],
                user=self.users.get(data["user"]),
                # the time of the other installation (inserted in bulk as it is)
                confirmed_at=_parsed(data["confirmed_at"]),
            )
            self.fresh_confirmations.append(confirmation)

    def lots_of(self) -> None:
        here = [without(d, "drawn_by") for d in event_content_lots(self.event)]
        if here == lots_of(self.content):
            return
        LotDraw.objects.filter(event=self.event).delete()
        for data in self.content["lot_draws"]:
            draw = LotDraw.objects.create(
                event=self.event,
                entries=data["entries"],
                tie=data["tie"],
                tied=data["tied"],
                lapsed_at=_parsed(data["lapsed_at"]),
                seed=data["seed"],
                drawn_by=self.users.get(data["drawn_by"]),
            )
            LotDraw.objects.filter(pk=draw.pk).update(drawn_at=_parsed(data["drawn_at"]))
