"""make install compiles every game's exact command's kernels (python -m gamecore.warm), so the
first command after it loads them all from the cache: issue 31's cold start."""

from __future__ import annotations

import subprocess
import sys

#: Runs each command in a fresh process and prints how many kernels numba compiled for it
#: (cache misses) rather than loaded from its cache.
_COUNT_COMPILES = """
import contextlib, io, sys
from numba.core.registry import CPUDispatcher
from gamecore import cli, warm
for command in warm.commands():
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli.main(list(command)) == 0, command
compiled = set()
for module in list(sys.modules.values()):
    if getattr(module, "__name__", "").startswith("gamecore"):
        for name, value in vars(module).items():
            if isinstance(value, CPUDispatcher) and value.stats.cache_misses:
                compiled.add(f"{module.__name__}.{name}")
print(sorted(compiled))
"""


def test_after_warming_every_command_loads_its_kernels_from_the_cache():
    warm = subprocess.run(
        [sys.executable, "-m", "gamecore.warm"], capture_output=True, text=True, timeout=600
    )
    assert warm.returncode == 0, warm.stderr
    assert "compiled the kernels of 7 commands" in warm.stderr
    counted = subprocess.run(
        [sys.executable, "-c", _COUNT_COMPILES], capture_output=True, text=True, timeout=600
    )
    assert counted.returncode == 0, counted.stderr[-2000:]
    assert counted.stdout.strip() == "[]"  # nothing compiled: every kernel from the cache
