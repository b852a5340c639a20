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
  comes again. Where those keys outgrow the table (every rank told apart), the sum is by
  the answers of the tests reading suits, kept by what those read alone, and each round
  pays each answer by its own tests (:mod:`gamecore.sidebets.sum_keys`).
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
    FACTS,
    P1,
    P2,
    P3,
    baccarat_facts,
    blackjack_facts,
    outcome_of,
    test_holds,
)
from gamecore.sidebets.definition import SideBet
from gamecore.sidebets.program import COARSE, HOLDS, NO, RANK, VALUE, YES, classes, compile_bet
from gamecore.sidebets.round_cards import dealing, round_program
from gamecore.sidebets.suitorbits import detail_count, strings_by_length, suit_trie, trie_for
from gamecore.sidebets.sum_keys import FACT_BITS, LOOKUP_BITS, kept_rows, split_tests, sum_width


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
    """Deal a third card's class ``choice``, or no card (-1): :func:`_choose` written out
    (numba left that call inside an inlined kernel a call, the arrays passed counted in
    and out: half a round's time where every card is fine)."""
    level = levels[position]
    kind = choice * details if level == 1 else choice
    here = choice >= 0 and level >= 0
    chosen[position] = choice if here else -1
    for attribute in range(dealt.shape[0]):
        dealt[attribute, position] = attributes[level, attribute, kind] if here else -1


@kernel(inline=True)
def _coarse_factors(counts, attributes, levels, details, chosen, factors, dealing):
    """The factors of a round's ways its rank classes fix: each coarse card's point class
    less every card drawn inside it before, then the cards completing it to
    ``dealing.complete_to``; how many factors, or -1 where a count runs out. Fine cards'
    own factors follow their suits."""
    n = dealing.cards
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
    for j in range(dealt, dealing.complete_to):
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
def _suit_sum(shoe, program, split, trie, k, deal, work, moduli):
    """Every suit pattern of the round's ``k`` fine cards (``work[3]``), times its orbit's
    size and the fine cards' own factors, under each modulus, into ``work[4]``: by outcome
    paid (columns 0..outcomes) and matched (after them), or by suit answers (cell ``c``
    the ways of answer ``answers[c]``, the cells in the order the patterns reach them; -1
    after the last)."""
    counts, attributes, _sizes = shoe
    dealt, chosen = deal
    facts, held, scratch, fine, sums, _tally, _kept = work
    card_held, kinds, factors, _coarse, _ways, answers, _product, cell_of = scratch
    details = trie.details
    outcomes = held.size
    sums[:, :] = 0
    for cell in range(answers.size):  # the last sum's answers leave the lookup
        if answers[cell] < 0:
            break
        if cell_of.size > 0:
            cell_of[answers[cell]] = -1
    answers[:] = -1
    used = 0
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
        if split.by_answers:
            answer = _suit_answers(program.tests, split.suit_rows, dealt, facts)
            column = _answer_cell(answers, cell_of, used, answer)
            used = max(used, column + 1)
        else:
            column = outcome_of(program.tests, outcomes, dealt, facts, card_held)
        for m in range(moduli.size):
            modulus = moduli[m]
            ways = trie.weight[node]
            for i in range(k):
                ways = mulmod(ways, factors[i], modulus)
            sums[m, column] = addmod(sums[m, column], ways, modulus)
            for o in range(outcomes):
                if card_held[o] and not split.by_answers:
                    sums[m, outcomes + 1 + o] = addmod(sums[m, outcomes + 1 + o], ways, modulus)


@kernel(inline=True)
def _suit_answers(tests, rows, dealt, facts):
    """The answers of the tests reading suits (bit ``i``: test row ``rows[i]``'s)."""
    answers = 0
    for i in range(rows.size):
        if test_holds(tests, rows[i], dealt, facts):
            answers |= np.int64(1) << i
    return answers


@kernel(inline=True)
def _answer_cell(answers, cell_of, used, answer):
    """The cell of ``answer`` among a sum's ``used`` cells (``answers``), or cell ``used``,
    new, where it is not there yet (a sum's cells are at least the answers its patterns can
    reach: :attr:`gamecore.sidebets.sum_keys.Split.answer_cells`). Looked up in ``cell_of``
    (each answer's cell, -1 for none) where that holds every answer, else searched."""
    if cell_of.size > 0:
        cell = cell_of[answer]
        if cell < 0:
            cell = used
            cell_of[answer] = cell
    else:
        cell = 0
        while cell < used and answers[cell] != answer:
            cell += 1
    if cell == used:
        answers[cell] = answer
        if cell + 1 < answers.size:
            answers[cell + 1] = -1
    return cell


@kernel(inline=True)
def _verdict_unless_suits(program, split, outcome, ranked, dealt, facts):
    """Outcome ``outcome``'s verdict on a round read before any test reading suits: 1 where
    it holds, 0 where it fails, -1 where its reading comes to a test reading suits (their
    answers may decide it: :func:`_paid_by_answers` reads it for each). The rows read are
    those :func:`_paid_by_answers` reads first whatever the answers."""
    tests = program.tests
    row = split.first_rows[outcome]
    while row >= 0:
        if split.suit_bits[row] >= 0:
            return -1
        if split.rank_bits[row] >= 0:
            holds = (ranked >> split.rank_bits[row]) & 1 == 1
        else:
            holds = test_holds(tests, row, dealt, facts)
        row = tests[row, YES] if holds else tests[row, NO]
    return 1 if row == HOLDS else 0


@kernel(inline=True)
def _paid_by_answers(program, split, answers, ranked, dealt, facts, held):
    """The outcome paid on a round whose tests reading suits answer ``answers`` (bit
    ``split.suit_bits[row]`` of a row's) and its ``rank`` tests ``ranked`` (bit
    ``split.rank_bits[row]``), its other tests asked of the round; each outcome's own
    verdict into ``held``: :func:`gamecore.sidebets.deal.outcome_of`'s reading of the
    branching program."""
    tests, outcomes = program.tests, program.outcomes
    paid = outcomes
    for outcome in range(outcomes):
        row = split.first_rows[outcome]
        while row >= 0:
            if split.suit_bits[row] >= 0:
                holds = (answers >> split.suit_bits[row]) & 1 == 1
            elif split.rank_bits[row] >= 0:
                holds = (ranked >> split.rank_bits[row]) & 1 == 1
            else:
                holds = test_holds(tests, row, dealt, facts)
            row = tests[row, YES] if holds else tests[row, NO]
        held[outcome] = row == HOLDS
        if row == HOLDS and paid == outcomes:
            paid = outcome
    return paid


@kernel(inline=True)
def _settled_unless_suits(program, split, ranked, dealt, facts, held):
    """The outcome a round pays whatever its tests reading suits answer (each outcome's
    verdict into ``held``), or -1 where some outcome's reading comes to one of them."""
    paid = program.outcomes
    for outcome in range(program.outcomes):
        verdict = _verdict_unless_suits(program, split, outcome, ranked, dealt, facts)
        if verdict < 0:
            return -1
        held[outcome] = verdict == 1
        if verdict == 1 and paid == program.outcomes:
            paid = outcome
    return paid


@kernel(inline=True)
def _add_by_answers(program, split, work, deal, ways, found, moduli):
    """Add a round whose suit sum ``found`` (its cells' ways, then their answers) is by suit
    answers to the tallies ``work[5]``: where the round's own tests settle every outcome
    whatever the answers, its whole sum at once; else each answer its patterns reached,
    times the round's ``ways``, to the outcome the answer and the round's own tests pay and
    every outcome they match."""
    facts, held, scratch, _fine, _sums, tally, _kept = work
    found_ways, found_answers = found
    product = scratch[6]
    dealt, chosen = deal
    ranked = 0  # the round's rank answers: each fine card's class's at its position
    for p in range(chosen.size):
        if chosen[p] >= 0 and program.levels[p] == 1:
            ranked |= split.rank_answers[p, chosen[p]]
    settled = _settled_unless_suits(program, split, ranked, dealt, facts, held)
    if settled >= 0:
        for m in range(moduli.size):
            whole = 0
            for cell in range(found_answers.size):
                if found_answers[cell] < 0:
                    break
                whole = addmod(whole, found_ways[m, cell], moduli[m])
            product[m] = mulmod(ways[m], whole, moduli[m])
        _add_round(tally, product, settled, held, moduli)
        return
    for cell in range(found_answers.size):
        if found_answers[cell] < 0:
            break
        paid = _paid_by_answers(program, split, found_answers[cell], ranked, dealt, facts, held)
        for m in range(moduli.size):
            product[m] = mulmod(ways[m], found_ways[m, cell], moduli[m])
        _add_round(tally, product, paid, held, moduli)


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
    keys, rows = kept[0], kept[1]
    mask = keys.shape[0] - 1
    # Every bit of both reaches the slot (splitmix64's finaliser): a count's keys differ
    # mostly in their high parts (the first cards'), which a product leaves out of the
    # slot's low bits, so that many keys met in one run of probes
    mixed = np.uint64(key) ^ (np.uint64(also) * np.uint64(0x9E3779B97F4A7C15))
    mixed = (mixed ^ (mixed >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    mixed = (mixed ^ (mixed >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    slot = np.int64((mixed ^ (mixed >> np.uint64(31))) & np.uint64(mask))
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
    _card_held, _kinds, _factors, factors, ways, answers = scratch[:6]
    levels, details = program.levels, trie.details
    used = _coarse_factors(counts, attributes, levels, details, chosen, factors, dealing)
    if used < 0:
        return
    for m in range(moduli.size):
        ways[m] = 1
        for f in range(used):
            ways[m] = mulmod(ways[m], factors[f], moduli[m])
    if not split.remember or split.fact_columns.size > 0:  # else no test reads the facts
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
    also = 0 if split.by_answers else _facts_key(program.tests, split, dealt, facts)
    row = _kept(kept, key, also) if split.remember else -1
    found, found_answers = sums, answers
    if row >= 0:
        found, found_answers = kept[2][row], kept[4][row]
    else:
        _suit_sum(shoe, program, split, trie, k, deal, work, moduli)
        used_rows = kept[3]
        if split.remember and used_rows[0] < kept[2].shape[0]:
            slot = -1 - row
            kept[0][slot, 0] = key
            kept[0][slot, 1] = also
            kept[1][slot] = used_rows[0]
            kept[2][used_rows[0]] = sums
            kept[4][used_rows[0]] = answers
            used_rows[0] += 1
    if split.by_answers:
        _add_by_answers(program, split, work, deal, ways, (found, found_answers), moduli)
        return
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
    width = 2 * outcomes + 1  # a tally's: each outcome paid (the losing too), matched
    cells = split.answer_cells if split.by_answers else width  # a suit sum's
    lookup = 0  # an answer's cell found at once where 2**t answers are few, else searched
    if split.by_answers and split.suit_rows.size <= LOOKUP_BITS:
        lookup = 1 << split.suit_rows.size
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
            np.full(cells, -1, dtype=np.int64),  # a sum's answers by suit answers
            np.zeros(moduli.size, dtype=np.int64),  # a cell's ways times the round's
            np.full(lookup, -1, dtype=np.int64),  # each suit answer's cell in a sum
        ),
        np.zeros(positions, dtype=np.int64),
        np.zeros((moduli.size, cells), dtype=np.int64),
        np.zeros((moduli.size, width), dtype=np.int64),
        (
            np.zeros((slots, 2), dtype=np.int64),
            np.full(slots, -1, dtype=np.int64),
            np.zeros((kept_rows, moduli.size, cells), dtype=np.int64),
            np.zeros(1, dtype=np.int64),
            np.full((kept_rows, cells), -1, dtype=np.int64),  # each kept sum's answers
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
    patterns = int(strings_by_length(trie).max())
    split = split_tests(program, shoe_classes, trie.details, bet.game, patterns)
    if plain:
        split = split._replace(remember=False, by_answers=False)
    how = dealing(bet, program, tableau, shoe_classes, trie.details, drawing)
    total = math.perm(shoe.total, how.complete_to)
    outcomes = len(bet.outcomes)

    def count_at(moduli: np.ndarray) -> np.ndarray:
        rows = kept_rows(sum_width(split, outcomes), moduli.size) if split.remember else 1
        return _count_rounds(shoe_classes, program, split, trie, how, moduli, rows)

    # Off the main thread: a Ctrl-C acted on inside numba's call crashed the process
    counts = off_the_main_thread(lambda: exact_counts_at_once(count_at, total))
    paid, matched = counts[: outcomes + 1], counts[outcomes + 1 :]
    return total, [int(c) for c in paid], [int(c) for c in matched]
