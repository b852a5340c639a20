"""Card counting against 21st Century Baccarat: exact effects of removal and a count.

Central idea
------------
The strategy-free exact counts of every deal (:func:`gamecore.c21_baccarat.exact.count_deals`)
are made afresh for the shoe less one card of each rank (point values 0..9, the ten-valued
cards as "0", and the joker), and the player's EV (heads-up, per unit wagered) is read off
them: under House Way for both sides an exact rational, and at the equilibrium of the option
game (both sides re-solving it on the depleted shoe) a float from the linear programs. The
effect of removal of a rank is the change in that EV; the P/D's is its negative. A balanced
count is derived from the House Way effects (:mod:`gamecore.counting`).

The counter is then simulated at a full table on real shoes (:func:`counter_simulation`:
the simulator's one model of a round, :func:`gamecore.c21_baccarat.sim.play_table_round`),
by decks and penetration (:func:`procedure_table`), beside a bettor who enumerates every
round's remaining shoe exactly (:func:`perfect_information_simulation`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from gamecore import counting, countresults
from gamecore._jit import kernel
from gamecore.c21_baccarat.exact import count_deals
from gamecore.c21_baccarat.rules import (
    CLASS_NAMES,
    JOKER,
    PAYOFF,
    C21BaccaratRules,
    c21_shoe,
    check_composition,
    check_rules,
)
from gamecore.c21_baccarat.sim import largest_round, play_table_round, table_setup
from gamecore.c21_baccarat.strategies import house_way_dealer, house_way_player
from gamecore.counting import CounterRun
from gamecore.dealing import Dealing, shuffle
from gamecore.errors import GamecoreError, shown
from gamecore.parallel import make_chunks, run_chunks, sum_tallies
from gamecore.shoe import BACCARAT_DECK

#: The derived count's largest tag, by default: with one joker a deck a balanced count can
#: tag the joker, the card that moves the EV most, only by a multiple of 4 (every other
#: rank has 4 or 16 cards a deck), so 3 would leave it uncounted.
DEFAULT_MAX_TAG = 4

#: A counter's names of the ranks by point class (0: the ten-valued cards), then the joker.
RANK_NAMES = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "joker")


def default_dealing(rules: C21BaccaratRules, players: int = 1) -> Dealing:
    """The reading of how the game is dealt (RULES.md, section c21_baccarat): real shoes to
    a cut card 14 cards from the end (or a whole round's cards for ``players``, if more, so
    a started round always finishes), no burn."""
    check_rules(rules)
    return Dealing(mode="shoe", penetration=max(14, largest_round(players)), burn="none")


def count_deck(rules: C21BaccaratRules) -> counting.Deck:
    """The ranks a counter tells apart under ``rules`` and their cards per deck (no joker
    rank when the shoe holds none)."""
    ranks, cards = list(RANK_NAMES[:JOKER]), list(BACCARAT_DECK)
    if rules.jokers_per_deck:
        ranks.append("joker")
        cards.append(rules.jokers_per_deck)
    return counting.Deck(tuple(ranks), tuple(int(n) for n in cards))


@dataclasses.dataclass(frozen=True)
class C21BaccaratCount:
    """Effects of removal under House Way (exact) and at the equilibrium, and a count."""

    rules: C21BaccaratRules
    shoe: np.ndarray
    full_shoe_ev: Fraction
    effects_of_removal: dict[str, Fraction]
    full_shoe_ev_equilibrium: float
    effects_of_removal_equilibrium: dict[str, float]
    tags: dict[str, int]
    max_tag: int
    betting_correlation: float
    betting_correlation_equilibrium: float

    def effects_table(self) -> pd.DataFrame:
        """Rank | Cards per deck | Tag | EoR House Way (%) | EoR equilibrium (%)."""
        deck = count_deck(self.rules)
        return pd.DataFrame(
            [
                {
                    "Rank": rank,
                    "Cards per deck": cards,
                    "Tag": self.tags[rank],
                    "EoR, House Way (%)": 100 * float(self.effects_of_removal[rank]),
                    "EoR, equilibrium (%)": 100 * self.effects_of_removal_equilibrium[rank],
                }
                for rank, cards in zip(deck.ranks, deck.cards, strict=True)
            ]
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.rules.game,
            "rules": self.rules.to_dict(),
            "shoe": [int(n) for n in self.shoe],
            "strategy": "House Way (player and P/D)",
            "full_shoe_ev": float(self.full_shoe_ev),
            "full_shoe_ev_exact": str(self.full_shoe_ev),
            "effects_of_removal": {r: float(e) for r, e in self.effects_of_removal.items()},
            "effects_of_removal_exact": {r: str(e) for r, e in self.effects_of_removal.items()},
            "full_shoe_ev_equilibrium": self.full_shoe_ev_equilibrium,
            "effects_of_removal_equilibrium": self.effects_of_removal_equilibrium,
            "effects_of_removal_means": (
                "the change in the player's EV (heads-up, per unit wagered; the P/D's is its "
                "negative) when one card of the rank leaves the full shoe, each depleted shoe "
                "enumerated exactly; at the equilibrium both sides re-solve the option game "
                "on the depleted shoe"
            ),
            "count": {
                "tags": self.tags,
                "max_tag": self.max_tag,
                "balanced": count_deck(self.rules).imbalance(self.tags) == 0,
                "derived_from": "effects_of_removal (House Way)",
                "betting_correlation": self.betting_correlation,
                "betting_correlation_equilibrium": self.betting_correlation_equilibrium,
            },
            "exactness": (
                "House Way: exact rationals from exact integer counts; equilibrium: floats "
                "from the linear programs (about 1e-12)"
            ),
        }


def _house_way_and_equilibrium(rules: C21BaccaratRules, shoe: np.ndarray) -> tuple[Fraction, float]:
    analysis = count_deals(rules, shoe)
    house_way = analysis.evaluate(house_way_player(rules), house_way_dealer(rules)).player_ev
    return house_way, analysis.equilibrium()[2]


def count_analysis(
    rules: C21BaccaratRules,
    composition: Sequence[int] | None = None,
    max_tag: int = DEFAULT_MAX_TAG,
) -> C21BaccaratCount:
    """Exact effects of removal under House Way and at the equilibrium, and a balanced
    count derived from the House Way effects.

    Parameters
    ----------
    rules
        The rule set (its decks and jokers set the shoe unless ``composition`` is given).
    composition
        Cards per class (0..9 by point value, then jokers): the full shoe to start from.
    max_tag
        The largest tag of the derived count.
    """
    rules = check_rules(rules)
    deck = count_deck(rules)
    if composition is None:
        shoe = c21_shoe(rules.decks, rules.jokers_per_deck)
    else:
        shoe = check_composition(composition)
        # Every rank counted must be there to be removed (so the shoe holds ten cards or
        # more, and each depleted shoe the six a round can use), checked before any work.
        for cls in (RANK_NAMES.index(rank) for rank in deck.ranks):
            if shoe[cls] == 0:
                raise GamecoreError(
                    f"composition count of {CLASS_NAMES[cls]} is 0: no card of it can be removed"
                )
        if shoe[JOKER] and not rules.jokers_per_deck:
            # The count's deck follows the rule set: its jokers would go untagged.
            raise GamecoreError(
                f"composition count of jokers is {shoe[JOKER]:,}, but jokers_per_deck is 0: "
                "the count would leave the jokers out; give jokers_per_deck 1 to 4"
            )
    before, before_eq = _house_way_and_equilibrium(rules, shoe)
    effects: dict[str, Fraction] = {}
    effects_eq: dict[str, float] = {}
    for rank in deck.ranks:
        cls = RANK_NAMES.index(rank)
        depleted = shoe.copy()
        depleted[cls] -= 1
        after, after_eq = _house_way_and_equilibrium(rules, depleted)
        effects[rank] = after - before
        effects_eq[rank] = after_eq - before_eq
    as_float = {r: float(e) for r, e in effects.items()}
    tags = counting.balanced_tags(as_float, deck, max_tag)
    return C21BaccaratCount(
        rules=rules,
        shoe=shoe,
        full_shoe_ev=before,
        effects_of_removal=effects,
        full_shoe_ev_equilibrium=before_eq,
        effects_of_removal_equilibrium=effects_eq,
        tags=tags,
        max_tag=max_tag,
        betting_correlation=counting.betting_correlation(tags, as_float, deck),
        betting_correlation_equilibrium=counting.betting_correlation(tags, effects_eq, deck),
    )


# ---------------------------------------------------------------------------------------
# The counter, simulated on real shoes at a full table
# ---------------------------------------------------------------------------------------

#: Shoes per chunk of a counter simulation.
CHUNK_SHOES = 5_000


class _Table(NamedTuple):
    """The shoe's cards (classes), the players' and the P/D's draw probabilities, the
    payoff by outcome, the seats, the rules' ties on zero, the cards behind the cut card."""

    cards: np.ndarray
    player_draw: np.ndarray
    dealer_draw: np.ndarray
    payoff: np.ndarray
    seats: int
    zero_ties: bool
    penetration: int


class _Counter(NamedTuple):
    """Tags by class, the ramp, the rotation (0: none) and the bank's threshold, the
    trigger, the seat (0-based), the cards a deck (:func:`_counter_shoes`)."""

    tags: np.ndarray
    ramp: np.ndarray
    turn_rounds: int
    bank_at: float
    trigger: float
    seat: int
    deck_cards: float


#: The counter's statistics: gamecore.counting's columns, then the rounds it banked.
C_BANKED = counting.STATS


@kernel
def _counter_shoes(rng, table, counter, shoes):
    """Deal ``shoes`` shoes of ``table``; the counter sees every card and bets by the true
    count (running count per ``deck_cards`` cards left) on the ramp; under rotation it banks
    in its turn at or below ``bank_at`` (winning minus every seat's result), the flat bettor
    beside it always. Returns the statistics (:data:`gamecore.counting.ROUNDS` ...,
    :data:`C_BANKED`)."""
    player_draw, dealer_draw, payoff = table.player_draw, table.dealer_draw, table.payoff
    seats, zero_ties, penetration = table.seats, table.zero_ties, table.penetration
    tags, ramp, turn_rounds, bank_at, trigger, seat, deck_cards = counter
    stats = np.zeros(counting.STATS + 1)
    cards = table.cards.copy()
    n = cards.size
    cut = n - penetration
    outcome = np.zeros(seats, dtype=np.int64)
    for _ in range(shoes):
        shuffle(rng, cards)
        position = 0
        running = 0
        shoe_won = 0.0
        shoe_flat = 0.0
        while position < cut:
            true_count = running * deck_cards / (n - position)
            bet = counting.ramp_bet(true_count, trigger, ramp)
            turn = turn_rounds > 0 and (
                int(stats[counting.ROUNDS]) // turn_rounds % (seats + 1) == seats
            )
            start = position
            position, _facts = play_table_round(
                rng, cards, position, False, player_draw, dealer_draw, zero_ties, outcome
            )
            result = payoff[outcome[seat]]
            won, flat = bet * result, result
            if turn:  # the bank's result: minus every seat's
                flat = 0.0
                for s in range(seats):
                    flat -= payoff[outcome[s]]
                if true_count <= bank_at:
                    won, bet = flat, float(seats)  # its action: every seat's unit
                    stats[C_BANKED] += 1.0
            counting.add_round(stats, bet, won, flat, result, start == 0)
            shoe_won += won
            shoe_flat += flat
            for i in range(start, position):
                running += tags[cards[i]]
        stats[counting.SHOE_WON_SQ] += shoe_won * shoe_won
        stats[counting.SHOE_FLAT_SQ] += shoe_flat * shoe_flat
    return stats


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
        under rotation how often the counter banked."""
        banked = C_BANKED if self.turn_rounds else None
        return countresults.counter_summary(self.stats, self.shoes, rounds_per_hour, banked)


@dataclasses.dataclass(frozen=True)
class TagCount:
    """A count given by its tags by rank (:data:`RANK_NAMES`) alone, checked when made."""

    rules: C21BaccaratRules
    tags: dict[str, int]

    def __post_init__(self) -> None:
        object.__setattr__(self, "tags", count_deck(check_rules(self.rules)).tags(self.tags))


#: What a counter counts: the tags alone, or :func:`count_analysis`'s count.
Counted = TagCount | C21BaccaratCount


def _counted(count: object, run: object) -> tuple[C21BaccaratRules, dict[str, int]]:
    if not isinstance(count, Counted):
        raise GamecoreError(f"count must be a TagCount or a C21BaccaratCount, got {shown(count)}")
    if not isinstance(run, CounterRun):
        raise GamecoreError(f"run must be a CounterRun, got {shown(run)}")
    run.refuse("21st Century Baccarat (no index plays)", "index_plays")
    return count.rules, count.tags


def _counting_table(rules, run: CounterRun, who: str) -> tuple[_Table, Dealing]:
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
    table = _Table(cards, player_draw, dealer_draw, payoff, run.players, zero_ties, cut)
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
        The rules and the tags (a :class:`TagCount`, or :func:`count_analysis`'s count).
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
    counter = _Counter(
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
    return _counter_shoes(chunk.generator(), table, counter, chunk.size)


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
        f"{where}, rotation, banks at true count <= {bank_at:g}": (turn, bank_at),
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
        (:func:`gamecore.countresults.perfect_information_summary`)."""
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
        As :func:`counter_simulation` takes them: at most 100,000 shoes; the trigger and
        the rotation do not apply, and the run is serial.

    Returns
    -------
    PerfectInformationResult
        The bettor's rounds: shoe, true count, exact EV, result.
    """
    rules, tags = _counted(count, run)
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
) -> pd.DataFrame:
    """The counter under every procedure (:func:`gamecore.countresults.procedure_table`): for
    each deck count a shuffle every round and real shoes to each cut card of
    ``penetrations`` (cards behind it; default the reading's, a quarter and a half of the
    shoe, each moved into the range a table of ``run.players`` allows), the best of
    ``run.triggers``.

    Parameters
    ----------
    count, run
        The tags (the rules' decks replaced by each deck count) and the counter's run (its
        dealing replaced by each procedure's).
    deck_counts, penetrations
        The procedures.
    rounds_per_hour
        Money per hour takes the ramp's top bet to be ``rules.table_maximum``.

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

    def simulate(decks: int, cut: int, trigger: float) -> dict[str, float]:
        dealing = Dealing(mode="shoe", penetration=int(cut), burn="none")
        result = counter_simulation(
            TagCount(variant(decks), tags), run.replace(trigger=trigger, dealing=dealing)
        )
        return result.summary(rounds_per_hour)

    return countresults.procedure_table(
        deck_counts, cuts, off_the_top, simulate, run.triggers,
        float(rules.table_maximum) / run.ramp[-1], rounds_per_hour,
        f"simulated, {run.shoes:,} shoes, {run.players} players, seat {run.seat}",
    )  # fmt: skip
