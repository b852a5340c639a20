"""Blackjack cases for ``benchmarks/bench.py``: name -> (callable, reference or None, target s),
the paired timing against Eric Farmer's analyzer, and whole processes with their peak memory.

Targets from issue 11: a full standard analysis (6 decks, H17, DAS, split to 4, chart search
included) no slower than Eric Farmer's C++ CA timed in the same run (ratio 1.0, aim 0.5); the
c21 analysis at 6 decks no slower than the standard one; the result distribution at 6 decks
under 2 s; the simulator at 8 million c21 chart rounds a second on 2 cores (4 million in
0.5 s); ``gamecore exact standard_blackjack --decks 6 ... --json`` as a whole process (warm
numba cache) under 1.5 s and 300 MB, and ``--results`` at 8 decks under 500 MB.

Farmer's CA (``../shared/reference/farmer-ca``, GPL-3: built and run as a separate program,
never copied into the project) is timed against ``blackjack.exact`` on its usual benchmark
rule set, alternately in one run, so the ratio holds on a noisy shared machine where absolute
seconds do not (:func:`farmer_ratio`).
"""

from __future__ import annotations

import compileall
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from gamecore import blackjack

SIM_ROUNDS = 4_000_000
ROOT = Path(__file__).resolve().parent.parent
FARMER = ROOT.parent / "shared" / "reference" / "farmer-ca"
#: Farmer's usual benchmark: 6 decks, H17, DAS, split to 4 hands, no resplit of aces, no
#: surrender, 3:2 (``time_farmer DECKS H17 DAS RESPLIT RSA LS BJ REPEATS``).
FARMER_RULES = ("6", "1", "1", "1", "0", "0", "1.5")
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
        "blackjack_simulate_4M_rounds_c21": (
            lambda: blackjack.sim.simulate(c21, chart, SIM_ROUNDS, 1, progress=False),
            None,
            0.5,
        ),
    }


def _build_farmer() -> Path | None:
    if not (FARMER / "build.sh").is_file() or shutil.which("g++") is None:
        return None
    out = ROOT / "build" / "farmer-ca"
    out.mkdir(parents=True, exist_ok=True)
    built = subprocess.run(
        ["bash", str(FARMER / "build.sh"), str(out)], capture_output=True, text=True, check=True
    )
    return Path(built.stdout.strip().splitlines()[-1])


def farmer_ratio(pairs: int = 7) -> dict[str, Any]:
    """gamecore's full standard analysis (``blackjack.exact``, chart search included) against
    Farmer's in-process analysis time, alternately ``pairs`` times: the median of the paired
    ratios (gamecore / Farmer) and both EVs. Without ``../shared`` or ``g++`` it says it
    skipped."""
    if not FARMER.is_dir():
        return {"skipped": f"no {FARMER} beside this checkout"}
    try:
        program = _build_farmer()
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


#: Runs a command and prints its peak resident memory (KB) as JSON. A small launcher of its
#: own, so the child is not forked from this large process (a fork counts the parent's pages
#: in the child's peak until it execs). It also samples the child's /proc status every 5 ms
#: (Linux) for how the resident memory splits at its largest sample: anonymous (the
#: process's own) and file-backed (the shared libraries' pages, numba's LLVM library about
#: half of them). The second depends on the page cache, not on the program: right after pip
#: has written the libraries their pages are mapped in larger blocks, and the same process
#: read about 45 MB more (measured here: 286 MB on a fresh clone and install against 240 MB,
#: 152 MB of it its own in both; the same again once the page cache was dropped and the
#: libraries read back).
_LAUNCHER = """
import json, resource, subprocess, sys, time
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
anonymous = files = 0
while child.poll() is None:
    try:
        with open(f"/proc/{child.pid}/status") as status:
            fields = dict(line.split(":", 1) for line in status if ":" in line)
        sample = [int(fields[key].split()[0]) for key in ("RssAnon", "RssFile")]
        if sum(sample) > anonymous + files:
            anonymous, files = sample
    except (OSError, KeyError, ValueError):  # not Linux, or the child just ended
        pass
    time.sleep(0.005)
if child.returncode:
    sys.exit(child.returncode)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"peak_kb": peak, "anonymous_kb": anonymous, "file_kb": files}))
"""


def _process(command: list[str]) -> tuple[float, float, dict[str, float] | None]:
    """(wall seconds, peak resident MB, its split {"anonymous", "file_backed"} in MB at the
    largest sample or None where /proc is not there) of one run of ``command``."""
    start = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "-c", _LAUNCHER, *command], capture_output=True, text=True, check=True
    )
    seconds = time.perf_counter() - start
    memory = json.loads(run.stdout)
    split = None
    if memory["anonymous_kb"] + memory["file_kb"] > 0:
        split = {
            "anonymous": memory["anonymous_kb"] / 1024,
            "file_backed": memory["file_kb"] / 1024,
        }
    return seconds, memory["peak_kb"] / 1024, split


def processes(repeats: int = 5) -> dict[str, dict[str, Any]]:
    """Whole ``gamecore exact`` processes (warm numba cache, compiled bytecode): the median
    wall time and the peak memory against the issue's targets. Where Farmer's CA can be
    built, each run of the standard process is paired with a run of Farmer's program as a
    process, one after the other, and the median paired ratio is recorded beside the two
    medians: a shared machine's speed swings from one minute to the next (here the same
    process took 1.2 s in one bench and 1.5-2.2 s within the hour), and the paired ratio
    tells a slow moment of the machine from a slow program."""
    # An installed package has its bytecode (pip compiles it); an editable checkout run with
    # PYTHONDONTWRITEBYTECODE (as here) would compile every module in every process.
    compileall.compile_dir(ROOT / "gamecore", quiet=1)
    try:
        farmer = _build_farmer() if FARMER.is_dir() else None
    except subprocess.CalledProcessError:
        farmer = None
    cli = [sys.executable, "-m", "gamecore", "exact"]
    runs = {
        "blackjack_process_exact_standard_6_decks_json": (
            [*cli, "standard_blackjack", "--decks", "6", "--rule", "dealer_hits_soft_17=true"]
            + ["--json"],
            1.5,
            300,
            farmer,
        ),
        "blackjack_process_exact_c21_8_decks_results_json": (
            [*cli, "c21_blackjack", "--decks", "8", "--results", "--json"],
            None,
            500,
            None,
        ),
    }
    out = {}
    for name, (command, target_seconds, target_mb, reference) in runs.items():
        _process(command)  # warm the kernel cache
        measured, references = [], []
        for _ in range(repeats):
            measured.append(_process(command))
            if reference is not None:
                references.append(_process([str(reference), *FARMER_RULES, "1"]))
        highest = max(measured, key=lambda m: m[1])
        out[name] = {
            "seconds": statistics.median(m[0] for m in measured),
            "seconds_range": [min(m[0] for m in measured), max(m[0] for m in measured)],
            "peak_mb": highest[1],
            "peak_split_mb": highest[2],
            "target_seconds": target_seconds,
            "target_peak_mb": target_mb,
        }
        if references:
            out[name].update(
                reference="Eric Farmer's CA v7.6 (time_farmer, one analysis), a process, "
                "paired run by run",
                reference_seconds=statistics.median(m[0] for m in references),
                reference_peak_mb=max(m[1] for m in references),
                ratio=statistics.median(
                    ours[0] / theirs[0] for ours, theirs in zip(measured, references, strict=True)
                ),
            )
    return out
