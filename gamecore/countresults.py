"""A counter's simulated results read: its summary per 100 rounds and per hour, money at the
table maximum, the best counter under every procedure (decks, cut card, a shuffle every
round) and the verdict against a threshold, each counter's verdict at four standard errors
(:func:`countability`), and the perfect-information bettor's summary.

Central idea
------------
Every game's counter kernel tallies the same columns (:data:`gamecore.counting.ROUNDS` ...,
summed over shoes), and every game's perfect-information bettor hands over the same rounds
table; so one module reads them for every game. Standard errors come from the shoes' sums,
never from the rounds: the rounds of a shoe share its count, so they are not independent.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from gamecore.counting import (
    BET,
    FIRST,
    FIRST_SQ,
    FLAT,
    ROUNDS,
    SHOE_FLAT_SQ,
    SHOE_WON_SQ,
    WON,
)
from gamecore.errors import GamecoreError, shown
from gamecore.verdict import (
    POWER_COLUMN,
    VERDICT_COLUMN,
    VERDICT_SE,
    Verdict,
    decide,
    grow,
    mean_and_se,
)


def counter_summary(
    stats: np.ndarray, shoes: int, rounds_per_hour: float, banked: int | None = None
) -> dict[str, float]:
    """A counter's results from its statistics.

    Parameters
    ----------
    stats : numpy.ndarray
        Float64, the columns :data:`gamecore.counting.ROUNDS` ... summed over the run (a
        game's own columns after them).
    shoes : int
        The shoes dealt.
    rounds_per_hour : float
        Rounds dealt an hour at the table, for the figures per hour.
    banked : int or None
        The column counting the rounds the counter banked under rotation, if any.

    Returns
    -------
    dict of str to float
        Units won per 100 rounds and per hour (standard errors from the shoes' sums: the
        rounds of a shoe share its count), the average bet, the flat bettor's EV per round,
        and the first round of each shoe (the twin of the exact off-the-top EV); with
        ``banked``, how often it banked per 100 rounds.
    """
    rounds = stats[ROUNDS]

    def per_round(won: int, shoe_sq: int) -> tuple[float, float]:
        per_shoe, se = mean_and_se(stats[won], stats[shoe_sq], shoes)
        return per_shoe * shoes / rounds, se * shoes / rounds

    won, won_se = per_round(WON, SHOE_WON_SQ)
    flat, flat_se = per_round(FLAT, SHOE_FLAT_SQ)
    first, first_se = mean_and_se(stats[FIRST], stats[FIRST_SQ], shoes)
    out = {
        "Rounds": float(rounds),
        "Shoes": float(shoes),
        "Average bet (units)": stats[BET] / rounds,
        "Units won per 100 rounds": 100 * won,
        "SE (per 100 rounds)": 100 * won_se,
        "Units won per hour": rounds_per_hour * won,
        "SE (per hour)": rounds_per_hour * won_se,
        "Won per unit bet": stats[WON] / stats[BET],
        "Flat bettor's EV per round": flat,
        "SE (flat)": flat_se,
        "First round of a shoe, EV": first,
        "SE (first round)": first_se,
    }
    if banked is not None:
        out["Rounds banked per 100 rounds"] = 100 * stats[banked] / rounds
    return out


def scenario_table(summaries: Mapping[str, Mapping[str, float]], unit: float) -> pd.DataFrame:
    """Counters compared where they sit (seats, banking at the count or always).

    Parameters
    ----------
    summaries : Mapping[str, Mapping[str, float]]
        Where the counter sat -> its :func:`counter_summary`.
    unit : float
        Money per unit bet (:func:`money_unit`).

    Returns
    -------
    pandas.DataFrame
        Where | Units won per 100 rounds | SE | Money per hour at the table maximum | SE
        (money per hour) | Rounds banked per 100 rounds | Flat bettor per round | SE
        (flat): one row per summary, in its order.
    """
    rows = [
        {
            "Where": where,
            "Units won per 100 rounds": summary["Units won per 100 rounds"],
            "SE": summary["SE (per 100 rounds)"],
            "Money per hour at the table maximum": summary["Units won per hour"] * unit,
            "SE (money per hour)": summary["SE (per hour)"] * unit,
            "Rounds banked per 100 rounds": summary.get("Rounds banked per 100 rounds", 0.0),
            "Flat bettor per round": summary["Flat bettor's EV per round"],
            "SE (flat)": summary["SE (flat)"],
        }
        for where, summary in summaries.items()
    ]
    return pd.DataFrame(rows)


def money_unit(table_maximum: object, ramp: Sequence[float]) -> float:
    """Money per unit bet when the ramp's top bet is the table maximum.

    Parameters
    ----------
    table_maximum : object
        The table's largest bet, money (a positive finite amount).
    ramp : Sequence[float]
        The counter's bet ramp in units; its last entry is its top bet.

    Returns
    -------
    float
        ``table_maximum / ramp[-1]``.
    """
    try:
        unit = float(table_maximum) / ramp[-1]  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise GamecoreError(
            f"table_maximum must be an amount, got {shown(table_maximum)}"
        ) from None
    if not (math.isfinite(unit) and unit > 0):
        raise GamecoreError(f"table_maximum must be a positive amount, got {shown(table_maximum)}")
    return unit


# ---------------------------------------------------------------------------------------
# Procedures (decks, cut card, a shuffle every round) and the verdict
# ---------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Study:
    """How a procedure table's counters are simulated and judged.

    Attributes
    ----------
    shoes, seed : int
        Each simulation's first stage: shoes, and the seed every procedure and trigger
        shares (the same shoes: common random numbers).
    max_shoes : int or None
        The budget of shoes each procedure's best counter may grow to until the verdict
        decides (:func:`gamecore.verdict.grow`); ``None``: ``shoes`` (no growth).
    threshold : float
        Money per hour a countable game lets a counter clear.
    unit : float
        Money per unit bet (:func:`money_unit`).
    rounds_per_hour : float
        Rounds dealt an hour.
    how : str
        What the simulated rows are, for their ``How`` column; ``{shoes}`` is replaced by
        the shoes each row rests on.
    """

    shoes: int
    seed: int
    max_shoes: int | None
    threshold: float
    unit: float
    rounds_per_hour: float
    how: str

    def judge(self, result: Any) -> Verdict:
        """The verdict on a counter's result (its money per hour at the table maximum).

        Parameters
        ----------
        result : Any
            A counter's result: its ``summary(rounds_per_hour)`` and ``shoes``.

        Returns
        -------
        gamecore.verdict.Verdict
            :func:`gamecore.verdict.decide` on the money per hour and its SE.
        """
        summary = result.summary(self.rounds_per_hour)
        money, se = summary["Units won per hour"] * self.unit, summary["SE (per hour)"] * self.unit
        return decide(money, se, result.shoes, _threshold(self.threshold))


def procedure_table(
    deck_counts: Sequence[int],
    cuts: Callable[[int], Sequence[int]],
    off_the_top: Callable[[int], float],
    simulate: Callable[[int, int, float, int, int], Any],
    triggers: Sequence[float],
    study: Study,
) -> pd.DataFrame:
    """A counter under every procedure: for each deck count, a shuffle every round (the count
    never moves: one unit a round at the exact off-the-top EV, ``off_the_top(decks)``) and
    real shoes to each cut card ``cuts(decks)`` (cards behind it), the best of ``triggers``
    (``simulate(decks, cut, trigger, shoes, seed)``, all on the same shoes of one seed),
    grown until its verdict decides or the study's budget is spent. The best is chosen on
    the simulated shoes, an optimistic estimate, as a verdict should use.

    Parameters
    ----------
    deck_counts : Sequence[int]
        The deck counts compared.
    cuts : Callable[[int], Sequence[int]]
        The cut card positions (cards behind it) to deal to for a deck count.
    off_the_top : Callable[[int], float]
        The exact EV per round off a full shoe of that many decks, units.
    simulate : Callable[[int, int, float, int, int], Any]
        The counter simulated at (decks, cut, trigger, shoes, seed): a result with
        ``shoes``, ``stats`` (added over stages) and ``summary(rounds_per_hour)``, a
        :func:`counter_summary`.
    triggers : Sequence[float]
        The true count triggers tried (at least one).
    study : Study
        The shoes, seed, budget, threshold and money.

    Returns
    -------
    pandas.DataFrame
        Decks | Procedure | Cards behind the cut card | Best trigger | Shoes | Units won per
        100 rounds | SE (per 100 rounds) | Money per hour at the table maximum | SE (money
        per hour) | How: for each deck count a shuffle every round, then each cut card.
    """
    try:
        triggers = tuple(float(t) for t in triggers)
    except (TypeError, ValueError):
        raise GamecoreError(f"triggers must be true counts, got {shown(triggers)}") from None
    if not triggers:
        raise GamecoreError("triggers must hold at least one true count")
    unit, per_hour = study.unit, study.rounds_per_hour
    rows = []
    for decks in deck_counts:
        ev = off_the_top(decks)
        exact = "exact: the count never moves; one unit a round"
        money = per_hour * ev * unit
        row = (decks, "shuffle every round", None, None, 0, 100 * ev, 0.0, money, 0.0, exact)
        rows.append(dict(zip(PROCEDURE_COLUMNS, row, strict=True)))
        for cut in cuts(decks):
            found = [
                (trigger, simulate(decks, int(cut), trigger, study.shoes, study.seed))
                for trigger in triggers
            ]
            trigger, first = max(
                found, key=lambda t: t[1].summary(per_hour)["Units won per 100 rounds"]
            )
            result = grow(
                lambda shoes, seed: simulate(decks, int(cut), trigger, shoes, seed),  # noqa: B023
                study.judge, study.shoes, study.max_shoes or study.shoes, study.seed,
                first=first,
            )  # fmt: skip
            best = result.summary(per_hour)
            row = (
                decks, "shoe to a cut card", int(cut), trigger, result.shoes,
                best["Units won per 100 rounds"], best["SE (per 100 rounds)"],
                best["Units won per hour"] * unit, best["SE (per hour)"] * unit,
                study.how.format(shoes=f"{result.shoes:,}"),
            )  # fmt: skip
            rows.append(dict(zip(PROCEDURE_COLUMNS, row, strict=True)))
    return pd.DataFrame(rows)


#: The columns of :func:`procedure_table`, in order.
PROCEDURE_COLUMNS = (
    "Decks", "Procedure", "Cards behind the cut card", "Best trigger", "Shoes",
    "Units won per 100 rounds", "SE (per 100 rounds)", "Money per hour at the table maximum",
    "SE (money per hour)", "How",
)  # fmt: skip


def verdict(table: pd.DataFrame, threshold: float = 0.0) -> pd.DataFrame:
    """Each procedure of :func:`procedure_table` against a threshold of money per hour, by
    the one rule (:func:`gamecore.verdict.decide`).

    Parameters
    ----------
    table : pandas.DataFrame
        A :func:`procedure_table`.
    threshold : float
        Money per hour a counter must be shown to stay below (a finite amount).

    Returns
    -------
    pandas.DataFrame
        Decks | Procedure | Cards behind the cut card | Counter's best, money per hour |
        Upper bound (+4 SE) | Below the threshold | Threshold, money per hour | Verdict (4
        SE): a procedure is below the threshold when the verdict is "not countable" (its
        upper 4-SE bound below it).
    """
    threshold = _threshold(threshold)
    out = table[["Decks", "Procedure", "Cards behind the cut card"]].copy()
    money, se = table["Money per hour at the table maximum"], table["SE (money per hour)"]
    words = [
        decide(m, s, int(n), threshold).words
        for m, s, n in zip(money, se, table["Shoes"], strict=True)
    ]
    out["Counter's best, money per hour"] = money
    out["Upper bound (+4 SE)"] = money + VERDICT_SE * se
    out["Below the threshold"] = [w == "not countable" for w in words]
    out["Threshold, money per hour"] = threshold
    out[VERDICT_COLUMN] = words
    return out


def _threshold(threshold: object) -> float:
    """A threshold of money per hour (or units): a finite number, else refused."""
    try:
        threshold = float(threshold)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise GamecoreError(f"threshold must be money per hour, got {shown(threshold)}") from None
    if not math.isfinite(threshold):
        raise GamecoreError(f"threshold must be a finite amount, got {shown(threshold)}")
    return threshold


def countable(gain: float, se: float, threshold: float = 0.0, shoes: int = 0) -> str:
    """A counter's verdict in words (:func:`gamecore.verdict.decide`).

    Parameters
    ----------
    gain : float
        The counter's gain (its best, in the units of its table).
    se : float
        Its standard error (0 for an exact figure).
    threshold : float, default 0.0
        The gain a countable game lets a counter clear.
    shoes : int, default 0
        The shoes the gain rests on (for "undecided after N shoes").

    Returns
    -------
    str
        ``"countable"``, ``"not countable"`` or ``"undecided after N shoes (about M
        needed)"``.
    """
    return decide(gain, se, shoes, _threshold(threshold)).words


def countability(
    table: pd.DataFrame, what: str, columns: tuple[str, str, str], threshold: float = 0.0,
    best: bool = False,
) -> pd.DataFrame:  # fmt: skip
    """Each row of a counter's results stated as a verdict (:func:`gamecore.verdict.decide`):
    what is counted, the gain with its SE, the verdict at four standard errors and its power.

    Parameters
    ----------
    table : pandas.DataFrame
        The counter's results, a row per count, trigger or procedure.
    what : str
        What each row counts, a template of the row's columns (``"Dragon 7, {Decks:g}
        decks, cut card {Cards behind the cut card:g} cards from the end"``).
    columns : tuple of str
        The columns of the gain, its standard error and the shoes it rests on.
    threshold : float, default 0.0
        The gain a countable game lets a counter clear.
    best : bool, default False
        State only the row of the largest gain (the best trigger, chosen on the simulated
        shoes: an optimistic estimate, as a verdict should use).

    Returns
    -------
    pandas.DataFrame
        What is counted | gain | SE | Verdict (4 SE) | Power (at the gain seen), a row per
        row of ``table`` (with ``best``, one).
    """
    gain, se, shoes = columns
    threshold = _threshold(threshold)
    if best and len(table):
        table = table.loc[[table[gain].idxmax()]]
    rows = []
    for record in table.to_dict("records"):
        found = decide(record[gain], record[se], int(record[shoes]), threshold)
        rows.append(
            {
                "What is counted": what.format(**record),
                gain: found.gain,
                se: found.se,
                VERDICT_COLUMN: found.words,
                POWER_COLUMN: found.power,
            }
        )
    return pd.DataFrame(rows)


def procedure_countability(
    table: pd.DataFrame, counted: str, threshold: float = 0.0
) -> pd.DataFrame:
    """A :func:`procedure_table`'s rows as verdicts (:func:`countability`): the counter's
    best money per hour at the table maximum under each procedure, with its SE.

    Parameters
    ----------
    table : pandas.DataFrame
        A :func:`procedure_table`.
    counted : str
        What is counted, before each procedure (``"c21 baccarat, the derived count"``).
    threshold : float, default 0.0
        Money per hour a countable game lets a counter clear.

    Returns
    -------
    pandas.DataFrame
        :func:`countability`'s columns, a row per procedure.
    """
    procedures = []
    for record in table.to_dict("records"):
        decks = record["Decks"]
        text = f"{decks:g} deck{'' if decks == 1 else 's'}, {record['Procedure']}"
        if record["Procedure"] != "shuffle every round":
            text += (
                f" {record['Cards behind the cut card']:g} cards from the end, best trigger "
                f"{record['Best trigger']:g}"
            )
        procedures.append(text)
    template = counted.replace("{", "{{").replace("}", "}}") + ": {_procedure}"
    columns = ("Money per hour at the table maximum", "SE (money per hour)", "Shoes")
    return countability(table.assign(_procedure=procedures), template, columns, threshold)


def perfect_information_summary(
    rounds: pd.DataFrame, ramp: Sequence[float], rounds_per_hour: float
) -> dict[str, float]:
    """A perfect-information bettor's results: it bets the ramp's top when the exact EV of
    the round is positive and one unit otherwise.

    Parameters
    ----------
    rounds : pandas.DataFrame
        One row per round dealt: ``Shoe`` (its number), ``True count`` (the count's, before
        the round), ``Exact EV`` (of the round's shoe, units per unit bet), ``Result`` (the
        round's one-unit result).
    ramp : Sequence[float]
        The counter's bet ramp in units; the bettor's top bet is its last entry.
    rounds_per_hour : float
        Rounds dealt an hour, for the expected units per hour.

    Returns
    -------
    dict of str to float
        Units won per 100 rounds realised and expected (the exact EV of the rounds bet: the
        same mean, far less noise), SEs from the shoes' sums; how often the shoe favours
        the player; the correlation of the count's true count with the exact EV and its SE
        (a bootstrap over whole shoes).
    """
    bet = np.where(rounds["Exact EV"] > 0, ramp[-1], 1.0)
    by_shoe = (
        pd.DataFrame(
            {
                "Shoe": rounds["Shoe"],
                "won": bet * rounds["Result"],
                "expected": bet * rounds["Exact EV"],
            }
        )
        .groupby("Shoe")[["won", "expected"]]
        .sum()
    )
    n = len(rounds)

    def per_100(column: str) -> tuple[float, float]:
        sums = by_shoe[column].to_numpy()
        per_shoe, se = mean_and_se(sums.sum(), (sums * sums).sum(), len(sums))
        return 100 * per_shoe * len(sums) / n, 100 * se * len(sums) / n

    won, won_se = per_100("won")
    expected, expected_se = per_100("expected")
    correlation, correlation_se = _correlation_by_shoe(rounds)
    return {
        "Rounds": float(n),
        "Shoes": float(by_shoe.shape[0]),
        "Share of rounds with exact EV > 0": float((rounds["Exact EV"] > 0).mean()),
        "Units won per 100 rounds": won,
        "SE (per 100 rounds)": won_se,
        "Expected units per 100 rounds (exact EV of the rounds bet)": expected,
        "SE (expected)": expected_se,
        "Expected units per hour": rounds_per_hour * expected / 100,
        "Correlation of the true count with the exact EV": correlation,
        "SE (correlation)": correlation_se,
    }


#: Resamplings of the shoes for the correlation's standard error.
BOOTSTRAP = 400


def _correlation_by_shoe(rounds: pd.DataFrame) -> tuple[float, float]:
    """The correlation of the true count with the exact EV over the rounds, and its standard
    error by the bootstrap over whole shoes (the rounds of a shoe share its count, so rounds
    are not independent draws); resampled from ``SeedSequence(0)``, so it is reproducible."""
    x, y = rounds["True count"].to_numpy(), rounds["Exact EV"].to_numpy()

    def correlation(index: np.ndarray) -> float:
        a, b = x[index], y[index]
        if a.std() == 0 or b.std() == 0:
            return 0.0
        return float(np.corrcoef(a, b)[0, 1])

    value = correlation(np.arange(len(x)))
    shoes = [np.flatnonzero(rounds["Shoe"].to_numpy() == s) for s in np.unique(rounds["Shoe"])]
    if len(shoes) < 2:
        return value, math.nan
    generator = np.random.Generator(np.random.PCG64(np.random.SeedSequence(0)))
    draws = [
        correlation(
            np.concatenate([shoes[i] for i in generator.integers(len(shoes), size=len(shoes))])
        )
        for _ in range(BOOTSTRAP)
    ]
    return value, float(np.std(draws, ddof=1))

