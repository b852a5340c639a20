"""The exact analysis of one rule set and shoe (:func:`exact`, :class:`BlackjackAnalysis`):
optimal composition-dependent play, the best total-dependent chart found, a given chart's EV,
the table of two-card hands, insurance; and the deck sweep and rule costs built on it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from gamecore.blackjack.backward import POLICY_CHART, Solved
from gamecore.blackjack.chart import (
    ChartTables,
    StrategyChart,
    chart_tables,
    read_strategy_chart,
    up_card_series,
    up_label,
)
from gamecore.blackjack.derived_chart import derive_chart
from gamecore.blackjack.engine import Engine, refuse_forbidden
from gamecore.blackjack.results import result_distribution
from gamecore.blackjack.round import (
    PLAY_HAND,
    chart_play,
    opening_value,
    opening_values,
    optimal_play,
)
from gamecore.blackjack.rules import (
    ACE,
    ACTIONS,
    HIT,
    RANKS,
    SPLIT_STRATEGY_NAMES,
    STAND,
    SURRENDER_KINDS,
    TEN,
    TIE,
    StandardBlackjackRules,
    check_rules,
)
from gamecore.blackjack.search import CHANGE_COLUMNS, optimize_chart
from gamecore.blackjack.shoe import checked_shoe
from gamecore.errors import GamecoreError, shown
from gamecore.rules import boolean

if TYPE_CHECKING:  # pandas is imported where a table is asked for: see BlackjackAnalysis
    import pandas as pd

# ---------------------------------------------------------------------------------------
# The analysis
# ---------------------------------------------------------------------------------------


@dataclasses.dataclass
class BlackjackAnalysis:
    """The exact analysis of one rule set and shoe.

    The figures by up card and the tables are kept as arrays and rows (the fields ending in
    ``_by_up``, ``hand_columns``, ``..._rows``) and given as pandas objects by the properties
    of the same meaning (``up_card_ev``, ``hands``, ``chart_changes``, ``exceptions``):
    the command line's JSON (:meth:`to_dict`) needs no table, and importing pandas is a tenth
    of its run.

    Attributes
    ----------
    rules
        The rule set analysed.
    shoe
        Cards per rank (A, 2..9, ten-valued) at the start of the round.
    player_ev
        EV per initial wager under optimal composition-dependent play (split hands as the
        rules' ``split_strategy`` says; CDZ- by default).
    ev_by_up, up_probability
        EV by up card (A, 2..10; :attr:`up_card_ev`) and each up card's probability
        (:attr:`up_card_probability`).
    hand_columns
        The columns of :attr:`hands` (:func:`hand_columns`).
    chart
        The best total-dependent chart found: the derived chart improved by exactly priced
        single-cell changes (:func:`gamecore.blackjack.search.optimize_chart`), or the
        derived chart itself when ``exact(..., search_chart=False)``.
    chart_ev, chart_ev_by_up
        Exact EV of ``chart`` (the "total-dependent" EV), overall and by up card
        (:attr:`chart_up_card_ev`).
    derived_chart, derived_chart_ev, derived_chart_ev_by_up
        The chart decided cell by cell from the two-card hands (:func:`derive_chart`) and its
        exact EV, overall and by up card (:attr:`derived_chart_up_card_ev`).
    chart_change_rows
        The cells the search changed, with the exact EV gain of each (:attr:`chart_changes`).
    cells
        Every cell of ``chart`` with its value per action (:meth:`strategy_chart`).
    strategy, strategy_ev, strategy_ev_by_up
        A given chart and its exact EV, overall and by up card (:attr:`strategy_up_card_ev`),
        if one was given.
    exception_rows
        The composition-dependent exceptions to ``chart`` (:func:`composition_exceptions`;
        :attr:`exceptions`).
    insurance_ev
        EV per unit of insurance against an Ace up (off the top of the shoe); ``None`` when
        the shoe holds no Ace, so no Ace can show and insurance is never offered
        (:data:`INSURANCE_UNDEFINED`).
    """

    rules: StandardBlackjackRules
    shoe: np.ndarray
    player_ev: float
    ev_by_up: np.ndarray
    up_probability: np.ndarray
    hand_columns: dict[str, np.ndarray]
    chart: StrategyChart
    chart_ev: float
    chart_ev_by_up: np.ndarray
    insurance_ev: float | None
    derived_chart: StrategyChart | None = None
    derived_chart_ev: float | None = None
    derived_chart_ev_by_up: np.ndarray | None = None
    chart_change_rows: tuple[dict[str, Any], ...] = ()
    cells: list[dict[str, Any]] | None = None
    strategy: StrategyChart | None = None
    strategy_ev: float | None = None
    strategy_ev_by_up: np.ndarray | None = None
    exception_rows: list[dict[str, Any]] | None = None
    player_sd: float | None = None
    player_sd_exactness: str | None = None

    @property
    def up_card_ev(self) -> pd.Series:
        """EV by up card under optimal play."""
        return up_card_series(self.ev_by_up, "player EV")

    @property
    def up_card_probability(self) -> pd.Series:
        return up_card_series(self.up_probability, "probability")

    @property
    def chart_up_card_ev(self) -> pd.Series:
        return up_card_series(self.chart_ev_by_up, self.chart.name)

    @property
    def derived_chart_up_card_ev(self) -> pd.Series | None:
        if self.derived_chart_ev_by_up is None:
            return None
        return up_card_series(self.derived_chart_ev_by_up, self.derived_chart.name)

    @property
    def strategy_up_card_ev(self) -> pd.Series | None:
        if self.strategy_ev_by_up is None:
            return None
        return up_card_series(self.strategy_ev_by_up, self.strategy.name)

    @property
    def hands(self) -> pd.DataFrame:
        """One row per (two-card hand, up card): probability and the EV of every action,
        unconditional (before the peek, dealer Naturals included), the best action."""
        import pandas as pd

        return pd.DataFrame(self.hand_columns)

    @property
    def chart_changes(self) -> pd.DataFrame:
        """Hand | Up card | From | To | EV gain: the cells the search changed."""
        import pandas as pd

        return pd.DataFrame(list(self.chart_change_rows), columns=list(CHANGE_COLUMNS))

    @property
    def exceptions(self) -> pd.DataFrame | None:
        """The composition-dependent exceptions (:func:`composition_exceptions`)."""
        if self.exception_rows is None:
            return None
        import pandas as pd

        return pd.DataFrame(self.exception_rows, columns=EXCEPTION_COLUMNS)

    @property
    def pd_edge(self) -> float:
        """The player/dealer's (banker's) edge per unit a player wagers: ``-player_ev``."""
        return -self.player_ev

    def strategy_chart(self) -> list[dict[str, Any]]:
        """Every cell of :attr:`chart` the chart reaches, as ``to_dict`` prints it.

        Each cell: ``hand`` (row), ``up_card``, ``best`` (the chart's action, H S D R P),
        ``chart`` (its letter with fallback, e.g. ``Dh``), ``hands_per_round`` (expected
        number of hands per round the cell plays, split hands included) and ``ev``: for each
        action the cell may take, the EV per unit wagered on a hand of the cell, averaged over
        every hand the chart plays by it (two-card and multi-card, unsplit and split),
        weighted by how often the chart reaches it, the rest of the chart unchanged; D and R
        with their better fallback; pair rows at the two-card pair. Under the peek these are
        EVs given the dealer has no Natural. Changing the cell to action ``a`` changes the
        chart's EV by ``hands_per_round * P(no Natural) * (ev[a] - ev[best])``.
        """
        return list(self.cells or [])

    def summary(self) -> pd.DataFrame:
        import pandas as pd

        rows = [
            (
                "Player EV, optimal composition-dependent play (split hands "
                f"{SPLIT_STRATEGY_NAMES[self.rules.resolved().split_strategy]})",
                self.player_ev,
            ),
            ("Player EV, best total-dependent chart found", self.chart_ev),
            ("Player EV, chart derived from two-card hands", self.derived_chart_ev),
            ("P/D edge (optimal play)", self.pd_edge),
            ("Insurance EV per unit insured", self.insurance_ev),
        ]
        if self.strategy_ev is not None:
            rows.insert(2, (f"Player EV, given chart {self.strategy.name}", self.strategy_ev))
        return pd.DataFrame(rows, columns=["Figure", "EV"])

    def to_dict(self) -> dict[str, Any]:
        out = {
            "game": self.rules.game,
            "shoe": {RANKS[r]: int(c) for r, c in enumerate(self.shoe)},
            "player_ev": self.player_ev,
            "player_ev_total_dependent": self.chart_ev,
            "player_ev_derived_chart": self.derived_chart_ev,
            "chart_name": self.chart.name,
            "pd_edge": self.pd_edge,
            "insurance_ev": self.insurance_ev,
            "up_cards": {
                up_label(u): {
                    "probability": float(self.up_probability[u]),
                    "player_ev": float(self.ev_by_up[u]),
                    "player_ev_total_dependent": float(self.chart_ev_by_up[u]),
                }
                for u in range(10)
            },
            "strategy_chart": self.strategy_chart(),
            "rules": self.rules.to_dict(),
            "resolved_rules": self.rules.resolved().to_dict(),
            "float_note": "EVs are float64 recursions over probabilities, not integer counts",
        }
        if self.player_sd is not None:
            out["player_sd"] = self.player_sd
            out["player_sd_exactness"] = self.player_sd_exactness
        if self.insurance_ev is None:
            out["insurance_note"] = INSURANCE_UNDEFINED
        if self.exception_rows is not None:
            out["composition_dependent_exceptions"] = [
                {
                    "cards": row["Cards"],
                    "up_card": row["Up card"],
                    "when": row["When"],
                    "chart": row["Chart"],
                    "best": row["Best"],
                    "ev_chart": row["EV, chart's action"],
                    "ev_best": row["EV, best action"],
                    "probability": row["Probability"],
                }
                for row in self.exception_rows
            ]
        if self.strategy_ev is not None:
            out["strategy_ev"] = self.strategy_ev
            out["strategy_name"] = self.strategy.name
        return out


def exact(
    rules: StandardBlackjackRules,
    strategy: StrategyChart | str | Path | None = None,
    composition: Sequence[int] | None = None,
    search_chart: bool = True,
    standard_deviation: bool = False,
) -> BlackjackAnalysis:
    """Exact analysis: optimal composition-dependent EV, the best total-dependent chart found
    and its EV, and (with ``strategy``) a given chart's EV.

    Parameters
    ----------
    rules
        :class:`StandardBlackjackRules` or :class:`C21BlackjackRules`.
    strategy
        A :class:`StrategyChart` or the path of a chart CSV.
    composition
        Cards per rank (A, 2..9, ten-valued) in the shoe; default ``rules.decks`` decks.
    search_chart
        Improve the derived chart (:func:`derive_chart`) by pricing every single-cell change
        exactly (:func:`gamecore.blackjack.search.optimize_chart`); with False the chart is
        the derived one.
    standard_deviation
        Also the standard deviation of a round's net result under optimal play
        (``player_sd``), from the probability of each result
        (:func:`gamecore.blackjack.results.result_distribution`): exact, except that the
        hands of a round resplit to three or four hands are combined as independent given the
        dealer's outcome (``player_sd_exactness`` says which, and how often).

    Examples
    --------
    >>> a = exact(StandardBlackjackRules(decks=1, double_after_split=False, max_split_hands=2))
    >>> round(a.player_ev * 100, 4)   # Farmer's 1 deck S17 NDAS SPL1 3:2, CDZ-: +0.0243%
    0.0243
    """
    rules = check_rules(rules)
    search_chart = boolean("search_chart", search_chart)
    standard_deviation = boolean("standard_deviation", standard_deviation)
    if strategy is not None and not isinstance(strategy, StrategyChart):
        strategy = read_strategy_chart(strategy)
    shoe = None
    if composition is not None:
        shoe = checked_shoe(composition, rules)
    engine = Engine(rules, shoe)
    tables = chart_tables(strategy, rules) if strategy is not None else None
    # Optimal: unsplit hands, then splits played as split_strategy says (CDZ- by default).
    solved, split, _actions = engine.caches.optimal()
    with ThreadPoolExecutor(1) as beside:
        # The spread needs optimal play only: worked beside the steps below, its threads
        # fill the core their single-threaded Python leaves idle.
        spread = beside.submit(_optimal_spread, engine) if standard_deviation else None
        result = _analysis(rules, strategy, search_chart, engine, tables, solved, split)
        if spread is not None:
            result.player_sd, result.player_sd_exactness = spread.result()
    return result


def _analysis(rules, strategy, search_chart, engine, tables, solved, split) -> BlackjackAnalysis:
    """:func:`exact` after the optimal solve, but for the spread."""
    hands = hand_columns(engine, solved, split)
    opt_total, opt_by_up, up_p = overall_ev(engine, hands, "best")
    derived = derive_chart(
        hands, engine.rules, rules.game, three_card_values(engine, solved, hands)
    )
    # The search starts by evaluating the derived chart exactly: its EV comes with it.
    search = optimize_chart(rules, derived, engine=engine, rows=None if search_chart else ())
    result = BlackjackAnalysis(
        rules=rules,
        shoe=engine.shoe,
        player_ev=opt_total,
        ev_by_up=opt_by_up,
        up_probability=up_p,
        hand_columns=hands,
        chart=search.chart if search_chart else derived,
        chart_ev=search.ev,
        chart_ev_by_up=search.ev_by_up,
        insurance_ev=insurance_ev(engine),
        derived_chart=derived,
        derived_chart_ev=search.start_ev,
        derived_chart_ev_by_up=search.start_ev_by_up,
        chart_change_rows=search.change_rows,
        cells=search.cells,
    )
    chart = search.chart if search_chart else derived
    result.exception_rows = composition_exceptions(engine, solved, split, chart, hands)
    if strategy is not None:
        result.strategy = strategy
        result.strategy_ev, result.strategy_ev_by_up = chart_ev(engine, strategy, tables)
    return result


def _optimal_spread(engine: Engine) -> tuple[float, str]:
    """The standard deviation of a round under optimal play, and how exact it is."""
    distribution = result_distribution(engine.rules, None, engine=engine)
    sd = distribution.standard_deviation
    if distribution.resplit_share == 0:
        return sd, "exact"
    return sd, (
        "approximate: the hands of a round resplit to three or four hands "
        f"({distribution.resplit_share:.4%} of rounds) are combined as independent given the "
        "dealer's outcome; every other round is exact"
    )


#: Why ``insurance_ev`` is ``None`` (JSON null) for a shoe without Aces.
INSURANCE_UNDEFINED = "undefined: the shoe holds no Ace, so insurance is never offered"


def insurance_ev(engine: Engine) -> float | None:
    """EV of a full insurance bet (per unit insured) against an Ace up card, from the shoe
    less the Ace; None when the shoe holds no Ace."""
    shoe = engine.shoe.copy()
    if shoe[ACE] == 0:
        return None  # no Ace can show, so no insurance is offered (INSURANCE_UNDEFINED)
    shoe[ACE] -= 1
    p = shoe[TEN] / shoe.sum()
    return float(engine.rules.insurance_pays * p - (1 - p))


def hand_table(engine: Engine, solved: Solved, split: np.ndarray) -> pd.DataFrame:
    """Every two-card hand against every up card: probabilities, the round's EV of every
    action (unconditional: the dealer's Natural counted) and the best action; one row per
    (hand, up card) of :func:`hand_columns`."""
    import pandas as pd

    return pd.DataFrame(hand_columns(engine, solved, split))


def hand_columns(engine: Engine, solved: Solved, split: np.ndarray) -> dict[str, np.ndarray]:
    """The columns of :func:`hand_table`, each an array over the (hand, up card) rows:
    ``up``, ``up_card``, the cards ``a`` and ``b``, ``hand``, ``total``, ``soft``, ``pair``,
    ``natural``, ``probability``, ``up_probability``, ``dealer_natural``, ``cell``, ``ev_S``
    .. ``ev_P`` (NaN where not allowed), ``best`` and ``ev_best``."""
    rows = []
    for up in range(10):
        p_up = engine.shoe[up] / engine.shoe.sum()
        for opening in engine.caches.openings(up):
            total, soft = opening.total
            values = opening_values(opening, solved.ev, split)
            best = optimal_play(opening, solved.ev, split, values).action
            rows.append(
                {
                    "up": up,
                    "up_card": up_label(up),
                    "a": opening.first,
                    "b": opening.second,
                    "hand": opening.label(),
                    "total": total,
                    "soft": soft,
                    "pair": opening.pair,
                    "natural": opening.natural,
                    "probability": opening.probability,
                    "up_probability": p_up,
                    "dealer_natural": opening.dealer_natural,
                    "cell": opening.cell(),
                    **{f"ev_{name}": values.get(name, np.nan) for name in ACTIONS},
                    "best": best,
                    "ev_best": values[best],
                }
            )
    return {name: np.array([row[name] for row in rows]) for name in rows[0]}


def three_card_values(
    engine: Engine, solved: Solved, hands: pd.DataFrame | Mapping[str, np.ndarray]
) -> dict[tuple[str, str], dict[str, float]]:
    """Stand and hit at the three-card hands optimal play reaches by hitting two cards:
    for each (hard/soft row, up card) the values of the row's three-card hands averaged over
    them, each weighted by its chance of being held (the two cards dealt, optimal play
    hitting them, the third card drawn from what is left; under the peek, no dealer
    Natural). An action some of those hands may not take is left out.

    These are the hands where a double's or a surrender's fallback is played (a first
    action no longer allowed after a hit): :func:`derive_chart` reads the fallback here.
    """
    nd, out = engine.nodes, {}
    total = np.where(nd.soft, nd.hard + 10, nd.hard)
    column = {name: np.asarray(hands[name]) for name in ("up", "a", "b", "probability")}
    hitting = (np.asarray(hands["best"]) == "H") & ~np.asarray(hands["natural"], dtype=bool)
    for up in np.unique(column["up"][hitting]).tolist():
        group = np.flatnonzero(hitting & (column["up"] == up))
        starts = np.zeros((len(group), 10), dtype=np.int64)
        np.add.at(starts, (np.arange(len(group)), column["a"][group]), 1)
        np.add.at(starts, (np.arange(len(group)), column["b"][group]), 1)
        nodes = np.array([engine.node_index[tuple(c)] for c in starts.tolist()])
        left = engine.shoe - starts
        left[:, up] -= 1
        # The chance of each (two cards, third card); a plain bust has no decision to make.
        chance = column["probability"][group][:, None] * left / left.sum(axis=1)[:, None]
        third = nd.child[nodes]
        held = (left > 0) & (third >= 0)
        held[held] = ~nd.bust[third[held]]
        j, weight = third[held], chance[held]
        rows = nd.soft[j].astype(np.int64) * 32 + total[j]
        reach = np.bincount(rows, weights=weight, minlength=64)
        for action in (STAND, HIT):
            values = solved.ev[j, up, action]
            allowed = np.bincount(rows, weights=np.isnan(values), minlength=64) == 0
            summed = np.bincount(
                rows, weights=np.where(np.isnan(values), 0.0, weight * values), minlength=64
            )
            for row in np.flatnonzero((reach > 0) & allowed):
                cell = (f"{'soft' if row >= 32 else 'hard'} {row % 32}", up_label(int(up)))
                out.setdefault(cell, {})[ACTIONS[action]] = float(summed[row] / reach[row])
    return out


def composition_exceptions(
    engine: Engine,
    solved: Solved,
    split: np.ndarray,
    chart: StrategyChart,
    hands: Mapping[str, np.ndarray] | None = None,
) -> list[dict[str, Any]]:
    """The two- and three-card hands whose best action (optimal composition-dependent play)
    differs from the action ``chart`` takes there, one dict per hand (the rows of
    :attr:`BlackjackAnalysis.exceptions`, :data:`EXCEPTION_COLUMNS`): Cards | Up card |
    When | Chart | Best | EV, chart's action | EV, best action | Gain | Probability.

    Two cards are compared as the round stands when they are dealt (round EVs, the dealer's
    Natural counted, as the table of two-card hands gives them: an early surrender escapes
    it); three cards after the check (EVs given no dealer Natural). Probability is the chance
    of holding those cards against that up card as the chart plays (three cards: the chart
    hits the first two, and the round goes on: no dealer Natural under the peek). Hands the
    chart splits or surrenders early are compared at the root. ``hands``: the columns of
    :func:`hand_columns` for ``solved`` and ``split``, where the caller has them already.
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


def overall_ev(engine, hands: pd.DataFrame | Mapping[str, np.ndarray], column: str):
    """(EV of a round, EV by up card, up card probabilities; arrays A, 2..10) from the hand
    table's ``ev_<column>`` (:func:`hand_columns`, or :func:`hand_table`)."""
    up = np.asarray(hands["up"])
    probability = np.asarray(hands["probability"], dtype=float)
    ev = np.asarray(hands[f"ev_{column}"], dtype=float)
    up_probability = np.asarray(hands["up_probability"], dtype=float)
    by_up = np.zeros(10)
    up_p = np.zeros(10)
    for u in np.unique(up).tolist():
        rows = np.flatnonzero(up == u)
        by_up[u] = float(np.dot(probability[rows], ev[rows]))
        up_p[u] = float(up_probability[rows[0]])
    return float(np.dot(by_up, up_p)), by_up, up_p


def chart_ev(engine: Engine, chart: StrategyChart, tables: ChartTables | None = None):
    """Exact EV of playing ``chart`` (splits resplit whenever the chart and rules allow),
    overall and by up card (an array, A, 2..10)."""
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


def deck_sweep(
    rules: StandardBlackjackRules, decks: Sequence[int] = (1, 2, 4, 6, 8)
) -> pd.DataFrame:
    """Player EV (optimal and total-dependent) and the P/D edge for each deck count.

    For the c21 game, ``auto`` rules follow each deck count (2 decks: double-deck rules).
    """
    import pandas as pd

    if isinstance(decks, (str, bytes)) or not isinstance(decks, Sequence) or not decks:
        raise GamecoreError(f"decks must be a list of deck counts, got {shown(decks)}")
    rows = []
    for d in decks:
        a = exact(rules.replace(decks=d))
        resolved = a.rules.resolved()
        rows.append(
            {
                "Decks": d,
                "Natural pays": resolved.natural_pays,
                "Max split hands": resolved.max_split_hands,
                "Player EV (optimal)": a.player_ev,
                "Player EV (total-dependent chart)": a.chart_ev,
                "P/D edge": a.pd_edge,
            }
        )
    return pd.DataFrame(rows)


def rule_costs(
    rules: StandardBlackjackRules, variants: Mapping[str, Mapping[str, Any]] | None = None
) -> pd.DataFrame:
    """EV change of each rule variant against ``rules`` (optimal play).

    ``variants`` maps a label to rule changes; the default compares the rules a regulator
    asks about: 6:5 against 3:2, the bust push on and off, each surrender kind, H17 against
    S17 and the double-deck rules.
    """
    import pandas as pd

    rules = check_rules(rules)
    base = exact(rules, search_chart=False)
    if variants is None:
        variants = default_variants(rules)
    if not isinstance(variants, Mapping) or not all(
        isinstance(changes, Mapping) for changes in variants.values()
    ):
        raise GamecoreError(
            "variants must map each label to rule changes, e.g. {'3:2': {'natural_pays': 1.5}}"
        )
    rows = [{"Variant": "as given", "Changes": "", "Player EV": base.player_ev, "EV change": 0.0}]
    for label, changes in variants.items():
        a = exact(rules.replace(**changes), search_chart=False)
        rows.append(
            {
                "Variant": label,
                "Changes": ", ".join(f"{k}={v}" for k, v in changes.items()),
                "Player EV": a.player_ev,
                "EV change": a.player_ev - base.player_ev,
            }
        )
    return pd.DataFrame(rows)


def default_variants(rules: StandardBlackjackRules) -> dict[str, dict[str, Any]]:
    resolved = rules.resolved()
    variants: dict[str, dict[str, Any]] = {}
    variants["Natural pays 3:2"] = {"natural_pays": 1.5}
    variants["Natural pays 6:5"] = {"natural_pays": 1.2}
    variants["Natural pays even money"] = {"natural_pays": 1.0}
    other = "none" if resolved.bust_push != "none" else "three_card_23_25"
    variants[f"bust push {other}"] = {"bust_push": other}
    for kind in SURRENDER_KINDS:
        if kind != resolved.surrender:
            variants[f"surrender {kind}"] = {"surrender": kind}
    variants["dealer stands soft 17" if resolved.dealer_hits_soft_17 else "dealer hits soft 17"] = {
        "dealer_hits_soft_17": not resolved.dealer_hits_soft_17
    }
    variants["split to 2 hands only"] = {"max_split_hands": 2}
    variants["double-deck rules (even money, two hands)"] = {
        "natural_pays": 1.0,
        "max_split_hands": 2,
    }
    variants["no double after split"] = {"double_after_split": False}
    variants["no forced totals" if resolved.player_forced == "c21" else "c21 forced totals"] = {
        "player_forced": "none" if resolved.player_forced == "c21" else "c21"
    }
    return {
        k: v
        for k, v in variants.items()
        if any(getattr(resolved, name) != value for name, value in v.items())
    }
