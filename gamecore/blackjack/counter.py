"""The blackjack counter on real shoes, and the bound no count can beat.

Central idea
------------
A count (:func:`gamecore.blackjack.counting.count_analysis`: tags, index plays, the
insurance index) is played on the simulator's one round loop
(:func:`gamecore.blackjack.dealt.simulate_shoes`), dealing real shoes to a cut card
(:func:`default_dealing`): the counter sees every card, bets one unit at or below the
trigger true count and its ramp above it, and plays its index plays and insurance
(:func:`counter_simulation`), in any seat of a table and, under rotation, at the bank. The
same counter by decks and penetration (:func:`procedure_table`) and by seat
(:func:`seat_table`); and beside it a bettor who knows the exact EV of every round's
remaining shoe (:func:`perfect_information_simulation`), the upper bound of any count with
the same spread.

Rules: every entry point here (a notebook's or the command line's call) resolves its rule
set once (:meth:`gamecore.blackjack.rules.C21BlackjackRules.resolved`) and hands the
resolved rules to the private steps, which take them as they are.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from gamecore import bounds, counting, countresults
from gamecore.blackjack.analysis import chart_ev
from gamecore.blackjack.counting import DECISIONS, DEFAULT_MAX_TAG, BlackjackCount, count_analysis
from gamecore.blackjack.dealt import simulate_shoes
from gamecore.blackjack.engine import Engine
from gamecore.blackjack.round_tables import (
    C_BANKED,
    C_INSURED,
    C_RECORDED,
    R_RESULT,
    R_SHOE,
    R_TRUE_COUNT,
    Dealt,
    RoundInputs,
    RoundOutputs,
    new_counter_tallies,
    new_scratch,
    new_tallies,
)
from gamecore.blackjack.rules import (
    DECK,
    DOUBLE,
    HIT,
    RANKS,
    STAND,
    StandardBlackjackRules,
    check_rules,
    rule_codes,
    shoe_composition,
)
from gamecore.blackjack.shoe import check_players, round_cards_bound, table_round_cards
from gamecore.blackjack.sim import chart_policy
from gamecore.dealing import Dealing
from gamecore.errors import GamecoreError, shown
from gamecore.parallel import make_chunks, run_chunks, sum_tallies

# ---------------------------------------------------------------------------------------
# How the game is dealt
# ---------------------------------------------------------------------------------------


def default_dealing(rules: StandardBlackjackRules) -> Dealing:
    """The reading of how the game is dealt (RULES.md, section c21_blackjack).

    Real shoes to a cut card a quarter of the shoe from the end (1.5 decks, 78 cards, at 6
    decks), or the most cards a round can take if more (so a round begun before the cut
    card always finishes), no burn.

    Parameters
    ----------
    rules : StandardBlackjackRules
        Either game's rule set, as given (resolved here).

    Returns
    -------
    gamecore.dealing.Dealing
        ``mode="shoe"``, the penetration in cards dealt before the cut card, ``burn="none"``.
    """
    return _default_dealing(check_rules(rules).resolved())


def _default_dealing(rules: StandardBlackjackRules) -> Dealing:
    """:func:`default_dealing` of ``rules``, resolved."""
    return Dealing(
        mode="shoe",
        penetration=max(rules.decks * sum(DECK) // 4, most_round_cards(rules)),
        burn="none",
    )


def most_round_cards(rules: StandardBlackjackRules) -> int:
    """The most cards one round can take from a full shoe of the rules' decks (a bound:
    :func:`gamecore.blackjack.shoe.round_cards_bound` over one seat's hands, split to the
    rules' limit).

    Parameters
    ----------
    rules : StandardBlackjackRules
        Resolved (:meth:`~gamecore.blackjack.rules.C21BlackjackRules.resolved`): the deck
        count and the split limit are read as they are.

    Returns
    -------
    int
        The bound, in cards.
    """
    return round_cards_bound(shoe_composition(rules.decks), max(1, rules.max_split_hands))


# ---------------------------------------------------------------------------------------
# The counter, simulated on real shoes
# ---------------------------------------------------------------------------------------

#: Shoes per chunk of a counter simulation.
CHUNK_SHOES = 4_096

_ACTION_CODES = {"S": STAND, "H": HIT, "D": DOUBLE}


@dataclasses.dataclass(frozen=True)
class CounterResult:
    """A blackjack counter's simulated results, the flat bettor beside it."""

    rules: StandardBlackjackRules
    chart: str
    tags: dict[str, int]
    trigger: float
    ramp: tuple[float, ...]
    index_plays: bool
    dealing: Dealing
    shoes: int
    seed: int
    stats: np.ndarray
    players: int = 1
    seat: int = 1
    turn_rounds: int = 0
    bank_at: float = math.inf

    def summary(self, rounds_per_hour: float = 60.0) -> dict[str, float]:
        """The counter's figures: :func:`gamecore.countresults.counter_summary`, how often the
        counter insured, and under rotation how often it banked.

        Parameters
        ----------
        rounds_per_hour : float, default 60
            Rounds dealt an hour, for the money won per hour.

        Returns
        -------
        dict of str to float
            Figure name -> value: rounds and shoes dealt, the average bet (units), units
            won per 100 rounds and per hour with their SEs, won per unit bet, the flat
            bettor's EV per round and the first round's of a shoe (with SEs), under
            rotation the rounds banked per 100, and ``Insurance bets per 100 rounds``.
        """
        banked = C_BANKED if self.turn_rounds else None
        out = countresults.counter_summary(self.stats, self.shoes, rounds_per_hour, banked)
        rounds = self.stats[counting.ROUNDS]
        out["Insurance bets per 100 rounds"] = 100 * self.stats[C_INSURED] / rounds
        return out


def counter_simulation(count: BlackjackCount, run: counting.CounterRun) -> CounterResult:
    """Simulate a counter playing ``count``'s chart against the dealer on real shoes dealt
    to a cut card (``run.dealing``, default :func:`default_dealing`), in ``run.seat`` of a
    table of ``run.players`` players (1: heads-up; the others flat on the chart): it sees
    every card, bets one unit at or below the ``run.trigger`` true count and the ramp above
    it, and with ``run.index_plays`` plays ``count``'s index plays and insurance.

    With ``run.turn_rounds`` > 0 the bank rotates among the players and the P/D, each
    holding it that many rounds (the card: two); in its turn the counter banks when the true
    count is at or below ``run.bank_at`` (default: always) and wins minus every seat's
    result, else it declines and plays its seat. The flat bettor beside it always banks in
    its turn. Fixed chunks of :data:`CHUNK_SHOES` shoes: the result depends on the seed only.

    Parameters
    ----------
    count : BlackjackCount
        The count, its chart and index plays
        (:func:`gamecore.blackjack.counting.count_analysis`).
    run : gamecore.counting.CounterRun
        The counter's run.

    Returns
    -------
    CounterResult
        The counter's statistics, the flat bettor beside it.
    """
    return _counter(count, run, _checked(count, run))


def _counter(
    count: BlackjackCount, run: counting.CounterRun, rules: StandardBlackjackRules
) -> CounterResult:
    """:func:`counter_simulation` of a checked ``count`` and ``run``; rules: resolved."""
    trigger = counting.check_trigger(run.trigger, count.tags)
    players = check_players(rules, run.players)
    bank_at = counting.bank_threshold(run, count.tags)
    shoe, dealing = _shoe_and_dealing(count, rules, run.dealing, "a counter")
    dealt = _dealt(count, rules, dealing, trigger, run.ramp, run.index_plays)._replace(
        seats=players, counter_seat=run.seat - 1, turn_rounds=run.turn_rounds, bank_at=bank_at
    )
    job = (shoe, chart_policy(count.chart, rules), rule_codes(rules), dealt)
    chunks = make_chunks(run.shoes, CHUNK_SHOES, run.seed)
    results = run_chunks(
        _run_counter_chunk, job, chunks, run.threads, run.dask, run.progress,
        f"{rules.game} counter",
    )  # fmt: skip
    return CounterResult(
        count.rules, count.strategy, count.tags, trigger, run.ramp, run.index_plays, dealing,
        run.shoes, run.seed, sum_tallies(results), players, run.seat, run.turn_rounds,
        float(bank_at),
    )  # fmt: skip


def _checked(count: object, run: object) -> StandardBlackjackRules:
    """``count``'s rules resolved, ``count`` and ``run`` checked."""
    if not isinstance(count, BlackjackCount):
        raise GamecoreError(f"count must be a BlackjackCount (count_analysis), got {shown(count)}")
    if not isinstance(run, counting.CounterRun):
        raise GamecoreError(f"run must be a CounterRun, got {shown(run)}")
    return count.rules.resolved()


def _shoe_and_dealing(count, rules, dealing, who) -> tuple[np.ndarray, Dealing]:
    """The count's shoe as cards and the checked procedure (default :func:`default_dealing`):
    a cut card that leaves the most cards a round can take on each side, no burn; ``who``
    names the study in the message refusing a shuffle every round. Rules: resolved."""
    dealing = Dealing.given(dealing, _default_dealing(rules))
    shoe = np.repeat(np.arange(10, dtype=np.int64), count.shoe)
    if dealing.mode != "shoe":
        raise GamecoreError(
            f"{who} needs a shoe dealt to a cut card (mode 'shoe'); with a shuffle every "
            "round the count is always zero and the EV is the exact off-the-top EV"
        )
    if dealing.burn != "none":
        raise GamecoreError(
            f"blackjack is dealt without a burn here, got burn={shown(dealing.burn)}"
        )
    most = most_round_cards(rules)
    if not most <= dealing.penetration <= shoe.size - most:
        raise GamecoreError(
            f"penetration must be from {most} to {shoe.size - most} cards for a "
            f"{shoe.size}-card shoe (a round can take up to {most} cards), got "
            f"{dealing.penetration}"
        )
    return shoe, dealing


def _dealt(count, rules, dealing, trigger, ramp, index_plays) -> Dealt:
    """The counter's tables for the round kernel (a :class:`round_tables.Dealt`); rules:
    resolved."""
    first = np.full((32, 10), -1, dtype=np.int64)
    second = np.full((32, 10), -1, dtype=np.int64)
    at = np.zeros((32, 10))
    sign = np.ones((32, 10), dtype=np.int64)
    by_name = {d.name: d for d in DECISIONS}
    if index_plays:
        for play in count.index_plays:
            decision = by_name[play.decision]
            if play.index is None:
                continue
            first[decision.total, decision.up] = _ACTION_CODES[play.first]
            second[decision.total, decision.up] = _ACTION_CODES[play.second]
            at[decision.total, decision.up] = play.index
            sign[decision.total, decision.up] = 1 if "≥" in play.first_when else -1
    insurance_at, insurance_sign = np.nan, 1
    if index_plays and count.insurance is not None and count.insurance.index is not None:
        insurance_at = count.insurance.index
        insurance_sign = 1 if "≥" in count.insurance.first_when else -1
    tags = np.array([count.tags[r] for r in RANKS], dtype=np.int64)
    return Dealt(
        dealing.penetration, tags, np.array(ramp), trigger, float(sum(DECK)), first, second,
        at, sign, insurance_at, insurance_sign, float(rules.natural_pays), 1, 0, 0, np.inf,
    )  # fmt: skip


def _run_counter_chunk(job_and_chunk):
    (shoe, policy, codes, dealt), chunk = job_and_chunk
    counter = new_counter_tallies()
    inputs = RoundInputs(codes, policy, 0.0, dealt)
    outputs = RoundOutputs(new_tallies(), counter, new_scratch(dealt.seats))
    simulate_shoes(chunk.generator(), shoe, chunk.size, inputs, outputs)
    return counter.stats


def procedure_table(
    rules: StandardBlackjackRules,
    run: counting.CounterRun,
    deck_counts: Sequence[int] = (1, 2, 6, 8),
    penetrations: Sequence[int] | None = None,
    rounds_per_hour: float = 60.0,
    table_maximum: float = 100.0,
    max_tag: int = DEFAULT_MAX_TAG,
    threshold: float = 0.0,
) -> pd.DataFrame:
    """The counter in ``run.seat`` of ``run.players`` (1: heads-up; fewer players where a
    deck count's shoe cannot deal them all, the seat moved in to the last) under every
    procedure (:func:`gamecore.countresults.procedure_table`): for each deck count (its own
    rules: c21's double-deck rules at 2) the count and chart of :func:`count_analysis`, a
    shuffle every round at the chart's exact EV, and real shoes to each cut card of
    ``penetrations`` (default the reading's quarter and a half of the shoe, each moved into
    the range a heads-up round allows; none where no cut card leaves a whole round on each
    side, as for one deck and four split hands), the best of ``run.triggers``, grown until
    its verdict decides or ``run.max_shoes`` is spent.

    Parameters
    ----------
    rules : StandardBlackjackRules
        The rule set as given (its decks replaced by each deck count, resolved once here).
    run : gamecore.counting.CounterRun
        The counter's run (dealing, trigger, players and seat: each procedure's).
    deck_counts : sequence of int, default (1, 2, 6, 8)
        The shoes' deck counts, one block of rows each.
    penetrations : sequence of int, optional
        Cut cards, in cards dealt before the cut card, tried at every deck count.
    rounds_per_hour : float, default 60
        Rounds dealt an hour, for the money won per hour.
    table_maximum : float, default 100
        Money per hour takes the ramp's top bet to be this much money.
    max_tag : int, default :data:`~gamecore.blackjack.counting.DEFAULT_MAX_TAG`
        The largest tag of each deck count's derived count.
    threshold : float, default 0
        Money per hour a countable game lets a counter clear (the verdict's).

    Returns
    -------
    pandas.DataFrame
        :func:`gamecore.countresults.procedure_table`'s rows.
    """
    rules = check_rules(rules)
    unit = countresults.money_unit(table_maximum, run.ramp)
    # Checked at 8 decks, where every table fits; each deck count deals as many as it can.
    players = check_players(dataclasses.replace(rules, decks=8), run.players)
    variants = {d: dataclasses.replace(rules, decks=d).resolved() for d in deck_counts}
    tables = {d: _table_at(variants[d], players, run.seat) for d in deck_counts}
    counts: dict[int, BlackjackCount] = {}

    def count_of(decks: int) -> BlackjackCount:
        if decks not in counts:
            counts[decks] = count_analysis(dataclasses.replace(rules, decks=decks), max_tag=max_tag)
        return counts[decks]

    def cuts(decks: int) -> Sequence[int]:
        if penetrations is not None:
            return penetrations
        cards, most = decks * sum(DECK), most_round_cards(variants[decks])
        if cards - most < most:  # no cut card leaves a whole round on each side
            return []
        return sorted({min(max(c, most), cards - most) for c in (cards // 4, cards // 2)})

    def simulate(decks: int, cut: int, trigger: float, shoes: int, seed: int) -> CounterResult:
        dealing = Dealing(mode="shoe", penetration=int(cut), burn="none")
        table, place = tables[decks]
        changes = {"trigger": trigger, "dealing": dealing, "players": table, "seat": place}
        stage = run.replace(shoes=shoes, seed=seed, max_shoes=None, **changes)
        return _counter(count_of(decks), stage, variants[decks])

    study = countresults.Study(
        run.shoes, run.seed, run.max_shoes, threshold, unit, rounds_per_hour,
        f"simulated, {{shoes}} shoes, {_where(players, run.seat, tables)}, the chart and its "
        "index plays",
    )  # fmt: skip
    exact = lambda decks: count_of(decks).full_shoe_ev  # noqa: E731
    return countresults.procedure_table(deck_counts, cuts, exact, simulate, run.triggers, study)


def _where(players: int, seat: int, tables: dict[int, tuple[int, int]]) -> str:
    """Where the procedure table's counter sits, for its How column: heads-up or its seat,
    and the players each deck count whose shoe cannot deal them all deals."""
    where = "heads-up" if players == 1 else f"seat {seat} of {players} players"
    fewer = [f"{d} deck{'s' if d > 1 else ''}: {t[0]}" for d, t in tables.items() if t[0] < players]
    return where + (f" (players the shoe can deal: {', '.join(fewer)})" if fewer else "")


def _table_at(rules: StandardBlackjackRules, players: int, seat: int) -> tuple[int, int]:
    """The players a full shoe of ``rules`` (resolved) can deal, at most ``players``, and the
    counter's seat among them (moved in to the last)."""
    cards = rules.decks * sum(DECK)
    fit = max(k for k in range(1, players + 1) if table_round_cards(rules, k) <= cards)
    return fit, min(seat, fit)


def seat_table(
    count: BlackjackCount,
    run: counting.CounterRun,
    rounds_per_hour: float = 60.0,
    table_maximum: float = 100.0,
) -> pd.DataFrame:
    """The counter where it sits: heads-up, in the first and the last seat of a table of
    ``run.players``, and in the middle seat under rotation (``run.turn_rounds`` rounds at
    the bank each, 2 if 0), always banking in its turn and banking only at or below the
    ``run.bank_at`` true count (0 if not given). Every scenario from the same seed.

    Parameters
    ----------
    count : BlackjackCount
        As :func:`counter_simulation` takes it.
    run : gamecore.counting.CounterRun
        As :func:`counter_simulation` takes it (its players, seat, rotation and bank
        threshold replaced by each scenario's).
    rounds_per_hour : float, default 60
        Rounds dealt an hour, for the money won per hour.
    table_maximum : float, default 100
        Money per hour takes the ramp's top bet to be this much money.

    Returns
    -------
    pandas.DataFrame
        Where | Units won per 100 rounds | SE | Money per hour at the table maximum | SE
        (money per hour) | Rounds banked per 100 rounds | the flat bettor beside it, per
        round | SE (:func:`gamecore.countresults.scenario_table`).
    """
    rules = _checked(count, run)
    unit = countresults.money_unit(table_maximum, run.ramp)
    players, turn = run.players, run.turn_rounds or 2
    bank_at = 0.0 if run.bank_at is None else run.bank_at
    middle = (players + 1) // 2
    scenarios = [
        ("heads-up", (1, 1, 0, None)),
        (f"seat 1 of {players}", (players, 1, 0, None)),
        (f"seat {players} of {players}", (players, players, 0, None)),
        (f"seat {middle} of {players}, rotation, always banks", (players, middle, turn, None)),
        (f"seat {middle} of {players}, rotation, banks at true count ≤ {bank_at:g}",
         (players, middle, turn, bank_at)),
    ]  # fmt: skip
    summaries = {
        where: _counter(
            count, run.replace(players=table, seat=seat, turn_rounds=turns, bank_at=at), rules
        ).summary(rounds_per_hour)
        for where, (table, seat, turns, at) in scenarios
    }
    return countresults.scenario_table(summaries, unit)


# ---------------------------------------------------------------------------------------
# The upper bound: a bettor who knows the exact EV of the remaining shoe
# ---------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class PerfectInformationResult:
    """The perfect-information bettor on a sample of shoes, round by round."""

    rules: StandardBlackjackRules
    chart: str
    ramp: tuple[float, ...]
    dealing: Dealing
    shoes: int
    seed: int
    rounds: pd.DataFrame  # Shoe | True count | Exact EV | Result, one row per round

    def summary(self, rounds_per_hour: float = 60.0) -> dict[str, float]:
        """The bettor's figures (:func:`gamecore.countresults.perfect_information_summary`), as
        :meth:`gamecore.c21_baccarat.counting.PerfectInformationResult.summary` gives them.

        Parameters
        ----------
        rounds_per_hour : float, default 60
            Rounds dealt an hour, for the money won per hour.

        Returns
        -------
        dict of str to float
            Figure name -> value: rounds and shoes dealt, the share of rounds whose
            remaining shoe has a positive exact EV, units won per 100 rounds (realised, and
            expected from the exact EVs of the rounds bet) with their SEs, expected units
            per hour, and the correlation of the true count with the exact EV (with a
            bootstrap SE).
        """
        return countresults.perfect_information_summary(self.rounds, self.ramp, rounds_per_hour)


#: The perfect-information bettor's most shoes: every round it deals is a full exact
#: analysis (``count --oracle-shoes`` is refused past it before any work).
MAX_ORACLE_SHOES = 1_000


def perfect_information_simulation(
    count: BlackjackCount, run: counting.CounterRun
) -> PerfectInformationResult:
    """Deal ``run.shoes`` shoes as :func:`counter_simulation` does (the chart alone, no
    index plays; in ``run.seat`` of ``run.players``) and solve the remaining shoe of every
    round exactly (the chart's EV on it, the engine run afresh): the bettor bets the ramp's
    top when that EV is positive and one unit otherwise, an upper bound no count with that
    spread can beat with this chart. Each round's true count under the count's tags is kept
    beside its exact EV. A few shoes: every round is a full exact analysis.

    Parameters
    ----------
    count : BlackjackCount
        As :func:`counter_simulation` takes it.
    run : gamecore.counting.CounterRun
        At most 1,000 shoes a stage; the trigger, the index plays and the rotation do not
        apply, and the run is serial. With ``run.max_shoes``, grown in seeded stages until
        its bound's SE is smaller than the bound (:mod:`gamecore.bounds`) or that many
        shoes are dealt.

    Returns
    -------
    PerfectInformationResult
        The bettor's rounds: shoe, true count, exact EV, result.
    """
    rules = _checked(count, run)
    if run.max_shoes is not None:  # grown until its bound holds (gamecore.bounds)
        return bounds.grown(perfect_information_simulation, count, run)
    shoes, seed, ramp = run.shoes, run.seed, run.ramp
    if shoes > MAX_ORACLE_SHOES:
        raise GamecoreError(
            f"shoes must be at most {MAX_ORACLE_SHOES:,} (each round is solved), got {shoes:,}"
        )
    players = check_players(rules, run.players)
    shoe, dealing = _shoe_and_dealing(count, rules, run.dealing, "the perfect-information bettor")
    dealt = _dealt(count, rules, dealing, 0.0, ramp, index_plays=False)._replace(
        seats=players, counter_seat=run.seat - 1
    )
    tallies = new_counter_tallies(record_rounds=shoes * (shoe.size // 4 + 1))
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    inputs = RoundInputs(rule_codes(rules), chart_policy(count.chart, rules), 0.0, dealt)
    outputs = RoundOutputs(new_tallies(), tallies, new_scratch(players))
    simulate_shoes(rng, shoe, shoes, inputs, outputs)
    record = tallies.record[: int(tallies.stats[C_RECORDED])]
    evs = [
        chart_ev(Engine(rules, left.astype(np.int64)), count.chart)[0] for left in record[:, :10]
    ]
    frame = pd.DataFrame(
        {
            "Shoe": record[:, R_SHOE].astype(int),
            "True count": record[:, R_TRUE_COUNT],
            "Exact EV": evs,
            "Result": record[:, R_RESULT],
        }
    )
    return PerfectInformationResult(count.rules, count.strategy, ramp, dealing, shoes, seed, frame)
