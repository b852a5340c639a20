"""Issue 43, item 1: a baccarat round's suit sum is kept by the answers of the tests on the
round's facts (a bit for each distinct ``total``, ``natural``, ``winner``, ``margin``,
``cards_dealt`` or ``hand_cards`` test), not by the facts themselves, so rounds of totals
the tests do not tell apart share one sum; past :data:`gamecore.sidebets.sum_keys.
ANSWER_BITS` distinct tests the facts key it. Checked against the slow pure-Python
reference dealing every physical card sequence of tiny shoes (tests/sidebet_reference.py)
for bets mixing the facts with suits, colours, named ranks and poker hands, with the
answers and with the facts as the key; and the work's estimate following the key."""

from __future__ import annotations

import numpy as np
import pytest
import sidebet_reference as ref
import yaml
from sidebet_samples import tiny_shoe
from test_sidebet_sum_key import _split, _text

from gamecore import cards
from gamecore.sidebets import round_cards, sum_keys
from gamecore.sidebets.definition import parse
from gamecore.sidebets.exact import count_outcomes
from gamecore.sidebets.work import MAX_DEALS, count_work

_P3, _B3 = "[player_1, player_2, player_3]", "[banker_1, banker_2, banker_3]"
#: Each fact beside suits, colours, ranks named or poker hands, tested against several
#: values (so rounds of different facts give one answer) and the same test in two
#: outcomes (one bit for both).
MIXES = {
    "totals, colours, a rank": _text(
        (
            "total: {player: [8, 9]}",
            "colour: {player_1: red, player_2: red}",
            "rank: {banker_1: [K, Q]}",
        ),
        ("suit: {player_1: hearts, banker_1: hearts}", "total: {banker: [0, 1, 2, 3]}"),
        ("total: {player: [8, 9]}", "same_colour: [banker_1, banker_2]"),
    ),
    "winner and margin, suits": _text(
        ("winner: player", "margin: [7, 8, 9]", "suit: {player_1: spades, player_2: spades}"),
        ("margin: [4, 5, 6]", "rank: {banker_2: [A, 2, 3]}", "same_suit: [banker_1, banker_2]"),
        ("winner: [banker, tie]", "colour: {banker_3: black}"),
    ),
    "naturals and cards dealt, third cards": _text(
        ("natural: [banker]", "same_suit: [banker_1, banker_2]"),
        ("cards_dealt: 6", "colour: {player_3: red, banker_3: red}", "rank: {player_3: [J, Q, K]}"),
        ("natural: any", "suit: {banker_1: clubs}"),
        ("natural: none", "cards_dealt: [4, 5]", "same_suit: [player_1, banker_1]"),
    ),
    "hands' cards, totals": _text(
        ("hand_cards: {player: 3, banker: 2}", f"same_suit: {_P3}", "winner: banker"),
        ("hand_cards: {banker: 3}", "suit: {banker_3: diamonds}", "total: {banker: 7}"),
    ),
    "poker hands, totals, ranks": _text(
        (
            f"poker_hand: {{cards: {_P3}, class: [straight_flush, flush]}}",
            "total: {player: [0, 2, 4, 6, 8]}",
            "rank: {banker_1: [A, 3, 9, J], banker_3: [A, 2, Q]}",
        ),
        (
            f"poker_hand: {{cards: {_B3}, class: [straight, straight_flush]}}",
            "total: {banker: [1, 3, 5, 7, 9]}",
            "margin: [1, 2, 3]",
        ),
    ),
    "every fact": _text(
        (
            "winner: banker",
            "natural: none",
            "cards_dealt: [5, 6]",
            "total: {banker: [5, 6, 7]}",
            "suit: {banker_1: clubs}",
            "rank: {player_1: [A, 2, 3]}",
        ),
        ("margin: 0", "same_colour: [player_1, banker_1, player_2, banker_2]"),
        ("hand_cards: {player: 2}", "same_rank: [player_1, player_2]", "total: {player: [0, 2]}"),
    ),
}


def _counts(mix: str, ranks: list[int], suits: list[int]) -> tuple:
    """The engine's count of the mix from the tiny shoe, and the reference's."""
    shoe, physical = tiny_shoe(ranks, suits)
    total, paid, _ = count_outcomes(parse(MIXES[mix].encode(), "made.yaml"), shoe)
    return (total, paid), ref.brute_force_counts(yaml.safe_load(MIXES[mix]), physical)


def _agrees(mix: str, ranks: list[int], suits: list[int]) -> None:
    found, expected = _counts(mix, ranks, suits)
    assert found == expected


#: A, 2, 3, 8, 9, Q, K in four suits: naturals, draws and both third cards, totals 0..9,
#: 9 P 6 = 60,480 sequences; rounds of different totals and ranks meet on one key.
_RANKS = [0, 0, 1, 2, 7, 8, 11, 12, 12]
_SUITS = [0, 1, 2, 0, 1, 2, 3, 3, 0]
#: 2, 3, 5, 8 .. K in three suits: a shoe on which a key reading only the first test on
#: the facts differs from the reference for every mix (rounds alike in that answer but
#: not in another's meet on one key with different suit sums).
_OTHER_RANKS = [1, 2, 4, 7, 8, 9, 10, 11, 12]
_OTHER_SUITS = [2, 3, 1, 3, 2, 1, 2, 3, 3]


@pytest.mark.parametrize("mix", list(MIXES))
def test_every_mix_against_every_physical_sequence_of_tiny_shoes(mix, monkeypatch):
    _agrees(mix, _RANKS, _SUITS)
    found, expected = _counts(mix, _OTHER_RANKS, _OTHER_SUITS)
    assert found == expected
    # The shoe tells a key short of an answer apart: the test can fail (keyed by outcome;
    # a key by the answers of the tests reading suits holds no facts)
    monkeypatch.setattr(sum_keys, "SUIT_ANSWER_BITS", -1)
    every = sum_keys._fact_rows
    monkeypatch.setattr(sum_keys, "_fact_rows", lambda tests: every(tests)[:1])
    shoe = tiny_shoe(_OTHER_RANKS, _OTHER_SUITS)[0]
    total, paid, _ = count_outcomes(parse(MIXES[mix].encode(), "made.yaml"), shoe)
    assert (total, paid) != expected


@pytest.mark.parametrize("mix", ["winner and margin, suits", "every fact"])
def test_the_facts_as_the_key_past_the_answers_bits_count_the_same(mix, monkeypatch):
    # One bit fewer than the mix's distinct tests on facts: the raw facts key the sums
    bet = parse(MIXES[mix].encode(), "made.yaml")
    asked = _split(bet, cards.standard(8)).fact_rows.size
    monkeypatch.setattr(sum_keys, "ANSWER_BITS", asked - 1)
    split = _split(bet, cards.standard(8))
    assert split.fact_rows.size == 0 and split.fact_columns.size > 0
    _agrees(mix, _RANKS, _SUITS)


def test_one_bit_for_each_distinct_test_on_the_facts():
    # total: {player: [8, 9]} in two outcomes (one bit), total: {banker: [0, 1, 2, 3]}
    bet = parse(MIXES["totals, colours, a rank"].encode(), "made.yaml")
    tests = round_cards.round_program(bet)[0].tests
    assert int(np.isin(tests[:, 1], tests[_split(bet, cards.standard(8)).fact_rows, 1]).sum()) == 3
    assert _split(bet, cards.standard(8)).fact_rows.size == 2


def test_the_estimate_follows_the_answers_and_stays_below_the_raw_facts_bound(monkeypatch):
    # A bet reading only the winner beside both hands' poker hands and a suit named (the
    # manual's former refusal): at most 2 answers per key, not 1,600 rows of facts; the
    # estimate with the answers never above the one keyed by the facts.
    text = _text(
        (
            f"poker_hand: {{cards: {_P3}, class: [straight_flush, flush]}}",
            "suit: {player_1: hearts}",
        ),
        (f"poker_hand: {{cards: {_B3}, class: [straight_flush, flush]}}", "winner: banker"),
    )
    bet = parse(text.encode(), "made.yaml")
    suit_bits = sum_keys.SUIT_ANSWER_BITS
    monkeypatch.setattr(sum_keys, "SUIT_ANSWER_BITS", -1)  # sums by outcome, facts keying
    answers = count_work(bet, 8).total
    assert answers <= MAX_DEALS
    monkeypatch.setattr(sum_keys, "ANSWER_BITS", 0)
    facts = count_work(bet, 8).total
    assert answers < facts and facts > MAX_DEALS
    # Where the keys by outcome outgrow the table, the sums go by suit answers
    monkeypatch.setattr(sum_keys, "SUIT_ANSWER_BITS", suit_bits)
    assert count_work(bet, 8).total <= MAX_DEALS
