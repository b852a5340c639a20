"""The words of a blackjack side bet on the dealer's final hand: the ``dealer_final``
condition and the ``dealer`` field (the drawing rule), read strictly from the file.

Central idea
------------
The dealer's final hand is described by a few optional fields, each read on its own into
one condition of its own (``bust``, ``total``, ``cards``, ``suited``, ``ranks``, ``last``),
so that a compiled test reads one fact of the hand; the drawing rule the hand is dealt by
is a field of the definition (:class:`DealerRule`), never of an outcome, so every outcome
of a bet reads the same hand. Each value is checked where it is written: a mistake is a
:class:`~gamecore.sidebets.yamlnodes.Mistake` naming the line, the value and what is
allowed, with the name meant where one is near (:func:`~gamecore.sidebets.yamlnodes.near`).
docs/side-bets.md is the format.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from gamecore.cards import RANKS
from gamecore.errors import shown
from gamecore.sidebets.yamlnodes import (
    Mistake,
    Node,
    choice,
    distinct,
    expect,
    fields,
    integer,
    one_or_many,
)

#: The fields of a ``dealer_final`` condition (at least one is given).
FINAL_FIELDS = ("bust", "total", "cards", "suited", "coloured", "ranks", "last")
#: The final totals a ``total`` names, inclusive: the dealer stands on 17..21 and busts at
#: 22..26 (16 and a ten-valued card).
FINAL_TOTALS = (17, 26)
#: The most cards a dealer's final hand holds under either soft-17 rule from any shoe
#: (six aces, a six, four aces and one more card: 12 cards standing on soft 17; seven
#: aces, a five, four aces and one more: 13 hitting it). tests check it by enumeration.
MAX_DEALER_CARDS = 13
#: The card counts a ``cards`` names, inclusive.
HAND_SIZES = (2, MAX_DEALER_CARDS)
#: The words of a yes-or-no field.
YES_NO = ("yes", "no")
#: Bits of :attr:`gamecore.sidebets.dealer_final.DealerPlan.reads`: a condition reads the
#: hand's suits (``suited``), its colours (``coloured``), its number of cards (``cards``),
#: its last card (``last``).
READS_SUITED, READS_COLOURED, READS_CARDS, READS_LAST = 1, 2, 4, 8
#: The fields of the definition's ``dealer`` mapping, and their words.
RULE_FIELDS = {"soft_17": ("hits", "stands"), "peek": YES_NO}


class DealerRule(NamedTuple):
    """How the dealer draws: the rule set a bet on the dealer's final hand is dealt by.

    Attributes
    ----------
    hits_soft_17 : bool
        The dealer hits a soft 17 (H17); False: stands on it (S17, the default, as the
        suite's blackjack rules, :class:`gamecore.blackjack.rules.StandardBlackjackRules`).
    peek : bool
        The dealer checks for a natural under an ace or a ten up before anyone plays (the
        default). The dealer's final hand is the same either way (a natural is a two-card 21
        on which the dealer draws nothing); it decides whether other seats draw before the
        natural is seen, which the exact model does not deal (no seat draws first).
    """

    hits_soft_17: bool = False
    peek: bool = True

    def words(self) -> str:
        """The rule in words, as the par sheet prints it.

        Returns
        -------
        str
            E.g. ``"the dealer stands on soft 17 and peeks for a natural under an ace or a
            ten"``.
        """
        soft = "hits soft 17" if self.hits_soft_17 else "stands on soft 17"
        peek = (
            "peeks for a natural under an ace or a ten"
            if self.peek
            else "does not peek (no hole-card check)"
        )
        return f"the dealer {soft} and {peek}"


def read_rule(entries: dict, game: str) -> DealerRule:
    """The definition's ``dealer`` field: ``{soft_17: hits|stands, peek: yes|no}``.

    Parameters
    ----------
    entries : dict
        The definition's fields (:func:`gamecore.sidebets.yamlnodes.fields`): ``dealer``'s
        line and value, a mapping of one or both fields, where it is given.
    game : str
        The bet's game (the field is for blackjack only).

    Returns
    -------
    DealerRule
        The rule, a field not given at its default (stands on soft 17, peeks).
    """
    if "dealer" not in entries:
        return DealerRule()
    line, node = entries["dealer"]
    if game != "blackjack":
        raise Mistake(line, "the field 'dealer' (how the dealer draws) is for blackjack only")
    entries = fields(node, "dealer", tuple(RULE_FIELDS), ())
    if not entries:
        raise Mistake(node.line, "dealer is an empty mapping; give soft_17, peek or both")
    words = {
        key: choice(value, f"dealer {key}", RULE_FIELDS[key]) for key, (_, value) in entries.items()
    }
    default = DealerRule()
    return DealerRule(
        words["soft_17"] == "hits" if "soft_17" in words else default.hits_soft_17,
        words["peek"] == "yes" if "peek" in words else default.peek,
    )


def read_final(node: Node, line: int) -> list[tuple[str, tuple, int]]:
    """A ``dealer_final`` condition's fields, each read to its normal form.

    Parameters
    ----------
    node : Node
        The condition's value: a mapping of one or more of :data:`FINAL_FIELDS`.
    line : int
        The condition's line.

    Returns
    -------
    list of tuple
        ``(field, values, line)`` per field in file order: ``bust``, ``suited``, ``coloured``
        ``("yes",)`` or ``("no",)``; ``total`` and ``cards`` the numbers accepted (``cards:
        8 or more`` lists 8..13); ``ranks`` the hand's ranks in any order, sorted as
        :data:`gamecore.cards.RANKS`; ``last`` the ranks the hand's last card may be.
    """
    if node.kind != "mapping" or not node.entries:
        raise Mistake(
            node.line if node.kind != "mapping" else line,
            "dealer_final must be a non-empty mapping of the dealer's final hand's fields "
            f"({', '.join(FINAL_FIELDS)}), e.g. dealer_final: {{bust: yes, cards: 8 or more}}",
        )
    read = []
    for key, (key_line, value) in fields(node, "dealer_final", FINAL_FIELDS, ()).items():
        read.append((key, _READERS[key](key, value), key_line))
    return read


def final_reader(condition: type):
    """The reader of ``dealer_final`` the definition's table of readers holds.

    Parameters
    ----------
    condition : type
        :class:`gamecore.sidebets.definition.Condition`.

    Returns
    -------
    callable
        ``(kind, node, line, game) -> list``: a condition per field written, of the hand
        ``dealer``, its values the field's name then the field's values (:func:`read_final`).
    """

    def read(kind: str, node: Node, line: int, game: str) -> list:
        return [
            condition(kind, hands=("dealer",), values=(field, *values), line=at)
            for field, values, at in read_final(node, line)
        ]

    return read


def _yes_no(key: str, node: Node) -> tuple:
    return (choice(node, f"dealer_final {key}", YES_NO),)


def _numbers(key: str, node: Node) -> tuple:
    """``total`` or ``cards``: one number, a list, or (``cards``) ``N or more``."""
    low, high = FINAL_TOTALS if key == "total" else HAND_SIZES
    what = f"dealer_final {key}"
    if node.kind == "scalar" and " or " in node.text:
        if key != "cards":
            raise Mistake(node.line, f"{what}: 'or more' is for cards; list the totals")
        match = re.fullmatch(r"(\S+) or more", node.text)
        if not match:
            raise Mistake(
                node.line,
                f"{what} {shown(node.text)} is not 'N or more' (e.g. 8 or more); write a "
                f"number from {low} to {high}, a list of them, or 'N or more'",
            )
        first = integer(Node("scalar", node.line, text=match.group(1)), what, low, high)
        return tuple(range(first, high + 1))
    nodes = one_or_many(node, what)
    return distinct([integer(item, what, low, high) for item in nodes], nodes, what)


def _ranks(key: str, node: Node) -> tuple:
    """``ranks`` (the hand's ranks, any order, repeats meant) or ``last`` (distinct)."""
    what = f"dealer_final {key}"
    nodes = one_or_many(node, what)
    ranks = [choice(item, f"{what} rank", RANKS) for item in nodes]
    if key == "last":
        return distinct(ranks, nodes, what)
    expect(node, "list", f"{what} (the hand's ranks, e.g. [8, 8, 8])")
    if not HAND_SIZES[0] <= len(ranks) <= HAND_SIZES[1]:
        raise Mistake(
            node.line,
            f"{what} lists {len(ranks)} ranks; a dealer's final hand holds "
            f"{HAND_SIZES[0]} to {HAND_SIZES[1]} cards",
        )
    return tuple(sorted(ranks, key=RANKS.index))


_READERS = {
    "bust": _yes_no,
    "suited": _yes_no,
    "coloured": _yes_no,
    "total": _numbers,
    "cards": _numbers,
    "ranks": _ranks,
    "last": _ranks,
}


#: The ten-valued ranks: one point class, told apart only where a condition names one alone.
TEN_RANKS = ("10", "J", "Q", "K")


def draws_read(conditions) -> set[str]:
    """What the dealer's drawn cards are read for beyond their point class: ``suit`` where a
    condition reads ``suited`` or ``coloured``, ``rank`` where ``ranks`` names a ten-valued
    rank or ``last`` names some ten-valued ranks but not all (else the point class tells the
    ranks apart).

    Parameters
    ----------
    conditions : iterable of Condition
        Every condition of the bet.

    Returns
    -------
    set of str
        A subset of ``{"suit", "rank"}``.
    """
    read = set()
    for condition in conditions:
        if condition.kind != "dealer_final":
            continue
        field, values = condition.values[0], condition.values[1:]
        if field in ("suited", "coloured"):
            read.add("suit")
        tens = set(values) & set(TEN_RANKS)
        if (field == "ranks" and tens) or (field == "last" and tens and tens != set(TEN_RANKS)):
            read.add("rank")
    return read
