"""The Jupyter kernels a build starts, and what they leave behind: nothing.

papermill runs each notebook in a kernel of its own, and jupyter_client writes the kernel's
connection file (its ports and the HMAC key that signs every message to it) to the system's
temporary folder, or the Jupyter runtime folder, and removes it when the kernel is shut down.
A build that was killed (SIGKILL, SIGTERM) never got there: the key stayed behind, readable
for as long as the file lived. Here each notebook's kernel writes its connection file into a
folder of its own, made private (:func:`tempfile.mkdtemp`: mode 0700, a name no one can know
beforehand) and removed when the notebook ends, however it ends:

- normally, or by an error or Ctrl-C: the folder is removed on the way out;
- by SIGTERM: the build ends as on Ctrl-C (:func:`end_on_sigterm`), removing it the same way;
- by SIGKILL, which nothing can catch: the folder is named by the build's process number
  (``gamecore-kernels-PID-xxxxxxxx``), and the next notebook run by anyone of the same user
  removes every such folder whose process is gone and that holds only kernel connection
  files (:func:`remove_abandoned`): a folder named so by anyone else, holding anything
  else, is left whole.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

#: How a kernel folder's name starts, its process number after it.
KERNEL_FOLDER_PREFIX = "gamecore-kernels-"
_KERNEL_FOLDER = re.compile(re.escape(KERNEL_FOLDER_PREFIX) + r"(\d+)-[A-Za-z0-9_]+")
#: The one kind of file a kernel folder holds: a connection file, as :func:`kernel_manager`
#: names it.
_CONNECTION_FILE = re.compile(r"kernel-[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}\.json")

#: Set once SIGTERM has ended the build (:func:`end_on_sigterm`): the build says so.
TERMINATED = threading.Event()


def _process_alive(pid: int) -> bool:
    """Whether process ``pid`` exists (another user's included)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's live process
        return True
    return True


def remove_abandoned(temporary: str | os.PathLike | None = None) -> list[Path]:
    """Remove the kernel folders builds killed by SIGKILL left: in the temporary folder,
    each folder named ``gamecore-kernels-PID-...`` that is a folder (not a link), this
    user's, private (mode 0700, as this module makes it), whose process ``PID`` is gone and
    that holds nothing but connection files (:func:`_remove_connection_files`). A live
    build's folder, another user's, one holding anything else, or anything else is left
    alone.

    Parameters
    ----------
    temporary : path, optional
        The folder to look in (default: the system's temporary folder,
        :func:`tempfile.gettempdir`).

    Returns
    -------
    list of Path
        The folders removed.
    """
    folder = Path(temporary if temporary is not None else tempfile.gettempdir())
    removed = []
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            match = _KERNEL_FOLDER.fullmatch(entry.name)
            if match is None or _process_alive(int(match.group(1))):
                continue
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if (
                stat.S_ISDIR(info.st_mode)
                and info.st_uid == os.getuid()
                and info.st_mode & 0o777 == 0o700
            ) and _remove_connection_files(Path(entry.path)):
                removed.append(Path(entry.path))
    return removed


def _remove_connection_files(folder: Path) -> bool:
    """Remove ``folder`` if it holds only kernel connection files (each removed as a name,
    never followed), else leave it whole: whether it was removed."""
    try:
        names = os.listdir(folder)
        if not all(_CONNECTION_FILE.fullmatch(name) for name in names):
            return False
        for name in names:
            os.unlink(folder / name)
        os.rmdir(folder)
    except OSError:
        return False
    return True


@contextlib.contextmanager
def private_kernel_folder() -> Iterator[Path]:
    """A new private folder for one notebook's kernel files, removed when the block ends
    (after removing those killed builds left, :func:`remove_abandoned`).

    Yields
    ------
    Path
        The folder, mode 0700, named by this process's number.
    """
    remove_abandoned()
    folder = Path(tempfile.mkdtemp(prefix=f"{KERNEL_FOLDER_PREFIX}{os.getpid()}-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def kernel_manager(folder: Path) -> type:
    """The kernel manager class papermill starts a notebook's kernel with: its connection
    file in ``folder`` (:func:`private_kernel_folder`), not the temporary folder, and its
    standard error sent to the null device: a kernel's own log lines (transport warnings,
    and the errors it logs when a build is interrupted and its client is gone) are not
    report output, while everything a notebook prints reaches the notebook itself.

    Parameters
    ----------
    folder : Path
        The kernel's private folder.

    Returns
    -------
    type
        A subclass of :class:`jupyter_client.AsyncKernelManager`.
    """
    from jupyter_client import AsyncKernelManager

    class PrivateQuietKernelManager(AsyncKernelManager):
        async def start_kernel(self, **kw):  # type: ignore[override]
            if not self.connection_file:
                self.connection_file = str(folder / f"kernel-{uuid.uuid4()}.json")
            kw.setdefault("stderr", subprocess.DEVNULL)
            return await super().start_kernel(**kw)

    return PrivateQuietKernelManager


def end_on_sigterm() -> None:
    """Make SIGTERM end the build as Ctrl-C does (whatever SIGINT's handler is at that
    moment: deferred while the new reports are put in place, else raised at once), so its
    clean-up runs: the kernel's folder and the staging folder removed, one line said.
    :data:`TERMINATED` then tells the build it was SIGTERM. Only the main thread can set a
    handler: elsewhere nothing changes."""

    def on_terminate(signum, frame):
        TERMINATED.set()
        handler = signal.getsignal(signal.SIGINT)
        if not callable(handler):  # SIGINT ignored (a background job), or not Python's
            raise KeyboardInterrupt
        handler(signal.SIGINT, frame)  # raises, or keeps it until the block that defers ends

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, on_terminate)
