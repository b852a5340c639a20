"""The one exception type gamecore raises for bad input.

Every public entry point validates its arguments before any kernel runs, so a wrong deck
count, an unknown rule name or an impossible paytable surfaces as a ``GamecoreError`` whose
message names the parameter and the value, never as a failure deep inside numba.
"""


class GamecoreError(ValueError):
    """A parameter value the analysis cannot accept; the message names it."""


def one_line(message: str) -> str:
    """``message`` on one line (what a command prints): a value quoted in it may hold a line
    break."""
    return message.replace("\r", "\\r").replace("\n", "\\n")
