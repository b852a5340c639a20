"""One deal as every side-bet consumer reads it: the cards dealt, the facts of the round
(totals, naturals, winner, margin, cards dealt) and the outcome a bet pays on it.

Central idea
------------
A deal is a small table ``dealt[attribute, position]`` (point class, rank, suit, colour of
each card; -1 where not dealt or not told apart) and a row of facts. The exact enumeration
(:mod:`gamecore.sidebets.exact`) and the simulator (:mod:`gamecore.sidebets.sim`) fill them
the same way and call the same :func:`outcome_of`, so a figure and its simulated twin read
one model of the round. Baccarat rounds are dealt by punto banco's tableau
(:data:`gamecore.baccarat.tableau.DRAWING`).
"""

from __future__ import annotations

import numpy as np

from gamecore import cards
from gamecore._jit import kernel, kernel_face
from gamecore.sidebets.program import (
    COLOUR,
    HOLDS,
    NATURAL_ANY,
    NATURAL_LISTED,
    NATURAL_NONE,
    NO,
    RANK,
    SUIT,
    VALUE,
    YES,
)

#: Columns of a deal's facts: each hand's total, the winner (0 player or first hand, 1
#: banker or dealer, 2 tie), the margin, the cards dealt, each hand's card count, whether
#: each hand is a natural; then the blackjack dealer's final hand where a bet reads it
#: (:mod:`gamecore.sidebets.dealer_final`): its total (22 and over a bust), its cards,
#: whether all are of one suit, its cards' classes packed (``program.RANK_BITS`` a class),
#: its last card's class, and whether all are of one colour.
(
    TOTAL_0,
    TOTAL_1,
    WINNER,
    MARGIN,
    CARDS_DEALT,
    HAND_CARDS_0,
    HAND_CARDS_1,
    NATURAL_0,
    NATURAL_1,
    FINAL_TOTAL,
    FINAL_CARDS,
    FINAL_SUITED,
    FINAL_CLASSES,
    FINAL_LAST,
    FINAL_COLOURED,
) = range(15)
FACTS = 15
#: Baccarat's card positions in dealing order (``definition.CARDS["baccarat"]``).
P1, B1, P2, B2, P3, B3 = range(6)
#: Blackjack's card positions (``definition.CARDS["blackjack"]``).
BJ_P1, BJ_P2, BJ_UP, BJ_HOLE = range(4)
#: Test codes, in :data:`gamecore.sidebets.program.TESTS` order.
(
    _SAME_RANK,
    _SAME_SUIT,
    _SAME_COLOUR,
    _SAME_CARD,
    _RANK,
    _SUIT,
    _COLOUR,
    _TOTAL,
    _NATURAL,
    _WINNER,
    _MARGIN,
    _CARDS_DEALT,
    _HAND_CARDS,
    _POKER_HAND,
    _DEALER_BUST,
    _DEALER_TOTAL,
    _DEALER_CARDS,
    _DEALER_SUITED,
    _DEALER_RANKS,
    _DEALER_LAST,
    _DEALER_COLOURED,
) = range(21)
#: The lowest bust total.
_BUST = 22
#: Three-card poker classes, in ``definition.POKER_CLASSES`` order.
_SUITED_TRIPS, _STRAIGHT_FLUSH, _TRIPS, _STRAIGHT, _FLUSH, _PAIR, _HIGH_CARD = range(7)
#: The rank indices' sum of Q-K-A (A 0, Q 11, K 12): the one straight not of three
#: consecutive indices (three distinct ranks holding an ace and a king sum to 23 only there).
_QUEEN_KING_ACE = 0 + 11 + 12
_KING = 12


@kernel
def _baccarat_facts(dealt, facts):
    player = (dealt[VALUE, P1] + dealt[VALUE, P2]) % 10
    banker = (dealt[VALUE, B1] + dealt[VALUE, B2]) % 10
    facts[NATURAL_0] = player >= 8
    facts[NATURAL_1] = banker >= 8
    facts[HAND_CARDS_0] = 2
    facts[HAND_CARDS_1] = 2
    if dealt[VALUE, P3] >= 0:
        player = (player + dealt[VALUE, P3]) % 10
        facts[HAND_CARDS_0] = 3
    if dealt[VALUE, B3] >= 0:
        banker = (banker + dealt[VALUE, B3]) % 10
        facts[HAND_CARDS_1] = 3
    facts[TOTAL_0] = player
    facts[TOTAL_1] = banker
    facts[CARDS_DEALT] = facts[HAND_CARDS_0] + facts[HAND_CARDS_1]
    facts[WINNER] = 0 if player > banker else (1 if banker > player else 2)
    facts[MARGIN] = abs(player - banker)


@kernel(inline=True)
def _two_card_total(first, second):
    """A blackjack two-card total from point classes (0 the ace, 9 ten-valued): an ace
    counts 11 where that does not pass 21."""
    hard = first + second + 2
    if (first == 0 or second == 0) and hard + 10 <= 21:
        return hard + 10
    return hard


@kernel
def _blackjack_facts(dealt, facts):
    for hand in range(2):
        first, second = dealt[VALUE, 2 * hand], dealt[VALUE, 2 * hand + 1]
        total = _two_card_total(first, second) if first >= 0 and second >= 0 else 0
        facts[TOTAL_0 + hand] = total
        facts[NATURAL_0 + hand] = total == 21


@kernel(inline=True)
def _all_same(dealt, attribute, mask):
    """Whether every card of ``mask`` is dealt and they share ``attribute``."""
    common = -2
    for position in range(dealt.shape[1]):
        if mask >> position & 1:
            value = dealt[attribute, position]
            if value < 0:
                return False
            if common == -2:
                common = value
            elif value != common:
                return False
    return True


@kernel(inline=True)
def _is_in(value, mask):
    return value >= 0 and (mask >> value) & 1 == 1


@kernel(inline=True)
def _poker_class(dealt, first, second, third):
    """The three-card poker class of the cards at three positions (aces low or high:
    A-2-3 and Q-K-A are straights, K-A-2 is not); -1 where one is not dealt (a condition
    on a third card holds only where it is dealt)."""
    a, b, c = dealt[RANK, first], dealt[RANK, second], dealt[RANK, third]
    if a < 0 or b < 0 or c < 0:
        return -1
    flush = dealt[SUIT, first] == dealt[SUIT, second] == dealt[SUIT, third]
    if a == b == c:
        return _SUITED_TRIPS if flush else _TRIPS
    pair = a == b or b == c or a == c
    if not pair:
        low, high = min(a, b, c), max(a, b, c)
        if high - low == 2 or (low == 0 and high == _KING and a + b + c == _QUEEN_KING_ACE):
            return _STRAIGHT_FLUSH if flush else _STRAIGHT
    if flush:  # a suited pair (from more than one deck) is a flush: the better class
        return _FLUSH
    return _PAIR if pair else _HIGH_CARD


@kernel(inline=True)
def _holds(tests, row, dealt, facts):
    """Whether test row ``row``, ``(outcome, test, a, b, c, d)``, holds on the deal."""
    code, a, b = tests[row, 1], tests[row, 2], tests[row, 3]
    if code == _SAME_RANK:
        return _all_same(dealt, RANK, a)
    if code == _SAME_SUIT:
        return _all_same(dealt, SUIT, a)
    if code == _SAME_COLOUR:
        return _all_same(dealt, COLOUR, a)
    if code == _SAME_CARD:
        return _all_same(dealt, RANK, a) and _all_same(dealt, SUIT, a)
    if code == _RANK:
        return _is_in(dealt[RANK, a], b)
    if code == _SUIT:
        return _is_in(dealt[SUIT, a], b)
    if code == _COLOUR:
        return _is_in(dealt[COLOUR, a], b)
    if code == _TOTAL:
        return _is_in(facts[TOTAL_0 + a], b)
    if code == _NATURAL:
        naturals = facts[NATURAL_0] + 2 * facts[NATURAL_1]
        if b == NATURAL_NONE:
            return naturals == 0
        if b == NATURAL_ANY:
            return naturals != 0
        return b == NATURAL_LISTED and naturals & a == a
    if code == _WINNER:
        return _is_in(facts[WINNER], a)
    if code == _MARGIN:
        return _is_in(facts[MARGIN], a)
    if code == _CARDS_DEALT:
        return _is_in(facts[CARDS_DEALT], a)
    if code == _HAND_CARDS:
        return _is_in(facts[HAND_CARDS_0 + a], b)
    if code == _POKER_HAND:
        return _is_in(_poker_class(dealt, a, b, tests[row, 4]), tests[row, 5])
    return _holds_dealer(code, a, facts)


@kernel(inline=True)
def _holds_dealer(code, a, facts):
    """Whether a test of the dealer's final hand holds (``a``: its yes (1) or no (0), mask
    or packed classes)."""
    if code == _DEALER_BUST:
        return (facts[FINAL_TOTAL] >= _BUST) == (a == 1)
    if code == _DEALER_TOTAL:
        return _is_in(facts[FINAL_TOTAL], a)
    if code == _DEALER_CARDS:
        return _is_in(facts[FINAL_CARDS], a)
    if code == _DEALER_SUITED:
        return facts[FINAL_SUITED] == a
    if code == _DEALER_RANKS:
        return facts[FINAL_CLASSES] == a
    if code == _DEALER_LAST:
        return _is_in(facts[FINAL_LAST], a)
    if code == _DEALER_COLOURED:
        return facts[FINAL_COLOURED] == a
    return False


@kernel
def _outcome_of(tests, outcomes, dealt, facts, matched):
    paid = outcomes
    first = 0
    for outcome in range(outcomes):
        row = first  # an outcome's reading starts at its first row
        while row >= 0:
            row = tests[row, YES] if _holds(tests, row, dealt, facts) else tests[row, NO]
        matched[outcome] = row == HOLDS
        if row == HOLDS and paid == outcomes:
            paid = outcome
        while first < tests.shape[0] and tests[first, 0] == outcome:
            first += 1
    return paid


def card_table(game: str) -> np.ndarray:
    """Each card code's attributes as a deal's table holds them.

    Parameters
    ----------
    game : str
        ``"baccarat"`` or ``"blackjack"`` (which point classes: baccarat 0..9, blackjack
        A, 2..9, ten-valued as 0..9).

    Returns
    -------
    numpy.ndarray
        int64 (4, 52): rows point class, rank, suit, colour (the rows of
        :data:`gamecore.sidebets.program.VALUE` ...) of code ``rank * 4 + suit``.
    """
    points = cards.BACCARAT_POINTS if game == "baccarat" else cards.BLACKJACK_CLASSES
    suits = len(cards.SUITS)
    table = np.zeros((4, len(cards.RANKS) * suits), dtype=np.int64)
    for r in range(len(cards.RANKS)):
        for s in range(suits):
            code = r * suits + s
            table[VALUE, code] = points[r]
            table[RANK, code] = r
            table[SUIT, code] = s
            table[COLOUR, code] = cards.SUIT_COLOUR[s]
    return table


# A face per kernel another module calls: each is called once per deal, as a call (inlined
# into every leaf of an enumeration, the tests' interpreter made compiling take minutes).


@kernel_face(_baccarat_facts)
def baccarat_facts(dealt: np.ndarray, facts: np.ndarray) -> None:
    """Fill ``facts`` from a baccarat round's point classes.

    Parameters
    ----------
    dealt : numpy.ndarray
        int64 (4, 6): point class, rank, suit, colour of player_1, banker_1, player_2,
        banker_2, player_3, banker_3; a third card not dealt has point class -1.
    facts : numpy.ndarray
        int64 (:data:`FACTS`,), overwritten: totals 0..9, winner (0 Player, 1 Banker,
        2 tie), margin, cards dealt, each hand's cards, each hand's natural (0 or 1).
    """
    _baccarat_facts(dealt, facts)


@kernel_face(_blackjack_facts)
def blackjack_facts(dealt: np.ndarray, facts: np.ndarray) -> None:
    """Fill ``facts`` from a blackjack deal's point classes.

    Parameters
    ----------
    dealt : numpy.ndarray
        int64 (4, 4): point class (0 the ace .. 9 ten-valued), rank, suit, colour of
        player_1, player_2, dealer_up, dealer_hole; -1 for a card not dealt.
    facts : numpy.ndarray
        int64 (:data:`FACTS`,), overwritten: each hand's two-card total (an ace counting
        11 where that does not pass 21; 0 where the hand is not dealt) and whether it is a
        natural; the baccarat-only columns are left as they were.
    """
    _blackjack_facts(dealt, facts)


@kernel_face(_poker_class)
def poker_class(dealt: np.ndarray, first: int, second: int, third: int) -> int:
    """The three-card poker class of the cards at three positions of a deal.

    Parameters
    ----------
    dealt : numpy.ndarray
        int64 (4, positions): the deal's cards (rank and suit read).
    first, second, third : int
        The positions.

    Returns
    -------
    int
        The class's index in ``definition.POKER_CLASSES`` (a suited pair is a flush; aces
        low or high: A-2-3 and Q-K-A are straights, K-A-2 is not), or -1 where a card is
        not dealt.
    """
    return int(_poker_class(dealt, first, second, third))


@kernel(inline=True)
def test_holds(tests: np.ndarray, row: int, dealt: np.ndarray, facts: np.ndarray) -> bool:
    """Whether one test row holds on a deal (the rule :func:`outcome_of` reads each row by).

    A public kernel, not a face (gamecore._jit.INLINED_ACROSS_MODULES): the counts that ask
    tests one at a time (each round its own rank and fact tests,
    :mod:`gamecore.sidebets.rounds`; each group of the player's cards at each deal,
    :mod:`gamecore.sidebets.dealer_players`) ask it millions of times, and a call cost more
    than the test.

    Parameters
    ----------
    tests : numpy.ndarray
        int64 (rows, 8): the compiled tests (:class:`gamecore.sidebets.program.Program`).
    row : int
        The row asked.
    dealt : numpy.ndarray
        int64 (4, positions): the deal's cards.
    facts : numpy.ndarray
        int64 (:data:`FACTS`,): the deal's facts.

    Returns
    -------
    bool
        The row's answer.
    """
    return _holds(tests, row, dealt, facts)


@kernel_face(_outcome_of)
def outcome_of(
    tests: np.ndarray, outcomes: int, dealt: np.ndarray, facts: np.ndarray, matched: np.ndarray
) -> int:
    """The outcome a deal is paid on: the first whose conditions hold.

    Parameters
    ----------
    tests : numpy.ndarray
        int64 (rows, 8): the compiled tests, a branching program per outcome
        (:class:`gamecore.sidebets.program.Program`).
    outcomes : int
        The paying outcomes.
    dealt : numpy.ndarray
        int64 (4, positions): the deal's cards.
    facts : numpy.ndarray
        int64 (:data:`FACTS`,): the deal's facts.
    matched : numpy.ndarray
        bool (outcomes,), overwritten: whether each outcome's own tests hold, paid or not
        (an outcome matched but never paid is hidden behind earlier ones).

    Returns
    -------
    int
        The outcome paid, or ``outcomes`` when none holds (the wager loses).
    """
    return int(_outcome_of(tests, outcomes, dealt, facts, matched))
