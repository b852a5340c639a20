"""Monte Carlo simulator of 21st Century Baccarat: heads-up and at a table of up to eight
seats (the P/D's seat read for the bank: :mod:`.table`; the round's kernels: :mod:`.dealt`).

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

from gamecore.c21_baccarat.dealt import REASONS, Deal, simulate_rounds
from gamecore.c21_baccarat.rules import (
    CLASSES,
    OUTCOMES,
    PAYOFF,
    C21BaccaratRules,
    c21_shoe,
    check_rules,
)
from gamecore.c21_baccarat.strategies import (
    DealerStrategy,
    PlayerStrategy,
    house_way_dealer,
    house_way_player,
)
from gamecore.dealing import Dealing
from gamecore.errors import GamecoreError, shown
from gamecore.parallel import Run, sum_tallies, validate_count

CHUNK_ROUNDS = 1 << 18
MAX_SEATS = 8


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

    def seat_stats(self, counts: np.ndarray) -> dict[str, float]:
        """The player's result over tallied hands: its sums, mean and standard error.

        Parameters
        ----------
        counts : numpy.ndarray
            int64 (reasons, outcomes): hands by how the deal ended and outcome, one seat's
            (``counts[s]``) or every seat's pooled.

        Returns
        -------
        dict
            hands, sum and sum_of_squares of the net result (units of the bet), mean (the
            player's EV per unit) and se (its standard error, hands taken as independent).
        """
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
        """Each seat's simulated EV (the P/D's edge on the seat is minus it).

        Returns
        -------
        pandas.DataFrame
            Seat (1 first to act) | Hands | Player EV (per unit) | SE.
        """
        rows = [{"Seat": s + 1, **self.seat_stats(self.counts[s])} for s in range(self.seats)]
        frame = pd.DataFrame(rows).rename(
            columns={"hands": "Hands", "mean": "Player EV", "se": "SE"}
        )
        return frame[["Seat", "Hands", "Player EV", "SE"]]

    def pd_edge(self) -> dict[str, float]:
        """The P/D's win per unit of action over all seats (seats are correlated within a
        round, so the standard error is from the per-round totals: see by_seat for each).

        Returns
        -------
        dict
            pd_edge (the P/D's win per unit of action, a float) and hands (every seat's).
        """
        stats = self.seat_stats(self.counts.sum(axis=0, keepdims=True).reshape(-1, 7))
        return {"pd_edge": -stats["mean"], "hands": stats["hands"]}

    def outcome_frequencies(self) -> dict[tuple[str, str], float]:
        """The simulated twins of the exact outcome probabilities, every seat's hands pooled.

        Returns
        -------
        dict
            {(how the deal ended, outcome): frequency}, keyed as
            :attr:`StrategyPairResult.outcome_probabilities`.
        """
        total = self.counts.sum()
        per = self.counts.sum(axis=0)
        return {(REASONS[r], OUTCOMES[o]): per[r, o] / total for r in range(3) for o in range(7)}

    def to_dict(self) -> dict[str, Any]:
        """The simulation as the ``simulate`` command's JSON document (docs/json.md).

        Returns
        -------
        dict
            The run (rounds, seed, players, strategies, dealing), the player's bet pooled
            over the seats and each seat's (:meth:`seat_stats`), each outcome's count, the
            rule set.
        """
        seat_stats = {f"seat_{s + 1}": self.seat_stats(self.counts[s]) for s in range(self.seats)}
        all_seats = self.seat_stats(self.counts.sum(axis=0, keepdims=True).reshape(-1, 7))
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
    player, dealer, job = checked_run(rules, run, players, player, dealer, dealing)
    results = sum_tallies(run.run_chunks(run_chunk, job, CHUNK_ROUNDS, "c21_baccarat"))
    return C21Simulation(
        rules, player.name, dealer.name, players, job.dealing, run.rounds, run.seed, *results
    )


class _Job(NamedTuple):
    deal: Deal
    dealing: Dealing


def checked_run(rules, run, players, player, dealer, dealing):
    """A simulation's checked inputs, House Way by default and a shuffle every round unless
    ``dealing``.

    Parameters
    ----------
    rules, run, players, player, dealer, dealing
        As :func:`simulate` takes them (``None`` strategies: House Way; ``None`` dealing: a
        shuffle every round, no burn).

    Returns
    -------
    tuple
        (the player's strategy, the P/D's, the job every chunk of the run deals: the table's
        deal and the dealing procedure, ``job.dealing``).
    """
    rules = check_rules(rules)
    if not isinstance(run, Run):
        raise GamecoreError(f"run must be a Run (rounds, seed, ...), got {shown(run)}")
    player = house_way_player(rules) if player is None else player
    dealer = house_way_dealer(rules) if dealer is None else dealer
    dealing = Dealing.given(dealing, Dealing(burn="none"))
    shoe, player_draw, dealer_draw, dealing = table_setup(rules, players, player, dealer, dealing)
    deal = Deal(
        shoe, int(players), dealing.mode == "fresh", dealing.penetration, player_draw,
        dealer_draw, rules.pd_wins_ties_on_zero,
    )  # fmt: skip
    return player, dealer, _Job(deal, dealing)


def table_setup(rules, players, player, dealer, dealing):
    """The checked pieces of a table of ``players`` seats, every simulation's and counter's.

    Parameters
    ----------
    rules : C21BaccaratRules
        The rule set: its shoe (decks, jokers).
    players : int
        Seats, 1 to :data:`MAX_SEATS`; more than one needs a P/D strategy that does not
        depend on whether "the player" drew.
    player : PlayerStrategy
        Every seat's strategy.
    dealer : DealerStrategy
        The P/D's.
    dealing : gamecore.dealing.Dealing
        Fresh, or a shoe to a cut card (checked: no burn, a whole round on each side).

    Returns
    -------
    tuple
        (the shoe's cards as classes, int64 (cards,); the players' draw probabilities,
        float (10, 10); the P/D's, float (10, 2, 9); the dealing procedure).
    """
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
    """The most cards a round can use: the P/D's two, two per player, a third card each.

    Parameters
    ----------
    players : int
        Seats at the table.

    Returns
    -------
    int
        Cards.
    """
    return 2 + 2 * players + players + 1


def check_cut_card(cards: int, players: int, penetration: int, decks: int) -> None:
    """A cut card must leave a whole round before it (so a started round always finishes
    off the shoe) and at least one behind it; say what fits when it cannot.

    Parameters
    ----------
    cards : int
        Cards in the shoe.
    players : int
        Seats at the table.
    penetration : int
        Cards behind the cut card.
    decks : int
        The shoe's decks, for the message.
    """
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


def run_chunk(job_and_chunk, keep_results: bool = False):
    """Deal one chunk of a checked run's rounds (:func:`gamecore.parallel.run_chunks`'s work).

    Parameters
    ----------
    job_and_chunk : tuple
        (:func:`checked_run`'s job, a :class:`gamecore.parallel.Chunk`: its rounds and seed).
    keep_results : bool
        Keep each round's result of every seat too.

    Returns
    -------
    tuple
        The tallies (counts[seat, reason, outcome], player_cells, pd_cells: see
        :class:`C21Simulation`); with ``keep_results``, (the tallies, float (rounds, seats):
        each seat's result in units of its bet, round by round).
    """
    job, chunk = job_and_chunk
    results = np.zeros((chunk.size if keep_results else 0, job.deal.seats))
    tallies = simulate_rounds(chunk.generator(), job.deal, chunk.size, results)
    return (tallies, results) if keep_results else tallies
