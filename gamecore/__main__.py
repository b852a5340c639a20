"""``python -m gamecore``: the same as the ``gamecore`` console script."""

from gamecore.cli import run

run()
