"""Card counting against 21st Century Baccarat: the counter at a table on real shoes.

Central idea
------------
A count (its tags by rank: derived from the exact effects of removal by
:func:`gamecore.c21_baccarat.removal.count_analysis`, or given) is played by a counter
simulated at a full table on real shoes (:func:`counter_simulation`: the simulator's one
model of a round, :func:`gamecore.c21_baccarat.dealt.play_table_round`), by decks and
penetration (:func:`procedure_table`), beside a bettor who enumerates every
round's remaining shoe exactly (:func:`perfect_information_simulation`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from gamecore import bounds, counting, countresults
from gamecore._jit import kernel
from gamecore.c21_baccarat.dealt import (
    C_BANKED,
    Counter,
    CounterTable,
    counter_shoes,
    play_table_round,
)
from gamecore.c21_baccarat.exact import count_deals
from gamecore.c21_baccarat.removal import RANK_NAMES, C21BaccaratCount, count_deck
from gamecore.c21_baccarat.rules import (
    JOKER,
    PAYOFF,
    C21BaccaratRules,
    check_rules,
)
from gamecore.c21_baccarat.sim import largest_round, table_setup
from gamecore.c21_baccarat.strategies import house_way_dealer, house_way_player
from gamecore.counting import CounterRun
from gamecore.dealing import Dealing, shuffle
from gamecore.errors import GamecoreError, shown
from gamecore.parallel import make_chunks, run_chunks, sum_tallies
from gamecore.shoe import BACCARAT_DECK


def default_dealing(rules: C21BaccaratRules, players: int = 1) -> Dealing:
    """The reading of how the game is dealt (RULES.md, section c21_baccarat): real shoes to
    a cut card 14 cards from the end (or a whole round's cards for ``players``, if more, so
    a started round always finishes), no burn.

    Parameters
    ----------
    rules : C21BaccaratRules
        The rule set (checked).
    players : int
        Seats at the table.

    Returns
    -------
    gamecore.dealing.Dealing
        Mode "shoe", the penetration in cards behind the cut card, burn "none".
    """
    check_rules(rules)
    return Dealing(mode="shoe", penetration=max(14, largest_round(players)), burn="none")


# ---------------------------------------------------------------------------------------
# The counter, simulated on real shoes at a full table
# ---------------------------------------------------------------------------------------

#: Shoes per chunk of a counter simulation.
CHUNK_SHOES = 5_000


@dataclasses.dataclass(frozen=True)
class CounterResult:
    """A counter's simulated results at a table, and the flat bettor beside it."""

    rules: C21BaccaratRules
    tags: dict[str, int]
    trigger: float
    ramp: tuple[float, ...]
    players: int
    seat: int
    dealing: Dealing
    shoes: int
    seed: int
    stats: np.ndarray
    turn_rounds: int = 0
    bank_at: float = math.inf

    def summary(self, rounds_per_hour: float = 60.0) -> dict[str, float]:
        """Units won per 100 rounds and per hour (with SEs), the average bet, the flat
        bettor's EV per round, the first round of each shoe (the off-the-top twin), and
        under rotation how often the counter banked.

        Parameters
        ----------
        rounds_per_hour : float
            Rounds dealt an hour, for the figures per hour.

        Returns
        -------
        dict
            :func:`gamecore.countresults.counter_summary`'s figures, in units of the bet.
        """
        banked = C_BANKED if self.turn_rounds else None
        return countresults.counter_summary(self.stats, self.shoes, rounds_per_hour, banked)


@dataclasses.dataclass(frozen=True)
class TagCount:
    """A count given by its tags by rank (:data:`RANK_NAMES`) alone, checked when made."""

    rules: C21BaccaratRules
    tags: dict[str, int]

    def __post_init__(self) -> None:
        object.__setattr__(self, "tags", count_deck(check_rules(self.rules)).tags(self.tags))


#: What a counter counts: the tags alone, or :func:`.removal.count_analysis`'s count.
Counted = TagCount | C21BaccaratCount


def _counted(count: object, run: object) -> tuple[C21BaccaratRules, dict[str, int]]:
    if not isinstance(count, Counted):
        raise GamecoreError(f"count must be a TagCount or a C21BaccaratCount, got {shown(count)}")
    if not isinstance(run, CounterRun):
        raise GamecoreError(f"run must be a CounterRun, got {shown(run)}")
    run.refuse("21st Century Baccarat (no index plays)", "index_plays")
    return count.rules, count.tags


def _counting_table(rules, run: CounterRun, who: str) -> tuple[CounterTable, Dealing]:
    """The table a counting study deals (everyone on House Way) and its dealing; ``who``
    names the study in the message refusing a shuffle every round."""
    dealing = Dealing.given(run.dealing, default_dealing(rules, run.players))
    if dealing.mode != "shoe":
        raise GamecoreError(
            f"{who} needs a shoe dealt to a cut card (mode 'shoe'); with a shuffle every "
            "round the count is always zero and the EV is the exact off-the-top EV"
        )
    cards, player_draw, dealer_draw, dealing = table_setup(
        rules, run.players, house_way_player(rules), house_way_dealer(rules), dealing
    )
    zero_ties, payoff, cut = rules.pd_wins_ties_on_zero, PAYOFF.astype(float), dealing.penetration
    table = CounterTable(cards, player_draw, dealer_draw, payoff, run.players, zero_ties, cut)
    return table, dealing


def _by_class(tags: dict[str, int]) -> np.ndarray:
    return np.array([tags.get(rank, 0) for rank in RANK_NAMES], dtype=np.int64)


def counter_simulation(count: Counted, run: CounterRun) -> CounterResult:
    """Simulate a counter in ``run.seat`` of a table of ``run.players`` on House Way against
    the P/D on House Way, everyone dealt from one shoe to a cut card (``run.dealing``,
    default :func:`default_dealing`), betting by the true count of the count's tags on
    ``run.ramp``. With ``run.turn_rounds`` > 0 the bank rotates (each person holding it
    that many rounds); in its turn the counter banks at or below the ``run.bank_at`` true
    count (default: always), else declines and plays its seat. Fixed chunks of
    :data:`CHUNK_SHOES` shoes: the result depends on the seed only.

    Parameters
    ----------
    count
        The rules and the tags (a :class:`TagCount`, or :func:`.removal.count_analysis`'s count).
    run
        The counter's run (:class:`gamecore.counting.CounterRun`); no index plays here.

    Returns
    -------
    CounterResult
        The counter's statistics, the flat bettor beside it.
    """
    rules, tags = _counted(count, run)
    trigger = counting.check_trigger(run.trigger, tags)
    bank_at = counting.bank_threshold(run, tags)
    table, dealing = _counting_table(rules, run, "a counter")
    deck_cards = float(sum(BACCARAT_DECK) + rules.jokers_per_deck)
    counter = Counter(
        _by_class(tags), np.array(run.ramp), run.turn_rounds, bank_at, trigger, run.seat - 1,
        deck_cards,
    )  # fmt: skip
    chunks = make_chunks(run.shoes, CHUNK_SHOES, run.seed)
    results = run_chunks(
        _run_counter_chunk, (table, counter), chunks, run.threads, run.dask, run.progress,
        "c21_baccarat counter",
    )  # fmt: skip
    return CounterResult(
        rules, tags, trigger, run.ramp, run.players, run.seat, dealing, run.shoes, run.seed,
        sum_tallies(results), run.turn_rounds, bank_at,
    )  # fmt: skip


def _run_counter_chunk(job_and_chunk):
    (table, counter), chunk = job_and_chunk
    return counter_shoes(chunk.generator(), table, counter, chunk.size)


def bank_table(count: Counted, run: CounterRun, rounds_per_hour: float = 60.0) -> pd.DataFrame:
    """The counter in ``run.seat`` of ``run.players`` without the bank, and under rotation
    (``run.turn_rounds`` rounds at the bank each, 2 if 0) always banking in its turn and
    banking only at or below the ``run.bank_at`` true count (0 if not given).

    Parameters
    ----------
    count, run
        As :func:`counter_simulation` takes them; every scenario from the same seed.
    rounds_per_hour
        Rounds an hour, for the figures per hour.

    Returns
    -------
    pandas.DataFrame
        :func:`gamecore.countresults.scenario_table`, money at the ramp's top bet =
        ``rules.table_maximum`` (as in :func:`procedure_table`).
    """
    rules, _tags = _counted(count, run)
    unit = countresults.money_unit(rules.table_maximum, run.ramp)
    turn = run.turn_rounds or 2
    bank_at = 0.0 if run.bank_at is None else run.bank_at
    where = f"seat {run.seat} of {run.players}"
    scenarios = {
        f"{where}, no rotation": (0, None),
        f"{where}, rotation, always banks": (turn, None),
        f"{where}, rotation, banks at true count ≤ {bank_at:g}": (turn, bank_at),
    }
    summaries = {
        where: counter_simulation(count, run.replace(turn_rounds=turn, bank_at=at)).summary(
            rounds_per_hour
        )
        for where, (turn, at) in scenarios.items()
    }
    return countresults.scenario_table(summaries, unit)


# ---------------------------------------------------------------------------------------
# The upper bound: a bettor who knows the exact EV of the remaining shoe
# ---------------------------------------------------------------------------------------


@kernel
def _table_round(rng, table, cards, position, seat):
    """One round at ``position`` (the model of :func:`play_table_round`): (the position
    after it, the result of ``seat``)."""
    outcome = np.zeros(table.seats, dtype=np.int64)
    position, _facts = play_table_round(
        rng, cards, position, False, table.player_draw, table.dealer_draw, table.zero_ties,
        outcome,
    )  # fmt: skip
    return position, table.payoff[outcome[seat]]


@dataclasses.dataclass(frozen=True)
class PerfectInformationResult:
    """The perfect-information bettor beside the counter, round by round on the same shoes."""

    rules: C21BaccaratRules
    tags: dict[str, int]
    ramp: tuple[float, ...]
    players: int
    seat: int
    dealing: Dealing
    shoes: int
    seed: int
    rounds: pd.DataFrame  # Shoe | True count | Exact EV | Result, one row per round

    def summary(self, rounds_per_hour: float = 60.0) -> dict[str, float]:
        """The bettor's units won per 100 rounds (realised and expected, with SEs by shoe),
        how often the shoe favours the player, and how well the count follows the exact EV
        (:func:`gamecore.countresults.perfect_information_summary`).

        Parameters
        ----------
        rounds_per_hour : float
            Rounds dealt an hour, for the figures per hour.

        Returns
        -------
        dict
            The summary's figures, in units of the bet.
        """
        return countresults.perfect_information_summary(self.rounds, self.ramp, rounds_per_hour)


def perfect_information_simulation(count: Counted, run: CounterRun) -> PerfectInformationResult:
    """Deal ``run.shoes`` shoes as :func:`counter_simulation` does and, before every round,
    enumerate the remaining shoe exactly (:func:`gamecore.c21_baccarat.exact.count_deals`:
    the heads-up EV of House Way against House Way on it); the bettor bets the ramp's top
    when that EV is positive and one unit otherwise, an upper bound no count with that
    spread can beat. Each round's true count under the tags is kept beside its exact EV.
    A few hundred shoes: every round is an exact enumeration.

    Parameters
    ----------
    count, run
        As :func:`counter_simulation` takes them: at most 100,000 shoes a stage; the
        trigger and the rotation do not apply, and the run is serial. With
        ``run.max_shoes``, grown in seeded stages until its bound's SE is smaller than the
        bound (:mod:`gamecore.bounds`) or that many shoes are dealt.

    Returns
    -------
    PerfectInformationResult
        The bettor's rounds: shoe, true count, exact EV, result.
    """
    rules, tags = _counted(count, run)
    if run.max_shoes is not None:  # grown until its bound holds (gamecore.bounds)
        return bounds.grown(perfect_information_simulation, count, run)
    if run.shoes > 100_000:
        raise GamecoreError(
            f"shoes must be at most 100,000 (each round is enumerated), got {run.shoes:,}"
        )
    table, dealing = _counting_table(rules, run, "the perfect-information bettor")
    by_class, cards = _by_class(tags), table.cards
    deck_cards = sum(BACCARAT_DECK) + rules.jokers_per_deck
    player, dealer = house_way_player(rules), house_way_dealer(rules)
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(run.seed)))
    cut = cards.size - dealing.penetration
    rows = []
    shoe_cards = cards.copy()
    for shoe_index in range(run.shoes):
        shuffle(rng, shoe_cards)
        position = 0
        while position < cut:
            left = np.bincount(shoe_cards[position:], minlength=JOKER + 1)
            ev = float(count_deals(rules, left).evaluate(player, dealer).player_ev)
            running = int(by_class[shoe_cards[:position]].sum())
            true_count = running * deck_cards / (cards.size - position)
            position, result = _table_round(rng, table, shoe_cards, position, run.seat - 1)
            rows.append((shoe_index, true_count, ev, float(result)))
    frame = pd.DataFrame(rows, columns=["Shoe", "True count", "Exact EV", "Result"])
    return PerfectInformationResult(
        rules, tags, run.ramp, run.players, run.seat, dealing, run.shoes, run.seed, frame
    )


# ---------------------------------------------------------------------------------------
# Procedures: decks and penetration, and the verdict
# ---------------------------------------------------------------------------------------


def procedure_table(
    count: Counted,
    run: CounterRun,
    deck_counts: Sequence[int] = (1, 2, 6, 8),
    penetrations: Sequence[int] | None = None,
    rounds_per_hour: float = 60.0,
    threshold: float = 0.0,
) -> pd.DataFrame:
    """The counter under every procedure (:func:`gamecore.countresults.procedure_table`): for
    each deck count a shuffle every round and real shoes to each cut card of
    ``penetrations`` (cards behind it; default the reading's, a quarter and a half of the
    shoe, each moved into the range a table of ``run.players`` allows), the best of
    ``run.triggers``, grown until its verdict decides or ``run.max_shoes`` is spent.

    Parameters
    ----------
    count, run
        The tags (the rules' decks replaced by each deck count) and the counter's run (its
        dealing replaced by each procedure's; its ``max_shoes`` the budget).
    deck_counts, penetrations
        The procedures.
    rounds_per_hour
        Money per hour takes the ramp's top bet to be ``rules.table_maximum``.
    threshold
        Money per hour a countable game lets a counter clear (the verdict's).

    Returns
    -------
    pandas.DataFrame
        :func:`gamecore.countresults.procedure_table`'s rows.
    """
    rules, tags = _counted(count, run)

    def variant(decks: int) -> C21BaccaratRules:
        return dataclasses.replace(rules, decks=decks)

    def cuts(decks: int) -> Sequence[int]:
        if penetrations is not None:
            return penetrations
        cards = decks * (sum(BACCARAT_DECK) + rules.jokers_per_deck)
        fits = range(largest_round(run.players), cards - largest_round(run.players) + 1)
        return sorted(
            {min(max(c, fits.start), fits.stop - 1) for c in (14, cards // 4, cards // 2)}
        )

    def off_the_top(decks: int) -> float:
        rules = variant(decks)
        pair = count_deals(rules).evaluate(house_way_player(rules), house_way_dealer(rules))
        return float(pair.player_ev)

    def simulate(decks: int, cut: int, trigger: float, shoes: int, seed: int) -> CounterResult:
        dealing = Dealing(mode="shoe", penetration=int(cut), burn="none")
        changes = {"trigger": trigger, "dealing": dealing, "shoes": shoes, "seed": seed}
        return counter_simulation(
            TagCount(variant(decks), tags), run.replace(max_shoes=None, **changes)
        )

    study = countresults.Study(
        run.shoes, run.seed, run.max_shoes, threshold, float(rules.table_maximum) / run.ramp[-1],
        rounds_per_hour, f"simulated, {{shoes}} shoes, {run.players} players, seat {run.seat}",
    )  # fmt: skip
    return countresults.procedure_table(
        deck_counts, cuts, off_the_top, simulate, run.triggers, study
    )
