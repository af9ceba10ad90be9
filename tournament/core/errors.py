"""Writes that touch more than one row: each is one function, one transaction.

Views, management commands, the demo generator and the benchmarks all write through these, so the
scoring engine sees every hand and the result cache never drifts from the hands.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournament.models import (
    Hand,
)


class Refused(Exception):
    """An action that the state of the event does not allow; the message says why and what to do."""


class StaleEdit(Refused):
    """An edit made on a version of the hand that someone else has changed since."""

    def __init__(self, current: Hand) -> None:
        self.current = current
        super().__init__(
            _(
                "This game was changed by someone else in the meantime (now version %(v)s); "
                "check the current entry below and make your change again."
            )
            % {"v": current.version}
        )


class NumberTaken(Refused):
    """A game sent as game N (by a phone that entered it offline) when the sheet's next game is
    another number: someone else entered game N meanwhile, or games the phone counted are not on
    the sheet. ``stored`` is the sheet's game N, if there is one."""

    def __init__(self, number: int, next_number: int, stored: Hand | None) -> None:
        self.number, self.next_number, self.stored = number, next_number, stored
        if stored is not None:
            text = _(
                "Game %(n)s is on the sheet already, entered elsewhere (by another phone or the "
                "scorer) before this phone sent it; this game was not stored."
            )
        else:
            text = _(
                "This phone sent game %(n)s, but the sheet has %(have)s games; this game was not "
                "stored."
            )
        super().__init__(text % {"n": number, "have": next_number - 1})


class AlreadySaved(Refused):
    """A hand form sent again with its one-time key but other values: the first send is stored,
    the new values are not (issue 11: the answer must never claim values that were not saved)."""

    def __init__(self, stored: Hand) -> None:
        self.hand = stored
        super().__init__(
            _(
                "This form was already saved as game %(n)s with other values; the values sent "
                "now were not stored."
            )
            % {"n": stored.number}
        )
