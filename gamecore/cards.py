"""Cards with ranks and suits: the one model every shoe's counts come from.

A shoe is a count of every card it holds: a ``(13, 4)`` table of counts by rank (A, 2..10,
J, Q, K) and suit (clubs, diamonds, hearts, spades), plus a count of jokers.
:func:`standard` builds ``decks`` standard decks (and ``jokers_per_deck`` jokers each). What
an engine reads is a **view** of that table, computed from it whenever asked and never stored
beside it: the baccarat point classes 0..9 (:meth:`Shoe.baccarat_classes`, jokers appended
for 21st Century Baccarat), the blackjack classes A, 2..9, ten-valued
(:meth:`Shoe.blackjack_classes`), and the counts by rank, by suit and by colour. So the
point-class kernels keep their speed, and a wager that looks at ranks and suits (a pair, a
flush, the queen of hearts) counts from the same shoe.

The central idea: the exact number of ordered ways to draw cards without replacement is a
product of falling factorials of the counts of the card sets drawn, as long as any two of
those sets are the same set or share no card (:func:`ways`, in Python integers, exact at any
size). A set is a :class:`Cards`: one card, a rank, a suit, a colour, a point class or the
joker.

A shoe given by hand as point-class counts (an engine's ``composition=``, the command line's
``--shoe``) cannot be turned back into ranks and suits; it stays a point-class composition.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from typing import NamedTuple

import numpy as np

from gamecore.errors import GamecoreError, shown
from gamecore.numeric import is_whole

MIN_DECKS = 1
MAX_DECKS = 1000
#: The most cards of one rank and suit (or jokers) a shoe given by hand may hold.
MAX_CARDS_PER_CARD = 2**31 - 1

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("clubs", "diamonds", "hearts", "spades")
COLOURS = ("black", "red")
#: Each suit's colour, as an index into :data:`COLOURS`.
SUIT_COLOUR = (0, 1, 1, 0)
JOKER = "joker"
#: Each rank's baccarat point value (the index of its class, 0..9).
BACCARAT_POINTS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0)
#: Each rank's blackjack class: 0 the ace, 1..8 the twos to nines, 9 every ten-valued card
#: (the order of ``gamecore.blackjack.rules.RANKS``).
BLACKJACK_CLASSES = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9)
BLACKJACK_CLASS_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")


def validate_decks(decks: object, name: str = "decks") -> int:
    """Return ``decks`` if it is an integer from 1 to 1000, else raise ``GamecoreError``.

    Booleans, floats (even ``6.0``), strings and out-of-range integers are refused: a deck
    count is a count, and silently rounding it would analyse a game nobody asked for.

    Parameters
    ----------
    decks : int
        The deck count to check.
    name : str
        What messages call it.

    Returns
    -------
    int
        ``decks`` as a Python int.

    Examples
    --------
    >>> validate_decks(8)
    8
    >>> validate_decks(6.0)
    Traceback (most recent call last):
    gamecore.errors.GamecoreError: decks must be an integer from 1 to 1000, got 6.0
    """
    if not is_whole(decks) or not MIN_DECKS <= decks <= MAX_DECKS:
        raise GamecoreError(
            f"{name} must be an integer from {MIN_DECKS} to {MAX_DECKS}, got {shown(decks)}"
        )
    return int(decks)


def _count(value: object, name: str) -> int:
    if not is_whole(value) or not 0 <= value <= MAX_CARDS_PER_CARD:
        raise GamecoreError(
            f"{name} must be an integer from 0 to {MAX_CARDS_PER_CARD:,}, got {shown(value)}"
        )
    return int(value)


def _index(names: Sequence[str], value: object, what: str) -> int:
    if isinstance(value, str) and value in names:
        return names.index(value)
    raise GamecoreError(f"{what} must be one of {', '.join(names)}, got {shown(value)}")


class Cards(NamedTuple):
    """A set of cards a draw may take: which (rank, suit) cells of the shoe's table it holds
    (index pairs into :data:`RANKS` and :data:`SUITS`), and whether it is the jokers. Build
    one with :func:`card`, :func:`rank`, :func:`suit`, :func:`colour`,
    :func:`baccarat_class`, :func:`blackjack_class`, or take :data:`JOKERS`; a wager reads
    a card's :attr:`rank`, :attr:`suit` and :attr:`colour`."""

    name: str
    cells: frozenset[tuple[int, int]]
    joker: bool = False

    @property
    def rank(self) -> str | None:
        """The rank every card of the set has (:data:`JOKER` for the jokers), else None.

        >>> card("Q", "hearts").rank, suit("hearts").rank
        ('Q', None)
        """
        return self._common(RANKS, 0)

    @property
    def suit(self) -> str | None:
        """The suit every card of the set has, else None (the jokers have none)."""
        return self._common(SUITS, 1)

    @property
    def colour(self) -> str | None:
        """The colour every card of the set has, else None (the jokers have none).

        >>> card("Q", "hearts").colour, colour("black").colour, rank("Q").colour
        ('red', 'black', None)
        """
        colours = {SUIT_COLOUR[s] for _, s in self.cells}
        return COLOURS[colours.pop()] if len(colours) == 1 and not self.joker else None

    def _common(self, names: Sequence[str], axis: int) -> str | None:
        if self.joker:
            return JOKER if axis == 0 and not self.cells else None
        values = {cell[axis] for cell in self.cells}
        return names[values.pop()] if len(values) == 1 else None


JOKERS = Cards(JOKER, frozenset(), joker=True)


def card(rank_name: str, suit_name: str) -> Cards:
    """One card: a rank (``"A"``, ``"2"``..``"10"``, ``"J"``, ``"Q"``, ``"K"``) of a suit.

    Parameters
    ----------
    rank_name : str
        A name of :data:`RANKS`.
    suit_name : str
        A name of :data:`SUITS`.

    Returns
    -------
    Cards
        The set of that one card (an unknown name: a :class:`GamecoreError`).

    Examples
    --------
    >>> card("Q", "hearts").name
    'Q of hearts'
    """
    r, s = _index(RANKS, rank_name, "rank"), _index(SUITS, suit_name, "suit")
    return Cards(f"{rank_name} of {suit_name}", frozenset({(r, s)}))


def rank(rank_name: str) -> Cards:
    """Every card of a rank, any suit.

    Parameters
    ----------
    rank_name : str
        A name of :data:`RANKS`.

    Returns
    -------
    Cards
        Its 4 cells (an unknown name: a :class:`GamecoreError`).

    Examples
    --------
    >>> rank("K").name, len(rank("K").cells)
    ('rank K', 4)
    """
    r = _index(RANKS, rank_name, "rank")
    return Cards(f"rank {rank_name}", frozenset((r, s) for s in range(len(SUITS))))


def suit(suit_name: str) -> Cards:
    """Every card of a suit, any rank.

    Parameters
    ----------
    suit_name : str
        A name of :data:`SUITS`.

    Returns
    -------
    Cards
        Its 13 cells (an unknown name: a :class:`GamecoreError`).
    """
    s = _index(SUITS, suit_name, "suit")
    return Cards(suit_name, frozenset((r, s) for r in range(len(RANKS))))


def colour(colour_name: str) -> Cards:
    """Every red (diamonds, hearts) or black (clubs, spades) card.

    Parameters
    ----------
    colour_name : str
        A name of :data:`COLOURS`.

    Returns
    -------
    Cards
        Its 26 cells (an unknown name: a :class:`GamecoreError`).
    """
    c = _index(COLOURS, colour_name, "colour")
    cells = ((r, s) for r in range(len(RANKS)) for s in range(len(SUITS)) if SUIT_COLOUR[s] == c)
    return Cards(colour_name, frozenset(cells))


def baccarat_class(points: int) -> Cards:
    """Every card of a baccarat point value 0..9 (0: the 10, J, Q, K; 1: the ace).

    Parameters
    ----------
    points : int
        The point value, 0..9.

    Returns
    -------
    Cards
        Its cells, named ``point value N`` (else a :class:`GamecoreError`).

    Examples
    --------
    >>> len(baccarat_class(0).cells)
    16
    """
    if not is_whole(points) or not 0 <= points <= 9:
        raise GamecoreError(f"baccarat point value must be an integer 0..9, got {shown(points)}")
    ranks = [r for r, p in enumerate(BACCARAT_POINTS) if p == points]
    return Cards(f"point value {points}", frozenset((r, s) for r in ranks for s in range(4)))


def blackjack_class(name: str) -> Cards:
    """Every card of a blackjack class ``"A"``, ``"2"``..``"9"`` or ``"10"`` (ten-valued).

    Parameters
    ----------
    name : str
        A name of :data:`BLACKJACK_CLASS_NAMES`.

    Returns
    -------
    Cards
        Its cells, named ``blackjack NAME`` (an unknown name: a :class:`GamecoreError`).
    """
    c = _index(BLACKJACK_CLASS_NAMES, name, "blackjack class")
    ranks = [r for r, k in enumerate(BLACKJACK_CLASSES) if k == c]
    return Cards(f"blackjack {name}", frozenset((r, s) for r in ranks for s in range(4)))


class Shoe:
    """The cards in a shoe: counts by rank and suit, and jokers. Frozen and validated.

    Parameters
    ----------
    counts : array_like of int, shape (13, 4)
        Cards of each rank (:data:`RANKS` order) and suit (:data:`SUITS` order), each a
        non-negative integer of at most :data:`MAX_CARDS_PER_CARD`.
    jokers : int
        Jokers in the shoe.

    Examples
    --------
    >>> shoe = standard(1)
    >>> shoe.total, shoe.by_rank().tolist()[:3], shoe.by_colour().tolist()
    (52, [4, 4, 4], [26, 26])
    """

    __slots__ = ("_counts", "_jokers")

    def __init__(self, counts: Sequence[Sequence[int]] | np.ndarray, jokers: int = 0) -> None:
        try:
            rows = [list(row) for row in counts]
        except TypeError:
            raise GamecoreError(
                f"counts must be 13 rows of 4 card counts, got {shown(counts)}"
            ) from None
        if len(rows) != len(RANKS) or any(len(row) != len(SUITS) for row in rows):
            raise GamecoreError(f"counts must be 13 rows (ranks) of 4 (suits), got {shown(counts)}")
        table = [
            [_count(n, f"count of {RANKS[r]} of {SUITS[s]}") for s, n in enumerate(row)]
            for r, row in enumerate(rows)
        ]
        array = np.array(table, dtype=np.int64)
        array.flags.writeable = False
        object.__setattr__(self, "_counts", array)
        object.__setattr__(self, "_jokers", _count(jokers, "jokers"))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Shoe is frozen: remove() makes a new one")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Shoe):
            return NotImplemented
        return self._jokers == other._jokers and np.array_equal(self._counts, other._counts)

    def __hash__(self) -> int:
        return hash((self._counts.tobytes(), self._jokers))

    def __repr__(self) -> str:
        return f"Shoe({self.total} cards, {self._jokers} jokers)"

    @property
    def counts(self) -> np.ndarray:
        """Cards by rank and suit, shape (13, 4), int64 (read-only)."""
        return self._counts

    @property
    def jokers(self) -> int:
        """Jokers in the shoe."""
        return self._jokers

    @property
    def total(self) -> int:
        """Cards in the shoe, jokers included."""
        return int(self._counts.sum()) + self._jokers

    def count(self, cards: Cards) -> int:
        """Cards of the set ``cards`` in the shoe.

        Parameters
        ----------
        cards : Cards
            A set of cards (jokers among them where ``cards.joker``).

        Returns
        -------
        int
            How many the shoe holds.

        Examples
        --------
        >>> standard(2).count(colour("red")), standard(2).count(card("Q", "hearts"))
        (52, 2)
        """
        inside = sum(int(self._counts[r, s]) for r, s in cards.cells)
        return inside + (self._jokers if cards.joker else 0)

    def by_rank(self) -> np.ndarray:
        """Cards of each rank (:data:`RANKS` order), int64; jokers not among them.

        Returns
        -------
        numpy.ndarray
            13 counts.
        """
        return self._counts.sum(axis=1)

    def by_suit(self) -> np.ndarray:
        """Cards of each suit (:data:`SUITS` order), int64; jokers not among them.

        Returns
        -------
        numpy.ndarray
            4 counts.
        """
        return self._counts.sum(axis=0)

    def by_colour(self) -> np.ndarray:
        """Black and red cards (:data:`COLOURS` order), int64; jokers not among them.

        Returns
        -------
        numpy.ndarray
            2 counts.
        """
        out = np.zeros(len(COLOURS), dtype=np.int64)
        np.add.at(out, list(SUIT_COLOUR), self.by_suit())
        return out

    def baccarat_classes(self, jokers: bool = False) -> np.ndarray:
        """Cards of each baccarat point value 0..9 (the order of
        ``gamecore.shoe.BACCARAT_DECK``), then the jokers if ``jokers``, int64.

        Parameters
        ----------
        jokers : bool
            Append the joker count (21st Century Baccarat's eleventh class). Without it a
            shoe holding jokers is refused: they would silently leave the game.

        Returns
        -------
        numpy.ndarray
            10 counts (11 with ``jokers``), a new array each call.

        Examples
        --------
        >>> standard(8).baccarat_classes().tolist()
        [128, 32, 32, 32, 32, 32, 32, 32, 32, 32]
        >>> standard(8, 1).baccarat_classes(jokers=True).tolist()[-1]
        8
        """
        out = np.zeros(10, dtype=np.int64)
        np.add.at(out, list(BACCARAT_POINTS), self.by_rank())
        if jokers:
            return np.append(out, np.int64(self._jokers))
        self._refuse_jokers("baccarat point classes")
        return out

    def blackjack_classes(self) -> np.ndarray:
        """Cards of each blackjack class A, 2..9, ten-valued (the blackjack engine's order,
        ``gamecore.blackjack.rules.RANKS``), int64; a shoe with jokers is refused.

        Returns
        -------
        numpy.ndarray
            10 counts, a new array each call.

        Examples
        --------
        >>> standard(6).blackjack_classes().tolist()
        [24, 24, 24, 24, 24, 24, 24, 24, 24, 96]
        """
        self._refuse_jokers("blackjack classes")
        out = np.zeros(len(BLACKJACK_CLASS_NAMES), dtype=np.int64)
        np.add.at(out, list(BLACKJACK_CLASSES), self.by_rank())
        return out

    def card_codes(self) -> np.ndarray:
        """Every card as a simulator holds it: the code ``rank * 4 + suit``; jokers refused.

        Returns
        -------
        numpy.ndarray
            int64, one code per card, in code order (a simulator shuffles or draws from it).
        """
        self._refuse_jokers("card codes")
        return np.repeat(np.arange(self._counts.size, dtype=np.int64), self._counts.ravel())

    def _refuse_jokers(self, view: str) -> None:
        if self._jokers:
            raise GamecoreError(f"a shoe with {self._jokers} jokers has no {view} without them")

    def remove(self, cards: Iterable[Cards]) -> Shoe:
        """The shoe less one card of each entry of ``cards``, each a single card
        (:func:`card`) or :data:`JOKERS`.

        Parameters
        ----------
        cards : iterable of Cards
            The cards to take out, repeats allowed.

        Returns
        -------
        Shoe
            A new shoe; this one is unchanged.

        Examples
        --------
        >>> int(standard(1).remove([card("A", "spades"), card("A", "hearts")]).by_rank()[0])
        2
        """
        counts, jokers = self._counts.copy(), self._jokers
        for taken in cards:
            if not isinstance(taken, Cards) or len(taken.cells) + taken.joker != 1:
                raise GamecoreError(f"remove takes single cards, got {shown(taken)}")
            if taken.joker:
                jokers -= 1
            else:
                counts[next(iter(taken.cells))] -= 1
            if jokers < 0 or (counts < 0).any():
                raise GamecoreError(f"the shoe holds no more of the {taken.name} to remove")
        return Shoe(counts, jokers)


def standard(decks: int, jokers_per_deck: int = 0) -> Shoe:
    """A shoe of ``decks`` standard 52-card decks and ``jokers_per_deck`` jokers a deck.

    Parameters
    ----------
    decks : int
        Decks, an integer 1..1000 (:func:`validate_decks`).
    jokers_per_deck : int
        Jokers added per deck, a non-negative integer.

    Returns
    -------
    Shoe

    Examples
    --------
    >>> standard(8, jokers_per_deck=1).total
    424
    >>> standard(0)
    Traceback (most recent call last):
    gamecore.errors.GamecoreError: decks must be an integer from 1 to 1000, got 0
    """
    decks = validate_decks(decks)
    jokers = _count(jokers_per_deck, "jokers_per_deck") * decks
    return Shoe(np.full((len(RANKS), len(SUITS)), decks, dtype=np.int64), jokers)


def ways(shoe: Shoe, sequence: Sequence[Cards]) -> int:
    """Ordered ways to draw ``sequence`` from ``shoe`` without replacement, exactly.

    The i-th card drawn must belong to ``sequence[i]``. Any two entries must be the same set
    or share no card: then the count is the product, over the distinct sets, of the set's
    cards falling-factorial the times it is drawn (``n (n-1) ... (n-k+1)``), in Python ints.
    Split overlapping sets into disjoint ones (``rank("Q")`` into the queen of hearts and
    the other three queens' suits) and add the counts.

    Parameters
    ----------
    shoe : Shoe
        The shoe drawn from.
    sequence : sequence of Cards
        What each card drawn must be.

    Returns
    -------
    int
        The number of ordered card sequences (0 if the shoe runs out).

    Examples
    --------
    >>> deck = standard(1)
    >>> ways(deck, [rank("Q"), rank("Q")])  # two queens: 4 * 3
    12
    >>> ways(deck, [card("Q", "hearts"), card("Q", "hearts")])
    0
    >>> ways(standard(8), [baccarat_class(0)] * 6) == math.perm(128, 6)
    True
    """
    if not isinstance(shoe, Shoe):
        raise GamecoreError(f"shoe must be a Shoe, got {shown(shoe)}")
    drawn: dict[tuple[frozenset[tuple[int, int]], bool], list] = {}
    for entry in sequence:
        if not isinstance(entry, Cards):
            raise GamecoreError(f"each card drawn must be a Cards set, got {shown(entry)}")
        drawn.setdefault((entry.cells, entry.joker), [entry, 0])[1] += 1
    for (a, _), (b, _) in itertools.combinations(drawn.values(), 2):
        if a.cells & b.cells or (a.joker and b.joker):
            raise GamecoreError(f"{a.name} and {b.name} share cards: split them into disjoint sets")
    return math.prod(math.perm(shoe.count(cards), k) for cards, k in drawn.values())


def every_card(shoe: Shoe) -> list[Cards]:
    """Every distinct card the shoe can hold (52, then the joker if it holds any), as
    single-card sets.

    Parameters
    ----------
    shoe : Shoe
        The shoe (only whether it holds jokers matters).

    Returns
    -------
    list of Cards
        52 single cards in rank-then-suit order, then :data:`JOKERS` if the shoe has any.
    """
    singles = [card(r, s) for r in RANKS for s in SUITS]
    return singles + ([JOKERS] if shoe.jokers else [])


def first_two(shoe: Shoe) -> dict[tuple[Cards, Cards], int]:
    """Every ordered pair of distinct-or-equal cards (rank and suit) the first two cards
    dealt can be, with its exact number of ways (pairs the shoe cannot deal left out).

    Parameters
    ----------
    shoe : Shoe
        The shoe the two cards are dealt from.

    Returns
    -------
    dict
        ``{(first, second): ways}``; the ways sum to ``total * (total - 1)``.

    Examples
    --------
    >>> hands = first_two(standard(1))
    >>> len(hands), sum(hands.values()) == 52 * 51
    (2652, True)
    >>> hands[card("A", "spades"), card("K", "spades")]
    1
    """
    cards = every_card(shoe)
    hands = {(a, b): ways(shoe, [a, b]) for a in cards for b in cards}
    return {pair: n for pair, n in hands.items() if n}
