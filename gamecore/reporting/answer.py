"""What a report's HTML page leads with: the answer, before how it was found.

A reader opens a report for its figures: each wager's exact house edge, standard deviation
and hit frequency (the rows the index and the par sheet print, one source:
:func:`gamecore.reporting.frontmatter.wager_figures`), under the rule set they hold for. The
notebook then shows the rule card, its reading, the paytables and every table the figures
come from; the page puts this section first, right under its title, and marks a wager whose
house edge is negative (a pay table that favours the player).
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from gamecore.reporting import frontmatter

#: The section's heading.
HEADING = "The answer"


def answer_section(folder: Path, summary: dict[str, Any]) -> str:
    """The page's first section: each wager's figures from the report's hold monitoring
    table (else its key figures, as ``summary.json`` holds them) and its rule set.

    Parameters
    ----------
    folder : Path
        The report's folder (its ``hold_monitoring.csv`` and ``rules*.csv``).
    summary : dict
        Its ``summary.json``.

    Returns
    -------
    str
        An HTML ``<section>``; empty when the report has neither.
    """
    import pandas as pd

    holds = Path(folder) / "hold_monitoring.csv"
    rows = []
    if holds.exists():
        figures = frontmatter.wager_figures(pd.read_csv(holds))
        how = any(wager["how"] for wager in figures)  # each figure says how it was obtained
        for wager in figures:
            cells = [wager["wager"], wager["edge"], wager["sd"], wager["hit"]]
            cells += [wager["how"]] if how else []
            rows.append("".join(f"<td>{html.escape(c)}</td>" for c in cells))
        header = "<th>Wager</th><th>House edge</th><th>SD per round</th><th>Hit frequency</th>"
        header += f"<th>{frontmatter.HOW}</th>" if how else ""
    else:
        for name, value in (summary.get("figures") or {}).items():
            rows.append(f"<td>{html.escape(str(name))}</td><td>{html.escape(str(value))}</td>")
        header = "<th>Figure</th><th>Value</th>"
    if not rows:
        return ""
    rules = frontmatter.rules_line(folder)
    favoured = any(frontmatter.FAVOURS_PLAYER in row for row in rows)
    note = (
        f" A negative house edge ({frontmatter.FAVOURS_PLAYER}) is marked: that pay table "
        "loses money for the house."
        if favoured
        else ""
    )
    return (
        f"<section id='answer'><h2>{HEADING}</h2>"
        f"<p>The figures of one round under these rules: {html.escape(rules)}.{note} "
        "The sections below show how each is found and its simulated twin.</p>"
        f"<table><thead><tr>{header}</tr></thead><tbody>"
        + "".join(f"<tr>{row}</tr>" for row in rows)
        + "</tbody></table></section>"
    )
