"""An outcome's payout in a side bet's definition, ``N to M`` or ``push``, read exactly.

The central idea: a payout is read from its text as the fraction the text writes, never
through a binary float: ``0.54 to 1`` is 27/50 (``fractions.Fraction`` reads a decimal
string exactly), ``3 to 2`` is 3/2. Only plain decimals are numbers here; ``nan``, ``inf``,
a sign, a leading zero, hex, an underscore or an exponent are refused, saying which.
"""

from __future__ import annotations

import re
from fractions import Fraction

from gamecore.errors import shown
from gamecore.sidebets.yamlnodes import Mistake, Node, scalar

#: The largest payout, to 1.
MAX_PAYS = 100_000
#: The most characters a payout's number may have.
MAX_NUMBER_CHARACTERS = 40

#: A payout's number: plain decimal digits, no leading zero, an optional fraction part.
_DECIMAL = re.compile(r"(?:0|[1-9][0-9]*)(?:\.[0-9]+)?")
#: ``N to M``, with blanks between.
_N_TO_M = re.compile(r"(\S+)[ \t]+to[ \t]+(\S+)")
#: Something a person may mean as a number (to say what is wrong with it).
_NUMBERISH = re.compile(
    r"[-+]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9]+|0[xXoObB][0-9a-fA-F_]*)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.?(?:nan|inf|infinity)",
    re.IGNORECASE,
)
#: Why a payout's number is refused, tried in order after the special words.
_NUMBER_REASONS = (
    (re.compile(r"-.*"), "negative (a payout is at least 0)"),
    (re.compile(r"\+.*"), "signed (a + sign)"),
    (re.compile(r"0[xX].*"), "hex"),
    (re.compile(r"0[oObB].*|0[0-9_].*"), "octal-looking (a leading zero)"),
    (re.compile(r".*_.*"), "not plain digits (an underscore is no separator)"),
    (re.compile(r".*[eE][-+]?[0-9]+"), "written with an exponent"),
    (re.compile(r"\..*|.*\."), "missing a digit beside its point (write 0.5, 5.0)"),
)
_PAYS_FORMS = 'write "N to M" (e.g. "11 to 1", "3 to 2", "0.54 to 1") or push'


def read_pays(node: Node) -> tuple[Fraction, str]:
    """An outcome's payout: ``N to M`` read exactly (decimals as written, never through a
    float), M > 0 and 0 <= N/M <= :data:`MAX_PAYS`; or ``push`` (0).

    Parameters
    ----------
    node : Node
        The ``pays`` field's node.

    Returns
    -------
    fractions.Fraction
        The payout to 1.
    str
        As written, blanks normalised: ``"11 to 1"``, ``"push"``.

    Raises
    ------
    Mistake
        Not a payout, naming the value and the forms allowed (a bare number is told to
        write ``"N to 1"``).

    Examples
    --------
    >>> read_pays(Node("scalar", 1, text="0.54 to 1"))
    (Fraction(27, 50), '0.54 to 1')
    """
    text = scalar(node, "pays").strip(" \t")
    if text == "push":
        return Fraction(0), "push"
    match = _N_TO_M.fullmatch(text)
    if match is None:
        if _NUMBERISH.fullmatch(text):
            _payout_number(text, text, node)  # a reason first, if it has one (-1, nan)
            raise Mistake(node.line, f'pays {shown(text)} is a bare number; write "{text} to 1"')
        raise Mistake(node.line, f"pays {shown(text)} is not a payout; {_PAYS_FORMS}")
    won = _payout_number(match[1], text, node)
    stake = _payout_number(match[2], text, node)
    if stake == 0:
        raise Mistake(node.line, f"pays {shown(text)}: M in N to M must be more than 0")
    if won / stake > MAX_PAYS:
        raise Mistake(
            node.line,
            f"pays {shown(text)} is above {MAX_PAYS:,} to 1, the largest payout allowed",
        )
    return won / stake, f"{match[1]} to {match[2]}"


def _payout_number(number: str, text: str, node: Node) -> Fraction:
    """One number of a payout, exactly (Fraction reads a decimal string exactly)."""
    if _DECIMAL.fullmatch(number) and len(number) <= MAX_NUMBER_CHARACTERS:
        return Fraction(number)
    word = number.lower().lstrip("+-.")
    if word == "nan":
        reason = "not a number"
    elif word in ("inf", "infinity"):
        reason = "infinite"
    elif len(number) > MAX_NUMBER_CHARACTERS and _DECIMAL.fullmatch(number):
        reason = f"too long (more than {MAX_NUMBER_CHARACTERS} characters)"
    else:
        reason = next(
            (why for pattern, why in _NUMBER_REASONS if pattern.fullmatch(number)),
            "not a number",
        )
    where = "" if number == text else f" in {shown(text)}"
    raise Mistake(node.line, f"pays: {shown(number)}{where} is {reason}; {_PAYS_FORMS}")


__all__ = ["MAX_NUMBER_CHARACTERS", "MAX_PAYS", "read_pays"]
