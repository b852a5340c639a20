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


def test_a_hand_no_round_reaches_is_refused():
    """c21 stands on 20 and 21: 10,10,A can only be a doubled 20's last card, and 10,10
    cannot be hit; 10,5,6 (a hit 15) is played."""
    rules = bj.C21BlackjackRules(decks=6)
    with pytest.raises(GamecoreError, match="no round reaches the hand 10,10,A"):
        hand_values(rules, "5", ["10", "10", "A"])
    # 21: a forced stand (or the surrender c21 allows at any number of cards against 2-9).
    assert set(hand_values(rules, "5", ["10", "5", "6"]).ev) == {"S", "R"}
    # Standard rules hit anything short of 21, so the same cards are a hand to play.
    assert "H" in hand_values(bj.StandardBlackjackRules(decks=6), "5", ["10", "10", "A"]).ev


def test_the_hands_a_round_reaches_follow_the_reference_rules():
    """A hand is played when it is two cards, or one card more than a played hand that may
    hit (the reference's forced totals and Naturals); a double's third card is settled."""
    from gamecore.blackjack.backward import PLAYED, SETTLED, UNREACHED
    from gamecore.blackjack.engine import Engine

    rules = bj.C21BlackjackRules(decks=6)
    engine = Engine(rules)
    naive = naive_rules(rules)
    played: dict = {}

    def may_hit(cards):
        must_hit, must_stand = nb.forced(naive, cards)
        return nb.total(cards)[0] <= 21 and not must_stand and not nb.is_natural(cards, False)

    def is_played(counts):
        if counts not in played:
            cards = [r + 1 for r in range(10) for _ in range(counts[r])]
            if len(cards) == 2:
                played[counts] = True
            else:
                fewer = {
                    counts[:r] + (counts[r] - 1,) + counts[r + 1 :] for r in {c - 1 for c in cards}
                }
                played[counts] = any(
                    is_played(less) and may_hit([r + 1 for r in range(10) for _ in range(less[r])])
                    for less in fewer
                )
        return played[counts]

    marks = engine.reached[-1]
    for counts, node in engine.node_index.items():
        if sum(counts) < 2:
            assert marks[node] == UNREACHED
            continue
        cards = [r + 1 for r in range(10) for _ in range(counts[r])]
        # A double's third card: two of the three cards a two-card hand that may double.
        doubled = len(cards) == 3 and any(
            not nb.is_natural(two, False) and nb.can_double(naive, two, False)
            for two in ([cards[0], cards[1]], [cards[0], cards[2]], [cards[1], cards[2]])
        )
        expected = PLAYED if is_played(counts) else (SETTLED if doubled else UNREACHED)
        assert marks[node] == expected, cards
    # Beyond the empty and one-card hands: ten Aces are a soft 20, so no round holds eleven.
    assert (marks == UNREACHED).sum() > 11
    assert marks[engine.node_index[(11,) + (0,) * 9]] == UNREACHED
    assert marks[engine.node_index[(1,) + (0,) * 8 + (2,)]] == SETTLED  # 10,10 doubled: an A


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
