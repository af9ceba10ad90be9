"""The tournament's data, and the words used for it everywhere in code, templates and tests.

player
    A person across events: first and last name, club, town, optional category (Damen, Jugend, ...).
consent
    What a player agreed to be shown in public (name and club in lists, town, the published season
    website), as given: its words' version, when and how. Without one a public page names the
    player by a neutral label.
season
    A series of events whose results are added up, e.g. "Schwarzwaldmeisterschaft 2026/27".
event
    One tournament: a date, a venue, one game, its rule settings (checked by ``scoring``), how
    tables are sized and how many hands a table plays per round.
entry
    A player taking part in one event, with a start number. An entry can come late or withdraw.
team
    Entries grouped at registration: a *pair* of Ziege partners who always sit opposite, or a
    *squad* of four whose totals add up to a side ranking.
round
    A Durchgang: seats are drawn for it, its tables play a fixed number of hands, then it closes.
    Status: draft → seated (drawn) → playing → closed.
table
    The players sitting together for one round. A table's round can be voided by the director: it
    then counts nothing for its players.
seat
    An entry at a table, at a position numbered from 0 in the order of the table sheet (the scoring
    engine's seat number). An entry that sits out a round has a seat without a table.
hand
    One game at a table (a Cego game, a Ziege deal, a Crazy Solo deal, a Hennes Sibbe challenge):
    the hand dict the scoring engine takes, stored as entered. A table in the paper fallback
    instead has one *totals* hand with each player's total for the round.
result
    One seat's result of one hand, as the engine computed it: a rebuildable cache for fast sums
    (``manage.py recompute_scores`` rebuilds it from the hands).
"""

from tournament.models.base import Audited, Versioned
from tournament.models.events import (
    Entry,
    Event,
    EventRole,
    Round,
    Season,
    Seat,
    Table,
    TablePhone,
    Team,
)
from tournament.models.money import (
    CashItem,
    EntryFee,
    FeeCategory,
    Prize,
    PrizeAssignment,
    PrizeSettings,
)
from tournament.models.play import Confirmation, Hand, LotDraw, Result, provisional_entries
from tournament.models.rating import Rating, RatingBasis
from tournament.models.register import Consent, DistinctPlayers, Player, PlayerAlias
from tournament.models.registration import RegistrationAttempt

__all__ = [
    "Audited",
    "CashItem",
    "Confirmation",
    "Consent",
    "DistinctPlayers",
    "Entry",
    "EntryFee",
    "Event",
    "EventRole",
    "FeeCategory",
    "Hand",
    "LotDraw",
    "Player",
    "PlayerAlias",
    "Prize",
    "PrizeAssignment",
    "PrizeSettings",
    "Rating",
    "RatingBasis",
    "RegistrationAttempt",
    "Result",
    "Round",
    "Season",
    "Seat",
    "Table",
    "TablePhone",
    "Team",
    "Versioned",
    "provisional_entries",
]
