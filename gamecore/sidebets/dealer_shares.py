"""The player's cards of a bet on the dealer's final hand at each deal: their kinds' shares
and their groups of answers (:mod:`gamecore.sidebets.dealer_players` says how they are
counted after the dealer's hand).

Central idea
------------
At a deal of the up card and hole card, the player's cards are settled not choice by choice
but one group of answers at a time: the groups of choices that answer every test on cards
alike at that deal (a bit each), whose rows' shares ``f`` are summed by pair of classes.
A key of the dealer's final hands is then settled once for each group of answers, its ways
``sum`` over pairs of classes of the dealer's ways from the shoe less that pair (``cc / g``,
from the key's moments) times the group's summed ``f``. The answers do not depend on the
prime a pass counts modulo: found at the first pass, they are kept for the others.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from gamecore._jit import kernel, kernel_face
from gamecore.exactcount import addmod, invmod, mulmod
from gamecore.sidebets.deal import BJ_HOLE, BJ_UP, blackjack_facts, test_holds
from gamecore.sidebets.program import RANK_BITS

#: Point classes a player's card is read at (the draw classes where draws are by class).
_CLASSES = 10
#: A blackjack deal's attribute rows (as the counts hold it).
_ATTRIBUTES = 4


class PlayerTests(NamedTuple):
    """The tests on cards (not on the dealer's final hand) and the choices they are asked
    of.

    Attributes
    ----------
    rows : numpy.ndarray
        int64 (tests,): the test rows that read the cards and their facts (at most 63: a
        group's answers are one bit each).
    reads : numpy.ndarray
        int64 (tests,): which of the player's cards each reads (bit 0 the first, bit 1 the
        second): one that reads one card is asked of its choices alone, not of every pair.
    choice : numpy.ndarray
        int64 (groups, 2): each group's first pair, as the index of each card's choice (-1:
        not dealt).
    shown : numpy.ndarray
        int64 (2, choices, 4): each choice of each card as dealt for the tests.
    count : numpy.ndarray
        int64 (2,): the choices of each card (0: not dealt).
    """

    rows: np.ndarray
    reads: np.ndarray
    choice: np.ndarray
    shown: np.ndarray
    count: np.ndarray


class PlayersDeal(NamedTuple):
    """The shares of the player's cards for the deal being walked (:func:`players_deal`
    fills them for each up card and hole card, :func:`group_ways` reads them).

    Attributes
    ----------
    left, left_kind : numpy.ndarray
        int64 (classes,) and (kinds,): the shoe less the dealer's cards dealt by kind.
    whole : numpy.ndarray
        int64 (class pairs,): ``g``, each class pair's falling count in that shoe.
    inverse : numpy.ndarray
        int64 (class pairs,): the inverse of ``g`` modulo the pass's prime (0 where ``g``
        is 0).
    share : numpy.ndarray
        int64 (rows,): ``f``, each row's own falling count (``g`` for a row of classes).
    dealer_ways : numpy.ndarray
        int64 (class pairs,): for the key being settled, the dealer's hands' ways from the
        shoe less each class pair (``cc / g``).
    answers : numpy.ndarray
        int32 (deals, groups + 1): for each deal of the up card and hole card, each group's
        group of answers (the groups answering the tests on cards alike, numbered in order
        of first appearance), found at the first pass and kept (the last column: how many,
        plus one; 0 until found).
    answer_groups : numpy.ndarray
        int64 (1,): how many groups of answers the deal holds.
    first : numpy.ndarray
        int64 (groups,): each of the deal's groups of answers, its first group (dealt for
        the tests).
    local_share : numpy.ndarray
        int64 (groups, class pairs): each of the deal's groups of answers, its rows' ``f``
        summed by class pair.
    slots : numpy.ndarray
        int64 (3, slots): the table finding a group of answers by its answers (its keys,
        each key's group of answers), and the slots used in order.
    by_choice : numpy.ndarray
        int64 (2, choices): at the deal, each choice of each card's answers to the tests
        that read that card alone (or no player's card: asked with the first card's).
    bits : numpy.ndarray
        int64 (groups,): at the deal's first pass, each group's answers (a bit each).
    """

    left: np.ndarray
    left_kind: np.ndarray
    whole: np.ndarray
    inverse: np.ndarray
    share: np.ndarray
    dealer_ways: np.ndarray
    answers: np.ndarray
    answer_groups: np.ndarray
    first: np.ndarray
    local_share: np.ndarray
    slots: np.ndarray
    by_choice: np.ndarray
    bits: np.ndarray


@kernel
def _add_moments(moments, packed, ways, modulus):
    """Add a final hand of classes ``packed`` (:data:`RANK_BITS` bits a class) with weight
    ``ways`` to a key's moments."""
    moments[0] = _add(moments[0], ways, modulus)
    for c in range(_CLASSES):
        held = (packed >> (RANK_BITS * c)) & 15
        if held == 0:
            continue
        # ways is a residue and a class holds at most 15 cards: the products stay in int64
        weighted = _mul(ways, held, modulus)
        moments[1 + c] = _add(moments[1 + c], weighted, modulus)
        row = 1 + _CLASSES + _CLASSES * c
        for d in range(_CLASSES):
            other = (packed >> (RANK_BITS * d)) & 15
            if other != 0:
                moments[row + d] = _add(moments[row + d], _mul(weighted, other, modulus), modulus)


@kernel(inline=True)
def _mul(a, b, modulus):
    """``a b`` of two residues (each below 2**31: the product stays in int64; plain where
    ``modulus`` is 0): one division, where :func:`gamecore.exactcount.mulmod` reduces its
    factors first."""
    return a * b if modulus == 0 else a * b % modulus


@kernel(inline=True)
def _add(a, b, modulus):
    """``a + b`` of two residues (plain where ``modulus`` is 0)."""
    total = a + b
    return total - modulus if modulus != 0 and total >= modulus else total


@kernel(inline=True)
def _less(plus, minus, modulus):
    """``plus - minus`` (residues where ``modulus`` is not 0)."""
    if modulus == 0:
        return plus - minus
    return addmod(plus, modulus - minus % modulus, modulus)


@kernel(inline=True)
def _class_ways(n, c1, c2, moments, modulus):
    """The ways of the player's cards of classes ``c1`` and ``c2`` (-1: one card) after
    the hands of a key, from their moments."""
    n1 = n[c1]
    if c2 < 0:
        return _less(_mul(n1, moments[0], modulus), moments[1 + c1], modulus)
    n2 = n[c2] - (1 if c1 == c2 else 0)
    plus = _add(
        _mul(_mul(n1, n2, modulus), moments[0], modulus),
        moments[1 + _CLASSES + _CLASSES * c1 + c2],
        modulus,
    )
    minus = _add(_mul(n2, moments[1 + c1], modulus), _mul(n1, moments[1 + c2], modulus), modulus)
    return _less(plus, minus, modulus)


@kernel(inline=True)
def _row_share(players, row, left, left_kind, whole):
    """``f``: the row's own falling count in the deal's shoe (``whole`` for classes)."""
    k1, k2 = players.kinds[row, 0], players.kinds[row, 1]
    if k1 < 0 and k2 < 0:
        return whole
    c1, c2 = players.pairs[players.rows[row], 0], players.pairs[players.rows[row], 1]
    if c2 < 0:
        return left_kind[k1]
    if k1 >= 0 and k2 >= 0:
        return left_kind[k1] * (left_kind[k2] - (1 if k1 == k2 else 0))
    # one card by kind, counted first; the other its class less that card
    kind, other = (k1, c2) if k1 >= 0 else (k2, c1)
    return left_kind[kind] * (left[other] - (1 if players.kind_class[kind] == other else 0))


@kernel
def _players_deal(players, deal_at, program, facts, modulus):
    index, levels, chosen = deal_at
    deal = players.deal
    left, left_kind = deal.left, deal.left_kind
    for c in range(left.size):
        left[c] = players.counts[c]
    for k in range(left_kind.size):
        left_kind[k] = players.kind_counts[k]
    for p in (BJ_UP, BJ_HOLE):  # the dealer's cards dealt by kind; the rest lie in classes
        if levels[p] == 1:
            left_kind[chosen[p]] -= 1
            left[players.kind_class[chosen[p]]] -= 1
    for j in range(players.pairs.shape[0]):
        c1, c2 = players.pairs[j, 0], players.pairs[j, 1]
        whole = left[c1] if c2 < 0 else left[c1] * (left[c2] - (1 if c1 == c2 else 0))
        deal.whole[j] = whole if whole > 0 else 0
    if modulus != 0:
        _inverses(deal.whole, deal.inverse, modulus)
    for row in range(players.rows.size):
        share = _row_share(players, row, left, left_kind, deal.whole[players.rows[row]])
        deal.share[row] = share if share > 0 else 0
    _gather_answers(players, index, program, facts, modulus)


@kernel(inline=True)
def _inverses(values, inverses, modulus):
    """The inverse of each value modulo the prime (0 for a value 0), by one inversion of
    their product and three products each (the prefix products walked back)."""
    product = 1
    for j in range(values.size):  # prefix products of the values not 0
        inverses[j] = product
        if values[j] != 0:
            product = mulmod(product, values[j], modulus)
    inverse = invmod(product, modulus)  # of every value not 0
    for j in range(values.size - 1, -1, -1):
        if values[j] == 0:
            inverses[j] = 0
            continue
        prefix = inverses[j]
        inverses[j] = mulmod(inverse, prefix, modulus)
        inverse = mulmod(inverse, values[j], modulus)


@kernel(inline=True)
def _ask(tests, asked, which, dealt, facts):
    """The answers (a bit each) of the tests on cards whose player's cards read are
    ``which`` (or, ``which`` 1, none), the cards in ``dealt``."""
    blackjack_facts(dealt, facts)
    bits = 0
    for i in range(asked.rows.size):
        reads = asked.reads[i]
        if reads == which or (which == 1 and reads == 0):
            if test_holds(tests, asked.rows[i], dealt, facts):
                bits |= 1 << i
    return bits


@kernel(inline=True)
def _find_answers(players, program, facts):
    """Each group's answers at the deal: the tests reading one player's card asked of that
    card's choices, the tests reading both of each group's first pair."""
    tests, _outcomes, dealt = program
    asked, deal = players.tests, players.deal
    answers = deal.bits
    for i in range(2):
        position = players.positions[i]
        for choice in range(asked.count[i]):
            for attribute in range(_ATTRIBUTES):
                dealt[attribute, position] = asked.shown[i, choice, attribute]
            deal.by_choice[i, choice] = _ask(tests, asked, 1 << i, dealt, facts)
        if position >= 0:
            for attribute in range(_ATTRIBUTES):
                dealt[attribute, position] = -1
    both = 0
    for i in range(asked.reads.size):
        if asked.reads[i] == 3:
            both = 1
    for g in range(players.start.size - 1):
        bits = 0
        for i in range(2):
            if asked.choice[g, i] >= 0:
                bits |= deal.by_choice[i, asked.choice[g, i]]
        if both:
            _show_group(players, g, dealt)
            bits |= _ask(tests, asked, 3, dealt, facts)
        answers[g] = bits
    _show_group(players, -1, dealt)
    blackjack_facts(dealt, facts)


@kernel(inline=True)
def _number_answers(players, answers, local):
    """Set each group's group of answers at the deal (``local``: numbered in order of first
    appearance) from its ``answers``; return how many."""
    keys, found, used = players.deal.slots[0], players.deal.slots[1], players.deal.slots[2]
    mask = keys.size - 1
    count = 0
    for g in range(players.start.size - 1):
        slot = (answers[g] * 40503) & mask
        while keys[slot] >= 0 and keys[slot] != answers[g]:
            slot = (slot + 1) & mask
        if keys[slot] < 0:
            keys[slot], found[slot], used[count] = answers[g], count, slot
            count += 1
        local[g] = found[slot]
    for numbered in range(count):  # empty the table
        keys[used[numbered]] = -1
    return count


@kernel(inline=True)
def _gather_answers(players, index, program, facts, modulus):
    """Gather the deal's groups by their answers (found and numbered at the first pass,
    then kept), and sum their rows' shares by class pair for each group of answers."""
    deal = players.deal
    groups = players.start.size - 1
    local = deal.answers[index]  # each group's group of answers; then how many, plus 1
    if local[groups] == 0:
        _find_answers(players, program, facts)
        local[groups] = _number_answers(players, players.deal.bits, local) + 1
    count = local[groups] - 1
    deal.local_share[:count, :] = 0
    seen = 0
    for g in range(groups):
        if local[g] == seen:  # numbered in order of first appearance
            deal.first[seen] = g
            seen += 1
        for row in range(players.start[g], players.start[g + 1]):
            j = players.rows[row]
            added = _add(deal.local_share[local[g], j], deal.share[row], modulus)
            deal.local_share[local[g], j] = added
    deal.answer_groups[0] = count


@kernel
def _key_ways(players, moments, modulus):
    deal = players.deal
    for j in range(players.pairs.shape[0]):
        whole = deal.whole[j]
        if whole <= 0:
            deal.dealer_ways[j] = 0
            continue
        held = _class_ways(
            players.counts, players.pairs[j, 0], players.pairs[j, 1], moments, modulus
        )
        if modulus == 0:
            deal.dealer_ways[j] = held // whole
        else:
            deal.dealer_ways[j] = _mul(held, deal.inverse[j], modulus)


@kernel
def _group_ways(players, local, modulus):
    """The ways of the deal's group of answers ``local`` over a key's hands."""
    deal = players.deal
    ways = 0
    for j in range(players.pairs.shape[0]):
        if deal.local_share[local, j] != 0:
            held = _mul(deal.dealer_ways[j], deal.local_share[local, j], modulus)
            ways = _add(ways, held, modulus)
    return ways


@kernel(inline=True)
def _show_group(players, group, dealt):
    """Deal the group's cards at the player's positions (or take them back: ``group``
    -1)."""
    for i in range(2):
        position = players.positions[i]
        if position >= 0:
            for attribute in range(_ATTRIBUTES):
                dealt[attribute, position] = -1 if group < 0 else players.shown[group, i, attribute]


@kernel_face(_key_ways)
def key_ways(players: tuple, moments: np.ndarray, modulus: int) -> None:
    """Set the dealer's ways of a key's hands from the shoe less each pair of the player's
    classes (``cc / g``, :attr:`PlayersDeal.dealer_ways`), for :func:`group_ways`.

    Parameters
    ----------
    players : PlayersAfter
        :func:`~gamecore.sidebets.dealer_players.players_after`, :func:`players_deal`
        called for the deal.
    moments : numpy.ndarray
        The key's moments (:func:`gamecore.sidebets.dealer_players.add_moments`).
    modulus : int
        A prime of :data:`gamecore.exactcount.CRT_PRIMES`, or 0 for plain int64.
    """
    _key_ways(players, moments, modulus)


@kernel_face(_group_ways)
def group_ways(players: tuple, group: int, modulus: int) -> int:
    """The ways of one group of the player's cards over the hands of a key.

    Parameters
    ----------
    players : PlayersAfter
        :func:`~gamecore.sidebets.dealer_players.players_after`, :func:`key_ways` called
        for the key.
    group : int
        The group.
    modulus : int
        A prime of :data:`gamecore.exactcount.CRT_PRIMES`, or 0 for plain int64.

    Returns
    -------
    int
        ``sum`` over the group's rows of the player's ways after the key's hands, times
        their weights: the dealer's ways from the shoe less the row's classes times ``f``.
    """
    return int(_group_ways(players, group, modulus))


@kernel_face(_players_deal)
def players_deal(
    players: tuple, deal: tuple, program: tuple, facts: np.ndarray, modulus: int
) -> None:
    """Prepare the player's cards for one deal of the dealer's up card and hole card: the
    shoe their kinds are shared out of (less the dealer's cards dealt by kind), the
    inverses of their classes' counts under ``modulus``, and their groups of answers (the
    groups answering every test on cards alike at this deal, each with its rows' shares
    summed by class pair).

    Parameters
    ----------
    players : PlayersAfter
        :func:`~gamecore.sidebets.dealer_players.players_after`; its :class:`PlayersDeal`
        is overwritten.
    deal : tuple
        ``(index, levels, chosen)``: the deal's index among the deals of the up card and
        hole card (its answers are found at the first pass and kept), each position's level
        as the count deals it (1: by kind) and the class or kind dealt at each.
    program : tuple
        ``(tests, outcomes, dealt)``: the bet's tests and the deal's cards (the player's
        not dealt; they are dealt and taken back while the answers are found).
    facts : numpy.ndarray
        The deal's facts, the same after the call.
    modulus : int
        A prime of :data:`gamecore.exactcount.CRT_PRIMES`, or 0 for plain int64.
    """
    _players_deal(players, deal, program, facts, modulus)


@kernel
def _show_answers(players, local, dealt):
    deal = players.deal
    _show_group(players, deal.first[local] if local >= 0 else -1, dealt)


@kernel
def _groups_of_answers(players):
    return players.deal.answer_groups[0]


@kernel_face(_groups_of_answers)
def groups_of_answers(players: tuple) -> int:
    """How many groups of answers the deal being walked holds (:func:`players_deal`).

    Parameters
    ----------
    players : PlayersAfter
        :func:`~gamecore.sidebets.dealer_players.players_after`, :func:`players_deal`
        called for the deal.

    Returns
    -------
    int
        The groups of the player's cards that answer every test on cards alike at the
        deal: each is settled once a key.
    """
    return int(_groups_of_answers(players))


@kernel_face(_show_answers)
def show_answers(players: tuple, local: int, dealt: np.ndarray) -> None:
    """Deal a group of answers' cards at the player's positions, as the tests read them.

    Parameters
    ----------
    players : PlayersAfter
        :func:`~gamecore.sidebets.dealer_players.players_after`, :func:`players_deal`
        called for the deal.
    local : int
        The deal's group of answers, or -1 to take the player's cards back (not dealt).
    dealt : numpy.ndarray
        int64 (4, 4): the deal's cards, overwritten at the player's positions.
    """
    _show_answers(players, local, dealt)


@kernel_face(_add_moments)
def add_moments(moments: np.ndarray, packed: int, ways: int, modulus: int) -> None:
    """Add a final hand with weight ``ways`` to a key's moments.

    Parameters
    ----------
    moments : numpy.ndarray
        int64 (:data:`gamecore.sidebets.dealer_players.MOMENTS`,): ``M0``, ``M1`` by class,
        ``M2`` by pair of classes.
    packed : int
        The hand's classes, :data:`gamecore.sidebets.program.RANK_BITS` bits a class.
    ways : int
        The hand's ways, its completion included (reduced by ``modulus`` unless 0).
    modulus : int
        A prime of :data:`gamecore.exactcount.CRT_PRIMES`, or 0 for plain int64.
    """
    _add_moments(moments, packed, ways, modulus)
