"""Work a Ctrl-C must not cut in two: the interrupt is kept while it runs and raised after.

Writing a JSON document to a pipe and the renames that move a finished build into place are
each short and must happen whole: a document cut short, or a reports folder with half its
reports moved, is worse than waiting a moment for the interrupt. The interrupt is kept by a
handler of our own, not blocked (a signal blocked in this thread could still be taken by
another thread and raised there).
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Run the ``with`` block whole: a SIGINT that arrives meanwhile raises
    :class:`KeyboardInterrupt` when the block ends.

    Where interrupts are ignored (a background job), or not Python's to handle, or in a
    thread that cannot set a handler, nothing changes: there is nothing to keep.
    """
    previous = signal.getsignal(signal.SIGINT)
    if (
        previous in (signal.SIG_IGN, None)
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return
    interrupted = []
    signal.signal(signal.SIGINT, lambda *_: interrupted.append(True))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if interrupted:
        raise KeyboardInterrupt


def write_whole(text: str) -> None:
    """Write ``text`` to standard output whole: a Ctrl-C that comes while it is being written
    (a document larger than a pipe holds waits for its reader) takes effect once it is
    written (:func:`interrupts_deferred`), so whoever reads a JSON document gets all of it,
    or nothing when the command was interrupted before.

    The bytes are written until all are out, through standard output's byte stream where it
    has one: an interrupted write to a pipe returns short, and a text stream drops what was
    not written (measured: 64 KiB of 250 KiB arrived).

    Parameters
    ----------
    text : str
        The whole document, encoded with standard output's encoding and error handler.
    """
    with interrupts_deferred():
        _write_all(text)


def _write_all(text: str) -> None:
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # a text-only stream (a StringIO): nothing to go short
        sys.stdout.write(text)
        return
    sys.stdout.flush()  # what was written as text before, first
    data = memoryview(text.encode(sys.stdout.encoding or "utf-8", sys.stdout.errors or "strict"))
    while data:
        data = data[buffer.write(data) :]
    buffer.flush()


class InterruptRaceFilter:
    """Drops two log records a run cut short makes over the command's one line, under load:
    the one distributed's ``sync`` makes when an interrupt lands in it before its call's
    future exists (the cancel it schedules on the event loop then raises ``NameError: cannot
    access free variable 'future'``, distributed 2026.8, which tornado logs with a
    traceback), and the nanny's warning that a worker still busy with a chunk outlasted the
    close's grace period and is killed (stopping it is what closing the cluster is for). The
    interrupt itself is handled (the run stops, exit 130); every other record passes.
    """

    def filter(self, record: Any) -> bool:
        """Whether ``record`` is logged.

        Parameters
        ----------
        record : logging.LogRecord
            A record of the ``tornado.application`` or ``distributed.nanny`` logger.

        Returns
        -------
        bool
            False for exactly those two records, True for any other.
        """
        if record.name == "distributed.nanny":
            return not str(record.msg).startswith("Worker process still alive after")
        error = record.exc_info[1] if record.exc_info else None
        return not (isinstance(error, NameError) and "free variable 'future'" in str(error))
