"""A bundle file read: unpacked within a size limit, its format, version and checksum checked, so
that a file changed by hand or cut short is refused before anything is read from it."""

from __future__ import annotations

import hashlib
import json
import zlib
from typing import Any

from django.utils.translation import gettext as _

from tournament.publish.bundles import CHUNK, FORMAT, UNPACKED_MAX_BYTES, VERSION, BundleError
from tournament.publish.bundles.check import check_content
from tournament.publish.bundles.export import canonical

# --- reading a file ---------------------------------------------------------------------------


def _incomplete() -> BundleError:
    return BundleError(
        _(
            "The file is incomplete (cut short while copying or downloading?): export the event "
            "again and bring the whole file."
        )
    )


def _unpacked(data: bytes) -> bytes:
    if data[:2] != b"\x1f\x8b":
        return data  # plain JSON is accepted too (a bundle unpacked to look at it)
    unpacker = zlib.decompressobj(wbits=31)
    parts, size = [], 0
    try:
        view = memoryview(data)
        for start in range(0, len(data), CHUNK):
            part = unpacker.decompress(view[start : start + CHUNK], UNPACKED_MAX_BYTES + 1 - size)
            size += len(part)
            parts.append(part)
            if size > UNPACKED_MAX_BYTES or unpacker.unconsumed_tail:
                raise BundleError(_("The file unpacks to far more than any event; not read."))
            if unpacker.eof:
                break
    except zlib.error as exc:
        raise _incomplete() from exc
    if not unpacker.eof:
        raise _incomplete()
    return b"".join(parts)


def read_bundle(data: bytes) -> dict[str, Any]:
    """The checked ``content`` of a bundle file's bytes. Raises BundleError when the file is not
    a bundle, is cut short, comes from a newer version of the app, or was changed after export."""
    text = _unpacked(data)
    try:
        doc = json.loads(text.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise BundleError(_("This file is not an event bundle.")) from exc
    except json.JSONDecodeError as exc:
        stripped = text.strip()
        if stripped.startswith(b"{") and (
            exc.pos >= len(stripped) - 1 or not stripped.endswith(b"}")
        ):
            raise _incomplete() from exc
        raise BundleError(_("This file is not an event bundle.")) from exc
    except (ValueError, RecursionError) as exc:  # a number of 5,000 digits, nesting 10,000 deep
        raise BundleError(_("This file is not an event bundle.")) from exc
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise BundleError(_("This file is not an event bundle."))
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise BundleError(_("This file is not an event bundle."))
    if version > VERSION:
        raise BundleError(
            _(
                "This bundle was made by a newer version of the app (format %(theirs)s; this "
                "installation reads up to %(ours)s): update this installation first."
            )
            % {"theirs": version, "ours": VERSION}
        )
    content = doc.get("content")
    if not isinstance(content, dict) or not isinstance(doc.get("sha256"), str):
        raise _incomplete()
    try:
        written = canonical(content)
    except ValueError as exc:  # NaN or Infinity: never written by the app
        raise BundleError(_("This file is not an event bundle.")) from exc
    if hashlib.sha256(written).hexdigest() != doc["sha256"].lower():
        raise BundleError(
            _(
                "The bundle was changed after export (its checksum does not match its content); "
                "nothing was imported. Export the event again from the laptop it was played on."
            )
        )
    check_content(content)
    return content
