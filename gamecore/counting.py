"""Card counting, for every game dealt from a shoe: how well a count's tags follow the exact
effects of removal, and the balanced integer count that follows them best.

Central idea
------------
A shoe's EV moves, to first order, with the cards that have left it: removing one card of
rank ``r`` changes the EV by its *effect of removal* ``e_r`` (computed exactly by each game's
engine on the depleted shoe). A count gives each rank an integer tag ``t_r`` and sums the
tags of the cards seen; it estimates the shoe's EV well exactly when the tags are
proportional to the effects. Griffin's *betting correlation* measures that: the correlation
of tags and effects over the cards of one deck (both centred on their deck-weighted means, so
an unbalanced count is not credited for its imbalance). The same correlation against the
effects of removal of one decision's gain (say, standing rather than hitting 16 against a
10) is that decision's *playing efficiency*.

A count is *balanced* when its tags sum to zero over a deck: every shoe then starts at zero,
and the running count divided by the decks left (the *true count*) estimates the shoe's
deviation from a full one.

Each game names its ranks and their cards per deck in a :class:`Deck`.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping

import numpy as np

from gamecore.errors import GamecoreError


@dataclasses.dataclass(frozen=True)
class Deck:
    """The ranks a counter tells apart, and the cards of each in one deck."""

    ranks: tuple[str, ...]
    cards: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.ranks) != len(self.cards) or len(set(self.ranks)) != len(self.ranks):
            raise GamecoreError(f"a deck needs one card count per distinct rank, got {self}")

    @property
    def weights(self) -> np.ndarray:
        return np.array(self.cards, dtype=float)

    def by_rank(self, values: Mapping[str, float], name: str) -> np.ndarray:
        """``values[rank]`` for every rank, as floats; refuses a missing, extra or
        non-numeric entry, naming ``name``."""
        if not isinstance(values, Mapping) or set(values) != set(self.ranks):
            raise GamecoreError(
                f"{name} must map every rank {', '.join(self.ranks)} to a number, got "
                f"{sorted(values) if isinstance(values, Mapping) else values!r}"
            )
        try:
            array = np.array([float(values[r]) for r in self.ranks])
        except (TypeError, ValueError):
            raise GamecoreError(f"{name} must map every rank to a number") from None
        if not np.isfinite(array).all():
            raise GamecoreError(f"{name} must be finite numbers")
        return array

    def tags(self, tags: Mapping[str, int]) -> dict[str, int]:
        """A count's tags, checked: an integer for every rank."""
        self.by_rank(tags, "tags")
        for rank in self.ranks:
            tag = tags[rank]
            if isinstance(tag, bool) or not isinstance(tag, (int, np.integer)):
                raise GamecoreError(f"tag of rank {rank} must be an integer, got {tag!r}")
        return {rank: int(tags[rank]) for rank in self.ranks}

    def imbalance(self, tags: Mapping[str, int]) -> int:
        """The tags' sum over one deck (0: a balanced count)."""
        tags = self.tags(tags)
        return sum(n * tags[r] for r, n in zip(self.ranks, self.cards, strict=True))


def betting_correlation(
    tags: Mapping[str, float], effects: Mapping[str, float], deck: Deck
) -> float:
    """Correlation of ``tags`` with ``effects`` over the cards of ``deck``, both centred on
    their deck-weighted means (module docstring); 0 when either is constant.

    Examples
    --------
    >>> deck = Deck(("low", "high"), (1, 1))
    >>> betting_correlation({"low": 1, "high": -1}, {"low": 0.3, "high": -0.1}, deck)
    1.0
    """
    weights = deck.weights
    t = deck.by_rank(tags, "tags")
    e = deck.by_rank(effects, "effects")
    t = t - np.average(t, weights=weights)
    e = e - np.average(e, weights=weights)
    denominator = math.sqrt(np.sum(weights * t * t) * np.sum(weights * e * e))
    return float(np.sum(weights * t * e) / denominator) if denominator else 0.0


def balanced_tags(effects: Mapping[str, float], deck: Deck, max_tag: int = 3) -> dict[str, int]:
    """The balanced integer count that best follows the effects of removal.

    Scales the effects so the largest is ``max_tag`` or less, rounds to integers, keeps the
    roundings whose tags sum to zero over a deck, and returns the one with the highest
    betting correlation; ties go to the smaller tags. Where no rounding balances (a rank of
    few cards per deck, such as a joker, leaves odd sums), one rank's tag may be moved to
    balance it, keeping its sign the effect's. A rank with no cards in the deck gets tag 0
    (it is never seen).
    """
    if (
        isinstance(max_tag, bool)
        or not isinstance(max_tag, (int, np.integer))
        or not (1 <= max_tag <= 20)
    ):
        raise GamecoreError(f"max_tag must be an integer from 1 to 20, got {max_tag!r}")
    values = dict(zip(deck.ranks, deck.by_rank(effects, "effects"), strict=True))
    live = [r for r, n in zip(deck.ranks, deck.cards, strict=True) if n > 0]
    largest = max((abs(values[r]) for r in live), default=0.0)
    if largest == 0:
        raise GamecoreError("every effect of removal is zero: there is nothing to count")
    normalised = {r: values[r] / largest if r in live else 0.0 for r in deck.ranks}
    cards = dict(zip(deck.ranks, deck.cards, strict=True))

    def better(best, tags):
        key = (round(betting_correlation(tags, values, deck), 12), -sum(map(abs, tags.values())))
        return (*key, tags) if best is None or key > best[:2] else best

    best: tuple[float, int, dict[str, int]] | None = None
    moved: tuple[float, int, dict[str, int]] | None = None  # balanced by moving one tag
    for scale in np.linspace(0.5, max_tag + 0.5, 3001):
        tags = {
            r: int(np.clip(round(normalised[r] * scale), -max_tag, max_tag)) for r in deck.ranks
        }
        if not any(tags.values()):
            continue
        imbalance = deck.imbalance(tags)
        if imbalance == 0:
            best = better(best, tags)
            continue
        for rank in live:
            if imbalance % cards[rank]:
                continue
            tag = tags[rank] - imbalance // cards[rank]
            if abs(tag) <= max_tag and tag * values[rank] >= 0:
                moved = better(moved, {**tags, rank: tag})
    best = best if best is not None else moved
    if best is None:
        raise GamecoreError(f"no balanced count with tags up to {max_tag} follows these effects")
    return best[2]


def regression_slope(tags: Mapping[str, float], effects: Mapping[str, float], deck: Deck) -> float:
    """The EV change per unit of running count that the tags predict: the deck-weighted
    least-squares slope of the effects on the (centred) tags. Removing cards whose tags sum
    to ``RC`` from the full shoe changes the EV by about ``slope * RC``."""
    weights = deck.weights
    t = deck.by_rank(tags, "tags")
    e = deck.by_rank(effects, "effects")
    t = t - np.average(t, weights=weights)
    e = e - np.average(e, weights=weights)
    spread = float(np.sum(weights * t * t))
    if spread == 0:
        raise GamecoreError("the tags are all equal: they do not count anything")
    return float(np.sum(weights * t * e) / spread)
