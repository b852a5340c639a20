"""Wagers as data: a paytable over named events, settled against an exact breakdown.

A game's exact engine produces a *breakdown*: the number of ways (or, for an infinite shoe,
the limiting weight) of every final state it distinguishes, such as (player cards, banker
cards, player total, banker total) in baccarat. An *event* is a boolean mask over that
breakdown ("banker wins", "Dragon 7"). A *wager* is an ordered paytable: the first line whose
event holds settles the bet at that line's net payout. Adding a side bet therefore means
writing an event and a paytable; no kernel changes.

All arithmetic is exact (``fractions.Fraction``); floats appear only in the returned tables.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from gamecore.cards import validate_decks
from gamecore.errors import GamecoreError, shown

if TYPE_CHECKING:  # pandas is imported where a table is built, not with the module
    import pandas as pd


def odds(pays: Fraction) -> str:
    """A paytable line's net payout as a player reads it: "N to M" in lowest terms, a push,
    or the bet lost.

    Parameters
    ----------
    pays : Fraction
        The net payout per unit wagered (-1 the bet lost, 0 a push).

    Returns
    -------
    str
        ``"N to M"``, ``"push"``, ``"loses"`` or ``"loses F"`` (part of the bet lost).

    Examples
    --------
    >>> odds(Fraction(19, 20)), odds(Fraction(8)), odds(Fraction(0)), odds(Fraction(-1))
    ('19 to 20', '8 to 1', 'push', 'loses')
    >>> odds(Fraction(-1, 2))
    'loses 1/2'
    """
    pays = Fraction(pays)
    if pays == 0:
        return "push"
    if pays == -1:
        return "loses"
    if pays < 0:
        return f"loses {-pays}"
    return f"{pays.numerator} to {pays.denominator}"


@dataclass(frozen=True)
class PaytableLine:
    """One line of a paytable.

    Attributes
    ----------
    outcome
        The label printed in the Outcome column.
    event
        Name of the event (in the game's event catalogue) that selects this line.
    pays
        Net units won per unit wagered: ``1`` for even money, ``0`` for a push, ``-1`` for
        a lost wager.
    """

    outcome: str
    event: str
    pays: Fraction


@dataclass(frozen=True)
class Wager:
    """A bet: its key, its printed title, and its paytable (first matching line settles it).

    ``ties_excluded`` names the event (a tie) whose rounds are dropped for the "house edge,
    ties excluded" figure quoted for Banker and Player bets; ``None`` where not meaningful.
    """

    name: str
    title: str
    lines: tuple[PaytableLine, ...]
    ties_excluded: str | None = None

    def __post_init__(self) -> None:
        if not self.lines:
            raise GamecoreError(f"wager {shown(self.name)} has an empty paytable")
        for line in self.lines:
            if not isinstance(line.pays, Fraction) or line.pays < -1:
                raise GamecoreError(
                    f"wager {shown(self.name)}: line {shown(line.outcome)} pays "
                    f"{shown(line.pays)}; "
                    "a net payout must be an exact number of at least -1 (the stake)"
                )


@dataclass(frozen=True)
class WagerAnalysis:
    """The exact settlement of one wager.

    Attributes
    ----------
    wager
        The wager settled.
    combinations
        Ways per paytable line (Python ints), or ``None`` for an infinite shoe.
    probabilities
        Exact probability per paytable line.
    total
        Number of equally likely card sequences (``None`` for an infinite shoe).
    """

    wager: Wager
    combinations: tuple[int, ...] | None
    probabilities: tuple[Fraction, ...]
    total: int | None

    @property
    def expected_value(self) -> Fraction:
        """Bettor's exact expected net result per unit of initial wager."""
        return sum(
            (p * line.pays for p, line in zip(self.probabilities, self.wager.lines, strict=True)),
            Fraction(0),
        )

    @property
    def house_edge(self) -> Fraction:
        """Exact house edge per unit of initial wager (positive when the house wins)."""
        return -self.expected_value

    @property
    def variance(self) -> Fraction:
        second = sum(
            (
                p * line.pays**2
                for p, line in zip(self.probabilities, self.wager.lines, strict=True)
            ),
            Fraction(0),
        )
        return second - self.expected_value**2

    @property
    def sd(self) -> float:
        """Standard deviation of the net result per unit wagered."""
        return math.sqrt(self.variance)

    @property
    def hit_frequency(self) -> Fraction:
        """Probability that the bet wins (net result above zero)."""
        return sum(
            (
                p
                for p, line in zip(self.probabilities, self.wager.lines, strict=True)
                if line.pays > 0
            ),
            Fraction(0),
        )

    @property
    def push_probability(self) -> Fraction:
        return sum(
            (
                p
                for p, line in zip(self.probabilities, self.wager.lines, strict=True)
                if line.pays == 0
            ),
            Fraction(0),
        )

    def result_distribution(self) -> dict[Fraction, Fraction]:
        """{net result per unit wagered: exact probability} (lines paying alike merged).

        Returns
        -------
        dict of Fraction to Fraction
            Net result -> its exact probability, in paytable order.
        """
        out: dict[Fraction, Fraction] = {}
        for p, line in zip(self.probabilities, self.wager.lines, strict=True):
            out[line.pays] = out.get(line.pays, Fraction(0)) + p
        return out

    def table(self) -> pd.DataFrame:
        """Outcome | Pays | Combinations | Probability | Return, with a Total row.

        Returns
        -------
        pandas.DataFrame
            A row per paytable line, then Total (Combinations ``None`` where the weights
            are not integer counts).
        """
        import pandas as pd

        rows = []
        for i, line in enumerate(self.wager.lines):
            probability = self.probabilities[i]
            rows.append(
                {
                    "Outcome": line.outcome,
                    "Pays": float(line.pays),
                    "Combinations": None if self.combinations is None else self.combinations[i],
                    "Probability": float(probability),
                    "Return": float(probability * line.pays),
                }
            )
        rows.append(
            {
                "Outcome": "Total",
                "Pays": None,
                "Combinations": self.total,
                "Probability": float(sum(self.probabilities, Fraction(0))),
                "Return": float(self.expected_value),
            }
        )
        frame = pd.DataFrame(rows)
        frame["Combinations"] = frame["Combinations"].astype(object)
        return frame


def settle(
    wager: Wager,
    events: dict[str, np.ndarray],
    weights: np.ndarray,
    total: int | Fraction,
    exact_counts: bool,
) -> WagerAnalysis:
    """Settle ``wager`` over a breakdown.

    Parameters
    ----------
    wager
        The wager and its paytable.
    events
        Event name -> boolean mask with the breakdown's shape.
    weights
        Object array of exact weights per breakdown cell (ints for a finite shoe).
    total
        The sum the weights are normalised by.
    exact_counts
        Whether the weights are integer counts of card sequences (printed as Combinations).

    Returns
    -------
    WagerAnalysis
        Each line's exact probability (and count of card sequences when
        ``exact_counts``); a :class:`GamecoreError` where a line names an unknown event or
        the paytable leaves a cell of nonzero weight unsettled.
    """
    unsettled = np.ones(weights.shape, dtype=bool)
    shares = []
    for line in wager.lines:
        if line.event not in events:
            raise GamecoreError(
                f"wager {shown(wager.name)} uses unknown event {shown(line.event)}; known events: "
                + ", ".join(sorted(events))
            )
        selected = unsettled & events[line.event]
        unsettled &= ~selected
        shares.append(sum(weights[selected].tolist(), 0))
    leftover = sum(weights[unsettled].tolist(), 0)
    if leftover != 0:
        raise GamecoreError(
            f"the paytable of wager {shown(wager.name)} leaves some possible rounds unsettled; "
            "end it with a line for every other outcome"
        )
    probabilities = tuple(Fraction(share) / total for share in shares)
    return WagerAnalysis(
        wager=wager,
        combinations=tuple(int(s) for s in shares) if exact_counts else None,
        probabilities=probabilities,
        total=int(total) if exact_counts else None,
    )


def net_by_cell(wager: Wager, events: dict[str, np.ndarray]) -> np.ndarray:
    """The wager's net result in every breakdown cell, as float64 (for simulation kernels).

    The first paytable line whose event holds settles a cell, as in :func:`settle`; cells no
    line settles are refused.

    Parameters
    ----------
    wager : Wager
        The wager and its paytable.
    events : dict of str to numpy.ndarray
        Event name -> boolean mask with the breakdown's shape.

    Returns
    -------
    numpy.ndarray
        The net payout per unit wagered of each cell, float64, the breakdown's shape.
    """
    shape = next(iter(events.values())).shape
    net = np.full(shape, np.nan)
    unsettled = np.ones(shape, dtype=bool)
    for line in wager.lines:
        if line.event not in events:
            raise GamecoreError(f"wager {shown(wager.name)} uses unknown event {shown(line.event)}")
        selected = unsettled & events[line.event]
        net[selected] = float(line.pays)
        unsettled &= ~selected
    if unsettled.any():
        raise GamecoreError(f"the paytable of wager {shown(wager.name)} leaves cells unsettled")
    return net


def wager_named(wagers: Sequence[Wager], name: str, game: str | None = None) -> Wager:
    """The wager called ``name`` among a rule set's ``wagers``.

    Parameters
    ----------
    wagers : sequence of Wager
        The rule set's wagers (``rules.wagers()``).
    name : str
        The bet asked for.
    game : str, optional
        The game's name, for the refusal's message.

    Returns
    -------
    Wager
        The wager of that name (another name: a :class:`GamecoreError` listing the bets).
    """
    by_name = {wager.name: wager for wager in wagers}
    if name not in by_name:
        where = f" for {game}" if game else ""
        raise GamecoreError(f"unknown bet {shown(name)}{where}; bets: {', '.join(by_name)}")
    return by_name[name]


def simulated_figures(simulated: WagerAnalysis) -> dict[str, float]:
    """A simulated wager's EV twin and its standard error, from the rounds it settled.

    The sums are exact (``Fraction``) before the one conversion to float, so a figure does
    not depend on the order the rounds were tallied in.

    Parameters
    ----------
    simulated : WagerAnalysis
        The wager settled against simulated round counts (:func:`settle` with the counts
        as combinations and the number of rounds as the total).

    Returns
    -------
    dict of str to float
        ``rounds``, ``sum`` and ``sum_of_squares`` of the net results in units wagered,
        their ``mean`` (the exact EV's twin) and its standard error ``se`` (the sample
        standard deviation over the square root of the rounds).
    """
    rounds = simulated.total
    lines = list(zip(simulated.combinations, simulated.wager.lines, strict=True))
    total = sum((count * line.pays for count, line in lines), Fraction(0))
    squares = sum((count * line.pays**2 for count, line in lines), Fraction(0))
    mean = total / rounds
    variance = (squares - rounds * mean**2) / max(rounds - 1, 1)
    return {
        "rounds": rounds,
        "sum": float(total),
        "sum_of_squares": float(squares),
        "mean": float(mean),
        "se": math.sqrt(variance / rounds),
    }


def sweep_deck_counts(decks: int | Iterable[int]) -> list[int]:
    """The deck counts of a deck sweep.

    Parameters
    ----------
    decks : int or iterable of int
        The largest deck count (the sweep runs 1..decks), or the deck counts themselves.

    Returns
    -------
    list of int
        The deck counts, each validated as :func:`gamecore.cards.validate_decks` does.
    """
    if isinstance(decks, Iterable):
        return [validate_decks(d, "deck sweep's deck count") for d in decks]
    return list(range(1, validate_decks(decks, "deck sweep's largest deck count") + 1))


def deck_sweep_table(
    analyses: Sequence[Any], labels: Sequence[str], outcomes: Mapping[str, Any]
) -> pd.DataFrame:
    """A deck sweep as a table: each outcome's probability and each bet's house edge.

    Parameters
    ----------
    analyses : sequence
        One exact analysis per row, each with ``probability(event)`` and ``wagers()`` (a
        game's exact result over a breakdown its events mask).
    labels : sequence of str
        The Decks column, one per analysis (``"8"``, ``"infinite"``).
    outcomes : mapping of str to event
        Outcome title (``Tie, same suit``) -> its event over the analyses' breakdown.

    Returns
    -------
    pandas.DataFrame
        Decks | P(<outcome's title>) ... | <wager's title> house edge ...
    """
    import pandas as pd

    rows = []
    for label, analysis in zip(labels, analyses, strict=True):
        row: dict[str, Any] = {"Decks": label}
        for title, event in outcomes.items():
            row[f"P({title})"] = float(analysis.probability(event))
        for wager in analysis.wagers().values():  # named as the reports name it: by title
            row[f"{wager.wager.title} house edge"] = float(wager.house_edge)
        rows.append(row)
    return pd.DataFrame(rows)
