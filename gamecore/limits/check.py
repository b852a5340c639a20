"""Each wager of a report checked against the limits it was built with: ``limits.csv``,
Wager | Limit | Limit value | Figure | Verdict | Jurisdiction, one row per wager and kind of
limit, or one row saying "no limit given".

The figures are the report's own, from the tables it wrote, never computed again here:

* the house edge is the hold monitoring table's expected hold at its shortest session
  (``hold_monitoring.csv``, the rows the par sheet's and the index's wager figures read,
  :func:`gamecore.reporting.frontmatter.wager_figures`), per unit of initial wager; the
  return is 1 minus it;
* the largest payout is the largest payout with a probability above zero of the wager's bet
  table: the report's table with a payout column (``Pays``, or blackjack's ``Net result``)
  and ``Probability`` whose mean and hit frequency are the hold row's (the hold table is made
  from the same distribution; a table is named only when every one so matched agrees).

A figure is exact unless the hold table states a bound on its expected hold (a column
:data:`EDGE_BOUND` above zero: then the Figure cell gives it): an exact figure is compared
to the limit to :data:`TOLERANCE` (floating point's rounding of an exact ratio: a figure at
the limit passes), a bounded one is "undecided" where the limit is within its bound.
A wager is placed in its game by the report (a report of one game) or by its
title's prefix (``21st Century Baccarat: ...`` in a report of several), and named by its
title's name (:func:`gamecore.limits.title_name`) among its game's wagers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pandas as pd

from gamecore import games, limits
from gamecore.limits import ANY, KINDS
from gamecore.reporting import numbers

#: How far an exact figure, a float, may be from its limit and still be at it.
TOLERANCE = numbers.ZERO_TOLERANCE
#: How close a bet table's mean and hit frequency must be to a hold row's to be its table.
MATCH = 1e-9
#: The hold table's column of the bound on the expected hold, where one is stated.
EDGE_BOUND = "Expected hold bound (±)"
#: limits.csv's columns.
COLUMNS = ["Wager", "Limit", "Limit value", "Figure", "Verdict", "Jurisdiction"]
#: The verdicts.
PASS, FAIL, UNDECIDED, NO_LIMIT = "PASS", "FAIL", "undecided", "no limit given"
_HIT = "Hit frequency (net result > 0)"


def wager_rows(holds: pd.DataFrame) -> pd.DataFrame:
    """The hold monitoring table's rows the par sheet's wager figures read: each wager at the
    shortest session length.

    Parameters
    ----------
    holds : pandas.DataFrame
        A report's ``hold_monitoring.csv``.

    Returns
    -------
    pandas.DataFrame
        One row per wager, in the table's order.
    """
    return holds[holds["Rounds"] == holds["Rounds"].min()].reset_index(drop=True)


def _bet_tables(folder: Path, files: Sequence[str]) -> list[tuple[float, float, float]]:
    """(mean, hit frequency, largest payout with a probability above zero) of each table of
    ``files`` with a payout column and a Probability column."""
    found = []
    for name in files:
        if not name.endswith(".csv") or name.startswith("hold_monitoring"):
            continue
        frame = pd.read_csv(Path(folder) / name)
        column = next((c for c in ("Pays", "Net result") if c in frame.columns), None)
        if column is None or "Probability" not in frame.columns:
            continue
        rows = frame[[column, "Probability"]].apply(pd.to_numeric, errors="coerce").dropna()
        pays, probability = rows[column], rows["Probability"]
        if rows.empty or (probability < 0).any():
            continue
        found.append(
            (
                float((pays * probability).sum()),
                float(probability[pays > 0].sum()),
                float(pays[probability > 0].max()),
            )
        )
    return found


def largest_payout(row: pd.Series, tables: list[tuple[float, float, float]]) -> float | None:
    """The largest payout of the hold row's wager: its bet table's (see the module
    docstring); ``None`` where no table, or tables that disagree, match it.

    Parameters
    ----------
    row : pandas.Series
        A row of :func:`wager_rows`.
    tables : list of (float, float, float)
        The report's bet tables: mean, hit frequency, largest payout.

    Returns
    -------
    float or None
        The payout per unit wagered.
    """
    mean, hit = -float(row["Expected hold"]), row.get(_HIT)
    matched = {
        largest
        for table_mean, table_hit, largest in tables
        if abs(table_mean - mean) <= MATCH and (pd.isna(hit) or abs(table_hit - hit) <= MATCH)
    }
    return matched.pop() if len(matched) == 1 else None


def placed(wager: str, report: str, side_bets: Mapping[str, str]) -> tuple[str, str | None]:
    """Which game (or :data:`~gamecore.limits.ANY` for a side bet) and which wager of it
    a hold row's wager is.

    Parameters
    ----------
    wager : str
        The row's wager, as the report names it.
    report : str
        The report's name.
    side_bets : Mapping of str to str
        The side bets report's bets: title -> code name.

    Returns
    -------
    (str or None, str or None)
        The game (``None``: none of the report's) and the wager's code name (``None``: a
        game whose one wager is settled by play, or a wager not found).
    """
    if wager in side_bets:
        return ANY, side_bets[wager]
    names = games.report_games(report)
    game = names[0] if len(names) == 1 else None
    for name in names:
        if wager.startswith(f"{games.game(name).title}:"):
            game = name
    if game is None:
        return None, None
    by_name = {limits.title_name(t): code for t, code in limits.game_wagers(game).items()}
    return game, by_name.get(limits.title_name(wager))


def applying(entries: Sequence[limits.Limit], game: str | None, code: str | None) -> dict:
    """Per kind, the most specific entry that gives it for the wager (its game's wager,
    then its game, then any).

    Parameters
    ----------
    entries : sequence of Limit
        The file's entries.
    game, code : str or None
        The wager's place (:func:`placed`).

    Returns
    -------
    dict
        Kind -> (value, text as written), in :data:`~gamecore.limits.KINDS`' order.
    """
    chosen: dict[str, tuple[int, Fraction, str]] = {}
    for entry in entries:
        applies = entry.game in (ANY, game) and entry.wager in (None, code)
        if entry.game == ANY and entry.wager is not None:
            applies = game == ANY and entry.wager == code  # a side bet, by its name
        if not applies:
            continue
        for kind, value, text in entry.values:
            if kind not in chosen or entry.rank < chosen[kind][0]:
                chosen[kind] = (entry.rank, value, text)
    return {k: chosen[k][1:] for k in KINDS if k in chosen}


def verdict(figure: float, limit: Fraction, kind: str, bound: float = 0.0) -> str:
    """PASS where ``figure`` is within ``limit`` (at most it for a maximum, at least for a
    minimum), FAIL where not, undecided where the limit is within the figure's ``bound``.

    Parameters
    ----------
    figure : float
        The wager's figure.
    limit : Fraction
        The limit.
    kind : str
        A key of :data:`~gamecore.limits.KINDS`.
    bound : float, default 0
        The most the figure can be off (0: exact, compared to :data:`TOLERANCE`).

    Returns
    -------
    str
        :data:`PASS`, :data:`FAIL` or :data:`UNDECIDED`.

    Examples
    --------
    >>> verdict(0.010579, Fraction(1, 100), "max_house_edge")
    'FAIL'
    >>> verdict(0.010579, Fraction(2, 100), "max_house_edge")
    'PASS'
    >>> verdict(0.010579, Fraction(1, 100), "max_house_edge", bound=0.001)
    'undecided'
    """
    over = figure - float(limit) if kind.startswith("max") else float(limit) - figure
    if bound > 0 and abs(over) <= bound:
        return UNDECIDED
    return PASS if over <= TOLERANCE else FAIL


def _percent(value: float, decimals: int) -> str:
    """A share as a percentage to ``decimals`` places (at least the reports' four), no -0."""
    value = 0.0 if abs(value) < TOLERANCE else value
    return f"{value:.{max(decimals, numbers.PERCENT_DECIMALS)}%}"


def _limit_text(kind: str, value: Fraction, text: str) -> tuple[str, int]:
    """The limit as printed and its decimals (a percentage keeps every decimal written)."""
    if kind == "max_payout":
        return numbers.payout(float(value)), 0
    written = Decimal(text.rstrip("% "))
    decimals = max(-written.as_tuple().exponent, numbers.PERCENT_DECIMALS)
    return f"{written:.{decimals}f}%", decimals


def wager_limits(row: pd.Series, chosen: dict, tables: list, jurisdiction: str) -> list[dict]:
    """limits.csv's rows for one wager.

    Parameters
    ----------
    row : pandas.Series
        The wager's row of :func:`wager_rows`.
    chosen : dict
        Its limits (:func:`applying`).
    tables : list
        The report's bet tables (:func:`largest_payout`).
    jurisdiction : str
        Whose limits.

    Returns
    -------
    list of dict
        A row per kind of limit, or one saying :data:`NO_LIMIT`.
    """
    wager = str(row["Wager"])
    if not chosen:
        return [dict(zip(COLUMNS, [wager, "", "", "", NO_LIMIT, jurisdiction], strict=True))]
    bound = float(row[EDGE_BOUND]) if EDGE_BOUND in row and pd.notna(row[EDGE_BOUND]) else 0.0
    edge = float(row["Expected hold"])
    out = []
    for kind, (value, text) in chosen.items():
        shown_limit, decimals = _limit_text(kind, value, text)
        if kind == "max_payout":  # a bet table's payouts: exact
            figure = largest_payout(row, tables)
            if figure is None:
                figure_text, result = "not found: no bet table of this wager", UNDECIDED
            else:
                figure_text = f"{numbers.payout(figure)} (exact)"
                result = verdict(figure, value, kind)
        else:
            figure = edge if kind == "max_house_edge" else 1.0 - edge
            how = "exact" if bound == 0 else f"± {_percent(bound, decimals)}"
            figure_text = f"{_percent(figure, decimals)} ({how})"
            result = verdict(figure, value, kind, bound)
        out.append(
            dict(
                zip(
                    COLUMNS,
                    [wager, KINDS[kind], shown_limit, figure_text, result, jurisdiction],
                    strict=True,
                )
            )
        )
    return out


def limits_table(
    folder: Path, report: str, content: Mapping[str, Any] | None, files: Sequence[str]
) -> pd.DataFrame | None:
    """limits.csv of the report in ``folder``: each wager of its hold monitoring table
    against the limits ``content`` gives it.

    Parameters
    ----------
    folder : Path
        The report's folder, its tables written.
    report : str
        The report's name.
    content : Mapping or None
        The report parameter ``limits`` (checked content, or a file's path); ``None``: no
        limits, each wager's row saying so.
    files : sequence of str
        The report's files, in the order written (its bet tables among them).

    Returns
    -------
    pandas.DataFrame or None
        :data:`COLUMNS`; ``None`` where the report wrote no hold monitoring table.
    """
    path = Path(folder) / "hold_monitoring.csv"
    if not path.exists():
        return None
    parsed = limits.limits_of("limits", content)
    entries, jurisdiction = (parsed.entries, parsed.jurisdiction) if parsed else ((), "")
    side_bets = _side_bet_titles(report)
    tables = _bet_tables(folder, files)
    rows = []
    for _, row in wager_rows(pd.read_csv(path)).iterrows():
        game, code = placed(str(row["Wager"]), report, side_bets)
        rows += wager_limits(row, applying(entries, game, code), tables, jurisdiction)
    return pd.DataFrame(rows, columns=COLUMNS)


def _side_bet_titles(report: str) -> dict[str, str]:
    """The built-in side bets' titles -> code names, for a report of no registered game."""
    if games.report_games(report):
        return {}
    return {title: code for title, code in limits.game_wagers(ANY).items() if title != code}


__all__ = [
    "COLUMNS",
    "applying",
    "largest_payout",
    "limits_table",
    "placed",
    "verdict",
    "wager_limits",
    "wager_rows",
]
