"""Speed of every engine and of whole commands, against the targets the issues set
(`make bench`).

Each in-process case is timed several times after a warm-up (so numba compilation is
excluded) and reported as its median; where a plain-Python reference exists
(tests/naive_baccarat.py) it is timed in the same run, so the ratio does not depend on the
machine. Then the paired comparisons in process (bench_blackjack), the simulators' rounds a
second and how every engine scales with decks and rounds (bench_scaling), and whole processes
with their peak memory, each paired with a reference run as a process, the first run on an
empty kernel cache, and what a command imports (bench_processes). Writes ``build/bench.json``
(one object per section), prints a summary, and writes the same figures with the machine,
date and commit to ``docs/performance.md`` (benchmarks/performance.py). Timing lives here,
never in tests or docstrings.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_blackjack  # noqa: E402
import bench_processes  # noqa: E402
import bench_scaling  # noqa: E402
import bench_sidebets  # noqa: E402
import naive_baccarat  # noqa: E402
import naive_c21  # noqa: E402
import performance  # noqa: E402

from gamecore import baccarat, c21_baccarat, strictjson  # noqa: E402
from gamecore.counting import CounterRun  # noqa: E402
from gamecore.shoe import baccarat_shoe  # noqa: E402


def c21_evaluate(rules):
    analysis = c21_baccarat.count_deals(rules)
    return analysis.evaluate(
        c21_baccarat.house_way_player(rules), c21_baccarat.house_way_dealer(rules)
    ).player_ev


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=ROOT / "build" / "bench.json")
    parser.add_argument("--performance", type=Path, default=ROOT / "docs" / "performance.md")
    parser.add_argument("--repeats", type=int, default=50)
    args = parser.parse_args()

    eight = baccarat_shoe(8)
    rules = baccarat.PuntoBancoRules()
    ez = baccarat.EZBaccaratRules()
    c21_rules = c21_baccarat.C21BaccaratRules()
    cases = {
        # The kernel with the full (cards, cards, total, total) breakdown, 8 decks.
        "punto_banco_exact_8_decks": (
            lambda: baccarat.count_rounds(eight),
            lambda: naive_baccarat.class_breakdown(eight.tolist()),
            0.005,
        ),
        # The same plus settling every bet exactly (what a report calls).
        "punto_banco_analysis_8_decks": (
            lambda: baccarat.exact(rules).wagers(),
            None,
            None,
        ),
        "deck_sweep_1_to_8_decks": (
            lambda: [baccarat.count_rounds(baccarat_shoe(d)) for d in range(1, 9)],
            lambda: [
                naive_baccarat.class_breakdown(baccarat_shoe(d).tolist()) for d in range(1, 9)
            ],
            0.040,
        ),
        "infinite_deck_limit": (lambda: baccarat.infinite_deck(rules), None, None),
        # The counting study's default counter run (one million 8-deck shoes, 7 triggers).
        "counter_simulation_1M_shoes": (
            lambda: baccarat.counting.counter_simulation(
                baccarat.counting.SideBetCount(ez, baccarat.removal.JACOBSON_DRAGON_TAGS),
                CounterRun(1_000_000, 1, (0, 2, 4, 6, 8, 10, 12), progress=False),
            ),
            None,
            None,
        ),
        # One exact heads-up evaluation of a strategy pair, 8 decks and 8 jokers, from the
        # shoe (the strategy-free counts) to the player's EV; reference: plain Python.
        "c21_exact_heads_up_8_decks": (
            lambda: c21_evaluate(c21_rules),
            lambda: naive_c21.ev_by_class(
                naive_c21.c21_composition(8, 1),
                naive_c21.house_way_player,
                naive_c21.house_way_dealer,
            ),
            0.020,
        ),
        "c21_equilibrium_solve": (
            lambda: c21_baccarat.count_deals(c21_rules).equilibrium(),
            None,
            1.0,
        ),
        "perfect_information_1000_shoes": (
            lambda: baccarat.counting.perfect_information_simulation(
                baccarat.counting.SideBetCount(
                    ez, baccarat.removal.JACOBSON_DRAGON_TAGS, name="Jacobson"
                ),
                CounterRun(1000, 1, progress=False),
            ),
            None,
            None,
        ),
    }
    cases.update(bench_blackjack.cases())
    cases.update(bench_sidebets.cases())
    results: dict[str, Any] = {"cases": {}}
    for name, (fast, reference, target) in cases.items():
        slow = name.startswith(("counter", "perfect", "blackjack", "sidebet"))
        repeats = 3 if slow else args.repeats
        reference_seconds = bench_scaling.median_seconds(reference, 3) if reference else None
        results["cases"][name] = {
            "seconds": bench_scaling.median_seconds(fast, repeats),
            "reference_seconds": reference_seconds,
            "target_seconds": target,
        }
    print_cases(results["cases"])
    results["paired"] = {
        "blackjack_standard_vs_farmer_ca": bench_blackjack.farmer_ratio(),
        "blackjack_c21_over_standard_6_decks": bench_blackjack.c21_over_standard(),
    }
    results["simulation"] = bench_scaling.simulation_rates()
    results["deck_scaling"] = bench_scaling.deck_scaling()
    results["round_scaling"] = bench_scaling.round_scaling()
    results["memory_scaling"] = bench_scaling.memory_scaling()
    results["processes"] = bench_processes.whole_processes()
    results["cold_start"] = bench_processes.cold_start()
    results["imports"] = bench_processes.import_profile()
    performance.print_summary(results)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(strictjson.dumps(results) + "\n")
    print(f"wrote {args.output}")
    performance.write(results, args.performance)
    print(f"wrote {args.performance}")
    return 0


def print_cases(cases: dict[str, dict[str, Any]]) -> None:
    """The in-process cases as a table on standard output, as they finish."""
    print(f"{'case':42} {'median s':>10} {'reference s':>12} {'speed-up':>9} {'target s':>9}  ok")
    for name, r in cases.items():
        ratio = f"{r['reference_seconds'] / r['seconds']:.0f}x" if r["reference_seconds"] else ""
        ref = f"{r['reference_seconds']:.4f}" if r["reference_seconds"] else ""
        target = f"{r['target_seconds']:.3f}" if r["target_seconds"] else ""
        ok = (
            ""
            if r["target_seconds"] is None
            else performance.met(r["seconds"], r["target_seconds"])
        )
        print(f"{name:42} {r['seconds']:10.5f} {ref:>12} {ratio:>9} {target:>9}  {ok}")


if __name__ == "__main__":
    sys.exit(main())
