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
twelve bets) runs onto the pages it needs at the same type size, never scaled down, each
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
import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

import pandas as pd

import gamecore
from gamecore import games as registry
from gamecore.reporting import frontmatter, layout, numbers
from gamecore.reporting.report import rule_card

#: Tables set apart from the body: the rule set up front, the provenance at the end.
FRONT_TABLES = ("rules", "dealing")
BACK_TABLES = ("provenance",)
#: The titles of bet tables (``bet_<stem>.csv``) that their stem does not say: the player's
#: wager of a player-banked game, named by the strategies it assumes.
BET_TITLES = {
    "house_way": "Player, House Way against House Way (heads-up)",
    "equilibrium": "Player, equilibrium (heads-up)",
}
#: The tables a par sheet shows after each bet's ``bet_*.csv``, where the report has them:
#: the player's net results where a game's wager is one player-banked bet, the P/D's edge
#: and the collection, and a counting study's verdicts.
PAR_TABLES = {
    "result_distribution": "Player on the chart: each net result of a round",
    "pd_edge": "The P/D's edge and the collection",
    "countability": "Countable? Each counter's gain against 4 standard errors",
}

TEMPLATE = r"""
#let data = json(bytes(sys.inputs.data))
#set document(title: data.title, date: if data.pdf_date == none { none } else {
  datetime(..data.pdf_date)
})
#set text(size: 9pt)
#set par(justify: false)
#set heading(numbering: "1.1")
#show heading: set block(above: 1.2em, below: 0.6em, sticky: true)
#let grid-table(t, size: auto) = {
  set text(size: if size == auto { t.at("size", default: 8) * 1pt } else { size })
  table(
    columns: t.columns.len(),
    align: t.align.map(a => if a == "right" { right } else { left }),
    stroke: 0.4pt + luma(160),
    inset: (x: 3pt, y: 2pt),
    table.header(repeat: true, ..t.columns.map(c => strong(c))),
    ..t.rows.flatten(),
  )
}
// A short table (layout.SHORT_ROWS) is never broken across pages (one row alone on a page,
// under its repeated header, read as a page near empty): it moves whole to the next page.
#let body-table(t) = if t.short { block(breakable: false, grid-table(t)) } else {
  grid-table(t)
}
#let spans(s) = s.map(x => if x.style == "code" { raw(x.text) } else if x.style == "strong" {
  strong(x.text) } else { x.text }).join()
#let markdown(blocks) = for b in blocks {
  if b.kind == "item" { pad(left: 1em * b.level, list(spans(b.spans))) }
  else { par(spans(b.spans)) }
}
#let cover() = {
  set page(numbering: none, header: none)
  v(25%)
  text(size: 22pt, weight: "bold", data.title)
  v(1em)
  text(size: 12pt, data.subtitle)
  v(2em)
  table(columns: 2, stroke: none, inset: 3pt,
    [Rule set], data.rules_line,
    [gamecore version], data.version,
    [git commit], data.commit,
    [Built], data.date,
  )
}
#let front-matter() = {
  let f = data.front_matter
  let cards = f.cards.map(c => ([*Rule card*], [#c.title (#c.file), SHA-256 #raw(c.sha256)]))
  let strategy = if f.strategy != "" { ([*Strategy assumed*], f.strategy) } else { () }
  let key = if f.key_figures != "" { ([*Key figures*], f.key_figures) } else { () }
  table(columns: (auto, 1fr), stroke: none, inset: (x: 2pt, y: 1.5pt),
    [*Game*], f.game,
    ..cards.flatten(),
    ..strategy,
    ..key,
    [*gamecore*], [version #data.version, commit #raw(data.commit)],
    [*Build date*], data.date,
  )
  for t in f.rules {
    v(0.2em)
    block(breakable: false, { strong(t.title); grid-table(t, size: 6.5pt) })
  }
  v(0.2em)
  block(breakable: false, { strong("Parameters"); grid-table(f.parameters, size: 6.5pt) })
}
#let f-join(items) = items.map(g => [#emph(g.term): #g.text.]).join([ ])
#let glossary() = {
  set text(size: 6.5pt)
  strong("Glossary. ")
  f-join(data.front_matter.glossary)
  parbreak()
  data.front_matter.style
  [ ]
  data.par.note
}
#let attestation() = {
  set text(size: 7pt)
  strong("Attestation")
  table(columns: (auto, 1fr, 0.5fr, 1fr), stroke: 0.4pt + luma(120),
    inset: (x: 3pt, y: 3pt), rows: (auto, 16pt, 16pt),
    [], [*Name*], [*Date*], [*Signature*],
    [*Prepared by*], [], [], [],
    [*Reviewed by*], [], [], [],
  )
}
#let checks-list(size) = {
  set text(size: size)
  for c in data.checks { block(above: 0.35em, below: 0.35em, [#c.lead#strong(c.bold)]) }
}
#let par-body(full-checks: true) = {
  set text(size: 7.5pt)
  heading(level: 1, outlined: true, numbering: none, "Par sheet")
  front-matter()
  v(0.3em)
  grid-table(data.par.wagers, size: 7pt)
  // Many bets (the side bets' twelve): their tables two to a row, so the page stays legible.
  let bets = data.par.bets.map(bet => block(breakable: false, above: 1.1em, {
    set par(spacing: 0.4em)
    set block(spacing: 0.4em)
    strong(bet.title)
    grid-table(bet.table, size: 7pt)
  }))
  if bets.len() > 3 {
    grid(columns: 2, column-gutter: 1.2em, row-gutter: 1.1em, ..bets)
  } else { bets.join() }
  if data.checks.len() > 0 {
    v(0.3em)
    block(breakable: false, {
      strong("Cross-checks, exact against simulated")
      if full-checks { checks-list(6.5pt) } else { par(text(size: 6.5pt, data.checks_summary)) }
    })
  }
  v(0.3em)
  glossary()
  v(0.3em)
  block(breakable: false, attestation())
}
// One page where it fits: each cross-check's line where they fit, else their count and
// verdicts. A par sheet longer than a page even so (the side bets' twelve bets) runs onto
// as many pages as it needs at the same type size, every line stated, never a title apart
// from its table.
#let par-sheet() = layout(size => {
  let full = par-body()
  if measure(block(width: size.width, full)).height <= size.height { return full }
  let short = par-body(full-checks: false)
  if measure(block(width: size.width, short)).height <= size.height { short } else { full }
})
#if data.only_par_sheet {
  set page(paper: "a4", margin: (x: 1.4cm, y: 1.4cm))
  par-sheet()
} else {
  set page(paper: "a4", margin: (x: 1.6cm, top: 2.2cm, bottom: 2cm), numbering: "1 / 1",
    header: context {
      if counter(page).get().first() > 1 {
        set text(size: 7.5pt)
        [#data.title #h(1fr) #data.subtitle]
        line(length: 100%, stroke: 0.4pt)
      }
    })
  cover()
  // The par sheet on the standalone sheet's margins, no running header: the same page.
  page(margin: (x: 1.4cm, top: 1.4cm, bottom: 2cm), header: none, par-sheet())
  outline(depth: 2, indent: auto)
  if data.checks.len() > 0 {
    heading(level: 1, "Cross-checks")
    block(sticky: true, data.checks_note)  // never left at a page's foot without its lines
    checks-list(8pt)
    for t in data.variants {
      heading(level: 2, t.title)
      block(sticky: true, t.note)
      grid-table(t)
    }
  }
  heading(level: 1, "The rule set")
  for t in data.front { heading(level: 2, t.title); grid-table(t) }
  heading(level: 1, "The rule card, as received")
  if data.cards.len() == 0 { par(data.no_card) }
  for card in data.cards {
    heading(level: 2, card.title)
    text(size: 7.5pt)[File #card.file, SHA-256 of the text as received #raw(card.sha256).
      #if card.note != "" [Shown #card.note.]]
    block(raw(card.text))
  }
  if data.readings.len() > 0 {
    heading(level: 1, "How the card is read (RULES.md)")
    for reading in data.readings { heading(level: 2, reading.game); markdown(reading.blocks) }
  }
  heading(level: 1, "Tables and figures")
  for item in data.body {
    if item.kind == "wide" {
      page(flipped: true, for t in item.items { heading(level: 2, t.title); body-table(t) })
    } else if item.kind == "figure" {
      heading(level: 2, item.title)
      layout(size => {
        let picture = image(item.file, width: 100%)
        let height = measure(block(width: size.width, picture)).height
        if height <= 21cm { picture } else { image(item.file, height: 21cm) }
      })
    } else {
      heading(level: 2, item.title)
      body-table(item)
    }
  }
  heading(level: 1, "Provenance")
  for t in data.back { grid-table(t) }
}
"""


def _title(stem: str) -> str:
    """A table's title: its own where :data:`BET_TITLES` or :data:`PAR_TABLES` names it, else
    its file's name in words."""
    if stem.startswith("bet_") and stem.removeprefix("bet_") in BET_TITLES:
        return BET_TITLES[stem.removeprefix("bet_")]
    return PAR_TABLES.get(stem, stem.replace("_", " ").capitalize())


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


def table_data(path: Path, title: str | None = None) -> dict[str, Any]:
    """One CSV as the template's table: title, columns, alignments, rows of printed cells,
    and whether it is too wide for a portrait page.

    Parameters
    ----------
    path : Path
        The CSV file.
    title : str, optional
        The table's title (default: made from the file's name).

    Returns
    -------
    dict
        ``kind`` ("table"), ``title``, ``columns``, ``align``, ``rows``, ``short`` (a few
        rows: kept on one page), ``wide`` (set on landscape pages) and ``size`` (points).
    """
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
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
                return f"{_percent(low)} to {_percent(high)}"

            rows.append([
                figures["wager"], figures["edge"], figures["sd"], figures["hit"],
                band(10_000), band(1_000_000),
            ])  # fmt: skip
        wagers.update(
            columns=["Wager (strategy)", "House edge", "SD", "Hit frequency",
                     "Hold, 95% band, 10,000 rounds", "Hold, 95% band, 1,000,000 rounds"],
            align=["left", "right", "right", "right", "right", "right"],
            rows=rows,
        )  # fmt: skip
    bets = []
    found = sorted(p.name for p in folder.glob("bet_*.csv"))
    for path in [folder / f for f in dict.fromkeys([f for f in order if f in found] + found)]:
        stem = path.stem.removeprefix("bet_")
        bets.append({"title": BET_TITLES.get(stem, _title(stem)), "table": table_data(path)})
    bets += [
        {"title": title, "table": table_data(folder / f"{stem}.csv")}
        for stem, title in PAR_TABLES.items()
        if (folder / f"{stem}.csv").exists()
    ]
    note = "Every figure here is in the report's tables and its workbook."
    return {"wagers": wagers, "bets": bets, "note": note}


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
    try:
        when = datetime.datetime.fromisoformat(started).astimezone(datetime.UTC)
    except (TypeError, ValueError):
        return None
    return {
        "year": when.year, "month": when.month, "day": when.day,
        "hour": when.hour, "minute": when.minute, "second": when.second,
    }  # fmt: skip


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
    for file in present:
        path = folder / file
        if path.suffix == ".png":
            body.append({"kind": "figure", "title": _title(path.stem), "file": file})
        elif path.suffix == ".csv" and path.stem not in BACK_TABLES:
            table = table_data(path)
            if path.stem in FRONT_TABLES or path.stem.startswith("rules"):
                front.append(table)
            else:
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
    return {
        "only_par_sheet": False,
        "title": report_title(summary, name),
        "subtitle": f"gamecore report {name}",
        "rules_line": frontmatter.rules_line(folder),
        "version": gamecore.__version__,
        "commit": commit,
        "date": built,
        "pdf_date": pdf_date(built),
        "front_matter": frontmatter.front_matter(folder, name, summary),
        "par": _par_data(folder, present),
        **_checks_data(folder, present or sorted(p.name for p in folder.glob("*.csv"))),
        "front": front,
        "cards": [
            {"game": g, "text": rule_card(g), **frontmatter.card_entry(g)}
            for g in games
            if g in registry.rule_cards()
        ],  # fmt: skip
        "readings": [
            {"game": g, "blocks": frontmatter.markdown_blocks(readings(g))}
            for g in games
            if readings(g)
        ],
        "no_card": NO_CARD,
        "body": layout.grouped(body),
        "back": back,
    }


#: What the rule card's section says for a game no rule card was received for.
NO_CARD = (
    "No rule card was received for this game: its rules are the rule set above, each a named "
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
    template.write_text(TEMPLATE, "utf-8")
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
