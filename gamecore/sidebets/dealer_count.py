"""The dealer's final hands drawn by the one model of :mod:`gamecore.sidebets.dealer_final`:
every hand the dealer can draw to a deal, walked depth first with its integer number of
ways (:func:`count_draws`), and the simulator's dealer drawing real cards
(:func:`deal_final`), both by the same kernels of the drawing rule and the same facts.

Central idea
------------
A hand's suits and colours are never dealt card by card. The walk by class deals each draw
as its point class (or its rank, where a condition tells ten-valued ranks apart) and settles
every final hand as of mixed suits and colours. Where a condition reads ``coloured`` or
``suited``, the hands all of one colour (one suit) are walked again, one colour (suit) at a
time, each draw from that colour's (suit's) cards of its class alone, and each such hand's
ways are moved from the outcome it was settled on to the one it pays as of one colour (then
of one suit: such a hand is of one colour too). Each walk is as large as the walk by class,
where dealing every card as of the up card's suit or not would double it at every draw.

A draw's ways are the cards left of its set, less every card counted before it inside that
set. The sets nest (a rank inside its class, a class's cards of one suit inside its cards of
one colour inside the class), and each card is counted after every card of a set inside its
own: where no card's suit is read, a walk of one suit counts the up card and hole card of
that suit itself; where the bet reads the cards' suits, every card named is of a known suit,
counted first. A hand that holds more cards than any outcome can pay is not walked further.

A final hand is read by the tests only through its total and, where a condition reads them,
its number of cards, last card and named ``ranks``: a walk gathers its final hands' ways
(and their moments, the player's cards counted after them: dealer_players) by that key and
settles each key once, where the hands number thousands for each deal and the keys tens.
"""

from __future__ import annotations

import numpy as np

from gamecore._jit import borrowed, kernel, kernel_face
from gamecore.dealing import draw_card
from gamecore.exactcount import addmod, mulmod
from gamecore.sidebets.deal import (
    BJ_HOLE,
    BJ_P1,
    BJ_P2,
    BJ_UP,
    FINAL_CARDS,
    FINAL_CLASSES,
    FINAL_COLOURED,
    FINAL_LAST,
    FINAL_SUITED,
    FINAL_TOTAL,
    blackjack_facts,
    outcome_of,
)
from gamecore.sidebets.dealer_shares import (
    add_moments,
    group_ways,
    groups_of_answers,
    key_ways,
    show_answers,
)
from gamecore.sidebets.dealer_words import (
    MAX_DEALER_CARDS,
    READS_CARDS,
    READS_COLOURED,
    READS_LAST,
    READS_SUITED,
)
from gamecore.sidebets.program import COLOUR, RANK, RANK_BITS, SUIT, VALUE

#: Rows of the depth-first stack: hard total, holds an ace, classes packed, ways so far, the
#: choice tried, the class drawn; then the ways of completing a deal of each number of cards.
_HARD, _ACE, _PACKED, _WAYS, _CHOICE, _DREW, _COMPLETION = range(7)
_BY_CLASS, _ONE_COLOUR, _ONE_SUIT = range(3)  # the walks: by class, of a colour, of a suit
_CLASSES = 13  # draw classes at most (13 ranks)
#: A final hand's key (:func:`_hand_key`): its total in the low bits (at most 26), then its
#: cards and its last card's class (below 16 each), then which named hand it is.
_TOTAL_MASK, _FIELD_MASK = 31, 15
_CARDS_SHIFT, _LAST_SHIFT, _NAMED_SHIFT = 5, 9, 13
#: Slots of the table gathering a walk's final hands by key (a power of two; the table is
#: settled and emptied when half of them are used). A walk of a bet reading both the number
#: of cards and the last card reaches up to 341 keys (hitting soft 17), so such a bet settles
#: through a full table mid-walk (Bust It's published figures are checked so).
_SLOTS = 1 << 9


# ---------------------------------------------------------------------------------------
# The drawing rule and the facts of a final hand
# ---------------------------------------------------------------------------------------


@kernel(inline=True)
def _best_total(hard, ace):
    """The hand's total: its hard total, plus 10 where it holds an ace and that does not
    pass 21."""
    if ace and hard + 10 <= 21:
        return hard + 10
    return hard


@kernel(inline=True)
def _dealer_stands(hard, ace, hits_soft_17):
    """Whether the dealer draws no more: busted, 18 or more, or 17 (not a soft 17 hit)."""
    total = _best_total(hard, ace)
    if total != 17:
        return total > 17
    return not (hits_soft_17 and total != hard)


@kernel(inline=True)
def _set_final(facts, hard, ace, hand_cards, packed, last):
    """Fill the final hand's facts but its suits and colours."""
    facts[FINAL_TOTAL] = _best_total(hard, ace)
    facts[FINAL_CARDS] = hand_cards
    facts[FINAL_CLASSES] = packed
    facts[FINAL_LAST] = last


@kernel
def _deal_final(rng, codes, start, fresh, table, rule, dealt, facts):
    hits_soft_17, by_rank = rule[0], rule[1]
    detail = RANK if by_rank else VALUE
    up, hole = dealt[VALUE, BJ_UP], dealt[VALUE, BJ_HOLE]
    hard = up + hole + 2
    ace = up == 0 or hole == 0
    suit, colour = dealt[SUIT, BJ_UP], dealt[COLOUR, BJ_UP]
    suited = dealt[SUIT, BJ_HOLE] == suit
    coloured = dealt[COLOUR, BJ_HOLE] == colour
    last = dealt[detail, BJ_HOLE]
    packed = (1 << (RANK_BITS * dealt[detail, BJ_UP])) + (1 << (RANK_BITS * last))
    drawn = 0
    while not _dealer_stands(hard, ace, hits_soft_17):
        code = draw_card(rng, codes, start + drawn, fresh)
        drawn += 1
        value = table[VALUE, code]
        hard += value + 1
        ace = ace or value == 0
        suited = suited and table[SUIT, code] == suit
        coloured = coloured and table[COLOUR, code] == colour
        last = table[detail, code]
        packed += 1 << (RANK_BITS * last)
    _set_final(facts, hard, ace, drawn + 2, packed, last)
    facts[FINAL_SUITED] = 1 if suited else 0
    facts[FINAL_COLOURED] = 1 if coloured else 0
    return drawn


# ---------------------------------------------------------------------------------------
# The exact walks
# ---------------------------------------------------------------------------------------


@kernel(inline=True)
def _draw_work(width):
    """The scratch arrays :func:`count_draws` reuses for every deal: ``(left, left_of,
    stack, gathered)``, the cards left of each draw class, of it in the walk's colour or
    suit, int64 (7, MAX_DEALER_CARDS + 3) the state at each depth and the completions (row
    ``_COMPLETION``, indexed by cards dealt), and the table gathering final hands by key
    (its slots' keys, -1 where free, their ways, their moments in ``width`` columns where
    the player's cards are counted after the hand, the slots used in order, how many)."""
    return (
        np.zeros(_CLASSES, dtype=np.int64),
        np.zeros(_CLASSES, dtype=np.int64),
        np.zeros((7, MAX_DEALER_CARDS + 3), dtype=np.int64),
        (
            np.full(_SLOTS, -1, dtype=np.int64),
            np.zeros(_SLOTS, dtype=np.int64),
            np.zeros((_SLOTS, width), dtype=np.int64),
            np.zeros(_SLOTS // 2, dtype=np.int64),
            np.zeros(1, dtype=np.int64),
        ),
    )


@kernel(inline=True)
def _class_of(plan, dealt, position):
    return dealt[RANK, position] if plan.by_rank else dealt[VALUE, position]


@kernel(inline=True)
def _start(plan, dealt, scratch):
    """Fill the cards left of each class and the state before any draw; return the cards
    dealt."""
    left, stack = scratch[0], scratch[2]
    for d in range(left.size):
        left[d] = plan.counts[d]
    dealt_count = 0
    for p in range(dealt.shape[1]):
        if dealt[VALUE, p] >= 0:
            left[_class_of(plan, dealt, p)] -= 1
            dealt_count += 1
    up, hole = dealt[VALUE, BJ_UP], dealt[VALUE, BJ_HOLE]
    stack[_HARD, 0] = up + hole + 2
    stack[_ACE, 0] = 1 if up == 0 or hole == 0 else 0
    stack[_PACKED, 0] = (1 << (RANK_BITS * _class_of(plan, dealt, BJ_UP))) + (
        1 << (RANK_BITS * _class_of(plan, dealt, BJ_HOLE))
    )
    return dealt_count


@kernel(inline=True)
def _start_apart(plan, dealt, scratch, walk_kind, group, ways, modulus):
    """Set the cards left of each class in ``group`` (a colour or a suit) for a walk of the
    hands all of it; return the ways of the up card and hole card of it (``ways``, the
    deal's own, where the bet reads every card's suit)."""
    left_of = scratch[1]
    by_class = plan.counts_suit if walk_kind == _ONE_SUIT else plan.counts_colour
    by_rank = plan.rank_suit if walk_kind == _ONE_SUIT else plan.rank_colour
    attribute = SUIT if walk_kind == _ONE_SUIT else COLOUR
    for d in range(left_of.size):
        left_of[d] = by_class[d, group]
    if not plan.apart:  # each card named is of a known suit, counted as the deal's ways
        if dealt[attribute, BJ_UP] != group or dealt[attribute, BJ_HOLE] != group:
            return 0
        for p in range(dealt.shape[1]):
            if dealt[VALUE, p] >= 0 and dealt[attribute, p] == group:
                left_of[_class_of(plan, dealt, p)] -= 1
        return ways
    # The up card and hole card of the group, each in its own set: its rank where the bet
    # reads it (a set inside its class), else its class
    up, hole = _class_of(plan, dealt, BJ_UP), _class_of(plan, dealt, BJ_HOLE)
    up_rank, hole_rank = dealt[RANK, BJ_UP], dealt[RANK, BJ_HOLE]
    first = by_rank[up_rank, group] if up_rank >= 0 else left_of[up]
    second = by_rank[hole_rank, group] if hole_rank >= 0 else left_of[hole]
    if (up_rank == hole_rank) if hole_rank >= 0 else (up == hole):
        second -= 1
    left_of[up] -= 1
    left_of[hole] -= 1
    if first <= 0 or second <= 0:
        return 0
    return mulmod(first, second, modulus)


@kernel(inline=True)
def _tally(program, work, ways, modulus):
    """Add ``ways`` to the outcome the deal's facts pay and to every outcome they match."""
    tests, outcomes, dealt = program
    facts, matched, tally, own = work
    paid = outcome_of(tests, outcomes, dealt, facts, matched)
    tally[paid] = addmod(tally[paid], ways, modulus)
    for o in range(own.size):
        if matched[o]:
            own[o] = addmod(own[o], ways, modulus)


@kernel(inline=True)
def _players_after(plan, dealt, packed, ways, modulus):
    """``ways`` times the player's cards' ways, counted after the dealer's hand of one
    colour or suit (``packed``, its classes): each of its class less the dealer's cards of
    that class and the player's before it."""
    for p in (BJ_P1, BJ_P2):
        if dealt[VALUE, p] < 0:
            continue
        d = _class_of(plan, dealt, p)
        left = plan.counts[d] - ((packed >> (RANK_BITS * d)) & 15)
        if p == BJ_P2 and dealt[VALUE, BJ_P1] >= 0 and _class_of(plan, dealt, BJ_P1) == d:
            left -= 1
        if left <= 0:
            return 0
        ways = mulmod(ways, left, modulus)
    return ways


@kernel(inline=True)
def _hand_key(plan, hand):
    """What the tests read of a final hand ``(hard, ace, cards, packed classes, last
    class)``, as one key: its total, then its number of cards, its last card's class and
    which hand a ``ranks`` field names it as (1 + its index, 0 none) where a condition reads
    them (0 where none does)."""
    hard, ace, hand_cards, packed, last = hand
    key = _best_total(hard, ace)
    if plan.reads & READS_CARDS:
        key |= hand_cards << _CARDS_SHIFT
    if plan.reads & READS_LAST:
        key |= last << _LAST_SHIFT
    for i in range(plan.named_hands.size):
        if plan.named_hands[i] == packed:
            key |= (i + 1) << _NAMED_SHIFT
            break
    return key


@kernel(inline=True)
def _gather(plan, gathered, key, hand, ways, modulus):
    """Add a final hand's ``ways`` to its key's slot of the table (the moments of its
    classes where the player's cards are counted after it); return whether the table is
    full."""
    keys, sums, moments, used, count = gathered
    mask = keys.size - 1
    slot = (key * 40503) & mask
    while keys[slot] >= 0 and keys[slot] != key:
        slot = (slot + 1) & mask
    if keys[slot] < 0:
        keys[slot] = key
        sums[slot] = 0
        if plan.later:
            moments[slot, :] = 0
        used[count[0]] = slot
        count[0] += 1
    if plan.later:
        add_moments(moments[slot], hand[3], ways, modulus)
    else:
        sums[slot] = addmod(sums[slot], ways, modulus)
    return count[0] == used.size


@kernel(inline=True)
def _settle(plan, program, work, walk_kind, ways, modulus):
    """Settle the final hands of one key (their facts set, ``ways`` their ways): by class as
    of mixed suits and colours; of one colour or suit, moved from the outcome the walks
    before settled them on to their own."""
    facts = work[0]
    if walk_kind == _BY_CLASS:
        facts[FINAL_SUITED] = 0
        facts[FINAL_COLOURED] = 0
        _tally(program, work, ways, modulus)
        return
    less = -ways if modulus == 0 else (modulus - ways % modulus) % modulus
    # one colour: from mixed to of one colour; one suit: from (of one colour where a walk
    # of colours came first) to of one suit and colour
    coloured = 1 if walk_kind == _ONE_COLOUR or (plan.reads & READS_COLOURED) != 0 else 0
    facts[FINAL_SUITED] = 0
    facts[FINAL_COLOURED] = 0 if walk_kind == _ONE_COLOUR else coloured
    _tally(program, work, less, modulus)
    facts[FINAL_SUITED] = 1 if walk_kind == _ONE_SUIT else 0
    facts[FINAL_COLOURED] = coloured
    _tally(program, work, ways, modulus)


@kernel(inline=True)
def _final_facts(plan, facts, key):
    """Set the facts of a final hand from its key (:func:`_hand_key`)."""
    facts[FINAL_TOTAL] = key & _TOTAL_MASK
    facts[FINAL_CARDS] = (key >> _CARDS_SHIFT) & _FIELD_MASK
    facts[FINAL_LAST] = (key >> _LAST_SHIFT) & _FIELD_MASK
    named = key >> _NAMED_SHIFT
    facts[FINAL_CLASSES] = plan.named_hands[named - 1] if named > 0 else -1


@kernel(inline=True)
def _settle_gathered(plan, program, work, gathered, walk, modulus):
    """Settle every key of the table once, with its facts, and empty the table."""
    walk_kind, players = walk[3], walk[4]
    keys, sums, _moments, used, count = gathered
    if plan.later:
        _settle_players(plan, (program, players), work, gathered, walk_kind, modulus)
    else:
        for u in range(count[0]):
            _final_facts(plan, work[0], keys[used[u]])
            _settle(plan, program, work, walk_kind, sums[used[u]], modulus)
    for u in range(count[0]):
        keys[used[u]] = -1
    count[0] = 0


@kernel(inline=True)
def _settle_players(plan, program, work, gathered, walk_kind, modulus):
    """Settle each key's hands once for each group of the player's cards answering every
    test on cards alike (dealt as the group's first), the player's cards not dealt after."""
    program, players = program
    dealt, facts = program[2], work[0]
    keys, _sums, moments, used, count = gathered
    groups = groups_of_answers(players)
    for u in range(count[0]):
        key_ways(players, moments[used[u]], modulus)
        _final_facts(plan, facts, keys[used[u]])
        for group in range(groups):
            ways = group_ways(players, group, modulus)
            if ways != 0:
                show_answers(players, group, dealt)
                blackjack_facts(dealt, facts)
                _settle(plan, program, work, walk_kind, ways, modulus)
    show_answers(players, -1, dealt)


@kernel(inline=True)
def _final_hand(plan, program, work, scratch, walk, hand, ways, modulus):
    """Gather a final hand ``(hard, ace, cards, packed classes, last class)`` reached with
    ``ways``: times the ways of completing its deal (and of the player's cards, counted
    after a hand of one colour or suit), under the key of what the tests read of it."""
    completion, before, _ways, walk_kind, _players = walk
    if plan.later == 0 and walk_kind != _BY_CLASS and plan.apart:
        ways = _players_after(plan, program[2], hand[3], ways, modulus)
    ways = mulmod(ways, completion[before + hand[2] - 2 + plan.later], modulus)
    if ways == 0:
        return
    gathered = scratch[3]
    if _gather(plan, gathered, _hand_key(plan, hand), hand, ways, modulus):
        _settle_gathered(plan, program, work, gathered, walk, modulus)


@kernel
def _count_draws(plan, players, program, work, scratch, ways, modulus):
    """Add every final hand the dealer can draw to a deal to the tallies.

    ``program = (tests, outcomes, dealt)``: the bet's tests and the deal's cards (its up
    card and hole card dealt); ``work = (facts, matched, tally, own)`` as the enumeration
    keeps them, the deal's own facts already in ``facts``; ``ways`` the deal's ways so far.
    """
    stack = scratch[2]
    dealt = program[2]
    before = _start(plan, dealt, scratch)
    completion = stack[_COMPLETION]  # the ways of completing a deal of j cards, for each j
    completion[plan.complete_to] = 1
    for j in range(plan.complete_to - 1, before - 1, -1):
        completion[j] = mulmod(completion[j + 1], plan.cards - j, modulus)
    # Lent without reference counts to the walks (inlined, their every final hand passing
    # them on): this call's arguments and ``completion``, a row of ``stack``, outlive them
    lent_plan, lent_program = borrowed(plan), borrowed(program)
    lent_work, lent_scratch = borrowed(work), borrowed(scratch)
    lent_players, lent_completion = borrowed(players), borrowed(completion)
    walk = (lent_completion, before, ways, _BY_CLASS, lent_players)
    _walk(lent_plan, lent_program, lent_work, lent_scratch, walk, modulus)
    for walk_kind, bit, groups in (
        (_ONE_COLOUR, READS_COLOURED, plan.counts_colour.shape[1]),
        (_ONE_SUIT, READS_SUITED, plan.counts_suit.shape[1]),
    ):
        if (plan.reads & bit) == 0:
            continue
        # Where no card's suit is read and the shoe holds each class alike in every suit
        # (colour), every suit's (colour's) walk is the first one's: walked once, times them
        alike = plan.apart == 1 and (plan.alike & bit) != 0
        for group in range(1 if alike else groups):
            first = _start_apart(plan, dealt, scratch, walk_kind, group, ways, modulus)
            if alike:
                first = mulmod(first, groups, modulus)
            if first > 0:
                walk = (lent_completion, before, first, walk_kind, lent_players)
                _walk(lent_plan, lent_program, lent_work, lent_scratch, walk, modulus)


@kernel(inline=True)
def _walk(plan, program, work, scratch, walk, modulus):
    """Walk the dealer's draws depth first from the state at depth 0 (``walk = (completion,
    cards dealt before, ways, walk kind)``), settling each final hand."""
    left_all, left_of, stack, gathered = scratch
    left = left_all if walk[3] == _BY_CLASS else left_of
    tally = work[2]
    completion, before, ways, walk_kind, _players = walk
    stack[_WAYS, 0] = ways
    if _dealer_stands(stack[_HARD, 0], stack[_ACE, 0], plan.hits_soft_17):
        hole = _class_of(plan, program[2], BJ_HOLE)
        hand = (stack[_HARD, 0], stack[_ACE, 0], 2, stack[_PACKED, 0], hole)
        _final_hand(plan, program, work, scratch, walk, hand, ways, modulus)
        _settle_gathered(plan, program, work, gathered, walk, modulus)
        return
    k = 0
    stack[_CHOICE, 0] = -1
    while k >= 0:
        stack[_CHOICE, k] += 1
        d = stack[_CHOICE, k]
        if d >= plan.classes:
            k -= 1
            if k >= 0:  # put back the card drawn at depth k
                left[stack[_DREW, k]] += 1
            continue
        if left[d] <= 0:
            continue
        value = plan.value_of[d]
        hard = stack[_HARD, k] + value + 1
        ace = 1 if stack[_ACE, k] == 1 or value == 0 else 0
        packed = stack[_PACKED, k] + (1 << (RANK_BITS * d))
        new_ways = mulmod(stack[_WAYS, k], left[d], modulus)
        if _dealer_stands(hard, ace, plan.hits_soft_17):
            hand = (hard, ace, k + 3, packed, d)
            _final_hand(plan, program, work, scratch, walk, hand, new_ways, modulus)
            continue
        if k + 3 >= plan.cap:  # every final hand from here holds more cards than any pays
            if walk_kind == _BY_CLASS:
                last = tally.size - 1
                lost = mulmod(new_ways, completion[before + k + 1], modulus)
                tally[last] = addmod(tally[last], lost, modulus)
            continue
        left[d] -= 1
        stack[_DREW, k] = d
        k += 1
        stack[_HARD, k], stack[_ACE, k], stack[_PACKED, k] = hard, ace, packed
        stack[_WAYS, k], stack[_CHOICE, k] = new_ways, -1
    _settle_gathered(plan, program, work, gathered, walk, modulus)


# ---------------------------------------------------------------------------------------
# Faces: what the exact count, the simulator and the work estimate call
# ---------------------------------------------------------------------------------------


@kernel_face(_dealer_stands)
def dealer_stands(hard: int, ace: bool, hits_soft_17: bool) -> bool:
    """Whether the dealer draws no more.

    Parameters
    ----------
    hard : int
        The hand's hard total (every ace 1).
    ace : bool
        The hand holds an ace.
    hits_soft_17 : bool
        The dealer hits a soft 17.

    Returns
    -------
    bool
        Busted, 18 and more, or 17 (but a soft 17 where the dealer hits it).
    """
    return bool(_dealer_stands(hard, ace, hits_soft_17))


@kernel_face(_draw_work)
def draw_work(width: int) -> tuple:
    """The scratch arrays :func:`count_draws` reuses for every deal.

    Parameters
    ----------
    width : int
        Columns of a key's sums: 1, or :data:`gamecore.sidebets.dealer_players.MOMENTS`
        where the player's cards are counted after the dealer's hand.

    Returns
    -------
    tuple
        ``(left, left_of, stack, gathered)``: the cards left of each draw class, of it in
        the walk's colour or suit, the state at each depth with the completions, and the
        table gathering final hands by what the tests read of them.
    """
    return _draw_work(width)


@kernel_face(_count_draws)
def count_draws(
    plan: tuple,
    players: tuple,
    program: tuple,
    work: tuple,
    scratch: tuple,
    ways: int,
    modulus: int,
) -> None:
    """Add every final hand the dealer can draw to a deal to the tallies.

    Parameters
    ----------
    plan : DealerPlan
        :func:`gamecore.sidebets.dealer_final.dealer_plan`.
    players : PlayersAfter
        :func:`gamecore.sidebets.dealer_players.players_after`: the player's cards counted
        after the dealer's hand, or not (then the deal holds them).
    program : tuple
        ``(tests, outcomes, dealt)``: the bet's tests and outcomes, and the deal's cards
        (its up card and hole card dealt).
    work : tuple
        ``(facts, matched, tally, own)`` as the enumeration keeps them, the deal's own
        facts already in ``facts``; ``tally`` and ``own`` are added to.
    scratch : tuple
        :func:`draw_work`'s arrays.
    ways : int
        The deal's ways so far (reduced by ``modulus`` unless it is 0).
    modulus : int
        A prime of :data:`gamecore.exactcount.CRT_PRIMES`, or 0 for plain int64.
    """
    _count_draws(plan, players, program, work, scratch, ways, modulus)


@kernel_face(_deal_final)
def deal_final(
    rng,
    codes: np.ndarray,
    start: int,
    fresh: bool,
    table: np.ndarray,
    rule: tuple,
    dealt: np.ndarray,
    facts: np.ndarray,
) -> int:
    """Draw the dealer's cards by the rule and fill the final hand's facts (the simulator's
    dealer).

    Parameters
    ----------
    rng : numpy.random.Generator
        The chunk's generator.
    codes : numpy.ndarray
        int64: the shoe's card codes; the dealer draws from ``codes[start:]``.
    start : int
        The first card the dealer may draw.
    fresh : bool
        Each card first drawn uniformly from the undealt ones
        (:func:`gamecore.dealing.draw_card`), else dealt as it lies.
    table : numpy.ndarray
        int64 (4, 52): each code's point class, rank, suit and colour
        (:func:`gamecore.sidebets.deal.card_table`).
    rule : tuple of int
        ``(hits_soft_17, by_rank, ...)``: the soft-17 rule, and whether the hand's classes
        are ranks (:func:`gamecore.sidebets.program.draws_by_rank`).
    dealt : numpy.ndarray
        The deal's cards, the up card and hole card at full detail.
    facts : numpy.ndarray
        The deal's facts; the final hand's are overwritten.

    Returns
    -------
    int
        The cards the dealer drew.
    """
    return int(_deal_final(rng, codes, start, fresh, table, rule, dealt, facts))
