"""A side bet's par sheet: Outcome | Pays | Combinations | Probability | Return, and the
house edge, standard deviation and hit frequency, all from the exact counts.

The expected return and the variance are computed as fractions (the payouts are exact
fractions and the counts exact integers), so the house edge is exact; only the standard
deviation, a square root, is a float.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from gamecore import cards, rulewords
from gamecore.errors import GamecoreError, shown
from gamecore.sidebets.dealer_final import MAX_DRAWS, dealt_before_draws, reads_final
from gamecore.sidebets.definition import LOSES, TOTAL, SideBet
from gamecore.sidebets.exact import count_outcomes, dealt_cards
from gamecore.sidebets.program import compile_bet
from gamecore.sidebets.work import check_work
from gamecore.wagers import PaytableLine, Wager, WagerAnalysis, odds


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
        The payout as written (``"11 to 1"``, ``"push"``; ``"loses"`` for the remainder).
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
        return float(self.pays) * self.probability + 0.0  # + 0.0: a 0-way loss is 0, not -0


@dataclass(frozen=True)
class ParSheet:
    """A side bet's exact figures at one shoe, settled as every wager of the suite is
    (:class:`gamecore.wagers.WagerAnalysis`).

    Attributes
    ----------
    bet : SideBet
        The definition.
    decks : int
        The deck count of the shoe.
    analysis : gamecore.wagers.WagerAnalysis
        The wager settled: a paytable line per outcome, then the losing line, with each
        line's exact ways and probability.
    never : tuple of str
        Outcomes that cannot happen at all with this shoe (0 ways, matched by no deal).
    """

    bet: SideBet
    decks: int
    analysis: WagerAnalysis
    never: tuple[str, ...]

    @property
    def total(self) -> int:
        """Every deal's ways (:func:`gamecore.sidebets.exact.count_outcomes`)."""
        return int(self.analysis.total)

    @property
    def lines(self) -> tuple[Line, ...]:
        """The outcomes in order, then the losing line."""
        texts = [outcome.pays_text for outcome in self.bet.outcomes] + [odds(Fraction(-1))]
        return tuple(
            Line(line.outcome, line.pays, text, ways, float(probability))
            for line, text, ways, probability in zip(
                self.analysis.wager.lines,
                texts,
                self.analysis.combinations,
                self.analysis.probabilities,
                strict=True,
            )
        )

    @property
    def expected_return(self) -> Fraction:
        """The exact expected return per unit wagered (negative: the house's edge)."""
        return self.analysis.expected_value

    @property
    def variance(self) -> Fraction:
        """The exact variance of one wager's result per unit wagered."""
        return self.analysis.variance

    @property
    def house_edge(self) -> float:
        """The house edge, a fraction of the wager (positive when the house wins)."""
        return float(self.analysis.house_edge)

    @property
    def sd(self) -> float:
        """The standard deviation of one wager's result, in units of the wager."""
        return self.analysis.sd

    @property
    def hit_frequency(self) -> float:
        """The probability the wager wins (pays more than 0)."""
        return float(self.analysis.hit_frequency)


def as_wager(bet: SideBet) -> Wager:
    """The bet as the suite's wager model: a paytable line per outcome, in order, then
    the losing line (every deal no outcome takes).

    Parameters
    ----------
    bet : SideBet
        A checked definition.

    Returns
    -------
    gamecore.wagers.Wager
        Its lines' ``event`` is the outcome's index (``"0"``, ``"1"``, ..., then ``"loses"``).
    """
    lines = [
        PaytableLine(outcome.name, str(index), outcome.pays)
        for index, outcome in enumerate(bet.outcomes)
    ]
    lines.append(PaytableLine(LOSES, "loses", Fraction(-1)))
    return Wager(bet.bet, bet.title, tuple(lines))


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
        ``decks`` outside 1..1000; a count past the bound of
        :data:`gamecore.sidebets.work.MAX_DEALS` (before any counting); or an outcome that
        is never paid at any deck count because earlier outcomes take every deal it
        matches (:func:`_refuse_outcomes_never_paid`), whatever ``decks`` is.
    """
    decks = bet.decks if decks is None else cards.validate_decks(decks)
    check_work(bet, decks)
    total, paid, matched = count_outcomes(bet, cards.standard(decks))
    _refuse_outcomes_never_paid(bet, decks, paid, matched)
    analysis = WagerAnalysis(
        as_wager(bet), tuple(paid), tuple(Fraction(ways, total) for ways in paid), total
    )
    never = tuple(o.name for o, own in zip(bet.outcomes, matched, strict=True) if own == 0)
    return ParSheet(bet, decks, analysis, never)


def every_deal_decks(bet: SideBet, decks: int) -> int:
    """The deck count at which every deal the count visits can happen, at least ``decks``.

    Parameters
    ----------
    bet : SideBet
        A checked definition.
    decks : int
        The deck count asked for.

    Returns
    -------
    int
        ``max(decks, cards dealt)``: a deal of ``n`` cards draws at most ``n`` of any kind
        the bet tells apart, and every kind holds at least one card a deck (a point class
        four), so from ``n`` decks on no deal runs a kind out. The deals that can happen
        only grow with the decks, and which outcome a deal pays (or matches) depends on its
        cards alone, so an outcome paid at no count from 1 to 1,000 is paid at none at this
        count either (``n`` is at most 15, a dealer's final hand dealt in full, inside the
        bet's range).
    """
    return max(decks, dealt_cards(bet, compile_bet(bet)))


def _refuse_outcomes_never_paid(
    bet: SideBet, decks: int, paid: list[int], matched: list[int]
) -> None:
    """Refuse an outcome that earlier outcomes take whole at every deck count.

    An outcome with 0 ways at ``decks`` that some deal matches at a larger count, and that
    is paid there, stays on the sheet (it cannot happen at this count); one whose every
    matching deal, at every count, is paid by earlier outcomes is a mistake in the order.
    Deciding it takes the count at :func:`every_deal_decks`: the count asked for where
    that is ``decks`` (``paid`` and ``matched``, its counts), else one more count at up to
    6 decks (same deals per pass as the one asked for, one pass: within the work bound
    whenever the count asked for is).

    Raises
    ------
    GamecoreError
        Naming the first such outcome, its line, and the earlier outcomes that take its
        deals, in one line.
    """
    every = every_deal_decks(bet, decks)
    if every != decks:
        if all(ways > 0 for ways in paid[:-1]):
            return  # paid at this count: paid at every larger one
        check_work(bet, every)
        _, paid, matched = count_outcomes(bet, cards.standard(every))
    for index, outcome in enumerate(bet.outcomes):
        if paid[index] == 0 and matched[index] > 0:
            where = f"{bet.origin}:{outcome.line}" if outcome.line else bet.origin
            takers = ", ".join(shown(name) for name in _takers(bet, index, every))
            raise GamecoreError(
                f"{where}: outcome {shown(outcome.name)} is never paid: at every deck count, "
                f"every deal it matches is taken by an earlier outcome ({takers}); refused at "
                f"{rulewords.decks(decks)} as at any other"
            )


def _takers(bet: SideBet, index: int, decks: int) -> list[str]:
    """The earlier outcomes that pay some deal outcome ``index`` matches, at ``decks``:
    the paid lines of a bet whose outcomes are the earlier ones, each with ``index``'s
    conditions added (it reads no card the bet does not, so it costs no more)."""
    shadowed = bet.outcomes[index]
    joint = tuple(
        replace(outcome, conditions=outcome.conditions + shadowed.conditions)
        for outcome in bet.outcomes[:index]
    )
    _, paid, _ = count_outcomes(replace(bet, outcomes=joint), cards.standard(decks))
    return [outcome.name for outcome, ways in zip(joint, paid, strict=False) if ways > 0]


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
        ``"p/q"``), ``sd``, ``hit_frequency``, ``never_happen``, ``rules`` (the game, the
        decks and the drawing, :func:`drawing_words`) and
        ``definition`` (where it was read from and its SHA-256).
    """
    bet = sheet.bet
    return {
        "bet": bet.bet,
        "title": bet.title,
        "game": bet.game,
        "decks": sheet.decks,
        "rules": {"game": bet.game, "decks": sheet.decks, "drawing": drawing_words(bet)},
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


def drawing_words(bet: SideBet) -> str:
    """What decides the cards of a deal: the model the counts are exact under, in words.

    Parameters
    ----------
    bet : SideBet
        A checked definition.

    Returns
    -------
    str
        Baccarat's tableau; a blackjack bet's first four cards; or, for a bet on the
        dealer's final hand, the dealer's drawing (:mod:`gamecore.sidebets.dealer_final`):
        the cards named, the soft-17 rule and the peek, nobody drawing first, a natural as
        two cards totalling 21, and the cards every deal is counted as.
    """
    if bet.game == "baccarat":
        return "punto banco tableau, every round counted as six cards"
    if not reads_final(bet):
        return "the first four cards (player's two, dealer's up and hole), before any play"
    named = dealt_before_draws(bet)
    cards_named = (
        "the player's two cards, the dealer's up card and hole card"
        if named == 4
        else "the dealer's up card and hole card"
    )
    return (
        f"{cards_named}, then the dealer's draws to 17 or more from the shoe less those "
        f"cards alone (no other hand is dealt or drawn first); {bet.dealer.words()}; a "
        "dealer natural is a final hand of two cards totalling 21 (not a bust), with or "
        f"without the peek; every deal counted as {named + MAX_DRAWS} cards"
    )


def _signed(value: float) -> str:
    """``value`` signed, to 8 places; a value that rounds to zero is ``+0.00000000``, never
    ``-0.00000000`` (a line no deal takes, or a loss too small for 8 places, is no loss)."""
    text = f"{value:+.8f}"
    return f"{0.0:+.8f}" if float(text) == 0 else text


def print_sheet(sheet: ParSheet) -> None:
    """Print the par sheet as text: the table, then the figures.

    Parameters
    ----------
    sheet : ParSheet
        A par sheet.
    """
    bet = sheet.bet
    print(f"{bet.title} ({bet.game}, {rulewords.decks(sheet.decks)})")
    if bet.description:
        print(bet.description)
    if bet.game == "blackjack" and reads_final(bet):
        print(f"model: {drawing_words(bet)}")
    rows = [("Outcome", "Pays", "Combinations", "Probability", "Return")]
    for line in sheet.lines:
        rows.append(
            (
                line.name,
                line.pays_text,
                f"{line.combinations:,}",
                f"{line.probability:.8f}",
                _signed(line.expected_return),
            )
        )
    expected = _signed(float(sheet.expected_return))
    rows.append((TOTAL, "", f"{sheet.total:,}", "1.00000000", expected))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    for row in rows:
        cells = [row[0].ljust(widths[0]), row[1].ljust(widths[1])]
        cells += [cell.rjust(width) for cell, width in zip(row[2:], widths[2:], strict=True)]
        print("  ".join(cells))
    print(
        f"house edge {sheet.house_edge:.4%}   sd {sheet.sd:.4f}   "
        f"hit frequency {sheet.hit_frequency:.4%}"
    )
    for name in sheet.never:
        print(f"note: {name!r} cannot happen with {rulewords.decks(sheet.decks)}")
