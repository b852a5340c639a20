"""A seat's round in the simulator's round kernel (:mod:`gamecore.blackjack.dealt`): its
opening, its hands played by a policy's tables (:class:`SimPolicy`: splits, doubles,
surrender, probes, a counter's index plays), the dealer's hand, and the settlement.

Central idea
------------
A seat's hands are columns of ``RoundScratch.hands[seat, row, hand]`` (rows ``_HARD`` ..
``_PROBED``), each played decision by decision from the policy's tables until it stands,
busts, doubles or surrenders. The round loop inlines these kernels and hands them borrowed
values (:func:`gamecore._jit.borrowed`): NamedTuples of arrays whose copies, which numba
makes for every inlined call, cost no reference counts, so a seat's or a hand's play is a
kernel of its own at no cost to the loop. The public kernels here are inlined by
:mod:`gamecore.blackjack.dealt` (:data:`gamecore._jit.INLINED_ACROSS_MODULES`).
"""

from __future__ import annotations

from gamecore._jit import kernel
from gamecore.blackjack.backward import may_double
from gamecore.blackjack.round_tables import PAIR_ROW0, SOFT_ROW0
from gamecore.blackjack.rules import (
    ACE,
    DOUBLE,
    HIT,
    STAND,
    SURRENDER,
    SURRENDER_ANY_CARDS,
    SURRENDER_EARLY,
    SURRENDER_LATE,
    TEN,
)
from gamecore.dealing import below, draw_card, shuffle

#: The dealer's "total" for a Natural in the round kernel.
DEALER_NATURAL = 99
#: A round whose strategy asked for an action the rules forbid (the tables are validated
#: first, so this cannot happen; the simulation refuses the run if it does).
FORBIDDEN_ROUND = 999
#: Columns of ``RoundScratch.seat``: the first two cards, whether the opening ended the
#: seat's round, its net result (half units), whether a Natural was paid, hands played.
CARD1, CARD2, ENDED, NET, NATURAL_PAID, HANDS = range(6)
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


@kernel(inline=True)
def _total(hard, aces):
    """(total, soft) of a hand from its hard total and whether it holds an ace."""
    if aces and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


@kernel(inline=True)
def draw(deal, pos, fresh):
    """The card at ``pos`` (:func:`gamecore.dealing.draw_card`). Dealt from a real shoe, a
    round that reaches the shoe's end goes on from the discards: the cards of the shoe's
    earlier rounds are shuffled in behind it (RULES.md).

    Parameters
    ----------
    deal : tuple
        (generator, the cards, the shoe's size n, the position its round started at): the
        cards are the shoe's n cards with room behind them for the discards.
    pos : int
        The position dealt.
    fresh : bool
        Whether the round is dealt off a fresh shoe (each card drawn uniformly).

    Returns
    -------
    int
        The card dealt (a rank index 0..9).
    """
    rng, cards, n, base = deal
    if not fresh and pos == n:
        cards[n : n + base] = cards[:base]
        shuffle(rng, cards[n : n + base])
    return draw_card(rng, cards, pos, fresh)


@kernel(inline=True)
def dealer_total(deal, pos, up, hole, h17, fresh):
    """Play the dealer's hand.

    Parameters
    ----------
    deal : tuple
        The cards dealt from (:func:`draw`).
    pos : int
        The position of the dealer's first hit card.
    up, hole : int
        The dealer's up and hole cards.
    h17 : bool
        Whether the dealer hits soft 17.
    fresh : bool
        Whether the round is dealt off a fresh shoe.

    Returns
    -------
    tuple
        (the final total, :data:`DEALER_NATURAL` for a Natural; the next position).
    """
    hard = up + 1 + hole + 1
    aces = up == ACE or hole == ACE
    total, soft = _total(hard, aces)
    if total == 21:
        return DEALER_NATURAL, pos
    while total < 17 or (h17 and total == 17 and soft):
        c = draw(deal, pos, fresh)
        pos += 1
        hard += c + 1
        aces = aces or c == ACE
        total, soft = _total(hard, aces)
    return total, pos


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
def _first_hands(codes, policy, states, s, p1, p2, up):
    """Set up the round's hands from the first two cards: (hands, split)."""
    child, node_play = policy.child, policy.node_play
    for h in range(states.shape[2]):
        for row in range(states.shape[1]):
            states[s, row, h] = 0
        states[s, _BET, h] = 1
        states[s, _PROBE_ROW, h] = -1
    limit = codes.max_ace_hands if p1 == ACE else codes.max_hands
    if p1 == p2 and limit >= 2 and policy.root_split[p1, p2, up]:
        for h in range(2):
            states[s, _HARD, h] = p1 + 1
            states[s, _ACES, h] = p1 == ACE
            states[s, _CARDS, h] = 1
            states[s, _FIRST, h] = p1
            states[s, _NODE, h] = child[policy.empty, p1] if node_play else 0
        return 2, True
    states[s, _HARD, 0] = p1 + p2 + 2
    states[s, _ACES, 0] = p1 == ACE or p2 == ACE
    states[s, _CARDS, 0] = 2
    states[s, _FIRST, 0] = p1
    states[s, _PAIRED, 0] = p1 == p2
    if node_play:
        states[s, _NODE, 0] = child[child[policy.empty, p1], p2]
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
def _options(codes, states, hand, up, total, soft):
    """What the rules allow hand ``hand`` (seat, hand, split) at this decision: (may
    double, may surrender, forced hit, forced stand)."""
    s, h, split = hand[0], hand[1], hand[2]
    forced = codes.forced_totals
    forced_hit = forced and ((not soft and total <= 11) or (soft and total <= 17))
    forced_stand = forced and total >= 20
    two_cards = states[s, _CARDS, h] == 2
    cd = may_double(states[s, _HARD, h], soft, states[s, _CARDS, h], split, codes)
    cs = (not split) and (
        (codes.surrender == SURRENDER_LATE and two_cards)
        or (codes.surrender == SURRENDER_ANY_CARDS and not (up == ACE or up == TEN))
    )
    return cd, cs, forced_hit, forced_stand


@kernel(inline=True)
def _policy_action(policy, states, hand, up, total, soft, options):
    """The policy's action at hand ``hand`` (seat, hand, split, first card) and the chart
    row deciding (-1: none, or a pair row's own)."""
    s, h, split, p1 = hand
    if policy.node_play:
        node = states[s, _NODE, h]
        if split:
            return policy.split_action[p1, node, up], -1
        return policy.unsplit_action[node, up], -1
    cd, cs = 1 if options[0] else 0, 1 if options[1] else 0
    if states[s, _CARDS, h] == 2 and states[s, _PAIRED, h]:
        pair = states[s, _FIRST, h]
        a = policy.pair_play[pair, up, cd, cs]
        if not policy.pair_follows_row[pair, up]:
            return a, -1
    else:
        a = policy.chart[1 if soft else 0, total, up, cd, cs]
    return a, (total - 12 + SOFT_ROW0) if soft else (total - 4)


@kernel(inline=True)
def _index_play(a, dealt, view, total, up, may_double_now):
    """The counter's index play at ``total`` against ``up`` where it has one, else ``a``;
    ``view`` is the round's (up, hole, true count, counter banks)."""
    if dealt.index_first[total, up] < 0:
        return a
    true_count, at = view[2], dealt.index_at[total, up]
    first = true_count >= at if dealt.index_sign[total, up] > 0 else true_count <= at
    a = dealt.index_first[total, up] if first else dealt.index_second[total, up]
    if a == DOUBLE and not may_double_now:
        return HIT
    return a


@kernel(inline=True)
def _visit(rng, scratch, hand, row, a, options, rate):
    """Hand ``hand`` decides at chart row ``row``: the row kept for the settlement and,
    with chance ``rate``, the action replaced by a probe letter; the action played."""
    s, h = hand[0], hand[1]
    states, visits = scratch.hands, scratch.visit
    if states[s, _VISITS, h] < visits.shape[2]:
        visits[s, h, states[s, _VISITS, h]] = row
        states[s, _VISITS, h] += 1
    if rate > 0.0:
        return _probe(rng, scratch, s, h, row, a, options, rate)
    return a


@kernel(inline=True)
def _probe(rng, scratch, s, h, row, a, options, rate):
    """With chance ``rate``, replace hand ``h``'s action at cell ``row`` by a letter drawn at
    random (:func:`gamecore.blackjack.checks.probe_cross_check`); the action played."""
    states = scratch.hands
    seen = (1.0 - rate) ** (-states[s, _UNPROBED, h])
    scratch.round_y[row] += seen
    if rng.random() < rate:
        states[s, _PROBED, h] = True
        letter = below(rng, 6)
        b = _letter_action(letter, options)
        if b >= 0:
            states[s, _PROBE_ROW, h] = row
            states[s, _PROBE_LETTER, h] = letter
            scratch.probe_weight[s, h] = 6.0 * seen / rate
            return b
    else:
        states[s, _UNPROBED, h] += 1
    return a


@kernel(inline=True)
def _letter_action(letter, options):
    """The action of a probe letter (an index in ``chart.LETTERS``) at a hand, or -1 if the
    rules forbid it: D and R where allowed, else the letter's fallback (its second letter).
    ``options``: (may double, may surrender, forced hit, forced stand)."""
    can_double, can_surrender, forced_hit, forced_stand = options
    if (letter == _DH or letter == _DS) and can_double:
        return DOUBLE
    if (letter == _RH or letter == _RS) and can_surrender:
        return SURRENDER
    if letter == _H or letter == _DH or letter == _RH:
        return -1 if forced_stand else HIT
    return -1 if forced_hit else STAND


@kernel(inline=True)
def _allowed(a, options):
    """Whether the rules allow action ``a`` (``options`` as :func:`_options` gives them)."""
    cd, cs, forced_hit, forced_stand = options
    bad = (a == STAND and forced_hit) or (a == HIT and forced_stand) or a < 0 or a > 3
    return not (bad or (a == DOUBLE and not cd) or (a == SURRENDER and not cs))


@kernel(inline=True)
def _play_hand(deal, pos, fresh, hand, view, inputs, scratch):
    """Play hand ``hand`` (seat, hand, split, first card) to its end: (next position,
    whether the policy asked for a forbidden action)."""
    s, h, split, p1 = hand
    codes, policy, probe_rate, dealt = inputs
    states, up = scratch.hands, view[0]
    counter = not fresh and s == dealt.counter_seat and not view[3] and not split
    while True:
        total, soft = _total(states[s, _HARD, h], states[s, _ACES, h])
        if total > 21:
            states[s, _STATE, h] = _DONE
            return pos, False
        options = _options(codes, states, hand, up, total, soft)
        a, row = _policy_action(policy, states, hand, up, total, soft, options)
        if counter and states[s, _CARDS, h] == 2 and not soft and not states[s, _PAIRED, h]:
            a = _index_play(a, dealt, view, total, up, options[0])
        if row >= 0 and not states[s, _PROBED, h]:
            a = _visit(deal[0], scratch, hand, row, a, options, probe_rate)
        if not _allowed(a, options):
            return pos, True  # validated tables: cannot happen
        if a == STAND or a == SURRENDER:
            states[s, _STATE, h] = _DONE if a == STAND else _SURRENDERED
            return pos, False
        c = draw(deal, pos, fresh)
        pos += 1
        states[s, _HARD, h] += c + 1
        states[s, _ACES, h] = 1 if (states[s, _ACES, h] != 0 or c == ACE) else 0
        states[s, _CARDS, h] += 1
        if policy.node_play:
            states[s, _NODE, h] = policy.child[states[s, _NODE, h], c]
        if a == DOUBLE:
            states[s, _BET, h] = 2
            states[s, _STATE, h] = _DONE
            return pos, False


@kernel(inline=True)
def play_seat(deal, pos, fresh, s, view, inputs, scratch):
    """Play seat ``s``'s round up to the dealer's hand: its opening (a Natural, the
    dealer's, early surrender), then its hands in order, a split hand taking its second card
    when its turn comes. The seat's columns of ``scratch.seat`` are set (:data:`ENDED`,
    :data:`NET` for a round the opening or a forbidden action ended, :data:`NATURAL_PAID`,
    :data:`HANDS`).

    Parameters
    ----------
    deal : tuple
        The cards dealt from (:func:`draw`).
    pos : int
        The position of the next card.
    fresh : bool
        Whether the round is dealt off a fresh shoe.
    s : int
        The seat.
    view : tuple
        The round's (up card, hole card, true count, whether the counter banks).
    inputs : RoundInputs
        The rule codes, the policy, the probe rate and the dealing.
    scratch : RoundScratch
        The round's work space; the seat's first two cards in ``scratch.seat``.

    Returns
    -------
    tuple
        (the next position, whether the seat's hands wait for the dealer's).
    """
    codes, policy = inputs[0], inputs[1]
    seat, states = scratch.seat, scratch.hands
    up, hole = view[0], view[1]
    p1, p2 = seat[s, CARD1], seat[s, CARD2]
    ended, net, natural = _opening(codes, policy.early_surrender, p1, p2, up, hole)
    seat[s, ENDED], seat[s, NET], seat[s, NATURAL_PAID] = ended, net, natural
    seat[s, HANDS] = 1
    if ended:
        return pos, False
    hands, split = _first_hands(codes, policy, states, s, p1, p2, up)
    limit = codes.max_ace_hands if p1 == ACE else codes.max_hands
    h = 0
    forbidden = False
    while h < hands and not forbidden:
        if states[s, _CARDS, h] == 1:  # a split hand takes its second card
            c = draw(deal, pos, fresh)
            pos += 1
            if _second_card(c, states, s, h, hands, limit, policy.node_play, policy.child):
                hands += 1  # a resplit: the new hand waits its turn
                continue
        if split and states[s, _FIRST, h] == ACE and codes.split_aces_one_card:
            states[s, _STATE, h] = _DONE
        else:
            pos, forbidden = _play_hand(deal, pos, fresh, (s, h, split, p1), view, inputs, scratch)
        h += 1
    seat[s, HANDS] = hands
    if forbidden:
        seat[s, ENDED], seat[s, NET] = True, FORBIDDEN_ROUND
    return pos, not forbidden


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
def _settle(codes, scratch, s, dealer, up, tallies):
    """Seat ``s``'s net result (half units); each hand's result added to the cells it
    decided in, and to its probe."""
    states = scratch.hands
    net = 0
    for h in range(scratch.seat[s, HANDS]):
        result = _hand_result(codes, states, s, h, dealer)
        net += result
        if states[s, _PROBE_ROW, h] >= 0:
            row, letter = states[s, _PROBE_ROW, h], states[s, _PROBE_LETTER, h]
            scratch.round_x[row, letter] += scratch.probe_weight[s, h] * result / 2.0
            tallies.probe_sums[row, up, letter, 3] += 1.0
        for k in range(states[s, _VISITS, h]):
            _count(tallies.cells, scratch.visit[s, h, k], up, result)
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
def settle_round(inputs, tallies, scratch, dealer, up, seats):
    """Settle every seat whose hands waited for the dealer's (its :data:`NET` set), count
    each decision's result in its cell (a pair row's first decision counts the seat's whole
    result) and add the round's probes to the tallies.

    Parameters
    ----------
    inputs : RoundInputs
        The rule codes, the policy, the probe rate and the dealing.
    tallies : Tallies
        The simulation's tallies, added to.
    scratch : RoundScratch
        The round's work space (the seats' hands).
    dealer : int
        The dealer's final total (:data:`DEALER_NATURAL` for a Natural).
    up : int
        The dealer's up card.
    seats : int
        The seats dealt.

    Returns
    -------
    None
        The results are in ``scratch.seat`` and ``tallies``.
    """
    codes, policy, probe_rate = inputs[0], inputs[1], inputs[2]
    seat = scratch.seat
    for s in range(seats):
        if seat[s, ENDED]:
            continue
        net = _settle(codes, scratch, s, dealer, up, tallies)
        seat[s, NET] = net
        if seat[s, CARD1] == seat[s, CARD2] and not policy.node_play:
            _count(tallies.cells, PAIR_ROW0 + seat[s, CARD1], up, net)  # the pair
            # row's decision: the seat's whole result
    if probe_rate > 0.0:
        _close_probes(up, scratch.round_x, scratch.round_y, tallies.probe_sums, tallies.probe_den)
