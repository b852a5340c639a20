"""Blackjack cases for ``benchmarks/bench.py``: name -> (callable, reference or None, target s),
and the paired timings in process: against Eric Farmer's analyzer, and c21 against standard.

Targets from issue 11: a full standard analysis (6 decks, H17, DAS, split to 4, chart search
included) no slower than Eric Farmer's C++ CA timed in the same run (ratio 1.0, aim 0.5); the
c21 analysis at 6 decks no slower than the standard one; the result distribution at 6 decks
under 2 s. Whole processes are :mod:`bench_processes`'s, simulation speed
:mod:`bench_scaling`'s.

Farmer's CA (``../shared/reference/farmer-ca``, GPL-3: built and run as a separate program,
never copied into the project) is timed against ``blackjack.exact`` on its usual benchmark
rule set, alternately in one run, so the ratio holds on a noisy shared machine where absolute
seconds do not (:func:`farmer_ratio`).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

import bench_processes

from gamecore import blackjack

ROOT = Path(__file__).resolve().parent.parent
FARMER = bench_processes.FARMER
FARMER_RULES = bench_processes.FARMER_RULES
STANDARD = blackjack.StandardBlackjackRules(decks=6, dealer_hits_soft_17=True)


def cases() -> dict:
    c21 = blackjack.C21BlackjackRules(decks=6)
    chart = blackjack.exact(c21).chart
    return {
        "blackjack_standard_6_decks_h17_das_spl4": (lambda: blackjack.exact(STANDARD), None, 1.0),
        "blackjack_c21_6_decks": (lambda: blackjack.exact(c21), None, 5.0),
        "blackjack_c21_result_distribution_6_decks": (
            lambda: blackjack.results.result_distribution(c21, chart),
            None,
            2.0,
        ),
    }


def farmer_ratio(pairs: int = 7) -> dict[str, Any]:
    """gamecore's full standard analysis (``blackjack.exact``, chart search included) against
    Farmer's in-process analysis time, alternately ``pairs`` times: the median of the paired
    ratios (gamecore / Farmer) and both EVs. Without ``../shared`` or ``g++`` it says it
    skipped."""
    if not FARMER.is_dir():
        return {"skipped": f"no {FARMER} beside this checkout"}
    try:
        program = bench_processes.build_farmer()
    except subprocess.CalledProcessError as error:
        return {"skipped": f"Farmer's CA did not build: {error.stderr.strip()[:200]}"}
    if program is None:
        return {"skipped": "g++ not found (apt-get install -y g++): no Farmer ratio"}
    blackjack.exact(STANDARD)  # warm-up: compilation and caches
    ratios, farmer_seconds, ours = [], [], []
    for _ in range(pairs):
        run = subprocess.run(
            [str(program), *FARMER_RULES, "1"], capture_output=True, text=True, check=True
        )
        farmer = json.loads(run.stdout)
        start = time.perf_counter()
        analysis = blackjack.exact(STANDARD)
        seconds = time.perf_counter() - start
        farmer_seconds.append(farmer["median_seconds"])
        ours.append(seconds)
        ratios.append(seconds / farmer["median_seconds"])
    return {
        "reference": "Eric Farmer's CA v7.6 (time_farmer, in process), same run",
        "reference_seconds": statistics.median(farmer_seconds),
        "seconds": statistics.median(ours),
        "ratio": statistics.median(ratios),
        "target_ratio": 1.0,
        "farmer_player_ev": farmer["player_ev"],
        "player_ev": analysis.player_ev,
    }


def c21_over_standard(pairs: int = 201) -> dict[str, Any]:
    """The c21 analysis at 6 decks against the standard one, in pairs (which runs first
    alternating, so neither always meets the other's leftovers): the median paired ratio
    (target: at most 1), its quartiles and a distribution-free 95% confidence interval (order
    statistics of the pairs), and what each analysis computes, counted
    (:meth:`~gamecore.blackjack.engine.Engine.size`).

    The two analyses are nearly the same work (c21 some 3% less), and one pair's ratio on a
    shared 2-core machine spreads by +-10% or more. Measured on one such machine, 300 pairs in
    a row: median 0.978; the medians of 61 consecutive pairs ranged 0.955-1.006 along the
    run, of 151 pairs 0.976-0.988. Hence 201 pairs (about 70 s), and the interval on record
    beside the median.
    """
    c21 = blackjack.C21BlackjackRules(decks=6)
    blackjack.exact(c21)
    ratios = []
    for k in range(pairs):
        seconds = {}
        for rules in (STANDARD, c21) if k % 2 == 0 else (c21, STANDARD):
            start = time.perf_counter()
            blackjack.exact(rules)
            seconds[rules.game] = time.perf_counter() - start
        ratios.append(seconds[c21.game] / seconds[STANDARD.game])
    low, _median, high = statistics.quantiles(ratios, n=4)
    size = {rules.game: blackjack.engine.Engine(rules).size() for rules in (STANDARD, c21)}
    return {
        "ratio": statistics.median(ratios),
        "ratio_quartiles": [low, high],
        "ratio_ci95": median_interval(ratios),
        "pairs": pairs,
        "target_ratio": 1.0,
        "size": size,
        "size_ratio": {
            name: size[c21.game][name] / size[STANDARD.game][name] for name in size[c21.game]
        },
    }


def median_interval(values: list[float], confidence: float = 0.95) -> list[float]:
    """A distribution-free confidence interval for the median: the order statistics ``k``
    and ``n + 1 - k`` with ``k`` the binomial(n, 1/2) quantile of ``(1 - confidence) / 2``
    (each value falls below the median with probability one half, whatever the law)."""
    from scipy.stats import binom

    ordered = sorted(values)
    k = max(int(binom.ppf((1 - confidence) / 2, len(ordered), 0.5)), 1)
    return [ordered[k - 1], ordered[len(ordered) - k]]
