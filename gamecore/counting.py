"""Card counting, for every game dealt from a shoe: how well a count's tags follow the exact
effects of removal, and the balanced integer count that follows them best.

Central idea
------------
A shoe's EV moves, to first order, with the cards that have left it: removing one card of
rank ``r`` changes the EV by its *effect of removal* ``e_r`` (computed exactly by each game's
engine on the depleted shoe). A count gives each rank an integer tag ``t_r`` and sums the
tags of the cards seen; it estimates the shoe's EV well exactly when the tags are
proportional to the effects. Griffin's *betting correlation* measures that: the correlation
of tags and effects over the cards of one deck (both centred on their deck-weighted means, so
an unbalanced count is not credited for its imbalance). The same correlation against the
effects of removal of one decision's gain (say, standing rather than hitting 16 against a
10) is that decision's *playing efficiency*.

A count is *balanced* when its tags sum to zero over a deck: every shoe then starts at zero,
and the running count divided by the decks left (the *true count*) estimates the shoe's
deviation from a full one.

Each game names its ranks and their cards per deck in a :class:`Deck`.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from gamecore._jit import kernel
from gamecore.dealing import Dealing
from gamecore.errors import GamecoreError, shown
from gamecore.numeric import is_whole, real_number, real_numbers, real_or_fraction
from gamecore.parallel import check_execution, validate_seed, validate_trials


@dataclasses.dataclass(frozen=True)
class Deck:
    """The ranks a counter tells apart, and the cards of each in one deck."""

    ranks: tuple[str, ...]
    cards: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.ranks) != len(self.cards) or len(set(self.ranks)) != len(self.ranks):
            raise GamecoreError(f"a deck needs one card count per distinct rank, got {self}")

    @property
    def weights(self) -> np.ndarray:
        return np.array(self.cards, dtype=float)

    def by_rank(self, values: Mapping[str, float], name: str) -> np.ndarray:
        """``values[rank]`` for every rank, as floats; refuses a missing or extra rank, and
        an entry that is not a finite number as :func:`gamecore.numeric.real_or_fraction`
        takes it (a string such as ``"8"`` is refused), naming ``name`` and the rank."""
        if not isinstance(values, Mapping) or set(values) != set(self.ranks):
            raise GamecoreError(
                f"{name} must map every rank {', '.join(self.ranks)} to a number, got "
                f"{shown(sorted(values, key=repr) if isinstance(values, Mapping) else values)}"
            )
        return np.array(
            [float(real_or_fraction(f"{name} of rank {r}", values[r])) for r in self.ranks]
        )

    def tags(self, tags: Mapping[str, int]) -> dict[str, int]:
        """A count's tags, checked: an integer for every rank."""
        self.by_rank(tags, "tags")
        for rank in self.ranks:
            tag = tags[rank]
            if not is_whole(tag):
                raise GamecoreError(f"tag of rank {rank} must be an integer, got {shown(tag)}")
        return {rank: int(tags[rank]) for rank in self.ranks}

    def imbalance(self, tags: Mapping[str, int]) -> int:
        """The tags' sum over one deck (0: a balanced count)."""
        tags = self.tags(tags)
        return sum(n * tags[r] for r, n in zip(self.ranks, self.cards, strict=True))


def betting_correlation(
    tags: Mapping[str, float], effects: Mapping[str, float], deck: Deck
) -> float:
    """Correlation of ``tags`` with ``effects`` over the cards of ``deck``, both centred on
    their deck-weighted means (module docstring); 0 when either is constant.

    Examples
    --------
    >>> deck = Deck(("low", "high"), (1, 1))
    >>> betting_correlation({"low": 1, "high": -1}, {"low": 0.3, "high": -0.1}, deck)
    1.0
    """
    weights = deck.weights
    t = deck.by_rank(tags, "tags")
    e = deck.by_rank(effects, "effects")
    t = t - np.average(t, weights=weights)
    e = e - np.average(e, weights=weights)
    denominator = math.sqrt(np.sum(weights * t * t) * np.sum(weights * e * e))
    return float(np.sum(weights * t * e) / denominator) if denominator else 0.0


def balanced_tags(effects: Mapping[str, float], deck: Deck, max_tag: int = 3) -> dict[str, int]:
    """The balanced integer count that best follows the effects of removal.

    Scales the effects so the largest is ``max_tag`` or less, rounds to integers, keeps the
    roundings whose tags sum to zero over a deck, and returns the one with the highest
    betting correlation; ties go to the smaller tags. Where no rounding balances (a rank of
    few cards per deck, such as a joker, leaves odd sums), one rank's tag may be moved to
    balance it, keeping its sign the effect's. A rank with no cards in the deck gets tag 0
    (it is never seen).
    """
    if not is_whole(max_tag) or not (1 <= max_tag <= 20):
        raise GamecoreError(f"max_tag must be an integer from 1 to 20, got {shown(max_tag)}")
    values = dict(zip(deck.ranks, deck.by_rank(effects, "effects"), strict=True))
    live = [r for r, n in zip(deck.ranks, deck.cards, strict=True) if n > 0]
    largest = max((abs(values[r]) for r in live), default=0.0)
    if largest == 0:
        raise GamecoreError("every effect of removal is zero: there is nothing to count")
    normalised = {r: values[r] / largest if r in live else 0.0 for r in deck.ranks}
    cards = dict(zip(deck.ranks, deck.cards, strict=True))

    def better(best, tags):
        key = (round(betting_correlation(tags, values, deck), 12), -sum(map(abs, tags.values())))
        return (*key, tags) if best is None or key > best[:2] else best

    best: tuple[float, int, dict[str, int]] | None = None
    moved: tuple[float, int, dict[str, int]] | None = None  # balanced by moving one tag
    for scale in np.linspace(0.5, max_tag + 0.5, 3001):
        tags = {
            r: int(np.clip(round(normalised[r] * scale), -max_tag, max_tag)) for r in deck.ranks
        }
        if not any(tags.values()):
            continue
        imbalance = deck.imbalance(tags)
        if imbalance == 0:
            best = better(best, tags)
            continue
        for rank in live:
            if imbalance % cards[rank]:
                continue
            tag = tags[rank] - imbalance // cards[rank]
            if abs(tag) <= max_tag and tag * values[rank] >= 0:
                moved = better(moved, {**tags, rank: tag})
    best = best if best is not None else moved
    if best is None:
        raise GamecoreError(f"no balanced count with tags up to {max_tag} follows these effects")
    return best[2]


def regression_slope(tags: Mapping[str, float], effects: Mapping[str, float], deck: Deck) -> float:
    """The EV change per unit of running count that the tags predict: the deck-weighted
    least-squares slope of the effects on the (centred) tags. Removing cards whose tags sum
    to ``RC`` from the full shoe changes the EV by about ``slope * RC``."""
    weights = deck.weights
    t = deck.by_rank(tags, "tags")
    e = deck.by_rank(effects, "effects")
    t = t - np.average(t, weights=weights)
    e = e - np.average(e, weights=weights)
    spread = float(np.sum(weights * t * t))
    if spread == 0:
        raise GamecoreError("the tags are all equal: they do not count anything")
    return float(np.sum(weights * t * e) / spread)


# ---------------------------------------------------------------------------------------
# A counter's simulated results (every game's counter kernel tallies these columns)
# ---------------------------------------------------------------------------------------

#: Columns of a counter simulation's statistics, summed over shoes: rounds, units bet, units
#: won and its square, the flat (one-unit) bettor's result and its square, the per-shoe sums'
#: squares of both, the first round of each shoe (dealt off a full shoe) and its square.
(ROUNDS, BET, WON, WON_SQ, FLAT, FLAT_SQ, SHOE_WON_SQ, SHOE_FLAT_SQ, FIRST, FIRST_SQ) = range(10)
#: The number of columns (a game may add its own after them).
STATS = 10


def counter_summary(
    stats: np.ndarray, shoes: int, rounds_per_hour: float, banked: int | None = None
) -> dict[str, float]:
    """Units won per 100 rounds and per hour (standard errors from the shoes' sums: the
    rounds of a shoe share its count), the average bet, the flat bettor's EV per round, and
    the first round of each shoe (the twin of the exact off-the-top EV); with ``banked``
    (the column counting the rounds a counter banked under rotation), how often it banked."""
    rounds = stats[ROUNDS]

    def per_round(won: int, shoe_sq: int) -> tuple[float, float]:
        per_shoe = stats[won] / shoes
        spread = max(stats[shoe_sq] / shoes - per_shoe**2, 0.0)
        return stats[won] / rounds, math.sqrt(spread * shoes) / rounds

    won, won_se = per_round(WON, SHOE_WON_SQ)
    flat, flat_se = per_round(FLAT, SHOE_FLAT_SQ)
    first = stats[FIRST] / shoes
    first_se = math.sqrt(max(stats[FIRST_SQ] / shoes - first**2, 0.0) / shoes)
    out = {
        "Rounds": float(rounds),
        "Shoes": float(shoes),
        "Average bet (units)": stats[BET] / rounds,
        "Units won per 100 rounds": 100 * won,
        "SE (per 100 rounds)": 100 * won_se,
        "Units won per hour": rounds_per_hour * won,
        "SE (per hour)": rounds_per_hour * won_se,
        "Won per unit bet": stats[WON] / stats[BET],
        "Flat bettor's EV per round": flat,
        "SE (flat)": flat_se,
        "First round of a shoe, EV": first,
        "SE (first round)": first_se,
    }
    if banked is not None:
        out["Rounds banked per 100 rounds"] = 100 * stats[banked] / rounds
    return out


def bank_threshold(run: CounterRun, tags: Mapping[str, int]) -> float:
    """The true count at or below which ``run``'s counter banks in its turn, checked against
    the count's ``tags`` (:func:`check_trigger`); ``math.inf`` (always) when not given.

    Parameters
    ----------
    run
        The counter's run (its ``bank_at``).
    tags
        The count's tags by rank.

    Returns
    -------
    float
        The threshold.
    """
    return math.inf if run.bank_at is None else check_trigger(run.bank_at, tags, "bank_at")


@dataclasses.dataclass(frozen=True)
class CounterRun:
    """A counter's simulated run, every game's (:func:`counter_simulation` and its kin in
    ``baccarat.counting``, ``c21_baccarat.counting``, ``blackjack.counting``), checked once
    where it is made; what depends on the game (the tags' range for ``trigger`` and
    ``bank_at``, the players a shoe can deal, the cut card) is checked by the game.

    Attributes
    ----------
    shoes
        Shoes to deal, a positive integer.
    seed
        A non-negative integer; the result depends on it only, not on where the run runs.
    trigger
        The true count at or below which the counter bets one unit (baccarat's side-bet
        counter: at or above which it bets); several (a list) where a study compares them
        on the same shoes (:attr:`triggers`).
    ramp
        Units bet at each true count step above the trigger (from 1 to 1,000, never
        decreasing); the last step beyond. Baccarat's side-bet counter bets one unit.
    dealing
        The procedure (``None``: the game's reading).
    players, seat
        The table (1: heads-up) and the counter's seat, 1 to ``players``.
    turn_rounds
        Rounds each person holds the bank under rotation (0: no rotation).
    bank_at
        The true count at or below which the counter banks in its turn (``None``: always);
        needs a rotation.
    index_plays
        Whether the counter plays the count's index plays (blackjack).
    threads, dask, progress
        Where the chunks run (:func:`gamecore.parallel.run_chunks`); never the result.
    """

    shoes: int
    seed: int
    trigger: float | tuple[float, ...] = 1.0
    ramp: tuple[float, ...] = (2.0, 4.0, 8.0)
    dealing: Dealing | None = None
    players: int = 1
    seat: int = 1
    turn_rounds: int = 0
    bank_at: float | None = None
    index_plays: bool = True
    threads: int | None = None
    dask: str | None = None
    progress: bool | None = None

    def __post_init__(self) -> None:
        checked = {
            "shoes": validate_trials(self.shoes, "shoes"),
            "seed": validate_seed(self.seed),
            "trigger": _check_triggers(self.trigger),
            "ramp": check_ramp(self.ramp),
            "dealing": None if self.dealing is None else Dealing.given(self.dealing, Dealing()),
            **_check_table(self.players, self.seat),
            **_check_rotation(self.turn_rounds, self.bank_at),
        }
        if not isinstance(self.index_plays, bool):
            raise GamecoreError(f"index_plays must be True or False, got {shown(self.index_plays)}")
        check_execution(self.threads, self.dask, self.progress)
        for name, value in checked.items():
            object.__setattr__(self, name, value)

    @property
    def triggers(self) -> tuple[float, ...]:
        """The trigger, or the triggers, as a tuple."""
        return self.trigger if isinstance(self.trigger, tuple) else (self.trigger,)

    def replace(self, **changes) -> CounterRun:
        """A copy with ``changes`` (checked as a new run is)."""
        return dataclasses.replace(self, **changes)

    def refuse(self, who: str, *options: str) -> None:
        """Refuse each of ``options`` set to other than its default: it does not apply to
        ``who``."""
        for option in options:
            field = self.__dataclass_fields__[option]
            if getattr(self, option) != field.default:
                raise GamecoreError(f"{option} does not apply to {who}")


def _check_triggers(trigger: object) -> float | tuple[float, ...]:
    if isinstance(trigger, (list, tuple, np.ndarray)):
        refused = GamecoreError(f"triggers must be finite true counts, got {shown(trigger)}")
        try:
            triggers = tuple(float(t) for t in trigger)
        except (TypeError, ValueError):
            raise refused from None
        if not triggers or not all(math.isfinite(t) for t in triggers):
            raise refused
        return triggers
    return float(real_number("trigger", trigger))


def _check_table(players: object, seat: object) -> dict[str, int]:
    if not is_whole(players) or players < 1:
        raise GamecoreError(f"players must be a whole number from 1, got {shown(players)}")
    if not is_whole(seat):
        raise GamecoreError(f"seat must be a whole number from 1 to {players}, got {shown(seat)}")
    if not 1 <= seat <= players:
        raise GamecoreError(f"seat must be from 1 to {players} (the players), got {seat}")
    return {"players": int(players), "seat": int(seat)}


def _check_rotation(turn_rounds: object, bank_at: object) -> dict[str, int | float | None]:
    if not is_whole(turn_rounds):
        raise GamecoreError(
            f"turn_rounds must be a whole number of rounds, got {shown(turn_rounds)}"
        )
    if turn_rounds < 0:
        raise GamecoreError(f"turn_rounds must be 0 (no rotation) or more, got {turn_rounds}")
    if bank_at is not None:
        if turn_rounds == 0:
            raise GamecoreError("bank_at needs a rotation (turn_rounds > 0)")
        bank_at = float(real_number("bank_at", bank_at))
    return {"turn_rounds": int(turn_rounds), "bank_at": bank_at}


def scenario_table(summaries: Mapping[str, Mapping[str, float]], unit: float) -> pd.DataFrame:
    """Where | Units won per 100 rounds | SE | Money per hour at the table maximum | SE
    (money per hour) | Rounds banked per 100 rounds | Flat bettor per round | SE (flat):
    one row per counter summary (:func:`counter_summary`), money at ``unit`` per unit bet."""
    rows = [
        {
            "Where": where,
            "Units won per 100 rounds": summary["Units won per 100 rounds"],
            "SE": summary["SE (per 100 rounds)"],
            "Money per hour at the table maximum": summary["Units won per hour"] * unit,
            "SE (money per hour)": summary["SE (per hour)"] * unit,
            "Rounds banked per 100 rounds": summary.get("Rounds banked per 100 rounds", 0.0),
            "Flat bettor per round": summary["Flat bettor's EV per round"],
            "SE (flat)": summary["SE (flat)"],
        }
        for where, summary in summaries.items()
    ]
    return pd.DataFrame(rows)


def money_unit(table_maximum: object, ramp: Sequence[float]) -> float:
    """Money per unit bet when the ramp's top bet is ``table_maximum``."""
    try:
        unit = float(table_maximum) / ramp[-1]  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise GamecoreError(
            f"table_maximum must be an amount, got {shown(table_maximum)}"
        ) from None
    if not (math.isfinite(unit) and unit > 0):
        raise GamecoreError(f"table_maximum must be a positive amount, got {shown(table_maximum)}")
    return unit


@kernel(inline=True)
def add_round(stats, bet, won, flat, result, first):
    """One round into a counter's statistics (columns :data:`ROUNDS` ...): the units ``bet``
    and ``won``, the flat bettor's ``flat`` result, and the seat's one-unit ``result`` when
    it is the ``first`` round of a shoe (the off-the-top twin). The per-shoe sums are the
    caller's."""
    if first:
        stats[FIRST] += result
        stats[FIRST_SQ] += result * result
    stats[ROUNDS] += 1.0
    stats[BET] += bet
    stats[WON] += won
    stats[WON_SQ] += won * won
    stats[FLAT] += flat
    stats[FLAT_SQ] += flat * flat


@kernel(inline=True)
def ramp_bet(true_count, trigger, ramp):
    """The units a counter bets at ``true_count``: one at or below ``trigger``, ``ramp[k]``
    above ``trigger + k`` and at most ``trigger + k + 1``, the last entry beyond."""
    if true_count <= trigger:
        return 1.0
    step = int(math.ceil(true_count - trigger)) - 1
    return ramp[min(step, ramp.size - 1)]


def check_trigger(trigger: float, tags: Mapping[str, int], name: str = "trigger") -> float:
    """A trigger true count: a finite number within ten times the tags' largest (``name``
    names it in the message)."""
    trigger = float(real_number(name, trigger))
    reach = 10 * max(max(abs(t) for t in tags.values()), 1)
    if not math.isfinite(trigger) or abs(trigger) > reach:
        raise GamecoreError(
            f"{name} must be a true count within the tags' range (|{name}| <= {reach}), "
            f"got {shown(trigger)}"
        )
    return trigger


def check_ramp(ramp: Sequence[float]) -> tuple[float, ...]:
    """A bet ramp: the units bet at each true count step above the trigger, at least one
    step, each from 1 to 1,000 units, never decreasing."""
    values = tuple(float(v) for v in real_numbers("ramp", ramp))
    if not values or not all(1 <= v <= 1000 for v in values):
        raise GamecoreError(f"ramp must hold bets from 1 to 1,000 units, got {shown(ramp)}")
    if any(b < a for a, b in itertools.pairwise(values)):
        raise GamecoreError(
            f"ramp must not decrease (a counter bets more as the count rises), got {shown(ramp)}"
        )
    return values


# ---------------------------------------------------------------------------------------
# Procedures (decks, cut card, a shuffle every round) and the verdict
# ---------------------------------------------------------------------------------------


def procedure_table(
    deck_counts: Sequence[int],
    cuts: Callable[[int], Sequence[int]],
    off_the_top: Callable[[int], float],
    simulate: Callable[[int, int, float], Mapping[str, float]],
    triggers: Sequence[float],
    unit: float,
    rounds_per_hour: float,
    how: str,
) -> pd.DataFrame:
    """A counter under every procedure: for each deck count, a shuffle every round (the count
    never moves: one unit a round at the exact off-the-top EV, ``off_the_top(decks)``) and
    real shoes to each cut card ``cuts(decks)`` (cards behind it), the best of ``triggers``
    (``simulate(decks, cut, trigger)``, a :func:`counter_summary`, all on the same shoes of
    one seed). The best is chosen on the simulated shoes, an optimistic estimate, as a
    verdict should use. Money per hour: units times ``unit``, the money of one unit."""
    try:
        triggers = tuple(float(t) for t in triggers)
    except (TypeError, ValueError):
        raise GamecoreError(f"triggers must be true counts, got {shown(triggers)}") from None
    if not triggers:
        raise GamecoreError("triggers must hold at least one true count")
    rows = []
    for decks in deck_counts:
        ev = off_the_top(decks)
        rows.append(
            {
                "Decks": decks,
                "Procedure": "shuffle every round",
                "Cards behind the cut card": None,
                "Best trigger": None,
                "Units won per 100 rounds": 100 * ev,
                "SE (per 100 rounds)": 0.0,
                "Money per hour at the table maximum": rounds_per_hour * ev * unit,
                "SE (money per hour)": 0.0,
                "How": "exact: the count never moves; one unit a round",
            }
        )
        for cut in cuts(decks):
            found = [(trigger, simulate(decks, int(cut), trigger)) for trigger in triggers]
            trigger, best = max(found, key=lambda t: t[1]["Units won per 100 rounds"])
            rows.append(
                {
                    "Decks": decks,
                    "Procedure": "shoe to a cut card",
                    "Cards behind the cut card": int(cut),
                    "Best trigger": trigger,
                    "Units won per 100 rounds": best["Units won per 100 rounds"],
                    "SE (per 100 rounds)": best["SE (per 100 rounds)"],
                    "Money per hour at the table maximum": best["Units won per hour"] * unit,
                    "SE (money per hour)": best["SE (per hour)"] * unit,
                    "How": how,
                }
            )
    return pd.DataFrame(rows)


def verdict(table: pd.DataFrame, threshold: float = 0.0) -> pd.DataFrame:
    """Each procedure of :func:`procedure_table` against a threshold of money per hour:
    whether the counter's best gain is below it by more than four standard errors (its
    upper 4-sigma bound below the threshold), and that bound."""
    try:
        threshold = float(threshold)
    except (TypeError, ValueError):
        raise GamecoreError(f"threshold must be money per hour, got {shown(threshold)}") from None
    if not math.isfinite(threshold):
        raise GamecoreError(f"threshold must be a finite amount, got {shown(threshold)}")
    out = table[["Decks", "Procedure", "Cards behind the cut card"]].copy()
    upper = table["Money per hour at the table maximum"] + 4 * table["SE (money per hour)"]
    out["Counter's best, money per hour"] = table["Money per hour at the table maximum"]
    out["Upper bound (+4 SE)"] = upper
    out["Below the threshold"] = upper < threshold
    out["Threshold, money per hour"] = threshold
    return out


def perfect_information_summary(
    rounds: pd.DataFrame, ramp: Sequence[float], rounds_per_hour: float
) -> dict[str, float]:
    """A perfect-information bettor's results from its rounds (``Shoe``, ``True count``,
    ``Exact EV``, ``Result`` columns): it bets the ramp's top when the exact EV is positive
    and one unit otherwise. Units won per 100 rounds realised and expected (the exact EV of
    the rounds bet: the same mean, far less noise), SEs from the shoes' sums; how often the
    shoe favours the player; the correlation of the count's true count with the exact EV."""
    bet = np.where(rounds["Exact EV"] > 0, ramp[-1], 1.0)
    by_shoe = (
        pd.DataFrame(
            {
                "Shoe": rounds["Shoe"],
                "won": bet * rounds["Result"],
                "expected": bet * rounds["Exact EV"],
            }
        )
        .groupby("Shoe")[["won", "expected"]]
        .sum()
    )
    n = len(rounds)

    def per_100(column: str) -> tuple[float, float]:
        sums = by_shoe[column].to_numpy()
        return 100 * sums.sum() / n, 100 * math.sqrt(sums.var() * len(sums)) / n

    won, won_se = per_100("won")
    expected, expected_se = per_100("expected")
    correlation, correlation_se = _correlation_by_shoe(rounds)
    return {
        "Rounds": float(n),
        "Shoes": float(by_shoe.shape[0]),
        "Share of rounds with exact EV > 0": float((rounds["Exact EV"] > 0).mean()),
        "Units won per 100 rounds": won,
        "SE (per 100 rounds)": won_se,
        "Expected units per 100 rounds (exact EV of the rounds bet)": expected,
        "SE (expected)": expected_se,
        "Expected units per hour": rounds_per_hour * expected / 100,
        "Correlation of the true count with the exact EV": correlation,
        "SE (correlation)": correlation_se,
    }


#: Resamplings of the shoes for the correlation's standard error.
BOOTSTRAP = 400


def _correlation_by_shoe(rounds: pd.DataFrame) -> tuple[float, float]:
    """The correlation of the true count with the exact EV over the rounds, and its standard
    error by the bootstrap over whole shoes (the rounds of a shoe share its count, so rounds
    are not independent draws); resampled from ``SeedSequence(0)``, so it is reproducible."""
    x, y = rounds["True count"].to_numpy(), rounds["Exact EV"].to_numpy()

    def correlation(index: np.ndarray) -> float:
        a, b = x[index], y[index]
        if a.std() == 0 or b.std() == 0:
            return 0.0
        return float(np.corrcoef(a, b)[0, 1])

    value = correlation(np.arange(len(x)))
    shoes = [np.flatnonzero(rounds["Shoe"].to_numpy() == s) for s in np.unique(rounds["Shoe"])]
    if len(shoes) < 2:
        return value, math.nan
    generator = np.random.Generator(np.random.PCG64(np.random.SeedSequence(0)))
    draws = [
        correlation(
            np.concatenate([shoes[i] for i in generator.integers(len(shoes), size=len(shoes))])
        )
        for _ in range(BOOTSTRAP)
    ]
    return value, float(np.std(draws, ddof=1))
