"""The simulator's round kernels: one round dealt from real cards and played by a policy's
tables (:class:`SimPolicy`), every rule from the rule text, into integer tallies; and dealt
dealer hands. :mod:`gamecore.blackjack.sim` builds the policies and runs the chunks.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from gamecore._jit import kernel
from gamecore.blackjack.engine import double_allowed
from gamecore.blackjack.rules import (
    ACE,
    DOUBLE,
    HIT,
    N_OUTCOMES,
    NATURAL,
    SPLIT,
    STAND,
    SURRENDER,
    SURRENDER_ANY_CARDS,
    SURRENDER_EARLY,
    SURRENDER_LATE,
    SURRENDER_NONE,
    TEN,
)
from gamecore.dealing import below, draw_card

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
    aces = up == ACE or hole == ACE
    total, soft = _total(hard, aces)
    if total == 21:
        return DEALER_NATURAL, pos
    while total < 17 or (h17 and total == 17 and soft):
        c = draw_card(rng, cards, pos, True)
        pos += 1
        hard += c + 1
        aces = aces or c == ACE
        total, soft = _total(hard, aces)
    return total, pos


#: The dealer's "total" for a Natural in the round kernel.
DEALER_NATURAL = 99
#: A round whose strategy asked for an action the rules forbid (the tables are validated
#: first, so this cannot happen; the simulation refuses the run if it does).
FORBIDDEN_ROUND = 999
#: Rows of the per-hand state of a round (``RoundScratch.hands[row, hand]``).
(
    _HARD,
    _CARDS,
    _BET,
    _STATE,
    _FIRST,
    _NODE,
    _VISITS,
    _UNPROBED,
    _PROBE_ROW,
    _PROBE_LETTER,
    _ACES,
    _PAIRED,
    _PROBED,
) = range(13)
#: ``_STATE`` of a hand: being played, finished, surrendered.
_LIVE, _DONE, _SURRENDERED = 0, 1, 2
#: Cell rows of the tallies: hard 4..21, soft 12..21, then the pairs A..10.
N_CELL_ROWS = 38
SOFT_ROW0, PAIR_ROW0 = 18, 28


class SimPolicy(NamedTuple):
    """Decision tables for the round kernel: a chart's, or optimal play's by composition.

    A chart: ``chart``, ``pair_play`` and ``split`` (:class:`gamecore.blackjack.chart.
    ChartTables`), ``pair_follows_row[pair, up]`` (the pair row says P: an unsplit pair is
    played by its hard/soft row). Optimal play (``node_play``): ``root_action[a, b, up]``
    for the first two cards (split and early surrender included), ``node_action[node, up]``
    for an unsplit hand of more cards, ``split_action[pair, node, up]`` for a split hand,
    the hand's node followed card by card through ``child`` from the empty hand ``empty``.
    Actions: S H D R P as 0..4.
    """

    chart: np.ndarray
    pair_play: np.ndarray
    split: np.ndarray
    node_play: bool
    child: np.ndarray
    empty: int
    node_action: np.ndarray
    split_action: np.ndarray
    root_action: np.ndarray
    pair_follows_row: np.ndarray


class Tallies(NamedTuple):
    """What a chunk of rounds adds up (integers, except the probes' weighted sums)."""

    histogram: np.ndarray  # (10, 33) rounds by up card and net result in half units
    split_histogram: np.ndarray  # (33,) rounds split
    resplit_histogram: np.ndarray  # (33,) rounds resplit
    naturals: np.ndarray  # (10,) player Naturals paid, by up card
    bad: np.ndarray  # (1,) rounds that asked for a forbidden action
    cell_sum: np.ndarray  # (38, 10) results of the hands deciding in each cell
    cell_squares: np.ndarray
    cell_visits: np.ndarray
    probe_sums: np.ndarray  # (38, 10, 6, 4) sum X, X^2, XY, probes per letter
    probe_den: np.ndarray  # (38, 10, 2) sum Y, Y^2


class RoundScratch(NamedTuple):
    """Per-round work space, reused (no allocation per round)."""

    hands: np.ndarray  # (13, 4) int64: the per-hand state, rows _HARD .. _PROBED
    visit: np.ndarray  # (4, 24): the cell rows each hand decided in
    probe_weight: np.ndarray  # (4,): a probed hand's inverse chance of being seen
    round_x: np.ndarray  # (38, 6): probed results this round, by row and letter
    round_y: np.ndarray  # (38,): reached decisions this round, by row


@kernel
def _opening(codes, policy, p1, p2, up, hole):
    """What the first four cards settle before any hand is played: (ended, net result in
    half units, player Natural paid)."""
    player_natural = (p1 == ACE and p2 == TEN) or (p1 == TEN and p2 == ACE)
    dealer_natural = (up == ACE and hole == TEN) or (up == TEN and hole == ACE)
    high_up = up == ACE or up == TEN
    early = codes.surrender == SURRENDER_EARLY or (
        codes.surrender == SURRENDER_ANY_CARDS and high_up
    )
    if early and not player_natural:
        hard0 = p1 + p2 + 2
        total0, soft0 = _total(hard0, p1 == ACE or p2 == ACE)
        cd0 = 1 if double_allowed(hard0, soft0, codes.double_on) else 0
        if policy.node_play:
            wants = policy.root_action[p1, p2, up] == SURRENDER
        elif p1 == p2:
            wants = policy.pair_play[p1, up, cd0, 1] == SURRENDER and not policy.split[p1, up, 1]
        else:
            wants = policy.chart[1 if soft0 else 0, total0, up, cd0, 1] == SURRENDER
        if wants:
            return True, -1, False
    if dealer_natural and (codes.peek or player_natural):
        return True, (0 if player_natural else -2), False
    if player_natural:
        return True, 0, True
    return False, 0, False


@kernel
def _first_hands(codes, policy, p1, p2, up, scratch):
    """Set up the round's hands from the first two cards: (hands, split)."""
    state = scratch.hands
    state[:, :] = 0
    state[_BET, :] = 1
    state[_PROBE_ROW, :] = -1
    limit = codes.max_ace_hands if p1 == ACE else codes.max_hands
    if policy.node_play:
        splits = policy.root_action[p1, p2, up] == SPLIT
    else:
        splits = policy.split[p1, up, 1 if codes.surrender != SURRENDER_NONE else 0]
    if p1 == p2 and limit >= 2 and splits:
        for h in range(2):
            state[_HARD, h] = p1 + 1
            state[_ACES, h] = p1 == ACE
            state[_CARDS, h] = 1
            state[_FIRST, h] = p1
            state[_NODE, h] = policy.child[policy.empty, p1] if policy.node_play else 0
        return 2, True
    state[_HARD, 0] = p1 + p2 + 2
    state[_ACES, 0] = p1 == ACE or p2 == ACE
    state[_CARDS, 0] = 2
    state[_PAIRED, 0] = p1 == p2
    if policy.node_play:
        state[_NODE, 0] = policy.child[policy.child[policy.empty, p1], p2]
    return 1, False


@kernel
def _decide(codes, policy, dealt, h, split, scratch, cd, cs):
    """The action the strategy takes at hand ``h`` and the chart row deciding (-1: none)."""
    p1, p2, up = dealt
    state = scratch.hands
    total, soft = _total(state[_HARD, h], state[_ACES, h])
    row = -1
    if policy.node_play:
        if split:
            a = policy.split_action[p1, state[_NODE, h], up]
        elif state[_CARDS, h] == 2:
            a = policy.root_action[p1, p2, up]
        else:
            a = policy.node_action[state[_NODE, h], up]
    elif state[_CARDS, h] == 2 and state[_PAIRED, h]:
        a = policy.pair_play[p1, up, 1 if cd else 0, 1 if cs else 0]
        if policy.pair_follows_row[p1, up]:
            row = (total - 12 + SOFT_ROW0) if soft else (total - 4)
    else:
        a = policy.chart[1 if soft else 0, total, up, 1 if cd else 0, 1 if cs else 0]
        row = (total - 12 + SOFT_ROW0) if soft else (total - 4)
    return a, row


@kernel
def _probe(rng, h, row, a, cd, cs, forced_hit, forced_stand, scratch, probe_rate):
    """Record that hand ``h`` reached cell ``row`` and, with chance ``probe_rate``, replace
    its action by a letter drawn at random (:func:`probe_cross_check`); the action played."""
    state = scratch.hands
    if state[_VISITS, h] < 24:
        scratch.visit[h, state[_VISITS, h]] = row
        state[_VISITS, h] += 1
    if probe_rate > 0.0:
        seen = (1.0 - probe_rate) ** (-state[_UNPROBED, h])
        scratch.round_y[row] += seen
        if rng.random() < probe_rate:
            state[_PROBED, h] = True
            letter = below(rng, 6)
            b = _letter_action(letter, cd, cs, forced_hit, forced_stand)
            if b >= 0:
                a = b
                state[_PROBE_ROW, h] = row
                state[_PROBE_LETTER, h] = letter
                scratch.probe_weight[h] = 6.0 * seen / probe_rate
        else:
            state[_UNPROBED, h] += 1
    return a


@kernel
def _play_hand(rng, cards, pos, dealt, h, split, codes, policy, scratch, probe_rate):
    """Play hand ``h`` to its end; returns the position in the shoe, -1 if the strategy
    asked for an action the rules forbid."""
    state = scratch.hands
    up = dealt[2]
    while True:
        total, soft = _total(state[_HARD, h], state[_ACES, h])
        if total > 21:
            state[_STATE, h] = _DONE
            return pos
        forced = codes.forced_totals
        forced_hit = forced and ((not soft and total <= 11) or (soft and total <= 17))
        forced_stand = forced and total >= 20
        two_cards = state[_CARDS, h] == 2
        cd = (
            two_cards
            and (not split or codes.double_after_split)
            and double_allowed(state[_HARD, h], soft, codes.double_on)
        )
        cs = (not split) and (
            (codes.surrender == SURRENDER_LATE and two_cards)
            or (codes.surrender == SURRENDER_ANY_CARDS and not (up == ACE or up == TEN))
        )
        a, row = _decide(codes, policy, dealt, h, split, scratch, cd, cs)
        if row >= 0 and not state[_PROBED, h]:
            a = _probe(rng, h, row, a, cd, cs, forced_hit, forced_stand, scratch, probe_rate)
        bad = (a == STAND and forced_hit) or (a == HIT and forced_stand) or a < 0 or a > 3
        if bad or (a == DOUBLE and not cd) or (a == SURRENDER and not cs):
            return -1
        if a == STAND:
            state[_STATE, h] = _DONE
            return pos
        if a == SURRENDER:
            state[_STATE, h] = _SURRENDERED
            return pos
        c = draw_card(rng, cards, pos, True)
        pos += 1
        state[_HARD, h] += c + 1
        state[_ACES, h] = 1 if (state[_ACES, h] != 0 or c == ACE) else 0
        state[_CARDS, h] += 1
        if policy.node_play:
            state[_NODE, h] = policy.child[state[_NODE, h], c]
        if a == DOUBLE:
            state[_BET, h] = 2
            state[_STATE, h] = _DONE
            return pos


@kernel
def _hand_result(codes, state, h, dealer):
    """Hand ``h``'s result against the dealer's final total, in half units."""
    if state[_STATE, h] == _SURRENDERED:
        return -1
    total, _soft = _total(state[_HARD, h], state[_ACES, h])
    if dealer == DEALER_NATURAL:  # no peek: the dealer's Natural takes every wager
        r = -1
    elif total > 21:
        r = -1
        if (
            codes.bust_push
            and dealer > 21
            and state[_CARDS, h] == 3
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
    return 2 * r * state[_BET, h]


@kernel
def _settle(codes, policy, dealt, hands, dealer, tallies, scratch):
    """The round's net result (half units), each hand's result added to the cells it
    decided in (a pair's first decision counts the whole round's), and its probe."""
    p1, p2, up = dealt
    state = scratch.hands
    net = 0
    for h in range(hands):
        result = _hand_result(codes, state, h, dealer)
        net += result
        if state[_PROBE_ROW, h] >= 0:
            row, letter = state[_PROBE_ROW, h], state[_PROBE_LETTER, h]
            scratch.round_x[row, letter] += scratch.probe_weight[h] * result / 2.0
            tallies.probe_sums[row, up, letter, 3] += 1.0
        for k in range(state[_VISITS, h]):
            row = scratch.visit[h, k]
            tallies.cell_sum[row, up] += result
            tallies.cell_squares[row, up] += result * result
            tallies.cell_visits[row, up] += 1
    if p1 == p2 and not policy.node_play:
        tallies.cell_sum[PAIR_ROW0 + p1, up] += net
        tallies.cell_squares[PAIR_ROW0 + p1, up] += net * net
        tallies.cell_visits[PAIR_ROW0 + p1, up] += 1
    return net


@kernel
def _close_probes(up, tallies, scratch):
    """Add the round's probe sums (X per letter, Y per row) to the tallies."""
    for row in range(PAIR_ROW0):
        y = scratch.round_y[row]
        if y == 0.0:
            continue
        for letter in range(6):
            x = scratch.round_x[row, letter]
            tallies.probe_sums[row, up, letter, 0] += x
            tallies.probe_sums[row, up, letter, 1] += x * x
            tallies.probe_sums[row, up, letter, 2] += x * y
            scratch.round_x[row, letter] = 0.0
        tallies.probe_den[row, up, 0] += y
        tallies.probe_den[row, up, 1] += y * y
        scratch.round_y[row] = 0.0


@kernel
def _play_round(rng, cards, codes, policy, tallies, scratch, probe_rate):
    """One round off a full shoe. Returns (net result in half units, player Natural paid,
    hands played: 1, or 2..4 after splits, the up card).

    Playing a chart, every decision adds the hand's result (half units) to its cell's
    tallies (rows: hard 4..21, soft 12..21, then pair A..10, where a pair's first decision
    counts the whole round's result); a pair whose row says split, not split here, counts in
    its hard/soft row (``pair_follows_row``), as the exact engine's cell values do.

    With ``probe_rate`` > 0, each hard/soft decision of a hand not yet probed is, with that
    chance, replaced by one of the six letters H S Dh Ds Rh Rs drawn at random (the hand then
    follows the chart): ``probe_sums[row, up, letter]`` gathers (sum X, sum X^2, sum XY,
    probes) and ``probe_den[row, up]`` (sum Y, sum Y^2) over rounds, X being the probed
    hands' results and Y the decisions reached unprobed, each weighted by the inverse of its
    chance of being seen (:func:`probe_cross_check`). Probed rounds leave the chart, so a
    probing run's other tallies are not the chart's.
    """
    p1 = draw_card(rng, cards, 0, True)
    p2 = draw_card(rng, cards, 1, True)
    up = draw_card(rng, cards, 2, True)
    hole = draw_card(rng, cards, 3, True)
    ended, net, natural = _opening(codes, policy, p1, p2, up, hole)
    if ended:
        return net, natural, 1, up
    dealt = (p1, p2, up)
    hands, split = _first_hands(codes, policy, p1, p2, up, scratch)
    state = scratch.hands
    limit = codes.max_ace_hands if p1 == ACE else codes.max_hands
    pos = 4
    h = 0
    while h < hands:
        if state[_CARDS, h] == 1:  # a split hand takes its second card
            c = draw_card(rng, cards, pos, True)
            pos += 1
            if c == state[_FIRST, h] and hands < limit:  # a new hand (a resplit)
                state[_HARD, hands] = c + 1
                state[_ACES, hands] = c == ACE
                state[_CARDS, hands] = 1
                state[_FIRST, hands] = c
                state[_NODE, hands] = state[_NODE, h]
                hands += 1
                continue
            state[_HARD, h] += c + 1
            state[_ACES, h] = 1 if (state[_ACES, h] != 0 or c == ACE) else 0
            state[_CARDS, h] = 2
            state[_PAIRED, h] = c == state[_FIRST, h]
            if policy.node_play:
                state[_NODE, h] = policy.child[state[_NODE, h], c]
        if split and state[_FIRST, h] == ACE and codes.split_aces_one_card:
            state[_STATE, h] = _DONE
        else:
            pos = _play_hand(rng, cards, pos, dealt, h, split, codes, policy, scratch, probe_rate)
            if pos < 0:
                return FORBIDDEN_ROUND, False, hands, up
        h += 1
    dealer, pos = _dealer(rng, cards, pos, up, hole, codes.hits_soft_17)
    net = _settle(codes, policy, dealt, hands, dealer, tallies, scratch)
    if probe_rate > 0.0:
        _close_probes(up, tallies, scratch)
    return net, False, hands, up


@kernel
def _letter_action(letter, can_double, can_surrender, forced_hit, forced_stand):
    """The action of letter H S Dh Ds Rh Rs (0..5) at a hand, or -1 if the rules forbid it."""
    fallback_hit = letter == 0 or letter == 2 or letter == 4
    if letter in (2, 3) and can_double:
        return DOUBLE
    if letter in (4, 5) and can_surrender:
        return SURRENDER
    if fallback_hit:
        return -1 if forced_stand else HIT
    return -1 if forced_hit else STAND


def new_tallies() -> Tallies:
    """Zeroed tallies of one chunk."""
    cells = (N_CELL_ROWS, 10)
    return Tallies(
        np.zeros((10, HALF_UNITS), dtype=np.int64),
        np.zeros(HALF_UNITS, dtype=np.int64),
        np.zeros(HALF_UNITS, dtype=np.int64),
        np.zeros(10, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.zeros(cells, dtype=np.int64),
        np.zeros(cells, dtype=np.int64),
        np.zeros(cells, dtype=np.int64),
        np.zeros((*cells, 6, 4)),
        np.zeros((*cells, 2)),
    )


def new_scratch() -> RoundScratch:
    return RoundScratch(
        np.zeros((13, 4), dtype=np.int64),
        np.zeros((4, 24), dtype=np.int64),
        np.zeros(4),
        np.zeros((N_CELL_ROWS, 6)),
        np.zeros(N_CELL_ROWS),
    )


@kernel
def simulate_rounds(rng, shoe, rounds, codes, policy, probe_rate, tallies, scratch):
    """Play ``rounds`` rounds, each off the full ``shoe``, into ``tallies``."""
    cards = shoe.copy()
    for _ in range(rounds):
        net, natural, hands, up = _play_round(
            rng, cards, codes, policy, tallies, scratch, probe_rate
        )
        if net == FORBIDDEN_ROUND:
            tallies.bad[0] += 1
        elif natural:
            tallies.naturals[up] += 1
        else:
            tallies.histogram[up, net + 16] += 1
            if hands >= 2:
                tallies.split_histogram[net + 16] += 1
            if hands >= 3:
                tallies.resplit_histogram[net + 16] += 1


@kernel
def simulate_dealer_hands(rng, shoe, rounds, h17):
    """Rounds by (up card, dealer outcome as in ``DEALER_OUTCOMES``)."""
    counts = np.zeros((10, N_OUTCOMES), dtype=np.int64)
    cards = shoe.copy()
    for _ in range(rounds):
        up = draw_card(rng, cards, 0, True)
        hole = draw_card(rng, cards, 1, True)
        total, _pos = _dealer(rng, cards, 2, up, hole, h17)
        if total == DEALER_NATURAL:
            outcome = NATURAL
        elif total <= 21:
            outcome = total - 17
        else:
            outcome = 5 + total - 22
        counts[up, outcome] += 1
    return counts
