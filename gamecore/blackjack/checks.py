"""The simulated twins of the blackjack figures: each exact figure beside the same figure
measured on dealt rounds, with its standard error and z-score (:mod:`gamecore.twins`).

- :func:`cross_check`: a strategy's EV, overall and given each up card;
- :func:`cell_cross_check`, :func:`probe_cross_check`: every chart cell's EV, and every
  letter's from a probing run;
- :func:`results_cross_check`: each final result's probability;
- :func:`dealer_cross_check`, :func:`insurance_cross_check`: the dealer's distribution and
  the insurance EV;
- :func:`deck_sweep_check`, :func:`rule_costs_check`: the deck sweep and the rule costs.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from gamecore import rulewords
from gamecore.blackjack.analysis import BlackjackAnalysis, exact
from gamecore.blackjack.chart import LETTERS, pretty_cell, up_label
from gamecore.blackjack.dealer import dealer_final_distribution
from gamecore.blackjack.results import ResultDistribution
from gamecore.blackjack.round_tables import (
    PAIR_ROW0,
    SOFT_ROW0,
)
from gamecore.blackjack.rules import (
    ACE,
    DEALER_OUTCOMES,
    NATURAL,
    RANKS,
    TEN,
    UP_CARD_ORDER,
    StandardBlackjackRules,
    check_rules,
)
from gamecore.blackjack.sim import (
    OPTIMAL,
    BlackjackSimulation,
    DealerSimulation,
    simulate,
)
from gamecore.blackjack.variants import default_variants, rule_costs
from gamecore.errors import GamecoreError, shown
from gamecore.twins import APPROXIMATE, frequency_twin, twin_table


def cross_check(exact: BlackjackAnalysis, simulation: BlackjackSimulation) -> pd.DataFrame:
    """The simulated strategy's EV, overall and given each up card, beside its twin
    (:func:`gamecore.twins.twin_table`: Figure | Exact | Simulated | SE | z | Up card |
    Rounds).

    ``exact`` must hold that strategy's EV under the same rules: optimal play
    (``player_ev``), the analysis's chart, its derived chart, or the ``strategy`` it was
    given.

    Parameters
    ----------
    exact : BlackjackAnalysis
        The exact analysis.
    simulation : BlackjackSimulation
        The simulated strategy's rounds.

    Returns
    -------
    pandas.DataFrame
        A twin table (:func:`gamecore.twins.twin_table`), a row overall then one per up card.
    """
    if simulation.rules != exact.rules:
        raise GamecoreError("the simulation and the analysis are of different rules")
    if simulation.chart is None:
        ev, by_up = exact.player_ev, exact.up_card_ev
        name = "optimal composition-dependent play"
    elif simulation.chart.cells == exact.chart.cells:
        ev, by_up, name = exact.chart_ev, exact.chart_up_card_ev, simulation.chart.name
    elif exact.strategy is not None and simulation.chart.cells == exact.strategy.cells:
        ev, by_up, name = exact.strategy_ev, exact.strategy_up_card_ev, simulation.chart.name
    elif exact.derived_chart is not None and simulation.chart.cells == exact.derived_chart.cells:
        ev, by_up = exact.derived_chart_ev, exact.derived_chart_up_card_ev
        name = simulation.chart.name
    else:
        raise GamecoreError("the simulated chart is neither the analysis's chart nor its strategy")
    sim = simulation.player()
    rows = [
        {
            "Figure": f"Player EV, {name}",
            "Exact": ev,
            "Simulated": sim["mean"],
            "SE": sim["se"],
            "Up card": "any",
            "Rounds": simulation.rounds,
        }
    ]
    for _, up in simulation.by_up_card().iterrows():
        if up["Rounds"]:
            label = up["Up card"]
            rows.append(
                {
                    "Figure": f"Player EV given up card {label}",
                    "Exact": float(by_up[label]),
                    "Simulated": up["Mean"],
                    "SE": up["SE"],
                    "Up card": label,
                    "Rounds": up["Rounds"],
                }
            )
    return twin_table(rows)


def _dealer_twin(figure: str, exact: float, successes: int, trials: int) -> dict[str, Any]:
    return {"Figure": figure, **frequency_twin(exact, successes, trials)}


def dealer_cross_check(simulation: DealerSimulation) -> pd.DataFrame:
    """Each dealer outcome's probability by up card, before the check for a Natural and
    (under an Ace or a 10 where the rules peek) after it, beside its simulated twin.

    Parameters
    ----------
    simulation : DealerSimulation
        Simulated dealer hands (its rules' exact figures are computed here).

    Returns
    -------
    pandas.DataFrame
        A twin table (:func:`gamecore.twins.twin_table`).
    """
    rules = simulation.rules.resolved()
    rows = []
    for up in UP_CARD_ORDER:
        label = up_label(up)
        counts = simulation.counts[up]
        exact = dealer_final_distribution(rules, label)
        for o, outcome in enumerate(DEALER_OUTCOMES):
            rows.append(
                {
                    **_dealer_twin(
                        f"P(dealer {outcome} | up {label})",
                        float(exact.iloc[o]),
                        int(counts[o]),
                        int(counts.sum()),
                    ),
                    "Up card": label,
                    "Outcome": outcome,
                    "When": "before the check",
                    "Hands": int(counts.sum()),
                }
            )
        if rules.peek and up in (ACE, TEN):
            after = dealer_final_distribution(rules, label, after_peek=True)
            live = int(counts.sum() - counts[NATURAL])
            for o, outcome in enumerate(DEALER_OUTCOMES[:-1]):
                rows.append(
                    {
                        **_dealer_twin(
                            f"P(dealer {outcome} | up {label}, no Natural)",
                            float(after.iloc[o]),
                            int(counts[o]),
                            live,
                        ),
                        "Up card": label,
                        "Outcome": outcome,
                        "When": "after the check",
                        "Hands": live,
                    }
                )
    return twin_table(rows)


def insurance_cross_check(
    analysis: BlackjackAnalysis, simulation: DealerSimulation
) -> pd.DataFrame:
    """The insurance EV per unit insured against an Ace up beside its twin: the hands dealt
    under an Ace, insured, win ``insurance_pays`` when the hole card makes a Natural.

    Parameters
    ----------
    analysis : BlackjackAnalysis
        The exact analysis (its insurance EV).
    simulation : DealerSimulation
        Simulated dealer hands under the same rules.

    Returns
    -------
    pandas.DataFrame
        A twin table (:func:`gamecore.twins.twin_table`), one row.
    """
    pays = float(analysis.resolved_rules.insurance_pays)
    counts = simulation.counts[ACE]
    n, wins = int(counts.sum()), int(counts[NATURAL])
    p = wins / n if n else math.nan
    mean = pays * p - (1 - p)
    ev = analysis.insurance_ev
    # SE under the exact figure (gamecore.twins): the exact chance of the Natural, from
    # ev = (pays + 1) p - 1, not the simulated one (0 Naturals seen would give SE 0).
    exact_p = math.nan if ev is None else min(max((ev + 1) / (pays + 1), 0.0), 1.0)
    se = (pays + 1) * math.sqrt(exact_p * (1 - exact_p) / n) if n else math.nan
    return twin_table(
        [
            {
                "Figure": "Insurance EV per unit insured",
                "Exact": ev,
                "Simulated": mean,
                "SE": se,
                "Hands": n,
            }
        ]
    )


def _ev_twin(figure: str, exact: float, simulation: BlackjackSimulation) -> dict[str, Any]:
    sim = simulation.player()
    return {
        "Figure": figure,
        "Exact": exact,
        "Simulated": sim["mean"],
        "SE": sim["se"],
        "Rounds": simulation.rounds,
    }


def deck_sweep_check(
    rules: StandardBlackjackRules,
    decks=(1, 2, 4, 6, 8),
    rounds: int = 4_000_000,
    seed: int = 1,
    progress: bool | None = None,
) -> pd.DataFrame:
    """The deck sweep's EVs (optimal play and the best chart found) beside their twins; the
    simulation for the k-th deck count uses seeds ``seed + 2k`` and ``seed + 2k + 1``.

    Parameters
    ----------
    rules : StandardBlackjackRules
        The rules; each deck count replaces their ``decks``.
    decks : sequence of int, default (1, 2, 4, 6, 8)
        The deck counts.
    rounds : int, default 4,000,000
        Rounds per simulation.
    seed : int, default 1
        The first seed.
    progress : bool, optional
        Show a progress bar; ``None`` shows one for runs of more than a few chunks.

    Returns
    -------
    pandas.DataFrame
        A twin table (:func:`gamecore.twins.twin_table`), two rows per deck count.
    """
    rows = []
    for k, d in enumerate(decks):
        variant = rules.replace(decks=d)
        a = exact(variant)
        optimal = simulate(variant, OPTIMAL, rounds, seed + 2 * k, progress=progress)
        chart = simulate(variant, a.chart, rounds, seed + 2 * k + 1, progress=progress)
        for case, ev, simulated in (
            ("optimal play", a.player_ev, optimal),
            ("best chart found", a.chart_ev, chart),
        ):
            twin = _ev_twin(f"Player EV, {case}, {rulewords.decks(d)}", ev, simulated)
            rows.append({**twin, "Decks": d, "Case": case})
    return twin_table(rows)


def rule_costs_check(
    rules: StandardBlackjackRules,
    variants=None,
    rounds: int = 4_000_000,
    seed: int = 1,
    progress: bool | None = None,
    costs: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Each rule variant's EV under optimal play beside its twin, and the EV change beside
    the difference of the two simulations (their standard errors combined). The exact
    figures are :func:`gamecore.blackjack.rule_costs`'s (pass its table as ``costs`` not to
    compute them again). The k-th variant is simulated with seed ``seed + k + 1``.

    Parameters
    ----------
    rules : StandardBlackjackRules
        The rules as given.
    variants : dict, optional
        Label -> rule changes; default :func:`~gamecore.blackjack.variants.default_variants`.
    rounds : int, default 4,000,000
        Rounds per simulation.
    seed : int, default 1
        The first seed.
    progress : bool, optional
        Show a progress bar; ``None`` shows one for runs of more than a few chunks.
    costs : pandas.DataFrame, optional
        :func:`~gamecore.blackjack.variants.rule_costs`'s table, if made already.

    Returns
    -------
    pandas.DataFrame
        A twin table (:func:`gamecore.twins.twin_table`) with a Variant column.
    """
    rules = check_rules(rules)
    if variants is None:
        variants = default_variants(rules)
    if costs is None:
        costs = rule_costs(rules, variants)
    exact = costs.set_index("Variant")
    base_sim = simulate(rules, OPTIMAL, rounds, seed, progress=progress)
    base_mean, base_se = base_sim.player()["mean"], base_sim.player()["se"]
    base_ev = float(exact.loc["as given", "Player EV"])
    rows = [{**_ev_twin("Player EV, as given", base_ev, base_sim), "Variant": "as given"}]
    for k, (label, changes) in enumerate(variants.items()):
        sim = simulate(rules.replace(**changes), OPTIMAL, rounds, seed + k + 1, progress=progress)
        ev_row = _ev_twin(f"Player EV, {label}", exact.loc[label, "Player EV"], sim)
        rows.append({**ev_row, "Variant": label})
        # The change against the rules as given: the difference of the two simulations, their
        # standard errors combined.
        rows.append(
            {
                "Figure": f"EV change, {label}",
                "Exact": exact.loc[label, "EV change"],
                "Simulated": ev_row["Simulated"] - base_mean,
                "SE": math.hypot(ev_row["SE"], base_se),
                "Variant": label,
                "Rounds": sim.rounds,
            }
        )
    return twin_table(rows)


def _cell_row(hand: str) -> int:
    kind, what = hand.split()
    if kind == "hard":
        return int(what) - 4
    if kind == "soft":
        return SOFT_ROW0 + int(what) - 12
    return PAIR_ROW0 + RANKS.index(what)


def cell_cross_check(analysis: BlackjackAnalysis, simulation: BlackjackSimulation) -> pd.DataFrame:
    """Each cell of the analysis's chart: the EV of the chart's action on the hands the cell
    plays (``chart_ev`` of :meth:`~gamecore.blackjack.BlackjackAnalysis.strategy_chart`)
    beside the mean result of the simulated hands that decided in that cell.

    A cell whose action is a surrender taken before the check for a Natural (against an Ace
    or a 10 under early or c21 surrender) is valued counting the Natural it escapes; the
    simulated hands decide after the check, so it has no twin here (z left blank).

    Parameters
    ----------
    analysis : BlackjackAnalysis
        The exact analysis (its chart, its rules).
    simulation : BlackjackSimulation
        A simulation of that chart under the same rules.

    Returns
    -------
    pandas.DataFrame
        A twin table (:func:`gamecore.twins.twin_table`), a row per cell.
    """
    if simulation.chart is None or simulation.chart.cells != analysis.chart.cells:
        raise GamecoreError("cell_cross_check needs a simulation of the analysis's chart")
    if simulation.rules != analysis.rules:
        raise GamecoreError("the simulation and the analysis are of different rules")
    total, squares, visits = simulation.cells
    rows = []
    for cell in analysis.strategy_chart():
        row, up = _cell_row(cell["hand"]), _UP_LABELS.index(cell["up_card"])
        n = int(visits[row, up])
        exact = cell["chart_ev"]
        mean = total[row, up] / 2 / n if n else float("nan")
        var = (squares[row, up] / 4 - n * mean**2) / (n - 1) if n > 1 else float("nan")
        se = math.sqrt(max(var, 0.0) / n) if n > 1 else float("nan")
        twin = not cell["early_surrender"] and n > 1 and se > 0
        rows.append(
            {
                "Figure": f"EV of {cell['chart']}: {cell['hand']} v {cell['up_card']}",
                "Exact": exact,
                "Simulated": mean if twin else float("nan"),
                "SE": se if twin else float("nan"),
                "Hand": cell["hand"],
                "Up card": cell["up_card"],
                "Chart": cell["chart"],
                "Hands": n,
            }
        )
    return twin_table(rows)


#: Fewest probed hands for a letter's twin (its SE needs a sample to be estimated from).
MIN_PROBES = 50


def probe_cross_check(analysis: BlackjackAnalysis, simulation: BlackjackSimulation) -> pd.DataFrame:
    """Every letter of every hard/soft cell of the analysis's chart: its exact EV on the
    hands the cell plays (``letter_ev`` of the strategy card) beside its twin from a probing
    run (``simulate(..., probe_rate=q)``).

    In a probing run each decision of a hand is, with chance ``q``, played by a letter drawn
    at random; a probe reached after ``k`` unprobed decisions has chance ``q (1 - q)^k / 6``
    against the chart's reach, so the probed hands' results weighted by its inverse, over
    the reached decisions weighted by ``(1 - q)^-k``, estimate the letter's EV on the cell's
    hands (a ratio estimator; its SE by the delta method; at least :data:`MIN_PROBES` probed
    hands, else the twin is left blank). Surrender taken before the check
    (against an Ace or a 10 under early or c21 surrender) has no twin here: neither its
    letters, nor any letter of a cell whose two-card hands surrender so (they never reach a
    decision in the simulation).

    Parameters
    ----------
    analysis : BlackjackAnalysis
        The exact analysis (its chart, its rules).
    simulation : BlackjackSimulation
        A probing run of that chart under the same rules.

    Returns
    -------
    pandas.DataFrame
        A twin table (:func:`gamecore.twins.twin_table`), a row per letter of each cell.
    """
    if simulation.chart is None or simulation.chart.cells != analysis.chart.cells:
        raise GamecoreError("probe_cross_check needs a simulation of the analysis's chart")
    if simulation.rules != analysis.rules:
        raise GamecoreError("the simulation and the analysis are of different rules")
    if not simulation.probe_rate:
        raise GamecoreError("probe_cross_check needs a run with probe_rate > 0")
    rows = []
    for cell in analysis.strategy_chart():
        if cell["hand"].startswith("pair"):
            continue
        row, up = _cell_row(cell["hand"]), _UP_LABELS.index(cell["up_card"])
        y, yy = simulation.probe_den[row, up]
        for k, letter in enumerate(LETTERS):
            exact = cell["letter_ev"].get(letter)
            if exact is None:
                continue  # a letter some hand of the cell cannot play
            x, xx, xy, probes = simulation.probe_sums[row, up, k]
            # Cells whose two-card hands surrender before the check never reach a decision
            # in the simulation, and an early surrender's value counts the Natural escaped.
            early = cell["early_surrender"] or (cell["surrender_before_check"] and letter[0] == "R")
            twin = probes >= MIN_PROBES and not early
            ratio = x / y if twin else float("nan")
            var = xx - 2 * ratio * xy + ratio**2 * yy if twin else float("nan")
            se = math.sqrt(max(var, 0.0)) / y if twin else float("nan")
            ok = twin and se > 0
            rows.append(
                {
                    "Figure": f"EV of {pretty_cell(letter)}: {cell['hand']} v {cell['up_card']}",
                    "Exact": exact,
                    "Simulated": ratio if ok else float("nan"),
                    "SE": se if ok else float("nan"),
                    "Hand": cell["hand"],
                    "Up card": cell["up_card"],
                    "Letter": pretty_cell(letter),
                    "Chart": cell["chart"],
                    "Probes": int(probes),
                }
            )
    return twin_table(rows)


def results_cross_check(exact: ResultDistribution, simulation: BlackjackSimulation) -> pd.DataFrame:
    """Each result's probability beside its simulated twin, in two parts: the rounds known
    exactly (no resplit) and the rounds with a resplit (approximate).

    The exact part's z obeys the 4-sigma rule (family-wise, :func:`gamecore.twins.
    z_threshold`); the resplit part's z measures the approximation, and its ``Bound (±)``
    is the most the approximation can be off (the row's probability bound,
    :mod:`gamecore.blackjack.results`; 0 for the exact part). ``simulation``
    (:class:`gamecore.blackjack.sim.BlackjackSimulation`) must play the chart ``exact``
    describes, under the same rules.

    Parameters
    ----------
    exact : ResultDistribution
        The exact distribution of results under a chart.
    simulation : BlackjackSimulation
        A simulation of that chart.

    Returns
    -------
    pandas.DataFrame
        A twin table (:func:`gamecore.twins.twin_table`), a row per result and part.
    """
    if exact.strategy != simulation.strategy or exact.rules != simulation.rules:
        raise GamecoreError(
            f"the simulation plays {shown(simulation.strategy)}, the distribution describes "
            f"{shown(exact.strategy)}; cross-check the same chart under the same rules"
        )
    n = simulation.rounds
    rows = []
    for (_, row), exact_p in zip(exact.table.iterrows(), exact.exact, strict=True):
        if row["Outcome"] == "Natural paid":
            known, resplit = simulation.naturals, 0
        else:
            x = int(round(row["Net result"] * 2)) + 16
            resplit = int(simulation.resplit_histogram[x])
            known = int(simulation.histogram[x]) - resplit
        parts = (
            ("rounds without a resplit", exact_p, known, False, 0.0),
            ("rounds with a resplit", row["With a resplit"], resplit, True,
             row["Probability bound (±)"]),
        )  # fmt: skip
        for part, p, count, approximate, bound in parts:
            rows.append(
                {
                    "Figure": f"P({row['Outcome']}), {part}",
                    **frequency_twin(p, count, n),
                    "Outcome": row["Outcome"],
                    "Net result": row["Net result"],
                    "Part": part,
                    APPROXIMATE: approximate,
                    "Bound (±)": bound,
                    "Rounds": n,
                }
            )
    return twin_table(rows)


_UP_LABELS = [up_label(u) for u in range(10)]
