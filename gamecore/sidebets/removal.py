"""A side bet's exact effects of removal, and the balanced count that follows them best.

Central idea
------------
The effect of removal of a card is the change in the bet's exact expected return when that
one card leaves the full shoe: the exact engine (:func:`gamecore.sidebets.exact.
count_outcomes`) run on ``shoe.remove([card])``, the difference an exact Fraction. Cards the
bet cannot tell apart (one *kind* of :func:`gamecore.sidebets.program.classes`: alike in
everything any condition reads) have one effect, so the engine runs once per kind, not once
per card. A rank's (or point class's) effect is the mean of its cards' effects: the change
when a card of it, of a suit drawn at random, leaves the shoe.

Because a card burned unseen does not change what the next cards are, the full shoe's
expected return is the mean of the depleted shoes' over a random card removed:
``E(S) = sum_c n_c E(S - c) / N``. So the effects of removal, weighted by the cards of a
deck, sum to exactly zero (:func:`gamecore.counting.balanced_tags` relies on it when it
centres them): a count follows their differences, never their level.

A count tells apart the bet's card classes: point classes where the bet reads only points
(totals, naturals, the tableau), else ranks (:func:`count_level`); the balanced integer
count over them is :func:`gamecore.counting.balanced_tags`'s.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from gamecore import cards, counting
from gamecore.errors import GamecoreError, shown
from gamecore.sidebets.definition import SideBet
from gamecore.sidebets.exact import count_outcomes
from gamecore.sidebets.program import COLOUR, RANK, SUIT, VALUE, card_reads, classes, rank_classes
from gamecore.sidebets.work import check_work, removal_counts

#: The card classes a count can tell apart: point classes, ranks, or single cards.
LEVELS = ("points", "ranks", "cards")
#: Baccarat's point classes as a count names them ("0": the 10, J, Q and K).
BACCARAT_POINT_NAMES = tuple(str(v) for v in range(10))
#: Every card's name, in code order (``rank * 4 + suit``), as :func:`gamecore.cards.card`
#: names it.
CARD_NAMES = tuple(f"{r} of {s}" for r in cards.RANKS for s in cards.SUITS)


def count_level(bet: SideBet) -> str:
    """The card classes a count of ``bet`` tells apart.

    Parameters
    ----------
    bet : SideBet
        A checked definition.

    Returns
    -------
    str
        ``"points"`` where the bet reads only the cards' point classes, else ``"ranks"``.
    """
    read = set().union(*card_reads(bet).values())
    return "points" if read <= {"value"} else "ranks"


def level_classes(game: str, level: str) -> tuple[tuple[str, ...], np.ndarray]:
    """A level's class names and the class of every card.

    Parameters
    ----------
    game : str
        ``"baccarat"`` or ``"blackjack"`` (whose point classes).
    level : str
        One of :data:`LEVELS`.

    Returns
    -------
    names : tuple of str
        The classes: baccarat points ``"0"``..``"9"``, blackjack points ``"A"``..``"10"``,
        the ranks of :data:`gamecore.cards.RANKS`, or :data:`CARD_NAMES`.
    of_code : numpy.ndarray
        int64 (52,): the class index of card code ``rank * 4 + suit``.
    """
    suits = len(cards.SUITS)
    ranks = np.arange(len(cards.RANKS) * suits) // suits
    if level == "points":
        baccarat = game == "baccarat"
        points = np.array(cards.BACCARAT_POINTS if baccarat else cards.BLACKJACK_CLASSES)
        names = BACCARAT_POINT_NAMES if baccarat else cards.BLACKJACK_CLASS_NAMES
        return names, points[ranks].astype(np.int64)
    if level == "ranks":
        return cards.RANKS, ranks.astype(np.int64)
    if level == "cards":
        return CARD_NAMES, np.arange(len(CARD_NAMES), dtype=np.int64)
    raise GamecoreError(f"level must be one of {', '.join(LEVELS)}, got {shown(level)}")


def count_deck(game: str, level: str) -> counting.Deck:
    """A level's classes with the cards of each in one deck, for the counting model.

    Parameters
    ----------
    game : str
        ``"baccarat"`` or ``"blackjack"``.
    level : str
        One of :data:`LEVELS`.

    Returns
    -------
    gamecore.counting.Deck
        The class names and their cards per deck (a ten-valued point class 16).
    """
    names, of_code = level_classes(game, level)
    per_deck = np.bincount(of_code, minlength=len(names))
    return counting.Deck(tuple(names), tuple(int(n) for n in per_deck))


def tags_level(game: str, tags: Mapping[str, int]) -> str:
    """The level a count's tags are keyed by, read from their keys.

    Parameters
    ----------
    game : str
        ``"baccarat"`` or ``"blackjack"``.
    tags : Mapping of str to int
        A tag for every class of one level.

    Returns
    -------
    str
        The level of :data:`LEVELS` whose class names are exactly the keys (else a
        :class:`GamecoreError` listing what each level names).
    """
    keys = set(tags) if isinstance(tags, Mapping) else None
    for level in LEVELS:
        if keys == set(level_classes(game, level)[0]):
            return level
    points = ", ".join(level_classes(game, "points")[0])
    raise GamecoreError(
        f"tags must give a tag to every point class ({points}), every rank "
        f"({', '.join(cards.RANKS)}) or every card ('A of clubs' ...), got {shown(tags)}"
    )


def tags_by_code(game: str, tags: Mapping[str, int]) -> tuple[str, np.ndarray]:
    """A count's tags as the shoe kernel reads them, checked.

    Parameters
    ----------
    game : str
        ``"baccarat"`` or ``"blackjack"``.
    tags : Mapping of str to int
        An integer tag for every class of one level (:func:`tags_level`).

    Returns
    -------
    level : str
        The level the tags are keyed by.
    by_code : numpy.ndarray
        int64 (52,): the tag of card code ``rank * 4 + suit``.
    """
    level = tags_level(game, tags)
    names, of_code = level_classes(game, level)
    checked = count_deck(game, level).tags(tags)
    return level, np.array([checked[name] for name in names], dtype=np.int64)[of_code]


def expected_return(bet: SideBet, shoe: cards.Shoe) -> Fraction:
    """The exact expected return per unit wagered of ``bet`` dealt from ``shoe``.

    Parameters
    ----------
    bet : SideBet
        A checked definition.
    shoe : gamecore.cards.Shoe
        The cards, by rank and suit.

    Returns
    -------
    fractions.Fraction
        Sum over the outcomes of their ways times their payout (-1 for the losing deals),
        over every deal's ways.
    """
    total, paid, _matched = count_outcomes(bet, shoe)
    pays = [outcome.pays for outcome in bet.outcomes] + [Fraction(-1)]
    return sum((Fraction(w) * p for w, p in zip(paid, pays, strict=True)), Fraction(0)) / total


def _kind_of_cells(bet: SideBet, shoe: cards.Shoe) -> list[int]:
    """The kind of every card (code order): the class of the enumeration's fine level whose
    attributes it has (a -1 attribute is one the bet does not read; a rank class is read
    as its least rank)."""
    found = classes(bet, shoe)
    rank_of = rank_classes(bet)
    sizes, attributes = found.sizes, found.attributes[1]
    points = cards.BACCARAT_POINTS if bet.game == "baccarat" else cards.BLACKJACK_CLASSES
    kinds = []
    for r in range(len(cards.RANKS)):
        for s in range(len(cards.SUITS)):
            own = {VALUE: points[r], RANK: rank_of[r], SUIT: s, COLOUR: cards.SUIT_COLOUR[s]}
            kinds.append(
                next(
                    k
                    for k in range(int(sizes[1]))
                    if all(attributes[a, k] in (-1, v) for a, v in own.items())
                    and attributes[VALUE, k] == own[VALUE]
                )
            )
    return kinds


@dataclasses.dataclass(frozen=True)
class SideBetEffects:
    """A side bet's exact effects of removal and the balanced count that follows them.

    Attributes
    ----------
    bet : SideBet
        The definition.
    decks : int
        Decks in the full shoe.
    full_ev : fractions.Fraction
        The exact expected return on the full shoe.
    by_card : dict of str to Fraction
        Every card's (:data:`CARD_NAMES`) effect of removal: the expected return on the
        full shoe less that card, minus ``full_ev``.
    level : str
        The classes the count tells apart (:func:`count_level`).
    effects : dict of str to Fraction
        Each class's effect of removal: the mean of its cards'.
    tags : dict of str to int or None
        The balanced integer count that best follows ``effects``; None where there is none
        (``no_count`` says why: every effect zero, or no balance within the largest tag).
    correlation : float or None
        The tags' betting correlation with the effects.
    slope : float or None
        The change in expected return per unit of running count off the full shoe that the
        tags predict (:func:`gamecore.counting.regression_slope`).
    no_count : str
        Why there is no count ("" where there is one).
    """

    bet: SideBet
    decks: int
    full_ev: Fraction
    by_card: dict[str, Fraction]
    level: str
    effects: dict[str, Fraction]
    tags: dict[str, int] | None
    correlation: float | None
    slope: float | None
    no_count: str

    def by_class(self, level: str) -> dict[str, Fraction]:
        """The effects of removal of a level's classes: each the mean of its cards'.

        Parameters
        ----------
        level : str
            One of :data:`LEVELS`.

        Returns
        -------
        dict of str to Fraction
            Class name -> its effect of removal, exact.
        """
        names, of_code = level_classes(self.bet.game, level)
        effects = list(self.by_card.values())
        out = {}
        for index, name in enumerate(names):
            members = [e for e, c in zip(effects, of_code, strict=True) if c == index]
            out[name] = sum(members, Fraction(0)) / len(members)
        return out

    @property
    def reads_suits(self) -> bool:
        """Whether the bet reads suits or colours: then its cards of one rank differ and
        the card table (``table("cards")``) says how."""
        return bool({"suit", "colour"} & set().union(*card_reads(self.bet).values()))

    @property
    def break_even_true_count(self) -> float | None:
        """The true count at which the tags' linear estimate of the expected return reaches
        zero: ``-full_ev / (slope * decks)``, the effects scaling as one over the cards left
        (None without a count, or where the tags predict no change).

        Returns
        -------
        float or None
            A natural trigger for the counter (an estimate: the simulation decides).
        """
        if not self.slope:
            return None
        return -float(self.full_ev) / (self.slope * self.decks)

    def table(self, level: str | None = None) -> pd.DataFrame:
        """The effects of removal of a level's classes, with the count's tags.

        Parameters
        ----------
        level : str, optional
            One of :data:`LEVELS` (default: the count's level).

        Returns
        -------
        pandas.DataFrame
            Card | Cards per deck | EoR (%) | Tag: a row per class, the change in expected
            return per card removed in percent of the wager; the tag where the count is at
            that level (else empty).
        """
        level = self.level if level is None else level
        deck = count_deck(self.bet.game, level)
        effects = self.by_class(level)
        tags = self.tags if level == self.level and self.tags is not None else {}
        return pd.DataFrame(
            [
                {
                    "Card": name,
                    "Cards per deck": per_deck,
                    "EoR (%)": 100 * float(effects[name]),
                    "Tag": tags.get(name),
                }
                for name, per_deck in zip(deck.ranks, deck.cards, strict=True)
            ]
        )

    def to_dict(self) -> dict[str, Any]:
        """The effects as JSON.

        Returns
        -------
        dict
            ``bet``, ``decks``, ``full_shoe_ev``, ``level``, ``effects_of_removal`` (floats
            by class), ``effects_of_removal_exact`` (``"p/q"``), ``by_card`` (floats),
            ``tags``, ``betting_correlation``, ``break_even_true_count``, ``no_count``.
        """
        return {
            "bet": self.bet.bet,
            "decks": self.decks,
            "full_shoe_ev": float(self.full_ev),
            "level": self.level,
            "effects_of_removal": {k: float(v) for k, v in self.effects.items()},
            "effects_of_removal_exact": {k: str(v) for k, v in self.effects.items()},
            "by_card": {k: float(v) for k, v in self.by_card.items()},
            "tags": self.tags,
            "betting_correlation": self.correlation,
            "break_even_true_count": self.break_even_true_count,
            "no_count": self.no_count,
        }


def effects_of_removal(bet: SideBet, decks: int | None = None, max_tag: int = 3) -> SideBetEffects:
    """The exact effects of removal of every card, rank and point class of ``bet``, and the
    balanced integer count over its card classes that follows them best.

    Parameters
    ----------
    bet : SideBet
        A checked definition.
    decks : int, optional
        Decks in the full shoe, 1..1000 (default: the definition's).
    max_tag : int
        The largest tag of the count, 1..20.

    Returns
    -------
    SideBetEffects
        The effects (exact Fractions), the count, its betting correlation and slope (or
        why there is no count).

    Raises
    ------
    GamecoreError
        Before any counting, where the counts (the full shoe's and one per kind) would
        pass the bound of :data:`gamecore.sidebets.work.MAX_DEALS`.
    """
    decks = bet.decks if decks is None else cards.validate_decks(decks)
    check_work(bet, decks, removal_counts(bet), "its effects of removal")
    shoe = cards.standard(decks)
    full = expected_return(bet, shoe)
    by_kind: dict[int, Fraction] = {}
    by_card: dict[str, Fraction] = {}
    for code, kind in enumerate(_kind_of_cells(bet, shoe)):
        if kind not in by_kind:
            rank, suit = divmod(code, len(cards.SUITS))
            taken = cards.card(cards.RANKS[rank], cards.SUITS[suit])
            by_kind[kind] = expected_return(bet, shoe.remove([taken])) - full
        by_card[CARD_NAMES[code]] = by_kind[kind]
    level = count_level(bet)
    made = SideBetEffects(bet, decks, full, by_card, level, {}, None, None, None, "")
    effects = made.by_class(level)
    deck = count_deck(bet.game, level)
    floats = {name: float(e) for name, e in effects.items()}
    try:
        tags = counting.balanced_tags(floats, deck, max_tag)
    except GamecoreError as error:  # every effect zero, or none balances within max_tag
        return dataclasses.replace(made, effects=effects, no_count=str(error))
    return dataclasses.replace(
        made,
        effects=effects,
        tags=tags,
        correlation=counting.betting_correlation(tags, floats, deck),
        slope=counting.regression_slope(tags, floats, deck),
    )
