"""A side bet's definition: the YAML file a user writes, read strictly and checked once.

:func:`load` takes a built-in's code name (:func:`builtin_names`, the files shipped in
``gamecore/sidebets/definitions/``) or the path of a ``.yaml`` / ``.yml`` file of at most
:data:`MAX_DEFINITION_BYTES`; :func:`parse` reads a file's bytes. Both give a
:class:`SideBet` in its normal form, or raise a :class:`~gamecore.errors.GamecoreError` of
one line, ``FILE:LINE: message``, naming the bad value and what is allowed.

The central idea: every scalar of the file is text (:mod:`.yamlnodes` composes the YAML
without resolving a single implicit type), and each field is read from its text by the
rules of this module alone. So no YAML 1.1 reading can slip in: ``010`` is refused as
octal-looking, not read as 8; ``0.54 to 1`` is the exact fraction 27/50, never a binary
float; ``yes`` is not true. The format is docs/side-bets.md.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources

from gamecore.cards import MAX_DECKS, MIN_DECKS
from gamecore.errors import GamecoreError, one_line, shown
from gamecore.reading import path_text, read_bounded
from gamecore.sidebets.conditions import (
    CARD_VALUES,
    CARDS,
    CARDS_DEALT,
    CONDITIONS,
    GAMES,
    HAND_CARDS,
    HANDS,
    MARGINS,
    MAX_NESTING,
    POKER_CLASSES,
    TOTALS,
    WINNERS,
    Condition,
    when,
)
from gamecore.sidebets.dealer_words import DealerRule, read_rule
from gamecore.sidebets.payouts import MAX_PAYS, read_pays
from gamecore.sidebets.yamlnodes import (
    Mistake,
    Node,
    choice,
    compose,
    decode,
    expect,
    fields,
    integer,
    near,
    plain_text,
    scalar,
)

#: The default deck count of each game's side bets.
DEFAULT_DECKS = {"baccarat": 8, "blackjack": 6}
#: The name of the par sheet's last line: every deal no outcome takes.
LOSES = "Loses"
#: The name of the par sheet's table's sum of every line, under them.
TOTAL = "Total"
#: The par sheet's own lines, no outcome's name (compared ignoring case): what they hold.
RESERVED_NAMES = {LOSES: "losing line", TOTAL: "total line"}

#: The largest definition file read (1 MiB): far above any real bet (the longest built-in
#: is under 2 KB), small enough that the pure-Python YAML parser reads it in seconds.
MAX_DEFINITION_BYTES = 1 << 20
#: The most outcomes a bet may list.
MAX_OUTCOMES = 64
#: The longest bet code name, title, outcome name, and description or source, in characters.
MAX_BET, MAX_TITLE, MAX_NAME, MAX_TEXT = 64, 120, 80, 2000
#: The fields of a definition, and those it must give.
FIELDS = ("bet", "title", "game", "decks", "dealer", "description", "source", "outcomes")
REQUIRED = ("bet", "game", "outcomes")
#: The fields of an outcome (all required).
OUTCOME_FIELDS = ("name", "when", "pays")


@dataclass(frozen=True)
class Outcome:
    """One paying outcome: its name, payout and conditions (all must hold).

    Attributes
    ----------
    name : str
        The printed name.
    pays : fractions.Fraction
        The payout to 1, exact (``3 to 2`` is 3/2, ``0.54 to 1`` is 27/50, a push 0).
    pays_text : str
        The payout as the file wrote it, normalised (``"11 to 1"``, ``"push"``).
    conditions : tuple of Condition
        Every condition; the outcome holds when all hold.
    line : int or None
        The line of the file the outcome starts on.
    """

    name: str
    pays: Fraction
    pays_text: str
    conditions: tuple[Condition, ...]
    line: int | None = None


@dataclass(frozen=True)
class SideBet:
    """A side bet's definition, checked.

    Attributes
    ----------
    bet : str
        The code name.
    title : str
        The printed title.
    game : str
        ``"baccarat"`` or ``"blackjack"``.
    decks : int
        The default deck count.
    description, source : str
        Optional text ("" when absent).
    outcomes : tuple of Outcome
        The paying outcomes in order (the first that holds is paid).
    origin : str
        Where it was read from: ``"built-in"`` or the file's path.
    sha256 : str
        The SHA-256 of the file's bytes (hex).
    dealer : DealerRule
        How the dealer draws (blackjack; :mod:`gamecore.sidebets.dealer_words`).
    """

    bet: str
    title: str
    game: str
    decks: int
    description: str
    source: str
    outcomes: tuple[Outcome, ...]
    origin: str
    sha256: str
    dealer: DealerRule = DealerRule()


# ---------------------------------------------------------------------------------------
# Reading: a built-in's name or a file's path, a file's bytes
# ---------------------------------------------------------------------------------------


@functools.cache
def builtin_names() -> tuple[str, ...]:
    """The built-in side bets' code names (the files shipped in the package).

    Returns
    -------
    tuple of str
        Sorted.
    """
    folder = resources.files("gamecore.sidebets").joinpath("definitions")
    return tuple(
        sorted(
            entry.name.removesuffix(".yaml")
            for entry in folder.iterdir()
            if entry.name.endswith(".yaml")
        )
    )


def load(name_or_path: str) -> SideBet:
    """A side bet's definition: a built-in's, by its code name, or a file's, by its path.

    Parameters
    ----------
    name_or_path : str
        A built-in's code name (:func:`builtin_names`), or the path of a ``.yaml`` or
        ``.yml`` file of at most :data:`MAX_DEFINITION_BYTES` (refused by its size before
        it is read; no byte past the limit and one is read).

    Returns
    -------
    SideBet
        The definition, checked; its ``origin`` is ``"built-in"`` or the path.

    Raises
    ------
    GamecoreError
        One line: neither a built-in nor a ``.yaml`` / ``.yml`` path (listing the
        built-ins); the file cannot be read; or the file's first mistake
        (``FILE:LINE: message``).

    Examples
    --------
    >>> bet = load("small")
    >>> bet.game, bet.decks, bet.outcomes[0].pays_text, bet.outcomes[0].pays
    ('baccarat', 8, '3 to 2', Fraction(3, 2))
    """
    name = os.fsdecode(name_or_path)
    if name in builtin_names():
        resource = resources.files("gamecore.sidebets").joinpath("definitions")
        data = resource.joinpath(f"{name}.yaml").read_bytes()
        return _parse(data, "built-in", f"gamecore/sidebets/definitions/{name}.yaml")
    if name.lower().endswith((".yaml", ".yml")):
        label = path_text(name)
        return _parse(read_bounded(name, MAX_DEFINITION_BYTES, label), name, label)
    raise GamecoreError(
        one_line(
            f"{shown(name)}{near(name, builtin_names())} is neither a built-in side bet "
            f"({', '.join(builtin_names())}) "
            "nor a definition file (a path ending .yaml or .yml)"
        )
    )


def parse(text: bytes, origin: str) -> SideBet:
    """A side bet's definition from a file's bytes.

    Parameters
    ----------
    text : bytes
        The file's bytes: UTF-8 (a leading byte-order mark is dropped), at most
        :data:`MAX_DEFINITION_BYTES`.
    origin : str
        Where they come from (a path): what messages name the file by, and the result's
        ``origin``.

    Returns
    -------
    SideBet
        The definition in its normal form; ``sha256`` is the bytes' SHA-256.

    Raises
    ------
    GamecoreError
        The first mistake, on one line: ``FILE:LINE: message`` (``FILE: message`` where it
        has no line), naming the bad value and what is allowed.

    Examples
    --------
    >>> text = (
    ...     b"bet: even\\ngame: baccarat\\noutcomes:\\n  - name: Even\\n"
    ...     b"    when: {total: {player: [0, 2, 4, 6, 8]}}\\n    pays: 0.9 to 1\\n"
    ... )
    >>> bet = parse(text, "even.yaml")
    >>> bet.decks, bet.outcomes[0].pays, bet.outcomes[0].conditions[0].values
    (8, Fraction(9, 10), (0, 2, 4, 6, 8))
    >>> parse(text.replace(b"baccarat", b"baccarat\\ndecks: 010"), "even.yaml")
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gamecore.errors.GamecoreError: even.yaml:3: decks '010' is octal-looking (a leading zero...
    """
    if not isinstance(text, (bytes, bytearray, memoryview)):
        raise TypeError(f"parse takes the file's bytes, got {type(text).__name__}")
    return _parse(bytes(text), origin, path_text(origin))


def _parse(data: bytes, origin: str, label: str) -> SideBet:
    """The definition in ``data``; a mistake raised as one line naming ``label``."""
    try:
        if len(data) > MAX_DEFINITION_BYTES:
            raise Mistake(
                None,
                f"larger than {MAX_DEFINITION_BYTES:,} bytes, its size limit "
                f"(it is {len(data):,} bytes)",
            )
        if not data:
            raise Mistake(None, "an empty file; a definition gives at least bet, game, outcomes")
        top = compose(decode(data))
        if top is None:
            raise Mistake(None, "no definition in it (only blank lines or comments)")
        if top.kind != "mapping":
            raise Mistake(
                top.line,
                f"the top level must be a mapping of fields ({', '.join(FIELDS)}), "
                f"got {'a list' if top.kind == 'list' else 'a value'}",
            )
        return _side_bet(top, origin, hashlib.sha256(data).hexdigest())
    except Mistake as mistake:
        where = label if mistake.line is None else f"{label}:{mistake.line}"
        raise GamecoreError(one_line(f"{where}: {mistake.message}")) from None


# ---------------------------------------------------------------------------------------
# The definition, its text fields and its outcomes
# ---------------------------------------------------------------------------------------


def _side_bet(top: Node, origin: str, sha256: str) -> SideBet:
    """The definition from the file's top mapping."""
    entries = fields(top, "the definition", FIELDS, REQUIRED)

    def field_text(key: str, limit: int, default: str) -> str:
        return plain_text(entries[key][1], key, limit) if key in entries else default

    bet = scalar(entries["bet"][1], "bet")
    if not re.fullmatch(r"[a-z][a-z0-9_]*", bet) or len(bet) > MAX_BET:
        raise Mistake(
            entries["bet"][1].line,
            f"bet {shown(bet)} is not a code name: a lower-case letter, then lower-case "
            f"letters, digits or _, at most {MAX_BET} characters",
        )
    title = field_text("title", MAX_TITLE, bet)
    game = choice(entries["game"][1], "game", GAMES)
    decks = DEFAULT_DECKS[game]
    if "decks" in entries:
        decks = integer(entries["decks"][1], "decks", MIN_DECKS, MAX_DECKS)
    description = field_text("description", MAX_TEXT, "")
    source = field_text("source", MAX_TEXT, "")
    outcomes, dealer = _outcomes(entries["outcomes"][1], game), read_rule(entries, game)
    return SideBet(bet, title, game, decks, description, source, outcomes, origin, sha256, dealer)


def _outcomes(node: Node, game: str) -> tuple[Outcome, ...]:
    """The outcomes list: 1..MAX_OUTCOMES outcomes, their names unique (ignoring case)."""
    expect(node, "list", "outcomes")
    if not node.items:
        raise Mistake(node.line, "outcomes is an empty list; give at least one outcome")
    if len(node.items) > MAX_OUTCOMES:
        raise Mistake(
            node.items[MAX_OUTCOMES].line,
            f"outcomes lists {len(node.items):,} outcomes; at most {MAX_OUTCOMES} are allowed",
        )
    outcomes, lines = [], {}
    for item in node.items:
        outcome = _outcome(item, game)
        key = outcome.name.casefold()
        if key in lines:
            raise Mistake(
                item.entries["name"][1].line,
                f"outcome name {shown(outcome.name)} is given twice (first on line "
                f"{lines[key]}; names are compared ignoring case)",
            )
        lines[key] = item.entries["name"][1].line
        outcomes.append(outcome)
    return tuple(outcomes)


def _outcome(node: Node, game: str) -> Outcome:
    """One outcome: its name, conditions and payout."""
    entries = fields(node, "an outcome", OUTCOME_FIELDS, OUTCOME_FIELDS)
    name = plain_text(entries["name"][1], "outcome name", MAX_NAME)
    for reserved, line in RESERVED_NAMES.items():
        if name.casefold() == reserved.casefold():
            raise Mistake(
                entries["name"][1].line,
                f"outcome name {shown(name)} is reserved for the par sheet's {line}; "
                "choose another",
            )
    conditions = when(entries["when"][1], game)
    pays, pays_text = read_pays(entries["pays"][1])
    return Outcome(name, pays, pays_text, conditions, node.line)


__all__ = [
    "CARDS",
    "CARDS_DEALT",
    "CARD_VALUES",
    "CONDITIONS",
    "DEFAULT_DECKS",
    "FIELDS",
    "GAMES",
    "HANDS",
    "HAND_CARDS",
    "LOSES",
    "MARGINS",
    "MAX_DEFINITION_BYTES",
    "MAX_NESTING",
    "MAX_OUTCOMES",
    "MAX_PAYS",
    "OUTCOME_FIELDS",
    "POKER_CLASSES",
    "REQUIRED",
    "TOTALS",
    "WINNERS",
    "Condition",
    "Outcome",
    "SideBet",
    "builtin_names",
    "load",
    "parse",
]
