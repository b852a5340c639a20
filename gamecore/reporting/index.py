"""The index page of a reports folder (``reports/index.html``), written as it is put in place
(:meth:`gamecore.reporting.finalize.Staging.commit`).

It is read on screen and on paper by a reviewer who sets reports side by side, so:

- every wager's exact house edge, SD and hit frequency comes with its report's decks and the
  parameters it was built with that are not its notebook's defaults, so figures of different
  parameter sets are never set side by side unmarked;
- each report's key figures are the text its ``summary.json`` holds, verbatim (the one source
  its PDF and par sheet also quote);
- each report's parameters are a Parameter | Value table, values printed in the report's
  number style (:mod:`gamecore.reporting.numbers`), the ones not at their default marked
  with the default beside them;
- the commit is shown to 12 characters, the full hash in its ``title``; the page says when it
  was built and each report when it was run;
- a print stylesheet keeps columns readable on an A4 page (no file lists, no squeezed
  columns, header rows repeated).
"""

from __future__ import annotations

import ast
import datetime
import html
import io
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gamecore.errors import GamecoreError, shown
from gamecore.reading import MAX_REPORT_TABLE_BYTES, path_text, read_bounded
from gamecore.reporting.finalize import FinalState
from gamecore.reporting.frontmatter import wager_figures
from gamecore.reporting.numbers import DASH, number_text

#: How many of a commit's hex digits the page shows (the full hash is in its title).
COMMIT_DIGITS = 12

_STYLE = (
    "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin-bottom:1em}"
    "td,th{border:1px solid #999;padding:.3em .4em;vertical-align:top;text-align:left}"
    "td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
    "table.inner td,table.inner th{border:none;border-bottom:1px solid #ddd;padding:.1em .3em}"
    ".changed{font-weight:bold}.note{font-size:.85em;color:#333}"
    "code{font-size:.9em}"
    "@media print{@page{size:A4 landscape;margin:12mm}body{margin:0;font-size:9pt}"
    "a{color:inherit;text-decoration:none}details{display:none}.print-only{display:inline}"
    "thead{display:table-header-group}tr{break-inside:avoid}h2{break-after:avoid}}"
    "@media screen{.print-only{display:none}}"
)


#: How the index prints a time (UTC, to the minute).
TIME_FORMAT = "%Y-%m-%d %H:%M UTC"
#: What precedes the page's build time on the page.
BUILT_PREFIX = "Index built "


def stated_build_time(page: str) -> datetime.datetime | None:
    """The build time an index page states (what :func:`index_page` was given).

    Parameters
    ----------
    page : str
        The page's HTML.

    Returns
    -------
    datetime or None
        The time (UTC, to the minute); None when the page states none.
    """
    found = re.search(rf"<p>{BUILT_PREFIX}(\d{{4}}-\d\d-\d\d \d\d:\d\d UTC)\.</p>", page)
    if found is None:
        return None
    return datetime.datetime.strptime(found.group(1), TIME_FORMAT).replace(tzinfo=datetime.UTC)


def notebook_defaults(notebooks: Mapping[str, Path]) -> dict[str, dict[str, Any]]:
    """Each notebook's parameter defaults, as its cell tagged ``parameters`` sets them.

    Parameters
    ----------
    notebooks : mapping of str to Path
        Report name -> its notebook.

    Returns
    -------
    dict
        Report name -> parameter -> default value; a default that is not a Python literal
        is left out (its parameter is then never marked as changed).
    """
    import papermill

    defaults = {}
    for name, path in notebooks.items():
        declared = papermill.inspect_notebook(str(path))
        values = {}
        for parameter, spec in declared.items():
            try:
                values[parameter] = ast.literal_eval(spec["default"])
            except (ValueError, SyntaxError, TypeError, KeyError):
                continue
        values.pop("output_dir", None)
        defaults[name] = values
    return defaults


def parameter_text(value: Any, name: str = "") -> str:
    """A parameter's value as the index prints it: numbers in the report's style (integers
    with thousands separators, a seed as it is typed), lists comma-separated, ``yes``/``no``,
    a dash for ``None``; never a JSON or Python literal.

    Parameters
    ----------
    value : Any
        The value, as ``summary.json`` holds it.
    name : str, optional
        The parameter's name (a seed is an identifier, not a quantity: no separators).

    Returns
    -------
    str
        The text (not yet HTML-escaped).
    """
    if name == "limits" and value is not None:  # its file, jurisdiction and SHA-256
        from gamecore.limits import described

        return described(value)
    if value is None:
        return DASH
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) and "seed" in name:
        return str(value)
    if isinstance(value, int | float):
        return number_text(value, "number")
    if isinstance(value, list | tuple):
        return ", ".join(parameter_text(item) for item in value) if value else DASH
    if isinstance(value, dict):
        return "; ".join(f"{k} {parameter_text(v)}" for k, v in value.items()) or DASH
    return str(value)


def changed_parameters(parameters: Mapping[str, Any], defaults: Mapping[str, Any]) -> list[str]:
    """The parameters whose value is not their notebook's default, in the report's order.

    Parameters
    ----------
    parameters : mapping
        The report's parameters (``summary.json``).
    defaults : mapping
        Its notebook's defaults (:func:`notebook_defaults`); one not known is not marked.

    Returns
    -------
    list of str
        The names of the changed parameters.
    """
    return [k for k, v in parameters.items() if k in defaults and defaults[k] != v]


def commit_html(commit: Any) -> str:
    """A commit as the page shows it: its first :data:`COMMIT_DIGITS` digits, the whole hash
    in the element's ``title`` (a dash when the report has none).

    Parameters
    ----------
    commit : Any
        The commit ``summary.json`` records.

    Returns
    -------
    str
        HTML.
    """
    text = str(commit or "")
    if not text:
        return DASH
    full = html.escape(text, quote=True)
    return f"<code title='{full}'>{html.escape(text[:COMMIT_DIGITS])}</code>"


def _started(folder: Path) -> str:
    """When the report was run (its provenance table's start, to the minute, UTC)."""
    path = folder / "provenance.csv"
    if not path.exists():
        return ""
    import pandas as pd

    try:
        data = read_bounded(path, MAX_REPORT_TABLE_BYTES, path_text(path))
        items = pd.read_csv(io.BytesIO(data), dtype=str).set_index("Item")["Value"]
        started = datetime.datetime.fromisoformat(str(items["started (UTC)"]))
    except (GamecoreError, ValueError, KeyError, TypeError):
        return ""
    return started.astimezone(datetime.UTC).strftime(TIME_FORMAT)


def _parameter_set(entry: dict[str, Any], defaults: Mapping[str, Any]) -> str:
    """A report's parameters not at their default, as one line (``all defaults`` if none)."""
    parameters = entry.get("parameters", {})
    changed = changed_parameters(parameters, defaults)
    if not changed:
        return "all defaults" if defaults and parameters else ""
    return "not default: " + ", ".join(
        f"{html.escape(k)} {html.escape(parameter_text(parameters[k], k))}" for k in changed
    )


def wager_rows(folder: Path, entry: dict[str, Any], defaults: Mapping[str, Any]) -> list[str]:
    """The index's rows for one report's wagers: its hold-monitoring table's first session
    length (each wager's exact house edge, SD and hit frequency, a strategy in its name,
    printed as its par sheet prints them: :func:`~gamecore.reporting.frontmatter.wager_figures`),
    the report's decks and changed parameters in its first cells. The table is read
    bounded, as any file in the folder; one the index cannot read (a report another build
    left, then altered) is a row saying so, not a build that fails.

    Parameters
    ----------
    folder : Path
        The report's folder.
    entry : dict
        Its ``summary.json``.
    defaults : mapping
        Its notebook's parameter defaults.

    Returns
    -------
    list of str
        HTML table rows (none when the report has no hold-monitoring table).
    """
    path = folder / "hold_monitoring.csv"
    if not path.exists():
        return []
    import pandas as pd

    decks = entry.get("parameters", {}).get("decks")
    game = (
        f"{html.escape(entry.get('title', entry['name']))}"
        f"<br><span class='note'>{_parameter_set(entry, defaults)}</span>"
    )
    head = f"<td>{game}</td><td class='n'>{html.escape(parameter_text(decks))}</td>"
    try:
        data = read_bounded(path, MAX_REPORT_TABLE_BYTES, path_text(path))
        holds = pd.read_csv(io.BytesIO(data))
        if "SD per round" not in holds.columns:  # a report built before the column existed
            return []
        rows = [
            f"<td>{html.escape(w['wager'])}</td><td class='n'>{w['edge']}</td>"
            f"<td class='n'>{w['sd']}</td><td class='n'>{w['hit']}</td>"
            for w in wager_figures(holds)
        ]
    except (GamecoreError, ValueError, KeyError, TypeError) as error:
        why = html.escape(shown(str(error)))
        rows = [f"<td colspan='4'>hold monitoring unreadable: {why}</td>"]
    span = f" rowspan='{len(rows)}'" if len(rows) > 1 else ""
    head = head.replace("<td", f"<td{span}") if span else head
    return [f"<tr>{head}{rows[0]}</tr>"] + [f"<tr>{row}</tr>" for row in rows[1:]]


def parameter_table(parameters: Mapping[str, Any], defaults: Mapping[str, Any]) -> str:
    """A report's parameters as a Parameter | Value table, each value not at its default
    marked (bold, the default beside it).

    Parameters
    ----------
    parameters : mapping
        The report's parameters (``summary.json``).
    defaults : mapping
        Its notebook's defaults (:func:`notebook_defaults`).

    Returns
    -------
    str
        HTML.
    """
    changed = set(changed_parameters(parameters, defaults))
    rows = []
    for key, value in parameters.items():
        text = html.escape(parameter_text(value, key))
        if key in changed:
            default = html.escape(parameter_text(defaults[key], key))
            rows.append(
                f"<tr class='changed'><td>{html.escape(str(key))}</td><td>{text}</td>"
                f"<td class='note'>default {default}</td></tr>"
            )
        else:
            rows.append(f"<tr><td>{html.escape(str(key))}</td><td>{text}</td><td></td></tr>")
    return (
        "<table class='inner'><thead><tr><th>Parameter</th><th>Value</th><th></th></tr>"
        f"</thead>{''.join(rows)}</table>"
    )


def _files(name: str, folder: Path, entry: dict[str, Any]) -> str:
    """A report's links (page, PDF, workbook, notebook) and its list of files."""
    links = [f"<a href='{name}/{name}.html'>report</a>"]
    for suffix, label in ((".pdf", "PDF"), (".xlsx", "workbook"), (".ipynb", "notebook")):
        if (folder / f"{name}{suffix}").exists():
            links.append(f"<a href='{name}/{name}{suffix}'>{label}</a>")
    files = entry.get("files", [])
    listing = ""
    if files:
        each = "<br>".join(f"<a href='{name}/{html.escape(f)}'>{html.escape(f)}</a>" for f in files)
        listing = (
            f"<details><summary>{len(files)} tables and figures</summary>{each}</details>"
            f"<span class='print-only'><br>{len(files)} tables and figures in {name}/</span>"
        )
    return ", ".join(links) + listing


def report_row(name: str, folder: Path, entry: dict[str, Any], defaults: Mapping) -> str:
    """One report's row: its title, key figures (``summary.json``'s text, verbatim), its
    parameters, its files, when it was run and its commit.

    Parameters
    ----------
    name : str
        The report's name (its folder's).
    folder : Path
        Where its folder is now.
    entry : dict
        Its ``summary.json``.
    defaults : mapping
        Its notebook's parameter defaults.

    Returns
    -------
    str
        An HTML table row.
    """
    figures = "".join(
        f"<tr><td>{html.escape(str(k))}</td><td class='n'>{html.escape(str(v))}</td></tr>"
        for k, v in entry.get("figures", {}).items()
    )
    started = _started(folder)
    return (
        "<tr>"
        f"<td><a href='{name}/{name}.html'>{html.escape(entry.get('title', name))}</a></td>"
        f"<td><table class='inner'>{figures}</table></td>"
        f"<td>{parameter_table(entry.get('parameters', {}), defaults)}</td>"
        f"<td>{_files(name, folder, entry)}</td>"
        f"<td>{html.escape(started) or DASH}<br>{commit_html(entry.get('commit'))}</td>"
        "</tr>"
    )


def index_page(
    state: FinalState,
    defaults: Mapping[str, Mapping[str, Any]] | None = None,
    built_at: datetime.datetime | None = None,
) -> str:
    """The index: every wager's house edge and SD across the reports (each with its
    parameter set), then a row per report with its key figures, its parameters as a table,
    its files, when it was run and its commit.

    Parameters
    ----------
    state : FinalState
        The reports folder as it will stand.
    defaults : mapping, optional
        Report name -> its notebook's parameter defaults (:func:`notebook_defaults`); without
        them no parameter is marked as changed.
    built_at : datetime, optional
        The page's build time (default: now).

    Returns
    -------
    str
        The HTML page.
    """
    defaults = defaults or {}
    built_at = built_at or datetime.datetime.now(datetime.UTC)
    built = built_at.astimezone(datetime.UTC).strftime(TIME_FORMAT)
    wagers, rows = [], []
    for name, (folder, entry) in state.reports.items():
        wagers += wager_rows(folder, entry, defaults.get(name, {}))
        rows.append(report_row(name, folder, entry, defaults.get(name, {})))
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>gamecore reports</title><style>{_STYLE}</style></head><body>"
        f"<h1>gamecore reports</h1><p>{BUILT_PREFIX}{built}.</p>"
        "<h2>Every wager</h2><p>Each wager's house edge (the house's or the P/D's expected "
        "win per unit wagered), standard deviation per round and hit frequency (the chance "
        "the player's wager wins a round), exact, from each report's hold monitoring; the "
        "strategy assumed is in the wager's name. Each game's decks and the parameters it "
        "was built with that are not its notebook's defaults are beside it: figures of "
        "different parameter sets are not comparable.</p>"
        "<table><thead><tr><th>Game</th><th>Decks</th><th>Wager</th><th>House edge</th>"
        "<th>SD per round</th><th>Hit frequency</th></tr></thead>"
        + "".join(wagers)
        + "</table><h2>Reports</h2><p>Each report: its page, its PDF and par sheet, its "
        "workbook (every table as a sheet), the executed notebook, every table as CSV and "
        "every figure as PNG in its folder; MANIFEST.json holds every file's SHA-256 "
        "(gamecore verify). Key figures are the report's own (its summary.json); parameters "
        "in bold are not their default.</p>"
        "<table><thead><tr><th>Game</th><th>Key figures</th><th>Parameters</th><th>Files</th>"
        "<th>Run / commit</th></tr></thead>" + "".join(rows) + "</table></body></html>\n"
    )
