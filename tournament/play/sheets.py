"""One read of a table's sheet: seats, hands, each seat's results, running totals and what the
game adds (tournament.games). The scorer's table page, the players' phone page and the printed
table sheets all show this read, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tournament.core import formatting
from tournament.games.base import GameType, SeatResult, SheetExtras
from tournament.games.words import describe_hand
from tournament.models import Hand, Seat, Table


def seat_name(seat: Seat, *, public: bool) -> str:
    """The seat's player as the sheet names them: by name on the scorer's page and the table's
    phones, as far as the player's consent reaches where the public reads the sheet
    (``Player.public_name``: else initials and start number)."""
    player = seat.entry.player
    return player.public_name(seat.entry.start_number) if public else str(player)


def dealer_for(number: int, size: int) -> int:
    """The deal passes round the table: hand 1 is dealt by seat 0 (``GameType.dealer``, for a
    game whose deal does not follow the hand before)."""
    return (number - 1) % size


@dataclass
class SheetRow:
    hand: Hand
    description: str
    results: list[int]
    running: list[int]
    dealer: int | None


@dataclass
class TableSheet:
    table: Table
    seats: list[Seat]
    players: list[str]
    rows: list[SheetRow] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    extras: SheetExtras = field(default_factory=SheetExtras)
    wanted: int | None = None
    hands_played: int = 0
    totals_entered: bool = False
    # who deals the next hand (None: not known)
    next_dealer: int | None = None

    @property
    def complete(self) -> bool:
        """Whether the round's sheet can be handed in: all its hands, or its totals. Without a
        fixed number of hands (the time decides) a round can end only between two games."""
        if self.totals_entered:
            return True
        if self.wanted is not None:
            return self.hands_played >= self.wanted
        return self.hands_played > 0 and self.extras.between_games

    @property
    def form_done(self) -> bool:
        """No form for a further hand: the round's hands (or its totals) are all entered."""
        return self.totals_entered or (self.wanted is not None and self.hands_played >= self.wanted)

    def context(self) -> dict[str, Any]:
        """The sheet as the table and phone templates take it."""
        table = self.table
        next_number = len(self.rows) + 1
        return {
            "event": table.round.event,
            "round": table.round,
            "table": table,
            "seats": self.seats,
            "players": self.players,
            # the phone's sheet columns are narrow: short names that still tell players apart
            "short_players": formatting.told_apart(
                [(s.entry.player.first_name, s.entry.player.last_name) for s in self.seats]
            ),
            "rows": self.rows,
            "totals": self.totals,
            "extras": self.extras,
            "wanted": self.wanted,
            "hands_played": self.hands_played,
            "games_finished": self.extras.games_finished,
            "totals_entered": self.totals_entered,
            "complete": self.complete,
            "form_done": self.form_done,
            "next_number": next_number,
            "next_title": table.round.event.game_type.hand_title(next_number),
            # the heading the phone's queue writes for the games it keeps ("§": the number)
            "title_pattern": table.round.event.game_type.hand_title("§"),
            "next_dealer": self.next_dealer,
        }


def read_sheets(tables: Iterable[Table], *, public: bool = False) -> list[TableSheet]:
    """The sheets of ``tables`` (all of one event, with ``round__event`` loaded): three queries
    however many tables. ``public``: the players named as public pages name them (the sheet
    as everybody without a role reads it, the printed sheets), in the games' words too."""
    tables = list(tables)
    if not tables:
        return []
    event = tables[0].round.event
    game, rules = event.game_type, event.full_rules()
    ids = [t.pk for t in tables]
    seats: dict[int, list[Seat]] = {t.pk: [] for t in tables}
    for seat in (
        Seat.objects.filter(table_id__in=ids)
        .select_related("entry__player", "entry__pair")
        .order_by("table_id", "position")
    ):
        seats[seat.table_id].append(seat)
    hands: dict[int, list[Hand]] = {t.pk: [] for t in tables}
    for hand in (
        Hand.objects.filter(table_id__in=ids)
        .select_related("entered_by")
        .prefetch_related("results")
        .order_by("table_id", "number")
    ):
        hands[hand.table_id].append(hand)
    sheets = []
    for table in tables:
        players = [seat_name(s, public=public) for s in seats[table.pk]]
        sheet = TableSheet(table, seats[table.pk], players, wanted=event.hands_for(table.size))
        running = [0] * table.size
        played: list[tuple[dict[str, Any], list[SeatResult]]] = []
        # the results of the hand before, for a game whose deal follows them (Hennes Sibbe)
        before: list[int] | None = None
        for hand in hands[table.pk]:
            figures = [SeatResult(0) for _ in range(table.size)]
            for result in hand.results.all():
                if result.position < table.size:
                    figures[result.position] = SeatResult(
                        result.points, result.inflicted, result.matches_won, result.games_lost
                    )
            results = [f.points for f in figures]
            running = [a + b for a, b in zip(running, results, strict=True)]
            dealer = hand.dealer
            if game.dealer_follows_results and hand.kind == Hand.Kind.HAND:
                # from the results shown above it: the sheet never disagrees with itself
                dealer = game.dealer(table.size, hand.number, before)
                before = results
            sheet.rows.append(
                SheetRow(
                    hand,
                    describe_hand(event.game, hand.data, players),
                    results,
                    list(running),
                    dealer,
                )
            )
            if hand.kind == Hand.Kind.TOTALS:
                # the paper fallback for the whole round, not a played hand
                sheet.totals_entered = True
            else:
                played.append((hand.data, figures))
        sheet.hands_played = len(played)
        if table.size:
            sheet.next_dealer = game.dealer(table.size, len(sheet.rows) + 1, before)
        sheet.totals = running
        sheet.extras = game.sheet_extras(rules, played, running, players)
        sheets.append(sheet)
    return sheets


def read_sheet(table: Table, *, public: bool = False) -> TableSheet:
    """One table's sheet (three queries)."""
    return read_sheets([table], public=public)[0]


def confirmation_state(table: Table, players: list[str]) -> dict[str, Any]:
    """A handed-in sheet's players who have confirmed it and those who still have to, by name
    (one query): the scorer's table page says whom the table is waiting for, and offers to
    confirm each of those seats on the player's word (``waiting_seats``: position and name)."""
    confirmed = set(table.confirmations.values_list("position", flat=True))
    return {
        "confirmed_by": [name for i, name in enumerate(players) if i in confirmed],
        "still_to_confirm": [name for i, name in enumerate(players) if i not in confirmed],
        "waiting_seats": [(i, name) for i, name in enumerate(players) if i not in confirmed],
    }


def stored_results(hand: Hand, players: list[str], game: GameType) -> str:
    """Each player's result of a stored game as the sheet writes it (``GameType.hand_result``:
    +20 for Cego, 2 defeat points taken for Ziege): what the scorer's page and the table link
    say of a game saved, or of the game stored under a number taken meanwhile."""
    # a game just saved holds its results (play.hands.record_hand); an earlier one reads them
    points = getattr(hand, "seat_points", None)
    if points is None:
        points = hand.results.order_by("position").values_list("points", flat=True)
    return ", ".join(
        f"{name} {game.hand_result(p)}" for name, p in zip(players, points, strict=False)
    )
