"""Slow, independent pure-Python reference ("oracle") for 21st Century Baccarat.

Written from the rule texts only (``/work/shared/RULES.md`` section ``c21_baccarat`` and
the seed rule card ``seeds/000_6be28a3640f4b84f.txt``), never from the fast engine
(``gamecore/c21_baccarat.py``), so that tests compare two independent implementations.
No numpy, no numba: plain Python ints (and ``fractions.Fraction`` when a strategy returns a
probability strictly between 0 and 1), so every count is exact for any shoe size.

Rules as read here
------------------
* Card classes: point values ``0..9`` (10/J/Q/K = 0, A = 1, 2..9 face) and the joker.
  The joker is written ``JOKER`` (= the integer 10, which is also its index in a
  composition); the string ``"J"`` is accepted as an alias wherever a card is taken.
  (``"J"`` means the JOKER, not the jack: a jack is the point class 0.)
* Shoe: ``decks`` x (52 + ``jokers_per_deck``) cards, see :func:`c21_composition`.
* A hand holding a joker counts 9 (the joker is wild, worth any value 0..9).  Two jokers
  as a hand's first two cards is a "Natural", which beats every other hand, including
  every 9; Natural against Natural is a push.
* Deal order (used for counting ordered card sequences): P/D up card, P/D hole card,
  player card 1, player card 2, then the player's third card (if he draws), then the
  P/D's third card (if it draws).
* A joker up card concludes the deal (reason ``"joker up"``).  Otherwise, if the P/D's two
  cards total 9 (a joker hole card makes a 9) the deal is concluded (``"pd nine"``).
* Otherwise (``"drawn"``): the player draws one card or stands per ``player_draw(up,
  total)``; a player hand holding a joker never draws (it is a 9 or a Natural) and the
  strategy is not consulted for it.  Then the P/D draws one card or stands per
  ``dealer_draw(up, player_drew, total)``.  A joker as a third card makes the hand 9.
  The oracle follows the strategy functions as given; it does not enforce the card's
  "must hit 0-4 / must stand 7+" limits (that is the strategy's business).
* Settlement: Naturals as above; otherwise the higher total wins and equal totals push,
  except that when both totals are 0 the P/D wins (``pd_wins_ties_on_zero=True``, the
  default).  The player's net result is +1, 0 or -1 per unit wagered.

Counting convention
-------------------
Every deal is weighted by its number of ORDERED card sequences drawn without replacement
from the shoe.  A deal that uses k cards (4, 5 or 6) is completed to six cards by
multiplying by ``(N-k)(N-k-1)...(N-5)``, N = cards in the shoe, so that all weights sum to
``N(N-1)(N-2)(N-3)(N-4)(N-5)``.  A strategy probability p in (0, 1) splits a branch into
weight ``w*p`` (draw) and ``w*(1-p)`` (stand), as exact Fractions.

Result dictionaries (from :func:`ev_by_class` and :func:`ev_card_by_card`)::

    {"win": W, "push": P, "loss": L, "total": W + P + L,
     "joker_up": {"win", "push", "loss"},   # part of W/P/L from deals ended by a joker up
     "pd_nine":  {"win", "push", "loss"},   # part from deals ended by a P/D two-card 9
     "tie_on_zero": Z,    # weight of deals ending with both totals 0 (no Natural); these
                          # are losses when pd_wins_ties_on_zero, else pushes
     "naturals_push": NN} # weight of deals with a Natural against a Natural (pushes)

The player's EV per unit is ``(W - L) / total``, see :func:`ev`.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

JOKER = 10
"""Card class of the joker (also its index in an 11-entry composition)."""

DECK_POINT_COMPOSITION = [16, 4, 4, 4, 4, 4, 4, 4, 4, 4]
"""One 52-card deck by point class 0..9: 10/J/Q/K (16 cards) are 0, A..9 four each."""

REASONS = ("joker up", "pd nine", "drawn")


# ---------------------------------------------------------------------------
# Cards, shoes, hands
# ---------------------------------------------------------------------------


def card_class(card) -> int:
    """Normalise a card to its class: 0..9, or ``JOKER`` (10) for ``10`` / ``"J"``.

    >>> card_class("J"), card_class(10), card_class(7)
    (10, 10, 7)
    """
    if type(card) is int and 0 <= card <= 10:  # fast path: already a class
        return card
    if isinstance(card, str):
        if card.strip().upper() in ("J", "JOKER"):
            return JOKER
        raise ValueError(f"unknown card {card!r} (use 0..9, or 'J' / 10 for the joker)")
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card <= 10:
        raise ValueError(f"unknown card {card!r} (use 0..9, or 'J' / 10 for the joker)")
    return card


def c21_composition(decks: int = 1, jokers_per_deck: int = 1) -> list[int]:
    """Composition (11 counts: classes 0..9, then jokers) of a 21st Century Baccarat shoe.

    >>> c21_composition(1, 1)
    [16, 4, 4, 4, 4, 4, 4, 4, 4, 4, 1]
    >>> sum(c21_composition(8, 1))
    424
    """
    return [decks * c for c in DECK_POINT_COMPOSITION] + [decks * jokers_per_deck]


def cards_of(composition) -> list[int]:
    """The physical cards (as classes) of a composition, e.g. for :func:`ev_card_by_card`."""
    return [cls for cls, n in enumerate(composition) for _ in range(n)]


def hand_value(cards) -> tuple[int, bool]:
    """Value of a hand: ``(value, is_natural)``.

    A Natural is exactly two cards, both jokers (value reported as 9).  Any other hand
    holding a joker counts 9.  A joker-free hand counts its point sum modulo 10.

    >>> hand_value(["J", "J"])
    (9, True)
    >>> hand_value([3, "J"])
    (9, False)
    >>> hand_value([7, 8, 6])
    (1, False)
    """
    return _value([card_class(c) for c in cards])


def _value(classes) -> tuple[int, bool]:
    """:func:`hand_value` of a list of already-normalised classes."""
    jokers = classes.count(JOKER)
    if jokers == 2 and len(classes) == 2:
        return 9, True
    if jokers:
        return 9, False
    return sum(classes) % 10, False


def settle(player_hand, pd_hand, pd_wins_ties_on_zero: bool = True) -> int:
    """The player's net result (+1 win, 0 push, -1 loss) of one finished hand vs the P/D.

    >>> settle(["J", "J"], [4, 5])      # player Natural beats a P/D 9
    1
    >>> settle([0, 0], [5, 5])          # both 0: the P/D wins the tie
    -1
    >>> settle([0, 0], [5, 5], pd_wins_ties_on_zero=False)
    0
    """
    pv, pnat = hand_value(player_hand)
    dv, dnat = hand_value(pd_hand)
    return _compare(pv, pnat, dv, dnat, pd_wins_ties_on_zero)


def _compare(pv: int, pnat: bool, dv: int, dnat: bool, pd_wins_ties_on_zero: bool) -> int:
    """:func:`settle` on hand values: player (pv, pnat) against P/D (dv, dnat)."""
    if pnat or dnat:
        if pnat and dnat:
            return 0
        return 1 if pnat else -1
    if pv > dv:
        return 1
    if pv < dv:
        return -1
    if pv == 0 and pd_wins_ties_on_zero:
        return -1
    return 0


# ---------------------------------------------------------------------------
# House Way
# ---------------------------------------------------------------------------


def house_way_player(up: int, total: int) -> int:
    """House Way for the player: draw (1) on 5 or less, stand (0) on 6 or more."""
    return 1 if total <= 5 else 0


def house_way_dealer(up: int, drew: bool, total: int) -> int:
    """House Way for the P/D: draw (1) on 5 or less, stand (0) on 6 or more."""
    return 1 if total <= 5 else 0


# ---------------------------------------------------------------------------
# The deal, played on a prefix of the card sequence
# ---------------------------------------------------------------------------


def _check_probability(p, who: str):
    if isinstance(p, bool):
        p = int(p)
    if not 0 <= p <= 1:
        raise ValueError(f"{who} returned {p!r}, not a probability in [0, 1]")
    return p


def _resolve(prefix, decisions, player_draw, dealer_draw, pd_wins_ties_on_zero):
    """Play the deal as far as the cards ``prefix`` and draw ``decisions`` allow.

    ``prefix`` is the list of card classes dealt so far (deal order); ``decisions`` the
    list of draw decisions (bools) taken so far: first the player's (only when the
    player's strategy is consulted), then the P/D's.  Returns one of

    * ``("card",)``          -- the next card of the sequence is needed;
    * ``("choice", p)``      -- the next draw decision is needed; p = P(draw);
    * ``("done", net, reason, cards_used, tie_on_zero, naturals_push)``.
    """
    if len(prefix) < 4:
        return ("card",)
    up, hole, p1, p2 = prefix[:4]
    pd_hand = [up, hole]
    player_hand = [p1, p2]

    def finish(reason, used):
        pv, pnat = _value(player_hand)
        dv, dnat = _value(pd_hand)
        net = _compare(pv, pnat, dv, dnat, pd_wins_ties_on_zero)
        tie0 = (not pnat) and (not dnat) and pv == 0 and dv == 0
        nn = pnat and dnat
        return ("done", net, reason, used, tie0, nn)

    if up == JOKER:
        return finish("joker up", 4)
    if hole == JOKER or (up + hole) % 10 == 9:
        return finish("pd nine", 4)

    # Player's decision.  A hand holding a joker is a 9 or a Natural: it stands and the
    # strategy is not consulted (so no decision is recorded for it).
    used = 4
    di = 0  # index into decisions
    if JOKER in player_hand:
        player_drew = False
    else:
        if len(decisions) <= di:
            p = _check_probability(player_draw(up, (p1 + p2) % 10), "player_draw")
            return ("choice", p)
        player_drew = decisions[di]
        di += 1
        if player_drew:
            if len(prefix) <= used:
                return ("card",)
            player_hand.append(prefix[used])
            used += 1

    # P/D's decision (its two cards are joker-free and total 0..8 here).
    if len(decisions) <= di:
        p = _check_probability(dealer_draw(up, player_drew, (up + hole) % 10), "dealer_draw")
        return ("choice", p)
    if decisions[di]:
        if len(prefix) <= used:
            return ("card",)
        pd_hand.append(prefix[used])
        used += 1
    return finish("drawn", used)


def play_deal(cards, player_draw, dealer_draw, pd_wins_ties_on_zero: bool = True):
    """Play one deal from ``cards`` in deal order; return ``(net, cards_used, reason)``.

    ``cards`` must hold at least as many cards as the deal uses (4..6); extra cards are
    ignored.  The strategies must be deterministic here (return 0/1 or False/True).

    >>> play_deal(["J", 3, 0, 0], house_way_player, house_way_dealer)
    (-1, 4, 'joker up')
    >>> play_deal([2, 2, 3, 3, 1, 5], house_way_player, house_way_dealer)
    (1, 5, 'drawn')
    >>> play_deal([2, 2, 1, 1, 3, 5], house_way_player, house_way_dealer)
    (-1, 6, 'drawn')
    """
    seq = [card_class(c) for c in cards]
    decisions: list[bool] = []
    k = 4
    while True:
        if k > len(seq):
            raise ValueError(f"the deal needs more than the {len(seq)} cards given")
        r = _resolve(seq[:k], decisions, player_draw, dealer_draw, pd_wins_ties_on_zero)
        if r[0] == "card":
            k += 1
        elif r[0] == "choice":
            if r[1] not in (0, 1):
                raise ValueError("play_deal needs deterministic strategies (0 or 1)")
            decisions.append(bool(r[1]))
        else:
            _, net, reason, used, _, _ = r
            return net, used, reason


# ---------------------------------------------------------------------------
# Exact enumerations
# ---------------------------------------------------------------------------


def _empty_result() -> dict:
    return {
        "win": 0,
        "push": 0,
        "loss": 0,
        "total": 0,
        "joker_up": {"win": 0, "push": 0, "loss": 0},
        "pd_nine": {"win": 0, "push": 0, "loss": 0},
        "tie_on_zero": 0,
        "naturals_push": 0,
    }


_OUTCOME = {1: "win", 0: "push", -1: "loss"}


def _record(result: dict, weight, net, reason, tie0, nn) -> None:
    key = _OUTCOME[net]
    result[key] += weight
    result["total"] += weight
    if reason == "joker up":
        result["joker_up"][key] += weight
    elif reason == "pd nine":
        result["pd_nine"][key] += weight
    if tie0:
        result["tie_on_zero"] += weight
    if nn:
        result["naturals_push"] += weight


def _normalise(result: dict) -> dict:
    """Turn Fractions with denominator 1 back into ints (exact, for dict equality)."""

    def fix(x):
        if isinstance(x, Fraction) and x.denominator == 1:
            return int(x)
        return x

    out = {}
    for k, v in result.items():
        out[k] = {kk: fix(vv) for kk, vv in v.items()} if isinstance(v, dict) else fix(v)
    return out


def _branch_weights(weight, p):
    """(weight if drawing, weight if standing) for a draw probability p."""
    if p == 1:
        return weight, 0
    if p == 0:
        return 0, weight
    p = Fraction(p)
    return weight * p, weight * (1 - p)


def ev_by_class(composition, player_draw, dealer_draw, pd_wins_ties_on_zero: bool = True):
    """Exact weighted outcome counts over a shoe given by its class composition.

    ``composition``: 11 counts (classes 0..9, then jokers).  A recursion over the next
    card's CLASS (weighted by its multiplicity in what is left of the shoe) and over the
    draw decisions; each finished k-card deal is padded by ``(N-k)...(N-5)``.
    """
    comp = list(composition)
    if len(comp) != 11 or any((not isinstance(c, int)) or c < 0 for c in comp):
        raise ValueError("composition must be 11 non-negative integer counts")
    n = sum(comp)
    if n < 6:
        raise ValueError("the shoe must hold at least 6 cards")
    result = _empty_result()

    def walk(prefix, decisions, weight):
        r = _resolve(prefix, decisions, player_draw, dealer_draw, pd_wins_ties_on_zero)
        if r[0] == "done":
            _, net, reason, used, tie0, nn = r
            pad = math.perm(n - used, 6 - used)
            _record(result, weight * pad, net, reason, tie0, nn)
        elif r[0] == "choice":
            w_draw, w_stand = _branch_weights(weight, r[1])
            if w_draw:
                walk(prefix, decisions + [True], w_draw)
            if w_stand:
                walk(prefix, decisions + [False], w_stand)
        else:  # next card: every class still in the shoe, times its multiplicity
            for cls in range(11):
                m = comp[cls]
                if m:
                    comp[cls] -= 1
                    prefix.append(cls)
                    walk(prefix, decisions, weight * m)
                    prefix.pop()
                    comp[cls] += 1

    walk([], [], 1)
    return _normalise(result)


def _sequence_outcomes(seq, player_draw, dealer_draw, pd_wins_ties_on_zero):
    """Every (probability, outcome) of one fixed 6-card sequence over the draw decisions."""
    stack = [([], 1)]
    while stack:
        decisions, prob = stack.pop()
        r = _resolve(seq, decisions, player_draw, dealer_draw, pd_wins_ties_on_zero)
        if r[0] == "done":
            yield prob, r
        elif r[0] == "choice":
            w_draw, w_stand = _branch_weights(prob, r[1])
            if w_draw:
                stack.append((decisions + [True], w_draw))
            if w_stand:
                stack.append((decisions + [False], w_stand))
        else:  # pragma: no cover - six cards always suffice
            raise AssertionError("a deal never needs more than six cards")


def ev_card_by_card(cards, player_draw, dealer_draw, pd_wins_ties_on_zero: bool = True):
    """Brute force: literally every ordered 6-card sequence of distinct physical cards.

    ``cards`` is the list of physical cards (classes 0..9, or ``"J"`` / 10 for a joker).
    Each of the ``N(N-1)...(N-5)`` sequences counts once (times its decision probability
    for mixed strategies); a deal that ends after k cards is thereby counted once for
    every ordered way of the unused positions, which is the padding convention.  Meant
    for tiny shoes (8 to 11 cards).
    """
    classes = [card_class(c) for c in cards]
    if len(classes) < 6:
        raise ValueError("the shoe must hold at least 6 cards")
    result = _empty_result()
    for idx in itertools.permutations(range(len(classes)), 6):
        seq = [classes[i] for i in idx]
        for prob, r in _sequence_outcomes(seq, player_draw, dealer_draw, pd_wins_ties_on_zero):
            _, net, reason, _used, tie0, nn = r
            _record(result, prob, net, reason, tie0, nn)
    return _normalise(result)


def ev(result: dict) -> Fraction:
    """The player's exact EV per unit wagered, ``(win - loss) / total``."""
    return Fraction(result["win"] - result["loss"], 1) / result["total"]
