"""What the blackjack round kernel (:mod:`gamecore.blackjack.dealt`) reads and writes: the
policy's tables, how rounds are dealt, the tallies and the counter's statistics, each a
NamedTuple of arrays, with the constructors of zeroed ones and the column indices reports
read them by."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from gamecore import counting
from gamecore.blackjack.rules import RuleCodes

#: Net results in half units range over -16..16 (four doubled hands); index = units + 16.
HALF_UNITS = 33


#: Cell rows of the tallies: hard 4..21, soft 12..21, then the pairs A..10.
N_CELL_ROWS = 38
SOFT_ROW0, PAIR_ROW0 = 18, 28


class SimPolicy(NamedTuple):
    """Decision tables for the round kernel: a chart's, or optimal play's by composition.

    Both give the root decisions by the first two cards and the up card:
    ``early_surrender[a, b, up]`` (surrender where the rules offer it before the check) and
    ``root_split[a, b, up]`` (split the pair). A chart (``node_play`` False) then plays by
    ``chart`` and ``pair_play`` (:class:`gamecore.blackjack.chart.ChartTables`), with
    ``pair_follows_row[pair, up]`` (the pair row says P: an unsplit pair counts in its
    hard/soft row's tallies). Optimal play (``node_play``) follows the hand's node card by
    card through ``child`` from the empty hand ``empty``: ``unsplit_action[node, up]`` for an
    unsplit hand, ``split_action[pair, node, up]`` for a split hand. Actions: S H D R P as 0..4.
    """

    node_play: bool
    early_surrender: np.ndarray
    root_split: np.ndarray
    chart: np.ndarray
    pair_play: np.ndarray
    pair_follows_row: np.ndarray
    child: np.ndarray
    empty: int
    unsplit_action: np.ndarray
    split_action: np.ndarray


class Tallies(NamedTuple):
    """What a chunk of rounds adds up (integers, except the probes' weighted sums)."""

    histogram: np.ndarray  # (10, 33) rounds by up card and net result in half units
    split_histogram: np.ndarray  # (33,) rounds split
    resplit_histogram: np.ndarray  # (33,) rounds resplit
    naturals: np.ndarray  # (10,) player Naturals paid, by up card
    bad: np.ndarray  # (1,) rounds that asked for a forbidden action
    cells: np.ndarray  # (3, 38, 10) sum, sum of squares, count of results, by cell
    probe_sums: np.ndarray  # (38, 10, 6, 4) sum X, X^2, XY, probes per letter
    probe_den: np.ndarray  # (38, 10, 2) sum Y, Y^2


class Dealt(NamedTuple):
    """How the rounds are dealt, and the counter who plays them.

    Real shoes (:func:`simulate_rounds` with ``fresh`` False): a trial is a shoe, shuffled
    and dealt to a cut card ``penetration`` cards from the end; the counter keeps
    the running count of every card seen (``tags`` by rank), bets one unit at or below the
    ``trigger`` true count (running count per ``deck_cards`` cards left) and ``ramp[k]``
    units above ``trigger + k``, plays the index plays (at a two-card hard hand of total t
    that is not a pair, against ``up``: ``index_first[t, up]`` when the true count is at or
    above ``index_at[t, up]`` (``index_sign`` +1) or at or below it (-1), else
    ``index_second[t, up]``; -1: the chart's action), and insures against an Ace when the
    true count meets ``insurance_at`` (nan: never). A Natural pays ``natural_pays``.

    Every round deals ``seats`` seats (1: heads-up), all playing the policy; the counter
    sits in ``counter_seat`` (0 for the first seat). A round that reaches a real shoe's end
    goes on from the discards, shuffled in behind it (:func:`_draw`) into room for the cards
    dealt before the cut card (a table whose round fits the whole shoe never needs more);
    such rounds are counted (``C_RESHUFFLED``).

    With ``turn_rounds`` > 0 the bank rotates among the seats' players and the P/D, each
    holding it ``turn_rounds`` rounds; in the counter's turn (after the ``seats`` others) it
    banks when the true count is at or below ``bank_at`` (its seat then played by another,
    flat on the chart), else declines and plays its seat. The flat bettor beside it always
    banks in its turn.
    """

    penetration: int
    tags: np.ndarray
    ramp: np.ndarray
    trigger: float
    deck_cards: float
    index_first: np.ndarray
    index_second: np.ndarray
    index_at: np.ndarray
    index_sign: np.ndarray
    insurance_at: float
    insurance_sign: int
    natural_pays: float
    seats: int
    counter_seat: int
    turn_rounds: int
    bank_at: float


#: The counter's statistics (``CounterTallies.stats``): gamecore.counting's columns, then
#: the shoes dealt, the insurance bets taken, the rounds recorded, the rounds whose seats'
#: results were kept (a shoe-dealt run stops when they fill ``seat_results``), the rounds
#: finished from the reshuffled discards, and the rounds the counter banked.
C_SHOES, C_INSURED, C_RECORDED, C_TABLE_ROUNDS, C_RESHUFFLED, C_BANKED = (
    counting.STATS + k for k in range(6)
)
#: Columns of a recorded round (``CounterTallies.record``): the cards of each rank left
#: before it (0..9), the true count, the flat result, the shoe (counted within the chunk).
R_TRUE_COUNT, R_RESULT, R_SHOE = 10, 11, 12


class CounterTallies(NamedTuple):
    stats: np.ndarray  # (counting.STATS + 6,) float64
    record: np.ndarray  # (rows, 13) float64: the first rows' rounds (R_* columns)
    seat_results: np.ndarray  # (rows, seats) float64: the first rows' results by seat


class RoundScratch(NamedTuple):
    """Per-round work space, reused (no allocation per round)."""

    hands: np.ndarray  # (seats, 13, 4) int64: the per-hand state, rows as in dealt_hands
    visit: np.ndarray  # (seats, 4, 24): the cell rows each hand decided in
    probe_weight: np.ndarray  # (seats, 4): a probed hand's inverse chance of being seen
    round_x: np.ndarray  # (38, 6): probed results this round, by row and letter
    round_y: np.ndarray  # (38,): reached decisions this round, by row
    seat: np.ndarray  # (seats, 6) int64: each seat's round, columns dealt_hands.CARD1 .. HANDS


def new_tallies() -> Tallies:
    """Zeroed tallies of one chunk of rounds.

    Returns
    -------
    Tallies
        Every array zero, of the shapes and dtypes :class:`Tallies` lists (each chunk adds
        into its own, merged in order afterwards).
    """
    cells = (N_CELL_ROWS, 10)
    return Tallies(
        np.zeros((10, HALF_UNITS), dtype=np.int64),
        np.zeros(HALF_UNITS, dtype=np.int64),
        np.zeros(HALF_UNITS, dtype=np.int64),
        np.zeros(10, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.zeros((3, *cells), dtype=np.int64),
        np.zeros((*cells, 6, 4)),
        np.zeros((*cells, 2)),
    )


def fresh_dealing(seats: int = 1, natural_pays: float = 1.5) -> Dealt:
    """Every round off a full shoe, with no counter: flat one-unit bets, no index plays, no
    insurance, no bank rotation.

    Parameters
    ----------
    seats : int, default 1
        Seats dealt each round, all playing the policy.
    natural_pays : float, default 1.5
        What a player Natural pays per unit.

    Returns
    -------
    Dealt
        The dealing the round kernel reads.
    """
    none = np.full((32, 10), -1, dtype=np.int64)
    return Dealt(
        0, np.zeros(10, dtype=np.int64), np.ones(1), 0.0, 52.0, none, none,
        np.zeros((32, 10)), np.ones((32, 10), dtype=np.int64), np.nan, 1, natural_pays,
        seats, 0, 0, np.inf,
    )  # fmt: skip


def new_counter_tallies(
    record_rounds: int = 0, seat_rounds: int = 0, seats: int = 1
) -> CounterTallies:
    """Zeroed counter tallies of one chunk.

    Parameters
    ----------
    record_rounds : int, default 0
        Rounds whose shoe is recorded (``record`` rows, :data:`R_TRUE_COUNT` ... columns).
    seat_rounds : int, default 0
        Rounds whose result of every seat is kept (``seat_results`` rows).
    seats : int, default 1
        Seats at the table.

    Returns
    -------
    CounterTallies
        float64 arrays, all zero: the statistics, the recorded rounds, the seats' results.
    """
    return CounterTallies(
        np.zeros(counting.STATS + 6),
        np.zeros((record_rounds, 13)),
        np.zeros((seat_rounds, seats)),
    )


def new_scratch(seats: int = 1) -> RoundScratch:
    """The round kernel's work space for a table of ``seats`` seats (allocated once per
    chunk, reused by every round: no allocation per round).

    Parameters
    ----------
    seats : int, default 1
        Seats at the table.

    Returns
    -------
    RoundScratch
        Zeroed arrays of the shapes :class:`RoundScratch` lists.
    """
    return RoundScratch(
        np.zeros((seats, 13, 4), dtype=np.int64),
        np.zeros((seats, 4, 24), dtype=np.int64),
        np.zeros((seats, 4)),
        np.zeros((N_CELL_ROWS, 6)),
        np.zeros(N_CELL_ROWS),
        np.zeros((seats, 6), dtype=np.int64),
    )


class RoundInputs(NamedTuple):
    """What the round loop reads: the rules' codes, the policy's tables, the probe rate
    (0: no probes) and how the rounds are dealt (:class:`Dealt`)."""

    codes: RuleCodes
    policy: SimPolicy
    probe_rate: float
    dealt: Dealt


class RoundOutputs(NamedTuple):
    """What the round loop writes: the :class:`Tallies`, the counter's
    :class:`CounterTallies` and the per-round work space (:class:`RoundScratch`)."""

    tallies: Tallies
    counter: CounterTallies
    scratch: RoundScratch
