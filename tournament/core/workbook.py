"""The workbook writer (openpyxl, write-only: memory stays flat however many rows): a sheet with a
bold, frozen, filtered header that prints landscape, and cell values Excel cannot misread as
formulas."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

from django.utils.functional import Promise
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

HEADER_FONT = Font(bold=True)
TITLE_FONT = Font(bold=True, size=13)
HEADER_FILL = PatternFill("solid", fgColor="E5E9E0")
# results as on the sheet: +20, −60, 0 (the value stays a number; the minus shown is U+2212,
# the one minus sign of the pages and the paper)
SIGNED = '+0;"−"0;0'
# whole numbers (ranks, start numbers, tables, games) go in without a format: Excel's General shows
# them as they are. A formatted cell costs openpyxl's write-only mode a refused value and a new
# cell object each, which shows on a big event's export (docs/performance.md)
INTEGER = None
# money: euros with cents, the minus as on the pages; the value stays a number (cents / 100)
EURO = '#,##0.00 "€";"−"#,##0.00 "€";0.00 "€"'
MAX_SHEET_TITLE = 31  # Excel's limit
# OWASP's list for spreadsheets: a cell starting with one of these may be taken as a formula
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# what an XML 1.0 file cannot carry (openpyxl refuses the C0 controls outright)
UNWRITABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def text(value: Any) -> Any:
    """Every cell a workbook gets passes here: a user's text never becomes a formula in Excel
    (names like "=1+1" or "@cmd" are written with Excel's text mark, an apostrophe), and a control
    character stored before names were checked is dropped, so no stored text can break a
    download."""
    if isinstance(value, Promise):  # a lazily translated heading
        value = str(value)
    if not isinstance(value, str):
        return value
    value = UNWRITABLE.sub("", value)
    if value.startswith(FORMULA_START):
        return "'" + value
    return value


def sheet_title(title: str) -> str:
    """Excel forbids []:*?/\\ in sheet names, an apostrophe at either end, and more than 31
    characters."""
    title = re.sub(r"[\[\]:*?/\\]", "-", UNWRITABLE.sub("", str(title)))
    return title[:MAX_SHEET_TITLE].strip("'") or "-"


class Sheet:
    """A write-only sheet with a formatted header; column widths are set from the header and the
    widths the caller expects, since a write-only sheet cannot be measured afterwards.

    ``above`` are rows written before the header (a title, a list of players); the first cell of
    the first one is set as the sheet's title. Every cell, header and title included, is written
    through ``text``."""

    def __init__(
        self,
        workbook: Workbook,
        title: str,
        columns: Sequence[tuple[str, int, str | None]],
        *,
        above: Sequence[Sequence[Any]] = (),
        freeze_column: str = "A",
        autofilter: bool = True,
        notes: Sequence[str] = (),
    ) -> None:
        self.ws: WriteOnlyWorksheet = workbook.create_sheet(sheet_title(title))
        # per column with a number format, the one cell its numbers are written through
        self.formatted = [self._formatted(fmt) if fmt else None for _name, _width, fmt in columns]
        self.rows = 0
        self.header_row = len(above) + 1
        self.autofilter = autofilter
        for i, (name, width, _fmt) in enumerate(columns, start=1):
            self.ws.column_dimensions[get_column_letter(i)].width = max(width, len(name) + 2)
        last = get_column_letter(len(columns))
        self.ws.freeze_panes = f"{freeze_column}{self.header_row + 1}"
        self.ws.print_title_rows = f"{self.header_row}:{self.header_row}"
        self.ws.page_setup.orientation = "landscape"
        self.ws.page_setup.paperSize = Worksheet.PAPERSIZE_A4
        self.ws.page_setup.fitToWidth = 1
        self.ws.page_setup.fitToHeight = 0
        self.ws.sheet_properties.pageSetUpPr.fitToPage = True
        self.last_column = last
        for number, values in enumerate(above):
            cells = [WriteOnlyCell(self.ws, value=text(value)) for value in values]
            if number == 0 and cells:
                cells[0].font = TITLE_FONT
            self.ws.append(cells)
        header = []
        for index, (name, _width, _fmt) in enumerate(columns):
            cell = WriteOnlyCell(self.ws, value=text(name))
            cell.font = HEADER_FONT
            cell.fill = HEADER_FILL
            cell.alignment = Alignment(vertical="center", wrap_text=True)
            note = notes[index] if index < len(notes) else ""
            if note:  # Excel shows it when the pointer rests on the column's name
                lines = sum(len(line) // 40 + 1 for line in note.splitlines())
                cell.comment = Comment(text(note), "", height=20 * lines + 20, width=300)
            header.append(cell)
        self.ws.append(header)

    def append(self, values: Iterable[Any]) -> None:
        """One row. A number with a format is written through the column's one formatted cell
        (openpyxl writes an appended row at once, so the cell is free again afterwards); every
        other value goes in plain and openpyxl writes it through its own reused cell. A new cell
        object per value cost the export as much again as writing the file."""
        row: list[Any] = []
        for value, cell in zip(values, self.formatted, strict=False):
            if cell is not None and isinstance(value, int | Decimal):
                cell.value = value
                row.append(cell)
            else:
                row.append(text(value))
        self.ws.append(row)
        self.rows += 1

    def offer(self, column: int, values: Sequence[str], rows: int, warning: str) -> bool:
        """A drop-down of ``values`` in the ``rows`` cells below the header of ``column``
        (1-based). Another value typed in is allowed after ``warning`` (Excel's "warning" alert).
        False, and no drop-down, where Excel's list cannot hold them (a comma in a value, more
        than 255 characters in all)."""
        listed = ",".join(values)
        if not values or any("," in v or '"' in v for v in values) or len(listed) > 255:
            return False
        letter = get_column_letter(column)
        offered = DataValidation(
            type="list",
            formula1=f'"{listed}"',
            allow_blank=True,
            errorStyle="warning",
            showErrorMessage=True,
            error=text(warning),
        )
        offered.add(f"{letter}{self.header_row + 1}:{letter}{self.header_row + rows}")
        self.ws.data_validations.append(offered)
        return True

    def _formatted(self, number_format: str) -> WriteOnlyCell:
        cell = WriteOnlyCell(self.ws)
        cell.number_format = number_format
        return cell

    def close(self) -> None:
        if self.autofilter:
            self.ws.auto_filter.ref = (
                f"A{self.header_row}:{self.last_column}{self.header_row + self.rows}"
            )


def euros_value(cents: int) -> Decimal:
    """Whole cents as the exact number of euros Excel shows with ``EURO``."""
    return Decimal(cents) / 100
