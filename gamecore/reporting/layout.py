"""How a report's table is laid out on the pages of its PDF: the type size and the page
orientation it gets (:func:`fit`), and which tables share landscape pages (:func:`grouped`).

The one idea: size a table as the typesetter (Typst) sets automatic columns. Where the
columns' natural widths (each cell on one line) add up to more than the page, every column
wider than an equal share of the room the narrower ones leave is set at that share and its
text wraps; so a table fits where no column is then narrower than the least it can be set
in: a header's longest word, a number in full (a number never wraps), a text cell in
:data:`MOST_LINES` lines. A table is set at the largest type that fits a portrait page, down
to :data:`SMALLEST_PT`, else on landscape pages; narrow tables after a wide one fill its last
landscape page rather than leave it near empty.
"""

from __future__ import annotations

import math
from typing import Any

#: Width of a character of a table's 8 pt type and a column's padding and rule, in points,
#: and the width of the text on a portrait and a landscape A4 page. A table wider than a
#: portrait page is set in smaller type down to :data:`SMALLEST_PT`, and only a table wider
#: still on landscape pages (a landscape page for each table of a few rows left pages near
#: empty).
CHARACTER_PT, COLUMN_PT, PORTRAIT_PT, LANDSCAPE_PT = 4.3, 7.0, 500.0, 740.0
TYPE_PT, SMALLEST_PT = 8.0, 5.6
#: Rows of 8 pt type a landscape page holds, about, and the rows a table's title and
#: header take: a narrow table after a wide one joins its landscape page within them.
LANDSCAPE_ROWS, TITLE_ROWS = 30, 3
#: A table of at most this many rows is short: never broken across pages (the template), and
#: set on the landscape page of a wide table just after it.
SHORT_ROWS = 12
#: The type sizes a table is tried at, largest first, in points.
SIZES_PT = [round(TYPE_PT - k / 10, 1) for k in range(round(10 * (TYPE_PT - SMALLEST_PT)) + 1)]
#: Lines a text cell may wrap into before smaller type (or a landscape page) is preferred.
MOST_LINES = 3
#: A column whose every cell is one word, the longest longer than this (a file's SHA-256),
#: cannot wrap: a page-wide table keeps it at its width (:func:`page_widths`).
UNBREAKABLE = 32


def column_characters(header: str, cells: list[str], align: str) -> tuple[int, int]:
    """A column's natural width in characters (its widest cell or header on one line) and
    the least it can be set in: a header wraps between words, a text cell (left-aligned)
    too, into :data:`MOST_LINES` lines at most; a number never wraps.

    Parameters
    ----------
    header : str
        The column's header.
    cells : list of str
        Its cells as printed.
    align : str
        ``"left"`` (text) or ``"right"`` (numbers).

    Returns
    -------
    tuple of (int, int)
        The natural width and the least width, in characters.
    """
    natural = max([len(header), *map(len, cells), 1])
    least = max([len(word) for word in header.split()] + [1])
    for cell in cells:
        if align == "left":
            least = max([least, math.ceil(len(cell) / MOST_LINES), *map(len, cell.split())])
        else:
            least = max(least, len(cell))
    return natural, least


def fits(columns: list[tuple[int, int]], size: float, page: float) -> bool:
    """Whether a table of ``columns`` (:func:`column_characters`) fits ``page`` points at
    ``size`` point type as the typesetter sets automatic columns: where their natural widths
    add up to more than the page, each column wider than an equal share of the room the
    narrower ones leave is set at that share, its text wrapped; the table fits if no column
    is then narrower than its least (its padding aside).

    Parameters
    ----------
    columns : list of (int, int)
        Each column's natural and least width in characters.
    size : float
        The type size, in points.
    page : float
        The width of the page's text, in points.

    Returns
    -------
    bool
        Whether the table fits.
    """
    character = CHARACTER_PT * size / TYPE_PT
    widths = sorted(natural * character + COLUMN_PT for natural, _ in columns)
    if sum(widths) <= page:
        return True
    room, count = page, len(widths)
    for width in widths:  # narrowest first: each keeps its width while within the share
        if width > room / count:
            break
        room, count = room - width, count - 1
    if count == 0:  # every column within its share: the sum exceeded the page by rounding
        return True
    share = room / count
    return all(  # a cell's text may run into half its padding, no further
        least * character + COLUMN_PT / 2 <= share
        for natural, least in columns
        if natural * character + COLUMN_PT > share
    )


def table_columns(
    headers: list[str], rows: list[list[str]], aligns: list[str]
) -> list[tuple[int, int]]:
    """Each column's :func:`column_characters`.

    Parameters
    ----------
    headers : list of str
        The table's headers.
    rows : list of list of str
        Its rows of printed cells.
    aligns : list of str
        Each column's alignment.

    Returns
    -------
    list of (int, int)
        Each column's natural and least width in characters.
    """
    cells = [[row[at] for row in rows] for at in range(len(headers))]
    return [column_characters(*column) for column in zip(headers, cells, aligns, strict=True)]


def fit(columns: list[tuple[int, int]], landscape: bool = True) -> dict[str, Any]:
    """A table's type size and page orientation: the largest size of :data:`SIZES_PT` it
    fits a portrait page at, else (where ``landscape``) a landscape page at, else the
    smallest.

    Parameters
    ----------
    columns : list of (int, int)
        Each column's natural and least width (:func:`table_columns`).
    landscape : bool, default True
        Whether a landscape page may be used.

    Returns
    -------
    dict
        ``wide`` (a landscape page) and ``size`` (points).
    """
    pages = [(False, PORTRAIT_PT), (True, LANDSCAPE_PT)] if landscape else [(False, PORTRAIT_PT)]
    for wide, page in pages:
        for size in SIZES_PT:
            if fits(columns, size, page):
                return {"wide": wide, "size": size}
    return {"wide": landscape, "size": SMALLEST_PT}


def portrait(table: dict[str, Any]) -> dict[str, Any]:
    """A table kept on a portrait page, its type made smaller (down to :data:`SMALLEST_PT`)
    to fit the page's width.

    Parameters
    ----------
    table : dict
        A table of :func:`gamecore.reporting.document.table_data`'s form.

    Returns
    -------
    dict
        The table, its ``size`` set for a portrait page.
    """
    columns = table_columns(table["columns"], table["rows"], table["align"])
    return {**table, "size": fit(columns, landscape=False)["size"]}


def grouped(body: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The body's items, runs of wide tables gathered so that they share landscape pages
    (one landscape page per small table left pages near empty), a short table just before a
    run set on its first page, and the tables after a run on its last page while it has
    room (:data:`LANDSCAPE_ROWS`).

    Parameters
    ----------
    body : list of dict
        The body's tables and figures, in order.

    Returns
    -------
    list of dict
        The items, each landscape run one item of kind ``"wide"`` holding its ``items``.
    """
    groups: list[dict[str, Any]] = []
    rows = 0  # of the landscape run being gathered
    for item in body:
        table = item["kind"] == "table"
        wide = table and item["wide"]
        landscape = bool(groups) and groups[-1]["kind"] == "wide"
        size = len(item["rows"]) + TITLE_ROWS if table else 0
        if table and landscape and (wide or rows + size <= LANDSCAPE_ROWS):
            groups[-1]["items"].append(item)
        elif wide:
            # A short table just before the run goes with it: left behind, it can be all
            # that is on the portrait page before the landscape ones.
            before = groups[-1] if groups else {}
            short = before.get("kind") == "table" and len(before["rows"]) <= SHORT_ROWS
            groups.append({"kind": "wide", "items": [groups.pop()] if short else []})
            groups[-1]["items"].append(item)
            rows = len(before["rows"]) + TITLE_ROWS if short else 0
        else:
            groups.append(item)
            continue
        rows += size
        if wide and rows > LANDSCAPE_ROWS:  # it runs onto more pages: the rows of its last
            rows %= LANDSCAPE_ROWS
    return groups


def page_widths(rows: list[list[str]], aligns: list[str], long_text: int) -> list[int] | None:
    """How a page-wide par-sheet table shares the page among its columns, or None where
    the typesetter's own measure of each column serves.

    A table whose first column holds text longer than ``long_text`` shares it by its
    columns' kinds, text three to a number's one (a verdict's "what is counted" in two
    lines, not five beside long numeric headings). A column of unbreakable words (one word a
    cell, the longest past :data:`UNBREAKABLE`: a file's SHA-256) keeps its natural width
    (0 here, ``auto`` in the template) and the others share the rest: measured with the
    others, it was set narrower than its words, which ran past the page.

    Parameters
    ----------
    rows : list of list of str
        The table's printed cells.
    aligns : list of str
        Each column's alignment (``"left"`` for text).
    long_text : int
        The first column's length, in characters, past which text takes three shares.

    Returns
    -------
    list of int or None
        Each column's shares of the page (0: its natural width), or None.
    """
    if not rows:
        return None
    keep = [
        all(len(cell.split()) <= 1 for cell in column) and max(map(len, column)) > UNBREAKABLE
        for column in zip(*rows, strict=True)
    ]
    if not any(keep) and not any(len(row[0]) > long_text for row in rows):
        return None
    return [0 if kept else (3 if a == "left" else 1) for kept, a in zip(keep, aligns, strict=True)]
