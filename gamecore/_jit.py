"""One decorator so every kernel is compiled the same way.

``cache=True`` writes compiled machine code to ``NUMBA_CACHE_DIR`` (the Makefile sets it), so
a second process does not recompile; ``error_model="numpy"`` keeps integer arithmetic free of
Python's zero-division checks inside hot loops (the callers guarantee no division by zero).
"""

from numba import njit


def kernel(function):
    """Compile ``function`` in nopython mode with gamecore's common options."""
    return njit(cache=True, nogil=True, error_model="numpy")(function)
