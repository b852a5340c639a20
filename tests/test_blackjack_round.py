"""The round model every blackjack consumer reads (gamecore.blackjack.round): its two-card
openings against hand-worked probabilities, a split hand's second cards, the split
identities (linear: arrays and numbers agree), and the choices of optimal play against
published basic strategy."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamecore import blackjack as bj
from gamecore.blackjack import round as rm
from gamecore.blackjack import splits as sp
from gamecore.blackjack.backward import POLICY_REFERENCE
from gamecore.blackjack.engine import Engine

ONE_DECK = bj.StandardBlackjackRules(decks=1)


@pytest.fixture(scope="module")
def one_deck():
    return Engine(ONE_DECK)


def test_openings_have_the_hand_worked_probabilities(one_deck):
    deck = list(bj.DECK)
    for up in range(10):
        left = deck.copy()
        left[up] -= 1
        n = sum(left)
        total = Fraction(0)
        for opening in rm.openings(one_deck, up):
            a, b = opening.first, opening.second
            if a == b:
                expected = Fraction(left[a] * (left[a] - 1), n * (n - 1))
            else:
                expected = Fraction(2 * left[a] * left[b], n * (n - 1))
            assert opening.probability == pytest.approx(float(expected), rel=1e-15)
            total += expected
        assert total == 1


def test_an_opening_knows_the_dealer_natural_and_the_surrender_window():
    rules = bj.C21BlackjackRules(decks=1)  # early surrender against A and 10 (c21 reading)
    engine = Engine(rules)
    by_cards = {(o.first, o.second): o for o in rm.openings(engine, bj.TEN)}
    ace_five = by_cards[(bj.ACE, 4)]
    # Under a 10 the hole card is an Ace: 3 Aces left of 49 unseen cards.
    assert ace_five.dealer_natural == pytest.approx(3 / 49, rel=1e-14)
    assert ace_five.early_surrender and ace_five.lose_to_natural == -ace_five.dealer_natural
    natural = by_cards[(bj.ACE, bj.TEN)]
    assert natural.natural and not natural.early_surrender and natural.lose_to_natural == 0.0
    assert not any(o.early_surrender for o in rm.openings(engine, 5))  # 2-9: no early window


def test_second_cards_of_a_split_hand(one_deck):
    for pair, extra in one_deck.split_extras.items():
        for a in range(extra + 1):
            second = rm.second_cards(one_deck, pair, a, up=5)
            # The two pair cards, a more and the up card must all be in the deck.
            if 2 + a + (pair == 5) > bj.DECK[pair]:
                assert second is None
                continue
            assert second.probability.sum() == pytest.approx(1.0, abs=1e-15)
            # Unseen: the deck less the two pair cards, the up card and a further pair cards.
            left = list(bj.DECK)
            left[pair] -= 2 + a
            left[5] -= 1
            chance = left[pair] / sum(left)
            ranks = [r for r in range(10) if left[r]]
            if left[pair]:
                assert second.pair_node == second.nodes[ranks.index(pair)]
                assert second.probability[ranks.index(pair)] == pytest.approx(chance, rel=1e-15)
            else:
                assert second.pair_node == -1


def test_splitting_to_two_hands_is_two_unrestricted_hands():
    # No resplit: the split is worth two hands whose second card is any card.
    assert sp.split_value((0.3,), (0.9,), pairs=2, cards=49, max_hands=2) == pytest.approx(0.6)


@given(
    st.lists(st.floats(-2, 2), min_size=3, max_size=3),
    st.lists(st.floats(-2, 2), min_size=3, max_size=3),
    st.integers(0, 30),
    st.integers(40, 400),
    st.sampled_from([3, 4]),
)
def test_split_identities_are_linear(ev_x, ev_p, pairs, cards, max_hands):
    # Arrays carried through the identities give, component by component, the numbers.
    scalar = sp.split_value(tuple(ev_x), tuple(ev_p), pairs, cards, max_hands)
    vector = sp.split_value(
        tuple(np.array([x, 2 * x]) for x in ev_x),
        tuple(np.array([p, 2 * p]) for p in ev_p),
        pairs,
        cards,
        max_hands,
    )
    assert vector[0] == pytest.approx(scalar, abs=1e-9)
    assert vector[1] == pytest.approx(2 * scalar, abs=1e-9)


def test_split_pattern_probabilities_sum_to_one():
    for max_hands in (2, 3, 4):
        patterns = list(sp.split_hands((0.0,) * 3, (0.0,) * 3, 24, 311, max_hands))
        assert sum(p.probability for p in patterns) == pytest.approx(1.0, abs=1e-14)


@pytest.mark.parametrize(
    ("cards", "up", "play", "action"),
    [
        # Published basic strategy, 6 decks, S17, DAS, no surrender (Wizard of Odds).
        ((7, 7), 9, rm.PLAY_SPLIT, "P"),  # 8,8 v 10: split
        ((0, 0), 5, rm.PLAY_SPLIT, "P"),  # A,A v 6: split
        ((4, 5), 5, rm.PLAY_HAND, "D"),  # 11 v 6: double
        ((5, 9), 9, rm.PLAY_HAND, "H"),  # 16 v 10: hit
        ((9, 9), 5, rm.PLAY_HAND, "S"),  # 20 v 6: stand, never split tens
        ((0, 9), 9, rm.PLAY_NATURAL, "S"),  # a Natural is paid
    ],
)
def test_optimal_play_at_two_cards_is_basic_strategy(cards, up, play, action):
    engine = Engine(bj.StandardBlackjackRules(decks=6))
    solved = engine.solve()
    split = engine.split_values(solved.ev, POLICY_REFERENCE, None)
    opening = next(o for o in rm.openings(engine, up) if (o.first, o.second) == cards)
    assert rm.optimal_play(opening, solved.ev, split) == (play, action)
