"""How far a simulated twin may stray from its exact figure.

One comparison: |z| above 4 happens by chance once in about 16,000 runs, so it is treated as a
bug. A table of ``n`` comparisons (the 205 final states of a baccarat round, the cells of a
strategy chart) crosses 4 somewhere about ``n`` times as often, so its threshold is raised until
the whole table is as unlikely to cross it by chance as a single figure is to cross 4
(Bonferroni): the family-wise version of the same rule, not a looser one.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import norm

SINGLE_Z = 4.0


def z_threshold(comparisons: int) -> float:
    """The |z| above which a table of ``comparisons`` simulated twins signals a bug.

    Examples
    --------
    >>> z_threshold(1)
    4.0
    >>> round(z_threshold(205), 2)
    5.12
    """
    if comparisons <= 1:
        return SINGLE_Z
    return float(norm.isf(norm.sf(SINGLE_Z) / comparisons))


def z_score(simulated, exact, se):
    """``(simulated - exact) / se``, element by element (scalars, arrays or Series).

    With no spread (``se == 0``: every simulated trial gave the same result) the twin must
    equal the exact figure: z is 0 when it does and infinite when it does not, so no threshold
    lets a deterministic mismatch pass. NaN where either figure is missing.

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
