"""Issue 42, items 7 and 8, from the user's side: a Ctrl-C during a side bet's count ends the
command in one line and exit 130; a definition whose count would take too long is refused
before any counting, in one line naming it, the estimate and the bound."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from gamecore.interrupts import off_the_main_thread

# Four baccarat cards read by suit, 8 decks: 86,886,400 deals, tens of seconds of counting,
# within the bound (a kernel's run long enough for a Ctrl-C to land in it).
FOUR_SUITED = """\
bet: four_suited
game: baccarat
decks: 8
outcomes:
  - name: Hearts
    when:
      suit: {player_1: hearts, player_2: hearts, banker_1: hearts, banker_2: hearts}
    pays: 10 to 1
"""


def _interrupted_sidebet(path: Path, delay: float) -> tuple[int, str, str, bool]:
    """``gamecore sidebet PATH`` sent SIGINT ``delay`` seconds after it starts: its exit
    status, its outputs, and whether it was still running when signalled."""
    process = subprocess.Popen(
        [sys.executable, "-m", "gamecore", "sidebet", str(path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        # As a terminal starts it: SIGINT at its default (the test process may ignore it,
        # and an ignored signal stays ignored across exec).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    try:
        time.sleep(delay)
        running = process.poll() is None
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    return process.returncode, out, err, running


def test_ctrl_c_at_any_moment_of_a_side_bet_count_is_one_line_and_exit_130(tmp_path):
    # Item 7: a SIGINT while the count's kernel ran was acted on inside numba's C code as the
    # kernel returned: a segmentation fault (exit 139) or SystemError (exit 1), tens of
    # seconds after the Ctrl-C. Now the kernel runs off the main thread and the command ends
    # at once. A first run loads the kernel into the cache, so that the later signals land
    # while the import, the kernel's load and the kernel's run are under way.
    from helpers import run_gamecore

    warm = run_gamecore("sidebet", "dragon_7")
    assert warm.returncode == 0, warm.stderr
    definition = tmp_path / "four_suited.yaml"
    definition.write_text(FOUR_SUITED)
    for delay in (0.3, 2.5, 6.0):
        started = time.monotonic()
        code, out, err, running = _interrupted_sidebet(definition, delay)
        assert running, f"the count ended within {delay} s: nothing was interrupted"
        assert (code, out, err) == (130, "", "gamecore: interrupted\n"), (delay, code, err)
        assert time.monotonic() - started < delay + 10, delay


@contextlib.contextmanager
def _ctrl_c_raises():
    """SIGINT raising KeyboardInterrupt in this process (the test runner may ignore it)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def test_a_ctrl_c_ends_the_wait_for_work_off_the_main_thread_at_once():
    finished = threading.Event()

    def long_work():
        time.sleep(2.0)
        finished.set()

    timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
    started = time.monotonic()
    with _ctrl_c_raises(), pytest.raises(KeyboardInterrupt):
        timer.start()
        off_the_main_thread(long_work)
    assert time.monotonic() - started < 1.5
    assert not finished.is_set()  # the work was not waited for
    assert finished.wait(5)  # and ran on to its end, its result dropped


def test_work_off_the_main_thread_gives_its_result_and_its_errors():
    assert off_the_main_thread(lambda: threading.current_thread().name) == "gamecore-kernel"
    with pytest.raises(ZeroDivisionError):
        off_the_main_thread(lambda: 1 // 0)
    # In another thread (no signal handler runs there) the work is called as it is.
    names = []
    helper = threading.Thread(
        target=lambda: names.append(off_the_main_thread(lambda: threading.current_thread().name)),
        name="helper",
    )
    helper.start()
    helper.join()
    assert names == ["helper"]
