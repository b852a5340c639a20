"""``reports/<name>/<name>.xlsx``: a report's tables as one Excel workbook, the form test labs
exchange par sheets in.

The workbook is written from the report's own CSV files (the tables the HTML page shows: one
source of truth), with openpyxl. The first sheet, ``Report``, holds the report's title, its
parameters (a two-column table, Parameter | Value), the rule set (the report's
``rules*.csv``), the dealing, the provenance and an index of the sheets; then one sheet per
CSV (the provenance's parameters row, a JSON string, points at the Parameters table instead).
Every sheet has its header row frozen and each column as wide as what it shows (at
most :data:`MAX_WIDTH` characters: longer text wraps).

**One convention for what is not a number** (:func:`cell_value`):

- nothing (a missing value, whatever the CSV wrote for it: empty, ``None``, ``nan``) is an
  empty cell, never a word or a dash (the PDF prints a dash: its cells cannot be empty
  without looking forgotten);
- a yes-or-no value is the text ``yes`` or ``no``, in every table (as the PDF prints it;
  never Excel's TRUE and FALSE); a rule left to another rule is ``auto``, a value, not a
  null;
- an infinite value is the word ``infinite``; a list the CSV wrote as Python would
  (``[1, 2]``, ``(100.0, 200.0)``) is its items joined by commas; no cell holds a Python
  literal (:func:`gamecore.reporting.numbers.plain_text`).

**Numbers stay numbers, each column with one number format**, chosen from the column's name
(lower case, the first rule that matches wins; the rules are :data:`COLUMN_RULES`, then the
PDF's, :func:`gamecore.reporting.numbers.kind_of`, so a column is a percentage in the workbook
exactly when the PDF prints it as one):

1. ``mass cut``: the probability mass the hold's convolution dropped, a figure that exists to
   show how small it is: scientific, ``0.00E+00``.
2. a name ending ``(%)``: already in percentage points (an effect of removal): 4 decimals,
   ``0.0000``, the header says %.
3. correlations, covariances, amounts of units or money (``units``, ``per hour``, ``per
   shoe``, ``per 100``, ``money``) and true counts: plain numbers (rule 6), whatever else
   the name holds.
4. a probability (``probability``, ``frequency``, ``P(...)``, ``share``, ``push``, a name
   ending ``wins``): 8 decimals, ``0.00000000``; so is every column of fractions (all within
   0 and 1) in a table whose file name says ``distribution`` (a column per final total). An
   exact probability too small for 8 decimals (not zero) is in scientific, ``3.81E-18``; the
   hold's convolution, good to 10⁻¹¹, reads ``< 0.00000001`` as in the PDF.
5. a percentage as the reports state it: a house, P/D or player edge (``edge``), a hold and
   its 95% band (``hold``, ``band``), an EV per unit wagered (``EV``), a ``Return`` (a
   probability times a payout, which sums to the EV), a fraction labelled ``% of``: shown as
   a percentage with 4 decimals, ``0.0000%`` (0.0105 reads 1.0500%).
6. anything else: an integer (every value whole) with thousands separators, ``#,##0``; a
   fraction with the fewest decimals that show every value as the CSV holds it, but no more
   than 6 significant digits of the column's largest value give (2 to 8 decimals), with
   thousands separators (``#,##0.000``). A column's whole-number cells (``8`` decks in a
   rules table's Value column, written without a decimal point) are integers wherever they
   stand, and a seed is never grouped (``0``). A version or commit in a key-value table
   (:data:`TEXT_LABELS`) stays text: numpy 2.10 is not 2.1.

In a cross-check (a table with a ``Figure`` column), the Exact, Simulated and SE of a row
take the kind of its figure (``Banker house edge``: a percentage; ``P(tie)``: a probability),
as in the PDF (:func:`gamecore.reporting.numbers.row_kinds`).

**A figure within** :data:`~gamecore.reporting.numbers.ZERO_TOLERANCE` **(10⁻¹²) of zero is
0** (float rounding of an exact zero: ``-8.67e-18`` is 0, never ``-0.0000%``), but a
probability and the mass cut above zero, which are real if tiny.

**A payout is shown as odds beside its value**: a ``Pays`` (or ``Payout``) column of numbers
is followed by ``Pays (odds)``, the same payouts as the PDF prints them (``19 to 20``,
``push``, ``loses``: :func:`gamecore.reporting.numbers.payout`). Nothing is left in Excel's
General format, so no count reads ``2.29E+15``.

**Integers are exact.** Excel shows 15 significant digits: an integer of more (``Combinations``
at 8 decks: 2,292,252,566,437,888) is text, with separators, right-aligned, and noted.

**Sheet names** are the CSV names (``hold_monitoring``), a name longer than Excel's 31
characters shortened by whole words, never cut mid-word (:mod:`gamecore.reporting.sheetnames`:
whole-word abbreviations from a table, then joining words and last words dropped), a clash
numbered ``~2``; the index on the front sheet names the file each sheet came from.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from gamecore.reporting import escaping, numbers
from gamecore.reporting.sheetnames import FRONT, sheet_names

#: The largest integer a spreadsheet shows in full (Excel: 15 significant digits; a double
#: holds integers exactly only to 2^53, which is larger).
EXACT_LIMIT = 10**15 - 1
#: The widest a column is set (characters); longer text wraps. The narrowest: 6.
MAX_WIDTH = 60
MIN_WIDTH = 6
#: Float rounding of an exact zero is within this of zero (the PDF's tolerance).
ZERO = numbers.ZERO_TOLERANCE
#: A probability below this shows as 0.00000000 at 8 decimals: it is shown in scientific.
TINY_PROBABILITY = 0.5e-8
#: The hold's convolution (:data:`gamecore.hold.HOUSE_BEHIND`): never below its error.
CONVOLVED = "P(house behind)"
#: Significant digits of a column's largest fraction, and the decimals allowed.
SIGNIFICANT = 6
DECIMALS = (2, 8)


@dataclass(frozen=True)
class NumberStyle:
    """One column's number format: as Excel reads it and as Python writes it (for widths
    and tests).

    Parameters
    ----------
    excel : str
        The cell's ``number_format``.
    python : str
        The same as a :meth:`str.format` pattern.
    """

    excel: str
    python: str

    def shown(self, value: float) -> str:
        """The text Excel shows for ``value`` in this format.

        Parameters
        ----------
        value : float
            A number.

        Returns
        -------
        str
            It formatted.
        """
        return self.python.format(value)


PERCENT = NumberStyle("0.0000%", "{:.4%}")
PERCENT_POINTS = NumberStyle("0.0000", "{:.4f}")
PROBABILITY = NumberStyle("0.00000000", "{:.8f}")
INTEGER = NumberStyle("#,##0", "{:,.0f}")
SEED = NumberStyle("0", "{:.0f}")
SCIENTIFIC = NumberStyle("0.00E+00", "{:.2E}")

#: (kind, pattern): the first pattern found in a lower-cased column name gives its kind.
COLUMN_RULES = (
    ("scientific", re.compile(r"mass cut")),
    ("percent points", re.compile(r"\(%\)$")),
    (
        "number",
        re.compile(r"correlation|covariance|\bunits\b|per hour|per shoe|per 100|money|true count"),
    ),
    ("probability", re.compile(r"probability|frequency|^p\(|\bshare\b|\bpush\b|wins$")),
    ("percent", re.compile(r"edge|\bhold\b|\bband\b|% of|\bevs?\b|\breturns?\b")),
)
STYLES = {
    "scientific": SCIENTIFIC,
    "percent points": PERCENT_POINTS,
    "probability": PROBABILITY,
    "percent": PERCENT,
}

#: What a CSV may write for a missing value: each is an empty cell.
NULLS = frozenset({"", "None", "nan", "NaN", "<NA>", "NaT"})

#: The rows of a key-value table (their first cell, lower case) whose values stay text.
TEXT_LABELS = re.compile(r"version|commit|python|numpy")

def cell_value(text: str) -> tuple[Any, bool]:
    """A CSV cell as a spreadsheet value: (value, written as text although a number: an
    integer of more than 15 digits).

    Parameters
    ----------
    text : str
        The cell as the CSV holds it.

    Returns
    -------
    tuple of (Any, bool)
        None (an empty cell) for nothing (:data:`NULLS`), ``yes`` or ``no`` for a boolean,
        an int, a float, or the text in words (:func:`~gamecore.reporting.numbers.plain_text`:
        ``infinite``, a list's items joined by commas); and whether an integer is kept as
        text (beyond :data:`EXACT_LIMIT`), then with thousands separators.

    Examples
    --------
    >>> cell_value("42"), cell_value("0.5"), cell_value(str(2**60)), cell_value("")
    ((42, False), (0.5, False), ('1,152,921,504,606,846,976', True), (None, False))
    >>> cell_value("None"), cell_value("True"), cell_value("inf"), cell_value("(1.0, 2.0)")
    ((None, False), ('yes', False), ('infinite', False), ('1, 2', False))
    """
    if text.strip() in NULLS:
        return None, False
    if re.fullmatch(r"-?\d+", text):
        number = int(text)
        if abs(number) > EXACT_LIMIT:
            return f"{number:,}", True
        return number, False
    number = numbers.parse(text)
    if number is not None:
        return number, False
    return numbers.plain_text(text), False


def column_kind(name: str, values: list[Any] = (), table: str = "") -> str:
    """Which number format a column takes, by the module's rules 1-5: :data:`COLUMN_RULES`,
    then a percentage or probability as the PDF prints it (else ``"number"``).

    Parameters
    ----------
    name : str
        The column's header.
    values : list, optional
        Its cells as :func:`cell_value` gives them (for a ``distribution`` table's columns).
    table : str, optional
        The CSV's name without its suffix.

    Returns
    -------
    str
        ``"scientific"``, ``"percent points"``, ``"probability"``, ``"percent"`` or
        ``"number"``.

    Examples
    --------
    >>> [column_kind(n) for n in ("House edge", "P(tie)", "Return", "SE (money per hour)")]
    ['percent', 'probability', 'percent', 'number']
    """
    lowered = str(name).lower()
    for kind, pattern in COLUMN_RULES:
        if pattern.search(lowered):
            return kind
    printed = numbers.kind_of(name)
    if printed in ("percent", "probability"):
        return printed
    figures = [v for v in values if _is_number(v)]
    if "distribution" in table and figures and all(-ZERO < v <= 1 for v in figures):
        if not all(float(v).is_integer() for v in figures):
            return "probability"
    return "number"


def number_style(name: str, texts: list[str], table: str = "") -> NumberStyle:
    """The number format of a column of a CSV (module docstring, rules 1-6).

    Parameters
    ----------
    name : str
        The column's header.
    texts : list of str
        Its cells as the CSV holds them.
    table : str, optional
        The CSV's name without its suffix.

    Returns
    -------
    NumberStyle
        The format its numeric cells take (a whole-number cell of a plain column:
        :data:`INTEGER` whatever this says).

    Examples
    --------
    >>> number_style("Wager", ["10.0", "12.5"]).excel, number_style("SD", ["0.94777008"]).excel
    ('#,##0.0', '#,##0.000000')
    """
    values = [cell_value(t)[0] for t in texts]
    kind = column_kind(name, values, table)
    if kind != "number":
        return STYLES[kind]
    floats = [(v, t) for v, t in zip(values, texts, strict=True) if _is_number(v)]
    if all(float(v).is_integer() for v, _ in floats):
        return INTEGER
    largest = max(abs(v) for v, _ in floats)
    digits = math.floor(math.log10(largest)) + 1 if largest else 1
    most = min(DECIMALS[1], max(DECIMALS[0], SIGNIFICANT - digits))
    decimals = min(most, max(_decimals(t) for _, t in floats))
    return NumberStyle("#,##0." + "0" * decimals, f"{{:,.{decimals}f}}")


def column_cells(
    name: str, texts: list[str], table: str = "", row_kinds: list[str | None] | None = None
) -> list[tuple[Any, NumberStyle | None, bool]]:
    """A CSV column's cells as the workbook writes them (module docstring).

    Parameters
    ----------
    name : str
        The column's header.
    texts : list of str
        Its cells as the CSV holds them.
    table : str, optional
        The CSV's name without its suffix.
    row_kinds : list of (str or None), optional
        A cross-check's kind per row (:func:`gamecore.reporting.numbers.row_kinds`),
        ``None`` to keep the column's.

    Returns
    -------
    list of (Any, NumberStyle or None, bool)
        Per cell: its value (:func:`cell_value`; a figure within :data:`ZERO` of zero 0, but
        a probability or mass cut above zero), its number format (``None`` for text or an
        empty cell; a probability too small for 8 decimals: scientific), and whether it is
        an integer kept as text.

    Examples
    --------
    >>> [(v, s.excel) for v, s, _ in column_cells("EV change", ["-8.67e-18", "0.0125"])]
    [(0.0, '0.0000%'), (0.0125, '0.0000%')]
    >>> [(v, s and s.excel) for v, s, _ in column_cells("P(house behind)", ["3.8e-18", "0.25"])]
    [('< 0.00000001', None), (0.25, '0.00000000')]
    """
    column = column_kind(name, [cell_value(t)[0] for t in texts], table)
    kinds = [kind or column for kind in (row_kinds or [None] * len(texts))]
    texts = [_settled(text, kind) for text, kind in zip(texts, kinds, strict=True)]
    plain = [text for text, kind in zip(texts, kinds, strict=True) if kind == "number"]
    column_style = number_style(name, plain, table) if column == "number" else STYLES[column]
    cells = []
    for text, kind in zip(texts, kinds, strict=True):
        value, as_text = cell_value(text)
        style = None
        if _is_number(value):
            style = column_style if kind == column else STYLES.get(kind, column_style)
            if kind == "probability" and 0 < abs(value) < TINY_PROBABILITY:
                style = SCIENTIFIC  # not zero: it is not
            if name.startswith(CONVOLVED) and abs(value) < TINY_PROBABILITY:  # as the PDF
                value, style = numbers.number_text(value, "probability"), None
        cells.append((value, style, as_text))
    return cells


def _settled(text: str, kind: str) -> str:
    """``text``, or ``"0.0"`` for a figure within :data:`ZERO` of zero (``-0.0`` too), but
    a probability or mass cut above zero: a real, if tiny, chance."""
    value = numbers.parse(text) if text.strip() else None
    if value is None or abs(value) >= ZERO or (value == 0 and not text.startswith("-")):
        return text
    if value > 0 and kind in ("probability", "scientific"):
        return text
    return "0.0"


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _decimals(text: str) -> int:
    """The decimals ``text`` is written with (scientific notation: as many as it needs)."""
    number = float(text)
    if "e" in text.lower():
        return len(f"{number:.15f}".rstrip("0").split(".")[1])
    fraction = text.partition(".")[2].rstrip("0")
    return len(fraction)


def parameter_rows(parameters: dict[str, Any]) -> pd.DataFrame:
    """The report's parameters as a two-column table, each value as a reader writes it.

    Parameters
    ----------
    parameters : dict
        Name -> value, as summary.json records them.

    Returns
    -------
    pandas.DataFrame
        Parameter | Value, as text cells: numbers as numbers, ``yes``/``no``, ``auto`` for
        a rule left to another rule (None: the only parameters that take it are rules), an
        empty text as nothing (an empty cell), a list as its items joined by commas.

    Examples
    --------
    >>> rows = parameter_rows({"decks": 8, "sweep": [1, 2], "peek": True, "pays": None})
    >>> rows.values.tolist()
    [['decks', '8'], ['sweep', '1, 2'], ['peek', 'yes'], ['pays', 'auto']]
    """
    from gamecore.limits import described  # the limits: file, jurisdiction, SHA-256

    rows = [
        [k, described(v) if k == "limits" else _parameter_text(v)] for k, v in parameters.items()
    ]
    return pd.DataFrame(rows, columns=["Parameter", "Value"])


def _parameter_text(value: Any) -> str:
    if value is None:
        return "auto"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(_parameter_text(v) for v in value)
    if isinstance(value, int | float | str):
        return str(value)
    return json.dumps(value)


def _with_odds(frame: pd.DataFrame) -> tuple[pd.DataFrame, set[str]]:
    """``frame`` with a column of odds beside each payout column of numbers (``Pays``:
    ``Pays (odds)``, as the PDF prints them), and the names of the columns added."""
    added = set()
    for name in list(frame.columns):
        cells = frame[name].tolist()
        if numbers.kind_of(name) != "odds" or not any(c.strip() for c in cells):
            continue
        if any(numbers.parse(c) is None for c in cells if c.strip()):
            continue  # already written as odds
        odds = f"{name} (odds)"
        frame = frame.copy()
        frame.insert(frame.columns.get_loc(name) + 1, odds, [numbers.payout(c) for c in cells])
        added.add(odds)
    return frame, added


def _write_table(sheet, frame: pd.DataFrame, first_row: int = 1, table: str = "") -> int:
    """Write ``frame`` (all text, as read from a CSV) from ``first_row``, each cell as
    :func:`column_cells` gives it; returns how many cells were integers written as text."""
    from openpyxl.styles import Alignment, Font

    frame, odds = _with_odds(frame)
    for column, name in enumerate(frame.columns, start=1):
        cell = sheet.cell(row=first_row, column=column, value=str(name))
        cell.font = Font(bold=True)
        cell.alignment = Alignment(wrap_text=True, vertical="top")
    labels = frame.iloc[:, 0].str.lower().tolist() if len(frame.columns) else []
    by_row = numbers.row_kinds(list(frame.columns), frame.values.tolist())
    as_text = 0
    for column, name in enumerate(frame.columns, start=1):
        texts = frame[name].tolist()
        kinds = by_row if numbers.is_twin_value(name) else None
        cells = (
            [(text or None, None, False) for text in texts]  # odds: text
            if name in odds
            else column_cells(name, texts, table, kinds)
        )
        for row, (text, label, (value, style, text_integer)) in enumerate(
            zip(texts, labels, cells, strict=True), start=first_row + 1
        ):
            if column > 1 and TEXT_LABELS.search(label):  # a version: 2.10 is not 2.1
                value, style, text_integer = text or None, None, False
            cell = sheet.cell(row=row, column=column, value=value)
            as_text += text_integer
            if text_integer:
                cell.alignment = Alignment(horizontal="right")
            elif style is not None:
                cell.number_format = _cell_style(style, value, column > 1 and "seed" in label).excel
    return as_text


def _cell_style(style: NumberStyle, value: float, seed: bool) -> NumberStyle:
    """A cell's format: its column's, but an integer (written without a decimal point) in
    a plain column an integer, and a seed (a key-value table's row so labelled) ungrouped."""
    if seed and isinstance(value, int):
        return SEED
    if style.excel.startswith("#,##0") and isinstance(value, int):
        return INTEGER
    return style


def _set_widths(sheet, header_rows: tuple[int, ...], skip_rows: tuple[int, ...] = ()) -> None:
    """Each column as wide as the widest text it shows (headers wrap past their longest
    word; at most :data:`MAX_WIDTH`, where longer text wraps), and each row holding wrapped
    text as tall as its lines."""
    from openpyxl.styles import Alignment
    from openpyxl.utils import get_column_letter

    widths: dict[int, int] = {}
    wrapped = set(header_rows)
    for row in sheet.iter_rows():
        for cell in row:
            if cell.value is None or cell.row in skip_rows:
                continue
            shown = _shown(cell)
            width = len(shown)
            if cell.row in header_rows:  # a header: wraps between words
                width = max([min(width, 24), *(len(w) for w in shown.split())])
            elif width > MAX_WIDTH:
                cell.alignment = Alignment(wrap_text=True, vertical="top")
                wrapped.add(cell.row)
            widths[cell.column] = max(widths.get(cell.column, 0), width)
    for column, width in widths.items():
        letter = get_column_letter(column)
        sheet.column_dimensions[letter].width = min(MAX_WIDTH, max(MIN_WIDTH, width + 2))
    for row in wrapped:  # 15 points a line
        lines = [
            _lines(str(cell.value), sheet.column_dimensions[cell.column_letter].width - 2)
            for cell in sheet[row]
            if cell.value is not None
        ]
        sheet.row_dimensions[row].height = 15 * max(lines, default=1)


def _lines(text: str, width: float) -> int:
    """How many lines ``text`` wraps to between words in ``width`` characters."""
    lines, used = 1, 0
    for word in text.split():
        if used and used + 1 + len(word) > width:
            lines, used = lines + 1, len(word)
        else:
            used += (1 if used else 0) + len(word)
    return lines


def _shown(cell) -> str:
    """What Excel shows in ``cell`` (its number formatted as its format says)."""
    value = cell.value
    if not _is_number(value):
        return str(value)
    style = next((s for s in _ALL_STYLES if s.excel == cell.number_format), None)
    if style is None:
        decimals = cell.number_format.partition(".")[2].count("0")
        style = NumberStyle(cell.number_format, f"{{:,.{decimals}f}}")
    return style.shown(value)


_ALL_STYLES = (PERCENT, PERCENT_POINTS, PROBABILITY, INTEGER, SEED, SCIENTIFIC)


def _front_sections(csvs: list[Path], names: dict[str, str], summary: dict):
    """The front sheet's tables: (title, frame, table name)."""
    sections = [("Parameters", parameter_rows(summary.get("parameters", {})), "parameters")]
    for path in csvs:
        if path.stem.startswith("rules") or path.stem in ("dealing", "provenance"):
            frame = pd.read_csv(path, dtype=str, keep_default_na=False)
            if path.stem == "provenance":
                frame = _provenance(frame, "the Parameters table above")
            sections.append((path.stem, frame, path.stem))
    index = pd.DataFrame(
        [{"Sheet": names[p.stem], "Table (CSV file)": p.name} for p in csvs],
        columns=["Sheet", "Table (CSV file)"],
    )
    sections.append(("Sheets", index, "sheets"))
    return sections


def _provenance(frame: pd.DataFrame, where: str) -> pd.DataFrame:
    """The provenance with its parameters row (a JSON string) pointing ``where`` the
    Parameters table is."""
    frame = frame.copy()
    if list(frame.columns[:2]) == ["Item", "Value"]:
        frame.loc[frame["Item"] == "parameters", "Value"] = where
    return frame


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
        the list of sheets), then a sheet per CSV, every one with its header row frozen,
        its columns in their number formats and widths.
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
    front.title = FRONT
    front.cell(row=1, column=1, value=summary.get("title", name)).font = Font(bold=True, size=14)
    titles = [1]
    row = 3
    for title, frame, table in _front_sections(csvs, names, summary):
        front.cell(row=row, column=1, value=title).font = Font(bold=True, size=12)
        titles.append(row)
        _write_table(front, frame, row + 1, table)
        row += len(frame) + 3
    front.freeze_panes = "A2"
    _set_widths(front, tuple(t + 1 for t in titles[1:]), skip_rows=tuple(titles))
    for path in csvs:
        frame = pd.read_csv(path, dtype=str, keep_default_na=False)
        if path.stem == "provenance":
            frame = _provenance(frame, f"the Parameters table on the {FRONT} sheet")
        sheet = book.create_sheet(names[path.stem])
        as_text = _write_table(sheet, frame, table=path.stem)
        sheet.freeze_panes = "A2"
        _set_widths(sheet, (1,))
        if as_text:
            note = sheet.cell(row=len(frame) + 3, column=1)
            note.value = (
                f"Note: {as_text} exact integer(s) of more than 15 digits are written as text "
                "(with separators), every digit exact: Excel shows only 15 significant digits "
                "of a number."
            )
            note.font = Font(italic=True)
    target = folder / f"{name}.xlsx"
    escaping.workbook_without_formulas(book).save(target)  # no text a formula
    return target
