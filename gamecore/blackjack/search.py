"""The best total-dependent chart: cell values and a search on the chart's exact EV.

Central idea
------------
A total-dependent chart plays every hand of a total the same way, two-card and multi-card,
unsplit and split. Its exact EV against one up card is a sum over the hands the chart reaches,
each weighted by the probability that the chart reaches it (its *reach*), of the value of the
action the chart takes there. Two facts make a cell's choice exactly scorable:

* No path of hits visits the same row twice (the hard total grows with every card, and a soft
  row is the hard total plus ten), so changing one cell changes neither the reach of that
  cell's hands nor the values below them: the chart's EV changes by exactly
  ``sum over the cell's hands of reach * (value of the new action - value of the old one)``.
* The split EV is linear in the values of the split hands
  (:func:`gamecore.blackjack.round.split_value`), so split hands get reach weights too: the
  coefficients of that linear map times the chances of their second cards.

So one backward pass (the values, :meth:`gamecore.blackjack.engine.Engine.solve`) and one
forward pass (the reach, :func:`_propagate_reach`) per up card price *every* single-cell
change of the chart at once. :func:`optimize_chart` takes the best-priced change, confirms
it with a fresh exact evaluation, and repeats until no change gains: a chart no single-cell
change improves.
Up cards are independent (a cell belongs to one up card), so each is searched on its own.

A pair row's letter also sets how a pair is played when it can no longer be split (after the
maximum number of split hands); that small effect is left out of the pair rows' pricing, and
every change is confirmed by the exact evaluation before it is kept.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from gamecore._jit import kernel
from gamecore.blackjack.chart import (
    CHART_UP_CARDS,
    LETTERS,
    StrategyChart,
    cell_of,
    chart_rows,
    chart_tables,
    forced_actions,
    pretty_cell,
    resolve_cell,
    up_card_series,
    up_label,
)
from gamecore.blackjack.engine import POLICY_CHART, Engine, Solved, refuse_forbidden
from gamecore.blackjack.round import (
    PLAY_EARLY_SURRENDER,
    PLAY_NATURAL,
    PLAY_SPLIT,
    chart_play,
    opening_value,
)
from gamecore.blackjack.rules import (
    ACE,
    DOUBLE,
    HIT,
    RANKS,
    STAND,
    SURRENDER,
    StandardBlackjackRules,
    check_rules,
    early_surrender_at_root,
    hand_total,
    rule_codes,
)
from gamecore.errors import GamecoreError, shown

if TYPE_CHECKING:  # imported where a table is asked for (chart.up_card_series)
    import pandas as pd

#: Gains below this (per round) are float noise, never a change.
TOLERANCE = 1e-12


@kernel
def _propagate_reach(tree, base, up, played, reach):
    """Carry ``reach`` (root weights on entry) down every hit the chart plays against ``up``.

    ``played[i, up]`` is the action taken at hand ``i``; only a hit leads to further
    decisions (a double's third card ends the hand). Hands are visited fewest cards first.
    """
    shoe = np.zeros(10, dtype=np.int64)
    for idx in range(tree.order.size - 1, -1, -1):
        i = tree.order[idx]
        weight = reach[i]
        if weight == 0.0 or played[i, up] != HIT:
            continue
        n = 0
        for r in range(10):
            shoe[r] = base[r] - tree.counts[i, r] - (1 if r == up else 0)
            n += shoe[r]
        for c in range(10):
            if shoe[c] > 0:
                j = tree.child[i, c]
                if j >= 0:
                    reach[j] += weight * shoe[c] / n


class _CellInputs(NamedTuple):
    """One context's arrays for :func:`_cell_sums` against one up card."""

    reach: np.ndarray  # (M,) how often the chart reaches each hand
    skip: np.ndarray  # (M,) hands priced elsewhere (Naturals, pair rows' own letters)
    ev: np.ndarray  # (M, 10, 4) the context's action values (an early surrender's flat half)
    current: np.ndarray  # (M, 10) the value of the chart's action
    natural: np.ndarray  # (M, 10) P(dealer Natural | hand)


@kernel
def _cell_sums(tree, up, inputs, sums, bad):
    """Accumulate, per (soft, total) row, the reach-weighted values of every letter.

    ``sums[s, t, k]`` for k < 6 adds ``reach * value`` of letter ``LETTERS[k]`` (its
    fallback where the letter's first action is not allowed); k = 6 the current action's;
    k = 7 the reach; k = 8 the reach times P(no dealer Natural | hand). ``bad[s, t, k]`` marks
    a letter some reached hand cannot play.
    """
    ev = inputs.ev
    for i in range(tree.hard.size):
        weight = inputs.reach[i]
        if weight == 0.0 or tree.bust[i] or inputs.skip[i]:
            continue
        s = 1 if tree.soft[i] else 0
        t = tree.hard[i] + 10 if tree.soft[i] else tree.hard[i]
        stand, hit, double = ev[i, up, STAND], ev[i, up, HIT], ev[i, up, DOUBLE]
        for k in range(6):
            if k == 0:
                v = hit
            elif k == 1:
                v = stand
            elif k <= 3:
                v = double
                if np.isnan(v):
                    v = hit if k == 2 else stand
            else:
                v = ev[i, up, SURRENDER]
                if np.isnan(v):
                    v = hit if k == 4 else stand
            if np.isnan(v):
                bad[s, t, k] = True
            else:
                sums[s, t, k] += weight * v
        sums[s, t, 6] += weight * inputs.current[i, up]
        sums[s, t, 7] += weight
        sums[s, t, 8] += weight * (1.0 - inputs.natural[i, up])


@kernel
def _split_context_sums(tree, base, seeds, ups, own_letter, solved, sums, bad):
    """:func:`_cell_sums` of one split context's hands against each up card of ``ups``
    (into ``sums[up]``, ``bad[up]``), reached from ``seeds``
    (:class:`~gamecore.blackjack.round.SplitSeeds`) down the
    hits the context's solve plays. ``own_letter[k]``: against ``ups[k]`` a two-card pair is
    played by its pair row's own letter (priced with the pair rows, so left out here)."""
    m = tree.hard.size
    reach = np.zeros(m)
    no_hand = np.zeros(m, dtype=np.bool_)
    two_card_pairs = np.zeros(m, dtype=np.bool_)
    for i in range(m):
        if tree.cards[i] == 2:
            for r in range(10):
                if tree.counts[i, r] == 2:
                    two_card_pairs[i] = True
    for k in range(ups.size):
        up = ups[k]
        reach[:] = 0.0
        for j in range(seeds.node.shape[1]):
            if seeds.node[up, j] >= 0:
                reach[seeds.node[up, j]] += seeds.weight[up, j]
        _propagate_reach(tree, base, up, solved.action, reach)
        skip = two_card_pairs if own_letter[k] else no_hand
        inputs = _CellInputs(reach, skip, solved.ev, solved.value, solved.natural)
        _cell_sums(tree, up, inputs, sums[up], bad[up])


@dataclasses.dataclass
class _UpState:
    """A chart evaluated against one up card: its EV and everything needed to price cells."""

    up: int
    ev: float  # sum over two-card hands of probability * value (given this up card)
    sums: np.ndarray  # (2, 32, 9) the rows' reach-weighted letter values (:func:`_cell_sums`)
    bad: np.ndarray  # (2, 32, 6) letters some reached hand of the row cannot play
    pairs: dict[int, dict[str, Any]]


class _SplitSums(NamedTuple):
    """The rows' sums of splitting one pair, per unit chance of the pair, by up card."""

    sums: np.ndarray  # (10, 2, 32, 9)
    bad: np.ndarray  # (10, 2, 32, 6)


def evaluate_up(engine, chart: StrategyChart, up: int) -> _UpState:
    """Exact EV of ``chart`` against up card ``up`` and the reach of every hand it plays.

    Parameters
    ----------
    engine : Engine
    chart : StrategyChart
    up : int
        The engine of the shoe, the chart, the up card's rank index.

    Returns
    -------
    _UpState
    """
    return evaluate_ups(engine, chart, up)[up]


def evaluate_ups(engine, chart: StrategyChart, only_up: int = -1) -> dict[int, _UpState]:
    """:func:`evaluate_up` for every up card in the shoe (only ``only_up`` if >= 0), from
    one solve of each context.

    Each split context's hands are summed into their rows as its solve comes (the solves of
    all contexts and up cards together would hold about 80 MB at 6 decks)."""
    tables = chart_tables(chart, engine.rules)
    solved = engine.solve(policy=POLICY_CHART, tables=tables, only_up=only_up)
    refuse_forbidden(solved.action, engine, chart)
    ups = [up for up in (range(10) if only_up < 0 else (only_up,)) if engine.shoe[up] > 0]
    split_sums: dict[int, _SplitSums] = {}

    def sum_split_hands(key, context: Solved) -> None:
        pair, _a = key
        splits = [up for up in ups if tables.split[pair, up].any()]  # the chart's cell says P
        if splits:
            _add_split_context(engine, chart, context, key, splits, split_sums)

    split = engine.split_values(
        None, POLICY_CHART, tables, only_up=only_up, each_solve=sum_split_hands
    )
    # The values the unsplit hands' sums read, as played (the up cards' columns are each
    # changed by their own state only: early surrender at the two cards).
    played = _Played(solved.ev.copy(), solved.value.copy(), solved.action.copy())
    return {
        up: _up_state(engine, chart, tables, (solved, played), split, split_sums, up) for up in ups
    }


class _Played(NamedTuple):
    """The unsplit hands as the chart plays them, by up card (copies :func:`_up_state` sets
    an early surrender's flat half into)."""

    ev: np.ndarray  # (M, 10, 4) each action's value
    current: np.ndarray  # (M, 10) the value of the action played
    action: np.ndarray  # (M, 10) the action played


def _up_state(engine, chart, tables, solves, split, split_sums, up) -> _UpState:
    """The chart's EV against ``up`` and its rows' sums, from the contexts' solves
    (``solves``: the unsplit hands' solve and the copies of it as played)."""
    solved, (ev, current, played) = solves
    nd = engine.nodes
    m = len(nd.counts)
    reach = np.zeros(m)
    skip = np.zeros(m, dtype=np.bool_)
    total = 0.0
    pairs: dict[int, dict[str, Any]] = {}
    for opening in engine.caches.openings(up):
        i, a, p = opening.node, opening.first, opening.probability
        choice = chart_play(opening, chart, tables, split)
        value = opening_value(opening, choice.play, solved.value, split)
        total += p * value
        if choice.play == PLAY_NATURAL:
            skip[i] = True
            continue
        lose = opening.lose_to_natural
        if opening.early_surrender:
            ev[i, up, SURRENDER] = -0.5 - lose  # before the peek: a flat half, Natural or not
        if choice.play == PLAY_EARLY_SURRENDER:
            current[i, up] = -0.5 - lose
            played[i, up] = SURRENDER
        if choice.play != PLAY_SPLIT:
            reach[i] = p
        if opening.pair:
            cell = cell_of(chart, list(opening.counts), up)
            skip[i] = cell != "P"  # a pair row's own letter, priced with the pair rows
            pairs[a] = {
                "probability": p,
                "lose": lose,
                "split": split[a, up],
                "splits": choice.play == PLAY_SPLIT,
                "cell": cell,
                "current": split[a, up] if choice.play == PLAY_SPLIT else current[i, up],
                # The root pair's S H D R values (before the Natural's loss).
                "actions": tuple(ev[i, up]),
            }
    _propagate_reach(nd, engine.context().base, up, played, reach)
    sums = np.zeros((2, 32, 9))
    bad = np.zeros((2, 32, 6), dtype=np.bool_)
    inputs = _CellInputs(reach, skip, ev, current, solved.natural)
    _cell_sums(nd, up, inputs, sums, bad)
    for pair, info in pairs.items():
        if info["splits"] and pair in split_sums:  # zeros against an up card none reached
            sums += info["probability"] * split_sums[pair].sums[up]
            bad |= split_sums[pair].bad[up]
    return _UpState(up, total, sums, bad, pairs)


def _add_split_context(engine, chart, solved: Solved, key, ups, split_sums) -> None:
    """Add the hands of split context ``key = (pair, a)`` (``a`` extra pair cards out) to the
    rows' sums of splitting ``pair`` against each of ``ups``, per unit chance of the pair:
    reached through the split value's linear map (its coefficients times the chances of the
    second cards)."""
    pair, a = key
    if pair == ACE and engine.codes.split_aces_one_card:
        return  # split aces take one card each: no choice at their hands to price
    seeds = engine.caches.split_seeds(pair, a)
    ups = [up for up in ups if seeds.node[up, 0] >= 0]  # the context deals against it
    if not ups:
        return
    counts = [0] * 10
    counts[pair] = 2
    own_letter = np.array([cell_of(chart, counts, up) != "P" for up in ups], dtype=np.bool_)
    if pair not in split_sums:
        split_sums[pair] = _SplitSums(
            np.zeros((10, 2, 32, 9)), np.zeros((10, 2, 32, 6), dtype=np.bool_)
        )
    sums = split_sums[pair]
    base = engine.context(pair, a).base
    up_cards = np.array(ups, dtype=np.int64)
    _split_context_sums(
        engine.nodes, base, seeds, up_cards, own_letter, solved, sums.sums, sums.bad
    )


@functools.lru_cache(maxsize=256)
def letter_allowed(rules: StandardBlackjackRules, row: str, letter: str) -> bool:
    """Can ``letter`` stand in ``row`` under the forced ranges (whatever its fallback)?

    Parameters
    ----------
    rules : StandardBlackjackRules
    row, letter : str
        The rules, a chart row (``"soft 18"``) and a cell's letters (``"DS"``).

    Returns
    -------
    bool
    """
    kind, what = row.split()
    if kind == "pair":
        if letter == "P":
            return rules.max_split_hands >= 2
        counts = [2 if r == what else 0 for r in RANKS]
        total, soft = hand_total(counts)
    else:
        total, soft = int(what), kind == "soft"
    forced_hit, forced_stand = forced_actions(rules, total, soft)
    for can_double in (False, True):
        for can_surrender in (False, True):
            action = resolve_cell(letter, can_double, can_surrender)
            if (action == STAND and forced_hit) or (action == HIT and forced_stand):
                return False
    return True


def _pair_letter_values(state: _UpState, rank: int) -> dict[str, float]:
    """Value (before the Natural's loss) of each letter at the root pair of ``rank``."""
    info = state.pairs[rank]
    stand, hit, double, surrender = info["actions"]
    out = {}
    if not np.isnan(info["split"]):
        out["P"] = info["split"]
    for letter in LETTERS:
        first = {"H": hit, "S": stand, "D": double, "R": surrender}[letter[0]]
        if np.isnan(first) and len(letter) == 2:
            first = hit if letter[1] == "H" else stand
        if not np.isnan(first):
            out[letter] = first
    return out


def _candidates(engine, state: _UpState, cells, rows, refused) -> list[tuple[float, str, str]]:
    """(gain, row, letter) of every single-cell change that gains, not yet refused."""
    label = up_label(state.up)
    return [
        (gain, row, letter)
        for gain, row, letter in price_changes(engine, state, rows)
        if gain > TOLERANCE
        and cells.get((row, label), letter) != letter
        and (row, letter) not in refused
        and letter_allowed(engine.rules, row, letter)
    ]


def price_changes(engine, state: _UpState, rows) -> list[tuple[float, str, str]]:
    """(EV change given the up card, row, letter) of setting each cell of ``rows`` to each
    letter it can play, the rest of the chart unchanged (pair rows leave out the pair's play
    once it can no longer be split)."""
    sums, bad = state.sums, state.bad
    out = []
    for row in rows:
        kind, what = row.split()
        if kind == "pair":
            rank = RANKS.index(what)
            if rank not in state.pairs:
                continue
            values = _pair_letter_values(state, rank)
            now = state.pairs[rank]["current"]
            for letter, v in values.items():
                gain = state.pairs[rank]["probability"] * (v - now)
                out.append((gain, row, letter))
            continue
        s, t = (1 if kind == "soft" else 0), int(what)
        if sums[s, t, 7] == 0.0:
            continue
        for k, letter in enumerate(LETTERS):
            if not bad[s, t, k]:
                out.append((sums[s, t, k] - sums[s, t, 6], row, letter))
    return out


#: The columns of :attr:`ChartSearch.changes`.
CHANGE_COLUMNS = ("Hand", "Up card", "From", "To", "EV gain")


@dataclasses.dataclass(frozen=True)
class ChartSearch:
    """The result of :func:`optimize_chart`: the chart, its exact EV and the cells changed;
    the start chart's exact EV too (every search begins by evaluating it). ``ev_by_up`` and
    ``start_ev_by_up`` are the EVs by up card (A, 2..10), ``change_rows`` one dict per
    change kept (:data:`CHANGE_COLUMNS`); the properties give them as pandas tables."""

    chart: StrategyChart
    ev: float
    start_ev: float
    ev_by_up: np.ndarray
    start_ev_by_up: np.ndarray
    change_rows: tuple[dict[str, Any], ...]
    cells: list[dict[str, Any]]
    start_name: str

    @property
    def up_card_ev(self) -> pd.Series:
        return up_card_series(self.ev_by_up, self.chart.name)

    @property
    def start_up_card_ev(self) -> pd.Series:
        return up_card_series(self.start_ev_by_up, self.start_name)

    @property
    def changes(self) -> pd.DataFrame:
        """Hand | Up card | From | To | EV gain: each change kept, in the order made."""
        import pandas as pd

        return pd.DataFrame(list(self.change_rows), columns=list(CHANGE_COLUMNS))


def search_rows(rules: StandardBlackjackRules) -> list[str]:
    """Every chart row: hard 4..21, soft 12..21 and, where splitting is allowed, the pairs.

    Parameters
    ----------
    rules : StandardBlackjackRules

    Returns
    -------
    list of str
    """
    rows = [r for r in chart_rows() if not r.startswith("pair")]
    if rule_codes(rules).max_hands >= 2:
        rows += [r for r in chart_rows() if r.startswith("pair")]
    return rows


def optimize_chart(
    rules: StandardBlackjackRules,
    start: StrategyChart,
    rows: Sequence[str] | None = None,
    max_changes: int = 200,
    engine=None,
) -> ChartSearch:
    """The best total-dependent chart found by pricing every single-cell change exactly.

    Starting from ``start`` (:func:`gamecore.blackjack.exact` starts from the chart derived
    from the two-card hands, :func:`gamecore.blackjack.derive_chart`), for each up card:
    price every letter of every cell of ``rows`` (default :func:`search_rows`) by its exact
    EV change (module docstring), apply the best-priced change, confirm the gain by a fresh
    exact evaluation (refusing it otherwise), and repeat until no change gains more than
    :data:`TOLERANCE`. The result is never worse than
    ``start`` and no single-cell change of a hard or soft row improves it.

    Returns
    -------
    ChartSearch
        The chart, its exact EV per initial wager, the start's EV, the EV by up card, each
        change kept (with its confirmed gain per round) and the chart's cell values
        (:func:`chart_cells`).
    """
    rules = check_rules(rules)
    engine = Engine(rules, None) if engine is None else engine
    if not isinstance(start, StrategyChart):
        raise GamecoreError(f"start must be a StrategyChart, got {shown(start)}")
    rows = search_rows(rules) if rows is None else list(rows)
    for row in rows:
        if row not in chart_rows():
            raise GamecoreError(f"unknown chart row {shown(row)}")
    cells = dict(start.cells)
    up_p = engine.shoe / engine.shoe.sum()
    start_by_up = np.zeros(10)
    by_up = np.zeros(10)
    changes = []
    states = {}
    first = evaluate_ups(engine, StrategyChart(cells, start.name))
    for up, state in first.items():
        label = up_label(up)
        start_by_up[up] = state.ev
        refused: set[tuple[str, str]] = set()
        for _ in range(max_changes):
            found = _candidates(engine, state, cells, rows, refused)
            if not found:
                break
            _gain, row, letter = max(found)
            trial = {**cells, (row, label): letter}
            try:
                new = evaluate_up(engine, StrategyChart(trial, start.name), up)
            except GamecoreError:  # the letter's fallback is forbidden somewhere it plays
                refused.add((row, letter))
                continue
            if (new.ev - state.ev) * up_p[up] <= TOLERANCE:
                refused.add((row, letter))
                continue
            changes.append(
                {
                    "Hand": row,
                    "Up card": label,
                    "From": pretty_cell(cells[(row, label)]),
                    "To": pretty_cell(letter),
                    "EV gain": (new.ev - state.ev) * up_p[up],
                }
            )
            cells = trial
            state = new
            refused.clear()
        by_up[up] = state.ev
        states[up] = state
    name = f"searched chart ({rules.game}, {engine.rules.decks} decks)" if rows else start.name
    chart = StrategyChart(cells, name)
    return ChartSearch(
        chart,
        float(np.dot(by_up, up_p)),
        float(np.dot(start_by_up, up_p)),
        by_up,
        start_by_up,
        tuple(changes),
        _sorted_cells(
            cell for up in states for cell in _state_cells(engine, states[up], chart, up_p[up])
        ),
        start.name,
    )


def _sorted_cells(cells) -> list[dict[str, Any]]:
    """Cells in chart order: rows as the CSV lists them, up cards 2..10, A."""
    rows = {r: i for i, r in enumerate(chart_rows())}
    ups = {u: i for i, u in enumerate(CHART_UP_CARDS)}
    return sorted(cells, key=lambda c: (rows[c["hand"]], ups[c["up_card"]]))


def _state_cells(engine, state: _UpState, chart: StrategyChart, p_up: float):
    """Each cell's value per action (see :func:`chart_cells`) against one up card."""
    label = up_label(state.up)
    early = early_surrender_at_root(engine.codes, state.up)
    sums, bad = state.sums, state.bad
    for row in chart_rows():
        kind, what = row.split()
        if kind == "pair":
            rank = RANKS.index(what)
            if rank not in state.pairs:
                continue
            info = state.pairs[rank]
            live = 1.0 + info["lose"]  # P(no dealer Natural | the pair)
            values = _pair_letter_values(state, rank)
            weight = info["probability"]
            ev = _by_action(values)
        else:
            s, t = (1 if kind == "soft" else 0), int(what)
            weight, live_weight = sums[s, t, 7], sums[s, t, 8]
            if weight == 0.0:
                continue
            # Under the peek, values leave out the Natural's loss: divide by P(no Natural).
            live = live_weight / weight if engine.rules.peek else 1.0
            values = {
                letter: sums[s, t, k] / weight
                for k, letter in enumerate(LETTERS)
                if not bad[s, t, k]
            }
            ev = _by_action(values)
        ev = {a: v / live for a, v in ev.items() if live > 0}
        cell = chart.cells.get((row, label))
        if cell is None:  # a chart without this pair's row plays the pair by its total
            continue
        others = [v for a, v in ev.items() if a != cell[0]]
        letter = {"D": "DH", "R": "RH"}.get(cell, cell)
        own = values[letter] / live if letter in values and live > 0 else ev.get(cell[0])
        yield {
            "hand": row,
            "up_card": label,
            "best": cell[0],
            "chart": pretty_cell(cell),
            "hands_per_round": weight * p_up,
            "ev": ev,
            # How clear the decision is: the chart's action against the best other one;
            # None (JSON null) where the rules allow one action only (hard 20 and 21 ...).
            "margin": ev[cell[0]] - max(others) if others and cell[0] in ev else None,
            # The chart's own letter (its fallback included), and whether the cell's first
            # action is a surrender taken before the check for a Natural.
            "chart_ev": own,
            "early_surrender": early and cell[0] == "R",
            "surrender_before_check": early,
            # Each letter's EV (hard/soft rows: H S DH DS RH RS; pair rows: P and those).
            "letter_ev": {k: v / live for k, v in values.items()} if live > 0 else {},
        }


def _by_action(values: Mapping[str, float]) -> dict[str, float]:
    """Letter values to action values: D and R take their better fallback."""
    out = {}
    for action in ("H", "S", "D", "R", "P"):
        found = [v for letter, v in values.items() if letter[0] == action]
        if found and (action in ("H", "S", "P") or _first_differs(values, action)):
            out[action] = max(found)
    return out


def _first_differs(values: Mapping[str, float], action: str) -> bool:
    """Does some hand of the cell allow ``action`` (a letter not identical to its fallback)?"""
    for fallback in ("H", "S"):
        letter = action + fallback
        if letter in values and fallback in values and values[letter] != values[fallback]:
            return True
    return False
