"""Field defaults the models and their migrations name by path; this module imports no model."""

import secrets

# below 2**53, so that the number is exact wherever it is read (a JSON number in JavaScript too)
FIRST_MAX = 2**52


def first_version() -> int:
    """A new event's or season's first version: random, so that a cache entry made for another
    database (a test run, the demo loaded again) never matches a row that reuses its id."""
    return secrets.randbelow(FIRST_MAX)
