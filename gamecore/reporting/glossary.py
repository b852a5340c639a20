"""A par sheet's glossary: the terms that sheet uses, each as its game means it.

One glossary for every game defined the baccarat "19 to 20" on blackjack sheets and left
"loses 1/2" undefined. :func:`glossary` chooses each term from what the sheet prints: a
column it shows (Combinations, How obtained, Limit, Verdict), a payout it quotes (each odds
word defined where it appears, its example one of the sheet's own payouts), and the games it
is of (the P/D where a player banks the game, the Natural and net results in blackjack).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["glossary"]

#: The games a player banks, where the house's edge is the P/D's (player/dealer's).
PLAYER_BANKED = ("c21_baccarat", "c21_blackjack")
#: The blackjack games (a Natural, net results of several units).
BLACKJACK = ("standard_blackjack", "c21_blackjack")

_ODDS = re.compile(r"^(\d[\d,]*) to (\d[\d,]*)$")


def _example_odds(pays: Iterable[str]) -> str:
    """A payout of the sheet's own to explain odds by: one that is not ``n to 1`` where the
    sheet has one (it shows both numbers' roles), else its first, else 8 to 1."""
    found = [p for p in pays if _ODDS.match(p)]
    for text in found:
        if not text.endswith(" to 1"):
            return text
    return found[0] if found else "8 to 1"


def _odds_text(example: str) -> str:
    """What odds mean, by ``example`` (``19 to 20: 19 won for 20 wagered``)."""
    won, wagered = _ODDS.match(example).groups()
    return f"{example}: {won} won for every {wagered} wagered, the wager kept"


def _pays_entry(pays: set[str]) -> tuple[str, str]:
    """The Pays term: odds by one of the sheet's payouts, then each word the sheet uses."""
    parts = [
        "the net payout per unit wagered on that outcome, as odds ("
        + _odds_text(_example_odds(sorted(pays)))
        + ")"
    ]
    if "push" in pays:
        parts.append("push: the wager returned, nothing won or lost")
    if "loses" in pays:
        parts.append("loses: the wager lost")
    halves = sorted(p for p in pays if p.startswith("loses ") and p != "loses")
    for text in halves:
        parts.append(f"{text}: that fraction of the wager lost, the rest returned")
    for text in sorted(p for p in pays if p.startswith("wins ") or p.startswith("pays ")):
        parts.append(f"{text}: as written, per unit wagered")
    return "Pays", "; ".join(parts)


def _column_terms(columns: set[str]) -> list[tuple[str, str]]:
    """The terms of the columns a sheet may show after its figures: how each was obtained, a
    counting verdict, a limit."""
    terms: list[tuple[str, str]] = []
    if "How obtained" in columns:
        terms.append((
            "How obtained", "exact: from integer counts of card sequences (or, in "
            "blackjack, a recursion in 64-bit floating point, exact to about 10⁻¹⁵); exact "
            "to ± a bound: the figure's largest possible error stated; simulated: a Monte "
            "Carlo estimate with its standard error (SE)",
        ))  # fmt: skip
    if "Verdict" in columns or any(c.startswith("Verdict") for c in columns):
        terms.append((
            "Verdict", "countable when a counter's gain clears the threshold by more than 4 "
            "standard errors, not countable when it falls short by more than 4, undecided "
            "otherwise",
        ))  # fmt: skip
    if "Limit" in columns:
        terms.append((
            "Limit", "a bound the author of a limits file sets on a wager (a jurisdiction's "
            "as they write it): PASS when the exact figure is within it",
        ))  # fmt: skip
    return terms


def glossary(
    games: Iterable[str], columns: Iterable[str], pays: Iterable[str]
) -> list[dict[str, str]]:
    """The glossary of one par sheet.

    Parameters
    ----------
    games : iterable of str
        The games the sheet is of (code names; none for a sheet of side bets).
    columns : iterable of str
        Every column heading the sheet's tables print.
    pays : iterable of str
        Every payout the sheet's bet tables print, as printed (``19 to 20``, ``push``,
        ``loses 1/2``).

    Returns
    -------
    list of dict
        ``{"term": ..., "text": ...}`` in the order a reader meets them.

    Examples
    --------
    >>> [g["term"] for g in glossary(["punto_banco"], ["Combinations"], ["1 to 1"])][:3]
    ['House edge', 'Pays', 'Combinations']
    """
    games, columns, pays = list(games), set(columns), set(pays)
    banked = [g for g in games if g in PLAYER_BANKED]
    blackjack = [g for g in games if g in BLACKJACK]
    terms: list[tuple[str, str]] = []
    if banked:
        terms.append((
            "P/D", "the player/dealer: the seat that banks the game, taken in turn by the "
            "players; the house deals and takes a collection, and banks no wager",
        ))  # fmt: skip
        edge = "the P/D's expected win per unit the players wager, exact; the player's EV is "
    else:
        edge = "the house's expected win per unit wagered; the player's EV is "
    terms.append(("House edge", edge + "its negative"))
    if pays:
        terms.append(_pays_entry(pays))
    if "Combinations" in columns:
        terms.append((
            "Combinations", "the exact number of ordered card sequences drawn from the "
            "full shoe that give that outcome (every round counted over the same number of "
            "cards, so the counts add up to the Total row)",
        ))  # fmt: skip
    if "Probability" in columns:
        terms.append(("Probability", "combinations divided by the Total row's combinations"))
    if "Return" in columns:
        terms.append((
            "Return", "probability times pays, as a percentage of the wager; the Total row "
            "is the player's EV",
        ))  # fmt: skip
    if blackjack:
        terms.append((
            "Net result", "the player's win (+) or loss (-) over a whole round, in units of "
            "the initial wager, doubles and splits included; a Natural paid is its own row",
        ))  # fmt: skip
        terms.append(("EV", "expected value: the mean net result per unit of initial wager"))
    terms += [
        ("SD", "the standard deviation of the net result of one round, in units of the wager"),
        ("Hit frequency", "the probability that the player's wager wins a round (net result "
         "above 0)"),
        ("Hold, 95% band", "the range the house's hold falls in 95 times in 100 after that "
         "many rounds (the normal approximation from the exact mean and SD)"),
    ]  # fmt: skip
    terms += _column_terms(columns)
    return [{"term": term, "text": text} for term, text in terms]

