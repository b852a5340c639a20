"""A total-dependent chart played exactly on one shoe, against optimal play.

A chart's exact EV (:func:`chart_ev`: the engine's chart pass, splits resplit whenever the
chart and rules allow) and the hands where it departs from optimal composition-dependent play
(:func:`composition_exceptions`: the two- and three-card hands whose best action is not the
chart's, each with what it costs and how often it is held).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from gamecore.blackjack.backward import POLICY_CHART, Solved
from gamecore.blackjack.chart import ChartTables, StrategyChart, chart_tables, up_label
from gamecore.blackjack.engine import Engine, refuse_forbidden
from gamecore.blackjack.hand_table import hand_columns
from gamecore.blackjack.round import PLAY_HAND, chart_play, opening_value
from gamecore.blackjack.rules import ACTIONS, RANKS, TIE


def chart_ev(
    engine: Engine, chart: StrategyChart, tables: ChartTables | None = None
) -> tuple[float, np.ndarray]:
    """Exact EV of playing ``chart`` (splits resplit whenever the chart and rules allow),
    overall and by up card.

    Parameters
    ----------
    engine : Engine
        The engine of the shoe and the (resolved) rules.
    chart : StrategyChart
        The chart played; a cell whose action and fallback the rules forbid where the chart
        plays it is refused (a :class:`GamecoreError`).
    tables : ChartTables, optional
        ``chart``'s tables (:func:`gamecore.blackjack.chart.chart_tables`), where the
        caller has them already.

    Returns
    -------
    tuple of (float, numpy.ndarray)
        The EV of a round per initial wager, and the EV given each up card (float64, up
        cards A, 2..10).
    """
    tables = chart_tables(chart, engine.rules) if tables is None else tables
    solved = engine.solve(policy=POLICY_CHART, tables=tables)
    refuse_forbidden(solved.action, engine, chart)
    split = engine.split_values(None, POLICY_CHART, tables)
    by_up = np.zeros(10)
    for up in range(10):
        total = 0.0
        for opening in engine.caches.openings(up):
            play = chart_play(opening, chart, tables, split).play
            total += opening.probability * opening_value(opening, play, solved.value, split)
        by_up[up] = total
    up_p = engine.shoe / engine.shoe.sum()
    return float(np.dot(by_up, up_p)), by_up


def composition_exceptions(
    engine: Engine,
    solved: Solved,
    split: np.ndarray,
    chart: StrategyChart,
    hands: Mapping[str, np.ndarray] | None = None,
) -> list[dict[str, Any]]:
    """The two- and three-card hands whose best action (optimal composition-dependent play)
    differs from the action ``chart`` takes there.

    Two cards are compared as the round stands when they are dealt (round EVs, the dealer's
    Natural counted, as the table of two-card hands gives them: an early surrender escapes
    it); three cards after the check (EVs given no dealer Natural). Probability is the chance
    of holding those cards against that up card as the chart plays (three cards: the chart
    hits the first two, and the round goes on: no dealer Natural under the peek). Hands the
    chart splits or surrenders early are compared at the root.

    Parameters
    ----------
    engine : Engine
        The engine of the shoe.
    solved : Solved
        Its optimal solve of the unsplit hands.
    split : numpy.ndarray
        Optimal play's split values, float64 (pair rank, up card).
    chart : StrategyChart
        The chart compared with optimal play.
    hands : mapping of str to numpy.ndarray, optional
        The columns of :func:`gamecore.blackjack.hand_table.hand_columns` for ``solved`` and
        ``split``, where the caller has them already.

    Returns
    -------
    list of dict
        One dict per hand, the rows of
        :attr:`~gamecore.blackjack.analysis.BlackjackAnalysis.exceptions` by
        :data:`EXCEPTION_COLUMNS`: Cards | Up card | When (two or three cards) | Chart |
        Best | EV, chart's action | EV, best action | Gain (EVs per unit wagered) |
        Probability (of holding the cards against the up card as the chart plays).
    """
    hands = hand_columns(engine, solved, split) if hands is None else hands
    # The two-card hands' round EVs (NaN: not allowed) and best actions, row by row.
    evs = {name: np.asarray(hands[f"ev_{name}"]).tolist() for name in ACTIONS}
    bests = np.asarray(hands["best"]).tolist()
    tables = chart_tables(chart, engine.rules)
    played = engine.solve(policy=POLICY_CHART, tables=tables)
    rows = []
    p_up = engine.shoe / engine.shoe.sum()
    # The two-card hands the chart hits, with their chances (the third card comes after).
    hit_node, hit_up, hit_weight = [], [], []
    k = -1
    for up in range(10):
        for opening in engine.caches.openings(up):
            k += 1  # the hand table's rows come in this order
            if opening.natural:
                continue
            i = opening.node
            values = {name: evs[name][k] for name in ACTIONS if not math.isnan(evs[name][k])}
            # Whether a split can be played depends on the shoe only, not on the policy:
            # the optimal split values say it as well as the chart's would.
            choice = chart_play(opening, chart, tables, split)
            mine = ACTIONS[played.action[i, up]] if choice.play == PLAY_HAND else choice.action
            best = bests[k]
            weight = p_up[up] * opening.probability
            if mine != best and mine in values:
                rows.append(_exception(opening.counts, up, "two cards", mine, best, values, weight))
            if mine == "H" and choice.play == PLAY_HAND:
                hit_node.append(i)
                hit_up.append(up)
                hit_weight.append(weight)
    return [*rows, *_three_card_exceptions(engine, solved, played, hit_node, hit_up, hit_weight)]


def _three_card_exceptions(engine, solved, played, nodes, ups, weights) -> list[dict[str, Any]]:
    """The rows of :func:`composition_exceptions` for the three-card hands the chart holds
    after hitting the two-card hands ``nodes`` against ``ups`` (held with chance
    ``weights``): EVs given no dealer Natural, one row per hand, the chances of its two-card
    starts added in the order they come."""
    if not nodes:
        return []
    nd = engine.nodes
    start, start_up = np.array(nodes), np.array(ups)
    # The third card drawn from what is left; each (start, third card) a row, in order.
    left = engine.shoe - nd.counts[start]
    left[np.arange(len(start)), start_up] -= 1
    chances = np.array(weights)[:, None] * left / left.sum(axis=1)[:, None]
    child = nd.child[start]
    up_of = np.repeat(start_up[:, None], 10, axis=1)
    held = (left > 0) & (child >= 0)
    held[held] = ~nd.bust[child[held]] & (played.action[child[held], up_of[held]] >= 0)
    j, up, chance = child[held], up_of[held], chances[held]
    live = 1.0 - solved.natural[j, up]
    # Against an up card that is a dealer Natural for certain (a small shoe's last cards)
    # the hand is never played under the peek: it has no EV given no Natural, no chance.
    goes_on = live > 0
    j, up, chance, live = j[goes_on], up[goes_on], chance[goes_on], live[goes_on]
    ev = solved.ev[j, up, :4] / live[:, None]
    # rules.best_action on each row: the first of S H D R within TIE of the best allowed.
    top = np.nanmax(ev, axis=1)
    best = np.argmax(ev >= (top - TIE)[:, None], axis=1)
    threes: dict[tuple[int, int], dict[str, Any]] = {}
    for k in np.flatnonzero(best != played.action[j, up]).tolist():
        key = (int(j[k]), int(up[k]))
        if key not in threes:
            values = {ACTIONS[a]: float(ev[k, a]) for a in range(4) if not np.isnan(ev[k, a])}
            three_mine, three_best = ACTIONS[played.action[key]], ACTIONS[best[k]]
            threes[key] = _exception(
                nd.counts[key[0]], key[1], "three cards", three_mine, three_best, values, 0
            )
        # Under the peek the round goes on only without a dealer Natural.
        threes[key]["Probability"] += float(chance[k] * live[k])
    return list(threes.values())


EXCEPTION_COLUMNS = [
    "Cards",
    "Up card",
    "When",
    "Chart",
    "Best",
    "EV, chart's action",
    "EV, best action",
    "Gain",
    "Probability",
]


def _exception(counts, up, when, mine, best, values, weight) -> dict[str, Any]:
    return {
        "Cards": ",".join(RANKS[r] for r in range(10) for _ in range(int(counts[r]))),
        "Up card": up_label(up),
        "When": when,
        "Chart": mine,
        "Best": best,
        "EV, chart's action": float(values[mine]),
        "EV, best action": float(values[best]),
        "Gain": float(values[best] - values[mine]),
        "Probability": float(weight),
    }
