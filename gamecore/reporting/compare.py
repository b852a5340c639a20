"""What ``gamecore verify`` compares between a report and its rerun, file by file.

* A CSV, cell by cell (:func:`compare_table`): exact cells to :data:`TOLERANCE`, simulated
  cells bit for bit when asked; else each simulated twin against its exact figure
  (:func:`check_twins`): its z must be what its Simulated, Exact and SE say, within the
  family-wise threshold of :func:`gamecore.twins.z_threshold`, and its SE within a factor
  :data:`SE_FACTOR` of the rerun's.
* ``summary.json`` (the index's key figures, the report's title, parameters and tables),
  every field but the run time and commit, the key figures as printed (:func:`compare_summary`).
* A figure (PNG), pixel for pixel (:func:`compare_figure`).
* The workbook (XLSX), cell by cell on every sheet, each cell's value and number format, the
  provenance rows (when, where) left out; then written again from the report's own files
  (:mod:`gamecore.reporting.bookcompare`).
* The document and the par sheet (PDF), byte for byte against the report's own files
  typeset again (:func:`compare_documents`).

Any other file (:func:`compared_by_content`: the provenance, the HTML page, the executed
notebook, which hold run times, paths and the build's commit) is checked by its hash only,
and verify's last line names each.

Each mismatch is one line naming the file, and the line (as the file numbers it, the header
line 1) and column, or the sheet and cell.
"""

from __future__ import annotations

import csv
import io
import json
import math
import shutil
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from gamecore.errors import GamecoreError, shown
from gamecore.reading import MAX_REPORT_TABLE_BYTES, read_bounded, read_json
from gamecore.twins import APPROXIMATE, z_threshold

#: How close a recomputed exact float must be (relative and absolute).
TOLERANCE = 1e-12
#: How far a twin's SE may be from the rerun's (a ratio): the SE of another draw differs by
#: a few per cent; a twin moved off its exact figure needs a much larger one to hide.
SE_FACTOR = 1.5
#: How close a twin's z must be to (Simulated - Exact) / SE (relative).
Z_TOLERANCE = 1e-9
#: summary.json's fields that describe the build, not its figures: not compared.
SUMMARY_NOT_COMPARED = ("run_time_seconds", "commit")
#: The largest PNG compared (a full build's largest are under 1 MB).
MAX_DERIVED_BYTES = 64 << 20
#: Report files that describe the build itself (times, commit, machine): hashed only.
NOT_RECOMPUTED = ("provenance.csv",)
#: The kinds of report file compared with the rerun's (or, a PDF, typeset again) by content.
COMPARED_SUFFIXES = (".csv", ".png", ".xlsx", ".pdf")


def compared_by_content(name: str) -> bool:
    """Whether verify compares a report's file named ``name`` by its content (with the
    rerun's, or typeset or written again), not by its hash only.

    Parameters
    ----------
    name : str
        The file's name in its report's folder.

    Returns
    -------
    bool
        True for a table (but :data:`NOT_RECOMPUTED`), ``summary.json``, a figure, the
        workbook and a PDF.

    Examples
    --------
    >>> [compared_by_content(n) for n in ("outcomes.csv", "provenance.csv", "x.html")]
    [True, False, False]
    """
    if name in NOT_RECOMPUTED:
        return False
    return name == "summary.json" or Path(name).suffix in COMPARED_SUFFIXES


def same_number(a: str, b: str) -> bool:
    """Two CSV cells as numbers: integers equal, floats to :data:`TOLERANCE`; else text.

    Parameters
    ----------
    a, b : str
        The cells as the CSV files hold them.

    Returns
    -------
    bool
        Whether they are the same number (NaN the same as NaN), or the same text.

    Examples
    --------
    >>> same_number("0.1", "0.1000000000000001"), same_number("12", "12.0"), same_number("a", "b")
    (True, True, False)
    """
    if a == b:
        return True
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    if all(part.lstrip("-").isdigit() for part in (a, b)):  # integers: exactly
        try:
            return int(a) == int(b)
        except ValueError:  # past the 4,300 digits Python converts: the texts differ
            return False
    if math.isnan(x) and math.isnan(y):
        return True
    return math.isclose(x, y, rel_tol=TOLERANCE, abs_tol=TOLERANCE)


def hash_only(reports: Path, rerun: Sequence[str], every: bool) -> list[str]:
    """The files of a confirmed reports folder that verify checked by their hash only: of
    each report rerun, those it does not compare by content (:func:`compared_by_content`:
    the provenance, the HTML page, the executed notebook); beside the reports, every file
    but ``index.html`` when every report was rerun (then it is written again). The files of
    a report not rerun are all hashed only: verify's last line names those reports.

    Parameters
    ----------
    reports : Path
        The reports folder, confirmed.
    rerun : sequence of str
        The reports rerun.
    every : bool
        Whether they are every report of the folder.

    Returns
    -------
    list of str
        The files' paths relative to the folder, sorted.
    """
    from gamecore.reporting.finalize import INDEX
    from gamecore.reporting.manifest import report_files

    names = []
    for path in report_files(reports):
        parts = path.relative_to(reports).parts
        if len(parts) == 1 and not (every and parts[0] == INDEX):
            names.append(parts[0])
        elif len(parts) == 2 and parts[0] in rerun and not compared_by_content(parts[1]):
            names.append("/".join(parts))
    return sorted(names)


def _parsed(raw: bytes, what: str) -> pd.DataFrame:
    try:
        return pd.read_csv(io.BytesIO(raw), dtype=str, keep_default_na=False)
    except ValueError as error:  # pandas' ParserError, EmptyDataError; UnicodeDecodeError
        reason = (str(error).strip().splitlines() or [type(error).__name__])[0]
        raise GamecoreError(f"{what}: not a readable CSV ({reason[:160]})") from None


def record_lines(raw: bytes) -> list[int]:
    """The line of the file on which each row after the header starts, as
    :func:`read_table` reads the rows: blank lines are no row, and a quoted cell's line
    breaks are inside its row.

    Parameters
    ----------
    raw : bytes
        The CSV file's bytes.

    Returns
    -------
    list of int
        Each row's first line (the file's first line is 1).

    Examples
    --------
    >>> record_lines(b'a,b\\n\\n"x\\ny",1\\n2,3\\n')
    [3, 5]
    """
    reader = csv.reader(io.StringIO(raw.decode("utf-8-sig", errors="replace"), newline=""))
    starts, end = [], 0
    try:
        for record in reader:
            start, end = end + 1, reader.line_num
            if "".join(record).strip() or len(record) > 1:  # pandas skips a blank line
                starts.append(start)
    except csv.Error:  # a cell past the csv module's limit (128 KiB): no line is named
        return []
    return starts[1:]


def _where(lines: Sequence[int] | None, row: int) -> str:
    """Where row ``row`` (0 the first after the header) is: the file's line, or, when its
    lines were not found row for row, its place after the header."""
    if lines is None:
        return f"line {row + 2}"  # a table written by hand: a header line, a line a row
    if len(lines) > row:
        return f"line {lines[row]}"
    return f"row {row + 1} after the header"


def read_table(path: Path, what: str) -> pd.DataFrame:
    """A report CSV as text cells, from a regular file of at most
    :data:`~gamecore.reading.MAX_REPORT_TABLE_BYTES` (a larger one is refused by its size,
    unread), refusing what pandas cannot read as CSV.

    Parameters
    ----------
    path : Path
        The CSV file.
    what : str
        How a message names it.

    Returns
    -------
    pandas.DataFrame
        Every cell as text (an empty cell as ``""``).
    """
    return _parsed(read_bounded(path, MAX_REPORT_TABLE_BYTES, what), what)


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return math.nan


def check_twins(
    name: str, given: pd.DataFrame, fresh: pd.DataFrame, lines: Sequence[int] | None = None
) -> list[str]:
    """Each simulated twin of a twin table (Exact, Simulated, SE, z) held to its exact
    figure, as the report's own rule holds it: z equal to (Simulated - Exact) / SE (to
    :data:`Z_TOLERANCE`), |z| within :func:`~gamecore.twins.z_threshold` of the table's
    ruled rows (approximate figures are exempt from the threshold, not from the rest), and
    SE within :data:`SE_FACTOR` of the rerun's.

    Parameters
    ----------
    name : str
        How the lines name the table.
    given, fresh : pandas.DataFrame
        The report's table and the rerun's (text cells, the same shape).
    lines : sequence of int, optional
        The file's line of each row of ``given`` (:func:`record_lines`); default: a header
        line, then a line a row.

    Returns
    -------
    list of str
        One line per twin that fails.
    """

    def line(row: int, column: str, what: str) -> str:
        where = _where(lines, row)
        return f"{name}: {where}, column {shown(column)} (against its exact twin): {what}"

    if not {"Exact", "Simulated", "SE", "z"} <= set(given.columns):
        return []
    approximate = given.get(APPROXIMATE, pd.Series([""] * len(given)))
    ruled = [str(a).strip().lower() not in ("true", "1") for a in approximate]
    # as gamecore.twins.ruled counts them: the ruled rows with a z
    threshold = z_threshold(
        sum(r and not math.isnan(_number(z)) for r, z in zip(ruled, given["z"], strict=True))
    )
    problems = []
    for row in range(len(given)):
        exact, simulated, se, z = (
            _number(given[c].iloc[row]) for c in ("Exact", "Simulated", "SE", "z")
        )
        rerun_se = _number(fresh["SE"].iloc[row])
        if any(math.isnan(v) for v in (exact, simulated, se, z)):
            continue
        implied = (simulated - exact) / se if se > 0 else (0.0 if simulated == exact else math.inf)
        if not math.isclose(z, implied, rel_tol=Z_TOLERANCE, abs_tol=Z_TOLERANCE):
            problems.append(
                line(
                    row,
                    "z",
                    f"{shown(given['z'].iloc[row])} is not "
                    f"(Simulated - Exact) / SE = {implied:.6g}",
                )
            )
        elif ruled[row] and abs(z) > threshold:
            problems.append(
                line(
                    row,
                    "Simulated",
                    f"{simulated!r} is {z:.2f} SE "
                    f"from the exact {exact!r} (at most {threshold:.2f})",
                )
            )
        if rerun_se > 0 and not (rerun_se / SE_FACTOR <= se <= rerun_se * SE_FACTOR):
            problems.append(
                line(
                    row,
                    "SE",
                    f"{se!r} in the report, {rerun_se!r} recomputed (beyond a factor {SE_FACTOR})",
                )
            )
    return problems


def compare_table(
    name: str, given: Path, recomputed: Path, simulated: Sequence[str], simulations: bool
) -> list[str]:
    """One line per cell of ``given`` that differs from ``recomputed``, naming the file's
    line (:func:`record_lines`) and the column: exact cells to
    :data:`TOLERANCE`; ``simulated`` columns bit for bit with ``simulations``, else each twin
    against its exact figure (:func:`check_twins`). A table that cannot be read (too large,
    not a regular file, not CSV) is one line.

    Parameters
    ----------
    name : str
        How the lines name the table.
    given, recomputed : Path
        The report's CSV file and the rerun's.
    simulated : sequence of str
        The table's simulated columns.
    simulations : bool
        Whether simulated columns are compared bit for bit.

    Returns
    -------
    list of str
        The mismatches; empty when the tables agree.
    """
    try:
        raw = read_bounded(given, MAX_REPORT_TABLE_BYTES, name)
        a = _parsed(raw, name)
        b = read_table(recomputed, f"{name} (recomputed)")
    except GamecoreError as error:
        return [str(error)]
    lines = record_lines(raw)
    if len(lines) != len(a):  # read otherwise than pandas reads it: no line is named
        lines = []
    if list(a.columns) != list(b.columns):
        return [
            f"{name}: columns {shown(list(a.columns))} differ from the recomputed "
            f"{shown(list(b.columns))}"
        ]
    if len(a) != len(b):
        return [f"{name}: {len(a)} rows, recomputed {len(b)}"]
    problems = []
    for column in a.columns:
        is_simulated = column in simulated
        if is_simulated and not simulations:
            continue
        for row, (x, y) in enumerate(zip(a[column], b[column], strict=True)):
            same = x == y if is_simulated else same_number(x, y)
            if not same:
                kind = "simulated" if is_simulated else "exact"
                problems.append(
                    f"{name}: {_where(lines, row)}, column {shown(column)} ({kind}): "
                    f"{shown(x)} in the report, {shown(y)} recomputed"
                )
    if not simulations and "Simulated" in simulated:
        problems += check_twins(name, a, b, lines)
    return problems


def compare_summary(name: str, given: Path, fresh: Path) -> list[str]:
    """``summary.json`` against the rerun's: every field but :data:`SUMMARY_NOT_COMPARED`;
    each key figure (``figures``) by its name, as printed.

    Parameters
    ----------
    name : str
        How the lines name the file.
    given, fresh : Path
        The report's ``summary.json`` and the rerun's.

    Returns
    -------
    list of str
        The mismatches.
    """
    recomputed = read_json(fresh, MAX_REPORT_TABLE_BYTES, f"{name} (recomputed)")
    fields = [k for k in recomputed if k not in SUMMARY_NOT_COMPARED]
    if not fields:
        return []
    if not given.is_file():
        return [f"{name}: missing (the recomputed report has it)"]
    try:
        stated = read_json(given, MAX_REPORT_TABLE_BYTES, name)
    except GamecoreError as error:
        return [str(error)]
    if not isinstance(stated, dict):
        return [f"{name}: not a JSON object"]
    problems = []
    figures, fresh_figures = stated.get("figures"), recomputed.get("figures")
    if isinstance(figures, dict) and isinstance(fresh_figures, dict):
        for key in sorted(set(figures) | set(fresh_figures)):
            x, y = figures.get(key), fresh_figures.get(key)
            if x != y:
                problems.append(
                    f"{name}: key figure {shown(key)}: {shown(x)} in the report, {shown(y)} "
                    "recomputed"
                )
        fields.remove("figures")
    for key in fields + [
        k for k in stated if k not in recomputed and k not in SUMMARY_NOT_COMPARED
    ]:
        if stated.get(key) != recomputed.get(key):
            problems.append(f"{name}: field {shown(key)} differs from the recomputed one")
    return problems


def compare_figure(name: str, given: Path, fresh: Path) -> list[str]:
    """A PNG figure against the rerun's, pixel for pixel (the same data drawn by the same
    code gives the same pixels; the file's bytes may hold other metadata).

    Parameters
    ----------
    name : str
        How the lines name the file.
    given, fresh : Path
        The report's PNG and the rerun's.

    Returns
    -------
    list of str
        One line when they differ or the report's cannot be read.
    """
    import numpy as np
    from matplotlib import image

    try:
        a = image.imread(io.BytesIO(read_bounded(given, MAX_DERIVED_BYTES, name)), format="png")
    except GamecoreError as error:
        return [str(error)]
    except (OSError, ValueError, SyntaxError):  # Pillow's kinds of unreadable image
        return [f"{name}: not a readable PNG"]
    b = image.imread(fresh, format="png")
    if a.shape != b.shape:
        return [f"{name}: {a.shape[1]}x{a.shape[0]} pixels, recomputed {b.shape[1]}x{b.shape[0]}"]
    differing = int(np.any(a != b, axis=-1).sum()) if a.ndim == 3 else int((a != b).sum())
    if differing:
        return [f"{name}: {differing:,} pixels differ from the recomputed figure"]
    return []


def compare_derived(label: str, given: Path, fresh: Path) -> list[str]:
    """The comparison a derived file of the rerun gets, by its kind: ``summary.json``, a
    ``.png`` figure; nothing for others (the workbook is
    :func:`gamecore.reporting.bookcompare.compare_workbook`'s; the rest hashed only).

    Parameters
    ----------
    label : str
        How the lines name the file.
    given, fresh : Path
        The report's file and the rerun's.

    Returns
    -------
    list of str
        The mismatches.
    """
    if fresh.name == "summary.json":
        return compare_summary(label, given, fresh)
    if fresh.suffix != ".png":
        return []
    if not given.is_file():
        return [f"{label}: missing (the recomputed report has it)"]
    return compare_figure(label, given, fresh)


def simulated_marks(fresh: Path) -> dict[str, list[str]]:
    """Each table's simulated columns, as the rerun's ``summary.json`` marks them.

    Parameters
    ----------
    fresh : Path
        The rerun's report folder.

    Returns
    -------
    dict of str to list of str
        CSV file name -> its simulated columns.
    """
    marks = json.loads((fresh / "summary.json").read_text("utf-8"))
    return marks.get("tables", {}).get("simulated_columns", {})


def compare_documents(name: str, given: Path, scratch: Path) -> list[str]:
    """The report's PDFs against the same folder typeset again: the document and the par
    sheet are a function of the report's tables, figures, ``summary.json`` and
    ``provenance.csv`` (whose date is the PDF's creation date), so once those are confirmed
    the PDFs must be the very same bytes; a figure altered in a PDF alone shows here.

    Parameters
    ----------
    name : str
        The report's name.
    given : Path
        The report's folder.
    scratch : Path
        A folder to typeset the copy in (created; the caller removes it).

    Returns
    -------
    list of str
        A line per PDF that differs or is missing (none when the folder has no PDFs).
    """
    import typst

    from gamecore.reporting.document import write_documents
    from gamecore.reporting.manifest import sha256

    pdfs = [given / f"{name}.pdf", given / f"{name}_par_sheet.pdf"]
    if not any(pdf.is_file() for pdf in pdfs):
        return []  # a build without documents: nothing to typeset
    copy = scratch / name
    shutil.copytree(given, copy, ignore=shutil.ignore_patterns("*.pdf", ".*"))
    write_documents(copy, name)
    lines = []
    for pdf in pdfs:
        label = f"{name}/{pdf.name}"
        if not pdf.is_file():
            lines.append(f"{label}: missing (the report's files typeset it)")
        elif sha256(pdf) != sha256(copy / pdf.name):
            lines.append(
                f"{label}: differs from the report's own files typeset again (with typst "
                f"{typst.__version__}; a document typeset by another version differs too)"
            )
    return lines
