"""The best total-dependent chart: a search on the chart's exact EV, and its cells' values.

Central idea
------------
Every single-cell change of a chart is priced at once, exactly, from one evaluation of the
chart against each up card (:mod:`gamecore.blackjack.pricing`: the change in EV is the
reach-weighted change in value over the cell's hands). :func:`optimize_chart` takes the
best-priced change, confirms it with a fresh exact evaluation, and repeats until no change
gains: a chart no single-cell change improves. Up cards are independent (a cell belongs to
one up card), so each is searched on its own.

A pair row's letter also sets how a pair is played when it can no longer be split (after the
maximum number of split hands); that small effect is left out of the pair rows' pricing, and
every change is confirmed by the exact evaluation before it is kept.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from gamecore import rulewords
from gamecore.blackjack.chart import (
    CHART_UP_CARDS,
    LETTERS,
    StrategyChart,
    chart_rows,
    forced_actions,
    pretty_cell,
    resolve_cell,
    up_card_series,
    up_label,
)
from gamecore.blackjack.engine import Engine
from gamecore.blackjack.pricing import UpState, evaluate_up, evaluate_ups
from gamecore.blackjack.rules import (
    HIT,
    RANKS,
    STAND,
    StandardBlackjackRules,
    check_rules,
    early_surrender_at_root,
    hand_total,
    rule_codes,
)
from gamecore.errors import GamecoreError, shown

if TYPE_CHECKING:  # imported where a table is asked for (chart.up_card_series)
    import pandas as pd

#: Gains below this (per round) are float noise, never a change.
TOLERANCE = 1e-12


@functools.lru_cache(maxsize=256)
def letter_allowed(rules: StandardBlackjackRules, row: str, letter: str) -> bool:
    """Can ``letter`` stand in ``row`` under the forced ranges (whatever its fallback)?

    Parameters
    ----------
    rules : StandardBlackjackRules
        The rules (their forced hits and stands, and whether pairs split).
    row, letter : str
        A chart row (``"soft 18"``) and a cell's letters (``"DS"``).

    Returns
    -------
    bool
        False where some reading of the letter (with or without a double or surrender
        allowed) hits a forced stand or stands on a forced hit.
    """
    kind, what = row.split()
    if kind == "pair":
        if letter == "P":
            return rules.max_split_hands >= 2
        counts = [2 if r == what else 0 for r in RANKS]
        total, soft = hand_total(counts)
    else:
        total, soft = int(what), kind == "soft"
    forced_hit, forced_stand = forced_actions(rules, total, soft)
    for can_double in (False, True):
        for can_surrender in (False, True):
            action = resolve_cell(letter, can_double, can_surrender)
            if (action == STAND and forced_hit) or (action == HIT and forced_stand):
                return False
    return True


def _pair_letter_values(state: UpState, rank: int) -> dict[str, float]:
    """Value (before the Natural's loss) of each letter at the root pair of ``rank``."""
    info = state.pairs[rank]
    stand, hit, double, surrender = info["actions"]
    out = {}
    if not np.isnan(info["split"]):
        out["P"] = info["split"]
    for letter in LETTERS:
        first = {"H": hit, "S": stand, "D": double, "R": surrender}[letter[0]]
        if np.isnan(first) and len(letter) == 2:
            first = hit if letter[1] == "H" else stand
        if not np.isnan(first):
            out[letter] = first
    return out


def _candidates(engine, state: UpState, cells, rows, refused) -> list[tuple[float, str, str]]:
    """(gain, row, letter) of every single-cell change that gains, not yet refused."""
    label = up_label(state.up)
    return [
        (gain, row, letter)
        for gain, row, letter in price_changes(engine, state, rows)
        if gain > TOLERANCE
        and cells.get((row, label), letter) != letter
        and (row, letter) not in refused
        and letter_allowed(engine.rules, row, letter)
    ]


def price_changes(
    engine: Engine, state: UpState, rows: Sequence[str]
) -> list[tuple[float, str, str]]:
    """The exact EV change of setting each cell of ``rows`` to each letter it can play
    against one up card, the rest of the chart unchanged (pair rows leave out the pair's
    play once it can no longer be split).

    Parameters
    ----------
    engine : Engine
        The engine the chart was evaluated with.
    state : UpState
        The chart evaluated against the up card (:func:`~gamecore.blackjack.pricing.evaluate_up`).
    rows : sequence of str
        The chart rows priced (``"hard 16"``, ``"pair 8"``, ...).

    Returns
    -------
    list of (float, str, str)
        ``(gain, row, letter)``: the EV change given the up card, per unit of initial wager
        (times the up card's chance it is the change per round), for every letter every
        reached hand of the row can play (the cell's own letter too).
    """
    sums, bad = state.sums, state.bad
    out = []
    for row in rows:
        kind, what = row.split()
        if kind == "pair":
            rank = RANKS.index(what)
            if rank not in state.pairs:
                continue
            values = _pair_letter_values(state, rank)
            now = state.pairs[rank]["current"]
            for letter, v in values.items():
                gain = state.pairs[rank]["probability"] * (v - now)
                out.append((gain, row, letter))
            continue
        s, t = (1 if kind == "soft" else 0), int(what)
        if sums[s, t, 7] == 0.0:
            continue
        for k, letter in enumerate(LETTERS):
            if not bad[s, t, k]:
                out.append((sums[s, t, k] - sums[s, t, 6], row, letter))
    return out


#: The columns of :attr:`ChartSearch.changes`.
CHANGE_COLUMNS = ("Hand", "Up card", "From", "To", "EV gain")


@dataclasses.dataclass(frozen=True)
class ChartSearch:
    """The result of :func:`optimize_chart`: the chart, its exact EV and the cells changed;
    the start chart's exact EV too (every search begins by evaluating it). ``ev_by_up`` and
    ``start_ev_by_up`` are the EVs by up card (A, 2..10), ``change_rows`` one dict per
    change kept (:data:`CHANGE_COLUMNS`); the properties give them as pandas tables."""

    chart: StrategyChart
    ev: float
    start_ev: float
    ev_by_up: np.ndarray
    start_ev_by_up: np.ndarray
    change_rows: tuple[dict[str, Any], ...]
    cells: list[dict[str, Any]]
    start_name: str

    @property
    def up_card_ev(self) -> pd.Series:
        return up_card_series(self.ev_by_up, self.chart.name)

    @property
    def start_up_card_ev(self) -> pd.Series:
        return up_card_series(self.start_ev_by_up, self.start_name)

    @property
    def changes(self) -> pd.DataFrame:
        """Hand | Up card | From | To | EV gain: each change kept, in the order made."""
        import pandas as pd

        return pd.DataFrame(list(self.change_rows), columns=list(CHANGE_COLUMNS))


def search_rows(rules: StandardBlackjackRules) -> list[str]:
    """Every chart row: hard 4..21, soft 12..21 and, where splitting is allowed, the pairs.

    Parameters
    ----------
    rules : StandardBlackjackRules
        The rules (whether a pair may be split).

    Returns
    -------
    list of str
        The rows in chart order (:func:`gamecore.blackjack.chart.chart_rows`).
    """
    rows = [r for r in chart_rows() if not r.startswith("pair")]
    if rule_codes(rules).max_hands >= 2:
        rows += [r for r in chart_rows() if r.startswith("pair")]
    return rows


def optimize_chart(
    rules: StandardBlackjackRules,
    start: StrategyChart,
    rows: Sequence[str] | None = None,
    max_changes: int = 200,
    engine=None,
) -> ChartSearch:
    """The best total-dependent chart found by pricing every single-cell change exactly.

    Starting from ``start`` (:func:`gamecore.blackjack.exact` starts from the chart derived
    from the two-card hands, :func:`gamecore.blackjack.derive_chart`), for each up card:
    price every letter of every cell of ``rows`` (default :func:`search_rows`) by its exact
    EV change (module docstring), apply the best-priced change, confirm the gain by a fresh
    exact evaluation (refusing it otherwise), and repeat until no change gains more than
    :data:`TOLERANCE`. The result is never worse than ``start`` and no single-cell change
    of a hard or soft row improves it.

    Parameters
    ----------
    rules : StandardBlackjackRules
        Either game's rules.
    start : StrategyChart
        The chart the search starts from.
    rows : sequence of str, optional
        The rows whose cells may change (``"hard 16"``, ``"pair 8"``, ...); default
        :func:`search_rows`. An empty sequence evaluates ``start`` only.
    max_changes : int, default 200
        The most changes tried against one up card.
    engine : Engine, optional
        The engine of these rules and shoe, if the caller holds one (its solves shared);
        default a new one with the rules' full shoe.

    Returns
    -------
    ChartSearch
        The chart, its exact EV per initial wager, the start's EV, the EV by up card, each
        change kept (with its confirmed gain per round) and the chart's cell values.
    """
    rules = check_rules(rules)
    engine = Engine(rules, None) if engine is None else engine
    rows = _checked_rows(rules, start, rows)
    cells = dict(start.cells)
    up_p = engine.shoe / engine.shoe.sum()
    start_by_up = np.zeros(10)
    by_up = np.zeros(10)
    changes = []
    states = {}
    first = evaluate_ups(engine, StrategyChart(cells, start.name))
    for up, state in first.items():
        start_by_up[up] = state.ev
        cells, states[up], kept = _search_up(
            engine, state, cells, rows, max_changes, up_p[up], start.name
        )
        changes += kept
        by_up[up] = states[up].ev
    name = (
        f"searched chart ({rules.title}, {rulewords.decks(engine.rules.decks)})"
        if rows
        else start.name
    )
    chart = StrategyChart(cells, name)
    return ChartSearch(
        chart,
        float(np.dot(by_up, up_p)),
        float(np.dot(start_by_up, up_p)),
        by_up,
        start_by_up,
        tuple(changes),
        _sorted_cells(
            cell for up in states for cell in _state_cells(engine, states[up], chart, up_p[up])
        ),
        start.name,
    )


def _checked_rows(
    rules: StandardBlackjackRules, start: StrategyChart, rows: Sequence[str] | None
) -> list[str]:
    """The rows a search may change (default :func:`search_rows`), refusing a start that is
    not a chart and a row no chart holds."""
    if not isinstance(start, StrategyChart):
        raise GamecoreError(f"start must be a StrategyChart, got {shown(start)}")
    rows = search_rows(rules) if rows is None else list(rows)
    for row in rows:
        if row not in chart_rows():
            raise GamecoreError(f"unknown chart row {shown(row)}")
    return rows


def _search_up(engine, state: UpState, cells, rows, max_changes, p_up, name):
    """The search against one up card from its first evaluation ``state``: apply the
    best-priced change of ``cells`` that an exact evaluation confirms, until none gains.
    Returns the cells (every up card's), the last state and the changes kept (rows of
    :attr:`ChartSearch.changes`, the gain per round: ``p_up`` the up card's chance)."""
    up = state.up
    label = up_label(up)
    changes = []
    refused: set[tuple[str, str]] = set()
    for _ in range(max_changes):
        found = _candidates(engine, state, cells, rows, refused)
        if not found:
            break
        _gain, row, letter = max(found)
        trial = {**cells, (row, label): letter}
        try:
            new = evaluate_up(engine, StrategyChart(trial, name), up)
        except GamecoreError:  # the letter's fallback is forbidden somewhere it plays
            refused.add((row, letter))
            continue
        if (new.ev - state.ev) * p_up <= TOLERANCE:
            refused.add((row, letter))
            continue
        changes.append(
            {
                "Hand": row,
                "Up card": label,
                "From": pretty_cell(cells[(row, label)]),
                "To": pretty_cell(letter),
                "EV gain": (new.ev - state.ev) * p_up,
            }
        )
        cells = trial
        state = new
        refused.clear()
    return cells, state, changes


def _sorted_cells(cells) -> list[dict[str, Any]]:
    """Cells in chart order: rows as the CSV lists them, up cards 2..10, A."""
    rows = {r: i for i, r in enumerate(chart_rows())}
    ups = {u: i for i, u in enumerate(CHART_UP_CARDS)}
    return sorted(cells, key=lambda c: (rows[c["hand"]], ups[c["up_card"]]))


def _state_cells(engine, state: UpState, chart: StrategyChart, p_up: float):
    """Each cell's value per action (see :func:`chart_cells`) against one up card."""
    label = up_label(state.up)
    early = early_surrender_at_root(engine.codes, state.up)
    sums, bad = state.sums, state.bad
    for row in chart_rows():
        kind, what = row.split()
        if kind == "pair":
            rank = RANKS.index(what)
            if rank not in state.pairs:
                continue
            info = state.pairs[rank]
            live = 1.0 + info["lose"]  # P(no dealer Natural | the pair)
            values = _pair_letter_values(state, rank)
            weight = info["probability"]
            ev = _by_action(values)
        else:
            s, t = (1 if kind == "soft" else 0), int(what)
            weight, live_weight = sums[s, t, 7], sums[s, t, 8]
            if weight == 0.0:
                continue
            # Under the peek, values leave out the Natural's loss: divide by P(no Natural).
            live = live_weight / weight if engine.rules.peek else 1.0
            values = {
                letter: sums[s, t, k] / weight
                for k, letter in enumerate(LETTERS)
                if not bad[s, t, k]
            }
            ev = _by_action(values)
        ev = {a: v / live for a, v in ev.items() if live > 0}
        cell = chart.cells.get((row, label))
        if cell is None:  # a chart without this pair's row plays the pair by its total
            continue
        others = [v for a, v in ev.items() if a != cell[0]]
        letter = {"D": "DH", "R": "RH"}.get(cell, cell)
        own = values[letter] / live if letter in values and live > 0 else ev.get(cell[0])
        yield {
            "hand": row,
            "up_card": label,
            "best": cell[0],
            "chart": pretty_cell(cell),
            "hands_per_round": weight * p_up,
            "ev": ev,
            # How clear the decision is: the chart's action against the best other one;
            # None (JSON null) where the rules allow one action only (hard 20 and 21 ...).
            "margin": ev[cell[0]] - max(others) if others and cell[0] in ev else None,
            # The chart's own letter (its fallback included), and whether the cell's first
            # action is a surrender taken before the check for a Natural.
            "chart_ev": own,
            "early_surrender": early and cell[0] == "R",
            "surrender_before_check": early,
            # Each letter's EV (hard/soft rows: H S DH DS RH RS; pair rows: P and those).
            "letter_ev": {k: v / live for k, v in values.items()} if live > 0 else {},
        }


def _by_action(values: Mapping[str, float]) -> dict[str, float]:
    """Letter values to action values: D and R take their better fallback."""
    out = {}
    for action in ("H", "S", "D", "R", "P"):
        found = [v for letter, v in values.items() if letter[0] == action]
        if found and (action in ("H", "S", "P") or _first_differs(values, action)):
            out[action] = max(found)
    return out


def _first_differs(values: Mapping[str, float], action: str) -> bool:
    """Does some hand of the cell allow ``action`` (a letter not identical to its fallback)?"""
    for fallback in ("H", "S"):
        letter = action + fallback
        if letter in values and fallback in values and values[letter] != values[fallback]:
            return True
    return False
