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

The verdict is the one rule every counting study states (:func:`gamecore.verdict.decide`):
countable when the counter's gain per shoe is above zero by more than four SEs, not
countable when it is below zero by more than four SEs, otherwise undecided after the shoes
dealt (with about how many would decide). :func:`decided_countability` deals more shoes in
seeded stages until the rule decides or a budget is spent (:func:`gamecore.verdict.grow`).

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

from gamecore import cards, rulewords
from gamecore.counting import BET, FIRST, FIRST_SQ, FLAT, ROUNDS, SHOE_FLAT_SQ, SHOE_WON_SQ, WON
from gamecore.dealing import Dealing
from gamecore.errors import GamecoreError, shown
from gamecore.numeric import is_real, real_number
from gamecore.parallel import make_chunks, run_chunks, sum_tallies, validate_seed, validate_trials
from gamecore.sidebets.definition import SideBet
from gamecore.sidebets.removal import tags_by_code
from gamecore.sidebets.sim import CHUNK_SHOES, CounterPlan, count_chunk, sim_job
from gamecore.verdict import POWER_COLUMN, VERDICT_COLUMN, Verdict, decide, grow, mean_and_se


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
        return mean_and_se(float(self.stats[WON]), float(self.stats[SHOE_WON_SQ]), self.shoes)

    def flat(self) -> tuple[float, float]:
        """The flat bettor's units won per shoe (one unit every round) and its SE.

        Returns
        -------
        tuple of float
            (mean, SE) over the shoes.
        """
        return mean_and_se(float(self.stats[FLAT]), float(self.stats[SHOE_FLAT_SQ]), self.shoes)

    def first_round(self) -> tuple[float, float]:
        """The mean result of each shoe's first round (dealt off the full shoe: the twin of
        the exact expected return) and its SE.

        Returns
        -------
        tuple of float
            (mean, SE) over the shoes.
        """
        return mean_and_se(float(self.stats[FIRST]), float(self.stats[FIRST_SQ]), self.shoes)

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

    def decision(self) -> Verdict:
        """The verdict on the counter's gain per shoe (:func:`gamecore.verdict.decide`); a
        counter that never bets gains nothing, exactly: not countable.

        Returns
        -------
        gamecore.verdict.Verdict
            Its words, gain, SE and shoes.
        """
        if self.bets_per_shoe == 0:
            return decide(0.0, 0.0, self.shoes)
        gain, se = self.gain()
        return decide(gain, se, self.shoes)

    def verdict(self) -> str:
        """One line: the verdict, with the gain, its SE, the penetration, the trigger and
        the spread.

        Returns
        -------
        str
            ``"countable: a counter gains X units per shoe (SE Y) ..."``, ``"not countable:
            ..."`` or ``"undecided after N shoes (about M needed): ..."``.
        """
        gain, se = self.gain()
        head = self.decision().words
        return (
            f"{head}: a counter gains {gain:+.5f} units per shoe (SE {se:.5f}) at "
            f"{self.penetration_text()} with trigger {self.trigger:+g}, betting 1 unit when "
            f"the true count reaches it and 0 otherwise ({self.bets_per_shoe:.2f} of "
            f"{self.rounds_per_shoe:.2f} rounds a shoe bet, {rulewords.decks(self.decks)}, "
            f"{self.shoes:,} shoes)"
        )

    def summary(self) -> pd.DataFrame:
        """The run in one row.

        Returns
        -------
        pandas.DataFrame
            Trigger | Cards behind the cut card | Rounds per shoe | Bets per shoe | Gain per
            shoe | SE (gain) | Edge when betting | Flat per shoe | SE (flat) | Verdict (4
            SE) | Power (at the gain seen).
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
            VERDICT_COLUMN: self.decision().words,
            POWER_COLUMN: self.decision().power,
        }
        return pd.DataFrame([row])

    def countability_row(self) -> dict[str, Any]:
        """The run's verdict as a counting study's ``countability`` table states it.

        Returns
        -------
        dict
            What is counted | Gain per shoe | SE (gain) | Verdict (4 SE) | Power (at the
            gain seen).
        """
        found = self.decision()
        trigger = "every round" if self.trigger == -math.inf else f"true count ≥ {self.trigger:g}"
        what = (
            f"{self.bet.title}, {rulewords.decks(self.decks)}, cut card "
            f"{self.dealing.penetration} cards "
            f"from the end, bet at {trigger}"
        )
        return {
            "What is counted": what,
            "Gain per shoe": found.gain,
            "SE (gain)": found.se,
            VERDICT_COLUMN: found.words,
            POWER_COLUMN: found.power,
        }

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


def decided_countability(
    bet: SideBet,
    decks: int,
    tags: Mapping[str, int],
    trigger: float,
    penetration: int,
    shoes: int,
    seed: int,
    max_shoes: int,
) -> SideBetCount:
    """:func:`countability`, its shoes grown in seeded stages until the verdict decides or
    ``max_shoes`` are dealt (:func:`gamecore.verdict.grow`): the result depends on the
    seed, ``shoes`` and ``max_shoes`` only.

    Parameters
    ----------
    bet, decks, tags, trigger, penetration
        As :func:`countability` takes them.
    shoes : int
        The first stage's shoes.
    seed : int
        The first stage's seed (later stages: :func:`gamecore.verdict.stage_seed`).
    max_shoes : int
        The budget: the most shoes dealt in all, at least ``shoes``.

    Returns
    -------
    SideBetCount
        Every stage's shoes as one run (its ``seed`` the first stage's).
    """
    return grow(
        lambda n, s: countability(bet, decks, tags, trigger, penetration, n, s),
        SideBetCount.decision, shoes, max_shoes, seed,
    )  # fmt: skip


def countability_table(runs: list[SideBetCount]) -> pd.DataFrame:
    """Every counted bet's verdict, as the report's par sheet states them.

    Parameters
    ----------
    runs : list of SideBetCount
        The counters' runs, a bet each.

    Returns
    -------
    pandas.DataFrame
        What is counted | Gain per shoe | SE (gain) | Verdict (4 SE) | Power (at the gain
        seen), a row per run (:meth:`SideBetCount.countability_row`).
    """
    columns = ["What is counted", "Gain per shoe", "SE (gain)", VERDICT_COLUMN, POWER_COLUMN]
    return pd.DataFrame([run.countability_row() for run in runs], columns=columns)
