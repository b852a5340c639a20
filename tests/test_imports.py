"""A command imports what it needs (issue 31): pandas, matplotlib and papermill are for
tables, figures and reports, not for a command's JSON. Loading pandas alone is about a
tenth of a second and 70 MB of a process that takes well under a second."""

from __future__ import annotations

import subprocess
import sys

#: Runs each command (one per line of its standard input) in this process, in order, and
#: prints after each which of the heavy libraries are loaded by then.
_LOADED = """
import contextlib, io, sys
from gamecore import cli
heavy = ("pandas", "matplotlib", "papermill")
for line in sys.stdin:
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli.main(line.split()) == 0, line
    print(line.strip(), sorted(m for m in heavy if m in sys.modules))
"""

COMMANDS = [
    ["exact", "punto_banco", "--json"],
    ["exact", "ez_baccarat", "--json"],
    ["exact", "dragon_tiger", "--json"],
    ["exact", "standard_blackjack", "--json"],
    ["exact", "c21_blackjack", "--json"],
    ["sidebet", "dragon_7", "--json"],
    ["sidebet", "twenty_one_plus_three", "--json"],
    ["simulate", "punto_banco", "--rounds", "1000", "--json", "--no-progress"],
    ["simulate", "dragon_tiger", "--rounds", "1000", "--json", "--no-progress"],
]


def test_a_json_command_loads_no_table_or_report_library():
    run = subprocess.run(
        [sys.executable, "-c", _LOADED],
        input="\n".join(" ".join(command) for command in COMMANDS),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    loaded = run.stdout.splitlines()
    assert len(loaded) == len(COMMANDS)
    for line in loaded:  # the first command to load one is named
        assert line.endswith(" []"), line
