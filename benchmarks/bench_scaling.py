"""Simulation speed and scaling for ``benchmarks/bench.py``.

:func:`simulation_rates`: each simulator's rounds a second on every core, startup and
compilation excluded, against issue 31's targets (punto banco fresh and shoe 50M, both
blackjack games under the basic-strategy chart, the best total-dependent chart, 15M), and
whether one and two threads give bit-identical tallies for a seed.

:func:`deck_scaling` and :func:`round_scaling`: how each engine's time grows with the shoe
(1, 8, 100 and 1000 decks) and with the rounds simulated (10^6 to 10^9), with the growth
exponent between the ends (``log(t_last / t_first) / log(x_last / x_first)``) beside the one
the engine must have: an exact engine enumerates card *classes* with their counts, never the
cards, so its time must not grow with the decks (exponent 0); a simulator's time grows
linearly with the rounds (exponent 1). :func:`memory_scaling` gives each ``exact`` command's
peak memory as a whole process at each deck count (which must not grow either).
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from typing import Any

import bench_processes
import numpy as np

from gamecore import baccarat, blackjack, c21_baccarat, dragon_tiger
from gamecore.dealing import Dealing
from gamecore.sidebets import definition
from gamecore.sidebets.parsheet import par_sheet

DECKS = (1, 8, 100, 1000)
ROUNDS = (10**6, 10**7, 10**8, 10**9)
#: Issue 31's simulation targets, rounds a second on two cores.
TARGET_BACCARAT = 50e6
TARGET_BLACKJACK = 15e6


def median_seconds(function: Callable[[], object], repeats: int) -> float:
    """The median wall time of ``repeats`` calls of ``function``, after one call that
    compiles and warms what it uses."""
    function()  # warm-up: compilation and caches
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _simulators() -> dict[str, tuple[Callable[[int, int, int | None], Any], float]]:
    """name -> (simulate(rounds, seed, threads) -> its integer tallies, target rounds/s)."""
    punto_banco = baccarat.PuntoBancoRules()
    shoe = Dealing(mode="shoe")
    found: dict[str, tuple[Callable[[int, int, int | None], Any], float]] = {
        "punto_banco_fresh": (
            lambda n, seed, threads: (
                baccarat.sim.simulate(punto_banco, n, seed, threads=threads, progress=False).counts
            ),
            TARGET_BACCARAT,
        ),
        "punto_banco_shoe": (
            lambda n, seed, threads: (
                baccarat.sim.simulate(
                    punto_banco, n, seed, shoe, threads=threads, progress=False
                ).counts
            ),
            TARGET_BACCARAT,
        ),
    }
    for rules in (
        blackjack.C21BlackjackRules(decks=6),
        blackjack.StandardBlackjackRules(decks=6, dealer_hits_soft_17=True),
    ):
        chart = blackjack.exact(rules).chart
        found[f"{rules.game}_basic_strategy"] = (
            lambda n, seed, threads, rules=rules, chart=chart: blackjack.sim.simulate(
                rules, chart, n, seed, threads=threads, progress=False
            ).to_dict(),
            TARGET_BLACKJACK,
        )
    return found


def _same(first: Any, second: Any) -> bool:
    if isinstance(first, np.ndarray):
        return bool(np.array_equal(first, second))
    return first == second


def simulation_rates(rounds: int = 80_000_000, check_rounds: int = 3_000_000) -> dict:
    """Each simulator's rounds a second over ``rounds`` rounds on every core (median of 3
    after a warm-up), its target, and whether ``check_rounds`` rounds of one seed give the
    same tallies on one thread and on two."""
    out = {}
    for name, (simulate, target) in _simulators().items():
        n = rounds if target == TARGET_BACCARAT else rounds // 4
        seconds = median_seconds(lambda simulate=simulate, n=n: simulate(n, 1, None), 3)
        one = simulate(check_rounds, 2026, 1)
        two = simulate(check_rounds, 2026, 2)
        out[name] = {
            "rounds": n,
            "seconds": seconds,
            "rounds_per_second": n / seconds,
            "target_rounds_per_second": target,
            "same_tallies_one_and_two_threads": _same(one, two),
        }
    return out


def _exponent(xs: tuple[int, ...], seconds: list[float]) -> float:
    return math.log(seconds[-1] / seconds[0]) / math.log(xs[-1] / xs[0])


def deck_scaling(repeats: int = 3) -> dict[str, dict[str, Any]]:
    """Each exact engine's time (in process, warm) at 1, 8, 100 and 1000 decks."""
    dragon_7 = definition.load("dragon_7")
    engines: dict[str, Callable[[int], object]] = {
        "punto_banco_exact": lambda d: baccarat.exact(baccarat.PuntoBancoRules(decks=d)).wagers(),
        "c21_baccarat_exact": lambda d: c21_baccarat.count_deals(
            c21_baccarat.C21BaccaratRules(decks=d)
        ).equilibrium(),
        "standard_blackjack_exact": lambda d: blackjack.exact(
            blackjack.StandardBlackjackRules(decks=d, dealer_hits_soft_17=True)
        ),
        "c21_blackjack_exact": lambda d: blackjack.exact(blackjack.C21BlackjackRules(decks=d)),
        "dragon_tiger_exact": lambda d: dragon_tiger.exact(dragon_tiger.DragonTigerRules(decks=d)),
        "sidebet_dragon_7_par_sheet": lambda d: par_sheet(dragon_7, d),
    }
    out = {}
    for name, run in engines.items():
        seconds = [median_seconds(lambda d=d, run=run: run(d), repeats) for d in DECKS]
        out[name] = {
            "decks": list(DECKS),
            "seconds": seconds,
            "exponent": _exponent(DECKS, seconds),
            "expected_exponent": 0.0,
        }
    return out


def round_scaling() -> dict[str, dict[str, Any]]:
    """The punto banco (fresh) and 21st Century blackjack simulators' time at 10^6 to 10^9
    rounds (one run each, every core)."""
    simulators = _simulators()
    out = {}
    for name in ("punto_banco_fresh", "c21_blackjack_basic_strategy"):
        simulate = simulators[name][0]
        simulate(10_000, 1, None)  # warm-up
        seconds = []
        for n in ROUNDS:
            start = time.perf_counter()
            simulate(n, 7, None)
            seconds.append(time.perf_counter() - start)
        out[name] = {
            "rounds": list(ROUNDS),
            "seconds": seconds,
            "exponent": _exponent(ROUNDS, seconds),
            "expected_exponent": 1.0,
        }
    return out


def memory_scaling() -> dict[str, dict[str, Any]]:
    """Each ``exact`` command's peak memory as a whole process at 1, 8, 100 and 1000 decks."""
    out = {}
    for game in ("punto_banco", "c21_baccarat", "standard_blackjack", "c21_blackjack"):
        command = [*bench_processes.GAMECORE, "exact", game, "--json"]
        bench_processes.measure([*command, "--decks", "8"])  # warm the kernel cache
        peaks = [bench_processes.measure([*command, "--decks", str(d)])["peak_mb"] for d in DECKS]
        out[game] = {"decks": list(DECKS), "peak_mb": peaks}
    return out
