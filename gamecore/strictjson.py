"""Strict JSON: everything gamecore writes as JSON passes a strict parser.

Python's ``json`` writes ``NaN`` and ``Infinity`` by default, which JSON does not have:
JavaScript's ``JSON.parse`` and ``jq`` reject the whole document. Here a figure that is
undefined for the input (a decision margin where only one action is allowed, a mean of no
trials) is written as ``null``, numpy scalars and arrays become JSON numbers and lists, and
``json.dumps(..., allow_nan=False)`` guards the rest, so no writer can emit a non-standard
token by accident.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

#: The keys whose integers may exceed 2^53, past which a reader that reads every JSON number
#: as a double (JavaScript's ``JSON.parse``, jq before 1.7) rounds them: exact counts of
#: card sequences (N P 6 passes 2^53 from 9 decks on) and seeds (up to 40 digits). They are
#: written as exact JSON integers, which a strict reader (Python's ``json``) keeps exactly;
#: every other integer gamecore writes stays below 2^53 (the README lists these keys).
BEYOND_2_53 = ("total_combinations", "combinations", "seed")


def plain(value: Any) -> Any:
    """``value`` with every non-finite float replaced by ``None`` and numpy types made
    Python types, recursively through mappings, lists and tuples.

    Parameters
    ----------
    value : Any
        A document to write (mappings, sequences, numpy scalars and arrays, numbers).

    Returns
    -------
    Any
        The same document of Python types only: dicts, lists, bool, int, float, None and
        other objects unchanged.

    Examples
    --------
    >>> plain({"margin": float("nan"), "n": np.int64(3), "p": [np.float64(0.5)]})
    {'margin': None, 'n': 3, 'p': [0.5]}
    """
    if isinstance(value, Mapping):
        return {_key(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return plain(value.tolist())
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value) if math.isfinite(value) else None
    return value


def _key(key: Any) -> Any:
    # JSON object keys are strings; numpy integers (up cards, ranks) are written as numbers.
    if isinstance(key, (np.integer, np.floating, np.bool_)):
        return key.item()
    return key


def dumps(data: Any, indent: int | None = 2) -> str:
    """Strict JSON text of ``data`` (see the module docstring); other objects (fractions,
    paths) are written as their ``str``.

    Parameters
    ----------
    data : Any
        The document (made :func:`plain` first).
    indent : int or None, default 2
        Indentation of nested items; ``None`` for one line.

    Returns
    -------
    str
        JSON text with no ``NaN`` or ``Infinity``.

    Examples
    --------
    >>> dumps({"margin": float("inf")}, indent=None)
    '{"margin": null}'
    """
    return json.dumps(plain(data), indent=indent, allow_nan=False, default=str)


def loads(text: str) -> Any:
    """Parse JSON strictly: ``NaN``, ``Infinity`` and ``-Infinity`` are refused.

    Parameters
    ----------
    text : str
        JSON text.

    Returns
    -------
    Any
        The document, as :func:`json.loads` reads it.

    Raises
    ------
    ValueError
        Invalid JSON or a non-standard token.

    Examples
    --------
    >>> loads('{"n": 1}')
    {'n': 1}
    """

    def refuse(token: str) -> Any:
        raise ValueError(f"non-standard JSON token {token}")

    return json.loads(text, parse_constant=refuse)
