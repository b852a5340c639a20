"""What ``gamecore verify`` compares of a report's workbook (XLSX): what a reader sees.

* Against the rerun's workbook, cell by cell on every sheet (:func:`compare_workbook`):
  each cell's value (numbers to :data:`~gamecore.reporting.compare.TOLERANCE`) and its
  number format, which is what Excel shows of the value (0.010579 as ``0.0000%`` reads
  1.0579%; as ``"0.0500%"``, a format of literal text, it reads 0.0500% whatever the
  value), but the rows whose first cell is a provenance item (when, where, by which
  versions the workbook was built).
* Once every file of the report is confirmed, against the workbook written again from the
  report's own tables and ``summary.json`` (:func:`compare_written_again`), as the PDFs are
  typeset again: every part of the file must be the same bytes, but the times the file's
  properties state it was created and modified. So whatever else a reader sees (a font, a
  colour, a hidden row, a column's width, a conditional format) is what the build wrote.
"""

from __future__ import annotations

import io
import re
import shutil
import zipfile
from pathlib import Path
from typing import Any

from gamecore.errors import GamecoreError, shown
from gamecore.reading import read_bounded
from gamecore.reporting.compare import read_table, same_number

#: The largest workbook compared (a full build's largest is under 1 MB), and the most any
#: part of it may hold unpacked.
MAX_WORKBOOK_BYTES = 64 << 20
#: The part of an XLSX file holding its properties, and the elements of it that state when
#: the file was written: not compared.
PROPERTIES_PART = "docProps/core.xml"
WRITTEN_AT = re.compile(rb"<dcterms:(created|modified)\b[^>]*>[^<]*</dcterms:\1>")
#: How many differing cells of a sheet are named, at most.
NAMED_CELLS = 20

#: A cell as compared: its value and its number format.
Cell = tuple[Any, Any]


def _provenance_items(folder: Path) -> set[str]:
    """The items of the rerun's provenance.csv: the rows a workbook repeats them in say
    when and where it was built, and are not compared."""
    path = folder / "provenance.csv"
    if not path.is_file():
        return set()
    frame = read_table(path, "provenance.csv (recomputed)")
    return set(frame.iloc[:, 0]) if len(frame.columns) else set()


def _sheets(path: Path, what: str) -> dict[str, list[tuple[Cell, ...]]]:
    """Every sheet's rows of (value, number format) cells, by the sheet's title."""
    import openpyxl

    raw = read_bounded(path, MAX_WORKBOOK_BYTES, what)
    try:
        book = openpyxl.load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    except Exception:  # noqa: BLE001 - zipfile, XML and openpyxl each raise their own
        raise GamecoreError(f"{what}: not a readable workbook") from None
    try:
        return {
            sheet.title: [
                tuple((cell.value, getattr(cell, "number_format", None)) for cell in row)
                for row in sheet.iter_rows()
            ]
            for sheet in book.worksheets
        }
    finally:
        book.close()


def _cell_text(value: object) -> str:
    return "" if value is None else str(value)


def _cell_lines(where: str, given: Cell, fresh: Cell) -> list[str]:
    """A line when the cell's value differs (numbers to the tolerance), else one when its
    number format does (an empty cell shows none)."""
    (value, style), (fresh_value, fresh_style) = given, fresh
    if not same_number(_cell_text(value), _cell_text(fresh_value)):
        return [f"{where}: {shown(value)} in the report, {shown(fresh_value)} recomputed"]
    if style != fresh_style and not (value is None and fresh_value is None):
        return [
            f"{where}: number format {shown(style)} in the report, {shown(fresh_style)} "
            f"recomputed (the value {shown(value)} shown otherwise)"
        ]
    return []


def _sheet_lines(
    label: str, rows: list[tuple[Cell, ...]], fresh: list[tuple[Cell, ...]], skipped: set[str]
) -> list[str]:
    """One line per cell of a sheet that differs from the rerun's (the rows of a
    provenance item, as the rerun's sheet labels them, left out), at most
    :data:`NAMED_CELLS`."""
    from openpyxl.utils import get_column_letter

    if len(rows) != len(fresh):
        return [f"{label}: {len(rows)} rows, recomputed {len(fresh)}"]
    found = []
    for r, (a, b) in enumerate(zip(rows, fresh, strict=True)):
        provenance = b and a[:1] == b[:1] and _cell_text(b[0][0]) in skipped
        if provenance or a == b:
            continue
        width = max(len(a), len(b))
        a, b = a + ((None, None),) * (width - len(a)), b + ((None, None),) * (width - len(b))
        for c, (x, y) in enumerate(zip(a, b, strict=True)):
            found += _cell_lines(f"{label}, cell {get_column_letter(c + 1)}{r + 1}", x, y)
    return found[:NAMED_CELLS]


def compare_workbook(name: str, given: Path, fresh: Path) -> list[str]:
    """A report's workbook against the rerun's: the same sheets, and on each every cell's
    value (numbers to :data:`~gamecore.reporting.compare.TOLERANCE`) and number format the
    same, but the rows whose first cell is a provenance item (when, where, by which
    versions it was built).

    Parameters
    ----------
    name : str
        How the lines name the file.
    given, fresh : Path
        The report's XLSX and the rerun's.

    Returns
    -------
    list of str
        One line per sheet missing or extra, per sheet of another length and per cell that
        differs (at most :data:`NAMED_CELLS` a sheet), naming the sheet and the cell.
    """
    try:
        stated = _sheets(given, name)
    except GamecoreError as error:
        return [str(error)]
    recomputed = _sheets(fresh, f"{name} (recomputed)")
    if list(stated) != list(recomputed):
        return [f"{name}: sheets {shown(list(stated))}, recomputed {shown(list(recomputed))}"]
    skipped = _provenance_items(fresh.parent)
    problems = []
    for sheet, rows in stated.items():
        label = f"{name}: sheet {shown(sheet)}"
        problems += _sheet_lines(label, rows, recomputed[sheet], skipped)
    return problems


def _parts(path: Path, what: str) -> dict[str, bytes]:
    """Every part of an XLSX file (a ZIP archive) by its name, the times of writing taken
    out of its properties; a part larger unpacked than :data:`MAX_WORKBOOK_BYTES` is
    refused unread."""
    raw = read_bounded(path, MAX_WORKBOOK_BYTES, what)
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            parts = {}
            for info in archive.infolist():
                if info.file_size > MAX_WORKBOOK_BYTES:
                    raise GamecoreError(f"{what}: part {shown(info.filename)} is too large")
                parts[info.filename] = archive.read(info)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        raise GamecoreError(f"{what}: not a readable workbook") from None
    if PROPERTIES_PART in parts:
        parts[PROPERTIES_PART] = WRITTEN_AT.sub(b"", parts[PROPERTIES_PART])
    return parts


def compare_written_again(name: str, given: Path, scratch: Path) -> list[str]:
    """The report's workbook against the workbook written again from the report's own
    tables and ``summary.json`` (once those are confirmed: the workbook is a function of
    them): every part the same bytes, but the times of writing its properties state.

    Parameters
    ----------
    name : str
        The report's name.
    given : Path
        The report's folder.
    scratch : Path
        A folder to write the copy in (created; the caller removes it).

    Returns
    -------
    list of str
        One line when the workbook differs, naming the first part that does; none when
        the report has no workbook (a missing one is the rerun's to name).
    """
    import openpyxl

    from gamecore.reporting.workbook import write_workbook

    workbook = given / f"{name}.xlsx"
    if not workbook.is_file():
        return []
    label = f"{name}/{workbook.name}"
    copy = scratch / name
    copy.mkdir(parents=True)
    for path in [*sorted(given.glob("*.csv")), given / "summary.json"]:
        if path.is_file() and not path.is_symlink() and not path.name.startswith("."):
            shutil.copyfile(path, copy / path.name)  # a hidden one is the hashes' to name
    written = _parts(write_workbook(copy, name), f"{label} (written again)")
    try:
        stated = _parts(workbook, label)
    except GamecoreError as error:
        return [str(error)]
    differing = sorted(set(stated) ^ set(written)) or [
        part for part in sorted(stated) if stated[part] != written[part]
    ]
    if not differing:
        return []
    return [
        f"{label}: differs from the report's own files written again ({differing[0]}; with "
        f"openpyxl {openpyxl.__version__}: a workbook written by another version differs too)"
    ]
