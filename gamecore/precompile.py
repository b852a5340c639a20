"""Compile the package's kernels into numba's cache before anything needs them:
``python -m gamecore.precompile`` (``make test`` runs it first).

Central idea
------------
A kernel is compiled on its first call in a process and written to the cache
(:mod:`gamecore._jit`); every later process loads it. A process that finds a kernel missing
compiles it itself, so two processes started together (the test suite's two workers, or
the reports' notebooks) each compile the kernels they share: the same minutes spent twice.
Here a fixed set of small runs, :data:`JOBS`, each a command a user could type (or, for
what has no command, the library call a report makes), then every registered game's exact
figures and simulated twin (:func:`job_names`), call every kernel once with the argument
types the commands and reports use, two jobs at a time, each in a process of its own, the
longest first. With a cache already warm every job only loads its kernels: seconds.

Nothing here computes a figure anyone reads: every job's output is discarded, and a job
that fails is reported (its command and its last line) and fails the run, since it means a
command that no longer works.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

CHART_6 = "gamecore/charts/c21_6_decks.csv"
CHART_STANDARD = "gamecore/charts/standard_6_decks_h17_das.csv"

#: Each job: a name and the ``gamecore`` command lines it runs in one process (the library
#: jobs are named ``library:...`` and run :data:`LIBRARY`'s function). Listed longest first.
JOBS: dict[str, tuple[tuple[str, ...], ...]] = {
    "standard_blackjack": (
        ("exact", "standard_blackjack", "--decks", "6", "--json"),
        ("exact", "standard_blackjack", "--decks", "2", "--results", "--json"),
        ("exact", "standard_blackjack", "--decks", "1", "--rule", "split_strategy=cdp1"),
        ("exact", "standard_blackjack", "--decks", "1", "--rule", "split_strategy=cdp"),
        ("simulate", "standard_blackjack", "--strategy", "optimal", "--decks", "2",
         "--rounds", "2000", "--no-progress"),
        ("simulate", "standard_blackjack", "--strategy", "@standard", "--rounds", "2000",
         "--no-progress"),
        ("hand", "standard_blackjack", "--up", "10", "--cards", "8,8", "--decks", "2"),
    ),
    "c21_blackjack": (
        ("exact", "c21_blackjack", "--decks", "6", "--results", "--json"),
        ("exact", "c21_blackjack", "--shoe", "4,4,4,4,4,4,4,4,4,16", "--json"),
        ("simulate", "c21_blackjack", "--strategy", "@c21", "--rounds", "2000",
         "--no-progress"),
        ("simulate", "c21_blackjack", "--strategy", "optimal", "--decks", "2", "--rounds",
         "2000", "--no-progress"),
        ("simulate", "c21_blackjack", "--strategy", "@c21", "--players", "3", "--rounds",
         "2000", "--no-progress"),
        ("count", "c21_blackjack", "--decks", "2", "--shoes", "20", "--oracle-shoes", "5"),
    ),
    "baccarat": (
        ("exact", "punto_banco", "--decks", "8", "--json"),
        ("exact", "punto_banco", "--decks", "1000", "--json"),
        ("exact", "punto_banco", "--shoe", "4,4,4,4,4,4,4,4,4,16", "--json"),
        ("exact", "ez_baccarat", "--decks", "8", "--json"),
        ("simulate", "punto_banco", "--rounds", "2000", "--no-progress"),
        ("simulate", "ez_baccarat", "--rounds", "2000", "--mode", "shoe", "--no-progress"),
        ("count", "punto_banco", "--decks", "1"),
        ("count", "ez_baccarat", "--decks", "1"),
    ),
    "c21_baccarat": (
        ("exact", "c21_baccarat", "--decks", "8", "--json"),
        ("simulate", "c21_baccarat", "--rounds", "2000", "--no-progress"),
        ("simulate", "c21_baccarat", "--players", "3", "--rounds", "2000", "--no-progress"),
        ("count", "c21_baccarat", "--decks", "1", "--shoes", "20", "--oracle-shoes", "5"),
    ),
    "library:side_bets": (),
    "library:baccarat_counting": (),
}  # fmt: skip


def _side_bets() -> None:
    from gamecore.sidebets import counting, definition, removal, sim
    from gamecore.sidebets.parsheet import par_sheet

    for name, decks in (("dragon_7", 8), ("perfect_pairs", 6), ("lucky_ladies", 2)):
        bet = definition.load(name)
        sheet = par_sheet(bet, decks)
        sim.twin_table(sheet, sim.simulate(bet, decks, 2_000, seed=1))
        effects = removal.effects_of_removal(bet, decks)
        if effects.tags is not None:  # a bet with a count (Dragon 7's)
            counting.countability(bet, decks, effects.tags, 1.0, 14, 20, 1)
        sheet.analysis.result_distribution()


def _baccarat_counting() -> None:
    from gamecore import baccarat
    from gamecore.counting import CounterRun

    count = baccarat.counting.SideBetCount(
        baccarat.EZBaccaratRules(), dict(baccarat.removal.JACOBSON_DRAGON_TAGS)
    )
    baccarat.counting.counter_simulation(count, CounterRun(20, 1, (1.0,)))
    baccarat.counting.perfect_information_simulation([count], CounterRun(5, 1))


#: The library jobs: what the reports call that no command does.
LIBRARY: dict[str, Callable[[], None]] = {
    "library:side_bets": _side_bets,
    "library:baccarat_counting": _baccarat_counting,
}


def job_names() -> list[str]:
    """Every job, in the order they are started: :data:`JOBS` (the longest first), then a
    job per registered game (``game:NAME``: its exact figures and their simulated twin,
    :meth:`gamecore.game.Game.cross_check`), so a game added to the registry is compiled
    too, after the jobs whose kernels it may share.

    Returns
    -------
    list of str
        The job names :func:`run_job` takes.
    """
    from gamecore import games

    return [*JOBS, *(f"game:{game.name}" for game in games.all_games())]


def command_line(words: Sequence[str]) -> list[str]:
    """A job's command line with its chart names (``@c21``, ``@standard``) as paths.

    Parameters
    ----------
    words : sequence of str
        One command line of :data:`JOBS`.

    Returns
    -------
    list of str
        The arguments ``gamecore`` is run with.
    """
    charts = {"@c21": CHART_6, "@standard": CHART_STANDARD}
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return [os.path.join(root, charts[w]) if w in charts else w for w in words]


def run_job(name: str) -> None:
    """Run one job in this process, its output discarded.

    Parameters
    ----------
    name : str
        One of :func:`job_names`.
    """
    from gamecore import cli, games

    if name.startswith("game:"):
        game = games.game(name.removeprefix("game:"))
        game.cross_check(game.default_rules(), 2_000, 1)
        return
    if name in LIBRARY:
        LIBRARY[name]()
        return
    for words in JOBS[name]:
        with contextlib.redirect_stdout(io.StringIO()):
            status = cli.main(command_line(words))
        if status != 0:
            raise SystemExit(f"gamecore {' '.join(words)}: exit status {status}")


def precompile(jobs: Sequence[str] | None = None, processes: int = 2) -> list[str]:
    """Run ``jobs``, ``processes`` at a time, each in a new Python process.

    Parameters
    ----------
    jobs : sequence of str, optional
        Job names (default :func:`job_names`), started in this order.
    processes : int
        Processes at once.

    Returns
    -------
    list of str
        A line per failed job (empty: every kernel compiled or loaded).
    """

    def one(name: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "gamecore.precompile", "--job", name],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        if done.returncode == 0:
            return ""
        last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        return f"precompile {name} failed: {last}"

    started = time.monotonic()
    with ThreadPoolExecutor(processes) as pool:
        failures = [line for line in pool.map(one, jobs or job_names()) if line]
    took = time.monotonic() - started
    print(f"kernels compiled or loaded from the cache in {took:.0f} s", file=sys.stderr)
    return failures


def main(argv: Sequence[str] | None = None) -> int:
    """The command: every job, or ``--job NAME`` alone in this process.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (default ``sys.argv[1:]``).

    Returns
    -------
    int
        0 when every job ran, 1 otherwise (each failure one line on standard error).
    """
    parser = argparse.ArgumentParser(prog="python -m gamecore.precompile")
    parser.add_argument("--job", choices=job_names(), help="run one job in this process")
    args = parser.parse_args(argv)
    if args.job:
        run_job(args.job)
        return 0
    failures = precompile()
    for line in failures:
        print(line, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
