"""Work a Ctrl-C must not cut in two: the interrupt is kept while it runs and raised after;
and compiled kernels a Ctrl-C must not reach at all.

Writing a JSON document to a pipe and the renames that move a finished build into place are
each short and must happen whole: a document cut short, or a reports folder with half its
reports moved, is worse than waiting a moment for the interrupt. The interrupt is kept by a
handler of our own, not blocked (a signal blocked in this thread could still be taken by
another thread and raised there).

A long compiled kernel is the other way round: a Ctrl-C must end the command at once, but
must never be raised inside numba's own C code, which does not expect it
(:func:`off_the_main_thread`).
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")


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


def off_the_main_thread(work: Callable[[], T]) -> T:
    """``work()``, run in a thread of its own while this (the main) thread waits for it: a
    Ctrl-C meanwhile raises :class:`KeyboardInterrupt` here at once, in Python code.

    Python runs its signal handlers in the main thread, between two steps of whatever that
    thread runs. A compiled kernel's call is numba's C code start to end: loading or
    compiling the kernel, running it (seconds to minutes for a side bet's count), then
    making Python objects of what it returns. A Ctrl-C during the call was acted on in that
    last step, which does not expect an exception: the side-bet count ended in a
    segmentation fault (exit 139) or in ``SystemError: ... returned a result with an
    exception set`` (exit 1) when the kernel returned, seconds after the Ctrl-C. Here no
    handler ever runs inside the kernel's call; the wait is Python's and ends at the
    interrupt. The kernel's thread is then left to finish on its own (numba cannot stop a
    running kernel) and its result is dropped; the command line ends the process at once
    (``gamecore.__main__`` leaves by ``os._exit``, not waiting for it).

    In any thread but the main one (no handler can run there), ``work`` is called as it is.

    Parameters
    ----------
    work : callable
        Takes no arguments; its result, or the exception it raised, is this call's.

    Returns
    -------
    object
        What ``work()`` returned.
    """
    if threading.current_thread() is not threading.main_thread():
        return work()
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["result"] = work()
        except BaseException as error:  # handed to the waiting thread, raised there
            outcome["error"] = error

    worker = threading.Thread(target=run, name="gamecore-kernel", daemon=True)
    worker.start()
    worker.join()  # a lock's wait: a Ctrl-C interrupts it and raises KeyboardInterrupt here
    if "error" in outcome:
        raise outcome["error"]
    return outcome["result"]


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
