"""A build's locks: the reports folder's, which a build's commit and recovery hold
exclusive and ``gamecore verify`` shared, and each build's own on its staging folder's owner
file, which says whether that build is still running (:mod:`gamecore.reporting.finalize`).

Each is opened without following a link and without waiting: a FIFO, a device or a folder
put in a lock file's place opens at once and is refused in one line naming it, never waited
on (a plain ``open`` of a FIFO waits for a writer, forever).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from gamecore.errors import GamecoreError
from gamecore.reading import open_regular, path_text

#: The folder's lock file (hidden: not a report file).
LOCK = ".lock"
#: The file whose lock a build holds while it lives, in its staging folder.
OWNER = ".owner"

#: How a lock file is opened: never through a link, and never waiting.
_NO_WAIT = os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


def refusal(path: Path) -> GamecoreError:
    """The error for ``path``, found not to be the regular file a build makes there, in
    :func:`gamecore.reading.open_regular`'s words (its kind named).

    Parameters
    ----------
    path : Path
        The entry (a FIFO, a device, a socket, a folder).

    Returns
    -------
    GamecoreError
        One line naming ``path`` and what it is, for the caller to raise.
    """
    try:
        os.close(open_regular(path, path_text(path)))
    except GamecoreError as error:
        return error
    return GamecoreError(f"{path_text(path)}: not a regular file")


@contextlib.contextmanager
def folder_lock(output: Path, shared: bool = False) -> Iterator[None]:
    """Hold the reports folder's lock: exclusive for a build's commit or recovery, shared for
    a reader that must not see a commit half way (``gamecore verify``). A reader of a folder
    it cannot write, which has no lock file yet, reads without one: no build can be
    committing there.

    Parameters
    ----------
    output : Path
        The reports folder.
    shared : bool, default False
        A reader's shared lock, else the exclusive one.
    """
    path = Path(output) / LOCK
    try:
        try:
            fd = os.open(path, os.O_RDWR | _NO_WAIT)
        except FileNotFoundError:  # the folder's first build
            fd = os.open(path, os.O_RDWR | os.O_CREAT | _NO_WAIT, 0o644)
    except OSError:  # not ours to write (no permission, a read-only file system)
        if not shared:
            raise
        try:
            fd = os.open(path, os.O_RDONLY | _NO_WAIT)
        except FileNotFoundError:
            yield
            return
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # a FIFO, say: no lock of a build's
            raise refusal(path)
        fcntl.flock(fd, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def owner_alive(staging: Path) -> bool:
    """Whether the build that made ``staging`` is still running: it holds the lock of the
    folder's owner file as long as it lives, and the kernel drops it however it ends.

    Parameters
    ----------
    staging : Path
        A staging folder.

    Returns
    -------
    bool
        True while its build holds the lock (an owner file that is a FIFO or a device is
        refused, a :class:`GamecoreError` naming it).
    """
    try:
        fd = os.open(staging / OWNER, os.O_RDONLY | _NO_WAIT)
    except OSError:  # made under the folder's lock together with its owner file: gone
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # planted: a build's is a file
            raise refusal(staging / OWNER)
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False
