"""The breakdown of a baccarat round and the named events over it that paytables refer to.

Central idea
------------
The exact engine (:mod:`gamecore.baccarat.exact`) and the simulator
(:mod:`gamecore.baccarat.sim`) both tally a round into the same *breakdown*: an array of
:data:`BREAKDOWN_SHAPE` indexed by (player cards - 2, banker cards - 2, player total, banker
total). An event is a boolean mask over it, written as a numpy expression over
:data:`GRID`; a bet is a paytable over events (:mod:`gamecore.wagers`), so a new bet needs at
most a new event here and never touches a kernel.
"""

from __future__ import annotations

import dataclasses

import numpy as np

#: Shape of the breakdown: (player cards - 2, banker cards - 2, player total, banker total).
BREAKDOWN_SHAPE = (2, 2, 10, 10)


@dataclasses.dataclass(frozen=True)
class BreakdownGrid:
    """Coordinates of every breakdown cell, for writing events as numpy expressions.

    ``player_cards`` and ``banker_cards`` are 2 or 3; ``player_total`` and ``banker_total``
    are 0..9. Each is an int array of the breakdown's shape.
    """

    player_cards: np.ndarray
    banker_cards: np.ndarray
    player_total: np.ndarray
    banker_total: np.ndarray


#: The coordinates of every cell of :data:`BREAKDOWN_SHAPE`.
GRID = BreakdownGrid(
    *np.meshgrid(np.arange(2, 4), np.arange(2, 4), np.arange(10), np.arange(10), indexing="ij")
)


def _events(g: BreakdownGrid) -> dict[str, np.ndarray]:
    banker_wins = g.banker_total > g.player_total
    player_wins = g.player_total > g.banker_total
    return {
        "banker_wins": banker_wins,
        "player_wins": player_wins,
        "tie": g.player_total == g.banker_total,
        # Dragon 7: the Banker wins with a three-card total of 7 (EZ Baccarat card).
        "dragon7": banker_wins & (g.banker_cards == 3) & (g.banker_total == 7),
        # Panda 8: the Player wins with a three-card total of 8 (widely dealt with EZ).
        "panda8": player_wins & (g.player_cards == 3) & (g.player_total == 8),
        "natural": (g.player_cards == 2)
        & (g.banker_cards == 2)
        & ((g.player_total >= 8) | (g.banker_total >= 8)),
        "any": np.ones(g.player_total.shape, dtype=bool),
    }


#: Named events (boolean masks over the breakdown) that paytables refer to.
EVENTS: dict[str, np.ndarray] = _events(GRID)

#: Each outcome a game reports (its rules' ``outcomes``): its title and its event.
OUTCOME_TITLES = {
    "banker": ("Banker wins", "banker_wins"),
    "player": ("Player wins", "player_wins"),
    "tie": ("Tie", "tie"),
    "dragon7": ("Dragon 7 (Banker wins with three cards totalling 7)", "dragon7"),
    "panda8": ("Panda 8 (Player wins with three cards totalling 8)", "panda8"),
}
