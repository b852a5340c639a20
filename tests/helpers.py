"""Helpers shared by several test modules: small shoes, simple charts, the bridges
between the pure-Python references and the engines' inputs, and running the command line."""

import fcntl
import functools
import os
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd

from gamecore import blackjack as bj
from gamecore import c21_baccarat as c21
from gamecore import twins

# --- a typeset report's text ------------------------------------------------


def pdf_pages(path: Path) -> list[str]:
    """The text of each page of the PDF at ``path``, as pypdf extracts it. Read once per
    file as it is (several tests read the same built report; a tenth of a second a page)."""
    stat = Path(path).stat()
    return list(_pdf_pages(str(Path(path).resolve()), stat.st_mtime_ns, stat.st_size))


@functools.cache
def _pdf_pages(path: str, mtime_ns: int, size: int) -> tuple[str, ...]:
    import pypdf

    return tuple(page.extract_text() for page in pypdf.PdfReader(path).pages)


# --- the command line ------------------------------------------------


def run_gamecore(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """``python -m gamecore ARGS`` as a process of its own, its output captured as text."""
    return subprocess.run(
        [sys.executable, "-m", "gamecore", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def run_gamecore_here(*args: str) -> subprocess.CompletedProcess:
    """``gamecore ARGS`` run by :func:`gamecore.cli.main` in this process, its output
    captured as text: what the process runs after its entry point (gamecore.__main__), a
    second less a run. For refusals, many of a kind; the process's own behaviour (signals,
    closed streams, its exit) is tested with whole processes (run_gamecore)."""
    import contextlib
    import io

    from gamecore import cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(list(args))
        except SystemExit as exit_:  # argparse's usage errors
            code = exit_.code
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def assert_refused(result: subprocess.CompletedProcess, *words: str) -> str:
    """The command was refused as bad input: exit 2, nothing on standard output, one line
    on standard error holding each of ``words``. Returns that line."""
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("gamecore: error:"), result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


# --- blackjack --------------------------------------------------------------------------


def naive_rules(rules):
    values = rules.resolved().to_dict()
    values.pop("game")
    return values


def simple_chart(split_everything=True):
    cells = {}
    for up in bj.CHART_UP_CARDS:
        for t in range(4, 22):
            cells[(f"hard {t}", up)] = "Dh" if t in (10, 11) else ("H" if t <= 16 else "S")
        for t in range(12, 22):
            cells[(f"soft {t}", up)] = "H" if t <= 17 else ("Ds" if t == 18 else "S")
        cells[("hard 16", up)] = "Rh" if up in ("10", "A") else "S"
        if split_everything:
            for r in bj.RANKS:
                cells[(f"pair {r}", up)] = "P"
    return bj.StrategyChart(cells, "test chart")


# A 12-card shoe no round can run dry (gamecore.blackjack.check_round_fits clears it): an
# Ace for soft hands, small cards to hit and double on, a pair of tens to split. The shoe
# A..9 once and three tens, used before, lets some rounds run out of cards and is refused.
TINY = (1, 1, 1, 1, 0, 0, 0, 1, 1, 6)


# A shoe that cannot run dry however a round goes (eights to split, tens and aces to stand
# on, 2s and 3s to hit and double on; gamecore.blackjack.check_round_fits clears it), so
# resplits to 3 and 4 hands, four doubled hands among them, can be played out by the
# reference. Its 20 cards are as few as that takes (a sixth 8 doubles the reference's time).
RESPLIT_SHOE = (1, 2, 2, 0, 0, 0, 0, 5, 2, 8)


def split_eights_chart():
    cells = dict(simple_chart(split_everything=False).cells)
    for up in bj.CHART_UP_CARDS:
        cells[("pair 8", up)] = "P"
    return bj.StrategyChart(cells, "split 8s")


# --- 21st Century Baccarat ----------------------------------------------------------------


def oracle_strategies(player_draw, dealer_draw):
    """The oracle's strategy functions as the engine's arrays (not validated, so strategies
    outside the card's forced ranges can be compared too)."""
    player = np.array([[player_draw(u, t) for t in range(10)] for u in range(10)], dtype=object)
    dealer = np.array(
        [[[dealer_draw(u, bool(d), t) for t in range(9)] for d in (0, 1)] for u in range(10)],
        dtype=object,
    )
    return c21.PlayerStrategy("oracle", player), c21.DealerStrategy("oracle", dealer)


def compare_with_oracle(composition, player_draw, dealer_draw, oracle, zero_ties=True):
    rules = c21.C21BaccaratRules(pd_wins_ties_on_zero=zero_ties)
    engine = c21.count_deals(rules, composition=composition)
    result = engine.evaluate(*oracle_strategies(player_draw, dealer_draw))
    total = oracle["total"]
    by_result = {1: Fraction(0), 0: Fraction(0), -1: Fraction(0)}
    for (_, outcome), p in result.outcome_probabilities.items():
        by_result[int(c21.PAYOFF[c21.OUTCOMES.index(outcome)])] += p
    assert engine.total == total
    assert by_result[1] == Fraction(oracle["win"], total)
    assert by_result[0] == Fraction(oracle["push"], total)
    assert by_result[-1] == Fraction(oracle["loss"], total)
    joker_up = {o: p for (r, o), p in result.outcome_probabilities.items() if r == "joker up card"}
    assert sum(joker_up.values()) == Fraction(sum(oracle["joker_up"].values()), total)


def assert_twin_table(path) -> None:
    """A cross-check CSV of a report: the one twin schema (Figure | Exact | Simulated | SE |
    z first), every z within four standard errors family-wise (approximate figures, marked,
    left out), a missing z only where a figure is missing, and each z what its columns say."""
    check = pd.read_csv(path)
    assert list(check.columns[:5]) == list(twins.TWIN_COLUMNS), path
    z = twins.ruled(check)
    assert len(z) and (z.abs() <= twins.z_threshold(len(z))).all(), path
    missing = check["z"].isna()
    both = check["Exact"].notna() & check["Simulated"].notna()
    assert not (missing & both).any(), path
    recomputed = twins.z_score(check["Simulated"], check["Exact"], check["SE"])
    assert np.allclose(check["z"], recomputed, equal_nan=True), path


# --- reports built once per session ------------------------------------------------------

#: The baccarat reports several test modules read (test_notebooks, test_documents), and the
#: small parameters they are built with.
BACCARAT_REPORTS = ["punto_banco", "ez_baccarat", "dragon7_counting", "c21_baccarat"]
BACCARAT_SMALL = {
    "decks": 1,
    "sweep_decks": 2,
    "rounds": 200_000,
    "sweep_rounds": 100_000,
    "hold_sessions": 2_000,
    "shoes": 3_000,
    "procedure_shoes": 1_000,
    "oracle_shoes": 30,
    "penetrations": [14, 26],
    "deck_counts": [1],
    "triggers": [0, 4],
    "table_rounds": 50_000,
    "chart_rounds": 3_000_000,
    "strategy_rounds": 50_000,
    "max_players": 3,
    "sweep_deck_counts": [1, 2],
    "sweep_jokers": [0, 1],
}
#: The Dragon Tiger report test_dragon_tiger and test_verify_evidence read.
DRAGON_TIGER_SMALL = {
    "decks": 2,
    "sweep_decks": 2,
    "rounds": 200_000,
    "sweep_rounds": 100_000,
    "hold_sessions": 2_000,
}


def built_once(tmp_path_factory, name: str, parameters: dict, only: list[str]) -> Path:
    """The reports ``only``, built by ``make reports``'s builder once per test session into
    a folder ``name`` whichever worker asks first (the others wait for it, under a lock in
    the session's shared temporary folder), given as a path relative to the working folder
    as a user may give it. Tests read it; a test that changes files changes a copy. What
    the build printed is kept beside it, in ``<name>.stdout``."""
    import contextlib
    import io

    from gamecore.reporting.build import build

    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # one folder for all the workers of the session
    folder = root / name
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (root / f"{name}.built").exists():
            shutil.rmtree(folder, ignore_errors=True)  # from a build that failed
            here = Path.cwd()
            os.chdir(root)
            printed = io.StringIO()
            try:
                with contextlib.redirect_stdout(printed):
                    build(Path(name), parameters, only=only)
            finally:
                os.chdir(here)
            (root / f"{name}.stdout").write_text(printed.getvalue())
            (root / f"{name}.built").touch()
    return folder
