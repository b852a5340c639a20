"""The simulator's round kernels: one round dealt from real cards and played by a policy's
tables (:class:`SimPolicy`), every rule from the rule text, into integer tallies; and dealt
dealer hands. :mod:`gamecore.blackjack.sim` builds the policies and runs the chunks.

A round deals two cards to each of ``Dealt.seats`` seats in seat order, then the dealer's up
and hole cards; the seats play their hands in seat order
(:func:`gamecore.blackjack.dealt_hands.play_seat`), then the dealer. Tallies, every seat's
hands counted: each seat's net result (half units) by up card, and the hands it played (1,
or 2..4 after splits); with ``CounterTallies.seat_results`` rows, every round's result of
each seat in units of its bet (a Natural paid ``Dealt.natural_pays``).

Playing a chart, every decision adds the hand's result (half units) to its cell's tallies
(rows: hard 4..21, soft 12..21, then pair A..10, where a pair's first decision counts the
seat's whole result); a pair whose row says split, not split here, counts in its hard/soft
row (``pair_follows_row``), as the exact engine's cell values do. With a probe rate > 0 each
hand's first decision of a hand not yet probed is probed; probed rounds leave the chart, so
a probing run's other tallies are not the chart's; nor are a counter's, whose index plays
leave it too.

The round loop (:func:`_play`) and the helpers it inlines take borrowed values
(:func:`gamecore._jit.borrowed`): numba copies every array an inlined kernel is handed, a
reference taken and dropped, and its refprune pass removes few of those pairs in a loop this
size (a card drawn, a call that may raise, an array's last use in a branch each keep them);
borrowed arrays and generators carry no reference count, so the round's steps are kernels
of their own at no cost to the loop.
"""

from __future__ import annotations

import numpy as np

from gamecore import counting
from gamecore._jit import borrowed, kernel
from gamecore.blackjack.dealt_hands import (
    CARD1,
    CARD2,
    DEALER_NATURAL,
    FORBIDDEN_ROUND,
    HANDS,
    NATURAL_PAID,
    NET,
    dealer_total,
    play_seat,
    settle_round,
)
from gamecore.blackjack.round_tables import (
    C_BANKED,
    C_INSURED,
    C_RECORDED,
    C_RESHUFFLED,
    C_SHOES,
    C_TABLE_ROUNDS,
    R_RESULT,
    R_SHOE,
    R_TRUE_COUNT,
    RoundInputs,
    RoundOutputs,
)
from gamecore.blackjack.rules import ACE, N_OUTCOMES, NATURAL, TEN
from gamecore.dealing import draw_card, shuffle


def _round_loop(fresh: bool):
    """The round loop compiled for one way of dealing: ``fresh`` is a constant of the
    compiled code (numba freezes a closure's variables, and caches each variant apart).
    Read at run time instead, it would be tested in every card drawn. The arguments are
    borrowed once per chunk; the caller keeps them alive (``cards`` is the face's)."""

    @kernel
    def play(rng, cards, n, trials, inputs, outputs):
        _play(borrowed(rng), borrowed(cards), n, trials, fresh, borrowed(inputs), borrowed(outputs))

    return play


@kernel(inline=True)
def _play(rng, cards, n, trials, fresh, inputs, outputs):
    """Play ``trials`` trials into ``outputs``: with ``fresh`` a trial is one round off the
    ``n`` cards of the full shoe in ``cards``, else a whole shoe dealt to its cut card by
    the counter of ``inputs.dealt`` (its results into ``outputs.counter``); ``cards`` has
    room behind the shoe for the discards a round past its end goes on from."""
    codes, policy, probe_rate, dealt = inputs
    tallies, counter, scratch = outputs
    deck = cards[:n]
    cut = n - dealt.penetration
    stats = counter.stats
    seats, seat = dealt.seats, scratch.seat
    for _ in range(trials):
        base = 0
        running = 0
        shoe_won = 0.0
        shoe_flat = 0.0
        if not fresh:
            shuffle(rng, deck)
        while fresh or base < cut:
            bet_state = _counter_bet(stats, dealt, running, n - base, fresh)
            recording = _record(counter, cards, base, n, bet_state[0], fresh)
            deal = (rng, cards, n, base)
            up, hole, pos = _deal(deal, seat, seats, fresh)
            view = (up, hole, bet_state[0], bet_state[3])
            live = False
            for s in range(seats):
                pos, waits = play_seat(deal, pos, fresh, s, view, inputs, scratch)
                live = live or waits
            if live:
                dealer, pos = dealer_total(deal, pos, up, hole, codes.hits_soft_17, fresh)
                settle_round(inputs, tallies, scratch, dealer, up, seats)
            full = _tally_round(tallies, counter, seat, seats, up, dealt.natural_pays)
            if pos > n:
                stats[C_RESHUFFLED] += 1.0
            if fresh:
                break
            if full:
                return  # the rounds asked for are dealt
            # The counter: its seat's result at its bet, insurance, then every card seen.
            won, flat = _counter_round(counter, seat, dealt, bet_state, view, base == 0)
            if recording >= 0:
                counter.record[recording, R_RESULT] = _units(
                    seat[dealt.counter_seat, NET],
                    seat[dealt.counter_seat, NATURAL_PAID],
                    dealt.natural_pays,
                )
                stats[C_RECORDED] += 1.0
            shoe_won += won
            shoe_flat += flat
            for i in range(base, pos):
                running += dealt.tags[cards[i]]
            base = pos
        if not fresh:
            stats[C_SHOES] += 1.0
            stats[counting.SHOE_WON_SQ] += shoe_won * shoe_won
            stats[counting.SHOE_FLAT_SQ] += shoe_flat * shoe_flat


@kernel(inline=True)
def _counter_bet(stats, dealt, running, left, fresh):
    """The counter's round before a card is dealt, from the running count and the ``left``
    cards: (true count, bet, its turn at the bank, whether it banks)."""
    if fresh:
        return 0.0, 1.0, False, False
    true_count = running * dealt.deck_cards / left
    bet = counting.ramp_bet(true_count, dealt.trigger, dealt.ramp)
    turn = banks = False
    if dealt.turn_rounds > 0:
        k = int(stats[counting.ROUNDS]) // dealt.turn_rounds
        turn = k % (dealt.seats + 1) == dealt.seats
        banks = turn and true_count <= dealt.bank_at
    return true_count, bet, turn, banks


@kernel(inline=True)
def _record(counter, cards, base, n, true_count, fresh):
    """Record the round's shoe (the cards left by rank) and true count while rows are left:
    the row recorded, or -1."""
    stats = counter.stats
    if fresh or stats[C_RECORDED] >= counter.record.shape[0]:
        return -1
    recording = int(stats[C_RECORDED])
    counter.record[recording, :10] = 0.0
    for i in range(base, n):
        counter.record[recording, cards[i]] += 1.0
    counter.record[recording, R_TRUE_COUNT] = true_count
    counter.record[recording, R_SHOE] = stats[C_SHOES]
    return recording


@kernel(inline=True)
def _deal(deal, seat, seats, fresh):
    """Two cards to each seat in seat order, then the dealer's up and hole cards: (up,
    hole, the next position)."""
    rng, cards, n, pos = deal
    for s in range(seats):
        seat[s, CARD1] = draw_card(rng, cards, pos, fresh)
        seat[s, CARD2] = draw_card(rng, cards, pos + 1, fresh)
        pos += 2
    up = draw_card(rng, cards, pos, fresh)
    hole = draw_card(rng, cards, pos + 1, fresh)
    return up, hole, pos + 2


@kernel(inline=True)
def _tally(tallies, net, natural, hands, up):
    """A round's net result (half units) into the histograms (a Natural paid apart)."""
    if net == FORBIDDEN_ROUND:
        tallies.bad[0] += 1
    elif natural:
        tallies.naturals[up] += 1
    else:
        tallies.histogram[up, net + 16] += 1
        if hands >= 2:
            tallies.split_histogram[net + 16] += 1
        if hands >= 3:
            tallies.resplit_histogram[net + 16] += 1


@kernel(inline=True)
def _tally_round(tallies, counter, seat, seats, up, natural_pays):
    """Every seat's round into the tallies and, while rows are left, the table's results:
    whether the rows are now full."""
    stats = counter.stats
    table_row = int(stats[C_TABLE_ROUNDS])
    keep = table_row < counter.seat_results.shape[0]
    for s in range(seats):
        _tally(tallies, seat[s, NET], seat[s, NATURAL_PAID], seat[s, HANDS], up)
        if keep:
            counter.seat_results[table_row, s] = _units(
                seat[s, NET], seat[s, NATURAL_PAID], natural_pays
            )
    if keep:
        stats[C_TABLE_ROUNDS] += 1.0
    return keep and stats[C_TABLE_ROUNDS] == counter.seat_results.shape[0]


@kernel(inline=True)
def _counter_round(counter, seat, dealt, bet_state, view, first):
    """The counter's round into ``counter.stats``: its seat's result at its bet and
    insurance (at or beyond ``dealt.insurance_at`` by ``dealt.insurance_sign``), or in its
    turn at the bank the bank's result (minus every seat's) if it banks; ``bet_state`` is
    (true count, bet, turn, banks), ``view`` (up, hole, ...); ``first``: the shoe's first
    round. Returns (won, the flat bettor's result): the flat bettor banks in every turn."""
    true_count, bet, turn, banks = bet_state
    up, hole = view[0], view[1]
    stats, pays = counter.stats, dealt.natural_pays
    result = _units(seat[dealt.counter_seat, NET], seat[dealt.counter_seat, NATURAL_PAID], pays)
    flat = result
    won = bet * result
    if turn:
        flat = 0.0
        for s in range(dealt.seats):
            flat -= _units(seat[s, NET], seat[s, NATURAL_PAID], pays)
    if banks:
        won, bet = flat, float(dealt.seats)  # its action: every seat's unit
        stats[C_BANKED] += 1.0
    elif up == ACE and not np.isnan(dealt.insurance_at):
        at = dealt.insurance_at
        insure = true_count >= at if dealt.insurance_sign > 0 else true_count <= at
        if insure:  # half the bet, paid 2 to 1 on a ten in the hole
            won += bet * (1.0 if hole == TEN else -0.5)
            stats[C_INSURED] += 1.0
    counting.add_round(stats, bet, won, flat, result, first)
    return won, flat


@kernel(inline=True)
def _units(net, natural, natural_pays):
    """A seat's result in units of its bet (0 for a forbidden round, refused later)."""
    if natural:
        return natural_pays
    if net == FORBIDDEN_ROUND:
        return 0.0
    return net / 2.0


_fresh_rounds = _round_loop(True)
_shoe_rounds = _round_loop(False)


def _cards(shoe: np.ndarray, inputs: RoundInputs, fresh: bool) -> np.ndarray:
    """The round loop's cards: the shoe, with room behind it in shoe mode for the discards
    a round past its end goes on from (at most the cards dealt before the cut card)."""
    n = shoe.size
    cards = np.empty(n if fresh else 2 * n - inputs.dealt.penetration, dtype=shoe.dtype)
    cards[:n] = shoe
    return cards


def simulate_rounds(
    rng: np.random.Generator,
    shoe: np.ndarray,
    trials: int,
    inputs: RoundInputs,
    outputs: RoundOutputs,
) -> None:
    """Deal ``trials`` rounds, each off the full ``shoe`` freshly shuffled.

    Parameters
    ----------
    rng : numpy.random.Generator
        The chunk's generator (a PCG64 bit generator).
    shoe : numpy.ndarray
        The full shoe as one rank index (0..9) per card, int64.
    trials : int
        Rounds to deal.
    inputs : RoundInputs
        The rule codes, the policy, the probe rate and the dealing (its seats).
    outputs : RoundOutputs
        The tallies, the counter's tallies (its seat results kept) and the work space,
        added to in place.

    Returns
    -------
    None
        Everything dealt is in ``outputs``.
    """
    _fresh_rounds(rng, _cards(shoe, inputs, True), shoe.size, trials, inputs, outputs)


def simulate_shoes(
    rng: np.random.Generator,
    shoe: np.ndarray,
    trials: int,
    inputs: RoundInputs,
    outputs: RoundOutputs,
) -> None:
    """Deal ``trials`` real shoes to their cut card, played by the counter of ``inputs.dealt``.

    Parameters
    ----------
    rng : numpy.random.Generator
        The chunk's generator (a PCG64 bit generator).
    shoe : numpy.ndarray
        The full shoe as one rank index (0..9) per card, int64.
    trials : int
        Shoes to deal (a table run stops once its seat results are full).
    inputs : RoundInputs
        The rule codes, the policy, the probe rate and the dealing (:class:`Dealt`: the
        cut card, the counter's count, bets, index plays and turn at the bank).
    outputs : RoundOutputs
        The tallies, the counter's tallies and the work space, added to in place.

    Returns
    -------
    None
        Everything dealt is in ``outputs``.
    """
    _shoe_rounds(rng, _cards(shoe, inputs, False), shoe.size, trials, inputs, outputs)


@kernel
def _dealer_hands(rng, shoe, rounds, h17):
    """Rounds by (up card, dealer outcome as in ``DEALER_OUTCOMES``)."""
    counts = np.zeros((10, N_OUTCOMES), dtype=np.int64)
    cards = shoe.copy()
    for _ in range(rounds):
        up = draw_card(rng, cards, 0, True)
        hole = draw_card(rng, cards, 1, True)
        total, _pos = dealer_total((rng, cards, cards.size, 0), 2, up, hole, h17, True)
        if total == DEALER_NATURAL:
            outcome = NATURAL
        elif total <= 21:
            outcome = total - 17
        else:
            outcome = 5 + total - 22
        counts[up, outcome] += 1
    return counts


def simulate_dealer_hands(
    rng: np.random.Generator, shoe: np.ndarray, rounds: int, h17: bool
) -> np.ndarray:
    """Deal ``rounds`` dealer hands (up card, hole card, hits), each off the full shoe.

    Parameters
    ----------
    rng : numpy.random.Generator
        The chunk's generator.
    shoe : numpy.ndarray
        The full shoe as one rank index (0..9) per card, int64.
    rounds : int
        Dealer hands to deal.
    h17 : bool
        The dealer hits soft 17.

    Returns
    -------
    numpy.ndarray
        Rounds by (up card, dealer outcome as in ``DEALER_OUTCOMES``), int64 (10, outcomes).
    """
    return _dealer_hands(rng, shoe, rounds, bool(h17))
