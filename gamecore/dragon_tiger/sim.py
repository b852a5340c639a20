"""Monte Carlo simulator of Dragon Tiger, the exact analysis's twin.

Central idea
------------
The simulator deals real cards off a freshly shuffled full shoe every round (what the exact
figures describe) and tallies each round into the *same* breakdown as the exact engine
(Dragon's rank, Tiger's rank, same suit), so every bet is settled by the same paytables
(:func:`gamecore.wagers.settle`): an exact figure and its twin differ only in how the rounds
were made. A card is held as one integer, ``rank * 4 + suit`` (the card model's order); a
round swaps two uniformly chosen cards to the front of the shoe (a partial Fisher-Yates
draw, :func:`gamecore.dealing.draw_card`).

Work is cut into fixed chunks of rounds, each seeded from its own child of
``numpy.random.SeedSequence(seed)`` (:mod:`gamecore.parallel`); tallies are integers added in
chunk order, so a result depends on the seed only, never on threads or machines.
"""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING, Any

import numpy as np

from gamecore import cards
from gamecore._jit import kernel
from gamecore.cards import validate_decks
from gamecore.dealing import draw_card
from gamecore.dragon_tiger.exact import (
    BREAKDOWN_SHAPE,
    EVENTS,
    OUTCOME_TITLES,
    DragonTigerAnalysis,
    exact,
)
from gamecore.dragon_tiger.rules import DragonTigerRules, check_rules
from gamecore.errors import GamecoreError
from gamecore.parallel import Chunk, make_chunks, run_chunks, validate_seed, validate_trials
from gamecore.twins import frequency_twin, mean_twin, twin_table
from gamecore.wagers import WagerAnalysis, settle, simulated_figures, wager_named

if TYPE_CHECKING:  # pandas is imported where a table is built, not with the module
    import pandas as pd

#: Rounds per chunk. Fixed, so results never depend on how many threads share the work.
CHUNK_ROUNDS = 1 << 20

#: A simulation's dealing, as its JSON says: a full shoe every round.
DEALING = {"mode": "fresh"}


@kernel
def _simulate_fresh(rng, shoe, rounds):
    """Tally ``rounds`` rounds, each dealt off the full shoe ``shoe`` (card codes
    ``rank * 4 + suit``), into int64 counts of shape (13, 13, 2)."""
    counts = np.zeros((13, 13, 2), dtype=np.int64)
    # The array stays a permutation of the full shoe, so each round's two cards are a
    # uniformly random ordered pair drawn without replacement from the full shoe.
    deck = shoe.copy()
    for _ in range(rounds):
        dragon = draw_card(rng, deck, 0, True)
        tiger = draw_card(rng, deck, 1, True)
        same_suit = 1 if dragon % 4 == tiger % 4 else 0
        counts[dragon // 4, tiger // 4, same_suit] += 1
    return counts


def _run_chunk(job_and_chunk: tuple[np.ndarray, Chunk]) -> np.ndarray:
    shoe, chunk = job_and_chunk
    return _simulate_fresh(chunk.generator(), shoe, chunk.size)


@dataclasses.dataclass(frozen=True)
class DragonTigerSimulation:
    """Simulated rounds tallied into the exact engine's breakdown.

    Attributes
    ----------
    rules, rounds, seed
        What was simulated.
    counts
        int64 array of :data:`gamecore.dragon_tiger.exact.BREAKDOWN_SHAPE`: rounds dealing
        each (Dragon's rank, Tiger's rank, same suit).
    """

    rules: DragonTigerRules
    rounds: int
    seed: int
    counts: np.ndarray

    def wager(self, name: str) -> WagerAnalysis:
        """The bet ``name`` settled over the simulated rounds.

        Parameters
        ----------
        name : str
            A bet's name in ``rules.wagers()``.

        Returns
        -------
        WagerAnalysis
            As the exact engine's (:func:`gamecore.wagers.settle`), with rounds for
            combinations and frequencies for probabilities.
        """
        return settle(
            wager_named(self.rules.wagers(), name),
            EVENTS,
            self.counts.astype(object),
            self.rounds,
            True,
        )

    def bets(self) -> dict[str, dict[str, float]]:
        """Every bet's simulated EV with its standard error.

        Returns
        -------
        dict of str to dict
            Bet name -> ``rounds``, ``sum`` and ``sum_of_squares`` of the net results in
            units wagered, their ``mean`` (the EV's twin) and its standard error ``se``.
        """
        return {w.name: simulated_figures(self.wager(w.name)) for w in self.rules.wagers()}

    def outcome_counts(self) -> dict[str, int]:
        """Rounds ending in each outcome of the round.

        Returns
        -------
        dict of str to int
            Each outcome of :data:`gamecore.dragon_tiger.exact.OUTCOME_TITLES` -> its rounds.
        """
        return {
            name: int(self.counts[EVENTS[event]].sum())
            for name, (_, event) in OUTCOME_TITLES.items()
        }

    def to_dict(self) -> dict[str, Any]:
        """The JSON document of ``gamecore simulate dragon_tiger`` (the baccarat games'
        schema, docs/json.md).

        Returns
        -------
        dict
            ``game``, ``rounds``, ``seed``, ``dealing`` (a fresh shoe every round), ``bets``
            (as :meth:`bets`), ``outcomes`` (rounds of each), ``rules``.
        """
        return {
            "game": self.rules.game,
            "rounds": self.rounds,
            "seed": self.seed,
            "dealing": dict(DEALING),
            "bets": self.bets(),
            "outcomes": {name: {"count": c} for name, c in self.outcome_counts().items()},
            "rules": self.rules.to_dict(),
        }


def simulate(
    rules: DragonTigerRules,
    rounds: int,
    seed: int,
    threads: int | None = None,
    dask: str | None = None,
    progress: bool | None = None,
) -> DragonTigerSimulation:
    """Simulate ``rounds`` rounds, each off a freshly shuffled full shoe.

    Parameters
    ----------
    rules : DragonTigerRules
        The rule set (its ``decks`` sets the shoe; its paytables settle the bets).
    rounds : int
        Rounds to deal, a positive integer.
    seed : int
        A non-negative integer; with ``rounds`` it fixes the result exactly.
    threads, dask, progress
        Where the chunks run (:func:`gamecore.parallel.run_chunks`); never the result.

    Returns
    -------
    DragonTigerSimulation
        The rounds tallied into the exact engine's breakdown.

    Examples
    --------
    >>> simulate(DragonTigerRules(decks=8), rounds=10_000, seed=1, progress=False).rounds
    10000
    """
    rules = check_rules(rules)
    rounds = validate_trials(rounds, "rounds")
    seed = validate_seed(seed)
    results = run_chunks(
        _run_chunk,
        cards.standard(rules.decks).card_codes(),
        make_chunks(rounds, CHUNK_ROUNDS, seed),
        threads=threads,
        dask=dask,
        progress=progress,
        description=f"{rules.game} fresh",
    )
    counts = np.zeros(BREAKDOWN_SHAPE, dtype=np.int64)
    for chunk_counts in results:  # in chunk order: deterministic
        counts += chunk_counts
    return DragonTigerSimulation(rules, rounds, seed, counts)


def cross_check(exact_analysis: DragonTigerAnalysis, fresh: DragonTigerSimulation) -> pd.DataFrame:
    """Each bet's EV and each outcome's probability beside their simulated twins.

    Parameters
    ----------
    exact_analysis : DragonTigerAnalysis
        The exact figures (a finite shoe).
    fresh : DragonTigerSimulation
        Rounds simulated under the same game and shoe.

    Returns
    -------
    pandas.DataFrame
        :func:`gamecore.twins.twin_table`: Figure | Exact | Simulated | SE | z | Bet |
        Exact SD | Simulated SD | Rounds (the SDs on the bets' rows).
    """
    if fresh.rules.decks != exact_analysis.rules.decks or not exact_analysis.exact_counts:
        raise GamecoreError("the cross-check compares a finite shoe with rounds dealt from it")
    rows = []
    # The same rounds settled under the exact figures' paytables (same game, same shoe).
    simulated = dataclasses.replace(fresh, rules=exact_analysis.rules).bets()
    for name, analysis in exact_analysis.wagers().items():
        rows.append(
            {
                "Figure": f"{analysis.wager.title} EV",
                # SE under the exact figure: its SD over root n (gamecore.twins)
                **mean_twin(
                    float(analysis.expected_value), analysis.sd, simulated[name]["mean"],
                    fresh.rounds,
                ),  # fmt: skip
                "Bet": name,
                "Exact SD": analysis.sd,
                "Simulated SD": simulated[name]["se"] * math.sqrt(fresh.rounds),
                "Rounds": fresh.rounds,
            }
        )
    counts = fresh.outcome_counts()
    for name, (title, event) in OUTCOME_TITLES.items():
        p = exact_analysis.probability(event)
        rows.append(
            {"Figure": f"P({title})", **frequency_twin(p, counts[name], fresh.rounds),
             "Rounds": fresh.rounds}
        )  # fmt: skip
    return twin_table(rows)


def deck_sweep_cross_check(
    rules: DragonTigerRules, decks: int, rounds: int, seed: int, threads: int | None = None
) -> pd.DataFrame:
    """The simulated twin of every finite row of :func:`gamecore.dragon_tiger.deck_sweep`.

    Parameters
    ----------
    rules : DragonTigerRules
        The rule set; its ``decks`` is replaced by each deck count.
    decks : int
        The largest deck count: the sweep runs 1..decks.
    rounds : int
        Rounds simulated per deck count.
    seed : int
        The seed of 1 deck; ``seed + d - 1`` seeds ``d`` decks.
    threads : int, optional
        Threads on this machine (never changes the result).

    Returns
    -------
    pandas.DataFrame
        The rows of :func:`cross_check` for each deck count, with a Decks column.
    """
    import pandas as pd

    parts = []
    for d in range(1, validate_decks(decks, "deck sweep's largest deck count") + 1):
        variant = rules.replace(decks=d)
        check = cross_check(
            exact(variant), simulate(variant, rounds, seed + d - 1, threads, progress=False)
        )
        check["Figure"] = check["Figure"] + f", {d} deck{'s' if d > 1 else ''}"
        check["Decks"] = d
        parts.append(check)
    return pd.concat(parts, ignore_index=True)
