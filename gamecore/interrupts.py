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
import threading
from collections.abc import Iterator


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
