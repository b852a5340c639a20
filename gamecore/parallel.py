"""Reproducible parallel Monte Carlo: fixed chunks, seeded from one SeedSequence.

Central idea
------------
A run of ``n`` trials is cut into chunks of a fixed size that does not depend on the number
of threads or machines. Chunk ``i`` draws from its own generator, built from the ``i``-th
child of ``numpy.random.SeedSequence(seed)``, and returns integer tallies. Tallies are merged
in chunk order, and integer addition is exact, so the result depends on the seed and the
number of trials only: one thread, two threads or a Dask cluster give identical output.

The numba kernels release the GIL (``nogil=True``), so plain threads use every core.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from gamecore.errors import GamecoreError, shown
from gamecore.numeric import is_whole

#: The most trials (rounds, shoes) one run accepts: ten trillion. At the fastest simulator's
#: rate on two cores this is over a week of computing; more is a typing error. A run's chunk
#: plan and its results are never held as a whole, so memory does not grow with the trial
#: count.
MAX_TRIALS = 10**13


@dataclass(frozen=True)
class Chunk:
    """One unit of work: its position, its size and its own seed."""

    index: int
    size: int
    seed: np.random.SeedSequence

    def generator(self) -> np.random.Generator:
        """The chunk's own random generator.

        Returns
        -------
        numpy.random.Generator
            PCG64 seeded from the chunk's seed: the same draws wherever the chunk runs.
        """
        return np.random.Generator(np.random.PCG64(self.seed))


def validate_seed(seed: object) -> int:
    """A run's seed, checked.

    Parameters
    ----------
    seed : object
        A non-negative integer: a Python int or a numpy integer, not a bool.

    Returns
    -------
    int
        The seed.
    """
    if not is_whole(seed) or seed < 0:
        raise GamecoreError(f"seed must be a non-negative integer, got {shown(seed)}")
    return int(seed)


def validate_count(value: object, name: str) -> int:
    """A count, checked.

    Parameters
    ----------
    value : object
        A positive whole number.
    name : str
        What it counts, for the message that refuses it.

    Returns
    -------
    int
        The count.
    """
    if not is_whole(value) or value <= 0:
        raise GamecoreError(f"{name} must be a positive integer, got {shown(value)}")
    return int(value)


#: The most threads a run on one machine accepts.
MAX_THREADS = 1024


def validate_threads(value: object) -> int:
    """Threads for a run on this machine, checked.

    Parameters
    ----------
    value : object
        A positive whole number up to :data:`MAX_THREADS`.

    Returns
    -------
    int
        The threads.
    """
    threads = validate_count(value, "threads")
    if threads > MAX_THREADS:
        raise GamecoreError(f"threads must be from 1 to {MAX_THREADS}, got {threads:,}")
    return threads


def validate_trials(value: object, name: str) -> int:
    """A run's number of trials (rounds, shoes), checked.

    Parameters
    ----------
    value : object
        A positive whole number up to :data:`MAX_TRIALS`.
    name : str
        What the trials are (``"rounds"``, ``"shoes"``), for the message that refuses it.

    Returns
    -------
    int
        The trials.
    """
    count = validate_count(value, name)
    if count > MAX_TRIALS:
        raise GamecoreError(f"{name} must be at most {MAX_TRIALS:,} (10^13), got {count:,}")
    return count


@dataclass(frozen=True)
class Run:
    """A simulation's run, checked once where it is made: how many rounds, the seed, and
    where the chunks run (which never changes the result).

    Attributes
    ----------
    rounds
        Rounds to deal (the trials), a positive integer up to :data:`MAX_TRIALS`.
    seed
        A non-negative integer; with ``rounds`` it fixes the result exactly.
    threads
        Threads on this machine (``None``: every core available); not with ``dask``.
    dask
        ``None`` to run here, ``"local"`` for a local Dask cluster, or a scheduler's address.
    progress
        Show a progress bar (``None``: for runs of more than a few chunks).
    """

    rounds: int
    seed: int
    threads: int | None = None
    dask: str | None = None
    progress: bool | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "rounds", validate_trials(self.rounds, "rounds"))
        object.__setattr__(self, "seed", validate_seed(self.seed))
        check_execution(self.threads, self.dask, self.progress)
        if self.threads is not None:
            object.__setattr__(self, "threads", validate_threads(self.threads))

    def run_chunks(
        self, work: Callable[[Any], Any], job: Any, chunk_size: int, description: str
    ) -> Iterator[Any]:
        """:func:`run_chunks` over :attr:`rounds` cut into chunks of ``chunk_size``, seeded
        from :attr:`seed`, run where the run says.

        Parameters
        ----------
        work, job, description
            As :func:`run_chunks` takes them.
        chunk_size
            Rounds per chunk (fixed by the simulator, never by the machine).

        Returns
        -------
        Iterator
            Each chunk's result, in chunk order.
        """
        return run_chunks(
            work, job, make_chunks(self.rounds, chunk_size, self.seed), self.threads, self.dask,
            self.progress, description,
        )  # fmt: skip


def check_execution(threads: object, dask: object, progress: object) -> None:
    """Where a run's chunks run, checked; else ``GamecoreError`` naming the value.

    Parameters
    ----------
    threads : int or None
        ``None`` or a positive integer up to :data:`MAX_THREADS`.
    dask : str or None
        ``None`` or a Dask scheduler's address (not with ``threads``).
    progress : bool or None
        ``None`` (a bar at a terminal), ``True`` or ``False``.
    """
    if threads is not None:
        validate_threads(threads)
    if dask is not None:
        if threads is not None:
            raise GamecoreError("threads applies to a run on this machine, not with dask")
        check_dask_address(dask)
    if progress is not None and not isinstance(progress, bool):
        raise GamecoreError(f"progress must be True, False or None, got {shown(progress)}")


class ChunkPlan(Sequence):
    """``total`` trials cut into chunks of ``chunk_size`` (the last may be smaller), each with
    its own seed; chunks are made when asked for, so the plan's size does not grow with
    ``total``.

    Chunk ``i`` is seeded by ``SeedSequence(seed, spawn_key=(i,))``, which is exactly the
    ``i``-th child ``SeedSequence(seed).spawn(...)`` would give.

    Examples
    --------
    >>> plan = make_chunks(10**13, 1 << 20, seed=1)
    >>> len(plan), plan[-1].size
    (9536744, 172032)
    """

    def __init__(self, total: int, chunk_size: int, seed: int) -> None:
        self.total = validate_trials(total, "trials")
        self.chunk_size = validate_count(chunk_size, "chunk_size")
        self.seed = validate_seed(seed)

    def __len__(self) -> int:
        return -(-self.total // self.chunk_size)

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        count = len(self)
        if index < 0:
            index += count
        if not 0 <= index < count:
            raise IndexError(index)
        size = min(self.chunk_size, self.total - index * self.chunk_size)
        return Chunk(index, size, np.random.SeedSequence(self.seed, spawn_key=(index,)))

    def __iter__(self) -> Iterator[Chunk]:
        return (self[i] for i in range(len(self)))


def make_chunks(total: int, chunk_size: int, seed: int) -> ChunkPlan:
    """Split trials into chunks, each seeded from one SeedSequence.

    Parameters
    ----------
    total : int
        The trials.
    chunk_size : int
        Trials per chunk (the last may be smaller).
    seed : int
        The run's seed; chunk ``i`` gets the ``i``-th child of ``SeedSequence(seed)``.

    Returns
    -------
    ChunkPlan
        The chunks, made as they are read (the plan is lazy).
    """
    return ChunkPlan(total, chunk_size, seed)


def default_threads() -> int:
    """The threads a run on this machine uses when not told.

    Returns
    -------
    int
        The cores this process may run on (its CPU affinity where the system has one).
    """
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def run_chunks(
    work: Callable[[Any], Any],
    job: Any,
    chunks: Iterable[Chunk],
    threads: int | None = None,
    dask: str | None = None,
    progress: bool | None = None,
    description: str = "simulating",
) -> Iterator[Any]:
    """Run ``work((job, chunk))`` on every chunk; yield the results in chunk order.

    At most a few chunks per worker are in flight at once, so neither the plan nor the
    results are held as a whole: callers merge each result as it comes, in chunk order.

    Parameters
    ----------
    work
        A module-level function (so Dask can ship it) taking ``(job, chunk)``.
    job
        What every chunk's work needs (shoe, strategy, rules), shipped with each chunk.
    chunks
        The chunks (:func:`make_chunks`).
    threads
        Threads on this machine (default: every core available); not with ``dask``.
    dask
        ``None`` to run here; ``"local"`` for a ``dask.distributed.LocalCluster``; otherwise the
        address of a running Dask scheduler (``tcp://host:8786``).
    progress
        Show a progress bar (tqdm, on standard error); ``None`` shows one for runs of more than
        a few chunks.
    description
        The progress bar's label.

    Returns
    -------
    Iterator
        Each chunk's result, in chunk order.
    """
    count = len(chunks) if isinstance(chunks, Sequence) else None
    show = (count is None or count > 8) if progress is None else progress
    items = ((job, chunk) for chunk in chunks)
    bar = (count, show, description)  # the bar is opened as the run starts, in its generator
    if dask is not None:
        if threads is not None:
            raise GamecoreError("threads applies to a run on this machine, not with dask")
        address = check_dask_address(dask)
        return _run_on_dask(work, items, address, bar)
    threads = default_threads() if threads is None else validate_threads(threads)
    return _run_on_threads(work, items, threads, bar)


def sum_tallies(results: Iterable[Any]) -> Any:
    """The sum of the chunks' tallies, added in chunk order (so a float sum is the same on
    every run).

    Parameters
    ----------
    results : Iterable
        Each chunk's tallies: an array, a number, or a tuple of them (summed element by
        element); at least one.

    Returns
    -------
    Any
        The sum, of the results' type (a tuple stays a tuple).
    """
    total = None
    for result in results:
        if total is None:
            total = list(result) if isinstance(result, tuple) else result
        elif isinstance(result, tuple):
            total = [a + b for a, b in zip(total, result, strict=True)]
        else:
            total = total + result
    if total is None:
        raise GamecoreError("a run of no chunks has no tallies")
    return tuple(total) if isinstance(total, list) else total


def map_in_order(
    pool: ThreadPoolExecutor, work: Callable[[Any], Any], items: Iterable[Any], window: int
) -> Iterator[Any]:
    """``work(item)`` for each item on ``pool``, yielded in item order, at most ``window``
    submitted ahead of the reader (``pool.map`` submits every item at once, so results the
    reader has not reached yet pile up in memory).

    Parameters
    ----------
    pool : concurrent.futures.ThreadPoolExecutor
        Where the work runs.
    work : Callable
        Called with each item.
    items : Iterable
        The items, read as the window allows.
    window : int
        The most items submitted and not yet read.

    Yields
    ------
    Any
        ``work(item)`` for each item, in order.
    """
    yield from _in_order(lambda item: pool.submit(work, item), iter(items), window, None)


def _in_order(submit: Callable[[Any], Any], items: Iterator[Any], window: int, bar):
    """Submit ``items`` keeping ``window`` in flight; yield their results in item order."""
    pending: deque = deque()
    try:
        pending.extend(submit(item) for item in itertools.islice(items, window))
        while pending:
            result = pending.popleft().result()
            pending.extend(submit(item) for item in itertools.islice(items, 1))
            if bar is not None:
                bar.update(1)
            yield result
    finally:
        for future in pending:
            future.cancel()


def _run_on_threads(work, items, threads: int, progress: tuple) -> Iterator[Any]:
    pool = ThreadPoolExecutor(max_workers=threads)
    try:
        with _progress_bar(*progress) as bar:
            yield from _in_order(lambda item: pool.submit(work, item), items, 4 * threads, bar)
    finally:
        # On an interruption, do not wait for chunks not yet started (the bar is closed
        # first: its line is finished while the running chunks end).
        pool.shutdown(wait=True, cancel_futures=True)


#: The progress bars open now. A run interrupted between two chunks (the interrupt raised
#: where its caller merges a result, outside the run's generator) keeps its bar open until
#: the generator is collected; the command line closes them first (close_progress_bars).
_OPEN_BARS: dict[int, Any] = {}  # by id: a bar is its own key whatever tqdm compares


@contextlib.contextmanager
def _progress_bar(total: int | None, show: bool, description: str) -> Iterator[Any]:
    """A tqdm bar, closed (its line finished) however the run ends: a widget inside Jupyter
    (a text bar there would print a line per update into the saved notebook), a text bar on
    standard error elsewhere."""
    text = not _in_jupyter_kernel()
    if text:
        from tqdm import tqdm
    else:
        from tqdm.notebook import tqdm
    # A text bar is made without drawing it (tqdm draws in its constructor, where an
    # interrupt would leave a line half drawn and no bar to close), then drawn where it is
    # closed however the run ends. A widget leaves no line, and only its constructor shows it.
    bar = tqdm(
        total=total,
        disable=not show,
        desc=description,
        unit="chunk",
        file=sys.stderr,
        delay=math.inf if text else 0.0,
    )
    _OPEN_BARS[id(bar)] = bar
    try:
        if text:
            bar.delay = 0.0
            bar.refresh()
        yield bar
    finally:
        _OPEN_BARS.pop(id(bar), None)
        bar.close()


def close_progress_bars() -> None:
    """Close every progress bar a run still holds open (see :data:`_OPEN_BARS`), so that
    what is written next to standard error starts a line of its own."""
    while _OPEN_BARS:
        _OPEN_BARS.popitem()[1].close()


def _in_jupyter_kernel() -> bool:
    shell = sys.modules.get("IPython")
    ipython = shell.get_ipython() if shell is not None else None
    return ipython is not None and hasattr(ipython, "kernel")


def check_dask_address(address: object) -> str:
    """A Dask address, checked before any connection is tried.

    Parameters
    ----------
    address : object
        ``"local"`` (a ``LocalCluster``), or a Dask scheduler address Dask can dial
        (``tcp://host:port`` and the other schemes of ``distributed``).

    Returns
    -------
    str
        ``address``.

    Raises
    ------
    GamecoreError
        Not an address, an unknown scheme, no host or port, or ``distributed`` missing.
    """
    usage = "give 'local' or a scheduler address such as tcp://127.0.0.1:8786"
    if not isinstance(address, str) or not address.strip():
        raise GamecoreError(f"dask address {shown(address)} is not an address; {usage}")
    if address == "local":
        return address
    try:
        from distributed.comm import registry
        from distributed.comm.addressing import parse_address, parse_host_port
    except ImportError:
        raise GamecoreError(
            "--dask needs the optional dependency: pip install 'gamecore[dask]'"
        ) from None
    scheme, location = parse_address(address, strict=False)
    if scheme not in registry.backends:
        raise GamecoreError(
            f"dask address {shown(address)} has an unknown scheme {shown(scheme)} "
            f"(schemes: {', '.join(sorted(registry.backends))}); {usage}"
        )
    if scheme in ("tcp", "tls", "ws", "wss"):
        try:
            host, port = parse_host_port(location)
        except (ValueError, TypeError):
            host, port = "", None
        if not host or port is None:
            raise GamecoreError(f"dask address {shown(address)} needs a host and a port; {usage}")
    return address


#: How long a Dask scheduler is given to answer before the run is refused.
DASK_CONNECT_TIMEOUT = "10s"


def _run_on_dask(work, items, address: str, progress: tuple) -> Iterator[Any]:
    import logging

    from dask.distributed import Client, LocalCluster

    from gamecore.interrupts import InterruptRaceFilter

    quiet = InterruptRaceFilter()
    for noisy in ("tornado.application", "distributed.nanny"):
        logging.getLogger(noisy).addFilter(quiet)
    with _progress_bar(*progress) as bar:  # shown while the cluster starts: seconds
        cluster = None
        try:
            try:
                if address == "local":
                    with _interrupts_kept_from_new_processes():
                        cluster = LocalCluster(
                            n_workers=2, threads_per_worker=1, processes=True,
                            dashboard_address=None,  # no web page, no port to find taken
                        )  # fmt: skip
                client = Client(
                    cluster if cluster is not None else address, timeout=DASK_CONNECT_TIMEOUT
                )
            except Exception as error:  # noqa: BLE001 - distributed raises OSError, TimeoutError, ...
                reason = str(error).splitlines()[0] if str(error) else type(error).__name__
                raise GamecoreError(
                    f"cannot reach the Dask scheduler {shown(address)}: {reason}"
                ) from None
            with client:
                submit = functools.partial(client.submit, work, pure=False)
                try:
                    yield from _in_order(submit, items, 64, bar)
                except BaseException:  # an interrupt, a failure: chunks are cut short
                    if cluster is not None:
                        client.run(_quiet_worker_logs, on_error="ignore")
                    raise
        finally:  # an interrupt too: the workers are stopped by the cluster, not by the signal
            if cluster is not None:
                cluster.close()
            for noisy in ("tornado.application", "distributed.nanny"):
                logging.getLogger(noisy).removeFilter(quiet)


def _quiet_worker_logs() -> None:
    """Run on each worker of gamecore's own cluster when a run stops early: the chunks it
    is running are cancelled when the cluster closes, which distributed logs as a warning
    per chunk, over the command's one line. Its errors are still logged."""
    import logging

    logging.getLogger("distributed").setLevel(logging.ERROR)


@contextlib.contextmanager
def _interrupts_kept_from_new_processes() -> Iterator[None]:
    """Start processes (a LocalCluster's workers) that a Ctrl-C at a terminal does not reach.

    A terminal sends SIGINT to its whole foreground process group: the command and every
    worker it started. Each worker then printed its event loop's traceback and warned of the
    tasks cancelled, over the command's one line. Here SIGINT is ignored while the block
    runs: a process started meanwhile keeps it ignored (an ignored signal stays ignored
    across exec, and Python and asyncio install no handler for it then), so the workers
    never act on it, and the command stops them by closing the cluster. The command's own
    handler is back when the block ends; a Ctrl-C during it (the seconds a cluster takes to
    start) is lost. Blocking SIGINT instead would keep it pending, but the threads that
    spawn the workers are distributed's own, started before, and do not inherit a mask set
    here. In a thread other than the main one nothing changes (no handler can be set)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        if previous is not None:  # None: a handler not set from Python, left as it was
            signal.signal(signal.SIGINT, previous)
