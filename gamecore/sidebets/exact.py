"""A side bet's exact par sheet: every deal it looks at enumerated with its integer number
of ways, drawn without replacement from the actual shoe.

Central idea
------------
The enumeration deals the cards the bet reads, each at the detail the bet needs
(:mod:`gamecore.sidebets.program`). A baccarat round, and a blackjack deal of the cards its
conditions name where none reads the dealer's final hand, are counted by
:mod:`gamecore.sidebets.rounds` (the tableau where a condition reads it, rank classes with
suits by pattern, suit sums kept, every modulus in one pass). A blackjack bet on the
dealer's final hand is counted here, each card named over every kind of the bet, then the
dealer's draws (:mod:`gamecore.sidebets.dealer_final`), one pass per modulus; the player's
cards read by their points alone are counted after the dealer's hand instead
(:mod:`gamecore.sidebets.dealer_players`). A deal's number of ways is the product of the
remaining counts of the card sets it drew, taken fine kinds first (each kind lies in one
point class, so a point class's remaining count is its count less every card drawn inside
it). Baccarat completes every round to six cards, as this suite's baccarat par sheets do,
so the total is ``N (N-1) ... (N-5)``. Counts past int64 are rebuilt exactly from residues
(:func:`gamecore.exactcount.exact_counts`).
"""

from __future__ import annotations

import math

import numpy as np

from gamecore import cards
from gamecore._jit import kernel
from gamecore.baccarat.tableau import DRAWING, DrawingTables
from gamecore.errors import GamecoreError
from gamecore.exactcount import addmod, exact_counts, mulmod
from gamecore.interrupts import off_the_main_thread
from gamecore.sidebets.deal import (
    BJ_HOLE,
    BJ_P1,
    BJ_P2,
    BJ_UP,
    FACTS,
    blackjack_facts,
    outcome_of,
)
from gamecore.sidebets.dealer_count import count_draws, draw_work
from gamecore.sidebets.dealer_final import MAX_DRAWS, DealerPlan, dealer_plan, reads_final
from gamecore.sidebets.dealer_players import MOMENTS, PlayersAfter, players_after
from gamecore.sidebets.dealer_shares import players_deal
from gamecore.sidebets.definition import SideBet
from gamecore.sidebets.program import COARSE, Classes, Program, classes, compile_bet
from gamecore.sidebets.round_cards import cards_completed
from gamecore.sidebets.rounds import count_rounds


@kernel(inline=True)
def _place(attributes, levels, position, choice, dealt, chosen):
    """Deal class ``choice`` of the position's level at ``position`` (-1: no card)."""
    chosen[position] = choice
    for attribute in range(dealt.shape[0]):
        dealt[attribute, position] = (
            -1 if choice < 0 else attributes[levels[position], attribute, choice]
        )


@kernel(inline=True)
def _ways(counts, attributes, levels, chosen, complete_to, modulus):
    """The ordered ways of the deal ``chosen``, completed to ``complete_to`` cards."""
    n = 0
    for c in range(counts.shape[1]):
        n += counts[0, c]
    ways = 1
    dealt = 0
    for p in range(chosen.size):  # fine kinds first: their counts are their own
        if chosen[p] < 0 or levels[p] != 1:
            continue
        left = counts[1, chosen[p]]
        for q in range(p):
            if chosen[q] == chosen[p] and levels[q] == 1:
                left -= 1
        if left <= 0:
            return 0
        ways = mulmod(ways, left, modulus)
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
            return 0
        ways = mulmod(ways, left, modulus)
        dealt += 1
    for j in range(dealt, complete_to):
        ways = mulmod(ways, n - j, modulus)
    return ways


@kernel(inline=True)
def _add(tally, own, paid, matched, ways, modulus):
    """Add a deal's ways to the outcome paid and to every outcome it matched."""
    tally[paid] = addmod(tally[paid], ways, modulus)
    for o in range(own.size):
        if matched[o]:
            own[o] = addmod(own[o], ways, modulus)


@kernel
def _count_blackjack(shoe, program, dealer, modulus):
    """Ways of each outcome paid (losing last) and of each outcome matched, over every
    deal of the blackjack cards the bet names (a card not named is not dealt), and, where
    the bet reads the dealer's final hand, every draw of the dealer to it
    (:func:`gamecore.sidebets.dealer_count.count_draws`; ``dealer``: the dealer's plan and
    the player's cards counted after its hand)."""
    counts, attributes, sizes = shoe
    tests, outcomes, levels = program
    dealer, players = dealer
    dealt = np.full((4, levels.size), -1, dtype=np.int64)
    chosen = np.full(levels.size, -1, dtype=np.int64)
    work = (
        np.zeros(FACTS, dtype=np.int64),
        np.zeros(outcomes, dtype=np.bool_),
        np.zeros(outcomes + 1, dtype=np.int64),
        np.zeros(outcomes, dtype=np.int64),
    )
    facts, matched, tally, own = work
    scratch = draw_work(MOMENTS if players.active else 1)
    choices = np.ones(levels.size, dtype=np.int64)  # one "no card" for a card not dealt
    for p in range(levels.size):
        if levels[p] >= 0:
            choices[p] = sizes[levels[p]]
    for i0 in range(choices[BJ_P1]):
        _place(attributes, levels, BJ_P1, i0 if levels[BJ_P1] >= 0 else -1, dealt, chosen)
        for i1 in range(choices[BJ_P2]):
            _place(attributes, levels, BJ_P2, i1 if levels[BJ_P2] >= 0 else -1, dealt, chosen)
            for i2 in range(choices[BJ_UP]):
                _place(attributes, levels, BJ_UP, i2 if levels[BJ_UP] >= 0 else -1, dealt, chosen)
                for i3 in range(choices[BJ_HOLE]):
                    hole = i3 if levels[BJ_HOLE] >= 0 else -1
                    _place(attributes, levels, BJ_HOLE, hole, dealt, chosen)
                    ways = _ways(counts, attributes, levels, chosen, 0, modulus)
                    if ways == 0:
                        continue
                    blackjack_facts(dealt, facts)
                    if dealer.active:
                        if players.active:
                            at = (i2 * choices[BJ_HOLE] + i3, levels, chosen)
                            players_deal(players, at, (tests, outcomes, dealt), facts, modulus)
                        deal = (tests, outcomes, dealt)
                        count_draws(dealer, players, deal, work, scratch, ways, modulus)
                        continue
                    paid = outcome_of(tests, outcomes, dealt, facts, matched)
                    _add(tally, own, paid, matched, ways, modulus)
    return tally, own


def dealt_cards(bet: SideBet, program: Program) -> int:
    """How many cards each counted deal holds: baccarat six, blackjack the cards named.

    Parameters
    ----------
    bet : SideBet
        A checked definition.
    program : Program
        Its compiled form.

    Returns
    -------
    int
        The cards of a deal as counted (the total is the falling factorial of the shoe's
        cards to this many): a bet on the dealer's final hand completes every deal to the
        cards named and the most draws the dealer can make
        (:data:`gamecore.sidebets.dealer_final.MAX_DRAWS`).
    """
    named = cards_completed(bet, program)
    return named + MAX_DRAWS if reads_final(bet) else named


def count_outcomes(
    bet: SideBet, shoe: cards.Shoe, drawing: DrawingTables = DRAWING
) -> tuple[int, list[int], list[int]]:
    """Exact ways of every outcome of ``bet`` dealt from ``shoe``.

    Parameters
    ----------
    bet : SideBet
        A checked definition.
    shoe : gamecore.cards.Shoe
        The cards, by rank and suit.
    drawing : DrawingTables
        Baccarat's tableau (punto banco's unless a test changes it).

    Returns
    -------
    total : int
        Every deal's ways: the falling factorial of the shoe's cards.
    paid : list of int
        Ways of each outcome paid, in the definition's order, then the losing deals.
    matched : list of int
        Ways of the deals each outcome's conditions hold on, paid or hidden behind an
        earlier outcome.
    """
    if bet.game == "baccarat" or not reads_final(bet):
        return count_rounds(bet, shoe, drawing)
    return count_by_kind(bet, shoe)


def count_by_kind(bet: SideBet, shoe: cards.Shoe) -> tuple[int, list[int], list[int]]:
    """Exact ways of every outcome of a blackjack ``bet``, each card named dealt over every
    kind of the bet (no suit pattern, no sum kept), one pass per modulus, and where the bet
    reads the dealer's final hand every draw of the dealer to it.

    Parameters
    ----------
    bet : SideBet
        A checked blackjack definition (:func:`count_outcomes` counts those not reading
        the dealer's final hand by :func:`gamecore.sidebets.rounds.count_rounds`; the
        tests compare the two).
    shoe : gamecore.cards.Shoe
        The cards, by rank and suit.

    Returns
    -------
    total, paid, matched
        As :func:`count_outcomes` gives them.
    """
    program = compile_bet(bet)
    shoe_classes: Classes = classes(bet, shoe)
    cards_counted = dealt_cards(bet, program)
    total = math.perm(shoe.total, cards_counted)
    dealer: DealerPlan = dealer_plan(bet, shoe)
    if dealer.active and shoe.total < dealer.complete_to:
        # A dealer's hand holds at most 13 cards, so from this many the shoe never runs out
        raise GamecoreError(
            f"a shoe of {shoe.total} cards is too small for the dealer's final hand: a deal "
            f"of {bet.bet} is counted as {dealer.complete_to} cards"
        )

    bound = total
    dealt = program
    players: PlayersAfter = players_after(bet, program, shoe_classes, dealer)
    if players.active:
        # The player's cards are counted after the dealer's hand, not dealt by the loops;
        # their moments reach the shoe's cards squared times a count before they settle
        later = players.positions[players.positions >= 0]
        levels = program.levels.copy()
        levels[later] = -1
        dealt = program._replace(levels=levels)
        dealer = dealer._replace(later=len(later))
        bound = total * shoe.total * shoe.total * 16

    def count_mod(modulus: int) -> np.ndarray:
        tally, own = _count_blackjack(shoe_classes, dealt, (dealer, players), modulus)
        return np.concatenate([tally, own])

    # Off the main thread: a Ctrl-C acted on inside numba's call crashed the process
    counts = off_the_main_thread(lambda: exact_counts(count_mod, bound))
    outcomes = len(bet.outcomes)
    paid = [int(c) for c in counts[: outcomes + 1]]
    matched = [int(c) for c in counts[outcomes + 1 :]]
    return total, paid, matched
