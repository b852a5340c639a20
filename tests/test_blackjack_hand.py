"""`gamecore hand`: the EV of every action at one hand against one up card, given no dealer
Natural (Farmer's convention), checked against the slow reference's action values (its
Bayesian recursion over the hole card's posterior) on small shoes, for two-card, three-card
and split hands."""

import json
import subprocess
import sys

import naive_blackjack as nb
import pytest
from helpers import RESPLIT_SHOE, naive_rules

from gamecore import blackjack as bj
from gamecore.blackjack.hand import CONVENTION, hand_values
from gamecore.errors import GamecoreError

SHOE = (2, 2, 2, 2, 2, 2, 2, 2, 2, 8)  # 26 cards: cannot run dry under these rules
RULES = [
    bj.StandardBlackjackRules(decks=1, max_split_hands=2, surrender="late"),
    bj.StandardBlackjackRules(decks=1, max_split_hands=2, dealer_hits_soft_17=True),
    bj.C21BlackjackRules(decks=1, max_split_hands=2),
]


def _reference(rules, shoe, up, cards):
    """The reference's values: the shoe less the hand and the up card (ranks 1..10)."""
    unseen = list(shoe)
    for c in [*cards, up]:
        unseen[c] -= 1
    ranks = tuple(c + 1 for c in cards)
    return nb.action_values(ranks, tuple(unseen), up + 1, naive_rules(rules))


@pytest.mark.parametrize("rules", RULES, ids=["late", "h17", "c21"])
@pytest.mark.parametrize(
    ("up", "cards"),
    [(9, (9, 5)), (5, (4, 5)), (0, (6, 0)), (4, (1, 2, 4)), (9, (0, 1, 2)), (3, (5, 3, 2))],
)
def test_hand_values_agree_with_the_reference(rules, up, cards):
    values = hand_values(rules, bj.RANKS[up], [bj.RANKS[c] for c in cards], composition=SHOE)
    reference = _reference(rules, SHOE, up, cards)
    early = values.rules.resolved().surrender == "any_cards" and up in (bj.ACE, bj.TEN)
    if early and len(cards) == 2:
        reference["R"] = -0.5  # c21: the first two cards surrender before the check
    assert set(values.ev) - {"P"} == set(reference)
    for action, ev in reference.items():
        assert values.ev[action] == pytest.approx(ev, abs=1e-12), action


def test_a_pair_splits_as_the_reference_splits():
    rules = bj.StandardBlackjackRules(decks=1, max_split_hands=2)
    shoe = RESPLIT_SHOE
    up, pair = 9, 7  # eights against a ten
    values = hand_values(rules, "10", ["8", "8"], composition=shoe)
    unseen = list(shoe)
    for c in (pair, pair, up):
        unseen[c] -= 1
    decide, _ = nb.optimal_decisions(tuple(shoe), naive_rules(rules))
    expected = nb._split_value(pair + 1, up + 1, tuple(unseen), naive_rules(rules), decide)
    assert values.ev["P"] == pytest.approx(expected, abs=1e-12)


def test_a_natural_is_paid_and_only_stands():
    values = hand_values(bj.C21BlackjackRules(decks=6), "9", ["A", "K"])
    assert values.ev == {"S": 1.2}  # 6:5, and no dealer Natural under a 9


def test_hand_refuses_what_it_cannot_value():
    rules = bj.StandardBlackjackRules(decks=1)
    for call, message in (
        (lambda: hand_values(rules.replace(peek=False), "A", ["10", "6"]), "peek"),
        (lambda: hand_values(rules, "A", ["10", "6", "K"]), "bust"),
        (lambda: hand_values(rules, "Z", ["10", "6"]), "up card"),
        (lambda: hand_values(rules, "5", ["10"]), "two or more"),
        (lambda: hand_values(rules, "5", ["A"] * 5), "fewer As"),
    ):
        with pytest.raises(GamecoreError, match=message):
            call()


def test_hand_command_json():
    result = subprocess.run(
        [sys.executable, "-m", "gamecore", "hand", "c21_blackjack", "--up", "A", "--cards",
         "8,8", "--shoe", ",".join(map(str, RESPLIT_SHOE)), "--rule", "max_split_hands=2",
         "--json"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["convention"] == CONVENTION.format(split=bj.SPLIT_STRATEGY_NAMES["cdz"])
    assert "no Natural" in data["convention"] and "CDZ-" in data["convention"]
    assert set(data["ev"]) == {"S", "H", "D", "R", "P"} and data["ev"]["R"] == -0.5
    assert data["best"] == max(data["ev"], key=data["ev"].get)
    assert data["shoe"]["8"] == RESPLIT_SHOE[7]
    bad = subprocess.run(
        [sys.executable, "-m", "gamecore", "hand", "ez_baccarat", "--up", "A", "--cards", "8,8"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
