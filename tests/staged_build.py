"""A small build put in place by gamecore.reporting.finalize, for the fault-injection tests.

As a module: :func:`stage_and_commit` writes reports whose every file says which version of
the build it belongs to, and commits them. As a program (``python staged_build.py OUTPUT
VERSION FAULT STEP [--no-exchange]``) it does the same with a fault at the STEP-th change
it makes to the file system (a folder made, a file opened for writing, flushed, renamed,
removed): FAULT ``kill`` ends the process there with SIGKILL (no clean-up of any kind runs),
``enospc`` makes the STEP-th change that takes space (a folder or file made, written or
flushed) fail as a full disk does. STEP 0 runs without a fault and prints how many changes
the build made.
"""

from __future__ import annotations

import builtins
import errno
import io
import os
import signal
import sys
from pathlib import Path

from gamecore.reporting import finalize

#: The report names the folder can hold; builds rebuild the first two.
KNOWN = ("alpha", "beta", "gamma")
REBUILT = ("alpha", "beta")


def index_page(version: int):
    """An index page writer that says the build's version and the reports it lists."""
    return lambda state: f"<p>build {version}: {', '.join(sorted(state.reports))}</p>\n"


def stage_and_commit(output: Path, version: int, names=REBUILT) -> None:
    """Build ``names`` into ``output``, each file marked with ``version``."""
    staging = finalize.open_staging(output)
    try:
        for name in names:
            folder = staging.report(name)
            folder.mkdir()
            (folder / "summary.json").write_text(
                f'{{"name": "{name}", "parameters": {{"version": {version}, "seed": 1}}}}\n'
            )
            (folder / "table.csv").write_text(f"Figure,Value\n{name},{version}\n")
            (folder / f"only_in_{version}.txt").write_text(f"{name} {version}\n")
        staging.commit(list(names), known=KNOWN, index_page=index_page(version))
    finally:
        staging.close()


#: The changes that take space, and those that only rename or remove.
_TAKING_SPACE = ("mkdir", "fsync")
_RENAMING = ("rename", "replace", "unlink", "rmdir")
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT


def _inject(fault: str, step: int) -> list[int]:
    """Count the changes to the file system (for ``enospc``, those that take space); at
    ``step``, the fault."""
    count = [0]

    def counted(function):
        def wrapper(*args, **kwargs):
            count[0] += 1
            if count[0] == step:
                if fault == "kill":
                    os.kill(os.getpid(), signal.SIGKILL)
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            return function(*args, **kwargs)

        return wrapper

    names = _TAKING_SPACE + (_RENAMING if fault == "kill" else ())
    for name in names:
        setattr(os, name, counted(getattr(os, name)))
    if fault == "kill":
        finalize.exchange = counted(finalize.exchange)
    plain_open, plain_os_open = io.open, os.open

    def opened(file, mode="r", *args, **kwargs):
        writes = any(flag in mode for flag in "wax+")
        return (counted(plain_open) if writes else plain_open)(file, mode, *args, **kwargs)

    # Opening an existing file for writing takes no space; making one does.
    write_flags = _WRITE_FLAGS if fault == "kill" else os.O_CREAT

    def os_opened(path, flags, *args, **kwargs):
        writes = flags & write_flags
        return (counted(plain_os_open) if writes else plain_os_open)(path, flags, *args, **kwargs)

    io.open = builtins.open = opened
    os.open = os_opened
    return count


def main(argv: list[str]) -> int:
    output, version, fault, step = Path(argv[0]), int(argv[1]), argv[2], int(argv[3])
    if "--no-exchange" in argv:
        finalize.exchange = lambda first, second: False  # a file system without it
    count = _inject(fault, step)
    try:
        stage_and_commit(output, version)
    except OSError as error:
        print(f"failed: {error}", file=sys.stderr)
        return 1
    print(count[0])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
