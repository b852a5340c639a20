"""gamecore: exact and simulated mathematics of casino table games, for par-sheet review.

Import a game's module to use it (``gamecore.baccarat``); importing ``gamecore`` alone
compiles nothing.
"""

from importlib.metadata import PackageNotFoundError, version

from gamecore.errors import GamecoreError

try:
    __version__ = version("gamecore")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = ["GamecoreError", "__version__"]
