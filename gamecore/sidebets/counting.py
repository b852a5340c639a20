"""Is a side bet countable? A counter played through real shoes, and its verdict.

Central idea
------------
A shoe is shuffled once and dealt as it lies, round after round, until the cut card comes
out (no burn); every card of a round is seen. Before each round the counter reads the true
count (running count of the tags of the cards seen, per 52 cards left) and bets one unit on
the side bet when it reaches the trigger, nothing otherwise: a spread of 0 to 1 unit, the
side bet played alone. The rounds are dealt by the simulator's own round kernel
(:mod:`gamecore.sidebets.sim`, without ``fresh``), so each is read through the one model of
a deal the exact figures use. The statistics are :mod:`gamecore.counting`'s columns (summed
by its ``add_round``): the counter's units won per shoe and their standard error from the
shoes' sums, beside the flat bettor who bets one unit every round on the same cards.

The verdict states the gain per shoe against four standard errors (as
:func:`gamecore.countresults.verdict` does): countable when the counter's gain is above
zero by more than four SEs, not countable when it is below zero by more than four SEs,
otherwise not shown either way at the shoes simulated.

A blackjack round here takes the four cards the bet is settled on; the cards the play of
the hands would take are not dealt, so a real shoe deals fewer rounds (a counter's gain per
shoe scales with the rounds it sees).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from gamecore import cards
from gamecore.counting import BET, FIRST, FIRST_SQ, FLAT, ROUNDS, SHOE_FLAT_SQ, SHOE_WON_SQ, WON
from gamecore.dealing import Dealing
from gamecore.errors import GamecoreError, shown
from gamecore.numeric import is_real, real_number
from gamecore.parallel import make_chunks, run_chunks, sum_tallies, validate_seed, validate_trials
from gamecore.sidebets.definition import SideBet
from gamecore.sidebets.removal import tags_by_code
from gamecore.sidebets.sim import CHUNK_SHOES, CounterPlan, count_chunk, sim_job

#: Standard errors the gain per shoe must clear for a verdict either way.
VERDICT_SE = 4.0


def _mean_se(total: float, squares: float, count: int) -> tuple[float, float]:
    """A mean over ``count`` trials and its standard error, from their sum and squares."""
    mean = total / count
    return mean, math.sqrt(max(squares / count - mean * mean, 0.0) / count)


@dataclasses.dataclass(frozen=True)
class SideBetCount:
    """A counter's run through real shoes.

    Attributes
    ----------
    bet : SideBet
        The definition.
    decks : int
        Decks in the shoe.
    tags : dict of str to int
        The count's tags, by class of ``level``.
    level : str
        The classes the tags name (:data:`gamecore.sidebets.removal.LEVELS`).
    trigger : float
        The true count at or above which the counter bets one unit (``-inf``: every round).
    dealing : gamecore.dealing.Dealing
        The shoe procedure: cards behind the cut card, no burn.
    shoes, seed : int
        What was simulated.
    stats : numpy.ndarray
        float64: :mod:`gamecore.counting`'s columns (``ROUNDS``, ``BET``, ``WON`` ...)
        summed over every round and shoe.
    counts : numpy.ndarray
        int64 (outcomes + 1,): rounds paid on each outcome over every round dealt.
    """

    bet: SideBet
    decks: int
    tags: dict[str, int]
    level: str
    trigger: float
    dealing: Dealing
    shoes: int
    seed: int
    stats: np.ndarray
    counts: np.ndarray

    @property
    def rounds_per_shoe(self) -> float:
        """Rounds dealt per shoe."""
        return float(self.stats[ROUNDS]) / self.shoes

    @property
    def bets_per_shoe(self) -> float:
        """Rounds the counter bet per shoe."""
        return float(self.stats[BET]) / self.shoes

    def gain(self) -> tuple[float, float]:
        """The counter's units won per shoe and its standard error.

        Returns
        -------
        tuple of float
            (mean, SE) over the shoes.
        """
        return _mean_se(float(self.stats[WON]), float(self.stats[SHOE_WON_SQ]), self.shoes)

    def flat(self) -> tuple[float, float]:
        """The flat bettor's units won per shoe (one unit every round) and its SE.

        Returns
        -------
        tuple of float
            (mean, SE) over the shoes.
        """
        return _mean_se(float(self.stats[FLAT]), float(self.stats[SHOE_FLAT_SQ]), self.shoes)

    def first_round(self) -> tuple[float, float]:
        """The mean result of each shoe's first round (dealt off the full shoe: the twin of
        the exact expected return) and its SE.

        Returns
        -------
        tuple of float
            (mean, SE) over the shoes.
        """
        return _mean_se(float(self.stats[FIRST]), float(self.stats[FIRST_SQ]), self.shoes)

    def penetration_text(self) -> str:
        """The cut card's place, in cards and as a share of the shoe dealt.

        Returns
        -------
        str
            ``"14 cards behind the cut card (96.6% of the 416-card shoe dealt)"``.
        """
        total = 52 * self.decks
        share = (total - self.dealing.penetration) / total
        return (
            f"{self.dealing.penetration} cards behind the cut card ({share:.1%} of the "
            f"{total}-card shoe dealt)"
        )

    def verdict(self) -> str:
        """One line: countable or not, with the gain, its SE, the penetration, the trigger
        and the spread.

        Returns
        -------
        str
            ``"countable: a counter gains X units per shoe (SE Y) ..."``, ``"not countable:
            ..."`` or ``"not shown countable: ..."`` (within four SEs of zero).
        """
        gain, se = self.gain()
        if gain - VERDICT_SE * se > 0:
            head = "countable"
        elif gain + VERDICT_SE * se < 0 or self.bets_per_shoe == 0:
            head = "not countable"
        else:
            head = "not shown countable (within 4 SE of zero)"
        return (
            f"{head}: a counter gains {gain:+.5f} units per shoe (SE {se:.5f}) at "
            f"{self.penetration_text()} with trigger {self.trigger:+g}, betting 1 unit when "
            f"the true count reaches it and 0 otherwise ({self.bets_per_shoe:.2f} of "
            f"{self.rounds_per_shoe:.2f} rounds a shoe bet, {self.decks} decks, "
            f"{self.shoes:,} shoes)"
        )

    def summary(self) -> pd.DataFrame:
        """The run in one row.

        Returns
        -------
        pandas.DataFrame
            Trigger | Cards behind the cut card | Rounds per shoe | Bets per shoe | Gain per
            shoe | SE (gain) | Edge when betting | Flat per shoe | SE (flat) | Verdict.
        """
        gain, se = self.gain()
        flat, flat_se = self.flat()
        bets = float(self.stats[BET])
        row = {
            "Trigger": self.trigger,
            "Cards behind the cut card": self.dealing.penetration,
            "Rounds per shoe": self.rounds_per_shoe,
            "Bets per shoe": self.bets_per_shoe,
            "Gain per shoe": gain,
            "SE (gain)": se,
            "Edge when betting": float(self.stats[WON]) / bets if bets else math.nan,
            "Flat per shoe": flat,
            "SE (flat)": flat_se,
            "Verdict": self.verdict().split(":")[0],
        }
        return pd.DataFrame([row])

    def to_dict(self) -> dict[str, Any]:
        """The run as JSON.

        Returns
        -------
        dict
            ``bet``, ``decks``, ``tags``, ``level``, ``trigger`` (null for -inf), ``dealing``,
            ``shoes``, ``seed``, ``rounds_per_shoe``, ``bets_per_shoe``, ``gain_per_shoe``,
            ``se``, ``flat_per_shoe``, ``flat_se``, ``verdict``.
        """
        gain, se = self.gain()
        flat, flat_se = self.flat()
        return {
            "bet": self.bet.bet,
            "decks": self.decks,
            "tags": dict(self.tags),
            "level": self.level,
            "trigger": self.trigger if math.isfinite(self.trigger) else None,
            "dealing": self.dealing.to_dict(),
            "shoes": self.shoes,
            "seed": self.seed,
            "rounds_per_shoe": self.rounds_per_shoe,
            "bets_per_shoe": self.bets_per_shoe,
            "gain_per_shoe": gain,
            "se": se,
            "flat_per_shoe": flat,
            "flat_se": flat_se,
            "verdict": self.verdict(),
        }


def _check_trigger(trigger: object) -> float:
    """A finite true count, or -inf (the counter bets every round: the flat bettor)."""
    if is_real(trigger) and float(trigger) == -math.inf:
        return -math.inf
    try:
        return float(real_number("trigger", trigger))
    except GamecoreError:
        raise GamecoreError(
            f"trigger must be a finite true count, or -inf to bet every round, got {shown(trigger)}"
        ) from None


def countability(
    bet: SideBet,
    decks: int,
    tags: Mapping[str, int],
    trigger: float,
    penetration: int,
    shoes: int,
    seed: int,
    threads: int | None = None,
) -> SideBetCount:
    """Deal ``shoes`` shoes to a counter of ``bet`` and state whether it is countable.

    Parameters
    ----------
    bet : SideBet
        A checked definition.
    decks : int
        Decks in the shoe, 1..1000.
    tags : Mapping of str to int
        The count: an integer tag for every point class, every rank or every card
        (:func:`gamecore.sidebets.removal.tags_level`), e.g. the ``tags`` of
        :func:`gamecore.sidebets.removal.effects_of_removal`.
    trigger : float
        The true count (running count per 52 cards left) at or above which the counter
        bets one unit; ``-inf`` bets every round.
    penetration : int
        Cards behind the cut card, from 6 to the shoe's cards less 17
        (:meth:`gamecore.dealing.Dealing.check_shoe`).
    shoes : int
        Shoes to deal.
    seed : int
        A non-negative integer; with ``shoes`` it fixes the result.
    threads : int, optional
        Threads on this machine; never changes the result.

    Returns
    -------
    SideBetCount
        The counter's results and :meth:`SideBetCount.verdict`.
    """
    decks = cards.validate_decks(decks)
    level, by_code = tags_by_code(bet.game, tags)
    trigger = _check_trigger(trigger)
    dealing = Dealing(mode="shoe", penetration=penetration, burn="none")
    dealing.check_shoe(52 * decks)
    shoes = validate_trials(shoes, "shoes")
    seed = validate_seed(seed)
    pays = np.array([float(o.pays) for o in bet.outcomes] + [-1.0])
    plan = CounterPlan(by_code, trigger, pays, int(dealing.penetration))
    results = run_chunks(
        count_chunk,
        (sim_job(bet, decks), plan),
        make_chunks(shoes, CHUNK_SHOES, seed),
        threads=threads,
        progress=False,
        description=f"counting {bet.bet}",
    )
    stats, counts = sum_tallies(results)
    tags = {name: int(tags[name]) for name in tags}
    return SideBetCount(bet, decks, tags, level, trigger, dealing, shoes, seed, stats, counts)
