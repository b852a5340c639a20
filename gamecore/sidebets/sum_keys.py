"""What a round's suit sum is kept by (:mod:`gamecore.sidebets.rounds`), and how many such
keys a count may meet: by the outcomes its suit patterns pay, or by the answers of the tests
that read suits.

Central idea
------------
A round's suit sum (its fine cards' suit patterns' ways) reads a fine card's rank class only
through what the tests make of it, and the round's facts only through the tests on them;
rounds alike in these share one sum, kept in a table by that key. Two keys:

* **By outcome** (the sum's cells the outcomes paid and matched): the key holds every test's
  answer a pattern's outcome reads besides its suits, each ``rank`` test's on each card and
  each test's on the facts.
* **By suit answers** (the sum's cells the answers of the ``t`` distinct tests reading suits
  or colours its patterns reach, each cell an answer and its ways: at most the fewer of
  ``2**t`` and the suit patterns): the key holds only what those tests read besides suits,
  which fine cards share a rank class, each class's row of kind counts and each poker
  hand's straight. The round answers its own tests (its ``rank`` tests read off a table of
  each class's answers at each position, its tests on facts asked), and each cell of the
  sum is paid by the outcome both answers make. Where every rank is told
  apart (a bet reading the bits of six cards' ranks beside their suits) the keys by outcome
  outgrow any table (13**6 rank answers) while those by suit answers are the 203 ways six
  cards share ranks: a count settles each round in a few cells instead of dealing its suit
  patterns afresh.

A count keys by suit answers where its keys by outcome could outgrow the table and its keys
by suit answers cannot, at most :data:`SUIT_ANSWER_BITS` tests reading suits.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from gamecore.sidebets.deal import (
    CARDS_DEALT,
    HAND_CARDS_0,
    HAND_CARDS_1,
    MARGIN,
    NATURAL_0,
    NATURAL_1,
    TOTAL_0,
    TOTAL_1,
    WINNER,
)
from gamecore.sidebets.program import RANK, TESTS, A, B, Classes, Program
from gamecore.sidebets.round_cards import straight_table


class Split(NamedTuple):
    """What a round's suit sum depends on, and whether sums are kept.

    A suit sum reads a fine card's rank class only through what the tests make of it:
    which fine cards share a class (same rank, pairs and trips of a poker hand), each
    ``rank`` test's answer, whether a poker hand's three ranks are a straight, and the
    class's row of kind counts (the suits' factors); it reads the round's facts only
    through the answers of the tests on them. Rounds alike in these share a sum. Kept by
    suit answers (``by_answers``), it reads neither ``rank`` tests nor facts.

    Attributes
    ----------
    fact_columns : numpy.ndarray
        int64: the columns of a round's facts (:data:`gamecore.sidebets.deal.FACTS`) its
        tests read (totals, naturals, winner, margin, cards dealt, a hand's cards).
    fact_rows : numpy.ndarray
        int64: one test row of each distinct test on the facts, whose answers (a bit each)
        key a suit sum; none where more than :data:`ANSWER_BITS` are asked, the facts of
        ``fact_columns`` keying it then (:data:`FACT_BITS` each).
    ids : numpy.ndarray
        int64 (positions, rank classes): what a suit sum reads of a card's rank class
        besides which cards share it: its row of kind counts and (by outcome) the answers
        of the ``rank`` tests on the card, one id for each distinct pair (at most the
        classes; the class itself where sums are not kept).
    straights : numpy.ndarray
        int64 (hands, 3): the card positions of each poker hand (each set once) whose
        straight or not goes into the key, at most 20.
    straight : numpy.ndarray
        int64 (14, 14, 14): 1 where three ranks (index rank + 1, 0 a card not dealt) are
        three different ranks of a straight, as a ``poker_hand`` test reads them (1, 1, 1
        of zeros where no poker hand is read).
    class_cards : numpy.ndarray
        int64 (rank classes,): the cards of each class (a round drawing more from one has
        no ways).
    remember : bool
        Whether suit sums are kept by their key (every test one of the first cards or
        of the round's facts).
    suit_rows : numpy.ndarray
        int64 (t,): one test row of each distinct test reading suits or colours, bit ``i``
        of a suit answer the answer of ``suit_rows[i]``.
    suit_bits : numpy.ndarray
        int64 (rows,): each test row's bit among the suit answers, -1 for a test the round
        answers itself (ranks, facts).
    by_answers : bool
        Whether suit sums are kept by suit answers, else by outcome.
    answer_cells : int
        Cells of a sum by suit answers: the distinct answers its patterns may reach, the
        fewer of ``2**t`` and the most suit patterns a sum deals.
    rank_bits : numpy.ndarray
        int64 (rows,): each ``rank`` test row's bit among a round's rank answers (-1 for
        another test, or for all past :data:`ANSWER_BITS` distinct ``rank`` tests).
    rank_answers : numpy.ndarray
        int64 (positions, rank classes): the rank answers a card of each class holds at
        each position (bit ``rank_bits[row]`` where test ``row`` holds), the OR over a
        round's fine cards its rank answers.
    first_rows : numpy.ndarray
        int64 (outcomes,): each outcome's first test row, where its reading starts.
    """

    fact_columns: np.ndarray
    fact_rows: np.ndarray
    ids: np.ndarray
    straights: np.ndarray
    straight: np.ndarray
    class_cards: np.ndarray
    remember: bool
    suit_rows: np.ndarray
    suit_bits: np.ndarray
    by_answers: bool
    answer_cells: int
    rank_bits: np.ndarray
    rank_answers: np.ndarray
    first_rows: np.ndarray


#: Test codes that read the round's facts, with the facts each reads, and those that read
#: cards' details.
_FACT_TESTS = {
    TESTS.index("total"): (TOTAL_0, TOTAL_1),
    TESTS.index("natural"): (NATURAL_0, NATURAL_1),
    TESTS.index("winner"): (WINNER,),
    TESTS.index("margin"): (MARGIN,),
    TESTS.index("cards_dealt"): (CARDS_DEALT,),
    TESTS.index("hand_cards"): (HAND_CARDS_0, HAND_CARDS_1),
}
_CARD_TESTS = ("same_rank", "same_suit", "same_colour", "same_card", "rank", "suit")
_CARD_TESTS = tuple(TESTS.index(t) for t in _CARD_TESTS + ("colour", "poker_hand"))
#: Tests whose answer reads a suit or a colour (poker's flush; the same card's suit).
_SUIT_TESTS = ("same_suit", "same_colour", "same_card", "suit", "colour", "poker_hand")
_SUIT_TESTS = tuple(TESTS.index(t) for t in _SUIT_TESTS)
_RANK_TEST, _POKER_TEST = TESTS.index("rank"), TESTS.index("poker_hand")
#: Bits of each fact read in a suit sum's key where the answers of the tests on them do not
#: fit: every fact is below 32 (a blackjack two-card total at most 21; baccarat's below 10),
#: and the nine facts read take 45 bits at most.
FACT_BITS = 5
#: The most distinct tests on the facts whose answers key a suit sum (a bit each, in the
#: key's second int64). Answers are a function of the facts, so they never tell apart more
#: rounds than the facts do: two rounds of equal facts have equal answers.
ANSWER_BITS = 62
#: The most distinct tests reading suits whose answers may key a suit sum's cells (a bit
#: each of one int64; a sum holds only the answers its patterns reach, at most one a
#: pattern, and a round reads only those).
SUIT_ANSWER_BITS = 62
#: The most suit patterns of any sum: six cards' suit strings where no renaming of suits
#: keeps the bet's reading (fewer by orbits, :mod:`gamecore.sidebets.suitorbits`).
MOST_PATTERNS = 4**6
#: The most tests reading suits whose answers' cells a count looks up in a table of every
#: answer (2**16 int64s); past it a pattern searches the sum's cells
#: (:func:`gamecore.sidebets.work.deals_per_pass` counts the search).
LOOKUP_BITS = 16
#: The most suit sums kept (rows of the table; fewer where a row is wide).
KEPT_SUMS, _KEPT_CELLS = 1 << 16, 1 << 22
#: Ways ``n`` cards fall into groups of equal rank classes (Bell's numbers, n = 0..6).
_PARTITIONS = (1, 1, 2, 5, 15, 52, 203)


def kept_rows(width: int, moduli: int) -> int:
    """How many suit sums a count keeps: :data:`KEPT_SUMS`, fewer where a sum's row (its
    cells under every modulus) is wide.

    Parameters
    ----------
    width : int
        Cells of a sum (:func:`sum_width`).
    moduli : int
        The moduli of the count (1 where counts fit in int64).

    Returns
    -------
    int
        Rows of the table.
    """
    return min(KEPT_SUMS, _KEPT_CELLS // (moduli * width))


def sum_width(split: Split, outcomes: int) -> int:
    """Cells of a suit sum: by suit answers its :attr:`Split.answer_cells`, else each outcome
    paid (the losing remainder too) and matched.

    Parameters
    ----------
    split : Split
        The count's keys.
    outcomes : int
        The bet's paying outcomes.

    Returns
    -------
    int
        Cells of one sum under one modulus.
    """
    return split.answer_cells if split.by_answers else 2 * outcomes + 1


def _keys_bound(fine: int, ids: int, facts: int) -> int:
    """At most how many keys the suit sums of rounds of ``fine`` fine cards take: the
    partitions of the cards into equal rank classes (Bell's number), an id for each, and
    the ``facts`` the bet's tests may tell apart (:func:`_facts_bound`; 1 by suit answers).

    Parameters
    ----------
    fine, ids, facts : int
        Fine cards dealt, the most ids of a card's class, rows of facts told apart.

    Returns
    -------
    int
        Keys at most (before each poker hand's straight doubles them).
    """
    return _PARTITIONS[fine] * ids**fine * facts


def _facts_bound(game: str, split: Split) -> int:
    """At most how many rows of the facts a suit sum's key by outcome tells apart: none
    read, 1; baccarat 1,600 (two totals, two hands' cards, two naturals: 10 x 10 x 2 x 2 x
    2 x 2; the winner, margin and cards dealt follow); blackjack 19 x 19 where totals are
    read (0, not dealt, or 4..21 each; a natural is the total 21), else 2 x 2 where
    naturals are; keyed by the answers of ``t`` distinct tests on them, at most the fewer
    of these and ``2**t`` (the answers follow from the facts).

    Parameters
    ----------
    game : str
        ``"baccarat"`` or ``"blackjack"``.
    split : Split
        The facts read (:attr:`Split.fact_columns`, :attr:`Split.fact_rows`).

    Returns
    -------
    int
        Rows of facts told apart.
    """
    columns = split.fact_columns
    if columns.size == 0:
        found = 1
    elif game == "baccarat":
        found = 1600
    else:
        found = 19 * 19 if np.isin(columns, (TOTAL_0, TOTAL_1)).any() else 2 * 2
    if split.fact_rows.size:
        found = min(found, 2 ** int(split.fact_rows.size))
    return found


def split_tests(
    program: Program, shoe: Classes, details: int, game: str, patterns: int = MOST_PATTERNS
) -> Split:
    """What a round's suit sum depends on (:class:`Split`), by suit answers where the keys
    by outcome could outgrow the table and those by suit answers could not.

    Parameters
    ----------
    program : Program
        The compiled bet.
    shoe : Classes
        The shoe's classes for the bet.
    details : int
        Details of each rank class (:func:`gamecore.sidebets.suitorbits.detail_count`).
    game : str
        The bet's game (which facts a key may tell apart).
    patterns : int
        The most suit patterns a sum deals (the trie's strings of one length; at most
        :data:`MOST_PATTERNS`): a sum by suit answers reaches at most that many.

    Returns
    -------
    Split
        The facts read, the rank classes' ids, the poker hands read for straights and
        whether sums are kept, and by what.
    """
    tests = program.tests
    codes = tests[:, 1]
    split = bool(np.isin(codes, tuple(_FACT_TESTS) + _CARD_TESTS).all())
    read = sorted({c for code in set(codes.tolist()) for c in _FACT_TESTS.get(code, ())})
    kinds = shoe.counts[1, : int(shoe.sizes[1])].reshape(-1, details)
    alike = np.unique(kinds, axis=0, return_inverse=True)[1].reshape(-1)
    ids = np.tile(np.arange(len(kinds), dtype=np.int64), (program.levels.size, 1))
    straights = np.zeros((0, 3), dtype=np.int64)
    rank_rows = _first_rows(tests, codes == _RANK_TEST)[:ANSWER_BITS]
    rank_bits = _bits_of(tests, rank_rows)
    rank_answers = np.zeros_like(ids)
    if split:
        ranks = shoe.attributes[1, RANK, : int(shoe.sizes[1]) : details]
        for position in range(program.levels.size):
            asked = (codes == _RANK_TEST) & (tests[:, A] == position)
            # A rank test holds where the card's rank is one it names (its mask's bit; every
            # rank of a class answers alike, its least rank read: program.rank_classes)
            answers = (tests[asked, B][None, :] >> np.maximum(ranks, 0)[:, None]) & 1
            read_of = np.column_stack([alike, answers])
            ids[position] = np.unique(read_of, axis=0, return_inverse=True)[1].reshape(-1)
            bits = rank_bits[asked][None, :]  # a row past the bits is asked of each round
            shifted = np.where(bits >= 0, answers << np.maximum(bits, 0), 0)
            rank_answers[position] = np.bitwise_or.reduce(shifted, axis=1, initial=0)
        hands = {tuple(sorted(row[2:5].tolist())) for row in tests[codes == _POKER_TEST]}
        straights = np.array(sorted(hands), dtype=np.int64).reshape(-1, 3)
    straight = straight_table() if len(straights) else np.zeros((1, 1, 1), dtype=np.int64)
    suit_rows = _first_rows(tests, np.isin(codes, _SUIT_TESTS))
    found = Split(
        np.array(read, dtype=np.int64),
        _fact_rows(tests),
        ids,
        straights,
        straight,
        kinds.sum(axis=1),
        split,
        suit_rows,
        _bits_of(tests, suit_rows),
        False,
        min(2 ** int(suit_rows.size), patterns),
        rank_bits,
        rank_answers,
        np.searchsorted(tests[:, 0], np.arange(program.outcomes)).astype(np.int64),
    )
    if split and suit_rows.size <= SUIT_ANSWER_BITS:
        by_answers = found._replace(by_answers=True, ids=np.tile(alike, (len(ids), 1)))
        fine = int((program.levels == 1).sum())
        if not _kept_whole(found, fine, game, program.outcomes) and _kept_whole(
            by_answers, fine, game, program.outcomes
        ):
            return by_answers
    return found


def keys_at_most(split: Split, fine: int, game: str) -> int:
    """At most how many keys the suit sums of rounds of ``fine`` fine cards take.

    Parameters
    ----------
    split : Split
        The count's keys (:func:`split_tests`).
    fine : int
        Fine cards dealt.
    game : str
        The bet's game.

    Returns
    -------
    int
        :func:`_keys_bound` of the most ids of a card, the facts told apart (none by suit
        answers), doubled for each poker hand's straight.
    """
    ids = max(len(set(row)) for row in split.ids.tolist())
    facts = 1 if split.by_answers else _facts_bound(game, split)
    return _keys_bound(fine, ids, facts) << len(split.straights)


def _kept_whole(split: Split, fine: int, game: str, outcomes: int) -> bool:
    """Whether every key of a count's rounds of up to ``fine`` fine cards fits the table
    (one modulus)."""
    return keys_at_most(split, fine, game) <= kept_rows(sum_width(split, outcomes), 1)


def _first_rows(tests: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """The first row of each distinct test (its code and arguments, columns 1..5, all a
    row's answer reads) among the ``chosen`` rows, in order."""
    rows = np.flatnonzero(chosen)
    first = np.unique(tests[rows, 1:6], axis=0, return_index=True)[1]
    return np.sort(rows[first]).astype(np.int64)


def _bits_of(tests: np.ndarray, first: np.ndarray) -> np.ndarray:
    """Each test row's bit: ``i`` where it asks what row ``first[i]`` asks, else -1."""
    bits = np.full(len(tests), -1, dtype=np.int64)
    for bit, row in enumerate(first.tolist()):
        bits[(tests[:, 1:6] == tests[row, 1:6]).all(axis=1)] = bit
    return bits


def _fact_rows(tests: np.ndarray) -> np.ndarray:
    """:attr:`Split.fact_rows`: the first row of each distinct test on the facts, or none
    past :data:`ANSWER_BITS`."""
    rows = _first_rows(tests, np.isin(tests[:, 1], tuple(_FACT_TESTS)))
    return rows if rows.size <= ANSWER_BITS else np.zeros(0, dtype=np.int64)
