"""Monte Carlo simulator of (c21) blackjack played by a total-dependent strategy chart.

Central idea
------------
The simulator deals real cards and plays every rule from the rule text (peek, early
surrender, surrender after hits against 2-9, forced totals, doubles, splits and resplits,
one card to split aces, the three-card bust push, the Natural's payout), taking each
decision from the *same* resolved chart tables the exact engine evaluates
(:func:`gamecore.blackjack.chart_tables`). So a chart's exact EV and its simulated twin differ
only in how rounds are produced: enumeration there, random shoes here.

Every round is dealt off a full, freshly shuffled shoe (a partial Fisher-Yates draw of the
cards the round uses), which is what the exact EV describes. Work is cut into fixed chunks
seeded from ``numpy.random.SeedSequence`` (:mod:`gamecore.parallel`); each chunk tallies
integers (a histogram of the round's net result in half units, and the player Naturals
paid), so the result depends on the seed and the number of rounds only.
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from gamecore.blackjack.backward import may_double
from gamecore.blackjack.chart import StrategyChart, chart_tables, read_strategy_chart, up_label
from gamecore.blackjack.dealt import simulate_dealer_hands, simulate_rounds
from gamecore.blackjack.engine import Engine
from gamecore.blackjack.round import optimal_play
from gamecore.blackjack.round_tables import (
    RoundInputs,
    RoundOutputs,
    SimPolicy,
    Tallies,
    fresh_dealing,
    new_counter_tallies,
    new_scratch,
    new_tallies,
)
from gamecore.blackjack.rules import (
    ACTIONS,
    RANKS,
    SPLIT_CDP,
    SURRENDER,
    SURRENDER_NONE,
    UP_CARD_ORDER,
    RuleCodes,
    StandardBlackjackRules,
    check_rules,
    hand_total,
    rule_codes,
    shoe_composition,
)
from gamecore.errors import GamecoreError, shown
from gamecore.numeric import real_number
from gamecore.parallel import (
    make_chunks,
    run_chunks,
    sum_tallies,
    validate_seed,
    validate_trials,
)

#: Rounds per chunk (fixed: results never depend on how many threads share the work).
CHUNK_ROUNDS = 1 << 19


#: The strategy name that asks :func:`simulate` for optimal composition-dependent play.
OPTIMAL = "optimal"


def chart_policy(chart: StrategyChart, rules) -> SimPolicy:
    """A chart's decision tables for the round kernel; its root decisions (early surrender,
    split) read from the same chart tables the hands are played by.

    Parameters
    ----------
    chart : StrategyChart
        The chart played.
    rules : StandardBlackjackRules
        The rule set, resolved (its ``auto`` values fixed).

    Returns
    -------
    SimPolicy
        Chart play (``node_play`` False): ``early_surrender[a, b, up]`` and
        ``root_split[a, b, up]`` (bool, 10 x 10 x 10, by the first two cards' and the up
        card's rank indices), the resolved ``chart`` and ``pair_play`` tables
        (:func:`gamecore.blackjack.chart_tables`) and ``pair_follows_row[pair, up]`` (the
        pair row says P); the node tables are unused one-row stand-ins.
    """
    t = chart_tables(chart, rules)
    codes = rule_codes(rules)
    root_surrender = codes.surrender != SURRENDER_NONE
    early = np.zeros((10, 10, 10), dtype=np.bool_)
    root_split = np.zeros((10, 10, 10), dtype=np.bool_)
    for a in range(10):
        for b in range(10):
            counts = [(a == r) + (b == r) for r in range(10)]
            total, soft = hand_total(counts)
            cd = 1 if may_double(a + b + 2, soft, 2, False, codes) else 0
            for up in range(10):
                if a == b:
                    early[a, b, up] = (
                        t.pair_play[a, up, cd, 1] == SURRENDER and not t.split[a, up, 1]
                    )
                    root_split[a, b, up] = t.split[a, up, int(root_surrender)]
                else:
                    early[a, b, up] = t.chart[1 if soft else 0, total, up, cd, 1] == SURRENDER
    none = np.zeros((1, 10), dtype=np.int64)
    return SimPolicy(
        node_play=False,
        early_surrender=early,
        root_split=root_split,
        chart=t.chart,
        pair_play=t.pair_play,
        pair_follows_row=np.array(
            [
                [chart.cells.get((f"pair {RANKS[p]}", up_label(u))) == "P" for u in range(10)]
                for p in range(10)
            ],
            dtype=np.bool_,
        ),
        child=none,
        empty=0,
        unsplit_action=none,
        split_action=np.zeros((10, 1, 10), dtype=np.int64),
    )


def _optimal_policy(rules) -> SimPolicy:
    """Optimal composition-dependent play as the exact engine decides it: the first two
    cards' best option (the round model's choice: split and early surrender included), the
    best action of every unsplit hand of more cards, split hands playing the choice of the
    split context with one more pair card out (CDZ-: the unsplit choice; CDP1: the best
    there).

    CDP's split hands choose by the number of pair cards out once every resplit is known,
    which a round dealt in the real order does not know before the last split hand: it is
    simulated only where no resplit can happen (there it is CDP1)."""
    engine = Engine(rules)
    codes = engine.codes
    if codes.split_strategy == SPLIT_CDP and max(codes.max_hands, codes.max_ace_hands) > 2:
        raise GamecoreError(
            "split_strategy=cdp cannot be simulated with resplits (max_split_hands > 2): its "
            "split hands choose by how many pair cards the resplits take, which the real "
            "dealing order reveals only at the last hand; simulate cdz or cdp1"
        )
    m = len(engine.nodes.counts)
    split_action = np.full((10, m, 10), -1, dtype=np.int64)

    def keep_actions(key, pair_solved):  # a split hand plays its context of no extra pair
        if key[1] == 0:
            split_action[key[0]] = pair_solved.action

    solved, split = engine.solve_optimal(each_solve=keep_actions)
    early = np.zeros((10, 10, 10), dtype=np.bool_)
    root_split = np.zeros((10, 10, 10), dtype=np.bool_)
    unsplit_action = solved.action.copy()
    for up in range(10):
        for opening in engine.caches.openings(up):
            choice = optimal_play(opening, solved.ev, split)
            a, b = opening.first, opening.second
            early[a, b, up] = early[b, a, up] = choice.action == "R"
            root_split[a, b, up] = root_split[b, a, up] = choice.action == "P"
            # A two-card node is met only as the first two cards: play the root's choice.
            unsplit_action[opening.node, up] = ACTIONS.index(choice.action)
    none = np.zeros((10, 10, 2, 2), dtype=np.int64)
    return SimPolicy(
        node_play=True,
        early_surrender=early,
        root_split=root_split,
        chart=np.zeros((2, 32, 10, 2, 2), dtype=np.int64),  # no chart: unused by the kernel
        pair_play=none,
        pair_follows_row=np.zeros((10, 10), dtype=np.bool_),
        child=engine.nodes.child,
        empty=engine.node_index[(0,) * 10],
        unsplit_action=unsplit_action,
        split_action=split_action,
    )


def strategy_policy(rules, strategy) -> tuple[StrategyChart | None, SimPolicy]:
    """The chart a strategy names and the round kernel's decision tables for it.

    Parameters
    ----------
    rules : StandardBlackjackRules
        The rule set, resolved (its ``auto`` values fixed).
    strategy : StrategyChart, str or pathlib.Path
        A chart, the path of a chart CSV, or ``"optimal"`` (optimal composition-dependent
        play, as the exact engine decides it).

    Returns
    -------
    tuple
        The chart (None for optimal play) and its :class:`SimPolicy`.
    """
    if isinstance(strategy, str) and strategy == OPTIMAL:
        return None, _optimal_policy(rules)
    if not isinstance(strategy, (StrategyChart, str, Path)):
        raise GamecoreError(
            f"chart must be a StrategyChart, a chart CSV path or {shown(OPTIMAL)}, got "
            f"{shown(strategy)}"
        )
    chart = strategy if isinstance(strategy, StrategyChart) else read_strategy_chart(strategy)
    return chart, chart_policy(chart, rules)


@dataclasses.dataclass(frozen=True)
class _Job:
    shoe: np.ndarray
    policy: SimPolicy
    codes: RuleCodes
    probe_rate: float = 0.0


def _run_chunk(job_and_chunk) -> Tallies:
    job, chunk = job_and_chunk
    tallies = new_tallies()
    inputs = RoundInputs(
        job.codes, job.policy, job.probe_rate, fresh_dealing(1, job.codes.natural_pays)
    )
    outputs = RoundOutputs(tallies, new_counter_tallies(), new_scratch())
    simulate_rounds(chunk.generator(), job.shoe, chunk.size, inputs, outputs)
    return tallies


@dataclasses.dataclass(frozen=True)
class BlackjackSimulation:
    """Simulated rounds of a strategy: histograms of net results and the Naturals paid.

    Attributes
    ----------
    chart
        The chart played, or None for optimal composition-dependent play.
    up_histogram
        int64 (10, 33): rounds by up card (A, 2..10) and net result in half units, -16..16
        (Naturals paid excluded).
    up_naturals
        int64 (10,): rounds won with a player Natural (paid ``natural_pays``), by up card.
    split_histogram, resplit_histogram
        Rounds by net result in which the player split (two or more hands), and resplit
        (three or more).
    cells
        int64 (3, 38, 10), playing a chart: for each chart cell (rows hard 4..21, soft
        12..21, pair A..10; up cards A, 2..10) the sum and the sum of squares of the results
        (half units) of the hands that decided in it, and how many did.
    """

    rules: StandardBlackjackRules
    chart: StrategyChart | None
    rounds: int
    seed: int
    up_histogram: np.ndarray
    up_naturals: np.ndarray
    split_histogram: np.ndarray
    resplit_histogram: np.ndarray
    cells: np.ndarray
    probe_rate: float = 0.0
    probe_sums: np.ndarray | None = None
    probe_den: np.ndarray | None = None

    @property
    def strategy(self) -> str:
        """The strategy's name: the chart's, or ``"optimal"``."""
        return OPTIMAL if self.chart is None else self.chart.name

    @property
    def histogram(self) -> np.ndarray:
        """Rounds by net result in half units, every up card (Naturals paid excluded)."""
        return self.up_histogram.sum(axis=0)

    @property
    def naturals(self) -> int:
        return int(self.up_naturals.sum())

    def _moments(self, histogram, naturals, rounds) -> dict[str, float]:
        pays = rule_codes(self.rules).natural_pays
        units = np.arange(-16, 17) / 2
        total = float(np.dot(histogram, units)) + pays * naturals
        squares = float(np.dot(histogram, units**2)) + pays**2 * naturals
        mean = total / rounds if rounds else float("nan")
        variance = (squares - rounds * mean**2) / max(rounds - 1, 1) if rounds else 0.0
        return {
            "rounds": rounds,
            "sum": total,
            "sum_of_squares": squares,
            "mean": mean,
            "se": math.sqrt(max(variance, 0.0) / rounds) if rounds else float("nan"),
        }

    def player(self) -> dict[str, float]:
        """The player's net result per round, in units of the initial wager.

        Returns
        -------
        dict
            ``rounds``, ``sum``, ``sum_of_squares``, ``mean`` (the simulated EV) and ``se``
            (its standard error), Naturals paid ``natural_pays`` included.
        """
        return self._moments(self.histogram, self.naturals, self.rounds)

    def by_up_card(self) -> pd.DataFrame:
        """The simulated EV given each up card.

        Returns
        -------
        pandas.DataFrame
            One row per up card (2..10, then A): ``Up card``, ``Rounds``, ``Mean`` (net
            result per round in units of the initial wager) and ``SE``.
        """
        rows = []
        for up in UP_CARD_ORDER:
            count = int(self.up_histogram[up].sum() + self.up_naturals[up])
            m = self._moments(self.up_histogram[up], int(self.up_naturals[up]), count)
            rows.append(
                {
                    "Up card": up_label(up),
                    "Rounds": count,
                    "Mean": m["mean"],
                    "SE": m["se"],
                }
            )
        return pd.DataFrame(rows)

    def outcomes(self) -> dict[str, int]:
        """Rounds by the sign of the player's net result.

        Returns
        -------
        dict
            ``win`` (a positive net result, Naturals paid included), ``push``, ``lose`` and
            ``natural_paid``: counts of rounds.
        """
        h = self.histogram
        return {
            "win": int(h[17:].sum()) + self.naturals,
            "push": int(h[16]),
            "lose": int(h[:16].sum()),
            "natural_paid": self.naturals,
        }

    def result_distribution(self) -> pd.DataFrame:
        """The distribution of the net result per round.

        Returns
        -------
        pandas.DataFrame
            One row per net result reached (units of the initial wager, ascending; rounds
            won with a Natural are the row of ``natural_pays``): ``Net result``, ``Rounds``,
            ``Frequency`` and its ``SE``.
        """
        pays = rule_codes(self.rules).natural_pays
        rows = [(u / 2, int(c)) for u, c in zip(range(-16, 17), self.histogram, strict=True) if c]
        rows.append((pays, int(self.naturals)))
        frame = pd.DataFrame(rows, columns=["Net result", "Rounds"])
        frame["Net result"] = frame["Net result"].astype(float)
        frame = frame.groupby("Net result", as_index=False)["Rounds"].sum()
        frame["Frequency"] = frame["Rounds"] / self.rounds
        frame["SE"] = np.sqrt(frame["Frequency"] * (1 - frame["Frequency"]) / self.rounds)
        return frame

    def to_dict(self) -> dict[str, Any]:
        """The simulation as the command line's JSON shows it.

        Returns
        -------
        dict
            The game, rounds, seed, dealing, strategy, the player's moments
            (:meth:`player`), outcomes, split and resplit rounds, the net result histogram
            (half units as keys, rounds as values) and the rules.
        """
        return {
            "game": self.rules.game,
            "rounds": self.rounds,
            "seed": self.seed,
            "dealing": {"mode": "fresh"},
            "strategy": self.strategy,
            "bets": {"player": self.player()},
            "outcomes": {k: {"count": v} for k, v in self.outcomes().items()},
            "split_rounds": int(self.split_histogram.sum()),
            "resplit_rounds": int(self.resplit_histogram.sum()),
            "net_histogram": {
                f"{u / 2:g}": int(c)
                for u, c in zip(range(-16, 17), self.histogram, strict=True)
                if c
            },
            "rules": self.rules.to_dict(),
        }


def simulate(
    rules: StandardBlackjackRules,
    chart: StrategyChart | str | Path,
    rounds: int,
    seed: int,
    threads: int | None = None,
    dask: str | None = None,
    progress: bool | None = None,
    probe_rate: float = 0.0,
) -> BlackjackSimulation:
    """Play ``rounds`` rounds by ``chart``, each off a full freshly shuffled shoe.

    ``chart`` is a :class:`~gamecore.blackjack.StrategyChart`, the path of a chart CSV, or
    ``"optimal"``: optimal composition-dependent play, every decision taken from the exact
    engine's choice for the hand's cards (split hands by the rules' ``split_strategy``; CDP
    only without resplits), the twin of ``player_ev``.
    With ``probe_rate`` in (0, 1) a chart's decisions are probed with other letters
    (:func:`probe_cross_check`); such a run no longer plays the chart alone.

    Parameters
    ----------
    rules : StandardBlackjackRules
        Either game's rule set.
    chart : StrategyChart, str or pathlib.Path
        The strategy: a chart, a chart CSV path, or ``"optimal"``.
    rounds : int
        Rounds to deal, at least one.
    seed : int
        The seed of the chunks' generators (``numpy.random.SeedSequence``).
    threads : int, optional
        Threads sharing the chunks (default: every core); the result does not depend on it.
    dask : str, optional
        ``"local"`` or a Dask scheduler's address (``tcp://host:8786``) to run the chunks
        on instead of threads here.
    progress : bool, optional
        Show a progress bar (default: for runs of more than a few chunks).
    probe_rate : float
        The chance a hand's decision is probed, in [0, 1); 0 plays the chart alone.

    Returns
    -------
    BlackjackSimulation
        The rounds' tallies: net results by up card, Naturals, splits, the chart cells'
        result sums and the probes' sums.

    Examples
    --------
    >>> from gamecore import blackjack
    >>> rules = blackjack.C21BlackjackRules(decks=6)
    >>> chart = blackjack.exact(rules).chart
    >>> simulate(rules, chart, 10_000, seed=1).rounds
    10000
    >>> simulate(rules, "optimal", 10_000, seed=1).strategy
    'optimal'
    """
    rules = check_rules(rules)
    rounds = validate_trials(rounds, "rounds")
    seed = validate_seed(seed)
    probe_rate = float(real_number("probe_rate", probe_rate))
    if not 0.0 <= probe_rate < 1.0:
        raise GamecoreError(f"probe_rate must be in [0, 1), got {shown(probe_rate)}")
    r = rules.resolved()
    if probe_rate and isinstance(chart, str) and chart == OPTIMAL:
        raise GamecoreError("probe_rate needs a chart, not optimal play")
    chart, policy = strategy_policy(r, chart)
    shoe = np.repeat(np.arange(10, dtype=np.int64), shoe_composition(r.decks))
    job = _Job(shoe, policy, rule_codes(r), probe_rate)
    chunks = make_chunks(rounds, CHUNK_ROUNDS, seed)
    results = run_chunks(
        _run_chunk, job, chunks, threads=threads, dask=dask, progress=progress,
        description=f"{rules.game} rounds",
    )  # fmt: skip
    total = _summed(results)
    return BlackjackSimulation(
        rules, chart, rounds, seed, total.histogram, total.naturals, total.split_histogram,
        total.resplit_histogram, total.cells, probe_rate, total.probe_sums, total.probe_den,
    )  # fmt: skip


def _summed(results) -> Tallies:
    """The chunks' tallies added in chunk order (sums never reordered); refused if a round
    asked for an action the rules forbid."""
    total = new_tallies()
    for tallies in results:
        for name, value in zip(total._fields, tallies, strict=True):
            getattr(total, name)[...] += value
    if total.bad[0]:
        raise GamecoreError("the strategy asked for an action the rules forbid")
    return total


# ---------------------------------------------------------------------------------------
# Dealt dealer hands: the twin of the dealer's distribution and of insurance
# ---------------------------------------------------------------------------------------


def _run_dealer_chunk(job_and_chunk):
    (shoe, h17), chunk = job_and_chunk
    return simulate_dealer_hands(chunk.generator(), shoe, chunk.size, h17)


@dataclasses.dataclass(frozen=True)
class DealerSimulation:
    """Dealt dealer hands: ``counts[up, outcome]`` (outcomes as ``DEALER_OUTCOMES``)."""

    rules: StandardBlackjackRules
    rounds: int
    seed: int
    counts: np.ndarray


def simulate_dealer(
    rules: StandardBlackjackRules,
    rounds: int,
    seed: int,
    threads: int | None = None,
    progress: bool | None = None,
) -> DealerSimulation:
    """Deal ``rounds`` dealer hands (up card, hole card, hits by the rules), each off a full
    freshly shuffled shoe: the twin of :func:`gamecore.blackjack.dealer_final_distribution`
    and of the insurance EV.

    Parameters
    ----------
    rules : StandardBlackjackRules
        Either game's rule set (its decks and whether the dealer hits soft 17).
    rounds : int
        Dealer hands to deal, at least one.
    seed : int
        The seed of the chunks' generators (``numpy.random.SeedSequence``).
    threads : int, optional
        Threads sharing the chunks (default: every core); the result does not depend on it.
    progress : bool, optional
        Show a progress bar (default: for runs of more than a few chunks).

    Returns
    -------
    DealerSimulation
        The hands by up card and final outcome (``counts``, int64 (10, outcomes), outcomes
        as ``DEALER_OUTCOMES``).
    """
    rules = check_rules(rules)
    rounds = validate_trials(rounds, "rounds")
    seed = validate_seed(seed)
    r = rules.resolved()
    shoe = np.repeat(np.arange(10, dtype=np.int64), shoe_composition(r.decks))
    job = (shoe, r.dealer_hits_soft_17)
    results = run_chunks(
        _run_dealer_chunk,
        job,
        make_chunks(rounds, CHUNK_ROUNDS, seed),
        threads=threads,
        progress=progress,
        description="dealer hands",
    )
    return DealerSimulation(rules, rounds, seed, sum_tallies(results))
