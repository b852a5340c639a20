"""Text a user wrote, made inert for where it goes.

A side bet's title, description and outcome names come from a definition file anyone may
write; a report parameter from a parameters file; a title or file name from a received
manifest. Each is shown as the text it is, never as markup or a formula:

- **a workbook cell** (:func:`workbook_without_formulas`): openpyxl writes a string starting
  with ``=`` as a formula (``=HYPERLINK(...)`` would be a live link). The workbook holds no
  formula of its own, so every text cell is written as text, and one starting with a
  formula prefix (:data:`FORMULA_PREFIXES`) is marked quote-prefixed, as Excel marks text
  typed after ``'``: editing it keeps it text;
- **an HTML table** (:func:`gamecore.reporting.report.Report.table`): cells and headers
  HTML-escaped (pandas' Styler escapes nothing by default);
- **a Markdown heading in a notebook** (:func:`markdown_text`): every ASCII punctuation
  character backslash-escaped, so ``<script>`` and ``*bold*`` are shown as typed;
- **a terminal** (:func:`terminal_text`): a control character (``ESC``, which starts a
  colour or cursor sequence) shown as its escape, ``\\x1b``.

The CSV tables stay as the figures were computed (verify compares them cell by cell): a
spreadsheet opens the workbook, which is escaped, not the CSV files (docs/reports.md).
"""

from __future__ import annotations

import re
import string
import unicodedata
from typing import Any

#: What a spreadsheet reads as the start of a formula when it starts a cell's text.
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")

#: Unicode's control and invisible formatting categories (C0, C1, DEL; bidi overrides).
_CONTROL = frozenset({"Cc", "Cf"})
#: Kept: a line break or tab is white space to a table's wrapping, nothing more.
_WHITE = frozenset("\n\t")
_MARKDOWN = re.compile("([" + re.escape(string.punctuation) + "])")


def workbook_without_formulas(book: Any) -> Any:
    """``book`` with every text cell a text cell: none is a formula.

    Parameters
    ----------
    book : openpyxl.Workbook
        A workbook whose cells hold values, none a formula meant as one.

    Returns
    -------
    openpyxl.Workbook
        The same workbook: each cell openpyxl took for a formula (a text starting with
        ``=``) set to text, and each text starting with a formula prefix
        (:data:`FORMULA_PREFIXES`) quote-prefixed. Numbers are untouched.
    """
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                if not isinstance(cell.value, str):
                    continue
                cell.data_type = "s"
                if cell.value.startswith(FORMULA_PREFIXES):
                    cell.quotePrefix = True
    return book


def markdown_text(text: Any) -> str:
    """``text`` for a Markdown cell or ``IPython.display.Markdown``: shown as typed.

    Parameters
    ----------
    text : Any
        A title or description (made a string).

    Returns
    -------
    str
        The text with every ASCII punctuation character backslash-escaped (CommonMark:
        each then stands for itself, so no HTML tag, emphasis, link or heading is made) and
        each control character shown as its escape (:func:`terminal_text`).

    Examples
    --------
    >>> markdown_text("<b>*x*</b>")
    '\\\\<b\\\\>\\\\*x\\\\*\\\\<\\\\/b\\\\>'
    """
    return _MARKDOWN.sub(r"\\\1", terminal_text(text))


def terminal_text(text: Any) -> str:
    """``text`` with each control or invisible formatting character shown as its escape.

    Parameters
    ----------
    text : Any
        Text to print (made a string).

    Returns
    -------
    str
        The text, ``ESC`` shown as ``\\x1b``, a carriage return as ``\\r``, a right-to-left
        override as ``\\u202e``: nothing a terminal acts on but a line break or tab.

    Examples
    --------
    >>> terminal_text("a\\x1b[31mb\\r")
    'a\\\\x1b[31mb\\\\r'
    """
    text = str(text)
    if not any(_is_control(c) for c in text):
        return text
    return "".join(_escaped(c) if _is_control(c) else c for c in text)


def _escaped(character: str) -> str:
    return character.encode("unicode_escape").decode("ascii")


def _is_control(character: str) -> bool:
    return character not in _WHITE and unicodedata.category(character) in _CONTROL
