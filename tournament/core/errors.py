"""Refused: an action the state of the event does not allow. Every domain raises it (or its
own subclass) and every page shows its message, so it lives on the lowest floor."""

from __future__ import annotations


class Refused(Exception):
    """An action that the state of the event does not allow; the message says why and what to do."""
