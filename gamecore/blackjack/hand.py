"""The EV of every action for one hand against one up card (``gamecore hand``), as Eric
Farmer's analyzer reports it: exactly that composition of cards, the next cards drawn from the
shoe less every card shown (the hand and the up card), **given that the dealer has no
Natural** (the peek has been made). Post-split play is the rules' ``split_strategy`` (as in
:func:`gamecore.blackjack.exact`); a hand of three or more cards is played on as an unsplit
hand.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np

from gamecore.blackjack.backward import PLAYED
from gamecore.blackjack.chart import up_label
from gamecore.blackjack.engine import Engine
from gamecore.blackjack.rules import (
    ACTIONS,
    RANKS,
    SPLIT_STRATEGY_NAMES,
    StandardBlackjackRules,
    best_action,
    check_rules,
    hand_total,
    shoe_composition,
)
from gamecore.blackjack.shoe import checked_shoe, up_index
from gamecore.errors import GamecoreError, shown

#: What the EVs of :func:`hand_values` are conditional on, printed with them (with the
#: rules' post-split play, :data:`SPLIT_STRATEGY_NAMES`).
CONVENTION = (
    "EV per unit of the initial wager given that the dealer has no Natural (the peek has "
    "been made), the cards drawn from the shoe less the hand and the up card; split hands "
    "play {split}"
)


@dataclasses.dataclass(frozen=True)
class HandValues:
    """The EV of every action the rules allow at one hand (S H D R P), and the best.

    ``rules`` as given (printed as given), ``resolved_rules`` as the EVs read them.
    """

    rules: StandardBlackjackRules
    resolved_rules: StandardBlackjackRules
    up: int
    cards: tuple[int, ...]
    shoe: np.ndarray  # before the hand and the up card are taken out
    ev: dict[str, float]

    @property
    def best(self) -> str:
        """The action of the highest EV, the first of S H D R P on a tie
        (:func:`~gamecore.blackjack.rules.best_action`)."""
        return best_action(self.ev)

    def to_dict(self) -> dict[str, Any]:
        """The JSON document of ``gamecore hand``.

        Returns
        -------
        dict
            ``game``, ``up_card``, ``cards``, ``total``, ``soft``, ``shoe``, ``ev`` (action
            -> EV), ``best``, ``convention``, ``rules``, ``resolved_rules``, ``float_note``.
        """
        total, soft = hand_total([self.cards.count(r) for r in range(10)])
        return {
            "game": self.rules.game,
            "up_card": up_label(self.up),
            "cards": [RANKS[c] for c in self.cards],
            "total": total,
            "soft": soft,
            "shoe": {RANKS[r]: int(c) for r, c in enumerate(self.shoe)},
            "ev": self.ev,
            "best": self.best,
            "convention": CONVENTION.format(
                split=SPLIT_STRATEGY_NAMES[self.resolved_rules.split_strategy]
            ),
            "rules": self.rules.to_dict(),
            "resolved_rules": self.resolved_rules.to_dict(),
            "float_note": "EVs are float64 recursions over probabilities, not integer counts",
        }


def card_index(card: Any, name: str) -> int:
    """A card named A, 2..10, J, Q, K or T (or 1/11 for an Ace) as a rank index 0..9.

    Parameters
    ----------
    card : Any
        The card as given.
    name : str
        The parameter's name, as the message shows it.

    Returns
    -------
    int
        Its rank index (else a :class:`GamecoreError` naming ``name``).
    """
    try:
        return up_index(card)
    except GamecoreError:
        raise GamecoreError(f"{name} must be A, 2..10, J, Q or K, got {shown(card)}") from None


def hand_values(
    rules: StandardBlackjackRules,
    up_card: Any,
    cards: Sequence[Any],
    composition: Sequence[int] | None = None,
) -> HandValues:
    """The EV of every allowed action at the hand ``cards`` against ``up_card``
    (:data:`CONVENTION`).

    Parameters
    ----------
    rules : StandardBlackjackRules
        :class:`StandardBlackjackRules` or :class:`C21BlackjackRules` (they must peek: the
        EVs are given no dealer Natural), as given: checked and resolved once here, the
        engine taking the resolved rules.
    up_card : Any
        The up card, A, 2..10, J, Q or K.
    cards : sequence
        The hand's cards (two or more, not bust), each A, 2..10, J, Q or K.
    composition : sequence of int, optional
        The shoe before any of these cards is dealt (cards per rank, A, 2..9, ten-valued);
        default ``rules.decks`` decks.

    Returns
    -------
    HandValues
        The EV of each allowed action (``ev``), the best (``best``), the hand and the shoe.

    Examples
    --------
    >>> rules = StandardBlackjackRules(decks=6)
    >>> values = hand_values(rules, "10", ["10", "6"])
    >>> values.best, sorted(values.ev)
    ('H', ['D', 'H', 'S'])
    """
    rules = check_rules(rules)
    resolved = rules.resolved()
    if not resolved.peek:
        raise GamecoreError(
            "hand gives EVs given that the dealer has no Natural, which needs the peek; "
            "these rules do not peek (peek=false)"
        )
    up = card_index(up_card, "the up card")
    hand = _checked_hand(cards)
    counts = [hand.count(r) for r in range(10)]
    if composition is None:
        shoe = shoe_composition(resolved.decks)
    else:
        shoe = checked_shoe(composition, rules)
    seen = np.array(counts)
    seen[up] += 1
    short = [RANKS[r] for r in range(10) if seen[r] > shoe[r]]
    if short:
        raise GamecoreError(f"the shoe holds fewer {short[0]}s than the hand and the up card show")
    if shoe.sum() - seen.sum() < 1:
        raise GamecoreError("no card is left for the dealer's hole card")
    engine = Engine(resolved, shoe)
    node = engine.node_index[tuple(counts)]
    if engine.reached[-1][node] != PLAYED:  # refused before anything is solved
        raise GamecoreError(
            f"no round reaches the hand {','.join(RANKS[c] for c in hand)} with a decision to "
            "make: every order of its cards passes a total these rules stand on (or it is a "
            "double's last card)"
        )
    solved, split = engine.solve_optimal(only_up=up)
    live = 1.0 - solved.natural[node, up]  # P(no dealer Natural | the hand, the up card)
    if live <= 0.0:
        raise GamecoreError("the dealer has a Natural for certain: no action is played")
    ev = {
        name: float(solved.ev[node, up, k]) / live
        for k, name in enumerate(ACTIONS[:4])
        if not np.isnan(solved.ev[node, up, k])
    }
    if len(hand) == 2:
        opening = next(o for o in engine.caches.openings(up) if o.node == node)
        if opening.early_surrender:
            ev["R"] = -0.5  # offered before the check, here valued once it is made
        if opening.pair and not np.isnan(split[opening.first, up]):
            ev["P"] = float(split[opening.first, up]) / live
    return HandValues(rules, resolved, up, hand, shoe, ev)


def _checked_hand(cards: Sequence[Any]) -> tuple[int, ...]:
    """The hand's cards as rank indices: two or more cards, not bust (else a
    :class:`GamecoreError` naming the card or the hand)."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence) or len(cards) < 2:
        raise GamecoreError(f"cards must be two or more cards, got {shown(cards)}")
    hand = tuple(card_index(c, f"card {k + 1}") for k, c in enumerate(cards))
    if sum(c + 1 for c in hand) > 21:
        raise GamecoreError(f"the hand {shown(','.join(RANKS[c] for c in hand))} is bust")
    return hand
