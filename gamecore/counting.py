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

Each game names its ranks and their cards per deck in a :class:`Deck`. A counter's run is a
:class:`CounterRun`, and every game's counter kernel tallies the same statistics
(:data:`ROUNDS` ..., :func:`add_round`, :func:`ramp_bet`); :mod:`gamecore.countresults` reads
them.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Mapping, Sequence

import numpy as np

from gamecore._jit import kernel, kernel_face
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
        """``values[rank]`` for every rank, in the deck's order of ranks.

        Parameters
        ----------
        values : Mapping[str, float]
            A number for every rank (a tag, an effect of removal), no rank missing or extra;
            each finite, as :func:`gamecore.numeric.real_or_fraction` takes it (a string
            such as ``"8"`` is refused).
        name : str
            What ``values`` are, for the message that refuses them (with the rank).

        Returns
        -------
        numpy.ndarray
            Float64 of shape (ranks,).
        """
        if not isinstance(values, Mapping) or set(values) != set(self.ranks):
            raise GamecoreError(
                f"{name} must map every rank {', '.join(self.ranks)} to a number, got "
                f"{shown(sorted(values, key=repr) if isinstance(values, Mapping) else values)}"
            )
        return np.array(
            [float(real_or_fraction(f"{name} of rank {r}", values[r])) for r in self.ranks]
        )

    def tags(self, tags: Mapping[str, int]) -> dict[str, int]:
        """A count's tags, checked: an integer for every rank.

        Parameters
        ----------
        tags : Mapping[str, int]
            The count's tag of every rank (a whole number, of any integer type).

        Returns
        -------
        dict of str to int
            The tags as Python ints, in the deck's order of ranks.
        """
        self.by_rank(tags, "tags")
        for rank in self.ranks:
            tag = tags[rank]
            if not is_whole(tag):
                raise GamecoreError(f"tag of rank {rank} must be an integer, got {shown(tag)}")
        return {rank: int(tags[rank]) for rank in self.ranks}

    def imbalance(self, tags: Mapping[str, int]) -> int:
        """The tags' sum over the cards of one deck.

        Parameters
        ----------
        tags : Mapping[str, int]
            The count's tag of every rank (checked as :meth:`tags` does).

        Returns
        -------
        int
            The running count after one whole deck: 0 for a balanced count, and the
            drift per deck of an unbalanced one.
        """
        tags = self.tags(tags)
        return sum(n * tags[r] for r, n in zip(self.ranks, self.cards, strict=True))


def betting_correlation(
    tags: Mapping[str, float], effects: Mapping[str, float], deck: Deck
) -> float:
    """Griffin's betting correlation: the correlation of ``tags`` with ``effects`` over the
    cards of ``deck``, both centred on their deck-weighted means (module docstring).

    Parameters
    ----------
    tags : Mapping[str, float]
        The count's tag of every rank.
    effects : Mapping[str, float]
        The effect of removal of every rank: the change in EV (units per unit bet) when
        one card of that rank leaves the full shoe; or a decision's gain, for its playing
        efficiency.
    deck : Deck
        The ranks and their cards per deck (the weights).

    Returns
    -------
    float
        From -1 to 1; 0 when the tags or the effects are constant.

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

    Parameters
    ----------
    effects : Mapping[str, float]
        The effect of removal of every rank (units per unit bet per card removed).
    deck : Deck
        The ranks and their cards per deck.
    max_tag : int
        The largest tag in absolute value, from 1 to 20.

    Returns
    -------
    dict of str to int
        The tag of every rank; they sum to 0 over a deck.
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
    # Neighbouring scales mostly round to the same tags; each rounding is weighed once (a
    # repeat could never replace the best: better() needs a strictly larger key).
    weighed: set[tuple[int, ...]] = set()
    for scale in np.linspace(0.5, max_tag + 0.5, 3001):
        tags = {
            r: int(np.clip(round(normalised[r] * scale), -max_tag, max_tag)) for r in deck.ranks
        }
        if not any(tags.values()) or tuple(tags.values()) in weighed:
            continue
        weighed.add(tuple(tags.values()))
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
    least-squares slope of the effects on the (centred) tags.

    Parameters
    ----------
    tags : Mapping[str, float]
        The count's tag of every rank (not all equal).
    effects : Mapping[str, float]
        The effect of removal of every rank (units per unit bet per card removed).
    deck : Deck
        The ranks and their cards per deck (the weights).

    Returns
    -------
    float
        The slope, units per unit bet per unit of running count: removing cards whose tags
        sum to ``RC`` from the full shoe changes the EV by about ``slope * RC``.
    """
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
    ``baccarat.counting``, ``c21_baccarat.counting``, ``blackjack.counter``), checked once
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
    max_shoes
        The budget of a study that grows until its verdict decides
        (:func:`gamecore.verdict.grow`): the most shoes it may deal, at least ``shoes``;
        ``None``: ``shoes`` alone.
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
    max_shoes: int | None = None
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
        if self.max_shoes is not None:
            checked["max_shoes"] = validate_trials(self.max_shoes, "max_shoes")
            if checked["max_shoes"] < checked["shoes"]:
                raise GamecoreError(
                    f"max_shoes must be at least shoes ({checked['shoes']:,}), got "
                    f"{checked['max_shoes']:,}"
                )
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
        """A copy of the run with some fields changed.

        Parameters
        ----------
        **changes
            Field name -> new value (``shoes=...``, ``seat=...``), checked as a new run's.

        Returns
        -------
        CounterRun
            The changed copy.
        """
        return dataclasses.replace(self, **changes)

    def refuse(self, who: str, *options: str) -> None:
        """Refuse each of ``options`` set to other than its default: it does not apply to
        ``who``.

        Parameters
        ----------
        who : str
            The game or counter the options do not apply to, for the message.
        *options : str
            Field names of the run.

        Raises
        ------
        GamecoreError
            The first of ``options`` that is not at its default, named.
        """
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


@kernel(inline=True)
def _add_round(stats, bet, won, flat, result, first):
    if first:
        stats[FIRST] += result
        stats[FIRST_SQ] += result * result
    stats[ROUNDS] += 1.0
    stats[BET] += bet
    stats[WON] += won
    stats[WON_SQ] += won * won
    stats[FLAT] += flat
    stats[FLAT_SQ] += flat * flat


@kernel_face(_add_round)
def add_round(
    stats: np.ndarray, bet: float, won: float, flat: float, result: float, first: bool
) -> None:
    """Add one round to a counter's statistics, in place. The per-shoe sums
    (:data:`SHOE_WON_SQ`, :data:`SHOE_FLAT_SQ`) are the caller's, at the end of each shoe.

    Parameters
    ----------
    stats : numpy.ndarray
        Float64 of at least :data:`STATS` entries, the columns :data:`ROUNDS` ... summed
        over the run's rounds.
    bet : float
        The units the counter bet.
    won : float
        The units it won (negative: lost).
    flat : float
        The one-unit flat bettor's result on the same round.
    result : float
        The seat's one-unit result, added to :data:`FIRST` when ``first``.
    first : bool
        Whether this is the first round of a shoe (dealt off a full shoe: the twin of the
        exact off-the-top EV).
    """
    _add_round(stats, bet, won, flat, result, first)


@kernel(inline=True)
def _ramp_bet(true_count, trigger, ramp):
    if true_count <= trigger:
        return 1.0
    step = int(math.ceil(true_count - trigger)) - 1
    return ramp[min(step, ramp.size - 1)]


@kernel_face(_ramp_bet)
def ramp_bet(true_count: float, trigger: float, ramp: np.ndarray) -> float:
    """The units a counter bets at a true count.

    Parameters
    ----------
    true_count : float
        The running count per deck left.
    trigger : float
        The true count at or below which the counter bets one unit.
    ramp : numpy.ndarray
        Float64, the units bet at each true count step above ``trigger``
        (:func:`check_ramp`).

    Returns
    -------
    float
        1 at or below ``trigger``; ``ramp[k]`` above ``trigger + k`` and at most
        ``trigger + k + 1``; the last entry beyond.
    """
    return float(_ramp_bet(true_count, trigger, ramp))


def check_trigger(trigger: float, tags: Mapping[str, int], name: str = "trigger") -> float:
    """A trigger true count, checked against the count's tags.

    Parameters
    ----------
    trigger : float
        The true count (running count per deck left) at which a counter changes its play.
    tags : Mapping[str, int]
        The count's tag of every rank.
    name : str
        The option's name, for the message that refuses it.

    Returns
    -------
    float
        ``trigger``: a finite number within ten times the largest tag in absolute value.
    """
    trigger = float(real_number(name, trigger))
    reach = 10 * max(max(abs(t) for t in tags.values()), 1)
    if not math.isfinite(trigger) or abs(trigger) > reach:
        raise GamecoreError(
            f"{name} must be a true count within the tags' range (|{name}| <= {reach}), "
            f"got {shown(trigger)}"
        )
    return trigger


def check_ramp(ramp: Sequence[float]) -> tuple[float, ...]:
    """A bet ramp, checked.

    Parameters
    ----------
    ramp : Sequence[float]
        The units bet at each true count step above the trigger (the last beyond).

    Returns
    -------
    tuple of float
        The ramp: at least one step, each from 1 to 1,000 units, never decreasing.
    """
    values = tuple(float(v) for v in real_numbers("ramp", ramp))
    if not values or not all(1 <= v <= 1000 for v in values):
        raise GamecoreError(f"ramp must hold bets from 1 to 1,000 units, got {shown(ramp)}")
    if any(b < a for a, b in itertools.pairwise(values)):
        raise GamecoreError(
            f"ramp must not decrease (a counter bets more as the count rises), got {shown(ramp)}"
        )
    return values
