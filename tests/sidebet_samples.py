"""Side-bet definitions several tests read, written once: their shapes are what the tests
are about (an outcome impossible from one deck; counting past the work bound); and the tiny
shoes the tests deal both to the engine and to the pure-Python reference."""

from __future__ import annotations

import numpy as np

from gamecore import cards

#: Blackjack's first two cards: an identical pair cannot happen with one deck (the one card
#: of each rank and suit), and is paid from two decks on; any other pair after it.
IDENTICAL_THEN_ANY_PAIR = b"""\
bet: identical
title: Identical Pair
game: blackjack
outcomes:
  - name: Identical pair
    when:
      same_card: [player_1, player_2]
    pays: 25 to 1
  - name: Any pair
    when:
      same_rank: [player_1, player_2]
    pays: 5 to 1
"""

#: A flush of each baccarat hand's three cards with its win: its par sheet is within the
#: work bound at any deck count, its effects of removal (41 counts: each kind of card less,
#: and the full shoe) are not (gamecore.sidebets.work).
SIX_SUITED = """\
bet: six_suited
game: baccarat
decks: 8
outcomes:
  - name: Player flush
    when:
      same_suit: [player_1, player_2, player_3]
      winner: player
    pays: 20 to 1
  - name: Banker flush
    when:
      same_suit: [banker_1, banker_2, banker_3]
      winner: banker
    pays: 20 to 1
"""


def tiny_shoe(ranks: list[int], suits: list[int]) -> tuple[cards.Shoe, dict]:
    """The same tiny shoe for the engine (by rank and suit) and for the reference.

    Parameters
    ----------
    ranks, suits : list of int
        Each card's rank and suit index (:data:`gamecore.cards.RANKS`, ``SUITS``), paired.

    Returns
    -------
    shoe : gamecore.cards.Shoe
        The cards by rank and suit.
    physical : dict
        ``(rank name, suit name) -> cards`` for tests/sidebet_reference.py.
    """
    counts = np.zeros((13, 4), dtype=np.int64)
    for r, s in zip(ranks, suits, strict=True):
        counts[r, s] += 1
    physical = {
        (cards.RANKS[r], cards.SUITS[s]): int(counts[r, s])
        for r in range(13)
        for s in range(4)
        if counts[r, s]
    }
    return cards.Shoe(counts), physical
