"""``python -m gamecore.warm``: compile the kernels each game's commands use and cache them,
so the first command after ``make install`` does not wait for numba (about 15 s for a
blackjack game on a 2-core machine; ``docs/performance.md`` has this machine's figures).

Each game's ``exact`` command and the ``sidebet`` command are run once, in this process, with
their output discarded: numba writes every kernel it compiles to the package's kernel cache
(:mod:`gamecore._jit`), where the next process finds it. A kernel only a longer command uses
(a counting study, a simulation) is compiled by its first run, as before.
"""

from __future__ import annotations

import contextlib
import io
import sys

from gamecore import cli, games

#: The commands run, besides ``exact`` of every registered game.
EXTRA_COMMANDS = (("sidebet", "dragon_7", "--json"),)


def commands() -> list[tuple[str, ...]]:
    """The commands warmed: every registered game's ``exact`` and :data:`EXTRA_COMMANDS`.

    Returns
    -------
    list of tuple of str
        Each command's arguments.
    """
    return [("exact", name, "--json") for name in games.NAMES] + list(EXTRA_COMMANDS)


def main() -> int:
    """Run every game's ``exact`` command and :data:`EXTRA_COMMANDS` once, output discarded.

    Returns
    -------
    int
        0 when every command ran; else the first failing command's exit status, its
        message on standard error.
    """
    warmed = commands()
    for command in warmed:
        errors = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(errors):
            status = cli.main(list(command))
        if status:
            print(
                f"gamecore.warm: {' '.join(command)}: {errors.getvalue().strip()}", file=sys.stderr
            )
            return status
    print(f"compiled the kernels of {len(warmed)} commands", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
