"""Slow, independent pure-Python reference ("oracle") for baccarat dealing.

Written from the rule texts only (``/work/shared/RULES.md`` and the seed rule cards
001 High Limit Baccarat and 002 EZ Baccarat), never from the fast kernel, so that
the tests can compare two independent implementations.

Conventions
-----------
* Cards are given as *point values* 0..9 (A=1, 2-9 face, 10/J/Q/K=0).
* Deal order: Player 1, Banker 1, Player 2, Banker 2, Player's third card (if
  any), Banker's third card (if any).
* A breakdown is a dict mapping the key
  ``(player_card_count, banker_card_count, player_total, banker_total)`` to an exact
  integer count of ORDERED 6-card sequences drawn without replacement from the
  shoe.  A round that uses k cards (4, 5 or 6) is padded with every ordered way
  of filling positions k+1..6 from the cards left, so that the counts over all
  keys sum to ``N * (N-1) * ... * (N-5)`` (N = cards in the shoe).

No numpy, no numba: plain ints only, so the counts are exact for any shoe size.
"""

from __future__ import annotations

import itertools
from collections import Counter

# Banker third-card chart from seed 001 (High Limit Baccarat), used only when the
# Player drew a third card.  Row = Banker's two-card total, entry = the set of
# Player third-card POINT values on which the Banker draws ("Yes" in the chart).
#   Banker 7: Stand on everything.
#   Banker 6: Yes on 6, 7.
#   Banker 5: Yes on 4, 5, 6, 7.
#   Banker 4: Yes on 2, 3, 4, 5, 6, 7.
#   Banker 3: Yes on everything except 8.
#   Banker 0, 1, 2: Yes on everything.
_CHART_DRAWS_ON = {
    0: set(range(10)),
    1: set(range(10)),
    2: set(range(10)),
    3: {0, 1, 2, 3, 4, 5, 6, 7, 9},
    4: {2, 3, 4, 5, 6, 7},
    5: {4, 5, 6, 7},
    6: {6, 7},
    7: set(),
}

DECK_COMPOSITION = [16, 4, 4, 4, 4, 4, 4, 4, 4, 4]
"""One 52-card deck by point value 0..9: 10/J/Q/K (16 cards) are 0, A..9 four each."""


def shoe_composition(decks: int) -> list[int]:
    """Point-value composition of a shoe of ``decks`` standard 52-card decks."""
    return [decks * c for c in DECK_COMPOSITION]


def banker_draws(banker_total: int, player_third_card: int | None) -> bool:
    """Whether the Banker draws a third card (naturals are assumed already excluded).

    ``banker_total`` is the Banker's two-card total (0..9).  ``player_third_card`` is
    the POINT value (0..9) of the Player's third card, or ``None`` when the Player
    stood on two cards.

    * Player stood: Banker draws on 0-5 and stands on 6-7 (seed 001: "The Banker can
      get a third card, if the Player stands and the Banker's total is 5 or less").
    * Player drew: the seed's chart (see ``_CHART_DRAWS_ON``).
    * A Banker total of 8 or 9 is a natural and never draws.
    """
    if not 0 <= banker_total <= 9:
        raise ValueError(f"banker_total must be 0..9, got {banker_total!r}")
    if banker_total >= 8:
        return False
    if player_third_card is None:
        return banker_total <= 5
    if not 0 <= player_third_card <= 9:
        raise ValueError(f"player_third_card must be 0..9 or None, got {player_third_card!r}")
    return player_third_card in _CHART_DRAWS_ON[banker_total]


def play_round(cards) -> tuple[int, int, int, int]:
    """Play one round from ``cards`` (point values in deal order).

    Only as many cards as the round needs are taken from the iterable (4, 5 or 6).
    Returns ``(player_card_count, banker_card_count, player_total, banker_total)``.
    Raises ``ValueError`` if the cards run out before the round is complete.
    """
    it = iter(cards)

    def take():
        try:
            return next(it)
        except StopIteration:
            raise ValueError("not enough cards to complete the round") from None

    p1 = take()
    b1 = take()
    p2 = take()
    b2 = take()
    player = (p1 + p2) % 10
    banker = (b1 + b2) % 10
    n_player, n_banker = 2, 2

    # A natural (two-card 8 or 9) on either side stops all drawing.
    if player >= 8 or banker >= 8:
        return n_player, n_banker, player, banker

    player_third = None
    if player <= 5:  # Player draws on 0-5, stands on 6-7.
        player_third = take()
        player = (player + player_third) % 10
        n_player = 3

    if banker_draws(banker, player_third):
        banker = (banker + take()) % 10
        n_banker = 3

    return n_player, n_banker, player, banker


def _cards_needed(prefix: list[int]) -> int:
    """Number of cards the round needs, decided from a prefix of at least 4 cards.

    With 4 cards we know whether the Player draws, and whether the Banker draws when
    the Player stood; with 5 cards (Player drew) the Banker's decision is known.
    """
    p1, b1, p2, b2 = prefix[:4]
    player = (p1 + p2) % 10
    banker = (b1 + b2) % 10
    if player >= 8 or banker >= 8:
        return 4
    if player >= 6:  # Player stands on 6-7.
        return 5 if banker_draws(banker, None) else 4
    if len(prefix) < 5:
        return 5  # at least: the Player's third card must be seen first
    return 6 if banker_draws(banker, prefix[4]) else 5


def _falling(n: int, k: int) -> int:
    """n * (n-1) * ... * (n-k+1); 1 when k == 0."""
    out = 1
    for i in range(k):
        out *= n - i
    return out


def class_breakdown(composition) -> dict[tuple[int, int, int, int], int]:
    """Exact breakdown over every ordered 6-card sequence off the top of the shoe.

    ``composition`` is a list of 10 non-negative ints: the number of cards of each
    point value 0..9.  Cards of equal point value are grouped, but counted with
    multiplicity (picking a value with c cards left contributes a factor c).

    Implemented as a depth-first recursion over the cards dealt: at each step pick
    the next card's point value, multiply the weight by how many such cards remain,
    and stop as soon as the prefix is a complete round (4, 5 or 6 cards).  A
    k-card round is then padded by ``(N-k)(N-k-1)...(N-5)`` ordered fillers.
    """
    counts = [int(c) for c in composition]
    if len(counts) != 10 or any(c < 0 for c in counts):
        raise ValueError("composition must be 10 non-negative ints (point values 0..9)")
    n_cards = sum(counts)
    if n_cards < 6:
        raise ValueError(f"need at least 6 cards in the shoe, got {n_cards}")

    pad = {k: _falling(n_cards - k, 6 - k) for k in (4, 5, 6)}
    result: Counter = Counter()
    prefix: list[int] = []

    def recurse(weight: int) -> None:
        if len(prefix) >= 4 and _cards_needed(prefix) == len(prefix):
            key = play_round(prefix)
            result[key] += weight * pad[len(prefix)]
            return
        for value in range(10):
            left = counts[value]
            if left == 0:
                continue
            counts[value] -= 1
            prefix.append(value)
            recurse(weight * left)
            prefix.pop()
            counts[value] += 1

    recurse(1)
    return dict(result)


def card_by_card_breakdown(cards) -> dict[tuple[int, int, int, int], int]:
    """Brute-force breakdown over physical cards (for tiny shoes only).

    ``cards`` lists the point values of DISTINCT physical cards.  Every ordered
    choice of 6 of them (``itertools.permutations(range(len(cards)), 6)``) is dealt
    literally; each sequence counts 1 for the round it produces.
    """
    cards = list(cards)
    if len(cards) < 6:
        raise ValueError(f"need at least 6 cards in the shoe, got {len(cards)}")
    result: Counter = Counter()
    for order in itertools.permutations(range(len(cards)), 6):
        result[play_round(cards[i] for i in order)] += 1
    return dict(result)


def outcome_counts(breakdown) -> dict[str, int]:
    """Aggregate a breakdown into base-game and EZ Baccarat side-bet counts.

    Keys: 'banker', 'player', 'tie' (who wins), 'dragon7' (Banker wins with a
    three-card total of 7), 'panda8' (Player wins with a three-card total of 8) and
    'total' (sum of everything).
    """
    out = {"banker": 0, "player": 0, "tie": 0, "dragon7": 0, "panda8": 0, "total": 0}
    for (n_player, n_banker, player, banker), count in breakdown.items():
        out["total"] += count
        if banker > player:
            out["banker"] += count
            if n_banker == 3 and banker == 7:
                out["dragon7"] += count
        elif player > banker:
            out["player"] += count
            if n_player == 3 and player == 8:
                out["panda8"] += count
        else:
            out["tie"] += count
    return out
