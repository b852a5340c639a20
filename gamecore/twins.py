"""How far a simulated twin may stray from its exact figure.

One comparison: |z| above 4 happens by chance once in about 16,000 runs, so it is treated as a
bug. A table of ``n`` comparisons (the 205 final states of a baccarat round, the cells of a
strategy chart) crosses 4 somewhere about ``n`` times as often, so its threshold is raised until
the whole table is as unlikely to cross it by chance as a single figure is to cross 4
(Bonferroni): the family-wise version of the same rule, not a looser one.
"""

from __future__ import annotations

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
