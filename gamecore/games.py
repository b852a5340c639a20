"""The one registry of games: each game's code name, its title, where its rule set lives and
which report covers it. The command line and the report build read it; adding a game starts
with a line here.

A game's module is imported only when the game is used, so ``gamecore exact punto_banco``
never compiles the blackjack kernels.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from gamecore.errors import GamecoreError, shown
from gamecore.rules import RuleSet


@dataclass(frozen=True)
class Game:
    """One game: its code name, title, rule-set class (``module``, ``rules_class``) and
    report (a notebook name in ``notebooks/``; ``None`` for a game analysed for validation
    only)."""

    name: str
    title: str
    module: str
    rules_class: str
    report: str | None

    def rules_type(self) -> type[RuleSet]:
        """The game's rule-set class (imports the game's module)."""
        return getattr(importlib.import_module(self.module), self.rules_class)


GAMES: dict[str, Game] = {
    game.name: game
    for game in (
        Game(
            "punto_banco",
            "High Limit Baccarat",
            "gamecore.baccarat",
            "PuntoBancoRules",
            "punto_banco",
        ),
        Game(
            "ez_baccarat",
            "EZ Baccarat with Dragon 7",
            "gamecore.baccarat",
            "EZBaccaratRules",
            "ez_baccarat",
        ),
        Game(
            "c21_baccarat",
            "21st Century Baccarat",
            "gamecore.c21_baccarat",
            "C21BaccaratRules",
            "c21_baccarat",
        ),
        Game(
            "standard_blackjack",
            "Blackjack (for validation)",
            "gamecore.blackjack",
            "StandardBlackjackRules",
            None,
        ),
        Game(
            "c21_blackjack",
            "New 21st Century Blackjack",
            "gamecore.blackjack",
            "C21BlackjackRules",
            "c21_blackjack",
        ),
    )
}


def game(name: str) -> Game:
    """The registered game ``name``, else ``GamecoreError`` listing the games."""
    if not isinstance(name, str) or name not in GAMES:
        raise GamecoreError(f"unknown game {shown(name)}; games: {', '.join(GAMES)}")
    return GAMES[name]
