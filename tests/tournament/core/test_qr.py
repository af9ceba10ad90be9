"""A link as a QR code: one function for the printed sheets, start cards and personal page."""

from __future__ import annotations

import re

import segno

from tournament.core.qr import qr_svg


def test_the_code_has_no_fixed_size_so_the_page_scales_it_whole():
    svg = qr_svg("http://192.168.1.10:8000/t/abcdefghijklmnop/")
    assert svg.startswith("<svg")
    assert "viewBox" in svg
    assert not re.search(r"<svg[^>]*\s(width|height)=", svg)


def test_the_code_keeps_a_quiet_zone_of_four_modules_for_phone_cameras():
    url = "http://192.168.1.10:8000/m/abcdefghijklmnopqrstuvwxyz012345/"
    modules = segno.make(url, error="m").symbol_size(border=0)[0]
    size = re.search(r'viewBox="0 0 (\d+) (\d+)"', qr_svg(url))
    assert size is not None
    assert int(size.group(1)) == int(size.group(2)) == modules + 2 * 4
