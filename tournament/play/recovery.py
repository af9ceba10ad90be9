"""What the director checks after the laptop was replaced (issue 45): per table of the current
round, the games the restored server has, which of them a phone sent again because the copy
lacked them (``Hand.resent_at``), and what the table's phone last reported. The director holds
each table's count against its phone and the paper sheet. A read: it writes nothing."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Max

from tournament.models import Event, Hand, Round, Table, TablePhone


@dataclass(frozen=True)
class TableCheck:
    """A table of the round as the restored server has it."""

    table: Table
    games: int  # games on the server's sheet
    resent: list[int]  # the numbers of those a phone sent again
    last_at: datetime | None  # when the latest game arrived
    phone: TablePhone | None  # what its phone reported with the last game it sent

    @property
    def flagged(self) -> bool:
        """Whether the director should walk to this table: its phone holds games not sent, or
        had one refused."""
        return self.phone is not None and bool(self.phone.waiting or self.phone.refused)


def current_round(event: Event) -> Round | None:
    """The round being played (the latest, if more than one), else the latest drawn one (one or
    two queries)."""
    drawn = event.rounds.exclude(status=Round.Status.DRAFT).order_by("-number")
    return drawn.filter(status=Round.Status.PLAYING).first() or drawn.first()


def table_checks(rnd: Round) -> list[TableCheck]:
    """Each table of ``rnd`` in number order with its games and its phone's report (three
    queries: the tables with their phones, the games counted per table, the games sent again)."""
    tables = list(
        Table.objects.filter(round=rnd).select_related("phone", "round").order_by("number")
    )
    counts = {
        row["table_id"]: row
        for row in Hand.objects.filter(table__round=rnd)
        .values("table_id")
        # when the latest game was entered, not when a game was last corrected
        .annotate(games=Count("id"), last=Max("entered_at"))
    }
    resent: dict[int, list[int]] = {}
    for table_id, number in (
        Hand.objects.filter(table__round=rnd, resent_at__isnull=False)
        .order_by("table_id", "number")
        .values_list("table_id", "number")
    ):
        resent.setdefault(table_id, []).append(number)
    checks = []
    for table in tables:
        row = counts.get(table.pk, {})
        checks.append(
            TableCheck(
                table=table,
                games=row.get("games", 0),
                resent=resent.get(table.pk, []),
                last_at=row.get("last"),
                phone=getattr(table, "phone", None),
            )
        )
    return checks
