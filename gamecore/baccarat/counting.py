"""Card counting against the Dragon 7 and Panda 8 side bets of EZ Baccarat, through real
shoes: a counter, and the perfect-information bettor no count can beat.

Central idea
------------
EZ Baccarat is dealt from a shoe that is not reshuffled every round, so the side bets'
expected value drifts with the cards already seen. The exact effects of removal and the
balanced counts built on them are :mod:`gamecore.baccarat.removal`'s; here a count is
*played*, through simulated shoes dealt to the cut card (the kernels:
:mod:`gamecore.baccarat.counted_shoes`):

- a **counter** (:func:`counter_simulation`) bets one unit on the side bet when the true
  count reaches a trigger, every trigger on the same shoes, beside the base wager the table
  makes it place (the Banker bet by default);
- the **perfect-information bettor** (:func:`perfect_information_simulation`) knows the
  exact EV of the remaining shoe before every round and bets whenever it is positive: the
  upper bound no count can beat, and the yardstick a count's true count is correlated with;
- the **procedure table** (:func:`procedure_table`) runs the counter under each dealing
  procedure (decks x cut card), the threat a regulator weighs.

True count = running count / (cards left in the shoe / 52). The counter sees every dealt
card and the burn's turned card; the other burned cards stay unseen. The
perfect-information bettor knows the remaining composition exactly.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from gamecore import counting
from gamecore.baccarat.counted_shoes import (
    EV_WON,
    SHOE_EV_SQ,
    TC_HIGH,
    TC_LOW,
    BetNets,
    counter_chunk,
    oracle_chunk,
)
from gamecore.baccarat.events import EVENTS
from gamecore.baccarat.removal import SIDE_BETS, tags_by_class
from gamecore.baccarat.rules import EZBaccaratRules, check_ez_rules
from gamecore.dealing import Dealing
from gamecore.errors import GamecoreError, shown
from gamecore.exactcount import INT64_MAX
from gamecore.numeric import is_real
from gamecore.parallel import make_chunks, run_chunks, sum_tallies
from gamecore.shoe import baccarat_shoe, ordered_sequences
from gamecore.verdict import VERDICT_COLUMN, Verdict, bound, decide, grow, mean_and_se
from gamecore.wagers import net_by_cell

#: Shoes per chunk of the counter simulation, and of the perfect-information bettor.
CHUNK_SHOES = 20_000
ORACLE_CHUNK_SHOES = 200


def _check_rounds_per_hour(rounds_per_hour: Any) -> None:
    if not is_real(rounds_per_hour) or not 0 < rounds_per_hour < 10_000:  # NaN too
        raise GamecoreError(
            f"rounds_per_hour must be a number of rounds above 0 (and below 10,000), "
            f"got {shown(rounds_per_hour)}"
        )


# ---------------------------------------------------------------------------------------
# 3. Shoe simulation: public API
# ---------------------------------------------------------------------------------------


def _bet_arrays(rules: EZBaccaratRules, bet: str, base_bet: str | None):
    wagers = {w.name: w for w in rules.wagers()}
    bet_net = net_by_cell(wagers[bet], EVENTS)
    if base_bet is None:
        base_net = np.zeros_like(bet_net)
    elif isinstance(base_bet, str) and base_bet in wagers:
        base_net = net_by_cell(wagers[base_bet], EVENTS)
    else:
        raise GamecoreError(
            f"base_bet must be one of {', '.join(wagers)} or None, got {shown(base_bet)}"
        )
    return bet_net, base_net


@dataclasses.dataclass(frozen=True)
class SideBetCount:
    """What a side-bet counter counts, checked where it is made: the rules, the count's
    tags by rank (A..9, T), the bet it counts and the base wager it must place beside it
    (``None``: none), and the count's name (the perfect-information bettor's tag sets)."""

    rules: EZBaccaratRules
    tags: Mapping[str, int]
    bet: str = "dragon7"
    base_bet: str | None = "banker"
    name: str = "count"

    def __post_init__(self) -> None:
        check_ez_rules(self.rules)
        tags_by_class(self.tags)
        if not isinstance(self.bet, str) or self.bet not in SIDE_BETS:
            raise GamecoreError(f"bet must be one of {', '.join(SIDE_BETS)}, got {shown(self.bet)}")
        _bet_arrays(self.rules, self.bet, self.base_bet)
        object.__setattr__(self, "tags", dict(self.tags))

    def nets(self) -> BetNets:
        """The counted bet's and the base wager's net result on every final state.

        Returns
        -------
        BetNets
            Two float64 arrays of the breakdown's shape
            (:data:`gamecore.baccarat.events.BREAKDOWN_SHAPE`): units won per unit wagered
            on each final state, by the bet and by the base wager (zeros without one).
        """
        return BetNets(*_bet_arrays(self.rules, self.bet, self.base_bet))


def _counted(count: object) -> SideBetCount:
    if not isinstance(count, SideBetCount):
        raise GamecoreError(f"count must be a SideBetCount (rules, tags), got {shown(count)}")
    return count


#: The options of a :class:`gamecore.counting.CounterRun` a side-bet counter does not take.
_NOT_TAKEN = ("ramp", "players", "seat", "turn_rounds", "bank_at", "index_plays")

#: The counting studies' default procedure: a shoe dealt to 14 cards behind the cut card,
#: opened by a face-value burn.
COUNTING_DEALING = Dealing(mode="shoe", penetration=14, burn="face_value")


def _shoe_and_dealing(rules, dealing: Any) -> tuple[np.ndarray, Dealing]:
    dealing = Dealing.given(dealing, COUNTING_DEALING)
    if dealing.mode != "shoe":
        raise GamecoreError(
            f"counting needs a shoe dealt to a cut card (Dealing mode 'shoe'), got {shown(dealing)}"
        )
    shoe = np.repeat(np.arange(10, dtype=np.int64), baccarat_shoe(rules.decks))
    dealing.check_shoe(shoe.size)
    return shoe, dealing


def _summary_row(
    stats: np.ndarray, shoes: int, rounds: int, rounds_per_hour: float
) -> dict[str, float]:
    bets, won, won_sq, base, shoe_won_sq, shoe_total_sq = stats[:6]
    per_shoe, se_shoe = mean_and_se(won, shoe_won_sq, shoes)
    total_per_shoe, se_total = mean_and_se(won + base, shoe_total_sq, shoes)
    edge, se_edge = mean_and_se(won, won_sq, bets) if bets else (math.nan, math.nan)
    shoes_per_hour = rounds_per_hour / (rounds / shoes)
    return {
        "Shoes": shoes,
        "Bets per shoe": bets / shoes,
        "Share of rounds bet": bets / rounds,
        "Side bet units won per shoe": per_shoe,
        "SE (per shoe)": se_shoe,
        "Edge when betting": edge,
        "SE (edge)": se_edge,
        "Base wager units per shoe": base / shoes,
        "Total units per shoe": total_per_shoe,
        "SE (total per shoe)": se_total,
        "Side bet units per hour": per_shoe * shoes_per_hour,
        "Total units per hour": total_per_shoe * shoes_per_hour,
    }


@dataclasses.dataclass(frozen=True)
class CounterResult:
    """A counter's results over simulated shoes, per trigger and per true count.

    Attributes
    ----------
    rules, bet, base_bet, tags, triggers, dealing, shoes, seed
        What was simulated (:func:`counter_simulation`).
    rounds
        Rounds dealt over all the shoes.
    stats
        float64[triggers, 6]: per trigger the columns
        :data:`gamecore.baccarat.counted_shoes.BETS` to ``SHOE_TOTAL_SQ``.
    bins
        float64[true count bins, 3]: each unit bin's rounds, and the bet's net result summed
        and squared over them (every round, bet or not).
    """

    rules: EZBaccaratRules
    bet: str
    base_bet: str | None
    tags: dict[str, int]
    triggers: tuple[float, ...]
    dealing: Dealing
    shoes: int
    rounds: int
    seed: int
    stats: np.ndarray
    bins: np.ndarray

    @property
    def rounds_per_shoe(self) -> float:
        return self.rounds / self.shoes

    def by_trigger(self, rounds_per_hour: float = 72.0) -> pd.DataFrame:
        """One row per trigger: bets, win per shoe and per hour, edge when betting, with SEs.

        Parameters
        ----------
        rounds_per_hour : float
            Rounds dealt an hour, for the figures per hour.

        Returns
        -------
        pandas.DataFrame
            Trigger (true count ≥), then bets per shoe and the share of rounds bet, the
            side bet's units won per shoe with its SE, the edge when betting with its SE,
            the base wager's units per shoe, the total (side bet plus the base wager the
            counter must place beside it on the same rounds) per shoe with its SE, and the
            side bet's and the total's units per hour.
        """
        _check_rounds_per_hour(rounds_per_hour)
        rows = []
        for trigger, stats in zip(self.triggers, self.stats, strict=True):
            rows.append(
                {
                    "Trigger (true count ≥)": trigger,
                    **_summary_row(stats, self.shoes, self.rounds, rounds_per_hour),
                }
            )
        return pd.DataFrame(rows)

    def by_true_count(self) -> pd.DataFrame:
        """The bet's simulated EV by true count, over every round (bet or not).

        Returns
        -------
        pandas.DataFrame
            True count (the bin, as text) | Bin low | Rounds | Share of rounds | Simulated
            EV | SE, a row per unit bin that holds rounds (the end bins take the tails).
        """
        rows = []
        for k, (count, net, net_sq) in enumerate(self.bins):
            if count == 0:
                continue
            mean, se = mean_and_se(net, net_sq, count)
            tc = TC_LOW + k
            label = (
                f"≤ {tc + 1}" if k == 0 else (f"≥ {tc}" if tc == TC_HIGH else f"[{tc}, {tc + 1})")
            )
            rows.append(
                {
                    "True count": label,
                    "Bin low": tc,
                    "Rounds": int(count),
                    "Share of rounds": count / self.rounds,
                    "Simulated EV": mean,
                    "SE": se,
                }
            )
        return pd.DataFrame(rows)


def judge(result: CounterResult) -> Verdict:
    """The verdict on a counter's run: its best trigger's side bet units won per shoe against
    zero at four standard errors (:func:`gamecore.verdict.decide`).

    Parameters
    ----------
    result : CounterResult
        The counter's run.

    Returns
    -------
    gamecore.verdict.Verdict
        The best trigger's verdict.
    """
    table = result.by_trigger()
    best = table.loc[table["Side bet units won per shoe"].idxmax()]
    return decide(best["Side bet units won per shoe"], best["SE (per shoe)"], result.shoes)


def counter_simulation(count: SideBetCount, run: counting.CounterRun) -> CounterResult:
    """Simulate a counter who bets one unit on ``count.bet`` when the true count >= a trigger.

    All of ``run.triggers`` are evaluated on the same shoes (common random numbers), so
    their differences are measured precisely. With ``run.max_shoes``, the shoes grow in
    seeded stages until the best trigger's verdict decides (:func:`judge`) or that many are
    dealt (:func:`gamecore.verdict.grow`).

    Parameters
    ----------
    count
        The rules, the tags, the bet counted and the base wager beside it.
    run
        The shoes, the seed, the triggers, the dealing (default: a shoe to 14 cards behind
        the cut card, a face-value burn) and where the chunks run; the bet is one unit (no
        ramp), heads-up.

    Returns
    -------
    CounterResult
        The counter's results per trigger and per true count.
    """
    count = _counted(count)
    if not isinstance(run, counting.CounterRun):
        raise GamecoreError(f"run must be a CounterRun, got {shown(run)}")
    run.refuse("a side-bet counter", *_NOT_TAKEN)
    if run.max_shoes is not None:
        return grow(
            lambda shoes, seed: counter_simulation(
                count, run.replace(shoes=shoes, seed=seed, max_shoes=None)
            ),
            judge, run.shoes, run.max_shoes, run.seed,
        )  # fmt: skip
    shoe, dealing = _shoe_and_dealing(count.rules, run.dealing)
    job = (shoe, dealing, tags_by_class(count.tags), np.array(run.triggers), count.nets())
    chunks = make_chunks(run.shoes, CHUNK_SHOES, run.seed)
    results = run_chunks(
        counter_chunk, job, chunks, run.threads, run.dask, run.progress,
        f"counting {count.bet}",
    )  # fmt: skip
    stats, bins, rounds = sum_tallies(results)
    return CounterResult(
        count.rules, count.bet, count.base_bet, dict(count.tags), run.triggers, dealing,
        run.shoes, rounds, run.seed, stats, bins,
    )  # fmt: skip


@dataclasses.dataclass(frozen=True)
class PerfectInformationResult:
    """The perfect-information bettor's results, and every round's exact EV and counts.

    Attributes
    ----------
    rules, bet, base_bet, tag_sets, dealing, shoes, seed
        What was simulated (:func:`perfect_information_simulation`).
    rounds
        Rounds dealt over all the shoes.
    stats
        float64[8]: the columns :data:`gamecore.baccarat.counted_shoes.BETS` to
        ``SHOE_EV_SQ``.
    states
        float64[rounds, 1 + tag sets]: each round's exact EV of the bet on the remaining
        shoe, then its true count under each tag set.
    """

    rules: EZBaccaratRules
    bet: str
    base_bet: str | None
    tag_sets: dict[str, dict[str, int]]
    dealing: Dealing
    shoes: int
    rounds: int
    seed: int
    stats: np.ndarray
    states: np.ndarray  # (rounds, 1 + tag sets): exact EV, then each true count

    def summary(self, rounds_per_hour: float = 72.0) -> pd.DataFrame:
        """Realised results, plus the expected win per shoe: the exact EV summed over the
        rounds bet, whose mean is the same as the realised win's and whose standard error is
        far smaller (the luck of each round's cards is averaged out exactly).

        Parameters
        ----------
        rounds_per_hour : float
            Rounds dealt an hour, for the figures per hour.

        Returns
        -------
        pandas.DataFrame
            One row: the columns of :meth:`CounterResult.by_trigger`, then the expected
            side bet units per shoe with its SE, and per hour, then ``Bound`` and
            ``Realised win``: each figure stated only where its SE is smaller than it
            (:func:`gamecore.verdict.bound`), else left out (blank) with the reason.
        """
        expected, se = mean_and_se(self.stats[EV_WON], self.stats[SHOE_EV_SQ], self.shoes)
        held = bound(expected, se, self.shoes)
        if not held.decided:  # a bound whose SE is not smaller than itself is left out
            expected = se = math.nan
        realised = _summary_row(self.stats, self.shoes, self.rounds, rounds_per_hour)
        won = bound(realised["Side bet units won per shoe"], realised["SE (per shoe)"], self.shoes)
        if not won.decided:  # the realised win the same
            for name in ("Side bet units won per shoe", "SE (per shoe)", "Side bet units per hour"):
                realised[name] = math.nan
        return pd.DataFrame(
            [
                {
                    "Bettor": "perfect information (bets when exact EV > 0)",
                    **realised,
                    "Expected side bet units per shoe (exact EV of the rounds bet)": expected,
                    "SE (expected per shoe)": se,
                    "Expected side bet units per hour": expected
                    * rounds_per_hour
                    / (self.rounds / self.shoes),
                    "Bound": held.words,
                    "Realised win": won.words,
                }
            ]
        )

    def exact_ev(self) -> np.ndarray:
        """Every round's exact EV of the bet on the shoe left before it.

        Returns
        -------
        numpy.ndarray
            float64[rounds], per unit wagered, in the order dealt.
        """
        return self.states[:, 0]

    def true_counts(self, tag_set: str) -> np.ndarray:
        """Every round's true count under one tag set.

        Parameters
        ----------
        tag_set : str
            A name of :attr:`tag_sets` (an unknown name raises GamecoreError).

        Returns
        -------
        numpy.ndarray
            float64[rounds]: running count per 52 cards left, before each round.
        """
        names = list(self.tag_sets)
        if tag_set not in names:
            raise GamecoreError(f"unknown tag set {shown(tag_set)}; tag sets: {', '.join(names)}")
        return self.states[:, 1 + names.index(tag_set)]

    def correlations(self) -> pd.DataFrame:
        """How closely each count's true count follows the exact EV.

        Returns
        -------
        pandas.DataFrame
            Count | Correlation of true count with exact EV, over every simulated round, a
            row per tag set.
        """
        return pd.DataFrame(
            [
                {
                    "Count": name,
                    "Correlation of true count with exact EV": float(
                        np.corrcoef(self.true_counts(name), self.exact_ev())[0, 1]
                    ),
                }
                for name in self.tag_sets
            ]
        )

    def ev_by_true_count(self, tag_set: str) -> pd.DataFrame:
        """The exact EV of the remaining shoe by true-count bin of one count.

        Parameters
        ----------
        tag_set : str
            A name of :attr:`tag_sets`.

        Returns
        -------
        pandas.DataFrame
            Count | Bin low | Rounds | Mean exact EV | Share with EV > 0, a row per unit
            bin of the true count that holds rounds.
        """
        tc = np.clip(np.floor(self.true_counts(tag_set)), TC_LOW, TC_HIGH).astype(int)
        frame = pd.DataFrame({"Bin low": tc, "EV": self.exact_ev()})
        grouped = frame.groupby("Bin low")["EV"]
        out = pd.DataFrame(
            {
                "Rounds": grouped.size(),
                "Mean exact EV": grouped.mean(),
                "Share with EV > 0": grouped.apply(lambda ev: float((ev > 0).mean())),
            }
        ).reset_index()
        out.insert(0, "Count", tag_set)
        return out


def perfect_information_simulation(
    count: SideBetCount | Sequence[SideBetCount], run: counting.CounterRun
) -> PerfectInformationResult:
    """Simulate a bettor who knows the exact EV of the remaining shoe before every round.

    The EV is computed exactly by the exact engine's kernel on the remaining composition
    before every round, a full enumeration where the counter adds a tag, so this runs far
    fewer shoes than the counter.

    Parameters
    ----------
    count
        A count, or several of one rules, bet and base wager (named apart): the bet, and
        the tag sets whose true counts are kept beside each round's exact EV.
    run
        The shoes, the seed, the dealing and where the chunks run (no trigger: the bettor
        bets when the exact EV is positive).

    Returns
    -------
    PerfectInformationResult
        The bettor's results and every round's exact EV and true counts.
    """
    counts = [count] if isinstance(count, SideBetCount) else count
    if not isinstance(counts, Sequence) or not counts:
        raise GamecoreError(f"count must be a SideBetCount or a list of them, got {shown(count)}")
    first = _counted(counts[0])
    for other in map(_counted, counts):
        if (other.rules, other.bet, other.base_bet) != (first.rules, first.bet, first.base_bet):
            raise GamecoreError("the counts must share the rules, the bet and the base wager")
    if not isinstance(run, counting.CounterRun):
        raise GamecoreError(f"run must be a CounterRun, got {shown(run)}")
    run.refuse("the perfect-information bettor", "trigger", *_NOT_TAKEN)
    rules, tag_sets = first.rules, {c.name: c.tags for c in counts}
    shoe, dealing = _shoe_and_dealing(rules, run.dealing)
    if ordered_sequences(shoe.size, 6) > INT64_MAX:
        raise GamecoreError(
            "the perfect-information bettor needs int64 counts: at most 27 decks, "
            f"got {rules.decks}"
        )
    tag_array = np.array([tags_by_class(tags) for tags in tag_sets.values()], dtype=np.int64)
    job = (shoe, baccarat_shoe(rules.decks), dealing, tag_array, first.nets(), shoe.size // 4 + 1)
    chunks = make_chunks(run.shoes, ORACLE_CHUNK_SHOES, run.seed)
    results = run_chunks(
        oracle_chunk, job, chunks, run.threads, run.dask, run.progress,
        f"exact EV {first.bet}",
    )  # fmt: skip
    stats, rounds, state_parts = 0, 0, []
    for chunk_stats, chunk_states, chunk_rounds in results:  # in chunk order
        stats, rounds = stats + chunk_stats, rounds + chunk_rounds
        state_parts.append(chunk_states)
    return PerfectInformationResult(
        rules, first.bet, first.base_bet, tag_sets, dealing, run.shoes, rounds, run.seed, stats,
        np.concatenate(state_parts),
    )  # fmt: skip


def procedure_table(
    count: SideBetCount,
    run: counting.CounterRun,
    penetrations: Sequence[int] = (14, 26, 52, 104, 208),
    deck_counts: Sequence[int] = (6, 8),
    rounds_per_hour: float = 72.0,
    burn: str = "face_value",
) -> pd.DataFrame:
    """The counter's results under each dealing procedure (decks x penetration).

    Parameters
    ----------
    count
        The count (its rules' decks are replaced by each of ``deck_counts``).
    run
        One counter simulation per procedure, at its one trigger (its dealing is replaced
        by each procedure's).
    penetrations, deck_counts
        The procedures: each deck count dealt to each penetration (cards behind the cut
        card) with the ``burn``.
    rounds_per_hour
        Rounds an hour, for the figures per hour.
    burn
        The burn of every procedure (:class:`gamecore.dealing.Dealing`'s ``burn``).

    Returns
    -------
    pandas.DataFrame
        One row per procedure: decks, cut card, rounds per shoe, the columns of
        :meth:`CounterResult.by_trigger` (its shoes grown with ``run.max_shoes`` until the
        verdict decides), and the verdict on the win per shoe at four SEs
        (:func:`gamecore.verdict.decide`).
    """
    _check_rounds_per_hour(rounds_per_hour)
    if len(run.triggers) != 1:
        raise GamecoreError(f"procedure_table takes one trigger, got {shown(run.trigger)}")
    for name, values in (("penetrations", penetrations), ("deck_counts", deck_counts)):
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or not values:
            raise GamecoreError(f"{name} must be a list, got {shown(values)}")
    rows = []
    for decks in deck_counts:
        variant = dataclasses.replace(count, rules=count.rules.replace(decks=decks))
        for penetration in penetrations:
            dealing = Dealing(mode="shoe", penetration=penetration, burn=burn)
            result = counter_simulation(variant, run.replace(dealing=dealing))
            row = result.by_trigger(rounds_per_hour).iloc[0].to_dict()
            rows.append(
                {
                    "Decks": decks,
                    "Cards behind the cut card": penetration,
                    "Rounds per shoe": result.rounds_per_shoe,
                    **row,
                    "Shoes": result.shoes,  # a whole number (the row's other cells are floats)
                    # The one verdict's rule (gamecore.verdict.decide) on its own shoes.
                    VERDICT_COLUMN: decide(
                        row["Side bet units won per shoe"], row["SE (per shoe)"], result.shoes
                    ).words,
                }
            )
    return pd.DataFrame(rows)
