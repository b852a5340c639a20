"""The exact combinatorial analysis (CA) engine of blackjack and New 21st Century Blackjack.

Central idea
------------
As in Eric Farmer's analyzer, everything is built on **the dealer's final distribution,
computed for the exact remaining-shoe composition behind each player hand**. The dealer's
possible hands are enumerated once per up card as multisets of drawn cards, each with the
number of its orderings the dealer's drawing rule actually produces (a table that depends on
the rules only, never on the shoe). For any remaining shoe the probability of a dealer hand is
then ``orderings * prod_r ff(n_r, k_r) / ff(n, k)`` (``ff`` the falling factorial), so the
final distribution over 17..21, each bust total 22..26 and the Natural costs one pass over
that table (stored as a prefix tree, so hands sharing cards share their products). Every
player hand composition (the cards it holds) fixes the remaining shoe, and with it the
dealer's distribution; stand, hit, double and surrender values follow by one backward pass
over the compositions (more cards first), cards drawn without replacement from the shoe less
every card seen. The dealer's distribution is computed once for each distinct set of cards
taken from the shoe, and shared by the unsplit hands, every split and every chart evaluated.

Conventions
-----------
* Ranks are indexed 0..9 for A, 2, ..., 9, 10 (J, Q, K count as 10: the four ten-valued ranks
  are one class, so any two ten-valued cards are a pair, as seed 004 allows).
* EVs are per unit of initial wager (fractions, not percent), positive when the player wins.
* With the peek (dealer checks for a Natural under an Ace or a 10), a hand's values are
  computed as ``E[result * 1{no dealer Natural}]``: the hole card is treated as drawn after the
  player's cards, which by exchangeability leaves every probability unchanged, and comparing
  actions at one hand is unaffected because every action shares the factor
  ``P(no Natural | hand)``. The round's EV adds ``-P(Natural)`` (a player Natural pushes).
* Splits: post-split play follows pre-split composition-dependent play ("CDZ-", Farmer's
  term): at every split hand the action is the one that is best for the same cards in an
  unsplit hand (among the actions allowed after a split), and resplitting happens whenever
  allowed. Its EV is exact: the split hands' second cards are resolved first (which, the play
  of each hand depending on its own cards only, leaves the joint law of every hand's cards and
  the dealer's unchanged); the value of a hand then depends only on how many extra pair cards
  are on the table and how many other second cards are known not to be pair cards, and a
  card of unknown rank removed from the shoe is eliminated by the identity
  ``EV(shoe) = P(pair card) EV(shoe - pair) + P(other) EV(shoe - other)`` (the method of
  Farmer's "blackjack_split" note, derived independently here).
* A total-dependent chart (see :func:`read_strategy_chart`) is evaluated exactly in the same
  way, its actions replacing the optimal ones. The best chart is searched for in
  :mod:`gamecore.blackjack.search`; the probability of each final result (not just its mean)
  is in :mod:`gamecore.blackjack.results`.
* **Floats.** Unlike the baccarat engines (exact integer counts), these are recursions over
  probabilities in float64; figures agree with the slow pure-Python reference
  (``tests/naive_blackjack.py``) to about 1e-12.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from gamecore._jit import kernel
from gamecore.blackjack.chart import ChartTables, StrategyChart, up_label
from gamecore.blackjack.dealer import dealer_distributions, dealer_table
from gamecore.blackjack.rules import (
    ACE,
    DOUBLE_KINDS,
    N_OUTCOMES,
    SURRENDER_CODE,
    TEN,
    StandardBlackjackRules,
    hand_total,
    shoe_composition,
)
from gamecore.errors import GamecoreError
from gamecore.parallel import default_threads

# ---------------------------------------------------------------------------------------
# Player hand compositions, once per shoe
# ---------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Nodes:
    """Every player hand composition the analysis can meet, with its hit links."""

    counts: np.ndarray  # (M, 10) cards per rank
    hard: np.ndarray  # (M,) total with aces as 1
    soft: np.ndarray  # (M,) an ace counts 11
    cards: np.ndarray  # (M,)
    bust: np.ndarray  # (M,) a busted three-card hand kept for the bust push
    child: np.ndarray  # (M, 10) node after drawing rank r, -1 if a plain bust
    order: np.ndarray  # node indices, most cards first
    index: dict  # counts tuple -> node


@functools.lru_cache(maxsize=8)
def _nodes(shoe: tuple[int, ...], keep_bust_push: bool, keep_busts: bool = False) -> _Nodes:
    """Every hand composition reachable from the empty hand by hitting while live.

    A busted hand is a node (a leaf) when the bust push may save it (three cards, 23..25,
    ``keep_bust_push``) or, with ``keep_busts``, always (the result distributions need the
    dealer's distribution behind every busted hand); otherwise a bust is ``child == -1``.
    """
    found: list[tuple[int, ...]] = []

    def grow(counts: list[int], low: int, hard: int) -> None:
        found.append(tuple(counts))
        for r in range(low, 10):
            if counts[r] >= shoe[r]:
                continue
            new_hard = hard + r + 1
            cards = sum(counts) + 1
            if new_hard <= 21:
                counts[r] += 1
                grow(counts, r, new_hard)
                counts[r] -= 1
            elif keep_busts or (keep_bust_push and cards == 3 and 23 <= new_hard <= 25):
                counts[r] += 1
                found.append(tuple(counts))
                counts[r] -= 1

    grow([0] * 10, 0, 0)
    index = {c: i for i, c in enumerate(found)}
    counts = np.array(found, dtype=np.int64)
    hard = counts @ np.arange(1, 11)
    cards = counts.sum(axis=1)
    soft = (counts[:, ACE] > 0) & (hard + 10 <= 21)
    bust = hard > 21
    child = np.full((len(found), 10), -1, dtype=np.int64)
    for i, c in enumerate(found):
        if bust[i]:
            continue
        for r in range(10):
            grown = list(c)
            grown[r] += 1
            child[i, r] = index.get(tuple(grown), -1)
    order = np.argsort(-cards, kind="stable").astype(np.int64)
    return _Nodes(counts, hard, soft, cards, bust, child, order, index)


# ---------------------------------------------------------------------------------------
# The backward pass
# ---------------------------------------------------------------------------------------

POLICY_OPTIMAL, POLICY_REFERENCE, POLICY_CHART = 0, 1, 2
SURR_NONE, SURR_LATE, SURR_EARLY, SURR_ANY = 0, 1, 2, 3


@kernel
def _allowed(
    hard,
    soft,
    cards,
    up,
    split_context,
    split_rank,
    forced,
    one_card_aces,
    das,
    double_kind,
    surrender_kind,
    natural_hand,
):
    """(can stand, can hit, can double, can surrender) at a live hand."""
    total = hard + 10 if soft else hard
    if natural_hand:
        return True, False, False, False
    if split_context and split_rank == 0 and one_card_aces:
        return True, False, False, False
    forced_hit = forced and ((not soft and hard <= 11) or (soft and total <= 17))
    forced_stand = forced and total >= 20
    can_double = cards == 2 and (not split_context or das)
    if double_kind == 1:
        can_double = can_double and not soft and 9 <= hard <= 11
    elif double_kind == 2:
        can_double = can_double and not soft and 10 <= hard <= 11
    can_surrender = False
    if not split_context:
        if surrender_kind == 1:
            can_surrender = cards == 2
        elif surrender_kind == 3:
            can_surrender = up != 0 and up != 9
    return not forced_hit, not forced_stand, can_double, can_surrender


@kernel
def _natural_chance(shoe, up):
    n = 0
    for r in range(10):
        n += shoe[r]
    if n == 0:
        return 0.0
    if up == 0:
        return shoe[9] / n
    if up == 9:
        return shoe[0] / n
    return 0.0


@kernel
def _solve(
    counts,
    hard,
    soft,
    cards,
    bust,
    child,
    order,
    mask,
    base,
    dealers,
    rows,
    peek,
    bust_push,
    forced,
    split_context,
    split_rank,
    one_card_aces,
    das,
    double_kind,
    surrender_kind,
    natural_pays,
    policy,
    reference,
    chart,
    pair_play,
    only_up,
):
    """Values of every masked hand against every up card (or ``only_up`` if >= 0), in one
    context.

    ``base`` is the shoe before the up card and the hand are removed. The dealer's final
    distribution behind hand ``i`` with up card ``up`` is ``dealers[rows[i], up]``
    (:meth:`Engine._dealer_rows`). Returns (ev[M, 10, 4] of S, H, D, R (nan where not
    allowed), value[M, 10] of the action played, action[M, 10], natural[M, 10] = P(dealer
    Natural | hand)).
    """
    m = counts.shape[0]
    ev = np.full((m, 10, 4), np.nan)
    value = np.full((m, 10), np.nan)
    action = np.full((m, 10), -1, dtype=np.int64)
    natural = np.zeros((m, 10))
    stand = np.zeros((m, 10))
    shoe = np.zeros(10, dtype=np.int64)
    after = np.zeros(10, dtype=np.int64)
    for up in range(10):
        if base[up] == 0 or (only_up >= 0 and up != only_up):
            continue
        for idx in range(order.size):
            i = order[idx]
            if not mask[i]:
                continue
            ok = True
            n = 0
            for r in range(10):
                shoe[r] = base[r] - counts[i, r] - (1 if r == up else 0)
                if shoe[r] < 0:
                    ok = False
                n += shoe[r]
            if not ok or n < 1:
                continue
            dist = dealers[rows[i], up]
            p_nat = dist[10]
            natural[i, up] = p_nat
            live = 1.0 - p_nat if peek else 1.0
            # Stand (also the settlement of a busted hand kept for the bust push).
            total = hard[i] + 10 if soft[i] else hard[i]
            natural_hand = (
                (not split_context) and cards[i] == 2 and counts[i, 0] == 1 and counts[i, 9] == 1
            )
            s = 0.0
            if natural_hand:
                s = natural_pays * (1.0 - p_nat)
            elif bust[i]:
                for d in range(10):
                    if (
                        d >= 5
                        and bust_push
                        and cards[i] == 3
                        and 23 <= hard[i] <= 25
                        and hard[i] < 17 + d
                    ):
                        continue  # push: the dealer's total is farther from 21.5
                    s -= dist[d]
                if not peek:
                    s -= p_nat
            else:
                for d in range(5):
                    if total > 17 + d:
                        s += dist[d]
                    elif total < 17 + d:
                        s -= dist[d]
                for d in range(5, 10):
                    s += dist[d]
                if not peek:
                    s -= p_nat
            ev[i, up, 0] = s
            stand[i, up] = s
            if bust[i]:
                value[i, up] = s
                action[i, up] = 0
                continue
            is_pair = cards[i] == 2 and counts[i].max() == 2
            can_s, can_h, can_d, can_r = _allowed(
                hard[i],
                soft[i],
                cards[i],
                up,
                split_context,
                split_rank,
                forced,
                one_card_aces,
                das,
                double_kind,
                surrender_kind,
                natural_hand,
            )
            if not can_s:
                ev[i, up, 0] = np.nan
            if can_h or can_d:
                h = 0.0
                dbl = 0.0
                for c in range(10):
                    if shoe[c] == 0:
                        continue
                    pc = shoe[c] / n
                    j = child[i, c]
                    if j >= 0:
                        h += pc * value[j, up]
                        dbl += pc * (value[j, up] if bust[j] else stand[j, up])
                    else:
                        for r in range(10):
                            after[r] = shoe[r]
                        after[c] -= 1
                        lose = -(1.0 - _natural_chance(after, up)) if peek else -1.0
                        h += pc * lose
                        dbl += pc * lose
                if can_h:
                    ev[i, up, 1] = h
                if can_d:
                    ev[i, up, 2] = 2.0 * dbl
            if can_r:
                ev[i, up, 3] = -0.5 * live
            # The action played.
            best = -1
            if policy == 0:
                for a in range(4):
                    v = ev[i, up, a]
                    if not np.isnan(v) and (best < 0 or v > ev[i, up, best]):
                        best = a
            elif policy == 1:
                # The action best for the same cards unsplit, among those allowed here.
                top = -np.inf
                for a in range(4):
                    if np.isnan(ev[i, up, a]):
                        continue
                    ref = reference[i, up, a]
                    if np.isnan(ref):
                        if best < 0:
                            best = a
                    elif ref > top:
                        top = ref
                        best = a
            else:
                if natural_hand or (split_context and split_rank == 0 and one_card_aces):
                    best = 0
                elif is_pair:
                    r2 = 0
                    for r in range(10):
                        if counts[i, r] == 2:
                            r2 = r
                    best = pair_play[r2, up, 1 if can_d else 0, 1 if can_r else 0]
                else:
                    best = chart[
                        1 if soft[i] else 0, total, up, 1 if can_d else 0, 1 if can_r else 0
                    ]
                if best < 0 or np.isnan(ev[i, up, best]):
                    best = -2  # the chart asks for an action the rules forbid here
            action[i, up] = best
            if best >= 0:
                value[i, up] = ev[i, up, best]
    return ev, value, action, natural


# ---------------------------------------------------------------------------------------
# Splits
# ---------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=8)
def split_patterns(max_hands: int) -> tuple[tuple[tuple[str, ...], int, int, int], ...]:
    """How the split hands' second cards can fall, splitting to at most ``max_hands`` hands.

    Each pattern is (draws, extra pair cards k, hands whose second card is known not to be a
    pair card n, hands whose second card is unrestricted x): ``draws`` is the sequence of
    "P" (a pair card, opening a new hand) and "N" (a non-pair card) drawn while hands can
    still be added; once ``max_hands`` are on the table the remaining x hands' second cards
    are unrestricted (a pair card is played as a hand).
    """
    out = []

    def grow(draws: tuple[str, ...], hands: int, pending: int) -> None:
        if pending == 0:
            out.append((draws, hands - 2, draws.count("N"), 0))
            return
        if hands == max_hands:
            out.append((draws, hands - 2, draws.count("N"), pending))
            return
        grow((*draws, "P"), hands + 1, pending + 1)
        grow((*draws, "N"), hands, pending - 1)

    grow((), 2, 2)
    return tuple(out)


def pattern_probability(draws: Sequence[str], pairs: int, cards: int) -> float:
    """Probability of the draw sequence from a shoe of ``cards`` holding ``pairs`` pair cards."""
    p = 1.0
    k = n = 0
    for d in draws:
        left = cards - k - n
        if left <= 0:
            return 0.0
        if d == "P":
            p *= max(pairs - k, 0) / left
            k += 1
        else:
            p *= max(cards - pairs - n, 0) / left
            n += 1
    return p


def split_value(
    ev_x: Sequence[float], ev_p: Sequence[float], pairs: int, cards: int, max_hands: int
) -> float:
    """Exact EV of splitting, from the values of one split hand with ``a`` extra pair cards
    removed: ``ev_x[a]`` (second card unrestricted) and ``ev_p[a]`` (second card a pair card
    played as a hand). ``pairs``/``cards``: pair cards and all cards in the shoe after the
    pair and the up card are removed."""

    @functools.cache
    def x(a: int, b: int) -> float:
        if b == 0:
            return ev_x[a] if a < len(ev_x) else 0.0
        v = ratio(pairs - a, cards - a - (b - 1))
        if v >= 1.0:
            return 0.0
        return (x(a, b - 1) - v * x(a + 1, b - 1)) / (1.0 - v)

    @functools.cache
    def nonpair(a: int, b: int) -> float:
        if b == 0:
            if a >= len(ev_x):
                return 0.0
            v = ratio(pairs - a, cards - a)
            if v >= 1.0:
                return 0.0
            return (ev_x[a] - v * ev_p[a]) / (1.0 - v)
        w = ratio(pairs - a, cards - a - (b - 1) - 1)
        if w >= 1.0:
            return 0.0
        return (nonpair(a, b - 1) - w * nonpair(a + 1, b - 1)) / (1.0 - w)

    total = 0.0
    for draws, k, n, rest in split_patterns(max_hands):
        p = pattern_probability(draws, pairs, cards)
        if p == 0.0:
            continue
        hands = (n * nonpair(k, n - 1) if n else 0.0) + (rest * x(k, n) if rest else 0.0)
        total += p * hands
    return total


def ratio(num: int, den: int) -> float:
    if num <= 0 or den <= 0:
        return 0.0
    return num / den


def _extra_pairs_needed(max_hands: int) -> int:
    """Largest number of extra pair cards any split value needs removed."""
    need = 0
    for _draws, k, n, rest in split_patterns(max_hands):
        if n:
            need = max(need, k + n - 1)
        if rest:
            need = max(need, k + n)
    return need


# ---------------------------------------------------------------------------------------
# The engine: one shoe's hands, dealer rows and values
# ---------------------------------------------------------------------------------------


class Engine:
    """Holds the tables of one rule set and runs the contexts of one analysis.

    A *context* is the set of hands played with one shoe behind them: the unsplit hands
    (key ``(-1, 0)``), or the hands of a split of pair rank ``p`` with ``a`` further pair
    cards removed (key ``(p, a)``). The dealer's distributions of every context are computed
    once, up front, for each distinct set of cards removed from the shoe, and shared by the
    optimal pass and every chart pass.
    """

    def __init__(
        self,
        rules: StandardBlackjackRules,
        composition: np.ndarray | None = None,
        keep_busts: bool = False,
    ):
        self.rules = rules.resolved()
        self.shoe = (
            shoe_composition(self.rules.decks) if composition is None else composition.copy()
        )
        self.bust_push = self.rules.bust_push == "three_card_23_25"
        self.nodes = _nodes(tuple(int(c) for c in self.shoe), self.bust_push, keep_busts)
        self.dealer = dealer_table(self.rules.dealer_hits_soft_17)
        self.surrender = SURRENDER_CODE[self.rules.surrender]
        self.double_kind = DOUBLE_KINDS.index(self.rules.double_on)
        nd = self.nodes
        self.all_mask = (nd.cards >= 2).astype(np.int64)
        self._empty_ref = np.zeros((1, 1, 4))
        self._empty_chart = np.zeros((2, 32, 10, 2, 2), dtype=np.int64)
        self._empty_pairs = np.zeros((10, 10, 2, 2), dtype=np.int64)
        self.split_extras = {
            p: min(_extra_pairs_needed(self.max_hands(p)), int(self.shoe[p]) - 2)
            for p in range(10)
            if self.max_hands(p) >= 2 and self.shoe[p] >= 2
        }
        keys = [(-1, 0)] + [(p, a) for p, e in self.split_extras.items() for a in range(e + 1)]
        self.rows, self.dealers = self._dealer_rows(keys)

    def context(self, split_rank: int = -1, extra: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """(mask of the hands played, shoe before the up card and the hand are removed)."""
        if split_rank < 0:
            return self.all_mask, self.shoe
        nd, p = self.nodes, split_rank
        mask = ((nd.counts[:, p] >= 1) & (nd.cards >= 2)).astype(np.int64)
        if p == ACE and self.rules.split_aces_one_card:
            mask &= (nd.cards == 2).astype(np.int64)
        base = self.shoe.copy()
        base[p] -= 1 + extra
        return mask, base

    def _dealer_rows(self, keys):
        """Every context's hands mapped to rows of one table of dealer distributions.

        A hand of a context removes its own cards and the context's extra pair cards from
        the shoe; hands removing the same cards (in whichever context) share one row. Returns
        ({key: row per hand, -1 where unplayed}, dealers[rows, up card, outcome]).
        """
        nd = self.nodes
        removed, playable = [], []
        for key in keys:
            mask, base = self.context(*key)
            taken = nd.counts + (self.shoe - base)
            removed.append(taken)
            playable.append((mask != 0) & (taken <= self.shoe).all(axis=1))
        removed, playable = np.concatenate(removed), np.concatenate(playable)
        # A removed composition as one integer: digit r counts rank r, in base (the most
        # cards of rank r any hand removes) + 1, which keeps the codes small.
        digits = removed[playable].max(axis=0, initial=0) + 1
        radix = np.cumprod(np.concatenate(([1], digits[:-1])))
        code = np.where(playable, removed @ radix, -1)
        unique, first, row = np.unique(code, return_index=True, return_inverse=True)
        row = row.reshape(-1) - (1 if unique[0] < 0 else 0)  # the -1 code: no row
        first = first[unique >= 0]
        taken = np.ascontiguousarray(removed[first])
        dealers = np.zeros((len(taken), 10, N_OUTCOMES))
        # Rows are independent: each thread fills its share (the kernel releases the GIL).
        threads = default_threads()
        bounds = np.linspace(0, len(taken), threads + 1).astype(np.int64)
        with ThreadPoolExecutor(threads) as pool:
            jobs = [
                pool.submit(
                    dealer_distributions,
                    self.shoe,
                    taken,
                    bounds[t],
                    bounds[t + 1],
                    -1,
                    *self.dealer,
                    dealers,
                )
                for t in range(threads)
            ]
            for job in jobs:
                job.result()
        m = len(nd.counts)
        rows = {key: row[k * m : (k + 1) * m] for k, key in enumerate(keys)}
        return rows, dealers

    def solve(
        self,
        split_rank=-1,
        extra=0,
        policy=POLICY_OPTIMAL,
        reference=None,
        tables: ChartTables | None = None,
        only_up: int = -1,
    ):
        nd, r = self.nodes, self.rules
        mask, base = self.context(split_rank, extra)
        return _solve(
            nd.counts,
            nd.hard,
            nd.soft,
            nd.cards,
            nd.bust,
            nd.child,
            nd.order,
            mask,
            base.astype(np.int64),
            self.dealers,
            self.rows[(split_rank, extra)],
            r.peek,
            self.bust_push,
            r.player_forced == "c21",
            split_rank >= 0,
            split_rank,
            r.split_aces_one_card,
            r.double_after_split,
            self.double_kind,
            self.surrender,
            float(r.natural_pays),
            policy,
            self._empty_ref if reference is None else reference,
            self._empty_chart if tables is None else tables.chart,
            self._empty_pairs if tables is None else tables.pair_play,
            only_up,
        )

    def max_hands(self, rank: int) -> int:
        r = self.rules
        if r.max_split_hands < 2:
            return 1
        if rank == ACE and not r.resplit_aces:
            return 2
        return r.max_split_hands

    def split_values(
        self, reference_ev, policy, tables, only_up: int = -1, keep: dict | None = None
    ) -> np.ndarray:
        """EV (unnormalized under the peek) of splitting each pair against each up card
        (only ``only_up`` if >= 0). ``keep``, a dict, receives each split context's solve."""
        nd = self.nodes
        out = np.full((10, 10), np.nan)
        ups = range(10) if only_up < 0 else (only_up,)
        for p, extra in self.split_extras.items():
            hands = self.max_hands(p)
            one = nd.index[tuple(1 if q == p else 0 for q in range(10))]
            ev_x = np.zeros((extra + 1, 10))
            ev_p = np.zeros((extra + 1, 10))
            for a in range(extra + 1):
                _mask, base = self.context(p, a)
                solved = self.solve(p, a, policy, reference_ev, tables, only_up)
                value = solved[1]
                if keep is not None:
                    keep[(p, a)] = solved
                for up in ups:
                    shoe = base.copy()
                    shoe[up] -= 1
                    shoe[p] -= 1  # the hand's own pair card
                    if shoe[up] < 0 or shoe.min() < 0 or base[up] == 0:
                        continue
                    n = shoe.sum()
                    total = 0.0
                    for c in range(10):
                        if shoe[c]:
                            total += shoe[c] / n * value[nd.child[one, c], up]
                    ev_x[a, up] = total
                    if shoe[p]:
                        ev_p[a, up] = value[nd.child[one, p], up]
            for up in ups:
                shoe = self.shoe.copy()
                shoe[up] -= 1
                shoe[p] -= 2
                if shoe.min() < 0:
                    continue
                out[p, up] = split_value(
                    tuple(ev_x[:, up]), tuple(ev_p[:, up]), int(shoe[p]), int(shoe.sum()), hands
                )
        return out


def two_card_hands(shoe: np.ndarray, up: int):
    """(rank a <= rank b, probability) of the player's two cards with ``up`` removed."""
    left = shoe.copy()
    left[up] -= 1
    n = left.sum()
    for a in range(10):
        for b in range(a, 10):
            if a == b:
                p = left[a] * (left[a] - 1) / (n * (n - 1))
            else:
                p = 2 * left[a] * left[b] / (n * (n - 1))
            if p > 0:
                yield a, b, p


def root_flags(engine: Engine, up: int) -> tuple[bool, bool]:
    """(early surrender at the root, any surrender at the root) for this up card."""
    s = engine.surrender
    early = s == SURR_EARLY or (s == SURR_ANY and up in (ACE, TEN))
    return early, early or s == SURR_LATE or s == SURR_ANY


def refuse_forbidden(action: np.ndarray, engine: Engine, chart: StrategyChart) -> None:
    bad = np.argwhere(action == -2)
    if bad.size:
        i, up = bad[0]
        total, soft = hand_total(engine.nodes.counts[i])
        raise GamecoreError(
            f"{chart.name}: the cell for {'soft' if soft else 'hard'} {total} vs "
            f"{up_label(int(up))} asks for an action the rules do not allow there"
        )


# ---------------------------------------------------------------------------------------
# Sweeps and rule costs
# ---------------------------------------------------------------------------------------
