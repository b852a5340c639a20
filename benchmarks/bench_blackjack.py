"""Blackjack cases for ``benchmarks/bench.py``: name -> (callable, reference or None, target s).

Targets from issue 5: a full standard analysis (6 decks, H17, DAS, split to 4) about as fast as
Eric Farmer's C++ CA (about 1 s here); the c21 analysis at 6 decks under 5 s; the simulator at
2 million rounds per second or more on 2 cores (4 million rounds in 2 s). The analyses include
the search for the best total-dependent chart. The result distribution (each final result's
probability) has no target in the issue; 10 s is ours.
"""

from __future__ import annotations

from gamecore import blackjack

SIM_ROUNDS = 4_000_000


def cases() -> dict:
    standard = blackjack.StandardBlackjackRules(decks=6, dealer_hits_soft_17=True)
    c21 = blackjack.C21BlackjackRules(decks=6)
    chart = blackjack.exact(c21).chart
    return {
        "blackjack_standard_6_decks_h17_das_spl4": (lambda: blackjack.exact(standard), None, 1.0),
        "blackjack_c21_6_decks": (lambda: blackjack.exact(c21), None, 5.0),
        "blackjack_c21_result_distribution_6_decks": (
            lambda: blackjack.results.result_distribution(c21, chart),
            None,
            10.0,
        ),
        "blackjack_simulate_4M_rounds_c21": (
            lambda: blackjack.sim.simulate(c21, chart, SIM_ROUNDS, 1, progress=False),
            None,
            2.0,
        ),
    }
