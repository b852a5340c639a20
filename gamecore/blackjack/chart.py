"""Total-dependent strategy charts: the CSV format, reading and validating a chart, and the
tables a kernel plays it by (the chart derived from the two-card hands' exact values:
:mod:`gamecore.blackjack.derived_chart`).

Strategy chart CSV format
-------------------------
A header row ``hand,2,3,4,5,6,7,8,9,10,A`` then one row per hand, first column the hand:
``hard 4`` .. ``hard 21`` and ``soft 12`` .. ``soft 21`` (all required), ``pair A``,
``pair 2`` .. ``pair 10`` (optional: a pair without a row is played by its hard/soft row and
never split). Blank lines and lines starting with ``#`` are ignored. Cells (case-insensitive):

=====  ==============================================================================
H      hit
S      stand
D, Dh  double if allowed, otherwise hit
Ds     double if allowed, otherwise stand
R, Rh  surrender if allowed, otherwise hit
Rs     surrender if allowed, otherwise stand
P      (pair rows) split if allowed, otherwise play the hand's hard/soft row
Ph     (pair rows) split if doubling after a split is allowed, otherwise hit
Ps     (pair rows) split if doubling after a split is allowed, otherwise stand
Pd     (pair rows) split if doubling after a split is allowed, otherwise double (else hit)
Rp     (pair rows) surrender if allowed, otherwise split, otherwise the hard/soft row
=====  ==============================================================================

A cell whose action (after its fallback) the rules forbid, e.g. ``S`` on soft 17 under the
c21 forced hits, is refused when the chart is applied, naming the cell.
"""

from __future__ import annotations

import csv
import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from gamecore.blackjack.rules import (
    DOUBLE,
    HIT,
    RANKS,
    STAND,
    SURRENDER,
    StandardBlackjackRules,
    hand_total,
)
from gamecore.errors import GamecoreError, shown
from gamecore.reading import MAX_CHART_BYTES, path_text, read_text

if TYPE_CHECKING:  # imported where a table is asked for: see up_card_series
    import pandas as pd

# ---------------------------------------------------------------------------------------
# Charts
# ---------------------------------------------------------------------------------------

_CELLS = {"H", "S", "D", "DH", "DS", "R", "RH", "RS", "P", "PH", "PS", "PD", "RP"}
_PAIR_ONLY = {"P", "PH", "PS", "PD", "RP"}
CHART_UP_CARDS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A")
#: The letters a hard or soft cell can hold, each with its fallback (the second letter), in
#: the order the chart search prices them and the simulator's probes draw them.
LETTERS = ("H", "S", "DH", "DS", "RH", "RS")

#: The charts shipped with gamecore (each derived by the engine for its deck count).
CHART_DIR = Path(__file__).resolve().parents[1] / "charts"


@dataclasses.dataclass(frozen=True)
class StrategyChart:
    """A total-dependent strategy: a letter per (row, up card), rows as in the CSV format.

    ``cells`` maps ``(row, up)`` to the cell's letters (upper case), ``row`` being
    ``"hard 16"``, ``"soft 18"`` or ``"pair 8"`` and ``up`` ``"2"``..``"10"``, ``"A"``.
    """

    cells: Mapping[tuple[str, str], str]
    name: str = "chart"

    def __post_init__(self) -> None:
        if not isinstance(self.cells, Mapping) or not all(
            isinstance(key, tuple) and len(key) == 2 for key in self.cells
        ):
            raise GamecoreError(f"{self.name}: cells must map (row, up card) to a letter")
        object.__setattr__(
            self,
            "cells",
            {(row, up): str(cell).strip().upper() for (row, up), cell in self.cells.items()},
        )
        valid_rows = set(chart_rows())
        for row, _ in self.cells:
            if row not in valid_rows:
                raise GamecoreError(f"{self.name}: unknown row {shown(row)}")
        for total in range(4, 22):
            _require_row(self.cells, f"hard {total}", self.name)
        for total in range(12, 22):
            _require_row(self.cells, f"soft {total}", self.name)
        for (row, up), cell in self.cells.items():
            if up not in CHART_UP_CARDS:
                raise GamecoreError(f"{self.name}: unknown up card {shown(up)}")
            kind = row.split()[0]
            if cell not in _CELLS or (kind != "pair" and cell in _PAIR_ONLY):
                raise GamecoreError(
                    f"{self.name}: cell {row} vs {up} is {shown(cell)}; allowed: H S D Dh Ds R Rh "
                    "Rs" + (" P Ph Ps Pd Rp" if kind == "pair" else "")
                )

    def to_frame(self) -> pd.DataFrame:
        """The chart as the CSV format's table.

        Returns
        -------
        pandas.DataFrame
            ``hand`` and a column per up card, a row per row held (cells :func:`pretty_cell`).
        """
        import pandas as pd

        rows = [r for r in chart_rows() if (r, "2") in self.cells]
        return pd.DataFrame(
            [
                {"hand": r, **{up: pretty_cell(self.cells[(r, up)]) for up in CHART_UP_CARDS}}
                for r in rows
            ]
        )

    def to_csv(self, path: str | Path | None = None) -> str:
        """The chart as CSV text (the format :func:`read_strategy_chart` reads).

        Parameters
        ----------
        path : str or Path, optional
            Where to write it as well.

        Returns
        -------
        str
            The CSV text (a header row, then a row per row held).
        """
        text = self.to_frame().to_csv(index=False)
        if path is not None:
            Path(path).write_text(text)
        return text


def pretty_cell(cell: str) -> str:
    """A cell's letters as a chart prints them, the fallback in lower case: DS -> Ds.

    Parameters
    ----------
    cell : str
        A cell as held (``"DS"``).

    Returns
    -------
    str
        One letter as is; two with the second (the fallback) in lower case.
    """
    return cell if len(cell) == 1 else cell[0] + cell[1].lower()


def chart_rows() -> list[str]:
    """Every row a chart may hold, in the order a chart lists them.

    Returns
    -------
    list of str
        ``hard 4`` .. ``hard 21``, ``soft 12`` .. ``soft 21``, ``pair A`` .. ``pair 10``.
    """
    return (
        [f"hard {t}" for t in range(4, 22)]
        + [f"soft {t}" for t in range(12, 22)]
        + [f"pair {r}" for r in RANKS]
    )


def _require_row(cells: Mapping, row: str, name: str) -> None:
    for up in CHART_UP_CARDS:
        if (row, up) not in cells:
            raise GamecoreError(f"{name}: row {shown(row)} is missing (up card {up})")


def _chart_text(source: str | Path) -> tuple[str, str]:
    """The chart's text and the name its messages use, refusing what is not a regular UTF-8
    text file of at most :data:`~gamecore.reading.MAX_CHART_BYTES` (a full chart is about a
    kilobyte; a UTF-8 byte-order mark is accepted)."""
    if isinstance(source, str) and "\n" in source:
        text, name = source, "chart"
        if len(text) > MAX_CHART_BYTES:
            raise GamecoreError(
                f"{name}: larger than {MAX_CHART_BYTES:,} bytes, its size limit (it is "
                f"{len(text):,} characters)"
            )
    else:
        if not isinstance(source, (str, Path)):
            raise GamecoreError(
                f"strategy must be a StrategyChart or a chart file path, got {shown(source)}"
            )
        name = Path(source).name
        text = read_text(source, MAX_CHART_BYTES, f"strategy chart file {path_text(source)}")
    text = text.removeprefix("\ufeff")  # a byte-order mark some spreadsheets write
    if "\x00" in text:
        raise GamecoreError(f"{name}: holds NUL characters; a chart is a text CSV file")
    return text, name


def read_strategy_chart(source: str | Path) -> StrategyChart:
    """Read a strategy chart CSV (format in the module docstring) from a path.

    A ``str`` holding a newline is read as the CSV text itself. A file that is not UTF-8 text,
    a malformed line, an unknown or repeated row is refused, naming the line.

    Parameters
    ----------
    source : str or Path
        The chart file's path, or its CSV text.

    Returns
    -------
    StrategyChart
        The chart, named by its file (``"chart"`` for text), its cells checked.
    """
    text, name = _chart_text(source)
    numbered = [
        (number, line)
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    if not numbered:
        raise GamecoreError(f"{name}: the chart is empty")
    rows = []
    for number, line in numbered:
        try:
            fields = next(csv.reader([line]))
        except csv.Error as error:
            raise GamecoreError(f"{name}: line {number} is not CSV ({error})") from None
        rows.append((number, fields))
    header = [h.strip().upper() for h in rows[0][1]]
    expected = ["HAND", *[u.upper() for u in CHART_UP_CARDS]]
    if header != expected:
        raise GamecoreError(
            f"{name}: line {rows[0][0]}: header must be {','.join(['hand', *CHART_UP_CARDS])}, "
            f"got {_shorten(','.join(rows[0][1]))}"
        )
    valid_rows = set(chart_rows())
    cells: dict[tuple[str, str], str] = {}
    first_line: dict[str, int] = {}
    for number, line in rows[1:]:
        if len(line) != 11:
            raise GamecoreError(
                f"{name}: line {number} ({shown(_shorten(line[0]))}) must have 11 fields, "
                f"got {len(line)}"
            )
        label = " ".join(line[0].lower().split())
        if label.startswith("pair "):
            rank = label[5:]
            rank = {"a": "A", "1": "A", "11": "A", "t": "10", "j": "10", "q": "10", "k": "10"}.get(
                rank, rank
            )
            label = f"pair {rank}"
        if label not in valid_rows:
            raise GamecoreError(
                f"{name}: line {number}: unknown row {shown(_shorten(line[0]))} (hard 4..21, "
                "soft 12..21, pair A, pair 2..pair 10)"
            )
        if label in first_line:
            raise GamecoreError(
                f"{name}: line {number}: row {shown(label)} is given twice (first on line "
                f"{first_line[label]}); give each row once"
            )
        first_line[label] = number
        for up, cell in zip(CHART_UP_CARDS, line[1:], strict=True):
            cells[(label, up)] = _shorten(cell.strip().upper())
    return StrategyChart(cells, name)


def _shorten(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters for a message (a hostile field can be huge)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def up_label(up: int) -> str:
    """An up card's label in charts and tables: ``"A"``, ``"2"`` .. ``"10"``.

    Parameters
    ----------
    up : int
        A rank index, 0 (ace) .. 9 (ten-valued).

    Returns
    -------
    str
        The label.
    """
    return "A" if up == 0 else str(up + 1)


def up_card_series(values: np.ndarray, name: str | None) -> pd.Series:
    """``values`` by up card (A, 2..10) as a pandas Series labelled by up card.

    The analyses keep such figures as arrays and build their tables when asked: the command
    line's JSON needs none, and importing pandas is a tenth of its run.

    Parameters
    ----------
    values : numpy.ndarray
        10 figures, by up card index (A first).
    name : str or None
        The Series' name.

    Returns
    -------
    pandas.Series
        float64, indexed by up card label (A, 2..10).
    """
    import pandas as pd

    return pd.Series(
        np.asarray(values, dtype=float), index=[up_label(u) for u in range(10)], name=name
    )


def forced_actions(rules: StandardBlackjackRules, total: int, soft: bool) -> tuple[bool, bool]:
    """(must hit, must stand) for a hand total under the rules' forced ranges.

    Parameters
    ----------
    rules : StandardBlackjackRules
        The rules (``player_forced``).
    total : int
        The hand's total.
    soft : bool
        Whether an ace counts 11 in it.

    Returns
    -------
    tuple of (bool, bool)
        Both false but under c21's (hit hard 11 or less, soft 17 or less; stand on 20+).
    """
    if rules.player_forced != "c21":
        return False, False
    forced_hit = (not soft and total <= 11) or (soft and total <= 17)
    return forced_hit, total >= 20


def resolve_cell(cell: str, can_double: bool, can_surrender: bool) -> int:
    """The action of a non-pair cell given what is allowed (no split).

    Parameters
    ----------
    cell : str
        H, S, D, DH, DS, R, RH or RS.
    can_double, can_surrender : bool
        Whether the hand may double, surrender.

    Returns
    -------
    int
        HIT, STAND, DOUBLE or SURRENDER (a D or R cell's fallback where not allowed).
    """
    if cell in ("H", "S"):
        return HIT if cell == "H" else STAND
    if cell in ("D", "DH", "DS"):
        return DOUBLE if can_double else (STAND if cell == "DS" else HIT)
    if cell in ("R", "RH", "RS"):
        return SURRENDER if can_surrender else (STAND if cell == "RS" else HIT)
    raise AssertionError(cell)


class ChartTables(NamedTuple):
    """A chart resolved under a rule set, as the kernels play it (actions S H D R as 0..3)."""

    chart: np.ndarray  # (2, 32, 10, 2, 2): soft, total, up, can double, can surrender
    pair_play: np.ndarray  # (10, 10, 2, 2): a two-card pair not split
    split: np.ndarray  # (10, 10, 2): split when allowed? [.., can surrender at the root]


def chart_tables(chart: StrategyChart, rules: StandardBlackjackRules) -> ChartTables:
    """Resolve every cell's fallbacks under ``rules``; refuse an action the rules forbid.

    Parameters
    ----------
    chart : StrategyChart
        The chart.
    rules : StandardBlackjackRules
        The rules (resolved here).

    Returns
    -------
    ChartTables
        The kernels' tables (a cell against a forced total: a GamecoreError).
    """
    rules = rules.resolved()
    table = np.full((2, 32, 10, 2, 2), -1, dtype=np.int64)
    for soft in (0, 1):
        for total in range(12 if soft else 4, 22):
            row = f"{'soft' if soft else 'hard'} {total}"
            forced_hit, forced_stand = forced_actions(rules, total, bool(soft))
            for up in range(10):
                cell = chart.cells[(row, up_label(up))]
                for cd in (0, 1):
                    for cs in (0, 1):
                        a = resolve_cell(cell, bool(cd), bool(cs))
                        _check_action(chart, row, up, cell, a, forced_hit, forced_stand)
                        table[soft, total, up, cd, cs] = a
    pair_play = np.full((10, 10, 2, 2), -1, dtype=np.int64)
    split = np.zeros((10, 10, 2), dtype=np.bool_)
    for r in range(10):
        total, soft = hand_total([2 if q == r else 0 for q in range(10)])
        hard_row = f"{'soft' if soft else 'hard'} {total}"
        row = f"pair {RANKS[r]}"
        forced_hit, forced_stand = forced_actions(rules, total, soft)
        for up in range(10):
            cell = chart.cells.get((row, up_label(up)), chart.cells[(hard_row, up_label(up))])
            for cd in (0, 1):
                for cs in (0, 1):
                    if cell == "P":
                        a = table[int(soft), total, up, cd, cs]
                    elif cell in ("PH", "PS", "PD"):
                        a = resolve_cell(
                            {"PH": "H", "PS": "S", "PD": "D"}[cell], bool(cd), bool(cs)
                        )
                    elif cell == "RP":
                        a = SURRENDER if cs else table[int(soft), total, up, cd, cs]
                    else:
                        a = resolve_cell(cell, bool(cd), bool(cs))
                    _check_action(chart, row, up, cell, a, forced_hit, forced_stand)
                    pair_play[r, up, cd, cs] = a
            for cs in (0, 1):
                can_split = rules.max_split_hands >= 2
                split[r, up, cs] = can_split and (
                    cell == "P"
                    or (cell in ("PH", "PS", "PD") and rules.double_after_split)
                    or (cell == "RP" and not cs)
                )
    return ChartTables(table, pair_play, split)


def _check_action(chart, row, up, cell, action, forced_hit, forced_stand) -> None:
    if (action == STAND and forced_hit) or (action == HIT and forced_stand):
        what = "stand" if action == STAND else "hit"
        raise GamecoreError(
            f"{chart.name}: cell {row} vs {up_label(up)} is {shown(pretty_cell(cell))}, which can "
            f"mean {what}, but the rules force a {'hit' if forced_hit else 'stand'} on {row}"
        )


def cell_of(chart: StrategyChart, counts: Sequence[int], up: int) -> str:
    """The chart's letters for a two-card hand.

    Parameters
    ----------
    chart : StrategyChart
        The chart.
    counts : sequence of int
        The hand's cards of each rank (10 counts, two cards in all).
    up : int
        The up card's rank index.

    Returns
    -------
    str
        The cell as held (``"DS"``): a pair's row where the chart has one, else the hand's
        hard or soft row.
    """
    total, soft = hand_total(counts)
    row = f"{'soft' if soft else 'hard'} {total}"
    if max(counts) == 2:
        return chart.cells.get(
            (f"pair {RANKS[counts.index(2)]}", up_label(up)), chart.cells[(row, up_label(up))]
        )
    return chart.cells[(row, up_label(up))]


def wants_surrender(cell: str, pair: bool, tables: ChartTables, rank: int, up: int) -> bool:
    """Whether a chart surrenders two cards where surrender is offered.

    Parameters
    ----------
    cell : str
        The chart's cell for the two cards (:func:`cell_of`).
    pair : bool
        Whether the two cards are a pair.
    tables : ChartTables
        The chart resolved under the rules (a pair's row read through ``pair_play``).
    rank : int
        The pair's rank index (read for a pair only).
    up : int
        The up card's rank index.

    Returns
    -------
    bool
        A pair: its row surrenders and does not split with surrender offered; any other
        hand: its cell is R, Rh or Rs.
    """
    if pair:
        return tables.pair_play[rank, up, 1, 1] == SURRENDER and not tables.split[rank, up, 1]
    return cell in ("R", "RH", "RS")
