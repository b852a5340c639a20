"""Exact effects of removal in 21st Century Baccarat, and the balanced count derived from
them.

Central idea
------------
The strategy-free exact counts of every deal (:func:`gamecore.c21_baccarat.exact.count_deals`)
are made afresh for the shoe less one card of each rank (point values 0..9, the ten-valued
cards as "0", and the joker), and the player's EV (heads-up, per unit wagered) is read off
them: under House Way for both sides an exact rational, and at the equilibrium of the option
game (both sides re-solving it on the depleted shoe) a float from the linear programs. The
effect of removal of a rank is the change in that EV; the P/D's is its negative. A balanced
count is derived from the House Way effects (:mod:`gamecore.counting`), and the counter
plays it at a table (:mod:`gamecore.c21_baccarat.counting`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from gamecore import counting
from gamecore.c21_baccarat.exact import count_deals
from gamecore.c21_baccarat.rules import (
    CLASS_NAMES,
    JOKER,
    C21BaccaratRules,
    c21_shoe,
    check_composition,
    check_rules,
)
from gamecore.c21_baccarat.strategies import house_way_dealer, house_way_player
from gamecore.errors import GamecoreError
from gamecore.shoe import BACCARAT_DECK

#: The derived count's largest tag, by default: with one joker a deck a balanced count can
#: tag the joker, the card that moves the EV most, only by a multiple of 4 (every other
#: rank has 4 or 16 cards a deck), so 3 would leave it uncounted.
DEFAULT_MAX_TAG = 4

#: A counter's names of the ranks by point class (0: the ten-valued cards), then the joker.
RANK_NAMES = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "joker")


def count_deck(rules: C21BaccaratRules) -> counting.Deck:
    """The ranks a counter tells apart under ``rules`` and their cards per deck (no joker
    rank when the shoe holds none).

    Parameters
    ----------
    rules : C21BaccaratRules
        The rule set: its jokers per deck.

    Returns
    -------
    gamecore.counting.Deck
        The ranks, "0" (the ten-valued cards) to "9" then "joker", and cards of each a deck.
    """
    ranks, cards = list(RANK_NAMES[:JOKER]), list(BACCARAT_DECK)
    if rules.jokers_per_deck:
        ranks.append("joker")
        cards.append(rules.jokers_per_deck)
    return counting.Deck(tuple(ranks), tuple(int(n) for n in cards))


@dataclasses.dataclass(frozen=True)
class C21BaccaratCount:
    """Effects of removal under House Way (exact) and at the equilibrium, and a count.

    Attributes
    ----------
    rules, shoe
        The rule set and the full shoe the cards are removed from (cards by class).
    full_shoe_ev, effects_of_removal
        The player's EV on the full shoe under House Way (a Fraction, per unit wagered), and
        by rank its change when one card of the rank is removed.
    full_shoe_ev_equilibrium, effects_of_removal_equilibrium
        The same at the option game's equilibrium (floats).
    tags, max_tag
        The balanced count derived from the House Way effects, and its largest tag.
    betting_correlation, betting_correlation_equilibrium
        How well the tags follow each set of effects
        (:func:`gamecore.counting.betting_correlation`).
    """

    rules: C21BaccaratRules
    shoe: np.ndarray
    full_shoe_ev: Fraction
    effects_of_removal: dict[str, Fraction]
    full_shoe_ev_equilibrium: float
    effects_of_removal_equilibrium: dict[str, float]
    tags: dict[str, int]
    max_tag: int
    betting_correlation: float
    betting_correlation_equilibrium: float

    def effects_table(self) -> pd.DataFrame:
        """The effects of removal and the derived count, rank by rank.

        Returns
        -------
        pandas.DataFrame
            Rank | Cards per deck | Tag | EoR, House Way (%) | EoR, equilibrium (%): the
            change in the player's EV, in % of the wager, when one card leaves the shoe.
        """
        deck = count_deck(self.rules)
        return pd.DataFrame(
            [
                {
                    "Rank": rank,
                    "Cards per deck": cards,
                    "Tag": self.tags[rank],
                    "EoR, House Way (%)": 100 * float(self.effects_of_removal[rank]),
                    "EoR, equilibrium (%)": 100 * self.effects_of_removal_equilibrium[rank],
                }
                for rank, cards in zip(deck.ranks, deck.cards, strict=True)
            ]
        )

    def to_dict(self) -> dict[str, Any]:
        """The count as the ``count`` command's JSON document (docs/json.md).

        Returns
        -------
        dict
            The shoe, the full-shoe EVs and effects of removal (floats, and House Way's as
            exact fractions in text), the count and its betting correlations.
        """
        return {
            "game": self.rules.game,
            "rules": self.rules.to_dict(),
            "shoe": [int(n) for n in self.shoe],
            "strategy": "House Way (player and P/D)",
            "full_shoe_ev": float(self.full_shoe_ev),
            "full_shoe_ev_exact": str(self.full_shoe_ev),
            "effects_of_removal": {r: float(e) for r, e in self.effects_of_removal.items()},
            "effects_of_removal_exact": {r: str(e) for r, e in self.effects_of_removal.items()},
            "full_shoe_ev_equilibrium": self.full_shoe_ev_equilibrium,
            "effects_of_removal_equilibrium": self.effects_of_removal_equilibrium,
            "effects_of_removal_means": (
                "the change in the player's EV (heads-up, per unit wagered; the P/D's is its "
                "negative) when one card of the rank leaves the full shoe, each depleted shoe "
                "enumerated exactly; at the equilibrium both sides re-solve the option game "
                "on the depleted shoe"
            ),
            "count": {
                "tags": self.tags,
                "max_tag": self.max_tag,
                "balanced": count_deck(self.rules).imbalance(self.tags) == 0,
                "derived_from": "effects_of_removal (House Way)",
                "betting_correlation": self.betting_correlation,
                "betting_correlation_equilibrium": self.betting_correlation_equilibrium,
            },
            "exactness": (
                "House Way: exact rationals from exact integer counts; equilibrium: floats "
                "from the linear programs (about 1e-12)"
            ),
        }


def _house_way_and_equilibrium(rules: C21BaccaratRules, shoe: np.ndarray) -> tuple[Fraction, float]:
    analysis = count_deals(rules, shoe)
    house_way = analysis.evaluate(house_way_player(rules), house_way_dealer(rules)).player_ev
    return house_way, analysis.equilibrium()[2]


def count_analysis(
    rules: C21BaccaratRules,
    composition: Sequence[int] | None = None,
    max_tag: int = DEFAULT_MAX_TAG,
) -> C21BaccaratCount:
    """Exact effects of removal under House Way and at the equilibrium, and a balanced
    count derived from the House Way effects.

    Parameters
    ----------
    rules
        The rule set (its decks and jokers set the shoe unless ``composition`` is given).
    composition
        Cards per class (0..9 by point value, then jokers): the full shoe to start from.
    max_tag
        The largest tag of the derived count.

    Returns
    -------
    C21BaccaratCount
        The effects of removal (House Way exact, the equilibrium's floats), the tags and
        their betting correlations.
    """
    rules = check_rules(rules)
    deck = count_deck(rules)
    if composition is None:
        shoe = c21_shoe(rules.decks, rules.jokers_per_deck)
    else:
        shoe = check_composition(composition)
        # Every rank counted must be there to be removed (so the shoe holds ten cards or
        # more, and each depleted shoe the six a round can use), checked before any work.
        for cls in (RANK_NAMES.index(rank) for rank in deck.ranks):
            if shoe[cls] == 0:
                raise GamecoreError(
                    f"composition count of {CLASS_NAMES[cls]} is 0: no card of it can be removed"
                )
        if shoe[JOKER] and not rules.jokers_per_deck:
            # The count's deck follows the rule set: its jokers would go untagged.
            raise GamecoreError(
                f"composition count of jokers is {shoe[JOKER]:,}, but jokers_per_deck is 0: "
                "the count would leave the jokers out; give jokers_per_deck 1 to 4"
            )
    before, before_eq = _house_way_and_equilibrium(rules, shoe)
    effects: dict[str, Fraction] = {}
    effects_eq: dict[str, float] = {}
    for rank in deck.ranks:
        cls = RANK_NAMES.index(rank)
        depleted = shoe.copy()
        depleted[cls] -= 1
        after, after_eq = _house_way_and_equilibrium(rules, depleted)
        effects[rank] = after - before
        effects_eq[rank] = after_eq - before_eq
    as_float = {r: float(e) for r, e in effects.items()}
    tags = counting.balanced_tags(as_float, deck, max_tag)
    return C21BaccaratCount(
        rules=rules,
        shoe=shoe,
        full_shoe_ev=before,
        effects_of_removal=effects,
        full_shoe_ev_equilibrium=before_eq,
        effects_of_removal_equilibrium=effects_eq,
        tags=tags,
        max_tag=max_tag,
        betting_correlation=counting.betting_correlation(tags, as_float, deck),
        betting_correlation_equilibrium=counting.betting_correlation(tags, effects_eq, deck),
    )
