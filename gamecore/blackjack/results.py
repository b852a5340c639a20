"""The probability of each final result of a (c21) blackjack round.

Central idea
------------
The EV recursion of :mod:`gamecore.blackjack` carries one number per hand; here each hand
carries a *joint distribution* instead: the probability of each (final class of the hand,
the dealer's final outcome) pair, where a class is what settlement needs (a standing total
16-or-less or 17..21, a plain bust, a three-card bust of 23, 24 or 25, a surrender, each
doubled or not) and the dealer's outcome is 17..21, each bust total 22..26 or a Natural.
Stand, double and surrender put the dealer's distribution behind the hand's exact cards into
one class; a hit averages the children's joints over the next card, drawn without
replacement. The dealer's distribution behind the cards that bust a hand is exact too,
without a row of its own: removing an unseen card leaves the dealer's distribution unchanged,
so it is the hand's own less its live children's. Settling each pair gives the round's net
result.

* **Rounds without a split** (almost all): the distribution is exact, as exact as the EVs
  (float64 recursions over probabilities).
* **Rounds split once** (two hands, no resplit): exact too. Each split hand's play depends
  on its own cards only, so every way a hand can end is listed with its number of card
  orders; a pair of ends has the probability of drawing the cards both hold, and the dealer
  then draws from what is left (its distribution computed once per distinct set of held
  cards, found through a hash table; not at all for a set only pairs of plain busts hold,
  lost whatever the dealer draws). This is how Eric Farmer's ``blackjack_pdf`` handles
  splits, and where it stops.
* **Rounds resplit to three or four hands** (about 0.3% of rounds at 6 decks): each hand's
  joint with the dealer's outcome is exact (the split EV's identities are linear, so they
  carry distributions as well as values), but the joint law of the hands is not computed:
  they are combined as independent given the dealer's outcome (and the pattern of split
  cards). Their total probability and mean are exact; their spread is approximate, reported
  in its own column, with its own simulated twin.

Results are in half units (a surrender loses half), from -8 (four doubled hands lost) to +8,
and a Natural paid ``natural_pays`` has its own row.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from gamecore._jit import kernel
from gamecore.blackjack.backward import POLICY_CHART, Solved
from gamecore.blackjack.caches import compact_actions
from gamecore.blackjack.chart import (
    ChartTables,
    StrategyChart,
    chart_tables,
    read_strategy_chart,
)
from gamecore.blackjack.dealer import dealer_distribution, dealer_rows, hash_slot
from gamecore.blackjack.engine import Engine, refuse_forbidden
from gamecore.blackjack.round import (
    PLAY_EARLY_SURRENDER,
    PLAY_NATURAL,
    PLAY_SPLIT,
    chart_play,
    optimal_play,
)
from gamecore.blackjack.rules import (
    ACE,
    DOUBLE,
    HIT,
    N_OUTCOMES,
    NATURAL,
    STAND,
    SURRENDER,
    TEN,
    StandardBlackjackRules,
    check_rules,
    rule_codes,
)
from gamecore.blackjack.shoe import checked_shoe
from gamecore.blackjack.splits import split_hands
from gamecore.parallel import default_threads

if TYPE_CHECKING:  # pandas is imported where a table is asked for: see ResultDistribution
    import pandas as pd

# Hand classes: a standing total (16 or less, 17..21), a plain bust, a three-card bust of
# 23/24/25 (which the bust push may save), a surrender; the same again doubled.
STAND_LOW, BUST, BUST_23, SURRENDERED = 0, 6, 7, 10
DOUBLED = 11
N_CLASSES = 22
#: Net results of a round in half units, -16..16; index = half units + 16.
HALF_UNITS = 33


@kernel(inline=True)
def _stand_class(total):
    return STAND_LOW if total <= 16 else total - 16


@kernel(inline=True)
def _bust_class(hard, cards, bust_push):
    if bust_push and cards == 3 and 23 <= hard <= 25:
        return BUST_23 + hard - 23
    return BUST


@kernel(inline=True)
def _final_class(bust, hard, soft, cards, j, bust_push):
    """The class of hand ``j`` standing (or busted) where it is (the tree's columns, not
    the tree: an inlined helper handed a NamedTuple of arrays costs its reference counts)."""
    if bust[j]:
        return _bust_class(hard[j], cards[j], bust_push)
    return _stand_class(hard[j] + 10 if soft[j] else hard[j])


@kernel(inline=True)
def _busted_dealer(child, rows, dealers, i, up, shoe, n, dist, out):
    """The dealer's distribution behind the cards that bust hand ``i`` when it draws,
    weighted by their chances, into ``out``. A plain bust is not a node of the tree: removing
    an unseen card leaves the dealer's distribution unchanged (``dist(cards) = sum_c p_c
    dist(cards + c)``, exact whenever the dealer cannot use up the shoe: see
    :func:`_busted_dealer_direct` for a shoe that small), so it is the hand's own
    distribution ``dist`` less its live children's."""
    out[:] = dist
    for c in range(10):
        j = child[i, c]
        if shoe[c] > 0 and j >= 0:
            for d in range(N_OUTCOMES):
                out[d] -= shoe[c] / n * dealers[rows[j], up, d]


@kernel
def _busted_dealer_direct(child, i, up, shoe, n, table, out):
    """:func:`_busted_dealer` with each busting card's distribution computed directly, for a
    shoe so small that the dealer might use it up."""
    left = np.empty(10, dtype=np.int64)
    one = np.empty(N_OUTCOMES)
    out[:] = 0.0
    for c in range(10):
        if shoe[c] > 0 and child[i, c] < 0:
            left[:] = shoe
            left[c] -= 1
            dealer_distribution(left, up, table, one)
            out += shoe[c] / n * one


@kernel
def _joints(tree, context, dealers, table, up, action, bust_push, out):
    """``out[i, class, dealer outcome]`` for every hand ``i`` of ``context`` (its rows
    overwritten, the others' left as they are), the action played at each live hand being
    ``action[i, up]``. Hands with more cards first."""
    shoe = np.zeros(10, dtype=np.int64)
    busted = np.zeros(N_OUTCOMES)
    bust, hard, soft, cards = tree.bust, tree.hard, tree.soft, tree.cards
    for idx in range(tree.order.size):
        i = tree.order[idx]
        if not context.mask[i]:
            continue
        out[i] = 0.0
        ok = True
        n = 0
        for r in range(10):
            shoe[r] = context.base[r] - tree.counts[i, r] - (1 if r == up else 0)
            if shoe[r] < 0:
                ok = False
            n += shoe[r]
        if not ok:
            continue
        dist = dealers[context.rows[i], up]
        a = action[i, up]
        if tree.bust[i] or a == STAND:
            out[i, _final_class(bust, hard, soft, cards, i, bust_push)] = dist
        elif a == SURRENDER:
            out[i, SURRENDERED] = dist
        elif a == HIT or a == DOUBLE:
            busts = False
            for c in range(10):
                if shoe[c] == 0:
                    continue
                pc = shoe[c] / n
                j = tree.child[i, c]
                if j < 0:
                    busts = True
                elif a == HIT:
                    for k in range(N_CLASSES):  # loops, not array expressions: no temporaries
                        for d in range(N_OUTCOMES):
                            out[i, k, d] += pc * out[j, k, d]
                else:
                    k = DOUBLED + _final_class(bust, hard, soft, cards, j, bust_push)
                    for d in range(N_OUTCOMES):
                        out[i, k, d] += pc * dealers[context.rows[j], up, d]
            if busts and n > table.most_drawn[up]:
                _busted_dealer(tree.child, context.rows, dealers, i, up, shoe, n, dist, busted)
            elif busts:
                _busted_dealer_direct(tree.child, i, up, shoe, n, table, busted)
            if busts:
                k = BUST + (DOUBLED if a == DOUBLE else 0)
                for d in range(N_OUTCOMES):
                    out[i, k, d] += busted[d]


class _HandEnds(NamedTuple):
    """Scratch and output of :func:`_split_hand_ends` (one slot per way a hand can end)."""

    ways: np.ndarray  # (M,) card orders reaching each node
    node: np.ndarray  # the hand's final cards: a node ...
    extra: np.ndarray  # ... and the card that busts it (-1: none)
    final_class: np.ndarray
    orders: np.ndarray  # card orders that play to the end


@kernel
def _split_hand_ends(tree, one, pair, first_not_pair, up, action, bust_push, ends):
    """Every way one split hand can end: the hand's final cards (a node and, for a plain
    bust, the card that busts it), its class and the number of card orders that play to it
    (the play depending on the hand's cards only).

    The hand starts as the single pair card ``one``; with ``first_not_pair`` its second card
    is not a pair card (no resplit). Returns the number of ends written to ``ends``.
    """
    ways = ends.ways
    ways[:] = 0.0
    ways[one] = 1.0
    found = 0
    for idx in range(tree.order.size - 1, -1, -1):  # fewest cards first
        i = tree.order[idx]
        w = ways[i]
        if w == 0.0:
            continue
        a = action[i, up]
        live = not tree.bust[i]
        if i == one or (live and (a == HIT or a == DOUBLE)):
            doubled = i != one and a == DOUBLE
            for c in range(10):
                j = tree.child[i, c]
                if i == one and first_not_pair and c == pair:
                    continue
                if j >= 0 and not doubled:
                    ways[j] += w
                    continue
                ends.node[found] = i if j < 0 else j
                ends.extra[found] = c if j < 0 else -1
                k = (
                    BUST
                    if j < 0
                    else _final_class(tree.bust, tree.hard, tree.soft, tree.cards, j, bust_push)
                )
                ends.final_class[found] = k + (DOUBLED if doubled else 0)
                ends.orders[found] = w
                found += 1
            continue
        ends.node[found] = i
        ends.extra[found] = -1
        if live and a == SURRENDER:
            ends.final_class[found] = SURRENDERED
        else:
            ends.final_class[found] = _final_class(
                tree.bust, tree.hard, tree.soft, tree.cards, i, bust_push
            )
        ends.orders[found] = w
        found += 1
    return found


def _falling_factorials(shoe: np.ndarray, most: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Falling factorials scaled by a power of two: ``ff[r, k] = ff(shoe[r], k) / 2**(e k)``
    for k <= ``most[r]`` (0 past the shoe), and ``inverse[k] = 2**(e k) / ff(n, k)`` for k
    below the shoe's size ``n`` (0 from there: a pair of hands taking every card leaves
    none for the dealer's hole card), ``2**e`` the least power of two above ``n``.

    A probability of drawing k cards multiplies k factors of ``ff`` and ``inverse[k]``, so
    the scales cancel; and a power of two scales a float exactly, so each such product is
    the unscaled one to the last bit wherever that one stays a normal float. Unscaled,
    ``ff(n, k)`` left the float range (1.8e308) inside this table at large shoes (from 66
    cards at a thousand decks, 45 at the largest shoe, ten million cards; two hands draw 40
    at most), and its inverse read 0 there. Scaled, every factor but the zeros past the shoe
    lies in ``[2**-e, 1]`` (``e`` at most 24): ``ff`` stays at most 1, ``inverse[k]`` below
    ``(2 * 2.72)**k`` (far inside the range for the 130 or fewer cards of the table), and
    the product over two hands' cards at least ``2**(-24 * 40)``, still a normal float."""
    n, top = int(shoe.sum()), int(most.sum())
    scale = 2.0 ** -n.bit_length()
    k = np.arange(1, most.max() + 1)
    factors = np.maximum(shoe[:, None] - k[None, :] + 1, 0) * scale
    factors[k[None, :] > most[:, None]] = 0.0  # past each rank's bound: not used
    ff = np.concatenate((np.ones((10, 1)), np.cumprod(factors, axis=1)), axis=1)
    inverse = np.zeros(top + 1)
    kept = min(top, n - 1) + 1
    if kept > 0:
        drawn = np.cumprod((n - np.arange(kept - 1.0)) * scale)
        inverse[:kept] = 1.0 / np.concatenate(([1.0], drawn))
    return ff, inverse


@kernel(inline=True)
def _pair_probability(drawn, end_ways, e1, e2, ff, inverse):
    """Probability of the ordered pair of hand ends ``(e1, e2)`` (both orders counted when
    they differ): ``ways_1 * ways_2 * prod_r ff(n_r, k_r) / ff(n, k)``, the two hands' cards
    drawn without replacement from the shoe of ``ff`` and ``inverse``
    (:func:`_falling_factorials`, whose scales cancel: ``k = sum_r k_r``); zero where the
    shoe lacks the cards or leaves none for the dealer's hole card."""
    p = end_ways[e1] * end_ways[e2] * (1.0 if e1 == e2 else 2.0)
    taken = 0
    for r in range(10):
        used = drawn[e1, r] + drawn[e2, r]
        p *= ff[r, used]
        taken += used
    return p * inverse[taken]


class _Unions(NamedTuple):
    """What :func:`_pair_unions` fills: ``union[k]`` the set of cards the k-th pair of hand
    ends holds (-1: the pair cannot happen), through the hash ``table`` of the sets' codes;
    ``first``, ``second`` one pair holding each set; ``needed[u]`` some pair holding set ``u``
    settles by the dealer's outcome."""

    table: np.ndarray  # (S, 2) int64, key -1 free
    union: np.ndarray  # (pairs,) int32
    first: np.ndarray  # (S // 2,) int32
    second: np.ndarray  # (S // 2,) int32
    needed: np.ndarray  # (S // 2,) bool


@kernel(inline=True)
def _pair_fits(drawn, e1, e2, shoe, n):
    """Does the shoe (``n`` cards) hold the cards of both hand ends and leave one for the
    dealer's hole card: is the pair's probability (:func:`_pair_probability`) not zero?"""
    fits = True
    taken = 0
    for r in range(10):
        used = drawn[e1, r] + drawn[e2, r]
        fits = fits and used <= shoe[r]
        taken += used
    return fits and taken < n


@kernel
def _pair_unions(ends, code, shoe, free, out):
    """Every pair of hand ends ``e1 <= e2`` (:class:`_TwoHandEnds`), in order, into ``out``
    (:class:`_Unions`; the sets numbered from their codes' sum; ``free[class]``: a class
    settled alike against every dealer outcome), drawn from ``shoe``. Returns the number of
    sets, or -1 when ``out.table`` is half full (call again with a larger one).

    Whether a pair can be dealt is settled once for all the pairs of an end ``e1`` where its
    cards and the most any end draws of each rank fit in the shoe (at 6 decks, every end):
    on the heaviest split at 6 decks (2.3 million pairs) the test pair by pair was the
    larger part of the work."""
    drawn, end_class, _ways = ends
    table = out.table
    ends_count = code.size
    n = 0
    for r in range(10):
        n += shoe[r]
    most = np.zeros(10, dtype=np.int64)  # the most cards of each rank an end draws
    most_cards = 0
    for e in range(ends_count):
        cards = 0
        for r in range(10):
            most[r] = max(most[r], drawn[e, r])
            cards += drawn[e, r]
        most_cards = max(most_cards, cards)
    unions = 0
    k = 0
    for e1 in range(ends_count):
        every_pair_fits = True
        cards = 0
        for r in range(10):
            every_pair_fits = every_pair_fits and drawn[e1, r] + most[r] <= shoe[r]
            cards += drawn[e1, r]
        every_pair_fits = every_pair_fits and cards + most_cards < n
        for e2 in range(e1, ends_count):
            out.union[k] = -1
            if every_pair_fits or _pair_fits(drawn, e1, e2, shoe, n):
                key = code[e1] + code[e2]
                slot = hash_slot(table, key)
                if table[slot, 0] == -1:
                    if 2 * (unions + 1) > table.shape[0]:
                        return -1
                    table[slot, 0], table[slot, 1] = key, unions
                    out.first[unions], out.second[unions] = e1, e2
                    out.needed[unions] = False
                    unions += 1
                u = table[slot, 1]
                out.union[k] = u
                if not (free[end_class[e1]] and free[end_class[e2]]):
                    out.needed[u] = True
            k += 1
    return unions


class _UnionDealers(NamedTuple):
    """The dealer behind each set of cards two split hands hold: ``row[u]`` the set's row of
    ``dealer`` (its final distribution), -1 where none was needed (every pair holding the
    set settles the same whatever the dealer's outcome: both hands plain busts); ``live[u]``
    the chance the dealer has no Natural behind the set (1 without the peek)."""

    row: np.ndarray  # (U,) int64
    dealer: np.ndarray  # (rows, N_OUTCOMES)
    live: np.ndarray  # (U,)


@kernel
def _settle_pairs(drawn, end_ways, end_class, ff, inverse, union, dealers, settle, peek, out):
    """Add every pair of hand ends' net result (half units, index + 16) to ``out``: the
    pair's probability times the dealer's outcome behind the cards both hold
    (:class:`_UnionDealers`), settled hand by hand. Under the peek the dealer's Natural is
    left out (no split is played: the caller books its loss).

    The pairs are first summed by their two hands' classes (a pair's settlement depends on
    nothing else): one contiguous row of adds per pair, and each net result then gathered
    once per class pair and dealer outcome, far fewer gathers than pairs (2.3 million
    pairs on the heaviest split at 6 decks)."""
    classes = settle.shape[0]
    by_pair = np.zeros((classes * classes, N_OUTCOMES))  # sum of p * dealer, class pair
    settled = np.zeros(classes * classes)  # sum of p * P(no Natural), pairs of plain busts
    k = 0
    for e1 in range(end_class.size):
        first = end_class[e1] * classes
        for e2 in range(e1, end_class.size):
            u = union[k]
            k += 1
            if u < 0:
                continue
            p = _pair_probability(drawn, end_ways, e1, e2, ff, inverse)
            pair = first + end_class[e2]
            row = dealers.row[u]
            if row < 0:  # the same result against every outcome the dealer can reach
                settled[pair] += p * dealers.live[u]
                continue
            for d in range(N_OUTCOMES):
                by_pair[pair, d] += p * dealers.dealer[row, d]
    for c1 in range(classes):
        for c2 in range(classes):
            pair = c1 * classes + c2
            out[settle[c1, 0] + settle[c2, 0] + 16] += settled[pair]
            for d in range(N_OUTCOMES):
                if peek and d == NATURAL:
                    continue
                out[settle[c1, d] + settle[c2, d] + 16] += by_pair[pair, d]


def settlement(rules: StandardBlackjackRules) -> np.ndarray:
    """Half units won by a hand of each class against each dealer outcome (int, K x 11).

    The dealer's Natural column is the no-peek settlement (every wager on the hand lost, a
    surrender half); under the peek a Natural ends the round before any play.
    """
    bust_push = rule_codes(rules).bust_push
    table = np.zeros((N_CLASSES, N_OUTCOMES), dtype=np.int64)
    for doubled in (0, 1):
        unit = 2 * (2 if doubled else 1)
        for k in range(SURRENDERED):
            row = table[k + (DOUBLED if doubled else 0)]
            for d in range(N_OUTCOMES):
                dealer = 17 + d  # 17..21, then bust totals 22..26
                if d == NATURAL:
                    row[d] = -unit
                elif k < BUST:
                    total = 16 if k == STAND_LOW else 16 + k
                    row[d] = (
                        unit if (d >= 5 or total > dealer) else (0 if total == dealer else -unit)
                    )
                elif k == BUST:
                    row[d] = -unit
                else:
                    mine = 23 + k - BUST_23
                    row[d] = 0 if (bust_push and d >= 5 and mine < dealer) else -unit
    table[SURRENDERED] = -1
    return table


#: The columns of :attr:`ResultDistribution.table`, in order.
RESULT_COLUMNS = (
    "Net result",
    "Outcome",
    "Probability",
    "Without a split",
    "Split, two hands",
    "With a resplit",
    "Return",
)


@dataclasses.dataclass(frozen=True)
class ResultDistribution:
    """The probability of each net result of a round, by how exactly it is known.

    Attributes
    ----------
    rows
        One dict per row of :attr:`table` (:data:`RESULT_COLUMNS`), what :attr:`table`
        prints: the JSON of ``gamecore exact --results`` reads them without pandas.
    mean
        The distribution's mean; equals the strategy's exact EV.
    strategy
        ``"optimal"`` or the chart's name.
    split_share, resplit_share
        The probability that the player splits, and that a split is resplit.
    """

    rules: StandardBlackjackRules
    strategy: str
    rows: tuple[dict[str, float | str], ...]
    mean: float
    split_share: float
    resplit_share: float

    @property
    def table(self) -> pd.DataFrame:
        """Net result (units of the initial wager; a Natural paid its own row) | Outcome |
        Probability | Without a split (exact) | Split, two hands (rounds split once and never
        resplit: exact) | With a resplit (three or four hands: the hands combined as
        independent given the dealer's outcome, approximate) | Return."""
        import pandas as pd  # only here: importing it is a tenth of a command line's run

        return pd.DataFrame(list(self.rows), columns=list(RESULT_COLUMNS))

    def _column(self, name: str) -> np.ndarray:
        return np.array([row[name] for row in self.rows], dtype=float)

    @property
    def standard_deviation(self) -> float:
        """The standard deviation of a round's net result (approximate where resplits
        happen: see :meth:`statistics`)."""
        x, p = self._column("Net result"), self._column("Probability")
        # The second moment about the mean, not E[x^2] - mean^2: that difference of two
        # nearly equal numbers rounds below zero where every round ends alike (a shoe of
        # eights: +4 every round, E[x^2] 16.000000000000004, mean^2 16.000000000000007),
        # and its square root was NaN. Every term here is at least zero.
        return float(np.sqrt(np.dot(p, (x - self.mean) ** 2)))

    def net_distribution(self) -> dict[float, float]:
        """{net result per initial wager: probability}, rows of equal result merged."""
        merged: dict[float, float] = {}
        for row in sorted(self.rows, key=lambda row: row["Net result"]):
            net = float(row["Net result"])
            merged[net] = merged.get(net, 0.0) + float(row["Probability"])
        return merged

    @property
    def exact(self) -> np.ndarray:
        """Each row's probability from the rounds known exactly (all but resplits)."""
        return self._column("Without a split") + self._column("Split, two hands")

    def statistics(self) -> pd.DataFrame:
        """Figure | Value | Exactness: EV, P/D edge, standard deviation, win / push / loss
        frequencies per round.

        The EV is exact. A figure that depends on how the hands of a resplit move together
        (the standard deviation, the frequencies) is approximate where resplits happen, by
        less than the resplit share; with no resplits every figure is exact.
        """
        import pandas as pd

        x, p = self._column("Net result"), self._column("Probability")
        spread = "exact" if self.resplit_share == 0 else "approximate (resplit rounds)"
        exact_part = self.exact
        rows = [
            ("Player EV per initial wager", self.mean, "exact"),
            ("P/D edge per unit a player wagers", -self.mean, "exact"),
            ("Standard deviation per round", self.standard_deviation, spread),
            ("Win frequency (net result > 0)", float(p[x > 0].sum()), spread),
            ("Push frequency", float(p[x == 0].sum()), spread),
            ("Loss frequency (net result < 0)", float(p[x < 0].sum()), spread),
            ("Probability of a split", self.split_share, "exact"),
            ("Probability of a resplit", self.resplit_share, "exact"),
            ("Win frequency, rounds without a resplit", float(exact_part[x > 0].sum()), "exact"),
        ]
        return pd.DataFrame(rows, columns=["Figure", "Value", "Exactness"])


def result_distribution(
    rules: StandardBlackjackRules,
    chart: StrategyChart | str | Path | None = None,
    composition: Sequence[int] | None = None,
    engine: Engine | None = None,
) -> ResultDistribution:
    """The probability of each net result of a round under ``chart`` (a total-dependent chart)
    or, with ``chart=None``, optimal composition-dependent play (CDZ- splits). ``engine``,
    an :class:`~gamecore.blackjack.engine.Engine` of these rules and this shoe, shares its
    tables (:func:`gamecore.blackjack.exact` passes its own).

    Examples
    --------
    >>> from gamecore import blackjack
    >>> rules = blackjack.StandardBlackjackRules(decks=1, max_split_hands=2)
    >>> d = result_distribution(rules)
    >>> float(round(d.table["Probability"].sum(), 12))
    1.0
    >>> abs(d.mean - blackjack.exact(rules, search_chart=False).player_ev) < 1e-12
    True
    """
    rules = check_rules(rules)
    if chart is not None and not isinstance(chart, StrategyChart):
        chart = read_strategy_chart(chart)
    if engine is None:
        shoe = None if composition is None else checked_shoe(composition, rules, min_cards=0)
        engine = Engine(rules, shoe)
    strategy = _Strategy.of(engine, chart)
    settle = settlement(engine.rules)
    splits = [
        (opening.first, up)
        for up in range(10)
        for opening in engine.caches.openings(up)
        if opening.pair and strategy.play(opening) == PLAY_SPLIT
    ]
    # Split rounds and up cards are independent; their kernels release the GIL. The heavy
    # splits (HEAVY_SPLIT_PAIRS) are worked one after another on one thread, beside the
    # others on the rest, so no two of them are held at once. Summed in a fixed order, so
    # the result does not depend on the number of threads.
    ends = {job: _two_hand_ends(engine, strategy.kept, *job) for job in splits}
    pairs = {job: len(ends[job].ways) * (len(ends[job].ways) + 1) // 2 for job in splits}
    heavy = [job for job in splits if pairs[job] >= HEAVY_SPLIT_PAIRS]
    light = [job for job in splits if pairs[job] < HEAVY_SPLIT_PAIRS]

    def split_round(job):
        return _split_round(engine, strategy.kept, *job, ends.pop(job), settle)

    with ThreadPoolExecutor(default_threads()) as pool:
        heavy_rounds = pool.submit(lambda: [split_round(job) for job in heavy])
        split_rounds = dict(zip(light, pool.map(split_round, light), strict=True))
        split_rounds.update(zip(heavy, heavy_rounds.result(), strict=True))
        parts = list(
            pool.map(
                lambda up: _up_card_results(engine, strategy, up, split_rounds, settle),
                range(10),
            )
        )
    plain, two_hands, resplits, paid = (sum(part[k] for part in parts) for k in range(4))
    return ResultDistribution(
        rules,
        "optimal" if chart is None else chart.name,
        *_result_rows(plain, two_hands, resplits, float(paid[0]), engine.codes.natural_pays),
        float(two_hands.sum() + resplits.sum()),
        float(resplits.sum()),
    )


@dataclasses.dataclass(frozen=True)
class _Strategy:
    """A strategy solved on the engine: optimal play (``chart`` None) or a chart's."""

    chart: StrategyChart | None
    tables: ChartTables | None
    solved: Solved
    split: np.ndarray
    kept: dict  # each context's actions by its key, int8 (the unsplit hands' at (-1, 0))

    @classmethod
    def of(cls, engine: Engine, chart: StrategyChart | None) -> _Strategy:
        if chart is None:
            solved, split, actions = engine.caches.optimal()  # shared with the analysis's
            kept = {(-1, 0): compact_actions(solved.action), **actions}
            return cls(chart, None, solved, split, kept)
        kept = {}

        def keep_actions(key, context):
            kept[key] = compact_actions(context.action)

        tables = chart_tables(chart, engine.rules)
        solved = engine.solve(policy=POLICY_CHART, tables=tables)
        refuse_forbidden(solved.action, engine, chart)
        kept[(-1, 0)] = compact_actions(solved.action)
        split = engine.split_values(None, POLICY_CHART, tables, each_solve=keep_actions)
        return cls(chart, tables, solved, split, kept)

    def play(self, opening) -> int:
        if self.chart is None:
            return optimal_play(opening, self.solved.ev, self.split).play
        return chart_play(opening, self.chart, self.tables, self.split).play


def _up_card_results(
    engine: Engine, strategy: _Strategy, up: int, split_rounds, settle: np.ndarray
) -> np.ndarray:
    """(plain, two hands, resplits, Natural paid) rows of one up card, weighted by it; the
    split rounds' results from ``split_rounds[(pair, up)]`` (:func:`_split_round`)."""
    out = np.zeros((4, HALF_UNITS))
    plain, two_hands, resplits, natural_paid = out
    if engine.shoe[up] == 0:
        return out
    peek = engine.codes.peek
    p_up = engine.shoe[up] / engine.shoe.sum()
    joint = _hand_joints(engine, (-1, 0), strategy.kept[(-1, 0)], up)
    for opening in engine.caches.openings(up):
        w = p_up * opening.probability
        play = strategy.play(opening)
        if play == PLAY_NATURAL:
            natural_paid[0] += w * (1.0 - opening.dealer_natural)
            plain[16] += w * opening.dealer_natural  # Natural against Natural pushes
        elif play == PLAY_EARLY_SURRENDER:
            plain[16 - 1] += w
        elif play == PLAY_SPLIT:
            exact_part, approximate_part = split_rounds[(opening.first, up)]
            two_hands += w * exact_part
            resplits += w * approximate_part
            if peek:  # a dealer Natural ends the round before the split
                plain[16 - 2] += w * opening.dealer_natural
        else:
            plain += w * _settle_hand(joint[opening.node], settle, peek)
    return out


def _result_rows(plain, two_hands, resplits, natural_paid, pays) -> tuple[tuple, float]:
    """The rows of :class:`ResultDistribution` and its mean."""
    total = plain + two_hands + resplits
    units = (np.arange(HALF_UNITS) - 16) / 2
    parts = [
        (units[x], _label(units[x]), total[x], plain[x], two_hands[x], resplits[x])
        for x in range(HALF_UNITS)
        if total[x] > 0
    ]
    parts.append((pays, "Natural paid", natural_paid, natural_paid, 0.0, 0.0))
    rows = tuple(
        {
            "Net result": float(net),
            "Outcome": outcome,
            "Probability": float(p),
            "Without a split": float(unsplit),
            "Split, two hands": float(two),
            "With a resplit": float(resplit),
            "Return": float(net) * float(p),
        }
        for net, outcome, p, unsplit, two, resplit in parts
    )
    return rows, float(np.dot(units, total) + pays * natural_paid)


def _label(units: float) -> str:
    if units == 0:
        return "push"
    return f"{'win' if units > 0 else 'lose'} {abs(units):g}"


def _hand_joints(engine: Engine, key, action, up, out: np.ndarray | None = None) -> np.ndarray:
    """Every hand's joint (class x dealer outcome) in one context against ``up``, into
    ``out`` where given (a buffer reused across contexts: only the context's rows are
    meaningful then; a fresh one costs megabytes of zeroed pages per context)."""
    if out is None:
        out = np.zeros((len(engine.nodes.counts), N_CLASSES, N_OUTCOMES))
    context = engine.context(*key)
    _joints(
        engine.nodes,
        context,
        engine.dealers,
        engine.dealer,
        up,
        action,
        engine.codes.bust_push,
        out,
    )
    return out


def _settle_hand(joint: np.ndarray, settle: np.ndarray, peek: bool) -> np.ndarray:
    """Net result (half units, index + 16) of an unsplit hand from its joint."""
    out = np.zeros(HALF_UNITS)
    np.add.at(out, settle.ravel() + 16, joint.ravel())
    if peek:  # the dealer's Natural ends the round: the initial wager is lost
        lost = joint[:, NATURAL].sum()
        np.add.at(out, settle[:, NATURAL] + 16, -joint[:, NATURAL])
        out[16 - 2] += lost
    return out


def _split_round(engine, kept, pair, up, ends, settle) -> tuple[np.ndarray, np.ndarray]:
    """Net result of a split of ``pair`` against ``up`` (half units, index + 16): (rounds
    that stay at two hands, exact; rounds with a resplit, approximate); ``ends``: one
    hand's (:func:`_two_hand_ends`)."""
    peek = engine.codes.peek
    two_hands = _two_hand_split(engine, ends, pair, up, settle)
    extra = engine.split_extras[pair]
    jx = np.zeros((extra + 1, *settle.shape))
    jp = np.zeros((extra + 1, *settle.shape))
    joints = np.empty((len(engine.nodes.counts), *settle.shape))
    for a in range(extra + 1):
        second = engine.caches.second_cards(pair, a, up)
        if second is None:
            continue
        _hand_joints(engine, (pair, a), kept[(pair, a)], up, joints)
        jx[a] = second.average(joints)
        if second.pair_node >= 0:
            jp[a] = joints[second.pair_node]
    shoe = engine.shoe.copy()
    shoe[up] -= 1
    shoe[pair] -= 2
    pairs, cards = int(shoe[pair]), int(shoe.sum())
    resplit = np.zeros(HALF_UNITS)
    for pattern in split_hands(list(jx), list(jp), pairs, cards, engine.max_hands(pair)):
        if pattern.extra_pairs == 0:
            continue  # no resplit: two hands, computed exactly above
        hands = [pattern.known_value] * pattern.known + [pattern.rest_value] * pattern.rest
        resplit += pattern.probability * _combine(hands, settle, peek)
    return two_hands, resplit


class _TwoHandEnds(NamedTuple):
    """The ways one hand of a two-hand split ends (:func:`_split_hand_ends`), as arrays."""

    drawn: np.ndarray  # (E, 10) cards the hand draws (its own pair card not counted)
    final_class: np.ndarray  # (E,)
    ways: np.ndarray  # (E,) card orders that play to the end


def _two_hand_ends(engine, kept, pair, up) -> _TwoHandEnds:
    """Every way one hand of a split of ``pair`` against ``up`` ends with no resplit."""
    nd = engine.nodes
    m = len(nd.counts)
    one = engine.node_index[tuple(1 if q == pair else 0 for q in range(10))]
    ends = _HandEnds(
        np.zeros(m),
        np.empty(10 * m, dtype=np.int64),
        np.empty(10 * m, dtype=np.int64),
        np.empty(10 * m, dtype=np.int64),
        np.empty(10 * m),
    )
    found = _split_hand_ends(
        nd,
        one,
        pair,
        engine.max_hands(pair) >= 3,
        up,
        kept[(pair, 0)],
        engine.codes.bust_push,
        ends,
    )
    drawn = nd.counts[ends.node[:found]].copy()
    busts = ends.extra[:found] >= 0
    drawn[busts, ends.extra[:found][busts]] += 1
    drawn[:, pair] -= 1  # the hand's own pair card is not drawn
    return _TwoHandEnds(drawn, ends.final_class[:found].copy(), ends.orders[:found].copy())


#: Pairs of hand ends from which a two-hand split is heavy (the splits of 2s and of 3s
#: against a 7 at 6 decks: the bulk of the result distribution's work on one thread, and
#: 28 and 39 MB at their peaks).
HEAVY_SPLIT_PAIRS = 500_000


def dealer_free_classes(settle: np.ndarray, peek: bool) -> np.ndarray:
    """Which hand classes settle alike against every dealer outcome that settles a split
    round (under the peek a Natural ends the round first): a plain bust, lost whatever the
    dealer draws."""
    settling = np.arange(N_OUTCOMES) != NATURAL if peek else np.ones(N_OUTCOMES, dtype=bool)
    return (settle[:, settling] == settle[:, :1]).all(axis=1)


def _two_hand_split(engine, ends: _TwoHandEnds, pair, up, settle) -> np.ndarray:
    """Exact net result of the split rounds that end with two hands (no resplit)."""
    drawn, end_class, end_ways = ends
    found = len(end_class)
    shoe = engine.shoe.astype(np.int64)
    shoe[pair] -= 2
    shoe[up] -= 1
    # The dealer's distribution once per distinct set of cards the two hands hold (many
    # pairs of ends share one), found through a hash table of the sets' codes.
    most = 2 * drawn.max(axis=0)
    radix = np.cumprod(np.concatenate(([1], most[:-1] + 1)))
    code = drawn @ radix
    ff, inverse = _falling_factorials(shoe, most)
    # A fifth of the sets are held only by pairs of plain busts, lost whatever the dealer
    # draws: their distribution is not needed, only the chance of no Natural, as long as
    # the shoe left cannot run dry under the dealer (else the distribution's own mass).
    free = dealer_free_classes(settle, engine.codes.peek)
    # About 70 unions per end at 6 decks: a table that size is rarely outgrown.
    size = 1 << int(np.ceil(np.log2(128 * found + 2)))
    union = np.empty(found * (found + 1) // 2, dtype=np.int32)
    while True:
        half = size // 2
        sets = _Unions(
            np.full((size, 2), -1, dtype=np.int64),
            union,
            np.empty(half, dtype=np.int32),
            np.empty(half, dtype=np.int32),
            np.empty(half, dtype=np.bool_),
        )
        unions = _pair_unions(ends, code, shoe, free, sets)
        if unions >= 0:
            break
        size *= 4
    small = drawn.astype(np.int16)  # what dealer_rows takes (counts of a few cards)
    held = small[sets.first[:unions]] + small[sets.second[:unions]]
    needed = sets.needed[:unions].copy()
    del sets  # tens of megabytes at 6 decks: not held through the dealer's
    peek = engine.codes.peek
    left = shoe.sum() - held.sum(axis=1, dtype=np.int64)
    needed |= left < engine.dealer.most_drawn[up]
    hole = {ACE: TEN, TEN: ACE}.get(up)
    live = np.ones(unions)
    if peek and hole is not None:
        live -= (shoe[hole] - held[:, hole]) / np.maximum(left, 1)
    rows = np.flatnonzero(needed)
    row_of = np.full(unions, -1, dtype=np.int64)
    row_of[rows] = np.arange(len(rows))
    with_up = shoe.copy()
    with_up[up] += 1  # dealer_rows takes the up card out itself
    # One thread: the splits themselves are worked side by side (result_distribution).
    dealer = dealer_rows(with_up, held[rows], engine.dealer, up, threads=1)
    del held
    out = np.zeros(HALF_UNITS)
    dealers = _UnionDealers(row_of, dealer, live)
    _settle_pairs(drawn, end_ways, end_class, ff, inverse, union, dealers, settle, peek, out)
    return out


def _combine(hands, settle, peek) -> np.ndarray:
    """Sum of the hands' results, independent given the dealer's outcome."""
    out = np.zeros(HALF_UNITS)
    dealer = hands[0].sum(axis=0)  # every hand's joint has the same dealer marginal
    for d in range(N_OUTCOMES):
        if dealer[d] <= 0.0:
            continue
        if peek and d == NATURAL:
            continue  # no split is played: the caller books the Natural's loss
        total = np.array([1.0])
        low = 0
        for joint in hands:
            # Half units -4..4 (bincount sums in order, as np.add.at would, far faster).
            per_hand = np.bincount(settle[:, d] + 4, weights=joint[:, d] / dealer[d], minlength=9)
            total = np.convolve(total, per_hand)
            low -= 4
        out[low + 16 : low + 16 + total.size] += dealer[d] * total
    return out
