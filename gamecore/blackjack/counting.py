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

The counter is then simulated on real shoes (:func:`counter_simulation`: the simulator's
one round loop, dealing to a cut card, with the count, the bet ramp, the index plays and
insurance), by decks and penetration (:func:`procedure_table`), beside a bettor who knows the
exact EV of every round's remaining shoe (:func:`perfect_information_simulation`).

Floating point: the engine's values are doubles (the recursions divide), so effects of
removal, about 1e-4 per card at 6 decks, carry the engine's rounding of about 1e-16.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from gamecore import counting, countresults
from gamecore.blackjack.analysis import chart_ev, exact, hand_table, insurance_ev, overall_ev
from gamecore.blackjack.chart import StrategyChart, read_strategy_chart
from gamecore.blackjack.dealt import simulate_shoes
from gamecore.blackjack.engine import Engine
from gamecore.blackjack.round_tables import (
    C_BANKED,
    C_INSURED,
    C_RECORDED,
    R_RESULT,
    R_SHOE,
    R_TRUE_COUNT,
    Dealt,
    RoundInputs,
    RoundOutputs,
    new_counter_tallies,
    new_scratch,
    new_tallies,
)
from gamecore.blackjack.rules import (
    ACE,
    DECK,
    DOUBLE,
    HIT,
    RANKS,
    STAND,
    TEN,
    StandardBlackjackRules,
    check_rules,
    rule_codes,
    shoe_composition,
)
from gamecore.blackjack.shoe import (
    RANK_NAMES,
    check_players,
    checked_shoe,
    round_cards_bound,
    table_round_cards,
)
from gamecore.blackjack.sim import chart_policy
from gamecore.dealing import Dealing
from gamecore.errors import GamecoreError, shown
from gamecore.parallel import make_chunks, run_chunks, sum_tallies

#: The derived count's largest tag, by default.
DEFAULT_MAX_TAG = 3

#: The ranks a blackjack counter tells apart (ten-valued cards as "10"), cards per deck.
COUNT_DECK = counting.Deck(RANKS, DECK)


def default_dealing(rules: StandardBlackjackRules) -> Dealing:
    """The reading of how the game is dealt (RULES.md, section c21_blackjack): real shoes to
    a cut card a quarter of the shoe from the end (1.5 decks, 78 cards, at 6 decks), or the
    most cards a round can take if more (so a round begun before the cut card always
    finishes), no burn."""
    rules = check_rules(rules)
    return Dealing(
        mode="shoe",
        penetration=max(rules.decks * sum(DECK) // 4, most_round_cards(rules)),
        burn="none",
    )


def most_round_cards(rules: StandardBlackjackRules) -> int:
    """The most cards one round can take from a full shoe of the rules' decks (a bound)."""
    resolved = rules.resolved()
    return round_cards_bound(shoe_composition(resolved.decks), max(1, resolved.max_split_hands))


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
        overall_ev(engine, hands, "best")[0],
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
    first_when: str  # "true count >= index" or "true count <= index"

    def to_dict(self) -> dict[str, Any]:
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
        """Rank | Cards per deck | Tag | EoR (chart) | EoR (optimal), in % of the wager."""
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
        """Decision | Actions | Gain on the full shoe | Playing efficiency | Index."""
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
    rules
        :class:`~gamecore.blackjack.rules.StandardBlackjackRules` or
        :class:`~gamecore.blackjack.rules.C21BlackjackRules`.
    strategy
        The chart the counter plays (a :class:`StrategyChart` or a chart CSV's path);
        default the best total-dependent chart of the full shoe
        (:func:`gamecore.blackjack.exact`'s searched chart), kept fixed on every depleted
        shoe. Optimal play is re-optimised on each shoe.
    composition
        The full shoe (cards per rank, A..9, ten-valued); default ``rules.decks`` decks.
    max_tag
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
    if composition is not None:
        # Every rank must be there to be removed, and no round may run out of cards in any
        # shoe short of one card: checked before the analyses, which take seconds.
        shoe = checked_shoe(composition, rules)
        for r in range(len(RANKS)):
            if shoe[r] == 0:
                raise GamecoreError(
                    f"composition count of {RANK_NAMES[r]} is 0: no card of it can be removed"
                )
        for r in range(len(RANKS)):
            depleted = shoe.copy()
            depleted[r] -= 1
            try:
                checked_shoe(depleted, rules)
            except GamecoreError as error:
                detail = str(error).removeprefix("composition ")
                raise GamecoreError(
                    f"composition: the effect of removal of {RANK_NAMES[r]} needs the shoe "
                    f"less one such card, and that shoe is refused: {detail}"
                ) from None
    full = exact(rules, composition=composition, search_chart=strategy is None)
    chart = full.chart if strategy is None else strategy
    shoe = full.shoe.copy()
    before = shoe_figures(rules, shoe, chart)
    after = {}
    for r, rank in enumerate(RANKS):
        depleted = shoe.copy()
        depleted[r] -= 1
        after[rank] = shoe_figures(rules, checked_shoe(depleted, rules), chart)
    effects = {rank: after[rank].chart_ev - before.chart_ev for rank in RANKS}
    effects_optimal = {rank: after[rank].optimal_ev - before.optimal_ev for rank in RANKS}
    tags = counting.balanced_tags(effects, COUNT_DECK, max_tag)
    decks = float(shoe.sum()) / sum(DECK)
    plays = []
    for decision in DECISIONS:
        gain = before.gains[decision.name]
        if gain is None or any(after[r].gains[decision.name] is None for r in RANKS):
            continue  # an action the rules do not allow there
        plays.append(
            _index_play(
                decision.name,
                decision.first,
                decision.second,
                gain,
                {r: after[r].gains[decision.name] - gain for r in RANKS},
                tags,
                decks,
            )
        )
    insurance = None
    if before.insurance_ev is not None and all(after[r].insurance_ev is not None for r in RANKS):
        insurance = _index_play(
            "insurance v A",
            "insure",
            "decline",
            before.insurance_ev,
            {r: after[r].insurance_ev - before.insurance_ev for r in RANKS},
            tags,
            decks,
        )
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
        first_when="true count >= index" if per_true_count >= 0 else "true count <= index",
    )


# ---------------------------------------------------------------------------------------
# The counter, simulated on real shoes
# ---------------------------------------------------------------------------------------

#: Shoes per chunk of a counter simulation.
CHUNK_SHOES = 4_096

_ACTION_CODES = {"S": STAND, "H": HIT, "D": DOUBLE}


@dataclasses.dataclass(frozen=True)
class CounterResult:
    """A blackjack counter's simulated results, the flat bettor beside it."""

    rules: StandardBlackjackRules
    chart: str
    tags: dict[str, int]
    trigger: float
    ramp: tuple[float, ...]
    index_plays: bool
    dealing: Dealing
    shoes: int
    seed: int
    stats: np.ndarray
    players: int = 1
    seat: int = 1
    turn_rounds: int = 0
    bank_at: float = math.inf

    def summary(self, rounds_per_hour: float = 60.0) -> dict[str, float]:
        """:func:`gamecore.countresults.counter_summary`, how often the counter insured, and
        under rotation how often it banked."""
        banked = C_BANKED if self.turn_rounds else None
        out = countresults.counter_summary(self.stats, self.shoes, rounds_per_hour, banked)
        rounds = self.stats[counting.ROUNDS]
        out["Insurance bets per 100 rounds"] = 100 * self.stats[C_INSURED] / rounds
        return out


def counter_simulation(count: BlackjackCount, run: counting.CounterRun) -> CounterResult:
    """Simulate a counter playing ``count``'s chart against the dealer on real shoes dealt
    to a cut card (``run.dealing``, default :func:`default_dealing`), in ``run.seat`` of a
    table of ``run.players`` players (1: heads-up; the others flat on the chart): it sees
    every card, bets one unit at or below the ``run.trigger`` true count and the ramp above
    it, and with ``run.index_plays`` plays ``count``'s index plays and insurance.

    With ``run.turn_rounds`` > 0 the bank rotates among the players and the P/D, each
    holding it that many rounds (the card: two); in its turn the counter banks when the true
    count is at or below ``run.bank_at`` (default: always) and wins minus every seat's
    result, else it declines and plays its seat. The flat bettor beside it always banks in
    its turn. Fixed chunks of :data:`CHUNK_SHOES` shoes: the result depends on the seed only.

    Parameters
    ----------
    count
        The count, its chart and index plays (:func:`count_analysis`).
    run
        The counter's run (:class:`gamecore.counting.CounterRun`).

    Returns
    -------
    CounterResult
        The counter's statistics, the flat bettor beside it.
    """
    rules = _checked(count, run)
    trigger = counting.check_trigger(run.trigger, count.tags)
    players = check_players(rules, run.players)
    bank_at = counting.bank_threshold(run, count.tags)
    shoe, dealing = _shoe_and_dealing(count, rules, run.dealing, "a counter")
    dealt = _dealt(count, rules, dealing, trigger, run.ramp, run.index_plays)._replace(
        seats=players, counter_seat=run.seat - 1, turn_rounds=run.turn_rounds, bank_at=bank_at
    )
    job = (shoe, chart_policy(count.chart, rules), rule_codes(rules), dealt)
    chunks = make_chunks(run.shoes, CHUNK_SHOES, run.seed)
    results = run_chunks(
        _run_counter_chunk, job, chunks, run.threads, run.dask, run.progress,
        f"{rules.game} counter",
    )  # fmt: skip
    return CounterResult(
        count.rules, count.strategy, count.tags, trigger, run.ramp, run.index_plays, dealing,
        run.shoes, run.seed, sum_tallies(results), players, run.seat, run.turn_rounds,
        float(bank_at),
    )  # fmt: skip


def _checked(count: object, run: object) -> StandardBlackjackRules:
    """``count``'s rules resolved, ``count`` and ``run`` checked."""
    if not isinstance(count, BlackjackCount):
        raise GamecoreError(f"count must be a BlackjackCount (count_analysis), got {shown(count)}")
    if not isinstance(run, counting.CounterRun):
        raise GamecoreError(f"run must be a CounterRun, got {shown(run)}")
    return count.rules.resolved()


def _shoe_and_dealing(count, rules, dealing, who) -> tuple[np.ndarray, Dealing]:
    """The count's shoe as cards and the checked procedure (default :func:`default_dealing`):
    a cut card that leaves the most cards a round can take on each side, no burn; ``who``
    names the study in the message refusing a shuffle every round."""
    dealing = Dealing.given(dealing, default_dealing(rules))
    shoe = np.repeat(np.arange(10, dtype=np.int64), count.shoe)
    if dealing.mode != "shoe":
        raise GamecoreError(
            f"{who} needs a shoe dealt to a cut card (mode 'shoe'); with a shuffle every "
            "round the count is always zero and the EV is the exact off-the-top EV"
        )
    if dealing.burn != "none":
        raise GamecoreError(
            f"blackjack is dealt without a burn here, got burn={shown(dealing.burn)}"
        )
    most = most_round_cards(rules)
    if not most <= dealing.penetration <= shoe.size - most:
        raise GamecoreError(
            f"penetration must be from {most} to {shoe.size - most} cards for a "
            f"{shoe.size}-card shoe (a round can take up to {most} cards), got "
            f"{dealing.penetration}"
        )
    return shoe, dealing


def _dealt(count, rules, dealing, trigger, ramp, index_plays) -> Dealt:
    """The counter's tables for the round kernel (a :class:`round_tables.Dealt`)."""
    first = np.full((32, 10), -1, dtype=np.int64)
    second = np.full((32, 10), -1, dtype=np.int64)
    at = np.zeros((32, 10))
    sign = np.ones((32, 10), dtype=np.int64)
    by_name = {d.name: d for d in DECISIONS}
    if index_plays:
        for play in count.index_plays:
            decision = by_name[play.decision]
            if play.index is None:
                continue
            first[decision.total, decision.up] = _ACTION_CODES[play.first]
            second[decision.total, decision.up] = _ACTION_CODES[play.second]
            at[decision.total, decision.up] = play.index
            sign[decision.total, decision.up] = 1 if ">=" in play.first_when else -1
    insurance_at, insurance_sign = np.nan, 1
    if index_plays and count.insurance is not None and count.insurance.index is not None:
        insurance_at = count.insurance.index
        insurance_sign = 1 if ">=" in count.insurance.first_when else -1
    tags = np.array([count.tags[r] for r in RANKS], dtype=np.int64)
    return Dealt(
        dealing.penetration, tags, np.array(ramp), trigger, float(sum(DECK)), first, second,
        at, sign, insurance_at, insurance_sign, float(rules.natural_pays), 1, 0, 0, np.inf,
    )  # fmt: skip


def _run_counter_chunk(job_and_chunk):
    (shoe, policy, codes, dealt), chunk = job_and_chunk
    counter = new_counter_tallies()
    inputs = RoundInputs(codes, policy, 0.0, dealt)
    outputs = RoundOutputs(new_tallies(), counter, new_scratch(dealt.seats))
    simulate_shoes(chunk.generator(), shoe, chunk.size, inputs, outputs)
    return counter.stats


def procedure_table(
    rules: StandardBlackjackRules,
    run: counting.CounterRun,
    deck_counts: Sequence[int] = (1, 2, 6, 8),
    penetrations: Sequence[int] | None = None,
    rounds_per_hour: float = 60.0,
    table_maximum: float = 100.0,
    max_tag: int = DEFAULT_MAX_TAG,
) -> pd.DataFrame:
    """The counter in ``run.seat`` of ``run.players`` (1: heads-up; fewer players where a
    deck count's shoe cannot deal them all, the seat moved in to the last) under every
    procedure (:func:`gamecore.countresults.procedure_table`): for each deck count (its own
    rules: c21's double-deck rules at 2) the count and chart of :func:`count_analysis`, a
    shuffle every round at the chart's exact EV, and real shoes to each cut card of
    ``penetrations`` (default the reading's quarter and a half of the shoe, each moved into
    the range a heads-up round allows; none where no cut card leaves a whole round on each
    side, as for one deck and four split hands), the best of ``run.triggers``.

    Parameters
    ----------
    rules
        The rule set (its decks replaced by each of ``deck_counts``).
    run
        The counter's run (its dealing replaced by each procedure's).
    deck_counts, penetrations
        The procedures.
    rounds_per_hour, table_maximum
        Money per hour takes the ramp's top bet to be ``table_maximum``.
    max_tag
        The largest tag of each deck count's derived count.

    Returns
    -------
    pandas.DataFrame
        :func:`gamecore.countresults.procedure_table`'s rows.
    """
    rules = check_rules(rules)
    unit = countresults.money_unit(table_maximum, run.ramp)
    # Checked at 8 decks, where every table fits; each deck count deals as many as it can.
    players = check_players(dataclasses.replace(rules, decks=8), run.players)
    tables = {}
    for decks in deck_counts:
        variant = dataclasses.replace(rules, decks=decks).resolved()
        cards = decks * sum(DECK)
        fit = max(k for k in range(1, players + 1) if table_round_cards(variant, k) <= cards)
        tables[decks] = (fit, min(run.seat, fit))
    counts: dict[int, BlackjackCount] = {}

    def count_of(decks: int) -> BlackjackCount:
        if decks not in counts:
            counts[decks] = count_analysis(dataclasses.replace(rules, decks=decks), max_tag=max_tag)
        return counts[decks]

    def cuts(decks: int) -> Sequence[int]:
        if penetrations is not None:
            return penetrations
        variant = count_of(decks).rules
        cards, most = decks * sum(DECK), most_round_cards(variant)
        if cards - most < most:  # no cut card leaves a whole round on each side
            return []
        return sorted({min(max(c, most), cards - most) for c in (cards // 4, cards // 2)})

    def simulate(decks: int, cut: int, trigger: float) -> dict[str, float]:
        dealing = Dealing(mode="shoe", penetration=int(cut), burn="none")
        table, place = tables[decks]
        changes = {"trigger": trigger, "dealing": dealing, "players": table, "seat": place}
        return counter_simulation(count_of(decks), run.replace(**changes)).summary(rounds_per_hour)

    where = "heads-up" if players == 1 else f"seat {run.seat} of {players} players"
    fewer = [f"{d} deck{'s' if d > 1 else ''}: {t[0]}" for d, t in tables.items() if t[0] < players]
    if fewer:
        where += f" (players the shoe can deal: {', '.join(fewer)})"
    return countresults.procedure_table(
        deck_counts, cuts, lambda decks: count_of(decks).full_shoe_ev, simulate, run.triggers,
        unit, rounds_per_hour,
        f"simulated, {run.shoes:,} shoes, {where}, the chart and its index plays",
    )  # fmt: skip


def seat_table(
    count: BlackjackCount,
    run: counting.CounterRun,
    rounds_per_hour: float = 60.0,
    table_maximum: float = 100.0,
) -> pd.DataFrame:
    """The counter where it sits: heads-up, in the first and the last seat of a table of
    ``run.players``, and in the middle seat under rotation (``run.turn_rounds`` rounds at
    the bank each, 2 if 0), always banking in its turn and banking only at or below the
    ``run.bank_at`` true count (0 if not given). Every scenario from the same seed.

    Parameters
    ----------
    count, run
        As :func:`counter_simulation` takes them (the run's seat is each scenario's).
    rounds_per_hour, table_maximum
        Money per hour takes the ramp's top bet to be ``table_maximum``.

    Returns
    -------
    pandas.DataFrame
        Where | Units won per 100 rounds | SE | Money per hour at the table maximum | SE
        (money per hour) | Rounds banked per 100 rounds | the flat bettor beside it, per
        round | SE (:func:`gamecore.countresults.scenario_table`).
    """
    _checked(count, run)
    unit = countresults.money_unit(table_maximum, run.ramp)
    players, turn = run.players, run.turn_rounds or 2
    bank_at = 0.0 if run.bank_at is None else run.bank_at
    middle = (players + 1) // 2
    scenarios = [
        ("heads-up", (1, 1, 0, None)),
        (f"seat 1 of {players}", (players, 1, 0, None)),
        (f"seat {players} of {players}", (players, players, 0, None)),
        (f"seat {middle} of {players}, rotation, always banks", (players, middle, turn, None)),
        (f"seat {middle} of {players}, rotation, banks at true count <= {bank_at:g}",
         (players, middle, turn, bank_at)),
    ]  # fmt: skip
    summaries = {
        where: counter_simulation(
            count, run.replace(players=table, seat=seat, turn_rounds=turns, bank_at=at)
        ).summary(rounds_per_hour)
        for where, (table, seat, turns, at) in scenarios
    }
    return countresults.scenario_table(summaries, unit)


# ---------------------------------------------------------------------------------------
# The upper bound: a bettor who knows the exact EV of the remaining shoe
# ---------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class PerfectInformationResult:
    """The perfect-information bettor on a sample of shoes, round by round."""

    rules: StandardBlackjackRules
    chart: str
    ramp: tuple[float, ...]
    dealing: Dealing
    shoes: int
    seed: int
    rounds: pd.DataFrame  # Shoe | True count | Exact EV | Result, one row per round

    def summary(self, rounds_per_hour: float = 60.0) -> dict[str, float]:
        """As :meth:`gamecore.c21_baccarat.counting.PerfectInformationResult.summary`."""
        return countresults.perfect_information_summary(self.rounds, self.ramp, rounds_per_hour)


def perfect_information_simulation(
    count: BlackjackCount, run: counting.CounterRun
) -> PerfectInformationResult:
    """Deal ``run.shoes`` shoes as :func:`counter_simulation` does (the chart alone, no
    index plays; in ``run.seat`` of ``run.players``) and solve the remaining shoe of every
    round exactly (the chart's EV on it, the engine run afresh): the bettor bets the ramp's
    top when that EV is positive and one unit otherwise, an upper bound no count with that
    spread can beat with this chart. Each round's true count under the count's tags is kept
    beside its exact EV. A few shoes: every round is a full exact analysis.

    Parameters
    ----------
    count
        As :func:`counter_simulation` takes it.
    run
        At most 1,000 shoes; the trigger, the index plays and the rotation do not apply,
        and the run is serial.

    Returns
    -------
    PerfectInformationResult
        The bettor's rounds: shoe, true count, exact EV, result.
    """
    rules = _checked(count, run)
    shoes, seed, ramp = run.shoes, run.seed, run.ramp
    if shoes > 1_000:
        raise GamecoreError(f"shoes must be at most 1,000 (each round is solved), got {shoes:,}")
    players = check_players(rules, run.players)
    shoe, dealing = _shoe_and_dealing(count, rules, run.dealing, "the perfect-information bettor")
    dealt = _dealt(count, rules, dealing, 0.0, ramp, index_plays=False)._replace(
        seats=players, counter_seat=run.seat - 1
    )
    tallies = new_counter_tallies(record_rounds=shoes * (shoe.size // 4 + 1))
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    inputs = RoundInputs(rule_codes(rules), chart_policy(count.chart, rules), 0.0, dealt)
    outputs = RoundOutputs(new_tallies(), tallies, new_scratch(players))
    simulate_shoes(rng, shoe, shoes, inputs, outputs)
    record = tallies.record[: int(tallies.stats[C_RECORDED])]
    evs = [
        chart_ev(Engine(rules, left.astype(np.int64)), count.chart)[0] for left in record[:, :10]
    ]
    frame = pd.DataFrame(
        {
            "Shoe": record[:, R_SHOE].astype(int),
            "True count": record[:, R_TRUE_COUNT],
            "Exact EV": evs,
            "Result": record[:, R_RESULT],
        }
    )
    return PerfectInformationResult(count.rules, count.strategy, ramp, dealing, shoes, seed, frame)
