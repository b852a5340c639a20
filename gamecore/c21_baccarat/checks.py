"""The simulated twins of 21st Century Baccarat's exact figures: every figure of the exact
engine beside its simulated twin, with its SE and z (:func:`gamecore.twins.twin_table`).

Central idea
------------
The simulator (:mod:`gamecore.c21_baccarat.sim`) plays the same strategy objects the exact
engine evaluates and tallies into its outcome categories, so each figure has a twin: the
headline EV and outcome probabilities, each seat of a full table, and the advantage charts'
cells. A chart cell's twin comes from a coin-flip strategy (draw with probability 1/2 at
every decision), so every cell is reached with both actions and each action's rounds
estimate its EV.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
import pandas as pd

from gamecore.c21_baccarat.exact import C21Analysis, count_deals
from gamecore.c21_baccarat.rules import HAND_LABELS, PAYOFF, C21BaccaratRules
from gamecore.c21_baccarat.sim import C21Simulation, simulate
from gamecore.c21_baccarat.strategies import (
    DealerStrategy,
    PlayerStrategy,
    house_way_dealer,
    house_way_player,
)
from gamecore.c21_baccarat.strategy_pair import StrategyPairResult
from gamecore.errors import GamecoreError
from gamecore.parallel import Run
from gamecore.twins import frequency_twin, mean_twin, twin_table


def cross_check(exact: StrategyPairResult, simulation: C21Simulation) -> pd.DataFrame:
    """Exact heads-up figures against a fresh-shoe simulation of the same strategy pair.

    Parameters
    ----------
    exact : StrategyPairResult
        The exact result (:meth:`gamecore.c21_baccarat.exact.C21Analysis.evaluate`).
    simulation : C21Simulation
        Fresh-shoe rounds of the same strategy pair, every seat's hands pooled.

    Returns
    -------
    pandas.DataFrame
        :func:`gamecore.twins.twin_table`: Figure | Exact | Simulated | SE | z | Hands; the
        player's EV, then each nonzero outcome probability, and any outcome of probability 0
        the simulation saw (z infinite: a certain mismatch, flagged rather than dropped).
    """
    if simulation.dealing.mode != "fresh":
        raise GamecoreError("the cross-check compares the exact figures with fresh-shoe rounds")
    if (exact.player, exact.dealer) != (simulation.player, simulation.dealer):
        raise GamecoreError("the exact result and the simulation play different strategies")
    hands = int(simulation.counts.sum())
    frequencies = simulation.outcome_frequencies()
    stats = simulation.seat_stats(simulation.counts.sum(axis=0, keepdims=True).reshape(-1, 7))
    rows = [
        {
            "Figure": "Player EV",
            **mean_twin(float(exact.player_ev), exact.sd, stats["mean"], hands),
            "Hands": hands,
        }
    ]
    for key, probability in exact.outcome_probabilities.items():
        p = float(probability)
        if p == 0 and frequencies[key] == 0:
            continue  # an impossible outcome, never seen: nothing to compare
        twin = frequency_twin(p, 0, hands) | {"Simulated": frequencies[key]}
        rows.append({"Figure": f"P({key[0]}: {key[1]})", **twin, "Hands": hands})
    return twin_table(rows)


def seat_cross_check(exact: StrategyPairResult, simulation: C21Simulation) -> pd.DataFrame:
    """Each seat of a full-table simulation beside the heads-up exact EV of the same strategy
    pair (Figure | Exact | Simulated | SE | z | Seat | Hands): a seat whose EV departs from the
    heads-up EV shows that seat order matters.

    Parameters
    ----------
    exact : StrategyPairResult
        The heads-up exact result of the strategy pair.
    simulation : C21Simulation
        A table of the same strategy pair, one seat or more.

    Returns
    -------
    pandas.DataFrame
        :func:`gamecore.twins.twin_table`: Figure | Exact | Simulated | SE | z | Seat |
        Hands, one row per seat.
    """
    if (exact.player, exact.dealer) != (simulation.player, simulation.dealer):
        raise GamecoreError("the exact result and the simulation play different strategies")
    rows = [
        {
            "Figure": f"Player EV, seat {seat['Seat']} (exact: heads-up)",
            **mean_twin(float(exact.player_ev), exact.sd, seat["Player EV"], seat["Hands"]),
            "Seat": seat["Seat"],
            "Hands": seat["Hands"],
        }
        for seat in simulation.by_seat().to_dict("records")
    ]
    return twin_table(rows)


def _cell_mean(tallies: np.ndarray) -> tuple[float, int]:
    """Mean net result of outcome tallies (last axis: outcomes) and their rounds (NaN for
    none)."""
    n = int(tallies.sum())
    return (float((tallies * PAYOFF).sum()) / n if n else math.nan), n


def _decisive(analysis: C21Analysis) -> C21Analysis:
    """The same counts with every loss counted as a win: its chart's EVs are each cell's
    exact chance of a decision (not a push), the second moment of a result in {-1, 0, 1},
    so that each cell's exact SD comes from the same contraction as its EV."""
    fold = np.zeros((len(PAYOFF), len(PAYOFF)), dtype=object)
    for o, pay in enumerate(PAYOFF):
        fold[o, o if pay >= 0 else int(np.flatnonzero(PAYOFF > 0)[0])] = 1
    return dataclasses.replace(
        analysis, drawn=analysis.drawn.dot(fold), concluded=analysis.concluded.dot(fold)
    )


def _cell_twin(ev: float, second_moment: float, simulated: float, n: int) -> dict[str, float]:
    """A chart cell's twin, its SE from the cell's exact SD (:func:`gamecore.twins.mean_twin`)."""
    return mean_twin(ev, math.sqrt(max(second_moment - ev**2, 0.0)), simulated, n)


def _coin_flip_player(rules: C21BaccaratRules) -> PlayerStrategy:
    # Every decision, forced or not, taken at random with probability 1/2, so every cell of
    # the chart is reached with both actions; deliberately outside the rules' forced ranges.
    return PlayerStrategy("coin flip", np.full((10, 10), 0.5))


def hit_chart_cross_check(
    analysis: C21Analysis,
    dealer: DealerStrategy,
    rounds: int,
    seed: int,
    threads: int | None = None,
) -> pd.DataFrame:
    """The advantage chart against simulation.

    The player draws at random with probability 1/2 on every two-card total, so for every
    (hand, up card) the rounds that drew and those that stood estimate the EV of hitting and
    of standing (the P/D plays ``dealer``, seeing whether the player drew).

    Parameters
    ----------
    analysis : C21Analysis
        The exact counts (:meth:`~gamecore.c21_baccarat.exact.C21Analysis.hit_chart`).
    dealer : DealerStrategy
        The P/D's strategy, the chart's and the simulation's.
    rounds : int
        Rounds simulated (each a fresh shoe, heads-up).
    seed : int
        The simulation's seed.
    threads : int, optional
        Threads to run on (``None``: every core); the result does not depend on it.

    Returns
    -------
    pandas.DataFrame
        :func:`gamecore.twins.twin_table`, one row per cell and action: Figure | Exact |
        Simulated | SE | z | Player hand | P/D up card | Action | Hands.
    """
    simulation = simulate(
        analysis.rules, Run(rounds, seed, threads), player=_coin_flip_player(analysis.rules),
        dealer=dealer,
    )  # fmt: skip
    chart = analysis.hit_chart(dealer)
    moments = _decisive(analysis).hit_chart(dealer)
    rows = []
    for (_, cell), (_, moment) in zip(chart.iterrows(), moments.iterrows(), strict=True):
        if cell["P/D up card"] == "joker":
            continue
        up, hand = int(cell["P/D up card"]), HAND_LABELS.index(cell["Player hand"])
        for action, label in ((1, "hit"), (0, "stand")):
            exact = cell[f"EV {label}"]
            if exact is None or exact != exact:
                continue
            mean, n = _cell_mean(simulation.player_cells[up, hand, action])
            rows.append(
                {
                    "Figure": f"EV of {label}: {cell['Player hand']} v P/D {up}",
                    **_cell_twin(float(exact), moment[f"EV {label}"], mean, n),
                    "Player hand": cell["Player hand"],
                    "P/D up card": up,
                    "Action": label,
                    "Hands": n,
                }
            )
    return twin_table(rows)


def pd_chart_cross_check(
    analysis: C21Analysis,
    player: PlayerStrategy,
    rounds: int,
    seed: int,
    threads: int | None = None,
) -> pd.DataFrame:
    """The P/D's chart against simulation: the P/D draws at random with probability 1/2 on
    every total, the player plays ``player``.

    Parameters
    ----------
    analysis : C21Analysis
        The exact counts (:meth:`~gamecore.c21_baccarat.exact.C21Analysis.pd_chart`).
    player : PlayerStrategy
        The player's strategy, the chart's and the simulation's.
    rounds : int
        Rounds simulated (each a fresh shoe, heads-up).
    seed : int
        The simulation's seed.
    threads : int, optional
        Threads to run on (``None``: every core); the result does not depend on it.

    Returns
    -------
    pandas.DataFrame
        :func:`gamecore.twins.twin_table`, one row per (up card, total, player drew) and
        action: the P/D's EV per unit of the player's wager, exact and simulated.
    """
    coin = DealerStrategy("coin flip", np.full((10, 2, 9), 0.5))
    simulation = simulate(analysis.rules, Run(rounds, seed, threads), player=player, dealer=coin)
    moments = _decisive(analysis).pd_chart(player)
    rows = []
    for (_, cell), (_, moment) in zip(
        analysis.pd_chart(player).iterrows(), moments.iterrows(), strict=True
    ):
        up, total, drew = int(cell["P/D up card"]), int(cell["P/D total"]), int(cell["Player drew"])
        for action, label in ((1, "hit"), (0, "stand")):
            mean, n = _cell_mean(simulation.pd_cells[up, drew, total, action])
            ev = float(cell[f"P/D EV {label}"])  # the P/D's side: minus the player's
            rows.append(
                {
                    "Figure": (
                        f"P/D EV of {label}: up {up}, total {total}, "
                        f"player {'drew' if drew else 'stood'}"
                    ),
                    **_cell_twin(ev, -moment[f"P/D EV {label}"], -mean, n),
                    "P/D up card": up,
                    "P/D total": total,
                    "Player drew": bool(drew),
                    "Action": label,
                    "Hands": n,
                }
            )
    return twin_table(rows)


def strategies_cross_check(
    analysis: C21Analysis, rounds: int, seed: int, threads: int | None = None
) -> pd.DataFrame:
    """Every row of ``analysis.strategy_table()`` against a simulation of its strategy pair.

    Parameters
    ----------
    analysis : C21Analysis
        The exact counts: House Way, each side's best response, the equilibrium.
    rounds : int
        Rounds simulated (each a fresh shoe, heads-up).
    seed : int
        The first simulation's seed (the k-th pair's: ``seed + k``).
    threads : int, optional
        Threads to run on (``None``: every core); the result does not depend on it.

    Returns
    -------
    pandas.DataFrame
        :func:`gamecore.twins.twin_table`: the player's EV, one row per strategy pair (Key,
        Player, P/D named).
    """
    rules = analysis.rules
    house_p, house_d = house_way_player(rules), house_way_dealer(rules)
    eq_p, eq_d, _ = analysis.equilibrium()
    pairs = {
        "house_way": (house_p, house_d),
        "player_best_response": (analysis.best_response_player(house_d), house_d),
        "pd_best_response": (house_p, analysis.best_response_dealer(house_p)),
        "equilibrium": (eq_p, eq_d),
    }
    rows = []
    for k, (key, (player, dealer)) in enumerate(pairs.items()):
        exact = analysis.evaluate(player, dealer)
        sim = simulate(rules, Run(rounds, seed + k, threads), player=player, dealer=dealer)
        mean, n = _cell_mean(sim.counts.sum(axis=(0, 1)))
        rows.append(
            {
                "Figure": f"Player EV, {player.name} v {dealer.name}",
                **mean_twin(float(exact.player_ev), exact.sd, mean, n),
                "Key": key,
                "Player": player.name,
                "P/D": dealer.name,
            }
        )
    return twin_table(rows)


def sweep_cross_check(
    rules: C21BaccaratRules,
    decks: Any,
    jokers: Any,
    rounds: int,
    seed: int,
    threads: int | None = None,
) -> pd.DataFrame:
    """Every column of :func:`gamecore.c21_baccarat.sweep` (the player's EV under House Way,
    each side's best response and the equilibrium) by decks and jokers per deck, exact
    against simulated: :func:`strategies_cross_check` at each shoe.

    Parameters
    ----------
    rules : C21BaccaratRules
        The rule set; its decks and jokers per deck are replaced by each pair.
    decks, jokers : iterable of int
        The deck counts and the jokers per deck, every pair of them.
    rounds : int
        Rounds simulated per strategy pair and shoe (each a fresh shoe, heads-up).
    seed : int
        The first simulation's seed: the k-th shoe's strategy pairs are seeded
        ``seed + 4k`` to ``seed + 4k + 3``.
    threads : int, optional
        Threads to run on (``None``: every core); the result does not depend on it.

    Returns
    -------
    pandas.DataFrame
        :func:`strategies_cross_check`'s rows for each (Decks, Jokers per deck), each
        Figure suffixed with its shoe, and Decks and Jokers per deck columns.
    """
    parts = []
    for k, (d, j) in enumerate((d, j) for d in decks for j in jokers):
        analysis = count_deals(rules.replace(decks=d, jokers_per_deck=j))
        check = strategies_cross_check(analysis, rounds, seed + 4 * k, threads)
        shoe = f"{d} deck{'s' * (d != 1)}, {j} joker{'s' * (j != 1)} per deck"
        check["Figure"] = check["Figure"] + f", {shoe}"
        check["Decks"] = d
        check["Jokers per deck"] = j
        parts.append(check)
    return pd.concat(parts, ignore_index=True)
