"""Issue 42 (hostile input, round four), the report build's staging and recovery: a FIFO put
where a build, ``gamecore verify`` or ``gamecore sign`` expects a regular file (item 9).

A FIFO opened the plain way waits for a writer, forever. Each test that reaches such an open
in this process does so under :func:`fifo_watchdog`, which, if the code under test is still
waiting after a few seconds, opens the FIFO for writing itself: the waiting open returns and
the test fails on what follows, instead of hanging the suite. The commands run as processes
of their own with a timeout.
"""

import contextlib
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from helpers import assert_refused, run_gamecore

from gamecore.errors import GamecoreError
from gamecore.reporting import finalize, manifest, signing

#: Seconds a command is given to refuse a FIFO (it takes well under one past its start-up).
TIMEOUT = 60


@contextlib.contextmanager
def fifo_watchdog(fifo: Path, seconds: float = 5):
    """Release whatever in this process still waits on opening ``fifo`` after ``seconds``:
    the FIFO is opened for writing and closed, so a reader's open returns (and reads an
    empty file)."""

    def release():
        with contextlib.suppress(OSError):  # ENXIO: nobody is waiting
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))

    timer = threading.Timer(seconds, release)
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def stopped_build_with_fifo_owner(reports: Path) -> Path:
    """A staging folder of a build stopped after its commit, as a build leaves it, whose
    owner file is then replaced by a FIFO. Returns the FIFO."""
    reports.mkdir(exist_ok=True)
    code = (
        "import os, sys; from gamecore.reporting import finalize; "
        "s = finalize.open_staging(sys.argv[1]); "
        "open(s.path / finalize.JOURNAL, 'w').write('{\"reports\": {}}'); print(s.path)"
    )
    made = subprocess.run(
        [sys.executable, "-c", code, str(reports)], capture_output=True, text=True, check=True
    )
    staging = Path(made.stdout.strip())
    owner = staging / ".owner"
    owner.unlink()
    os.mkfifo(owner)
    return owner


def fifo_lock(reports: Path) -> Path:
    """A reports folder whose lock file is a FIFO. Returns the FIFO."""
    reports.mkdir(exist_ok=True)
    os.mkfifo(reports / finalize.LOCK)
    return reports / finalize.LOCK


def make_reports(output: Path) -> subprocess.CompletedProcess:
    """``make reports --output OUTPUT --only dragon_tiger`` as a process of its own."""
    return subprocess.run(
        [sys.executable, "-m", "gamecore.reporting.build", "--output", str(output)]
        + ["--only", "dragon_tiger"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


def assert_names_the_fifo(line: str, fifo: Path) -> None:
    assert str(fifo) in line and "FIFO" in line, line


@pytest.fixture(scope="module")
def private_key(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("keys")
    signing.keygen(folder / "key", folder / "key.pub")
    return folder / "key"


# --- item 9: nothing that can block is opened --------------------------------------------


def test_a_report_file_that_is_a_fifo_is_refused_by_its_hash_never_waited_on(tmp_path):
    """The manifest's and verify's hash of a file (a FIFO put where a report file was,
    after the folder was listed) opened it the plain way and waited for a writer."""
    fifo = tmp_path / "outcomes.csv"
    os.mkfifo(fifo)
    with fifo_watchdog(fifo), pytest.raises(GamecoreError) as refused:
        manifest.sha256(fifo)
    assert_names_the_fifo(str(refused.value), fifo)


def test_a_fifo_among_a_staged_report_s_files_is_refused_at_the_commit(tmp_path):
    """The commit flushed every staged file to disk, opening each the plain way: a FIFO
    among them held the build forever. Now it is refused, naming it, and nothing of the
    build is left or in place."""
    reports = tmp_path / "reports"
    staging = finalize.open_staging(reports)
    folder = staging.report("alpha")
    folder.mkdir()
    (folder / "summary.json").write_text('{"name": "alpha", "parameters": {}}')
    fifo = folder / "planted.csv"
    os.mkfifo(fifo)
    try:
        with fifo_watchdog(fifo), pytest.raises(GamecoreError) as refused:
            staging.commit(["alpha"], known=["alpha"], index_page=lambda state: "<p></p>")
    finally:
        staging.close()
    assert_names_the_fifo(str(refused.value), fifo)
    assert sorted(p.name for p in reports.iterdir()) == [finalize.LOCK]


@pytest.mark.parametrize("planted", ["owner", "lock"])
def test_make_reports_refuses_a_fifo_in_its_folder_in_one_line(tmp_path, planted):
    """A FIFO as a stopped build's owner file held make reports' recovery forever; a FIFO
    as the folder's lock file was taken as a lock."""
    reports = tmp_path / "reports"
    fifo = stopped_build_with_fifo_owner(reports) if planted == "owner" else fifo_lock(reports)
    result = make_reports(reports)
    assert result.returncode == 2, result.stderr[-2000:]
    assert result.stderr.startswith("make reports: error: ")
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert_names_the_fifo(result.stderr, fifo)
    assert fifo.exists()  # refused, not removed


@pytest.mark.parametrize("planted", ["owner", "lock"])
def test_verify_refuses_a_fifo_in_the_folder_in_one_line(tmp_path, planted):
    """verify waited forever on a stopped build's owner file that was a FIFO, and took a
    FIFO for the folder's lock."""
    reports = tmp_path / "reports"
    fifo = stopped_build_with_fifo_owner(reports) if planted == "owner" else fifo_lock(reports)
    line = assert_refused(run_gamecore("verify", str(reports), timeout=TIMEOUT))
    assert_names_the_fifo(line, fifo)


@pytest.mark.parametrize("planted", ["owner", "lock"])
def test_sign_refuses_a_fifo_in_the_folder_in_one_line(tmp_path, planted, private_key):
    """sign waited forever on a stopped build's owner file that was a FIFO, and signed a
    folder whose lock was a FIFO."""
    reports = tmp_path / "reports"
    fifo = stopped_build_with_fifo_owner(reports) if planted == "owner" else fifo_lock(reports)
    (reports / "MANIFEST.json").write_text('{"files": {}, "reports": {}}\n')
    line = assert_refused(
        run_gamecore("sign", str(reports), "--key", str(private_key), timeout=TIMEOUT)
    )
    assert_names_the_fifo(line, fifo)
    assert not (reports / "MANIFEST.json.sig").exists()
