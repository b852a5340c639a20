"""A checked side bet compiled for the kernels: its conditions as a table of numeric tests,
and the shoe cut into the classes of cards the bet tells apart.

Central idea
------------
A bet is counted at the coarsest detail it needs. Every card of a deal is dealt either
**coarse**, as its point class alone (baccarat 0..9, blackjack A, 2..9, ten: what the game's
totals read), or **fine**, as one *kind*: the cards alike in everything any condition of the
bet reads (rank class, suit or colour, and the point class). Only the cards a rank, suit or
colour condition names are dealt fine. The rank classes are the coarsest that every condition
reading ranks tells apart: the point classes, cut only as the ``rank`` conditions' lists cut
them (``rank: {player_1: K}`` sets the kings apart from the 10, J and Q: 11 classes), every
rank apart where a condition compares ranks or reads the dealer's final hand
(:func:`rank_classes`). Each kind lies inside one point class, so any two card sets a deal
draws from are the same set, nested, or disjoint, and its number of ways stays a product of
remaining counts (:mod:`gamecore.sidebets.deal`).

The conditions become rows ``(outcome, test, a, b, c, d, yes, no)`` of :data:`TESTS` codes
with their arguments as card positions and bit masks of accepted values, and the row to read
next when the test holds (``yes``) or fails (``no``), or the outcome's verdict
(:data:`HOLDS`, :data:`FAILS`): a branching program, so ``any``, ``all`` and ``not`` cost no
more than the tests they read, each test read only while the verdict is open. Data the
kernels read, never code.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from gamecore import cards
from gamecore.sidebets.conditions import COMPOSITES, leaves
from gamecore.sidebets.dealer_words import draws_read
from gamecore.sidebets.definition import CARDS, HANDS, POKER_CLASSES, Condition, SideBet

#: The test codes of a compiled condition.
TESTS = (
    "same_rank",
    "same_suit",
    "same_colour",
    "same_card",
    "rank",
    "suit",
    "colour",
    "total",
    "natural",
    "winner",
    "margin",
    "cards_dealt",
    "hand_cards",
    "poker_hand",
    "dealer_bust",
    "dealer_total",
    "dealer_cards",
    "dealer_suited",
    "dealer_ranks",
    "dealer_last",
    "dealer_coloured",
)
#: Columns of a test row: its outcome, test code, four arguments, and where to go next.
OUTCOME, TEST, A, B, C, D, YES, NO = range(8)
#: The verdicts a row's ``yes`` or ``no`` may lead to instead of another row.
HOLDS, FAILS = -1, -2
#: ``natural`` modes (column ``b`` of its test row).
NATURAL_LISTED, NATURAL_NONE, NATURAL_ANY = 0, 1, 2
#: Winners in a ``winner`` mask's bit order.
WINNERS = ("player", "banker", "tie")
#: Columns of a kind's (or a point class's) attributes in :class:`Classes` ``attributes``.
VALUE, RANK, SUIT, COLOUR, COARSE = range(5)
#: Which card attributes each card condition reads (the point class is always known).
_READS = {
    "same_rank": ("rank",),
    "same_suit": ("suit",),
    "same_colour": ("colour",),
    "same_card": ("rank", "suit"),
    "rank": ("rank",),
    "suit": ("suit",),
    "colour": ("colour",),
    "poker_hand": ("rank", "suit"),
}
#: Conditions that compare cards' ranks with one another: every rank a class of its own.
_COMPARE_RANKS = ("same_rank", "same_card", "poker_hand")


class Classes(NamedTuple):
    """The shoe as the enumeration deals it: point classes (coarse) and kinds (fine).

    Attributes
    ----------
    counts : numpy.ndarray
        int64 (2, width): row 0 the cards of each point class, row 1 of each kind (zeros
        past the level's size).
    attributes : numpy.ndarray
        int64 (2, 5, width): for each level and class, its point class, rank, suit and colour
        indices (-1 where the level does not tell them apart; a rank class of several ranks
        its least rank, every condition answering alike on its ranks) and its point class
        again as the coarse class holding it (column :data:`COARSE`).
    sizes : numpy.ndarray
        int64 (2,): classes at each level.
    """

    counts: np.ndarray
    attributes: np.ndarray
    sizes: np.ndarray


class Program(NamedTuple):
    """A bet compiled: its tests, and how each card position is dealt.

    Attributes
    ----------
    tests : numpy.ndarray
        int64 (rows, 8): ``(outcome, test, a, b, c, d, yes, no)``, grouped by outcome in
        order, each outcome's first row where its reading starts; ``yes``/``no`` a row of
        the same outcome, :data:`HOLDS` or :data:`FAILS`.
    outcomes : int
        Paying outcomes (the losing remainder is index ``outcomes``).
    levels : numpy.ndarray
        int64 (positions,): 1 fine, 0 coarse, -1 not dealt (a blackjack card no condition
        names), in the game's dealing order (:data:`gamecore.sidebets.definition.CARDS`).
    """

    tests: np.ndarray
    outcomes: int
    levels: np.ndarray


def card_reads(bet: SideBet) -> dict[str, set[str]]:
    """What each card of the deal is read for: its ``rank``, ``suit``, ``colour``, or only
    its ``value`` (point class, for a total or a natural).

    Parameters
    ----------
    bet : SideBet
        A checked definition.

    Returns
    -------
    dict
        Card name -> the attributes read, for every card some condition reads (baccarat:
        every card, the tableau reads every point).
    """
    game_cards = CARDS[bet.game]
    reads: dict[str, set[str]] = {}
    if bet.game == "baccarat":
        reads = {name: {"value"} for name in game_cards}
    for outcome in bet.outcomes:
        for condition in leaves(outcome.conditions):
            for name in condition.cards:
                reads.setdefault(name, {"value"}).update(_READS.get(condition.kind, ()))
            for name in _hand_cards(bet.game, _hands_read(condition)):
                reads.setdefault(name, {"value"})
    # The dealer's draws are dealt at a detail every card dealt before them must share: a
    # draw of 'a ten of the up card's suit' needs each earlier card's suit known
    # (gamecore.sidebets.dealer_final), but where no other condition reads a suit or a
    # colour, hands of one suit or colour are counted apart and no card's suit is read
    # (suit_mode 2).
    drawn = draws_read(_every_condition(bet))
    if "suit" in drawn and _suits_apart(reads, drawn, ranks_by_points(bet)):
        drawn -= {"suit"}
    for name in reads:
        reads[name] |= drawn
    return reads


def _every_condition(bet: SideBet) -> list[Condition]:
    """Every plain condition of the bet, inside composites too."""
    return [c for outcome in bet.outcomes for c in leaves(outcome.conditions)]


def _suits_apart(reads: dict[str, set[str]], drawn: set[str], by_points: frozenset[str]) -> bool:
    """Whether suited dealer hands can be counted apart: no condition reads a suit or a
    colour, and no player card is read finer than its point class (a player's rank set
    would cut across the dealer's sets of one suit; ``by_points``: the cards whose ranks
    are read as unions of point classes, :func:`ranks_by_points`)."""
    if set().union(*reads.values()) & {"suit", "colour"}:
        return False
    for name in ("player_1", "player_2"):
        if name not in reads:
            continue
        finer = reads[name] - {"value"} - ({"rank"} if name in by_points else set())
        if finer or "rank" in drawn:
            return False
    return True


def ranks_by_points(bet: SideBet) -> frozenset[str]:
    """The cards whose ranks are read only by ``rank`` lists that are unions of point
    classes (``rank: {player_1: A}``, ``[10, J, Q, K]``): every rank of one point class
    answers them alike, so such a card can be counted at its point class.

    Parameters
    ----------
    bet : SideBet
        A checked definition.

    Returns
    -------
    frozenset of str
        Card names read by some ``rank`` list and by no condition comparing ranks
        (``same_rank``, ``same_card``, ``poker_hand``).
    """
    points = _points(bet.game)
    listed, compared = set(), set()
    for condition in _every_condition(bet):
        if condition.kind in _COMPARE_RANKS:
            compared.update(condition.cards)
        elif condition.kind == "rank":
            named = {cards.RANKS.index(name) for name in condition.values}
            classes_named = {points[r] for r in named}
            whole = all((points[r] in classes_named) == (r in named) for r in range(len(points)))
            (listed if whole else compared).update(condition.cards)
    return frozenset(listed - compared)


def suit_mode(bet: SideBet) -> int:
    """How the dealer's draws read suits: 0 not at all; 1 each draw of the up card's suit
    or not, every card's suit read (another condition reads suits or colours, or a player
    card is read finer than its point class); 2 the hands of one suit or colour counted
    apart, no card's suit read (``suited`` and ``coloured`` alone read suits).

    Parameters
    ----------
    bet : SideBet
        A checked definition.

    Returns
    -------
    int
        0, 1 or 2 (:func:`gamecore.sidebets.dealer_final.count_draws`).
    """
    if "suit" not in draws_read(_every_condition(bet)):
        return 0
    return 1 if "suit" in set().union(*card_reads(bet).values()) else 2


def draws_by_rank(bet: SideBet) -> bool:
    """Whether the dealer's draws are dealt by rank (13 classes), not point class (10).

    Parameters
    ----------
    bet : SideBet
        A checked definition.

    Returns
    -------
    bool
        True where a ``dealer_final`` condition tells ten-valued ranks apart
        (:func:`gamecore.sidebets.dealer_words.draws_read`).
    """
    return "rank" in draws_read(_every_condition(bet))


def _points(game: str) -> tuple[int, ...]:
    """Each rank's point class in ``game`` (baccarat 0..9, blackjack 0 the ace .. 9 ten)."""
    return cards.BACCARAT_POINTS if game == "baccarat" else cards.BLACKJACK_CLASSES


def rank_classes(bet: SideBet) -> tuple[int, ...]:
    """The class of each rank: the coarsest partition of the ranks that every condition
    reading ranks respects.

    The point classes, cut only where a ``rank`` condition's list holds some ranks of a
    point class and not the others (``rank: {player_1: K}``: {K} apart from {10, J, Q};
    ``[J, Q, K]``: {10} apart from {J, Q, K}); every rank apart where a condition compares
    ranks (``same_rank``, ``same_card``, ``poker_hand``) or the bet reads the dealer's final
    hand (its draws are dealt by rank or by point class, and a hand of one suit counts the up
    card and hole card by their own ranks: :mod:`gamecore.sidebets.dealer_count`). Every
    ``rank`` list is then a union of classes, so every condition answers alike on the ranks
    of one class, and the count deals a class as one card set, its cards the sum of its
    ranks'.

    Parameters
    ----------
    bet : SideBet
        A checked definition.

    Returns
    -------
    tuple of int
        For each rank of :data:`gamecore.cards.RANKS`, the least rank index of its class.
    """
    conditions = _every_condition(bet)
    every_rank = tuple(range(len(cards.RANKS)))
    if any(c.kind in _COMPARE_RANKS or c.kind == "dealer_final" for c in conditions):
        return every_rank
    lists = [set(c.values) for c in conditions if c.kind == "rank"]
    points = _points(bet.game)
    signature = [
        (points[r], *(name in names for names in lists)) for r, name in enumerate(cards.RANKS)
    ]
    rank_of = tuple(signature.index(signature[r]) for r in every_rank)
    for names in lists:  # every list a union of classes
        assert all(
            (cards.RANKS[r] in names) == (cards.RANKS[rank_of[r]] in names) for r in every_rank
        )
    return rank_of


def _hands_read(condition: Condition) -> tuple[str, ...]:
    """The hands whose point values a condition reads."""
    if condition.kind == "natural":
        return tuple(v for v in condition.values if v not in ("none", "any")) or ("*",)
    return condition.hands


def _hand_cards(game: str, hands: tuple[str, ...]) -> tuple[str, ...]:
    """The cards of the hands named (``*``: both hands)."""
    if game == "baccarat":
        return ()  # every baccarat card is dealt anyway
    named = []
    for hand in hands:
        if hand in ("player", "*"):
            named += ["player_1", "player_2"]
        if hand in ("dealer", "*"):
            named += ["dealer_up", "dealer_hole"]
    return tuple(named)


def classes(bet: SideBet, shoe: cards.Shoe) -> Classes:
    """The shoe's point classes and the kinds the bet tells apart, with their counts.

    Parameters
    ----------
    bet : SideBet
        A checked definition.
    shoe : gamecore.cards.Shoe
        The shoe, by rank and suit (no jokers).

    Returns
    -------
    Classes
        Coarse level 0 (10 point classes) and fine level 1 (one kind per distinct value of
        the attributes read: rank class (:func:`rank_classes`), suit or colour; e.g. 13
        ranks, 11 rank classes by four suits, or 52 cards).
    """
    read = set().union(*card_reads(bet).values())
    points = _points(bet.game)
    rank_of = rank_classes(bet)
    table = shoe.counts
    width = len(cards.RANKS) * len(cards.SUITS)
    counts = np.zeros((2, width), dtype=np.int64)
    attributes = np.full((2, 5, width), -1, dtype=np.int64)
    kinds: dict[tuple[int, int, int, int], int] = {}
    for r in range(len(cards.RANKS)):
        for s in range(len(cards.SUITS)):
            value = points[r]
            counts[0, value] += table[r, s]
            attributes[0, VALUE, value] = attributes[0, COARSE, value] = value
            key = (
                value,
                rank_of[r] if "rank" in read else -1,
                s if "suit" in read else -1,
                cards.SUIT_COLOUR[s] if ("colour" in read or "suit" in read) else -1,
            )
            k = kinds.setdefault(key, len(kinds))
            counts[1, k] += table[r, s]
            attributes[1, :4, k] = key
            attributes[1, COARSE, k] = value
    sizes = np.array([10, len(kinds)], dtype=np.int64)
    return Classes(counts, attributes, sizes)


def compile_bet(bet: SideBet) -> Program:
    """Compile a checked definition's outcomes into test rows and card levels.

    Parameters
    ----------
    bet : SideBet
        A checked definition.

    Returns
    -------
    Program
        The tests, the outcome count and each card position's level.
    """
    positions = CARDS[bet.game]
    reads = card_reads(bet)
    levels = np.array(
        [-1 if name not in reads else (1 if reads[name] - {"value"} else 0) for name in positions],
        dtype=np.int64,
    )
    rows: list[tuple[int, ...]] = []
    by_rank = draws_by_rank(bet)
    for index, outcome in enumerate(bet.outcomes):
        _branch((bet.game, by_rank), index, _conjunction(outcome.conditions), HOLDS, FAILS, rows)
    tests = np.array(rows, dtype=np.int64).reshape(-1, 8)
    return Program(tests, len(bet.outcomes), levels)


def _node(condition: Condition) -> tuple:
    """A condition as a node ``(kind, children)``: ``("leaf", condition)`` for a plain one;
    ``any``/``all`` of its groups, each the conjunction of its conditions; ``not`` of its
    one group's conjunction."""
    if condition.kind not in COMPOSITES:
        return ("leaf", condition)
    return (condition.kind, [_conjunction(group) for group in condition.groups])


def _conjunction(conditions: tuple[Condition, ...]) -> tuple:
    """The node holding when every condition holds."""
    return ("all", [_node(condition) for condition in conditions])


def _size(node: tuple) -> int:
    """The test rows a node compiles to: one per plain condition in it."""
    kind, children = node
    return 1 if kind == "leaf" else sum(_size(child) for child in children)


def _branch(game: tuple, outcome: int, node: tuple, yes: int, no: int, rows: list) -> None:
    """Append the rows of ``node`` that lead to ``yes`` when it holds and ``no`` when not
    (``game``: the bet's game, and whether the dealer's draws are by rank).

    Its rows go on at ``len(rows)``, the first of them where its reading starts, so each
    child's first row is known from the sizes of the children before it: ``all`` reads its
    children in turn while they hold, ``any`` while they fail, ``not`` swaps the exits.
    """
    kind, children = node
    if kind == "leaf":
        rows.append((outcome, *_test_row(*game, children), yes, no))
        return
    if kind == "not":
        _branch(game, outcome, children[0], no, yes, rows)
        return
    for position, child in enumerate(children):
        last = position == len(children) - 1
        after = yes if last and kind == "all" else len(rows) + _size(child)
        if kind == "all":
            _branch(game, outcome, child, after, no, rows)
        else:  # any: a child that fails hands over to the next
            _branch(game, outcome, child, yes, no if last else after, rows)


def _mask(indices) -> int:
    """A bit mask with the bits of ``indices`` set."""
    mask = 0
    for i in indices:
        mask |= 1 << int(i)
    return mask


def _test_row(game: str, by_rank: bool, condition: Condition) -> tuple[int, int, int, int, int]:
    """``(test, a, b, c, d)`` of one condition (``by_rank``: the dealer's draws' detail)."""
    if condition.kind == "dealer_final":
        return _dealer_row(condition, by_rank)
    code = TESTS.index(condition.kind)
    positions = CARDS[game]
    hands = HANDS[game]
    kind, values = condition.kind, condition.values
    if kind.startswith("same_"):
        return code, _mask(positions.index(c) for c in condition.cards), 0, 0, 0
    if kind in ("rank", "suit", "colour"):
        names = {"rank": cards.RANKS, "suit": cards.SUITS, "colour": cards.COLOURS}[kind]
        at = positions.index(condition.cards[0])
        return code, at, _mask(names.index(v) for v in values), 0, 0
    if kind in ("total", "hand_cards"):
        return code, hands.index(condition.hands[0]), _mask(values), 0, 0
    if kind == "natural":
        if values == ("none",):
            return code, 0, NATURAL_NONE, 0, 0
        if values == ("any",):
            return code, 0, NATURAL_ANY, 0, 0
        return code, _mask(hands.index(v) for v in values), NATURAL_LISTED, 0, 0
    if kind == "winner":
        return code, _mask(WINNERS.index(v) for v in values), 0, 0, 0
    if kind in ("margin", "cards_dealt"):
        return code, _mask(values), 0, 0, 0
    if kind == "poker_hand":
        first, second, third = (positions.index(c) for c in condition.cards)
        return code, first, second, third, _mask(POKER_CLASSES.index(v) for v in values)
    raise ValueError(f"no test for condition {kind!r}")  # the reader admits none other


#: Bits of a draw class's count in a ``dealer_ranks`` row's packed hand (a hand holds at
#: most 13 cards, so no count reaches 16).
RANK_BITS = 4


def draw_class(rank: str, by_rank: bool) -> int:
    """The class a card of ``rank`` is drawn as: its rank's index, or its point class.

    Parameters
    ----------
    rank : str
        A rank name of :data:`gamecore.cards.RANKS`.
    by_rank : bool
        Draws by rank (:func:`draws_by_rank`).

    Returns
    -------
    int
        0..12 by rank, 0..9 by point class (0 the ace, 9 ten-valued).
    """
    index = cards.RANKS.index(rank)
    return index if by_rank else cards.BLACKJACK_CLASSES[index]


def _dealer_row(condition: Condition, by_rank: bool) -> tuple[int, int, int, int, int]:
    """``(test, a, 0, 0, 0)`` of one field of a ``dealer_final`` condition: ``a`` the yes or
    no (1 or 0) of ``bust``, ``suited`` and ``coloured``, the mask of totals, card counts or
    last cards' classes, or the hand's classes packed :data:`RANK_BITS` bits a class."""
    field, values = condition.values[0], condition.values[1:]
    code = TESTS.index(f"dealer_{field}")
    if field in ("bust", "suited", "coloured"):
        return code, int(values[0] == "yes"), 0, 0, 0
    if field in ("total", "cards"):
        return code, _mask(values), 0, 0, 0
    if field == "last":
        return code, _mask({draw_class(rank, by_rank) for rank in values}), 0, 0, 0
    packed = 0
    for rank in values:
        packed += 1 << (RANK_BITS * draw_class(rank, by_rank))
    return code, packed, 0, 0, 0
