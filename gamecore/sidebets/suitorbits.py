"""Suits counted by pattern: the deals that differ only by a renaming of suits (or colours)
that neither the bet nor the shoe can tell apart are counted once, times their number.

Central idea
------------
A card dealt fine is one *kind* (:mod:`gamecore.sidebets.program`): a rank class (its point
class, or a part of it where ranks are read) and a *detail*, its suit where suits are read, else
its colour where colours are, else nothing. A permutation ``g`` of the details is a
symmetry of the count when every condition reads the deal renamed by ``g`` as it reads the
deal (``same_suit``, ``same_card`` and poker's flush read suits only as equal or not; a
``suit``/``colour`` condition's list of names must map onto itself; ``same_colour``, or a
colour read beside the suits, asks ``g`` to keep the colours apart) and every kind of the
actual shoe has as many cards as the kind ``g`` renames it to (a shoe less one card has the
symmetries fixing that card's suit alone). The symmetries make a group ``G``: the checks are
each closed under composition.

For such a ``G`` the ways of every outcome summed over all detail strings of the fine cards
dealt (``details ** fine`` of them) equal the sum over one string of each orbit, its least
in dealing order, times the orbit's size. The least strings are closed under prefixes (a
string is least in its orbit only if every prefix is least in its own), so they form a trie
the kernel walks one fine card at a time, wherever the tableau stops: at most 203 strings
of six suits under all 24 permutations instead of 4,096. Where ``G`` is the identity alone
the trie holds every string: the plain full enumeration.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import NamedTuple

import numpy as np

from gamecore import cards
from gamecore.sidebets.conditions import leaves
from gamecore.sidebets.definition import Condition, SideBet
from gamecore.sidebets.program import COLOUR, SUIT, VALUE, Classes

#: Conditions that read suits or colours only as equal or not (any renaming keeps them).
_RENAMING_BLIND = ("same_rank", "same_suit", "same_card", "poker_hand")
#: Conditions that read no card's suit or colour at all.
_SUIT_FREE = ("rank", "total", "natural", "winner", "margin", "cards_dealt", "hand_cards")


class SuitTrie(NamedTuple):
    """The least detail strings of their orbits, as a trie the kernels walk.

    Attributes
    ----------
    details : int
        Details of each rank class: 4 (suits), 2 (colours) or 1; a fine kind is
        ``rank_class * details + detail``.
    start, children : numpy.ndarray
        int64 (nodes,): each node's first edge and number of edges (node 0: the empty
        string).
    detail, child : numpy.ndarray
        int64 (edges,): each edge's detail and the node it leads to.
    weight : numpy.ndarray
        int64 (nodes,): the size of the orbit of the node's string (1 for the root).
    depth_start : numpy.ndarray
        int64 (depth + 2,): the nodes of depth ``k`` are ``depth_start[k]`` up to
        ``depth_start[k + 1]`` (breadth first).
    strings : numpy.ndarray
        int64 (nodes, max(depth, 1)): each node's string, -1 past its length.
    """

    details: int
    start: np.ndarray
    children: np.ndarray
    detail: np.ndarray
    child: np.ndarray
    weight: np.ndarray
    depth_start: np.ndarray
    strings: np.ndarray


def detail_count(shoe: Classes) -> int:
    """The details of each rank class at the fine level: 4, 2 or 1.

    The fine kinds are numbered rank class by rank class, each with the same details in the
    same order (:func:`gamecore.sidebets.program.classes` numbers them as it first meets
    them, every rank through every suit), which this checks.

    Parameters
    ----------
    shoe : Classes
        The shoe's classes for the bet.

    Returns
    -------
    int
        Kinds per rank class.
    """
    size = int(shoe.sizes[1])
    attributes = shoe.attributes[1]
    for details in (4, 2, 1):
        if size % details:
            continue
        first = attributes[SUIT : COLOUR + 1, :details]
        if (
            all(
                np.array_equal(attributes[SUIT : COLOUR + 1, k : k + details], first)
                and len(set(attributes[VALUE, k : k + details].tolist())) == 1
                for k in range(0, size, details)
            )
            and len({tuple(first[:, d]) for d in range(details)}) == details
        ):
            return details
    raise AssertionError("fine kinds not numbered rank class by rank class")  # never


def leaf_conditions(bet: SideBet) -> Iterator[Condition]:
    """Every plain condition of every outcome, inside ``any``, ``all`` and ``not`` too.

    Parameters
    ----------
    bet : SideBet
        A checked definition.

    Yields
    ------
    Condition
        Each condition that is not a composite.
    """
    for outcome in bet.outcomes:
        yield from leaves(outcome.conditions)


def symmetries(bet: SideBet, shoe: Classes) -> list[tuple[int, ...]]:
    """The renamings of details that neither the bet nor the shoe tells apart.

    Parameters
    ----------
    bet : SideBet
        A checked definition.
    shoe : Classes
        The actual shoe's classes for the bet.

    Returns
    -------
    list of tuple
        Each a permutation ``g`` of ``range(details)`` (``g[d]`` the detail ``d`` becomes),
        the identity first.
    """
    details = detail_count(shoe)
    attributes = shoe.attributes[1]
    suit_of = [int(attributes[SUIT, d]) for d in range(details)]
    colour_of = [int(attributes[COLOUR, d]) for d in range(details)]
    keep_sets, keep_colours = [], False
    for condition in leaf_conditions(bet):
        if condition.kind in _RENAMING_BLIND or condition.kind in _SUIT_FREE:
            continue
        if condition.kind == "same_colour":
            keep_colours = True
        elif condition.kind in ("suit", "colour"):
            names = cards.SUITS if condition.kind == "suit" else cards.COLOURS
            of = suit_of if condition.kind == "suit" else colour_of
            keep_sets.append({d for d in range(details) if names[of[d]] in condition.values})
            keep_colours |= condition.kind == "colour"
        else:
            return [tuple(range(details))]  # a condition not known here: no renaming
    counts = shoe.counts[1, : int(shoe.sizes[1])].reshape(-1, details)
    found = []
    for g in itertools.permutations(range(details)):
        if not np.array_equal(counts[:, list(g)], counts):
            continue
        if any({g[d] for d in kept} != kept for kept in keep_sets):
            continue
        if keep_colours and any(
            (colour_of[a] == colour_of[b]) != (colour_of[g[a]] == colour_of[g[b]])
            for a in range(details)
            for b in range(details)
        ):
            continue
        found.append(g)
    return found


def suit_trie(group: list[tuple[int, ...]], depth: int) -> SuitTrie:
    """The trie of the least strings of their orbits under ``group``, ``depth`` long at most.

    Parameters
    ----------
    group : list of tuple
        Permutations of ``range(details)``, closed under composition, the identity among
        them.
    depth : int
        The most fine cards a deal holds.

    Returns
    -------
    SuitTrie
        Breadth first: node 0 the empty string.
    """
    details = len(group[0])
    strings: list[tuple[int, ...]] = [()]
    edges: list[list[tuple[int, int]]] = [[]]
    weights = [1]
    level = [0]
    for _ in range(depth):
        following = []
        for node in level:
            for d in range(details):
                string = strings[node] + (d,)
                orbit = {tuple(g[x] for x in string) for g in group}
                if min(orbit) != string:
                    continue
                strings.append(string)
                edges.append([])
                weights.append(len(orbit))
                edges[node].append((d, len(strings) - 1))
                following.append(len(strings) - 1)
        level = following
    start = np.cumsum([0] + [len(e) for e in edges[:-1]]).astype(np.int64)
    flat = [edge for node_edges in edges for edge in node_edges]
    lengths = np.array([len(string) for string in strings], dtype=np.int64)
    table = np.full((len(strings), max(depth, 1)), -1, dtype=np.int64)
    for node, string in enumerate(strings):
        table[node, : len(string)] = string
    return SuitTrie(
        details,
        start,
        np.array([len(e) for e in edges], dtype=np.int64),
        np.array([d for d, _ in flat], dtype=np.int64).reshape(-1),
        np.array([c for _, c in flat], dtype=np.int64).reshape(-1),
        np.array(weights, dtype=np.int64),
        np.searchsorted(lengths, np.arange(depth + 2), side="left").astype(np.int64),
        table,
    )


def trie_for(bet: SideBet, shoe: Classes, depth: int) -> SuitTrie:
    """The trie a count of ``bet`` from ``shoe`` walks (:func:`symmetries`, :func:`suit_trie`).

    Parameters
    ----------
    bet : SideBet
        A checked definition.
    shoe : Classes
        The actual shoe's classes for the bet.
    depth : int
        The most fine cards a deal holds.

    Returns
    -------
    SuitTrie
        Its least strings.
    """
    return suit_trie(symmetries(bet, shoe), depth)


def strings_by_length(trie: SuitTrie) -> np.ndarray:
    """How many strings of each length the trie holds (the suit patterns a count deals
    for a deal of that many fine cards).

    Parameters
    ----------
    trie : SuitTrie
        A trie.

    Returns
    -------
    numpy.ndarray
        int64: entry ``k`` the nodes at depth ``k``.
    """
    return np.diff(trie.depth_start)
