"""Speed of the exact engines, measured against the targets the issues set (`make bench`).

Each case is timed several times after a warm-up (so numba compilation is excluded) and
reported as its median. Where a plain-Python reference exists (tests/naive_baccarat.py) it
is timed in the same run, so the ratio does not depend on the machine. Writes
``build/bench.json`` as ``{case: {"seconds": median, "reference_seconds": median or null,
"target_seconds": target or null}}``, prints a table, and writes the same figures with the
machine, date and commit to ``docs/performance.md`` (benchmarks/performance.py). Timing
lives here, never in tests or docstrings.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_blackjack  # noqa: E402
import bench_sidebets  # noqa: E402
import naive_baccarat  # noqa: E402
import naive_c21  # noqa: E402
import performance  # noqa: E402

from gamecore import baccarat, c21_baccarat, strictjson  # noqa: E402
from gamecore.counting import CounterRun  # noqa: E402
from gamecore.dealing import Dealing  # noqa: E402
from gamecore.shoe import baccarat_shoe  # noqa: E402

SIM_ROUNDS = 40_000_000


def c21_evaluate(rules):
    analysis = c21_baccarat.count_deals(rules)
    return analysis.evaluate(
        c21_baccarat.house_way_player(rules), c21_baccarat.house_way_dealer(rules)
    ).player_ev


def median_seconds(function: Callable[[], object], repeats: int) -> float:
    function()  # warm-up: compilation and caches
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cli_once() -> None:
    subprocess.run(
        [sys.executable, "-m", "gamecore", "exact", "punto_banco", "--json"],
        check=True,
        capture_output=True,
    )


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
        "cli_exact_punto_banco_json_warm_cache": (cli_once, None, 3.0),
        # The target: 20 million rounds a second on 2 cores, 40 million rounds in 2 s.
        "simulate_40M_rounds_fresh": (
            lambda: baccarat.sim.simulate(ez, SIM_ROUNDS, 1, progress=False),
            None,
            2.0,
        ),
        "simulate_40M_rounds_shoe": (
            lambda: baccarat.sim.simulate(ez, SIM_ROUNDS, 1, Dealing(mode="shoe"), progress=False),
            None,
            2.0,
        ),
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
    results = {}
    for name, (fast, reference, target) in cases.items():
        slow = name.startswith(("cli", "simulate", "counter", "perfect", "blackjack", "sidebet"))
        repeats = 3 if slow else args.repeats
        seconds = median_seconds(fast, repeats)
        reference_seconds = median_seconds(reference, 3) if reference else None
        results[name] = {
            "seconds": seconds,
            "reference_seconds": reference_seconds,
            "target_seconds": target,
        }
        if name.startswith("simulate"):
            results[name]["rounds_per_second"] = SIM_ROUNDS / seconds

    farmer = bench_blackjack.farmer_ratio()
    results["blackjack_standard_vs_farmer_ca"] = farmer
    results["blackjack_c21_over_standard_6_decks"] = bench_blackjack.c21_over_standard()
    whole = bench_blackjack.processes()
    results.update(whole)
    results["blackjack_simulate_4M_rounds_c21"]["rounds_per_second"] = (
        bench_blackjack.SIM_ROUNDS / results["blackjack_simulate_4M_rounds_c21"]["seconds"]
    )

    print(f"{'case':42} {'median s':>10} {'reference s':>12} {'speed-up':>9} {'target s':>9}  ok")
    for name, r in results.items():
        if name == "blackjack_standard_vs_farmer_ca" or "ratio" in r or "peak_mb" in r:
            continue
        ratio = f"{r['reference_seconds'] / r['seconds']:.0f}x" if r["reference_seconds"] else ""
        ref = f"{r['reference_seconds']:.4f}" if r["reference_seconds"] else ""
        target = f"{r['target_seconds']:.3f}" if r["target_seconds"] else ""
        ok = (
            ""
            if r["target_seconds"] is None
            else ("yes" if r["seconds"] <= r["target_seconds"] else "NO")
        )
        print(f"{name:42} {r['seconds']:10.5f} {ref:>12} {ratio:>9} {target:>9}  {ok}")
    if "skipped" in farmer:
        print(f"Farmer's CA: skipped the ratio ({farmer['skipped']})")
    else:
        ok = "yes" if farmer["ratio"] <= farmer["target_ratio"] else "NO"
        print(
            f"{'blackjack standard / Farmer CA (paired)':42} {farmer['seconds']:10.5f} "
            f"{farmer['reference_seconds']:12.4f} ratio {farmer['ratio']:.2f} "
            f"(target {farmer['target_ratio']:.1f})  {ok}; EVs {farmer['player_ev']:.12f} "
            f"vs Farmer {farmer['farmer_player_ev']:.12f}"
        )
    c21 = results["blackjack_c21_over_standard_6_decks"]
    ok = "yes" if c21["ratio"] <= c21["target_ratio"] else "NO"
    low, high = c21["ratio_quartiles"]
    ci_low, ci_high = c21["ratio_ci95"]
    work = ", ".join(f"{name} {ratio:.3f}" for name, ratio in c21["size_ratio"].items())
    print(
        f"{'blackjack c21 / standard, 6 decks (paired)':42} ratio {c21['ratio']:.3f} "
        f"(95% interval {ci_low:.3f}-{ci_high:.3f}, quartiles {low:.3f}-{high:.3f}, "
        f"{c21['pairs']} pairs; target 1.0)  {ok}; counted work c21 / standard: {work}"
    )
    for name, r in whole.items():
        farmer_part = (
            f"; Farmer {r['reference_seconds']:.2f} s {r['reference_peak_mb']:.0f} MB, "
            f"paired ratio {r['ratio']:.2f}"
            if "reference_seconds" in r
            else ""
        )
        low, high = r["seconds_range"]
        target = f"{r['target_seconds']} s " if r["target_seconds"] else ""
        split = r.get("peak_split_mb")
        split_part = (
            f" [{split['anonymous']:.0f} own + {split['file_backed']:.0f} libraries]"
            if split
            else ""
        )
        print(
            f"{name:42} {r['seconds']:10.2f} s ({low:.2f}-{high:.2f}) {r['peak_mb']:6.0f} MB"
            f"{split_part} "
            f"(target {target}{r['target_peak_mb']} MB){farmer_part}"
        )
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(strictjson.dumps(results) + "\n")
    print(f"wrote {args.output}")
    performance.write(results, args.performance)
    print(f"wrote {args.performance}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
