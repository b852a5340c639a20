"""Which shoes an analysis accepts: cards per rank within the engine's range, and no round
that could run out of cards before it ends (such a round has no outcome, and its probability
would silently go missing from every EV).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from gamecore.blackjack.rules import ACE, RANKS, StandardBlackjackRules, shoe_composition
from gamecore.errors import GamecoreError, shown
from gamecore.numeric import is_whole
from gamecore.shoe import validate_composition

# ---------------------------------------------------------------------------------------
# Shoes that can run out mid-round
# ---------------------------------------------------------------------------------------

#: States the exhaustion search visits at most before it refuses a shoe it cannot clear.
EXHAUSTION_SEARCH_LIMIT = 100_000
_HARD_VALUE = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)


class _SearchTooLong(Exception):
    pass


def round_cards_bound(shoe: Sequence[int], hands: int) -> int:
    """An upper bound on the cards one round can take: every hand that draws again holds a
    hard total (aces as one) of at most 20 (a player's) or 16 (the dealer's) before its last
    card, so a round takes at most one last card per hand plus as many of the shoe's
    smallest cards as fit under ``20 * hands + 16``.

    Parameters
    ----------
    shoe : sequence of int
        Cards of each rank, A first and the ten-valued cards last.
    hands : int
        The player's hands a round can reach (every seat's, splits included).

    Returns
    -------
    int
        The bound, in cards.

    Examples
    --------
    >>> round_cards_bound([24] * 9 + [96], 1)  # 24 aces and 6 twos fill 36, one more each
    32
    """
    room, taken = 20 * hands + 16, 0
    for rank, count in enumerate(shoe):
        fit = min(int(count), room // _HARD_VALUE[rank])
        taken += fit
        room -= fit * _HARD_VALUE[rank]
        if fit < count:
            break
    return taken + hands + 1


def _best(hard: int, ace: bool) -> int:
    return hard + 10 if ace and hard <= 11 else hard


def _take(left: tuple[int, ...], rank: int) -> tuple[int, ...]:
    """The shoe ``left`` less one card of ``rank``."""
    return left[:rank] + (left[rank] - 1,) + left[rank + 1 :]


def _dealer_needs_card(left: tuple[int, ...], hard: int, ace: bool, h17: bool) -> bool:
    """Whether the dealer's hand (``hard``, ``ace``: holds an Ace) can need a card from
    ``left`` when none is left, drawing by the rule (``h17``: hits soft 17)."""
    total, soft = _best(hard, ace), ace and hard <= 11
    if total > 17 or (total == 17 and not (h17 and soft)):
        return False
    if not any(left):
        return True
    return any(
        _dealer_needs_card(_take(left, r), hard + _HARD_VALUE[r], ace or r == ACE, h17)
        for r in range(10)
        if left[r]
    )


def _deals(shoe: tuple[int, ...]):
    """Every first deal the shoe can give: (the shoe left, the player's two-card hand as
    ``(hard, ace, cards, pair rank or -1)``, the dealer's two cards as ``(hard, ace)``)."""
    for a, b, up, hole in itertools.product(range(10), repeat=4):
        left = shoe
        for rank in (a, b, up, hole):
            if not left[rank]:
                break
            left = _take(left, rank)
        else:
            hand = (_HARD_VALUE[a] + _HARD_VALUE[b], ACE in (a, b), 2, a if a == b else -1)
            yield left, hand, (_HARD_VALUE[up] + _HARD_VALUE[hole], ACE in (up, hole))


def _search_exhaustion(shoe: tuple[int, ...], rules: StandardBlackjackRules) -> bool:
    """Whether some deal and some play can need a card when the shoe is empty.

    Play is searched over a superset of what the rules allow: hits on any total below 21,
    every split up to ``max_split_hands``, the dealer's drawing rule, the dealer drawing
    whenever a player hand is live (or may push busted). A shoe this clears cannot run out.
    """
    hands_limit = rules.max_split_hands
    h17 = rules.dealer_hits_soft_17
    bust_push = rules.bust_push != "none"
    seen: set = set()

    def play(left, hand, pending, hands, dealer, live) -> bool:
        key = (left, hand, pending, hands, dealer, live)
        if key in seen:
            return False
        seen.add(key)
        if len(seen) > EXHAUSTION_SEARCH_LIMIT:
            raise _SearchTooLong
        hard, ace, cards, pair = hand
        if cards == 1:  # a split hand takes its second card
            if not any(left):
                return True
            return any(
                play(
                    _take(left, r),
                    (hard + _HARD_VALUE[r], ace or r == ACE, 2, pair if r == pair else -1),
                    pending,
                    hands,
                    dealer,
                    live,
                )
                for r in range(10)
                if left[r]
            )
        if _best(hard, ace) < 21:
            if not any(left):
                return True
            for r in range(10):
                drawn = (hard + _HARD_VALUE[r], ace or r == ACE, cards + 1, -1)
                if left[r] and play(_take(left, r), drawn, pending, hands, dealer, live):
                    return True
        if cards == 2 and pair >= 0 and hands < hands_limit:
            split = (_HARD_VALUE[pair], pair == ACE, 1, pair)
            if play(left, split, (*pending, pair), hands + 1, dealer, live):
                return True
        live = live or hard <= 21 or bust_push
        if pending:
            nxt = pending[0]
            return play(
                left, (_HARD_VALUE[nxt], nxt == ACE, 1, nxt), pending[1:], hands, dealer, live
            )
        return live and _dealer_needs_card(left, *dealer, h17)

    if sum(shoe) < 4:
        return True
    return any(play(left, hand, (), 1, dealer, False) for left, hand, dealer in _deals(shoe))


def check_round_fits(shoe: Sequence[int], rules: StandardBlackjackRules) -> None:
    """Refuse a shoe from which some round could need a card when none is left: such a
    round has no outcome, and its probability would silently go missing from every EV.

    A bound (:func:`round_cards_bound`) clears any realistic shoe at once; a small shoe it
    does not clear is searched play by play (:func:`_search_exhaustion`).

    Parameters
    ----------
    shoe : sequence of int
        Cards of each rank, A first and the ten-valued cards last.
    rules : StandardBlackjackRules
        The rules, resolved.
    """
    shoe = tuple(int(c) for c in shoe)
    hands = max(1, rules.max_split_hands)
    if round_cards_bound(shoe, hands) <= sum(shoe):
        return
    try:
        runs_out = _search_exhaustion(shoe, rules)
    except _SearchTooLong:
        raise GamecoreError(
            f"composition {list(shoe)}: a round may need up to "
            f"{round_cards_bound(shoe, hands)} cards and the shoe holds {sum(shoe)}; "
            "it could not be confirmed that no round runs out of cards: add cards"
        ) from None
    if runs_out:
        raise GamecoreError(
            f"composition {list(shoe)}: some rounds run out of cards before they end (the "
            f"shoe holds {sum(shoe)}); add cards"
        )


def up_index(up_card: Any) -> int:
    """The rank index of a dealer's up card as a user names it.

    Parameters
    ----------
    up_card : Any
        ``A`` (or 1, 11), 2..10, or ``J``, ``Q``, ``K``, ``T`` (any case, as text or int).

    Returns
    -------
    int
        0 for the ace .. 9 for the ten-valued cards (else a :class:`GamecoreError`).

    Examples
    --------
    >>> up_index("a"), up_index(6), up_index("K")
    (0, 5, 9)
    """
    text = str(up_card).strip().upper()
    names = {"A": 0, "1": 0, "11": 0, "J": 9, "Q": 9, "K": 9, "T": 9}
    names.update({str(v): v - 1 for v in range(2, 11)})
    if isinstance(up_card, bool) or text not in names:
        raise GamecoreError(f"up_card must be A or 2..10, got {shown(up_card)}")
    return names[text]


#: The most cards of one rank a composition may hold. The engine multiplies falling
#: factorials of the counts in float64 over hands of up to about twenty cards; far below
#: this bound every product stays finite (and a thousand decks hold 16,000 ten-valued cards).
MAX_CARDS_PER_RANK = 1_000_000


def checked_shoe(
    composition: Sequence[int], rules: StandardBlackjackRules, min_cards: int = 12
) -> np.ndarray:
    """A shoe given by hand for an analysis under ``rules``: valid counts
    (:func:`check_composition`), at least ``min_cards`` cards, and no round that can run out
    of cards (:func:`check_round_fits`).

    Parameters
    ----------
    composition : sequence of int
        Cards of each rank, A first and the ten-valued cards last.
    rules : StandardBlackjackRules
        The rules of the analysis.
    min_cards : int, default 12
        The fewest cards the shoe may hold.

    Returns
    -------
    numpy.ndarray
        The composition, int64 (else a :class:`GamecoreError` saying what is wrong).
    """
    shoe = check_composition(composition)
    if shoe.sum() < min_cards:
        raise GamecoreError(f"composition must hold at least {min_cards} cards, got {shoe.sum()}")
    check_round_fits(shoe, rules.resolved())
    return shoe


#: How messages name a blackjack shoe's ranks (10: the ten-valued cards 10, J, Q, K), as the
#: command line's ``--shoe`` gives them.
RANK_NAMES = tuple(f"rank {rank}" for rank in RANKS)


def check_composition(composition: Sequence[int], name: str = "composition") -> np.ndarray:
    """A blackjack shoe given by hand: 10 card counts, A first and the ten-valued cards last
    (:func:`gamecore.shoe.validate_composition`). Classes only: it cannot be turned into
    ranks and suits, so it stays as given (a full shoe is
    :func:`gamecore.blackjack.rules.shoe_composition`, from the card model).

    Parameters
    ----------
    composition : sequence of int
        10 counts, each at most :data:`MAX_CARDS_PER_RANK`.
    name : str, default "composition"
        The parameter's name, as messages show it.

    Returns
    -------
    numpy.ndarray
        The composition, int64 (else a :class:`GamecoreError` naming what is wrong).
    """
    return validate_composition(
        composition,
        min_cards=0,
        name=name,
        labels=RANK_NAMES,
        max_per_class=MAX_CARDS_PER_RANK,
    )


#: Players at one table besides the P/D (the card: a 6-spot or 8-spot table, the P/D in one).
MAX_PLAYERS = 7


def table_round_cards(rules: StandardBlackjackRules, players: int) -> int:
    """The most cards one round of ``players`` players can take from a full shoe (a bound:
    :func:`gamecore.blackjack.shoe.round_cards_bound` over every seat's hands).

    Parameters
    ----------
    rules : StandardBlackjackRules
        The rules (resolved here: the deck count and the split limit).
    players : int
        Players at the table.

    Returns
    -------
    int
        The bound, in cards.
    """
    resolved = rules.resolved()
    hands = players * max(1, resolved.max_split_hands)
    return round_cards_bound(shoe_composition(resolved.decks), hands)


def check_players(rules: StandardBlackjackRules, players: object) -> int:
    """``players`` if it is a whole number from 1 to :data:`MAX_PLAYERS` whose rounds fit the
    shoe (no round can run out of cards); else a clear error.

    Parameters
    ----------
    rules : StandardBlackjackRules
        The rules (the shoe's decks, the split limit).
    players : object
        The players asked for.

    Returns
    -------
    int
        ``players`` as an int (else a :class:`GamecoreError` saying how many fit).
    """
    if not is_whole(players):
        raise GamecoreError(
            f"players must be a whole number from 1 to {MAX_PLAYERS}, got {shown(players)}"
        )
    players = int(players)
    if not 1 <= players <= MAX_PLAYERS:
        raise GamecoreError(f"players must be from 1 to {MAX_PLAYERS}, got {players}")
    cards = int(sum(shoe_composition(rules.resolved().decks)))
    if table_round_cards(rules, players) > cards:
        fits = max(
            (k for k in range(1, players) if table_round_cards(rules, k) <= cards), default=0
        )
        raise GamecoreError(
            f"players: a round of {players} players can take up to "
            f"{table_round_cards(rules, players)} cards and the {rules.resolved().decks}-deck "
            f"shoe holds {cards}; at most {fits} players here"
        )
    return players
