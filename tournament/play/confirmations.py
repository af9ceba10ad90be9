"""Handing in a table's sheet and confirming it: each player confirms their seat (on their
personal link, or a scorer on their word), a scorer confirms the whole sheet or takes it back
(``reopen_table``). A correction that moves a total of a confirmed sheet makes its confirmations
lapse (``lapse_confirmations_if_totals_moved``, called by ``hands``). Each write is one function,
one transaction."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.core.audit import User, actor, noted
from tournament.core.errors import Refused
from tournament.models import Confirmation, Entry, Round, Seat, Table, versions
from tournament.models.events import SEAT_SUMS
from tournament.play.locks import check_table_open, locked_table
from tournament.play.sheets import read_sheet


@transaction.atomic
@versions.at_the_end()
def submit_table(*, table: Table, user: User = None) -> Table:
    """The table hands in its round: the players then confirm it, each from the table link. From
    the link there is no user: the history names the table link (``audit``)."""
    table = locked_table(table)
    check_table_open(table, new=False)
    if table.submitted_at is not None:
        return table
    sheet = read_sheet(table)
    if not sheet.complete:
        if sheet.wanted is None and sheet.hands_played:
            # the time decides the round's length, but a game under way ends first
            raise Refused(
                _(
                    "A game is still being played at this table: hand in the sheet when it has "
                    "ended."
                )
            )
        raise Refused(
            _("The sheet is not complete: %(games)s of %(wanted)s games entered.")
            % {"games": sheet.hands_played, "wanted": sheet.wanted or "?"}
        )
    table.submitted_at = timezone.now()
    noted(table, user, "").save(update_fields=["submitted_at"])
    return table


def _finish_if_everyone_confirmed(table: Table, user: User = None) -> None:
    if table.confirmations.count() >= table.size and table.confirmed_at is None:
        table.confirmed_at = timezone.now()
        table.confirmation_lapsed_at = None
        noted(table, user, "").save(update_fields=["confirmed_at", "confirmation_lapsed_at"])


# the reason kept with confirmations that a correction of the totals made lapse (stored in
# English as every machine reason, said in the reader's words by ``history.reason_text``)
TOTALS_CHANGED = "totals changed after confirmation"


def _seat_totals(table: Table) -> list[tuple[int, ...]]:
    """Each seat's sums, by seat (one query)."""
    return list(Seat.objects.filter(table_id=table.pk).order_by("position").values_list(*SEAT_SUMS))


def totals_if_confirmed(table: Table) -> list[tuple[int, ...]] | None:
    """The seats' totals before a correction of a sheet that someone has confirmed (what they
    agreed to), else None (one or two queries)."""
    if table.confirmed_at is None and not table.confirmations.exists():
        return None
    return _seat_totals(table)


def lapse_confirmations_if_totals_moved(
    table: Table, confirmed: list[tuple[int, ...]] | None, user: User
) -> None:
    """A correction that moves a total of a confirmed sheet (a game changed, added or deleted)
    makes its confirmations lapse: the players agreed to other totals. Each confirmation's
    history row keeps it, with the reason; the sheet is provisional again and says "changed after
    confirmation: confirm again" until everyone has confirmed anew. A correction that leaves
    every total as it was keeps them."""
    if confirmed is None or _seat_totals(table) == confirmed:
        return
    for confirmation in table.confirmations.all():
        noted(confirmation, user, TOTALS_CHANGED).delete()
    table.confirmed_at = None
    table.confirmation_lapsed_at = timezone.now()
    noted(table, user, TOTALS_CHANGED).save(
        update_fields=["confirmed_at", "confirmation_lapsed_at"]
    )


def _seated(table: Table, position: int) -> str:
    """The player at a seat, by name (one query)."""
    seat = Seat.objects.filter(table=table, position=position).select_related("entry__player")
    return str(seat.get().entry.player)


def _refuse_unless_confirmable(table: Table) -> None:
    """What a player's own confirmation on their personal link needs: a table that counts, in a
    round being played, whose sheet is handed in."""
    if table.voided:
        raise Refused(_("A voided table needs no confirmation."))
    if table.round.status != Round.Status.PLAYING:
        raise Refused(
            _("Round %(n)s is closed; ask the scorer to confirm the sheet.")
            % {"n": table.round.number}
        )
    if table.submitted_at is None:
        raise Refused(_("The sheet has not been handed in yet."))


@transaction.atomic
@versions.at_the_end()
def confirm_as_player(*, entry: Entry) -> Table:
    """A player confirms their own seat of the handed-in sheet through their personal link
    (issue 29): tied to the person, whichever phone opens the link, so a player whose phone died
    confirms on a borrowed one, and one phone confirms for a neighbour who has none by opening
    the neighbour's link. The table link confirms no seat: its token is the table's, and whoever
    holds it could confirm for everybody at the table (issue 43). While the round is played, the
    sheet handed in, once per seat; a player without their link confirms with a scorer
    (``confirm_on_word``)."""
    seat = (
        Seat.objects.filter(entry=entry, table__isnull=False)
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("table", "round")
        .order_by("-round__number")
        .first()
    )
    if seat is None:
        raise Refused(_("You have no seat at a table yet."))
    table = locked_table(seat.table)
    _refuse_unless_confirmable(table)
    if table.confirmed_at is not None:
        return table
    if table.confirmations.filter(position=seat.position).exists():
        return table  # tapped twice, or on two phones: confirmed once
    Confirmation.objects.create(
        table=table, position=seat.position, via=Confirmation.Via.PLAYER, device=""
    )
    _finish_if_everyone_confirmed(table)
    return table


# the reason kept with a confirmation a scorer made for one player (stored in English as every
# machine reason, said in the reader's words by ``history.reason_text``)
ON_THE_PLAYERS_WORD = "on the player's word"


@transaction.atomic
@versions.at_the_end()
def confirm_on_word(*, table: Table, position: int, user: User = None) -> Table:
    """A scorer confirms one player's seat of the handed-in sheet on the player's word (a player
    without a phone, or without their personal link): the confirmation and its history row name
    the scorer, so the history shows who vouched for it. Also after the round has closed, as the
    scorer's confirmation of the whole sheet (``confirm_table``)."""
    table = locked_table(table)
    if table.voided:
        raise Refused(_("A voided table needs no confirmation."))
    if table.submitted_at is None:
        raise Refused(_("The sheet has not been handed in yet."))
    if not 0 <= position < table.size:
        raise Refused(_("There is no such seat at this table."))
    if table.confirmations.filter(position=position).exists():
        raise Refused(
            _("%(player)s has confirmed already; nothing was changed.")
            % {"player": _seated(table, position)}
        )
    confirmation = Confirmation(
        table=table, position=position, via=Confirmation.Via.SCORER, user=actor(user)
    )
    noted(confirmation, user, ON_THE_PLAYERS_WORD).save(force_insert=True)
    _finish_if_everyone_confirmed(table, user)
    return table


@transaction.atomic
@versions.at_the_end()
def confirm_table(*, table: Table, user: User = None) -> Table:
    """A scorer confirms the whole sheet (e.g. the paper list was signed by everyone)."""
    table = locked_table(table)
    if table.voided:
        raise Refused(_("A voided table needs no confirmation."))
    if not table.hands.exists():
        raise Refused(_("There is nothing to confirm: no games entered."))
    if table.submitted_at is None:
        table.submitted_at = timezone.now()
        noted(table, user, "").save(update_fields=["submitted_at"])
    done = set(table.confirmations.values_list("position", flat=True))
    for position in range(table.size):
        if position not in done:
            confirmation = Confirmation(
                table=table, position=position, via=Confirmation.Via.SCORER, user=actor(user)
            )
            noted(confirmation, user, "").save(force_insert=True)
    _finish_if_everyone_confirmed(table, user)
    return table


@transaction.atomic
@versions.at_the_end()
def reopen_table(*, table: Table, reason: str, user: User = None) -> Table:
    """Take a handed-in sheet back so that games can be added; the confirmations start again."""
    if not reason.strip():
        raise Refused(_("Give a reason for reopening the sheet."))
    table = locked_table(table)
    confirmations = list(table.confirmations.all())
    for confirmation in confirmations:
        noted(confirmation, user, reason.strip()).delete()
    if confirmations:
        # reopened to change the sheet the players agreed to: handed in again, it says that it
        # was changed after their confirmation
        table.confirmation_lapsed_at = timezone.now()
    table.submitted_at = None
    table.confirmed_at = None
    noted(table, user, reason.strip()).save()
    return table
