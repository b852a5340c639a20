"""Effects of removal in baccarat, exactly, and the balanced counts that follow them.

Central idea
------------
A card dealt changes what is left in the shoe, and so every bet's EV on the next round. The
*effect of removal* of a rank is that change when one card of the rank leaves the full shoe,
computed here exactly: the exact engine (:func:`gamecore.baccarat.exact.exact`) run on each
depleted composition, the difference an exact rational. A count is a tag per rank; the
balanced integer count that best follows the effects (:func:`balanced_tags`) and the betting
correlation of any count with them (:func:`betting_correlation`) are the shared counting
model's (:mod:`gamecore.counting`) over a baccarat deck. How such a count fares when it is
played through real shoes is :mod:`gamecore.baccarat.counting`'s.

Tags are positive for ranks whose removal *raises* the bettor's EV, so a high count favours
the bettor. A Dragon counter names the ranks A..9, T (J, Q, K count as T); the main bets'
effects are keyed by point value (``"0"``: the ten-valued cards).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from gamecore import counting
from gamecore.baccarat.exact import exact
from gamecore.baccarat.rules import EZBaccaratRules, PuntoBancoRules, check_ez_rules
from gamecore.errors import GamecoreError, shown
from gamecore.numeric import is_whole
from gamecore.shoe import BACCARAT_CLASS_NAMES, BACCARAT_DECK, baccarat_shoe, validate_composition

#: Ranks as a counter names them, and the point class of each (T = 10, J, Q, K).
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
RANK_CLASS = {rank: (i + 1) % 10 for i, rank in enumerate(RANKS)}

#: Eliot Jacobson's Dragon 7 count (A..9, T), as published on the 888casino blog
#: ("Card counting the Dragon and Panda side bets in EZ Baccarat").
JACOBSON_DRAGON_TAGS = {
    "A": 0,
    "2": 0,
    "3": 0,
    "4": -1,
    "5": -1,
    "6": -1,
    "7": -1,
    "8": 2,
    "9": 2,
    "T": 0,
}

#: The side bets a Dragon counter may count.
SIDE_BETS = ("dragon7", "panda8")


def tags_by_class(tags: Mapping[str, int]) -> np.ndarray:
    """A count's tags as the counting kernels read them, checked.

    Parameters
    ----------
    tags : Mapping of str to int
        A tag for every rank of :data:`RANKS` (A..9, T), each an integer.

    Returns
    -------
    numpy.ndarray
        int64[10]: the tag of each point class 0..9 (0: the ten-valued cards); a missing
        rank or a tag that is not an integer raises GamecoreError.
    """
    if not isinstance(tags, Mapping):
        raise GamecoreError(
            f"tags must map each rank {', '.join(RANKS)} to a tag, got {shown(tags)}"
        )
    if set(tags) != set(RANKS):
        raise GamecoreError(f"tags must give every rank {', '.join(RANKS)}, got {sorted(tags)}")
    by_class = np.zeros(10, dtype=np.int64)
    for rank, tag in tags.items():
        if not is_whole(tag):
            raise GamecoreError(f"tag of rank {rank} must be an integer, got {shown(tag)}")
        by_class[RANK_CLASS[rank]] = tag
    return by_class


def cards_per_deck(rank: str) -> int:
    """The cards of one rank a 52-card deck holds, as a counter names the rank.

    Parameters
    ----------
    rank : str
        A rank of :data:`RANKS` (``"T"``: the 10, J, Q and K together).

    Returns
    -------
    int
        4, or 16 for ``"T"``.
    """
    return BACCARAT_DECK[RANK_CLASS[rank]]


#: The ranks a Dragon counter tells apart, with their cards per deck.
DECK = counting.Deck(RANKS, tuple(cards_per_deck(r) for r in RANKS))


# ---------------------------------------------------------------------------------------
# Effects of removal (exact)
# ---------------------------------------------------------------------------------------


def effects_of_removal_exact(rules: EZBaccaratRules) -> dict[str, dict[str, Fraction]]:
    """Exact change of each side bet's EV when one card of each rank leaves the full shoe.

    Parameters
    ----------
    rules : EZBaccaratRules
        The rule set (its ``decks`` makes the full shoe; its paytables settle the bets).

    Returns
    -------
    dict of str to dict of str to Fraction
        ``{rank: {"dragon7": effect, "panda8": effect}}`` for each rank of :data:`RANKS`: the
        EV per unit wagered after the removal, minus before, an exact rational.
    """
    rules = check_ez_rules(rules)
    full_shoe = baccarat_shoe(rules.decks)
    full = exact(rules)
    before = {bet: full.wager(bet).expected_value for bet in SIDE_BETS}
    effects = {}
    for rank in RANKS:
        depleted = full_shoe.copy()
        depleted[RANK_CLASS[rank]] -= 1
        after = exact(rules, composition=depleted)
        effects[rank] = {bet: after.wager(bet).expected_value - before[bet] for bet in SIDE_BETS}
    return effects


def effects_of_removal(rules: EZBaccaratRules) -> pd.DataFrame:
    """The side bets' effects of removal as a table (:func:`effects_of_removal_exact`).

    Parameters
    ----------
    rules : EZBaccaratRules
        The rule set.

    Returns
    -------
    pandas.DataFrame
        Rank | Cards per deck | Dragon 7 EoR | Panda 8 EoR: a row per rank of :data:`RANKS`,
        the EV change per unit wagered per card removed, as floats.
    """
    effects = effects_of_removal_exact(rules)
    return pd.DataFrame(
        [
            {
                "Rank": rank,
                "Cards per deck": cards_per_deck(rank),
                "Dragon 7 EoR": float(effects[rank]["dragon7"]),
                "Panda 8 EoR": float(effects[rank]["panda8"]),
            }
            for rank in RANKS
        ]
    )


#: Every bet's effects of removal are keyed by point value ("0": the ten-valued cards), as
#: for 21st Century Baccarat; :data:`POINT_DECK` gives their cards per deck.
POINT_RANKS = tuple(str(v) for v in range(10))
POINT_DECK = counting.Deck(POINT_RANKS, BACCARAT_DECK)


@dataclasses.dataclass(frozen=True)
class BetEffects:
    """Every bet's EV on the full shoe and its exact effect of removal of each point value.

    Attributes
    ----------
    rules
        The rule set (its paytables settled the bets).
    shoe
        int64[10]: the cards of each point value 0..9 the effects are taken from.
    full_shoe_ev
        Bet name -> its EV per unit wagered on ``shoe``, exact.
    effects_of_removal
        Bet name -> {point value ``"0"``..``"9"`` -> the EV's change when one card of that
        value leaves ``shoe``}, exact rationals.
    """

    rules: PuntoBancoRules | EZBaccaratRules
    shoe: np.ndarray
    full_shoe_ev: dict[str, Fraction]
    effects_of_removal: dict[str, dict[str, Fraction]]

    def table(self) -> pd.DataFrame:
        """The effects of removal as a table, a row per point value.

        Returns
        -------
        pandas.DataFrame
            Point value | Cards per deck | ``<bet> EoR (%)`` for every bet: the EV change
            per card removed, in percent of the wager.
        """
        return pd.DataFrame(
            [
                {
                    "Point value": rank,
                    "Cards per deck": cards,
                    **{
                        f"{bet} EoR (%)": 100 * float(effects[rank])
                        for bet, effects in self.effects_of_removal.items()
                    },
                }
                for rank, cards in zip(POINT_DECK.ranks, POINT_DECK.cards, strict=True)
            ]
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON document of ``gamecore count`` for a baccarat game.

        Returns
        -------
        dict
            ``game``, ``rules``, ``shoe``, ``full_shoe_ev``, ``effects_of_removal`` (floats),
            ``effects_of_removal_exact`` (the rationals as text) and what they mean.
        """
        return {
            "game": self.rules.game,
            "rules": self.rules.to_dict(),
            "shoe": [int(n) for n in self.shoe],
            "full_shoe_ev": {bet: float(ev) for bet, ev in self.full_shoe_ev.items()},
            "effects_of_removal": {
                bet: {r: float(e) for r, e in effects.items()}
                for bet, effects in self.effects_of_removal.items()
            },
            "effects_of_removal_exact": {
                bet: {r: str(e) for r, e in effects.items()}
                for bet, effects in self.effects_of_removal.items()
            },
            "effects_of_removal_means": (
                "the change in each bet's EV per unit wagered when one card of the point value "
                "leaves the full shoe (0: the ten-valued cards), each depleted shoe enumerated "
                "exactly; exact rationals in effects_of_removal_exact"
            ),
        }


def effects_of_removal_by_bet(
    rules: PuntoBancoRules | EZBaccaratRules, composition: Sequence[int] | None = None
) -> BetEffects:
    """Every bet's EV on the full shoe and its exact change when one card of each point
    value leaves it, exact rationals (the main bets' well-known uncountability, now exact).

    Parameters
    ----------
    rules : PuntoBancoRules or EZBaccaratRules
        The rule set: its bets, and its ``decks`` for the full shoe.
    composition : sequence of int, optional
        Cards of each point value 0..9 to start from instead of the full shoe; every value
        must be there to be removed.

    Returns
    -------
    BetEffects
        The shoe's EV of every bet and each point value's effect of removal.
    """
    if composition is None:
        shoe = baccarat_shoe(rules.decks)
    else:
        shoe = validate_composition(composition)
        # Every point value must be there to be removed (so the shoe holds ten cards or more,
        # and each depleted shoe the six a round can use), checked before any work.
        for value, count in enumerate(shoe):
            if count == 0:
                raise GamecoreError(
                    f"composition count of {BACCARAT_CLASS_NAMES[value]} is 0: no card of it "
                    "can be removed"
                )
    full = exact(rules, composition=shoe).wagers()
    before = {bet: analysis.expected_value for bet, analysis in full.items()}
    effects: dict[str, dict[str, Fraction]] = {bet: {} for bet in before}
    for value, rank in enumerate(POINT_RANKS):
        depleted = np.array(shoe, dtype=np.int64)
        depleted[value] -= 1
        after = exact(rules, composition=depleted).wagers()
        for bet in before:
            effects[bet][rank] = after[bet].expected_value - before[bet]
    return BetEffects(rules, shoe, before, effects)


# ---------------------------------------------------------------------------------------
# Balanced integer tags
# ---------------------------------------------------------------------------------------


def betting_correlation(tags: Mapping[str, float], effects: Mapping[str, float]) -> float:
    """How well a count follows a bet's effects of removal: their correlation over the cards
    of a deck (:func:`gamecore.counting.betting_correlation` over :data:`DECK`).

    Parameters
    ----------
    tags : Mapping of str to float
        A tag for every rank of :data:`RANKS`.
    effects : Mapping of str to float
        The effect of removal of every rank of :data:`RANKS` (EV change per card).

    Returns
    -------
    float
        The betting correlation, from -1 to 1 (1: the count ranks the shoes as the effects
        do).
    """
    return counting.betting_correlation(tags, effects, DECK)


def balanced_tags(effects: Mapping[str, float], max_tag: int = 3) -> dict[str, int]:
    """The balanced integer count that best follows the effects of removal
    (:func:`gamecore.counting.balanced_tags` over :data:`DECK`).

    Parameters
    ----------
    effects : Mapping of str to float
        The effect of removal of every rank of :data:`RANKS`.
    max_tag : int
        The largest tag in absolute value.

    Returns
    -------
    dict of str to int
        A tag per rank, summing to zero over a deck (a balanced count).
    """
    return counting.balanced_tags(effects, DECK, max_tag)
