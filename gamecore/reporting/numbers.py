"""One number style for every table a report prints: the PDF and the par sheet
(:mod:`gamecore.reporting.document`) and the HTML page (:class:`gamecore.reporting.Report`'s
tables). The CSV files keep every figure at full precision; only their print is styled here,
by the column's name (and, in a twin table, by the row's figure):

- exact integers in full with thousands separators (``6,737,232,640``), a whole number
  never padded with decimals (``8``, not ``8.00000000``);
- house edges, EVs, returns and holds as percentages to :data:`PERCENT_DECIMALS` decimals
  (one too small to show there but not zero, a chart change's EV gain, to 2 digits);
- probabilities and frequencies as fractions to :data:`PROBABILITY_DECIMALS` decimals, a
  probability too small to show at that resolution as ``< 0.00000001`` (never 0: it is not);
- payouts as odds (``19 to 20``, ``push``, ``loses``: :func:`gamecore.wagers.odds`);
- z-scores to :data:`Z_DECIMALS` decimals; any other number to :data:`SIGNIFICANT`
  significant digits of its column's largest, every cell of the column the same decimals;
- a figure within :data:`ZERO_TOLERANCE` of zero (float rounding of an exact zero, such as
  ``-6.9e-18``) printed as zero, without a sign;
- ``yes``/``no`` for ``True``/``False``, a dash for ``None``, nothing for a missing value,
  ``infinite`` for ``inf``, a list or tuple as its items joined by commas, and text without
  Markdown's backticks or asterisks.

:data:`STYLE_NOTE` states these rules in each document's glossary.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from gamecore.wagers import odds

PERCENT_DECIMALS = 4
PROBABILITY_DECIMALS = 8
Z_DECIMALS = 2
SIGNIFICANT = 8
#: Decimals never exceed this (a column of tiny numbers that are not probabilities).
MAX_DECIMALS = 8
#: Float rounding left on a figure that is exactly zero is far below this.
ZERO_TOLERANCE = 1e-12
#: Printed for a missing value (``None``).
DASH = "\u2013"

#: Digits and the minus sign as superscripts: a power of ten as print writes it (10⁻¹²).
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
STYLE_NOTE = (
    f"Numbers: exact counts in full; house edges, EVs, returns and holds as percentages to "
    f"{PERCENT_DECIMALS} decimals (a smaller one, not zero, to 2 significant digits); "
    f"probabilities as fractions to {PROBABILITY_DECIMALS} decimals "
    f"(below that resolution: < 0.{'0' * (PROBABILITY_DECIMALS - 1)}1); payouts as odds; z to "
    f"{Z_DECIMALS} decimals; any other figure to {SIGNIFICANT} significant digits (at most "
    f"{MAX_DECIMALS} decimals); a figure within 10"
    f"{str(round(math.log10(ZERO_TOLERANCE))).translate(_SUPERSCRIPT)} of zero as 0. "
    f"The CSV files and the workbook hold every figure at full precision."
)

# Matched against a lower-cased column name (or a twin table's figure).
_PERCENT = re.compile(
    r"\bedge\b|\bev\b|\bevs\b|\breturn\b|\bhold\b|\bband\b|hit - stand|advantage|"
    r"cut-card effect|\bmargin\b|as % of"
)
_PROBABILITY = re.compile(r"probability|frequency|\bp\(|\bshare\b|mass cut|\bchance\b")
_NOT_A_SHARE = re.compile(r"\bunits\b|correlation|covariance")
_ODDS = re.compile(r"^pays$|^payout$")
_TWIN_VALUES = {"exact", "simulated", "se", "value"} | {
    # A figure under a model beside its twin at a full table (gamecore.sidebets.table_effect)
    "model (exact)",
    "full table (simulated)",
    "moved",
    "model",
    "model se",
    "table",
    "table se",
    "moved se",
}
#: Columns of Parameter | Value tables: each value of its own kind.
_VALUES = {"value", "default"}
#: Columns of numbers each printed with its own decimals (net results -8, -0.5, 1.2: never
#: -8.0 because another row needs a decimal).
_OWN_DECIMALS = {"net result"}
_LITERALS = {
    "True": "yes",
    "False": "no",
    "None": DASH,
    "nan": "",
    "NaN": "",
    "<NA>": "",
    "inf": "infinite",
    "-inf": "minus infinity",
}
#: A list or tuple as Python writes it: ``[1, 2]``, ``(100.0, 200.0)``.
_SEQUENCE = re.compile(r"\[[^\[\]]*\]|\((?:[^(),]+,)+[^(),]*\)")
#: An item of a written tuple: a number or a quoted word (a parenthesis of words is text).
_ITEM = re.compile(r"[-+]?(\d+(\.\d*)?(e[-+]?\d+)?|inf)|'[^']*'|\"[^\"]*\"|True|False|None")
#: A literal given as a value inside text (``dealer_hits_soft_17=False``).
_ASSIGNED = re.compile(r"([=:] ?)(True|False|None)\b")
_INTEGER = re.compile(r"[-+]?\d+")


def kind_of(name: str) -> str:
    """How a column (or a twin table's figure) named ``name`` is printed.

    Parameters
    ----------
    name : str
        The column's header, or a figure's label.

    Returns
    -------
    str
        ``"odds"``, ``"percent"``, ``"probability"``, ``"z"`` or ``"number"``.
    """
    lowered = str(name).strip().lower()
    if _ODDS.search(lowered):
        return "odds"
    if _NOT_A_SHARE.search(lowered):  # money or a correlation, whatever else it names
        return "number"
    if lowered == "z":
        return "z"
    if _PROBABILITY.search(lowered):
        return "probability"
    if _PERCENT.search(lowered):
        return "percent"
    return "number"


def parse(text: str) -> int | float | None:
    """A CSV cell as a number: an ``int`` when written as one, else a ``float``; ``None``
    when the cell is not a number.

    Parameters
    ----------
    text : str
        The cell as written.

    Returns
    -------
    int, float or None
        The number.
    """
    text = str(text).strip()
    if _INTEGER.fullmatch(text):
        return int(text)
    try:
        value = float(text)
    except ValueError:
        return None
    return value if text.lower() not in ("nan", "inf", "-inf", "infinity") else None


def plain_text(text: str) -> str:
    """A text cell for print: Python's literals as words, Markdown's marks removed.

    Parameters
    ----------
    text : str
        The cell as written.

    Returns
    -------
    str
        ``yes``/``no`` for ``True``/``False``, a dash for ``None``, nothing for ``nan``,
        ``infinite`` for ``inf``; a list ``[1, 2]`` or a tuple ``(100.0, 200.0)`` as ``1, 2``
        and ``100, 200``; otherwise the text without backticks and ``**``.
    """
    text = str(text)
    if text.strip() in _LITERALS:
        return _LITERALS[text.strip()]
    if _SEQUENCE.fullmatch(text.strip()):
        items = [item.strip() for item in text.strip()[1:-1].split(",")]
        if text.strip().startswith("[") or all(_ITEM.fullmatch(i) for i in items if i):
            return ", ".join(_item_text(item) for item in items if item)
    text = _ASSIGNED.sub(lambda m: m.group(1) + _LITERALS[m.group(2)], text)
    return text.replace("`", "").replace("**", "")


def _item_text(item: str) -> str:
    """An item of a written list: a number without float noise or thousands separators
    (they would read as more items: ``100.0`` is ``100``), else words."""
    value = parse(item)
    if value is None:
        return plain_text(item.strip("'\""))
    return str(int(value)) if float(value).is_integer() else repr(value)


def _fixed(value: float, decimals: int, percent: bool = False) -> str:
    """``value`` to ``decimals`` places (as a percentage), thousands separated, no ``-0``."""
    if abs(value) < ZERO_TOLERANCE:
        value = 0.0
    text = f"{value:,.{decimals}%}" if percent else f"{value:,.{decimals}f}"
    if re.fullmatch(r"-[0.,]*%?", text):  # rounds to zero: no sign
        text = text[1:]
    return text


def payout(value: int | float | str) -> str:
    """A net payout per unit wagered as odds.

    Parameters
    ----------
    value : int, float or str
        The payout (``0.95``, ``8``, ``-1``), or odds already written (``"40 to 1"``).

    Returns
    -------
    str
        ``"19 to 20"``, ``"8 to 1"``, ``"push"``, ``"loses"``; text left as it is.
    """
    number = parse(value) if isinstance(value, str) else value
    if number is None:
        return plain_text(value)
    exact = Fraction(str(number)).limit_denominator(1000)
    if abs(float(exact) - number) > 1e-9:  # not a ratio of small integers: as a number
        return _fixed(float(number), PROBABILITY_DECIMALS)
    return odds(exact)


def number_text(value: int | float, kind: str, decimals: int | None = None) -> str:
    """One number in the style of its ``kind``.

    Parameters
    ----------
    value : int or float
        The number.
    kind : str
        As :func:`kind_of` names it.
    decimals : int, optional
        A ``"number"``'s decimals (default: from its own size, :data:`SIGNIFICANT` digits).

    Returns
    -------
    str
        The printed number.
    """
    if kind == "odds":
        return payout(value)
    if kind == "percent":
        if ZERO_TOLERANCE <= abs(value) < 10.0 ** -(PERCENT_DECIMALS + 2):
            # too small for 4 decimals but not zero (a chart change's EV gain): 2 digits
            digits = min(MAX_DECIMALS + 2, 1 - math.floor(math.log10(abs(value) * 100)))
            return _fixed(value, digits, percent=True)
        return _fixed(value, PERCENT_DECIMALS, percent=True)
    if kind == "probability":
        if 0 < abs(value) < 0.5 * 10.0**-PROBABILITY_DECIMALS:
            return f"< 0.{'0' * (PROBABILITY_DECIMALS - 1)}1"
        return _fixed(value, PROBABILITY_DECIMALS)
    if kind == "z":
        return _fixed(value, Z_DECIMALS)
    if not math.isfinite(value):
        return _LITERALS.get(str(value), str(value))
    whole = isinstance(value, int) or float(value).is_integer()
    if decimals is None:
        decimals = 0 if whole else _fewest([value], _decimals(abs(value)))
    if whole and decimals == 0:
        return f"{int(value):,}"
    return _fixed(value, decimals)


def _decimals(largest: float) -> int:
    """Decimals that show ``largest`` to :data:`SIGNIFICANT` significant digits."""
    if largest < ZERO_TOLERANCE:
        return 0
    return min(MAX_DECIMALS, max(0, SIGNIFICANT - 1 - math.floor(math.log10(largest))))


def _fewest(values: Sequence[float], cap: int) -> int:
    """The fewest decimals (at most ``cap``) that print every value as ``cap`` would, but
    for trailing zeros: ``-59.000099999999996`` and ``1.5`` at 6 -> 4."""
    fewest = 0
    for value in values:
        full = f"{value:.{cap}f}".rstrip("0")
        fewest = max(fewest, len(full.partition(".")[2]))
    return fewest


def format_column(
    name: str, cells: Sequence[str], row_kinds: Sequence[str | None] | None = None
) -> tuple[list[str], str]:
    """A column's cells for print, and its alignment.

    Parameters
    ----------
    name : str
        The column's header (its kind, :func:`kind_of`).
    cells : sequence of str
        The cells as the CSV writes them.
    row_kinds : sequence of str or None, optional
        A kind per row overriding the column's (a twin table's figure), ``None`` to keep it.

    Returns
    -------
    tuple of (list of str, str)
        The printed cells, and ``"right"`` for a column of numbers, else ``"left"``.
    """
    cells = ["" if c is None else str(c) for c in cells]
    numbers = [parse(c) if c.strip() else None for c in cells]
    texts = [c for c, x in zip(cells, numbers, strict=True) if c.strip() and x is None]
    kind = kind_of(name)
    if kind == "odds":
        return [payout(c) if c.strip() else "" for c in cells], "right"
    if texts or str(name).strip().lower() in _VALUES:
        # a column of values of several kinds (a rule set's Value): each on its own scale
        kinds = row_kinds or [None] * len(cells)
        return [
            number_text(x, k) if k and x is not None else _cell(c, x)
            for c, x, k in zip(cells, numbers, kinds, strict=True)
        ], "left"
    present = [x for x in numbers if x is not None]
    if not present:
        return ["" for _ in cells], "left"
    if str(name).strip().lower() in _OWN_DECIMALS:
        return [_cell(c, x) for c, x in zip(cells, numbers, strict=True)], "right"
    kinds = [
        (row_kinds[i] if row_kinds and row_kinds[i] else kind) for i in range(len(cells))
    ]  # fmt: skip
    plain = [abs(x) for x, k in zip(numbers, kinds, strict=True) if x is not None and k == "number"]
    decimals = _fewest(plain, _decimals(max(plain, default=0.0)))
    out = [
        "" if x is None else number_text(x, k, decimals if k == "number" else None)
        for x, k in zip(numbers, kinds, strict=True)
    ]
    return out, "right"


def _cell(text: str, value: int | float | None) -> str:
    """One cell of a column of mixed values: a number on its own scale, text as words."""
    if value is None:
        return plain_text(text)
    if isinstance(value, int) or float(value).is_integer():
        return f"{int(value):,}"
    if abs(value) < ZERO_TOLERANCE:
        return "0"
    return number_text(value, "number")


def row_kinds(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str | None] | None:
    """A twin table's kind per row, from its Figure column (an edge in percent, a
    probability as a fraction); ``None`` for a table without one.

    Parameters
    ----------
    columns : sequence of str
        The table's headers.
    rows : sequence of sequence of str
        Its cells, row by row.

    Returns
    -------
    list of (str or None), or None
        Per row: ``"percent"``, ``"probability"`` or ``None`` (the column's own kind).
    """
    if "Figure" not in columns:
        return None
    at = list(columns).index("Figure")
    kinds = [kind_of(row[at]) for row in rows]
    return [k if k in ("percent", "probability") else None for k in kinds]


def cell_text(value: object) -> str:
    """A DataFrame cell as the CSV writes it (the input :func:`format_column` takes).

    Parameters
    ----------
    value : object
        The cell.

    Returns
    -------
    str
        ``repr`` of a float (shortest round trip), ``str`` of anything else, nothing for a
        missing value.
    """
    if value is None:
        return "None"
    if isinstance(value, float):
        return "" if math.isnan(value) else repr(value)
    if hasattr(value, "item") and not isinstance(value, str):  # a numpy scalar
        return cell_text(value.item())
    return str(value)


def is_twin_value(name: str) -> bool:
    """Whether column ``name`` of a twin table takes the kind of its row's figure.

    Parameters
    ----------
    name : str
        A column header.

    Returns
    -------
    bool
        True for Exact, Simulated, SE, a Figure | Value table's Value, and the model's
        figures beside a full table's (Model, Table, Moved and their SEs).
    """
    return str(name).strip().lower() in _TWIN_VALUES


def format_table(
    columns: Sequence[str], rows: Sequence[Sequence[str]]
) -> tuple[list[list[str]], list[str]]:
    """A table's cells for print (each column by :func:`format_column`, a twin table's
    Exact, Simulated and SE by the kind of the row's figure) and each column's alignment.

    Parameters
    ----------
    columns : sequence of str
        The headers.
    rows : sequence of sequence of str
        The cells as the CSV writes them, row by row.

    Returns
    -------
    tuple of (list of list of str, list of str)
        The printed rows, and ``"right"`` or ``"left"`` per column.
    """
    by_row = row_kinds(columns, rows)
    printed, aligns = [], []
    for at, name in enumerate(columns):
        kinds = by_row if is_twin_value(name) else None
        cells, align = format_column(str(name), [row[at] for row in rows], kinds)
        printed.append(cells)
        aligns.append(align)
    return [list(row) for row in zip(*printed, strict=True)] if printed else [], aligns


def format_frame(frame: Any) -> tuple[list[str], list[list[str]], list[str]]:
    """A table's cells for print, straight from its frame: each cell as the CSV writes it
    (:func:`cell_text`), then :func:`format_table`.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table (anything with ``columns`` and ``itertuples``).

    Returns
    -------
    tuple of (list of str, list of list of str, list of str)
        The headers as given (:func:`plain_text` makes them printable), the printed rows and
        ``"right"`` or ``"left"`` per column.
    """
    headers = [str(c) for c in frame.columns]
    cells = [[cell_text(v) for v in row] for row in frame.itertuples(index=False)]
    rows, aligns = format_table(headers, cells)
    return headers, rows, aligns
