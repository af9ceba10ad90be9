"""Excel workbooks (openpyxl, write-only: memory stays flat however many hands an event has).

Fed by the same reads as the pages (``Entry.objects.standings``, ``standings.round_tables``,
``standings.season_standings``), so a workbook shows what the standings page shows. Sheets look like
a careful club secretary's: bold frozen header row, autofilter, fitting widths, number formats,
landscape pages fitted to the width with the header row repeated.
"""

from __future__ import annotations

from collections import defaultdict
from io import BytesIO
from typing import IO, Any

from django.db.models import F
from django.utils.translation import gettext as _
from openpyxl import Workbook

from tournament import games
from tournament.core import shown
from tournament.core.workbook import EURO, INTEGER, SIGNED, Sheet, euros_value
from tournament.games.base import Figure
from tournament.games.words import describe_hand
from tournament.models import Entry, Event, Hand, Player, Result, Round, Season, Seat
from tournament.money import cashbook
from tournament.results import pairs, standings


def _name_cells(player: Player, number: int) -> list[str]:
    """The last and first name's cells of a public sheet: the names with the consent, else the
    neutral label and an empty cell (``core.shown``)."""
    if shown.named(player.public_lists, player.public_season):
        return [player.last_name, player.first_name]
    return [player.public_name(number), ""]


def _standings_sheet(workbook: Workbook, event: Event, rounds: list[Round]) -> None:
    columns: list[tuple[str, int, str | None]] = [
        (_("Rank"), 6, INTEGER),
        (_("No."), 6, INTEGER),
        (_("Last name"), 18, None),
        (_("First name"), 14, None),
        (_("Club"), 28, None),
    ]
    game = event.game_type
    round_format = _number_format(game.round_figure)
    columns += [(_("Round %(n)s") % {"n": r.number}, 10, round_format) for r in rounds]
    # the game's figures in the standings page's order (the ranking's), each once, with the
    # page's heading (Ziege's total is the defeat points taken, already a figure)
    rules = event.full_rules()
    figures = game.columns()
    columns += [(str(f.heading), 12, _number_format(f)) for f in figures]
    columns.append((_("Status"), 12, None))
    sheet = Sheet(workbook, _("Standings"), columns)
    for entry in Entry.objects.standings(event, rounds):
        sheet.append(
            [
                # a place decided by lot says so ("3 (by lot)"); the others stay numbers
                entry.rank if entry.lot is None else standings.place_text(entry),
                entry.start_number,
                # as far as the consent reaches (``core.shown``): the label in the last
                # name's column, the first name's left empty
                *_name_cells(entry.player, entry.start_number),
                entry.player.public_club,
                *[getattr(entry, f"round_{r.number}") for r in rounds],
                *[game.shown(f, getattr(entry, f.name), rules) for f in figures],
                "" if entry.is_active else _("withdrawn"),
            ]
        )
    sheet.close()


def _pairs_sheet(workbook: Workbook, event: Event) -> None:
    """The ranking of fixed pairs, as its page: each pair's figures under the standings sheet's
    headings (``pairs.pair_standings``)."""
    figures = event.game_type.columns()
    columns: list[tuple[str, int, str | None]] = [
        (_("Rank"), 6, INTEGER),
        (_("Pair"), 24, None),
        (_("Players"), 40, None),
    ]
    columns += [(str(f.heading), 12, _number_format(f)) for f in figures]
    sheet = Sheet(workbook, _("Pair ranking"), columns)
    for row in pairs.pair_standings(event):
        sheet.append([row.rank, row.name, row.players, *row.values])
    sheet.close()


def _round_sheet(workbook: Workbook, rnd: Round) -> None:
    """Each seat's round figure under its heading (Ziege's difference, as the standings' round
    column and the difference on the standings sheet), never a "Result" meaning another."""
    figure = rnd.event.game_type.round_figure
    sheet = Sheet(
        workbook,
        _("Round %(n)s") % {"n": rnd.number},
        [
            (_("Table"), 7, INTEGER),
            (_("Seat"), 6, INTEGER),
            (_("No."), 6, INTEGER),
            (_("Name"), 26, None),
            (_("Club"), 28, None),
            (str(figure.heading), 12, _number_format(figure)),
            (_("Note"), 24, None),
        ],
    )
    for table in standings.round_tables(rnd):
        note = (
            _("voided: %(reason)s") % {"reason": table["table"].void_reason}
            if table["table"].voided
            else ""
        )
        for row in table["seats"]:
            seat = row["seat"]
            sheet.append(
                [
                    table["table"].number,
                    seat.position + 1,
                    seat.entry.start_number,
                    seat.entry.player.public_name(seat.entry.start_number, sort=True),
                    seat.entry.player.public_club,
                    row["points"],
                    note,
                ]
            )
    sheet.close()


def _hands_sheet(workbook: Workbook, event: Event) -> None:
    """One row per hand: round, table, game, dealer, contract and its inputs, each seat's result.

    Three queries: the seats, the hands (as tuples) and the results (as tuples), in one order.
    """
    names: dict[tuple[int, int], str] = {}
    largest = 0
    for table_id, position, number, first, last, lists, on_site in Seat.objects.filter(
        round__event=event, table__isnull=False
    ).values_list(
        "table_id",
        "position",
        "entry__start_number",
        "entry__player__first_name",
        "entry__player__last_name",
        "entry__player__public_lists",
        "entry__player__public_season",
    ):
        names[(table_id, position)] = shown.name(
            first, last, lists=lists, season=on_site, number=number
        )
        largest = max(largest, position + 1)
    columns: list[tuple[str, int, str | None]] = [
        (_("Round"), 8, INTEGER),
        (_("Table"), 7, INTEGER),
        (_("Game"), 7, INTEGER),
        (_("Dealer"), 20, None),
        (_("Game played"), 40, None),
    ]
    # each seat's figure of the game under its own heading (Ziege: the defeat points taken,
    # as on the standings sheet; a count, no plus)
    figure = event.game_type.hand_figure
    for seat in range(1, largest + 1):
        columns += [
            (_("Player %(n)s") % {"n": seat}, 20, None),
            (f"{figure.heading} {seat}", 10, _number_format(figure)),
        ]
    sheet = Sheet(workbook, _("Games"), columns)
    results: dict[int, dict[int, int]] = defaultdict(dict)
    for hand_id, position, points in (
        Result.objects.filter(event=event).values_list("hand_id", "position", "points").iterator()
    ):
        results[hand_id][position] = points
    hands = (
        Hand.objects.filter(table__round__event=event)
        .order_by("table__round__number", "table__number", "number")
        .values_list(
            "id", "table_id", "table__round__number", "table__number", "number", "dealer", "data"
        )
    )
    seating: dict[int, tuple[list[str], list[str]]] = {}  # per table: names by seat, seated
    for hand_id, table_id, round_number, table_number, number, dealer, data in hands.iterator():
        if table_id not in seating:
            by_seat = [names.get((table_id, p), "") for p in range(largest)]
            seating[table_id] = (by_seat, [n for n in by_seat if n])
        players, seated = seating[table_id]
        row: list[Any] = [
            round_number,
            table_number,
            number,
            players[dealer] if dealer is not None else "",
            describe_hand(event.game, data, seated),
        ]
        for position in range(largest):
            row += [
                players[position],
                results[hand_id].get(position) if players[position] else None,
            ]
        sheet.append(row)
    sheet.close()


def _seating_sheet(workbook: Workbook, event: Event) -> None:
    sheet = Sheet(
        workbook,
        _("Seating"),
        [
            (_("Round"), 8, INTEGER),
            (_("Table"), 7, INTEGER),
            (_("Seat"), 6, INTEGER),
            (_("No."), 6, INTEGER),
            (_("Name"), 26, None),
            (_("Club"), 28, None),
        ],
    )
    # as tuples: the sheet needs six values of each seat, not five model instances
    seats = (
        Seat.objects.filter(round__event=event)
        # who sits out comes last on every database (SQLite sorts NULL first, PostgreSQL last)
        .order_by("round__number", F("table__number").asc(nulls_last=True), "position")
        .values_list(
            "round__number",
            "table__number",
            "position",
            "entry__start_number",
            "entry__player__last_name",
            "entry__player__first_name",
            "entry__player__club",
            "entry__player__public_lists",
            "entry__player__public_season",
        )
    )
    for round_number, table_number, position, start_number, last, first, club, *seen in seats:
        consent = dict(zip(("lists", "season"), seen, strict=True))
        sheet.append(
            [
                round_number,
                table_number,
                position + 1 if position is not None else None,
                start_number,
                shown.name(first, last, sort=True, number=start_number, **consent),
                shown.club(club, **consent),
            ]
        )
    sheet.close()


def _cash_sheet(workbook: Workbook, event: Event) -> None:
    """The cash book ("Kasse"): income, expenses, the balance, in the box and the bank."""
    book = cashbook.cash_book(event)
    above = [[_("Cash book") + f" · {event.name}"]]
    if book.provisional:
        above.append([_("prize money provisional until the event is finished")])
    sheet = Sheet(
        workbook,
        _("Cash box"),
        [
            (_("Item"), 34, None),
            (_("Note"), 20, None),
            (_("Cash box"), 14, EURO),
            (_("Bank"), 14, EURO),
            (_("Total"), 14, EURO),
        ],
        above=above,
        autofilter=False,
    )

    def line(label: str, note: str, box: int, bank: int, total: int) -> None:
        sheet.append([label, note, euros_value(box), euros_value(bank), euros_value(total)])

    for heading, lines, total in (
        (_("Income"), book.income, book.income_total),
        (_("Expenses"), book.expenses, book.expenses_total),
    ):
        sheet.append([heading])
        for item in [*lines, total]:
            line(item.label, item.note, item.box_cents, item.bank_cents, item.total_cents)
    balance = book.balance
    line(balance.label, "", balance.box_cents, balance.bank_cents, balance.total_cents)
    if book.open_fees:
        sheet.append(
            [
                _("Not paid yet"),
                _("%(n)s players") % {"n": book.open_fees},
                None,
                None,
                euros_value(book.open_cents),
            ]
        )
    sheet.close()


def event_workbook(
    event: Event, output: IO[bytes] | None = None, *, with_cash: bool = False
) -> IO[bytes]:
    """The event workbook: standings (and the pair ranking of an event in fixed pairs), one sheet
    per round, every game, the seating; for the organiser also the cash book."""
    workbook = Workbook(write_only=True)
    rounds = list(event.rounds.all())
    _standings_sheet(workbook, event, rounds)
    if event.in_fixed_pairs:
        _pairs_sheet(workbook, event)
    for rnd in rounds:
        _round_sheet(workbook, rnd)
    _hands_sheet(workbook, event)
    _seating_sheet(workbook, event)
    if with_cash:
        _cash_sheet(workbook, event)
    output = output or BytesIO()
    workbook.save(output)
    return output


def _number_format(figure: Figure) -> str:
    """A figure's cells: signed where it is a change (+20), else a plain count or holding."""
    return SIGNED if figure.signed else INTEGER


def season_workbook(season: Season, output: IO[bytes] | None = None) -> IO[bytes]:
    """The season workbook, as the season page: one column per event with the player's result
    there (the game's result figure), their sum under the figure's heading, then the season's
    other figures that decide the order."""
    workbook = Workbook(write_only=True)
    events, rows = standings.season_standings(season)
    result, *others = standings.season_figures(games.get(season.game))
    columns: list[tuple[str, int, str | None]] = [
        (_("Rank"), 6, INTEGER),
        (_("Name"), 26, None),
        (_("Club"), 28, None),
    ]
    columns += [(event.name, 14, _number_format(result)) for event in events]
    columns.append((str(result.heading), 12, _number_format(result)))
    columns += [(str(f.heading), 12, _number_format(f)) for f in others]
    columns.append((_("Withdrawn from"), 28, None))
    sheet = Sheet(workbook, season.name, columns)
    for row in rows:
        sheet.append(
            [
                row["rank"],
                row["name"],
                row["club"],
                *[row[f"event_{e.pk}"] for e in events],
                row["total"],
                *[row[f.name] for f in others],
                ", ".join(e.name for e in events if e.pk in row["withdrawn"]),
            ]
        )
    sheet.close()
    output = output or BytesIO()
    workbook.save(output)
    return output
