"""Every heads-up deal of 21st Century Baccarat, counted: the exact engine's one kernel.

Central idea
------------
One enumeration takes *both* branches of every decision (the player's draw or stand, then
the P/D's draw or stand), so its counts do not depend on anybody's strategy. It walks the
P/D's up and hole cards, the player's two cards (an unordered pair: either order, twice the
ways), then the third cards, weighting each card sequence by its exact number of ways to be
drawn without replacement and completing it to six cards (the cards no one uses are any of
those left, in order). The counts are kept modulo a prime, or in plain int64 where the
total fits (:mod:`gamecore.exactcount`). :func:`settle` decides each final pair of hands,
here and in the simulator.
"""

from __future__ import annotations

import numpy as np

from gamecore._jit import kernel, kernel_face
from gamecore.exactcount import addmod, mulmod

#: Indices of :data:`gamecore.c21_baccarat.rules.OUTCOMES`, in its order.
(_WIN_NATURAL, _PUSH_NATURALS, _LOSS_PD_NATURAL, _WIN, _PUSH, _LOSS_ZERO_TIE, _LOSS) = range(7)


@kernel
def _settle(player, player_natural, pd, pd_natural, pd_wins_ties_on_zero):
    if player_natural and pd_natural:
        return _PUSH_NATURALS
    if player_natural:
        return _WIN_NATURAL
    if pd_natural:
        return _LOSS_PD_NATURAL
    if player > pd:
        return _WIN
    if player < pd:
        return _LOSS
    if player == 0 and pd_wins_ties_on_zero:
        return _LOSS_ZERO_TIE
    return _PUSH


@kernel_face(_settle)
def settle(
    player: int, player_natural: bool, pd: int, pd_natural: bool, pd_wins_ties_on_zero: bool
) -> int:
    """The outcome of a final player hand against the P/D's final hand.

    Naturals (two jokers) come first: two Naturals push, a Natural beats any other hand;
    otherwise the higher total wins, and equal totals push except a tie on zero, which goes
    to the P/D when the rule set says so.

    Parameters
    ----------
    player, pd : int
        The player's and the P/D's final totals, 0 to 9 (a hand holding a joker is 9).
    player_natural, pd_natural : bool
        Whether each hand is a Natural (two jokers, its two cards only).
    pd_wins_ties_on_zero : bool
        The rule set's ``pd_wins_ties_on_zero``.

    Returns
    -------
    int
        The outcome, an index of :data:`gamecore.c21_baccarat.rules.OUTCOMES` (the player's
        net result in it is ``PAYOFF`` at that index).
    """
    return int(_settle(player, player_natural, pd, pd_natural, pd_wins_ties_on_zero))


@kernel(inline=True)
def _player_hand(first, second):
    """(hand index of PLAYER_HANDS, value, Natural) of the player's two cards."""
    if first == 10 and second == 10:
        return 11, 9, True
    if first == 10 or second == 10:
        return 10, 9, False
    return (first + second) % 10, (first + second) % 10, False


@kernel(inline=True)
def _pd_draws(drawn, cards, cell, player, player_natural, ways, modulus, zero_ties):
    """The P/D's third card after ``cell`` = (up, hand, player action, P/D total): each card
    left, ``ways`` times its count, tallied into the P/D-draws branch by outcome."""
    up, hand, action, pd_total = cell
    for d3 in range(11):
        if cards[d3] == 0:
            continue
        pd3 = 9 if d3 == 10 else (pd_total + d3) % 10
        o = _settle(player, player_natural, pd3, False, zero_ties)
        drawn[up, hand, action, pd_total, 1, o] = addmod(
            drawn[up, hand, action, pd_total, 1, o], mulmod(ways, cards[d3], modulus), modulus
        )


@kernel(inline=True)
def _player_draws(drawn, cards, cell, player, ways, fill, modulus, zero_ties):
    """The player's third card after ``cell`` = (up, hand, 1, P/D total), then the P/D's
    stand (the sixth card any of the ``fill`` left) and draw (:func:`_pd_draws`)."""
    up, hand, _action, pd_total = cell
    for p3 in range(11):
        if cards[p3] == 0:
            continue
        w3 = mulmod(ways, cards[p3], modulus)
        cards[p3] -= 1
        player3 = 9 if p3 == 10 else (player + p3) % 10
        o = _settle(player3, False, pd_total, False, zero_ties)
        drawn[up, hand, 1, pd_total, 0, o] = addmod(
            drawn[up, hand, 1, pd_total, 0, o], mulmod(w3, fill, modulus), modulus
        )
        _pd_draws(drawn, cards, cell, player3, False, w3, modulus, zero_ties)
        cards[p3] += 1


@kernel
def _count_deals_modulo(shoe, pd_wins_ties_on_zero, modulus):
    zero_ties = pd_wins_ties_on_zero
    concluded = np.zeros((11, 12, 7), dtype=np.int64)
    drawn = np.zeros((10, 12, 2, 9, 2, 7), dtype=np.int64)
    cards = shoe.copy()
    n = cards.sum()
    fill_after_four = mulmod(n - 4, n - 5, modulus)
    fill_after_five = mulmod(n - 5, 1, modulus)
    for up in range(11):
        if cards[up] == 0:
            continue
        w_up = mulmod(cards[up], 1, modulus)
        cards[up] -= 1
        for hole in range(11):
            if cards[hole] == 0:
                continue
            w_hole = mulmod(w_up, cards[hole], modulus)
            cards[hole] -= 1
            pd_natural = up == 10 and hole == 10
            pd_total = 9 if up == 10 or hole == 10 else (up + hole) % 10
            for p1 in range(11):
                if cards[p1] == 0:
                    continue
                w1 = mulmod(w_hole, cards[p1], modulus)
                cards[p1] -= 1
                for p2 in range(p1, 11):
                    if cards[p2] == 0:
                        continue
                    w = mulmod(w1, cards[p2] * (1 if p2 == p1 else 2), modulus)
                    cards[p2] -= 1
                    hand, player, natural = _player_hand(p1, p2)
                    four = mulmod(w, fill_after_four, modulus)
                    if up == 10 or pd_total == 9:
                        # A joker up card, or a P/D two-card 9 or Natural: no one draws.
                        o = _settle(player, natural, pd_total, pd_natural, zero_ties)
                        concluded[up, hand, o] = addmod(concluded[up, hand, o], four, modulus)
                    else:
                        # Player stands; the P/D stands or draws.
                        o = _settle(player, natural, pd_total, False, zero_ties)
                        drawn[up, hand, 0, pd_total, 0, o] = addmod(
                            drawn[up, hand, 0, pd_total, 0, o], four, modulus
                        )
                        five = mulmod(w, fill_after_five, modulus)
                        cell = (up, hand, 0, pd_total)
                        _pd_draws(drawn, cards, cell, player, natural, five, modulus, zero_ties)
                        # Player draws (hands holding a joker are 9s and never draw).
                        if hand < 10:
                            cell = (up, hand, 1, pd_total)
                            _player_draws(
                                drawn, cards, cell, player, w, fill_after_five, modulus, zero_ties
                            )
                    cards[p2] += 1
                cards[p1] += 1
            cards[hole] += 1
        cards[up] += 1
    return concluded, drawn


@kernel_face(_count_deals_modulo)
def count_deals_modulo(
    shoe: np.ndarray, pd_wins_ties_on_zero: bool, modulus: int
) -> tuple[np.ndarray, np.ndarray]:
    """Count every heads-up deal of ``shoe`` by how it ends, for any strategies.

    Each count is a number of ordered six-card sequences (the cards a deal can use, the
    ones no one draws included), so the counts of a full enumeration sum to ``N P 6`` for a
    shoe of ``N`` cards. ``gamecore.c21_baccarat.exact.count_deals`` runs this once per
    modulus and rebuilds the exact counts (:func:`gamecore.exactcount.exact_counts`).

    Parameters
    ----------
    shoe : numpy.ndarray
        int64 (11,): cards by class, point values 0..9 then jokers.
    pd_wins_ties_on_zero : bool
        The rule set's reading of a tie on zero (:func:`settle`).
    modulus : int
        0 to count in plain int64 (the caller's bound says it cannot overflow), else a
        prime below 2**31 (:data:`gamecore.exactcount.CRT_PRIMES`): the counts' residues.

    Returns
    -------
    concluded : numpy.ndarray
        int64 (11, 12, 7): ``[up card, player hand, outcome]``, the deals settled before any
        draw (a joker up card, or a P/D two-card 9 or Natural).
    drawn : numpy.ndarray
        int64 (10, 12, 2, 9, 2, 7): ``[up card, player hand, player draws, P/D two-card
        total, P/D draws, outcome]``, the deals that reach the draw, both branches of both
        decisions (hands holding a joker never draw: their draw branch is zero). Player
        hands index :data:`gamecore.c21_baccarat.rules.HAND_LABELS`; outcomes
        :data:`gamecore.c21_baccarat.rules.OUTCOMES`.
    """
    return _count_deals_modulo(shoe, pd_wins_ties_on_zero, modulus)
