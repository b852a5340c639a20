"""Rule values in words, as a rule set's table states them beside the values as typed
(:meth:`gamecore.rules.RuleSet.in_words`): a payout as odds (``6 to 5``), a commission as a
percentage (``5%``), a shoe as ``8 decks``, a switch as ``yes`` or ``no``.

Each function takes a value its rule's check has already accepted (a Python int, float or
bool) and reads it exactly as typed: 1.2 is 6 to 5 and 0.05 is 5%, never the binary float's
neighbours (:func:`as_fraction`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

#: The largest denominator odds are written with ("6 to 5", "19 to 20"); a payout whose
#: exact ratio needs more is written as its decimal to 1 ("1.2345 to 1").
ODDS_DENOMINATOR = 100


def as_fraction(value: float | int) -> Fraction:
    """The exact rational a decimal parameter stands for: 0.05 -> 1/20, not the binary float.

    Parameters are typed by people as decimals, so the decimal reading is the intended one.

    Parameters
    ----------
    value : float or int
        A rule parameter's value.

    Returns
    -------
    Fraction
        A float read through its shortest decimal repr; an int as it is.

    Examples
    --------
    >>> as_fraction(0.05), as_fraction(8)
    (Fraction(1, 20), Fraction(8, 1))
    """
    return Fraction(str(value)) if isinstance(value, float) else Fraction(value)


def decimal_text(value: int | float | Decimal) -> str:
    """A number as typed: whole numbers with thousands separators, a fraction with its
    shortest decimals, never in exponent form.

    Parameters
    ----------
    value : int, float or Decimal
        A finite number.

    Returns
    -------
    str
        The number's text.

    Examples
    --------
    >>> decimal_text(8), decimal_text(1.0), decimal_text(0.05), decimal_text(1e-05)
    ('8', '1', '0.05', '0.00001')
    >>> decimal_text(1_000_000)
    '1,000,000'
    """
    exact = value if isinstance(value, Decimal) else Decimal(str(value))
    if exact == exact.to_integral_value():
        return f"{int(exact):,}"
    return f"{exact.normalize():,f}"


def number(value: int | float) -> str:
    """A count or a threshold: the number as typed (:func:`decimal_text`).

    Parameters
    ----------
    value : int or float
        The rule's value.

    Returns
    -------
    str
        ``"4"``, ``"0.5"``.
    """
    return decimal_text(value)


def odds(value: int | float) -> str:
    """A payout "x to 1" as odds in lowest terms, "N to M".

    Parameters
    ----------
    value : int or float
        The payout, net units won per unit wagered.

    Returns
    -------
    str
        ``"N to M"``; a payout whose exact ratio needs a denominator over
        :data:`ODDS_DENOMINATOR`, as its decimal to 1.

    Examples
    --------
    >>> odds(1.2), odds(8), odds(1.5), odds(1), odds(0.95), odds(0)
    ('6 to 5', '8 to 1', '3 to 2', '1 to 1', '19 to 20', '0 to 1')
    >>> odds(1.2345)
    '1.2345 to 1'
    """
    exact = as_fraction(value)
    if exact.denominator > ODDS_DENOMINATOR:
        return f"{decimal_text(value)} to 1"
    return f"{exact.numerator:,} to {exact.denominator:,}"


def percent(value: int | float) -> str:
    """A fraction (a commission) as a percentage.

    Parameters
    ----------
    value : int or float
        The fraction, 0 up to 1.

    Returns
    -------
    str
        ``"5%"``, ``"4.5%"``.

    Examples
    --------
    >>> percent(0.05), percent(0.045), percent(0), percent(0.1)
    ('5%', '4.5%', '0%', '10%')
    """
    return f"{decimal_text(Decimal(str(value)) * 100)}%"


def decks(value: int) -> str:
    """A shoe's deck count.

    Parameters
    ----------
    value : int
        Decks.

    Returns
    -------
    str
        ``"1 deck"``, ``"8 decks"``.
    """
    return f"{decimal_text(value)} deck{'' if value == 1 else 's'}"


def units(value: int | float) -> str:
    """A sum of money or a count of betting units.

    Parameters
    ----------
    value : int or float
        The amount.

    Returns
    -------
    str
        ``"1 unit"``, ``"10 units"``, ``"0.5 units"``.
    """
    return f"{decimal_text(value)} unit{'' if value == 1 else 's'}"


def yes_no(value: bool) -> str:
    """A switch whose meaning reads as a statement: ``yes`` when it holds, else ``no``.

    Parameters
    ----------
    value : bool
        The switch.

    Returns
    -------
    str
        ``"yes"`` or ``"no"``.
    """
    return "yes" if value else "no"


def of_rule(field: dataclasses.Field, value: Any) -> str:
    """A value of the rule declared as ``field`` in words: the rule's own words, else its
    check's (:func:`gamecore.rules.rule`, :func:`gamecore.rules.marked`).

    Parameters
    ----------
    field : dataclasses.Field
        A rule set's field, declared with :func:`gamecore.rules.rule`.
    value : Any
        A value its check accepts (not ``None``: a rule set resolves ``auto`` first).

    Returns
    -------
    str
        The words (a value a mapping of words lacks: ``KeyError``).
    """
    words = field.metadata.get("words") or field.metadata["check"].words
    return words[value] if isinstance(words, Mapping) else words(value)


def typed(value: Any) -> str:
    """A rule's value as ``--rule NAME=VALUE`` takes it: ``auto`` for a value another rule
    sets (``None``), a number as typed (8, 0.05), a switch as ``True`` or ``False``.

    Parameters
    ----------
    value : Any
        A rule's value.

    Returns
    -------
    str
        Its text.

    Examples
    --------
    >>> typed(None), typed(8), typed(0.05), typed(True)
    ('auto', '8', '0.05', 'True')
    """
    return "auto" if value is None else str(value)
