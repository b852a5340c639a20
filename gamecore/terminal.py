"""The command line's tables for a reader: the reports' number style, fitted to the terminal.

Central idea
------------
A command's text output is read by a person at a terminal; its JSON (``--json``) is read by
programs and keeps every figure at full precision. So every table the text output prints
goes through :func:`table`, which styles each cell as the reports do
(:mod:`gamecore.reporting.numbers`: exact counts in full with thousands separators, house
edges, EVs and returns as percentages, probabilities as fractions, a missing value blank,
never ``NaN``) and wraps the one long text column (a rule's meaning) so that no line is
wider than the terminal.
"""

from __future__ import annotations

import shutil
import textwrap
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pandas is imported by whoever builds the frame
    import pandas as pd

#: The width assumed when standard output is not a terminal (a file, a pipe).
DEFAULT_WIDTH = 100
#: The narrowest a wrapped text column gets, however narrow the terminal.
NARROWEST_TEXT = 16
#: Between columns.
GAP = "  "


def width() -> int:
    """The width lines are fitted to: the terminal's columns (``COLUMNS`` if set), else
    :data:`DEFAULT_WIDTH`.

    Returns
    -------
    int
        Characters a line may take.
    """
    return shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns


def table(
    frame: pd.DataFrame,
    index: bool = False,
    columns: int | None = None,
    as_typed: Sequence[str] = (),
) -> str:
    """``frame`` as text: each cell in the reports' number style, columns aligned (numbers
    right, text left), the widest text columns wrapped (between words) to fit ``columns``
    characters; a control character shown as its escape (``\\x1b``), never sent.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table, its column names as headers.
    index : bool, default False
        Print the index as the first column (named by the index's name).
    columns : int, optional
        The width to fit (default :func:`width`).
    as_typed : Sequence of str
        Columns printed as their text stands (a parameter's default: a seed of 2026 is not
        2,026), left-aligned.

    Returns
    -------
    str
        The table's lines, without a trailing line break.
    """
    from gamecore.reporting import escaping, numbers

    if index:
        frame = frame.reset_index()
    headers, rows, aligns = numbers.format_frame(frame)
    for at, header in enumerate(headers):
        if header in as_typed:
            for row, value in zip(rows, frame.iloc[:, at], strict=True):
                row[at] = numbers.cell_text(value)
            aligns[at] = "left"
    # Text a user wrote (a bet's outcome, a parameter) may hold ESC: shown, never obeyed.
    headers = [escaping.terminal_text(numbers.plain_text(h)) for h in headers]
    rows = [[escaping.terminal_text(cell) for cell in row] for row in rows]
    return _lay_out(headers, rows, aligns, width() if columns is None else columns)


def figures(values: Mapping[str, object], columns: int | None = None) -> str:
    """Named figures as a two-column table, each value styled by its name (an EV or edge as
    a percentage, a count in full).

    Parameters
    ----------
    values : Mapping of str to object
        Figure name -> value, in print order.
    columns : int, optional
        The width to fit (default :func:`width`).

    Returns
    -------
    str
        The table's lines.
    """
    import pandas as pd

    frame = pd.DataFrame({"Figure": list(values), "Value": list(values.values())})
    return table(frame, columns=columns)


def _lay_out(headers: list[str], rows: list[list[str]], aligns: list[str], columns: int) -> str:
    widths = [max([len(h), *(len(row[i]) for row in rows)]) for i, h in enumerate(headers)]
    # Text columns give way, the widest first and only down to the next widest, so they
    # shrink together; none below its longest word (words are never broken) or
    # NARROWEST_TEXT: numbers are never wrapped.
    floors = [
        max(NARROWEST_TEXT, len(h), *(len(w) for row in rows for w in row[i].split()))
        for i, h in enumerate(headers)
    ]
    for _ in range(sum(widths)):
        overflow = sum(widths) + len(GAP) * (len(widths) - 1) - columns
        narrowable = [i for i, a in enumerate(aligns) if a == "left" and widths[i] > floors[i]]
        if overflow <= 0 or not narrowable:
            break
        widest = max(narrowable, key=lambda i: widths[i])
        next_widest = max((widths[i] for i in narrowable if i != widest), default=0)
        target = max(floors[widest], widths[widest] - overflow, next_widest)
        widths[widest] = min(target, widths[widest] - 1)
    lines = [_line(headers, widths, aligns)]
    for row in rows:
        wrapped = [
            textwrap.wrap(cell, w, break_long_words=False) or [""]
            for cell, w in zip(row, widths, strict=True)
        ]
        for k in range(max(len(parts) for parts in wrapped)):
            lines.append(_line([p[k] if k < len(p) else "" for p in wrapped], widths, aligns))
    return "\n".join(lines)


def _line(cells: list[str], widths: list[int], aligns: list[str]) -> str:
    parts = [
        cell.rjust(w) if align == "right" else cell.ljust(w)
        for cell, w, align in zip(cells, widths, aligns, strict=True)
    ]
    return GAP.join(parts).rstrip()
