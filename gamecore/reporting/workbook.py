"""``reports/<name>/<name>.xlsx``: a report's tables as one Excel workbook, the form test labs
exchange par sheets in.

The workbook is written from the report's own CSV files (the tables the HTML page shows: one
source of truth), with openpyxl. The first sheet, ``Report``, holds the report's title, its
parameters, the rule set (the report's ``rules*.csv``), the provenance and an index of the
sheets; then one sheet per CSV, named after it (Excel allows 31 characters: a longer name is
shortened and the index gives the file each sheet came from). Numbers stay numbers; an
integer beyond 2^53, which a spreadsheet's floating point would round, is written as text
and the sheet says so; house edges and holds are formatted as percentages.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

#: The largest integer a spreadsheet's double holds exactly.
EXACT_LIMIT = 2**53
#: Excel's limit on a sheet's name.
SHEET_NAME_LIMIT = 31
#: Column names (lower case) whose fractions are shown as percentages.
PERCENT_WORDS = ("edge", "hold")
#: The format of a percentage cell.
PERCENT_FORMAT = "0.0000%"


def cell_value(text: str) -> tuple[Any, bool]:
    """A CSV cell as a spreadsheet value: (value, written as text although a number: an
    integer beyond 2^53).

    Parameters
    ----------
    text : str
        The cell as the CSV holds it.

    Returns
    -------
    tuple of (Any, bool)
        None (empty), a bool, an int, a float or the text; and whether an integer is kept
        as text (beyond :data:`EXACT_LIMIT`).

    Examples
    --------
    >>> cell_value("42"), cell_value("0.5"), cell_value(str(2**60)), cell_value("")
    ((42, False), (0.5, False), ('1152921504606846976', True), (None, False))
    """
    if text == "":
        return None, False
    if text in ("True", "False"):
        return text == "True", False
    stripped = text.lstrip("-")
    if stripped.isdigit():
        number = int(text)
        if abs(number) > EXACT_LIMIT:
            return text, True
        return number, False
    try:
        return float(text), False
    except ValueError:
        return text, False


def sheet_names(stems: list[str]) -> dict[str, str]:
    """A distinct sheet name of at most 31 characters for each CSV stem.

    Parameters
    ----------
    stems : list of str
        The CSV files' names without their suffix.

    Returns
    -------
    dict of str to str
        Stem -> sheet name: cut to 31, a clash (case ignored, ``Report`` taken) ended
        ``~1``, ``~2``, ....
    """
    names: dict[str, str] = {}
    used: set[str] = {"Report"}
    for stem in stems:
        name = stem[:SHEET_NAME_LIMIT]
        k = 1
        while name.lower() in {u.lower() for u in used}:
            suffix = f"~{k}"
            name = stem[: SHEET_NAME_LIMIT - len(suffix)] + suffix
            k += 1
        used.add(name)
        names[stem] = name
    return names


def _write_table(sheet, frame: pd.DataFrame, first_row: int = 1) -> int:
    """Write ``frame`` (all text, as read from a CSV) from ``first_row``; returns how many
    cells were integers written as text."""
    from openpyxl.styles import Font

    for column, name in enumerate(frame.columns, start=1):
        sheet.cell(row=first_row, column=column, value=str(name)).font = Font(bold=True)
    as_text = 0
    for column, name in enumerate(frame.columns, start=1):
        lowered = str(name).lower()
        percent = any(word in lowered for word in PERCENT_WORDS) and "(%)" not in lowered
        for row, text in enumerate(frame[name], start=first_row + 1):
            value, text_integer = cell_value(text)
            cell = sheet.cell(row=row, column=column, value=value)
            as_text += text_integer
            if percent and isinstance(value, float):
                cell.number_format = PERCENT_FORMAT
    return as_text


def write_workbook(folder: Path, name: str) -> Path:
    """Write ``<name>.xlsx`` into the report ``folder`` from its CSVs and summary.json.

    Parameters
    ----------
    folder : Path
        A report's folder (its CSV tables and ``summary.json``).
    name : str
        The report's name: the workbook's file name, its title where the summary has none.

    Returns
    -------
    Path
        The workbook written: a front sheet (title, parameters, rules, dealing, provenance,
        the list of sheets), then a sheet per CSV.
    """
    from openpyxl import Workbook
    from openpyxl.styles import Font

    folder = Path(folder)
    csvs = sorted(folder.glob("*.csv"))
    summary_path = folder / "summary.json"
    summary = json.loads(summary_path.read_text("utf-8")) if summary_path.exists() else {}
    names = sheet_names([p.stem for p in csvs])
    book = Workbook()
    front = book.active
    front.title = "Report"
    front.cell(row=1, column=1, value=summary.get("title", name)).font = Font(bold=True, size=14)
    row = 3
    sections = [("Parameters", pd.DataFrame(
        [{"Parameter": k, "Value": json.dumps(v)} for k, v in summary.get("parameters", {}).items()]
    ).astype(str))]  # fmt: skip
    for path in csvs:
        if path.stem.startswith("rules") or path.stem in ("dealing", "provenance"):
            sections.append((path.stem, pd.read_csv(path, dtype=str, keep_default_na=False)))
    sections.append(("Sheets", pd.DataFrame(
        [{"Sheet": names[p.stem], "Table (CSV file)": p.name} for p in csvs]
    )))  # fmt: skip
    for title, frame in sections:
        front.cell(row=row, column=1, value=title).font = Font(bold=True)
        _write_table(front, frame, row + 1)
        row += len(frame) + 3
    for path in csvs:
        frame = pd.read_csv(path, dtype=str, keep_default_na=False)
        sheet = book.create_sheet(names[path.stem])
        as_text = _write_table(sheet, frame)
        if as_text:
            note = sheet.cell(row=len(frame) + 3, column=1)
            note.value = (
                f"{as_text} exact integer(s) above 2^53 are written as text: a spreadsheet's "
                "numbers would round them"
            )
            note.font = Font(italic=True)
    target = folder / f"{name}.xlsx"
    book.save(target)
    return target
