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

from gamecore._jit import kernel
from gamecore.blackjack.analysis import (
    BlackjackAnalysis,
    default_variants,
    exact,
    hand_table,
    rule_costs,
)
from gamecore.blackjack.chart import (
    StrategyChart,
    chart_tables,
    pretty_cell,
    read_strategy_chart,
    up_label,
)
from gamecore.blackjack.dealer import dealer_final_distribution
from gamecore.blackjack.engine import POLICY_REFERENCE, Engine
from gamecore.blackjack.rules import (
    ACE,
    DEALER_OUTCOMES,
    DOUBLE_KINDS,
    N_OUTCOMES,
    NATURAL,
    RANKS,
    SURRENDER_KINDS,
    TEN,
    UP_CARD_ORDER,
    StandardBlackjackRules,
    check_rules,
    shoe_composition,
)
from gamecore.dealing import below, draw_card
from gamecore.errors import GamecoreError
from gamecore.parallel import (
    make_chunks,
    run_chunks,
    sum_tallies,
    validate_seed,
    validate_trials,
)
from gamecore.twins import z_score

#: Rounds per chunk (fixed: results never depend on how many threads share the work).
CHUNK_ROUNDS = 1 << 19
#: Net results in half units range over -16..16 (four doubled hands); index = units + 16.
HALF_UNITS = 33


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
        c = draw_card(rng, cards, pos, True)
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
    node_play,
    child,
    empty,
    node_action,
    split_action,
    root_action,
    pair_follows_row,
    cell_sum,
    cell_squares,
    cell_visits,
    probe_rate,
    round_x,
    round_y,
    probe_sums,
    probe_den,
    scratch,
    visit,
    probe_weight,
):
    """One round off a full shoe. Returns (net result in half units, player Natural paid,
    hands played: 1, or 2..4 after splits, the up card).

    Playing a chart, every decision adds the hand's result (half units) to its cell's
    tallies ``cell_*[row, up]`` (rows: hard 4..21, soft 12..21, then pair A..10, where a
    pair's first decision counts the whole round's result); a pair whose row says split, not
    split here, counts in its hard/soft row (``pair_follows_row``), as the exact engine's
    cell values do.

    With ``probe_rate`` > 0, each hard/soft decision of a hand not yet probed is, with that
    chance, replaced by one of the six letters H S Dh Ds Rh Rs drawn at random (the hand then
    follows the chart): ``probe_sums[row, up, letter]`` gathers (sum X, sum X^2, sum XY,
    probes) and
    ``probe_den[row, up]`` (sum Y, sum Y^2) over rounds, X being the probed hands' results
    and Y the decisions reached unprobed, each weighted by the inverse of its chance of being
    seen (:func:`probe_cross_check`). Probed rounds leave the chart, so a probing run's other
    tallies are not the chart's.

    Decisions come from the chart tables or, with ``node_play``, from tables by hand
    composition (optimal composition-dependent play): ``root_action[a, b, up]`` for the two
    first cards (split and early surrender included), ``node_action[node, up]`` for an
    unsplit hand of more cards, ``split_action[pair, node, up]`` for a split hand, the
    hand's node followed card by card through ``child`` from the empty hand ``empty``.
    Actions: 0 stand, 1 hit, 2 double, 3 surrender, 4 split."""
    p1 = draw_card(rng, cards, 0, True)
    p2 = draw_card(rng, cards, 1, True)
    up = draw_card(rng, cards, 2, True)
    hole = draw_card(rng, cards, 3, True)
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
        if node_play:
            wants = root_action[p1, p2, up] == 3
        elif pair:
            wants = pair_play[p1, up, 1 if cd0 else 0, 1] == 3 and not split_table[p1, up, 1]
        else:
            wants = chart[1 if soft0 else 0, total0, up, 1 if cd0 else 0, 1] == 3
        if wants:
            return -1, 0, 1, up
    if dealer_natural and (peek or player_natural):
        return (0, 0, 1, up) if player_natural else (-2, 0, 1, up)
    if player_natural:
        return 0, 1, 1, up
    # Hands: hard total, holds an ace, cards, bet (1 or 2), state 0 live / 1 done / 2 surr.
    # Per-hand state lives in the caller's scratch arrays (no allocation per round).
    scratch[:] = 0
    hard, ncards, bet, state, first = scratch[0], scratch[1], scratch[2], scratch[3], scratch[4]
    node, visits, unprobed, probe_row, probe_letter = (
        scratch[5],
        scratch[6],
        scratch[7],
        scratch[8],
        scratch[9],
    )
    aces, paired, probed = scratch[10], scratch[11], scratch[12]  # 0/1 flags
    bet[:] = 1
    probe_row[:] = -1
    # visit[h, :visits[h]]: the cell rows hand h decided in; probe_weight: set when probed.
    hands = 1
    split = False
    limit = max_ace_hands if p1 == 0 else max_hands
    if node_play:
        splits = root_action[p1, p2, up] == 4
    else:
        splits = split_table[p1, up, 1 if root_surrender else 0]
    if pair and limit >= 2 and splits:
        split = True
        hands = 2
        for h in range(2):
            hard[h] = p1 + 1
            aces[h] = p1 == 0
            ncards[h] = 1
            first[h] = p1
            node[h] = child[empty, p1] if node_play else 0
    else:
        hard[0] = hard0
        aces[0] = p1 == 0 or p2 == 0
        ncards[0] = 2
        paired[0] = pair
        node[0] = child[child[empty, p1], p2] if node_play else 0
    h = 0
    while h < hands:
        if ncards[h] == 1:  # a split hand takes its second card
            c = draw_card(rng, cards, pos, True)
            pos += 1
            if c == first[h] and hands < limit:
                hard[hands] = c + 1
                aces[hands] = c == 0
                ncards[hands] = 1
                first[hands] = c
                node[hands] = node[h]
                hands += 1
                continue
            hard[h] += c + 1
            aces[h] = 1 if (aces[h] != 0 or c == 0) else 0
            ncards[h] = 2
            paired[h] = c == first[h]
            if node_play:
                node[h] = child[node[h], c]
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
            row = -1  # the chart cell deciding here, if a hard/soft row
            if node_play:
                if split:
                    a = split_action[p1, node[h], up]
                elif ncards[h] == 2:
                    a = root_action[p1, p2, up]
                else:
                    a = node_action[node[h], up]
            elif ncards[h] == 2 and paired[h]:
                a = pair_play[p1, up, 1 if cd else 0, 1 if cs else 0]
                if pair_follows_row[p1, up]:
                    row = (total - 12 + 18) if soft else (total - 4)
            else:
                a = chart[1 if soft else 0, total, up, 1 if cd else 0, 1 if cs else 0]
                row = (total - 12 + 18) if soft else (total - 4)
            if row >= 0 and not probed[h]:
                if visits[h] < 24:
                    visit[h, visits[h]] = row
                    visits[h] += 1
                if probe_rate > 0.0:
                    seen = (1.0 - probe_rate) ** (-unprobed[h])
                    round_y[row] += seen
                    if rng.random() < probe_rate:
                        probed[h] = True
                        letter = below(rng, 6)
                        b = _letter_action(letter, cd, cs, forced_hit, forced_stand)
                        if b >= 0:
                            a = b
                            probe_row[h] = row
                            probe_letter[h] = letter
                            probe_weight[h] = 6.0 * seen / probe_rate
                    else:
                        unprobed[h] += 1
            bad = (a == 0 and forced_hit) or (a == 1 and forced_stand) or a < 0 or a > 3
            if bad or (a == 2 and not cd) or (a == 3 and not cs):
                return 999, 0, hands, up  # the tables were validated; cannot happen
            if a == 0:
                state[h] = 1
                break
            if a == 3:
                state[h] = 2
                break
            c = draw_card(rng, cards, pos, True)
            pos += 1
            hard[h] += c + 1
            aces[h] = 1 if (aces[h] != 0 or c == 0) else 0
            ncards[h] += 1
            if node_play:
                node[h] = child[node[h], c]
            if a == 2:
                bet[h] = 2
                state[h] = 1
                break
        h += 1
    dealer, pos = _dealer(rng, cards, pos, up, hole, h17)
    net = 0
    for h in range(hands):
        total, _soft = _total(hard[h], aces[h])
        if state[h] == 2:
            r = 0  # surrendered: half the wager, below
        elif dealer == 99:  # no peek: the dealer's Natural takes every wager
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
        result = -1 if state[h] == 2 else 2 * r * bet[h]
        net += result
        if probe_row[h] >= 0:
            round_x[probe_row[h], probe_letter[h]] += probe_weight[h] * result / 2.0
            probe_sums[probe_row[h], up, probe_letter[h], 3] += 1.0
        for k in range(visits[h]):
            cell_sum[visit[h, k], up] += result
            cell_squares[visit[h, k], up] += result * result
            cell_visits[visit[h, k], up] += 1
    if pair and not node_play:  # the pair row's decision: the whole round's result
        cell_sum[28 + p1, up] += net
        cell_squares[28 + p1, up] += net * net
        cell_visits[28 + p1, up] += 1
    if probe_rate > 0.0:
        for row in range(28):
            y = round_y[row]
            if y == 0.0:
                continue
            for letter in range(6):
                x = round_x[row, letter]
                probe_sums[row, up, letter, 0] += x
                probe_sums[row, up, letter, 1] += x * x
                probe_sums[row, up, letter, 2] += x * y
                round_x[row, letter] = 0.0
            probe_den[row, up, 0] += y
            probe_den[row, up, 1] += y * y
            round_y[row] = 0.0
    return net, 0, hands, up


@kernel
def _letter_action(letter, can_double, can_surrender, forced_hit, forced_stand):
    """The action of letter H S Dh Ds Rh Rs (0..5) at a hand, or -1 if the rules forbid it."""
    fallback_hit = letter == 0 or letter == 2 or letter == 4
    if letter in (2, 3) and can_double:
        return 2
    if letter in (4, 5) and can_surrender:
        return 3
    if fallback_hit:
        return -1 if forced_stand else 1
    return -1 if forced_hit else 0


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
    node_play,
    child,
    empty,
    node_action,
    split_action,
    root_action,
    pair_follows_row,
    probe_rate,
):
    histogram = np.zeros((10, HALF_UNITS), dtype=np.int64)  # by up card
    round_x = np.zeros((38, 6))
    scratch = np.zeros((13, 4), dtype=np.int64)
    visit = np.zeros((4, 24), dtype=np.int64)
    probe_weight = np.zeros(4)
    round_y = np.zeros(38)
    probe_sums = np.zeros((38, 10, 6, 4))
    probe_den = np.zeros((38, 10, 2))
    cell_sum = np.zeros((38, 10), dtype=np.int64)
    cell_squares = np.zeros((38, 10), dtype=np.int64)
    cell_visits = np.zeros((38, 10), dtype=np.int64)
    split_histogram = np.zeros(HALF_UNITS, dtype=np.int64)
    resplit_histogram = np.zeros(HALF_UNITS, dtype=np.int64)
    naturals = np.zeros(10, dtype=np.int64)
    bad = 0
    cards = shoe.copy()
    for _ in range(rounds):
        net, natural, hands, up = _play_round(
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
            node_play,
            child,
            empty,
            node_action,
            split_action,
            root_action,
            pair_follows_row,
            cell_sum,
            cell_squares,
            cell_visits,
            probe_rate,
            round_x,
            round_y,
            probe_sums,
            probe_den,
            scratch,
            visit,
            probe_weight,
        )
        if net == 999:
            bad += 1
        elif natural:
            naturals[up] += 1
        else:
            histogram[up, net + 16] += 1
            if hands >= 2:
                split_histogram[net + 16] += 1
            if hands >= 3:
                resplit_histogram[net + 16] += 1
    cells = np.stack((cell_sum, cell_squares, cell_visits))
    return (
        histogram,
        split_histogram,
        resplit_histogram,
        naturals,
        bad,
        cells,
        probe_sums,
        probe_den,
    )


#: The strategy name that asks :func:`simulate` for optimal composition-dependent play.
OPTIMAL = "optimal"
_ACTION_CODES = {"S": 0, "H": 1, "D": 2, "R": 3, "P": 4}


@dataclasses.dataclass(frozen=True)
class _Policy:
    """Decision tables for the round kernel: a chart's, or optimal play's by composition."""

    chart: np.ndarray
    pair_play: np.ndarray
    split: np.ndarray
    node_play: bool
    child: np.ndarray
    empty: int
    node_action: np.ndarray
    split_action: np.ndarray
    root_action: np.ndarray
    pair_follows_row: np.ndarray  # (10, 10): the pair row says P (unsplit: its hard/soft row)

    def arrays(self) -> tuple:
        return (
            self.chart,
            self.pair_play,
            self.split,
            self.node_play,
            self.child,
            self.empty,
            self.node_action,
            self.split_action,
            self.root_action,
            self.pair_follows_row,
        )


def _chart_policy(chart: StrategyChart, rules) -> _Policy:
    t = chart_tables(chart, rules)
    none = np.zeros((1, 10), dtype=np.int64)
    return _Policy(
        t.chart,
        t.pair_play,
        t.split,
        False,
        none,
        0,
        none,
        np.zeros((10, 1, 10), dtype=np.int64),
        np.zeros((10, 10, 10), dtype=np.int64),
        np.array(
            [
                [chart.cells.get((f"pair {RANKS[p]}", u)) == "P" for u in _UP_LABELS]
                for p in range(10)
            ],
            dtype=np.bool_,
        ),
    )


_UP_LABELS = [up_label(u) for u in range(10)]


def _optimal_policy(rules) -> _Policy:
    """Optimal composition-dependent play as the exact engine decides it: the best action
    of every unsplit hand, split hands playing the unsplit choice (CDZ-), the first two
    cards' best option (split and early surrender included)."""
    engine = Engine(rules)
    ev, value, action, natural = engine.solve()
    kept: dict = {}
    split = engine.split_values(ev, POLICY_REFERENCE, None, keep=kept)
    hands = hand_table(engine, ev, value, natural, split)
    root = np.full((10, 10, 10), -1, dtype=np.int64)
    for row in hands.itertuples():
        root[row.a, row.b, row.up] = root[row.b, row.a, row.up] = _ACTION_CODES[row.best]
    m = len(engine.nodes.counts)
    split_action = np.full((10, m, 10), -1, dtype=np.int64)
    for (pair, extra), solved in kept.items():
        if extra == 0:
            split_action[pair] = solved[2]
    return _Policy(
        np.zeros((2, 32, 10, 2, 2), dtype=np.int64),  # no chart: unused by the kernel
        np.zeros((10, 10, 2, 2), dtype=np.int64),
        np.zeros((10, 10, 2), dtype=np.bool_),
        True,
        engine.nodes.child,
        engine.nodes.index[(0,) * 10],
        action,
        split_action,
        root,
        np.zeros((10, 10), dtype=np.bool_),
    )


@dataclasses.dataclass(frozen=True)
class _Job:
    shoe: np.ndarray
    policy: _Policy
    flags: tuple
    probe_rate: float = 0.0


def _run_chunk(job_and_chunk):
    job, chunk = job_and_chunk
    chart, pair_play, split, *node = job.policy.arrays()
    return _simulate(
        chunk.generator(),
        job.shoe,
        chunk.size,
        chart,
        pair_play,
        split,
        *job.flags,
        *node,
        job.probe_rate,
    )


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
        pays = float(self.rules.resolved().natural_pays)
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
        return self._moments(self.histogram, self.naturals, self.rounds)

    def by_up_card(self) -> pd.DataFrame:
        """Up card | rounds | mean net result | SE: the EV given each up card."""
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
    engine's choice for the hand's cards (split hands CDZ-), the twin of ``player_ev``.
    With ``probe_rate`` in (0, 1) a chart's decisions are probed with other letters
    (:func:`probe_cross_check`); such a run no longer plays the chart alone.

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
    if isinstance(probe_rate, bool) or not isinstance(probe_rate, (int, float)):
        raise GamecoreError(f"probe_rate must be a number in [0, 1), got {probe_rate!r}")
    probe_rate = float(probe_rate)
    if not 0.0 <= probe_rate < 1.0:
        raise GamecoreError(f"probe_rate must be in [0, 1), got {probe_rate!r}")
    r = rules.resolved()
    if isinstance(chart, str) and chart == OPTIMAL:
        if probe_rate:
            raise GamecoreError("probe_rate needs a chart, not optimal play")
        chart, policy = None, _optimal_policy(r)
    else:
        if not isinstance(chart, (StrategyChart, str, Path)):
            raise GamecoreError(
                f"chart must be a StrategyChart, a chart CSV path or {OPTIMAL!r}, got {chart!r}"
            )
        if not isinstance(chart, StrategyChart):
            chart = read_strategy_chart(chart)
        policy = _chart_policy(chart, r)
    shoe = np.repeat(np.arange(10, dtype=np.int64), shoe_composition(r.decks))
    flags = (
        r.dealer_hits_soft_17,
        r.peek,
        r.player_forced == "c21",
        r.double_after_split,
        DOUBLE_KINDS.index(r.double_on),
        SURRENDER_KINDS.index(r.surrender),
        r.max_split_hands if r.max_split_hands >= 2 else 1,
        (r.max_split_hands if r.resplit_aces else min(2, r.max_split_hands))
        if r.max_split_hands >= 2
        else 1,
        r.split_aces_one_card,
        r.bust_push == "three_card_23_25",
    )
    job = _Job(shoe, policy, flags, probe_rate)
    chunks = make_chunks(rounds, CHUNK_ROUNDS, seed)
    results = run_chunks(
        _run_chunk,
        job,
        chunks,
        threads=threads,
        dask=dask,
        progress=progress,
        description=f"{rules.game} rounds",
    )
    up_histogram = np.zeros((10, HALF_UNITS), dtype=np.int64)
    split_histogram = np.zeros(HALF_UNITS, dtype=np.int64)
    resplit_histogram = np.zeros(HALF_UNITS, dtype=np.int64)
    up_naturals = np.zeros(10, dtype=np.int64)
    cells = np.zeros((3, 38, 10), dtype=np.int64)
    probe_sums = np.zeros((38, 10, 6, 4))
    probe_den = np.zeros((38, 10, 2))
    for h, hs, hr, n, bad, c, ps, pd_ in results:  # in chunk order: sums never reordered
        if bad:
            raise GamecoreError("the strategy asked for an action the rules forbid")
        up_histogram += h
        split_histogram += hs
        resplit_histogram += hr
        up_naturals += n
        cells += c
        probe_sums += ps
        probe_den += pd_
    return BlackjackSimulation(
        rules,
        chart,
        rounds,
        seed,
        up_histogram,
        up_naturals,
        split_histogram,
        resplit_histogram,
        cells,
        probe_rate,
        probe_sums,
        probe_den,
    )


def cross_check(exact: BlackjackAnalysis, simulation: BlackjackSimulation) -> pd.DataFrame:
    """Bet | exact EV | simulated EV | standard error | z for the simulated strategy, overall
    and given each up card.

    ``exact`` must hold that strategy's EV under the same rules: optimal play
    (``player_ev``), the analysis's chart, its derived chart, or the ``strategy`` it was
    given.
    """
    if simulation.rules != exact.rules:
        raise GamecoreError("the simulation and the analysis are of different rules")
    if simulation.chart is None:
        ev, by_up = exact.player_ev, exact.up_card_ev
        name = "optimal composition-dependent play"
    elif simulation.chart.cells == exact.chart.cells:
        ev, by_up, name = exact.chart_ev, exact.chart_up_card_ev, simulation.chart.name
    elif exact.strategy is not None and simulation.chart.cells == exact.strategy.cells:
        ev, by_up, name = exact.strategy_ev, exact.strategy_up_card_ev, simulation.chart.name
    elif exact.derived_chart is not None and simulation.chart.cells == exact.derived_chart.cells:
        ev, by_up = exact.derived_chart_ev, exact.derived_chart_up_card_ev
        name = simulation.chart.name
    else:
        raise GamecoreError("the simulated chart is neither the analysis's chart nor its strategy")
    sim = simulation.player()
    rows = [("Player, " + name, ev, sim["mean"], sim["se"], simulation.rounds)]
    for _, up in simulation.by_up_card().iterrows():
        if up["Rounds"]:
            label = up["Up card"]
            rows.append(
                (
                    f"  given up card {label}",
                    float(by_up[label]),
                    up["Mean"],
                    up["SE"],
                    up["Rounds"],
                )
            )
    frame = pd.DataFrame(
        rows, columns=["Bet", "Exact EV", "Simulated EV", "Standard error", "Rounds"]
    )
    frame.insert(4, "z", z_score(frame["Simulated EV"], frame["Exact EV"], frame["Standard error"]))
    return frame


# ---------------------------------------------------------------------------------------
# Twins of the other exact figures: the dealer's distribution, insurance, the deck sweep
# and the rule costs
# ---------------------------------------------------------------------------------------


@kernel
def _simulate_dealer(rng, shoe, rounds, h17):
    """Rounds by (up card, dealer outcome as in ``DEALER_OUTCOMES``)."""
    counts = np.zeros((10, N_OUTCOMES), dtype=np.int64)
    cards = shoe.copy()
    for _ in range(rounds):
        up = draw_card(rng, cards, 0, True)
        hole = draw_card(rng, cards, 1, True)
        total, _pos = _dealer(rng, cards, 2, up, hole, h17)
        if total == 99:
            outcome = NATURAL
        elif total <= 21:
            outcome = total - 17
        else:
            outcome = 5 + total - 22
        counts[up, outcome] += 1
    return counts


def _run_dealer_chunk(job_and_chunk):
    (shoe, h17), chunk = job_and_chunk
    return _simulate_dealer(chunk.generator(), shoe, chunk.size, h17)


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
    and of the insurance EV."""
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


def _twin(exact: float, successes: int, trials: int) -> dict[str, float]:
    simulated = successes / trials
    se = math.sqrt(exact * (1 - exact) / trials)
    return {
        "Exact": exact,
        "Simulated": simulated,
        "SE": se,
        "z": z_score(simulated, exact, se),
        "Hands": trials,
    }


def dealer_cross_check(simulation: DealerSimulation) -> pd.DataFrame:
    """Each dealer outcome's probability by up card, before the check for a Natural and
    (under an Ace or a 10 where the rules peek) after it, beside its simulated twin."""
    rules = simulation.rules.resolved()
    rows = []
    for up in UP_CARD_ORDER:
        label = up_label(up)
        counts = simulation.counts[up]
        exact = dealer_final_distribution(rules, label)
        for o, outcome in enumerate(DEALER_OUTCOMES):
            rows.append(
                {
                    "Up card": label,
                    "Outcome": outcome,
                    "When": "before the check",
                    **_twin(float(exact.iloc[o]), int(counts[o]), int(counts.sum())),
                }
            )
        if rules.peek and up in (ACE, TEN):
            after = dealer_final_distribution(rules, label, after_peek=True)
            live = int(counts.sum() - counts[NATURAL])
            for o, outcome in enumerate(DEALER_OUTCOMES[:-1]):
                rows.append(
                    {
                        "Up card": label,
                        "Outcome": outcome,
                        "When": "after the check",
                        **_twin(float(after.iloc[o]), int(counts[o]), live),
                    }
                )
    return pd.DataFrame(rows)


def insurance_cross_check(
    analysis: BlackjackAnalysis, simulation: DealerSimulation
) -> pd.DataFrame:
    """The insurance EV per unit insured against an Ace up beside its twin: the hands dealt
    under an Ace, insured, win ``insurance_pays`` when the hole card makes a Natural."""
    pays = float(analysis.rules.resolved().insurance_pays)
    counts = simulation.counts[ACE]
    n, wins = int(counts.sum()), int(counts[NATURAL])
    p = wins / n
    mean = pays * p - (1 - p)
    se = (pays + 1) * math.sqrt(p * (1 - p) / n)
    ev = analysis.insurance_ev
    return pd.DataFrame(
        [
            {
                "Bet": "Insurance",
                "Exact EV": ev,
                "Simulated EV": mean,
                "Standard error": se,
                "z": z_score(mean, ev, se),
                "Hands": n,
            }
        ]
    )


def _ev_twin(label: str, exact: float, simulation: BlackjackSimulation) -> dict[str, Any]:
    sim = simulation.player()
    return {
        "Case": label,
        "Exact EV": exact,
        "Simulated EV": sim["mean"],
        "Standard error": sim["se"],
        "z": (sim["mean"] - exact) / sim["se"] if sim["se"] > 0 else 0.0,
        "Rounds": simulation.rounds,
    }


def deck_sweep_check(
    rules: StandardBlackjackRules,
    decks=(1, 2, 4, 6, 8),
    rounds: int = 4_000_000,
    seed: int = 1,
    progress: bool | None = None,
) -> pd.DataFrame:
    """The deck sweep's EVs (optimal play and the best chart found) beside their twins; the
    simulation for the k-th deck count uses seeds ``seed + 2k`` and ``seed + 2k + 1``."""
    rows = []
    for k, d in enumerate(decks):
        variant = rules.replace(decks=d)
        a = exact(variant)
        optimal = simulate(variant, OPTIMAL, rounds, seed + 2 * k, progress=progress)
        chart = simulate(variant, a.chart, rounds, seed + 2 * k + 1, progress=progress)
        rows.append({"Decks": d, **_ev_twin("optimal play", a.player_ev, optimal)})
        rows.append({"Decks": d, **_ev_twin("best chart found", a.chart_ev, chart)})
    return pd.DataFrame(rows)


def rule_costs_check(
    rules: StandardBlackjackRules,
    variants=None,
    rounds: int = 4_000_000,
    seed: int = 1,
    progress: bool | None = None,
    costs: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Each rule variant's EV under optimal play beside its twin, and the EV change beside
    the difference of the two simulations (their standard errors combined). The exact
    figures are :func:`gamecore.blackjack.rule_costs`'s (pass its table as ``costs`` not to
    compute them again). The k-th variant is simulated with seed ``seed + k + 1``."""
    rules = check_rules(rules)
    if variants is None:
        variants = default_variants(rules)
    if costs is None:
        costs = rule_costs(rules, variants)
    exact = costs.set_index("Variant")
    base_sim = simulate(rules, OPTIMAL, rounds, seed, progress=progress)
    base_mean, base_se = base_sim.player()["mean"], base_sim.player()["se"]
    base_ev = float(exact.loc["as given", "Player EV"])
    rows = [{"Variant": "as given", **_ev_twin("optimal play", base_ev, base_sim)}]
    for k, (label, changes) in enumerate(variants.items()):
        sim = simulate(rules.replace(**changes), OPTIMAL, rounds, seed + k + 1, progress=progress)
        row = {"Variant": label, **_ev_twin("optimal play", exact.loc[label, "Player EV"], sim)}
        change, simulated = exact.loc[label, "EV change"], row["Simulated EV"] - base_mean
        se = math.hypot(row["Standard error"], base_se)
        row.update(
            {
                "EV change": change,
                "Simulated change": simulated,
                "Change SE": se,
                "Change z": z_score(simulated, change, se),
            }
        )
        rows.append(row)
    return pd.DataFrame(rows)


def _cell_row(hand: str) -> int:
    kind, what = hand.split()
    if kind == "hard":
        return int(what) - 4
    if kind == "soft":
        return 18 + int(what) - 12
    return 28 + RANKS.index(what)


def cell_cross_check(analysis: BlackjackAnalysis, simulation: BlackjackSimulation) -> pd.DataFrame:
    """Each cell of the analysis's chart: the EV of the chart's action on the hands the cell
    plays (``chart_ev`` of :meth:`~gamecore.blackjack.BlackjackAnalysis.strategy_chart`)
    beside the mean result of the simulated hands that decided in that cell.

    A cell whose action is a surrender taken before the check for a Natural (against an Ace
    or a 10 under early or c21 surrender) is valued counting the Natural it escapes; the
    simulated hands decide after the check, so it has no twin here (z left blank).
    """
    if simulation.chart is None or simulation.chart.cells != analysis.chart.cells:
        raise GamecoreError("cell_cross_check needs a simulation of the analysis's chart")
    if simulation.rules != analysis.rules:
        raise GamecoreError("the simulation and the analysis are of different rules")
    total, squares, visits = simulation.cells
    rows = []
    for cell in analysis.strategy_chart():
        row, up = _cell_row(cell["hand"]), _UP_LABELS.index(cell["up_card"])
        n = int(visits[row, up])
        exact = cell["chart_ev"]
        mean = total[row, up] / 2 / n if n else float("nan")
        var = (squares[row, up] / 4 - n * mean**2) / (n - 1) if n > 1 else float("nan")
        se = math.sqrt(max(var, 0.0) / n) if n > 1 else float("nan")
        twin = not cell["early_surrender"] and n > 1 and se > 0
        rows.append(
            {
                "Hand": cell["hand"],
                "Up card": cell["up_card"],
                "Chart": cell["chart"],
                "Exact EV": exact,
                "Simulated EV": mean if twin else float("nan"),
                "Standard error": se if twin else float("nan"),
                "z": (mean - exact) / se if twin else float("nan"),
                "Hands": n,
            }
        )
    return pd.DataFrame(rows)


#: Fewest probed hands for a letter's twin (its SE needs a sample to be estimated from).
MIN_PROBES = 50


def probe_cross_check(analysis: BlackjackAnalysis, simulation: BlackjackSimulation) -> pd.DataFrame:
    """Every letter of every hard/soft cell of the analysis's chart: its exact EV on the
    hands the cell plays (``letter_ev`` of the strategy card) beside its twin from a probing
    run (``simulate(..., probe_rate=q)``).

    In a probing run each decision of a hand is, with chance ``q``, played by a letter drawn
    at random; a probe reached after ``k`` unprobed decisions has chance ``q (1 - q)^k / 6``
    against the chart's reach, so the probed hands' results weighted by its inverse, over
    the reached decisions weighted by ``(1 - q)^-k``, estimate the letter's EV on the cell's
    hands (a ratio estimator; its SE by the delta method; at least :data:`MIN_PROBES` probed
    hands, else the twin is left blank). Surrender taken before the check
    (against an Ace or a 10 under early or c21 surrender) has no twin here: neither its
    letters, nor any letter of a cell whose two-card hands surrender so (they never reach a
    decision in the simulation).
    """
    if simulation.chart is None or simulation.chart.cells != analysis.chart.cells:
        raise GamecoreError("probe_cross_check needs a simulation of the analysis's chart")
    if simulation.rules != analysis.rules:
        raise GamecoreError("the simulation and the analysis are of different rules")
    if not simulation.probe_rate:
        raise GamecoreError("probe_cross_check needs a run with probe_rate > 0")
    rows = []
    for cell in analysis.strategy_chart():
        if cell["hand"].startswith("pair"):
            continue
        row, up = _cell_row(cell["hand"]), _UP_LABELS.index(cell["up_card"])
        y, yy = simulation.probe_den[row, up]
        for k, letter in enumerate(("H", "S", "DH", "DS", "RH", "RS")):
            exact = cell["letter_ev"].get(letter)
            if exact is None:
                continue  # a letter some hand of the cell cannot play
            x, xx, xy, probes = simulation.probe_sums[row, up, k]
            # Cells whose two-card hands surrender before the check never reach a decision
            # in the simulation, and an early surrender's value counts the Natural escaped.
            early = cell["early_surrender"] or (cell["surrender_before_check"] and letter[0] == "R")
            twin = probes >= MIN_PROBES and not early
            ratio = x / y if twin else float("nan")
            var = xx - 2 * ratio * xy + ratio**2 * yy if twin else float("nan")
            se = math.sqrt(max(var, 0.0)) / y if twin else float("nan")
            ok = twin and se > 0
            rows.append(
                {
                    "Hand": cell["hand"],
                    "Up card": cell["up_card"],
                    "Letter": pretty_cell(letter),
                    "Chart": cell["chart"],
                    "Exact EV": exact,
                    "Simulated EV": ratio if ok else float("nan"),
                    "Standard error": se if ok else float("nan"),
                    "z": (ratio - exact) / se if ok else float("nan"),
                    "Probes": int(probes),
                }
            )
    return pd.DataFrame(rows)
