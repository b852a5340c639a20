"""The counting study's shoes, dealt to the cut card in numba: a side-bet counter's and the
perfect-information bettor's.

Central idea
------------
A counting study needs what a fresh-shoe simulation never shows: the cards of one shoe dealt
in order, with what a player could know before each round. Each kernel shuffles a whole shoe
(:func:`gamecore.dealing.shuffle`), burns (the turned card is seen, the rest are not), and
deals rounds by the simulator's own round (:func:`gamecore.baccarat.sim.play_round`) until
the cut card comes out. Before each round the counter reads its true count (running count
per 52 cards left) and bets one unit on each trigger it reaches; the perfect-information
bettor counts the remaining shoe exactly (:func:`gamecore.baccarat.exact.count_rounds_modulo`,
in int64) and bets when the bet's EV on it is positive. What each wins is tallied into a few
float arrays (:data:`BETS`, ... name their columns); the results, their checks and their
tables are :mod:`gamecore.baccarat.counting`'s.

The functions :func:`counter_chunk` and :func:`oracle_chunk` run one chunk of shoes
(:mod:`gamecore.parallel`: a chunk's shoes are seeded from the run's seed alone).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from gamecore._jit import borrowed, kernel
from gamecore.baccarat.exact import count_rounds_modulo
from gamecore.baccarat.sim import play_round
from gamecore.baccarat.tableau import DRAWING
from gamecore.dealing import cards_burned, shuffle
from gamecore.parallel import Chunk

#: True counts are tallied in unit bins from TC_LOW to TC_HIGH (the end bins take the tails).
TC_LOW, TC_HIGH = -10, 20

#: Columns of the statistics: bets, side-bet units won and their squares, base-wager units
#: won on the same rounds, the sums over shoes of the squared side-bet and total win per
#: shoe; the last two only for the perfect-information bettor: the exact EV summed over the
#: rounds bet, and the sum over shoes of its square per shoe.
BETS, WON, WON_SQ, BASE, SHOE_WON_SQ, SHOE_TOTAL_SQ, EV_WON, SHOE_EV_SQ = range(8)


class ShoeDeal(NamedTuple):
    """A shoe and how it is dealt: the cards (point classes), the cards behind the cut card
    and whether the shoe opens with a burn (its first card turned face up)."""

    cards: np.ndarray
    penetration: int
    burn: bool


class BetNets(NamedTuple):
    """Units won per cell of a round's outcome: the counted bet's and the base wager's."""

    bet: np.ndarray
    base: np.ndarray


@kernel
def _counter_shoes(rng, deal, shoes, tags, triggers, nets, drawing):
    """Deal ``shoes`` shoes; a counter bets one unit when the true count >= each trigger.

    Returns (stats[trigger, 6], bins[true count bin, 3], rounds): per trigger the bets, the
    side-bet units won and their squares, the base-wager units won on the same rounds, and the
    sums over shoes of the squared side-bet and total win per shoe; per true-count bin the
    rounds, and the side bet's net result summed and squared (every round, bet or not).
    """
    n_triggers = triggers.size
    stats = np.zeros((n_triggers, 6))
    bins = np.zeros((TC_HIGH - TC_LOW + 1, 3))
    shoe_won = np.zeros(n_triggers)
    shoe_total = np.zeros(n_triggers)
    cards = deal.cards.copy()
    n = cards.size
    cut = n - deal.penetration
    rounds = 0
    for _ in range(shoes):
        shuffle(rng, cards)
        running = 0
        position = 0
        if deal.burn:
            position = cards_burned(cards)
            running += tags[cards[0]]  # the turned card is face up; the rest are not seen
        shoe_won[:] = 0.0
        shoe_total[:] = 0.0
        while position < cut:
            true_count = running * 52.0 / (n - position)
            p, b, pt, bt, used = _deal_round(
                borrowed(rng), borrowed(cards), position, borrowed(drawing)
            )
            net = nets.bet[p, b, pt, bt]
            base = nets.base[p, b, pt, bt]
            k = min(max(int(math.floor(true_count)), TC_LOW), TC_HIGH) - TC_LOW
            bins[k, 0] += 1.0
            bins[k, 1] += net
            bins[k, 2] += net * net
            for j in range(n_triggers):
                if true_count >= triggers[j]:
                    stats[j, BETS] += 1.0
                    stats[j, WON] += net
                    stats[j, WON_SQ] += net * net
                    stats[j, BASE] += base
                    shoe_won[j] += net
                    shoe_total[j] += net + base
            for i in range(used):
                running += tags[cards[position + i]]
            position += used
            rounds += 1
        for j in range(n_triggers):
            stats[j, SHOE_WON_SQ] += shoe_won[j] * shoe_won[j]
            stats[j, SHOE_TOTAL_SQ] += shoe_total[j] * shoe_total[j]
    return stats, bins, rounds


@kernel(inline=True)
def _deal_round(rng, cards, position, drawing):
    # Inlined, and called with borrowed arguments: a called round, or an inlined one given
    # counted references, spends most of its time on reference counts.
    return play_round(
        rng,
        cards,
        position,
        False,
        drawing.player_draws,
        drawing.banker_draws_player_stood,
        drawing.banker_draws,
    )


@kernel
def _oracle_shoes(rng, deal, composition, shoes, nets, tag_sets, max_rounds, drawing):
    """Deal ``shoes`` shoes; before each round compute the bet's exact EV on the remaining
    composition and bet one unit when it is positive.

    Returns (stats[8], states[rounds, 1 + tag sets], rounds): the statistics of
    _counter_shoes plus the exact EV summed over the rounds bet (the expected win given what
    the bettor knew, an unbiased and far less noisy estimate of the same mean) and its
    per-shoe squares; each round's exact EV and true count under each tag set.
    """
    stats = np.zeros(8)
    n_sets = tag_sets.shape[0]
    states = np.zeros((shoes * max_rounds, 1 + n_sets))
    cards = deal.cards.copy()
    n = cards.size
    cut = n - deal.penetration
    rounds = 0
    running = np.zeros(n_sets)
    for _ in range(shoes):
        shuffle(rng, cards)
        remaining = composition.copy()
        running[:] = 0.0
        position = 0
        if deal.burn:
            position = cards_burned(cards)
            for i in range(position):
                remaining[cards[i]] -= 1  # the bettor knows exactly what is left
            for s in range(n_sets):
                running[s] += tag_sets[s, cards[0]]
        shoe_won = 0.0
        shoe_total = 0.0
        shoe_ev = 0.0
        while position < cut:
            counts = count_rounds_modulo(
                remaining,
                drawing.player_draws,
                drawing.banker_draws_player_stood,
                drawing.banker_draws,
                0,
            )
            left = n - position
            total = 1.0
            for i in range(6):
                total *= left - i
            ev = 0.0
            for index in np.ndindex(counts.shape):
                ev += counts[index] * nets.bet[index]
            ev /= total
            states[rounds, 0] = ev
            for s in range(n_sets):
                states[rounds, 1 + s] = running[s] * 52.0 / left
            p, b, pt, bt, used = _deal_round(
                borrowed(rng), borrowed(cards), position, borrowed(drawing)
            )
            if ev > 0.0:
                net = nets.bet[p, b, pt, bt]
                base = nets.base[p, b, pt, bt]
                stats[BETS] += 1.0
                stats[WON] += net
                stats[WON_SQ] += net * net
                stats[BASE] += base
                shoe_won += net
                shoe_total += net + base
                stats[EV_WON] += ev
                shoe_ev += ev
            for i in range(used):
                card = cards[position + i]
                remaining[card] -= 1
                for s in range(n_sets):
                    running[s] += tag_sets[s, card]
            position += used
            rounds += 1
        stats[SHOE_WON_SQ] += shoe_won * shoe_won
        stats[SHOE_TOTAL_SQ] += shoe_total * shoe_total
        stats[SHOE_EV_SQ] += shoe_ev * shoe_ev
    return stats, states[:rounds], rounds


def counter_chunk(
    job_and_chunk: tuple[tuple[Any, ...], Chunk],
) -> tuple[np.ndarray, np.ndarray, int]:
    """Deal one chunk of shoes to a side-bet counter (the work one thread or Dask worker does).

    Parameters
    ----------
    job_and_chunk : tuple
        ``((shoe, dealing, tags, triggers, nets), chunk)``: the shoe as point classes
        (int64), the :class:`gamecore.dealing.Dealing` (penetration and burn), the tags by
        point class (int64[10]), the triggers (float64), the :class:`BetNets`, and the
        :class:`gamecore.parallel.Chunk` (its shoes and its seed).

    Returns
    -------
    tuple
        ``(stats, bins, rounds)``: float64[triggers, 6] with the columns :data:`BETS` to
        :data:`SHOE_TOTAL_SQ` per trigger; float64[true count bins, 3]: each bin's rounds,
        and the bet's net result summed and squared over them (every round, bet or not);
        the rounds dealt.
    """
    (shoe, dealing, tags, triggers, nets), chunk = job_and_chunk
    return _counter_shoes(
        chunk.generator(),
        ShoeDeal(shoe, dealing.penetration, dealing.burn != "none"),
        chunk.size,
        tags,
        triggers,
        nets,
        DRAWING,
    )


def oracle_chunk(
    job_and_chunk: tuple[tuple[Any, ...], Chunk],
) -> tuple[np.ndarray, np.ndarray, int]:
    """Deal one chunk of shoes to the perfect-information bettor.

    Parameters
    ----------
    job_and_chunk : tuple
        ``((shoe, composition, dealing, tag_sets, nets, max_rounds), chunk)``: the shoe as
        point classes (int64), its cards per point class (int64[10]), the dealing, the tags
        of each tag set (int64[sets, 10]), the :class:`BetNets`, the most rounds a shoe can
        deal, and the :class:`gamecore.parallel.Chunk`.

    Returns
    -------
    tuple
        ``(stats, states, rounds)``: float64[8], the columns :data:`BETS` to
        :data:`SHOE_EV_SQ`; float64[rounds, 1 + sets]: each round's exact EV of the bet on
        the remaining shoe, then its true count under each tag set; the rounds dealt.
    """
    (shoe, composition, dealing, tag_sets, nets, max_rounds), chunk = job_and_chunk
    return _oracle_shoes(
        chunk.generator(),
        ShoeDeal(shoe, dealing.penetration, dealing.burn != "none"),
        composition,
        chunk.size,
        nets,
        tag_sets,
        max_rounds,
        DRAWING,
    )
