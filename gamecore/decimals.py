"""Numbers typed as text (the command line's options, ``--rule NAME=VALUE``): plain ASCII
decimals, read as every reader of the command would read them, or refused.

Python's ``int`` and ``float`` read more than a person means by a number: digits of every
script (``'٦'``, ``'６'`` and ``'𝟔'`` are 6), underscores between digits (``'1_000'``),
Unicode spaces around them, and for ``float`` the words ``nan`` and ``infinity`` in any
case. A leading zero (``'010'``) is 10 to Python and 8 to C, a shell and their readers. A
value here is an optional sign and the ASCII digits 0-9 with no leading zero; a number may
add a decimal point and a power of ten (``0.05``, ``.5``, ``1e6``). ASCII white space around
it is ignored; ``-0`` is 0.

Each function raises ``ValueError`` with the reason a value is refused (empty when it is
simply not a number); :func:`why` turns it into the end of the caller's message, which names
the option and the value.
"""

from __future__ import annotations

import re

#: White space ignored around a value: ASCII only (a no-break space is refused).
BLANKS = " \t\n\r\f\v"

#: The most digits an integer value may have: room for a 128-bit seed (39 digits), the
#: largest value any option takes. Beyond it an integer is a typing error (every count,
#: limit and size is checked against ranges far below), and Python's ``int`` refuses text of
#: more than 4,300 digits.
MAX_DIGITS = 40

#: A plain decimal integer: an optional sign, no leading zero, no underscore (also what a
#: parameters file reads as an integer, :mod:`gamecore.reading`).
INTEGER = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
#: A plain decimal number: 0.05, .5, 5., 1e6, -2.5E-3 (no leading zero before the point).
NUMBER = re.compile(r"[-+]?(?:(?:0|[1-9][0-9]*)(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


def integer(text: str) -> int:
    """``text`` as an integer, if it is one written as a plain ASCII decimal.

    Parameters
    ----------
    text : str
        The value as typed; ASCII white space around it is ignored.

    Returns
    -------
    int
        Its value.

    Raises
    ------
    ValueError
        Not a plain decimal integer, or of more than :data:`MAX_DIGITS` digits; the message
        is the reason (empty when it is simply not a number).

    Examples
    --------
    >>> integer(" 42 "), integer("-0")
    (42, 0)
    >>> integer("010")
    Traceback (most recent call last):
    ValueError: a leading zero: 010 is decimal to some readers and octal to others
    """
    value = text.strip(BLANKS)
    if not INTEGER.fullmatch(value):
        raise ValueError(_reason(value))
    digits = len(value.lstrip("+-"))
    if digits > MAX_DIGITS:
        raise ValueError(f"{digits:,} digits: no value takes more than {MAX_DIGITS}")
    return int(value)


def number(text: str) -> int | float:
    """``text`` as a number: an ``int`` when it is written as an integer (8 stays exact, not
    8.0), else a ``float``; ``inf`` when it is past the float range (the caller refuses it).
    Negative zero is zero, and a value other than zero too small for a float is refused.

    Parameters
    ----------
    text : str
        The value as typed; ASCII white space around it is ignored.

    Returns
    -------
    int or float
        Its value: ``int`` when written as an integer, else ``float``.

    Raises
    ------
    ValueError
        Not a plain decimal number; the message is the reason (empty when there is none).

    Examples
    --------
    >>> number("8"), number("0.05"), number("-0.0"), number("1e400")
    (8, 0.05, 0.0, inf)
    >>> number("1e-400")
    Traceback (most recent call last):
    ValueError: not zero, yet below the smallest float, about 5e-324
    """
    value = text.strip(BLANKS)
    if INTEGER.fullmatch(value) and len(value.lstrip("+-")) <= MAX_DIGITS:
        return int(value)
    if not NUMBER.fullmatch(value):
        raise ValueError(_reason(value))
    result = float(value) + 0.0  # -0.0 + 0.0 is 0.0: no option has a signed zero
    mantissa = value.lower().partition("e")[0]
    if result == 0.0 and mantissa.strip("+-.0"):
        raise ValueError("not zero, yet below the smallest float, about 5e-324")
    return result


def _reason(value: str) -> str:
    """Why ``value`` (stripped) is not a plain decimal, where a reader could think it is one."""
    if not value.isascii():
        return "a character other than ASCII: only the digits 0-9 are read as digits"
    if "_" in value:
        return "underscores are not read as digit separators"
    if re.match(r"[-+]?0[0-9]", value):
        return f"a leading zero: {value} is decimal to some readers and octal to others"
    return ""


def why(error: ValueError) -> str:
    """The reason ``error`` carries as the end of a message: ``' (reason)'``, or nothing.

    Parameters
    ----------
    error : ValueError
        What :func:`integer` or :func:`number` raised.

    Returns
    -------
    str
        ``" (reason)"``, or ``""`` when the error gives no reason.

    Examples
    --------
    >>> try:
    ...     integer("1_000")
    ... except ValueError as error:
    ...     why(error)
    ' (underscores are not read as digit separators)'
    """
    reason = str(error)
    return f" ({reason})" if reason else ""
