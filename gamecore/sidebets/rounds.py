"""A baccarat side bet's exact count: every round at the detail the bet reads, the tableau
dealt only where a condition reads it, suits by pattern, every modulus in one pass.

Central idea
------------
Three reductions of the plain enumeration (each card over the bet's kinds, the whole tableau
under every four first cards, once per modulus), each exact:

* **The tableau where it is read.** A round's third cards, its totals, winner, margin and
  card counts are the tableau's; a bet none of whose conditions reads them (nor a third
  card) is settled by its first cards, and only those a condition reads are dealt: the
  other cards of the six counted fall in any order from the cards left, the falling
  factorial that completes every deal to six cards (as the par sheets count).
* **Suits by pattern.** The fine cards' suits (or colours) are dealt one string of each
  orbit under the renamings neither bet nor shoe tells apart, times the orbit's size
  (:mod:`gamecore.sidebets.suitorbits`): a rank class loops at each fine card, its suit
  follows the trie of least strings.
* **One pass for every modulus.** Where counts pass int64 (1,000 decks) each deal's ways are
  taken modulo every prime in the same visit (:func:`gamecore.exactcount.exact_counts_at_once`).

A deal's ways are the product of the remaining counts of the card sets it drew, fine kinds
first (:mod:`gamecore.sidebets.exact`), times the orbit's size.
"""

from __future__ import annotations

import math

import numpy as np

from gamecore import cards
from gamecore._jit import kernel
from gamecore.baccarat.tableau import DrawingTables
from gamecore.exactcount import addmod, exact_counts_at_once, mulmod
from gamecore.interrupts import off_the_main_thread
from gamecore.sidebets.deal import B1, B2, B3, FACTS, P1, P2, P3, baccarat_facts, outcome_of
from gamecore.sidebets.definition import CARDS, SideBet
from gamecore.sidebets.program import COARSE, VALUE, Program, classes, compile_bet
from gamecore.sidebets.suitorbits import leaf_conditions, trie_for

#: Cards a baccarat round is completed to (the par sheets' convention).
BACCARAT_CARDS = 6
#: Conditions that read nothing the tableau decides (nor a third card by themselves).
_FIRST_CARDS_ONLY = (
    "same_rank",
    "same_suit",
    "same_colour",
    "same_card",
    "rank",
    "suit",
    "colour",
    "natural",
    "poker_hand",
)
#: The third cards' names.
_THIRD_CARDS = ("player_3", "banker_3")


def reads_tableau(bet: SideBet) -> bool:
    """Whether some condition of a baccarat bet reads what the tableau decides: a third
    card, a final total, the winner, the margin, the cards dealt or a hand's cards.

    Parameters
    ----------
    bet : SideBet
        A checked baccarat definition.

    Returns
    -------
    bool
        False where every condition reads the first four cards alone (a condition not known
        here counts as reading the tableau).
    """
    return any(
        condition.kind not in _FIRST_CARDS_ONLY or set(condition.cards) & set(_THIRD_CARDS)
        for condition in leaf_conditions(bet)
    )


def round_program(bet: SideBet) -> tuple[Program, bool]:
    """The bet compiled, with the cards its count deals: every card where the tableau is
    read, else only the first cards a condition reads (a natural reads all four).

    Parameters
    ----------
    bet : SideBet
        A checked baccarat definition.

    Returns
    -------
    program : Program
        :func:`gamecore.sidebets.program.compile_bet`'s, a card not dealt at level -1.
    tableau : bool
        Whether the count deals the round by the tableau.
    """
    program = compile_bet(bet)
    tableau = reads_tableau(bet)
    if tableau:
        return program, True
    read = set()
    for condition in leaf_conditions(bet):
        read |= set(condition.cards)
        if condition.kind == "natural":
            read |= set(CARDS["baccarat"][:4])
    levels = program.levels.copy()
    for position, name in enumerate(CARDS["baccarat"]):
        if name not in read:
            levels[position] = -1
    return program._replace(levels=levels), False


@kernel(inline=True)
def _choices(levels, sizes, trie, position, node):
    """How many ways the loop at ``position`` runs, from trie node ``node``."""
    level = levels[position]
    if level < 0:
        return 1
    if level == 0:
        return sizes[0]
    return sizes[1] // trie.details * trie.children[node]


@kernel(inline=True)
def _choose(attributes, levels, trie, position, choice, node, dealt, chosen):
    """Deal choice ``choice`` of the loop at ``position``; the trie node it leads to."""
    level = levels[position]
    kind = -1 if level < 0 else choice
    if level == 1:
        edge = trie.start[node] + choice % trie.children[node]
        kind = choice // trie.children[node] * trie.details + trie.detail[edge]
        node = trie.child[edge]
    chosen[position] = kind
    for attribute in range(dealt.shape[0]):
        dealt[attribute, position] = -1 if kind < 0 else attributes[level, attribute, kind]
    return node


@kernel(inline=True)
def _no_card(dealt, chosen, position):
    chosen[position] = -1
    for attribute in range(dealt.shape[0]):
        dealt[attribute, position] = -1


@kernel(inline=True)
def _factors(counts, attributes, levels, chosen, factors):
    """The remaining counts the deal ``chosen`` draws from, fine kinds first, then the
    cards that complete it to six, into ``factors``; False where a count runs out."""
    n = 0
    for c in range(counts.shape[1]):
        n += counts[0, c]
    dealt = 0
    for p in range(chosen.size):  # fine kinds first: their counts are their own
        if chosen[p] < 0 or levels[p] != 1:
            continue
        left = counts[1, chosen[p]]
        for q in range(p):
            if chosen[q] == chosen[p] and levels[q] == 1:
                left -= 1
        if left <= 0:
            return False
        factors[dealt] = left
        dealt += 1
    for p in range(chosen.size):  # then point classes, less every card drawn inside them
        if chosen[p] < 0 or levels[p] != 0:
            continue
        left = counts[0, chosen[p]]
        for q in range(chosen.size):
            if chosen[q] < 0:
                continue
            if levels[q] == 1 and attributes[1, COARSE, chosen[q]] == chosen[p]:
                left -= 1
            elif levels[q] == 0 and q < p and chosen[q] == chosen[p]:
                left -= 1
        if left <= 0:
            return False
        factors[dealt] = left
        dealt += 1
    for j in range(dealt, factors.size):
        factors[j] = n - j
    return True


@kernel
def _settle(shoe, program, weight, dealt, chosen, work, moduli):
    """Add a round's ways, times ``weight`` (its suit orbit's size), under every modulus,
    to the outcome paid and every outcome matched (``work = (facts, matched, factors,
    tally, own)``)."""
    counts, attributes, _sizes = shoe
    tests, outcomes, levels = program
    facts, matched, factors, tally, own = work
    if not _factors(counts, attributes, levels, chosen, factors):
        return
    baccarat_facts(dealt, facts)
    paid = outcome_of(tests, outcomes, dealt, facts, matched)
    for m in range(moduli.size):
        modulus = moduli[m]
        ways = weight
        for f in range(factors.size):
            ways = mulmod(ways, factors[f], modulus)
        tally[m, paid] = addmod(tally[m, paid], ways, modulus)
        for o in range(outcomes):
            if matched[o]:
                own[m, o] = addmod(own[m, o], ways, modulus)


@kernel(inline=True)
def _third_cards(shoe, program, trie, drawing, node, dealt, chosen, work, moduli):
    """Deal the third cards of a round whose first four are dealt, by the tableau."""
    _counts, attributes, sizes = shoe
    levels = program.levels
    player = (dealt[VALUE, P1] + dealt[VALUE, P2]) % 10
    banker = (dealt[VALUE, B1] + dealt[VALUE, B2]) % 10
    _no_card(dealt, chosen, P3)
    _no_card(dealt, chosen, B3)
    if player >= 8 or banker >= 8:  # a natural: nobody draws
        _settle(shoe, program, trie.weight[node], dealt, chosen, work, moduli)
    elif drawing.player_draws[player]:
        for i4 in range(_choices(levels, sizes, trie, P3, node)):
            n4 = _choose(attributes, levels, trie, P3, i4, node, dealt, chosen)
            if drawing.banker_draws[banker, dealt[VALUE, P3]]:
                for i5 in range(_choices(levels, sizes, trie, B3, n4)):
                    n5 = _choose(attributes, levels, trie, B3, i5, n4, dealt, chosen)
                    _settle(shoe, program, trie.weight[n5], dealt, chosen, work, moduli)
                _no_card(dealt, chosen, B3)
            else:
                _settle(shoe, program, trie.weight[n4], dealt, chosen, work, moduli)
    elif drawing.banker_draws_player_stood[banker]:
        for i5 in range(_choices(levels, sizes, trie, B3, node)):
            n5 = _choose(attributes, levels, trie, B3, i5, node, dealt, chosen)
            _settle(shoe, program, trie.weight[n5], dealt, chosen, work, moduli)
    else:
        _settle(shoe, program, trie.weight[node], dealt, chosen, work, moduli)


@kernel
def _count_rounds(shoe, program, trie, drawing, tableau, moduli):
    """Ways of each outcome paid (losing last) and matched, under each modulus (a row
    each), over every round at the bet's detail."""
    _counts, attributes, sizes = shoe
    levels, outcomes = program.levels, program.outcomes
    dealt = np.full((4, levels.size), -1, dtype=np.int64)
    chosen = np.full(levels.size, -1, dtype=np.int64)
    work = (
        np.zeros(FACTS, dtype=np.int64),
        np.zeros(outcomes, dtype=np.bool_),
        np.zeros(BACCARAT_CARDS, dtype=np.int64),
        np.zeros((moduli.size, outcomes + 1), dtype=np.int64),
        np.zeros((moduli.size, outcomes), dtype=np.int64),
    )
    for i0 in range(_choices(levels, sizes, trie, P1, 0)):
        n0 = _choose(attributes, levels, trie, P1, i0, 0, dealt, chosen)
        for i1 in range(_choices(levels, sizes, trie, B1, n0)):
            n1 = _choose(attributes, levels, trie, B1, i1, n0, dealt, chosen)
            for i2 in range(_choices(levels, sizes, trie, P2, n1)):
                n2 = _choose(attributes, levels, trie, P2, i2, n1, dealt, chosen)
                for i3 in range(_choices(levels, sizes, trie, B2, n2)):
                    n3 = _choose(attributes, levels, trie, B2, i3, n2, dealt, chosen)
                    if tableau:
                        _third_cards(shoe, program, trie, drawing, n3, dealt, chosen, work, moduli)
                    else:
                        _settle(shoe, program, trie.weight[n3], dealt, chosen, work, moduli)
    return work[3], work[4]


def count_rounds(
    bet: SideBet, shoe: cards.Shoe, drawing: DrawingTables
) -> tuple[int, list[int], list[int]]:
    """Exact ways of every outcome of a baccarat ``bet`` dealt from ``shoe``.

    Parameters
    ----------
    bet : SideBet
        A checked baccarat definition.
    shoe : gamecore.cards.Shoe
        The cards, by rank and suit.
    drawing : DrawingTables
        Baccarat's tableau.

    Returns
    -------
    total, paid, matched
        As :func:`gamecore.sidebets.exact.count_outcomes` gives them.
    """
    program, tableau = round_program(bet)
    shoe_classes = classes(bet, shoe)
    trie = trie_for(bet, shoe_classes, int((program.levels == 1).sum()))
    total = math.perm(shoe.total, BACCARAT_CARDS)

    def count_at(moduli: np.ndarray) -> np.ndarray:
        tally, own = _count_rounds(shoe_classes, program, trie, drawing, tableau, moduli)
        return np.concatenate([tally, own], axis=1)

    # Off the main thread: a Ctrl-C acted on inside numba's call crashed the process
    counts = off_the_main_thread(lambda: exact_counts_at_once(count_at, total))
    outcomes = len(bet.outcomes)
    return total, [int(c) for c in counts[: outcomes + 1]], [int(c) for c in counts[outcomes + 1 :]]
