"""The settings a process is started with that gamecore cannot run under, and its output on a
terminal that cannot show every character.

numba's settings
----------------
numba reads its ``NUMBA_`` environment variables (and a ``.numba_config.yaml`` in the working
folder) once, as it is imported. Some leave gamecore nothing to run: ``NUMBA_DISABLE_JIT=1``
makes every kernel a plain Python function, which the kernels' own intrinsics
(:func:`gamecore._jit.borrowed`) and faces cannot be (and would take hours if they could);
``NUMBA_NUM_THREADS=0`` makes numba's import fail; a value numba cannot parse (``abc`` for a
number) makes it print a warning holding a traceback and go on with its default. Each is
refused by :func:`numba_settings_checked`, around numba's import in :mod:`gamecore._jit`, as a
:class:`~gamecore.errors.GamecoreError` naming the setting and its value: one line and exit 2
from every command that needs a kernel (``gamecore --help`` needs none, and still works),
from ``make reports`` (:func:`start_program`) and in a notebook. ``NUMBA_NUM_THREADS`` is
otherwise free: gamecore's kernels use no numba threads (its threads are its own,
:mod:`gamecore.parallel`), so any count of 1 or more works, 100000 too.

A terminal that cannot show a character
----------------------------------------
Text output holds a few characters outside ASCII (``±``, ``≤``, ``≥``, ``×``, superscript
exponents such as ``10⁻¹⁵``). Where standard output's encoding cannot write one
(``PYTHONIOENCODING=ascii``; ``LC_ALL=C`` with ``PYTHONUTF8=0``; a Latin-1 locale and ``≤``),
Python's default is to end the command with a ``UnicodeEncodeError`` halfway through its
output. A program's entry point (:func:`readable_output`) instead has each such character
written in ASCII: the usual spellings where there is one (``+/-``, ``<=``, ``>=``, ``x``,
``10^-15``), else Python's backslash escape (``\\u2200``), so a figure is never lost and every
line still reads (a spelled cell may be a character or two wider than its column); a file
name's undecodable byte (a lone surrogate) is escaped the same way. A terminal that can show
every character (UTF-8) gets them unchanged; one that shows some (Latin-1) gets ASCII
throughout, so that an exponent is never half superscript. Standard error keeps Python's own
rule, a backslash escape for every character it cannot write: an error line names what a
user gave (a file's name), and ``≥`` there must not read as ``>=``.
"""

from __future__ import annotations

import codecs
import contextlib
import functools
import os
import re
import sys
import warnings
from collections.abc import Iterator, Mapping

from gamecore.errors import GamecoreError, one_line, shown

#: The name of the codec error handler :func:`readable_output` gives standard output.
ASCII_FALLBACK = "gamecore.ascii_fallback"

#: The ASCII spelling of each non-ASCII character gamecore's output holds (others are escaped).
ASCII_SPELLINGS = {
    "±": "+/-",
    "≤": "<=",
    "≥": ">=",
    "×": "x",
    "−": "-",
    "–": "-",
    "—": "--",
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
    "…": "...",
    "·": ".",
    "≈": "~",
    "\u00a0": " ",
}

#: Superscript digits and minus (an exponent: 10⁻¹⁵), written after one ``^`` (10^-15).
SUPERSCRIPTS = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-", strict=True))

#: numba's warning for a setting it cannot parse (it then uses its default).
_UNPARSED = re.compile(
    r"Environment variable '(?P<name>[^']*)' is defined but its associated value "
    r"'(?P<value>.*)' could not be parsed",
    re.DOTALL,
)


def ascii_fallback(error: UnicodeError) -> tuple[str, int]:
    """The codec error handler :data:`ASCII_FALLBACK`: the characters an encoding cannot
    write, in ASCII (:data:`ASCII_SPELLINGS`, :data:`SUPERSCRIPTS`, else a backslash escape).

    Parameters
    ----------
    error : UnicodeEncodeError
        What the encoder could not write.

    Returns
    -------
    (str, int)
        The replacement and where encoding resumes.

    Examples
    --------
    >>> "edge 1.06% ± 0.01, 10⁻¹⁵ ≤ x".encode("ascii", ASCII_FALLBACK)
    b'edge 1.06% +/- 0.01, 10^-15 <= x'
    """
    if not isinstance(error, UnicodeEncodeError):
        raise error
    parts: list[str] = []
    in_exponent = False
    for character in error.object[error.start : error.end]:
        if character in SUPERSCRIPTS:
            parts.append(SUPERSCRIPTS[character] if in_exponent else "^" + SUPERSCRIPTS[character])
            in_exponent = True
            continue
        in_exponent = False
        spelled = ASCII_SPELLINGS.get(character)
        parts.append(spelled if spelled is not None else ascii(character)[1:-1])
    return "".join(parts), error.end


codecs.register_error(ASCII_FALLBACK, ascii_fallback)


def readable_output() -> None:
    """Standard output writes a character its encoding cannot as ASCII
    (:func:`ascii_fallback`) rather than fail; one whose encoding lacks some of the superscript
    digits (Latin-1 has ``¹²³`` only, so ``10⁻¹⁵`` would read ``10^-¹^5``) writes ASCII
    throughout. For a program's entry point, never a library (it changes the process's
    stream); a stream that is not a text file is left as it is."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is None:
        return
    try:
        "".join(SUPERSCRIPTS).encode(sys.stdout.encoding)
    except (UnicodeEncodeError, LookupError):
        reconfigure = functools.partial(reconfigure, encoding="ascii")
    with contextlib.suppress(ValueError, OSError):  # a closed stream
        reconfigure(errors=ASCII_FALLBACK)


def setting_refusal(environ: Mapping[str, str]) -> str | None:
    """Why numba's settings in ``environ`` leave gamecore nothing to run, before numba is
    imported: ``NUMBA_DISABLE_JIT`` not 0, ``NUMBA_NUM_THREADS`` not a count of 1 or more.

    Parameters
    ----------
    environ : Mapping of str to str
        The process's environment.

    Returns
    -------
    str or None
        The refusal, naming the variable and its value; None when both are usable.

    Examples
    --------
    >>> setting_refusal({"NUMBA_NUM_THREADS": "0"}).split(":")[0]
    "NUMBA_NUM_THREADS='0' is refused"
    >>> setting_refusal({"NUMBA_DISABLE_JIT": "0", "NUMBA_NUM_THREADS": "4"}) is None
    True
    """
    disable = environ.get("NUMBA_DISABLE_JIT")
    if disable is not None and _integer(disable) != 0:
        return (
            f"NUMBA_DISABLE_JIT={shown(disable)} is refused: gamecore's kernels run only "
            "compiled (numba's pure-Python mode cannot run them); unset it or set it to 0"
        )
    threads = environ.get("NUMBA_NUM_THREADS")
    if threads is not None and (_integer(threads) or 0) < 1:
        return (
            f"NUMBA_NUM_THREADS={shown(threads)} is refused: it must be a whole number of "
            "threads, 1 or more (gamecore's kernels use none of numba's threads: unset it)"
        )
    return None


def _integer(text: str) -> int | None:
    """``text`` read as numba reads an integer setting (``int``); None if it cannot be."""
    try:
        return int(text)
    except ValueError:
        return None


@contextlib.contextmanager
def numba_settings_checked() -> Iterator[None]:
    """Import numba inside this block: a setting it cannot run gamecore under is refused,
    before the import where it can be (:func:`setting_refusal`), after it for a value numba
    could not parse (its warning, with a traceback, becomes the refusal) and for a
    ``.numba_config.yaml`` that disables compiling. Other warnings of the import are given
    as they would have been.

    Raises
    ------
    GamecoreError
        Naming the setting and its value.
    """
    refusal = setting_refusal(os.environ)
    if refusal is not None:
        raise GamecoreError(refusal)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    for warning in caught:
        unparsed = _UNPARSED.match(str(warning.message))
        if unparsed is not None:
            raise GamecoreError(
                f"{unparsed['name']}={shown(unparsed['value'])} is refused: numba cannot read "
                "this setting's value; correct or unset it"
            )
    for warning in caught:
        warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
    import numba

    if numba.config.DISABLE_JIT:  # from .numba_config.yaml: the environment was checked
        raise GamecoreError(
            f"disable_jit in {os.path.abspath('.numba_config.yaml')} is refused: gamecore's "
            "kernels run only compiled; remove it or set it to 0"
        )


def start_program(program: str) -> None:
    """What a program's entry point does first, before it imports gamecore's kernels:
    :func:`readable_output`, and numba imported with its settings checked
    (:func:`numba_settings_checked`), a refusal one line on standard error and exit status 2.

    Parameters
    ----------
    program : str
        What the refusal's line starts with (``make reports``).
    """
    readable_output()
    try:
        with numba_settings_checked():
            import numba  # noqa: F401
    except GamecoreError as error:
        print(f"{program}: error: {one_line(str(error))}", file=sys.stderr, flush=True)
        raise SystemExit(2) from None
