"""Exact combinatorial analysis (CA) of blackjack and New 21st Century Blackjack (seed 004).

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
  :mod:`gamecore.blackjack_search`; the probability of each final result (not just its mean)
  is in :mod:`gamecore.blackjack_results`.
* **Floats.** Unlike the baccarat engines (exact integer counts), these are recursions over
  probabilities in float64; figures agree with the slow pure-Python reference
  (``tests/naive_blackjack.py``) to about 1e-12.

Strategy chart CSV format
-------------------------
A header row ``hand,2,3,4,5,6,7,8,9,10,A`` then one row per hand, first column the hand:
``hard 4`` .. ``hard 21`` and ``soft 12`` .. ``soft 21`` (all required), ``pair A``,
``pair 2`` .. ``pair 10`` (optional: a pair without a row is played by its hard/soft row and
never split). Blank lines and lines starting with ``#`` are ignored. Cells (case-insensitive):

=====  ==============================================================================
H      hit
S      stand
D, Dh  double if allowed, otherwise hit
Ds     double if allowed, otherwise stand
R, Rh  surrender if allowed, otherwise hit
Rs     surrender if allowed, otherwise stand
P      (pair rows) split if allowed, otherwise play the hand's hard/soft row
Ph     (pair rows) split if doubling after a split is allowed, otherwise hit
Ps     (pair rows) split if doubling after a split is allowed, otherwise stand
Pd     (pair rows) split if doubling after a split is allowed, otherwise double (else hit)
Rp     (pair rows) surrender if allowed, otherwise split, otherwise the hard/soft row
=====  ==============================================================================

A cell whose action (after its fallback) the rules forbid, e.g. ``S`` on soft 17 under the
c21 forced hits, is refused when the chart is applied, naming the cell.
"""

from __future__ import annotations

import csv
import dataclasses
import functools
import itertools
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from gamecore._jit import kernel
from gamecore.errors import GamecoreError
from gamecore.parallel import default_threads
from gamecore.rules import RuleSet, boolean, deck_count, optional, payout, rule

# ---------------------------------------------------------------------------------------
# Cards and outcomes
# ---------------------------------------------------------------------------------------

#: Rank labels by index: 0 is the Ace, 9 every ten-valued card.
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
#: Up cards in the order charts print them.
UP_CARD_ORDER = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)
#: Cards of each rank in one 52-card deck.
DECK = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
ACE, TEN = 0, 9

#: The dealer's final results, indexed as in every distribution this module returns.
DEALER_OUTCOMES = (
    "17",
    "18",
    "19",
    "20",
    "21",
    "bust 22",
    "bust 23",
    "bust 24",
    "bust 25",
    "bust 26",
    "natural",
)
NATURAL = 10
N_OUTCOMES = 11

ACTIONS = ("S", "H", "D", "R", "P")
STAND, HIT, DOUBLE, SURRENDER, SPLIT = range(5)

SURRENDER_KINDS = ("none", "late", "early", "any_cards")
_SURR = {name: i for i, name in enumerate(SURRENDER_KINDS)}
DOUBLE_KINDS = ("any", "9_11", "10_11")
BUST_PUSH_KINDS = ("none", "three_card_23_25")
FORCED_KINDS = ("none", "c21")


def shoe_composition(decks: int) -> np.ndarray:
    """Cards per rank (A, 2..9, ten-valued) in ``decks`` decks."""
    return np.array(DECK, dtype=np.int64) * decks


# ---------------------------------------------------------------------------------------
# Rule sets
# ---------------------------------------------------------------------------------------


def choice(*options: str):
    """A check accepting one of ``options`` (strings)."""

    def check(name: str, value: Any) -> str:
        if value not in options:
            raise GamecoreError(f"{name} must be one of {', '.join(options)}, got {value!r}")
        return value

    return check


def _split_hands(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 1 <= value <= 4:
        raise GamecoreError(
            f"{name} must be an integer from 1 (no splitting) to 4 hands, got {value!r}"
        )
    return int(value)


@dataclasses.dataclass(frozen=True)
class StandardBlackjackRules(RuleSet):
    """Blackjack with every rule a switch; the defaults are the classic six-deck game."""

    game = "standard_blackjack"
    title = "Blackjack"

    decks: int = rule(6, "standard 52-card decks in the shoe", deck_count)
    dealer_hits_soft_17: bool = rule(False, "the dealer hits soft 17 (H17); false: S17", boolean)
    natural_pays: float = rule(1.5, "a player's Natural pays this many to 1 (1.5 = 3:2)", payout)
    natural_counts_21_5: bool = rule(
        False,
        "the Natural is a Bonus Ace hand worth 21.5; a plain blackjack also beats every "
        "other 21 and pushes a Natural, so no figure depends on this reading",
        boolean,
    )
    bust_push: str = rule(
        "none",
        "busted player hands that may push a more-busted dealer: none, or three_card_23_25 "
        "(three-card 23, 24, 25 push a dealer bust farther from 21.5; equal distance loses)",
        choice(*BUST_PUSH_KINDS),
    )
    double_on: str = rule("any", "first two cards a player may double on", choice(*DOUBLE_KINDS))
    double_after_split: bool = rule(True, "doubling allowed after a split", boolean)
    max_split_hands: int = rule(
        4, "split and resplit to at most this many hands (1: none)", _split_hands
    )
    resplit_aces: bool = rule(False, "split aces may be resplit (up to max_split_hands)", boolean)
    split_aces_one_card: bool = rule(True, "split aces receive one card each", boolean)
    surrender: str = rule(
        "none",
        "none; late (first two cards, after the peek); early (first two cards, before the "
        "peek); any_cards (c21: any number of cards against 2-9, early against A and 10)",
        choice(*SURRENDER_KINDS),
    )
    peek: bool = rule(True, "the dealer checks for a Natural under an Ace or a 10 up", boolean)
    insurance_pays: float = rule(2, "insurance (against an Ace up) pays this many to 1", payout)
    player_forced: str = rule(
        "none",
        "forced player totals: none, or c21 (hit 11 or less and soft 17 or less; stand on "
        "20, 21 and a Natural; free on hard 12-19 and soft 18-19)",
        choice(*FORCED_KINDS),
    )

    def resolved(self) -> StandardBlackjackRules:
        """The rule set with every value fixed (already so for the standard game)."""
        return self


@dataclasses.dataclass(frozen=True)
class C21BlackjackRules(StandardBlackjackRules):
    """New 21st Century Blackjack (seed 004), read as in RULES.md section c21_blackjack.

    ``natural_pays`` and ``max_split_hands`` default to ``None``: set by the deck count as
    the card says (6 to 5 and four hands; even money and two hands when ``decks`` is 2).
    """

    game = "c21_blackjack"
    title = "New 21st Century Blackjack"

    decks: int = rule(
        6, "standard 52-card decks (1, 2, 4, 6, 8 are dealt); 2 = double deck", deck_count
    )
    dealer_hits_soft_17: bool = rule(
        True, "the P/D hits soft 17 or less, stands on hard 17+", boolean
    )
    natural_pays: float | None = rule(
        None,
        "Natural pays this many to 1; auto: 1.2 (6 to 5), 1 (even money) in double deck",
        optional(payout),
    )
    natural_counts_21_5: bool = rule(
        True, "Bonus Ace + 10-value card is a Natural worth 21.5", boolean
    )
    bust_push: str = rule(
        "three_card_23_25",
        "both busted: a three-card 23, 24 or 25 (doubled hands and split hands counted from "
        "the split card included) pushes when closer to 21.5 than the P/D, else loses",
        choice(*BUST_PUSH_KINDS),
    )
    double_on: str = rule(
        "any", "double on any first two cards but a Natural", choice(*DOUBLE_KINDS)
    )
    double_after_split: bool = rule(True, "double after split allowed", boolean)
    max_split_hands: int | None = rule(
        None,
        "split/resplit to this many hands; auto: 4, 2 in double deck",
        optional(_split_hands),
    )
    resplit_aces: bool = rule(True, "split Bonus Aces resplit up to max_split_hands", boolean)
    split_aces_one_card: bool = rule(True, "split Bonus Aces take one card each", boolean)
    surrender: str = rule(
        "any_cards",
        "half the wager, not on doubled or split hands: any number of cards against 2-9; "
        "against A or 10 only the first two cards before the check (early)",
        choice(*SURRENDER_KINDS),
    )
    peek: bool = rule(True, "the house dealer checks the P/D for a Natural under A or 10", boolean)
    insurance_pays: float = rule(2, "insurance against a Bonus Ace up pays 2 to 1", payout)
    player_forced: str = rule("c21", "the card's forced player totals", choice(*FORCED_KINDS))

    def resolved(self) -> StandardBlackjackRules:
        """The same game as a :class:`StandardBlackjackRules` with the ``auto`` values fixed."""
        double_deck = self.decks == 2
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        if values["natural_pays"] is None:
            values["natural_pays"] = 1.0 if double_deck else 1.2
        if values["max_split_hands"] is None:
            values["max_split_hands"] = 2 if double_deck else 4
        return StandardBlackjackRules(**values)

    def to_frame(self) -> pd.DataFrame:
        frame = super().to_frame()
        resolved = self.resolved()
        for name in ("natural_pays", "max_split_hands"):
            if getattr(self, name) is None:
                row = frame["Parameter"] == name
                frame.loc[row, "Value"] = f"auto: {getattr(resolved, name)} ({self.decks} decks)"
        return frame


def _check_rules(rules: Any) -> StandardBlackjackRules:
    if not isinstance(rules, StandardBlackjackRules):
        raise GamecoreError(
            "rules must be a StandardBlackjackRules or C21BlackjackRules, "
            f"got {type(rules).__name__}"
        )
    return rules


# ---------------------------------------------------------------------------------------
# Hands
# ---------------------------------------------------------------------------------------


def hand_total(counts: Sequence[int]) -> tuple[int, bool]:
    """(best total, soft) of a hand given by cards per rank; an ace counts 11 if it fits."""
    hard = sum((r + 1) * int(c) for r, c in enumerate(counts))
    if counts[ACE] and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


# ---------------------------------------------------------------------------------------
# The dealer's hands, once per rule set (no shoe)
# ---------------------------------------------------------------------------------------


class _DealerTable(NamedTuple):
    """The dealer's hands of one drawing rule, for :func:`_dealer_distribution`.

    Each hand is the multiset of cards the dealer draws to the up card, with the number of
    its orderings the drawing rule produces. Its probability needs the product of falling
    factorials ``prod_r ff(n_r, k_r)``; the products are shared through a prefix tree (trie)
    over the cards sorted by rank: a node is a sorted draw that some hand extends by one or
    more cards. Nodes of up card ``u`` are ``start[u]:start[u + 1]``, the first one the
    empty draw; every other node adds one card of ``rank`` to node ``parent`` (counted from
    ``start[u]``), which already holds ``already`` cards of that rank, so its factor is
    ``shoe[rank] - already``. A hand is one card of ``hand_rank`` added to node
    ``hand_parent``; the hands of up card ``u`` with outcome ``o`` are
    ``hand_start[u, o]:hand_start[u, o + 1]``, in the order of their sorted cards.
    """

    start: np.ndarray  # (11,)
    parent: np.ndarray  # (T,)
    rank: np.ndarray  # (T,)
    already: np.ndarray  # (T,)
    hand_start: np.ndarray  # (10, 12)
    hand_parent: np.ndarray  # (H,)
    hand_rank: np.ndarray  # (H,)
    hand_already: np.ndarray  # (H,)
    drawn: np.ndarray  # (H,) cards drawn
    orderings: np.ndarray  # (H,) float


def _dealer_hands(up: int, hits_soft_17: bool) -> dict[tuple[tuple[int, ...], int], int]:
    """(sorted cards drawn, outcome index) -> orderings, for every dealer hand under ``up``."""
    found: dict[tuple[tuple[int, ...], int], int] = {}

    def draw(drawn: list[int]) -> None:
        counts = [0] * 10
        counts[up] += 1
        for r in drawn:
            counts[r] += 1
        total, soft = hand_total(counts)
        if len(drawn) == 1 and total == 21:
            outcome = NATURAL
        elif total < 17 or (hits_soft_17 and total == 17 and soft):
            for r in range(10):
                draw([*drawn, r])
            return
        elif total <= 21:
            outcome = total - 17
        else:
            outcome = 5 + total - 22
        key = (tuple(sorted(drawn)), outcome)
        found[key] = found.get(key, 0) + 1

    draw([])
    return found


@functools.lru_cache(maxsize=4)
def _dealer_table(hits_soft_17: bool) -> _DealerTable:
    """Every dealer hand of the drawing rule, per up card, as a :class:`_DealerTable`."""
    start, hand_start = [0], []
    parent, rank, already = [], [], []
    hands: list[list] = [[] for _ in range(5)]  # parent, rank, already, drawn, orderings
    for up in range(10):
        found = sorted(_dealer_hands(up, hits_soft_17).items())
        # Nodes: every proper prefix of a hand's sorted cards, the empty draw first.
        prefixes = sorted({cards[:k] for (cards, _), _ in found for k in range(len(cards))})
        node = {prefix: i for i, prefix in enumerate(prefixes)}
        for prefix in prefixes:
            parent.append(node[prefix[:-1]] if prefix else -1)
            rank.append(prefix[-1] if prefix else -1)
            already.append(prefix[:-1].count(prefix[-1]) if prefix else 0)
        start.append(len(parent))
        for outcome in range(N_OUTCOMES):
            hand_start.append(len(hands[0]))
            for (cards, result), orderings in found:
                if result == outcome:
                    row = (node[cards[:-1]], cards[-1], cards[:-1].count(cards[-1]))
                    for column, value in zip(hands, (*row, len(cards), orderings), strict=True):
                        column.append(value)
        hand_start.append(len(hands[0]))
    as_int = functools.partial(np.array, dtype=np.int64)
    return _DealerTable(
        as_int(start),
        as_int(parent),
        as_int(rank),
        as_int(already),
        as_int(hand_start).reshape(10, N_OUTCOMES + 1),
        *(as_int(column) for column in hands[:4]),
        np.array(hands[4], dtype=np.float64),
    )


def _dealer_scratch(table: _DealerTable) -> tuple[np.ndarray, np.ndarray]:
    """Work space for :func:`_dealer_distribution`: a product per trie node of one up card and
    the falling factorials of the shoe size."""
    return np.empty(int(np.diff(table.start).max())), np.empty(int(table.drawn.max()) + 1)


@kernel
def _dealer_distribution(
    shoe,
    up,
    start,
    parent,
    rank,
    already,
    hand_start,
    hand_parent,
    hand_rank,
    hand_already,
    drawn,
    orderings,
    prod,
    ffn,
    out,
):
    """Add the dealer's final distribution with ``up`` showing, the hole card and every hit
    drawn from ``shoe`` (the up card already removed), into ``out[0:11]``.

    A hand drawing ``k_r`` cards of each rank has probability
    ``orderings * prod_r ff(n_r, k_r) / ff(n, k)``; the products ``prod_r ff(n_r, k_r)`` are
    built a card at a time down the trie of :class:`_DealerTable` (in ``prod``), a hand's from
    its parent node's; ``ffn`` gets ``ff(n, k)``.
    """
    n = 0
    for r in range(10):
        n += shoe[r]
    ffn[0] = 1.0
    for k in range(1, ffn.size):
        ffn[k] = ffn[k - 1] * (n - k + 1)
    first = start[up]
    prod[0] = 1.0  # the empty draw
    for t in range(first + 1, start[up + 1]):
        left = shoe[rank[t]] - already[t]
        prod[t - first] = prod[parent[t]] * left if left > 0 else 0.0
    for o in range(N_OUTCOMES):
        total = out[o]
        for h in range(hand_start[up, o], hand_start[up, o + 1]):
            left = shoe[hand_rank[h]] - hand_already[h]
            p = prod[hand_parent[h]] * left if left > 0 else 0.0
            if p != 0.0:  # a hand of more cards than the shoe holds has a zero factor
                total += orderings[h] * p / ffn[drawn[h]]
        out[o] = total


@kernel
def _dealer_distributions(
    shoe,
    removed,
    first,
    last,
    only_up,
    start,
    parent,
    rank,
    already,
    hand_start,
    hand_parent,
    hand_rank,
    hand_already,
    drawn,
    orderings,
    out,
):
    """For rows ``first:last`` of ``removed`` (cards taken from ``shoe`` by a player hand and
    its context), the dealer's final distribution against every up card in the shoe left
    (only ``only_up`` if >= 0): ``out[row, up]``, left at zero where the cards are not there
    to be dealt."""
    prod = np.empty(np.max(start[1:] - start[:-1]))
    ffn = np.empty(np.max(drawn) + 1)
    left = np.empty(10, dtype=np.int64)
    for k in range(first, last):
        for up in range(10):
            if only_up >= 0 and up != only_up:
                continue
            ok = True
            n = 0
            for r in range(10):
                left[r] = shoe[r] - removed[k, r] - (1 if r == up else 0)
                if left[r] < 0:
                    ok = False
                n += left[r]
            if ok and n >= 1:
                _dealer_distribution(
                    left,
                    up,
                    start,
                    parent,
                    rank,
                    already,
                    hand_start,
                    hand_parent,
                    hand_rank,
                    hand_already,
                    drawn,
                    orderings,
                    prod,
                    ffn,
                    out[k, up],
                )


def dealer_final_distribution(
    rules: StandardBlackjackRules,
    up_card: int | str,
    composition: Sequence[int] | None = None,
    after_peek: bool = False,
) -> pd.Series:
    """The dealer's final distribution with ``up_card`` showing, before any peek, or with
    ``after_peek`` given that the check found no Natural (where the rules peek under this
    up card; elsewhere the two are the same).

    Parameters
    ----------
    rules
        The rule set (its ``dealer_hits_soft_17``; ``decks`` gives the default shoe).
    up_card
        1 or ``"A"`` for an ace, 2..10 (or ``"2"``..``"10"``).
    composition
        Cards per rank (A, 2, .., 9, ten-valued) left in the shoe *after* the up card (and
        any other seen cards) were removed; default: the full shoe less the up card.

    Returns
    -------
    pandas.Series
        Probability of 17..21, of each bust total 22..26 and of a Natural, summing to 1
        (after the peek the Natural's probability is 0 and the rest are rescaled).

    Examples
    --------
    >>> d = dealer_final_distribution(StandardBlackjackRules(decks=1), "A")
    >>> bool(round(d["natural"], 6) == round(16 / 51, 6))
    True
    """
    rules = _check_rules(rules).resolved()
    up = _up_index(up_card)
    if composition is None:
        shoe = shoe_composition(rules.decks)
        if shoe[up] == 0:
            raise GamecoreError(f"up_card {up_card!r} is not in the shoe")
        shoe[up] -= 1
    else:
        shoe = _check_composition(composition, "composition")
    if shoe.sum() < 1:
        raise GamecoreError("composition must hold at least one card for the hole card")
    out = np.zeros(N_OUTCOMES)
    table = _dealer_table(rules.dealer_hits_soft_17)
    _dealer_distribution(shoe, up, *table, *_dealer_scratch(table), out)
    if out.sum() < 1 - 1e-9:  # the kernel leaves out hands the shoe cannot complete
        raise GamecoreError(
            f"composition {[int(c) for c in shoe]}: the dealer can run out of cards before "
            f"the hand ends with {RANKS[up]} up; add cards"
        )
    distribution = pd.Series(out, index=list(DEALER_OUTCOMES), name=f"up {RANKS[up]}")
    if after_peek and rules.peek and distribution["natural"] > 0:
        # Conditioning on "no Natural": drop it and rescale the rest.
        distribution = distribution.drop("natural") / (1 - distribution["natural"])
        distribution["natural"] = 0.0
    return distribution


# ---------------------------------------------------------------------------------------
# Shoes that can run out mid-round
# ---------------------------------------------------------------------------------------

#: States the exhaustion search visits at most before it refuses a shoe it cannot clear.
EXHAUSTION_SEARCH_LIMIT = 100_000
_HARD_VALUE = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)


class _SearchTooLong(Exception):
    pass


def _round_cards_bound(shoe: Sequence[int], hands: int) -> int:
    """An upper bound on the cards one round can take: every hand that draws again holds a
    hard total (aces as one) of at most 20 (a player's) or 16 (the dealer's) before its last
    card, so a round takes at most one last card per hand plus as many of the shoe's
    smallest cards as fit under ``20 * hands + 16``."""
    room, taken = 20 * hands + 16, 0
    for rank, count in enumerate(shoe):
        fit = min(int(count), room // _HARD_VALUE[rank])
        taken += fit
        room -= fit * _HARD_VALUE[rank]
        if fit < count:
            break
    return taken + hands + 1


def _best(hard: int, ace: bool) -> int:
    return hard + 10 if ace and hard <= 11 else hard


def _search_exhaustion(shoe: tuple[int, ...], rules: StandardBlackjackRules) -> bool:
    """Whether some deal and some play can need a card when the shoe is empty.

    Play is searched over a superset of what the rules allow: hits on any total below 21,
    every split up to ``max_split_hands``, the dealer's drawing rule, the dealer drawing
    whenever a player hand is live (or may push busted). A shoe this clears cannot run out.
    """
    hands_limit = rules.max_split_hands
    h17 = rules.dealer_hits_soft_17
    bust_push = rules.bust_push != "none"
    seen: set = set()

    def take(left: tuple[int, ...], rank: int) -> tuple[int, ...]:
        return left[:rank] + (left[rank] - 1,) + left[rank + 1 :]

    def dealer_needs_card(left, hard, ace) -> bool:
        total, soft = _best(hard, ace), ace and hard <= 11
        if total > 17 or (total == 17 and not (h17 and soft)):
            return False
        if not any(left):
            return True
        return any(
            dealer_needs_card(take(left, r), hard + _HARD_VALUE[r], ace or r == ACE)
            for r in range(10)
            if left[r]
        )

    def play(left, hand, pending, hands, dealer, live) -> bool:
        key = (left, hand, pending, hands, dealer, live)
        if key in seen:
            return False
        seen.add(key)
        if len(seen) > EXHAUSTION_SEARCH_LIMIT:
            raise _SearchTooLong
        hard, ace, cards, pair = hand
        if cards == 1:  # a split hand takes its second card
            if not any(left):
                return True
            return any(
                play(
                    take(left, r),
                    (hard + _HARD_VALUE[r], ace or r == ACE, 2, pair if r == pair else -1),
                    pending,
                    hands,
                    dealer,
                    live,
                )
                for r in range(10)
                if left[r]
            )
        if _best(hard, ace) < 21:
            if not any(left):
                return True
            for r in range(10):
                drawn = (hard + _HARD_VALUE[r], ace or r == ACE, cards + 1, -1)
                if left[r] and play(take(left, r), drawn, pending, hands, dealer, live):
                    return True
        if cards == 2 and pair >= 0 and hands < hands_limit:
            split = (_HARD_VALUE[pair], pair == ACE, 1, pair)
            if play(left, split, (*pending, pair), hands + 1, dealer, live):
                return True
        live = live or hard <= 21 or bust_push
        if pending:
            nxt = pending[0]
            return play(
                left, (_HARD_VALUE[nxt], nxt == ACE, 1, nxt), pending[1:], hands, dealer, live
            )
        return live and dealer_needs_card(left, *dealer)

    if sum(shoe) < 4:
        return True
    for a, b, up, hole in itertools.product(range(10), repeat=4):
        left = shoe
        for rank in (a, b, up, hole):
            if not left[rank]:
                break
            left = take(left, rank)
        else:
            hand = (_HARD_VALUE[a] + _HARD_VALUE[b], ACE in (a, b), 2, a if a == b else -1)
            dealer = (_HARD_VALUE[up] + _HARD_VALUE[hole], ACE in (up, hole))
            if play(left, hand, (), 1, dealer, False):
                return True
    return False


def check_round_fits(shoe: Sequence[int], rules: StandardBlackjackRules) -> None:
    """Refuse a shoe from which some round could need a card when none is left: such a
    round has no outcome, and its probability would silently go missing from every EV.

    A bound (:func:`_round_cards_bound`) clears any realistic shoe at once; a small shoe it
    does not clear is searched play by play (:func:`_search_exhaustion`).
    """
    shoe = tuple(int(c) for c in shoe)
    hands = max(1, rules.max_split_hands)
    if _round_cards_bound(shoe, hands) <= sum(shoe):
        return
    try:
        runs_out = _search_exhaustion(shoe, rules)
    except _SearchTooLong:
        raise GamecoreError(
            f"composition {list(shoe)}: a round may need up to "
            f"{_round_cards_bound(shoe, hands)} cards and the shoe holds {sum(shoe)}; "
            "it could not be confirmed that no round runs out of cards: add cards"
        ) from None
    if runs_out:
        raise GamecoreError(
            f"composition {list(shoe)}: some rounds run out of cards before they end (the "
            f"shoe holds {sum(shoe)}); add cards"
        )


def _up_index(up_card: Any) -> int:
    text = str(up_card).strip().upper()
    names = {"A": 0, "1": 0, "11": 0, "J": 9, "Q": 9, "K": 9, "T": 9}
    names.update({str(v): v - 1 for v in range(2, 11)})
    if isinstance(up_card, bool) or text not in names:
        raise GamecoreError(f"up_card must be A or 2..10, got {up_card!r}")
    return names[text]


#: The most cards of one rank a composition may hold. The engine multiplies falling
#: factorials of the counts in float64 over hands of up to about twenty cards; far below
#: this bound every product stays finite (and a thousand decks hold 16,000 ten-valued cards).
MAX_CARDS_PER_RANK = 1_000_000


def _check_composition(composition: Sequence[int], name: str) -> np.ndarray:
    try:
        values = list(composition)
    except TypeError:
        raise GamecoreError(
            f"{name} must be 10 card counts (A, 2, ..., 9, ten-valued), got {composition!r}"
        ) from None
    if len(values) != 10:
        raise GamecoreError(
            f"{name} must give 10 card counts (A, 2, ..., 9, ten-valued), got {len(values)}"
        )
    for r, c in enumerate(values):
        if isinstance(c, bool) or not isinstance(c, (int, np.integer)) or c < 0:
            raise GamecoreError(f"{name}[{r}] must be a non-negative integer, got {c!r}")
        if c > MAX_CARDS_PER_RANK:
            raise GamecoreError(
                f"{name}[{r}] must be at most {MAX_CARDS_PER_RANK:,} cards, got {int(c):,}"
            )
    return np.array([int(c) for c in values], dtype=np.int64)


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
    is_pair,
    pair_rank,
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
    (:meth:`_Engine._dealer_rows`). Returns (ev[M, 10, 4] of S, H, D, R (nan where not
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
                is_pair,
                0,
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


def _pattern_probability(draws: Sequence[str], pairs: int, cards: int) -> float:
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


def _split_value(
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
        v = _ratio(pairs - a, cards - a - (b - 1))
        if v >= 1.0:
            return 0.0
        return (x(a, b - 1) - v * x(a + 1, b - 1)) / (1.0 - v)

    @functools.cache
    def nonpair(a: int, b: int) -> float:
        if b == 0:
            if a >= len(ev_x):
                return 0.0
            v = _ratio(pairs - a, cards - a)
            if v >= 1.0:
                return 0.0
            return (ev_x[a] - v * ev_p[a]) / (1.0 - v)
        w = _ratio(pairs - a, cards - a - (b - 1) - 1)
        if w >= 1.0:
            return 0.0
        return (nonpair(a, b - 1) - w * nonpair(a + 1, b - 1)) / (1.0 - w)

    total = 0.0
    for draws, k, n, rest in split_patterns(max_hands):
        p = _pattern_probability(draws, pairs, cards)
        if p == 0.0:
            continue
        hands = (n * nonpair(k, n - 1) if n else 0.0) + (rest * x(k, n) if rest else 0.0)
        total += p * hands
    return total


def _ratio(num: int, den: int) -> float:
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
# Charts
# ---------------------------------------------------------------------------------------

_CELLS = {"H", "S", "D", "DH", "DS", "R", "RH", "RS", "P", "PH", "PS", "PD", "RP"}
_PAIR_ONLY = {"P", "PH", "PS", "PD", "RP"}
CHART_UP_CARDS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A")


@dataclasses.dataclass(frozen=True)
class StrategyChart:
    """A total-dependent strategy: a letter per (row, up card), rows as in the CSV format.

    ``cells`` maps ``(row, up)`` to the cell's letters (upper case), ``row`` being
    ``"hard 16"``, ``"soft 18"`` or ``"pair 8"`` and ``up`` ``"2"``..``"10"``, ``"A"``.
    """

    cells: Mapping[tuple[str, str], str]
    name: str = "chart"

    def __post_init__(self) -> None:
        if not isinstance(self.cells, Mapping) or not all(
            isinstance(key, tuple) and len(key) == 2 for key in self.cells
        ):
            raise GamecoreError(f"{self.name}: cells must map (row, up card) to a letter")
        object.__setattr__(
            self,
            "cells",
            {(row, up): str(cell).strip().upper() for (row, up), cell in self.cells.items()},
        )
        valid_rows = set(_chart_rows())
        for row, _ in self.cells:
            if row not in valid_rows:
                raise GamecoreError(f"{self.name}: unknown row {row!r}")
        for total in range(4, 22):
            _require_row(self.cells, f"hard {total}", self.name)
        for total in range(12, 22):
            _require_row(self.cells, f"soft {total}", self.name)
        for (row, up), cell in self.cells.items():
            if up not in CHART_UP_CARDS:
                raise GamecoreError(f"{self.name}: unknown up card {up!r}")
            kind = row.split()[0]
            if cell not in _CELLS or (kind != "pair" and cell in _PAIR_ONLY):
                raise GamecoreError(
                    f"{self.name}: cell {row} vs {up} is {cell!r}; allowed: H S D Dh Ds R Rh "
                    "Rs" + (" P Ph Ps Pd Rp" if kind == "pair" else "")
                )

    def to_frame(self) -> pd.DataFrame:
        rows = [r for r in _chart_rows() if (r, "2") in self.cells]
        return pd.DataFrame(
            [
                {"hand": r, **{up: _pretty(self.cells[(r, up)]) for up in CHART_UP_CARDS}}
                for r in rows
            ]
        )

    def to_csv(self, path: str | Path | None = None) -> str:
        text = self.to_frame().to_csv(index=False)
        if path is not None:
            Path(path).write_text(text)
        return text


def _pretty(cell: str) -> str:
    return cell if len(cell) == 1 else cell[0] + cell[1].lower()


def _chart_rows() -> list[str]:
    return (
        [f"hard {t}" for t in range(4, 22)]
        + [f"soft {t}" for t in range(12, 22)]
        + [f"pair {r}" for r in RANKS]
    )


def _require_row(cells: Mapping, row: str, name: str) -> None:
    for up in CHART_UP_CARDS:
        if (row, up) not in cells:
            raise GamecoreError(f"{name}: row {row!r} is missing (up card {up})")


#: The largest chart file read: a full chart is about a kilobyte.
MAX_CHART_BYTES = 1 << 20


def _chart_text(source: str | Path) -> tuple[str, str]:
    """The chart's text and the name its messages use, refusing what is not a UTF-8 text
    file of at most :data:`MAX_CHART_BYTES` (a UTF-8 byte-order mark is accepted)."""
    if isinstance(source, str) and "\n" in source:
        text, name = source, "chart"
    else:
        if not isinstance(source, (str, Path)):
            raise GamecoreError(
                f"strategy must be a StrategyChart or a chart file path, got {source!r}"
            )
        path = Path(source)
        if not path.exists():
            raise GamecoreError(f"strategy chart file {str(source)!r} not found")
        if not path.is_file():
            raise GamecoreError(f"strategy chart {str(source)!r} is not a regular file")
        name = path.name
        try:
            with path.open("rb") as handle:
                raw = handle.read(MAX_CHART_BYTES + 1)
        except OSError as error:
            raise GamecoreError(f"{name}: cannot be read ({error.strerror})") from None
        if len(raw) > MAX_CHART_BYTES:
            raise GamecoreError(
                f"{name}: larger than {MAX_CHART_BYTES:,} bytes; a strategy chart is a small "
                "CSV (header hand,2,...,10,A and one line per row)"
            )
        if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
            raise GamecoreError(f"{name}: is UTF-16 text; save the chart as a UTF-8 CSV")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise GamecoreError(
                f"{name}: not UTF-8 text (byte {raw[error.start]:#04x} at offset "
                f"{error.start}); save the chart as a UTF-8 CSV"
            ) from None
    text = text.removeprefix("\ufeff")  # a byte-order mark some spreadsheets write
    if "\x00" in text:
        raise GamecoreError(f"{name}: holds NUL characters; a chart is a text CSV file")
    return text, name


def read_strategy_chart(source: str | Path) -> StrategyChart:
    """Read a strategy chart CSV (format in the module docstring) from a path.

    A ``str`` holding a newline is read as the CSV text itself. A file that is not UTF-8 text,
    a malformed line, an unknown or repeated row is refused, naming the line.
    """
    text, name = _chart_text(source)
    numbered = [
        (number, line)
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    if not numbered:
        raise GamecoreError(f"{name}: the chart is empty")
    rows = []
    for number, line in numbered:
        try:
            fields = next(csv.reader([line]))
        except csv.Error as error:
            raise GamecoreError(f"{name}: line {number} is not CSV ({error})") from None
        rows.append((number, fields))
    header = [h.strip().upper() for h in rows[0][1]]
    expected = ["HAND", *[u.upper() for u in CHART_UP_CARDS]]
    if header != expected:
        raise GamecoreError(
            f"{name}: line {rows[0][0]}: header must be {','.join(['hand', *CHART_UP_CARDS])}, "
            f"got {_shorten(','.join(rows[0][1]))}"
        )
    valid_rows = set(_chart_rows())
    cells: dict[tuple[str, str], str] = {}
    first_line: dict[str, int] = {}
    for number, line in rows[1:]:
        if len(line) != 11:
            raise GamecoreError(
                f"{name}: line {number} ({_shorten(line[0])!r}) must have 11 fields, "
                f"got {len(line)}"
            )
        label = " ".join(line[0].lower().split())
        if label.startswith("pair "):
            rank = label[5:]
            rank = {"a": "A", "1": "A", "11": "A", "t": "10", "j": "10", "q": "10", "k": "10"}.get(
                rank, rank
            )
            label = f"pair {rank}"
        if label not in valid_rows:
            raise GamecoreError(
                f"{name}: line {number}: unknown row {_shorten(line[0])!r} (hard 4..21, "
                "soft 12..21, pair A, pair 2..pair 10)"
            )
        if label in first_line:
            raise GamecoreError(
                f"{name}: line {number}: row {label!r} is given twice (first on line "
                f"{first_line[label]}); give each row once"
            )
        first_line[label] = number
        for up, cell in zip(CHART_UP_CARDS, line[1:], strict=True):
            cells[(label, up)] = _shorten(cell.strip().upper())
    return StrategyChart(cells, name)


def _shorten(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters for a message (a hostile field can be huge)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _up_label(up: int) -> str:
    return "A" if up == 0 else str(up + 1)


def _forced(rules: StandardBlackjackRules, total: int, soft: bool) -> tuple[bool, bool]:
    """(must hit, must stand) for a hand total under the rules' forced ranges."""
    if rules.player_forced != "c21":
        return False, False
    forced_hit = (not soft and total <= 11) or (soft and total <= 17)
    return forced_hit, total >= 20


def _resolve(cell: str, can_double: bool, can_surrender: bool) -> int:
    """The action of a non-pair cell given what is allowed (no split)."""
    if cell in ("H", "S"):
        return HIT if cell == "H" else STAND
    if cell in ("D", "DH", "DS"):
        return DOUBLE if can_double else (STAND if cell == "DS" else HIT)
    if cell in ("R", "RH", "RS"):
        return SURRENDER if can_surrender else (STAND if cell == "RS" else HIT)
    raise AssertionError(cell)


@dataclasses.dataclass(frozen=True)
class _ChartTables:
    chart: np.ndarray  # (2, 32, 10, 2, 2): soft, total, up, can double, can surrender
    pair_play: np.ndarray  # (10, 10, 2, 2): a two-card pair not split
    split: np.ndarray  # (10, 10, 2): split when allowed? [.., can surrender at the root]


def chart_tables(chart: StrategyChart, rules: StandardBlackjackRules) -> _ChartTables:
    """Resolve every cell's fallbacks under ``rules``; refuse an action the rules forbid."""
    rules = rules.resolved()
    table = np.full((2, 32, 10, 2, 2), -1, dtype=np.int64)
    for soft in (0, 1):
        for total in range(12 if soft else 4, 22):
            row = f"{'soft' if soft else 'hard'} {total}"
            forced_hit, forced_stand = _forced(rules, total, bool(soft))
            for up in range(10):
                cell = chart.cells[(row, _up_label(up))]
                for cd in (0, 1):
                    for cs in (0, 1):
                        a = _resolve(cell, bool(cd), bool(cs))
                        _check_action(chart, row, up, cell, a, forced_hit, forced_stand)
                        table[soft, total, up, cd, cs] = a
    pair_play = np.full((10, 10, 2, 2), -1, dtype=np.int64)
    split = np.zeros((10, 10, 2), dtype=np.bool_)
    for r in range(10):
        total, soft = hand_total([2 if q == r else 0 for q in range(10)])
        hard_row = f"{'soft' if soft else 'hard'} {total}"
        row = f"pair {RANKS[r]}"
        forced_hit, forced_stand = _forced(rules, total, soft)
        for up in range(10):
            cell = chart.cells.get((row, _up_label(up)), chart.cells[(hard_row, _up_label(up))])
            for cd in (0, 1):
                for cs in (0, 1):
                    if cell == "P":
                        a = table[int(soft), total, up, cd, cs]
                    elif cell in ("PH", "PS", "PD"):
                        a = _resolve({"PH": "H", "PS": "S", "PD": "D"}[cell], bool(cd), bool(cs))
                    elif cell == "RP":
                        a = SURRENDER if cs else table[int(soft), total, up, cd, cs]
                    else:
                        a = _resolve(cell, bool(cd), bool(cs))
                    _check_action(chart, row, up, cell, a, forced_hit, forced_stand)
                    pair_play[r, up, cd, cs] = a
            for cs in (0, 1):
                can_split = rules.max_split_hands >= 2
                split[r, up, cs] = can_split and (
                    cell == "P"
                    or (cell in ("PH", "PS", "PD") and rules.double_after_split)
                    or (cell == "RP" and not cs)
                )
    return _ChartTables(table, pair_play, split)


def _check_action(chart, row, up, cell, action, forced_hit, forced_stand) -> None:
    if (action == STAND and forced_hit) or (action == HIT and forced_stand):
        what = "stand" if action == STAND else "hit"
        raise GamecoreError(
            f"{chart.name}: cell {row} vs {_up_label(up)} is {_pretty(cell)!r}, which can mean "
            f"{what}, but the rules force a {'hit' if forced_hit else 'stand'} on {row}"
        )


# ---------------------------------------------------------------------------------------
# The analysis
# ---------------------------------------------------------------------------------------


class _Engine:
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
        self.dealer = _dealer_table(self.rules.dealer_hits_soft_17)
        self.surrender = _SURR[self.rules.surrender]
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
                    _dealer_distributions,
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
        tables: _ChartTables | None = None,
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
                out[p, up] = _split_value(
                    tuple(ev_x[:, up]), tuple(ev_p[:, up]), int(shoe[p]), int(shoe.sum()), hands
                )
        return out


@dataclasses.dataclass
class BlackjackAnalysis:
    """The exact analysis of one rule set and shoe.

    Attributes
    ----------
    rules
        The rule set analysed.
    shoe
        Cards per rank (A, 2..9, ten-valued) at the start of the round.
    player_ev
        EV per initial wager under optimal composition-dependent play (CDZ- splits).
    up_card_ev
        EV by up card (pandas Series, the up card's probability in ``up_card_probability``).
    hands
        One row per (two-card hand, up card): probability and the EV of every action,
        unconditional (before the peek, dealer Naturals included), the best action.
    chart
        The best total-dependent chart found: the derived chart improved by exactly priced
        single-cell changes (:func:`gamecore.blackjack_search.optimize_chart`), or the
        derived chart itself when ``exact(..., search_chart=False)``.
    chart_ev, chart_up_card_ev
        Exact EV of ``chart`` (the "total-dependent" EV), overall and by up card.
    derived_chart, derived_chart_ev, derived_chart_up_card_ev
        The chart decided cell by cell from the two-card hands (:func:`derive_chart`) and its
        exact EV, overall and by up card.
    chart_changes
        The cells the search changed, with the exact EV gain of each.
    cells
        Every cell of ``chart`` with its value per action (:meth:`strategy_chart`).
    strategy, strategy_ev
        A given chart and its exact EV, if one was given.
    insurance_ev
        EV per unit of insurance against an Ace up (off the top of the shoe); ``None`` when
        the shoe holds no Ace, so no Ace can show and insurance is never offered
        (:data:`INSURANCE_UNDEFINED`).
    """

    rules: StandardBlackjackRules
    shoe: np.ndarray
    player_ev: float
    up_card_ev: pd.Series
    up_card_probability: pd.Series
    hands: pd.DataFrame
    chart: StrategyChart
    chart_ev: float
    chart_up_card_ev: pd.Series
    insurance_ev: float | None
    derived_chart: StrategyChart | None = None
    derived_chart_ev: float | None = None
    derived_chart_up_card_ev: pd.Series | None = None
    chart_changes: pd.DataFrame | None = None
    cells: list[dict[str, Any]] | None = None
    strategy: StrategyChart | None = None
    strategy_ev: float | None = None
    strategy_up_card_ev: pd.Series | None = None
    dealer: pd.DataFrame | None = None

    @property
    def pd_edge(self) -> float:
        """The player/dealer's (banker's) edge per unit a player wagers: ``-player_ev``."""
        return -self.player_ev

    def strategy_chart(self) -> list[dict[str, Any]]:
        """Every cell of :attr:`chart` the chart reaches, as ``to_dict`` prints it.

        Each cell: ``hand`` (row), ``up_card``, ``best`` (the chart's action, H S D R P),
        ``chart`` (its letter with fallback, e.g. ``Dh``), ``hands_per_round`` (expected
        number of hands per round the cell plays, split hands included) and ``ev``: for each
        action the cell may take, the EV per unit wagered on a hand of the cell, averaged over
        every hand the chart plays by it (two-card and multi-card, unsplit and split),
        weighted by how often the chart reaches it, the rest of the chart unchanged; D and R
        with their better fallback; pair rows at the two-card pair. Under the peek these are
        EVs given the dealer has no Natural. Changing the cell to action ``a`` changes the
        chart's EV by ``hands_per_round * P(no Natural) * (ev[a] - ev[best])``.
        """
        return list(self.cells or [])

    def chart_frame(self, what: str = "best") -> pd.DataFrame:
        """The chart as a table (hand x up card) of actions or, with ``what="ev"``, the
        chart action's EV per cell."""
        cells = self.strategy_chart()
        frame = pd.DataFrame(cells)
        if what == "ev":
            frame["value"] = [c["ev"].get(c["best"], np.nan) for c in cells]
        else:
            frame["value"] = frame["best"]
        table = frame.pivot(index="hand", columns="up_card", values="value")
        order = [r for r in _chart_rows() if r in table.index]
        return table.loc[order, list(CHART_UP_CARDS)].reset_index()

    def summary(self) -> pd.DataFrame:
        rows = [
            ("Player EV, optimal composition-dependent play (CDZ- splits)", self.player_ev),
            ("Player EV, best total-dependent chart found", self.chart_ev),
            ("Player EV, chart derived from two-card hands", self.derived_chart_ev),
            ("P/D edge (optimal play)", self.pd_edge),
            ("Insurance EV per unit insured", self.insurance_ev),
        ]
        if self.strategy_ev is not None:
            rows.insert(2, (f"Player EV, given chart {self.strategy.name}", self.strategy_ev))
        return pd.DataFrame(rows, columns=["Figure", "EV"])

    def to_dict(self) -> dict[str, Any]:
        out = {
            "game": self.rules.game,
            "shoe": {RANKS[r]: int(c) for r, c in enumerate(self.shoe)},
            "player_ev": self.player_ev,
            "player_ev_total_dependent": self.chart_ev,
            "player_ev_derived_chart": self.derived_chart_ev,
            "chart_name": self.chart.name,
            "pd_edge": self.pd_edge,
            "insurance_ev": self.insurance_ev,
            "up_cards": {
                _up_label(u): {
                    "probability": float(self.up_card_probability.iloc[u]),
                    "player_ev": float(self.up_card_ev.iloc[u]),
                    "player_ev_total_dependent": float(self.chart_up_card_ev.iloc[u]),
                }
                for u in range(10)
            },
            "strategy_chart": self.strategy_chart(),
            "rules": self.rules.to_dict(),
            "resolved_rules": self.rules.resolved().to_dict(),
            "float_note": "EVs are float64 recursions over probabilities, not integer counts",
        }
        if self.insurance_ev is None:
            out["insurance_note"] = INSURANCE_UNDEFINED
        if self.strategy_ev is not None:
            out["strategy_ev"] = self.strategy_ev
            out["strategy_name"] = self.strategy.name
        return out


def _cell_evs(hands: pd.DataFrame):
    """For every chart cell the two-card hands reach, in (row, up card) order: the cell, the
    hands' probabilities and each action's EV averaged over them (weighted by probability),
    leaving out an action some hand of the cell does not allow."""
    played = hands[hands["cell"] != "natural"]
    probability = played["probability"].to_numpy()
    columns = {a: played[f"ev_{a}"].to_numpy() for a in ACTIONS}
    for cell, index in sorted(played.groupby(["cell", "up_card"]).indices.items()):
        weights = probability[index]
        evs = {}
        for a, column in columns.items():
            values = column[index]
            if not np.isnan(values).any():
                evs[a] = float(np.dot(weights, values) / weights.sum())
        yield cell, weights, evs


def exact(
    rules: StandardBlackjackRules,
    strategy: StrategyChart | str | Path | None = None,
    composition: Sequence[int] | None = None,
    search_chart: bool = True,
) -> BlackjackAnalysis:
    """Exact analysis: optimal composition-dependent EV, the best total-dependent chart found
    and its EV, and (with ``strategy``) a given chart's EV.

    Parameters
    ----------
    rules
        :class:`StandardBlackjackRules` or :class:`C21BlackjackRules`.
    strategy
        A :class:`StrategyChart` or the path of a chart CSV.
    composition
        Cards per rank (A, 2..9, ten-valued) in the shoe; default ``rules.decks`` decks.
    search_chart
        Improve the derived chart (:func:`derive_chart`) by pricing every single-cell change
        exactly (:func:`gamecore.blackjack_search.optimize_chart`); with False the chart is
        the derived one.

    Examples
    --------
    >>> a = exact(StandardBlackjackRules(decks=1, double_after_split=False, max_split_hands=2))
    >>> round(a.player_ev * 100, 4)   # Farmer's 1 deck S17 NDAS SPL1 3:2, CDZ-: +0.0243%
    0.0243
    """
    from gamecore import blackjack_search

    rules = _check_rules(rules)
    search_chart = boolean("search_chart", search_chart)
    if strategy is not None and not isinstance(strategy, StrategyChart):
        strategy = read_strategy_chart(strategy)
    shoe = None
    if composition is not None:
        shoe = _check_composition(composition, "composition")
        if shoe.sum() < 12:
            raise GamecoreError(f"composition must hold at least 12 cards, got {shoe.sum()}")
        check_round_fits(shoe, rules.resolved())
    engine = _Engine(rules, shoe)
    tables = chart_tables(strategy, rules) if strategy is not None else None
    # Optimal: unsplit hands, then splits played by the unsplit choices (CDZ-).
    ev, value, _act, natural = engine.solve()
    split = engine.split_values(ev, POLICY_REFERENCE, None)
    hands = _hand_table(engine, ev, value, natural, split)
    opt_total, opt_by_up, up_p = _overall(engine, hands, "best")
    derived = derive_chart(hands, engine.rules, rules.game)
    derived_ev, derived_by_up = _chart_ev(engine, derived)
    search = blackjack_search.optimize_chart(
        rules, derived, engine=engine, rows=None if search_chart else ()
    )
    result = BlackjackAnalysis(
        rules=rules,
        shoe=engine.shoe,
        player_ev=opt_total,
        up_card_ev=opt_by_up,
        up_card_probability=up_p,
        hands=hands,
        chart=search.chart if search_chart else derived,
        chart_ev=search.ev,
        chart_up_card_ev=search.up_card_ev,
        insurance_ev=_insurance(engine),
        derived_chart=derived,
        derived_chart_ev=derived_ev,
        derived_chart_up_card_ev=derived_by_up,
        chart_changes=search.changes,
        cells=search.cells,
    )
    if strategy is not None:
        result.strategy = strategy
        result.strategy_ev, result.strategy_up_card_ev = _chart_ev(engine, strategy, tables)
    return result


#: Why ``insurance_ev`` is ``None`` (JSON null) for a shoe without Aces.
INSURANCE_UNDEFINED = "undefined: the shoe holds no Ace, so insurance is never offered"


def _insurance(engine: _Engine) -> float | None:
    shoe = engine.shoe.copy()
    if shoe[ACE] == 0:
        return None  # no Ace can show, so no insurance is offered (INSURANCE_UNDEFINED)
    shoe[ACE] -= 1
    p = shoe[TEN] / shoe.sum()
    return float(engine.rules.insurance_pays * p - (1 - p))


def _two_card_hands(shoe: np.ndarray, up: int):
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


def _root_flags(engine: _Engine, up: int) -> tuple[bool, bool]:
    """(early surrender at the root, any surrender at the root) for this up card."""
    s = engine.surrender
    early = s == SURR_EARLY or (s == SURR_ANY and up in (ACE, TEN))
    return early, early or s == SURR_LATE or s == SURR_ANY


def _hand_table(engine, ev, value, natural, split) -> pd.DataFrame:
    """Every two-card hand against every up card: probabilities and unconditional EVs."""
    nd, rules = engine.nodes, engine.rules
    rows = []
    for up in range(10):
        if engine.shoe[up] == 0:
            continue
        p_up = engine.shoe[up] / engine.shoe.sum()
        early, _ = _root_flags(engine, up)
        for a, b, p in _two_card_hands(engine.shoe, up):
            counts = [0] * 10
            counts[a] += 1
            counts[b] += 1
            i = nd.index[tuple(counts)]
            total, soft = hand_total(counts)
            is_natural = a == ACE and b == TEN
            p_nat = natural[i, up]
            lose_to_natural = -p_nat if (rules.peek and not is_natural) else 0.0
            row = {
                "up": up,
                "up_card": _up_label(up),
                "a": a,
                "b": b,
                "hand": f"{RANKS[a]},{RANKS[b]}",
                "total": total,
                "soft": soft,
                "pair": a == b,
                "natural": is_natural,
                "probability": p,
                "up_probability": p_up,
                "dealer_natural": p_nat,
                "cell": (
                    f"pair {RANKS[a]}"
                    if a == b
                    else "natural"
                    if is_natural
                    else f"{'soft' if soft else 'hard'} {total}"
                ),
            }
            for k, name in enumerate(("S", "H", "D", "R")):
                v = ev[i, up, k]
                row[f"ev_{name}"] = v + lose_to_natural if not np.isnan(v) else np.nan
            if early and not is_natural:
                row["ev_R"] = -0.5
            row["ev_P"] = (
                split[a, up] + lose_to_natural if a == b and not np.isnan(split[a, up]) else np.nan
            )
            evs = {k: row[f"ev_{k}"] for k in ACTIONS if not np.isnan(row[f"ev_{k}"])}
            row["best"] = max(evs, key=evs.get)
            row["ev_best"] = evs[row["best"]]
            rows.append(row)
    return pd.DataFrame(rows)


def _overall(engine, hands: pd.DataFrame, column: str):
    by_up = np.zeros(10)
    up_p = np.zeros(10)
    for up, group in hands.groupby("up"):
        by_up[up] = float(np.dot(group["probability"], group[f"ev_{column}"]))
        up_p[up] = float(group["up_probability"].iloc[0])
    labels = [_up_label(u) for u in range(10)]
    return (
        float(np.dot(by_up, up_p)),
        pd.Series(by_up, index=labels, name="player EV"),
        pd.Series(up_p, index=labels, name="probability"),
    )


def _chart_ev(engine: _Engine, chart: StrategyChart, tables: _ChartTables | None = None):
    """Exact EV of playing ``chart`` (splits resplit whenever the chart and rules allow)."""
    tables = chart_tables(chart, engine.rules) if tables is None else tables
    ev, value, action, natural = engine.solve(policy=POLICY_CHART, tables=tables)
    _refuse_forbidden(action, engine, chart)
    split = engine.split_values(None, POLICY_CHART, tables)
    nd, rules = engine.nodes, engine.rules
    by_up = np.zeros(10)
    for up in range(10):
        if engine.shoe[up] == 0:
            continue
        early, root_surrender = _root_flags(engine, up)
        total = 0.0
        for a, b, p in _two_card_hands(engine.shoe, up):
            counts = [0] * 10
            counts[a] += 1
            counts[b] += 1
            i = nd.index[tuple(counts)]
            is_natural = a == ACE and b == TEN
            lose = -natural[i, up] if (rules.peek and not is_natural) else 0.0
            cell = _cell_of(chart, counts, up)
            if is_natural:
                v = value[i, up]
            elif early and _wants_surrender(cell, a == b, tables, a, up):
                v = -0.5
            elif (
                a == b
                and tables.split[a, up, 1 if root_surrender else 0]
                and not np.isnan(split[a, up])
            ):
                v = split[a, up] + lose
            else:
                v = value[i, up] + lose
            total += p * v
        by_up[up] = total
    up_p = engine.shoe / engine.shoe.sum()
    labels = [_up_label(u) for u in range(10)]
    return float(np.dot(by_up, up_p)), pd.Series(by_up, index=labels, name=chart.name)


def _cell_of(chart: StrategyChart, counts: Sequence[int], up: int) -> str:
    """The chart's letter for a two-card hand (a pair without a row: its hard/soft row)."""
    total, soft = hand_total(counts)
    row = f"{'soft' if soft else 'hard'} {total}"
    if max(counts) == 2:
        return chart.cells.get(
            (f"pair {RANKS[counts.index(2)]}", _up_label(up)), chart.cells[(row, _up_label(up))]
        )
    return chart.cells[(row, _up_label(up))]


def _wants_surrender(cell: str, pair: bool, tables, rank: int, up: int) -> bool:
    if pair:
        return tables.pair_play[rank, up, 1, 1] == SURRENDER and not tables.split[rank, up, 1]
    return cell in ("R", "RH", "RS")


def _refuse_forbidden(action: np.ndarray, engine: _Engine, chart: StrategyChart) -> None:
    bad = np.argwhere(action == -2)
    if bad.size:
        i, up = bad[0]
        total, soft = hand_total(engine.nodes.counts[i])
        raise GamecoreError(
            f"{chart.name}: the cell for {'soft' if soft else 'hard'} {total} vs "
            f"{_up_label(int(up))} asks for an action the rules do not allow there"
        )


def derive_chart(
    hands: pd.DataFrame, rules: StandardBlackjackRules, game: str | None = None
) -> StrategyChart:
    """A total-dependent chart from the two-card composition-dependent EVs.

    Each cell takes the action whose EV, averaged over the two-card hands of that total
    (weighted by their probability), is highest; a double or surrender cell gets the
    fallback (hit or stand) that is best for the cell. Rows no two-card non-pair hand reaches
    (hard 4, hard 20, hard 21, soft 12, soft 21) follow the nearest evidence: hard 4 the
    pair of 2s' best non-split action, 20 and 21 stand. Pair rows split where splitting is
    best, else repeat the pair's best non-split action.
    """
    game = game or rules.game
    rules = rules.resolved()
    cells: dict[tuple[str, str], str] = {}
    for (row, up), _weights, evs in _cell_evs(hands):
        without_split = {k: v for k, v in evs.items() if k != "P"}
        base = max(without_split, key=without_split.get)
        cells[(row, up)] = _with_fallback(base, without_split)
        if row.startswith("pair") and "P" in evs and evs["P"] > without_split[base]:
            cells[(row, up)] = "P"
    for up in CHART_UP_CARDS:
        for row in ("hard 20", "hard 21", "soft 21"):
            cells[(row, up)] = "S"
        two = cells.get(("pair 2", up), "H")
        cells[("hard 4", up)] = two if two != "P" else _pair_fallback(hands, 1, up)
        ace = cells.get(("pair A", up), "H")
        cells[("soft 12", up)] = ace if ace != "P" else _pair_fallback(hands, 0, up)
        for total in range(5, 20):
            cells.setdefault((f"hard {total}", up), "H")
        for total in range(13, 21):
            cells.setdefault((f"soft {total}", up), "S" if total >= 18 else "H")
    for key in list(cells):
        row = key[0]
        kind, total = row.split()[0], row.split()[1]
        if kind in ("hard", "soft"):
            forced_hit, forced_stand = _forced(rules, int(total), kind == "soft")
            cells[key] = _legal(cells[key], forced_hit, forced_stand)
        elif cells[key] != "P":
            counts = [0] * 10
            counts[RANKS.index(total)] = 2
            t, s = hand_total(counts)
            forced_hit, forced_stand = _forced(rules, t, s)
            cells[key] = _legal(cells[key], forced_hit, forced_stand)
    name = f"derived chart ({game}, {rules.decks} decks)"
    return StrategyChart(cells, name)


def _with_fallback(best: str, evs: dict[str, float]) -> str:
    if best in ("D", "R"):
        fallback = "S" if evs.get("S", -np.inf) > evs.get("H", -np.inf) else "H"
        return best + ("S" if fallback == "S" else "H")
    return best


def _pair_fallback(hands: pd.DataFrame, rank: int, up: str) -> str:
    group = hands[(hands["cell"] == f"pair {RANKS[rank]}") & (hands["up_card"] == up)]
    if group.empty:
        return "H"
    row = group.iloc[0]
    evs = {a: row[f"ev_{a}"] for a in ("S", "H", "D", "R") if not np.isnan(row[f"ev_{a}"])}
    return _with_fallback(max(evs, key=evs.get), evs)


def _legal(cell: str, forced_hit: bool, forced_stand: bool) -> str:
    """Repair a derived cell's fallback to what the forced ranges allow."""
    if cell in ("H",) and forced_stand:
        return "S"
    if cell in ("S",) and forced_hit:
        return "H"
    if len(cell) == 2 and cell[0] in "DR":
        if cell[1] == "S" and forced_hit:
            return cell[0] + "H"
        if cell[1] == "H" and forced_stand:
            return cell[0] + "S"
    return cell


# ---------------------------------------------------------------------------------------
# Sweeps and rule costs
# ---------------------------------------------------------------------------------------


def deck_sweep(
    rules: StandardBlackjackRules, decks: Sequence[int] = (1, 2, 4, 6, 8)
) -> pd.DataFrame:
    """Player EV (optimal and total-dependent) and the P/D edge for each deck count.

    For the c21 game, ``auto`` rules follow each deck count (2 decks: double-deck rules).
    """
    if isinstance(decks, (str, bytes)) or not isinstance(decks, Sequence) or not decks:
        raise GamecoreError(f"decks must be a list of deck counts, got {decks!r}")
    rows = []
    for d in decks:
        a = exact(rules.replace(decks=d))
        resolved = a.rules.resolved()
        rows.append(
            {
                "Decks": d,
                "Natural pays": resolved.natural_pays,
                "Max split hands": resolved.max_split_hands,
                "Player EV (optimal)": a.player_ev,
                "Player EV (total-dependent chart)": a.chart_ev,
                "P/D edge": a.pd_edge,
            }
        )
    return pd.DataFrame(rows)


def rule_costs(
    rules: StandardBlackjackRules, variants: Mapping[str, Mapping[str, Any]] | None = None
) -> pd.DataFrame:
    """EV change of each rule variant against ``rules`` (optimal play).

    ``variants`` maps a label to rule changes; the default compares the rules a regulator
    asks about: 6:5 against 3:2, the bust push on and off, each surrender kind, H17 against
    S17 and the double-deck rules.
    """
    rules = _check_rules(rules)
    base = exact(rules, search_chart=False)
    if variants is None:
        variants = default_variants(rules)
    if not isinstance(variants, Mapping) or not all(
        isinstance(changes, Mapping) for changes in variants.values()
    ):
        raise GamecoreError(
            "variants must map each label to rule changes, e.g. {'3:2': {'natural_pays': 1.5}}"
        )
    rows = [{"Variant": "as given", "Changes": "", "Player EV": base.player_ev, "EV change": 0.0}]
    for label, changes in variants.items():
        a = exact(rules.replace(**changes), search_chart=False)
        rows.append(
            {
                "Variant": label,
                "Changes": ", ".join(f"{k}={v}" for k, v in changes.items()),
                "Player EV": a.player_ev,
                "EV change": a.player_ev - base.player_ev,
            }
        )
    return pd.DataFrame(rows)


def default_variants(rules: StandardBlackjackRules) -> dict[str, dict[str, Any]]:
    resolved = rules.resolved()
    variants: dict[str, dict[str, Any]] = {}
    variants["Natural pays 3:2"] = {"natural_pays": 1.5}
    variants["Natural pays 6:5"] = {"natural_pays": 1.2}
    variants["Natural pays even money"] = {"natural_pays": 1.0}
    other = "none" if resolved.bust_push != "none" else "three_card_23_25"
    variants[f"bust push {other}"] = {"bust_push": other}
    for kind in SURRENDER_KINDS:
        if kind != resolved.surrender:
            variants[f"surrender {kind}"] = {"surrender": kind}
    variants["dealer stands soft 17" if resolved.dealer_hits_soft_17 else "dealer hits soft 17"] = {
        "dealer_hits_soft_17": not resolved.dealer_hits_soft_17
    }
    variants["split to 2 hands only"] = {"max_split_hands": 2}
    variants["double-deck rules (even money, two hands)"] = {
        "natural_pays": 1.0,
        "max_split_hands": 2,
    }
    variants["no double after split"] = {"double_after_split": False}
    variants["no forced totals" if resolved.player_forced == "c21" else "c21 forced totals"] = {
        "player_forced": "none" if resolved.player_forced == "c21" else "c21"
    }
    return {
        k: v
        for k, v in variants.items()
        if any(getattr(resolved, name) != value for name, value in v.items())
    }


__all__ = [
    "C21BlackjackRules",
    "StandardBlackjackRules",
    "StrategyChart",
    "BlackjackAnalysis",
    "exact",
    "dealer_final_distribution",
    "read_strategy_chart",
    "derive_chart",
    "deck_sweep",
    "rule_costs",
    "chart_tables",
    "split_patterns",
]
