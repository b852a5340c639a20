"""A side bet's par sheet: Outcome | Pays | Combinations | Probability | Return, and the
house edge, standard deviation and hit frequency, all from the exact counts.

The expected return and the variance are computed as fractions (the payouts are exact
fractions and the counts exact integers), so the house edge is exact; only the standard
deviation, a square root, is a float.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from gamecore import cards
from gamecore.errors import GamecoreError, shown
from gamecore.sidebets.definition import LOSES, SideBet
from gamecore.sidebets.exact import count_outcomes


@dataclass(frozen=True)
class Line:
    """One line of a par sheet.

    Attributes
    ----------
    name : str
        The outcome's name (:data:`gamecore.sidebets.definition.LOSES` for the remainder).
    pays : fractions.Fraction
        The payout to 1 (-1 for the losing line).
    pays_text : str
        The payout as written (``"11 to 1"``, ``"push"``, ``"-1"``).
    combinations : int
        The deals paid on this line, exact.
    probability : float
        ``combinations / total``.
    """

    name: str
    pays: Fraction
    pays_text: str
    combinations: int
    probability: float

    @property
    def expected_return(self) -> float:
        """The line's share of the expected return per unit wagered: pays x probability."""
        return float(self.pays) * self.probability


@dataclass(frozen=True)
class ParSheet:
    """A side bet's exact figures at one shoe.

    Attributes
    ----------
    bet : SideBet
        The definition.
    decks : int
        The deck count of the shoe.
    total : int
        Every deal's ways (:func:`gamecore.sidebets.exact.count_outcomes`).
    lines : tuple of Line
        The outcomes in order, then the losing line.
    expected_return : fractions.Fraction
        The exact expected return per unit wagered (negative: the house's edge).
    variance : fractions.Fraction
        The exact variance of the result per unit wagered.
    never : tuple of str
        Outcomes that cannot happen at all with this shoe (0 ways, matched by no deal).
    """

    bet: SideBet
    decks: int
    total: int
    lines: tuple[Line, ...]
    expected_return: Fraction
    variance: Fraction
    never: tuple[str, ...]

    @property
    def house_edge(self) -> float:
        """The house edge, a fraction of the wager (positive when the house wins)."""
        return float(-self.expected_return)

    @property
    def sd(self) -> float:
        """The standard deviation of one wager's result, in units of the wager."""
        return math.sqrt(self.variance)

    @property
    def hit_frequency(self) -> float:
        """The probability the wager wins (pays more than 0)."""
        return sum(line.probability for line in self.lines if line.pays > 0)


def par_sheet(bet: SideBet, decks: int | None = None) -> ParSheet:
    """The exact par sheet of ``bet`` dealt from ``decks`` standard decks.

    Parameters
    ----------
    bet : SideBet
        A checked definition.
    decks : int, optional
        The deck count, 1..1000 (default: the definition's).

    Returns
    -------
    ParSheet
        Every outcome's exact ways and the bet's figures.

    Raises
    ------
    GamecoreError
        ``decks`` outside 1..1000, or an outcome that is never paid because earlier
        outcomes take every deal it matches (naming it and its line).
    """
    decks = bet.decks if decks is None else cards.validate_decks(decks)
    total, paid, matched = count_outcomes(bet, cards.standard(decks))
    for outcome, ways, own in zip(bet.outcomes, paid[:-1], matched, strict=True):
        if ways == 0 and own > 0:
            where = f"{bet.origin}:{outcome.line}" if outcome.line else bet.origin
            raise GamecoreError(
                f"{where}: outcome {shown(outcome.name)} is never paid: every deal it matches "
                f"is taken by an earlier outcome ({decks} decks)"
            )
    pays = [outcome.pays for outcome in bet.outcomes] + [Fraction(-1)]
    texts = [outcome.pays_text for outcome in bet.outcomes] + ["-1"]
    names = [outcome.name for outcome in bet.outcomes] + [LOSES]
    lines = tuple(
        Line(name, pay, text, ways, ways / total)
        for name, pay, text, ways in zip(names, pays, texts, paid, strict=True)
    )
    mean = sum(Fraction(ways, total) * pay for ways, pay in zip(paid, pays, strict=True))
    second = sum(Fraction(ways, total) * pay * pay for ways, pay in zip(paid, pays, strict=True))
    never = tuple(o.name for o, own in zip(bet.outcomes, matched, strict=True) if own == 0)
    return ParSheet(bet, decks, total, lines, mean, second - mean * mean, never)


def sheet_json(sheet: ParSheet) -> dict[str, Any]:
    """The par sheet as the JSON document of ``gamecore sidebet --json``.

    Parameters
    ----------
    sheet : ParSheet
        A par sheet.

    Returns
    -------
    dict
        ``bet``, ``title``, ``game``, ``decks``, ``total_combinations``, ``outcomes`` (each
        ``name``, ``pays`` as a number to 1, ``pays_text``, ``combinations``,
        ``probability``, ``return``), ``house_edge``, ``house_edge_exact`` (a fraction
        ``"p/q"``), ``sd``, ``hit_frequency``, ``never_happen``, ``rules`` and
        ``definition`` (where it was read from and its SHA-256).
    """
    bet = sheet.bet
    return {
        "bet": bet.bet,
        "title": bet.title,
        "game": bet.game,
        "decks": sheet.decks,
        "rules": {"game": bet.game, "decks": sheet.decks, "drawing": _drawing(bet.game)},
        "total_combinations": sheet.total,
        "outcomes": [
            {
                "name": line.name,
                "pays": float(line.pays),
                "pays_text": line.pays_text,
                "combinations": line.combinations,
                "probability": line.probability,
                "return": line.expected_return,
            }
            for line in sheet.lines
        ],
        "house_edge": sheet.house_edge,
        "house_edge_exact": str(-sheet.expected_return),
        "sd": sheet.sd,
        "hit_frequency": sheet.hit_frequency,
        "never_happen": list(sheet.never),
        "definition": {"origin": bet.origin, "sha256": bet.sha256},
    }


def _drawing(game: str) -> str:
    """What decides the cards of a deal."""
    if game == "baccarat":
        return "punto banco tableau, every round counted as six cards"
    return "the first four cards (player's two, dealer's up and hole), before any play"


def print_sheet(sheet: ParSheet) -> None:
    """Print the par sheet as text: the table, then the figures.

    Parameters
    ----------
    sheet : ParSheet
        A par sheet.
    """
    bet = sheet.bet
    print(f"{bet.title} ({bet.game}, {sheet.decks} decks)")
    if bet.description:
        print(bet.description)
    rows = [("Outcome", "Pays", "Combinations", "Probability", "Return")]
    for line in sheet.lines:
        rows.append(
            (
                line.name,
                line.pays_text,
                f"{line.combinations:,}",
                f"{line.probability:.8f}",
                f"{line.expected_return:+.8f}",
            )
        )
    expected = f"{float(sheet.expected_return):+.8f}"
    rows.append(("Total", "", f"{sheet.total:,}", "1.00000000", expected))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    for row in rows:
        cells = [row[0].ljust(widths[0]), row[1].ljust(widths[1])]
        cells += [cell.rjust(width) for cell, width in zip(row[2:], widths[2:], strict=True)]
        print("  ".join(cells))
    print(
        f"house edge {sheet.house_edge:.4%}   sd {sheet.sd:.4f}   "
        f"hit frequency {sheet.hit_frequency:.4%}"
    )
    decks = f"{sheet.decks} deck" + ("s" if sheet.decks != 1 else "")
    for name in sheet.never:
        print(f"note: {name!r} cannot happen with {decks}")
