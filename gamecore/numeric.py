"""Which Python and numpy values the boundary takes as numbers: one definition for every check.

A parameter reaches gamecore typed by a person (the command line converts text first), read
from YAML, or computed by a notebook, so it may be any of Python's or numpy's numeric types.
Python's numeric tower and numpy's type hierarchy disagree at the edges, and each edge let a
value through some check before:

- ``bool`` is an ``int`` to Python and ``numpy.bool_`` is not a number to numpy, but a switch
  is never a count: both are refused wherever a number is asked for;
- ``numpy.timedelta64`` is one of numpy's signed integers, but it is a duration with a unit
  (``np.timedelta64(8)`` is 8 "generic time units"): refused;
- ``numpy.longdouble.item()`` returns a long double, not a Python float, so a check that
  looked for ``float`` to find NaN and infinity let a long-double NaN through: every numpy
  float is converted with ``float()`` first (a long double beyond float64's range becomes
  infinite, and is refused as such);
- ``numpy.number`` includes the complex types: refused, as are Python's ``complex``,
  ``Fraction`` and ``Decimal`` (exact types gamecore would have to round, and whose NaN and
  infinities Decimal spells its own way), strings and arrays, 0-d arrays included.

Accepted values come back as Python ``int`` or ``float`` (an ``int`` subclass such as an
``IntEnum`` member as its plain value), so nothing downstream sees a numpy scalar or a subclass.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from gamecore.errors import GamecoreError, shown


def is_whole(value: object) -> bool:
    """Whether ``value`` is an integer as a count is: a Python ``int`` or a numpy integer
    scalar, not a bool and not a ``numpy.timedelta64`` (see the module docstring).

    Parameters
    ----------
    value : object
        Any value.

    Returns
    -------
    bool
        Whether it is taken as a whole number.

    Examples
    --------
    >>> [is_whole(v) for v in (8, np.int64(8), True, np.timedelta64(8), 8.0, np.array(8))]
    [True, True, False, False, False, False]
    """
    return isinstance(value, (int, np.integer)) and not isinstance(
        value, (bool, np.bool_, np.timedelta64)
    )


def is_real(value: object) -> bool:
    """Whether ``value`` is a real number of a type the boundary takes: :func:`is_whole`, a
    Python ``float`` or a numpy float scalar (float16 to long double). Finite or not: see
    :func:`real_number`.

    Parameters
    ----------
    value : object
        Any value.

    Returns
    -------
    bool
        Whether it is taken as a real number (finite or not).

    Examples
    --------
    >>> [is_real(v) for v in (0.5, np.float16(0.5), np.longdouble(0.5), 1 + 0j, np.array(0.5))]
    [True, True, True, False, False]
    """
    return is_whole(value) or isinstance(value, (float, np.floating))


def real_number(name: str, value: object) -> int | float:
    """``value`` as a Python int or float if it is a finite real number (:func:`is_real`);
    else a :class:`GamecoreError` naming ``name`` and the value.

    Parameters
    ----------
    name : str
        The parameter's name, as the message shows it.
    value : object
        The value given.

    Returns
    -------
    int or float
        The value as a Python ``int`` (whole numbers) or ``float``.

    Raises
    ------
    GamecoreError
        Not a number of a type taken (:func:`is_real`), or not finite.

    Examples
    --------
    >>> real_number("tie_pays", np.float32(8))
    8.0
    >>> real_number("tie_pays", np.longdouble("nan"))
    Traceback (most recent call last):
        ...
    gamecore.errors.GamecoreError: tie_pays must be a finite number, got np.longdouble('nan')
    """
    if not is_real(value):
        raise GamecoreError(f"{name} must be a number (an int or a float), got {shown(value)}")
    if is_whole(value):
        return int(value)
    number = float(value)  # a long double past float64's range becomes infinite here
    if not math.isfinite(number):
        raise GamecoreError(f"{name} must be a finite number, got {shown(value)}")
    return number


def real_or_fraction(name: str, value: object) -> int | float | Fraction:
    """:func:`real_number`, and a :class:`fractions.Fraction` kept as it is: the exact
    results gamecore gives (a wager's net results and probabilities) are Fractions, and
    what reads them back (hold monitoring, counting) takes them whole. A string that reads
    as a number (``"8"``, ``"1e3"``, ``"nan"``) is refused like any other non-number.

    Parameters
    ----------
    name : str
        What the value is, for the message.
    value : object
        The value to check.

    Returns
    -------
    int, float or Fraction
        ``value``: a Fraction as it is, any other real number as :func:`real_number` gives it.

    Examples
    --------
    >>> real_or_fraction("probability", Fraction(1, 3))
    Fraction(1, 3)
    >>> real_or_fraction("probability", "0.5")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    gamecore.errors.GamecoreError: probability must be a number (an int, ...), got '0.5'
    """
    if isinstance(value, Fraction):
        return Fraction(value)  # a subclass as its plain value
    if not is_real(value):
        raise GamecoreError(
            f"{name} must be a number (an int, a float or a Fraction), got {shown(value)}"
        )
    return real_number(name, value)


def real_numbers(name: str, values: object) -> tuple[int | float, ...]:
    """``values`` as a tuple of Python ints and floats if it is a list, tuple or range of
    finite real numbers (:func:`real_number`) or a one-dimensional numpy array of them; else
    a :class:`GamecoreError` naming ``name`` and the value, or the first bad item as
    ``name[i]``. A string, a mapping, a set (no order) and an array of other shapes are
    refused whole.

    Parameters
    ----------
    name : str
        The parameter's name, as the message shows it.
    values : object
        The values given.

    Returns
    -------
    tuple of int or float
        Each value as :func:`real_number` gives it, in order.

    Raises
    ------
    GamecoreError
        Not a list, tuple, range or 1-d array, or an item not a finite real number.

    Examples
    --------
    >>> real_numbers("bankrolls", np.array([100, 200.5]))
    (100.0, 200.5)
    >>> real_numbers("ramp", "248")
    Traceback (most recent call last):
        ...
    gamecore.errors.GamecoreError: ramp must be a list of numbers, got '248'
    """
    if isinstance(values, np.ndarray) and values.ndim == 1:
        items = list(values)  # numpy scalars, each checked as any other value
    elif isinstance(values, (list, tuple, range)):
        items = list(values)
    else:
        raise GamecoreError(f"{name} must be a list of numbers, got {shown(values)}")
    return tuple(real_number(f"{name}[{i}]", item) for i, item in enumerate(items))
