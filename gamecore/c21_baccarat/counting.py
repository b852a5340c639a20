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
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from gamecore import counting
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
from gamecore.dealing import Dealing, shuffle
from gamecore.errors import GamecoreError
from gamecore.parallel import (
    make_chunks,
    run_chunks,
    sum_tallies,
    validate_count,
    validate_seed,
    validate_trials,
)
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
    """What every seat plays and how results pay: the shoe's cards (classes), the players'
    and the P/D's probability of drawing at each decision, the player's payoff by outcome."""

    cards: np.ndarray
    player_draw: np.ndarray
    dealer_draw: np.ndarray
    payoff: np.ndarray


class _Counter(NamedTuple):
    """The counter: tags by class, the bet at each true count step above the trigger, and
    its turn at the bank under rotation (``turn_rounds`` rounds each, 0: no rotation; it
    banks at or below the ``bank_at`` true count)."""

    tags: np.ndarray
    ramp: np.ndarray
    turn_rounds: int
    bank_at: float


#: The counter's statistics: gamecore.counting's columns, then the rounds it banked.
C_BANKED = counting.STATS


@kernel
def _counter_shoes(rng, table, counter, shoes, penetration, seats, seat, zero_ties, trigger,
                   deck_cards):  # fmt: skip
    """Deal ``shoes`` shoes to ``seats`` players and the P/D to a cut card ``penetration``
    cards from the end; the counter in ``seat`` sees every card dealt, keeps the running count
    and bets, before each round, one unit at or below ``trigger`` (true count: running count
    per ``deck_cards`` cards left) and ``ramp[k]`` units above ``trigger + k`` (the last
    entry beyond). Under rotation (``counter.turn_rounds`` > 0) the bank passes among the
    players and the P/D; in its turn the counter banks at or below ``counter.bank_at`` and
    wins minus every seat's result, else declines and plays its seat; the flat bettor beside
    it always banks in its turn. Returns the statistics (columns
    :data:`gamecore.counting.ROUNDS` ..., :data:`C_BANKED`)."""
    stats = np.zeros(counting.STATS + 1)
    cards = table.cards.copy()
    n = cards.size
    cut = n - penetration
    outcome = np.zeros(seats, dtype=np.int64)
    facts = np.zeros(6, dtype=np.int64)
    for _ in range(shoes):
        shuffle(rng, cards)
        position = 0
        running = 0
        shoe_won = 0.0
        shoe_flat = 0.0
        while position < cut:
            true_count = running * deck_cards / (n - position)
            bet = counting.ramp_bet(true_count, trigger, counter.ramp)
            turn = counter.turn_rounds > 0 and (
                int(stats[counting.ROUNDS]) // counter.turn_rounds % (seats + 1) == seats
            )
            start = position
            position = play_table_round(
                rng, cards, position, False, seats, table.player_draw, table.dealer_draw,
                zero_ties, outcome, facts,
            )  # fmt: skip
            result = table.payoff[outcome[seat]]
            won, flat = bet * result, result
            if turn:  # the bank's result: minus every seat's
                flat = 0.0
                for s in range(seats):
                    flat -= table.payoff[outcome[s]]
                if true_count <= counter.bank_at:
                    won, bet = flat, float(seats)  # its action: every seat's unit
                    stats[C_BANKED] += 1.0
            counting.add_round(stats, bet, won, flat, result, start == 0)
            shoe_won += won
            shoe_flat += flat
            for i in range(start, position):
                running += counter.tags[cards[i]]
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
        return counting.counter_summary(self.stats, self.shoes, rounds_per_hour, banked)


def _counting_table(rules, tags, players, seat, dealing, who):
    """The checked table a counting study deals (everyone on House Way) and the tags by
    class: (table, tags by class, players, seat, dealing); ``who`` names the study in the
    message refusing a shuffle every round."""
    players = validate_count(players, "players")
    seat = validate_count(seat, "seat")
    if seat > players:
        raise GamecoreError(f"seat must be from 1 to players ({players}), got {seat}")
    dealing = Dealing.given(dealing, default_dealing(rules, players))
    if dealing.mode != "shoe":
        raise GamecoreError(
            f"{who} needs a shoe dealt to a cut card (mode 'shoe'); with a shuffle every "
            "round the count is always zero and the EV is the exact off-the-top EV"
        )
    cards, player_draw, dealer_draw, dealing = table_setup(
        rules, players, house_way_player(rules), house_way_dealer(rules), dealing
    )
    by_class = np.zeros(JOKER + 1, dtype=np.int64)
    for rank, tag in tags.items():
        by_class[RANK_NAMES.index(rank)] = tag
    table = _Table(cards, player_draw, dealer_draw, PAYOFF.astype(float))
    return table, by_class, players, seat, dealing


def counter_simulation(
    rules: C21BaccaratRules,
    tags: Mapping[str, int],
    trigger: float,
    ramp: Sequence[float],
    shoes: int,
    seed: int,
    players: int = 7,
    seat: int = 1,
    dealing: Dealing | None = None,
    threads: int | None = None,
    progress: bool | None = None,
    turn_rounds: int = 0,
    bank_at: float | None = None,
) -> CounterResult:
    """Simulate a counter in ``seat`` (1..players) of a table of ``players`` on House Way
    against the P/D on House Way, everyone dealt from one shoe to a cut card (``dealing``,
    default :func:`default_dealing`), betting by the true count of ``tags`` on ``ramp``.
    With ``turn_rounds`` > 0 the bank rotates (each person holding it that many rounds);
    in its turn the counter banks at or below the ``bank_at`` true count (default: always),
    else declines and plays its seat.

    Fixed chunks of :data:`CHUNK_SHOES` shoes seeded from ``numpy.random.SeedSequence(seed)``:
    the result depends on the seed only, not on the threads.
    """
    rules = check_rules(rules)
    tags = count_deck(rules).tags(tags)
    trigger = counting.check_trigger(trigger, tags)
    ramp = counting.check_ramp(ramp)
    shoes = validate_trials(shoes, "shoes")
    seed = validate_seed(seed)
    table, by_class, players, seat, dealing = _counting_table(
        rules, tags, players, seat, dealing, "a counter"
    )
    turn_rounds, bank_at = counting.check_rotation(turn_rounds, bank_at, tags)
    counter = _Counter(by_class, np.array(ramp), turn_rounds, bank_at)
    job = (table, counter, dealing.penetration, players, seat - 1, rules, trigger)
    results = run_chunks(
        _run_counter_chunk,
        job,
        make_chunks(shoes, CHUNK_SHOES, seed),
        threads=threads,
        progress=progress,
        description="c21_baccarat counter",
    )
    return CounterResult(
        rules, tags, trigger, ramp, players, seat, dealing, shoes, seed, sum_tallies(results),
        turn_rounds, bank_at,
    )  # fmt: skip


def _run_counter_chunk(job_and_chunk):
    (table, counter, penetration, players, seat, rules, trigger), chunk = job_and_chunk
    return _counter_shoes(
        chunk.generator(),
        table,
        counter,
        chunk.size,
        penetration,
        players,
        seat,
        rules.pd_wins_ties_on_zero,
        trigger,
        float(sum(BACCARAT_DECK) + rules.jokers_per_deck),
    )


def bank_table(
    rules: C21BaccaratRules,
    tags: Mapping[str, int],
    trigger: float,
    ramp: Sequence[float],
    shoes: int,
    seed: int,
    players: int = 7,
    seat: int = 1,
    turn_rounds: int = 2,
    bank_at: float = 0.0,
    dealing: Dealing | None = None,
    rounds_per_hour: float = 60.0,
) -> pd.DataFrame:
    """The counter in ``seat`` of ``players`` without the bank, and under rotation
    (``turn_rounds`` rounds at the bank each) always banking in its turn and banking only at
    or below the ``bank_at`` true count (:func:`gamecore.counting.scenario_table`; every
    scenario from the same ``seed``; money at the ramp's top bet = ``rules.table_maximum``,
    as in :func:`procedure_table`)."""
    ramp = counting.check_ramp(ramp)
    unit = counting.money_unit(check_rules(rules).table_maximum, ramp)
    scenarios = {
        f"seat {seat} of {players}, no rotation": {},
        f"seat {seat} of {players}, rotation, always banks": {"turn_rounds": turn_rounds},
        f"seat {seat} of {players}, rotation, banks at true count <= {bank_at:g}": {
            "turn_rounds": turn_rounds, "bank_at": bank_at,
        },
    }  # fmt: skip
    summaries = {
        where: counter_simulation(
            rules, tags, trigger, ramp, shoes, seed, players, seat, dealing, **options
        ).summary(rounds_per_hour)
        for where, options in scenarios.items()
    }
    return counting.scenario_table(summaries, unit)


# ---------------------------------------------------------------------------------------
# The upper bound: a bettor who knows the exact EV of the remaining shoe
# ---------------------------------------------------------------------------------------


@kernel
def _table_round(rng, table, cards, position, seats, seat, zero_ties):
    """One round at ``position`` (the model of :func:`play_table_round`): (the position
    after it, the result of ``seat``)."""
    outcome = np.zeros(seats, dtype=np.int64)
    facts = np.zeros(6, dtype=np.int64)
    position = play_table_round(
        rng, cards, position, False, seats, table.player_draw, table.dealer_draw, zero_ties,
        outcome, facts,
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
        (:func:`gamecore.counting.perfect_information_summary`)."""
        return counting.perfect_information_summary(self.rounds, self.ramp, rounds_per_hour)


def perfect_information_simulation(
    rules: C21BaccaratRules,
    tags: Mapping[str, int],
    ramp: Sequence[float],
    shoes: int,
    seed: int,
    players: int = 7,
    seat: int = 1,
    dealing: Dealing | None = None,
) -> PerfectInformationResult:
    """Deal ``shoes`` shoes as :func:`counter_simulation` does and, before every round,
    enumerate the remaining shoe exactly (:func:`gamecore.c21_baccarat.exact.count_deals`:
    the heads-up EV of House Way against House Way on it); the bettor bets the ramp's top
    when that EV is positive and one unit otherwise, an upper bound no count with that
    spread can beat. Each round's true count under ``tags`` is kept beside its exact EV.
    A few hundred shoes: every round is an exact enumeration."""
    rules = check_rules(rules)
    tags = count_deck(rules).tags(tags)
    ramp = counting.check_ramp(ramp)
    shoes = validate_trials(shoes, "shoes")
    if shoes > 100_000:
        raise GamecoreError(
            f"shoes must be at most 100,000 (each round is enumerated), got {shoes:,}"
        )
    seed = validate_seed(seed)
    table, by_class, players, seat, dealing = _counting_table(
        rules, tags, players, seat, dealing, "the perfect-information bettor"
    )
    cards = table.cards
    deck_cards = sum(BACCARAT_DECK) + rules.jokers_per_deck
    player, dealer = house_way_player(rules), house_way_dealer(rules)
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    cut = cards.size - dealing.penetration
    rows = []
    shoe_cards = cards.copy()
    for shoe_index in range(shoes):
        shuffle(rng, shoe_cards)
        position = 0
        while position < cut:
            left = np.bincount(shoe_cards[position:], minlength=JOKER + 1)
            ev = float(count_deals(rules, left).evaluate(player, dealer).player_ev)
            running = int(by_class[shoe_cards[:position]].sum())
            true_count = running * deck_cards / (cards.size - position)
            position, result = _table_round(
                rng, table, shoe_cards, position, players, seat - 1, rules.pd_wins_ties_on_zero
            )
            rows.append((shoe_index, true_count, ev, float(result)))
    frame = pd.DataFrame(rows, columns=["Shoe", "True count", "Exact EV", "Result"])
    return PerfectInformationResult(rules, tags, ramp, players, seat, dealing, shoes, seed, frame)


# ---------------------------------------------------------------------------------------
# Procedures: decks and penetration, and the verdict
# ---------------------------------------------------------------------------------------


def procedure_table(
    rules: C21BaccaratRules,
    tags: Mapping[str, int],
    triggers: Sequence[float],
    ramp: Sequence[float],
    shoes: int,
    seed: int,
    players: int = 7,
    seat: int = 1,
    deck_counts: Sequence[int] = (1, 2, 6, 8),
    penetrations: Sequence[int] | None = None,
    rounds_per_hour: float = 60.0,
    progress: bool | None = False,
) -> pd.DataFrame:
    """The counter under every procedure (:func:`gamecore.counting.procedure_table`): for
    each deck count a shuffle every round and real shoes to each cut card of
    ``penetrations`` (cards behind it; default the reading's, a quarter and a half of the
    shoe, each moved into the range a table of ``players`` allows), the best of
    ``triggers``. Money per hour takes the ramp's top bet to be ``rules.table_maximum``."""
    rules = check_rules(rules)
    ramp = counting.check_ramp(ramp)

    def variant(decks: int) -> C21BaccaratRules:
        return dataclasses.replace(rules, decks=decks)

    def cuts(decks: int) -> Sequence[int]:
        if penetrations is not None:
            return penetrations
        cards = decks * (sum(BACCARAT_DECK) + rules.jokers_per_deck)
        fits = range(largest_round(players), cards - largest_round(players) + 1)
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
            variant(decks), tags, trigger, ramp, shoes, seed, players, seat, dealing,
            progress=progress,
        )  # fmt: skip
        return result.summary(rounds_per_hour)

    return counting.procedure_table(
        deck_counts, cuts, off_the_top, simulate, triggers,
        float(rules.table_maximum) / ramp[-1], rounds_per_hour,
        f"simulated, {shoes:,} shoes, {players} players, seat {seat}",
    )  # fmt: skip
