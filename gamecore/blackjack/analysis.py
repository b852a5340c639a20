"""The exact analysis of one rule set and shoe (:func:`exact`, :class:`BlackjackAnalysis`).

Optimal composition-dependent play (the engine's optimal solve), the table of two-card
hands read off it (:mod:`gamecore.blackjack.hand_table`), the chart derived from that table
and improved by exact pricing (:mod:`gamecore.blackjack.search`), a given chart's EV and the
composition-dependent exceptions to the chart (:mod:`gamecore.blackjack.chart_figures`),
insurance, and on request the spread of a round's result
(:mod:`gamecore.blackjack.results`), gathered in one result object. The deck sweep and the
rule costs repeat it over rule variants (:mod:`gamecore.blackjack.variants`).

Rules: :func:`exact` checks and resolves the rule set once; the steps after it
(:func:`analyse_shoe`, the engine, the search) take the resolved rules, and the result keeps
both (``rules`` as given, to print; ``resolved_rules``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from gamecore.blackjack.chart import (
    StrategyChart,
    chart_tables,
    read_strategy_chart,
    up_card_series,
    up_label,
)
from gamecore.blackjack.chart_figures import EXCEPTION_COLUMNS, chart_ev, composition_exceptions
from gamecore.blackjack.derived_chart import derive_chart
from gamecore.blackjack.engine import Engine
from gamecore.blackjack.hand_table import hand_columns, overall_ev, three_card_values
from gamecore.blackjack.results import result_distribution
from gamecore.blackjack.rules import (
    ACE,
    RANKS,
    SPLIT_STRATEGY_NAMES,
    TEN,
    StandardBlackjackRules,
    check_rules,
)
from gamecore.blackjack.search import CHANGE_COLUMNS, optimize_chart
from gamecore.blackjack.shoe import checked_shoe
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
    the command line's JSON (:meth:`to_dict`) needs no table, and pandas is imported only
    where a table is asked for.

    Attributes
    ----------
    rules
        The rule set analysed, as given (``auto`` values kept, as printed).
    resolved_rules
        The same rules resolved (every ``auto`` value fixed), as the analysis read them.
    shoe
        Cards per rank (A, 2..9, ten-valued) at the start of the round.
    player_ev
        EV per initial wager under optimal composition-dependent play (split hands as the
        rules' ``split_strategy`` says; CDZ- by default).
    ev_by_up, up_probability
        EV by up card (A, 2..10; :attr:`up_card_ev`) and each up card's probability
        (:attr:`up_card_probability`).
    hand_columns
        The columns of :attr:`hands`
        (:func:`~gamecore.blackjack.hand_table.hand_columns`).
    chart
        The best total-dependent chart found: the derived chart improved by exactly priced
        single-cell changes (:func:`gamecore.blackjack.search.optimize_chart`), or the
        derived chart itself when ``exact(..., search_chart=False)``.
    chart_ev, chart_ev_by_up
        Exact EV of ``chart`` (the "total-dependent" EV), overall and by up card
        (:attr:`chart_up_card_ev`).
    derived_chart, derived_chart_ev, derived_chart_ev_by_up
        The chart decided cell by cell from the two-card hands
        (:func:`~gamecore.blackjack.derived_chart.derive_chart`) and its
        exact EV, overall and by up card (:attr:`derived_chart_up_card_ev`).
    chart_change_rows
        The cells the search changed, with the exact EV gain of each (:attr:`chart_changes`).
    cells
        Every cell of ``chart`` with its value per action (:meth:`strategy_chart`).
    strategy, strategy_ev, strategy_ev_by_up
        A given chart and its exact EV, overall and by up card (:attr:`strategy_up_card_ev`),
        if one was given.
    exception_rows
        The composition-dependent exceptions to ``chart``
        (:func:`~gamecore.blackjack.chart_figures.composition_exceptions`; :attr:`exceptions`).
    insurance_ev
        EV per unit of insurance against an Ace up (off the top of the shoe); ``None`` when
        the shoe holds no Ace, so no Ace can show and insurance is never offered
        (:data:`INSURANCE_UNDEFINED`).
    player_sd, player_sd_exactness
        With ``exact(..., standard_deviation=True)``: the standard deviation of a round's
        net result under optimal play, per unit of the initial wager, and how exact it is.
    """

    rules: StandardBlackjackRules
    resolved_rules: StandardBlackjackRules
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
        """The composition-dependent exceptions
        (:func:`~gamecore.blackjack.chart_figures.composition_exceptions`)."""
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

        Returns
        -------
        list of dict
            One dict per cell, as above (a new list; the cells themselves are shared).
        """
        return list(self.cells or [])

    def summary(self) -> pd.DataFrame:
        """The headline figures, one row each.

        Returns
        -------
        pandas.DataFrame
            Figure | EV: the player's EV under optimal composition-dependent play (naming
            how split hands are played), under the given chart (if one was given), the
            best chart found and the derived chart; the P/D's edge; insurance's EV per unit
            insured. EVs per unit of the initial wager.
        """
        import pandas as pd

        rows = [
            (
                "Player EV, optimal composition-dependent play (split hands "
                f"{SPLIT_STRATEGY_NAMES[self.resolved_rules.split_strategy]})",
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
        """The JSON document of ``gamecore exact``.

        Returns
        -------
        dict
            ``game``, ``shoe`` (rank -> cards), the player's EVs (optimal, the best chart
            found, the derived chart), ``chart_name``, ``pd_edge``, ``insurance_ev``,
            ``up_cards`` (label -> probability and EVs), ``strategy_chart``
            (:meth:`strategy_chart`), ``rules`` (as given), ``resolved_rules``,
            ``float_note``; and where computed ``player_sd``, the exceptions
            (``composition_dependent_exceptions``) and the given chart's ``strategy_ev``.
        """
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
            "resolved_rules": self.resolved_rules.to_dict(),
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

    The entry point: the rule set is checked and resolved once here, the chart read and the
    shoe checked, and :func:`analyse_shoe` does the rest.

    Parameters
    ----------
    rules : StandardBlackjackRules
        :class:`StandardBlackjackRules` or :class:`C21BlackjackRules`.
    strategy : StrategyChart or str or pathlib.Path, optional
        A given chart (or the path of a chart CSV) to price beside the best one found.
    composition : sequence of int, optional
        Cards per rank (A, 2..9, ten-valued) in the shoe; default ``rules.decks`` decks.
    search_chart : bool, default True
        Improve the derived chart (:func:`~gamecore.blackjack.derived_chart.derive_chart`) by
        pricing every single-cell change exactly
        (:func:`gamecore.blackjack.search.optimize_chart`); with False the chart is the
        derived one.
    standard_deviation : bool, default False
        Also the standard deviation of a round's net result under optimal play
        (``player_sd``), from the probability of each result
        (:func:`gamecore.blackjack.results.result_distribution`): exact, except that the
        hands of a round resplit to three or four hands are combined as independent given the
        dealer's outcome (``player_sd_exactness`` says which, and how often).

    Returns
    -------
    BlackjackAnalysis
        Every figure of the analysis (its class docstring), EVs per unit of the initial
        wager.

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
    return analyse_shoe(rules, rules.resolved(), shoe, strategy, search_chart, standard_deviation)


def analyse_shoe(
    rules: StandardBlackjackRules,
    resolved: StandardBlackjackRules,
    shoe: np.ndarray | None,
    strategy: StrategyChart | None,
    search_chart: bool,
    standard_deviation: bool = False,
) -> BlackjackAnalysis:
    """:func:`exact` of arguments already checked: what an entry point that checked them
    (:func:`exact`, :func:`gamecore.blackjack.counting.count_analysis`) calls.

    Parameters
    ----------
    rules : StandardBlackjackRules
        Checked (:func:`~gamecore.blackjack.rules.check_rules`), as given: the result
        keeps them to print.
    resolved : StandardBlackjackRules
        The same rules resolved, by the entry point: every step takes these.
    shoe : numpy.ndarray or None
        Cards per rank, int64, checked (:func:`gamecore.blackjack.shoe.checked_shoe`);
        ``None``: the rules' full shoe.
    strategy : StrategyChart or None
        A given chart to price, read.
    search_chart, standard_deviation : bool
        As :func:`exact` takes them, checked.

    Returns
    -------
    BlackjackAnalysis
        As :func:`exact` returns it.
    """
    engine = Engine(resolved, shoe)
    tables = chart_tables(strategy, resolved) if strategy is not None else None
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
    """:func:`exact` after the optimal solve, but for the spread; ``rules`` as given, the
    resolved rules are ``engine.rules``."""
    resolved = engine.rules
    hands = hand_columns(engine, solved, split)
    opt_total, opt_by_up, up_p = overall_ev(hands, "best")
    derived = derive_chart(hands, resolved, rules.game, three_card_values(engine, solved, hands))
    # The search starts by evaluating the derived chart exactly: its EV comes with it.
    search = optimize_chart(resolved, derived, engine=engine, rows=None if search_chart else ())
    result = BlackjackAnalysis(
        rules=rules,
        resolved_rules=resolved,
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
        "dealer's outcome; every other round is exact; the SD is within "
        f"± {distribution.standard_deviation_bound:.2g} whatever their dependence"
    )


#: Why ``insurance_ev`` is ``None`` (JSON null) for a shoe without Aces.
INSURANCE_UNDEFINED = "undefined: the shoe holds no Ace, so insurance is never offered"


def insurance_ev(engine: Engine) -> float | None:
    """EV of a full insurance bet against an Ace up card, from the shoe less the Ace.

    Parameters
    ----------
    engine : Engine
        The engine of the shoe and the (resolved) rules (``insurance_pays``).

    Returns
    -------
    float or None
        EV per unit insured; ``None`` when the shoe holds no Ace, so no Ace can show and
        insurance is never offered (:data:`INSURANCE_UNDEFINED`).
    """
    shoe = engine.shoe.copy()
    if shoe[ACE] == 0:
        return None  # no Ace can show, so no insurance is offered (INSURANCE_UNDEFINED)
    shoe[ACE] -= 1
    p = shoe[TEN] / shoe.sum()
    return float(engine.rules.insurance_pays * p - (1 - p))
