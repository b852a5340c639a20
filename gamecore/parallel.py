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

import os
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

import numpy as np

from gamecore.errors import GamecoreError


@dataclass(frozen=True)
class Chunk:
    """One unit of work: its position, its size and its own seed."""

    index: int
    size: int
    seed: np.random.SeedSequence

    def generator(self) -> np.random.Generator:
        return np.random.Generator(np.random.PCG64(self.seed))


def validate_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise GamecoreError(f"seed must be a non-negative integer, got {seed!r}")
    return int(seed)


def validate_count(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value <= 0:
        raise GamecoreError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def make_chunks(total: int, chunk_size: int, seed: int) -> list[Chunk]:
    """Split ``total`` trials into chunks of ``chunk_size`` (the last may be smaller)."""
    sizes = [chunk_size] * (total // chunk_size)
    if total % chunk_size:
        sizes.append(total % chunk_size)
    children = np.random.SeedSequence(seed).spawn(len(sizes))
    return [
        Chunk(i, size, child) for i, (size, child) in enumerate(zip(sizes, children, strict=True))
    ]


def default_threads() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def run_chunks(
    work: Callable[[Any], Any],
    chunks: Sequence[Any],
    threads: int | None = None,
    dask: str | None = None,
    progress: bool | None = None,
    description: str = "simulating",
) -> list[Any]:
    """Run ``work`` on every chunk and return the results in chunk order.

    Parameters
    ----------
    work
        A module-level function (so Dask can ship it) taking one item of ``chunks``.
    chunks
        The work items, each holding a :class:`Chunk` and whatever the work needs.
    threads
        Threads on this machine (default: every core available).
    dask
        ``None`` to run here; ``"local"`` for a ``dask.distributed.LocalCluster``; otherwise the
        address of a running Dask scheduler (``tcp://host:8786``).
    progress
        Show a progress bar (tqdm, on standard error); ``None`` shows one for runs of more than
        a few chunks.
    """
    show = len(chunks) > 8 if progress is None else progress
    if dask is not None:
        return _run_on_dask(work, chunks, dask, show, description)
    threads = default_threads() if threads is None else validate_count(threads, "threads")
    results: list[Any] = [None] * len(chunks)
    bar = _progress_bar(len(chunks), show, description)
    with ThreadPoolExecutor(max_workers=threads) as pool:
        futures = {pool.submit(work, chunk): i for i, chunk in enumerate(chunks)}
        for future in as_completed(futures):
            results[futures[future]] = future.result()
            bar.update(1)
    bar.close()
    return results


def _progress_bar(total: int, show: bool, description: str):
    """A tqdm bar: a widget inside Jupyter (a text bar there would print a line per update
    into the saved notebook), a text bar on standard error elsewhere."""
    if _in_jupyter_kernel():
        from tqdm.notebook import tqdm
    else:
        from tqdm import tqdm
    return tqdm(total=total, disable=not show, desc=description, unit="chunk", file=sys.stderr)


def _in_jupyter_kernel() -> bool:
    shell = sys.modules.get("IPython")
    ipython = shell.get_ipython() if shell is not None else None
    return ipython is not None and hasattr(ipython, "kernel")


def _run_on_dask(work, chunks, address: str, show: bool, description: str) -> list[Any]:
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise GamecoreError(
            "--dask needs the optional dependency: pip install 'gamecore[dask]'"
        ) from None
    cluster = (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True)
        if address == "local"
        else None
    )
    try:
        with Client(cluster if cluster is not None else address, timeout="10s") as client:
            futures = client.map(work, list(chunks), pure=False)
            index = {future.key: i for i, future in enumerate(futures)}
            results: list[Any] = [None] * len(chunks)
            bar = _progress_bar(len(chunks), show, description)
            for future in as_completed(futures):
                results[index[future.key]] = future.result()
                bar.update(1)
            bar.close()
            return results
    except OSError as error:
        raise GamecoreError(f"cannot reach the Dask scheduler {address!r}: {error}") from None
    finally:
        if cluster is not None:
            cluster.close()
