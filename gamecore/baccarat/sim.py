"""Monte Carlo shoe simulator for punto banco and EZ Baccarat.

Central idea
------------
The simulator deals real cards by the *same* data the exact engine uses (the tableau arrays
of :mod:`gamecore.baccarat`) and tallies rounds into the *same* breakdown (player cards,
banker cards, player total, banker total). Every bet is then settled by the same paytables
(:func:`gamecore.wagers.settle`), so an exact figure and its simulated twin differ only by
how the rounds were produced: enumeration there, random shoes here.

Two dealing procedures (:class:`Dealing`):

* ``fresh``: every round comes off a full, freshly shuffled shoe (the High Limit procedure,
  and what the exact figures describe). Implemented as a partial Fisher-Yates draw of six
  cards from the full shoe each round.
* ``shoe``: a real shoe: Fisher-Yates shuffle, the burn (turn the first card and burn as
  many more as its value, ten for a 10-value card), rounds dealt until the cut card, which
  stands ``penetration`` cards from the end; a round is started only while the cut card has
  not come out, and the round in progress is completed; then a new shuffle.

Work is split into fixed chunks of rounds seeded from ``numpy.random.SeedSequence``
(:mod:`gamecore.parallel`); each chunk of the shoe procedure starts with a new shuffle.
Tallies are integers, so results depend on the seed only, not on threads or machines.
"""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING, Any

import numpy as np

from gamecore import rulewords
from gamecore._jit import borrowed, kernel
from gamecore.baccarat.events import BREAKDOWN_SHAPE, EVENTS, OUTCOME_TITLES
from gamecore.baccarat.exact import BaccaratAnalysis, exact
from gamecore.baccarat.rules import EZBaccaratRules, PuntoBancoRules, check_rules
from gamecore.baccarat.tableau import DRAWING
from gamecore.cards import validate_decks
from gamecore.dealing import Dealing, cards_burned, draw_card, shuffle
from gamecore.errors import GamecoreError
from gamecore.parallel import Chunk, make_chunks, run_chunks, validate_seed, validate_trials
from gamecore.shoe import baccarat_shoe
from gamecore.twins import frequency_twin, mean_twin, twin_table
from gamecore.wagers import WagerAnalysis, settle, simulated_figures, wager_named

if TYPE_CHECKING:  # pandas is imported where a table is built, not with the module
    import pandas as pd

#: Rounds per chunk. Fixed, so results never depend on how many threads share the work.
CHUNK_ROUNDS = 1 << 20


# ---------------------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------------------


@kernel(inline=True)
def play_round(rng, cards, start, fresh, player_draws, banker_draws_player_stood, banker_draws):
    """Deal one round from ``cards[start:]`` in the order P, B, P, B, then the third cards
    the tableau calls for, and say where it ended.

    The simulators' one round: :func:`simulate`'s kernels, the counting study's shoes
    (:mod:`gamecore.baccarat.counted_shoes`) and the side-bet simulator deal every round by
    it, and ``tests/test_simulation.py`` checks it against the plain-Python reference.

    A public kernel, not a face (gamecore._jit.INLINED_ACROSS_MODULES): inlined into every
    round loop, it costs no call (a called round took 60% longer a round).

    Parameters
    ----------
    rng : numpy.random.Generator
        The generator drawn from (with ``fresh`` only).
    cards : numpy.ndarray
        The shoe as point classes 0..9 (int64), positions before ``start`` dealt; with
        ``fresh`` it is permuted in place.
    start : int
        The position of the round's first card (0 with ``fresh``).
    fresh : bool
        Deal off the full shoe, each card drawn uniformly from the undealt positions
        (:func:`gamecore.dealing.draw_card`); otherwise the cards are dealt as they lie.
    player_draws, banker_draws_player_stood, banker_draws : numpy.ndarray
        The third-card tableau (:data:`gamecore.baccarat.tableau.DRAWING`).

    Returns
    -------
    tuple of int
        (player cards - 2, banker cards - 2, player total, banker total, cards used): the
        round's cell of the exact engine's breakdown, and the 4 to 6 cards it took.
    """
    p1 = draw_card(rng, cards, start, fresh)
    b1 = draw_card(rng, cards, start + 1, fresh)
    p2 = draw_card(rng, cards, start + 2, fresh)
    b2 = draw_card(rng, cards, start + 3, fresh)
    player = (p1 + p2) % 10
    banker = (b1 + b2) % 10
    if player >= 8 or banker >= 8:
        return 0, 0, player, banker, 4
    if player_draws[player]:
        third = draw_card(rng, cards, start + 4, fresh)
        player = (player + third) % 10
        if banker_draws[banker, third]:
            banker = (banker + draw_card(rng, cards, start + 5, fresh)) % 10
            return 1, 1, player, banker, 6
        return 1, 0, player, banker, 5
    if banker_draws_player_stood[banker]:
        banker = (banker + draw_card(rng, cards, start + 4, fresh)) % 10
        return 0, 1, player, banker, 5
    return 0, 0, player, banker, 4


@kernel
def _simulate_fresh(rng, shoe, rounds, drawing):
    """Tally ``rounds`` rounds, each dealt off a full shoe."""
    counts = np.zeros((2, 2, 10, 10), dtype=np.int64)
    # The array stays a permutation of the full shoe, so every round's cards are a uniformly
    # random sequence drawn without replacement from the full shoe.
    cards = shoe.copy()
    # Borrowed: the inlined round's copies of them then cost no reference counts, which
    # took four fifths of a round's time.
    tables = borrowed(drawing)
    for _ in range(rounds):
        p, b, pt, bt, _used = play_round(
            borrowed(rng),
            borrowed(cards),
            0,
            True,
            tables.player_draws,
            tables.banker_draws_player_stood,
            tables.banker_draws,
        )
        counts[p, b, pt, bt] += 1
    return counts


@kernel
def _simulate_shoe(rng, shoe, rounds, penetration, burn, drawing):
    """Tally ``rounds`` rounds dealt through real shoes; returns (counts, shuffles)."""
    counts = np.zeros((2, 2, 10, 10), dtype=np.int64)
    cards = shoe.copy()
    n = cards.size
    cut = n - penetration
    position = n  # forces a shuffle before the first round
    shuffles = 0
    tables = borrowed(drawing)  # as in _simulate_fresh
    for _ in range(rounds):
        if position >= cut:
            shuffle(rng, cards)
            shuffles += 1
            position = cards_burned(cards) if burn else 0
        p, b, pt, bt, used = play_round(
            borrowed(rng),
            borrowed(cards),
            position,
            False,
            tables.player_draws,
            tables.banker_draws_player_stood,
            tables.banker_draws,
        )
        position += used
        counts[p, b, pt, bt] += 1
    return counts, shuffles


# ---------------------------------------------------------------------------------------
# Chunk work (module level, so Dask can ship it)
# ---------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Job:
    shoe: np.ndarray
    dealing: Dealing


def _run_chunk(job_and_chunk: tuple[_Job, Chunk]) -> tuple[np.ndarray, int]:
    job, chunk = job_and_chunk
    rng = chunk.generator()
    if job.dealing.mode == "fresh":
        return _simulate_fresh(rng, job.shoe, chunk.size, DRAWING), 0
    return _simulate_shoe(
        rng, job.shoe, chunk.size, job.dealing.penetration, job.dealing.burn != "none", DRAWING
    )


# ---------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class BaccaratSimulation:
    """Simulated rounds tallied into the exact engine's breakdown.

    Attributes
    ----------
    rules, dealing, rounds, seed
        What was simulated.
    counts
        int64 array (2, 2, 10, 10): rounds ending in each final state.
    shuffles
        Shoes shuffled (shoe mode).
    """

    rules: PuntoBancoRules | EZBaccaratRules
    dealing: Dealing
    rounds: int
    seed: int
    counts: np.ndarray
    shuffles: int

    def under(self, rules: PuntoBancoRules | EZBaccaratRules) -> BaccaratSimulation:
        """The same rounds settled under another paytable (same game and shoe).

        Parameters
        ----------
        rules : PuntoBancoRules or EZBaccaratRules
            Rules of the same game and deck count, with other payouts (a commission, a Tie
            or side bet's pay).

        Returns
        -------
        BaccaratSimulation
            These counts under ``rules``; another game or shoe raises GamecoreError.
        """
        if type(rules) is not type(self.rules) or rules.decks != self.rules.decks:
            raise GamecoreError("the same rounds can only be settled under the same game and shoe")
        return dataclasses.replace(self, rules=rules)

    def wager(self, name: str) -> WagerAnalysis:
        """The bet settled over the simulated rounds.

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
        """Rounds ending in each outcome of the game.

        Returns
        -------
        dict of str to int
            Each of ``rules.outcomes`` (see :data:`gamecore.baccarat.events.OUTCOME_TITLES`)
            -> its rounds.
        """
        return {
            name: int(self.counts[EVENTS[OUTCOME_TITLES[name][1]]].sum())
            for name in self.rules.outcomes
        }

    def to_dict(self) -> dict[str, Any]:
        """The JSON document of ``gamecore simulate`` (its schema: docs/json.md).

        Returns
        -------
        dict
            ``game``, ``rounds``, ``seed``, ``dealing``, ``shuffles``, ``bets`` (as
            :meth:`bets`), ``outcomes`` (rounds of each), ``rules``.
        """
        return {
            "game": self.rules.game,
            "rounds": self.rounds,
            "seed": self.seed,
            "dealing": self.dealing.to_dict(),
            "shuffles": self.shuffles,
            "bets": self.bets(),
            "outcomes": {name: {"count": c} for name, c in self.outcome_counts().items()},
            "rules": self.rules.to_dict(),
        }


def simulate(
    rules: PuntoBancoRules | EZBaccaratRules,
    rounds: int,
    seed: int,
    dealing: Dealing | None = None,
    threads: int | None = None,
    dask: str | None = None,
    progress: bool | None = None,
) -> BaccaratSimulation:
    """Simulate ``rounds`` rounds and tally them by final state.

    Parameters
    ----------
    rules
        The rule set (its ``decks`` sets the shoe; paytables settle the bets).
    rounds
        Rounds to deal, a positive integer.
    seed
        Non-negative integer; with ``rounds`` and the dealing it fixes the result exactly.
    dealing
        :class:`Dealing` (default: fresh shoe every round).
    threads, dask, progress
        Where the chunks run (:func:`gamecore.parallel.run_chunks`); never changes the result.

    Returns
    -------
    BaccaratSimulation
        The rounds tallied into the exact engine's breakdown, and the shoes shuffled.

    Examples
    --------
    >>> from gamecore import baccarat
    >>> sim = simulate(baccarat.PuntoBancoRules(decks=8), rounds=100_000, seed=1)
    >>> sim.rounds
    100000
    """
    rules = check_rules(rules)
    rounds = validate_trials(rounds, "rounds")
    seed = validate_seed(seed)
    dealing = Dealing.given(dealing, Dealing())
    shoe = np.repeat(np.arange(10, dtype=np.int64), baccarat_shoe(rules.decks))
    dealing.check_shoe(shoe.size)
    job = _Job(shoe, dealing)
    chunks = make_chunks(rounds, CHUNK_ROUNDS, seed)
    results = run_chunks(
        _run_chunk,
        job,
        chunks,
        threads=threads,
        dask=dask,
        progress=progress,
        description=f"{rules.game} {dealing.mode}",
    )
    counts = np.zeros(BREAKDOWN_SHAPE, dtype=np.int64)
    shuffles = 0
    for chunk_counts, chunk_shuffles in results:  # chunk order: deterministic
        counts += chunk_counts
        shuffles += chunk_shuffles
    return BaccaratSimulation(rules, dealing, rounds, seed, counts, shuffles)


def outcomes_cross_check(exact: BaccaratAnalysis, fresh: BaccaratSimulation) -> pd.DataFrame:
    """Each outcome's probability beside its frequency in fresh-shoe rounds.

    Parameters
    ----------
    exact : BaccaratAnalysis
        The exact figures.
    fresh : BaccaratSimulation
        Fresh-shoe rounds of the same game and shoe (what the exact figures describe).

    Returns
    -------
    pandas.DataFrame
        :func:`gamecore.twins.twin_table`: Figure | Exact | Simulated | SE | z | Rounds.
    """
    if fresh.dealing.mode != "fresh":
        raise GamecoreError("the cross-check compares the exact figures with fresh-shoe rounds")
    counts = fresh.outcome_counts()
    rows = []
    for name in exact.rules.outcomes:
        title, event = OUTCOME_TITLES[name]
        p = exact.probability(event)
        rows.append(
            {
                "Figure": f"P({title})",
                **frequency_twin(p, counts[name], fresh.rounds),
                "Rounds": fresh.rounds,
            }
        )
    return twin_table(rows)


def breakdown_cross_check(exact: BaccaratAnalysis, fresh: BaccaratSimulation) -> pd.DataFrame:
    """Every reachable final state's probability beside its frequency in fresh-shoe rounds.

    Parameters
    ----------
    exact : BaccaratAnalysis
        The exact figures.
    fresh : BaccaratSimulation
        Fresh-shoe rounds of the same game and shoe.

    Returns
    -------
    pandas.DataFrame
        Figure | Exact | Simulated | SE | z, then the state: Player cards | Banker cards |
        Player total | Banker total, a row per cell of :meth:`BaccaratAnalysis.breakdown`.
    """
    if fresh.dealing.mode != "fresh":
        raise GamecoreError("the cross-check compares the exact figures with fresh-shoe rounds")
    rows = []
    for state in exact.breakdown().itertuples(index=False):
        cards_p, cards_b, total_p, total_b = state[:4]
        count = fresh.counts[cards_p - 2, cards_b - 2, total_p, total_b]
        rows.append(
            {
                "Figure": (
                    f"P(Player {cards_p} cards, {total_p}; Banker {cards_b} cards, {total_b})"
                ),
                **frequency_twin(state.Probability, int(count), fresh.rounds),
                "Player cards": cards_p,
                "Banker cards": cards_b,
                "Player total": total_p,
                "Banker total": total_b,
            }
        )
    return twin_table(rows)


def deck_sweep_cross_check(
    rules: PuntoBancoRules | EZBaccaratRules,
    decks: int,
    rounds: int,
    seed: int,
    threads: int | None = None,
) -> pd.DataFrame:
    """The simulated twin of every finite row of :func:`gamecore.baccarat.deck_sweep`.

    Parameters
    ----------
    rules : PuntoBancoRules or EZBaccaratRules
        The rule set; its ``decks`` is replaced by each deck count.
    decks : int
        The largest deck count: the sweep runs 1..decks.
    rounds : int
        Fresh-shoe rounds simulated per deck count.
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
            exact(variant), simulate(variant, rounds, seed + d - 1, threads=threads)
        )
        check["Figure"] = check["Figure"] + f", {rulewords.decks(d)}"
        check["Decks"] = d
        parts.append(check)
    return pd.concat(parts, ignore_index=True)


def cross_check(
    exact: BaccaratAnalysis,
    fresh: BaccaratSimulation,
    shoe: BaccaratSimulation | None = None,
) -> pd.DataFrame:
    """Each bet's EV beside its twin from fresh-shoe rounds, and from dealt shoes.

    Parameters
    ----------
    exact : BaccaratAnalysis
        The exact figures.
    fresh : BaccaratSimulation
        Fresh-shoe rounds of the same game and shoe (what the exact figures describe).
    shoe : BaccaratSimulation, optional
        Rounds dealt through real shoes to a cut card: a second row per bet, its EV on dealt
        shoes, whose difference from the exact EV is the cut-card effect.

    Returns
    -------
    pandas.DataFrame
        :func:`gamecore.twins.twin_table`: Figure | Exact | Simulated | SE | z | Bet |
        Dealing | Exact SD | Simulated SD | Rounds, and on the dealt-shoe rows
        ``Cut-card effect (shoe - exact)``.
    """
    if fresh.dealing.mode != "fresh":
        raise GamecoreError("the cross-check compares the exact figures with fresh-shoe rounds")
    rows = []
    fresh_bets = fresh.bets()
    shoe_bets = shoe.bets() if shoe is not None else {}
    for name, analysis in exact.wagers().items():
        ev = float(analysis.expected_value)
        sim = fresh_bets[name]
        rows.append(
            {
                "Figure": f"{analysis.wager.title} EV",
                # SE under the exact figure: its SD over root n (gamecore.twins)
                **mean_twin(ev, analysis.sd, sim["mean"], fresh.rounds),
                "Bet": name,
                "Dealing": "fresh shoe",
                "Exact SD": analysis.sd,
                "Simulated SD": math.sqrt(sim["se"] ** 2 * fresh.rounds),
                "Rounds": fresh.rounds,
            }
        )
    for name, analysis in exact.wagers().items():
        if shoe is None:
            break
        cut = shoe_bets[name]
        rows.append(
            {
                "Figure": f"{analysis.wager.title} EV, dealt shoe (cut-card effect)",
                "Exact": float(analysis.expected_value),
                "Simulated": cut["mean"],
                "SE": cut["se"],
                "Bet": name,
                "Dealing": "dealt shoe",
                "Rounds": shoe.rounds,
                "Cut-card effect (shoe - exact)": cut["mean"] - float(analysis.expected_value),
            }
        )
    return twin_table(rows)
