"""The probability of each final result of a (c21) blackjack round.

Central idea
------------
Each hand carries a joint distribution of (its final class, the dealer's final outcome)
through the same recursion as the EVs (:mod:`gamecore.blackjack.hand_ends`); settling each
pair gives the round's net result. Rounds are then of three kinds, each known as exactly as
its own column says:

* **Rounds without a split** (almost all): the distribution is exact, as exact as the EVs
  (float64 recursions over probabilities, not integer counts).
* **Rounds split once** (two hands, no resplit): exact too, from every pair of the two
  hands' ends (:mod:`gamecore.blackjack.two_hand_split`), as Eric Farmer's
  ``blackjack_pdf`` handles splits, and where it stops.
* **Rounds resplit to three or four hands** (about 0.3% of rounds at 6 decks): each hand's
  joint with the dealer's outcome is exact (the split EV's identities are linear, so they
  carry distributions as well as values), but the joint law of the hands is not computed:
  they are combined as independent given the dealer's outcome (and the pattern of split
  cards). Their total probability and mean are exact; their spread is not, and every figure
  it enters carries a bound, below.

How far the resplit rounds can move a figure
--------------------------------------------
Call a *group* the resplit rounds of one opening, up card, pattern of split cards and final
dealer outcome; its probability ``w``, each hand's distribution in it and so its mean ``m``
(the sum of the hands' means) are exact. Only how the hands move together is unknown. Let
``r`` be the resplit rounds' probability (:attr:`ResultDistribution.resplit_share`) and
``c(x)`` their computed share of net result ``x`` (column ``With a resplit``).

* **A probability** (a row, or the win, push or loss frequency: the rows of an event
  summed). The true resplit share ``t`` of the event and the computed ``c`` both lie in
  ``[0, r]``, so ``|t - c| <= max(c, r - c) <= r``. Where ``c = 0`` no coupling of the
  hands reaches the event (the independent one reaches every sum of the hands' possible
  results), so ``t = 0`` and the bound is 0.
* **The variance** about the exact mean ``mu``: a group adds ``w (Var + (m - mu)^2)``, and
  only ``Var``, the variance of the sum of its hands' results, depends on their dependence.
  Computed as independent it is ``sum_i s_i^2`` (``s_i``: hand ``i``'s SD in the group);
  whatever the dependence it lies in ``[0, (sum_i s_i)^2]`` (each covariance is at most
  ``s_i s_j``, Cauchy-Schwarz; the upper end is reached when the hands' distributions are
  alike and they move as one, so no smaller upper end holds for every dependence). Summed
  over the groups, the true variance lies in ``[V - A, V + B]``, ``V`` the computed
  variance, ``A = sum w sum_i s_i^2``, ``B = sum w ((sum_i s_i)^2 - sum_i s_i^2)``
  (:attr:`ResultDistribution.variance_slack`), and the SD in ``[sqrt(V - A), sqrt(V + B)]``:
  :attr:`ResultDistribution.standard_deviation_bound` is the larger distance from the
  computed SD to an end.

With no resplit (``max_split_hands=2``, or none played) every bound is 0 and every figure
is exact. Results are in half units (a surrender loses half), from -8 (four doubled hands
lost) to +8, and a Natural paid ``natural_pays`` has its own row.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from gamecore.blackjack.backward import POLICY_CHART, Solved
from gamecore.blackjack.caches import compact_actions
from gamecore.blackjack.chart import (
    ChartTables,
    StrategyChart,
    chart_tables,
    read_strategy_chart,
)
from gamecore.blackjack.engine import Engine, refuse_forbidden
from gamecore.blackjack.hand_ends import HALF_UNITS, hand_joints, settlement, two_hand_ends
from gamecore.blackjack.round import (
    PLAY_EARLY_SURRENDER,
    PLAY_NATURAL,
    PLAY_SPLIT,
    chart_play,
    optimal_play,
)
from gamecore.blackjack.rules import (
    N_OUTCOMES,
    NATURAL,
    StandardBlackjackRules,
    check_rules,
)
from gamecore.blackjack.shoe import checked_shoe
from gamecore.blackjack.splits import split_hands
from gamecore.blackjack.two_hand_split import two_hand_split
from gamecore.parallel import default_threads

if TYPE_CHECKING:  # pandas is imported where a table is asked for: see ResultDistribution
    import pandas as pd

    from gamecore.hold import Obtained


#: How a figure that no resplit round enters was obtained.
EXACT = "exact (float64 recursion)"
#: How a figure that resplit rounds enter was obtained: within its bound.
BOUNDED = "within ± the bound: resplit rounds' hands combined as independent"

#: The columns of :attr:`ResultDistribution.table`, in order.
RESULT_COLUMNS = (
    "Net result",
    "Outcome",
    "Probability",
    "Without a split",
    "Split, two hands",
    "With a resplit",
    "Return",
    "Probability bound (±)",
    "Return bound (±)",
    "How obtained",
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
    variance_slack
        ``(A, B)``: the true variance of a round's net result lies in ``[V - A, V + B]``,
        ``V`` the computed one, whatever the dependence of the resplit rounds' hands
        (module docstring); ``(0, 0)`` with no resplit.
    """

    rules: StandardBlackjackRules
    strategy: str
    rows: tuple[dict[str, float | str], ...]
    mean: float
    split_share: float
    resplit_share: float
    variance_slack: tuple[float, float] = (0.0, 0.0)

    @property
    def table(self) -> pd.DataFrame:
        """Net result (units of the initial wager; a Natural paid its own row) | Outcome |
        Probability | Without a split (exact) | Split, two hands (rounds split once and never
        resplit: exact) | With a resplit (three or four hands: the hands combined as
        independent given the dealer's outcome, approximate) | Return | Probability bound
        (±) (the most the probability can be off, 0 where exact: module docstring) | Return
        bound (±) (``|net result|`` times it) | How obtained (:data:`EXACT` or
        :data:`BOUNDED`)."""
        import pandas as pd  # only here: a slow import that `gamecore exact` does not need

        return pd.DataFrame(list(self.rows), columns=list(RESULT_COLUMNS))

    def _column(self, name: str) -> np.ndarray:
        return np.array([row[name] for row in self.rows], dtype=float)

    @property
    def standard_deviation(self) -> float:
        """The standard deviation of a round's net result (within
        :attr:`standard_deviation_bound` where resplits happen)."""
        x, p = self._column("Net result"), self._column("Probability")
        # The second moment about the mean, not E[x^2] - mean^2: that difference of two
        # nearly equal numbers rounds below zero where every round ends alike (a shoe of
        # eights: +4 every round, E[x^2] 16.000000000000004, mean^2 16.000000000000007),
        # and its square root was NaN. Every term here is at least zero.
        return float(np.sqrt(np.dot(p, (x - self.mean) ** 2)))

    @property
    def standard_deviation_bound(self) -> float:
        """The most :attr:`standard_deviation` can be off, whatever the dependence of the
        resplit rounds' hands (module docstring); 0 with no resplit."""
        if self.resplit_share == 0:
            return 0.0
        sd = self.standard_deviation
        below, above = self.variance_slack
        lowest = np.sqrt(max(sd * sd - below, 0.0))
        return float(max(sd - lowest, np.sqrt(sd * sd + above) - sd))

    def probability_bound(self, event: np.ndarray) -> float:
        """The most the probability of an event can be off (module docstring).

        Parameters
        ----------
        event : numpy.ndarray of bool
            Which rows of :attr:`table` the event holds.

        Returns
        -------
        float
            ``max(c, r - c)``, ``c`` the resplit rounds' share of the event and ``r`` theirs
            in all; 0 where ``c`` is 0.
        """
        share = self._column("With a resplit")[np.asarray(event, dtype=bool)].sum()
        return _share_bound(float(share), self.resplit_share)

    def net_distribution(self) -> dict[float, float]:
        """The distribution of the round's net result, rows of equal result merged (a
        Natural paid 1 to 1 joins the +1 row).

        Returns
        -------
        dict of float to float
            Net result in units of the initial wager (-8 .. 8, halves where a surrender
            played; a Natural paid at its own ``natural_pays``) -> its probability, in
            increasing order of the result; the probabilities sum to 1.
        """
        merged: dict[float, float] = {}
        for row in sorted(self.rows, key=lambda row: row["Net result"]):
            net = float(row["Net result"])
            merged[net] = merged.get(net, 0.0) + float(row["Probability"])
        return merged

    def how_obtained(self) -> str:
        """How :meth:`net_distribution` and the figures drawn from it were obtained, in a
        sentence with the resplit rounds' probability (the hold monitoring's column).

        Returns
        -------
        str
            ``"exact: float64 recursion"``, or the resplit rounds' approximation.
        """
        if self.resplit_share == 0:
            return "exact: float64 recursion"
        return (
            f"exact up to ± the bounds: rounds resplit to 3 or 4 hands (probability "
            f"{self.resplit_share:.4%}) combined as independent given the dealer's final "
            "total; P(house behind) from this distribution, not bounded; every other round "
            "exact (float64 recursion)"
        )

    def obtained(self) -> Obtained:
        """How the distribution was obtained, with the bounds on its SD and hit frequency,
        as :func:`gamecore.hold.monitoring` takes it.

        Returns
        -------
        gamecore.hold.Obtained
        """
        from gamecore.hold import Obtained  # pandas and scipy: only where hold is used

        x = self._column("Net result")
        return Obtained(
            self.how_obtained(), self.standard_deviation_bound, self.probability_bound(x > 0)
        )

    @property
    def exact(self) -> np.ndarray:
        """Each row's probability from the rounds known exactly (all but resplits)."""
        return self._column("Without a split") + self._column("Split, two hands")

    def statistics(self) -> pd.DataFrame:
        """The round's summary figures: EV, P/D edge, standard deviation, win / push / loss
        frequencies per round, the split and resplit shares.

        The EV is exact. A figure that depends on how the hands of a resplit move together
        (the standard deviation, the frequencies) is within its bound (module docstring),
        0 with no resplits.

        Returns
        -------
        pandas.DataFrame
            Columns Figure | Value | Bound (±) | How obtained, one row a figure; the values
            per initial wager (the edge per unit a player wagers), the frequencies per
            round; How obtained :data:`EXACT` or :data:`BOUNDED`.
        """
        import pandas as pd

        x, p = self._column("Net result"), self._column("Probability")

        def bounded(figure: str, value: float, bound: float) -> tuple:
            return figure, value, bound, EXACT if bound == 0 else BOUNDED

        events = {"Win": x > 0, "Push": x == 0, "Loss": x < 0}
        rows = [
            bounded("Player EV per initial wager", self.mean, 0.0),
            bounded("P/D edge per unit a player wagers", -self.mean, 0.0),
            bounded(
                "Standard deviation per round",
                self.standard_deviation,
                self.standard_deviation_bound,
            ),
            *(
                bounded(
                    f"{name} frequency{TAIL[name]}",
                    float(p[event].sum()),
                    self.probability_bound(event),
                )
                for name, event in events.items()
            ),
            bounded("Probability of a split", self.split_share, 0.0),
            bounded("Probability of a resplit", self.resplit_share, 0.0),
            bounded("Win frequency, rounds without a resplit", float(self.exact[x > 0].sum()), 0.0),
        ]
        return pd.DataFrame(rows, columns=["Figure", "Value", "Bound (±)", "How obtained"])


#: The statistics' frequency names' tails.
TAIL = {"Win": " (net result > 0)", "Push": "", "Loss": " (net result < 0)"}


#: Pairs of hand ends from which a two-hand split is heavy (the splits of 2s and of 3s
#: against a 7 at 6 decks: the bulk of the result distribution's work on one thread, and
#: 28 and 39 MB at their peaks).
HEAVY_SPLIT_PAIRS = 500_000


def result_distribution(
    rules: StandardBlackjackRules,
    chart: StrategyChart | str | Path | None = None,
    composition: Sequence[int] | None = None,
    engine: Engine | None = None,
) -> ResultDistribution:
    """The probability of each net result of a round under ``chart`` (a total-dependent chart)
    or, with ``chart=None``, optimal composition-dependent play (CDZ- splits).

    Parameters
    ----------
    rules : StandardBlackjackRules
        The rule set (C21BlackjackRules too).
    chart : StrategyChart, str, pathlib.Path or None
        The chart played, or the name or path of a chart file; None: optimal play.
    composition : sequence of int or None
        Cards per rank (A, 2, .., 9, ten-valued) in the shoe; None: the rules' full shoe.
        Not read when ``engine`` is given.
    engine : Engine or None
        An :class:`~gamecore.blackjack.engine.Engine` of these rules and this shoe, whose
        tables are shared (:func:`gamecore.blackjack.exact` passes its own); None: one is
        made.

    Returns
    -------
    ResultDistribution
        Each net result's probability, by part (no split, two hands, a resplit), with the
        mean (the strategy's exact EV) and the split and resplit shares.

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
    # Split rounds and up cards are independent; their kernels release the GIL.
    with ThreadPoolExecutor(default_threads()) as pool:
        split_rounds = _split_rounds(pool, engine, strategy, settle)
        parts = list(
            pool.map(
                lambda up: _up_card_results(engine, strategy, up, split_rounds, settle),
                range(10),
            )
        )
    plain, two_hands, resplits, paid = (sum(rows[k] for rows, _ in parts) for k in range(4))
    slack = sum(part_slack for _, part_slack in parts) / 4  # half units squared to units
    return ResultDistribution(
        rules,
        "optimal" if chart is None else chart.name,
        *_result_rows(plain, two_hands, resplits, float(paid[0]), engine.codes.natural_pays),
        float(two_hands.sum() + resplits.sum()),
        float(resplits.sum()),
        (float(slack[0]), float(slack[1])),
    )


def _split_rounds(pool, engine: Engine, strategy: _Strategy, settle: np.ndarray) -> dict:
    """Every split the strategy plays, by (pair, up): its results (:func:`_split_round`),
    worked on ``pool``. The heavy splits (HEAVY_SPLIT_PAIRS) are worked one after another on
    one thread, beside the others on the rest, so no two of them are held at once. Summed
    in a fixed order, so the result does not depend on the number of threads."""
    splits = [
        (opening.first, up)
        for up in range(10)
        for opening in engine.caches.openings(up)
        if opening.pair and strategy.play(opening) == PLAY_SPLIT
    ]
    ends = {job: two_hand_ends(engine, strategy.kept, *job) for job in splits}
    pairs = {job: len(ends[job].ways) * (len(ends[job].ways) + 1) // 2 for job in splits}
    heavy = [job for job in splits if pairs[job] >= HEAVY_SPLIT_PAIRS]
    light = [job for job in splits if pairs[job] < HEAVY_SPLIT_PAIRS]

    def split_round(job):
        return _split_round(engine, strategy.kept, *job, ends.pop(job), settle)

    heavy_rounds = pool.submit(lambda: [split_round(job) for job in heavy])
    split_rounds = dict(zip(light, pool.map(split_round, light), strict=True))
    split_rounds.update(zip(heavy, heavy_rounds.result(), strict=True))
    return split_rounds


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
) -> tuple[np.ndarray, np.ndarray]:
    """(plain, two hands, resplits, Natural paid) rows of one up card, weighted by it, and
    the resplit rounds' variance slack; the split rounds' results from
    ``split_rounds[(pair, up)]`` (:func:`_split_round`)."""
    out, slack = np.zeros((4, HALF_UNITS)), np.zeros(2)
    plain, two_hands, resplits, natural_paid = out
    if engine.shoe[up] == 0:
        return out, slack
    peek = engine.codes.peek
    p_up = engine.shoe[up] / engine.shoe.sum()
    joint = hand_joints(engine, (-1, 0), strategy.kept[(-1, 0)], up)
    for opening in engine.caches.openings(up):
        w = p_up * opening.probability
        play = strategy.play(opening)
        if play == PLAY_NATURAL:
            natural_paid[0] += w * (1.0 - opening.dealer_natural)
            plain[16] += w * opening.dealer_natural  # Natural against Natural pushes
        elif play == PLAY_EARLY_SURRENDER:
            plain[16 - 1] += w
        elif play == PLAY_SPLIT:
            exact_part, approximate_part, split_slack = split_rounds[(opening.first, up)]
            two_hands += w * exact_part
            resplits += w * approximate_part
            slack += w * split_slack
            if peek:  # a dealer Natural ends the round before the split
                plain[16 - 2] += w * opening.dealer_natural
        else:
            plain += w * _settle_hand(joint[opening.node], settle, peek)
    return out, slack


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
    parts.sort(key=lambda part: part[0])  # by net result: the Natural's 6 to 5 between +1 and +2
    resplit_share = float(resplits.sum())
    rows = []
    for net, outcome, p, unsplit, two, resplit in parts:
        bound = _share_bound(float(resplit), resplit_share)
        rows.append(
            {
                "Net result": float(net),
                "Outcome": outcome,
                "Probability": float(p),
                "Without a split": float(unsplit),
                "Split, two hands": float(two),
                "With a resplit": float(resplit),
                "Return": float(net) * float(p),
                "Probability bound (±)": bound,
                "Return bound (±)": abs(float(net)) * bound,
                "How obtained": EXACT if bound == 0 else BOUNDED,
            }
        )
    return tuple(rows), float(np.dot(units, total) + pays * natural_paid)


def _share_bound(computed: float, resplit_share: float) -> float:
    """The most an event's probability can be off, its resplit rounds' share computed as
    ``computed`` of ``resplit_share`` (module docstring): ``max(c, r - c)``, 0 where ``c``
    is 0."""
    return max(computed, resplit_share - computed) if computed > 0 else 0.0


def _label(units: float) -> str:
    if units == 0:
        return "push"
    return f"{'win' if units > 0 else 'lose'} {abs(units):g}"


def _settle_hand(joint: np.ndarray, settle: np.ndarray, peek: bool) -> np.ndarray:
    """Net result (half units, index + 16) of an unsplit hand from its joint."""
    out = np.zeros(HALF_UNITS)
    np.add.at(out, settle.ravel() + 16, joint.ravel())
    if peek:  # the dealer's Natural ends the round: the initial wager is lost
        lost = joint[:, NATURAL].sum()
        np.add.at(out, settle[:, NATURAL] + 16, -joint[:, NATURAL])
        out[16 - 2] += lost
    return out


def _split_round(engine, kept, pair, up, ends, settle) -> tuple[np.ndarray, ...]:
    """Net result of a split of ``pair`` against ``up`` (half units, index + 16): (rounds
    that stay at two hands, exact; rounds with a resplit, approximate; the resplit rounds'
    variance slack, :func:`_combine`); ``ends``: one hand's
    (:func:`~gamecore.blackjack.hand_ends.two_hand_ends`)."""
    peek = engine.codes.peek
    two_hands = two_hand_split(engine, ends, pair, up, settle)
    extra = engine.split_extras[pair]
    jx = np.zeros((extra + 1, *settle.shape))
    jp = np.zeros((extra + 1, *settle.shape))
    joints = np.empty((len(engine.nodes.counts), *settle.shape))
    for a in range(extra + 1):
        second = engine.caches.second_cards(pair, a, up)
        if second is None:
            continue
        hand_joints(engine, (pair, a), kept[(pair, a)], up, joints)
        jx[a] = second.average(joints)
        if second.pair_node >= 0:
            jp[a] = joints[second.pair_node]
    shoe = engine.shoe.copy()
    shoe[up] -= 1
    shoe[pair] -= 2
    pairs, cards = int(shoe[pair]), int(shoe.sum())
    resplit, slack = np.zeros(HALF_UNITS), np.zeros(2)
    for pattern in split_hands(list(jx), list(jp), pairs, cards, engine.max_hands(pair)):
        if pattern.extra_pairs == 0:
            continue  # no resplit: two hands, computed exactly above
        hands = [pattern.known_value] * pattern.known + [pattern.rest_value] * pattern.rest
        combined, pattern_slack = _combine(hands, settle, peek)
        resplit += pattern.probability * combined
        slack += pattern.probability * pattern_slack
    return two_hands, resplit, slack


def _combine(hands, settle, peek) -> tuple[np.ndarray, np.ndarray]:
    """Sum of the hands' results, independent given the dealer's outcome; and how far the
    variance of the sum given the dealer's outcome may lie below and above its value under
    independence, whatever the hands' dependence (the slack of
    :attr:`ResultDistribution.variance_slack`, in half units squared), both weighted by the
    dealer's outcomes' probabilities."""
    out = np.zeros(HALF_UNITS)
    slack = np.zeros(2)
    halves = np.arange(-4, 5)
    dealer = hands[0].sum(axis=0)  # every hand's joint has the same dealer marginal
    for d in range(N_OUTCOMES):
        if dealer[d] <= 0.0:
            continue
        if peek and d == NATURAL:
            continue  # no split is played: the caller books the Natural's loss
        total = np.array([1.0])
        low = 0
        variances = []
        for joint in hands:
            # Half units -4..4 (bincount sums in order, as np.add.at would, far faster).
            per_hand = np.bincount(settle[:, d] + 4, weights=joint[:, d] / dealer[d], minlength=9)
            total = np.convolve(total, per_hand)
            low -= 4
            mean = np.dot(halves, per_hand)
            variances.append(max(float(np.dot((halves - mean) ** 2, per_hand)), 0.0))
        out[low + 16 : low + 16 + total.size] += dealer[d] * total
        independent = sum(variances)  # the variance of the sum as combined here
        most = float(np.sqrt(variances).sum()) ** 2  # every covariance at +sd_i sd_j
        slack += dealer[d] * np.array([independent, most - independent])
    return out, slack
