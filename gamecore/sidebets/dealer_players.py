"""The player's cards of a bet on the dealer's final hand, counted after the dealer's hand.

Central idea
------------
A deal's ways are a product of falling counts, one per set of cards, whatever order the
cards are counted in. Counted after a final hand of the dealer holding ``m[c]`` cards of
point class ``c`` (the up card and hole card included), the player's cards of classes ``c1``
and ``c2`` have ``(n[c1] - m[c1]) (n[c2] - m[c2] - [c1 = c2])`` ways, ``n`` the shoe's
cards of each class. Summed over the hands of one key with weights ``w`` that is a
polynomial in three moments of the hands, ``M0 = sum w``, ``M1[c] = sum w m[c]`` and
``M2[c, c'] = sum w m[c] m[c']``:

    n1 n2' M0 - n2' M1[c1] - n1 M1[c2] + M2[c1, c2]

(``n2' = n[c2] - [c1 = c2]``). The dealer's hands are walked once for every up card and
hole card, each final hand adding its weight to its key's moments, and the player's cards
are settled per key, where the count dealt every pair of them first and walked the dealer's
hands under each: a hundred times the walks, or thousands where they are read by kind.

A player's card read finer than its class (a rank, a suit: a *kind* ``k`` of class ``c``)
is counted by its class and then shared out. Where the dealer draws by class, the dealer's
cards of a class are interchangeable within it, so the ways of the player's kinds are the
ways of their classes times ``f / g``: ``f = n[k1] (n[k2] - [k1 = k2])`` the kinds' own
falling counts and ``g = n1 n2'`` their classes'; both counts are products of the same
dealer's ways from the shoe less the player's two classes, so the quotient is exact (an
integer division, or a product by the inverse of ``g`` modulo a prime). ``n`` is then the
shoe less the dealer's cards dealt by kind (an up card whose suit is read). A hand of one
suit or colour is drawn from that suit's cards of a class, which a player's suit or rank
would cut across: there the player's cards are counted after it only where they are read
at their class (a total, or ranks listed by whole point classes). At each deal the choices
are settled a group of answers at a time (:mod:`gamecore.sidebets.dealer_shares`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from gamecore import cards
from gamecore.sidebets.deal import (
    BJ_HOLE,
    BJ_P1,
    BJ_P2,
    BJ_UP,
    FACTS,
    NATURAL_0,
    TOTAL_0,
    blackjack_facts,
)
from gamecore.sidebets.dealer_shares import PlayersDeal, PlayerTests
from gamecore.sidebets.dealer_words import READS_COLOURED, READS_SUITED
from gamecore.sidebets.definition import CARDS, SideBet
from gamecore.sidebets.program import (
    COARSE,
    COLOUR,
    NATURAL_LISTED,
    RANK,
    SUIT,
    TEST,
    TESTS,
    VALUE,
    A,
    Classes,
    Program,
    ranks_by_points,
)

#: Point classes a player's card is read at (the draw classes where draws are by class).
_CLASSES = 10
#: Columns of a key's moments: ``M0``, then ``M1`` by class, then ``M2`` by pair of classes.
MOMENTS = 1 + _CLASSES + _CLASSES * _CLASSES
#: A player's card not dealt, as a choice.
_NOT_DEALT = (-1, -1, (-1, -1, -1, -1), -1)
#: Tests on the cards a group's answers hold, one bit each.
_ANSWER_BITS = 63
#: A blackjack deal's attribute rows and card positions (as the counts hold it).
_ATTRIBUTES, _POSITIONS = 4, 4


class PlayersAfter(NamedTuple):
    """The player's cards counted after the dealer's final hand.

    Attributes
    ----------
    active : int
        1 where the player's cards named are counted after the dealer's hand; 0: the count
        deals them first.
    positions : numpy.ndarray
        int64 (2,): the player's card positions counted after (-1: not dealt).
    start : numpy.ndarray
        int64 (groups + 1,): group ``g``'s choices are rows ``start[g]`` up to
        ``start[g + 1]``.
    rows : numpy.ndarray
        int64 (rows,): each row's pair of classes, an index into :attr:`pairs`.
    kinds : numpy.ndarray
        int64 (rows, 2): each row's kinds (-1 for a card counted at its class or not
        dealt).
    pairs : numpy.ndarray
        int64 (class pairs, 2): the pairs of classes the rows hold (-1: one card).
    shown : numpy.ndarray
        int64 (groups, 2, 4): the point class, rank, suit and colour each group's cards are
        dealt with for the tests (every row of a group answers them alike).
    counts : numpy.ndarray
        int64 (classes,): the shoe's cards of each class.
    kind_counts, kind_class : numpy.ndarray
        int64 (kinds,): the shoe's cards of each kind, and its class.
    tests : PlayerTests
        The tests on cards and the choices they are asked of.
    deal : PlayersDeal
        The shares for the deal being walked.
    """

    active: int
    positions: np.ndarray
    start: np.ndarray
    rows: np.ndarray
    kinds: np.ndarray
    pairs: np.ndarray
    shown: np.ndarray
    counts: np.ndarray
    kind_counts: np.ndarray
    kind_class: np.ndarray
    tests: PlayerTests
    deal: PlayersDeal


def players_after(bet: SideBet, program: Program, shoe: Classes, plan: tuple) -> PlayersAfter:
    """How the player's cards of a bet on the dealer's final hand are counted.

    Parameters
    ----------
    bet : SideBet
        The checked definition.
    program : Program
        Its compiled form: a player's card at level 0 is read at its point class alone.
    shoe : Classes
        The shoe's classes and kinds for the bet.
    plan : DealerPlan
        :func:`gamecore.sidebets.dealer_final.dealer_plan`: whether the bet reads the
        dealer's final hand, whether the dealer draws by rank, and which hands are walked
        a suit or a colour at a time.

    Returns
    -------
    PlayersAfter
        Active where some player card is named, the dealer draws by point class and each
        card named is read at its class (by points, or by ranks listed as whole point
        classes), or, where no hand is walked a suit or colour at a time, by kind.
    """
    levels = program.levels
    named = [p for p in (BJ_P1, BJ_P2) if levels[p] >= 0]
    by_points = ranks_by_points(bet)
    at_class = {p: levels[p] == 0 or CARDS["blackjack"][p] in by_points for p in named}
    walks_apart = plan.reads & (READS_SUITED | READS_COLOURED)
    card_tests = np.flatnonzero(program.tests[:, TEST] < TESTS.index("dealer_bust"))
    if (
        not plan.active
        or plan.by_rank
        or not named
        or (walks_apart and not all(at_class.values()))
        or card_tests.size > _ANSWER_BITS
    ):
        return _players(shoe, [], [], (program, card_tests, [], 0))
    choices = [_choices(shoe, levels[p] == 0, at_class[p]) for p in named]
    # A group: the rows alike in every fact a test reads of the player's cards (the total
    # and natural where a test reads them; the rank, suit and colour of a card read by them)
    read = _facts_read(program)
    groups: dict[tuple, list[tuple]] = {}
    for first in choices[0]:
        for second in choices[1] if len(named) == 2 else [_NOT_DEALT]:
            facts = _player_facts(first[0], second[0])
            key = (
                tuple(fact for fact, is_read in zip(facts, read, strict=True) if is_read),
                first[2][1:] if levels[named[0]] else 0,
                second[2][1:] if len(named) == 2 and levels[named[1]] else 0,
            )
            groups.setdefault(key, []).append((first, second))
    deals = math.prod(int(shoe.sizes[levels[p]]) if levels[p] >= 0 else 1 for p in (BJ_UP, BJ_HOLE))
    return _players(shoe, named, list(groups.values()), (program, card_tests, choices, deals))


def _players(
    shoe: Classes, named: list[int], groups: list[list[tuple]], asked: tuple
) -> PlayersAfter:
    """The arrays of :class:`PlayersAfter` for groups of choice pairs (``asked``: the
    program, its test rows on cards, each player's card's choices, and the deals of the up
    card and hole card, 0 where inactive)."""
    program, card_tests, choices, deals = asked
    pairs: dict[tuple[int, int], int] = {}
    start, rows, kinds, shown = [0], [], [], []
    for members in groups:
        for first, second in members:
            rows.append(pairs.setdefault((first[0], second[0]), len(pairs)))
            kinds.append((first[1], second[1]))
        start.append(len(rows))
        shown.append([members[0][0][2], members[0][1][2]])
    kind_counts = np.asarray(shoe.counts[1, : shoe.sizes[1]], dtype=np.int64)

    def table(values: list, *shape: int) -> np.ndarray:
        return np.array(values, dtype=np.int64).reshape(len(values), *shape)

    return PlayersAfter(
        int(deals > 0),
        np.array(named + [-1] * (2 - len(named)), dtype=np.int64),
        np.array(start, dtype=np.int64),
        table(rows),
        table(kinds, 2),
        table(list(pairs), 2),
        table(shown, 2, _ATTRIBUTES),
        np.asarray(shoe.counts[0, :_CLASSES], dtype=np.int64),
        kind_counts,
        np.asarray(shoe.attributes[1, COARSE, : shoe.sizes[1]], dtype=np.int64),
        _player_tests(
            (program, card_tests), named, choices, [(m[0][0][3], m[0][1][3]) for m in groups]
        ),
        PlayersDeal(
            np.zeros(_CLASSES, dtype=np.int64),
            np.zeros(kind_counts.size, dtype=np.int64),
            *(np.zeros(len(pairs), dtype=np.int64) for _ in range(2)),
            np.zeros(len(rows), dtype=np.int64),
            np.zeros(len(pairs), dtype=np.int64),
            np.zeros((deals, len(groups) + 1), dtype=np.int32),
            np.zeros(1, dtype=np.int64),
            np.zeros(len(groups), dtype=np.int64),
            np.zeros((len(groups), len(pairs)), dtype=np.int64),
            np.full((3, _slots(len(groups))), -1, dtype=np.int64),
            np.zeros((2, max([len(c) for c in choices] + [1])), dtype=np.int64),
            np.zeros(len(groups), dtype=np.int64),
        ),
    )


def _player_tests(
    asked: tuple, named: list[int], choices: list[list[tuple]], chosen: list
) -> PlayerTests:
    """The tests on cards (``asked``: the program and its rows of them), which of the
    player's cards named each reads (bit ``i`` the ``i``-th named), and each group's
    choices (``chosen``: the choice index of each card of its first pair)."""
    program, card_tests = asked
    tests = program.tests
    reads = []
    for row in card_tests:
        read = _player_cards_read(tests[row])
        reads.append(sum(1 << i for i, p in enumerate(named) if read >> p & 1))
    shown = np.full((2, max([len(c) for c in choices] + [1]), _ATTRIBUTES), -1, dtype=np.int64)
    for i, position_choices in enumerate(choices):
        for choice in position_choices:
            shown[i, choice[3]] = choice[2]
    return PlayerTests(
        card_tests.astype(np.int64),
        np.array(reads, dtype=np.int64),
        np.array(chosen, dtype=np.int64).reshape(len(chosen), 2),
        shown,
        np.array([len(c) for c in choices] + [0] * (2 - len(choices)), dtype=np.int64),
    )


def _player_cards_read(row: np.ndarray) -> int:
    """Which of the player's two cards a test row reads (bit :data:`BJ_P1`, bit
    :data:`BJ_P2`; both where it reads the player's total or natural)."""
    code, a, b, c = (int(v) for v in row[TEST : TEST + 4])
    name = TESTS[code]
    if name.startswith("same_"):
        return a & 3
    if name in ("rank", "suit", "colour"):
        return 1 << a if a < 2 else 0
    if name == "total":
        return 3 if a == 0 else 0
    if name == "natural":
        return 3 if b != NATURAL_LISTED or a & 1 else 0
    if name == "poker_hand":
        return sum(1 << p for p in (a, b, c) if p < 2)
    return 3  # every other test is read with both


def _slots(groups: int) -> int:
    """Slots of the table finding a deal's group of answers: a power of two, at least
    twice the groups."""
    return 1 << (2 * groups).bit_length()


def _choices(shoe: Classes, by_points: bool, at_class: bool) -> list[tuple]:
    """A player's card's choices ``(class, kind or -1, shown attributes, index)``: its point
    classes where it is read at them (a representative rank shown where ranks listed by
    whole classes read it), else the bet's kinds."""
    if at_class:
        first_rank = [cards.BLACKJACK_CLASSES.index(c) for c in range(_CLASSES)]
        return [
            (c, -1, (c, -1 if by_points else first_rank[c], -1, -1), c) for c in range(_CLASSES)
        ]
    attributes = shoe.attributes[1]
    return [
        (
            int(attributes[VALUE, k]),
            k,
            tuple(int(attributes[a, k]) for a in (VALUE, RANK, SUIT, COLOUR)),
            k,
        )
        for k in range(int(shoe.sizes[1]))
    ]


def _facts_read(program: Program) -> tuple[bool, bool]:
    """Whether some test reads the player's total, and some test reads a natural."""
    code, hand = program.tests[:, TEST], program.tests[:, A]
    total = bool(((code == TESTS.index("total")) & (hand == 0)).any())
    return total, bool((code == TESTS.index("natural")).any())


def _player_facts(first: int, second: int) -> tuple[int, int]:
    """The player's total and natural of two cards of point classes ``first`` and
    ``second`` (-1: not dealt), by the one rule of :func:`deal.blackjack_facts`."""
    dealt = np.full((_ATTRIBUTES, _POSITIONS), -1, dtype=np.int64)
    dealt[VALUE, BJ_P1], dealt[VALUE, BJ_P2] = first, second
    facts = np.zeros(FACTS, dtype=np.int64)
    blackjack_facts(dealt, facts)
    return int(facts[TOTAL_0]), int(facts[NATURAL_0])
