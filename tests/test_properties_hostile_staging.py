"""Issue 42 (hostile input, round four), the report build's staging and recovery: a FIFO put
where a build, ``gamecore verify`` or ``gamecore sign`` expects a regular file (item 9);
recovery removing folders a build did not make (item 4).

A FIFO opened the plain way waits for a writer, forever. Each test that reaches such an open
in this process does so under :func:`fifo_watchdog`, which, if the code under test is still
waiting after a few seconds, opens the FIFO for writing itself: the waiting open returns and
the test fails on what follows, instead of hanging the suite. The commands run as processes
of their own with a timeout.
"""

import contextlib
import json
import os
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest
from helpers import assert_refused, run_gamecore
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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


def fifo_in_a_report(reports: Path) -> Path:
    """A reports folder with a report the build keeps (it builds another) holding a FIFO
    among its files. Returns the FIFO."""
    (reports / "punto_banco").mkdir(parents=True)
    os.mkfifo(reports / "punto_banco" / "outcomes.csv")
    return reports / "punto_banco" / "outcomes.csv"


@pytest.mark.parametrize("planted", ["owner", "lock", "report"])
def test_make_reports_refuses_a_fifo_in_its_folder_in_one_line(tmp_path, planted):
    """A FIFO as a stopped build's owner file held make reports' recovery forever; a FIFO
    as the folder's lock file was taken as a lock; a FIFO among a kept report's files was
    passed over, left out of the manifest (verify then failed on it). Each is refused
    before any notebook runs."""
    reports = tmp_path / "reports"
    planting = {"owner": stopped_build_with_fifo_owner, "lock": fifo_lock}
    fifo = planting.get(planted, fifo_in_a_report)(reports)
    result = make_reports(reports)
    assert result.returncode == 2, result.stderr[-2000:]
    assert result.stderr.startswith("make reports: error: ")
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert_names_the_fifo(result.stderr, fifo)
    assert fifo.exists()  # refused, not removed


def test_a_fifo_put_in_a_kept_report_during_the_build_is_refused_at_the_commit(tmp_path):
    """Between the build's start and its commit, a FIFO put among the files of a report
    it keeps: refused, naming it, the folder as it was."""
    reports = tmp_path / "reports"
    staging = finalize.open_staging(reports)
    folder = staging.report("alpha")
    folder.mkdir()
    (folder / "summary.json").write_text('{"name": "alpha", "parameters": {}}')
    fifo = fifo_in_a_report(reports)
    try:
        with pytest.raises(GamecoreError) as refused:
            staging.commit(["alpha"], known=["alpha"], index_page=lambda state: "<p></p>")
    finally:
        staging.close()
    assert_names_the_fifo(str(refused.value), fifo)
    assert sorted(p.name for p in reports.iterdir()) == [finalize.LOCK, "punto_banco"]


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


# --- item 4: recovery touches only what a build marked as its own -------------------------


def dead_build_staging(reports: Path) -> Path:
    """A staging folder made by the build's own code in a process that then ended without
    closing it (as a killed build leaves it), a staged file in it. Returns the folder."""
    code = (
        "import sys; from gamecore.reporting import finalize; "
        "s = finalize.open_staging(sys.argv[1]); s.report('alpha').mkdir(); "
        "(s.report('alpha') / 'summary.json').write_text('{}'); print(s.path)"
    )
    made = subprocess.run(
        [sys.executable, "-c", code, str(reports)], capture_output=True, text=True, check=True
    )
    return Path(made.stdout.strip())


def user_folders(reports: Path) -> dict[Path, str]:
    """A user's folders named like a build's staging folders, each holding a note: beside
    the reports folder as earlier versions staged, and hidden inside it. Returns each
    note's path and text."""
    notes = {
        reports.parent / f".{reports.name}.building-mynotes" / "notes.txt": "my notes\n",
        reports / ".building-mine" / "x": "mine\n",
        reports / ".building-4242" / "x": "named as by process 4242\n",
        reports / ".staging-1" / "draft.txt": "a draft\n",
        reports / ".old-notes" / "old.txt": "old notes\n",
    }
    for path, text in notes.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return notes


def test_a_user_s_folders_named_like_staging_folders_survive_and_are_named(tmp_path):
    """Recovery deleted every .building-* folder inside the reports folder whose owner lock
    was not held (a user's too), and earlier versions' names (.reports.building-*,
    .staging-*, .old-*) when their last number was no live process. Now only a folder
    with a build's owner record is removed; the others are kept, every file, and named."""
    reports = tmp_path / "reports"
    reports.mkdir()
    notes = user_folders(reports)
    (reports / ".building-notes.txt").write_text("a file\n")
    gone = dead_build_staging(reports)
    recovered = finalize.recover(reports)
    assert {path: path.read_text() for path in notes} == notes
    assert (reports / ".building-notes.txt").read_text() == "a file\n"
    assert sorted(recovered.left) == sorted(
        {path.parent for path in notes} | {reports / ".building-notes.txt"}
    )
    assert recovered.removed == [gone] and not gone.exists()
    lines = recovered.notes()
    assert len(lines) == len(recovered.left) + 1
    assert any(str(gone) in line and "removed" in line for line in lines)
    for folder in recovered.left:
        assert any(str(folder) in line and "left as it is" in line for line in lines)


#: What may be found in a folder's .owner that a build did not write there.
FORGED = st.one_of(
    st.binary(max_size=300),
    st.fixed_dictionaries(
        {"made by": st.just("gamecore make reports"), "pid": st.integers(0, 1 << 22)},
        optional={"token": st.text(max_size=40), "host": st.text(max_size=20)},
    ).map(lambda record: json.dumps(record).encode()),
)
SUFFIXES = st.text(
    st.characters(codec="ascii", categories=["L", "N"]) | st.sampled_from("-_"),
    min_size=1,
    max_size=40,
)


@settings(max_examples=12, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(suffix=SUFFIXES, owner=st.none() | FORGED)
def test_no_folder_without_its_build_s_owner_record_is_removed(tmp_path, suffix, owner):
    """Whatever a folder named .building-SUFFIX holds as its .owner (nothing, bytes, a
    record naming another process or token), recovery leaves it and all in it."""
    reports = tmp_path / str(uuid.uuid4()) / "reports"
    folder = reports / f"{finalize.STAGING_PREFIX}{suffix}"
    (folder / "new").mkdir(parents=True)
    (folder / "new" / "notes.txt").write_text("keep me\n")
    if owner is not None:
        (folder / ".owner").write_bytes(owner)
    recovered = finalize.recover(reports)
    assert (folder / "new" / "notes.txt").read_text() == "keep me\n"
    assert recovered.removed == [] and recovered.left == [folder]


def test_a_record_copied_from_another_build_s_folder_marks_nothing(tmp_path):
    """An owner record is its own folder's: the same record in a folder of another name
    (its process and token not the name's) does not make that folder a build's."""
    reports = tmp_path / "reports"
    gone = dead_build_staging(reports)
    copy = reports / f"{finalize.STAGING_PREFIX}{os.getpid()}-{'0' * 32}"
    copy.mkdir()
    (copy / "x").write_text("mine\n")
    (copy / ".owner").write_bytes((gone / ".owner").read_bytes())
    recovered = finalize.recover(reports)
    assert recovered.removed == [gone] and recovered.left == [copy]
    assert (copy / "x").read_text() == "mine\n"


def test_make_reports_keeps_a_user_s_folders_and_says_what_recovery_removed(tmp_path):
    """The command: a user's folders survive its recovery and are named on standard error,
    a dead build's staging folder is removed and named, the build goes on."""
    reports = tmp_path / "reports"
    reports.mkdir()
    notes = user_folders(reports)
    gone = dead_build_staging(reports)
    small = ["-p", "rounds", "2000", "-p", "sweep_rounds", "2000", "-p", "hold_sessions", "50"]
    result = subprocess.run(
        [sys.executable, "-m", "gamecore.reporting.build", "--output", str(reports)]
        + ["--only", "dragon_tiger", *small],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert {path: path.read_text() for path in notes} == notes
    assert not gone.exists()
    said = [line for line in result.stderr.splitlines() if line.startswith("make reports: note:")]
    assert any(str(gone) in line and "removed" in line for line in said), result.stderr
    for path in notes:
        assert any(str(path.parent) in line and "left as it is" in line for line in said)
    assert (reports / "dragon_tiger" / "summary.json").is_file()
