"""The chart derived from the exact values of the two-card hands: a total-dependent
starting point for the chart search (:mod:`gamecore.blackjack.search`).

Central idea
------------
Each cell takes the action whose EV, averaged over the two-card hands of that total
(weighted by their probability), is highest; a double or surrender cell's fallback is the
better of hit and stand where it is played, after a hit (over the cell's three-card hands
when given). Rows no two-card hand reaches follow the nearest evidence, and every cell is
made legal under the rules' forced totals.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from gamecore import rulewords
from gamecore.blackjack.chart import CHART_UP_CARDS, StrategyChart, forced_actions
from gamecore.blackjack.rules import (
    ACTIONS,
    RANKS,
    StandardBlackjackRules,
    best_action,
    hand_total,
)

if TYPE_CHECKING:  # the two-card hands may come as a table
    import pandas as pd


def _cell_evs(hands: Mapping[str, Sequence]):
    """For every chart cell the two-card hands reach, in (row, up card) order: the cell and
    each action's EV averaged over its hands (weighted by probability), leaving out an
    action some hand of the cell does not allow. Summed for all cells at once, a cell's
    hands in the order the table lists them."""
    cell, up_card = np.asarray(hands["cell"]), np.asarray(hands["up_card"])
    played = np.flatnonzero(cell != "natural")
    probability = np.asarray(hands["probability"], dtype=float)[played]
    keys = list(zip(cell[played].tolist(), up_card[played].tolist(), strict=True))
    cells = sorted(set(keys))
    number = {key: g for g, key in enumerate(cells)}
    group = np.array([number[key] for key in keys], dtype=np.int64)
    weight = np.bincount(group, weights=probability, minlength=len(cells))
    means = {}
    for a in ACTIONS:
        values = np.asarray(hands[f"ev_{a}"], dtype=float)[played]
        missing = np.isnan(values)
        summed = np.bincount(
            group, weights=np.where(missing, 0.0, probability * values), minlength=len(cells)
        )
        allowed = np.bincount(group, weights=missing, minlength=len(cells)) == 0
        means[a] = np.where(allowed, summed / weight, np.nan).tolist()
    for g, key in enumerate(cells):
        yield key, {a: means[a][g] for a in ACTIONS if not math.isnan(means[a][g])}


def derive_chart(
    hands: pd.DataFrame | Mapping[str, Sequence],
    rules: StandardBlackjackRules,
    game: str | None = None,
    three_cards: Mapping[tuple[str, str], Mapping[str, float]] | None = None,
) -> StrategyChart:
    """A total-dependent chart from the two-card composition-dependent EVs (``hands``: the
    table of two-card hands, :attr:`BlackjackAnalysis.hands` or its columns as
    :func:`~gamecore.blackjack.analysis.hand_table` gives them).

    Each cell takes the action whose EV, averaged over the two-card hands of that total
    (weighted by their probability), is highest. A double or surrender cell gets the
    fallback (hit or stand) played where the double or surrender is no longer allowed,
    after a hit: the better of the two over the cell's three-card hands (``three_cards``,
    :func:`gamecore.blackjack.analysis.three_card_values`), else (none given, or one of
    the two not allowed at some of them) over its two-card hands. Rows no two-card
    non-pair hand reaches (hard 4, hard 20, hard 21, soft 12, soft 21) follow the nearest
    evidence: hard 4 the pair of 2s' best non-split action, 20 and 21 stand. Pair rows
    split where splitting is best, else repeat the pair's best non-split action.

    Parameters
    ----------
    hands : pandas.DataFrame or Mapping
        The two-card hands' table or its columns (``cell``, ``up_card``, ``probability``,
        ``ev_S`` .. ``ev_P``).
    rules : StandardBlackjackRules
        The rules (forced totals, what a pair may do).
    game : str, optional
        The chart's game, naming it; default ``rules.game``.
    three_cards : Mapping, optional
        (row, up card) -> action -> EV over the cell's three-card hands.

    Returns
    -------
    StrategyChart
        Every row and up card filled.
    """
    game = game or rules.game
    rules = rules.resolved()
    cells: dict[tuple[str, str], str] = {}
    for (row, up), evs in _cell_evs(hands):
        without_split = {k: v for k, v in evs.items() if k != "P"}
        base = best_action(without_split)
        later = (three_cards or {}).get((row, up), {})
        evidence = later if not row.startswith("pair") and len(later) == 2 else without_split
        cells[(row, up)] = _with_fallback(base, evidence)
        if row.startswith("pair") and best_action(evs) == "P":
            cells[(row, up)] = "P"
    first: dict[tuple[str, str], int] = {}
    for at, key in enumerate(zip(hands["cell"], hands["up_card"], strict=True)):
        first.setdefault((str(key[0]), str(key[1])), at)
    for up in CHART_UP_CARDS:
        for row in ("hard 20", "hard 21", "soft 21"):
            cells[(row, up)] = "S"
        two = cells.get(("pair 2", up), "H")
        cells[("hard 4", up)] = two if two != "P" else _pair_fallback(hands, first, 1, up)
        ace = cells.get(("pair A", up), "H")
        cells[("soft 12", up)] = ace if ace != "P" else _pair_fallback(hands, first, 0, up)
        for total in range(5, 20):
            cells.setdefault((f"hard {total}", up), "H")
        for total in range(13, 21):
            cells.setdefault((f"soft {total}", up), "S" if total >= 18 else "H")
    for key in list(cells):
        row = key[0]
        kind, total = row.split()[0], row.split()[1]
        if kind in ("hard", "soft"):
            forced_hit, forced_stand = forced_actions(rules, int(total), kind == "soft")
            cells[key] = _legal(cells[key], forced_hit, forced_stand)
        elif cells[key] != "P":
            counts = [0] * 10
            counts[RANKS.index(total)] = 2
            t, s = hand_total(counts)
            forced_hit, forced_stand = forced_actions(rules, t, s)
            cells[key] = _legal(cells[key], forced_hit, forced_stand)
    name = f"derived chart ({game}, {rulewords.decks(rules.decks)})"
    return StrategyChart(cells, name)


def _with_fallback(best: str, evs: dict[str, float]) -> str:
    if best in ("D", "R"):
        fallback = "S" if evs.get("S", -np.inf) > evs.get("H", -np.inf) else "H"
        return best + ("S" if fallback == "S" else "H")
    return best


def _pair_fallback(hands, first: dict, rank: int, up: str) -> str:
    """The best non-split action (with its fallback) of the pair of ``rank`` against ``up``;
    ``first`` maps (cell, up card) to the first row of ``hands`` holding it."""
    at = first.get((f"pair {RANKS[rank]}", up))
    if at is None:
        return "H"
    row = {a: float(np.asarray(hands[f"ev_{a}"])[at]) for a in ("S", "H", "D", "R")}
    evs = {a: v for a, v in row.items() if not np.isnan(v)}
    return _with_fallback(best_action(evs), evs)


def _legal(cell: str, forced_hit: bool, forced_stand: bool) -> str:
    """Repair a derived cell's fallback to what the forced ranges allow."""
    if cell in ("H",) and forced_stand:
        return "S"
    if cell in ("S",) and forced_hit:
        return "H"
    if len(cell) == 2 and cell[0] in "DR":
        if cell[1] == "S" and forced_hit:
            return cell[0] + "H"
        if cell[1] == "H" and forced_stand:
            return cell[0] + "S"
    return cell
