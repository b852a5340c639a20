"""The side-bet report's tables: the definitions read, a summary of every bet, each bet's
deck sweep, and the trigger its counter is dealt with. The ``side_bets`` notebook calls
these (and :mod:`.parsheet`, :mod:`.sim`, :mod:`.removal`, :mod:`.counting`); it computes
nothing itself.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from gamecore import cards
from gamecore.sidebets import definition
from gamecore.sidebets.definition import SideBet
from gamecore.sidebets.parsheet import ParSheet, par_sheet
from gamecore.sidebets.program import card_reads
from gamecore.sidebets.removal import SideBetEffects
from gamecore.sidebets.work import check_work, removal_counts


def definitions_table(bets: Iterable[SideBet]) -> pd.DataFrame:
    """What was read: each bet's code name, title, game, outcomes and where it came from.

    Parameters
    ----------
    bets : iterable of SideBet
        Checked definitions.

    Returns
    -------
    pandas.DataFrame
        Bet | Title | Game | Outcomes | Cards read | Definition | SHA-256: a row per bet;
        Cards read names each card the conditions read and what of it (``value`` the point
        class, ``rank``, ``suit``, ``colour``).
    """
    rows = []
    for bet in bets:
        reads = card_reads(bet)
        rows.append(
            {
                "Bet": bet.bet,
                "Title": bet.title,
                "Game": bet.game,
                "Outcomes": len(bet.outcomes),
                "Cards read": "; ".join(
                    f"{name} ({', '.join(sorted(reads[name]))})" for name in reads
                ),
                "Definition": bet.origin,
                "SHA-256": bet.sha256,
            }
        )
    return pd.DataFrame(rows)


def definition_files_table(bets: Iterable[SideBet]) -> pd.DataFrame:
    """Which file each bet was read from and the SHA-256 of its bytes, for the par sheet.

    Parameters
    ----------
    bets : iterable of SideBet
        Checked definitions.

    Returns
    -------
    pandas.DataFrame
        Bet | Definition file | SHA-256, a row per bet: a built-in's file in the package
        (``gamecore/sidebets/definitions/<bet>.yaml, built-in``), else the path read.
    """
    rows = [
        {
            "Bet": b.bet,
            "Definition file": (
                f"gamecore/sidebets/definitions/{b.bet}.yaml, built-in"
                if b.origin == "built-in"
                else b.origin
            ),
            "SHA-256": b.sha256,
        }
        for b in bets
    ]
    return pd.DataFrame(rows, columns=["Bet", "Definition file", "SHA-256"])


def summary_table(sheets: Iterable[ParSheet]) -> pd.DataFrame:
    """Every bet's exact figures in one table.

    Parameters
    ----------
    sheets : iterable of ParSheet
        Each bet's par sheet.

    Returns
    -------
    pandas.DataFrame
        Bet | Title | Game | Decks | House edge | SD | Hit frequency | Combinations: a row
        per bet (house edge and hit frequency as fractions of the wager; Combinations the
        total of the deals counted, exact).
    """
    return pd.DataFrame(
        [
            {
                "Bet": sheet.bet.bet,
                "Title": sheet.bet.title,
                "Game": sheet.bet.game,
                "Decks": sheet.decks,
                "House edge": sheet.house_edge,
                "SD": sheet.sd,
                "Hit frequency": sheet.hit_frequency,
                "Combinations": sheet.total,
            }
            for sheet in sheets
        ]
    ).astype({"Combinations": object})


def deck_sweep(bet: SideBet, deck_counts: Sequence[int]) -> pd.DataFrame:
    """The bet's exact figures at each deck count.

    Parameters
    ----------
    bet : SideBet
        A checked definition.
    deck_counts : sequence of int
        Deck counts, each 1..1000.

    Returns
    -------
    pandas.DataFrame
        Decks | House edge | SD | Hit frequency | then each outcome's probability
        (``P(name)``): a row per deck count.
    """
    rows = []
    for decks in deck_counts:
        sheet = par_sheet(bet, cards.validate_decks(decks))
        row = {
            "Decks": decks,
            "House edge": sheet.house_edge,
            "SD": sheet.sd,
            "Hit frequency": sheet.hit_frequency,
        }
        row |= {f"P({line.name})": line.probability for line in sheet.lines}
        rows.append(row)
    return pd.DataFrame(rows)


def counter_trigger(effects: SideBetEffects) -> float | None:
    """The true count a counter of the bet is dealt with: the count's estimated break-even
    (:attr:`SideBetEffects.break_even_true_count`), rounded up to a tenth, so the counter
    bets where its linear estimate says the bet has turned.

    Parameters
    ----------
    effects : SideBetEffects
        The bet's effects of removal and count.

    Returns
    -------
    float or None
        The trigger; None where the bet has no count (every effect zero: nothing to count).
    """
    estimate = effects.break_even_true_count
    if effects.tags is None or estimate is None or not math.isfinite(estimate):
        return None
    return math.ceil(estimate * 10) / 10


def check_report_work(bets: Iterable[SideBet], decks_of: dict[str, int], sweep_decks: int) -> None:
    """Refuse, before the report counts anything, a bet whose par sheet, deck sweep or
    effects of removal would settle more deals than :data:`gamecore.sidebets.work.MAX_DEALS`
    (one line naming its definition, the estimate and the bound).

    Parameters
    ----------
    bets : iterable of SideBet
        Checked definitions.
    decks_of : dict of str to int
        Each game's deck count (the par sheet's and the effects of removal's).
    sweep_decks : int
        The deck sweep's largest deck count (a count's passes only grow with the decks,
        its deals do not change).
    """
    for bet in bets:
        decks = decks_of[bet.game]
        check_work(bet, decks)
        check_work(bet, sweep_decks, what="its deck sweep's count")
        check_work(bet, decks, removal_counts(bet), "its effects of removal")


def check_parameters_work(parameters: Mapping[str, Any]) -> None:
    """:func:`check_report_work` from the side-bet report's parameters, as the report build
    and ``gamecore verify`` check them before any notebook runs (exit 2, not a failed
    notebook).

    Parameters
    ----------
    parameters : Mapping of str to Any
        Every parameter of the report (the notebook's defaults for those not given):
        ``side_bets`` (checked names and files), ``baccarat_decks``, ``blackjack_decks``,
        ``sweep_decks``.
    """
    bets = [definition.load(name) for name in parameters["side_bets"]]
    decks_of = {
        "baccarat": parameters["baccarat_decks"],
        "blackjack": parameters["blackjack_decks"],
    }
    check_report_work(bets, decks_of, parameters["sweep_decks"])


def rules_table(baccarat_decks: int, blackjack_decks: int) -> pd.DataFrame:
    """The dealing every bet of the report is counted under.

    Parameters
    ----------
    baccarat_decks, blackjack_decks : int
        Decks of the baccarat and of the blackjack bets' shoes.

    Returns
    -------
    pandas.DataFrame
        Parameter | Value | Meaning.
    """
    return pd.DataFrame(
        [
            ("baccarat_decks", baccarat_decks, "decks of a baccarat bet's shoe"),
            ("blackjack_decks", blackjack_decks, "decks of a blackjack bet's shoe"),
            (
                "baccarat_drawing",
                "punto banco tableau",
                "every baccarat round dealt in full by the High Limit Baccarat card's "
                "third-card rules, counted as six cards",
            ),
            (
                "blackjack_cards",
                "player's two, dealer's up and hole",
                "a blackjack bet is settled on the first four cards, before any play",
            ),
            (
                "blackjack_dealer",
                "the dealer's final hand, by each bet's soft-17 rule",
                "a bet on the dealer's final hand: the dealer draws to 17 or more from the shoe "
                "less the cards the bet names, no other hand drawing first (its par sheet's "
                "model)",
            ),
        ],
        columns=["Parameter", "Value", "Meaning"],
    )


def checked_bets(name: str, value: object) -> list[str]:
    """The report parameter ``side_bets``: built-in names or definition files, each read
    and checked now (a file's path made absolute: the notebook runs in its report's folder).

    Parameters
    ----------
    name : str
        The parameter's name, as messages show it.
    value : object
        The value given: a non-empty list of names or paths, none twice.

    Returns
    -------
    list of str
        The names, and the files' absolute paths.
    """
    from pathlib import Path

    from gamecore.errors import GamecoreError, shown
    from gamecore.sidebets.definition import builtin_names, load

    if not isinstance(value, (list, tuple)) or not value:
        raise GamecoreError(f"{name} must be a non-empty list of side bets, got {shown(value)}")
    checked, codes = [], set()
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise GamecoreError(
                f"{name}[{index}] must be a bet's name or a file, got {shown(item)}"
            )
        bet = load(item)
        if bet.bet in codes:
            raise GamecoreError(f"{name}[{index}]: bet {shown(bet.bet)} is listed twice")
        codes.add(bet.bet)
        checked.append(item if item in builtin_names() else str(Path(item).resolve()))
    return checked
