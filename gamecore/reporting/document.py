"""``reports/<name>/<name>.pdf`` and ``<name>_par_sheet.pdf``: a report as a typeset document
a regulator can file, and its one-page par sheet.

Typst (the ``typst`` wheel bundles the compiler and its fonts: pip alone installs it, no
TeX, no browser) typesets one fixed template (:data:`TEMPLATE`) from data this module reads
off the report's own files: every CSV the HTML page shows, every PNG, ``summary.json``,
``provenance.csv``, the rule card and the readings of RULES.md. So the document holds the same
tables as the page (one source of truth), each paginated with its header repeated, printed
in the one number style of :mod:`gamecore.reporting.numbers` (the HTML page's too).

The par sheet is the page a regulator puts in the file, at the front of the document and on
its own: its front matter (:mod:`gamecore.reporting.frontmatter`: game, rule card and the
SHA-256 of its text, strategy assumed, gamecore version and commit, build date, the rule set
and the parameters); for each wager its house edge, SD, hit frequency (the chance it wins a
round), and the hold's 95% band after 10,000 and 1,000,000 rounds (from the report's hold
monitoring); each bet's Outcome | Pays | Combinations | Probability | Return table where the
report has one; a glossary, the number style stated, and an attestation block (prepared by,
reviewed by: name, date, signature). One page where it fits; a longer one (the side bets'
twenty-odd bets) runs onto the pages it needs at the same type size, never scaled down, each
table kept with its title.

Each exact-vs-simulated check of the report (every CSV whose columns start with
:data:`gamecore.twins.TWIN_COLUMNS`) is stated as a line with its criterion and PASS or FAIL
(:func:`gamecore.reporting.frontmatter.cross_check_line`) in a Cross-checks section after the
par sheet, and on the par sheet too where the lines fit its page (else their count and
verdicts in one line). Where a check sweeps rule variants or deck counts, the section also
holds its table, a row per variant and figure with its own verdict
(:func:`gamecore.reporting.frontmatter.variant_table`).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

import pandas as pd

import gamecore
from gamecore import games as registry
from gamecore.reporting import cardlayout, frontmatter, glossary, layout, numbers, titles
from gamecore.reporting.report import rule_card

#: Tables set apart from the body: the rule set up front, the provenance at the end.
FRONT_TABLES = ("rules", "dealing")
BACK_TABLES = ("provenance",)
#: The hold monitoring's bound on each end of a 95% band (:mod:`gamecore.hold`).
BAND_BOUND = "95% band bound (±)"
#: Tables of settings, not figures (a bank's stake, how cards are dealt, a chart's letters):
#: nothing is obtained, so no note says how.
SETTINGS = ("table_bank", "table_dealing", "strategy_chart")
#: The table of each wager against a limits file's limits (``limits.csv``), on the par sheet
#: under the wagers.
LIMITS = "limits"
#: The tables a par sheet shows after each bet's ``bet_*.csv``, where the report has them
#: (each titled by :func:`gamecore.reporting.titles.title`): the player's net results where
#: a game's wager is one player-banked bet, the P/D's edge and the collection, a counting
#: study's verdicts, and the side bets' definitions with their SHA-256.
#: Each with the columns it shows there (None: all).
PAR_TABLES = {
    "result_distribution": (
        "Net result", "Outcome", "Probability", "Probability bound (±)", "Return",
        "Return bound (±)",
    ),
    "pd_edge": None,
    "countability": None,
    "definitions": None,
}

#: A par-sheet table whose first column holds text longer than this shares the page's width
#: by its columns' kinds (text three to a number's one), not by Typst's measure of each.
LONG_TEXT = 40
#: What a par sheet says under a table of :data:`PAR_TABLES` whose columns it shortened.
PAR_NOTES = {
    "result_distribution": (
        "A probability with a bound above 0 takes in rounds resplit to 3 or 4 hands, whose "
        "hands are combined as independent given the P/D's final total: it is within ± its "
        "bound whatever their dependence. Every other figure is exact (a float64 "
        "recursion). The report's table also splits each row into rounds not split, split "
        "once and resplit."
    ),
}

#: The Typst template every report's document and par sheet is typeset from (package data).
TEMPLATE = "document.typ"


def _title(stem: str) -> str:
    """A table's or figure's title (:func:`gamecore.reporting.titles.title`)."""
    return titles.title(stem)


def report_title(summary: dict[str, Any], name: str) -> str:
    """A report's title, on its PDF and its HTML page: its ``summary.json``'s, else its
    name in words.

    Parameters
    ----------
    summary : dict
        The report's ``summary.json`` (empty where it has none).
    name : str
        The report's name.

    Returns
    -------
    str
        The title.
    """
    return summary.get("title") or _title(name)


def table_data(
    path: Path, title: str | None = None, columns: tuple[str, ...] | None = None
) -> dict[str, Any]:
    """One CSV as the template's table: title, columns, alignments, rows of printed cells,
    and whether it is too wide for a portrait page.

    Parameters
    ----------
    path : Path
        The CSV file.
    title : str, optional
        The table's title (default: made from the file's name).
    columns : tuple of str, optional
        The columns shown, those of them the CSV has (default: all).

    Returns
    -------
    dict
        ``kind`` ("table"), ``title``, ``columns``, ``align``, ``rows``, ``short`` (a few
        rows: kept on one page), ``wide`` (set on landscape pages) and ``size`` (points).
    """
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    if columns is not None:
        frame = frame[[c for c in columns if c in frame.columns]]
    headers = [numbers.plain_text(str(c)) for c in frame.columns]
    rows, aligns = numbers.format_table([str(c) for c in frame.columns], frame.values.tolist())
    columns = layout.table_columns(headers, rows, aligns)
    if len(rows) == 1 and not layout.fits(columns, layout.TYPE_PT, layout.PORTRAIT_PT):
        # One row too wide for the page at full size reads down it, a line per column.
        rows = [list(line) for line in zip(headers, rows[0], strict=True)]
        headers, aligns = ["Column", "Value"], ["left", "right"]
        columns = layout.table_columns(headers, rows, aligns)
    return {
        "kind": "table",
        "title": title or _title(path.stem),
        "columns": headers,
        "align": aligns,
        "rows": rows,
        "short": len(rows) <= layout.SHORT_ROWS,
        **layout.fit(columns),
    }


def readings(game: str) -> str:
    """The section of RULES.md that reads ``game``'s card.

    Parameters
    ----------
    game : str
        A game's code name (the section's heading).

    Returns
    -------
    str
        The section, from its heading to the next; empty where there is none.
    """
    text = resources.files("gamecore.rulecards").joinpath("RULES.md").read_text("utf-8")
    match = re.search(rf"^## {re.escape(game)}\b.*?(?=^## |\Z)", text, re.S | re.M)
    return match.group(0).strip() if match else ""


def _percent(value: float) -> str:
    return numbers.number_text(float(value), "percent")


def _par_data(folder: Path, order: list[str]) -> dict[str, Any]:
    """The par sheet: each wager's edge, SD, hit frequency and hold bands; the bet tables (in
    the report's ``order`` of its files, those it does not list after them, by name)."""
    wagers = {"kind": "table", "title": "Wagers", "columns": [], "align": [], "rows": []}
    holds_path = folder / "hold_monitoring.csv"
    if holds_path.exists():
        holds = pd.read_csv(holds_path)
        rows = []
        for figures in frontmatter.wager_figures(holds):  # as the index prints them
            by_rounds = holds[holds["Wager"] == figures["wager"]].set_index("Rounds")

            def band(n: int, by_rounds=by_rounds) -> str:
                if n not in by_rounds.index:
                    return ""
                low = by_rounds.loc[n, "95% band, low (normal approximation)"]
                high = by_rounds.loc[n, "95% band, high (normal approximation)"]
                text = f"{_percent(low)} to {_percent(high)}"
                bound = float(by_rounds.loc[n].get(BAND_BOUND, 0.0))
                return f"{text}, each ± {_percent(bound)}" if bound > 0 else text

            rows.append([
                figures["wager"], figures["edge"], figures["sd"], figures["hit"],
                band(10_000), band(1_000_000), figures["how"],
            ])  # fmt: skip
        wagers.update(
            columns=["Wager (strategy)", "House edge", "SD", "Hit frequency",
                     "Hold, 95% band, 10,000 rounds", "Hold, 95% band, 1,000,000 rounds",
                     frontmatter.HOW],
            align=["left", "right", "right", "right", "right", "right", "left"], rows=rows,
        )  # fmt: skip
    bets = []
    found = sorted(p.name for p in folder.glob("bet_*.csv"))
    for path in [folder / f for f in dict.fromkeys([f for f in order if f in found] + found)]:
        stem = path.stem.removeprefix("bet_")
        bets.append({"title": _title(stem), "table": compact(table_data(path))})
    for stem, shown in PAR_TABLES.items():
        if (folder / f"{stem}.csv").exists():
            table = compact(table_data(folder / f"{stem}.csv", columns=shown))
            if stem in PAR_NOTES:
                table["note"] = " ".join(filter(None, [PAR_NOTES[stem], table.get("note")]))
            # Page-wide: text wider than numbers, a column of unbreakable words kept whole.
            if (widths := layout.page_widths(table["rows"], table["align"], LONG_TEXT)) is not None:
                table["widths"] = widths
            bets.append({"title": _title(stem), "table": table, "full": True})
    note = "Every figure here is in the report's tables and its workbook."
    limits = None
    if (folder / f"{LIMITS}.csv").exists():
        limits = compact(table_data(folder / f"{LIMITS}.csv", _title(LIMITS)))
    return {"wagers": compact(wagers), "bets": bets, "limits": limits, "note": note}


def _zero(cell: str) -> bool:
    """Whether a printed cell is the number 0 (``0``, ``0.0000%``)."""
    value = numbers.parse(cell.replace("%", "").replace(",", ""))
    return value == 0


def compact(table: dict[str, Any]) -> dict[str, Any]:
    """A par sheet's table without what need not be printed on every row: a column empty in
    every row is left out (a limits table with no limits file), and a bound that is 0 in
    every row is said once (every figure exact); how each figure was obtained
    is stated under the table, once for every row that says the same (each row marked with
    its text's letter where the rows differ).

    Parameters
    ----------
    table : dict
        A table as :func:`table_data` makes it (``columns``, ``align``, ``rows``).

    Returns
    -------
    dict
        The same table, those columns removed; ``note`` the sentence stated under it
        (empty when none is).
    """
    rows, keep, notes = [list(row) for row in table["rows"]], [], []
    for at, column in enumerate(table["columns"]):
        cells = list(dict.fromkeys(row[at] for row in rows))
        if rows and set(cells) <= {"", numbers.DASH}:
            continue
        if column.endswith("bound (±)") and all(_zero(cell) for cell in cells):
            notes.append(f"{column.removesuffix(' (±)')}: 0 in every row (exact).")
            continue
        if column == frontmatter.HOW and len(cells) == 1:
            notes.append(f"How obtained, every row: {cells[0]}.")
            continue
        if column == frontmatter.HOW:  # each text once, under the table; a letter per row
            letters = {text: "abcdefghijklmnopqrstuvwxyz"[i] for i, text in enumerate(cells)}
            notes += [f"({letter}) {text}." for text, letter in letters.items()]
            for row in rows:
                row[at] = f"({letters[row[at]]})"
        keep.append(at)
    shown = {
        **table,
        "columns": [table["columns"][at] for at in keep],
        "align": [table["align"][at] for at in keep],
        "rows": [[row[at] for at in keep] for row in rows],
        "note": " ".join(notes),
    }
    if "wide" in table and len(keep) < len(table["columns"]):  # fewer columns: size it again
        columns = layout.table_columns(shown["columns"], shown["rows"], shown["align"])
        shown.update(layout.fit(columns))
    return shown


def _sheet_terms(par: dict[str, Any]) -> tuple[set[str], set[str]]:
    """Every column heading the par sheet prints, and every payout its bet tables print."""
    tables = [par["wagers"], *(bet["table"] for bet in par["bets"])]
    tables += [par["limits"]] if par["limits"] else []
    columns = {str(c) for t in tables for c in t["columns"]}
    if any(frontmatter.HOW in t.get("note", "") or "(a)" in t.get("note", "") for t in tables):
        columns.add(frontmatter.HOW)  # stated under its table rather than in a column
    pays = set()
    for table in tables:
        if "Pays" in table["columns"]:
            at = table["columns"].index("Pays")
            pays |= {row[at] for row in table["rows"] if row[at] and row[at] != "-"}
    return columns, pays


def revision(data: dict[str, Any]) -> str:
    """The par sheet's revision: the first 12 hex digits of the SHA-256 of everything it
    states but when it was built (its rule set, parameters, figures, checks and rule cards),
    so the same figures give the same revision and any change a new one.

    Parameters
    ----------
    data : dict
        The document's data (:func:`document_data`), before its revision is set.

    Returns
    -------
    str
        Twelve lower-case hex digits.
    """
    stated = {k: data[k] for k in ("front_matter", "par", "checks", "rules_line", "version")}
    text = json.dumps(stated, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


#: What the revision is, where the sheet prints it.
REVISION_NOTE = (
    "the SHA-256 of every rule, parameter, figure and check stated here, its first 12 hex "
    "digits: the same figures give the same revision"
)


def attestation(name: str, title: str, version: str, built: str, rev: str) -> list[str]:
    """The statements the preparer and the reviewer sign.

    Parameters
    ----------
    name, title : str
        The report's name and title.
    version, built, rev : str
        gamecore's version, the build date and the par sheet's revision.

    Returns
    -------
    list of str
        The preparer's statement, then the reviewer's.
    """
    sheet = f"the par sheet of {title} (report {name}, revision {rev}, gamecore {version}"
    sheet += f", built {built})" if built else ")"
    return [
        f"Prepared by: I built {sheet} with gamecore from the rule set it states and checked "
        "the report's folder with gamecore verify, which confirmed every file against a rerun.",
        f"Reviewed by: I have reviewed {sheet}: its rule set against the rule card and its "
        "readings, each wager's figures and how each was obtained, the cross-checks against "
        "simulation and the limits it states; I attest that it states the mathematics of the "
        "game under that rule set.",
    ]


def _utc(started: str) -> datetime.datetime | None:
    """``started (UTC)`` as a time in UTC, ``None`` where it is not an ISO 8601 date."""
    try:
        return datetime.datetime.fromisoformat(started).astimezone(datetime.UTC)
    except (TypeError, ValueError):
        return None


def pdf_date(started: str) -> dict[str, int] | None:
    """The PDF's creation date: the build's start as provenance records it, so typesetting
    the same files again gives the same bytes (typst's default is the time of typesetting).

    Parameters
    ----------
    started : str
        ``started (UTC)`` from ``provenance.csv`` (ISO 8601), or empty.

    Returns
    -------
    dict or None
        year, month, day, hour, minute, second (UTC); None (no date in the PDF) when
        ``started`` is not a date.
    """
    when = _utc(started)
    if when is None:
        return None
    return {
        "year": when.year, "month": when.month, "day": when.day,
        "hour": when.hour, "minute": when.minute, "second": when.second,
    }  # fmt: skip


def shown_date(started: str) -> str:
    """The build's start as a page prints it: ``2026-12-07 14:23 UTC``.

    Parameters
    ----------
    started : str
        ``started (UTC)`` from ``provenance.csv`` (ISO 8601), or empty.

    Returns
    -------
    str
        The date and time in UTC to the minute; ``started`` as it is when not a date.
    """
    when = _utc(started)
    return started if when is None else when.strftime("%Y-%m-%d %H:%M UTC")


def _figures_obtained(name: str, summary: dict[str, Any]) -> dict[str, str]:
    """How each table's figures were obtained, where the report's games say it
    (:attr:`gamecore.game.Game.figures_obtained`: blackjack's float64 recursion): every
    table the report does not mark simulated or as a twin table, by file name."""
    stated = {registry.game(g).figures_obtained for g in registry.report_games(name)}
    if len(stated) != 1 or None in stated:
        return {}
    [how] = stated
    marks = (summary.get("tables") or {}).get("simulated_columns") or {}
    return {file: how for file, marked in marks.items() if not marked}


def _cards_data(games: tuple[str, ...]) -> dict[str, Any]:
    """The rule cards a report quotes (laid out as their text reads) and their readings."""
    return {
        "cards": [
            {"game": g, "lines": cardlayout.card_lines(rule_card(g)), "layout": CARD_LAYOUT,
             **frontmatter.card_entry(g)}
            for g in games
            if g in registry.rule_cards()
        ],  # fmt: skip
        "readings": [
            {"game": g, "blocks": cardlayout.markdown_blocks(readings(g))}
            for g in games
            if readings(g)
        ],
        "no_card": NO_CARD,
        "cards_heading": (
            "The rule card, as received"
            if all(registry.game(g).rule_card_received for g in games)
            else "The rule card"
        ),
    }


def document_data(folder: Path, name: str) -> dict[str, Any]:
    """Everything the template typesets, read off the report folder.

    Parameters
    ----------
    folder : Path
        The report's folder (its tables, figures and ``summary.json``).
    name : str
        The report's name.

    Returns
    -------
    dict
        The title, the rules line, version and commit, the par sheet, the front tables,
        the rule cards and their readings, the body (tables and figures in the order
        written) and the back tables.
    """
    folder = Path(folder)
    summary_path = folder / "summary.json"
    summary = json.loads(summary_path.read_text("utf-8")) if summary_path.exists() else {}
    order = summary.get("files_in_order") or summary.get("files") or []
    present = [f for f in order if (folder / f).is_file()]
    front, body = [], []
    obtained = _figures_obtained(name, summary)
    for file in present:
        path = folder / file
        if path.suffix == ".png":
            body.append({"kind": "figure", "title": _title(path.stem), "file": file})
        elif path.suffix == ".csv" and path.stem not in BACK_TABLES:
            table = table_data(path)
            if path.stem in FRONT_TABLES or path.stem.startswith("rules"):
                front.append(table)
            else:
                table = compact(table)  # what every row says alike, once under the table
                states = path.stem not in SETTINGS and frontmatter.HOW not in table["columns"]
                if file in obtained and states:
                    table["note"] = f"How obtained: {obtained[file]}. {table['note']}".strip()
                body.append(table)
    games = registry.report_games(name)  # the rule cards and RULES.md sections it quotes
    provenance = folder / "provenance.csv"
    commit, built, back = "", "", []
    if provenance.exists():  # read whether or not summary.json lists it
        rows = frontmatter.provenance_rows(provenance)
        items = dict((row[0], row[1]) for row in rows)
        commit, built = items.get("git commit", ""), items.get("started (UTC)", "")
        back.append({"kind": "table", "title": "Provenance", "columns": ["Item", "Value"],
                     "align": ["left", "left"], "rows": rows, "wide": False})  # fmt: skip
    par = _par_data(folder, present)
    columns, pays = _sheet_terms(par)
    front_matter = frontmatter.front_matter(folder, name, summary)
    front_matter["glossary"] = glossary.glossary(registry.report_games(name), columns, pays)
    data = {
        "only_par_sheet": False,
        "name": name,
        "title": report_title(summary, name),
        "subtitle": f"gamecore report {name}",
        "rules_line": frontmatter.rules_line(folder),
        "version": gamecore.__version__,
        "commit": commit,
        "date": shown_date(built),
        "pdf_date": pdf_date(built),
        "front_matter": front_matter,
        "par": par,
        **_checks_data(folder, present or sorted(p.name for p in folder.glob("*.csv"))),
        "front": front,
        **_cards_data(games),
        "body": layout.grouped(body),
        "back": back,
    }
    data["revision"] = revision(data)
    data["revision_note"] = REVISION_NOTE
    data["attestation"] = attestation(
        name, data["title"], data["version"], data["date"], data["revision"]
    )
    return data


#: How a rule card is laid out on the page (:mod:`gamecore.reporting.cardlayout`).
CARD_LAYOUT = (
    "Laid out as its text reads: each table row and each sentence on one line, runs of blank "
    "lines as one; the words are the card's, unchanged."
)

#: What the rule card's section says for a game no rule card was received for.
NO_CARD = (
    "No rule card belongs to this report: its rules are the rule set above, each a named "
    "parameter with the value this report used."
)

#: What the Cross-checks section says before its lines.
CHECKS_NOTE = (
    "Each simulated figure of the report against its exact twin: z = (Simulated - Exact) / SE. "
    "A check passes when its largest |z| is within 4 standard errors (|z| above 4 happens by "
    "chance once in about 16,000 runs), the threshold raised for a table of many twins until "
    "the whole table is as unlikely to cross it by chance as one figure is to cross 4 "
    "(family-wise, Bonferroni). Twins of approximate figures are shown in their tables but "
    "not ruled."
)


def _checks_data(folder: Path, files: list[str]) -> dict[str, Any]:
    """The cross-check lines (each split before its verdict, which is set in bold), the
    section's note and the par sheet's one-line summary of them."""
    checks = frontmatter.cross_checks(folder, files)
    for check in checks:
        ends = check["text"].endswith(check["verdict"])  # not "n/a": no twin to compare
        check["bold"] = check["verdict"] if ends else ""
        check["lead"] = check["text"].removesuffix(check["bold"])
    failed = [c["name"] for c in checks if c["verdict"] == "FAIL"]
    passed = sum(c["verdict"] == "PASS" for c in checks)
    summary = (
        f"{len(checks)} checks, each stated with its criterion in the report's Cross-checks "
        f"section: {passed} PASS"
    )
    if failed:
        summary += f", {len(failed)} FAIL ({', '.join(failed)})"
    variants = [frontmatter.variant_table(folder, c["name"]) for c in checks]
    return {
        "checks": checks,
        "checks_note": CHECKS_NOTE,
        "checks_summary": summary + ".",
        "variants": [layout.portrait(t) for t in variants if t],
    }


def write_documents(folder: Path, name: str) -> tuple[Path, Path]:
    """Typeset ``<name>.pdf`` and ``<name>_par_sheet.pdf`` into the report ``folder``.

    Parameters
    ----------
    folder : Path
        The report's folder (its tables, figures and ``summary.json``).
    name : str
        The report's name.

    Returns
    -------
    tuple of (Path, Path)
        The document and the par sheet.
    """
    import typst

    folder = Path(folder)
    data = document_data(folder, name)
    template = folder / ".document.typ"
    template.write_text(
        resources.files("gamecore.reporting").joinpath(TEMPLATE).read_text("utf-8"), "utf-8"
    )
    document, par_sheet = folder / f"{name}.pdf", folder / f"{name}_par_sheet.pdf"
    try:
        typst.compile(
            str(template), output=str(document), root=str(folder),
            sys_inputs={"data": json.dumps(data)},
        )  # fmt: skip
        typst.compile(
            str(template), output=str(par_sheet), root=str(folder),
            sys_inputs={"data": json.dumps({**data, "only_par_sheet": True})},
        )  # fmt: skip
    finally:
        template.unlink(missing_ok=True)
    return document, par_sheet
