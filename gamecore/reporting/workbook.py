"""``reports/<name>/<name>.xlsx``: a report's tables as one Excel workbook, the form test labs
exchange par sheets in.

The workbook is written from the report's own CSV files (the tables the HTML page shows: one
source of truth), with openpyxl. The first sheet, ``Report``, holds the report's title, its
parameters (a two-column table, Parameter | Value), the rule set (the report's
``rules*.csv``), the dealing, the provenance and an index of the sheets; then one sheet per
CSV (the provenance's parameters row, a JSON string, points at the Parameters table instead).
Every sheet has its header row frozen and each column as wide as what it shows (at
most :data:`MAX_WIDTH` characters: longer text wraps).

**Numbers stay numbers, each column with one number format**, chosen from the column's name
(lower case, the first rule that matches wins; the rules are :data:`COLUMN_RULES`):

1. ``mass cut``: the probability mass the hold's convolution dropped, a figure that exists to
   show how small it is: scientific, ``0.00E+00`` (the only scientific column).
2. a name ending ``(%)``: already in percentage points (an effect of removal): 4 decimals,
   ``0.0000``, the header says %.
3. correlations, covariances, amounts of units or money (``units``, ``per hour``, ``per
   shoe``, ``per 100``, ``money``) and true counts: plain numbers (rule 6), whatever else
   the name holds.
4. a probability (``probability``, ``frequency``, ``P(...)``, ``share``, ``push``, a name
   ending ``wins``) or a ``return`` (a probability times a payout, which sums to the EV):
   8 decimals, ``0.00000000``; so is every column of fractions (all within 0 and 1) in a
   table whose file name says ``distribution`` (a column per final total).
5. a percentage as the reports state it: a house, P/D or player edge (``edge``), a hold and
   its 95% band (``hold``, ``band``), an EV per unit wagered (``EV``), a fraction labelled
   ``% of``: shown as a percentage with 4 decimals, ``0.0000%`` (0.0105 reads 1.0500%).
6. anything else: an integer (every value whole) with thousands separators, ``#,##0``; a
   fraction with the fewest decimals that show every value as the CSV holds it, but no more
   than 6 significant digits of the column's largest value give (2 to 8 decimals), with
   thousands separators (``#,##0.000``). A column's whole-number cells (``8`` decks in a
   rules table's Value column, written without a decimal point) are integers wherever they
   stand, and a seed is never grouped (``0``). A version or commit in a key-value table
   (:data:`TEXT_LABELS`) stays text: numpy 2.10 is not 2.1.

Nothing is left in Excel's General format, so no count reads ``2.29E+15``.

**Integers are exact.** Excel shows at most 15 significant digits of a number (and a double
holds integers exactly only up to 2^53): an integer of more than 15 digits (``Combinations``
at 8 decks: 2,292,252,566,437,888) is written as text, with thousands separators and aligned
right, and a note under the table says so. Booleans are Excel's TRUE and FALSE.

**Sheet names** are the CSV names (``hold_monitoring``), never cut mid-word: a name longer
than Excel's 31 characters is shortened word by word (:func:`abbreviate`: every phrase of
:data:`PHRASES` and word of :data:`ABBREVIATIONS` abbreviated, then the longest word cut to
its first four letters until it fits, then whole words dropped from the end), a clash is
numbered ``~2``, ``~3``, and the index on the front sheet names the file each sheet came from.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

#: The largest integer a spreadsheet shows in full (Excel: 15 significant digits; a double
#: holds integers exactly only to 2^53, which is larger).
EXACT_LIMIT = 10**15 - 1
#: Excel's limit on a sheet's name, and the characters it refuses in one.
SHEET_NAME_LIMIT = 31
FORBIDDEN_IN_SHEET_NAMES = re.compile(r"[\[\]:*?/\\]")
#: The front sheet's name.
FRONT = "Report"
#: The widest a column is set (characters); longer text wraps. The narrowest: 6.
MAX_WIDTH = 60
MIN_WIDTH = 6
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
    ("probability", re.compile(r"probability|frequency|^p\(|\bshare\b|\bpush\b|wins$|\breturn\b")),
    ("percent", re.compile(r"edge|\bhold\b|\bband\b|% of|\bev\b")),
)
STYLES = {
    "scientific": SCIENTIFIC,
    "percent points": PERCENT_POINTS,
    "probability": PROBABILITY,
    "percent": PERCENT,
}

#: The rows of a key-value table (their first cell, lower case) whose values stay text.
TEXT_LABELS = re.compile(r"version|commit|python|numpy")

#: Phrases a long sheet name is shortened by first, then single words (else: four letters).
PHRASES = {
    "cross_check": "check",
    "effects_of_removal": "EoR",
    "twenty_one_plus_three": "21+3",
    "hold_monitoring": "hold",
}
ABBREVIATIONS = {
    "alternative": "alt",
    "baccarat": "bac",
    "blackjack": "bj",
    "countability": "count",
    "covariances": "cov",
    "distribution": "dist",
    "equilibrium": "equil",
    "exceptions": "exc",
    "monitoring": "mon",
    "optimal": "opt",
    "procedure": "proc",
    "response": "resp",
    "strategy": "strat",
}


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
        None (empty), a bool, an int, a float or the text; and whether an integer is kept
        as text (beyond :data:`EXACT_LIMIT`), then with thousands separators.

    Examples
    --------
    >>> cell_value("42"), cell_value("0.5"), cell_value(str(2**60)), cell_value("")
    ((42, False), (0.5, False), ('1,152,921,504,606,846,976', True), (None, False))
    """
    if text == "":
        return None, False
    if text in ("True", "False"):
        return text == "True", False
    if re.fullmatch(r"-?\d+", text):
        number = int(text)
        if abs(number) > EXACT_LIMIT:
            return f"{number:,}", True
        return number, False
    try:
        number = float(text)
    except ValueError:
        return text, False
    return (number, False) if math.isfinite(number) else (text, False)


def column_kind(name: str, values: list[Any] = (), table: str = "") -> str:
    """Which number format a column takes, by the module's rules 1-5 (else ``"number"``).

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
    ['percent', 'probability', 'probability', 'number']
    """
    lowered = str(name).lower()
    for kind, pattern in COLUMN_RULES:
        if pattern.search(lowered):
            return kind
    numbers = [v for v in values if _is_number(v)]
    if "distribution" in table and numbers and all(0 <= v <= 1 for v in numbers):
        if not all(float(v).is_integer() for v in numbers):
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


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _decimals(text: str) -> int:
    """The decimals ``text`` is written with (scientific notation: as many as it needs)."""
    number = float(text)
    if "e" in text.lower():
        return len(f"{number:.15f}".rstrip("0").split(".")[1])
    fraction = text.partition(".")[2].rstrip("0")
    return len(fraction)


def abbreviate(stem: str, limit: int = SHEET_NAME_LIMIT) -> str:
    """``stem`` shortened to ``limit`` characters without cutting a word (module docstring).

    Parameters
    ----------
    stem : str
        A CSV file's name without its suffix (words joined by ``_``).
    limit : int, default 31
        The most characters.

    Returns
    -------
    str
        ``stem`` itself when short enough; else every phrase of :data:`PHRASES` and word
        of :data:`ABBREVIATIONS` abbreviated (the same in every long name), then the
        longest word cut to four letters, one at a time, until it fits, then whole words
        dropped from the end; a single word still too long is the only thing ever cut.

    Examples
    --------
    >>> abbreviate("result_distribution_optimal_cross_check")
    'result_dist_opt_check'
    >>> abbreviate("countability_twenty_one_plus_three")
    'count_21+3'
    """
    name = FORBIDDEN_IN_SHEET_NAMES.sub("_", stem).strip("'") or "table"
    if len(name) <= limit:
        return name
    for phrase, short in PHRASES.items():
        name = re.sub(rf"(?<![^_]){re.escape(phrase)}(?![^_])", short, name)
    words = [ABBREVIATIONS.get(w.lower(), w) for w in name.split("_")]
    while len("_".join(words)) > limit and len(words) > 1:
        long = [w for w in words if len(w) > 4]
        if not long:
            break
        longest = max(long, key=len)
        words[words.index(longest)] = longest[:4]
    while len("_".join(words)) > limit and len(words) > 1:
        words.pop()
    return "_".join(words)[:limit]


def sheet_names(stems: list[str]) -> dict[str, str]:
    """A distinct sheet name of at most 31 characters for each CSV stem.

    Parameters
    ----------
    stems : list of str
        The CSV files' names without their suffix.

    Returns
    -------
    dict of str to str
        Stem -> sheet name: the stem, or :func:`abbreviate`'s when longer than 31; a clash
        (case ignored, ``Report`` taken) ended ``~2``, ``~3``, ....
    """
    names: dict[str, str] = {}
    used = {FRONT.lower()}
    for stem in stems:
        name = abbreviate(stem)
        k = 2
        while name.lower() in used:
            suffix = f"~{k}"
            name = abbreviate(stem, SHEET_NAME_LIMIT - len(suffix)) + suffix
            k += 1
        used.add(name.lower())
        names[stem] = name
    return names


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
        a value left to the rules (None), ``none`` for an empty text, a list as its items
        joined by commas.

    Examples
    --------
    >>> rows = parameter_rows({"decks": 8, "sweep": [1, 2], "peek": True, "pays": None})
    >>> rows.values.tolist()
    [['decks', '8'], ['sweep', '1, 2'], ['peek', 'yes'], ['pays', 'auto']]
    """
    return pd.DataFrame(
        [{"Parameter": k, "Value": _parameter_text(v)} for k, v in parameters.items()],
        columns=["Parameter", "Value"],
    )


def _parameter_text(value: Any) -> str:
    if value is None:
        return "auto"
    if value == "":
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(_parameter_text(v) for v in value)
    if isinstance(value, int | float | str):
        return str(value)
    return json.dumps(value)


def _write_table(sheet, frame: pd.DataFrame, first_row: int = 1, table: str = "") -> int:
    """Write ``frame`` (all text, as read from a CSV) from ``first_row``, each column in its
    number format; returns how many cells were integers written as text."""
    from openpyxl.styles import Alignment, Font

    for column, name in enumerate(frame.columns, start=1):
        cell = sheet.cell(row=first_row, column=column, value=str(name))
        cell.font = Font(bold=True)
        cell.alignment = Alignment(wrap_text=True, vertical="top")
    labels = frame.iloc[:, 0].str.lower().tolist() if len(frame.columns) else []
    as_text = 0
    for column, name in enumerate(frame.columns, start=1):
        texts = frame[name].tolist()
        style = number_style(name, texts, table)
        for row, (text, label) in enumerate(zip(texts, labels, strict=True), start=first_row + 1):
            value, text_integer = cell_value(text)
            if column > 1 and TEXT_LABELS.search(label):  # a version: 2.10 is not 2.1
                value, text_integer = text or None, False
            cell = sheet.cell(row=row, column=column, value=value)
            as_text += text_integer
            if text_integer:
                cell.alignment = Alignment(horizontal="right")
            elif _is_number(value):
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
    book.save(target)
    return target
