"""The process's entry point: the ``gamecore`` console script and ``python -m gamecore``.

:func:`run` is :func:`gamecore.cli.main` plus four things a process may do and a library
import must not (each would reach into the notebook or test that imports gamecore):

- **The cyclic garbage collector is paused while the command's modules are imported**
  (numpy, pandas, numba, the game's own), and what they built is then frozen out of its
  passes (:func:`gc.freeze`): those objects live as long as the process, so every pass over
  them would free nothing: a noticeable part of a short command such as ``gamecore exact
  standard_blackjack``, peak memory unchanged. The collector runs as usual over everything
  the command itself makes.
- **One heap for every thread, large blocks handed back** (glibc's malloc, where it is
  the C library; elsewhere nothing changes): by default each thread that allocates gets a
  heap (arena) of its own, and a freed block below a threshold that grows with the blocks
  freed stays in it, so the process's peak holds every thread's leftovers. One arena, and
  blocks of 4 MiB or more mapped (and unmapped when freed): measured, the process's own
  memory at its peak 181 -> 151 MB for ``gamecore exact standard_blackjack --decks 6
  --json`` and 197 -> 154 MB with ``--results`` for c21 at 8 decks, times unchanged (the
  one arena's lock is rarely contended: the kernels allocate their scratch once per
  call).
- **A Ctrl-C is one line and exit status 130 as soon as this entry point runs**, while
  the command's modules are still importing too (the command itself reports one that
  comes while it runs); before that, the interpreter is still starting.
- **A standard stream the process was started without is opened on the null device**
  (:func:`open_closed_streams`), and a closed standard output refuses the command (exit 2,
  one line on standard error if that is open): its result would have nowhere to go.
- **Output that cannot be written is an error, ``--help`` and ``--version`` too**
  (:func:`_delivered`): standard output is flushed before the process ends, and a full disk
  is one line on standard error and exit 1 (1 too if standard error is full), a reader gone
  a quiet 141, never 0.
- **A character standard output's encoding cannot write is written in ASCII**
  (:func:`gamecore.environment.readable_output`: ``±`` as ``+/-``, ``≥`` as ``>=``, else a
  backslash escape), under ``PYTHONIOENCODING=ascii`` or a non-UTF-8 locale, never a
  ``UnicodeEncodeError`` halfway through the output; and a setting numba cannot run the
  kernels under (``NUMBA_DISABLE_JIT=1``, ``NUMBA_NUM_THREADS=0``) is one line naming it and
  exit 2, found as the command's modules import (:mod:`gamecore.environment`).
- **The process ends at once with its exit status** (:func:`os._exit`): the interpreter's
  own exit frees every module and array one by one (300 MB and numba's compiled code), a
  noticeable part of the same run, for nothing. Everything the command writes is flushed first,
  every file it writes is closed by then (each is written in a ``with`` block, and thread
  pools are joined the same way), and numba's cache is written when a kernel is compiled,
  not at exit. An unexpected exception still ends the process the usual way, with its
  traceback.
"""

import ctypes
import gc
import os
import sys

from gamecore.environment import readable_output
from gamecore.errors import GamecoreError, one_line

#: glibc's ``mallopt`` parameters (malloc.h): M_MMAP_THRESHOLD, M_ARENA_MAX.
_MMAP_THRESHOLD, _ARENA_MAX = -3, -8
#: Blocks of this many bytes or more are mapped on their own and returned when freed.
MAPPED_BLOCK_BYTES = 4 << 20

#: The line a command started with its standard output closed is refused with.
CLOSED_STDOUT = "gamecore: error: standard output is closed: the result has nowhere to go"


def compact_heap() -> bool:
    """One malloc arena for all threads and blocks of :data:`MAPPED_BLOCK_BYTES` or more
    mapped on their own (see the module docstring).

    Returns
    -------
    bool
        Whether both settings took; False where the C library has no ``mallopt`` (not
        glibc) or refuses, which changes nothing else.
    """
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError, TypeError):  # no C library to open, or no mallopt in it
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(_ARENA_MAX, 1)) and bool(mallopt(_MMAP_THRESHOLD, MAPPED_BLOCK_BYTES))


def open_closed_streams() -> set[int]:
    """Open the null device on each standard file descriptor (0, 1, 2) the process was
    started without (``>&-``, ``2>&-``).

    Otherwise the first file the process opens takes the number: a chart read as standard
    input, numba's cache file receiving what is written to standard error. A closed standard
    error becomes a stream to the null device (Python leaves ``sys.stderr`` None, and
    ``print(file=None)`` writes to standard output): messages are lost, exit statuses kept.

    Returns
    -------
    set of int
        The descriptors that were closed and now hold the null device.
    """
    closed = set()
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            closed.add(fd)
    for fd in sorted(closed):  # each lower one is open: the null device takes this number
        null = os.open(os.devnull, os.O_RDWR)
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
    if 2 in closed:
        sys.stderr = open(2, "w", errors="backslashreplace", closefd=False)
    return closed


def run() -> None:
    """Parse the command line, import what it needs, run it and end the process."""
    if 1 in open_closed_streams():  # before anything opens a file
        try:
            print(CLOSED_STDOUT, file=sys.stderr, flush=True)
        except OSError:  # a broken standard error: the exit status says it
            pass
        os._exit(2)
    compact_heap()  # before any thread allocates
    readable_output()
    try:
        code = _parse_and_execute()
    except GamecoreError as error:  # a setting numba cannot run under, found as it loads
        _say(f"gamecore: error: {one_line(str(error))}")
        code = 2
    except SystemExit as exit_:  # argparse's --help and --version (0), a usage error (2)
        code = exit_.code if isinstance(exit_.code, int) else int(exit_.code is not None) * 2
    except OSError as error:
        if error.filename is not None:  # not the output: the usual traceback
            raise
        # --help's text, larger than the stream's buffer, could not be written
        _say(f"gamecore: error: cannot write the output: {error.strerror}")
        code = 1
    except KeyboardInterrupt:  # while importing (the command reports its own)
        _say("gamecore: interrupted")
        code = 130
    os._exit(_delivered(code))


def _delivered(code: int) -> int:
    """``code``, or the status that says the output did not all go out: what is left of
    standard output is written here (a command has flushed its own, and reported a failure:
    this is for argparse's ``--help`` and ``--version``, which exit 0 even when their text
    was never written, to a full disk or a closed pipe).

    Parameters
    ----------
    code : int
        The status the command ended with.

    Returns
    -------
    int
        ``code``; 141 if standard output's reader has gone (as every command, quietly), 1 if
        it could not be written (one line on standard error, where that can be written).
    """
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        code = code or 141  # 128 + SIGPIPE, as cli.EXIT_BROKEN_PIPE
    except (OSError, ValueError) as error:
        _say(f"gamecore: error: cannot write the output: {getattr(error, 'strerror', error)}")
        code = code or 1
    return code


def _say(line: str) -> None:
    """``line`` on standard error, where it can be written (else lost: the status says it)."""
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):
        pass


def _parse_and_execute() -> int:
    gc.disable()
    from gamecore import cli

    args = cli.build_parser().parse_args()
    cli.import_game(args)
    gc.freeze()
    gc.enable()
    return cli.execute(args)


if __name__ == "__main__":
    run()
