"""Event bundles: one event in one file, from the hall's laptop into the season (issue 15).

The format is documented in ``docs/bundle-format.md``. In short: a gzip-compressed JSON document
``{"format": "cego-event-bundle", "version": 1, "sha256": ..., "content": {...}}`` whose
``sha256`` is taken over the canonical form of ``content``, so that a file changed by hand or cut
short is refused before anything is read from it.

The package follows a bundle's way, one module a step: ``export`` writes it, ``read`` unpacks and
verifies a file, ``check`` checks its content (its shape against the published JSON Schema,
``bundle.schema.json``, through ``shape``) and scores every game again, ``plan`` compares it
with this database without writing, ``write`` applies the plan in one transaction.
"""

from __future__ import annotations

from tournament.core import errors

FORMAT = "cego-event-bundle"
VERSION = 1  # the newest format this app reads and the one it writes
SUFFIX = ".cego.json.gz"
# a real event (150 players, 3 rounds of 48 games) is some 2 MB of JSON; far above that is no
# bundle of ours, and reading stops before it fills the memory (a packed file of zeros)
UNPACKED_MAX_BYTES = 64 * 1024 * 1024
CHUNK = 1024 * 1024


class BundleError(errors.Refused):
    """A file that is not an event bundle this app can import; the message says why."""
