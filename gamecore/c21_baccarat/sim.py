"""Monte Carlo simulator of 21st Century Baccarat: heads-up and the full table.

Central idea
------------
The simulator plays the same strategy objects the exact engine evaluates
(:class:`gamecore.c21_baccarat.PlayerStrategy` and ``DealerStrategy``: a probability of
drawing at each decision) and tallies every hand into the exact engine's outcome categories,
so the heads-up figures have simulated twins, and a table of up to eight players against one
P/D, all dealt from one shoe, shows what the heads-up analysis cannot: whether seat order
matters when the P/D covers all action.

Each round deals the P/D's up and hole cards, two cards to every seat, then the seats' draws
in seat order and the P/D's draw. With several seats the P/D's strategy may not depend on
whether "the player" drew (that is defined heads-up only), so it must be the same either way.
Dealing, chunking and seeding follow :mod:`gamecore.dealing` and :mod:`gamecore.parallel`.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from gamecore._jit import kernel
from gamecore.banking import Bank, BankFigures, BankTallies, tally_rounds
from gamecore.c21_baccarat.exact import C21Analysis, StrategyPairResult, count_deals, settle
from gamecore.c21_baccarat.rules import (
    CLASSES,
    HAND_LABELS,
    OUTCOMES,
    PAYOFF,
    C21BaccaratRules,
    c21_shoe,
)
from gamecore.c21_baccarat.strategies import (
    DealerStrategy,
    PlayerStrategy,
    house_way_dealer,
    house_way_player,
)
from gamecore.dealing import Dealing, draw_card, shuffle
from gamecore.errors import GamecoreError, shown
from gamecore.parallel import Run, sum_tallies, validate_count
from gamecore.twins import frequency_twin, twin_table

CHUNK_ROUNDS = 1 << 18
MAX_SEATS = 8
REASONS = ("joker up card", "P/D two-card 9 or Natural", "drawing round")


@kernel
def _hand(first, second):
    """(hand index, value, natural) of a two-card hand; see c21_baccarat.PLAYER_HANDS."""
    if first == 10 and second == 10:
        return 11, 9, True
    if first == 10 or second == 10:
        return 10, 9, False
    total = (first + second) % 10
    return total, total, False


@kernel
def _decide(rng, probability):
    if probability >= 1.0:
        return True
    if probability <= 0.0:
        return False
    return rng.random() < probability


#: The facts :func:`play_table_round` returns, by index: why the round ended (an index of
#: REASONS), the up card, whether seat 1 drew, whether any seat drew, the P/D's two-card
#: total, whether the P/D drew.
FACT_REASON, FACT_UP, FACT_FIRST_DREW, FACT_DREW, FACT_PD_TOTAL, FACT_PD_DREW = range(6)


@kernel(inline=True)
def play_table_round(rng, cards, position, fresh, player_draw, dealer_draw, zero_ties, outcome):
    """Deal one round at ``position`` of ``cards`` (drawing fresh where ``fresh``) to every
    seat of ``outcome``: the P/D's up and hole cards, two cards to every seat, the seats'
    draws in seat order, the P/D's draw. Writes each seat's outcome (an index of OUTCOMES)
    into ``outcome``; returns the position after the round and its facts (FACT_*). The one
    model of a round every simulation of the game deals."""
    seats = outcome.size
    up = draw_card(rng, cards, position, fresh)
    hole = draw_card(rng, cards, position + 1, fresh)
    position += 2
    for s in range(seats):  # every seat's two cards, as dealt; kept as (hand, value, natural)
        hand, value, natural = _hand(
            draw_card(rng, cards, position, fresh), draw_card(rng, cards, position + 1, fresh)
        )
        position += 2
        outcome[s] = (hand * 16 + value) * 2 + (1 if natural else 0)
    _pd_hand, pd_value, pd_natural = _hand(up, hole)
    pd_total = pd_value
    first_drew = 0
    pd_drew = 0
    concluded = up == 10 or pd_value == 9
    reason = (0 if up == 10 else 1) if concluded else 2
    drew = False
    for s in range(seats):
        hand, value = outcome[s] // 32, (outcome[s] // 2) % 16
        if not concluded and hand < 10 and _decide(rng, player_draw[up, hand]):
            third = draw_card(rng, cards, position, fresh)
            position += 1
            value = 9 if third == 10 else (value + third) % 10
            drew = True
            if s == 0:
                first_drew = 1
        outcome[s] = (hand * 16 + value) * 2 + outcome[s] % 2
    if not concluded and _decide(rng, dealer_draw[up, 1 if drew else 0, pd_value]):
        third = draw_card(rng, cards, position, fresh)
        position += 1
        pd_value = 9 if third == 10 else (pd_value + third) % 10
        pd_drew = 1
    for s in range(seats):
        value, natural = (outcome[s] // 2) % 16, outcome[s] % 2 == 1
        outcome[s] = settle(value, natural, pd_value, pd_natural and concluded, zero_ties)
    return position, (reason, up, first_drew, 1 if drew else 0, pd_total, pd_drew)


class _Deal(NamedTuple):
    """A table's deal: the shoe's cards, the seats, fresh shoes or a cut card, the draw
    probabilities, whether the P/D wins ties on zero."""

    shoe: np.ndarray
    seats: int
    fresh: bool
    penetration: int
    player_draw: np.ndarray
    dealer_draw: np.ndarray
    zero_ties: bool


@kernel
def _simulate(rng, deal, rounds, results):
    """Tally ``rounds`` rounds of ``deal``.

    Returns counts[seat, reason, outcome], and for seat 1 in rounds that reach the draw:
    player_cells[up, hand, player action, outcome] and
    pd_cells[up, player drew, P/D total, P/D action, outcome], the simulated twins of the
    advantage charts. With ``results`` of ``rounds`` rows, each round's result of every seat
    (units of its bet) is kept there too (:mod:`gamecore.banking`).
    """
    seats, fresh, penetration = deal.seats, deal.fresh, deal.penetration
    player_draw, dealer_draw, zero_ties = deal.player_draw, deal.dealer_draw, deal.zero_ties
    counts = np.zeros((seats, 3, 7), dtype=np.int64)
    player_cells = np.zeros((10, 12, 2, 7), dtype=np.int64)
    pd_cells = np.zeros((10, 2, 9, 2, 7), dtype=np.int64)
    cards = deal.shoe.copy()
    n = cards.size
    cut = n - penetration
    position = n if not fresh else 0
    outcome = np.zeros(seats, dtype=np.int64)
    for r in range(rounds):
        if fresh:
            position = 0
        elif position >= cut:
            shuffle(rng, cards)
            position = 0
        start = position
        position, facts = play_table_round(
            rng, cards, position, fresh, player_draw, dealer_draw, zero_ties, outcome
        )
        reason = facts[FACT_REASON]
        keep = results.shape[0] > 0
        for s in range(seats):
            counts[s, reason, outcome[s]] += 1
            if keep:
                results[r, s] = PAYOFF[outcome[s]]
        if reason == 2:
            up = facts[FACT_UP]
            first_hand, _v, _n = _hand(cards[start + 2], cards[start + 3])  # seat 1's cards
            o = outcome[0]
            player_cells[up, first_hand, facts[FACT_FIRST_DREW], o] += 1
            pd_cells[up, facts[FACT_DREW], facts[FACT_PD_TOTAL], facts[FACT_PD_DREW], o] += 1
    return counts, player_cells, pd_cells


@dataclasses.dataclass(frozen=True)
class C21Simulation:
    """Simulated rounds tallied per seat into the exact engine's outcome categories."""

    rules: C21BaccaratRules
    player: str
    dealer: str
    seats: int
    dealing: Dealing
    rounds: int
    seed: int
    counts: np.ndarray  # (seats, reason, outcome)
    player_cells: np.ndarray  # (up, hand, player action, outcome), seat 1, drawing rounds
    pd_cells: np.ndarray  # (up, player drew, P/D total, P/D action, outcome), seat 1

    def _seat_stats(self, counts: np.ndarray) -> dict[str, float]:
        hands = int(counts.sum())
        by_outcome = counts.sum(axis=0)
        net = int((by_outcome * PAYOFF).sum())
        squares = int((by_outcome * np.abs(PAYOFF)).sum())
        mean = net / hands
        variance = (squares - hands * mean**2) / max(hands - 1, 1)
        return {
            "hands": hands,
            "sum": net,
            "sum_of_squares": squares,
            "mean": mean,
            "se": math.sqrt(variance / hands),
        }

    def by_seat(self) -> pd.DataFrame:
        """Seat | hands | player EV | SE; the P/D's edge on each seat is minus the EV."""
        rows = [{"Seat": s + 1, **self._seat_stats(self.counts[s])} for s in range(self.seats)]
        frame = pd.DataFrame(rows).rename(
            columns={"hands": "Hands", "mean": "Player EV", "se": "SE"}
        )
        return frame[["Seat", "Hands", "Player EV", "SE"]]

    def pd_edge(self) -> dict[str, float]:
        """The P/D's win per unit of action over all seats (seats are correlated within a
        round, so the standard error is from the per-round totals: see by_seat for each)."""
        stats = self._seat_stats(self.counts.sum(axis=0, keepdims=True).reshape(-1, 7))
        return {"pd_edge": -stats["mean"], "hands": stats["hands"]}

    def outcome_frequencies(self) -> dict[tuple[str, str], float]:
        total = self.counts.sum()
        per = self.counts.sum(axis=0)
        return {(REASONS[r], OUTCOMES[o]): per[r, o] / total for r in range(3) for o in range(7)}

    def to_dict(self) -> dict[str, Any]:
        seat_stats = {f"seat_{s + 1}": self._seat_stats(self.counts[s]) for s in range(self.seats)}
        all_seats = self._seat_stats(self.counts.sum(axis=0, keepdims=True).reshape(-1, 7))
        per = self.counts.sum(axis=(0, 1))
        return {
            "game": self.rules.game,
            "rounds": self.rounds,
            "seed": self.seed,
            "players": self.seats,
            "player_strategy": self.player,
            "pd_strategy": self.dealer,
            "dealing": self.dealing.to_dict(),
            "bets": {"player": all_seats, **seat_stats},
            "outcomes": {name: {"count": int(per[o])} for o, name in enumerate(OUTCOMES)},
            "rules": self.rules.to_dict(),
        }


def simulate(
    rules: C21BaccaratRules,
    run: Run,
    players: int = 1,
    player: PlayerStrategy | None = None,
    dealer: DealerStrategy | None = None,
    dealing: Dealing | None = None,
) -> C21Simulation:
    """Simulate ``run.rounds`` rounds of ``players`` seats against the P/D.

    Parameters
    ----------
    rules, run
        The rule set; rounds, seed and where the chunks run (:class:`gamecore.parallel.Run`).
    players
        Seats at the table, 1 to 8.
    player, dealer
        The strategies (House Way by default).
    dealing
        Fresh (a full shoe every round, default) or shoe mode with a cut card (burn
        ``"none"``: the card describes no burn).

    Returns
    -------
    C21Simulation
        The rounds tallied per seat into the exact engine's outcome categories.
    """
    player, dealer, job = _checked_run(rules, run, players, player, dealer, dealing)
    results = sum_tallies(run.run_chunks(_run_chunk, job, CHUNK_ROUNDS, "c21_baccarat"))
    return C21Simulation(
        rules, player.name, dealer.name, players, job.dealing, run.rounds, run.seed, *results
    )


class _Job(NamedTuple):
    deal: _Deal
    dealing: Dealing


def _checked_run(rules, run, players, player, dealer, dealing):
    """A simulation's checked inputs, House Way by default and a shuffle every round unless
    ``dealing``: (player, dealer, the chunks' :class:`_Job`)."""
    if not isinstance(rules, C21BaccaratRules):
        raise GamecoreError(f"rules must be C21BaccaratRules, got {type(rules).__name__}")
    if not isinstance(run, Run):
        raise GamecoreError(f"run must be a Run (rounds, seed, ...), got {shown(run)}")
    player = house_way_player(rules) if player is None else player
    dealer = house_way_dealer(rules) if dealer is None else dealer
    dealing = Dealing.given(dealing, Dealing(burn="none"))
    shoe, player_draw, dealer_draw, dealing = table_setup(rules, players, player, dealer, dealing)
    deal = _Deal(
        shoe, int(players), dealing.mode == "fresh", dealing.penetration, player_draw,
        dealer_draw, rules.pd_wins_ties_on_zero,
    )  # fmt: skip
    return player, dealer, _Job(deal, dealing)


def table_setup(rules, players, player, dealer, dealing):
    """The checked pieces of a table of ``players`` seats: (the shoe's cards by class, the
    players' and the P/D's draw probabilities as floats, the dealing procedure)."""
    players = validate_count(players, "players")
    if players > MAX_SEATS:
        raise GamecoreError(f"players must be from 1 to {MAX_SEATS}, got {players}")
    if not isinstance(player, PlayerStrategy):
        raise GamecoreError(f"player must be a PlayerStrategy, got {shown(player)}")
    if not isinstance(dealer, DealerStrategy):
        raise GamecoreError(f"dealer must be a DealerStrategy, got {shown(dealer)}")
    dealer_draw = dealer.draw.astype(float)
    if players > 1 and not np.array_equal(dealer_draw[:, 0], dealer_draw[:, 1]):
        raise GamecoreError(
            "a P/D strategy that depends on whether the player drew is defined heads-up only"
        )
    shoe = np.repeat(
        np.arange(CLASSES, dtype=np.int64), c21_shoe(rules.decks, rules.jokers_per_deck)
    )
    largest = largest_round(players)
    if shoe.size < largest:
        raise GamecoreError(
            f"a {shoe.size}-card shoe cannot deal a round to {players} players (a round uses "
            f"up to {largest} cards); use more decks or fewer players"
        )
    if dealing.mode == "shoe":
        if dealing.burn != "none":
            raise GamecoreError(
                f"c21_baccarat is dealt without a burn (its rule card describes none), got "
                f"burn={shown(dealing.burn)}; give burn='none'"
            )
        check_cut_card(shoe.size, players, dealing.penetration, rules.decks)
    return shoe, player.draw.astype(float), dealer_draw, dealing


def largest_round(players: int) -> int:
    """The most cards a round can use: the P/D's two, two per player, a third card each."""
    return 2 + 2 * players + players + 1


def check_cut_card(cards: int, players: int, penetration: int, decks: int) -> None:
    """A cut card must leave a whole round before it (so a started round always finishes
    off the shoe) and at least one behind it; say what fits when it cannot."""
    largest = largest_round(players)
    if cards < 2 * largest:
        fitting = max(p for p in range(MAX_SEATS + 1) if cards >= 2 * largest_round(p))
        shoe = f"a {cards}-card shoe ({decks} deck{'s' if decks != 1 else ''})"
        advice = (
            f"at most {fitting} players fit, or use more decks" if fitting else "use more decks"
        )
        raise GamecoreError(
            f"{shoe} is too small to deal {players} players to a cut card: a round uses up to "
            f"{largest} cards, and the cut card needs that many on each side; {advice}"
        )
    if not largest <= penetration <= cards - largest:
        raise GamecoreError(
            f"penetration must be from {largest} to {cards - largest} cards for {players} "
            f"players and a {cards}-card shoe, got {penetration}"
        )


def _run_chunk(job_and_chunk, keep_results: bool = False):
    job, chunk = job_and_chunk
    results = np.zeros((chunk.size if keep_results else 0, job.deal.seats))
    tallies = _simulate(chunk.generator(), job.deal, chunk.size, results)
    return (tallies, results) if keep_results else tallies


# ---------------------------------------------------------------------------------------
# The full table: what the P/D's seat carries (gamecore.banking)
# ---------------------------------------------------------------------------------------

#: Rounds per chunk of a table run, about (a whole number of shifts).
TABLE_CHUNK_ROUNDS = 1 << 16


@dataclasses.dataclass(frozen=True)
class C21TableSimulation:
    """A full table's rounds and what they say about the P/D's seat. The card makes a round
    the P/D cannot cover "no action", so the banker is ruined below every wager on the
    table (``bank.ruin_below`` = the players) and the stake always covers."""

    rules: C21BaccaratRules
    player: str
    dealer: str
    players: int
    dealing: Dealing
    rounds: int
    seed: int
    figures: BankFigures

    def cross_check(self, exact: StrategyPairResult) -> pd.DataFrame:
        """Each seat's EV and SD against the heads-up exact figures of the same strategy pair
        (a shuffle every round: the other seats' cards change no card's chance at any draw,
        as :mod:`gamecore.blackjack.table` argues), the P/D's EV, and each person's result
        under rotation (exactly 0)."""
        if not isinstance(exact, StrategyPairResult):
            raise GamecoreError(f"exact must be a StrategyPairResult, got {shown(exact)}")
        if (exact.player, exact.dealer) != (self.player, self.dealer):
            raise GamecoreError("the exact result and the table play different strategies")
        if self.dealing.mode != "fresh":
            raise GamecoreError(
                "the exact figures describe a shuffle every round; cross-check a table "
                "simulated with Dealing(mode='fresh', burn='none')"
            )
        return self.figures.exact_twins(float(exact.player_ev), exact.sd)


def simulate_table(
    rules: C21BaccaratRules,
    players: int,
    run: Run,
    dealing: Dealing | None = None,
    bank: Bank | None = None,
    player: PlayerStrategy | None = None,
    dealer: DealerStrategy | None = None,
) -> C21TableSimulation:
    """Deal ``run.rounds`` rounds of ``players`` seats and the P/D from one shoe (House Way
    by default; a shuffle every round unless ``dealing``), one unit each, and read what the
    P/D's seat carries. The banker is ruined below the players' wagers (the card's "no
    action": ``bank.ruin_below`` is ``players``, a bankroll below it refused). Fixed chunks,
    each a whole number of shifts: the result depends on the seed only, not on the threads.

    Parameters
    ----------
    rules, players, dealing, player, dealer
        As :func:`simulate` takes them.
    run
        Rounds, seed and where the chunks run.
    bank
        The P/D's shift and bankrolls (:class:`gamecore.banking.Bank`).

    Returns
    -------
    C21TableSimulation
        :class:`gamecore.banking.BankFigures`: each seat's SD, the covariance between
        seats, the P/D's SD, the risk of ruin for ``bank``'s bankrolls, rotation.
    """
    player, dealer, job = _checked_run(rules, run, players, player, dealer, dealing)
    bank = Bank() if bank is None else bank
    if not isinstance(bank, Bank):
        raise GamecoreError(f"bank must be a Bank, got {shown(bank)}")
    # "No action" unless the P/D covers every wager: ruined below them, the stake covers.
    bank = dataclasses.replace(bank, stake=math.inf, ruin_below=float(players))
    chunk = bank.shift_rounds * max(1, TABLE_CHUNK_ROUNDS // bank.shift_rounds)
    results = run.run_chunks(_run_table_chunk, (job, bank), chunk, "c21_baccarat table")
    figures = BankFigures(players, bank, BankTallies(*sum_tallies(results)))
    return C21TableSimulation(
        rules, player.name, dealer.name, players, job.dealing, run.rounds, run.seed, figures
    )


def _run_table_chunk(job_and_chunk):
    (job, bank), chunk = job_and_chunk
    _tallies, results = _run_chunk((job, chunk), keep_results=True)
    return tuple(tally_rounds(results, bank))


def cross_check(exact: StrategyPairResult, simulation: C21Simulation) -> pd.DataFrame:
    """Exact heads-up figures against a fresh-shoe simulation of the same strategy pair
    (:func:`gamecore.twins.twin_table`: Figure | Exact | Simulated | SE | z | Hands)."""
    if simulation.dealing.mode != "fresh":
        raise GamecoreError("the cross-check compares the exact figures with fresh-shoe rounds")
    if (exact.player, exact.dealer) != (simulation.player, simulation.dealer):
        raise GamecoreError("the exact result and the simulation play different strategies")
    hands = int(simulation.counts.sum())
    frequencies = simulation.outcome_frequencies()
    stats = simulation._seat_stats(simulation.counts.sum(axis=0, keepdims=True).reshape(-1, 7))
    rows = [
        {
            "Figure": "Player EV",
            "Exact": float(exact.player_ev),
            "Simulated": stats["mean"],
            "SE": stats["se"],
            "Hands": hands,
        }
    ]
    for key, probability in exact.outcome_probabilities.items():
        p = float(probability)
        if p == 0:
            continue
        twin = frequency_twin(p, 0, hands) | {"Simulated": frequencies[key]}
        rows.append({"Figure": f"P({key[0]}: {key[1]})", **twin, "Hands": hands})
    return twin_table(rows)


def seat_cross_check(exact: StrategyPairResult, simulation: C21Simulation) -> pd.DataFrame:
    """Each seat of a full-table simulation beside the heads-up exact EV of the same strategy
    pair (Figure | Exact | Simulated | SE | z | Seat | Hands): a seat whose EV departs from the
    heads-up EV shows that seat order matters."""
    if (exact.player, exact.dealer) != (simulation.player, simulation.dealer):
        raise GamecoreError("the exact result and the simulation play different strategies")
    rows = [
        {
            "Figure": f"Player EV, seat {seat['Seat']} (exact: heads-up)",
            "Exact": float(exact.player_ev),
            "Simulated": seat["Player EV"],
            "SE": seat["SE"],
            "Seat": seat["Seat"],
            "Hands": seat["Hands"],
        }
        for seat in simulation.by_seat().to_dict("records")
    ]
    return twin_table(rows)


# ---------------------------------------------------------------------------------------
# Simulated twins of the charts, the strategy table and the sweep
# ---------------------------------------------------------------------------------------


def _mean_and_se(tallies: np.ndarray) -> tuple[float, float, int]:
    """Mean net result and its standard error from outcome tallies (last axis: outcomes)."""
    n = int(tallies.sum())
    if n < 2:
        return float("nan"), float("nan"), n
    net = float((tallies * PAYOFF).sum())
    squares = float((tallies * np.abs(PAYOFF)).sum())
    mean = net / n
    return mean, math.sqrt((squares / n - mean**2) / (n - 1)), n


def _coin_flip_player(rules: C21BaccaratRules) -> PlayerStrategy:
    # Every decision, forced or not, taken at random with probability 1/2, so every cell of
    # the chart is reached with both actions; deliberately outside the rules' forced ranges.
    return PlayerStrategy("coin flip", np.full((10, 10), 0.5))


def hit_chart_cross_check(
    analysis: C21Analysis,
    dealer: DealerStrategy,
    rounds: int,
    seed: int,
    threads: int | None = None,
) -> pd.DataFrame:
    """The advantage chart against simulation.

    The player draws at random with probability 1/2 on every two-card total, so for every
    (hand, up card) the rounds that drew and those that stood estimate the EV of hitting and
    of standing (the P/D plays ``dealer``, seeing whether the player drew). Returns one row
    per cell and action (:func:`gamecore.twins.twin_table`).
    """
    simulation = simulate(
        analysis.rules, Run(rounds, seed, threads), player=_coin_flip_player(analysis.rules),
        dealer=dealer,
    )  # fmt: skip
    chart = analysis.hit_chart(dealer)
    rows = []
    for _, cell in chart.iterrows():
        if cell["P/D up card"] == "joker":
            continue
        up, hand = int(cell["P/D up card"]), HAND_LABELS.index(cell["Player hand"])
        for action, label in ((1, "hit"), (0, "stand")):
            exact = cell[f"EV {label}"]
            if exact is None or exact != exact:
                continue
            mean, se, n = _mean_and_se(simulation.player_cells[up, hand, action])
            rows.append(
                {
                    "Figure": f"EV of {label}: {cell['Player hand']} v P/D {up}",
                    "Exact": float(exact),
                    "Simulated": mean,
                    "SE": se,
                    "Player hand": cell["Player hand"],
                    "P/D up card": up,
                    "Action": label,
                    "Hands": n,
                }
            )
    return twin_table(rows)


def pd_chart_cross_check(
    analysis: C21Analysis,
    player: PlayerStrategy,
    rounds: int,
    seed: int,
    threads: int | None = None,
) -> pd.DataFrame:
    """The P/D's chart against simulation: the P/D draws at random with probability 1/2 on
    every total, the player plays ``player``; one row per (up card, total, player drew)."""
    coin = DealerStrategy("coin flip", np.full((10, 2, 9), 0.5))
    simulation = simulate(analysis.rules, Run(rounds, seed, threads), player=player, dealer=coin)
    rows = []
    for _, cell in analysis.pd_chart(player).iterrows():
        up, total, drew = int(cell["P/D up card"]), int(cell["P/D total"]), int(cell["Player drew"])
        for action, label in ((1, "hit"), (0, "stand")):
            mean, se, n = _mean_and_se(simulation.pd_cells[up, drew, total, action])
            rows.append(
                {
                    "Figure": (
                        f"P/D EV of {label}: up {up}, total {total}, "
                        f"player {'drew' if drew else 'stood'}"
                    ),
                    "Exact": float(cell[f"P/D EV {label}"]),
                    "Simulated": -mean,  # the P/D's side
                    "SE": se,
                    "P/D up card": up,
                    "P/D total": total,
                    "Player drew": bool(drew),
                    "Action": label,
                    "Hands": n,
                }
            )
    return twin_table(rows)


def strategies_cross_check(
    analysis: C21Analysis, rounds: int, seed: int, threads: int | None = None
) -> pd.DataFrame:
    """Every row of ``analysis.strategy_table()`` against a simulation of its strategy pair."""
    rules = analysis.rules
    house_p, house_d = house_way_player(rules), house_way_dealer(rules)
    eq_p, eq_d, _ = analysis.equilibrium()
    pairs = {
        "house_way": (house_p, house_d),
        "player_best_response": (analysis.best_response_player(house_d), house_d),
        "pd_best_response": (house_p, analysis.best_response_dealer(house_p)),
        "equilibrium": (eq_p, eq_d),
    }
    rows = []
    for k, (key, (player, dealer)) in enumerate(pairs.items()):
        exact = float(analysis.evaluate(player, dealer).player_ev)
        sim = simulate(rules, Run(rounds, seed + k, threads), player=player, dealer=dealer)
        mean, se, _ = _mean_and_se(sim.counts.sum(axis=(0, 1)))
        rows.append(
            {
                "Figure": f"Player EV, {player.name} v {dealer.name}",
                "Exact": exact,
                "Simulated": mean,
                "SE": se,
                "Key": key,
                "Player": player.name,
                "P/D": dealer.name,
            }
        )
    return twin_table(rows)


def sweep_cross_check(
    rules: C21BaccaratRules,
    decks: Any,
    jokers: Any,
    rounds: int,
    seed: int,
    threads: int | None = None,
) -> pd.DataFrame:
    """House Way EV by decks and jokers per deck, exact against simulated."""
    rows = []
    for k, (d, j) in enumerate((d, j) for d in decks for j in jokers):
        variant = rules.replace(decks=d, jokers_per_deck=j)
        exact = float(
            count_deals(variant)
            .evaluate(house_way_player(variant), house_way_dealer(variant))
            .player_ev
        )
        mean, se, _ = _mean_and_se(
            simulate(variant, Run(rounds, seed + k, threads)).counts.sum(axis=(0, 1))
        )
        rows.append(
            {
                "Figure": f"House Way player EV, {d} decks, {j} jokers per deck",
                "Exact": exact,
                "Simulated": mean,
                "SE": se,
                "Decks": d,
                "Jokers per deck": j,
            }
        )
    return twin_table(rows)
