"""How far the dealer's final hand moves when a table of players draws before the dealer:
the figures a side bet on the dealer's final hand reports beside its model.

Central idea
------------
A bust bet is counted exactly under a model: the dealer draws from the shoe less the cards
the bet names (the bettor's two and the dealer's two). Each simulated round here deals those
four cards off a full shoe, then finishes the dealer's hand twice from them: once as the
model deals (the dealer draws next), once after the table draws first (the bettor's hand,
where it plays, and the other seats of :mod:`gamecore.sidebets.table_play`, on gamecore's
basic strategy). Each round's two final hands are tallied together, so every figure comes
as the model's, the table's and the move between them, its SE paired by round (the same
first four cards, the draws after them independent). Where the dealer peeks and holds a
Natural nobody draws and both hands are that Natural.

What to expect. Each card the dealer draws after the table is still, before it is seen, a
uniformly random card of those the bet has not named: the fraction of each rank left is a
martingale as the seats draw, and the seats stop by their own cards (optional stopping). So
the dealer's figures move only through the spread of the shoe the seats leave, a second-order
effect, largest at one deck; the move is measured here, with its SE, not assumed zero.

Work is cut into fixed chunks seeded from ``numpy.random.SeedSequence``
(:mod:`gamecore.parallel`); tallies are integers added in chunk order, so a result depends
on the seed and the rounds only, never on the threads.
"""

from __future__ import annotations

import dataclasses
import math
from typing import NamedTuple

import numpy as np
import pandas as pd

from gamecore import cards, rulewords
from gamecore._jit import kernel
from gamecore.blackjack.rules import ACE
from gamecore.dealing import draw_card
from gamecore.errors import GamecoreError, shown
from gamecore.numeric import is_whole
from gamecore.parallel import Chunk, make_chunks, run_chunks, validate_seed, validate_trials
from gamecore.rules import boolean
from gamecore.sidebets.dealer_count import dealer_stands
from gamecore.sidebets.parsheet import ParSheet
from gamecore.sidebets.sim import simulate, twin_table
from gamecore.sidebets.table_play import (
    MOST_OTHER_SEATS,
    TablePolicy,
    other_seats_draw,
    seat_draws,
    table_policy,
)

#: Rounds per chunk. Fixed, so results never depend on threads.
CHUNK_ROUNDS = 1 << 15
#: The dealer's final hand's kinds, the first factor of its outcome code.
FINALS = ("natural", "17", "18", "19", "20", "21", "bust")
NATURAL_FINAL, BUST_FINAL = 0, len(FINALS) - 1
#: Card counts a dealer's hand can hold, 0..17 (2 plus at most 15 hits): the second factor.
CARD_SLOTS = 18
#: Outcome codes of a dealer's final hand: ``final * CARD_SLOTS + cards``.
OUTCOMES = len(FINALS) * CARD_SLOTS
#: Columns of a chunk's statistics: rounds the table ran short, and the cards the other
#: seats took in a round, summed and squared.
SHORT, SEAT_CARDS, SEAT_CARDS_SQUARED = range(3)
#: Bust-by-cards rows: 3 .. 7 cards, then this many or more.
BUST_CARDS_OPEN = 8


class EffectJob(NamedTuple):
    """What every chunk's kernel reads.

    Attributes
    ----------
    codes : numpy.ndarray
        int64: the full shoe as card codes ``rank * 4 + suit``.
    policy : TablePolicy
        The seats' play.
    hits_soft_17 : bool
        Whether the dealer hits soft 17.
    seats : int
        Other seats, 0..6.
    bettor_plays : bool
        Whether the bettor's own hand draws first too.
    """

    codes: np.ndarray
    policy: TablePolicy
    hits_soft_17: bool
    seats: int
    bettor_plays: bool


@kernel(inline=True)
def _dealer_hand(rng, shoe, position, view, hits_soft_17, classes):
    """The dealer's hand from ``view = (up class, hole class)`` drawn from ``position`` of a
    fresh shoe: (its outcome code, the next position)."""
    up, hole = view
    hard = up + hole + 2
    ace = up == ACE or hole == ACE
    held = 2
    if ace and hard == 11:  # an ace and a ten-valued card
        return NATURAL_FINAL * CARD_SLOTS + held, position
    while not dealer_stands(hard, ace, hits_soft_17):  # the one drawing rule of the model
        c = classes[draw_card(rng, shoe, position, True)]
        position += 1
        hard += c + 1
        ace = ace or c == ACE
        held += 1
    total = hard + 10 if ace and hard + 10 <= 21 else hard
    final = BUST_FINAL if total > 21 else total - 16
    return final * CARD_SLOTS + held, position


@kernel
def _effect_rounds(rng, job, rounds):
    """Rounds by (the model's dealer outcome, the table's), and the statistics."""
    joint = np.zeros((OUTCOMES, OUTCOMES), dtype=np.int64)
    stats = np.zeros(3, dtype=np.int64)
    shoe = job.codes.copy()  # stays a permutation of the full shoe: every round off it whole
    policy = job.policy
    classes = policy.classes
    for _ in range(rounds):
        first = draw_card(rng, shoe, 0, True)
        up = classes[draw_card(rng, shoe, 1, True)]
        second = draw_card(rng, shoe, 2, True)
        view = (up, classes[draw_card(rng, shoe, 3, True)])
        model, _at = _dealer_hand(rng, shoe, 4, view, job.hits_soft_17, classes)
        if model // CARD_SLOTS == NATURAL_FINAL:  # the peek ends the round: nobody draws
            table = model
            taken = 2 * job.seats
        else:
            # Drawn again from position 4: given the first four cards, these draws are
            # independent of the model's.
            position, short = 4, False
            if job.bettor_plays:
                position, short = seat_draws(rng, shoe, 4, True, first, second, up, policy)
            start = position
            position, others_short = other_seats_draw(rng, shoe, position, True, up,
                                                      job.seats, policy)  # fmt: skip
            taken = position - start
            stats[SHORT] += 1 if (short or others_short) else 0
            table, _at = _dealer_hand(rng, shoe, position, view, job.hits_soft_17, classes)
        stats[SEAT_CARDS] += taken
        stats[SEAT_CARDS_SQUARED] += taken * taken
        joint[model, table] += 1
    return joint, stats


def effect_chunk(job_and_chunk: tuple[EffectJob, Chunk]) -> tuple[np.ndarray, np.ndarray]:
    """One chunk of rounds (the work one thread does).

    Parameters
    ----------
    job_and_chunk : tuple
        ``(job, chunk)``: the :class:`EffectJob` and the :class:`gamecore.parallel.Chunk`.

    Returns
    -------
    tuple of numpy.ndarray
        int64 (OUTCOMES, OUTCOMES): rounds by (model outcome, table outcome); int64 (3,):
        the statistics (:data:`SHORT` ...).
    """
    job, chunk = job_and_chunk
    return _effect_rounds(chunk.generator(), job, chunk.size)


@dataclasses.dataclass(frozen=True)
class TableEffect:
    """The dealer's final hand under the model and after a table draws first.

    Attributes
    ----------
    decks, dealer_hits_soft_17
        The shoe and the dealer's soft-17 rule.
    seats, bettor_plays
        Other seats drawing first, and whether the bettor's own hand does too.
    rounds, seed
        The rounds simulated and the seed; together they fix every tally.
    joint : numpy.ndarray
        int64 (OUTCOMES, OUTCOMES): rounds by (the model's outcome code, the table's),
        a code ``final * CARD_SLOTS + cards`` (final as :data:`FINALS`).
    stats : numpy.ndarray
        int64 (3,): rounds the table ran short, the other seats' cards summed and squared.
    """

    decks: int
    dealer_hits_soft_17: bool
    seats: int
    bettor_plays: bool
    rounds: int
    seed: int
    joint: np.ndarray
    stats: np.ndarray

    @property
    def model_text(self) -> str:
        """What the two columns deal, in a sentence for the report."""
        who = ("the bettor's hand and " if self.bettor_plays else "") + (
            f"{self.seats} other seat{'s' if self.seats != 1 else ''}"
        )
        rule = "H17" if self.dealer_hits_soft_17 else "S17"
        return (
            f"Model: the dealer draws from the shoe less the bettor's two cards and its own "
            f"two. Table: {who} draw first, on gamecore's basic strategy for standard "
            f"blackjack ({rulewords.decks(self.decks)}, {rule}), the other seats dealt two "
            f"cards each after the dealer's. Each round off a full shoe, both hands from its "
            f"first four cards; Moved = Table - Model, its SE paired by round"
        )

    def seat_cards(self) -> dict[str, float]:
        """The cards each other seat takes in a round, its first two included.

        Returns
        -------
        dict of str to float
            ``mean`` (per seat), ``se`` and ``short_rounds`` (rounds the table stopped
            drawing to keep the dealer's reserve).
        """
        n, seats = self.rounds, max(self.seats, 1)
        mean = int(self.stats[SEAT_CARDS]) / n
        variance = (int(self.stats[SEAT_CARDS_SQUARED]) - n * mean**2) / max(n - 1, 1)
        return {
            "mean": mean / seats,
            "se": math.sqrt(max(variance, 0.0) / n) / seats,
            "short_rounds": int(self.stats[SHORT]),
        }

    def table(self) -> pd.DataFrame:
        """Each figure under the model and at the table, and how far it moved.

        Returns
        -------
        pandas.DataFrame
            Figure | Model | Model SE | Table | Table SE | Moved | Moved SE | z | Rounds:
            the dealer busts, busts with 3 .. 7 and 8 or more cards, stands on 17 .. 21
            (probabilities per round); z = Moved / Moved SE.
        """
        final, held = np.divmod(np.arange(OUTCOMES), CARD_SLOTS)
        bust = final == BUST_FINAL
        events = [("P(dealer busts)", bust)]
        for k in range(3, BUST_CARDS_OPEN):
            events.append((f"P(dealer busts with {k} cards)", bust & (held == k)))
        events.append(
            (f"P(dealer busts with {BUST_CARDS_OPEN} or more cards)",
             bust & (held >= BUST_CARDS_OPEN))
        )  # fmt: skip
        for total in range(17, 22):
            events.append((f"P(dealer stands on {total})", final == total - 16))
        return pd.DataFrame([self._row(name, event) for name, event in events])

    def _row(self, name: str, event: np.ndarray) -> dict:
        """One figure: the model's and the table's frequency, each with its binomial SE, and
        the paired move's SE from the rounds where exactly one of the two hands is in it."""
        n = self.rounds
        model = int(self.joint[event, :].sum()) / n
        table = int(self.joint[:, event].sum()) / n
        apart = int(
            self.joint[np.ix_(event, ~event)].sum() + self.joint[np.ix_(~event, event)].sum()
        )
        moved = table - model
        moved_se = math.sqrt(max(apart / n - moved**2, 0.0) / n)
        return {
            "Figure": name,
            "Model": model,
            "Model SE": math.sqrt(model * (1 - model) / n),
            "Table": table,
            "Table SE": math.sqrt(table * (1 - table) / n),
            "Moved": moved,
            "Moved SE": moved_se,
            "z": moved / moved_se if moved_se > 0 else math.nan,
            "Rounds": n,
        }


def table_effect(
    decks: int,
    dealer_hits_soft_17: bool,
    rounds: int,
    seed: int,
    seats: int = MOST_OTHER_SEATS,
    bettor_plays: bool = True,
    threads: int | None = None,
) -> TableEffect:
    """Simulate the dealer's final hand under the model and after a table draws first.

    Parameters
    ----------
    decks : int
        Decks in the shoe, 1..1000.
    dealer_hits_soft_17 : bool
        Whether the dealer hits soft 17.
    rounds : int
        Rounds to deal, a positive integer.
    seed : int
        A non-negative integer; with ``rounds`` it fixes the result exactly.
    seats : int, default 6
        Other seats drawing first, 0..6 (a full table of seven less the bettor).
    bettor_plays : bool, default True
        Whether the bettor's own hand draws first too, on the same strategy.
    threads : int, optional
        Threads on this machine (default: every core); never changes the result.

    Returns
    -------
    TableEffect
        The rounds by both final hands (:meth:`TableEffect.table` prints the figures).
    """
    decks = cards.validate_decks(decks)
    dealer_hits_soft_17 = boolean("dealer_hits_soft_17", dealer_hits_soft_17)
    bettor_plays = boolean("bettor_plays", bettor_plays)
    rounds = validate_trials(rounds, "rounds")
    seed = validate_seed(seed)
    if not is_whole(seats) or not 0 <= seats <= MOST_OTHER_SEATS:
        raise GamecoreError(f"seats must be an integer 0..{MOST_OTHER_SEATS}, got {shown(seats)}")
    job = EffectJob(
        cards.standard(decks).card_codes(),
        table_policy(decks, dealer_hits_soft_17),
        dealer_hits_soft_17,
        int(seats),
        bettor_plays,
    )
    joint = np.zeros((OUTCOMES, OUTCOMES), dtype=np.int64)
    stats = np.zeros(3, dtype=np.int64)
    results = run_chunks(
        effect_chunk, job, make_chunks(rounds, CHUNK_ROUNDS, seed), threads=threads,
        progress=False, description="dealer hands after a table",
    )  # fmt: skip
    for chunk_joint, chunk_stats in results:  # in chunk order
        joint += chunk_joint
        stats += chunk_stats
    return TableEffect(decks, dealer_hits_soft_17, int(seats), bettor_plays, rounds, seed,
                       joint, stats)  # fmt: skip


def full_table_twin(
    sheet: ParSheet,
    rounds: int,
    seed: int,
    seats: int = MOST_OTHER_SEATS,
    threads: int | None = None,
) -> pd.DataFrame:
    """A bet on the dealer's final hand simulated at a full table, beside its exact figures
    under the model: how far the model's figures move when other hands draw first.

    Parameters
    ----------
    sheet : ParSheet
        The bet's exact par sheet (the model: the dealer draws right after the four cards).
    rounds : int
        Rounds to simulate, a positive integer.
    seed : int
        A non-negative integer; with ``rounds`` it fixes the result exactly.
    seats : int, default 6
        Other seats drawing first on basic strategy (the bettor's hand plays too).
    threads : int, optional
        Threads on this machine (never changes the result).

    Returns
    -------
    pandas.DataFrame
        :func:`gamecore.sidebets.sim.twin_table`'s rows with ``Model (exact)`` and ``Full
        table (simulated)`` for its Exact and Simulated, and ``Moved`` (simulated less exact)
        after them. Its z measures the model's move, not a defect of the count: it is no
        part of a cross-check's verdict.
    """
    simulation = simulate(sheet.bet, sheet.decks, rounds, seed, threads, seats)
    check = twin_table(sheet, simulation)
    check.insert(3, "Moved", check["Simulated"] - check["Exact"])
    return check.rename(columns={"Exact": "Model (exact)", "Simulated": "Full table (simulated)"})
