"""A rule card as received, laid out as its text reads: the card's words unchanged, its lines
put back together; and the card's readings in RULES.md as text to typeset
(:func:`markdown_blocks`: its Markdown read into paragraphs and list items, so no ``##`` or
backtick reaches a page).

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

import re
from typing import Any

__all__ = ["card_lines", "markdown_blocks", "spans"]


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


_SPAN = re.compile(r"`([^`]*)`|\*\*(.+?)\*\*")


def spans(text: str) -> list[dict[str, str]]:
    """Markdown inline text as spans: plain, ``code`` (backticks) and ``strong`` (``**``).

    Parameters
    ----------
    text : str
        One paragraph or list item.

    Returns
    -------
    list of dict
        Each ``{"style": ..., "text": ...}``, the marks removed.
    """
    out, at = [], 0
    for match in _SPAN.finditer(text):
        if match.start() > at:
            out.append({"style": "plain", "text": text[at : match.start()]})
        code, bold = match.groups()
        style, body = ("code", code) if code is not None else ("strong", bold)
        out.append({"style": style, "text": body})
        at = match.end()
    if at < len(text):
        out.append({"style": "plain", "text": text[at:]})
    return out


def markdown_blocks(text: str) -> list[dict[str, Any]]:
    """A section of RULES.md as blocks to typeset: its heading dropped (the document heads
    it), paragraphs and list items (a nested item one level in) with their inline spans.

    Parameters
    ----------
    text : str
        The Markdown section.

    Returns
    -------
    list of dict
        Each ``{"kind": "par" | "item", "level": int, "spans": [...]}``.
    """
    blocks: list[dict[str, Any]] = []
    lines: list[str] = []
    current: dict[str, Any] | None = None

    def close() -> None:
        if current is not None:
            current["spans"] = spans(" ".join(lines))
            blocks.append(current)

    for raw in text.splitlines():
        if raw.startswith("#"):
            continue
        item = re.match(r"(\s*)[-*] (.*)", raw)
        if item or not raw.strip():
            close()
            current, lines = None, []
            if item:
                current = {"kind": "item", "level": min(2, len(item.group(1)) // 2)}
                lines = [item.group(2).strip()]
            continue
        if current is None:
            current, lines = {"kind": "par", "level": 0}, []
        lines.append(raw.strip())
    close()
    return blocks
