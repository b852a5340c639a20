"""Exact figures beside their simulated twins: one table schema, the z-score, and how far a
twin may stray.

Every cross-check table of gamecore (:func:`twin_table`) starts with the same five columns,
**Figure | Exact | Simulated | SE | z**: the figure's name, its exact value, the simulated
value, the simulated value's standard error, and ``z = (Simulated - Exact) / SE``
(:func:`z_score`). Columns after those say where a figure belongs (an up card, a hand) or
how much was simulated (rounds, hands). A column :data:`APPROXIMATE`, where present, marks the
twins of figures that are not exact (their z measures the approximation and is kept out of
the 4-sigma rule). :func:`verdict` states a table's largest |z| against its threshold.

The SE of a twin is the one under the exact figure (the null hypothesis of a one-sample z
test): ``sqrt(p (1 - p) / n)`` for a probability ``p`` (:func:`frequency_twin`), the exact SD
over ``sqrt(n)`` for a mean (:func:`mean_twin`), never the spread of the simulated sample. A
sample's spread is zero whenever its few trials all gave the same result (a rare outcome
never seen, a small cell all losses), which would turn a chance shortfall into an infinite
z; the exact figure's spread is zero only when the figure is certain, and then a twin that
differs from it is a certain mismatch (z infinite, :func:`z_score`), not chance.

One comparison: |z| above 4 happens by chance once in about 16,000 runs, so it is treated as a
bug. A table of ``n`` comparisons (the 205 final states of a baccarat round, the cells of a
strategy chart) crosses 4 somewhere about ``n`` times as often, so its threshold is raised until
the whole table is as unlikely to cross it by chance as a single figure is to cross 4
(Bonferroni): the family-wise version of the same rule, not a looser one.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from statistics import NormalDist
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pandas is imported where a table is built, not with the module
    import pandas as pd

# The standard library's normal distribution (its inverse is Wichura's AS241, as accurate as
# scipy's ndtri to 3e-15 here): importing scipy.stats, or even scipy.special, would slow
# every command's start.
_NORMAL = NormalDist()

#: The columns every exact-vs-simulated table starts with, in this order.
TWIN_COLUMNS = ("Figure", "Exact", "Simulated", "SE", "z")
#: The column marking twins of approximate figures (kept out of the 4-sigma rule).
APPROXIMATE = "Approximate"

SINGLE_Z = 4.0


def z_threshold(comparisons: int) -> float:
    """The |z| above which a table of ``comparisons`` simulated twins signals a bug.

    Parameters
    ----------
    comparisons : int
        The twins compared in one table.

    Returns
    -------
    float
        4 for one twin; for more, the |z| whose normal tail is 4's divided by
        ``comparisons`` (Bonferroni).

    Examples
    --------
    >>> z_threshold(1)
    4.0
    >>> round(z_threshold(205), 2)
    5.12
    """
    if comparisons <= 1:
        return SINGLE_Z
    return -_NORMAL.inv_cdf(_NORMAL.cdf(-SINGLE_Z) / comparisons)


def z_score(simulated, exact, se):
    """``(simulated - exact) / se``, element by element (scalars, arrays or Series).

    ``se`` is the SE under the exact figure (:func:`frequency_twin`, :func:`mean_twin`). With
    no spread (``se == 0``: the exact figure is certain, a probability of 0 or 1 or a result
    with SD 0) the twin must equal the exact figure: z is 0 when it does and infinite when it
    does not, so no threshold lets a certain mismatch pass. NaN where either figure is
    missing.

    Parameters
    ----------
    simulated, exact, se : float, array_like or pandas.Series
        The simulated twin, the exact figure and the twin's standard error (broadcast).

    Returns
    -------
    float or numpy.ndarray
        The z-score(s): a ``float`` for scalars, else an array.

    Examples
    --------
    >>> z_score(0.75, 0.5, 0.125)
    2.0
    >>> z_score(1.0, 1.0, 0.0), z_score(1.0, 0.5, 0.0)
    (0.0, inf)
    """
    simulated, exact, se = (np.asarray(x, dtype=float) for x in (simulated, exact, se))
    difference = simulated - exact
    spread = se > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(
            spread,
            difference / np.where(spread, se, 1.0),
            np.where(np.abs(difference) <= 1e-12, 0.0, np.copysign(np.inf, difference)),
        )
    z = np.where(np.isnan(difference) | np.isnan(se), np.nan, z)
    return float(z) if z.ndim == 0 else z


def twin_table(rows: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """An exact-vs-simulated table: each row names a ``Figure`` and gives its ``Exact`` value,
    its ``Simulated`` twin and the twin's ``SE``; ``z`` is computed here (:func:`z_score`).
    Any other keys of a row become further columns, after z, in the order first seen.

    Parameters
    ----------
    rows : iterable of mapping
        One mapping per twin, with ``Figure``, ``Exact``, ``Simulated`` and ``SE``.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`TWIN_COLUMNS`, then the rows' other keys; empty (those columns only)
        for no rows.

    Raises
    ------
    ValueError
        A row lacks one of the four keys.

    Examples
    --------
    >>> twin_table([{"Figure": "P(win)", "Exact": 0.5, "Simulated": 0.52, "SE": 0.01}])
       Figure  Exact  Simulated    SE    z
    0  P(win)    0.5       0.52  0.01  2.0
    """
    import pandas as pd

    frame = pd.DataFrame(list(rows))
    if frame.empty:
        return pd.DataFrame(columns=list(TWIN_COLUMNS))
    missing = [c for c in TWIN_COLUMNS[:4] if c not in frame.columns]
    if missing:
        raise ValueError(f"a twin row needs {', '.join(missing)}")
    frame["z"] = z_score(frame["Simulated"], frame["Exact"], frame["SE"])
    others = [c for c in frame.columns if c not in TWIN_COLUMNS]
    return frame[[*TWIN_COLUMNS, *others]]


def frequency_twin(probability: float, count: int, trials: int) -> dict[str, float]:
    """The twin of a probability: the frequency of ``count`` in ``trials`` and its SE (the
    binomial SE at the exact probability).

    Parameters
    ----------
    probability : float
        The exact probability.
    count : int
        The trials in which the event happened.
    trials : int
        The trials simulated.

    Returns
    -------
    dict of str to float
        ``Exact``, ``Simulated`` and ``SE`` (NaN for no trials): a row of :func:`twin_table`
        without its ``Figure``.

    Examples
    --------
    >>> frequency_twin(0.5, 30, 100)
    {'Exact': 0.5, 'Simulated': 0.3, 'SE': 0.05}
    """
    p = float(probability)
    return {
        "Exact": p,
        "Simulated": count / trials if trials else math.nan,
        # A probability a hair outside [0, 1] (a sum's round-off) has no spread, not an error.
        "SE": math.sqrt(max(p * (1 - p), 0.0) / trials) if trials else math.nan,
    }


def mean_twin(mean: float, sd: float, simulated: float, trials: int) -> dict[str, float]:
    """The twin of a mean: the simulated mean of ``trials`` results and its SE under the exact
    figure (the exact SD over ``sqrt(trials)``), as :func:`frequency_twin` is for a
    probability.

    Parameters
    ----------
    mean : float
        The exact mean (an EV).
    sd : float
        The exact standard deviation of one result.
    simulated : float
        The mean of the simulated results (NaN for none).
    trials : int
        The results simulated.

    Returns
    -------
    dict of str to float
        ``Exact``, ``Simulated`` and ``SE`` (NaN for no trials): a row of :func:`twin_table`
        without its ``Figure``.

    Examples
    --------
    >>> mean_twin(-0.25, 0.5, -0.2, 100)
    {'Exact': -0.25, 'Simulated': -0.2, 'SE': 0.05}
    """
    return {
        "Exact": float(mean),
        "Simulated": float(simulated) if trials else math.nan,
        "SE": float(sd) / math.sqrt(trials) if trials else math.nan,
    }


def ruled(frame: pd.DataFrame) -> pd.Series:
    """The z-scores of a twin table that the 4-sigma rule applies to: every twin with a z,
    those of approximate figures (:data:`APPROXIMATE`) left out.

    Parameters
    ----------
    frame : pandas.DataFrame
        A table of :func:`twin_table`.

    Returns
    -------
    pandas.Series
        The ruled rows' z-scores, NaN dropped.
    """
    z = frame["z"]
    if APPROXIMATE in frame.columns:
        z = z[~frame[APPROXIMATE].astype(bool)]
    return z.dropna()


def verdict(frame: pd.DataFrame) -> str:
    """One line on a twin table: its largest |z| over the twins the 4-sigma rule applies to
    (:func:`ruled`) and the family-wise threshold a bug would cross.

    Parameters
    ----------
    frame : pandas.DataFrame
        A table of :func:`twin_table`.

    Returns
    -------
    str
        The line, or ``"no twin to compare"``.

    Examples
    --------
    >>> verdict(twin_table([{"Figure": "p", "Exact": 0.5, "Simulated": 0.52, "SE": 0.01}]))
    'largest |z| over 1 twins: 2.00; a bug would show above 4.00 (4 standard errors, family-wise)'
    """
    z = ruled(frame)
    if z.empty:
        return "no twin to compare"
    line = (
        f"largest |z| over {len(z)} twins: {z.abs().max():.2f}; a bug would show above "
        f"{z_threshold(len(z)):.2f} (4 standard errors, family-wise)"
    )
    certain = int(np.isinf(z).sum())
    if certain:
        line += (
            f"; {certain} twin{'s' * (certain != 1)} differ{'s' * (certain == 1)} from an "
            "exact figure that has no spread: a certain mismatch, a bug"
        )
    return line
