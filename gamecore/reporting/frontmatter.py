"""The par sheet's front matter, what makes it a page a regulator can file and sign: the game,
its rule card (title and SHA-256 of the text as received), the rule set, the strategy
assumed, gamecore's version and commit, the build date and the parameters; a short glossary
and an attestation block a lab fills in. And each
exact-vs-simulated check stated in one line with its criterion and verdict
(:func:`cross_check_line`).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pandas as pd

from gamecore import games as registry
from gamecore.reporting import numbers, titles
from gamecore.reporting.report import MOJIBAKE, rule_card
from gamecore.rules import IN_WORDS
from gamecore.twins import APPROXIMATE, TWIN_COLUMNS, ruled, z_threshold


def card_entry(game: str) -> dict[str, str]:
    """A rule card as the front matter names it: title, file, SHA-256 of its text as received,
    and a note of any repair shown.

    Parameters
    ----------
    game : str
        The game's code name (one with a rule card).

    Returns
    -------
    dict
        ``title``, ``file``, ``sha256``, ``note`` (empty when the card is shown as received)
        and ``as``: what the SHA-256 is of (the text as received, or gamecore's own for a
        card gamecore wrote).
    """
    received = rule_card(game, as_received=True)
    mended = sorted({c for c in received if c in MOJIBAKE})
    note = ""
    if mended:
        pairs = ", ".join(f"{c} as {MOJIBAKE[c]}" for c in mended)
        note = (
            f"Shown with its Windows-1252 punctuation, mis-read as Mac Roman in the text as "
            f"received, put back: {pairs}"
        )
    found = registry.game(game)
    if not found.rule_card_received:
        return {
            "title": f"{found.title} rule card (gamecore's reading: none was received)",
            "file": f"gamecore/rulecards/{found.rule_card}.txt",
            "sha256": hashlib.sha256(received.encode("utf-8")).hexdigest(),
            "note": "",
            "as": "of gamecore's text",
        }
    return {
        "as": "of the text as received",
        "title": f"{found.title} rule card",
        "file": f"gamecore/rulecards/{found.rule_card}.txt",
        "sha256": hashlib.sha256(received.encode("utf-8")).hexdigest(),
        "note": note,
    }


#: Decimals of a wager's SD per round, on the index and the par sheet.
SD_DECIMALS = 4
#: The hit-frequency column of a report's hold monitoring table, the bounds on it and on
#: the SD where the wager's distribution is approximate, and how each wager's figures were
#: obtained (:mod:`gamecore.hold`).
HIT = "Hit frequency (net result > 0)"
SD_BOUND = "SD bound (±)"
HIT_BOUND = "Hit frequency bound (±)"
HOW = "How obtained"


#: How a wager whose house edge is negative is marked wherever its edge is printed.
FAVOURS_PLAYER = "favours the player"


def _with_bound(text: str, row: pd.Series, bound: str, kind: str, decimals=None) -> str:
    """A figure's text, then ``± bound`` where the table states a bound above 0 for it (a
    figure from an approximate distribution: never printed as if exact)."""
    if bound in row.index and float(row[bound]) > 0:
        return f"{text} ± {numbers.number_text(float(row[bound]), kind, decimals)}"
    return text


def wager_figures(holds: pd.DataFrame) -> list[dict[str, str]]:
    """Each wager's exact house edge, SD and hit frequency as the index and the par sheet
    both print them (one source: the same text in both), from the report's hold monitoring
    table at its shortest session length, each with the bound the table states for it and
    how it was obtained.

    Parameters
    ----------
    holds : pandas.DataFrame
        The report's ``hold_monitoring.csv``.

    Returns
    -------
    list of dict
        Per wager, in the table's order: ``wager``, ``edge`` (a negative one, a pay table
        that favours the player, marked :data:`FAVOURS_PLAYER`), ``sd`` and ``hit`` (empty
        where the table has no hit frequency), printed, each followed by ``± bound`` where
        the table's bound column (:data:`SD_BOUND`, :data:`HIT_BOUND`) is above 0; and
        ``how`` (the table's :data:`HOW` column, empty where it has none).
    """
    first = holds[holds["Rounds"] == holds["Rounds"].min()]
    figures = []
    for _, row in first.iterrows():
        sd = numbers.number_text(float(row["SD per round"]), "number", SD_DECIMALS)
        hit = numbers.number_text(float(row[HIT]), "probability") if HIT in holds else ""
        favours = row["Expected hold"] < -numbers.ZERO_TOLERANCE
        figures.append({
            "wager": str(row["Wager"]),
            "edge": numbers.number_text(float(row["Expected hold"]), "percent")
            + (f" ({FAVOURS_PLAYER})" if favours else ""),
            "sd": _with_bound(sd, row, SD_BOUND, "number", SD_DECIMALS),
            "hit": _with_bound(hit, row, HIT_BOUND, "probability") if hit else "",
            "how": numbers.plain_text(str(row[HOW])) if HOW in holds else "",
        })  # fmt: skip
    return figures


def value_text(value: Any) -> str:
    """A parameter's value for print: lists as their items, booleans as yes/no, no quotes.

    Parameters
    ----------
    value : Any
        The value as the notebook ran with it.

    Returns
    -------
    str
        The printed value.
    """
    if isinstance(value, bool) or value is None:
        return numbers.plain_text(str(value))
    if isinstance(value, int | float):
        return numbers.number_text(value, "number")
    if isinstance(value, list | tuple):
        return ", ".join(value_text(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {value_text(v)}" for k, v in value.items())
    return numbers.plain_text(str(value))


def _seed_text(name: str, value: Any) -> str:
    """A parameter's value, a seed as the label it is (2026, not 2,026), the limits as their
    file, jurisdiction and SHA-256 (``limits.csv`` states each limit)."""
    if name == "limits":
        from gamecore.limits import described

        return described(value)
    if value == "":  # an empty text: none given (the blackjack report's chart_file)
        return numbers.DASH
    return str(value) if name == "seed" and isinstance(value, int) else value_text(value)


def pairs_table(pairs: list[tuple[str, str]], title: str, across: int = 3) -> dict[str, Any]:
    """Name | Value pairs as a compact table, ``across`` pairs to a row.

    Parameters
    ----------
    pairs : list of (str, str)
        The names and their printed values.
    title : str
        The table's title.
    across : int, default 3
        Pairs side by side.

    Returns
    -------
    dict
        A table as the template takes it (``title``, ``columns``, ``align``, ``rows``).
    """
    rows = []
    for start in range(0, len(pairs), across):
        chunk = pairs[start : start + across]
        chunk = chunk + [("", "")] * (across - len(chunk))
        rows.append([cell for pair in chunk for cell in pair])
    return {
        "kind": "table",
        "title": title,
        "columns": ["Parameter", "Value"] * across,
        "align": ["left", "right"] * across,
        "rows": rows,
        "wide": False,
    }


def rules_line(folder: Path) -> str:
    """The report's rule set in one line, ``Parameter value`` from its ``rules*.csv``, each
    value in words (a study of several games: each game's after its name, ``c21_baccarat:
    decks 8 decks, ...;``).

    Parameters
    ----------
    folder : Path
        The report's folder.

    Returns
    -------
    str
        The line.
    """
    paths = sorted(Path(folder).glob("rules*.csv"))
    parts = []
    for path in paths:
        line = ", ".join(f"{name} {value}" for name, value in _rules_of(path, words=True))
        parts.append(f"{_game_of(path)}: {line}" if len(paths) > 1 and _game_of(path) else line)
    return "; ".join(parts)


def _game_of(path: Path) -> str:
    """The game a ``rules_<game>.csv`` is of (empty for ``rules.csv``)."""
    return path.stem.removeprefix("rules").lstrip("_")


def _rules_of(path: Path, words: bool = False) -> list[tuple[str, str]]:
    """One rules CSV's Parameter and printed Value (with ``words``, the value in words where
    the table states it: :data:`gamecore.rules.IN_WORDS`)."""
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    if not {"Parameter", "Value"} <= set(frame.columns):
        return []
    values, _ = numbers.format_column("Value", frame["Value"].tolist())
    if words and IN_WORDS in frame.columns:
        values = [w or v for w, v in zip(frame[IN_WORDS], values, strict=True)]
    return list(zip(frame["Parameter"], values, strict=True))


def rule_names(folder: Path) -> set[str]:
    """Every rule parameter the report's rules CSVs state (a report parameter of that name
    is the rule: the par sheet prints it once, in the rule table).

    Parameters
    ----------
    folder : Path
        The report's folder.

    Returns
    -------
    set of str
        The rule parameters' names.
    """
    return {name for path in Path(folder).glob("rules*.csv") for name, _ in _rules_of(path)}


def rule_tables(folder: Path) -> list[dict[str, Any]]:
    """The rule set as compact tables, one per game the report's rules CSVs hold.

    Parameters
    ----------
    folder : Path
        The report's folder.

    Returns
    -------
    list of dict
        Tables as :func:`pairs_table` makes them, two pairs to a row, each value in words
        where the rule table states them, titled ``Rule set`` (or ``Rule set: <game's
        title>`` for each of several).
    """
    paths = sorted(Path(folder).glob("rules*.csv"))
    tables = []
    for path in paths:
        game = _game_of(path)
        title = "Rule set"
        if len(paths) > 1 and game in registry.NAMES:
            title = f"Rule set: {registry.game(game).title}"
        elif len(paths) > 1 and game:
            title = f"Rule set: {game}"
        tables.append(pairs_table(_rules_of(path, words=True), title, across=2))
    return tables


def strategy(folder: Path) -> str:
    """The strategy the report assumes, as its wagers name it (``Player, House Way against
    House Way``, ``Player on the chart (...)``); empty where no wager names one.

    Parameters
    ----------
    folder : Path
        The report's folder.

    Returns
    -------
    str
        The wagers that name a strategy, joined by semicolons.
    """
    path = Path(folder) / "hold_monitoring.csv"
    if not path.exists():
        return ""
    wagers = pd.read_csv(path, dtype=str, keep_default_na=False)["Wager"].drop_duplicates()
    named = [w for w in wagers if re.search(r",| on | play|chart|strateg|way", w, re.I)]
    return "; ".join(named)


def front_matter(folder: Path, name: str, summary: dict[str, Any]) -> dict[str, Any]:
    """Everything the par sheet states before its figures.

    Parameters
    ----------
    folder : Path
        The report's folder.
    name : str
        The report's name.
    summary : dict
        Its ``summary.json`` (title and parameters).

    Returns
    -------
    dict
        ``game``, ``cards``, ``rules`` (tables), ``strategy``, ``key_figures`` (as the
        index quotes them, the same text), ``parameters`` (a table of the report's
        parameters that are not rules: each rule is stated once, in the rule table) and
        ``style`` (the number style stated).
    """
    games = registry.report_games(name)
    titles = [registry.game(g).title for g in games]
    game = summary.get("title") or name
    if titles and titles != [game]:
        game = f"{game} ({', '.join(titles)})"
    rules = rule_names(folder)
    parameters = {k: v for k, v in (summary.get("parameters") or {}).items() if k not in rules}
    return {
        "game": f"{game}; report {name}",
        "cards": [card_entry(g) for g in games if g in registry.rule_cards()],
        "rules": rule_tables(folder),
        "strategy": strategy(folder),
        "key_figures": "; ".join(
            f"{numbers.plain_text(k)} {numbers.plain_text(str(v))}"
            for k, v in (summary.get("figures") or {}).items()
        ),
        "parameters": pairs_table(
            [(k, _seed_text(k, v)) for k, v in parameters.items()],
            "Report parameters (simulation sizes, seeds, sweeps: the rules are above)",
        ),
        "style": numbers.STYLE_NOTE,
    }


def provenance_rows(path: Path) -> list[list[str]]:
    """The provenance table's rows for print, its parameters (one JSON text in the CSV)
    spread over a row each.

    Parameters
    ----------
    path : Path
        ``provenance.csv``.

    Returns
    -------
    list of list of str
        Item | Value rows.
    """
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    rows = []
    for item, value in zip(frame["Item"], frame["Value"], strict=True):
        if item == "parameters":
            try:
                parsed = json.loads(value)
            except ValueError:
                parsed = None
            if isinstance(parsed, dict):
                rows += [[f"parameter {k}", _seed_text(k, v)] for k, v in parsed.items()]
                continue
        rows.append([item, numbers.plain_text(value)])
    return rows


def _approximate(frame: pd.DataFrame) -> pd.DataFrame:
    """A twin table read from its CSV, its :data:`~gamecore.twins.APPROXIMATE` column as
    booleans (a column with a blank cell reads as text, where ``"False"`` would be true)."""
    if APPROXIMATE in frame.columns:
        frame = frame.assign(
            **{
                APPROXIMATE: [
                    str(a).strip().lower() in ("true", "1", "1.0") for a in frame[APPROXIMATE]
                ]
            }
        )
    return frame


def cross_check_line(name: str, frame: pd.DataFrame) -> dict[str, str]:
    """One exact-vs-simulated check stated with its criterion and verdict: its largest |z|
    over the twins the 4-sigma rule applies to (:func:`gamecore.twins.ruled`) against the
    family-wise threshold (:func:`gamecore.twins.z_threshold`), PASS when within it.

    Parameters
    ----------
    name : str
        The check's name (its CSV's stem).
    frame : pandas.DataFrame
        Its twin table (columns :data:`gamecore.twins.TWIN_COLUMNS` first).

    Returns
    -------
    dict
        ``name``, ``verdict`` (``PASS``, ``FAIL``, or ``n/a`` for no twin with a z) and
        ``text``, the line, the check named by its title (:mod:`~gamecore.reporting.titles`):
        ``Cross-check: each wager (12 twins): largest |z| 1.68; criterion |z| ≤ 4.51 (4 SE,
        family-wise over 12): PASS``.
    """
    frame = _approximate(frame)
    heading = titles.title(name)
    z = ruled(frame)
    approximate = int(frame[APPROXIMATE].sum()) if APPROXIMATE in frame.columns else 0
    count = f"{len(z)} twin{'s' if len(z) != 1 else ''}"
    if approximate:
        count += f" ruled; {approximate} approximate, not ruled"
    if z.empty:
        return {"name": name, "verdict": "n/a", "text": f"{heading} ({count}): no twin to compare"}
    largest, threshold = float(z.abs().max()), z_threshold(len(z))
    shown = f"{largest:.2f}" if largest != float("inf") else "infinite (no spread, mismatch)"
    family = f", family-wise over {len(z)}" if len(z) > 1 else ""
    verdict = "PASS" if largest <= threshold else "FAIL"
    return {
        "name": name,
        "verdict": verdict,
        "text": f"{heading} ({count}): largest |z| {shown}; criterion |z| ≤ {threshold:.2f} "
        f"(4 SE{family}): {verdict}",
    }


def cross_checks(folder: Path, files: list[str]) -> list[dict[str, str]]:
    """Every exact-vs-simulated check of a report, each as :func:`cross_check_line` states it:
    the CSVs among ``files`` whose columns start with :data:`gamecore.twins.TWIN_COLUMNS`.

    Parameters
    ----------
    folder : Path
        The report's folder.
    files : list of str
        Its files, in the order to state them.

    Returns
    -------
    list of dict
        One line per twin CSV.
    """
    lines = []
    for file in files:
        path = Path(folder) / file
        if path.suffix != ".csv" or not path.is_file():
            continue
        header = [str(c) for c in pd.read_csv(path, nrows=0).columns]
        if header[: len(TWIN_COLUMNS)] == list(TWIN_COLUMNS):
            lines.append(cross_check_line(path.stem, pd.read_csv(path)))
    return lines


#: The columns of a twin table that name the rule variant or deck count of each row, each
#: with how a value of it reads (one, many): a twin CSV with one of them is a sweep.
VARIANT_COLUMNS = {
    "Variant": ("{}", "{}"),
    "Decks": ("{} deck", "{} decks"),
    "Jokers per deck": ("{} joker per deck", "{} jokers per deck"),
}


def _variant_text(row: pd.Series, columns: list[str]) -> list[str]:
    """A row's variant, a part per variant column (``2 decks``, ``1 joker per deck``)."""
    values = [numbers.plain_text(str(row[c])) for c in columns]
    return [VARIANT_COLUMNS[c][v != "1"].format(v) for c, v in zip(columns, values, strict=True)]


def _singular(text: str) -> str:
    """Text compared without plural endings (a twin's Figure says ``1 decks``)."""
    return re.sub(r"s\b", "", text)


def variant_table(folder: Path, stem: str) -> dict[str, Any] | None:
    """A sweep's twin table as the Cross-checks section shows it: a row per figure and variant,
    Variant | Figure | Exact | Simulated | SE | z | Verdict, each row's verdict its |z| against
    the family-wise threshold of the whole table (:func:`cross_check_line`'s criterion), and
    a note naming the variants of the exact sweep (the CSV named as the twin's, ``cross_check``
    left out) that have no simulated twin.

    Parameters
    ----------
    folder : Path
        The report's folder.
    stem : str
        The twin CSV's stem (``cross_check_deck_sweep``).

    Returns
    -------
    dict or None
        The table (``title``, ``note``, ``columns``, ``align``, ``rows``), or ``None`` for a
        twin table with no :data:`VARIANT_COLUMNS` (not a sweep).
    """
    path = Path(folder) / f"{stem}.csv"
    frame = _approximate(pd.read_csv(path, dtype=str, keep_default_na=False))
    columns = [c for c in VARIANT_COLUMNS if c in frame.columns]
    if not columns:
        return None
    z = pd.to_numeric(frame["z"], errors="coerce")
    ruled_z = ruled(frame.assign(z=z))
    threshold = z_threshold(len(ruled_z))
    printed, align = numbers.format_table(TWIN_COLUMNS, frame[list(TWIN_COLUMNS)].values.tolist())
    rows = []
    for at, row in frame.iterrows():
        variant = _variant_text(row, columns)
        parts = str(row["Figure"]).split(", ")
        while len(parts) > 1 and _singular(parts[-1]) in {_singular(v) for v in variant}:
            parts.pop()  # the variant, stated in its own column
        if at not in ruled_z.index:
            verdict = "approximate, not ruled" if at in z.dropna().index else "n/a"
        else:
            verdict = "PASS" if abs(float(z[at])) <= threshold else "FAIL"
        rows.append([", ".join(variant), ", ".join(parts), *printed[at][1:], verdict])
    family = f", family-wise over {len(ruled_z)}" if len(ruled_z) > 1 else ""
    note = f"Each row PASS when |z| ≤ {threshold:.2f} (4 SE{family})."
    missing = _unsimulated(folder, stem, columns, {r[0] for r in rows})
    if missing:
        note += f" Not simulated (no twin): {'; '.join(missing)}."
    return {
        "kind": "table", "title": f"{titles.title(stem)}, variant by variant", "note": note,
        "wide": False,
        "columns": ["Variant", "Figure", *TWIN_COLUMNS[1:], "Verdict"],
        "align": ["left", "left", *align[1:], "left"], "rows": rows,
    }  # fmt: skip


def _unsimulated(folder: Path, stem: str, columns: list[str], simulated: set[str]) -> list[str]:
    """The variants of a twin's exact sweep (its CSV, ``cross_check`` left out of the stem)
    with no row in the twin table."""
    exact = Path(folder) / f"{stem.replace('cross_check_', '').replace('_cross_check', '')}.csv"
    if not exact.is_file():
        return []
    frame = pd.read_csv(exact, dtype=str, keep_default_na=False)
    if not set(columns) <= set(frame.columns):
        return []
    variants = [", ".join(_variant_text(row, columns)) for _, row in frame.iterrows()]
    limit = " (a limit: no finite shoe to deal from)"
    return [v + limit * ("infinite" in v) for v in dict.fromkeys(variants) if v not in simulated]
