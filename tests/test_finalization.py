"""Putting a build in place (gamecore.reporting.finalize), and removing what a build made
(make clean): the invariant is that at every instant the reports folder holds the previous
build or the new one, each complete, with a manifest that matches it, and that nothing
outside the tree gamecore owns is ever removed.

The fault-injection tests run a small build (tests/staged_build.py) in a process of its own
and stop it at every change it makes to the file system: killed there with SIGKILL, or that
change failing as a full disk does (on a real, small file system where this machine lets the
tests mount one, otherwise injected).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import staged_build

from gamecore.errors import GamecoreError
from gamecore.reporting import finalize
from gamecore.reporting.build import build
from gamecore.reporting.manifest import MANIFEST
from gamecore.reporting.verify import check_hashes, read_manifest, verify

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
HELPER = TESTS / "staged_build.py"


def snapshot(output: Path) -> dict[str, bytes]:
    """Every visible file of the folder and its bytes (the manifest aside: it carries its
    own time of writing)."""
    return {
        p.relative_to(output).as_posix(): p.read_bytes()
        for p in sorted(output.rglob("*"))
        if p.is_file()
        and not any(part.startswith(".") for part in p.relative_to(output).parts)
        and p.name != MANIFEST
    }


def consistent(output: Path) -> bool:
    """The manifest is there and matches every file of the folder."""
    return check_hashes(output, read_manifest(output)) == []


def part(files: dict[str, bytes], top: str) -> dict[str, bytes]:
    return {k: v for k, v in files.items() if k.split("/")[0] == top}


@pytest.fixture(scope="module")
def versions(tmp_path_factory):
    """The folder as build 1 leaves it (every report) and as build 2 (two rebuilt) leaves
    it after build 1, made without faults."""
    old = tmp_path_factory.mktemp("old") / "reports"
    staged_build.stage_and_commit(old, 1, names=staged_build.KNOWN)
    new = tmp_path_factory.mktemp("new") / "reports"
    shutil.copytree(old, new)
    staged_build.stage_and_commit(new, 2)
    assert consistent(old) and consistent(new)
    return old, snapshot(old), snapshot(new)


def run_helper(output: Path, fault: str, step: int, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(HELPER), str(output), "2", fault, str(step), *flags],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(TESTS)])},
    )


def test_a_build_replaces_the_reports_it_rebuilt_and_keeps_the_others(versions):
    old, old_files, new_files = versions
    assert part(new_files, "gamma") == part(old_files, "gamma")  # not rebuilt: kept
    assert "alpha/only_in_2.txt" in new_files and "alpha/only_in_1.txt" not in new_files
    assert new_files["index.html"] == b"<p>build 2: alpha, beta, gamma</p>\n"
    manifest = read_manifest(old)
    assert set(manifest["reports"]) == set(staged_build.KNOWN)
    assert manifest["reports"]["alpha"]["seeds"] == {"seed": 1}


@pytest.mark.parametrize("exchange", [True, False], ids=["exchange", "rename-aside"])
def test_a_build_killed_at_any_step_leaves_the_old_or_the_new_folder(versions, tmp_path, exchange):
    """SIGKILL at every change the build makes. Where the file system exchanges two names
    in one step, every report is there, old or new, at every instant; in any case the next
    build's recovery leaves the old folder (killed before the commit) or the new one
    (after), with a matching manifest and nothing left over, and verify meanwhile refuses
    a folder whose committed build was cut short."""
    old, old_files, new_files = versions
    flags = () if exchange else ("--no-exchange",)
    steps = int(run_helper(old.parent / "unused", "kill", 0, *flags).stdout)
    assert steps > 30  # the helper counts what it should
    outcomes = []
    for step in range(1, steps + 1):
        output = tmp_path / f"step{step}" / "reports"
        shutil.copytree(old, output)
        result = run_helper(output, "kill", step, *flags)
        assert result.returncode == -9, (step, result.stderr)
        files = snapshot(output)
        for top in ("alpha", "beta", "gamma", "index.html"):
            seen = part(files, top)
            if exchange or top == "index.html":
                assert seen in (part(old_files, top), part(new_files, top)), (step, top)
        pending = finalize.pending_commit(output)
        if pending is not None:
            with pytest.raises(GamecoreError, match="stopped while its reports were put in place"):
                verify(output)
        else:
            assert files in (old_files, new_files) and consistent(output), step
        finalize.recover(output)
        files = snapshot(output)
        assert files in (old_files, new_files), step
        assert consistent(output), step
        assert sorted(p.name for p in output.iterdir() if p.name.startswith(".")) == [".lock"]
        outcomes.append("new" if files == new_files else "old")
        shutil.rmtree(output.parent)
    # Old up to the commit point, new from it on: one switch, never back.
    switch = outcomes.index("new")
    assert set(outcomes[:switch]) == {"old"} and set(outcomes[switch:]) == {"new"}
    assert 0 < switch < steps - 1


def test_a_disk_full_at_any_write_leaves_the_old_folder_or_the_new_one(versions, tmp_path):
    """ENOSPC at every change that takes space: the build fails with the error and the
    folder is the old one with its manifest, or (a failure it can do without, such as
    making a folder that is already there) it completes; never anything between, never
    a staging folder left."""
    old, old_files, new_files = versions
    steps = int(run_helper(old.parent / "unused", "enospc", 0).stdout)
    failed = 0
    for step in range(1, steps + 1):
        output = tmp_path / f"step{step}" / "reports"
        shutil.copytree(old, output)
        result = run_helper(output, "enospc", step)
        if result.returncode == 0 or "the new reports are committed" in result.stderr:
            assert snapshot(output) == new_files, step  # its clean-up completed it
        else:
            assert result.returncode == 1 and "No space left on device" in result.stderr, step
            assert snapshot(output) == old_files, step
        failed += result.returncode != 0
        assert consistent(output), step
        assert not list(output.glob(f"{finalize.STAGING_PREFIX}*")), step
        shutil.rmtree(output.parent)
    assert failed >= steps - 2  # all but making the folders that are already there


@contextlib.contextmanager
def small_file_system(where: Path, size: str):
    """A tmpfs of ``size`` mounted at ``where``, where this machine allows it (root, or a
    user namespace); the test is skipped elsewhere."""
    where.mkdir(parents=True)
    mounted = subprocess.run(
        [
            "mount",
            "-t",
            "tmpfs",
            "-o",
            f"size={size}",
            f"gamecore-test-{uuid.uuid4().hex[:8]}",
            str(where),
        ],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small file system here: {mounted.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def free_bytes(path: Path) -> int:
    status = os.statvfs(path)
    return status.f_bavail * status.f_frsize


def test_a_really_full_disk_leaves_the_old_folder_or_the_new_one(versions, tmp_path):
    """A real file system filled so that the build runs out of space part way, at every
    page of free space from none to enough: the build fails cleanly and leaves the old
    folder, or succeeds; never anything between, never a staging folder left."""
    old, old_files, new_files = versions
    with small_file_system(tmp_path / "mnt", "2m") as mount:
        output = mount / "reports"
        page = os.sysconf("SC_PAGE_SIZE")
        outcomes = []
        for free in range(0, 40 * page, page):
            shutil.copytree(old, output)
            filler = mount / "filler"
            with open(filler, "wb") as handle:
                handle.truncate(0)
                left = free_bytes(mount) - free
                with contextlib.suppress(OSError):
                    handle.write(b"\0" * max(left, 0))
            try:
                staged_build.stage_and_commit(output, 2)
                outcomes.append("new")
            except OSError as error:
                assert error.errno == 28, error  # ENOSPC
                outcomes.append("old")
            files = snapshot(output)
            assert files == (new_files if outcomes[-1] == "new" else old_files), free
            assert consistent(output)
            assert not list(output.glob(f"{finalize.STAGING_PREFIX}*"))
            shutil.rmtree(output)
            filler.unlink()
        assert "old" in outcomes and outcomes[-1] == "new"


def test_a_reports_folder_on_another_file_system_is_built_in_place(versions, tmp_path):
    """reports/ a mount point of its own: the staging folder is inside it, so nothing is
    renamed across file systems (EXDEV)."""
    old, _, new_files = versions
    with small_file_system(tmp_path / "reports", "16m") as output:
        for item in old.iterdir():
            (shutil.copytree if item.is_dir() else shutil.copy2)(item, output / item.name)
        staged_build.stage_and_commit(output, 2)
        assert snapshot(output) == new_files and consistent(output)


def test_a_folder_that_is_not_a_report_is_left_alone_and_kept_out_of_the_manifest(tmp_path):
    """A stray or damaged summary.json (not JSON, not an object, another report's name)
    used to stop the build with a traceback after its reports were moved, leaving a stale
    manifest: now the folder is left as it is, named in a note, its files hashed."""
    output = tmp_path / "reports"
    staged_build.stage_and_commit(output, 1, names=("alpha",))
    (output / "gamma").mkdir()
    (output / "gamma" / "summary.json").write_text("{not json")
    (output / "beta").mkdir()
    (output / "beta" / "summary.json").write_text('{"name": "alpha"}')
    (output / "stray").mkdir()
    (output / "stray" / "summary.json").write_text("[]")
    staging = finalize.open_staging(output)
    folder = staging.report("alpha")
    folder.mkdir()
    (folder / "summary.json").write_text('{"name": "alpha", "parameters": {}}')
    try:
        state = staging.commit(["alpha"], known=staged_build.KNOWN, index_page=lambda s: "")
    finally:
        staging.close()
    assert sorted(state.reports) == ["alpha"]
    assert [line.split(":")[0] for line in state.not_reports] == [
        str(output / "beta"),
        str(output / "gamma"),
    ]
    manifest = read_manifest(output)
    assert set(manifest["reports"]) == {"alpha"}
    assert "gamma/summary.json" in manifest["files"] and "stray/summary.json" in manifest["files"]
    assert consistent(output)


def test_a_planted_journal_cannot_move_anything_out_of_the_folder(tmp_path):
    output = tmp_path / "reports"
    staged_build.stage_and_commit(output, 1, names=("alpha",))
    victim = tmp_path / "victim"
    victim.mkdir()
    code = "import sys; from gamecore.reporting import finalize as f; "
    code += "print(f.open_staging(sys.argv[1]).path)"
    made = subprocess.run(  # a build's own staging folder, its process gone
        [sys.executable, "-c", code, str(output)], capture_output=True, text=True, check=True
    )
    planted = Path(made.stdout.strip())
    (planted / finalize.JOURNAL).write_text(json.dumps({"reports": {"../victim": [0, 0]}}))
    with pytest.raises(GamecoreError, match="not a build journal"):
        finalize.recover(output)
    assert victim.is_dir()


# --- make clean ----------------------------------------------------------------------------


def make(target: str, cwd: Path, *variables: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["make", "--no-print-directory", "-f", str(REPO / "Makefile"), target, *variables],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_clean_removes_links_never_what_they_point_to(tmp_path):
    outside = tmp_path / "outside"
    (outside / "folder").mkdir(parents=True)
    (outside / "precious.txt").write_text("keep\n")
    (outside / "folder" / "precious.txt").write_text("keep\n")
    tree = tmp_path / "checkout"
    (tree / "reports" / "punto_banco").mkdir(parents=True)
    (tree / "reports" / "README.md").write_text("tracked\n")
    (tree / "reports" / "punto_banco" / "outcomes.csv").write_text("x\n")
    (tree / "reports" / "evil").symlink_to(outside)
    (tree / "reports" / "punto_banco" / "evil").symlink_to(outside / "folder")
    (tree / "reports" / "index.html").symlink_to(outside / "precious.txt")
    (tree / ".numba_cache").symlink_to(outside)
    (tree / "gamecore" / "__pycache__").mkdir(parents=True)
    (tree / "gamecore" / "linked").symlink_to(outside)
    (outside / "__pycache__").mkdir()
    (outside / "__pycache__" / "precious.pyc").write_text("keep\n")

    result = make("clean", tree)
    assert result.returncode == 0, result.stderr
    assert (outside / "precious.txt").read_text() == "keep\n"
    assert (outside / "folder" / "precious.txt").read_text() == "keep\n"
    assert (outside / "__pycache__" / "precious.pyc").is_file()
    assert sorted(p.name for p in (tree / "reports").iterdir()) == ["README.md"]
    assert not os.path.lexists(tree / ".numba_cache")
    assert not (tree / "gamecore" / "__pycache__").exists()


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_clean_does_not_enter_a_reports_folder_that_is_a_link(tmp_path):
    outside = tmp_path / "outside"
    (outside / "folder").mkdir(parents=True)
    (outside / "precious.txt").write_text("keep\n")
    (outside / "folder" / "precious.txt").write_text("keep\n")
    tree = tmp_path / "checkout"
    tree.mkdir()
    (tree / "reports").symlink_to(outside)
    result = make("clean", tree)
    assert result.returncode == 0, result.stderr
    assert (outside / "precious.txt").read_text() == "keep\n"
    assert (outside / "folder" / "precious.txt").read_text() == "keep\n"


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
@pytest.mark.parametrize(
    "name", ["it's.yaml", 'say "8".yaml', "a $(b) `c` ; $$d $HOME.yaml", "x' ; touch pwned '"]
)
def test_make_passes_a_parameter_path_as_it_is(tmp_path, name):
    """make reports PARAMS=... with quotes, make's and the shell's special characters in the
    path: the path reaches the build exactly as typed (here a file that does not exist,
    refused naming it), and no shell or make reads it."""
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    bin_folder = f"BIN={Path(sys.executable).parent}"  # the project's, nothing to install
    result = make("reports", checkout, f"PARAMS={tmp_path / name}", bin_folder, "STAMP=")
    assert result.returncode == 2, result.stderr
    assert f"parameters file {tmp_path / name}:" in result.stderr
    assert not list(tmp_path.rglob("pwned"))  # no shell ran a part of it


def test_a_real_build_into_a_mount_point_beside_strays(tmp_path):
    """The whole build (a notebook run, its HTML, workbook and PDF) into a reports folder
    that is a file system of its own and holds a stray folder and a damaged summary: it
    used to fail with EXDEV after every notebook had run, and a damaged summary stopped it
    with a traceback after the move, leaving a stale manifest."""
    small = {"decks": 1, "sweep_decks": 1, "rounds": 20_000, "sweep_rounds": 20_000}
    with small_file_system(tmp_path / "reports", "256m") as output:
        (output / "ez_baccarat").mkdir()
        (output / "ez_baccarat" / "summary.json").write_text("{damaged")
        (output / "notes").mkdir()
        (output / "notes" / "summary.json").write_text("[1, 2]")
        earlier = output / "dragon7_counting"  # an earlier report, its table since damaged
        earlier.mkdir()
        (earlier / "summary.json").write_text('{"name": "dragon7_counting", "title": "D7"}')
        with open(earlier / "hold_monitoring.csv", "wb") as table:
            table.truncate(64 << 20)  # sparse: read whole, it was 64 MB for pandas
        build(output, small, only=["punto_banco"])
        index = (output / "index.html").read_text("utf-8")
        assert "<td>D7<br><span class='note'></span></td><td class='n'>\u2013</td>" in index
        assert "<td colspan='4'>hold monitoring unreadable:" in index
        manifest = read_manifest(output)
        assert set(manifest["reports"]) == {"punto_banco", "dragon7_counting"}
        assert {"ez_baccarat/summary.json", "notes/summary.json"} <= set(manifest["files"])
        assert consistent(output)
        assert (output / "punto_banco" / "punto_banco.pdf").is_file()
        assert sorted(p.name for p in output.iterdir() if p.name.startswith(".")) == [".lock"]
