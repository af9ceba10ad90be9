"""A link as a QR code, for the phones in the hall: the table link on a printed table sheet, the
personal link on a start card and on the player's own page before the draw."""

from __future__ import annotations

import segno


def qr_svg(url: str) -> str:
    """The link as a QR code, inline SVG (segno): a viewBox without a fixed size, so the
    stylesheet scales the whole code (a fixed size would crop a long link's code), with the
    standard quiet zone of four modules for phone cameras, and error correction level M (a
    smudged or creased code still reads)."""
    return segno.make(url, error="m").svg_inline(border=4, omitsize=True)
