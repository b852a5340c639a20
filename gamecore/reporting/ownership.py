"""A build's locks and marks: the reports folder's lock, which a build's commit and recovery
hold exclusive and ``gamecore verify`` shared; and each build's staging folder, made with
an owner record that marks it as a build's own, whose lock says whether that build is still
running (:mod:`gamecore.reporting.finalize`).

The owner record is what recovery trusts, never a name: a staging folder is a build's own
only if its ``.owner`` is a regular file holding the record :func:`make_staging` wrote
(which gamecore made it, the process, the host, and a random token), and the folder's name
repeats that process and token. A user's folder that is merely named like one
(``reports/.building-mine``) carries no such record, and recovery leaves it alone.

Each lock or owner file is opened without following a link and without waiting: a FIFO, a
device or a socket put in its place opens at once and is refused in one line naming it,
never waited on (a plain ``open`` of a FIFO waits for a writer, forever).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import re
import secrets
import shutil
import socket
import stat
from collections.abc import Iterator
from pathlib import Path

import gamecore
from gamecore.errors import GamecoreError
from gamecore.reading import NOT_REGULAR, path_text, read_json

#: The folder's lock file (hidden: not a report file).
LOCK = ".lock"
#: The file whose lock a build holds while it lives, in its staging folder: its owner record.
OWNER = ".owner"
#: Name prefix of the staging folders inside the reports folder.
STAGING_PREFIX = ".building-"
#: What an owner record says made the folder.
MADE_BY = "gamecore make reports"
#: The largest owner record read (one is about 150 bytes).
MAX_OWNER_BYTES = 4 << 10

#: A staging folder's name as :func:`make_staging` gives it: the process and the token.
_STAGING_NAME = re.compile(re.escape(STAGING_PREFIX) + r"([0-9]{1,10})-([0-9a-f]{32})")

#: How a lock file is opened: never through a link, and never waiting.
_NO_WAIT = os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


def refusal(path: Path) -> GamecoreError:
    """The error for ``path``, found not to be the regular file or folder a build makes
    there, naming what it is (:data:`gamecore.reading.NOT_REGULAR`); it is not opened.

    Parameters
    ----------
    path : Path
        The entry (a FIFO, a device, a socket, a folder).

    Returns
    -------
    GamecoreError
        One line naming ``path`` and what it is, for the caller to raise.
    """
    with contextlib.suppress(OSError):
        mode = os.lstat(path).st_mode
        for is_kind, kind in NOT_REGULAR:
            if is_kind(mode):
                return GamecoreError(f"{path_text(path)}: not a regular file ({kind})")
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


def make_staging(output: Path) -> tuple[Path, int]:
    """Make a new staging folder in ``output`` (mode 0700), named
    ``.building-<process>-<token>``, and its owner record, flushed to disk and locked.
    Called under the folder's lock, so recovery never sees the one without the other; if
    the record cannot be written, the folder is removed.

    Parameters
    ----------
    output : Path
        The reports folder.

    Returns
    -------
    tuple of (Path, int)
        The folder, and the descriptor of its owner file, whose lock the build holds
        until it closes it.
    """
    token = secrets.token_hex(16)
    path = Path(output) / f"{STAGING_PREFIX}{os.getpid()}-{token}"
    os.mkdir(path, 0o700)
    record = {"made by": MADE_BY, "version": gamecore.__version__, "pid": os.getpid()}
    record |= {"host": socket.gethostname(), "token": token}
    try:
        fd = os.open(path / OWNER, os.O_RDWR | os.O_CREAT | os.O_EXCL | _NO_WAIT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            text = (json.dumps(record) + "\n").encode()
            if os.write(fd, text) != len(text):  # a full disk takes part of it
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path / OWNER))
            os.fsync(fd)
        except BaseException:
            os.close(fd)
            raise
    except BaseException:  # a full disk, say: nothing of this build stays behind
        shutil.rmtree(path, ignore_errors=True)
        raise
    return path, fd


def is_own(folder: Path) -> bool:
    """Whether ``folder`` is a build's staging folder, as its owner record says (the module
    docstring): a name that only looks like one is not.

    Parameters
    ----------
    folder : Path
        An entry of the reports folder named ``.building-...``.

    Returns
    -------
    bool
        True for a folder :func:`make_staging` made; an owner file that is a FIFO, a device
        or a socket is refused, a :class:`GamecoreError` naming it.
    """
    named = _STAGING_NAME.fullmatch(folder.name)
    if named is None or folder.is_symlink() or not folder.is_dir():
        return False
    owner = folder / OWNER
    try:
        mode = os.lstat(owner).st_mode
    except OSError:
        return False
    if stat.S_ISLNK(mode) or stat.S_ISDIR(mode):
        return False
    if not stat.S_ISREG(mode):
        raise refusal(owner)
    try:
        record = read_json(owner, MAX_OWNER_BYTES, path_text(owner))
    except GamecoreError:  # not a record (or, since, not a regular file): not ours
        return False
    return isinstance(record, dict) and (
        record.get("made by") == MADE_BY
        and record.get("pid") == int(named[1])
        and record.get("token") == named[2]
    )


def made_by_a_build(folder: Path) -> bool:
    """Whether ``folder`` is a build's staging folder: its own by its owner record
    (:func:`is_own`), or what a build killed as it made one leaves, an empty folder named
    as :func:`make_staging` names one (the next build removes it, :func:`left_unmade`).

    Parameters
    ----------
    folder : Path
        An entry of the reports folder named ``.building-...``.

    Returns
    -------
    bool
        True for those two; a folder only named like one is not a build's.
    """
    if is_own(folder):
        return True
    if _STAGING_NAME.fullmatch(folder.name) is None or folder.is_symlink():
        return False
    try:
        with os.scandir(folder) as entries:
            return next(entries, None) is None
    except OSError:  # not a folder
        return False


def left_unmade(folder: Path) -> bool:
    """Remove ``folder`` if it is what a build killed as it made its staging folder leaves:
    an empty folder named as :func:`make_staging` names one (the kill came before its owner
    record was written). ``rmdir`` removes only an empty folder, so nothing in it is lost.

    Parameters
    ----------
    folder : Path
        An entry of the reports folder named ``.building-...``, not a build's own.

    Returns
    -------
    bool
        Whether it was removed.
    """
    if _STAGING_NAME.fullmatch(folder.name) is None or folder.is_symlink():
        return False
    try:
        os.rmdir(folder)
    except OSError:  # not empty, not a folder: not this
        return False
    return True
