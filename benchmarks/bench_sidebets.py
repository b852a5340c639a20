"""Side-bet cases for ``benchmarks/bench.py``: name -> (callable, reference or None, target s).

Targets from issue 29: each built-in's exact par sheet at its default deck count (baccarat 8,
blackjack 6) in at most 1 s after compile on one core, a blackjack bet in at most 0.1 s.
"""

from __future__ import annotations

from gamecore.sidebets import definition
from gamecore.sidebets.parsheet import par_sheet

#: Issue 29's targets, seconds per par sheet after compile.
TARGETS = {"baccarat": 1.0, "blackjack": 0.1}


def cases() -> dict:
    """Every built-in side bet's exact par sheet at its default decks, with its target.

    Returns
    -------
    dict
        ``"sidebet_<name>_<decks>_decks"`` -> (callable, None, target seconds).
    """
    found = {}
    for name in definition.builtin_names():
        bet = definition.load(name)
        found[f"sidebet_{name}_{bet.decks}_decks"] = (
            lambda bet=bet: par_sheet(bet),
            None,
            TARGETS[bet.game],
        )
    return found
