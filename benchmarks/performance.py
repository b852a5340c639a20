"""``docs/performance.md``: what one ``make bench`` run measured, written by the run itself.

Timings never live in docstrings or comments, where they go stale without anyone noticing;
this page is regenerated whole by every ``make bench`` and says on which machine, on which
date and at which commit its figures were taken. The figures are ``build/bench.json``'s,
laid out as tables: issue 31's targets first, each beside what was measured, then every
section of the run (cases in process with their same-run references, paired comparisons,
simulation speed, scaling with decks and rounds, whole processes, the cold start and the
import profile).
"""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
from pathlib import Path
from typing import Any

import numba
import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def machine() -> dict[str, str]:
    """The machine, software and commit the run measured: name -> value, in print order."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        pages = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        memory = f"{pages / 2**30:.1f} GiB"
    except (ValueError, OSError, AttributeError):
        memory = "unknown"
    try:
        commit = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short=12", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        commit += " (with uncommitted changes)" if dirty else ""
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown (not a git checkout)"
    return {
        "date (UTC)": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M"),
        "commit": commit,
        "CPU": cpu,
        "cores": str(os.cpu_count()),
        "memory": memory,
        "system": f"{platform.system()} {platform.release()}",
        "Python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": np.__version__,
    }


def _seconds(value: float | None) -> str:
    if value is None:
        return ""
    return f"{value:.3f} s" if value >= 0.1 else f"{value * 1e3:.2f} ms"


def met(value: float, target: float) -> str:
    """ "yes" when ``value`` is at most ``target``, else a bold "no".

    Parameters
    ----------
    value, target : float
        What was measured and its upper bound.

    Returns
    -------
    str
        The table cell.
    """
    return "yes" if value <= target else "**no**"


#: Why each engine's time grows with the decks as it does: what it must do.
DECK_GROWTH = {
    "punto_banco_exact": "the deal is the ten point classes with their counts, flat; once "
    "N P 6 passes int64 (from 28 decks) the counts are taken modulo primes and "
    "rebuilt (Chinese remainder theorem), more primes as the digits grow: log(decks)",
    "c21_baccarat_exact": "card classes with their counts, flat; past int64, counts "
    "modulo primes as punto banco: log(decks)",
    "standard_blackjack_exact": "hands are sets of card classes; more decks reach more "
    "of them (a 1-deck shoe runs out of small cards): flat above a few decks",
    "c21_blackjack_exact": "as standard blackjack",
    "dragon_tiger_exact": "13 ranks by 4 suits with their counts: flat",
    "sidebet_dragon_7_par_sheet": "flat in the deal; the counts' digits grow with the "
    "shoe (six cards of 52,000 is a 94-bit count), so more residues for the exact "
    "integers (CRT): log(decks)",
}


def targets_rows(results: dict[str, Any]) -> list[str]:
    """Issue 31's targets, each beside what the run measured."""
    rows = ["| figure | measured | target | met |", "|---|--:|--:|---|"]
    processes = results.get("processes", {})
    standard = processes.get("process_exact_standard_blackjack_6_decks_json")
    if standard:
        ratio, peak = standard.get("ratio"), standard["peak_mb"]
        target_ratio, target_peak = standard["target_ratio"], standard["target_peak_mb"]
        if ratio is not None:
            rows.append(
                f"| exact standard_blackjack process / Farmer's process (median of "
                f"{standard['pairs']} pairs) | {ratio:.2f} | {target_ratio:.1f} | "
                f"{met(ratio, target_ratio)} |"
            )
        rows.append(
            f"| exact standard_blackjack process, peak memory | {peak:.0f} MB | "
            f"{target_peak} MB | {met(peak, target_peak)} |"
        )
    floor = processes.get("process_numba_floor")
    if floor and "ratio" in floor:
        rows.append(
            f"| for scale: numba's floor (numba and one cached kernel) / Farmer's process | "
            f"{floor['ratio']:.2f}, {floor['peak_mb']:.0f} MB | | |"
        )
    for name in ("process_exact_punto_banco_json", "process_sidebet_dragon_7_json"):
        light = processes.get(name)
        if light:
            rows.append(
                f"| {name} (ratio to `python -c pass`: {light['ratio']:.1f}) | "
                f"{_seconds(light['seconds'])} | {_seconds(light['target_seconds'])} | "
                f"{met(light['seconds'], light['target_seconds'])} |"
            )
    for name, r in results.get("simulation", {}).items():
        rate, target = r["rounds_per_second"], r["target_rounds_per_second"]
        same = "" if r["same_tallies_one_and_two_threads"] else " (**tallies differ by threads**)"
        rows.append(
            f"| simulation {name}, rounds/s{same} | {rate / 1e6:.1f}M | {target / 1e6:.0f}M | "
            f"{met(target, rate)} |"
        )
    return rows


def _case_rows(results: dict[str, Any]) -> list[str]:
    rows = [
        "| case | median | reference (same run) | reference / gamecore | target | met |",
        "|---|--:|--:|--:|--:|---|",
    ]
    for name, r in results.get("cases", {}).items():
        reference = r.get("reference_seconds")
        speedup = f"{reference / r['seconds']:.0f}x" if reference else ""
        target = r.get("target_seconds")
        rows.append(
            f"| {name} | {_seconds(r['seconds'])} | {_seconds(reference)} | {speedup} "
            f"| {_seconds(target)} | {'' if target is None else met(r['seconds'], target)} |"
        )
    return rows


def _ratio_rows(results: dict[str, Any]) -> list[str]:
    rows = ["| comparison | ratio | target | met | detail |", "|---|--:|--:|---|---|"]
    for name, r in results.get("paired", {}).items():
        if "skipped" in r:
            rows.append(f"| {name} | | | skipped | {r['skipped']} |")
            continue
        detail = []
        if "reference_seconds" in r:
            detail.append(
                f"gamecore {_seconds(r['seconds'])}, {r['reference']} "
                f"{_seconds(r['reference_seconds'])}"
            )
        if "ratio_ci95" in r:
            low, high = r["ratio_ci95"]
            detail.append(f"95% interval {low:.3f}-{high:.3f}, {r['pairs']} pairs")
        rows.append(
            f"| {name} | {r['ratio']:.3f} | {r['target_ratio']:.1f} | "
            f"{met(r['ratio'], r['target_ratio'])} | {'; '.join(detail)} |"
        )
    return rows


def _process_rows(results: dict[str, Any]) -> list[str]:
    rows = [
        "| whole process | median (range) | peak memory (own + libraries) | reference, "
        "its peak (median paired ratio) |",
        "|---|--:|--:|---|",
    ]
    for name, r in results.get("processes", {}).items():
        low, high = r["seconds_range"]
        split = r.get("peak_split_mb")
        parts = f" ({split['anonymous']:.0f} + {split['file_backed']:.0f})" if split else ""
        reference = (
            f"{r['reference']}: {_seconds(r['reference_seconds'])}, "
            f"{r['reference_peak_mb']:.0f} MB ({r['ratio']:.2f})"
            if "reference_seconds" in r
            else r.get("skipped", "")
        )
        rows.append(
            f"| {name} | {_seconds(r['seconds'])} ({low:.2f}-{high:.2f} s) "
            f"| {r['peak_mb']:.0f} MB{parts} | {reference} |"
        )
    return rows


def _cold_rows(results: dict[str, Any]) -> list[str]:
    rows = [
        "| command | first run (empty cache) | warm | compile | peak memory, first run |",
        "|---|--:|--:|--:|--:|",
    ]
    for name, r in results.get("cold_start", {}).items():
        rows.append(
            f"| {name} | {_seconds(r['cold_seconds'])} | {_seconds(r['warm_seconds'])} "
            f"| {_seconds(r['compile_seconds'])} | {r['cold_peak_mb']:.0f} MB |"
        )
    return rows


def _simulation_rows(results: dict[str, Any]) -> list[str]:
    rows = [
        "| simulator | rounds | median | rounds/s | target | one and two threads |",
        "|---|--:|--:|--:|--:|---|",
    ]
    for name, r in results.get("simulation", {}).items():
        same = "same tallies" if r["same_tallies_one_and_two_threads"] else "**differ**"
        rows.append(
            f"| {name} | {r['rounds']:,} | {_seconds(r['seconds'])} | "
            f"{r['rounds_per_second'] / 1e6:.1f}M | {r['target_rounds_per_second'] / 1e6:.0f}M "
            f"| {same} |"
        )
    return rows


def _growth_rows(section: dict[str, Any], axis: str, explain: dict[str, str]) -> list[str]:
    if not section:
        return []
    first = next(iter(section.values()))
    header = " | ".join(f"{x:,}" for x in first[axis])
    rows = [
        f"| engine | {header} | exponent | expected | why |",
        "|---|" + "--:|" * len(first[axis]) + "--:|--:|---|",
    ]
    for name, r in section.items():
        times = " | ".join(_seconds(t) for t in r["seconds"])
        rows.append(
            f"| {name} | {times} | {r['exponent']:.2f} | {r['expected_exponent']:.0f} "
            f"| {explain.get(name, '')} |"
        )
    return rows


def _memory_rows(results: dict[str, Any]) -> list[str]:
    section = results.get("memory_scaling", {})
    if not section:
        return []
    first = next(iter(section.values()))
    rows = [
        "| exact command | " + " | ".join(f"{d:,} decks" for d in first["decks"]) + " |",
        "|---|" + "--:|" * len(first["decks"]),
    ]
    for name, r in section.items():
        rows.append(f"| {name} | " + " | ".join(f"{mb:.0f} MB" for mb in r["peak_mb"]) + " |")
    return rows


def _import_rows(results: dict[str, Any]) -> list[str]:
    imports = results.get("imports")
    if not imports:
        return []
    importers = imports.get("heavy_importers", {})
    heavy = (
        ", ".join(
            f"{name} (imported by {importers.get(name, '?')})" for name in imports["heavy_imported"]
        )
        or "none"
    )
    rows = [
        f"All imports: {imports['total_ms']:.0f} ms; of pandas, scipy, matplotlib and "
        f"papermill imported: {heavy}.",
        "",
        "| top-level import | cumulative |",
        "|---|--:|",
    ]
    rows += [f"| {name} | {ms:.1f} ms |" for name, ms in imports["top_level_ms"].items()]
    return rows


ROUND_GROWTH = {
    "punto_banco_fresh": "every round the same work",
    "c21_blackjack_basic_strategy": "every round the same work; below 10^7 rounds the "
    "start of the thread pool and the chunks' setup show",
}


def print_summary(results: dict[str, Any]) -> None:
    """Issue 31's targets beside what was measured, on standard output.

    Parameters
    ----------
    results : dict
        The run's sections, as ``benchmarks/bench.py`` gathers them.
    """
    for row in targets_rows(results)[2:]:
        print(" ".join(cell.strip() for cell in row.strip("|").split("|")))


def write(results: dict[str, Any], path: Path) -> None:
    """Write the page for one run's ``results`` (``build/bench.json``'s content) to ``path``.

    Parameters
    ----------
    results : dict
        Section name -> its measurements, as ``benchmarks/bench.py`` gathers them.
    path : pathlib.Path
        The page to write (``docs/performance.md``), replaced whole.
    """
    lines = [
        "# Performance",
        "",
        "Generated by `make bench` (benchmarks/bench.py); do not edit: the next run replaces",
        "it. Every figure below was measured in the one run described here. The machines are",
        "shared and noisy, so read the ratios against a reference timed in the same run, not",
        "the absolute seconds; timings never appear in the code's docstrings.",
        "",
        "## The run",
        "",
        "| | |",
        "|---|---|",
        *(f"| {name} | {value} |" for name, value in machine().items()),
        "",
        "## Issue 31's targets",
        "",
        *targets_rows(results),
        "",
        "A whole process's time is mostly numba's: importing it and loading each compiled",
        "kernel from its cache (numba then installs every typing and lowering registry, a",
        "fixed cost). The numba floor, a process that does nothing but call one trivial",
        "cached kernel, is measured in the same run for scale: a target below it cannot be",
        "met by any program whose kernels numba loads at run time.",
        "",
        "## Simulation (every core, startup and compilation excluded)",
        "",
        *_simulation_rows(results),
        "",
        "## Cases (median of repeated runs after a warm-up: compilation excluded)",
        "",
        *_case_rows(results),
        "",
        "## Paired comparisons (timed alternately in the same run)",
        "",
        *_ratio_rows(results),
        "",
        "## Whole processes (warm kernel cache)",
        "",
        *_process_rows(results),
        "",
        "## Cold start (the first run after install: an empty kernel cache)",
        "",
        *_cold_rows(results),
        "",
        "## Time with decks (exact engines, in process, warm)",
        "",
        "The exponent is log(t_last / t_first) / log(x_last / x_first): 0 for time that",
        "does not grow, 1 for time in proportion.",
        "",
        *_growth_rows(results.get("deck_scaling", {}), "decks", DECK_GROWTH),
        "",
        "## Time with rounds (simulators, every core)",
        "",
        *_growth_rows(results.get("round_scaling", {}), "rounds", ROUND_GROWTH),
        "",
        "## Memory with decks (whole `exact` processes, peak resident)",
        "",
        *_memory_rows(results),
        "",
        "## What `gamecore exact standard_blackjack` imports (`python -X importtime`)",
        "",
        *_import_rows(results),
        "",
    ]
    path.write_text("\n".join(lines))
