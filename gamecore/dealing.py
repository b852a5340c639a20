"""Dealing cards: the shuffle, the card draw and the burn every simulator shares, and the
:class:`Dealing` procedure a simulation is run under.

Central idea
------------
A simulator holds its shoe as an array of card classes and deals by position. A fresh-shoe
round swaps a uniformly chosen undealt card into each position it uses (a partial
Fisher-Yates shuffle, one card at a time), so it draws only the cards it needs; a real shoe is
shuffled whole (Fisher-Yates), burned, and dealt as it lies down to the cut card. All the
randomness goes through :func:`below`, an exactly unbiased uniform integer.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

import numpy as np

from gamecore._jit import kernel, kernel_face
from gamecore.errors import GamecoreError, shown
from gamecore.numeric import is_whole

if TYPE_CHECKING:  # pandas is imported where a table is built, not with the module
    import pandas as pd

MODES = ("fresh", "shoe")
BURNS = ("face_value", "none")


# ---------------------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------------------


@kernel(inline=True)
def below(rng, n):
    """A uniform integer in [0, n) for n < 2**16, exactly unbiased.

    Lemire's multiply-and-shift on a 47-bit random integer (``rng.random()`` is an exact
    multiple of 2**-53, so its top 47 bits are uniform), with his rejection step, which runs
    with probability below n / 2**47. Several times faster than ``rng.integers`` in numba.

    A public kernel, not a face (gamecore._jit.INLINED_ACROSS_MODULES): every simulator's
    round loop inlines it.

    Parameters
    ----------
    rng : numpy.random.Generator
        The generator drawn from (one draw, more on a rejection).
    n : int
        The number of equally likely values, 1 <= n < 2**16.

    Returns
    -------
    int
        The drawn integer.
    """
    bits = 47
    span = np.int64(1) << bits
    mask = span - 1
    m = np.int64(rng.random() * span) * n
    low = m & mask
    if low < n:
        threshold = (span - n) % n
        while low < threshold:
            m = np.int64(rng.random() * span) * n
            low = m & mask
    return m >> bits


@kernel
def _shuffle(rng, cards):
    for i in range(cards.size - 1, 0, -1):
        j = below(rng, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


@kernel_face(_shuffle)
def shuffle(rng: np.random.Generator, cards: np.ndarray) -> None:
    """Shuffle ``cards`` in place (Fisher-Yates, every draw by :func:`below`).

    Parameters
    ----------
    rng : numpy.random.Generator
        The generator drawn from.
    cards : numpy.ndarray
        The cards, a one-dimensional integer array, shuffled in place.
    """
    _shuffle(rng, cards)


@kernel(inline=True)
def draw_card(rng, cards, index, fresh):
    """The card at ``index``. With ``fresh``, first swap a uniformly chosen card from the
    positions not yet dealt into it (a partial Fisher-Yates shuffle, one card at a time), so
    a fresh-shoe round draws only the cards it uses.

    A public kernel, not a face (gamecore._jit.INLINED_ACROSS_MODULES): every simulator's
    round loop inlines it.

    Parameters
    ----------
    rng : numpy.random.Generator
        The generator drawn from (with ``fresh`` only).
    cards : numpy.ndarray
        The shoe as card classes; positions before ``index`` are dealt.
    index : int
        The position dealt.
    fresh : bool
        Whether to draw the card uniformly from the undealt positions first.

    Returns
    -------
    int
        The card class dealt.
    """
    if fresh:
        j = index + below(rng, cards.size - index)
        cards[index], cards[j] = cards[j], cards[index]
    return cards[index]


@kernel
def _cards_burned(cards):
    first = cards[0]
    return 1 + (first if first > 0 else 10)


@kernel_face(_cards_burned)
def cards_burned(cards: np.ndarray) -> int:
    """Cards removed by the burn: the turned first card plus as many as its value (10 for 0).

    Parameters
    ----------
    cards : numpy.ndarray
        The shuffled shoe as baccarat point classes (0-9).

    Returns
    -------
    int
        How many cards the burn removes, the turned card included.
    """
    return int(_cards_burned(cards))


# ---------------------------------------------------------------------------------------
# The procedure
# ---------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Dealing:
    """How rounds are dealt.

    Attributes
    ----------
    mode
        ``"fresh"`` (a full shoe every round) or ``"shoe"`` (real shoes with a cut card).
    penetration
        Cards behind the cut card (shoe mode); at least 6 so a started round can finish.
    burn
        ``"face_value"`` (turn the first card, burn as many as its value, ten for a 10-value
        card) or ``"none"`` (shoe mode).
    """

    mode: str = "fresh"
    penetration: int = 14
    burn: str = "face_value"

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise GamecoreError(f"mode must be one of {', '.join(MODES)}, got {shown(self.mode)}")
        if self.burn not in BURNS:
            raise GamecoreError(f"burn must be one of {', '.join(BURNS)}, got {shown(self.burn)}")
        if not is_whole(self.penetration):
            raise GamecoreError(f"penetration must be an integer, got {shown(self.penetration)}")

    @classmethod
    def given(cls, dealing: Any, default: Dealing) -> Dealing:
        """``dealing`` if it is a :class:`Dealing`, ``default`` for ``None``; else refused.

        Parameters
        ----------
        dealing : Any
            What the caller passed as the dealing procedure (``None``: the default).
        default : Dealing
            The procedure the caller uses when given none.

        Returns
        -------
        Dealing
            The procedure to deal under (another type: a :class:`GamecoreError` naming it).
        """
        if dealing is None:
            return default
        if not isinstance(dealing, cls):
            raise GamecoreError(
                f"dealing must be a Dealing (mode, penetration, burn), got {shown(dealing)}"
            )
        return dealing

    def check_shoe(self, cards: int) -> None:
        """Refuse a cut card that leaves no room for a round after the largest burn.

        Parameters
        ----------
        cards : int
            The number of cards in the shoe dealt.
        """
        largest = cards - 11 - 6  # burn of up to 11 cards, then one round of up to 6
        if self.mode == "shoe" and not 6 <= self.penetration <= largest:
            raise GamecoreError(
                f"penetration must be from 6 to {largest} cards for a {cards}-card shoe, "
                f"got {self.penetration}"
            )

    def to_dict(self) -> dict[str, Any]:
        """The procedure as the JSON outputs print it.

        Returns
        -------
        dict
            ``mode``, ``penetration`` (cards behind the cut card) and ``burn``.
        """
        return dataclasses.asdict(self)

    def to_frame(self) -> pd.DataFrame:
        """The procedure as a table, for reports.

        Returns
        -------
        pandas.DataFrame
            Parameter | Value | Meaning, one row per field.
        """
        import pandas as pd

        meaning = {
            "mode": "fresh: a full shoe every round; shoe: real shoes dealt to a cut card",
            "penetration": "cards behind the cut card (shoe mode)",
            "burn": "face_value: turn the first card, burn as many as its value; none: no burn",
        }
        return pd.DataFrame(
            [
                {"Parameter": name, "Value": str(value), "Meaning": meaning[name]}
                for name, value in self.to_dict().items()
            ]
        )
