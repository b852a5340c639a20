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
* The round around these values (the two cards, Naturals, early surrender, the split
  decision, a split hand's second card) is modelled once, in :mod:`gamecore.blackjack.round`.
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
* Only the hands a round reaches are played
  (:func:`~gamecore.blackjack.backward.reach_marks`): the two-card hands and what
  hitting and doubling them reach. A forced stand (c21: 20 and 21) leaves some compositions
  no order of their cards reaches (eleven Aces: ten are a soft 20); they get no dealer
  distribution and no values.
* A total-dependent chart (see :func:`read_strategy_chart`) is evaluated exactly in the same
  way, its actions replacing the optimal ones. The best chart is searched for in
  :mod:`gamecore.blackjack.search`; the probability of each final result (not just its mean)
  is in :mod:`gamecore.blackjack.results`.
* **Floats.** Unlike the baccarat engines (exact integer counts), these are recursions over
  probabilities in float64; figures agree with the slow pure-Python reference
  (``tests/naive_blackjack.py``) to about 1e-12.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from gamecore._jit import kernel
from gamecore.blackjack.backward import (
    FORBIDDEN,
    POLICY_OPTIMAL,
    POLICY_REFERENCE,
    UNREACHED,
    Context,
    Policy,
    Solved,
    reach_marks,
    solve_context,
)
from gamecore.blackjack.caches import EngineCaches
from gamecore.blackjack.chart import ChartTables, StrategyChart, up_label
from gamecore.blackjack.dealer import dealer_rows
from gamecore.blackjack.dealer_hands import dealer_table
from gamecore.blackjack.hand_tree import hand_tree
from gamecore.blackjack.hash_table import hash_slot
from gamecore.blackjack.rules import (
    ACE,
    SPLIT_CDP,
    SPLIT_CDP1,
    StandardBlackjackRules,
    hand_total,
    rule_codes,
    shoe_composition,
)
from gamecore.blackjack.splits import extra_pairs_needed, split_coefficients
from gamecore.errors import GamecoreError
from gamecore.parallel import default_threads, map_in_order

#: ``each_solve(key, solved)``: a consumer of the split contexts' solves, ``key`` the
#: context's ``(pair rank, extra pair cards out)`` (:meth:`Engine.split_values`).
EachSolve = Callable[[tuple[int, int], Solved], None]


# ---------------------------------------------------------------------------------------
# The engine: one shoe's hands, dealer rows and values
# ---------------------------------------------------------------------------------------


@kernel
def _number_rows(counts, order, shoe, masks, extras, rows, first):
    """Number the distinct sets of cards the played hands remove (hand ``i`` of context
    ``k`` removes ``counts[i] + extras[k]``; played where ``masks[k, i]`` and the shoe holds
    them) in order of first appearance, context by context, each context's hands in the
    order its solve visits them (``order``): ``rows[k, i]`` (-1: not played), one ``(k, i)``
    per set in ``first``. Returns the number of sets.

    Numbered in the order the solves visit the hands, the rows are read from the dealer
    table more nearly in sequence, which makes the optimal pass's solves faster."""
    most = np.zeros(10, dtype=np.int64)
    for r in range(10):
        for i in range(counts.shape[0]):
            most[r] = max(most[r], counts[i, r])
    radix = np.ones(10, dtype=np.int64)
    for r in range(1, 10):
        radix[r] = radix[r - 1] * (most[r - 1] + np.max(extras[:, r - 1]) + 1)
    size = 1
    while size < 2 * masks.size:
        size *= 2
    table = np.full((size, 2), -1, dtype=np.int64)
    found = 0
    for k in range(masks.shape[0]):
        for idx in range(order.size):
            i = order[idx]
            rows[k, i] = -1
            if not masks[k, i]:
                continue
            code = 0
            fits = True
            for r in range(10):
                taken = counts[i, r] + extras[k, r]
                fits = fits and taken <= shoe[r]
                code += taken * radix[r]
            if not fits:
                continue
            slot = hash_slot(table, code)
            if table[slot, 0] == -1:
                table[slot, 0], table[slot, 1] = code, found
                first[found, 0], first[found, 1] = k, i
                found += 1
            rows[k, i] = table[slot, 1]
    return found


class Engine:
    """Holds the tables of one rule set and runs the contexts of one analysis.

    A *context* is the set of hands played with one shoe behind them: the unsplit hands
    (key ``(-1, 0)``), or the hands of a split of pair rank ``p`` with ``a`` further pair
    cards removed (key ``(p, a)``). The dealer's distributions of every context are computed
    once, up front, for each distinct set of cards removed from the shoe, and shared by the
    optimal pass and every chart pass.

    Parameters
    ----------
    rules : StandardBlackjackRules
        Either game's rules (resolved here: ``auto`` values fixed).
    composition : numpy.ndarray, optional
        The shoe's cards of each rank (10 counts, A first), already checked
        (:func:`gamecore.blackjack.shoe.checked_shoe`); default the rules' full shoe.
    """

    def __init__(
        self,
        rules: StandardBlackjackRules,
        composition: np.ndarray | None = None,
    ):
        self.rules = rules.resolved()
        self.codes = rule_codes(self.rules)
        self.shoe = (
            shoe_composition(self.rules.decks) if composition is None else composition.copy()
        )
        self.nodes, self.node_index = hand_tree(
            tuple(int(c) for c in self.shoe), self.codes.bust_push
        )
        self.dealer = dealer_table(self.codes.hits_soft_17)
        #: How a round reaches each hand, unsplit (-1) and split from each rank.
        self.reached: dict[int, np.ndarray] = {}
        self._no_reference = np.zeros((1, 1, 4))
        self._no_chart = ChartTables(
            np.zeros((2, 32, 10, 2, 2), dtype=np.int64),
            np.zeros((10, 10, 2, 2), dtype=np.int64),
            np.zeros((10, 10, 2), dtype=np.bool_),
        )
        self.split_extras = {
            p: min(extra_pairs_needed(self.max_hands(p)), int(self.shoe[p]) - 2)
            for p in range(10)
            if self.max_hands(p) >= 2 and self.shoe[p] >= 2
        }
        keys = [(-1, 0)] + [(p, a) for p, e in self.split_extras.items() for a in range(e + 1)]
        self.rows, self.dealers = self._dealer_rows(keys)
        #: Tables derived from this shoe once and reused (openings, second cards, ...).
        self.caches = EngineCaches(self)
        self._contexts: dict[tuple[int, int], Context] = {}

    def _played_and_base(self, split_rank: int, extra: int) -> tuple[np.ndarray, np.ndarray]:
        """(mask of the hands a round reaches, shoe before the up card and the hand are
        removed)."""
        nd, p = self.nodes, split_rank
        if p not in self.reached:
            # The hands holding the split card (every hand unsplit), two cards or more.
            hands = (nd.cards >= 2) & ((nd.counts[:, p] >= 1) if p >= 0 else True)
            self.reached[p] = reach_marks(nd, hands.astype(np.int64), p, self.codes)
        mask = (self.reached[p] != UNREACHED).astype(np.int64)
        if p < 0:
            return mask, self.shoe
        base = self.shoe.copy()
        base[p] -= 1 + extra
        return mask, base

    def context(self, split_rank: int = -1, extra: int = 0) -> Context:
        """The hands of one context and the shoe behind them (made once per engine;
        read-only).

        Parameters
        ----------
        split_rank : int, default -1
            The pair split (rank index), -1 for the unsplit hands.
        extra : int, default 0
            Further pair cards out of the shoe (a split context only).

        Returns
        -------
        Context
            The hands a round reaches, the shoe before the up card and the hand are removed,
            each hand's row of :attr:`dealers` (-1 where unplayed) and ``split_rank``.
        """
        key = (split_rank, extra)
        if key not in self._contexts:
            mask, base = self._played_and_base(split_rank, extra)
            self._contexts[key] = Context(mask, base.astype(np.int64), self.rows[key], split_rank)
        return self._contexts[key]

    def _dealer_rows(self, keys):
        """Every context's hands mapped to rows of one table of dealer distributions.

        A hand of a context removes its own cards and the context's extra pair cards from
        the shoe; hands removing the same cards (in whichever context) share one row. Returns
        ({key: row per hand, -1 where unplayed}, dealers[rows, up card, outcome]).
        """
        nd = self.nodes
        masks = np.empty((len(keys), len(nd.counts)), dtype=np.int64)
        extras = np.empty((len(keys), 10), dtype=np.int64)
        for k, key in enumerate(keys):
            masks[k], base = self._played_and_base(*key)
            extras[k] = self.shoe - base
        rows = np.empty_like(masks)
        first = np.empty((masks.size, 2), dtype=np.int64)
        count = _number_rows(nd.counts, nd.order, self.shoe, masks, extras, rows, first)
        removed = nd.counts[first[:count, 1]] + extras[first[:count, 0]]
        dealers = dealer_rows(self.shoe, removed, self.dealer)
        return {key: rows[k] for k, key in enumerate(keys)}, dealers

    def solve(
        self,
        split_rank: int = -1,
        extra: int = 0,
        policy: int = POLICY_OPTIMAL,
        reference: np.ndarray | None = None,
        tables: ChartTables | None = None,
        only_up: int = -1,
    ) -> Solved:
        """The values of one context's hands, the action at each hand chosen by ``policy``.

        Parameters
        ----------
        split_rank, extra : int
            The context (:meth:`context`); default the unsplit hands.
        policy : int, default POLICY_OPTIMAL
            :data:`~gamecore.blackjack.backward.POLICY_OPTIMAL` (the best action),
            ``POLICY_REFERENCE`` (the best for the same cards in ``reference``) or
            ``POLICY_CHART`` (``tables``' action).
        reference : numpy.ndarray, optional
            float64 ``(M, 10, 4)``: the action values a reference policy follows (the
            unsplit hands' ``ev`` for CDZ-).
        tables : ChartTables, optional
            The chart a chart policy plays (:func:`gamecore.blackjack.chart.chart_tables`).
        only_up : int, default -1
            Solve against this up card only (rank index); every up card when -1.

        Returns
        -------
        Solved
            Every action's value and the played one's, the action and P(dealer Natural), by
            hand node and up card (:func:`~gamecore.blackjack.backward.solve_context`).
        """
        how = Policy(
            policy,
            self._no_reference if reference is None else reference,
            self._no_chart if tables is None else tables,
        )
        context = self.context(split_rank, extra)
        return solve_context(self.nodes, context, self.dealers, self.codes, how, only_up)

    def solve_optimal(
        self, only_up: int = -1, each_solve: EachSolve | None = None
    ) -> tuple[Solved, np.ndarray]:
        """Optimal composition-dependent play: the unsplit hands' values, then the split
        values with split hands played as the rules' ``split_strategy`` says: CDZ- (the
        unsplit choice for the same cards), CDP1 (the best choice in the context of one more
        pair card out, whatever the number of hands) or CDP (the best choice in each
        context).

        Parameters
        ----------
        only_up : int, default -1
            Solve against this up card only (rank index); every up card when -1.
        each_solve : callable, optional
            Called with each split context's key and solve (as in :meth:`split_values`).

        Returns
        -------
        tuple of (Solved, numpy.ndarray)
            The unsplit hands' solve, and the EV of splitting each pair against each up
            card, float64 ``(pair, up)`` (unnormalized under the peek: the dealer's Natural
            left out; nan where the pair cannot be split or dealt).
        """
        solved = self.solve(only_up=only_up)
        if self.codes.split_strategy == SPLIT_CDP:
            split = self.split_values(None, POLICY_OPTIMAL, None, only_up, each_solve)
        elif self.codes.split_strategy == SPLIT_CDP1:
            reference = {
                p: self.solve(p, 0, POLICY_OPTIMAL, only_up=only_up).ev for p in self.split_extras
            }
            split = self.split_values(reference, POLICY_REFERENCE, None, only_up, each_solve)
        else:
            split = self.split_values(solved.ev, POLICY_REFERENCE, None, only_up, each_solve)
        return solved, split

    def size(self) -> dict[str, int]:
        """How much an analysis with this engine computes, counted (not timed).

        Returns
        -------
        dict of str to int
            ``contexts``; ``hands_played``, a hand counted once per context it is played
            in; ``dealer_rows``, the distinct dealer distributions they share (each against
            every up card).
        """
        return {
            "contexts": len(self.rows),
            "hands_played": int(sum(int(self.context(*key).mask.sum()) for key in self.rows)),
            "dealer_rows": int(self.dealers.shape[0]),
        }

    def max_hands(self, rank: int) -> int:
        """The most hands a pair of ``rank`` may be split to (1: no split).

        Parameters
        ----------
        rank : int
            The pair's rank index (0 the Ace .. 9 the ten-valued cards).

        Returns
        -------
        int
            The rules' limit, Aces' own where resplitting them differs.
        """
        return self.codes.max_ace_hands if rank == ACE else self.codes.max_hands

    def split_values(
        self,
        reference_ev,
        policy,
        tables,
        only_up: int = -1,
        each_solve: EachSolve | None = None,
    ) -> np.ndarray:
        """EV of splitting each pair against each up card, split hands playing by ``policy``.

        Each split context is solved once (on every core when ``only_up`` is -1), and the
        split's value is the linear map of its hands' values
        (:func:`gamecore.blackjack.splits.split_coefficients`).

        Parameters
        ----------
        reference_ev : numpy.ndarray, dict or None
            The values :data:`~gamecore.blackjack.backward.POLICY_REFERENCE` follows: one
            ``(M, 10, 4)`` array for every pair, or a dict of one per pair rank.
        policy : int
            How split hands choose their action (``POLICY_*``).
        tables : ChartTables or None
            The chart a chart policy plays.
        only_up : int, default -1
            Against this up card only (rank index); every up card when -1.
        each_solve : callable, optional
            ``each_solve(key, solved)`` is called with each split context's ``(pair, extra
            pair cards)`` and its solve as it comes, in key order (a consumer keeps what it
            needs; the solve itself is dropped).

        Returns
        -------
        numpy.ndarray
            float64 ``(pair, up)``: per unit of initial wager, unnormalized under the peek
            (the dealer's Natural left out); nan where the pair cannot be split or dealt.
        """
        ups = range(10) if only_up < 0 else (only_up,)
        keys = [(p, a) for p, extra in self.split_extras.items() for a in range(extra + 1)]
        ev_x = {key: np.zeros(10) for key in keys}  # a split hand's value, the second card
        ev_p = {key: np.zeros(10) for key in keys}  # ... when that card is a pair card
        # The contexts are independent: solved on every core (the kernel releases the GIL),
        # each one's values read as it comes and then dropped (a few solved ahead only).
        # Against one up card a solve is quicker than handing it to a thread and back:
        # those are solved here, one after another.
        reference = (
            reference_ev
            if isinstance(reference_ev, dict)
            else dict.fromkeys(self.split_extras, reference_ev)
        )

        def solve(key):
            return self.solve(*key, policy, reference[key[0]], tables, only_up)

        def read(solves) -> None:
            for (p, a), solved in zip(keys, solves, strict=True):
                if each_solve is not None:
                    each_solve((p, a), solved)
                for up in ups:
                    second = self.caches.second_cards(p, a, up)
                    if second is None:
                        continue
                    ev_x[(p, a)][up] = second.average(solved.value[:, up])
                    if second.pair_node >= 0:
                        ev_p[(p, a)][up] = solved.value[second.pair_node, up]

        if only_up >= 0:
            read(map(solve, keys))
        else:
            threads = default_threads()
            with ThreadPoolExecutor(threads) as pool:
                read(map_in_order(pool, solve, keys, window=2 * threads))
        return self._split_from_hands(ev_x, ev_p, ups)

    def _split_from_hands(self, ev_x, ev_p, ups) -> np.ndarray:
        """The split values from one split hand's, context by context: ``ev_x[(p, a)][up]``
        with its second card unrestricted, ``ev_p[(p, a)][up]`` with a pair card (nan where
        the pair and the up card cannot be dealt)."""
        out = np.full((10, 10), np.nan)
        for p, extra in self.split_extras.items():
            for up in ups:
                shoe = self.shoe.copy()
                shoe[up] -= 1
                shoe[p] -= 2
                if shoe.min() < 0:
                    continue
                # split_value through its linear map (the terms a pattern can reach only).
                cx, cp = split_coefficients(int(shoe[p]), int(shoe.sum()), self.max_hands(p), extra)
                value = 0.0
                for a in range(extra + 1):
                    if cx[a] != 0.0:
                        value += cx[a] * ev_x[(p, a)][up]
                    if cp[a] != 0.0:
                        value += cp[a] * ev_p[(p, a)][up]
                out[p, up] = value
        return out


def refuse_forbidden(action: np.ndarray, engine: Engine, chart: StrategyChart) -> None:
    """Refuse a chart whose cell asks, at some hand it reaches, for an action not allowed.

    Parameters
    ----------
    action : numpy.ndarray
        The actions a solve chose, ``(M, 10)`` by hand node and up card
        (:data:`~gamecore.blackjack.backward.FORBIDDEN` where not allowed).
    engine : Engine
        The engine solved (its hand tree names the hand).
    chart : StrategyChart
        The chart (named in the message).

    Raises
    ------
    GamecoreError
        Naming the first such cell: its row and up card.
    """
    bad = np.argwhere(action == FORBIDDEN)
    if bad.size:
        i, up = bad[0]
        total, soft = hand_total(engine.nodes.counts[i])
        raise GamecoreError(
            f"{chart.name}: the cell for {'soft' if soft else 'hard'} {total} vs "
            f"{up_label(int(up))} asks for an action the rules do not allow there"
        )
