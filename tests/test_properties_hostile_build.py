"""Issue 42 (hostile input, round four), the report build's items: its parameters given twice
or from two places (item 15), the folder a notebook run by hand writes to (item 5), the
Jupyter connection file a killed build leaves behind (item 20)."""

import contextlib
import io
import os
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamecore.errors import GamecoreError
from gamecore.reporting import build
from gamecore.reporting.build import check_rule_parameters
from gamecore.reporting.kernels import KERNEL_FOLDER_PREFIX, remove_abandoned
from gamecore.reporting.report import Report, notebook_parameters

# --- item 15: a parameter given twice, or on the command line and in a file ---------------

#: Parameter names the punto_banco report takes, and values each of them accepts.
NAMES = st.sampled_from(["decks", "rounds", "seed", "hold_sessions"])
VALUES = st.integers(min_value=1, max_value=8)


class _NotebooksWouldRun(Exception):
    """Raised where the build, its parameters checked, would start a kernel."""


def run_build(argv: list[str], monkeypatch) -> tuple[int | None, str, dict | None]:
    """``make reports --only punto_banco ARGV`` in this process up to where its notebook
    would run (its parameters read and checked): the exit status (None: it got that far),
    standard error, and the parameters the notebook would get."""
    checked: dict = {}

    def recorded(report, parameters):
        checked["parameters"] = check_rule_parameters(report, parameters)
        return checked["parameters"]

    def no_kernel():
        raise _NotebooksWouldRun

    monkeypatch.setattr(build, "check_rule_parameters", recorded)
    monkeypatch.setattr(build, "ensure_kernel", no_kernel)
    err = io.StringIO()
    code = None
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        with contextlib.suppress(_NotebooksWouldRun):
            code = build.main(["--output", "unused-reports", "--only", "punto_banco", *argv])
    return code, err.getvalue(), checked.get("parameters")


@given(name=NAMES, first=VALUES, second=VALUES)
def test_a_parameter_given_twice_is_refused_naming_it_and_both_values(
    name, first, second, monkeypatch
):
    # Item 15: -p decks 6 -p decks 7 built with 7, the 6 dropped without a word.
    code, err, parameters = run_build(
        ["-p", name, str(first), "-p", name, str(second)], monkeypatch
    )
    assert code == 2 and parameters is None, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("make reports: error: "), err
    assert f"-p {name} given twice ('{first}', then '{second}')" in lines[0], lines[0]


@given(name=NAMES, in_file=VALUES, typed=VALUES, other=VALUES)
def test_a_command_line_parameter_wins_over_the_file_and_says_so(
    name, in_file, typed, other, tmp_path_factory, monkeypatch
):
    # Item 15: -p overrode a value of the parameters file (-f) without a word.
    params = tmp_path_factory.mktemp("params") / "my params.yaml"
    params.write_text(f"{name}: {in_file}\npenetration: {other}\n")
    code, err, parameters = run_build(["-f", str(params), "-p", name, str(typed)], monkeypatch)
    assert code is None, err
    assert parameters == {name: typed, "penetration": other}
    assert err.splitlines() == [
        f"make reports: note: -p {name} {typed} overrides {name}: {in_file} from {params}"
    ], err


def test_an_override_in_a_refused_build_says_only_the_refusal(tmp_path, monkeypatch):
    params = tmp_path / "params.yaml"
    params.write_text("decks: 6\n")
    argv = ["-f", str(params), "-p", "decks", "7", "-p", "dekcs", "1"]
    code, err, _ = run_build(argv, monkeypatch)
    assert code == 2 and len(err.splitlines()) == 1 and "unknown" in err and "dekcs" in err, err


def test_parameters_from_one_place_each_build_without_a_note(tmp_path, monkeypatch):
    params = tmp_path / "params.yaml"
    params.write_text("decks: 6\n")
    code, err, parameters = run_build(["-f", str(params), "-p", "rounds", "1000"], monkeypatch)
    assert (code, err, parameters) == (None, "", {"decks": 6, "rounds": 1000})


# --- item 5: a notebook run by hand, its folder in the shared temporary folder -------------

#: The names a report gives its tables and figures: a word, underscores between.
FILE_NAMES = st.from_regex(r"[a-z]{1,8}(_[a-z]{1,8}){0,2}", fullmatch=True)


def by_hand(name: str) -> dict:
    """A notebook's globals as run by hand in Jupyter: every declared parameter at a value,
    IPython's own names, and ``output_dir`` at the notebooks' default, None."""
    namespace = {key: 1 for key in notebook_parameters(name)}
    namespace.update(In=[""], Out={}, __name__="__main__", output_dir=None)
    return namespace


def plant(link: Path, target: Path) -> None:
    """What another user of the machine can make: ``link`` (its folders too) naming
    ``target``."""
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(target)


@given(table=FILE_NAMES)
def test_a_notebook_run_by_hand_writes_to_a_new_private_folder(
    table, tmp_path_factory, monkeypatch
):
    # Item 5: output_dir None wrote to <tmp>/gamecore-notebooks/<name>, a name anyone can
    # make first, following a link planted there (another user's file was overwritten).
    root = tmp_path_factory.mktemp("machine")
    victim = root / "victim.txt"
    victim.write_text("another user's file\n")
    shared = root / "tmp"
    for planted in (f"gamecore-notebooks/punto_banco/{table}.csv", f"{table}.csv",
                    "gamecore-notebooks/punto_banco/summary.json", "summary.json"):
        plant(shared / planted, victim)
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        report = Report.for_notebook("punto_banco", by_hand("punto_banco"))
    report.table(pd.DataFrame({"Outcome": ["Banker"], "Probability": [0.45]}), table)
    report.key_figures("A title", edge=0.01)
    assert victim.read_text() == "another user's file\n"
    folder = report.output_dir
    assert folder.parent == shared and not folder.is_symlink()
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert "punto_banco" in folder.name
    assert sorted(p.name for p in folder.iterdir()) == sorted([f"{table}.csv", "summary.json"])
    assert pd.read_csv(folder / f"{table}.csv")["Outcome"].tolist() == ["Banker"]
    lines = out.getvalue().splitlines()
    assert len(lines) == 1 and str(folder) in lines[0], lines


def test_a_report_never_writes_through_a_link_in_its_folder(tmp_path):
    # Item 5: a link planted in a folder given as output_dir is refused, not followed.
    victim = tmp_path / "victim.txt"
    victim.write_text("another user's file\n")
    folder = tmp_path / "shared-folder"
    plant(folder / "outcomes.csv", victim)
    report = Report(folder, "punto_banco", {})
    with pytest.raises(GamecoreError, match="outcomes.csv"):
        report.table(pd.DataFrame({"Outcome": ["Banker"]}), "outcomes")
    assert victim.read_text() == "another user's file\n"


# --- item 20: a killed build's Jupyter connection file -------------------------------------

#: The cheapest report's build: Dragon Tiger on one deck, a few rounds (about 20 s whole; its
#: kernel is up after about 7).
TINY_BUILD = ["--only", "dragon_tiger", "-p", "decks", "1", "-p", "sweep_decks", "1"] + [
    arg for name in ("rounds", "sweep_rounds", "hold_sessions") for arg in ("-p", name, "10")
]


def connection_files(*folders: Path) -> list[Path]:
    """Every Jupyter connection file under ``folders``: a JSON file holding a kernel's
    ports and the key that signs its messages."""
    found = []
    for folder in folders:
        for path in folder.rglob("*.json"):
            with contextlib.suppress(OSError):
                text = path.read_text()
                if '"key"' in text and '"signature_scheme"' in text:
                    found.append(path)
    return found


@contextlib.contextmanager
def build_with_a_kernel(tmp_path: Path):
    """A build of :data:`TINY_BUILD` in a process of its own (and its own process group),
    its temporary folder and Jupyter runtime folder in ``tmp_path``, once its notebook's
    kernel is running (its connection file written). Yields the process, the temporary
    folder and the runtime folder; every process of its group is killed after the block."""
    temporary, runtime = tmp_path / "tmp", tmp_path / "runtime"
    temporary.mkdir()
    runtime.mkdir()
    environment = {**os.environ, "TMPDIR": str(temporary), "JUPYTER_RUNTIME_DIR": str(runtime)}
    argv = [sys.executable, "-m", "gamecore.reporting.build", "--output", str(tmp_path / "r")]
    process = subprocess.Popen(
        argv + TINY_BUILD,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 45
        while not connection_files(temporary, runtime):
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "no kernel started in 45 s"
            time.sleep(0.1)
        yield process, temporary, runtime
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # the kernel too, wherever it stands
        process.communicate()


def test_a_build_ended_by_sigterm_leaves_no_kernel_key(tmp_path):
    # Item 20: SIGTERM ended the build at once, its kernel's connection file (the HMAC key
    # that lets anyone who reads it run code in the kernel) left in the temporary folder.
    with build_with_a_kernel(tmp_path) as (process, temporary, runtime):
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=30)
        assert process.returncode == 143, (out, err)
        assert err.splitlines() == ["make reports: ended by SIGTERM; earlier reports are untouched"]
        assert connection_files(temporary, runtime) == []
        assert list(temporary.glob(f"{KERNEL_FOLDER_PREFIX}*")) == []


def test_a_build_killed_outright_leaves_its_kernel_key_only_until_the_next_build(tmp_path):
    # Item 20: SIGKILL, which nothing can catch, left the key for good.
    with build_with_a_kernel(tmp_path) as (process, temporary, runtime):
        process.kill()
        process.wait(timeout=30)
        left = connection_files(temporary, runtime)
        assert len(left) == 1 and left[0].parent.parent == temporary, left
        folder = left[0].parent
        assert folder.name.startswith(f"{KERNEL_FOLDER_PREFIX}{process.pid}-")
        assert stat.S_IMODE(folder.stat().st_mode) & 0o777 == 0o700
        live = Path(tempfile.mkdtemp(prefix=f"{KERNEL_FOLDER_PREFIX}{os.getpid()}-", dir=temporary))
        link = temporary / f"{KERNEL_FOLDER_PREFIX}1999999-link"
        link.symlink_to(runtime)
        assert remove_abandoned(temporary) == [folder]  # what the next build does first
        assert connection_files(temporary, runtime) == []
        assert live.is_dir() and link.is_symlink() and runtime.is_dir()  # a live build's; a link
