"""Whole processes for ``benchmarks/bench.py``: what a user waits for, start to end.

A command's user waits for the interpreter, the imports, numba loading the compiled kernels
from its cache, the analysis and the output. Each process here is timed as a whole, with its
peak resident memory, in pairs with a reference run as a process one after the other (a
shared machine's speed swings from one minute to the next; the median of the paired ratios
tells a slow moment of the machine from a slow program):

- ``gamecore exact standard_blackjack`` on Farmer's usual rule set against Eric Farmer's
  analyzer run once as a process (``time_farmer 6 1 1 1 0 0 1.5 1``), issue 31's target a
  ratio of at most 2.0 and 200 MB;
- the *numba floor* against the same: a process that imports numba and calls one trivial
  kernel from numba's cache, nothing of gamecore. What any process built on numba-compiled
  kernels cannot go below, measured in the same run, so a target below it shows as such;
- ``gamecore exact punto_banco`` and ``gamecore sidebet dragon_7`` against ``python -c pass``
  (target: at most 1 s).

:func:`cold_start` times each game's first command on an empty kernel cache (compilation
included) against the same command warm; :func:`import_profile` lists what the standard
blackjack command imports, by ``python -X importtime``.
"""

from __future__ import annotations

import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FARMER = ROOT.parent / "shared" / "reference" / "farmer-ca"
#: Farmer's usual benchmark: 6 decks, H17, DAS, split to 4 hands, no resplit of aces, no
#: surrender, 3:2 (``time_farmer DECKS H17 DAS RESPLIT RSA LS BJ REPEATS``).
FARMER_RULES = ("6", "1", "1", "1", "0", "0", "1.5")
#: Issue 31's targets.
TARGET_FARMER_RATIO = 2.0
TARGET_PEAK_MB = 200
TARGET_LIGHT_SECONDS = 1.0

GAMECORE = [sys.executable, "-m", "gamecore"]
STANDARD_COMMAND = [
    *GAMECORE,
    *("exact", "standard_blackjack", "--decks", "6", "--rule", "dealer_hits_soft_17=true"),
    "--json",
]

#: A process importing numba and calling one cached kernel: numba's own floor.
_FLOOR_SCRIPT = """
import numba
import numpy


@numba.njit(cache=True, nogil=True)
def total(values):
    return values.sum()


total(numpy.arange(3))
"""

#: Runs a command and prints its peak resident memory (KB) as JSON. A small launcher of its
#: own, so the child is not forked from this large process (a fork counts the parent's pages
#: in the child's peak until it execs). It also samples the child's /proc status every 5 ms
#: (Linux) for how the resident memory splits at its largest sample: anonymous (the
#: process's own) and file-backed (the shared libraries' pages, numba's LLVM library most of
#: them). The second depends on the page cache, not on the program: right after pip has
#: written the libraries their pages are mapped in larger blocks.
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


def build_farmer() -> Path | None:
    """Farmer's analyzer built into ``build/farmer-ca`` (GPL-3: built and run as a separate
    program, never copied into the project); None without ``../shared`` or ``g++``."""
    if not (FARMER / "build.sh").is_file() or shutil.which("g++") is None:
        return None
    out = ROOT / "build" / "farmer-ca"
    out.mkdir(parents=True, exist_ok=True)
    built = subprocess.run(
        ["bash", str(FARMER / "build.sh"), str(out)], capture_output=True, text=True, check=True
    )
    return Path(built.stdout.strip().splitlines()[-1])


def measure(command: list[str], env: dict[str, str] | None = None) -> dict[str, Any]:
    """One run of ``command`` as a process: wall seconds, peak resident MB and, where /proc
    is there, its split at the largest sample ({"anonymous", "file_backed"} MB)."""
    start = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "-c", _LAUNCHER, *command],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    seconds = time.perf_counter() - start
    memory = json.loads(run.stdout)
    split = None
    if memory["anonymous_kb"] + memory["file_kb"] > 0:
        split = {
            "anonymous": memory["anonymous_kb"] / 1024,
            "file_backed": memory["file_kb"] / 1024,
        }
    return {"seconds": seconds, "peak_mb": memory["peak_kb"] / 1024, "split_mb": split}


def paired(
    command: list[str], reference: list[str] | None, pairs: int, name: str
) -> dict[str, Any]:
    """``command`` and ``reference`` run alternately ``pairs`` times after a warm-up of each:
    both medians and ranges, both peaks, and the median of the paired ratios."""
    measure(command)  # warm: kernel cache, page cache
    if reference:
        measure(reference)
    ours, theirs = [], []
    for _ in range(pairs):
        ours.append(measure(command))
        if reference:
            theirs.append(measure(reference))
    highest = max(ours, key=lambda m: m["peak_mb"])
    out = {
        "seconds": statistics.median(m["seconds"] for m in ours),
        "seconds_range": [min(m["seconds"] for m in ours), max(m["seconds"] for m in ours)],
        "peak_mb": highest["peak_mb"],
        "peak_split_mb": highest["split_mb"],
        "pairs": pairs,
    }
    if theirs:
        out.update(
            reference=name,
            reference_seconds=statistics.median(m["seconds"] for m in theirs),
            reference_peak_mb=max(m["peak_mb"] for m in theirs),
            ratio=statistics.median(
                a["seconds"] / b["seconds"] for a, b in zip(ours, theirs, strict=True)
            ),
        )
    return out


def whole_processes(pairs: int = 7) -> dict[str, dict[str, Any]]:
    """Issue 31's whole processes (warm kernel cache, compiled bytecode), each paired with
    its reference; a process without its reference (no ``g++``, no ``../shared``) says so."""
    # An installed package has its bytecode (pip compiles it); an editable checkout run with
    # PYTHONDONTWRITEBYTECODE would compile every module in every process.
    compileall.compile_dir(ROOT / "gamecore", quiet=1)
    try:
        farmer = build_farmer() if FARMER.is_dir() else None
    except subprocess.CalledProcessError:
        farmer = None
    farmer_command = [str(farmer), *FARMER_RULES, "1"] if farmer else None
    farmer_name = "Eric Farmer's CA v7.6 (time_farmer, one analysis) as a process"
    floor_script = ROOT / "build" / "numba_floor.py"
    floor_script.parent.mkdir(parents=True, exist_ok=True)
    floor_script.write_text(_FLOOR_SCRIPT)
    python_pass = [sys.executable, "-c", "pass"]
    out = {}
    standard = paired(STANDARD_COMMAND, farmer_command, pairs, farmer_name)
    standard.update(target_ratio=TARGET_FARMER_RATIO, target_peak_mb=TARGET_PEAK_MB)
    out["process_exact_standard_blackjack_6_decks_json"] = standard
    floor = paired([sys.executable, str(floor_script)], farmer_command, pairs, farmer_name)
    floor["note"] = "numba imported and one trivial kernel called from its cache: no gamecore"
    out["process_numba_floor"] = floor
    for name, command in (
        ("process_exact_punto_banco_json", [*GAMECORE, "exact", "punto_banco", "--json"]),
        ("process_sidebet_dragon_7_json", [*GAMECORE, "sidebet", "dragon_7", "--json"]),
    ):
        light = paired(command, python_pass, pairs, "python -c pass")
        light["target_seconds"] = TARGET_LIGHT_SECONDS
        out[name] = light
    results = [*GAMECORE, "exact", "c21_blackjack", "--decks", "8", "--results", "--json"]
    heavy = paired(results, None, 3, "")
    heavy["target_peak_mb"] = 500
    out["process_exact_c21_blackjack_8_decks_results_json"] = heavy
    if farmer is None:
        out["process_exact_standard_blackjack_6_decks_json"]["skipped"] = (
            "no Farmer ratio: g++ or ../shared/reference/farmer-ca not found"
        )
    return out


#: The commands timed cold and warm, one per game and the side-bet command.
COLD_COMMANDS = {
    "punto_banco": ["exact", "punto_banco", "--json"],
    "ez_baccarat": ["exact", "ez_baccarat", "--json"],
    "c21_baccarat": ["exact", "c21_baccarat", "--json"],
    "standard_blackjack": ["exact", "standard_blackjack", "--json"],
    "c21_blackjack": ["exact", "c21_blackjack", "--json"],
    "dragon_tiger": ["exact", "dragon_tiger", "--json"],
    "sidebet dragon_7": ["sidebet", "dragon_7", "--json"],
}


def cold_start(warm_runs: int = 3) -> dict[str, dict[str, float]]:
    """Each game's ``exact`` command (and ``sidebet``) as the first run after install:
    an empty kernel cache of its own, so every kernel it uses is compiled; then the same
    command warm (median of ``warm_runs``). Their difference is the compile time."""
    out = {}
    for game, arguments in COLD_COMMANDS.items():
        with tempfile.TemporaryDirectory(prefix="gamecore-cold-") as cache:
            env = {**os.environ, "NUMBA_CACHE_DIR": cache}
            cold = measure([*GAMECORE, *arguments], env)
            warm = [measure([*GAMECORE, *arguments], env) for _ in range(warm_runs)]
        warm_seconds = statistics.median(m["seconds"] for m in warm)
        out[game] = {
            "cold_seconds": cold["seconds"],
            "warm_seconds": warm_seconds,
            "compile_seconds": cold["seconds"] - warm_seconds,
            "cold_peak_mb": cold["peak_mb"],
        }
    return out


def import_profile(top: int = 15) -> dict[str, Any]:
    """What ``gamecore exact standard_blackjack`` imports (``python -X importtime``): the
    ``top`` top-level imports by cumulative time, and whether pandas, scipy, matplotlib or
    papermill is among all of them."""
    run = subprocess.run(
        [sys.executable, "-X", "importtime", *STANDARD_COMMAND[1:]],
        capture_output=True,
        text=True,
        check=True,
    )
    return _parse_importtime(run.stderr, top)


def _parse_importtime(text: str, top: int) -> dict[str, Any]:
    modules = []
    for line in text.splitlines():
        parts = line.split("|")
        if len(parts) != 3 or not parts[0].startswith("import time:"):
            continue
        try:
            cumulative = int(parts[1])
        except ValueError:  # the header line
            continue
        name = parts[2].rstrip()[1:]  # after the separator's space, two per level
        depth = (len(name) - len(name.lstrip())) // 2
        modules.append((name.strip(), cumulative, depth))
    top_level = sorted((m for m in modules if m[2] == 0), key=lambda m: -m[1])
    heavy = ("pandas", "scipy", "matplotlib", "papermill")
    importers = {}
    for at, (name, _cumulative, depth) in enumerate(modules):
        if name in heavy:  # importtime lists a module before the one that imported it
            parent = next((m[0] for m in modules[at + 1 :] if m[2] < depth), "the command")
            importers[name] = parent
    return {
        "total_ms": sum(m[1] for m in top_level) / 1000,
        "top_level_ms": {name: cumulative / 1000 for name, cumulative, _ in top_level[:top]},
        "heavy_imported": sorted(importers),
        "heavy_importers": importers,
    }
