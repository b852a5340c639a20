"""The P/D's seat tallied: the kernels that add a full table's rounds to the sums
:class:`gamecore.banking.BankTallies` holds, and settle a round from the P/D's money.

Central idea
------------
Everything the P/D's seat carries is a function of each round's results by seat (players'
side, units of a player's bet), so one pass over consecutive rounds adds raw power sums
(chunks add up), settles each round "to the extent money covers" (:func:`cover`), and
replays the whole shifts the rounds hold for each bankroll's risk of ruin; the bank passes
seat by seat for rotation. :mod:`gamecore.banking` reads the sums as figures.
"""

from __future__ import annotations

import numpy as np

from gamecore._jit import kernel, kernel_face

#: Columns of ``BankTallies.counts``: rounds, shifts, rounds the P/D fell short.
ROUNDS, SHIFTS, SHORT = range(3)


@kernel(inline=True)
def _cover(results, money, shortfall):
    taken = 0.0
    for x in results:
        if x < 0.0:
            taken -= x
    left = money + taken
    paid = 0.0
    for i in range(results.size):
        x = results[i]
        shortfall[i] = 0.0
        if x > 0.0:
            pay = min(x, left)
            left -= pay
            paid += pay
            shortfall[i] = x - pay
    return taken - paid


@kernel_face(_cover)
def cover(results: np.ndarray, money: float, shortfall: np.ndarray) -> float:
    """Settle one round from ``money`` on the table, "all payoffs to the extent money
    covers" (RULES.md): the losing wagers are taken first, then the winners paid in seat
    order from seat 1 while money lasts.

    Parameters
    ----------
    results : numpy.ndarray
        The round's result of each seat, float64 of shape (players,), players' side in
        units of a player's bet (a loss negative).
    money : float
        The P/D's money on the table (``math.inf``: it covers every payoff).
    shortfall : numpy.ndarray
        Float64 of shape (players,), overwritten with each seat's unpaid win (0 where it
        was paid in full or lost).

    Returns
    -------
    float
        The P/D's result of the round, units: the wagers taken minus the wins paid.
    """
    return float(_cover(results, money, shortfall))


@kernel
def _add_rounds(results, stake, bankrolls, shift_rounds, turn_rounds, ruin_below, t):
    rounds, players = results.shape
    short = np.zeros(players)
    for r in range(rounds):
        x = results[r]
        bank = 0.0
        for i in range(players):
            xi = x[i]
            bank -= xi
            t.seat[0, i] += xi
            t.seat[1, i] += xi * xi
            t.seat[2, i] += xi * xi * xi
            t.seat[3, i] += xi * xi * xi * xi
            for j in range(players):
                xij = xi * x[j]
                t.pair[0, i, j] += xij
                t.pair[1, i, j] += xi * xij
                t.pair[2, i, j] += xij * xij
        for k in range(4):
            t.bank[k] += bank ** (k + 1)
        covered = _cover(x, stake, short)
        t.covered[0] += covered
        t.covered[1] += covered * covered
        lost = 0.0
        for i in range(players):
            if short[i] > 0.0:
                lost += short[i]
                t.shortfall[0, i] += short[i]
                t.shortfall[1, i] += short[i] * short[i]
                t.shortfall[2, i] += 1.0
        if lost > 0.0:
            t.counts[SHORT] += 1.0
            t.covered[2] += lost
            t.covered[3] += lost * lost
        banker = (r // turn_rounds) % (players + 1)
        k = 0
        for person in range(players + 1):  # the players are the others, in seat order
            if person == banker:
                v = bank
                t.rotation[2, person] += 1.0
            else:
                v = x[k]
                k += 1
            t.rotation[0, person] += v
            t.rotation[1, person] += v * v
    t.counts[ROUNDS] += rounds
    for s in range(rounds // shift_rounds):
        for b in range(bankrolls.size):
            money = bankrolls[b]
            for r in range(s * shift_rounds, (s + 1) * shift_rounds):
                money += _cover(results[r], min(stake, money), short)
                if money < ruin_below:
                    t.shift[0, b] += 1.0
                    break
            t.shift[1, b] += money - bankrolls[b]
            t.shift[2, b] += (money - bankrolls[b]) ** 2
        t.counts[SHIFTS] += 1.0


def add_rounds(
    results: np.ndarray,
    stake: float,
    bankrolls: np.ndarray,
    shift_rounds: int,
    turn_rounds: int,
    ruin_below: float,
    t: tuple[np.ndarray, ...],
) -> None:
    """Add consecutive rounds of one table to the tallies ``t``, in place: the moments by
    seat and pair of seats, the P/D's result at full coverage and covering from the stake,
    each seat's shortfall, the whole shifts the rounds hold (each bankroll's ruin and
    result), and each person's result under rotation.

    Parameters
    ----------
    results : numpy.ndarray
        Float64, C-contiguous, shape (rounds, players): each round's result by seat,
        players' side, units of a player's bet; consecutive rounds of one table (a shift
        is ``shift_rounds`` consecutive rows).
    stake : float
        The P/D's money on the table each round (``math.inf``: it covers every payoff).
    bankrolls : numpy.ndarray
        Float64, the banker's money at the start of a shift, one entry per bankroll tallied.
    shift_rounds : int
        Rounds in a shift.
    turn_rounds : int
        Rounds each person banks in turn under rotation.
    ruin_below : float
        The banker is ruined when its money falls below this.
    t : gamecore.banking.BankTallies
        The sums added to, shaped for the table's players and ``bankrolls``.
    """
    _add_rounds(results, stake, bankrolls, shift_rounds, turn_rounds, ruin_below, t)
