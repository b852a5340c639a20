"""The one registry of games: each game's code name and where its :class:`gamecore.game.Game`
object lives. The command line, the report build, ``gamecore verify``, ``gamecore games``
and the conformance tests iterate it; nothing else names a game. Adding a game is its own
files and one line here.

A game's module is imported only when the game is used, so ``gamecore exact punto_banco``
never compiles the blackjack kernels.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from gamecore.errors import GamecoreError, did_you_mean, shown

if TYPE_CHECKING:
    from gamecore.game import Game

#: Every game: its code name -> ``"module:object"``, the module defining its Game object.
REGISTRY: dict[str, str] = {
    "punto_banco": "gamecore.baccarat.game:PUNTO_BANCO",
    "ez_baccarat": "gamecore.baccarat.game:EZ_BACCARAT",
    "c21_baccarat": "gamecore.c21_baccarat.game:C21_BACCARAT",
    "standard_blackjack": "gamecore.blackjack.game:STANDARD_BLACKJACK",
    "c21_blackjack": "gamecore.blackjack.game:C21_BLACKJACK",
    "dragon_tiger": "gamecore.dragon_tiger.game:DRAGON_TIGER",
}

#: The game names, in the registry's order.
NAMES: tuple[str, ...] = tuple(REGISTRY)

#: Reports that study several games at once (the counting studies), beside the report each
#: game names as its own (:attr:`gamecore.game.Game.report`).
STUDIES: dict[str, tuple[str, ...]] = {
    "dragon7_counting": ("ez_baccarat",),
    "counting_c21": ("c21_baccarat", "c21_blackjack"),
    # Side bets written as data (gamecore.sidebets): on baccarat and blackjack rounds, but
    # under no registered game's rule set, so they quote none.
    "side_bets": (),
}


def game(name: str) -> Game:
    """The registered game ``name`` (its module imported), else ``GamecoreError`` listing
    the games.

    Parameters
    ----------
    name
        A game's code name, e.g. ``"punto_banco"``.

    Returns
    -------
    Game
        The game's object.
    """
    if not isinstance(name, str) or name not in REGISTRY:
        hint = did_you_mean(str(name), NAMES)  # a typo, a capital, a word of the name
        raise GamecoreError(f"unknown game {shown(name)}{hint}; games: {', '.join(NAMES)}")
    module, _, attribute = REGISTRY[name].partition(":")
    return getattr(importlib.import_module(module), attribute)


def all_games() -> tuple[Game, ...]:
    """Every registered game, in the registry's order (every game's module imported).

    Returns
    -------
    tuple of Game
        One per name of :data:`NAMES`.
    """
    return tuple(game(name) for name in NAMES)


def report_games(report: str) -> tuple[str, ...]:
    """The games a report covers: those naming it as their report, or a study's games.

    Parameters
    ----------
    report
        A report's name (a notebook in ``notebooks/``).

    Returns
    -------
    tuple of str
        The games' code names; empty for a report no game names.
    """
    if report in STUDIES:
        return STUDIES[report]
    return tuple(found.name for found in all_games() if found.report == report)


def reports() -> tuple[str, ...]:
    """Every report a game names as its own, then the studies: what ``make reports`` builds
    when their notebooks are in ``notebooks/``.

    Returns
    -------
    tuple of str
        Notebook names, each once, the games' own in the registry's order.
    """
    own = tuple(found.report for found in all_games() if found.report is not None)
    return (*dict.fromkeys(own), *STUDIES)


def rule_cards() -> tuple[str, ...]:
    """The games whose rule card the package ships (``gamecore/rulecards/GAME.txt``).

    Returns
    -------
    tuple of str
        Their code names, in the registry's order.
    """
    return tuple(found.name for found in all_games() if found.rule_card is not None)


def answering(command: str) -> tuple[str, ...]:
    """The games answering ``command`` (``"hand"``, ``"count"``, ...).

    Parameters
    ----------
    command : str
        One of :data:`gamecore.game.COMMANDS`.

    Returns
    -------
    tuple of str
        Their code names, in the registry's order.
    """
    return tuple(found.name for found in all_games() if command in found.commands)
