"""A rule card as received, laid out as its text reads: the card's words unchanged, its lines
put back together.

The cards reached us as text copied out of web pages: a table arrives one cell per line
(``| King |`` then ``0 |``), a sentence broken wherever the page wrapped it, and paragraphs
set apart by runs of blank lines. Printed line for line that is three and a half pages of
single words. :func:`card_lines` undoes the copying, and only that:

- a table row is one line again: a line that starts with ``|`` opens a row, and each
  following line that ends with ``|`` (a cell), or runs on a cell not yet closed, joins it;
- a sentence is one line again: a line that starts with a lower-case letter continues the
  line before it (a heading, a list item and a new sentence start with a capital, a bullet
  or a digit, so they stay apart);
- runs of blank lines (some hold only spaces or no-break spaces) are one blank line.

No character of the card's words is changed, dropped or added but the line breaks and
blank runs named above (a test checks the words, in order, are the received text's); the
SHA-256 a report prints is of the text as received, before any of this.
"""

from __future__ import annotations

__all__ = ["card_lines"]


def _is_row(line: str) -> bool:
    """A table row's line: opened by ``|``."""
    return line.startswith("|")


def card_lines(text: str) -> list[str]:
    """The card's lines, each table row and each sentence on one line, blank runs as one.

    Parameters
    ----------
    text : str
        The rule card's text (as shown: received, or with its punctuation put back).

    Returns
    -------
    list of str
        The lines to print, an empty string for a blank line (never two in a row, never
        first or last).

    Examples
    --------
    >>> card_lines("| King |\\n0 |\\n| Queen |\\n0 |\\nA hand of\\ntwo cards.\\n\\n \\nNext")
    ['| King | 0 |', '| Queen | 0 |', 'A hand of two cards.', '', 'Next']
    """
    lines: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            if lines and lines[-1]:
                lines.append("")
            continue
        previous = lines[-1] if lines else ""
        open_cell = not previous.endswith("|")  # a cell's text runs on to its closing |
        cell = not _is_row(line) and (line.endswith("|") or open_cell)
        if previous and _is_row(previous) and cell:
            lines[-1] = f"{previous} {line}"
        elif previous and not _is_row(previous) and line[0].islower():
            lines[-1] = f"{previous} {line}"
        else:
            lines.append(line)
    while lines and not lines[-1]:
        lines.pop()
    return lines
