"""The P/D's seat: what the bank of a player-banked table carries, from rounds dealt at a
full table.

Central idea
------------
A game's table simulator deals every seat of a round from one shoe and hands over each
round's result of every player, in units of a player's bet (the players' side, before any
collection). Everything the P/D's seat carries is a function of those rows, so one module
reads them for every player-banked game (its kernels in :mod:`gamecore.banktally`):

* each seat's mean, standard deviation and the covariance between seats (raw moments, so
  chunks add up); the P/D's result per round at full coverage is minus the players' sum;
* "all payoffs to the extent money covers" (RULES.md: :func:`gamecore.banktally.cover`):
  the P/D puts ``stake`` on the table, takes the losing wagers, then pays the winners in
  seat order from seat 1 while money lasts; how often it falls short and what each seat
  loses to it;
* the P/D's risk of ruin over a shift: a banker who banks every round of a shift of
  ``shift_rounds`` rounds with a bankroll (each of ``bankrolls``), staking ``stake`` (or what
  is left) each round, is ruined when what is left falls below ``ruin_below`` (one player's
  bet in blackjack; every wager on the table in 21st Century Baccarat, whose card makes a
  round the P/D cannot cover "no action");
* rotation: the bank passes seat by seat every ``turn_rounds`` rounds among the players and
  the P/D (``players + 1`` people, each betting one unit when not banking), at full coverage.
  Equal bets and the same play make the table zero-sum among its people before the
  collection, and by symmetry each person's long-run result is exactly 0: everyone nets minus
  the collection per round, and the house takes ``players + 1`` collections a round.

Standard errors treat rounds as independent: exact for a shuffle every round; with a cut card
a shoe's rounds share its composition (the figures say which dealing they ran).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from gamecore import twins
from gamecore.banktally import ROUNDS, SHIFTS, SHORT, add_rounds
from gamecore.errors import GamecoreError, shown
from gamecore.numeric import is_real, is_whole, real_number, real_numbers
from gamecore.rules import MAX_AMOUNT


@dataclasses.dataclass(frozen=True)
class Bank:
    """How the P/D banks (money in units of a player's bet).

    Attributes
    ----------
    stake
        The P/D's money on the table each round (``math.inf``: it covers every payoff).
    bankrolls
        The banker's money at the start of a shift: each one's risk of ruin is tallied
        (from the same rounds).
    shift_rounds
        Rounds in a shift (the banker banks every one).
    turn_rounds
        Rounds each person banks in turn under rotation (the card: "for a maximum of two
        hands").
    ruin_below
        The banker is ruined when its money falls below this (1: it cannot cover one
        player's bet). Every bankroll must be at least this: a bankroll below it is
        refused (naming both), one equal to it starts the shift unruined.
    """

    stake: float = math.inf
    bankrolls: tuple[float, ...] = (100.0, 200.0, 400.0, 800.0)
    shift_rounds: int = 480
    turn_rounds: int = 2
    ruin_below: float = 1.0

    def __post_init__(self) -> None:
        # Validated once, here, and stored as Python floats and ints: the kernels take them
        # as they are (a bankroll given as a numpy array reached a truth test inside the
        # table simulation before).
        bankrolls = real_numbers("bankrolls", self.bankrolls)
        if not bankrolls:
            raise GamecoreError("bankrolls must name at least one amount")
        # An infinite stake is the default: the P/D covers every payoff.
        unlimited = is_real(self.stake) and float(self.stake) == math.inf
        stake = math.inf if unlimited else real_number("stake", self.stake)
        ruin_below = real_number("ruin_below", self.ruin_below)
        amounts = {
            "ruin_below": ruin_below,
            **{f"bankrolls[{i}]": b for i, b in enumerate(bankrolls)},
        }
        if not unlimited:
            amounts["stake"] = stake
        for name, value in amounts.items():
            # Money is float64 in the kernels, 15 to 16 significant digits: at MAX_AMOUNT
            # (10^12 units) a round's result still keeps three decimals in a shift's sum;
            # at 10^16 a whole unit would vanish from it, and no risk of ruin could show.
            if not 1 <= value <= MAX_AMOUNT:
                raise GamecoreError(
                    f"{name} must be from 1 unit (one player's bet) to {MAX_AMOUNT:,}, "
                    f"got {shown(value)}"
                )
        for i, bankroll in enumerate(bankrolls):
            # A banker who starts below the line it is ruined below cannot bank a round:
            # the kernel would play it anyway and a winning first round hide the ruin.
            # Starting exactly on the line is a bankroll that covers it, ruined only below.
            if bankroll < ruin_below:
                raise GamecoreError(
                    f"bankrolls[{i}] ({shown(float(bankroll))}) is below ruin_below "
                    f"({shown(float(ruin_below))}): the banker would be ruined before its first "
                    "round; each bankroll must be at least ruin_below"
                )
        object.__setattr__(self, "stake", float(stake))
        object.__setattr__(self, "ruin_below", float(ruin_below))
        object.__setattr__(self, "bankrolls", tuple(float(b) for b in bankrolls))
        for name in ("shift_rounds", "turn_rounds"):
            value = getattr(self, name)
            if not is_whole(value) or value < 1:
                raise GamecoreError(
                    f"{name} must be a whole number of rounds >= 1, got {shown(value)}"
                )
            object.__setattr__(self, name, int(value))

    def to_frame(self) -> pd.DataFrame:
        """How the P/D banks, as a table for a report.

        Returns
        -------
        pandas.DataFrame
            Parameter | Value | Meaning: one row per field, the value as text.
        """
        meaning = {
            "stake": "the P/D's money on the table each round, units of a player's bet "
            "(infinite: it covers every payoff)",
            "bankrolls": "the banker's money at the start of a shift, units (each tallied)",
            "shift_rounds": "rounds in a shift; the banker banks every one",
            "turn_rounds": "rounds each person banks in turn under rotation",
            "ruin_below": "the banker is ruined when its money falls below this, units",
        }
        return pd.DataFrame(
            [
                {"Parameter": k, "Value": _value_text(v), "Meaning": meaning[k]}
                for k, v in dataclasses.asdict(self).items()
            ]
        )


def _value_text(value: Any) -> str:
    """A field of :class:`Bank` as a reader writes it: ``infinite``, not ``inf``; the
    bankrolls ``100, 200, 400, 800``, not a tuple of floats."""
    if isinstance(value, tuple):
        return ", ".join(_value_text(v) for v in value)
    if isinstance(value, float) and math.isinf(value):
        return "infinite"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))  # 100, not 100.0 (nor 1e+12)
    return str(value)


class BankTallies(NamedTuple):
    """Sums over rounds (float64; chunks add up)."""

    counts: np.ndarray  # (3,): ROUNDS, SHIFTS, SHORT
    seat: np.ndarray  # (4, players): sums of x, x^2, x^3, x^4 by seat
    pair: np.ndarray  # (3, players, players): sums of x_i x_j, x_i^2 x_j, x_i^2 x_j^2
    bank: np.ndarray  # (4,): the P/D's result at full coverage, powers 1..4
    covered: np.ndarray  # (4,): the P/D's result covering from the stake, its square;
    # the players' total shortfall, its square
    shortfall: np.ndarray  # (3, players): each seat's shortfall, its square, rounds short
    shift: np.ndarray  # (3, bankrolls): shifts ruined, the banker's result, its square
    rotation: np.ndarray  # (3, players + 1): each person's result, its square, rounds banked


def new_bank_tallies(players: int, bankrolls: int) -> BankTallies:
    """Empty tallies for a table.

    Parameters
    ----------
    players : int
        The seats at the table (the P/D is not one).
    bankrolls : int
        The bankrolls whose risk of ruin is tallied.

    Returns
    -------
    BankTallies
        Every sum zero (float64), shaped as the class says.
    """
    return BankTallies(
        np.zeros(3), np.zeros((4, players)), np.zeros((3, players, players)), np.zeros(4),
        np.zeros(4), np.zeros((3, players)), np.zeros((3, bankrolls)),
        np.zeros((3, players + 1)),
    )  # fmt: skip


def _mean_se(total: float, squares: float, n: float) -> tuple[float, float]:
    """(mean, its SE) of ``n`` values from their sum and sum of squares: the mean is
    undefined (NaN) of no values, the SE of fewer than two (no spread to estimate it from);
    :meth:`BankFigures.notes` says so beside them."""
    if n < 1:
        return math.nan, math.nan
    mean = total / n
    if n < 2:
        return mean, math.nan
    variance = max(squares / n - mean**2, 0.0) * n / (n - 1)
    return mean, math.sqrt(variance / n)


def _sd_and_se(powers: np.ndarray, n: float) -> tuple[float, float]:
    """The SD from raw power sums 1..4 and its SE, sqrt((m4 - s^4) / (4 s^2 n))."""
    m1, m2, m3, m4 = (p / n for p in powers)
    variance = m2 - m1**2
    central4 = m4 - 4 * m1 * m3 + 6 * m1**2 * m2 - 3 * m1**4
    sd = math.sqrt(max(variance, 0.0))
    se = math.sqrt(max(central4 - variance**2, 0.0) / (4 * variance * n)) if variance > 0 else 0.0
    return sd, se


@dataclasses.dataclass(frozen=True)
class BankFigures:
    """What a full table's simulated rounds say about the P/D's seat (:func:`add_rounds`)."""

    players: int
    bank: Bank
    tallies: BankTallies

    @property
    def rounds(self) -> int:
        return int(self.tallies.counts[ROUNDS])

    def seat_table(self) -> pd.DataFrame:
        """Each player's result per round.

        Returns
        -------
        pandas.DataFrame
            Seat | Mean | SE | SD | SE of SD, units of a player's bet, one row per seat.
        """
        t, n = self.tallies, self.tallies.counts[ROUNDS]
        rows = []
        for i in range(self.players):
            mean, se = _mean_se(t.seat[0, i], t.seat[1, i], n)
            sd, sd_se = _sd_and_se(t.seat[:, i], n)
            rows.append({"Seat": i + 1, "Mean": mean, "SE": se, "SD": sd, "SE of SD": sd_se})
        return pd.DataFrame(rows)

    def covariance(self) -> tuple[np.ndarray, np.ndarray]:
        """The covariance between seats' results per round.

        Returns
        -------
        tuple of numpy.ndarray
            The covariance matrix, float64 (players, players), units squared; and the SE of
            each entry by the delta method, Var((x - a)(y - b)) / n from the raw moments up
            to x^2 y^2.
        """
        t, n = self.tallies, self.tallies.counts[ROUNDS]
        a = t.seat[0] / n
        exy = t.pair[0] / n
        cov = exy - np.outer(a, a)
        ex2y = t.pair[1] / n  # E[x_i^2 x_j]
        ex2y2 = t.pair[2] / n
        ex2 = t.seat[1] / n
        ai, aj = a[:, None], a[None, :]
        fourth = (
            ex2y2 - 2 * aj * ex2y - 2 * ai * ex2y.T + aj**2 * ex2[:, None]
            + ai**2 * ex2[None, :] + 4 * ai * aj * exy - 3 * ai**2 * aj**2
        )  # fmt: skip
        se = np.sqrt(np.maximum(fourth - cov**2, 0.0) / n)
        return cov, se

    def covariance_table(self) -> pd.DataFrame:
        """The covariance of every pair of distinct seats.

        Returns
        -------
        pandas.DataFrame
            Seat i | Seat j | Covariance | SE | Correlation; the correlation is missing
            (null in JSON) where a seat's result never varied (one round, say), which has
            nothing to divide by.
        """
        cov, se = self.covariance()
        sd = np.sqrt(np.maximum(np.diag(cov), 0.0))  # a variance that rounds below 0 is 0
        rows = [
            {
                "Seat i": i + 1,
                "Seat j": j + 1,
                "Covariance": cov[i, j],
                "SE": se[i, j],
                "Correlation": cov[i, j] / (sd[i] * sd[j]) if sd[i] * sd[j] > 0 else math.nan,
            }
            for i in range(self.players)
            for j in range(i + 1, self.players)
        ]
        return pd.DataFrame(rows, columns=["Seat i", "Seat j", "Covariance", "SE", "Correlation"])

    def bank_figures(self) -> dict[str, float]:
        """The P/D's result per round.

        Returns
        -------
        dict of str to float
            Its mean (units of a player's bet) at full coverage and covering from the
            stake, with SEs; its SD and the SD's SE; and the SD the same seats would give
            if they moved independently (sqrt of the sum of their variances), to show what
            the covariance adds.
        """
        t, n = self.tallies, self.tallies.counts[ROUNDS]
        mean, se = _mean_se(t.bank[0], t.bank[1], n)
        sd, sd_se = _sd_and_se(t.bank, n)
        covered, covered_se = _mean_se(t.covered[0], t.covered[1], n)
        independent = math.sqrt(sum(r["SD"] ** 2 for r in self.seat_table().to_dict("records")))
        return {
            "P/D result per round": mean,
            "SE": se,
            "P/D SD per round": sd,
            "SE of SD": sd_se,
            "P/D SD if seats were independent": independent,
            "P/D result per round, covering from the stake": covered,
            "SE, covering from the stake": covered_se,
        }

    def bank_table(self) -> pd.DataFrame:
        """:meth:`bank_figures` as a table.

        Returns
        -------
        pandas.DataFrame
            Figure | Value | SE, one row per figure (the independent seats' SD has no SE).
        """
        f = self.bank_figures()
        rows = [
            ("P/D result per round, covering every payoff", f["P/D result per round"], f["SE"]),
            ("P/D SD per round", f["P/D SD per round"], f["SE of SD"]),
            ("P/D SD per round if the seats were independent",
             f["P/D SD if seats were independent"], math.nan),
            ("P/D result per round, covering from the stake",
             f["P/D result per round, covering from the stake"],
             f["SE, covering from the stake"]),
        ]  # fmt: skip
        return pd.DataFrame(rows, columns=["Figure", "Value", "SE"])

    def coverage_table(self) -> pd.DataFrame:
        """How often the stake falls short, and what the players lose to it.

        Returns
        -------
        pandas.DataFrame
            Figure | Value | SE: the share of rounds the P/D cannot pay every winner, then
            the players' loss to coverage per round (units), all seats and each seat.
        """
        t, n = self.tallies, self.tallies.counts[ROUNDS]
        p = t.counts[SHORT] / n
        rows = [("Rounds the P/D cannot cover every winner", p, math.sqrt(p * (1 - p) / n))]
        rows.append(
            ("Players' loss to coverage per round, all seats (units)",
             *_mean_se(t.covered[2], t.covered[3], n))
        )  # fmt: skip
        for i in range(self.players):
            rows.append(
                (f"Seat {i + 1}'s loss to coverage per round (units)",
                 *_mean_se(t.shortfall[0, i], t.shortfall[1, i], n))
            )  # fmt: skip
        return pd.DataFrame(rows, columns=["Figure", "Value", "SE"])

    def ruin_table(self) -> pd.DataFrame:
        """The banker's risk of ruin over a shift, from the whole shifts simulated.

        Returns
        -------
        pandas.DataFrame
            Bankroll (units) | Shifts | P(ruin in a shift) | SE | Banker's result over a
            shift (units) | SE of the result, one row per bankroll; NaN where no whole shift
            was played (:meth:`notes`).
        """
        t = self.tallies
        shifts = t.counts[SHIFTS]
        rows = []
        for b, bankroll in enumerate(self.bank.bankrolls):
            p = t.shift[0, b] / shifts if shifts else math.nan
            mean, se = _mean_se(t.shift[1, b], t.shift[2, b], shifts)
            rows.append(
                {
                    "Bankroll (units)": bankroll,
                    "Shifts": int(shifts),
                    "P(ruin in a shift)": p,
                    "SE": math.sqrt(p * (1 - p) / shifts) if shifts else math.nan,
                    "Banker's result over a shift (units)": mean,
                    "SE of the result": se,
                }
            )
        return pd.DataFrame(rows)

    def notes(self) -> dict[str, str]:
        """Why a figure is missing (NaN in the tables, null in JSON) or its SE is 0, keyed
        by the part of :func:`to_dict` it is in (``"ruin"``, ``"seats"``, ...); empty when
        every figure stands. Each note is also in the JSON as ``"<part>_note"``, as a
        baccarat bet's ``house_edge_ties_excluded`` has ``house_edge_ties_excluded_note``.

        Returns
        -------
        dict of str to str
            The part's name -> why its figure is missing or its SE is 0.

        Examples
        --------
        >>> bank = Bank(bankrolls=(100,), shift_rounds=480)
        >>> one = BankFigures(1, bank, tally_rounds(np.array([[1.0]]), bank))
        >>> print(one.notes()["ruin"])  # doctest: +NORMALIZE_WHITESPACE
        undefined: no whole shift was played (a shift is 480 rounds, 1 were simulated),
        and ruin is read from whole shifts
        """
        t = self.tallies
        rounds, shifts = int(t.counts[ROUNDS]), int(t.counts[SHIFTS])
        out = {}
        if rounds < 2:
            one = "the SEs are undefined: one round gives no spread to estimate them from"
            out.update(seats=one, pd=one, coverage=one)
        if self.covariance_table()["Correlation"].isna().any():
            out["covariances"] = (
                "a correlation is undefined where a seat's result never varied (in one "
                "round, say): no spread to divide by"
            )
        if shifts == 0:
            out["ruin"] = (
                f"undefined: no whole shift was played (a shift is {self.bank.shift_rounds:,} "
                f"rounds, {rounds:,} were simulated), and ruin is read from whole shifts"
            )
            return out
        ruin = []
        if shifts == 1:
            ruin.append(
                "the SE of the result over a shift is undefined: one shift gives no spread "
                "to estimate it from"
            )
        for b, bankroll in enumerate(self.bank.bankrolls):
            ruined = int(t.shift[0, b])
            if ruined in (0, shifts):
                none = ruined == 0
                ruin.append(
                    f"bankroll {bankroll:g}: {'no' if none else 'every'} shift of {shifts:,} "
                    "ruined, so the SE of P(ruin) from the observed frequency is 0; at 95% "
                    f"P(ruin) is {'below' if none else 'above'} "
                    f"{3 / shifts if none else 1 - 3 / shifts:.3g} (the rule of three)"
                )
        if ruin:
            out["ruin"] = "; ".join(ruin)
        return out

    def rotation_table(
        self, wager: float, collection: float, rounds_per_hour: float
    ) -> pd.DataFrame:
        """Each of the ``players + 1`` people under rotation, at full coverage.

        Parameters
        ----------
        wager : float
            Money each person bets when not banking (above 0).
        collection : float
            Money each person pays the house every round (0 or more).
        rounds_per_hour : float
            Rounds dealt an hour (above 0).

        Returns
        -------
        pandas.DataFrame
            Person (seat) | Share of rounds banked | Result per round (units) | SE | Net per
            hour after collection | SE per hour, one row per person (the P/D last).
        """
        for name, value in (("wager", wager), ("rounds_per_hour", rounds_per_hour)):
            if not value > 0:
                raise GamecoreError(f"{name} must be above 0, got {shown(value)}")
        if not collection >= 0:
            raise GamecoreError(f"collection must be 0 or more, got {shown(collection)}")
        t, n = self.tallies, self.tallies.counts[ROUNDS]
        rows = []
        for person in range(self.players + 1):
            mean, se = _mean_se(t.rotation[0, person], t.rotation[1, person], n)
            rows.append(
                {
                    "Person (seat)": person + 1,
                    "Share of rounds banked": t.rotation[2, person] / n,
                    "Result per round (units)": mean,
                    "SE": se,
                    "Net per hour after collection": rounds_per_hour * (mean * wager - collection),
                    "SE per hour": rounds_per_hour * se * wager,
                }
            )
        return pd.DataFrame(rows)

    def exact_twins(self, ev: float, sd: float, sd_approximate: bool = False) -> pd.DataFrame:
        """The figures with exact values beside their twins (:func:`gamecore.twins.twin_table`),
        for a table dealt with a shuffle every round, where each seat's result has the
        heads-up distribution of EV ``ev`` and SD ``sd`` (each game's table module says
        why): every seat's EV and SD, the P/D's EV (minus the players times ``ev``), and
        each person's result under rotation (exactly 0).

        Parameters
        ----------
        ev : float
            The exact heads-up EV per round of a seat, units of its bet.
        sd : float
            The exact heads-up SD per round of a seat, units.
        sd_approximate : bool
            Whether to mark the SD twins :data:`gamecore.twins.APPROXIMATE` (the seats'
            SD not exactly the heads-up one).

        Returns
        -------
        pandas.DataFrame
            The twin table (:func:`gamecore.twins.twin_table`), one row per figure.
        """
        rounds = self.rounds
        # An approximate SD is never labelled exact (its twin is not ruled either).
        sd_source = "heads-up, approximate" if sd_approximate else "exact: heads-up"
        rows = []
        for seat in self.seat_table().to_dict("records"):
            where = {"Seat": seat["Seat"], "Rounds": rounds}
            rows.append(
                {"Figure": f"Seat {seat['Seat']} EV per round (exact: heads-up)", "Exact": ev,
                 "Simulated": seat["Mean"], "SE": seat["SE"], **where,
                 twins.APPROXIMATE: False}
            )  # fmt: skip
            rows.append(
                {"Figure": f"Seat {seat['Seat']} SD per round ({sd_source})", "Exact": sd,
                 "Simulated": seat["SD"], "SE": seat["SE of SD"], **where,
                 twins.APPROXIMATE: sd_approximate}
            )  # fmt: skip
        bank = self.bank_figures()
        rows.append(
            {"Figure": "P/D result per round at full coverage", "Exact": -self.players * ev,
             "Simulated": bank["P/D result per round"], "SE": bank["SE"], "Seat": "P/D",
             "Rounds": rounds, twins.APPROXIMATE: False}
        )  # fmt: skip
        for row in self.rotation_table(1.0, 0.0, 1.0).to_dict("records"):
            person = row["Person (seat)"]
            rows.append(
                {"Figure": f"Person {person} under rotation, result per round", "Exact": 0.0,
                 "Simulated": row["Result per round (units)"], "SE": row["SE"],
                 "Seat": person, "Rounds": rounds, twins.APPROXIMATE: False}
            )  # fmt: skip
        return twins.twin_table(rows)


def tally_rounds(results: np.ndarray, bank: Bank) -> BankTallies:
    """The tallies of one chunk of consecutive rounds of one table.

    Parameters
    ----------
    results : numpy.ndarray
        Shape (rounds, players): each round's result by seat, players' side, units of a
        player's bet (any real dtype; read as float64).
    bank : Bank
        How the P/D banks.

    Returns
    -------
    BankTallies
        The chunk's sums; a run's chunks add up (:func:`gamecore.parallel.sum_tallies`).
    """
    results = np.ascontiguousarray(results, dtype=np.float64)
    t = new_bank_tallies(results.shape[1], len(bank.bankrolls))
    add_rounds(
        results, float(bank.stake), np.array(bank.bankrolls), int(bank.shift_rounds),
        int(bank.turn_rounds), float(bank.ruin_below), t,
    )  # fmt: skip
    return t


def to_dict(figures: BankFigures) -> dict[str, Any]:
    """The figures as JSON-ready values.

    Parameters
    ----------
    figures : BankFigures
        A full table's figures.

    Returns
    -------
    dict of str to Any
        ``rounds``, ``bank`` (the parameters; an unlimited stake is null), ``seats``,
        ``covariances``, ``pd``, ``coverage``, ``ruin``; each part's
        :meth:`BankFigures.notes` beside it as ``"<part>_note"`` (only where a figure of
        that part is null or its SE is 0).
    """
    return {
        "rounds": figures.rounds,
        "bank": dataclasses.asdict(figures.bank),  # stake null: it covers every payoff
        "seats": figures.seat_table().to_dict("records"),
        "covariances": figures.covariance_table().to_dict("records"),
        "pd": figures.bank_figures(),
        "coverage": figures.coverage_table().to_dict("records"),
        "ruin": figures.ruin_table().to_dict("records"),
        **{f"{part}_note": note for part, note in figures.notes().items()},
    }
