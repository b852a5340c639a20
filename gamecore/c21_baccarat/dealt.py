"""The kernels that deal 21st Century Baccarat: the one model of a round, the simulator's
loop over rounds, and the counter's over shoes.

Central idea
------------
Every simulation of the game deals its rounds by one model (:func:`play_table_round`): the
P/D's up and hole cards, two cards to every seat, the seats' draws in seat order and the
P/D's draw, each seat settled as the exact engine settles it
(:func:`gamecore.c21_baccarat.deals.settle`). The loops that call it for every round, the
simulator's (:func:`simulate_rounds`) and the counter's (:func:`counter_shoes`), live here
beside it, so numba inlines the round into them (``@kernel(inline=True)``) and a round
costs no call; the Python side (:mod:`.sim`, :mod:`.counting`) checks the inputs, cuts the
run into chunks and reads the tallies. Dealing follows :mod:`gamecore.dealing`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from gamecore import counting
from gamecore._jit import borrowed, kernel, kernel_face
from gamecore.c21_baccarat.deals import settle
from gamecore.c21_baccarat.rules import PAYOFF
from gamecore.dealing import draw_card, shuffle

#: Why a round ended, by the index the kernels tally it under.
REASONS = ("joker up card", "P/D two-card 9 or Natural", "drawing round")


@kernel
def _hand(first, second):
    """(hand index, value, natural) of a two-card hand; see c21_baccarat.PLAYER_HANDS."""
    if first == 10 and second == 10:
        return 11, 9, True
    if first == 10 or second == 10:
        return 10, 9, False
    total = (first + second) % 10
    return total, total, False


@kernel
def _decide(rng, probability):
    if probability >= 1.0:
        return True
    if probability <= 0.0:
        return False
    return rng.random() < probability


#: The facts :func:`play_table_round` returns, by index: why the round ended (an index of
#: REASONS), the up card, whether seat 1 drew, whether any seat drew, the P/D's two-card
#: total, whether the P/D drew.
FACT_REASON, FACT_UP, FACT_FIRST_DREW, FACT_DREW, FACT_PD_TOTAL, FACT_PD_DREW = range(6)


@kernel(inline=True)
def _play_table_round(rng, cards, position, fresh, player_draw, dealer_draw, zero_ties, outcome):
    seats = outcome.size
    up = draw_card(rng, cards, position, fresh)
    hole = draw_card(rng, cards, position + 1, fresh)
    position += 2
    for s in range(seats):  # every seat's two cards, as dealt; kept as (hand, value, natural)
        hand, value, natural = _hand(
            draw_card(rng, cards, position, fresh), draw_card(rng, cards, position + 1, fresh)
        )
        position += 2
        outcome[s] = (hand * 16 + value) * 2 + (1 if natural else 0)
    _pd_hand, pd_value, pd_natural = _hand(up, hole)
    pd_total = pd_value
    first_drew = 0
    pd_drew = 0
    concluded = up == 10 or pd_value == 9
    reason = (0 if up == 10 else 1) if concluded else 2
    drew = False
    for s in range(seats):
        hand, value = outcome[s] // 32, (outcome[s] // 2) % 16
        if not concluded and hand < 10 and _decide(rng, player_draw[up, hand]):
            third = draw_card(rng, cards, position, fresh)
            position += 1
            value = 9 if third == 10 else (value + third) % 10
            drew = True
            if s == 0:
                first_drew = 1
        outcome[s] = (hand * 16 + value) * 2 + outcome[s] % 2
    if not concluded and _decide(rng, dealer_draw[up, 1 if drew else 0, pd_value]):
        third = draw_card(rng, cards, position, fresh)
        position += 1
        pd_value = 9 if third == 10 else (pd_value + third) % 10
        pd_drew = 1
    for s in range(seats):
        value, natural = (outcome[s] // 2) % 16, outcome[s] % 2 == 1
        outcome[s] = settle(value, natural, pd_value, pd_natural and concluded, zero_ties)
    return position, (reason, up, first_drew, 1 if drew else 0, pd_total, pd_drew)


@kernel_face(_play_table_round)
def play_table_round(
    rng: np.random.Generator,
    cards: np.ndarray,
    position: int,
    fresh: bool,
    player_draw: np.ndarray,
    dealer_draw: np.ndarray,
    zero_ties: bool,
    outcome: np.ndarray,
) -> tuple[int, tuple[int, int, int, int, int, int]]:
    """Deal one round: the one model of a round every simulation of the game deals.

    The P/D's up and hole cards, two cards to every seat, then (unless the deal concluded:
    a joker up card, or a P/D two-card 9 or Natural) each seat's draw in seat order, then
    the P/D's draw, knowing whether any seat drew; every seat settled against the P/D.

    Parameters
    ----------
    rng : numpy.random.Generator
        The generator of the draws (with ``fresh``) and of the mixed decisions.
    cards : numpy.ndarray
        int64 (cards,): the shoe as card classes (0..9, 10 the joker); dealt from
        ``position`` on, and first shuffled card by card where ``fresh``.
    position : int
        The first undealt position; the caller leaves room for a whole round behind it.
    fresh : bool
        Draw each card uniformly from the undealt ones (:func:`gamecore.dealing.draw_card`)
        rather than as the shoe lies.
    player_draw : numpy.ndarray
        float (10, 10): every seat's probability of drawing, ``[up card, two-card total]``.
    dealer_draw : numpy.ndarray
        float (10, 2, 9): the P/D's, ``[up card, any seat drew, two-card total]``.
    zero_ties : bool
        The rule set's ``pd_wins_ties_on_zero``.
    outcome : numpy.ndarray
        int64 (seats,), written: each seat's outcome, an index of
        :data:`gamecore.c21_baccarat.rules.OUTCOMES`; its size is the number of seats.

    Returns
    -------
    position : int
        The first position after the round.
    facts : tuple of int
        Indexed by ``FACT_*``: why the round ended (an index of :data:`REASONS`), the up
        card, whether seat 1 drew, whether any seat drew, the P/D's two-card total, whether
        the P/D drew (0 or 1 each).
    """
    position, facts = _play_table_round(
        rng, cards, position, fresh, player_draw, dealer_draw, zero_ties, outcome
    )
    return int(position), tuple(int(fact) for fact in facts)


class Deal(NamedTuple):
    """A table's deal, as :func:`simulate_rounds` reads it.

    Attributes
    ----------
    shoe
        int64 (cards,): the full shoe as card classes (0..9 by point value, 10 the joker).
    seats
        Players at the table, 1 to 8.
    fresh
        A shuffle every round (True), or a real shoe dealt to its cut card.
    penetration
        Cards behind the cut card (real shoes only).
    player_draw, dealer_draw
        float (10, 10) and (10, 2, 9): the draw probabilities :func:`play_table_round`
        reads.
    zero_ties
        The rule set's ``pd_wins_ties_on_zero``.
    """

    shoe: np.ndarray
    seats: int
    fresh: bool
    penetration: int
    player_draw: np.ndarray
    dealer_draw: np.ndarray
    zero_ties: bool


@kernel
def _simulate(rng, deal, rounds, results):
    seats, fresh, penetration = deal.seats, deal.fresh, deal.penetration
    player_draw, dealer_draw, zero_ties = deal.player_draw, deal.dealer_draw, deal.zero_ties
    counts = np.zeros((seats, 3, 7), dtype=np.int64)
    player_cells = np.zeros((10, 12, 2, 7), dtype=np.int64)
    pd_cells = np.zeros((10, 2, 9, 2, 7), dtype=np.int64)
    cards = deal.shoe.copy()
    n = cards.size
    cut = n - penetration
    position = n if not fresh else 0
    outcome = np.zeros(seats, dtype=np.int64)
    for r in range(rounds):
        if fresh:
            position = 0
        elif position >= cut:
            shuffle(rng, cards)
            position = 0
        start = position
        # Borrowed: the inlined round's copies then cost no reference counts.
        position, facts = _play_table_round(
            borrowed(rng),
            borrowed(cards),
            position,
            fresh,
            borrowed(player_draw),
            borrowed(dealer_draw),
            zero_ties,
            borrowed(outcome),
        )
        reason = facts[FACT_REASON]
        keep = results.shape[0] > 0
        for s in range(seats):
            counts[s, reason, outcome[s]] += 1
            if keep:
                results[r, s] = PAYOFF[outcome[s]]
        if reason == 2:
            up = facts[FACT_UP]
            first_hand, _v, _n = _hand(cards[start + 2], cards[start + 3])  # seat 1's cards
            o = outcome[0]
            player_cells[up, first_hand, facts[FACT_FIRST_DREW], o] += 1
            pd_cells[up, facts[FACT_DREW], facts[FACT_PD_TOTAL], facts[FACT_PD_DREW], o] += 1
    return counts, player_cells, pd_cells


@kernel_face(_simulate)
def simulate_rounds(
    rng: np.random.Generator, deal: Deal, rounds: int, results: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Deal ``rounds`` rounds of ``deal`` and tally them.

    Parameters
    ----------
    rng : numpy.random.Generator
        The generator of every card and mixed decision (a chunk's own).
    deal : Deal
        The table's deal (:func:`gamecore.c21_baccarat.sim.checked_run` makes it).
    rounds : int
        Rounds to deal; a real shoe is reshuffled at its cut card, a fresh one every round.
    results : numpy.ndarray
        float (rounds, seats) to keep each round's result of every seat (units of its bet,
        :mod:`gamecore.banking` reads them), or (0, seats) to keep none.

    Returns
    -------
    counts : numpy.ndarray
        int64 (seats, 3, 7): hands by seat, reason (:data:`REASONS`) and outcome.
    player_cells : numpy.ndarray
        int64 (10, 12, 2, 7): seat 1's hands in rounds that reach the draw, by up card,
        two-card hand, whether it drew and outcome (the advantage chart's twins).
    pd_cells : numpy.ndarray
        int64 (10, 2, 9, 2, 7): the same rounds by up card, whether any seat drew, the
        P/D's two-card total, whether it drew and seat 1's outcome (the P/D chart's twins).
    """
    return _simulate(rng, deal, rounds, results)


class CounterTable(NamedTuple):
    """The table a counter plays at, as :func:`counter_shoes` reads it.

    Attributes
    ----------
    cards
        int64 (cards,): the full shoe as card classes, shuffled whole each shoe.
    player_draw, dealer_draw
        float (10, 10) and (10, 2, 9): House Way's draw probabilities
        (:func:`play_table_round`).
    payoff
        float (7,): the player's net result by outcome (``PAYOFF``).
    seats
        Players at the table, the counter among them.
    zero_ties
        The rule set's ``pd_wins_ties_on_zero``.
    penetration
        Cards behind the cut card.
    """

    cards: np.ndarray
    player_draw: np.ndarray
    dealer_draw: np.ndarray
    payoff: np.ndarray
    seats: int
    zero_ties: bool
    penetration: int


class Counter(NamedTuple):
    """The counter, as :func:`counter_shoes` reads it.

    Attributes
    ----------
    tags
        int64 (11,): the count's tag of each card class (point values 0..9, the joker).
    ramp
        float (steps,): units bet at each true-count step above the trigger.
    turn_rounds, bank_at
        Rounds each person holds the bank under rotation (0: no rotation), and the true
        count at or below which the counter banks in its turn.
    trigger
        The true count at or below which the counter bets one unit.
    seat
        The counter's seat, 0 first to act.
    deck_cards
        Cards a deck (jokers included): the true count is the running count per deck left.
    """

    tags: np.ndarray
    ramp: np.ndarray
    turn_rounds: int
    bank_at: float
    trigger: float
    seat: int
    deck_cards: float


#: The counter's statistics: gamecore.counting's columns, then the rounds it banked.
C_BANKED = counting.STATS


@kernel
def _counter_shoes(rng, table, counter, shoes):
    player_draw, dealer_draw, payoff = table.player_draw, table.dealer_draw, table.payoff
    seats, zero_ties, penetration = table.seats, table.zero_ties, table.penetration
    tags, ramp, turn_rounds, bank_at, trigger, seat, deck_cards = counter
    stats = np.zeros(counting.STATS + 1)
    cards = table.cards.copy()
    n = cards.size
    cut = n - penetration
    outcome = np.zeros(seats, dtype=np.int64)
    for _ in range(shoes):
        shuffle(rng, cards)
        position = 0
        running = 0
        shoe_won = 0.0
        shoe_flat = 0.0
        while position < cut:
            true_count = running * deck_cards / (n - position)
            bet = counting.ramp_bet(true_count, trigger, ramp)
            turn = turn_rounds > 0 and (
                int(stats[counting.ROUNDS]) // turn_rounds % (seats + 1) == seats
            )
            start = position
            position, _facts = _play_table_round(
                borrowed(rng),
                borrowed(cards),
                position,
                False,
                borrowed(player_draw),
                borrowed(dealer_draw),
                zero_ties,
                borrowed(outcome),
            )
            result = payoff[outcome[seat]]
            won, flat = bet * result, result
            if turn:  # the bank's result: minus every seat's
                flat = 0.0
                for s in range(seats):
                    flat -= payoff[outcome[s]]
                if true_count <= bank_at:
                    won, bet = flat, float(seats)  # its action: every seat's unit
                    stats[C_BANKED] += 1.0
            counting.add_round(stats, bet, won, flat, result, start == 0)
            shoe_won += won
            shoe_flat += flat
            for i in range(start, position):
                running += tags[cards[i]]
        stats[counting.SHOE_WON_SQ] += shoe_won * shoe_won
        stats[counting.SHOE_FLAT_SQ] += shoe_flat * shoe_flat
    return stats


@kernel_face(_counter_shoes)
def counter_shoes(
    rng: np.random.Generator, table: CounterTable, counter: Counter, shoes: int
) -> np.ndarray:
    """Deal ``shoes`` shoes of ``table`` to the cut card, a counter in one seat.

    The counter sees every card and bets by the true count (running count per
    ``deck_cards`` cards left) on the ramp; under rotation it banks in its turn at or below
    ``bank_at`` (winning minus every seat's result), the flat bettor beside it always.

    Parameters
    ----------
    rng : numpy.random.Generator
        The generator of every shuffle and mixed decision (a chunk's own).
    table : CounterTable
        The table everyone plays at, on House Way.
    counter : Counter
        The counter's tags, ramp, seat and turn at the bank.
    shoes : int
        Shoes to deal.

    Returns
    -------
    numpy.ndarray
        float (``gamecore.counting.STATS`` + 1,): the statistics by
        :data:`gamecore.counting.ROUNDS` and its kin, then :data:`C_BANKED`, the rounds the
        counter banked.
    """
    return _counter_shoes(rng, table, counter, shoes)
