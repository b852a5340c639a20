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
replacement. Busted hands are kept as leaves so the dealer's distribution behind them is
exact too. Settling each pair gives the round's net result.

* **Rounds without a split** (almost all): the distribution is exact, as exact as the EVs
  (float64 recursions over probabilities).
* **Rounds with a split**: each split hand's joint with the dealer's outcome is exact (the
  split EV's identities are linear, so they carry distributions as well as values), but the
  joint law of two or more split hands is not computed: the hands are combined as
  independent given the dealer's outcome (and the pattern of split cards). Their sum's mean is
  still the exact split EV; the spread between hands' results is approximate. The split
  rounds' share is printed beside every row, and the simulated twin checks every row.

Results are in half units (a surrender loses half), from -8 (four doubled hands lost) to +8,
and a Natural paid ``natural_pays`` has its own row.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from gamecore import blackjack as bj
from gamecore._jit import kernel
from gamecore.errors import GamecoreError

# Hand classes: a standing total (16 or less, 17..21), a plain bust, a three-card bust of
# 23/24/25 (which the bust push may save), a surrender; the same again doubled.
STAND_LOW, BUST, BUST_23, SURRENDERED = 0, 6, 7, 10
DOUBLED = 11
N_CLASSES = 22
#: Net results of a round in half units, -16..16; index = half units + 16.
HALF_UNITS = 33


@kernel
def _stand_class(total):
    return 0 if total <= 16 else total - 16


@kernel
def _bust_class(hard, cards, bust_push):
    if bust_push and cards == 3 and 23 <= hard <= 25:
        return BUST_23 + hard - 23
    return BUST


@kernel
def _joints(
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
    up,
    action,
    bust_push,
    out,
):
    """``out[i, class, dealer outcome]`` for every masked hand ``i``, the action played at
    each live hand being ``action[i, up]`` (S H D R as 0..3). Hands with more cards first."""
    shoe = np.zeros(10, dtype=np.int64)
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
        if not ok:
            continue
        dist = dealers[rows[i], up]
        total = hard[i] + 10 if soft[i] else hard[i]
        a = action[i, up]
        if bust[i]:
            out[i, _bust_class(hard[i], cards[i], bust_push)] = dist
        elif a == 0:
            out[i, _stand_class(total)] = dist
        elif a == 3:
            out[i, SURRENDERED] = dist
        elif a == 1 or a == 2:
            for c in range(10):
                if shoe[c] == 0:
                    continue
                pc = shoe[c] / n
                j = child[i, c]
                if a == 1:
                    out[i] += pc * out[j]
                else:
                    jd = dealers[rows[j], up]
                    if bust[j]:
                        k = DOUBLED + _bust_class(hard[j], cards[j], bust_push)
                    else:
                        jt = hard[j] + 10 if soft[j] else hard[j]
                        k = DOUBLED + _stand_class(jt)
                    out[i, k] += pc * jd


def settlement(rules: bj.StandardBlackjackRules) -> np.ndarray:
    """Half units won by a hand of each class against each dealer outcome (int, K x 11).

    The dealer's Natural column is the no-peek settlement (every wager on the hand lost, a
    surrender half); under the peek a Natural ends the round before any play.
    """
    rules = rules.resolved()
    bust_push = rules.bust_push == "three_card_23_25"
    table = np.zeros((N_CLASSES, bj.N_OUTCOMES), dtype=np.int64)
    for doubled in (0, 1):
        unit = 2 * (2 if doubled else 1)
        for k in range(SURRENDERED):
            row = table[k + (DOUBLED if doubled else 0)]
            for d in range(bj.N_OUTCOMES):
                dealer = 17 + d  # 17..21, then bust totals 22..26
                if d == bj.NATURAL:
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


@dataclasses.dataclass(frozen=True)
class ResultDistribution:
    """The probability of each net result of a round, with the split rounds' share.

    Attributes
    ----------
    table
        Net result (units of the initial wager; a Natural paid its own row) | Outcome |
        Probability | Without a split (the part from rounds without a split: exact) | With a
        split (the part from rounds with a split, the split hands combined as independent
        given the dealer's outcome: approximate).
    split_share
        The probability that the player splits.
    mean
        The distribution's mean; equals the strategy's exact EV.
    strategy
        ``"optimal"`` or the chart's name.
    """

    rules: bj.StandardBlackjackRules
    strategy: str
    table: pd.DataFrame
    mean: float
    split_share: float

    def statistics(self) -> pd.DataFrame:
        """Figure | Value | Exact?: EV, P/D edge, standard deviation, win / push / loss
        frequencies per round.

        The EV is exact; a figure that depends on how split hands' results move together
        (the standard deviation, the frequencies) is marked approximate, its approximate part
        bounded by the split rounds' share.
        """
        table = self.table
        x, p = table["Net result"].to_numpy(), table["Probability"].to_numpy()
        variance = float(np.dot(p, x**2)) - self.mean**2
        rows = [
            ("Player EV per initial wager", self.mean, "exact"),
            ("P/D edge per unit a player wagers", -self.mean, "exact"),
            ("Standard deviation per round", np.sqrt(variance), "approximate (split rounds)"),
            ("Win frequency (net result > 0)", float(p[x > 0].sum()), "approximate (split rounds)"),
            ("Push frequency", float(p[x == 0].sum()), "approximate (split rounds)"),
            (
                "Loss frequency (net result < 0)",
                float(p[x < 0].sum()),
                "approximate (split rounds)",
            ),
            ("Probability of a split", self.split_share, "exact"),
            (
                "Win frequency, rounds without a split",
                float(table["Without a split"][x > 0].sum()),
                "exact",
            ),
        ]
        return pd.DataFrame(rows, columns=["Figure", "Value", "Exactness"])


def result_distribution(
    rules: bj.StandardBlackjackRules,
    chart: bj.StrategyChart | str | Path | None = None,
    composition: Sequence[int] | None = None,
) -> ResultDistribution:
    """The probability of each net result of a round under ``chart`` (a total-dependent chart)
    or, with ``chart=None``, optimal composition-dependent play (CDZ- splits).

    Examples
    --------
    >>> rules = bj.StandardBlackjackRules(decks=1, max_split_hands=2)
    >>> d = result_distribution(rules)
    >>> float(round(d.table["Probability"].sum(), 12))
    1.0
    >>> abs(d.mean - bj.exact(rules, search_chart=False).player_ev) < 1e-12
    True
    """
    rules = bj._check_rules(rules)
    if chart is not None and not isinstance(chart, bj.StrategyChart):
        chart = bj.read_strategy_chart(chart)
    shoe = None if composition is None else bj._check_composition(composition, "composition")
    engine = bj._Engine(rules, shoe, keep_busts=True)
    r = engine.rules
    tables = None if chart is None else bj.chart_tables(chart, r)
    policy = bj.POLICY_OPTIMAL if chart is None else bj.POLICY_CHART
    ev, value, action, natural = engine.solve(policy=policy, tables=tables)
    if chart is not None:
        bj._refuse_forbidden(action, engine, chart)
    kept: dict = {}
    if chart is None:
        split = engine.split_values(ev, bj.POLICY_REFERENCE, None, keep=kept)
        best = bj._hand_table(engine, ev, value, natural, split).set_index(["up", "a", "b"])["best"]
    else:
        split = engine.split_values(None, bj.POLICY_CHART, tables, keep=kept)
    settle = settlement(r)
    pays = float(r.natural_pays)
    plain = np.zeros(HALF_UNITS)
    from_splits = np.zeros(HALF_UNITS)
    natural_paid = 0.0
    nd = engine.nodes
    for up in range(10):
        if engine.shoe[up] == 0:
            continue
        p_up = engine.shoe[up] / engine.shoe.sum()
        early, root_surrender = bj._root_flags(engine, up)
        joint = _hand_joints(engine, (-1, 0), action, up)
        for a, b, p in bj._two_card_hands(engine.shoe, up):
            counts = [0] * 10
            counts[a] += 1
            counts[b] += 1
            i = nd.index[tuple(counts)]
            w = p_up * p
            if a == bj.ACE and b == bj.TEN:
                natural_paid += w * (1.0 - natural[i, up])
                plain[16] += w * natural[i, up]  # Natural against Natural pushes
                continue
            if chart is None:
                choice = best.loc[(up, a, b)]
                surrender_early = early and choice == "R"
                splits = choice == "P"
            else:
                cell = bj._cell_of(chart, counts, up)
                surrender_early = early and bj._wants_surrender(cell, a == b, tables, a, up)
                splits = (
                    not surrender_early
                    and a == b
                    and bool(tables.split[a, up, 1 if root_surrender else 0])
                    and not np.isnan(split[a, up])
                )
            if surrender_early:
                plain[16 - 1] += w
            elif splits:
                from_splits += w * _split_round(engine, kept, a, up, settle, r.peek)
                if r.peek:  # a dealer Natural ends the round before the split
                    plain[16 - 2] += w * natural[i, up]
            else:
                plain += w * _settle_hand(joint[i], settle, r.peek)
    total = plain + from_splits
    units = (np.arange(HALF_UNITS) - 16) / 2
    rows = [
        {
            "Net result": units[x],
            "Probability": total[x],
            "Without a split": plain[x],
            "With a split": from_splits[x],
        }
        for x in range(HALF_UNITS)
        if total[x] > 0
    ]
    rows.append(
        {
            "Net result": pays,
            "Probability": natural_paid,
            "Without a split": natural_paid,
            "With a split": 0.0,
        }
    )
    table = pd.DataFrame(rows)
    table.insert(1, "Outcome", [_label(x) for x in table["Net result"]])
    table["Return"] = table["Net result"] * table["Probability"]
    table.loc[table.index[-1], "Outcome"] = "Natural paid"
    mean = float(np.dot(units, total) + pays * natural_paid)
    return ResultDistribution(
        rules, "optimal" if chart is None else chart.name, table, mean, float(from_splits.sum())
    )


def _label(units: float) -> str:
    if units == 0:
        return "push"
    return f"{'win' if units > 0 else 'lose'} {abs(units):g}"


def _hand_joints(engine, key, action, up) -> np.ndarray:
    """Every hand's joint (class x dealer outcome) in one context against ``up``."""
    mask, base = engine.context(*key)
    nd = engine.nodes
    out = np.zeros((len(nd.counts), N_CLASSES, bj.N_OUTCOMES))
    _joints(
        nd.counts,
        nd.hard,
        nd.soft,
        nd.cards,
        nd.bust,
        nd.child,
        nd.order,
        mask,
        base.astype(np.int64),
        engine.dealers,
        engine.rows[key],
        up,
        action,
        engine.bust_push,
        out,
    )
    return out


def _settle_hand(joint: np.ndarray, settle: np.ndarray, peek: bool) -> np.ndarray:
    """Net result (half units, index + 16) of an unsplit hand from its joint."""
    out = np.zeros(HALF_UNITS)
    np.add.at(out, settle.ravel() + 16, joint.ravel())
    if peek:  # the dealer's Natural ends the round: the initial wager is lost
        lost = joint[:, bj.NATURAL].sum()
        np.add.at(out, settle[:, bj.NATURAL] + 16, -joint[:, bj.NATURAL])
        out[16 - 2] += lost
    return out


def _split_round(engine, kept, pair, up, settle, peek) -> np.ndarray:
    """Net result of a split of ``pair`` against ``up`` (half units, index + 16)."""
    nd = engine.nodes
    extra = engine.split_extras[pair]
    one = nd.index[tuple(1 if q == pair else 0 for q in range(10))]
    jx = np.zeros((extra + 1, *settle.shape))
    jp = np.zeros((extra + 1, *settle.shape))
    for a in range(extra + 1):
        _mask, base = engine.context(pair, a)
        out = _hand_joints(engine, (pair, a), kept[(pair, a)][2], up)
        left = base.copy()
        left[up] -= 1
        left[pair] -= 1
        if left.min() < 0 or base[up] == 0:
            continue
        n = left.sum()
        for c in range(10):
            if left[c]:
                jx[a] += left[c] / n * out[nd.child[one, c]]
        if left[pair]:
            jp[a] = out[nd.child[one, pair]]
    shoe = engine.shoe.copy()
    shoe[up] -= 1
    shoe[pair] -= 2
    pairs, cards = int(shoe[pair]), int(shoe.sum())
    total = np.zeros(HALF_UNITS)
    for k, n_known, rest, probability in _patterns(engine, pair, pairs, cards):
        hands = []
        if n_known:
            hands += [_nonpair(jx, jp, k, n_known - 1, pairs, cards)] * n_known
        if rest:
            hands += [_unrestricted(jx, k, n_known, pairs, cards)] * rest
        total += probability * _combine(hands, settle, peek)
    return total


def _patterns(engine, pair, pairs, cards):
    for draws, k, n, rest in bj.split_patterns(engine.max_hands(pair)):
        p = bj._pattern_probability(draws, pairs, cards)
        if p > 0.0:
            yield k, n, rest, p


def _unrestricted(jx, a, b, pairs, cards):
    """The joint of a split hand with ``a`` extra pair cards out and ``b`` other hands'
    second cards known not to be pair cards (:func:`bj._split_value`'s ``x``)."""
    if b == 0:
        return jx[a] if a < len(jx) else np.zeros(jx.shape[1:])
    v = bj._ratio(pairs - a, cards - a - (b - 1))
    if v >= 1.0:
        return np.zeros(jx.shape[1:])
    return (
        _unrestricted(jx, a, b - 1, pairs, cards)
        - v * _unrestricted(jx, a + 1, b - 1, pairs, cards)
    ) / (1.0 - v)


def _nonpair(jx, jp, a, b, pairs, cards):
    """The joint of a split hand whose own second card is not a pair card (``nonpair``)."""
    if b == 0:
        if a >= len(jx):
            return np.zeros(jx.shape[1:])
        v = bj._ratio(pairs - a, cards - a)
        if v >= 1.0:
            return np.zeros(jx.shape[1:])
        return (jx[a] - v * jp[a]) / (1.0 - v)
    w = bj._ratio(pairs - a, cards - a - (b - 1) - 1)
    if w >= 1.0:
        return np.zeros(jx.shape[1:])
    return (
        _nonpair(jx, jp, a, b - 1, pairs, cards) - w * _nonpair(jx, jp, a + 1, b - 1, pairs, cards)
    ) / (1.0 - w)


def _combine(hands, settle, peek) -> np.ndarray:
    """Sum of the hands' results, independent given the dealer's outcome."""
    out = np.zeros(HALF_UNITS)
    dealer = hands[0].sum(axis=0)  # every hand's joint has the same dealer marginal
    for d in range(bj.N_OUTCOMES):
        if dealer[d] <= 0.0:
            continue
        if peek and d == bj.NATURAL:
            continue  # no split is played: the caller books the Natural's loss
        total = np.array([1.0])
        low = 0
        for joint in hands:
            per_hand = np.zeros(9)  # half units -4..4
            np.add.at(per_hand, settle[:, d] + 4, joint[:, d] / dealer[d])
            total = np.convolve(total, per_hand)
            low -= 4
        out[low + 16 : low + 16 + total.size] += dealer[d] * total
    return out


def cross_check(exact: ResultDistribution, simulation) -> pd.DataFrame:
    """Each result's probability beside its simulated twin, rounds with and without a split
    apart.

    The rounds without a split carry the exact figures: their z obeys the 4-sigma rule
    (family-wise, :func:`gamecore.checks.z_threshold`). The rounds with a split carry the
    approximate ones (module docstring): their z measures the approximation. ``simulation``
    (:class:`gamecore.blackjack_sim.BlackjackSimulation`) must play the chart ``exact``
    describes, under the same rules.
    """
    if exact.strategy != simulation.chart.name or exact.rules != simulation.rules:
        raise GamecoreError(
            f"the simulation plays {simulation.chart.name!r}, the distribution describes "
            f"{exact.strategy!r}; cross-check the same chart under the same rules"
        )
    n = simulation.rounds
    rows = []
    for _, row in exact.table.iterrows():
        if row["Outcome"] == "Natural paid":
            plain, split = simulation.naturals, 0
        else:
            x = int(round(row["Net result"] * 2)) + 16
            split = int(simulation.split_histogram[x])
            plain = int(simulation.histogram[x]) - split
        out = {"Outcome": row["Outcome"], "Net result": row["Net result"]}
        for part, count in (("Without a split", plain), ("With a split", split)):
            p = row[part]
            se = float(np.sqrt(p * (1 - p) / n))
            out[f"{part}: probability"] = p
            out[f"{part}: simulated"] = count / n
            out[f"{part}: SE"] = se
            out[f"{part}: z"] = (count / n - p) / se if se > 0 else 0.0
        rows.append(out)
    return pd.DataFrame(rows)
