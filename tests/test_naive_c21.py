"""Tests of the slow 21st Century Baccarat oracle itself (tests/naive_c21.py).

These do not import gamecore.  They check the oracle against hand-worked deals, hand-counted
tiny shoes, a literal card-by-card brute force over distinct physical cards, and closed-form
counts of the parts of the game that need no drawing.
"""

from __future__ import annotations

import math
from fractions import Fraction

import naive_c21 as nc
import pytest

J = "J"  # the joker (naive_c21 also accepts 10)
HW_P = nc.house_way_player
HW_D = nc.house_way_dealer


def np6(n: int) -> int:
    return math.perm(n, 6)


_CACHE: dict = {}


def one_deck_house_way(flag: bool = True) -> dict:
    """House Way v House Way over one deck with one joker (computed once per session)."""
    if flag not in _CACHE:
        _CACHE[flag] = nc.ev_by_class(nc.c21_composition(1, 1), HW_P, HW_D, flag)
    return _CACHE[flag]


def always(*_args):
    return 1


def never(*_args):
    return 0


def pd_sees_draw(up, drew, total):
    """A P/D strategy that uses both its up card and whether the player drew."""
    if total <= 4:
        return 1
    if total >= 7:
        return 0
    return 1 if (drew and up % 2 == 0) or (not drew and total == 5) else 0


def player_by_up(up, total):
    """A player strategy that depends on the P/D's up card on the option totals 5 and 6."""
    if total <= 4:
        return 1
    if total >= 7:
        return 0
    return 1 if up in (3, 4, 7) else 0


def half_on_five(up, total):
    """A mixed strategy: draw on 0-4, draw half the time on 5, stand on 6+."""
    if total <= 4:
        return 1
    return Fraction(1, 2) if total == 5 else 0


# ---------------------------------------------------------------------------
# Hand values
# ---------------------------------------------------------------------------


def test_hand_value():
    assert nc.hand_value([4, 5]) == (9, False)
    assert nc.hand_value([7, 8]) == (5, False)
    assert nc.hand_value([0, 0, 0]) == (0, False)
    assert nc.hand_value([J, 3]) == (9, False)  # a joker is wild: best value is 9
    assert nc.hand_value([3, J]) == (9, False)
    assert nc.hand_value([2, 2, J]) == (9, False)  # a joker third card makes 9
    assert nc.hand_value([J, J]) == (9, True)  # two jokers as the first two cards
    assert nc.hand_value([10, 10]) == (9, True)  # 10 is the joker's class number
    with pytest.raises(ValueError):
        nc.hand_value([11, 3])


def test_composition():
    assert nc.c21_composition(1, 1) == [16, 4, 4, 4, 4, 4, 4, 4, 4, 4, 1]
    assert sum(nc.c21_composition(8, 1)) == 424
    assert sum(nc.c21_composition(2, 3)) == 2 * 55
    assert nc.cards_of([2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1]) == [0, 0, 9, 10]


# ---------------------------------------------------------------------------
# Settlement, hand-worked
# ---------------------------------------------------------------------------


def test_settle_natural_against_natural_pushes():
    # Both hands are two jokers: Natural vs Natural is a push.
    assert nc.settle([J, J], [J, J]) == 0


def test_settle_natural_beats_every_nine():
    # A player Natural beats a P/D two-card 9, a joker 9 and a three-card 9.
    assert nc.settle([J, J], [4, 5]) == 1
    assert nc.settle([J, J], [J, 0]) == 1
    assert nc.settle([J, J], [1, 2, 6]) == 1
    # ... and a P/D Natural beats a player 9.
    assert nc.settle([9, 0], [J, J]) == -1
    assert nc.settle([0, J], [J, J]) == -1


def test_settle_ties_on_zero_go_to_the_pd():
    # Player 5+5 = 0 against P/D 3+7 = 0: the P/D wins ties on zero.
    assert nc.settle([5, 5], [3, 7]) == -1
    assert nc.settle([5, 5, 0], [3, 7]) == -1
    # Under the other reading (flag off) it is an ordinary push.
    assert nc.settle([5, 5], [3, 7], pd_wins_ties_on_zero=False) == 0
    # Other equal totals always push.
    assert nc.settle([1, 2], [2, 1]) == 0


def test_settle_pd_three_card_nine_pushes_player_two_card_nine():
    # P/D 1+2 = 3, draws a 6: three-card 9; the player's 4+5 = 9 pushes (equal totals).
    assert nc.settle([4, 5], [1, 2, 6]) == 0


def test_settle_higher_total_wins():
    assert nc.settle([4, 4], [3, 4]) == 1  # 8 v 7
    assert nc.settle([3, 4], [4, 4]) == -1  # 7 v 8
    assert nc.settle([1, 0, 0], [0, 0, 0]) == 1  # 1 v 0


# ---------------------------------------------------------------------------
# play_deal, hand-worked (cards in deal order: up, hole, player 1, player 2, ...)
# ---------------------------------------------------------------------------


def test_joker_up_concludes_the_deal():
    # Up joker, hole 0: P/D has a 9 and nobody draws, although the player's 0+0 would
    # draw under House Way.  Player 0 loses; the 5th and 6th cards are never used.
    assert nc.play_deal([J, 0, 0, 0, 9, 9], HW_P, HW_D) == (-1, 4, "joker up")
    # The player's 9 pushes it, a player joker hand (a 9) pushes it too.
    assert nc.play_deal([J, 0, 4, 5], HW_P, HW_D) == (0, 4, "joker up")
    assert nc.play_deal([J, 0, 3, J], HW_P, HW_D) == (0, 4, "joker up")


def test_natural_against_natural_pushes_in_a_deal():
    # Four jokers: P/D up J + hole J = Natural, player J J = Natural: push.
    assert nc.play_deal([J, J, J, J], HW_P, HW_D) == (0, 4, "joker up")
    # P/D Natural against a player 9: loss.
    assert nc.play_deal([J, J, 4, 5], HW_P, HW_D) == (-1, 4, "joker up")


def test_pd_two_card_nine_beats_player_eight_and_pushes_player_nine():
    # P/D 4+5 = 9 concludes the deal.  Player 3+5 = 8 loses, 4+5 = 9 pushes.
    assert nc.play_deal([4, 5, 3, 5, 1, 1], HW_P, HW_D) == (-1, 4, "pd nine")
    assert nc.play_deal([4, 5, 4, 5, 1, 1], HW_P, HW_D) == (0, 4, "pd nine")
    # A joker hole card also makes the P/D a two-card 9.
    assert nc.play_deal([3, J, 3, 5], HW_P, HW_D) == (-1, 4, "pd nine")
    assert nc.play_deal([3, J, 9, 0], HW_P, HW_D) == (0, 4, "pd nine")


def test_player_natural_beats_pd_two_card_nine():
    assert nc.play_deal([4, 5, J, J], HW_P, HW_D) == (1, 4, "pd nine")


def test_pd_three_card_nine_pushes_player_two_card_nine():
    # P/D 1+2 = 3; player 4+5 = 9 stands; P/D (House Way) draws a 6: 9 v 9, push.
    assert nc.play_deal([1, 2, 4, 5, 6, 0], HW_P, HW_D) == (0, 5, "drawn")


def test_ties_on_zero_in_a_deal():
    # P/D 5+5 = 0; player 0+0 draws a 0 (still 0); P/D draws a 0 (still 0): P/D wins.
    assert nc.play_deal([5, 5, 0, 0, 0, 0], HW_P, HW_D) == (-1, 6, "drawn")
    assert nc.play_deal([5, 5, 0, 0, 0, 0], HW_P, HW_D, pd_wins_ties_on_zero=False) == (
        0,
        6,
        "drawn",
    )


def test_joker_hands_never_draw_and_joker_third_card_makes_nine():
    # The player holds a joker: he stands on 9 even under an always-draw strategy; the
    # P/D (1+2 = 3) then draws the 5th card, a 6: 9 v 9, push; 5 cards used.
    assert nc.play_deal([1, 2, J, 3, 6, 0], always, HW_D) == (0, 5, "drawn")
    # Player 1+1 = 2 draws a joker: 9.  P/D 1+1 = 2 draws a 7: 9.  Push.
    assert nc.play_deal([1, 1, 1, 1, J, 7], HW_P, HW_D) == (0, 6, "drawn")
    # The P/D draws the joker as its third card: 9 beats the player's 8.
    assert nc.play_deal([1, 1, 4, 4, J], HW_P, HW_D) == (-1, 5, "drawn")


def test_pd_strategy_sees_whether_player_drew():
    seen = []

    def spy(up, drew, total):
        seen.append((up, drew, total))
        return 0

    nc.play_deal([3, 3, 2, 2, 1], HW_P, spy)  # player 4 draws
    nc.play_deal([3, 3, 3, 4], HW_P, spy)  # player 7 stands
    nc.play_deal([3, 3, J, 4], always, spy)  # joker hand: stands, strategy not asked
    assert seen == [(3, True, 6), (3, False, 6), (3, False, 6)]


# ---------------------------------------------------------------------------
# Tiny shoes counted by hand
# ---------------------------------------------------------------------------


def test_hand_counted_one_joker_five_tens():
    """Shoe: one joker and five 0-cards (6 cards, 720 ordered sequences).

    * joker 1st (up, 120 sequences): deal over; P/D 9 v player 0: loss.
    * joker 2nd (hole, 120): P/D two-card 9 v player 0: loss.
    * joker 3rd or 4th (player, 240): player 9 stands, P/D 0 draws a 0: win.
    * joker 5th (120): player 0 draws it: 9; P/D 0 draws a 0: win.
    * joker 6th (120): player 0 draws a 0; P/D 0 draws the joker: 9: loss.

    Wins 240 + 120 = 360, losses 120 + 120 + 120 = 360: EV 0.
    """
    comp = [5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]
    expected = {
        "win": 360,
        "push": 0,
        "loss": 360,
        "total": 720,
        "joker_up": {"win": 0, "push": 0, "loss": 120},
        "pd_nine": {"win": 0, "push": 0, "loss": 120},
        "tie_on_zero": 0,
        "naturals_push": 0,
    }
    assert nc.ev_by_class(comp, HW_P, HW_D) == expected
    assert nc.ev_card_by_card(nc.cards_of(comp), HW_P, HW_D) == expected
    assert nc.ev(expected) == 0


def test_hand_counted_all_zeros():
    # Six 0-cards: every deal ends 0 v 0 after six cards; the P/D wins them all,
    # or they all push under the other reading.
    comp = [6] + [0] * 10
    r = nc.ev_by_class(comp, HW_P, HW_D)
    assert (r["loss"], r["push"], r["tie_on_zero"], r["total"]) == (720, 0, 720, 720)
    r = nc.ev_by_class(comp, HW_P, HW_D, pd_wins_ties_on_zero=False)
    assert (r["loss"], r["push"], r["tie_on_zero"], r["total"]) == (0, 720, 720, 720)


def test_padding_of_short_deals():
    # One joker and six 0s (7 cards).  Joker up: 1 * 6*5*4 ordered ways of the first four
    # cards, padded by (7-4)(7-5) = 6 ways of positions 5 and 6: 720 = 6P5.
    comp = [6] + [0] * 9 + [1]
    r = nc.ev_by_class(comp, HW_P, HW_D)
    assert r["joker_up"] == {"win": 0, "push": 0, "loss": 720}
    assert r["total"] == np6(7)


def test_four_jokers_naturals_push():
    # Four jokers and four 0s.  Naturals on both sides need the first four cards to be
    # the four jokers: 4! orders, padded by 4*3 = 12 ways of positions 5 and 6.
    comp = [4] + [0] * 9 + [4]
    r = nc.ev_by_class(comp, HW_P, HW_D)
    assert r["naturals_push"] == 24 * 12
    assert r == nc.ev_card_by_card(nc.cards_of(comp), HW_P, HW_D)


# ---------------------------------------------------------------------------
# Class recursion == literal card-by-card brute force
# ---------------------------------------------------------------------------

TINY_SHOES = [
    # 11 counts: classes 0..9 then jokers
    [2, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1],  # 9 cards, one joker
    [1, 1, 0, 1, 1, 1, 1, 0, 1, 0, 2],  # 9 cards, two jokers
    [2, 0, 1, 0, 1, 2, 1, 1, 0, 0, 0],  # 8 cards, no joker
    [3, 1, 1, 1, 0, 0, 1, 0, 1, 0, 2],  # 10 cards, repeated classes and two jokers
]

STRATEGIES = [
    (HW_P, HW_D),
    (always, always),
    (never, never),
    (player_by_up, pd_sees_draw),
]


@pytest.mark.parametrize("comp", TINY_SHOES)
@pytest.mark.parametrize("strategy", STRATEGIES, ids=["house", "always", "never", "mixed_rules"])
def test_class_recursion_matches_card_by_card(comp, strategy):
    player, dealer = strategy
    cards = nc.cards_of(comp)
    # Both readings of ties on zero for the strategies that can reach 0 v 0 often;
    # the default reading only for the others (keeps the runtime down).
    flags = (True, False) if strategy in (STRATEGIES[0], STRATEGIES[3]) else (True,)
    for flag in flags:
        by_class = nc.ev_by_class(comp, player, dealer, pd_wins_ties_on_zero=flag)
        brute = nc.ev_card_by_card(cards, player, dealer, pd_wins_ties_on_zero=flag)
        assert by_class == brute
        assert by_class["total"] == np6(len(cards))


def test_class_recursion_matches_card_by_card_eleven_cards():
    comp = [2, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1]  # 11 cards, one joker
    cards = nc.cards_of(comp)
    assert len(cards) == 11
    assert nc.ev_by_class(comp, HW_P, HW_D) == nc.ev_card_by_card(cards, HW_P, HW_D)


def test_mixed_strategy_fractions():
    comp = [1, 1, 0, 1, 1, 1, 1, 0, 1, 0, 2]
    cards = nc.cards_of(comp)
    by_class = nc.ev_by_class(comp, half_on_five, HW_D)
    assert by_class == nc.ev_card_by_card(cards, half_on_five, HW_D)
    assert by_class["total"] == np6(len(cards))
    # The EV of the 50/50 mix is the average of the pure strategies' EVs.
    on5 = nc.ev(nc.ev_by_class(comp, lambda u, t: 1 if t <= 5 else 0, HW_D))
    off5 = nc.ev(nc.ev_by_class(comp, lambda u, t: 1 if t <= 4 else 0, HW_D))
    assert nc.ev(by_class) == (on5 + off5) / 2


# ---------------------------------------------------------------------------
# Full shoes: totals and closed-form pieces
# ---------------------------------------------------------------------------


def _no_draw_parts(comp, flag=True):
    """Joker-up and P/D-nine outcome weights by direct counting (no recursion, no draws)."""
    n = sum(comp)
    joker_up = {"win": 0, "push": 0, "loss": 0}
    pd_nine = {"win": 0, "push": 0, "loss": 0}
    names = {1: "win", 0: "push", -1: "loss"}
    c = list(comp)
    for up in range(11):
        for hole in range(11):
            for p1 in range(11):
                for p2 in range(11):
                    ways = 1
                    for card in (up, hole, p1, p2):
                        ways *= c[card]
                        c[card] -= 1
                    for card in (up, hole, p1, p2):
                        c[card] += 1
                    if ways <= 0:
                        continue
                    ways *= math.perm(n - 4, 2)
                    net = nc.settle([p1, p2], [up, hole], flag)
                    if up == nc.JOKER:
                        joker_up[names[net]] += ways
                    elif hole == nc.JOKER or (up + hole) % 10 == 9:
                        pd_nine[names[net]] += ways
    return joker_up, pd_nine


@pytest.mark.parametrize("decks,jokers", [(1, 1), (1, 2), (2, 1)])
def test_full_shoe_totals_and_no_draw_parts(decks, jokers):
    comp = nc.c21_composition(decks, jokers)
    n = sum(comp)
    if (decks, jokers) == (1, 1):
        r = one_deck_house_way()
    else:
        r = nc.ev_by_class(comp, HW_P, HW_D)
    assert r["total"] == np6(n)
    assert r["win"] + r["push"] + r["loss"] == r["total"]
    # A joker up card: j ways for the up card, any five cards after it.
    assert sum(r["joker_up"].values()) == comp[nc.JOKER] * math.perm(n - 1, 5)
    # Concluded deals, counted directly over the four dealt cards.
    joker_up, pd_nine = _no_draw_parts(comp)
    assert r["joker_up"] == joker_up
    assert r["pd_nine"] == pd_nine
    if jokers * decks < 2:
        # With one joker nobody holds a Natural, so a concluded deal is never a player win.
        assert r["naturals_push"] == 0
        assert r["joker_up"]["win"] == 0 and r["pd_nine"]["win"] == 0


def test_tie_on_zero_flag_moves_exactly_tie_on_zero_weight():
    on = one_deck_house_way(True)
    off = one_deck_house_way(False)
    assert on["tie_on_zero"] == off["tie_on_zero"] > 0
    assert on["loss"] - off["loss"] == on["tie_on_zero"]
    assert off["push"] - on["push"] == on["tie_on_zero"]
    assert on["win"] == off["win"]


def test_one_deck_one_joker_house_way_value():
    # Regression value produced by this oracle (not a published figure): House Way for
    # both sides, one deck with one joker (53 cards), P/D wins ties on zero.
    r = one_deck_house_way()
    assert r["total"] == np6(53) == 16_529_385_600
    assert (r["win"], r["push"], r["loss"]) == (7_322_203_168, 1_678_998_464, 7_528_183_968)
    assert nc.ev(r) == Fraction(-64369, 5165433)
