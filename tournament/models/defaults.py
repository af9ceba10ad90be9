"""Field defaults the models and their migrations name by path; this module imports no model."""

import time


def first_version() -> int:
    """A new event's or season's first version, and the least a changed version moves to
    (``models.versions``): the clock's microseconds, so that no version repeats one made before
    a restore of an older backup or a database loaded again. Below 2**53 until the year 2255:
    exact wherever it is read (a JSON number in JavaScript too)."""
    return time.time_ns() // 1000
