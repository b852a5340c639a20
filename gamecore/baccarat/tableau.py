"""The third-card tableau of punto banco, as data: when the Player and the Banker draw.

Central idea
------------
The drawing rules are three boolean tables, copied from the High Limit Baccarat rule card
(seed 001) and checked against it in ``tests/test_rule_cards.py``. The exact engine
(:mod:`gamecore.baccarat.exact`), the simulator (:mod:`gamecore.baccarat.sim`) and the
counting study's shoes (:mod:`gamecore.baccarat.counted_shoes`) all deal by these same
arrays, so an exact figure and its simulated twin can never follow two readings of the card.
A two-card 8 or 9 on either side (a natural) stops all drawing before the tables apply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

if TYPE_CHECKING:  # pandas is imported where a table is built, not with the module
    import pandas as pd

#: PLAYER_DRAWS[t]: the Player draws a third card on a two-card total t (0-5 draw, 6-7 stand).
PLAYER_DRAWS = np.array([t <= 5 for t in range(10)], dtype=np.bool_)

#: BANKER_DRAWS_PLAYER_STOOD[t]: when the Player stood, the Banker draws on 0-5.
BANKER_DRAWS_PLAYER_STOOD = np.array([t <= 5 for t in range(10)], dtype=np.bool_)

_Y, _S = True, False
#: BANKER_DRAWS[t, c]: when the Player drew a third card of point value c, whether the
#: Banker draws on two-card total t. Rows 0..7 copy the seed's chart; 8 and 9 are naturals.
BANKER_DRAWS = np.array(
    [
        #  c: 0   1   2   3   4   5   6   7   8   9
        [_Y, _Y, _Y, _Y, _Y, _Y, _Y, _Y, _Y, _Y],  # banker 0
        [_Y, _Y, _Y, _Y, _Y, _Y, _Y, _Y, _Y, _Y],  # banker 1
        [_Y, _Y, _Y, _Y, _Y, _Y, _Y, _Y, _Y, _Y],  # banker 2
        [_Y, _Y, _Y, _Y, _Y, _Y, _Y, _Y, _S, _Y],  # banker 3
        [_S, _S, _Y, _Y, _Y, _Y, _Y, _Y, _S, _S],  # banker 4
        [_S, _S, _S, _S, _Y, _Y, _Y, _Y, _S, _S],  # banker 5
        [_S, _S, _S, _S, _S, _S, _Y, _Y, _S, _S],  # banker 6
        [_S, _S, _S, _S, _S, _S, _S, _S, _S, _S],  # banker 7
        [_S, _S, _S, _S, _S, _S, _S, _S, _S, _S],  # banker 8 (natural)
        [_S, _S, _S, _S, _S, _S, _S, _S, _S, _S],  # banker 9 (natural)
    ],
    dtype=np.bool_,
)


class DrawingTables(NamedTuple):
    """The third-card rules as the dealing kernels read them: :data:`PLAYER_DRAWS`,
    :data:`BANKER_DRAWS_PLAYER_STOOD` and :data:`BANKER_DRAWS` (boolean arrays)."""

    player_draws: np.ndarray
    banker_draws_player_stood: np.ndarray
    banker_draws: np.ndarray


#: Punto banco's drawing rules, which every game of this subpackage deals by.
DRAWING = DrawingTables(PLAYER_DRAWS, BANKER_DRAWS_PLAYER_STOOD, BANKER_DRAWS)


def tableau_frame() -> pd.DataFrame:
    """The third-card rules as used, one row per Banker two-card total 0..7 (8 and 9 are
    naturals: nobody draws), as a report prints them beside the rule card.

    Returns
    -------
    pandas.DataFrame
        ``Banker total`` (0..7); ``Player draws on it``: "Draw" or "Stand" for a Player
        two-card total of the same value; ``Player stood``: the Banker's action when the
        Player did not draw; ``0``..``9``: the Banker's action by the point value of the
        Player's third card.
    """
    import pandas as pd

    rows = []
    for total in range(8):
        row: dict[str, Any] = {
            "Banker total": total,
            "Player draws on it": "Draw" if PLAYER_DRAWS[total] else "Stand",
            "Player stood": "Draw" if BANKER_DRAWS_PLAYER_STOOD[total] else "Stand",
        }
        for card in range(10):
            row[str(card)] = "Draw" if BANKER_DRAWS[total, card] else "Stand"
        rows.append(row)
    return pd.DataFrame(rows)
