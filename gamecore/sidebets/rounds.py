"""A side bet's exact count, baccarat's and blackjack's where no condition reads the dealer's
final hand: every round at the detail the bet reads, the tableau dealt only where a
condition reads it, suits by pattern, suit sums kept, every modulus in one pass.

Central idea
------------
Four reductions of the plain enumeration (each card over the bet's kinds, the whole tableau
under every four first cards, once per modulus), each exact:

* **Only the cards read.** A baccarat round's third cards, its totals, winner, margin and
  card counts are the tableau's; a bet none of whose conditions reads them (nor a third
  card) is settled by its first cards, and only those a condition reads are dealt, the
  other cards of the six counted falling in any order from the cards left. A blackjack deal
  is the cards named (:mod:`gamecore.sidebets.round_cards`).
* **Suits by pattern.** The fine cards' suits (or colours) are dealt one string of each
  orbit under the renamings neither bet nor shoe tells apart, times the orbit's size
  (:mod:`gamecore.sidebets.suitorbits`): a rank class loops at each fine card, its suit
  follows the trie of least strings.
* **Suit sums kept.** A round's suit sum (its suit patterns' ways by outcome) depends only
  on which fine cards share a rank class, what the tests read of each class and the
  answers of the tests on the round's facts (not the facts themselves: a total tested
  against 0, 2, 4, 6 and 8 is one bit): it is kept by that key and read back when the key
  comes again.
* **One pass for every modulus.** Where counts pass int64 (1,000 decks) each deal's ways are
  taken modulo every prime in the same visit (:func:`gamecore.exactcount.exact_counts_at_once`).

The first four cards are positions 0..3 in both games (baccarat player_1, banker_1,
player_2, banker_2; blackjack player_1, player_2, dealer_up, dealer_hole); a round is read
by the game's facts (:class:`gamecore.sidebets.round_cards.Dealing`). A deal's ways are the
product of the remaining counts of the card sets it drew, fine kinds first
(:mod:`gamecore.sidebets.exact`), times the orbit's size.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from gamecore import cards
from gamecore._jit import borrowed, kernel
from gamecore.baccarat.tableau import DrawingTables
from gamecore.exactcount import addmod, exact_counts_at_once, mulmod
from gamecore.interrupts import off_the_main_thread
from gamecore.sidebets.deal import (
    B1,
    B2,
    B3,
    CARDS_DEALT,
    FACTS,
    HAND_CARDS_0,
    HAND_CARDS_1,
    MARGIN,
    NATURAL_0,
    NATURAL_1,
    P1,
    P2,
    P3,
    TOTAL_0,
    TOTAL_1,
    WINNER,
    baccarat_facts,
    blackjack_facts,
    outcome_of,
    test_holds,
)
from gamecore.sidebets.definition import SideBet
from gamecore.sidebets.program import (
    COARSE,
    RANK,
    TESTS,
    VALUE,
    A,
    B,
    Classes,
    Program,
    classes,
    compile_bet,
)
from gamecore.sidebets.round_cards import dealing, round_program, straight_table
from gamecore.sidebets.suitorbits import detail_count, suit_trie, trie_for


class Split(NamedTuple):
    """What a round's suit sum depends on, and whether sums are kept.

    A suit sum reads a fine card's rank class only through what the tests make of it:
    which fine cards share a class (same rank, pairs and trips of a poker hand), each
    ``rank`` test's answer, whether a poker hand's three ranks are a straight, and the
    class's row of kind counts (the suits' factors); it reads the round's facts only
    through the answers of the tests on them. Rounds alike in these share a sum.

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
        besides which cards share it: its row of kind counts and the answers of the
        ``rank`` tests on the card, one id for each distinct pair (at most the classes;
        the class itself where sums are not kept).
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
    """

    fact_columns: np.ndarray
    fact_rows: np.ndarray
    ids: np.ndarray
    straights: np.ndarray
    straight: np.ndarray
    class_cards: np.ndarray
    remember: bool


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
_RANK_TEST, _POKER_TEST = TESTS.index("rank"), TESTS.index("poker_hand")
#: Bits of each fact read in a suit sum's key where the answers of the tests on them do not
#: fit: every fact is below 32 (a blackjack two-card total at most 21; baccarat's below 10),
#: and the nine facts read take 45 bits at most.
FACT_BITS = 5
#: The most distinct tests on the facts whose answers key a suit sum (a bit each, in the
#: key's second int64). Answers are a function of the facts, so they never tell apart more
#: rounds than the facts do: two rounds of equal facts have equal answers.
ANSWER_BITS = 62
#: The most suit sums kept (rows of the table; fewer where a row is wide).
KEPT_SUMS, _KEPT_CELLS = 1 << 16, 1 << 22


def kept_rows(outcomes: int, moduli: int) -> int:
    """How many suit sums a count keeps: :data:`KEPT_SUMS`, fewer where a sum's row (paid
    and matched ways of every outcome, under every modulus) is wide.

    Parameters
    ----------
    outcomes : int
        The bet's paying outcomes.
    moduli : int
        The moduli of the count (1 where counts fit in int64).

    Returns
    -------
    int
        Rows of the table.
    """
    return min(KEPT_SUMS, _KEPT_CELLS // (moduli * (2 * outcomes + 1)))


def split_tests(program: Program, shoe: Classes, details: int) -> Split:
    """What a round's suit sum depends on (:class:`Split`).

    Parameters
    ----------
    program : Program
        The compiled bet.
    shoe : Classes
        The shoe's classes for the bet.
    details : int
        Details of each rank class (:func:`gamecore.sidebets.suitorbits.detail_count`).

    Returns
    -------
    Split
        The facts read, the rank classes' ids, the poker hands read for straights and
        whether sums are kept.
    """
    tests = program.tests
    codes = tests[:, 1]
    split = bool(np.isin(codes, tuple(_FACT_TESTS) + _CARD_TESTS).all())
    read = sorted({c for code in set(codes.tolist()) for c in _FACT_TESTS.get(code, ())})
    kinds = shoe.counts[1, : int(shoe.sizes[1])].reshape(-1, details)
    alike = np.unique(kinds, axis=0, return_inverse=True)[1].reshape(-1)
    ids = np.tile(np.arange(len(kinds), dtype=np.int64), (program.levels.size, 1))
    straights = np.zeros((0, 3), dtype=np.int64)
    if split:
        ranks = shoe.attributes[1, RANK, : int(shoe.sizes[1]) : details]
        for position in range(program.levels.size):
            masks = tests[(codes == _RANK_TEST) & (tests[:, A] == position), B]
            # A rank test holds where the card's rank is one it names (its mask's bit; every
            # rank of a class answers alike, its least rank read: program.rank_classes)
            answers = (masks[None, :] >> np.maximum(ranks, 0)[:, None]) & 1
            read_of = np.column_stack([alike, answers])
            ids[position] = np.unique(read_of, axis=0, return_inverse=True)[1].reshape(-1)
        hands = {tuple(sorted(row[2:5].tolist())) for row in tests[codes == _POKER_TEST]}
        straights = np.array(sorted(hands), dtype=np.int64).reshape(-1, 3)
    straight = straight_table() if len(straights) else np.zeros((1, 1, 1), dtype=np.int64)
    fact_columns = np.array(read, dtype=np.int64)
    class_cards = kinds.sum(axis=1)
    return Split(fact_columns, _fact_rows(tests), ids, straights, straight, class_cards, split)


def _fact_rows(tests: np.ndarray) -> np.ndarray:
    """:attr:`Split.fact_rows`: the first row of each distinct test on the facts (its code
    and arguments, columns 1..5, all a row's answer reads), or none past
    :data:`ANSWER_BITS`."""
    on_facts = np.flatnonzero(np.isin(tests[:, 1], tuple(_FACT_TESTS)))
    first = np.unique(tests[on_facts, 1:6], axis=0, return_index=True)[1]
    rows = np.sort(on_facts[first]).astype(np.int64)
    return rows if rows.size <= ANSWER_BITS else np.zeros(0, dtype=np.int64)


@kernel(inline=True)
def _choices(levels, sizes, details, position):
    """How many ways the loop at ``position`` runs: its classes (a fine card's rank
    classes), or once for a card not dealt."""
    level = levels[position]
    if level < 0:
        return 1
    if level == 0:
        return sizes[0]
    return sizes[1] // details


@kernel(inline=True)
def _choose(attributes, levels, details, position, choice, dealt, chosen):
    """Deal class ``choice`` at ``position`` (a fine card: its rank class, the suit of its
    first kind until the suit sum deals it)."""
    level = levels[position]
    kind = -1 if level < 0 else (choice * details if level == 1 else choice)
    chosen[position] = -1 if level < 0 else choice
    for attribute in range(dealt.shape[0]):
        dealt[attribute, position] = -1 if kind < 0 else attributes[level, attribute, kind]


@kernel(inline=True)
def _deal_third(attributes, levels, details, position, choice, dealt, chosen):
    """Deal a third card's class ``choice``, or no card (-1)."""
    if choice < 0:
        chosen[position] = -1
        for attribute in range(dealt.shape[0]):
            dealt[attribute, position] = -1
    else:
        _choose(attributes, levels, details, position, choice, dealt, chosen)


@kernel(inline=True)
def _coarse_factors(counts, attributes, levels, details, chosen, factors, complete_to):
    """The factors of a round's ways its rank classes fix: each coarse card's point class
    less every card drawn inside it before, then the cards completing it to
    ``complete_to``; how many factors, or -1 where a count runs out. Fine cards' own
    factors follow their suits."""
    n = 0
    for c in range(counts.shape[1]):
        n += counts[0, c]
    dealt = 0
    for p in range(chosen.size):
        if chosen[p] < 0:
            continue
        dealt += 1
    used = 0
    for p in range(chosen.size):  # point classes, less every card drawn inside them
        if chosen[p] < 0 or levels[p] != 0:
            continue
        left = counts[0, chosen[p]]
        for q in range(chosen.size):
            if chosen[q] < 0:
                continue
            if levels[q] == 1 and attributes[1, COARSE, chosen[q] * details] == chosen[p]:
                left -= 1
            elif levels[q] == 0 and q < p and chosen[q] == chosen[p]:
                left -= 1
        if left <= 0:
            return -1
        factors[used] = left
        used += 1
    for j in range(dealt, complete_to):
        factors[used] = n - j
        used += 1
    return used


@kernel(inline=True)
def _sum_key(levels, chosen, split, dealt, fine):
    """The key of a round's suit sum: each fine card's place among the fine cards' equal
    rank classes and its class's id (127: not dealt), 7 bits a card, then a bit for each
    poker hand's straight (below 2**62 with six cards and 20 hands); -1 where a class
    holds fewer cards than the fine cards dealt from it (no suit pattern has ways). The
    fine cards dealt go into ``fine``; returns the key and their number."""
    ids, straights, straight = split.ids, split.straights, split.straight
    key = 0
    k = 0
    for p in range(levels.size):
        if levels[p] != 1:
            continue
        part = 127
        if chosen[p] >= 0:
            label = k
            drawn = 1
            for i in range(k):
                if chosen[fine[i]] == chosen[p]:
                    label = min(label, i)
                    drawn += 1
            if drawn > split.class_cards[chosen[p]]:
                return -1, k
            part = label * 16 + ids[p, chosen[p]]
            fine[k] = p
            k += 1
        key = key * 128 + part
    for h in range(straights.shape[0]):
        first = dealt[RANK, straights[h, 0]] + 1
        second = dealt[RANK, straights[h, 1]] + 1
        key = key * 2 + straight[first, second, dealt[RANK, straights[h, 2]] + 1]
    return key, k


@kernel
def _suit_sum(shoe, program, trie, k, dealt, chosen, work, moduli):
    """Every suit pattern of the round's ``k`` fine cards (``work[3]``), times its orbit's
    size and the fine cards' own factors, by outcome paid (columns 0..outcomes) and
    matched (after them), under each modulus, into ``work[4]``."""
    counts, attributes, _sizes = shoe
    facts, held, scratch, fine, sums, _tally, _kept = work
    card_held, kinds, factors, _coarse, _ways = scratch
    details = trie.details
    outcomes = held.size
    sums[:, :] = 0
    for node in range(trie.depth_start[k], trie.depth_start[k + 1]):
        possible = True
        for i in range(k):
            kind = chosen[fine[i]] * details + trie.strings[node, i]
            kinds[i] = kind
            for attribute in range(dealt.shape[0]):
                dealt[attribute, fine[i]] = attributes[1, attribute, kind]
            left = counts[1, kind]
            for j in range(i):
                if kinds[j] == kind:
                    left -= 1
            factors[i] = left
            possible = possible and left > 0
        if not possible:
            continue
        paid = outcome_of(program.tests, outcomes, dealt, facts, card_held)
        for m in range(moduli.size):
            modulus = moduli[m]
            ways = trie.weight[node]
            for i in range(k):
                ways = mulmod(ways, factors[i], modulus)
            sums[m, paid] = addmod(sums[m, paid], ways, modulus)
            for o in range(outcomes):
                if card_held[o]:
                    sums[m, outcomes + 1 + o] = addmod(sums[m, outcomes + 1 + o], ways, modulus)


@kernel(inline=True)
def _facts_key(tests, split, dealt, facts):
    """What a round's suit sum reads of its facts: the answers of the tests on them, a bit
    each (asked by :func:`gamecore.sidebets.deal.test_holds`, the rule the outcomes are
    read by), or where they do not fit the facts read, :data:`FACT_BITS` each."""
    also = 0
    rows = split.fact_rows
    if rows.size > 0:
        for i in range(rows.size):
            if test_holds(tests, rows[i], dealt, facts):
                also |= np.int64(1) << i
        return also
    for i in range(split.fact_columns.size):
        also |= facts[split.fact_columns[i]] << (FACT_BITS * i)
    return also


@kernel(inline=True)
def _kept(kept, key, also):
    """The row of the table keeping the suit sum of ``(key, also)`` (``also``: what the
    round's facts answer, :func:`_facts_key`), or ``-1 - slot`` with the free slot where
    it would go."""
    keys, rows, _table, _used = kept
    mask = keys.shape[0] - 1
    slot = (key * 1000003 + also * 998244353) & mask
    while rows[slot] >= 0:
        if keys[slot, 0] == key and keys[slot, 1] == also:
            return rows[slot]
        slot = (slot + 1) & mask
    return -1 - slot


@kernel(inline=True)
def _add_round(tally, ways, paid, held, moduli):
    """Add a round with no fine card dealt: ``ways`` (a row per modulus) to the outcome
    paid and every outcome held."""
    outcomes = held.size
    for m in range(moduli.size):
        tally[m, paid] = addmod(tally[m, paid], ways[m], moduli[m])
        for o in range(outcomes):
            if held[o]:
                tally[m, outcomes + 1 + o] = addmod(tally[m, outcomes + 1 + o], ways[m], moduli[m])


@kernel(inline=True)
def _settle(shoe, program, split, trie, dealing, deal, work, moduli):
    """Add every round of the rank classes dealt (``deal``: its table and the classes
    chosen; its suits by pattern) to the tallies ``work[5]``: paid (columns 0..outcomes)
    and matched (after), under each modulus. The fine cards' suit sum is kept by its key
    and read back when the key comes again."""
    counts, attributes, _sizes = shoe
    dealt, chosen = deal
    facts, held, scratch, fine, sums, tally, kept = work
    _card_held, _kinds, _factors, factors, ways = scratch
    levels, details, complete_to = program.levels, trie.details, dealing.complete_to
    used = _coarse_factors(counts, attributes, levels, details, chosen, factors, complete_to)
    if used < 0:
        return
    for m in range(moduli.size):
        ways[m] = 1
        for f in range(used):
            ways[m] = mulmod(ways[m], factors[f], moduli[m])
    if dealing.blackjack:
        blackjack_facts(dealt, facts)
    else:
        baccarat_facts(dealt, facts)
    key, k = _sum_key(program.levels, chosen, split, dealt, fine)
    if key < 0:  # a rank class runs out
        return
    if k == 0:  # no suits to deal
        paid = outcome_of(program.tests, program.outcomes, dealt, facts, held)
        _add_round(tally, ways, paid, held, moduli)
        return
    also = _facts_key(program.tests, split, dealt, facts)
    row = _kept(kept, key, also) if split.remember else -1
    found = sums
    if row >= 0:
        found = kept[2][row]
    else:
        _suit_sum(shoe, program, trie, k, dealt, chosen, work, moduli)
        used_rows = kept[3]
        if split.remember and used_rows[0] < kept[2].shape[0]:
            slot = -1 - row
            kept[0][slot, 0] = key
            kept[0][slot, 1] = also
            kept[1][slot] = used_rows[0]
            kept[2][used_rows[0]] = sums
            used_rows[0] += 1
    for m in range(moduli.size):
        for c in range(tally.shape[1]):
            if found[m, c] != 0:
                product = mulmod(ways[m], found[m, c], moduli[m])
                tally[m, c] = addmod(tally[m, c], product, moduli[m])


@kernel
def _count_rounds(shoe, program, split, trie, dealing, moduli, kept_rows):
    """Ways of each outcome paid (losing last) and matched, under each modulus (a row
    each), over every round at the bet's detail: the first four cards (positions 0..3 of
    either game), then the third cards the tableau deals where it is dealt."""
    _counts, attributes, sizes = shoe
    levels, outcomes = program.levels, program.outcomes
    details = trie.details
    positions = levels.size
    dealt = np.full((4, positions), -1, dtype=np.int64)
    chosen = np.full(positions, -1, dtype=np.int64)
    width = 2 * outcomes + 1
    slots = 1
    while slots < 2 * kept_rows:
        slots *= 2
    work = (
        np.zeros(FACTS, dtype=np.int64),
        np.zeros(outcomes, dtype=np.bool_),
        (
            np.zeros(outcomes, dtype=np.bool_),
            np.zeros(positions, dtype=np.int64),
            np.zeros(positions, dtype=np.int64),
            np.zeros(max(positions, dealing.complete_to), dtype=np.int64),
            np.zeros(moduli.size, dtype=np.int64),
        ),
        np.zeros(positions, dtype=np.int64),
        np.zeros((moduli.size, width), dtype=np.int64),
        np.zeros((moduli.size, width), dtype=np.int64),
        (
            np.zeros((slots, 2), dtype=np.int64),
            np.full(slots, -1, dtype=np.int64),
            np.zeros((kept_rows, moduli.size, width), dtype=np.int64),
            np.zeros(1, dtype=np.int64),
        ),
    )
    # Lent without reference counts to the settling of each round (inlined): the arrays
    # stay owned here (work is returned from, the others are this kernel's arguments)
    lent_shoe, lent_program, lent_split = borrowed(shoe), borrowed(program), borrowed(split)
    lent_trie, lent_work, lent_moduli = borrowed(trie), borrowed(work), borrowed(moduli)
    lent_dealing, lent_deal = borrowed(dealing), borrowed((dealt, chosen))
    for i0 in range(_choices(levels, sizes, details, P1)):
        _choose(attributes, levels, details, P1, i0, dealt, chosen)
        for i1 in range(_choices(levels, sizes, details, B1)):
            _choose(attributes, levels, details, B1, i1, dealt, chosen)
            for i2 in range(_choices(levels, sizes, details, P2)):
                _choose(attributes, levels, details, P2, i2, dealt, chosen)
                for i3 in range(_choices(levels, sizes, details, B2)):
                    _choose(attributes, levels, details, B2, i3, dealt, chosen)
                    totals = 0  # without the tableau: one option, no third card
                    if dealing.tableau:
                        player = (dealt[VALUE, P1] + dealt[VALUE, P2]) % 10
                        banker = (dealt[VALUE, B1] + dealt[VALUE, B2]) % 10
                        totals = 10 * player + banker
                    for t in range(dealing.start[totals], dealing.start[totals + 1]):
                        if dealing.tableau:
                            p3, b3 = dealing.options[t, 0], dealing.options[t, 1]
                            _deal_third(attributes, levels, details, P3, p3, dealt, chosen)
                            _deal_third(attributes, levels, details, B3, b3, dealt, chosen)
                        _settle(
                            lent_shoe,
                            lent_program,
                            lent_split,
                            lent_trie,
                            lent_dealing,
                            lent_deal,
                            lent_work,
                            lent_moduli,
                        )
    return work[5]


def count_rounds(
    bet: SideBet, shoe: cards.Shoe, drawing: DrawingTables, plain: bool = False
) -> tuple[int, list[int], list[int]]:
    """Exact ways of every outcome of ``bet`` dealt from ``shoe``: a baccarat bet, or a
    blackjack bet that does not read the dealer's final hand.

    Parameters
    ----------
    bet : SideBet
        A checked definition.
    shoe : gamecore.cards.Shoe
        The cards, by rank and suit.
    drawing : DrawingTables
        Baccarat's tableau.
    plain : bool
        Count with none of the reductions: every baccarat card dealt through the tableau,
        every suit string (no renaming), no sum kept (what the tests compare the count
        with).

    Returns
    -------
    total, paid, matched
        As :func:`gamecore.sidebets.exact.count_outcomes` gives them.
    """
    if plain:
        program, tableau = compile_bet(bet), bet.game == "baccarat"
    else:
        program, tableau = round_program(bet)
    shoe_classes = classes(bet, shoe)
    fine = int((program.levels == 1).sum())
    if plain:
        trie = suit_trie([tuple(range(detail_count(shoe_classes)))], fine)
    else:
        trie = trie_for(bet, shoe_classes, fine)
    split = split_tests(program, shoe_classes, trie.details)
    if plain:
        split = split._replace(remember=False)
    how = dealing(bet, program, tableau, shoe_classes, trie.details, drawing)
    total = math.perm(shoe.total, how.complete_to)
    outcomes = len(bet.outcomes)

    def count_at(moduli: np.ndarray) -> np.ndarray:
        rows = kept_rows(outcomes, moduli.size) if split.remember else 1
        return _count_rounds(shoe_classes, program, split, trie, how, moduli, rows)

    # Off the main thread: a Ctrl-C acted on inside numba's call crashed the process
    counts = off_the_main_thread(lambda: exact_counts_at_once(count_at, total))
    paid, matched = counts[: outcomes + 1], counts[outcomes + 1 :]
    return total, [int(c) for c in paid], [int(c) for c in matched]
