"""Side bets' exact effects of removal against values derived without the side-bet engine:
the identity every effect of removal obeys, closed forms on shoes less a card, and the EZ
Baccarat engine's own Dragon 7 and Panda 8 effects (a separate point-class engine).

The identity. A card burned unseen does not change the law of the cards dealt after it, so
the full shoe's expected return is the mean of the depleted shoes' over a card removed at
random: ``E(S) = sum_c n_c E(S - c) / N``. Subtracting ``E(S)`` from both sides,
``sum_c n_c (E(S - c) - E(S)) = 0``: the effects of removal weighted by the cards of the
shoe (or of one deck: ``n_c`` is ``decks`` times the cards per deck) sum to exactly zero,
at every level of detail (a class's effect being the mean of its cards').
"""

from __future__ import annotations

import functools
import json
import math
from fractions import Fraction

import pytest
from sidebet_builtins import builtin

from gamecore import baccarat, cards, counting
from gamecore.baccarat.removal import JACOBSON_DRAGON_TAGS, RANK_CLASS, effects_of_removal_exact
from gamecore.sidebets.definition import Condition, Outcome, SideBet
from gamecore.sidebets.removal import (
    LEVELS,
    count_deck,
    effects_of_removal,
    expected_return,
    tags_by_code,
)


@functools.cache
def _effects(name: str, decks: int):
    """A built-in's effects, computed once for the tests that read them."""
    return effects_of_removal(builtin(name), decks)


@pytest.mark.parametrize(
    ("name", "decks"), [("dragon_7", 8), ("lucky_ladies", 1), ("twenty_one_plus_three", 2)]
)
def test_effects_weighted_by_a_deck_sum_to_zero_exactly(name, decks):
    effects = _effects(name, decks)
    assert len(effects.by_card) == 52
    assert any(effects.by_card.values())
    for level in LEVELS:
        deck = count_deck(effects.bet.game, level)
        by_class = effects.by_class(level)
        weighted = sum(n * by_class[c] for c, n in zip(deck.ranks, deck.cards, strict=True))
        assert weighted == 0, level


@pytest.mark.parametrize("decks", [1, 8])
def test_dragon_7_and_panda_8_effects_are_the_ez_baccarat_engines(decks):
    ez = effects_of_removal_exact(baccarat.EZBaccaratRules(decks=decks))
    for name, key in (("dragon_7", "dragon7"), ("panda_8", "panda8")):
        effects = _effects(name, decks)
        assert effects.level == "points"
        for rank, point in RANK_CLASS.items():
            assert effects.effects[str(point)] == ez[rank][key], (name, rank)


def _pair_ev(counts_by_rank: list[int]) -> Fraction:
    """Player Pair's EV (11 to 1) on a shoe by rank: the first two Player cards pair."""
    n = sum(counts_by_rank)
    pairs = sum(m * (m - 1) for m in counts_by_rank)
    return 12 * Fraction(pairs, n * (n - 1)) - 1


@pytest.mark.parametrize("decks", [1, 8])
def test_player_pair_on_shoes_less_cards_is_the_closed_form(decks):
    bet = builtin("player_pair")
    full = cards.standard(decks)
    by_rank = [4 * decks] * 13
    assert expected_return(bet, full) == _pair_ev(by_rank)
    queen = cards.RANKS.index("Q")
    less_one = [m - (r == queen) for r, m in enumerate(by_rank)]
    assert expected_return(bet, full.remove([cards.card("Q", "hearts")])) == _pair_ev(less_one)
    less_two = [m - 2 * (r == queen) for r, m in enumerate(by_rank)]
    taken = [cards.card("Q", "hearts"), cards.card("Q", "spades")]
    assert expected_return(bet, full.remove(taken)) == _pair_ev(less_two)
    # One card less: (4d - 1)(52d - 2) = 2 (4d - 1)(26d - 1) pairs over (52d - 1)(52d - 2)
    # orders is the full shoe's (4d - 1) / (52d - 1): no card moves the EV, nothing to count.
    assert _pair_ev(less_one) == _pair_ev(by_rank)
    effects = effects_of_removal(bet, decks)
    assert set(effects.by_card.values()) == {0} and effects.tags is None
    assert "nothing to count" in effects.no_count


def test_a_single_card_bet_has_the_closed_form_effects_and_count():
    # Pays 50 to 1 when the first player card is the queen of hearts: EV = 51 d / N - 1.
    # Less that queen: 51 (d - 1) / (N - 1) - 1; less any other card: 51 d / (N - 1) - 1.
    bet = SideBet(
        "queen", "Queen", "blackjack", 6, "", "",
        (Outcome("Queen of hearts", Fraction(50), "50 to 1", (
            Condition("rank", cards=("player_1",), values=("Q",)),
            Condition("suit", cards=("player_1",), values=("hearts",)),
        )),),
        "test", "",
    )  # fmt: skip
    d = 2
    n = 52 * d
    effects = effects_of_removal(bet, d)
    assert effects.full_ev == Fraction(51 * d, n) - 1
    own = 51 * (Fraction(d - 1, n - 1) - Fraction(d, n))
    other = 51 * (Fraction(d, n - 1) - Fraction(d, n))
    assert effects.by_card["Q of hearts"] == own
    assert {e for c, e in effects.by_card.items() if c != "Q of hearts"} == {other}
    assert effects.level == "ranks" and effects.effects["Q"] == (own + 3 * other) / 4
    # The identity makes the queen's effect -12 times any other rank's: only a count with
    # a tag of 12 for the queens follows the effects exactly; with tags up to 3 the best
    # balanced one falls short.
    assert effects.effects["Q"] == -12 * effects.effects["K"]
    deck = count_deck("blackjack", "ranks")
    assert deck.imbalance(effects.tags) == 0 and effects.tags["Q"] < 0
    assert effects.correlation < 0.99
    wide = effects_of_removal(bet, d, max_tag=12)
    assert wide.tags == {r: (-12 if r == "Q" else 1) for r in cards.RANKS}
    assert wide.correlation == pytest.approx(1.0)


def test_the_dragon_7_count_is_balanced_and_follows_the_effects():
    effects = _effects("dragon_7", 8)
    deck = count_deck("baccarat", "points")
    assert deck.imbalance(effects.tags) == 0
    assert effects.tags["8"] > 0 and effects.tags["9"] > 0
    assert all(effects.tags[str(v)] < 0 for v in (4, 5, 6, 7))
    # At least as well as Jacobson's published count (the same ranks as point classes).
    jacobson = {str(RANK_CLASS[r]): tag for r, tag in JACOBSON_DRAGON_TAGS.items()}
    floats = {k: float(v) for k, v in effects.effects.items()}
    assert effects.correlation >= counting.betting_correlation(jacobson, floats, deck) - 1e-12
    # The count's linear estimate of the true count where the bet breaks even.
    assert 0 < effects.break_even_true_count < 20
    json.dumps(effects.to_dict(), allow_nan=False)
    level, by_code = tags_by_code("baccarat", effects.tags)
    assert level == "points" and by_code[cards.RANKS.index("K") * 4] == effects.tags["0"]
    assert not math.isnan(effects.table()["EoR (%)"].sum())
