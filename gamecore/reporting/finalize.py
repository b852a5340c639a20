"""Putting a finished build in place: at every instant the reports folder holds either the
previous build or the new one, each complete, with a manifest that matches it.

Central idea
------------
Nothing visible in ``reports/`` changes until the whole new state has been written, flushed
to disk and *committed* by one rename; after the commit only renames are left, and each
checks what is already done, so they can be run again from any point. A build cut short
before the commit leaves a staging folder the next build removes; one cut short after it
leaves a journal the next build completes (rolls forward).

The protocol
------------
1. :func:`open_staging`, under the folder's lock (``flock`` on ``reports/.lock``): finish or
   discard what builds that are gone left behind (:func:`recover`: only folders their owner
   record marks as a build's own; anything else only named like one is left and named),
   then make the staging folder ``reports/.building-<pid>-<token>``, *inside* the reports
   folder, so it is on the same file system as its target (a rename never crosses file
   systems, whatever is mounted where) and hidden from the manifest, with its owner record
   ``.owner`` (:mod:`gamecore.reporting.ownership`). The build holds the lock of ``.owner``
   as long as it lives: a lock the kernel drops when the process ends however it ends, so
   "is that build gone?" never trusts a process number that may be reused.
2. The notebooks write each report into ``<staging>/new/<name>/``.
3. :meth:`Staging.commit`, under the folder's lock: the folder's final state is worked out
   (each report present now, the rebuilt ones replaced by their staged folders), its index
   page and its manifest are written into the staging folder, everything staged is flushed
   to disk (a full disk fails here, before anything visible has changed), and the journal
   ``COMMITTED.json``, naming each staged report folder by its file identity (device and
   inode), appears by one rename: **the commit point**.
4. Roll forward: each staged report is exchanged with the one in place in one step
   (Linux's ``renameat2(RENAME_EXCHANGE)``, so the report's name never goes missing; where
   the file system cannot, the old one is renamed aside first and the new one in), the
   previous one lands in ``<staging>/old/``; then the index page and, last, the manifest
   replace theirs (``rename`` over a file is atomic). A staged folder that no longer has the
   journal's identity is the previous report, exchanged out by a run that was cut short.
5. The staging folder is removed.

From the user's side: a build stopped at any step (Ctrl-C, a kill, a full disk, a power
cut) leaves the previous reports with their manifest, or, once committed, the new ones after
the next build or ``gamecore verify``'s refusal tells them to run one. ``gamecore verify``
refuses a folder whose committed build is not yet complete, and waits for a build's
commit in progress rather than read the folder half way through it. docs/reliability.md
states the protocol and its tests.
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import errno
import json
import os
import shutil
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from gamecore.errors import GamecoreError, shown
from gamecore.interrupts import interrupts_deferred
from gamecore.reading import open_regular, path_text, read_json
from gamecore.reporting.manifest import (
    MANIFEST,
    Summaries,
    manifest_text,
    report_files,
    special_entries,
)
from gamecore.reporting.ownership import (  # LOCK, STAGING_PREFIX: for verify's use too
    LOCK,  # noqa: F401
    OWNER,
    STAGING_PREFIX,
    folder_lock,
    is_own,
    left_unmade,
    make_staging,
    owner_alive,
    refusal,
)

#: The journal whose appearance commits a build.
JOURNAL = "COMMITTED.json"
#: The index page of the reports folder.
INDEX = "index.html"
#: The largest ``summary.json`` or journal read (a report's key figures and the names of
#: its files take a few kilobytes).
MAX_SUMMARY_BYTES = 1 << 20

#: The names earlier versions staged under, without an owner record: staging folders beside
#: the reports folder (``.reports.building-<pid>``), ``.staging-<pid>`` and
#: ``.old-<name>-<pid>`` inside it. Never removed (a user's folder may be named so): named.
_LEGACY_INSIDE = (".staging-*", ".old-*")

_RENAME_EXCHANGE = 2  # linux/fs.h
_AT_FDCWD = -100


# ---------------------------------------------------------------------------------------
# File-system steps
# ---------------------------------------------------------------------------------------


def exchange(first: Path, second: Path) -> bool:
    """Swap the entries ``first`` and ``second`` in one step (Linux ``renameat2`` with
    ``RENAME_EXCHANGE``). False, with nothing changed, where the system or the file system
    cannot; any other failure raises :class:`OSError`.

    Parameters
    ----------
    first, second : Path
        Two existing entries of one file system.

    Returns
    -------
    bool
        Whether they were swapped.
    """
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):  # not Linux, or a C library without it
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p] * 2 + [ctypes.c_uint]
    renameat2.restype = ctypes.c_int
    paths = os.fsencode(first), os.fsencode(second)
    if renameat2(_AT_FDCWD, paths[0], _AT_FDCWD, paths[1], _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(first), None, str(second))


def _identity(path: Path) -> list[int]:
    """A file's identity on its file system (device, inode): it survives renames."""
    status = os.lstat(path)
    return [status.st_dev, status.st_ino]


def _fsync_path(path: Path) -> None:
    """Flush the folder ``path``, or the regular file ``path`` (opened without blocking:
    a FIFO or a device where a build's file is expected is refused, never waited on)."""
    if os.path.isdir(path):
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    else:
        fd = open_regular(path, path_text(path))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_tree(root: Path) -> None:
    """Flush every file and folder under ``root`` to disk: a full disk or a failing one is
    reported here, before the commit, not found later in a report that looks complete."""
    for folder, _, names in os.walk(root):
        for name in names:
            path = Path(folder) / name
            if not path.is_symlink():
                _fsync_path(path)  # a FIFO among a report's files: refused, naming it
        _fsync_path(Path(folder))


def _write_flushed(path: Path, text: str) -> None:
    """Write ``path`` and flush it to disk."""
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())


def _remove(path: Path) -> None:
    """Remove ``path``: a folder with everything in it, or a file or a symbolic link itself
    (never what a link points to)."""
    if path.is_symlink() or not path.is_dir():
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
    else:
        shutil.rmtree(path)


def _remove_staging(folder: Path) -> None:
    """Remove a build's staging folder, its owner record last: a kill part way leaves it
    still marked as the build's own, or empty, and the next recovery finishes it."""
    for entry in folder.iterdir():
        if entry.name != OWNER:
            _remove(entry)
    with contextlib.suppress(FileNotFoundError):
        (folder / OWNER).unlink()
    folder.rmdir()


# ---------------------------------------------------------------------------------------
# Rolling forward and recovering
# ---------------------------------------------------------------------------------------


def _journal(staging: Path) -> dict[str, list[int]]:
    """The journal's report names and identities, each name checked to be a plain report
    folder name in the staging folder (a planted journal cannot move anything elsewhere)."""
    data = read_json(staging / JOURNAL, MAX_SUMMARY_BYTES, path_text(staging / JOURNAL))
    reports = data.get("reports") if isinstance(data, dict) else None
    if not isinstance(reports, dict):
        raise GamecoreError(f"{path_text(staging / JOURNAL)}: not a build journal")
    for name, identity in reports.items():
        plain = name == Path(name).name and not name.startswith(".") and name not in ("", "..")
        if not plain or not (isinstance(identity, list) and len(identity) == 2):
            raise GamecoreError(
                f"{path_text(staging / JOURNAL)}: not a build journal (entry {shown(name)})"
            )
    return reports


def _move_in(target: Path, staged: Path, aside: Path, identity: list[int]) -> None:
    """Put the staged report ``staged`` at ``target``, the report there (if any) at
    ``aside``; run again after a kill at any point, it finishes the same move."""
    if not os.path.lexists(staged):
        return  # moved in, and the previous one aside, by an earlier run
    if _identity(staged) != identity:
        os.rename(staged, aside)  # the previous report, exchanged out by an earlier run
        return
    if os.path.lexists(target):
        if exchange(staged, target):
            os.rename(staged, aside)
            return
        os.rename(target, aside)
    os.rename(staged, target)


def _roll_forward(output: Path, staging: Path) -> None:
    """Complete the committed build in ``staging``: every report moved in, then the index
    page, then the manifest (it describes everything before it)."""
    reports = _journal(staging)
    aside = staging / "old"
    aside.mkdir(exist_ok=True)
    for name, identity in reports.items():
        _move_in(output / name, staging / "new" / name, aside / name, identity)
    for name in (INDEX, MANIFEST):
        if os.path.lexists(staging / name):
            os.replace(staging / name, output / name)
    _fsync_path(output)


def _finished(staging: Path) -> None:
    """Mark a rolled-forward build done: its journal goes first, so whatever of the staging
    folder a kill leaves behind is only removed by the next build, never taken for a build
    still to complete."""
    os.unlink(staging / JOURNAL)
    _fsync_path(staging)


@dataclasses.dataclass(frozen=True)
class Recovered:
    """What recovery did in a reports folder (:func:`recover`).

    Attributes
    ----------
    completed
        The staging folders of committed builds whose process was gone: completed (their
        reports put in place), then removed.
    removed
        Every staging folder removed (of a build that is gone), the completed ones too.
    left
        What is named like a staging folder (this version's or an earlier one's) but
        carries no build's owner record: left as it is, named.
    """

    completed: Sequence[Path] = ()
    removed: Sequence[Path] = ()
    left: Sequence[Path] = ()

    def notes(self) -> list[str]:
        """One line per folder recovery removed or left alone, for the build to print.

        Returns
        -------
        list of str
            The lines, each naming its folder.
        """
        lines = []
        for folder in self.removed:
            why = "a build that is gone"
            if folder in self.completed:
                why = "a build stopped after its commit, completed first"
            lines.append(f"{path_text(folder)}: removed, the staging folder of {why}")
        for folder in self.left:
            lines.append(
                f"{path_text(folder)}: named like a build's staging folder, but no build's "
                "owner record is in it: left as it is"
            )
        return lines


def _recover(output: Path) -> Recovered:
    """:func:`recover`, under the folder's lock."""
    completed, removed, left = [], [], []
    for folder in sorted(output.glob(STAGING_PREFIX + "*")):
        if not is_own(folder):  # only named like one: never touched, but if empty
            if left_unmade(folder):  # a build killed as it made it: nothing to lose
                removed.append(folder)
            else:
                left.append(folder)
            continue
        if owner_alive(folder):
            continue  # a build still running
        if os.path.lexists(folder / JOURNAL):  # a FIFO: refused by _journal
            _roll_forward(output, folder)
            _finished(folder)
            completed.append(folder)
        _remove_staging(folder)
        removed.append(folder)
    left += sorted(output.parent.glob(f".{output.name}.building-*"))
    left += sorted(p for pattern in _LEGACY_INSIDE for p in output.glob(pattern))
    return Recovered(completed, removed, left)


def recover(output: Path) -> Recovered:
    """Complete the committed builds into ``output`` whose process is gone (roll forward)
    and remove every other staging folder left by a build that is gone (the folder then
    holds what it held before that build). Only a build's own staging folder is touched,
    as its owner record says (:func:`gamecore.reporting.ownership.is_own`); a running
    build's is left alone, and so is all that is only named like one.

    Parameters
    ----------
    output : Path
        The reports folder.

    Returns
    -------
    Recovered
        The staging folders completed and removed, and what was left alone.
    """
    output = Path(output)
    if not output.is_dir():
        return Recovered()
    with folder_lock(output):
        return _recover(output)


def pending_commit(output: Path) -> Path | None:
    """The staging folder (a build's own, :func:`gamecore.reporting.ownership.is_own`) of a
    committed build into ``output`` whose process is gone before its renames were done, if
    any: until the next build completes it, the folder is not a build to verify.

    Parameters
    ----------
    output : Path
        The reports folder.

    Returns
    -------
    Path or None
        The staging folder, or ``None``.
    """
    for folder in sorted(Path(output).glob(STAGING_PREFIX + "*")):
        if is_own(folder) and os.path.lexists(folder / JOURNAL) and not owner_alive(folder):
            return folder
    return None


# ---------------------------------------------------------------------------------------
# The folder's final state
# ---------------------------------------------------------------------------------------


def read_summary(folder: Path) -> dict[str, Any]:
    """A report folder's ``summary.json``: a JSON object naming the folder's report, read
    strictly and at most :data:`MAX_SUMMARY_BYTES` (:func:`gamecore.reading.read_json`);
    :class:`GamecoreError` saying why not.

    Parameters
    ----------
    folder : Path
        A report's folder.

    Returns
    -------
    dict of str to Any
        The summary.
    """
    path = folder / "summary.json"
    summary = read_json(path, MAX_SUMMARY_BYTES, path_text(path))
    if not isinstance(summary, dict) or summary.get("name") != folder.name:
        raise GamecoreError(f"{path_text(path)}: not the summary of a report named {folder.name}")
    return summary


def _refuse_special(output: Path) -> None:
    """Refuse a reports folder holding a FIFO, a device or a socket among its reports' files,
    naming it: no manifest would hash it, and verify would find it."""
    special = special_entries(output)
    if special:
        raise refusal(special[0])


@dataclasses.dataclass(frozen=True)
class FinalState:
    """The reports folder as it will stand once a build is in place.

    Attributes
    ----------
    reports
        Report name -> (where its folder is now, its summary), for every report.
    files
        Path relative to the reports folder -> where the file's bytes are now, for every
        report file but the index page and the manifest.
    not_reports
        One line for each folder named after a report that is not one (no readable
        summary): left as it is, its files hashed, kept out of the index and the manifest's
        reports.
    """

    reports: Mapping[str, tuple[Path, dict[str, Any]]]
    files: Mapping[str, Path]
    not_reports: Sequence[str]

    @property
    def summaries(self) -> Summaries:
        return {name: summary for name, (_, summary) in self.reports.items()}


def final_state(
    output: Path, staged: Path, rebuilt: Iterable[str], known: Iterable[str]
) -> FinalState:
    """The state of ``output`` once the reports ``rebuilt``, staged in ``staged/<name>``,
    replace theirs; ``known`` are the names a report folder can have.

    Parameters
    ----------
    output : Path
        The reports folder.
    staged : Path
        The build's staging folder.
    rebuilt, known : iterable of str
        The reports built, and every report's name.

    Returns
    -------
    FinalState
    """
    _refuse_special(output)
    rebuilt = set(rebuilt)
    files = {}
    for path in report_files(output):
        relative = path.relative_to(output).as_posix()
        if relative != INDEX and relative.split("/")[0] not in rebuilt:
            files[relative] = path
    for name in sorted(rebuilt):
        for path in report_files(staged / name):
            files[f"{name}/{path.relative_to(staged / name).as_posix()}"] = path
    reports, not_reports = {}, []
    for name in known:
        folder = staged / name if name in rebuilt else output / name
        if folder.is_symlink() or not folder.is_dir():
            continue
        try:
            reports[name] = (folder, read_summary(folder))
        except GamecoreError as error:
            if name in rebuilt:
                raise  # the build's own report: a bug, not something to skip
            not_reports.append(f"{output / name}: not a report, left as it is ({error})")
    return FinalState(reports, files, not_reports)


# ---------------------------------------------------------------------------------------
# A build's staging folder
# ---------------------------------------------------------------------------------------


class IncompleteCommit(OSError):
    """Putting a committed build in place failed part way (the file system refused a
    rename): its reports are committed, and the next build, or this one's clean-up, completes
    them."""


class CommittedInterrupt(KeyboardInterrupt):
    """Ctrl-C came while a build was being put in place: it was completed first, so the
    new reports are there."""


class Staging:
    """A build's staging folder inside the reports folder (see the module docstring)."""

    def __init__(self, output: Path) -> None:
        self.output = Path(output)
        self.output.mkdir(parents=True, exist_ok=True)
        with folder_lock(self.output):
            #: What recovery did before this build's staging folder was made.
            self.recovered = _recover(self.output)
            _refuse_special(self.output)  # before any work, not only at the commit
            self.path, self._owner = make_staging(self.output)
            try:
                (self.path / "new").mkdir()
            except BaseException:  # a full disk, say: nothing of this build stays behind
                os.close(self._owner)
                _remove(self.path)
                raise

    def report(self, name: str) -> Path:
        """Where the notebook of report ``name`` writes it.

        Parameters
        ----------
        name : str
            The report's name.

        Returns
        -------
        Path
            ``name``'s folder inside the staging folder.
        """
        return self.path / "new" / name

    def commit(
        self,
        rebuilt: Sequence[str],
        known: Iterable[str],
        index_page: Callable[[FinalState], str],
    ) -> FinalState:
        """Put the staged reports ``rebuilt`` in place with a new index page (written by
        ``index_page`` from the final state) and a new manifest; steps 3 to 4 of the module
        docstring. Returns the final state.

        Parameters
        ----------
        rebuilt : sequence of str
            The reports built (staged here).
        known : iterable of str
            Every report's name.
        index_page : callable
            ``index_page(state) -> str``, the HTML of the index page.

        Returns
        -------
        FinalState
            The folder as it stands now.
        """
        with folder_lock(self.output):
            state = final_state(self.output, self.path / "new", rebuilt, known)
            (self.path / INDEX).write_text(index_page(state), "utf-8")
            files = {**state.files, INDEX: self.path / INDEX}
            (self.path / MANIFEST).write_text(manifest_text(files, state.summaries), "utf-8")
            _fsync_tree(self.path)
            (self.path / "old").mkdir()  # where the previous reports go: made before the commit
            journal = {"reports": {name: _identity(self.report(name)) for name in rebuilt}}
            part = self.path / f".{JOURNAL}.part"
            _write_flushed(part, json.dumps(journal) + "\n")
            try:
                with interrupts_deferred():
                    os.replace(part, self.path / JOURNAL)  # the commit point
                    try:
                        _fsync_path(self.path)  # the rename itself on disk
                        _roll_forward(self.output, self.path)
                        _finished(self.path)
                    except OSError as error:
                        raise IncompleteCommit(
                            error.errno,
                            f"the new reports are committed but not all in place "
                            f"({error.strerror or error}); the next build completes it",
                        ) from error
            except KeyboardInterrupt:
                raise CommittedInterrupt from None
        return state

    def close(self) -> None:
        """Remove the staging folder: discarded before the commit, completed first after it
        (an error or a Ctrl-C between the commit and the last rename). Where completing it
        fails too (the error that stopped the commit, again), the folder is left with its
        journal for the next build to complete; the error already on its way is the one
        reported."""
        try:
            with folder_lock(self.output):
                if os.path.lexists(self.path / JOURNAL):
                    _roll_forward(self.output, self.path)
                    _finished(self.path)
                _remove_staging(self.path)
        except (OSError, GamecoreError):
            pass
        finally:
            os.close(self._owner)


def open_staging(output: Path) -> Staging:
    """Start a build into ``output``: leftovers of builds that are gone finished or removed
    (:func:`recover`), and a staging folder of its own made and held.

    Parameters
    ----------
    output : Path
        The reports folder.

    Returns
    -------
    Staging
    """
    return Staging(output)
