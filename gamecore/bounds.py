"""A perfect-information bettor's bound, stated only when it rests on enough shoes: its
standard error smaller than the figure it bounds (:func:`gamecore.verdict.bound`); else
left out, with the reason. The bettor's runs grow in seeded stages until it holds or the
budget is spent (:func:`gamecore.verdict.grow`, with :func:`joined_rounds` and
:func:`bound_judge`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pandas as pd

from gamecore.countresults import perfect_information_summary
from gamecore.verdict import Verdict, bound, grow


def joined_rounds(first: Any, second: Any) -> Any:
    """Two perfect-information runs (``shoes`` and a ``rounds`` table numbered by ``Shoe``)
    as one: the second's shoes numbered after the first's.

    Parameters
    ----------
    first, second : dataclass
        Runs of the same bettor on different shoes.

    Returns
    -------
    dataclass
        ``first`` with both runs' shoes and rounds.
    """
    later = second.rounds.assign(Shoe=second.rounds["Shoe"] + first.shoes)
    return dataclasses.replace(
        first, shoes=first.shoes + second.shoes,
        rounds=pd.concat([first.rounds, later], ignore_index=True),
    )  # fmt: skip


#: The perfect-information bound's figure and its SE (:func:`perfect_information_summary`).
BOUND = ("Expected units per 100 rounds (exact EV of the rounds bet)", "SE (expected)")


def bound_judge(ramp: Sequence[float]) -> Callable[[Any], Verdict]:
    """The test a perfect-information run must pass before its bound is stated
    (:func:`gamecore.verdict.bound` on its expected units per 100 rounds), for
    :func:`gamecore.verdict.grow`.

    Parameters
    ----------
    ramp : Sequence[float]
        The counter's bet ramp.

    Returns
    -------
    Callable
        ``judge(result) -> Verdict`` on a run with ``rounds`` and ``shoes``.
    """

    def judge(result: Any) -> Verdict:
        summary = perfect_information_summary(result.rounds, ramp, 60.0)  # per hour unused
        return bound(summary[BOUND[0]], summary[BOUND[1]], result.shoes)

    return judge


def grown(simulate: Callable[[Any, Any], Any], count: Any, run: Any) -> Any:
    """A perfect-information bettor's simulation grown in seeded stages until its bound's SE
    is smaller than the bound or ``run.max_shoes`` shoes are dealt (:func:`gamecore.verdict.grow`,
    judged by :func:`bound_judge`).

    Parameters
    ----------
    simulate : callable
        ``simulate(count, run)``: a game's perfect-information simulation, run as given.
    count, run : Any
        The count and the run (its ``shoes``, ``seed``, ``ramp`` and ``max_shoes``).

    Returns
    -------
    Any
        The simulation's result over every stage dealt.
    """
    return grow(
        lambda shoes, seed: simulate(count, run.replace(shoes=shoes, seed=seed, max_shoes=None)),
        bound_judge(run.ramp), run.shoes, run.max_shoes, run.seed, add=joined_rounds,
    )  # fmt: skip


def bound_table(summary: Mapping[str, float]) -> pd.DataFrame:
    """A perfect-information summary as the report prints it: its bound (the expected units
    per 100 rounds) and its realised win each stated only where its SE is smaller than the
    figure, else left out (blank) with the reason.

    Parameters
    ----------
    summary : Mapping[str, float]
        :func:`gamecore.countresults.perfect_information_summary`'s figures.

    Returns
    -------
    pandas.DataFrame
        One row: the summary, ``Bound`` and ``Realised win`` (each stated, or left out and
        why); a figure left out is blank, with its SE and its figure per hour.
    """
    row = dict(summary)
    shoes = int(summary["Shoes"])
    checks = {
        "Bound": (*BOUND, "Expected units per hour"),
        "Realised win": ("Units won per 100 rounds", "SE (per 100 rounds)"),
    }
    for column, (figure, se, *others) in checks.items():
        found = bound(summary[figure], summary[se], shoes)
        if not found.decided:
            for name in (figure, se, *others):
                row[name] = math.nan
        row[column] = found.words
    return pd.DataFrame([row])


def stated(figure: float, se: float, standing: str) -> str:
    """A bound as a summary prints it: ``"x ± se"`` where it is stated, else why it is left
    out (``standing``, :func:`gamecore.verdict.bound`'s words).

    Parameters
    ----------
    figure, se : float
        The bound and its SE (NaN where left out).
    standing : str
        Its standing: ``"stated ..."`` or ``"left out: ..."``.

    Returns
    -------
    str
        The printed value.
    """
    if standing.startswith("stated") and math.isfinite(figure):
        return f"{figure:.3f} ± {se:.3f}"
    return standing
