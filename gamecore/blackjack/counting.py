"""Card counting against both blackjack games: exact effects of removal, a count derived from
them, and count-based index plays.

Central idea
------------
Every figure is the exact analysis run on a depleted shoe: the effect of removal of rank
``r`` is ``EV(shoe less one card of r) - EV(shoe)``, with the engine solving each of the ten
depleted shoes afresh (optimal play re-optimised on each; a chart kept fixed). The same
solves give each decision's gain (say, standing rather than hitting 16 against a 10) on every
shoe, so a decision's effects of removal come at no extra cost. A count is then derived from
the effects (:mod:`gamecore.counting`), and each decision's index from its effects and the
count's tags:

* removing cards whose tags sum to ``RC`` (the running count) changes a figure by about
  ``slope * RC`` (:func:`gamecore.counting.regression_slope`);
* an effect of removal grows as the shoe shrinks (one card is a larger share of fewer), so
  at a true count ``TC = RC / (decks left)`` the change is about ``slope * TC * D``, ``D``
  the decks of the full shoe;
* the index is the true count at which the decision's gain crosses zero:
  ``-gain(full shoe) / (slope * D)``.

The counter that plays the count on real shoes, and the perfect-information bettor beside
it, are :mod:`gamecore.blackjack.counter`'s.

Rules: :func:`count_analysis` (the entry point) checks and resolves the rule set once; the
shoes' figures (:func:`shoe_figures`) take the resolved rules.

Floating point: the engine's values are doubles (the recursions divide), so effects of
removal, about 1e-4 per card at 6 decks, carry the engine's rounding of about 1e-16.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from gamecore import counting
from gamecore.blackjack.analysis import analyse_shoe, insurance_ev
from gamecore.blackjack.chart import StrategyChart, read_strategy_chart
from gamecore.blackjack.chart_figures import chart_ev
from gamecore.blackjack.engine import Engine
from gamecore.blackjack.hand_table import hand_table, overall_ev
from gamecore.blackjack.rules import (
    ACE,
    DECK,
    RANKS,
    TEN,
    StandardBlackjackRules,
    check_rules,
    shoe_composition,
)
from gamecore.blackjack.shoe import RANK_NAMES, checked_shoe
from gamecore.errors import GamecoreError

#: The derived count's largest tag, by default.
DEFAULT_MAX_TAG = 3

#: The ranks a blackjack counter tells apart (ten-valued cards as "10"), cards per deck.
COUNT_DECK = counting.Deck(RANKS, DECK)


@dataclasses.dataclass(frozen=True)
class Decision:
    """A decision an index play changes: a hard two-card total against an up card, one
    action (``first``: the one a high count usually favours) against the other."""

    name: str
    total: int
    up: int
    first: str
    second: str


#: The decisions that matter most to a counter (Griffin; Wong's "Illustrious 18" top).
DECISIONS = (
    Decision("16 v 10", 16, TEN, "S", "H"),
    Decision("15 v 10", 15, TEN, "S", "H"),
    Decision("12 v 2", 12, 1, "S", "H"),
    Decision("12 v 3", 12, 2, "S", "H"),
    Decision("10 v 10", 10, TEN, "D", "H"),
    Decision("10 v A", 10, ACE, "D", "H"),
    Decision("11 v A", 11, ACE, "D", "H"),
)


@dataclasses.dataclass(frozen=True)
class ShoeFigures:
    """The figures a counter needs from one shoe, all from one engine."""

    optimal_ev: float
    chart_ev: float
    insurance_ev: float | None
    gains: dict[str, float | None]  # decision -> EV(first) - EV(second); None: not allowed


def shoe_figures(
    rules: StandardBlackjackRules, shoe: np.ndarray, chart: StrategyChart
) -> ShoeFigures:
    """Optimal EV, ``chart``'s EV, insurance's EV and each decision's gain on ``shoe``.

    A decision's gain is averaged over its two-card hands that are not pairs, weighted by
    their probabilities (a pair's decision is the split's); both actions' values include the
    same loss to a dealer Natural, so it cancels.

    Parameters
    ----------
    rules : StandardBlackjackRules
        Resolved (:meth:`~gamecore.blackjack.rules.C21BlackjackRules.resolved`).
    shoe : numpy.ndarray
        Cards per rank (A, 2..9, ten-valued), int64, already checked
        (:func:`gamecore.blackjack.shoe.checked_shoe`).
    chart : StrategyChart
        The counter's chart.

    Returns
    -------
    ShoeFigures
        EVs per unit of the initial wager: optimal composition-dependent play's, the
        chart's, insurance's per unit insured (``None`` without an Ace), and each of
        :data:`DECISIONS`'s gain, EV(first) - EV(second) (``None`` where the rules do not
        allow one of its actions).
    """
    engine = Engine(rules, shoe)
    solved, split = engine.solve_optimal()
    hands = hand_table(engine, solved, split)
    gains: dict[str, float | None] = {}
    for decision in DECISIONS:
        rows = hands[
            (hands["total"] == decision.total)
            & ~hands["soft"]
            & ~hands["pair"]
            & (hands["up"] == decision.up)
        ]
        gain = rows[f"ev_{decision.first}"] - rows[f"ev_{decision.second}"]
        weight = rows["probability"].sum()
        gains[decision.name] = (
            None
            if rows.empty or gain.isna().any() or weight == 0
            else float((rows["probability"] * gain).sum() / weight)
        )
    return ShoeFigures(
        overall_ev(hands, "best")[0],
        chart_ev(engine, chart)[0],
        insurance_ev(engine),
        gains,
    )


@dataclasses.dataclass(frozen=True)
class IndexPlay:
    """One decision's count-based play: its gain on the full shoe, its effects of removal,
    how well the count follows them, and the index."""

    decision: str
    first: str
    second: str
    gain_full_shoe: float  # EV(first) - EV(second) on the full shoe
    effects_of_removal: dict[str, float]
    playing_efficiency: float
    index: float | None  # the true count where the gain crosses zero (None: the count
    # does not move this decision)
    first_when: str  # "true count ≥ index" or "true count ≤ index"

    def to_dict(self) -> dict[str, Any]:
        """The index play as JSON.

        Returns
        -------
        dict
            Every field by its name: ``decision``, ``first``, ``second``,
            ``gain_full_shoe``, ``effects_of_removal`` (rank -> change in the gain per card
            removed), ``playing_efficiency``, ``index`` (``None``: the count does not move
            the decision) and ``first_when``.
        """
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class BlackjackCount:
    """Effects of removal, a derived count and its index plays for one rule set and shoe."""

    rules: StandardBlackjackRules
    shoe: np.ndarray
    chart: StrategyChart
    full_shoe_ev: float
    effects_of_removal: dict[str, float]
    full_shoe_ev_optimal: float
    effects_of_removal_optimal: dict[str, float]
    tags: dict[str, int]
    max_tag: int
    betting_correlation: float
    betting_correlation_optimal: float
    index_plays: list[IndexPlay]
    insurance: IndexPlay | None

    @property
    def strategy(self) -> str:
        """The name of the chart the counter plays."""
        return self.chart.name

    @property
    def decks(self) -> float:
        return float(self.shoe.sum()) / sum(DECK)

    def effects_table(self) -> pd.DataFrame:
        """The effects of removal and the count's tags, one row per rank.

        Returns
        -------
        pandas.DataFrame
            Rank | Cards per deck | Tag | EoR under the chart (%) | EoR under optimal play
            (%): the change in the player's EV, in % of the initial wager, when one card of
            the rank leaves the full shoe.
        """
        return pd.DataFrame(
            [
                {
                    "Rank": rank,
                    "Cards per deck": cards,
                    "Tag": self.tags[rank],
                    f"EoR, {self.strategy} (%)": 100 * self.effects_of_removal[rank],
                    "EoR, optimal play (%)": 100 * self.effects_of_removal_optimal[rank],
                }
                for rank, cards in zip(RANKS, DECK, strict=True)
            ]
        )

    def index_table(self) -> pd.DataFrame:
        """The index plays and insurance, one row per decision.

        Returns
        -------
        pandas.DataFrame
            Decision | Actions | Gain on the full shoe (EV per initial wager) | Playing
            efficiency (the correlation of the tags with the decision's effects) | Index
            (true count; empty where the count does not move the decision) | First action
            when (at or above the index, or at or below it).
        """
        plays = self.index_plays + ([self.insurance] if self.insurance else [])
        return pd.DataFrame(
            [
                {
                    "Decision": play.decision,
                    "Actions": f"{play.first} rather than {play.second}",
                    "Gain on the full shoe": play.gain_full_shoe,
                    "Playing efficiency": play.playing_efficiency,
                    "Index (true count)": play.index,
                    "First action when": play.first_when,
                }
                for play in plays
            ]
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON document of ``gamecore count``.

        Returns
        -------
        dict
            ``game``, ``rules`` (as given), ``shoe``, ``strategy``, the full shoe's EV and
            the effects of removal under the chart and under optimal play (rank -> EV
            change per card), what they mean, ``count`` (tags, largest tag, balance, the
            betting correlations), ``index_plays``, ``insurance`` and ``exactness``.
        """
        return {
            "game": self.rules.game,
            "rules": self.rules.to_dict(),
            "shoe": [int(n) for n in self.shoe],
            "strategy": self.strategy,
            "full_shoe_ev": self.full_shoe_ev,
            "effects_of_removal": self.effects_of_removal,
            "full_shoe_ev_optimal": self.full_shoe_ev_optimal,
            "effects_of_removal_optimal": self.effects_of_removal_optimal,
            "effects_of_removal_means": (
                "the change in the player's EV per initial wager when one card of the rank "
                "leaves the full shoe, each depleted shoe solved exactly"
            ),
            "count": {
                "tags": self.tags,
                "max_tag": self.max_tag,
                "balanced": COUNT_DECK.imbalance(self.tags) == 0,
                "derived_from": f"effects_of_removal ({self.strategy})",
                "betting_correlation": self.betting_correlation,
                "betting_correlation_optimal": self.betting_correlation_optimal,
            },
            "index_plays": [play.to_dict() for play in self.index_plays],
            "insurance": None if self.insurance is None else self.insurance.to_dict(),
            "exactness": (
                "exact combinatorial analysis of every shoe in double precision (the "
                "recursions divide); effects of removal carry its rounding, about 1e-16"
            ),
        }


def count_analysis(
    rules: StandardBlackjackRules,
    strategy: StrategyChart | str | None = None,
    composition: Sequence[int] | None = None,
    max_tag: int = DEFAULT_MAX_TAG,
) -> BlackjackCount:
    """Exact effects of removal, a balanced count derived from them and its index plays.

    Parameters
    ----------
    rules : StandardBlackjackRules
        :class:`~gamecore.blackjack.rules.StandardBlackjackRules` or
        :class:`~gamecore.blackjack.rules.C21BlackjackRules`, as given (kept in the
        result); checked and resolved once here, every shoe's figures taking the resolved
        rules.
    strategy : StrategyChart or str, optional
        The chart the counter plays (a :class:`StrategyChart` or a chart CSV's path);
        default the best total-dependent chart of the full shoe
        (:func:`gamecore.blackjack.exact`'s searched chart), kept fixed on every depleted
        shoe. Optimal play is re-optimised on each shoe.
    composition : sequence of int, optional
        The full shoe (cards per rank, A..9, ten-valued); default ``rules.decks`` decks.
        Every rank must be there, and each shoe less one card must deal a whole round.
    max_tag : int, default :data:`DEFAULT_MAX_TAG`
        The largest tag of the derived count.

    Returns
    -------
    BlackjackCount
        Effects of removal under the chart (``effects_of_removal``, the count's basis) and
        under optimal play, the count, its betting correlations, and the index plays of
        :data:`DECISIONS` and insurance.
    """
    rules = check_rules(rules)
    if strategy is not None and not isinstance(strategy, StrategyChart):
        strategy = read_strategy_chart(strategy)
    resolved = rules.resolved()
    if composition is None:
        shoe = shoe_composition(resolved.decks)
        full = analyse_shoe(rules, resolved, None, strategy, search_chart=strategy is None)
        depleted = _depleted_shoes(shoe, rules, given=False)
    else:
        shoe = _countable_shoe(composition, rules)
        # Every depleted shoe is checked before the analyses, which solve eleven shoes.
        depleted = _depleted_shoes(shoe, rules, given=True)
        full = analyse_shoe(rules, resolved, shoe, strategy, search_chart=strategy is None)
    chart = full.chart if strategy is None else strategy
    before = shoe_figures(resolved, shoe, chart)
    after = {
        rank: shoe_figures(resolved, d, chart) for rank, d in zip(RANKS, depleted, strict=True)
    }
    effects = {rank: after[rank].chart_ev - before.chart_ev for rank in RANKS}
    effects_optimal = {rank: after[rank].optimal_ev - before.optimal_ev for rank in RANKS}
    tags = counting.balanced_tags(effects, COUNT_DECK, max_tag)
    plays, insurance = _index_plays(before, after, tags, float(shoe.sum()) / sum(DECK))
    return BlackjackCount(
        rules=rules,
        shoe=shoe,
        chart=chart,
        full_shoe_ev=before.chart_ev,
        effects_of_removal=effects,
        full_shoe_ev_optimal=before.optimal_ev,
        effects_of_removal_optimal=effects_optimal,
        tags=tags,
        max_tag=max_tag,
        betting_correlation=counting.betting_correlation(tags, effects, COUNT_DECK),
        betting_correlation_optimal=counting.betting_correlation(tags, effects_optimal, COUNT_DECK),
        index_plays=plays,
        insurance=insurance,
    )


def _countable_shoe(composition: Sequence[int], rules: StandardBlackjackRules) -> np.ndarray:
    """A shoe given by hand, checked (:func:`gamecore.blackjack.shoe.checked_shoe`) and
    holding every rank, so that a card of each can be removed."""
    shoe = checked_shoe(composition, rules)
    for r in range(len(RANKS)):
        if shoe[r] == 0:
            raise GamecoreError(
                f"composition count of {RANK_NAMES[r]} is 0: no card of it can be removed"
            )
    return shoe


def _depleted_shoes(
    shoe: np.ndarray, rules: StandardBlackjackRules, given: bool
) -> list[np.ndarray]:
    """``shoe`` less one card of each rank, A..10, each checked as an analysis's shoe (no
    round may run out of cards); ``given``: the shoe was given by hand, and a refusal says
    which rank's effect of removal needs it."""
    depleted = []
    for r in range(len(RANKS)):
        less = shoe.copy()
        less[r] -= 1
        if not given:
            depleted.append(checked_shoe(less, rules))
            continue
        try:
            depleted.append(checked_shoe(less, rules))
        except GamecoreError as error:
            detail = str(error).removeprefix("composition ")
            raise GamecoreError(
                f"composition: the effect of removal of {RANK_NAMES[r]} needs the shoe "
                f"less one such card, and that shoe is refused: {detail}"
            ) from None
    return depleted


def _index_plays(
    before: ShoeFigures, after: Mapping[str, ShoeFigures], tags: dict[str, int], decks: float
) -> tuple[list[IndexPlay], IndexPlay | None]:
    """The index plays of :data:`DECISIONS` the rules allow on every shoe, and insurance's
    (``None`` where some shoe offers none), from the full shoe's figures (``before``) and
    each depleted shoe's (``after``, by rank)."""
    plays = []
    for decision in DECISIONS:
        gain = before.gains[decision.name]
        if gain is None or any(after[r].gains[decision.name] is None for r in RANKS):
            continue  # an action the rules do not allow there
        effects = {r: after[r].gains[decision.name] - gain for r in RANKS}
        plays.append(
            _index_play(decision.name, decision.first, decision.second, gain, effects, tags, decks)
        )
    insurance = None
    if before.insurance_ev is not None and all(after[r].insurance_ev is not None for r in RANKS):
        effects = {r: after[r].insurance_ev - before.insurance_ev for r in RANKS}
        insurance = _index_play(
            "insurance v A", "insure", "decline", before.insurance_ev, effects, tags, decks
        )
    return plays, insurance


def _index_play(name, first, second, gain, effects, tags, decks) -> IndexPlay:
    """A decision's index from its gain and effects of removal (module docstring)."""
    slope = counting.regression_slope(tags, effects, COUNT_DECK)
    per_true_count = slope * decks
    index = None if per_true_count == 0 else -gain / per_true_count
    return IndexPlay(
        decision=name,
        first=first,
        second=second,
        gain_full_shoe=gain,
        effects_of_removal=effects,
        playing_efficiency=counting.betting_correlation(tags, effects, COUNT_DECK),
        index=index,
        first_when="true count ≥ index" if per_true_count >= 0 else "true count ≤ index",
    )
