"""The cards a side bet's round deals, as :mod:`gamecore.sidebets.rounds` counts it: which
are dealt, at what detail, how many the deal is completed to, and the tableau's third cards.

Central idea
------------
A round deals the cards its conditions read and no more. Baccarat: every card where a
condition reads what the tableau decides (a third card, a final total, the winner, the
margin, the cards dealt, a hand's cards), the third cards by the tableau after each pair of
two-card totals; else only the first cards a condition reads (a natural reads all four),
and the other cards of the six counted fall in any order from the cards left (the falling
factorial that completes every deal to six cards, as the par sheets count). Blackjack: the
cards a condition names, no third card, and the deal is those cards (a card not named is not
dealt). Both games' first four cards are positions 0..3 (baccarat P1, B1, P2, B2; blackjack
player_1, player_2, dealer_up, dealer_hole); what differs is the facts the round is read by
(:func:`gamecore.sidebets.deal.baccarat_facts`, :func:`gamecore.sidebets.deal.
blackjack_facts`), which :class:`Dealing` names for the kernel. The ranks of three cards
that make a straight, as the suit sums' keys read them, are a table here too
(:func:`straight_table`).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from gamecore import cards
from gamecore._jit import kernel
from gamecore.baccarat.tableau import DrawingTables
from gamecore.sidebets.deal import B3, P3, poker_class
from gamecore.sidebets.definition import CARDS, POKER_CLASSES, SideBet
from gamecore.sidebets.program import RANK, SUIT, VALUE, Classes, Program, compile_bet
from gamecore.sidebets.suitorbits import leaf_conditions

#: Cards a baccarat round is completed to (the par sheets' convention).
BACCARAT_CARDS = 6
#: Conditions that read nothing the tableau decides (nor a third card by themselves).
_FIRST_CARDS_ONLY = ("same_rank", "same_suit", "same_colour", "same_card", "rank", "suit")
_FIRST_CARDS_ONLY += ("colour", "natural", "poker_hand")
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
    """The bet compiled, with the cards its count deals: baccarat every card where the
    tableau is read, else only the first cards a condition reads (a natural reads all
    four); blackjack the cards a condition names.

    Parameters
    ----------
    bet : SideBet
        A checked definition (blackjack: one not reading the dealer's final hand).

    Returns
    -------
    program : Program
        :func:`gamecore.sidebets.program.compile_bet`'s, a card not dealt at level -1.
    tableau : bool
        Whether the count deals the round by the tableau (never for blackjack).
    """
    program = compile_bet(bet)
    if bet.game != "baccarat":
        return program, False  # compile_bet deals a blackjack card only where it is named
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


def cards_completed(bet: SideBet, program: Program) -> int:
    """How many cards each deal of the round count is completed to.

    Parameters
    ----------
    bet : SideBet
        A checked definition.
    program : Program
        Its compiled form (:func:`gamecore.sidebets.program.compile_bet`).

    Returns
    -------
    int
        Baccarat :data:`BACCARAT_CARDS` (the par sheets' convention, whatever the round
        deals); blackjack the cards named (a card not named is not dealt).
    """
    if bet.game == "baccarat":
        return BACCARAT_CARDS
    return int((program.levels >= 0).sum())


class Dealing(NamedTuple):
    """How the count deals a round of the bet's game.

    Attributes
    ----------
    blackjack : bool
        The round is read by blackjack's facts (two-card totals, naturals), else by
        baccarat's.
    tableau : bool
        The third cards are dealt by the tableau.
    complete_to : int
        Cards each deal is completed to (:func:`cards_completed`).
    cards : int
        Cards in the shoe (the factors completing a deal are this less the cards drawn).
    start : numpy.ndarray
        int64 (101,): the third-card options after a player's two-card total ``p`` and a
        banker's ``b`` are rows ``start[10 p + b]`` up to ``start[10 p + b + 1]``; without
        the tableau, row 0 alone, for every round.
    options : numpy.ndarray
        int64 (rows, 2): the class of the player's and of the banker's third card dealt
        (-1: none), at the card's level.
    """

    blackjack: bool
    tableau: bool
    complete_to: int
    cards: int
    start: np.ndarray
    options: np.ndarray


def dealing(
    bet: SideBet,
    program: Program,
    tableau: bool,
    shoe: Classes,
    details: int,
    drawing: DrawingTables,
) -> Dealing:
    """How a round of ``bet`` is dealt (:class:`Dealing`): the third cards the tableau
    deals after each pair of two-card totals, or one option, no third card, where the
    tableau is not dealt (blackjack never).

    Parameters
    ----------
    bet : SideBet
        A checked definition.
    program : Program
        The compiled bet (its levels: a third card's loop runs over the classes of its).
    tableau : bool
        Whether the tableau is dealt (:func:`round_program`).
    shoe : Classes
        The shoe's classes for the bet.
    details : int
        Details of each rank class.
    drawing : DrawingTables
        Baccarat's tableau.

    Returns
    -------
    Dealing
        The game, the cards completed to, the third cards' options, every pair of totals
        in order.
    """
    completed = cards_completed(bet, program)
    blackjack = bet.game == "blackjack"
    shoe_cards = int(shoe.counts[0].sum())
    if not tableau:
        start = np.array([0, 1], dtype=np.int64)
        none = np.full((1, 2), -1, dtype=np.int64)
        return Dealing(blackjack, False, completed, shoe_cards, start, none)
    values = []
    for position in (P3, B3):
        level = int(program.levels[position])
        step = details if level == 1 else 1
        values.append(shoe.attributes[max(level, 0), VALUE, : shoe.sizes[max(level, 0)] : step])
    start, options = [0], []
    for player in range(10):
        for banker in range(10):
            if player >= 8 or banker >= 8:
                options.append((-1, -1))  # a natural
            elif drawing.player_draws[player]:
                for i4, value in enumerate(values[0]):
                    if drawing.banker_draws[banker, value]:
                        options += [(i4, i5) for i5 in range(len(values[1]))]
                    else:
                        options.append((i4, -1))
            elif drawing.banker_draws_player_stood[banker]:
                options += [(-1, i5) for i5 in range(len(values[1]))]
            else:
                options.append((-1, -1))
            start.append(len(options))
    return Dealing(
        blackjack,
        True,
        completed,
        shoe_cards,
        np.array(start, dtype=np.int64),
        np.array(options, dtype=np.int64),
    )


@kernel
def _poker_classes_of_ranks(table):
    """Fill ``table[a, b, c]`` with the poker class of three cards of ranks ``a - 1``,
    ``b - 1``, ``c - 1`` (-1: a card not dealt, every attribute -1) of three suits."""
    dealt = np.full((4, 3), -1, dtype=np.int64)
    n = table.shape[0]
    for a in range(n):
        for b in range(n):
            for c in range(n):
                dealt[RANK, 0], dealt[RANK, 1], dealt[RANK, 2] = a - 1, b - 1, c - 1
                for i in range(3):
                    dealt[SUIT, i] = i if dealt[RANK, i] >= 0 else -1
                table[a, b, c] = poker_class(dealt, 0, 1, 2)


@functools.cache
def straight_table() -> np.ndarray:
    """Whether three ranks are a straight as a ``poker_hand`` test reads them
    (:func:`gamecore.sidebets.deal.poker_class`): :attr:`gamecore.sidebets.rounds.Split.
    straight`, read by the suit sums' keys.

    Returns
    -------
    numpy.ndarray
        int64 (14, 14, 14), read-only: 1 where ranks ``a - 1``, ``b - 1``, ``c - 1`` (-1:
        a card not dealt) of three suits are a straight or a straight flush.
    """
    ranks = len(cards.RANKS) + 1
    table = np.zeros((ranks, ranks, ranks), dtype=np.int64)
    _poker_classes_of_ranks(table)
    straights = POKER_CLASSES.index("straight"), POKER_CLASSES.index("straight_flush")
    table = np.isin(table, straights).astype(np.int64)
    table.flags.writeable = False
    return table
