"""The simulator's round kernels: one round dealt from real cards and played by a policy's
tables (:class:`SimPolicy`), every rule from the rule text, into integer tallies; and dealt
dealer hands. :mod:`gamecore.blackjack.sim` builds the policies and runs the chunks.
"""

from __future__ import annotations

import numpy as np

from gamecore import counting
from gamecore._jit import kernel
from gamecore.blackjack.backward import may_double
from gamecore.blackjack.round_tables import (
    C_BANKED,
    C_INSURED,
    C_RECORDED,
    C_RESHUFFLED,
    C_SHOES,
    C_TABLE_ROUNDS,
    PAIR_ROW0,
    R_RESULT,
    R_SHOE,
    R_TRUE_COUNT,
    SOFT_ROW0,
    RoundInputs,
    RoundOutputs,
)
from gamecore.blackjack.rules import (
    ACE,
    DOUBLE,
    HIT,
    N_OUTCOMES,
    NATURAL,
    STAND,
    SURRENDER,
    SURRENDER_ANY_CARDS,
    SURRENDER_EARLY,
    SURRENDER_LATE,
    TEN,
)
from gamecore.dealing import below, draw_card, shuffle


@kernel(inline=True)
def _total(hard, aces):
    """(total, soft) of a hand from its hard total and whether it holds an ace."""
    if aces and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


@kernel(inline=True)
def _draw(rng, cards, pos, fresh, n, base):
    """The card at ``pos`` (:func:`gamecore.dealing.draw_card`). Dealt from a real shoe of
    ``n`` cards, a round that reaches the shoe's end goes on from the discards: the cards
    of the shoe's earlier rounds (before ``base``) are shuffled in behind it (RULES.md)."""
    if not fresh and pos == n:
        cards[n : n + base] = cards[:base]
        shuffle(rng, cards[n : n + base])
    return draw_card(rng, cards, pos, fresh)


@kernel(inline=True)
def _dealer(rng, cards, pos, up, hole, h17, fresh, n, base):
    """Play the dealer's hand; returns (final total, 99 for a Natural; position)."""
    hard = up + 1 + hole + 1
    aces = up == ACE or hole == ACE
    total, soft = _total(hard, aces)
    if total == 21:
        return DEALER_NATURAL, pos
    while total < 17 or (h17 and total == 17 and soft):
        c = _draw(rng, cards, pos, fresh, n, base)
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
#: Rows of the per-hand state of a round (``RoundScratch.hands[seat, row, hand]``).
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
#: The probe letters' indices in :data:`gamecore.blackjack.chart.LETTERS`.
_H, _S, _DH, _DS, _RH, _RS = range(6)
#: Columns of ``RoundScratch.seat``: the first two cards, whether the opening ended the
#: seat's round, its net result (half units), whether a Natural was paid, hands played.
_P1, _P2, _ENDED, _NET, _NATURAL, _HANDS = range(6)


# The helpers below are inlined into the round kernel and take arrays, not the NamedTuples
# that hold them: an inlined helper handed a NamedTuple of arrays takes and drops a
# reference to every array in it on each call (numba's inliner copies the tuple), which
# the round loop cannot afford; one handed the arrays themselves costs nothing.


@kernel(inline=True)
def _opening(codes, early_surrender, p1, p2, up, hole):
    """What the first four cards settle before any hand is played: (ended, net result in
    half units, player Natural paid)."""
    player_natural = (p1 == ACE and p2 == TEN) or (p1 == TEN and p2 == ACE)
    dealer_natural = (up == ACE and hole == TEN) or (up == TEN and hole == ACE)
    early = codes.surrender == SURRENDER_EARLY or (
        codes.surrender == SURRENDER_ANY_CARDS and (up == ACE or up == TEN)
    )
    if early and not player_natural and early_surrender[p1, p2, up]:
        return True, -1, False
    if dealer_natural and (codes.peek or player_natural):
        return True, (0 if player_natural else -2), False
    if player_natural:
        return True, 0, True
    return False, 0, False


@kernel(inline=True)
def _first_hands(codes, states, s, root_split, child, empty, node_play, p1, p2, up):
    """Set up the round's hands from the first two cards: (hands, split)."""
    for h in range(states.shape[2]):
        for row in range(states.shape[1]):
            states[s, row, h] = 0
        states[s, _BET, h] = 1
        states[s, _PROBE_ROW, h] = -1
    limit = codes.max_ace_hands if p1 == ACE else codes.max_hands
    if p1 == p2 and limit >= 2 and root_split[p1, p2, up]:
        for h in range(2):
            states[s, _HARD, h] = p1 + 1
            states[s, _ACES, h] = p1 == ACE
            states[s, _CARDS, h] = 1
            states[s, _FIRST, h] = p1
            states[s, _NODE, h] = child[empty, p1] if node_play else 0
        return 2, True
    states[s, _HARD, 0] = p1 + p2 + 2
    states[s, _ACES, 0] = p1 == ACE or p2 == ACE
    states[s, _CARDS, 0] = 2
    states[s, _FIRST, 0] = p1
    states[s, _PAIRED, 0] = p1 == p2
    if node_play:
        states[s, _NODE, 0] = child[child[empty, p1], p2]
    return 1, False


@kernel(inline=True)
def _second_card(c, states, s, h, hands, limit, node_play, child):
    """Split hand ``h`` takes card ``c``: a pair card opens a new hand while the limit
    allows (returns True), any other card completes the hand's two cards."""
    if c == states[s, _FIRST, h] and hands < limit:
        states[s, _HARD, hands] = c + 1
        states[s, _ACES, hands] = c == ACE
        states[s, _CARDS, hands] = 1
        states[s, _FIRST, hands] = c
        states[s, _NODE, hands] = states[s, _NODE, h]
        return True
    states[s, _HARD, h] += c + 1
    states[s, _ACES, h] = 1 if (states[s, _ACES, h] != 0 or c == ACE) else 0
    states[s, _CARDS, h] = 2
    states[s, _PAIRED, h] = c == states[s, _FIRST, h]
    if node_play:
        states[s, _NODE, h] = child[states[s, _NODE, h], c]
    return False


@kernel(inline=True)
def _chart_action(states, s, h, up, total, soft, cd, cs, chart, pair_play, pair_follows_row):
    """A chart's action at hand ``h`` and the chart row deciding (-1: a pair row's own)."""
    if states[s, _CARDS, h] == 2 and states[s, _PAIRED, h]:
        pair = states[s, _FIRST, h]
        a = pair_play[pair, up, 1 if cd else 0, 1 if cs else 0]
        if not pair_follows_row[pair, up]:
            return a, -1
    else:
        a = chart[1 if soft else 0, total, up, 1 if cd else 0, 1 if cs else 0]
    return a, (total - 12 + SOFT_ROW0) if soft else (total - 4)


@kernel(inline=True)
def _probe(rng, states, s, h, row, a, can_double, can_surrender, forced, round_y, weights, rate):
    """With chance ``rate``, replace hand ``h``'s action at cell ``row`` by a letter drawn at
    random (:func:`gamecore.blackjack.checks.probe_cross_check`); the action played.
    ``forced`` is (forced hit, forced stand)."""
    seen = (1.0 - rate) ** (-states[s, _UNPROBED, h])
    round_y[row] += seen
    if rng.random() < rate:
        states[s, _PROBED, h] = True
        letter = below(rng, 6)
        b = _letter_action(letter, can_double, can_surrender, forced[0], forced[1])
        if b >= 0:
            states[s, _PROBE_ROW, h] = row
            states[s, _PROBE_LETTER, h] = letter
            weights[s, h] = 6.0 * seen / rate
            return b
    else:
        states[s, _UNPROBED, h] += 1
    return a


@kernel(inline=True)
def _hand_result(codes, states, s, h, dealer):
    """Hand ``h``'s result against the dealer's final total, in half units."""
    if states[s, _STATE, h] == _SURRENDERED:
        return -1
    total, _soft = _total(states[s, _HARD, h], states[s, _ACES, h])
    if dealer == DEALER_NATURAL:  # no peek: the dealer's Natural takes every wager
        r = -1
    elif total > 21:
        r = -1
        if (
            codes.bust_push
            and dealer > 21
            and states[s, _CARDS, h] == 3
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
    return 2 * r * states[s, _BET, h]


@kernel(inline=True)
def _settle(codes, states, s, hands, dealer, up, visits, weights, round_x, probe_sums, cells):
    """The round's net result (half units); each hand's result added to the cells it
    decided in, and to its probe."""
    net = 0
    for h in range(hands):
        result = _hand_result(codes, states, s, h, dealer)
        net += result
        if states[s, _PROBE_ROW, h] >= 0:
            row, letter = states[s, _PROBE_ROW, h], states[s, _PROBE_LETTER, h]
            round_x[row, letter] += weights[s, h] * result / 2.0
            probe_sums[row, up, letter, 3] += 1.0
        for k in range(states[s, _VISITS, h]):
            _count(cells, visits[s, h, k], up, result)
    return net


@kernel(inline=True)
def _count(cells, row, up, result):
    cells[0, row, up] += result
    cells[1, row, up] += result * result
    cells[2, row, up] += 1


@kernel(inline=True)
def _close_probes(up, round_x, round_y, probe_sums, probe_den):
    """Add the round's probe sums (X per letter, Y per row) to the tallies."""
    for row in range(PAIR_ROW0):
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


@kernel(inline=True)
def _letter_action(letter, can_double, can_surrender, forced_hit, forced_stand):
    """The action of a probe letter (an index in ``chart.LETTERS``) at a hand, or -1 if the
    rules forbid it: D and R where allowed, else the letter's fallback (its second letter)."""
    if (letter == _DH or letter == _DS) and can_double:
        return DOUBLE
    if (letter == _RH or letter == _RS) and can_surrender:
        return SURRENDER
    if letter == _H or letter == _DH or letter == _RH:
        return -1 if forced_stand else HIT
    return -1 if forced_hit else STAND


@kernel(inline=True)
def _tally(tallies, net, natural, hands, up):
    """A round's net result (half units) into the histograms (a Natural paid apart)."""
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


def _round_loop(fresh: bool):
    """The round loop compiled for one way of dealing: ``fresh`` is a constant of the
    compiled code (numba freezes a closure's variables, and caches each variant apart).
    Read at run time instead, it would be tested in every card drawn. Called once per
    chunk: its NamedTuples are unpacked once, outside the loop."""

    @kernel
    def play(rng, shoe, trials, inputs, outputs):
        codes, policy, probe_rate, dealt = inputs
        tallies, counter, scratch = outputs
        return _play(
            rng, shoe, trials, fresh, codes, policy, probe_rate, dealt, tallies, counter, scratch
        )

    return play


@kernel(inline=True)
def _play(rng, shoe, trials, fresh, codes, policy, probe_rate, dealt, tallies, counter, scratch):
    """Play ``trials`` trials into ``tallies``: with ``fresh`` a trial is one round off
    the full ``shoe``, else a whole shoe dealt to its cut card by the counter of ``dealt``
    (its results into ``counter``). A round deals two cards to each of ``dealt.seats`` seats
    in seat order, then the dealer's up and hole cards; the seats play their hands in seat
    order, then the dealer. Tallies, every seat's hands counted:
    each seat's net result (half units) by up card, and the hands it played (1, or 2..4
    after splits); with ``counter.seat_results`` rows, every round's result of each seat in
    units of its bet (a Natural paid ``dealt.natural_pays``).

    Playing a chart, every decision adds the hand's result (half units) to its cell's
    tallies (rows: hard 4..21, soft 12..21, then pair A..10, where a pair's first decision
    counts the seat's whole result); a pair whose row says split, not split here, counts in
    its hard/soft row (``pair_follows_row``), as the exact engine's cell values do. With
    ``probe_rate`` > 0 each hand's first decision of a hand not yet probed is probed
    (:func:`_probe`); probed rounds leave the chart, so a probing run's other tallies are
    not the chart's; nor are a counter's, whose index plays leave it too.

    The round is written out in this loop, not called: a kernel called once per round with
    the policy's, tallies' and scratch's NamedTuples takes and drops a reference to each of
    their arrays every round, and so does a seat's or a hand's play in an inlined helper
    handed those NamedTuples (nested in further helpers, numba's pruning of the reference
    counts gives up): a large share of the loop's time. So they are written out here too.
    """
    n = shoe.size
    # Room behind the shoe for the discards a round past its end goes on from (_draw).
    cards = np.empty(n if fresh else 2 * n - dealt.penetration, dtype=shoe.dtype)
    cards[:n] = shoe
    deck = cards[:n]
    cut = n - dealt.penetration
    stats = counter.stats
    seats, seat = dealt.seats, scratch.seat
    node_play, child = policy.node_play, policy.child
    # The seats' hands are read as states[s, row, hand], never through a view of one seat
    # (states[s]): a view is a new array whose reference count numba takes and drops, per
    # round a large share of the simulator's time (NRT_decref).
    states, visits, probe_weights = scratch.hands, scratch.visit, scratch.probe_weight
    for _ in range(trials):
        base = 0
        running = 0
        shoe_won = 0.0
        shoe_flat = 0.0
        if not fresh:
            shuffle(rng, deck)
        while fresh or base < cut:
            true_count = 0.0
            bet = 1.0
            turn = banks = False  # the counter's turn at the bank, and whether it banks
            if not fresh:
                true_count = running * dealt.deck_cards / (n - base)
                bet = counting.ramp_bet(true_count, dealt.trigger, dealt.ramp)
                if dealt.turn_rounds > 0:
                    k = int(stats[counting.ROUNDS]) // dealt.turn_rounds
                    turn = k % (seats + 1) == seats
                    banks = turn and true_count <= dealt.bank_at
            recording = -1
            if not fresh and stats[C_RECORDED] < counter.record.shape[0]:
                recording = int(stats[C_RECORDED])
                counter.record[recording, :10] = 0.0
                for i in range(base, n):
                    counter.record[recording, cards[i]] += 1.0
                counter.record[recording, R_TRUE_COUNT] = true_count
                counter.record[recording, R_SHOE] = stats[C_SHOES]
            pos = base
            for s in range(seats):
                seat[s, _P1] = draw_card(rng, cards, pos, fresh)
                seat[s, _P2] = draw_card(rng, cards, pos + 1, fresh)
                pos += 2
            up = draw_card(rng, cards, pos, fresh)
            hole = draw_card(rng, cards, pos + 1, fresh)
            pos += 2
            live = False
            for s in range(seats):
                p1, p2 = seat[s, _P1], seat[s, _P2]
                ended, net, natural = _opening(codes, policy.early_surrender, p1, p2, up, hole)
                seat[s, _ENDED], seat[s, _NET], seat[s, _NATURAL] = ended, net, natural
                seat[s, _HANDS] = 1
                if ended:
                    continue
                hands, split = _first_hands(
                    codes, states, s, policy.root_split, child, policy.empty, node_play, p1, p2,
                    up,
                )  # fmt: skip
                limit = codes.max_ace_hands if p1 == ACE else codes.max_hands
                h = 0
                forbidden = False
                while h < hands and not forbidden:
                    if states[s, _CARDS, h] == 1:  # a split hand takes its second card
                        c = _draw(rng, cards, pos, fresh, n, base)
                        pos += 1
                        if _second_card(c, states, s, h, hands, limit, node_play, child):
                            hands += 1  # a resplit: the new hand waits its turn
                            continue
                    if split and states[s, _FIRST, h] == ACE and codes.split_aces_one_card:
                        states[s, _STATE, h] = _DONE
                        h += 1
                        continue
                    # The hand's decisions, until it stands, busts, doubles or surrenders.
                    while True:
                        total, soft = _total(states[s, _HARD, h], states[s, _ACES, h])
                        if total > 21:
                            states[s, _STATE, h] = _DONE
                            break
                        forced = codes.forced_totals
                        forced_hit = forced and (
                            (not soft and total <= 11) or (soft and total <= 17)
                        )
                        forced_stand = forced and total >= 20
                        two_cards = states[s, _CARDS, h] == 2
                        cd = may_double(
                            states[s, _HARD, h], soft, states[s, _CARDS, h], split, codes
                        )
                        cs = (not split) and (
                            (codes.surrender == SURRENDER_LATE and two_cards)
                            or (
                                codes.surrender == SURRENDER_ANY_CARDS
                                and not (up == ACE or up == TEN)
                            )
                        )
                        row = -1
                        if node_play:
                            node = states[s, _NODE, h]
                            a = (
                                policy.split_action[p1, node, up]
                                if split
                                else policy.unsplit_action[node, up]
                            )
                        else:
                            a, row = _chart_action(
                                states, s, h, up, total, soft, cd, cs,
                                policy.chart, policy.pair_play, policy.pair_follows_row,
                            )  # fmt: skip
                        if (
                            not fresh
                            and s == dealt.counter_seat
                            and not banks
                            and two_cards
                            and not split
                            and not soft
                            and not states[s, _PAIRED, h]
                            and dealt.index_first[total, up] >= 0
                        ):
                            at = dealt.index_at[total, up]
                            first = (
                                true_count >= at
                                if dealt.index_sign[total, up] > 0
                                else true_count <= at
                            )
                            a = (
                                dealt.index_first[total, up]
                                if first
                                else dealt.index_second[total, up]
                            )
                            if a == DOUBLE and not cd:
                                a = HIT
                        if row >= 0 and not states[s, _PROBED, h]:
                            if states[s, _VISITS, h] < visits.shape[2]:
                                visits[s, h, states[s, _VISITS, h]] = row
                                states[s, _VISITS, h] += 1
                            if probe_rate > 0.0:
                                a = _probe(
                                    rng, states, s, h, row, a, cd, cs,
                                    (forced_hit, forced_stand), scratch.round_y, probe_weights,
                                    probe_rate,
                                )  # fmt: skip
                        bad = (
                            (a == STAND and forced_hit)
                            or (a == HIT and forced_stand)
                            or a < 0
                            or a > 3
                        )
                        if bad or (a == DOUBLE and not cd) or (a == SURRENDER and not cs):
                            forbidden = True  # validated tables: cannot happen
                            break
                        if a == STAND or a == SURRENDER:
                            states[s, _STATE, h] = _DONE if a == STAND else _SURRENDERED
                            break
                        c = _draw(rng, cards, pos, fresh, n, base)
                        pos += 1
                        states[s, _HARD, h] += c + 1
                        states[s, _ACES, h] = 1 if (states[s, _ACES, h] != 0 or c == ACE) else 0
                        states[s, _CARDS, h] += 1
                        if node_play:
                            states[s, _NODE, h] = child[states[s, _NODE, h], c]
                        if a == DOUBLE:
                            states[s, _BET, h] = 2
                            states[s, _STATE, h] = _DONE
                            break
                    h += 1
                seat[s, _HANDS] = hands
                if forbidden:
                    seat[s, _ENDED], seat[s, _NET] = True, FORBIDDEN_ROUND
                else:
                    live = True
            if live:
                dealer, pos = _dealer(rng, cards, pos, up, hole, codes.hits_soft_17, fresh, n, base)
                for s in range(seats):
                    if seat[s, _ENDED]:
                        continue
                    net = _settle(
                        codes, states, s, seat[s, _HANDS], dealer, up, visits, probe_weights,
                        scratch.round_x, tallies.probe_sums,
                        tallies.cells,
                    )  # fmt: skip
                    seat[s, _NET] = net
                    if seat[s, _P1] == seat[s, _P2] and not node_play:
                        _count(tallies.cells, PAIR_ROW0 + seat[s, _P1], up, net)  # the pair
                        # row's decision: the seat's whole result
                if probe_rate > 0.0:
                    _close_probes(
                        up, scratch.round_x, scratch.round_y, tallies.probe_sums,
                        tallies.probe_den,
                    )  # fmt: skip
            table_row = int(stats[C_TABLE_ROUNDS])
            keep = table_row < counter.seat_results.shape[0]
            for s in range(seats):
                _tally(tallies, seat[s, _NET], seat[s, _NATURAL], seat[s, _HANDS], up)
                if keep:
                    counter.seat_results[table_row, s] = _units(
                        seat[s, _NET], seat[s, _NATURAL], dealt.natural_pays
                    )
            if keep:
                stats[C_TABLE_ROUNDS] += 1.0
            if pos > n:
                stats[C_RESHUFFLED] += 1.0
            if fresh:
                break
            if keep and stats[C_TABLE_ROUNDS] == counter.seat_results.shape[0]:
                return  # the rounds asked for are dealt
            # The counter: its seat's result at its bet, insurance, then every card seen.
            won, flat = _counter_round(
                stats, seat, seats, dealt.counter_seat, dealt.natural_pays, bet, turn, banks,
                true_count, dealt.insurance_at, dealt.insurance_sign, up, hole, base == 0,
            )  # fmt: skip
            if recording >= 0:
                counter.record[recording, R_RESULT] = _units(
                    seat[dealt.counter_seat, _NET],
                    seat[dealt.counter_seat, _NATURAL],
                    dealt.natural_pays,
                )
                stats[C_RECORDED] += 1.0
            shoe_won += won
            shoe_flat += flat
            for i in range(base, pos):
                running += dealt.tags[cards[i]]
            base = pos
        if not fresh:
            stats[C_SHOES] += 1.0
            stats[counting.SHOE_WON_SQ] += shoe_won * shoe_won
            stats[counting.SHOE_FLAT_SQ] += shoe_flat * shoe_flat


@kernel(inline=True)
def _counter_round(
    stats, seat, seats, counter_seat, natural_pays, bet, turn, banks, true_count,
    insurance_at, insurance_sign, up, hole, first,
):  # fmt: skip
    """The counter's round into ``stats``: its seat's result at its ``bet`` and insurance
    (at or beyond ``insurance_at`` by ``insurance_sign``), or in its ``turn`` at the bank
    the bank's result (minus every seat's) if it ``banks``; ``first``: the shoe's first
    round. Returns (won, the flat bettor's result): the flat bettor banks in every turn."""
    result = _units(seat[counter_seat, _NET], seat[counter_seat, _NATURAL], natural_pays)
    flat = result
    won = bet * result
    if turn:
        flat = 0.0
        for s in range(seats):
            flat -= _units(seat[s, _NET], seat[s, _NATURAL], natural_pays)
    if banks:
        won, bet = flat, float(seats)  # its action: every seat's unit
        stats[C_BANKED] += 1.0
    elif up == ACE and not np.isnan(insurance_at):
        insure = true_count >= insurance_at if insurance_sign > 0 else true_count <= insurance_at
        if insure:  # half the bet, paid 2 to 1 on a ten in the hole
            won += bet * (1.0 if hole == TEN else -0.5)
            stats[C_INSURED] += 1.0
    counting.add_round(stats, bet, won, flat, result, first)
    return won, flat


@kernel(inline=True)
def _units(net, natural, natural_pays):
    """A seat's result in units of its bet (0 for a forbidden round, refused later)."""
    if natural:
        return natural_pays
    if net == FORBIDDEN_ROUND:
        return 0.0
    return net / 2.0


_fresh_rounds = _round_loop(True)
_shoe_rounds = _round_loop(False)


def simulate_rounds(
    rng: np.random.Generator,
    shoe: np.ndarray,
    trials: int,
    inputs: RoundInputs,
    outputs: RoundOutputs,
) -> None:
    """Deal ``trials`` rounds, each off the full ``shoe`` freshly shuffled.

    Parameters
    ----------
    rng : numpy.random.Generator
        The chunk's generator (a PCG64 bit generator).
    shoe : numpy.ndarray
        The full shoe as one rank index (0..9) per card, int64.
    trials : int
        Rounds to deal.
    inputs : RoundInputs
        The rule codes, the policy, the probe rate and the dealing (its seats).
    outputs : RoundOutputs
        The tallies, the counter's tallies (its seat results kept) and the work space,
        added to in place.

    Returns
    -------
    None
        Everything dealt is in ``outputs``.
    """
    _fresh_rounds(rng, shoe, trials, inputs, outputs)


def simulate_shoes(
    rng: np.random.Generator,
    shoe: np.ndarray,
    trials: int,
    inputs: RoundInputs,
    outputs: RoundOutputs,
) -> None:
    """Deal ``trials`` real shoes to their cut card, played by the counter of ``inputs.dealt``.

    Parameters
    ----------
    rng : numpy.random.Generator
        The chunk's generator (a PCG64 bit generator).
    shoe : numpy.ndarray
        The full shoe as one rank index (0..9) per card, int64.
    trials : int
        Shoes to deal (a table run stops once its seat results are full).
    inputs : RoundInputs
        The rule codes, the policy, the probe rate and the dealing (:class:`Dealt`: the
        cut card, the counter's count, bets, index plays and turn at the bank).
    outputs : RoundOutputs
        The tallies, the counter's tallies and the work space, added to in place.

    Returns
    -------
    None
        Everything dealt is in ``outputs``.
    """
    _shoe_rounds(rng, shoe, trials, inputs, outputs)


@kernel
def _dealer_hands(rng, shoe, rounds, h17):
    """Rounds by (up card, dealer outcome as in ``DEALER_OUTCOMES``)."""
    counts = np.zeros((10, N_OUTCOMES), dtype=np.int64)
    cards = shoe.copy()
    for _ in range(rounds):
        up = draw_card(rng, cards, 0, True)
        hole = draw_card(rng, cards, 1, True)
        total, _pos = _dealer(rng, cards, 2, up, hole, h17, True, cards.size, 0)
        if total == DEALER_NATURAL:
            outcome = NATURAL
        elif total <= 21:
            outcome = total - 17
        else:
            outcome = 5 + total - 22
        counts[up, outcome] += 1
    return counts


def simulate_dealer_hands(
    rng: np.random.Generator, shoe: np.ndarray, rounds: int, h17: bool
) -> np.ndarray:
    """Deal ``rounds`` dealer hands (up card, hole card, hits), each off the full shoe.

    Parameters
    ----------
    rng : numpy.random.Generator
        The chunk's generator.
    shoe : numpy.ndarray
        The full shoe as one rank index (0..9) per card, int64.
    rounds : int
        Dealer hands to deal.
    h17 : bool
        The dealer hits soft 17.

    Returns
    -------
    numpy.ndarray
        Rounds by (up card, dealer outcome as in ``DEALER_OUTCOMES``), int64 (10, outcomes).
    """
    return _dealer_hands(rng, shoe, rounds, bool(h17))
