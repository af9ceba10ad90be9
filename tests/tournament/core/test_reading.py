"""Uploaded workbooks are parsed by openpyxl through defusedxml (issue 44, point 3): an entity or
DTD attack that got past the reader's own checks would still be refused by the parser, and the
reader's own check refuses it first with the message that says what to do."""

from __future__ import annotations

import io
import zipfile

import defusedxml
import defusedxml.ElementTree
import openpyxl
import pytest
from openpyxl.xml import functions

from tests.helpers.imports import GERMAN, PLAYERS, xlsx_file
from tournament.core import reading

SHEET = "xl/worksheets/sheet1.xml"
LAUGHS = (
    b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
    b'<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
    b'<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>'
    b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
    b'<row r="1"><c r="A1" t="inlineStr"><is><t>&lol3;</t></is></c></row>'
    b"</sheetData></worksheet>"
)


def with_part(workbook: bytes, name: str, content: bytes) -> bytes:
    """The workbook with one part replaced: how an attacker hand-makes a file."""
    output = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(workbook)) as source,
        zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for item in source.infolist():
            target.writestr(item, content if item.filename == name else source.read(item))
    return output.getvalue()


def test_openpyxl_parses_workbooks_through_defusedxml():
    assert openpyxl.DEFUSEDXML is True
    assert functions.iterparse is defusedxml.ElementTree.iterparse  # the sheets' rows
    assert functions.fromstring is defusedxml.ElementTree.fromstring  # the other parts


@pytest.mark.parametrize("read_only", [True, False], ids=["read-only", "whole"])
def test_openpyxl_alone_refuses_an_entity_declaration(read_only: bool):
    """Without the reader's checks in front (``reading._check_archive``), the parser refuses
    the billion laughs before expanding one entity."""
    book = with_part(xlsx_file([GERMAN, *PLAYERS]), SHEET, LAUGHS)
    with pytest.raises(ValueError, match="invalid XML") as refused:  # openpyxl's own words
        workbook = openpyxl.load_workbook(io.BytesIO(book), read_only=read_only)
        list(workbook.worksheets[0].iter_rows(values_only=True))
    causes = []
    cause: BaseException | None = refused.value
    while cause is not None:
        causes.append(type(cause))
        cause = cause.__cause__ or cause.__context__
    assert defusedxml.EntitiesForbidden in causes


@pytest.mark.parametrize(
    "part", [SHEET, "xl/styles.xml", "xl/workbook.xml"], ids=["sheet", "styles", "book"]
)
def test_a_workbook_with_an_entity_declaration_is_refused_with_what_to_do(part: str):
    book = xlsx_file([GERMAN, *PLAYERS])
    with zipfile.ZipFile(io.BytesIO(book)) as archive:
        assert part in archive.namelist()
    with pytest.raises(reading.UnreadableFile) as refused:
        reading.read_table(io.BytesIO(with_part(book, part, LAUGHS)), "spieler.xlsx")
    assert str(refused.value) == (
        "The workbook contains XML that Excel never writes (a document type declaration). Open "
        "it in Excel or LibreOffice, save it as a new .xlsx file and upload that."
    )
