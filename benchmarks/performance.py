"""``docs/performance.md``: what one ``make bench`` run measured, written by the run itself.

Timings never live in docstrings or comments, where they go stale without anyone noticing;
this page is regenerated whole by every ``make bench`` and says on which machine, on which
date and at which commit its figures were taken. The figures are ``build/bench.json``'s,
laid out as tables: each case's median seconds, the reference timed in the same run where
there is one, their ratio, and the target the issues set.
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


def _case_rows(results: dict[str, Any]) -> list[str]:
    rows = [
        "| case | median | reference (same run) | reference / gamecore | target | met |",
        "|---|--:|--:|--:|--:|---|",
    ]
    for name, r in results.items():
        if "seconds" not in r or "ratio" in r or "peak_mb" in r:
            continue
        reference = r.get("reference_seconds")
        speedup = f"{reference / r['seconds']:.0f}x" if reference else ""
        target = r.get("target_seconds")
        met = "" if target is None else ("yes" if r["seconds"] <= target else "**no**")
        rate = r.get("rounds_per_second")
        label = f"{name} ({rate / 1e6:.1f}M rounds/s)" if rate else name
        rows.append(
            f"| {label} | {_seconds(r['seconds'])} | {_seconds(reference)} | {speedup} "
            f"| {_seconds(target)} | {met} |"
        )
    return rows


def _ratio_rows(results: dict[str, Any]) -> list[str]:
    rows = ["| comparison | ratio | target | met | detail |", "|---|--:|--:|---|---|"]
    for name, r in results.items():
        if "ratio" not in r or "peak_mb" in r:
            continue
        met = "yes" if r["ratio"] <= r["target_ratio"] else "**no**"
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
            f"| {name} | {r['ratio']:.3f} | {r['target_ratio']:.1f} | {met} | {'; '.join(detail)} |"
        )
    for name, r in results.items():
        if "skipped" in r:
            rows.append(f"| {name} | | | skipped | {r['skipped']} |")
    return rows


def _process_rows(results: dict[str, Any]) -> list[str]:
    rows = [
        "| whole process | median (range) | peak memory | target | reference (paired ratio) |",
        "|---|--:|--:|---|---|",
    ]
    for name, r in results.items():
        if "peak_mb" not in r:
            continue
        low, high = r["seconds_range"]
        target = f"{r['target_seconds']} s, " if r.get("target_seconds") else ""
        reference = (
            f"{_seconds(r['reference_seconds'])}, {r['reference_peak_mb']:.0f} MB "
            f"({r['ratio']:.2f})"
            if "reference_seconds" in r
            else ""
        )
        rows.append(
            f"| {name} | {_seconds(r['seconds'])} ({low:.2f}-{high:.2f} s) "
            f"| {r['peak_mb']:.0f} MB | {target}{r['target_peak_mb']} MB | {reference} |"
        )
    return rows


def write(results: dict[str, Any], path: Path) -> None:
    """Write the page for one run's ``results`` (``build/bench.json``'s content) to ``path``.

    Parameters
    ----------
    results : dict
        Case name -> its measurements, as ``benchmarks/bench.py`` gathers them.
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
    ]
    path.write_text("\n".join(lines))
