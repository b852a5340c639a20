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

from gamecore import blackjack
from gamecore._jit import kernel
from gamecore.baccarat_sim import _below
from gamecore.errors import GamecoreError
from gamecore.parallel import make_chunks, run_chunks, validate_count, validate_seed

#: Rounds per chunk (fixed: results never depend on how many threads share the work).
CHUNK_ROUNDS = 1 << 19
#: Net results in half units range over -16..16 (four doubled hands); index = units + 16.
HALF_UNITS = 33


@kernel
def _card(rng, cards, index):
    """Swap a uniformly chosen undealt card into ``index`` and return it (fresh shoe)."""
    j = index + _below(rng, cards.size - index)
    cards[index], cards[j] = cards[j], cards[index]
    return cards[index]


@kernel
def _total(hard, aces):
    """(total, soft) of a hand from its hard total and whether it holds an ace."""
    if aces and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


@kernel
def _dealer(rng, cards, pos, up, hole, h17):
    """Play the dealer's hand; returns (final total, 99 for a Natural; position)."""
    hard = up + 1 + hole + 1
    aces = up == 0 or hole == 0
    total, soft = _total(hard, aces)
    if total == 21:
        return 99, pos
    while total < 17 or (h17 and total == 17 and soft):
        c = _card(rng, cards, pos)
        pos += 1
        hard += c + 1
        aces = aces or c == 0
        total, soft = _total(hard, aces)
    return total, pos


@kernel
def _play_round(
    rng,
    cards,
    chart,
    pair_play,
    split_table,
    h17,
    peek,
    forced,
    das,
    double_kind,
    surrender_kind,
    max_hands,
    max_ace_hands,
    one_card_aces,
    bust_push,
):
    """One round off a full shoe. Returns (net result in half units, player Natural paid,
    hands played: 1, or 2..4 after splits)."""
    p1 = _card(rng, cards, 0)
    p2 = _card(rng, cards, 1)
    up = _card(rng, cards, 2)
    hole = _card(rng, cards, 3)
    pos = 4
    player_natural = (p1 == 0 and p2 == 9) or (p1 == 9 and p2 == 0)
    dealer_natural = (up == 0 and hole == 9) or (up == 9 and hole == 0)
    high_up = up == 0 or up == 9
    early = surrender_kind == 2 or (surrender_kind == 3 and high_up)
    root_surrender = early or surrender_kind == 1 or (surrender_kind == 3 and not high_up)
    pair = p1 == p2
    hard0 = p1 + p2 + 2
    total0, soft0 = _total(hard0, p1 == 0 or p2 == 0)
    cd0 = _double_ok(hard0, soft0, double_kind)
    # Early surrender, before the peek.
    if early and not player_natural:
        if pair:
            wants = pair_play[p1, up, 1 if cd0 else 0, 1] == 3 and not split_table[p1, up, 1]
        else:
            wants = chart[1 if soft0 else 0, total0, up, 1 if cd0 else 0, 1] == 3
        if wants:
            return -1, 0, 1
    if dealer_natural and (peek or player_natural):
        return (0, 0, 1) if player_natural else (-2, 0, 1)
    if player_natural:
        return 0, 1, 1
    # Hands: hard total, holds an ace, cards, bet (1 or 2), state 0 live / 1 done / 2 surr.
    hard = np.zeros(4, dtype=np.int64)
    aces = np.zeros(4, dtype=np.bool_)
    ncards = np.zeros(4, dtype=np.int64)
    bet = np.ones(4, dtype=np.int64)
    state = np.zeros(4, dtype=np.int64)
    first = np.zeros(4, dtype=np.int64)
    hands = 1
    split = False
    limit = max_ace_hands if p1 == 0 else max_hands
    if pair and limit >= 2 and split_table[p1, up, 1 if root_surrender else 0]:
        split = True
        hands = 2
        for h in range(2):
            hard[h] = p1 + 1
            aces[h] = p1 == 0
            ncards[h] = 1
            first[h] = p1
    else:
        hard[0] = hard0
        aces[0] = p1 == 0 or p2 == 0
        ncards[0] = 2
    h = 0
    while h < hands:
        if ncards[h] == 1:  # a split hand takes its second card
            c = _card(rng, cards, pos)
            pos += 1
            if c == first[h] and hands < limit:
                hard[hands] = c + 1
                aces[hands] = c == 0
                ncards[hands] = 1
                first[hands] = c
                hands += 1
                continue
            hard[h] += c + 1
            aces[h] = aces[h] or c == 0
            ncards[h] = 2
        if split and first[h] == 0 and one_card_aces:
            state[h] = 1
            h += 1
            continue
        while True:
            total, soft = _total(hard[h], aces[h])
            if total > 21:
                state[h] = 1
                break
            forced_hit = forced and ((not soft and total <= 11) or (soft and total <= 17))
            forced_stand = forced and total >= 20
            cd = ncards[h] == 2 and (not split or das) and _double_ok(hard[h], soft, double_kind)
            cs = (not split) and (
                (surrender_kind == 1 and ncards[h] == 2) or (surrender_kind == 3 and not high_up)
            )
            if (not split) and ncards[h] == 2 and pair:
                a = pair_play[p1, up, 1 if cd else 0, 1 if cs else 0]
            else:
                a = chart[1 if soft else 0, total, up, 1 if cd else 0, 1 if cs else 0]
            if (a == 0 and forced_hit) or (a == 1 and forced_stand) or a < 0:
                return 999, 0, hands  # the chart was validated; cannot happen
            if a == 0:
                state[h] = 1
                break
            if a == 3:
                state[h] = 2
                break
            c = _card(rng, cards, pos)
            pos += 1
            hard[h] += c + 1
            aces[h] = aces[h] or c == 0
            ncards[h] += 1
            if a == 2:
                bet[h] = 2
                state[h] = 1
                break
        h += 1
    dealer, pos = _dealer(rng, cards, pos, up, hole, h17)
    net = 0
    for h in range(hands):
        if state[h] == 2:
            net -= 1
            continue
        total, _soft = _total(hard[h], aces[h])
        if dealer == 99:  # no peek: the dealer's Natural takes every wager
            r = -1
        elif total > 21:
            r = -1
            if (
                bust_push
                and dealer > 21
                and ncards[h] == 3
                and 23 <= total <= 25
                and total < dealer
            ):
                r = 0
        elif dealer > 21 or total > dealer:
            r = 1
        elif total < dealer:
            r = -1
        else:
            r = 0
        net += 2 * r * bet[h]
    return net, 0, hands


@kernel
def _double_ok(hard, soft, kind):
    if kind == 0:
        return True
    if kind == 1:
        return (not soft) and 9 <= hard <= 11
    return (not soft) and 10 <= hard <= 11


@kernel
def _simulate(
    rng,
    shoe,
    rounds,
    chart,
    pair_play,
    split_table,
    h17,
    peek,
    forced,
    das,
    double_kind,
    surrender_kind,
    max_hands,
    max_ace_hands,
    one_card_aces,
    bust_push,
):
    histogram = np.zeros(HALF_UNITS, dtype=np.int64)
    split_histogram = np.zeros(HALF_UNITS, dtype=np.int64)
    resplit_histogram = np.zeros(HALF_UNITS, dtype=np.int64)
    naturals = 0
    bad = 0
    cards = shoe.copy()
    for _ in range(rounds):
        net, natural, hands = _play_round(
            rng,
            cards,
            chart,
            pair_play,
            split_table,
            h17,
            peek,
            forced,
            das,
            double_kind,
            surrender_kind,
            max_hands,
            max_ace_hands,
            one_card_aces,
            bust_push,
        )
        if net == 999:
            bad += 1
        elif natural:
            naturals += 1
        else:
            histogram[net + 16] += 1
            if hands >= 2:
                split_histogram[net + 16] += 1
            if hands >= 3:
                resplit_histogram[net + 16] += 1
    return histogram, split_histogram, resplit_histogram, naturals, bad


@dataclasses.dataclass(frozen=True)
class _Job:
    shoe: np.ndarray
    tables: Any
    flags: tuple


def _run_chunk(job_and_chunk):
    job, chunk = job_and_chunk
    t = job.tables
    return _simulate(
        chunk.generator(), job.shoe, chunk.size, t.chart, t.pair_play, t.split, *job.flags
    )


@dataclasses.dataclass(frozen=True)
class BlackjackSimulation:
    """Simulated rounds of a chart: a histogram of net results and the Naturals paid.

    Attributes
    ----------
    histogram
        int64 (33,): rounds by net result in half units, -16..16 (Naturals paid excluded).
    split_histogram, resplit_histogram
        The same for the rounds in which the player split (two or more hands), and resplit
        (three or more): parts of ``histogram``.
    naturals
        Rounds won with a player Natural (paid ``natural_pays``).
    """

    rules: blackjack.StandardBlackjackRules
    chart: blackjack.StrategyChart
    rounds: int
    seed: int
    histogram: np.ndarray
    naturals: int
    split_histogram: np.ndarray
    resplit_histogram: np.ndarray

    def player(self) -> dict[str, float]:
        pays = float(self.rules.resolved().natural_pays)
        units = np.arange(-16, 17) / 2
        total = float(np.dot(self.histogram, units)) + pays * self.naturals
        squares = float(np.dot(self.histogram, units**2)) + pays**2 * self.naturals
        mean = total / self.rounds
        variance = (squares - self.rounds * mean**2) / max(self.rounds - 1, 1)
        return {
            "rounds": self.rounds,
            "sum": total,
            "sum_of_squares": squares,
            "mean": mean,
            "se": math.sqrt(max(variance, 0.0) / self.rounds),
        }

    def outcomes(self) -> dict[str, int]:
        h = self.histogram
        return {
            "win": int(h[17:].sum()) + self.naturals,
            "push": int(h[16]),
            "lose": int(h[:16].sum()),
            "natural_paid": self.naturals,
        }

    def result_distribution(self) -> pd.DataFrame:
        """Net result per round (units of the initial wager) | rounds | frequency | SE.

        Rounds won with a Natural are their own row, paid ``natural_pays``.
        """
        pays = float(self.rules.resolved().natural_pays)
        rows = [(u / 2, int(c)) for u, c in zip(range(-16, 17), self.histogram, strict=True) if c]
        rows.append((pays, int(self.naturals)))
        frame = pd.DataFrame(rows, columns=["Net result", "Rounds"])
        frame["Net result"] = frame["Net result"].astype(float)
        frame = frame.groupby("Net result", as_index=False)["Rounds"].sum()
        frame["Frequency"] = frame["Rounds"] / self.rounds
        frame["SE"] = np.sqrt(frame["Frequency"] * (1 - frame["Frequency"]) / self.rounds)
        return frame

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.rules.game,
            "rounds": self.rounds,
            "seed": self.seed,
            "dealing": {"mode": "fresh"},
            "strategy": self.chart.name,
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
    rules: blackjack.StandardBlackjackRules,
    chart: blackjack.StrategyChart | str | Path,
    rounds: int,
    seed: int,
    threads: int | None = None,
    dask: str | None = None,
    progress: bool | None = None,
) -> BlackjackSimulation:
    """Play ``rounds`` rounds by ``chart``, each off a full freshly shuffled shoe.

    Examples
    --------
    >>> from gamecore import blackjack
    >>> rules = blackjack.C21BlackjackRules(decks=6)
    >>> chart = blackjack.exact(rules).chart
    >>> simulate(rules, chart, 10_000, seed=1).rounds
    10000
    """
    rules = blackjack._check_rules(rules)
    if not isinstance(chart, blackjack.StrategyChart):
        chart = blackjack.read_strategy_chart(chart)
    rounds = validate_count(rounds, "rounds")
    seed = validate_seed(seed)
    r = rules.resolved()
    tables = blackjack.chart_tables(chart, r)
    shoe = np.repeat(np.arange(10, dtype=np.int64), blackjack.shoe_composition(r.decks))
    flags = (
        r.dealer_hits_soft_17,
        r.peek,
        r.player_forced == "c21",
        r.double_after_split,
        blackjack.DOUBLE_KINDS.index(r.double_on),
        blackjack.SURRENDER_KINDS.index(r.surrender),
        r.max_split_hands if r.max_split_hands >= 2 else 1,
        (r.max_split_hands if r.resplit_aces else min(2, r.max_split_hands))
        if r.max_split_hands >= 2
        else 1,
        r.split_aces_one_card,
        r.bust_push == "three_card_23_25",
    )
    job = _Job(shoe, tables, flags)
    chunks = make_chunks(rounds, CHUNK_ROUNDS, seed)
    results = run_chunks(
        _run_chunk,
        [(job, c) for c in chunks],
        threads=threads,
        dask=dask,
        progress=progress,
        description=f"{rules.game} rounds",
    )
    histogram = np.zeros(HALF_UNITS, dtype=np.int64)
    split_histogram = np.zeros(HALF_UNITS, dtype=np.int64)
    resplit_histogram = np.zeros(HALF_UNITS, dtype=np.int64)
    naturals = 0
    for h, hs, hr, n, bad in results:
        if bad:
            raise GamecoreError("the chart asked for an action the rules forbid")
        histogram += h
        split_histogram += hs
        resplit_histogram += hr
        naturals += n
    return BlackjackSimulation(
        rules, chart, rounds, seed, histogram, naturals, split_histogram, resplit_histogram
    )


def cross_check(
    exact: blackjack.BlackjackAnalysis, simulation: BlackjackSimulation
) -> pd.DataFrame:
    """Bet | exact EV | simulated EV | standard error | z for the simulated chart.

    ``exact`` must hold that chart's EV: the analysis's chart, or the ``strategy``
    it was given.
    """
    if simulation.chart.cells == exact.chart.cells:
        ev = exact.chart_ev
    elif exact.strategy is not None and simulation.chart.cells == exact.strategy.cells:
        ev = exact.strategy_ev
    else:
        raise GamecoreError("the simulated chart is neither the analysis's chart nor its strategy")
    sim = simulation.player()
    return pd.DataFrame(
        [
            {
                "Bet": f"Player, {simulation.chart.name}",
                "Exact EV": ev,
                "Simulated EV": sim["mean"],
                "Standard error": sim["se"],
                "z": (sim["mean"] - ev) / sim["se"] if sim["se"] > 0 else 0.0,
                "Rounds": simulation.rounds,
            }
        ]
    )
