"""Exact analysis of Dragon Tiger from the card model.

Central idea
------------
A round is two cards drawn without replacement off the top of a full shoe, the first to the
Dragon, the second to the Tiger. The card model (:mod:`gamecore.cards`) gives every ordered
pair of cards (rank and suit) with its exact number of ways to be drawn
(:func:`gamecore.cards.first_two`: ``a * b`` for two different cards the shoe holds ``a`` and
``b`` of, ``a (a - 1)`` for the same card twice, in Python ints). The pairs are tallied into
the *breakdown*: the count of every (Dragon's rank, Tiger's rank, same suit or not). Every
bet is a paytable over events of that breakdown (:mod:`gamecore.wagers`), so a new bet on
the two cards (a big or small card, a suit, a colour) is an event and a paytable, never new
counting code.

Counts are exact Python integers at any deck count; the infinite-deck limit is each
count's leading coefficient as a polynomial of degree two in the deck count (two cards drawn
with replacement from one deck).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from gamecore import cards
from gamecore.cards import RANKS, SUITS, Shoe, first_two
from gamecore.dragon_tiger.rules import DragonTigerRules, check_rules
from gamecore.errors import GamecoreError, shown
from gamecore.wagers import (
    Wager,
    WagerAnalysis,
    deck_sweep_table,
    settle,
    sweep_deck_counts,
    wager_named,
)

if TYPE_CHECKING:  # pandas is imported where a table is built, not with the module
    import pandas as pd

#: Shape of the breakdown: (Dragon's rank, Tiger's rank, same suit), ranks in
#: :data:`gamecore.cards.RANKS` order (Ace low, King high), same suit 0 (no) or 1 (yes).
BREAKDOWN_SHAPE = (len(RANKS), len(RANKS), 2)

#: Coordinates of every breakdown cell: the Dragon's rank index, the Tiger's, same suit.
DRAGON_RANK, TIGER_RANK, SAME_SUIT = np.meshgrid(
    np.arange(len(RANKS)), np.arange(len(RANKS)), np.arange(2), indexing="ij"
)


def _events() -> dict[str, np.ndarray]:
    tie = DRAGON_RANK == TIGER_RANK
    suited = SAME_SUIT == 1
    return {
        "dragon_wins": DRAGON_RANK > TIGER_RANK,
        "tiger_wins": TIGER_RANK > DRAGON_RANK,
        "tie": tie,
        "suited_tie": tie & suited,
        "unsuited_tie": tie & ~suited,
        "any": np.ones(BREAKDOWN_SHAPE, dtype=bool),
    }


#: Named events (boolean masks over the breakdown) that paytables refer to.
EVENTS: dict[str, np.ndarray] = _events()

#: Each outcome of a round (:attr:`DragonTigerRules.outcomes`): its title and its event. The
#: four are disjoint and cover every round.
OUTCOME_TITLES = {
    "dragon": ("Dragon wins", "dragon_wins"),
    "tiger": ("Tiger wins", "tiger_wins"),
    "suited_tie": ("Tie, same suit", "suited_tie"),
    "unsuited_tie": ("Tie, different suits", "unsuited_tie"),
}


def count_pairs(shoe: Shoe) -> np.ndarray:
    """The exact breakdown of one round dealt off the top of ``shoe``.

    Parameters
    ----------
    shoe : Shoe
        The cards by rank and suit (:func:`gamecore.cards.standard` for a full shoe, or any
        depleted one), at least two cards and no jokers.

    Returns
    -------
    numpy.ndarray
        Object array of Python ints, shape :data:`BREAKDOWN_SHAPE`: the ordered ways to deal
        the Dragon a card of one rank and the Tiger a card of another, of the same suit or
        not. It sums to ``n (n - 1)`` for ``n`` cards.

    Examples
    --------
    >>> counts = count_pairs(cards.standard(1))
    >>> int(counts.sum()), int(counts[EVENTS["tie"]].sum()), int(counts[EVENTS["suited_tie"]].sum())
    (2652, 156, 0)
    """
    if not isinstance(shoe, Shoe):
        raise GamecoreError(f"shoe must be a gamecore.cards.Shoe, got {shown(shoe)}")
    if shoe.jokers:
        raise GamecoreError(f"Dragon Tiger deals no jokers; the shoe holds {shoe.jokers}")
    if shoe.total < 2:
        raise GamecoreError(f"a round deals two cards; the shoe holds {shoe.total}")
    counts = np.zeros(BREAKDOWN_SHAPE, dtype=object)
    counts[...] = 0
    for (dragon, tiger), ways in first_two(shoe).items():
        same_suit = int(dragon.suit == tiger.suit)
        counts[RANKS.index(dragon.rank), RANKS.index(tiger.rank), same_suit] += ways
    return counts


def infinite_pairs() -> np.ndarray:
    """The breakdown's limit as the deck count grows: each count is a polynomial of degree
    two in the deck count ``d`` (``d * d`` ways for two different cards, ``d (d - 1)`` for
    the same card twice), whose leading coefficient is 1 for every ordered pair of the 52
    cards, the same card twice included: two cards drawn with replacement from one deck.

    Returns
    -------
    numpy.ndarray
        Object array of Python ints, shape :data:`BREAKDOWN_SHAPE`, summing to 52 ** 2.
    """
    counts = np.zeros(BREAKDOWN_SHAPE, dtype=object)
    counts[...] = 0
    for dragon in range(len(RANKS)):
        for tiger in range(len(RANKS)):
            counts[dragon, tiger, 1] = len(SUITS)  # the same suit: 4 ways
            counts[dragon, tiger, 0] = len(SUITS) * (len(SUITS) - 1)
    return counts


@dataclasses.dataclass(frozen=True)
class DragonTigerAnalysis:
    """The exact analysis of one Dragon Tiger round under a rule set.

    Attributes
    ----------
    rules
        The rule set (the paytables come from it).
    shoe
        Label of the shoe analysed: ``"8 decks"``, ``"infinite"`` or ``"a shoe of N cards"``.
    weights
        Object array over the breakdown: exact counts of ordered card pairs (a finite
        shoe), or the limit's weights (``infinite``).
    total
        What the weights sum to: ``n (n - 1)``, or ``52 ** 2`` in the limit.
    exact_counts
        True when ``weights`` are integer counts of card pairs (a finite shoe).
    """

    rules: DragonTigerRules
    shoe: str
    weights: np.ndarray
    total: int
    exact_counts: bool

    def share(self, event: str) -> int:
        """The weight of the rounds where ``event`` holds (a count of card pairs).

        Parameters
        ----------
        event : str
            A name of :data:`EVENTS`.

        Returns
        -------
        int
            The sum of the weights of its cells (an unknown event: a GamecoreError).
        """
        if event not in EVENTS:
            raise GamecoreError(f"unknown event {shown(event)}; events: {', '.join(EVENTS)}")
        return int(sum(self.weights[EVENTS[event]].tolist(), 0))

    def probability(self, event: str) -> Fraction:
        """The exact probability of a named event (see :data:`EVENTS`).

        Parameters
        ----------
        event : str
            A name of :data:`EVENTS`.

        Returns
        -------
        Fraction
            :meth:`share` over :attr:`total`.
        """
        return Fraction(self.share(event), self.total)

    def outcome_counts(self) -> dict[str, int]:
        """Each outcome's count of ordered card pairs, and ``"total"`` (finite shoes).

        Returns
        -------
        dict of str to int
            Outcome (of ``OUTCOME_TITLES``) -> count, then ``"total"``; an infinite shoe
            raises GamecoreError.
        """
        if not self.exact_counts:
            raise GamecoreError("an infinite shoe has probabilities, not combinations")
        counts = {name: self.share(event) for name, (_, event) in OUTCOME_TITLES.items()}
        return {**counts, "total": int(self.total)}

    def outcomes(self) -> pd.DataFrame:
        """Outcome | Combinations | Probability, a row per outcome of the round.

        Returns
        -------
        pandas.DataFrame
            Combinations ``None`` for an infinite shoe.
        """
        import pandas as pd

        rows = [
            {
                "Outcome": title,
                "Combinations": self.share(event) if self.exact_counts else None,
                "Probability": float(self.probability(event)),
            }
            for title, event in OUTCOME_TITLES.values()
        ]
        frame = pd.DataFrame(rows)
        frame["Combinations"] = frame["Combinations"].astype(object)
        return frame

    def wager(self, wager: Wager | str) -> WagerAnalysis:
        """One bet settled: a bet of the rule set by name, or any :class:`Wager` over
        :data:`EVENTS`.

        Parameters
        ----------
        wager : Wager or str
            A bet's name in ``rules.wagers()``, or a wager.

        Returns
        -------
        WagerAnalysis
            Its paytable's lines with their exact probabilities (:func:`gamecore.wagers.settle`).
        """
        if isinstance(wager, str):
            wager = wager_named(self.rules.wagers(), wager)
        return settle(wager, EVENTS, self.weights, self.total, self.exact_counts)

    def wagers(self) -> dict[str, WagerAnalysis]:
        """Every bet of the rule set, settled, by name.

        Returns
        -------
        dict of str to WagerAnalysis
            Bet name -> :meth:`wager`, in the rule set's order.
        """
        return {w.name: self.wager(w) for w in self.rules.wagers()}

    def summary(self) -> pd.DataFrame:
        """Bet | Key | House edge | SD | Hit frequency | Push probability, a row per bet.

        No "ties excluded" figure: a tie is not a push for the Dragon or Tiger bet (it
        loses half), and the rounds not tied hold none of its edge.

        Returns
        -------
        pandas.DataFrame
            A row per bet of :meth:`wagers`.
        """
        import pandas as pd

        rows = [
            {
                "Bet": analysis.wager.title,
                "Key": name,
                "House edge": float(analysis.house_edge),
                "SD": analysis.sd,
                "Hit frequency": float(analysis.hit_frequency),
                "Push probability": float(analysis.push_probability),
            }
            for name, analysis in self.wagers().items()
        ]
        return pd.DataFrame(rows)

    def breakdown(self) -> pd.DataFrame:
        """Every (Dragon's rank, Tiger's rank, same suit) the shoe can deal, with its
        combinations and probability.

        Returns
        -------
        pandas.DataFrame
            Dragon | Tiger | Same suit | Combinations | Probability, a row per cell of
            nonzero weight (Combinations ``None`` for an infinite shoe).
        """
        import pandas as pd

        rows = []
        for index in zip(*np.nonzero(self.weights != 0), strict=True):
            rows.append(
                {
                    "Dragon": RANKS[index[0]],
                    "Tiger": RANKS[index[1]],
                    "Same suit": bool(index[2]),
                    "Combinations": int(self.weights[index]) if self.exact_counts else None,
                    "Probability": float(Fraction(int(self.weights[index]), self.total)),
                }
            )
        frame = pd.DataFrame(rows)
        frame["Combinations"] = frame["Combinations"].astype(object)
        return frame

    def to_dict(self) -> dict[str, Any]:
        """The JSON document of ``gamecore exact dragon_tiger``: the shoe, the total, each
        outcome's combinations and probability, each bet's figures and paytable, the rules
        (the schema of the baccarat games' ``exact``).

        Returns
        -------
        dict
            ``game``, ``shoe``, ``total_combinations``, ``outcomes``, ``bets``, ``rules``.
        """
        outcomes = {
            name: {
                "combinations": self.share(event) if self.exact_counts else None,
                "probability": float(self.probability(event)),
            }
            for name, (_, event) in OUTCOME_TITLES.items()
        }
        bets = {
            name: {
                "title": analysis.wager.title,
                "house_edge": float(analysis.house_edge),
                "sd": analysis.sd,
                "hit_frequency": float(analysis.hit_frequency),
                "paytable": _paytable(analysis),
            }
            for name, analysis in self.wagers().items()
        }
        return {
            "game": self.rules.game,
            "shoe": self.shoe,
            "total_combinations": int(self.total) if self.exact_counts else None,
            "outcomes": outcomes,
            "bets": bets,
            "rules": self.rules.to_dict(),
        }


def _paytable(analysis: WagerAnalysis) -> list[dict[str, Any]]:
    return [
        {
            "outcome": line.outcome,
            "pays": float(line.pays),
            "combinations": None if analysis.combinations is None else analysis.combinations[i],
            "probability": float(analysis.probabilities[i]),
        }
        for i, line in enumerate(analysis.wager.lines)
    ]


def exact(rules: DragonTigerRules, shoe: Shoe | None = None) -> DragonTigerAnalysis:
    """Exact analysis of one round dealt off the top of the shoe.

    Parameters
    ----------
    rules : DragonTigerRules
        The rule set; its ``decks`` sets the shoe unless ``shoe`` is given.
    shoe : Shoe, optional
        A shoe by rank and suit (a depleted or custom one) instead of ``rules.decks`` full
        decks.

    Returns
    -------
    DragonTigerAnalysis

    Examples
    --------
    >>> analysis = exact(DragonTigerRules(decks=8))
    >>> analysis.outcome_counts()["suited_tie"], analysis.total
    (2912, 172640)
    >>> round(float(analysis.wager("dragon").house_edge), 6)
    0.037349
    """
    rules = check_rules(rules)
    if shoe is None:
        shoe = cards.standard(rules.decks)
    label = f"{rules.decks} deck{'s' if rules.decks > 1 else ''}"
    weights = count_pairs(shoe)
    if shoe != cards.standard(rules.decks):
        label = f"a shoe of {shoe.total} cards"
    return DragonTigerAnalysis(rules, label, weights, shoe.total * (shoe.total - 1), True)


def infinite_deck(rules: DragonTigerRules) -> DragonTigerAnalysis:
    """The exact limit of the analysis as the number of decks grows without bound
    (:func:`infinite_pairs`).

    Parameters
    ----------
    rules : DragonTigerRules
        The rule set (its ``decks`` does not enter).

    Returns
    -------
    DragonTigerAnalysis
        Weights that are limits, not counts (``exact_counts`` False).
    """
    rules = check_rules(rules)
    return DragonTigerAnalysis(rules, "infinite", infinite_pairs(), 52**2, False)


def deck_sweep(
    rules: DragonTigerRules, decks: int | Iterable[int] = 8, infinite: bool = True
) -> pd.DataFrame:
    """Each outcome's probability and each bet's house edge by number of decks.

    Parameters
    ----------
    rules : DragonTigerRules
        The rule set; its own ``decks`` is replaced by each deck count of the sweep.
    decks : int or iterable of int
        The largest deck count (the sweep runs 1..decks), or the deck counts themselves.
    infinite : bool
        Add a last row ``"infinite"``: the exact infinite-deck limit.

    Returns
    -------
    pandas.DataFrame
        Decks | P(<outcome>) ... | <bet> house edge ...
    """
    rules = check_rules(rules)
    analyses = [exact(rules.replace(decks=d)) for d in sweep_deck_counts(decks)]
    if infinite:
        analyses.append(infinite_deck(rules))
    labels = [analysis.shoe.split()[0] for analysis in analyses]
    outcomes = dict(OUTCOME_TITLES.values())
    return deck_sweep_table(analyses, labels, outcomes)
