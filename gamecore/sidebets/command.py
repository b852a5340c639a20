"""``gamecore sidebet NAME_OR_FILE``: a side bet's exact par sheet, and the built-ins as
``gamecore games`` lists them."""

from __future__ import annotations

from typing import Any

from gamecore import cards, options
from gamecore.game import Answer
from gamecore.sidebets import definition
from gamecore.sidebets.parsheet import par_sheet, print_sheet, sheet_json


def sidebet(bet: str, decks: str | None) -> Answer:
    """The exact par sheet of a built-in bet or a definition file.

    Parameters
    ----------
    bet : str
        A built-in's code name, or the path of a definition file.
    decks : str or None
        ``--decks`` as typed (default: the definition's deck count).

    Returns
    -------
    Answer
        The JSON document (:func:`gamecore.sidebets.parsheet.sheet_json`) and its printer.
    """
    checked = definition.load(bet)
    deck_count = None
    if decks is not None:
        deck_count = cards.validate_decks(options.integer(decks, "--decks"), "--decks")
    sheet = par_sheet(checked, deck_count)
    return Answer(sheet_json(sheet), lambda: print_sheet(sheet))


def builtins() -> list[dict[str, Any]]:
    """Every built-in side bet with its paytable, as ``gamecore games`` lists them.

    Returns
    -------
    list of dict
        ``bet``, ``title``, ``game``, ``decks`` (its default) and ``paytable`` (each
        outcome's ``outcome`` and ``pays``), sorted by code name.
    """
    listed = []
    for name in definition.builtin_names():
        bet = definition.load(name)
        listed.append(
            {
                "bet": bet.bet,
                "title": bet.title,
                "game": bet.game,
                "decks": bet.decks,
                "paytable": [
                    {"outcome": outcome.name, "pays": outcome.pays_text} for outcome in bet.outcomes
                ],
            }
        )
    return listed
