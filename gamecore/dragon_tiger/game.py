"""Dragon Tiger as a :class:`gamecore.game.Game`: its commands, each a call of the engine
(:mod:`gamecore.dragon_tiger`) and a print of its answer. Registered by one line of
:data:`gamecore.games.REGISTRY`; nothing else in gamecore names it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamecore import terminal
from gamecore.dragon_tiger.rules import DragonTigerRules
from gamecore.errors import GamecoreError
from gamecore.game import Answer, ExactCounts, Game, print_simulation
from gamecore.options import RUN_OPTIONS, CommandOptions
from gamecore.rules import RuleSet

if TYPE_CHECKING:
    import pandas as pd


class DragonTigerGame(Game):
    """Dragon Tiger: the exact analysis of its four bets from the card model, and the
    simulated twin of fresh-shoe rounds.

    ``exact`` takes no option of its own: ``--shoe`` gives a shoe by point class, which
    has no suits (a Suited Tie cannot be counted from it), and ``--infinite`` is the deck
    sweep's last row. ``simulate`` deals fresh shoes only (``--mode fresh``).
    """

    name = DragonTigerRules.game
    title = DragonTigerRules.title
    report = "dragon_tiger"
    # No card was received from a casino: the card is gamecore's own reading of the common
    # rules, the ones its math follows, marked so in its text (RULES.md reads it).
    rule_card = "dragon_tiger"
    rule_card_received = False  # gamecore's reading of the common rules: none was received
    commands = {"exact": frozenset(), "simulate": RUN_OPTIONS}

    @property
    def rules_type(self) -> type[RuleSet]:
        return DragonTigerRules

    def exact_counts(self, rules: RuleSet) -> ExactCounts:
        """Dragon wins, Tiger wins, a suited tie, an unsuited tie: the round's four ends,
        counted as ordered pairs of cards (rank and suit)."""
        from gamecore.dragon_tiger import exact

        counts = exact(rules).outcome_counts()
        total = counts.pop("total")
        return ExactCounts(counts, total)

    def cross_check(self, rules: RuleSet, rounds: int, seed: int) -> pd.DataFrame:
        """Each bet's EV and each outcome's probability beside its simulated twin."""
        from gamecore.dragon_tiger import exact, sim

        return sim.cross_check(exact(rules), sim.simulate(rules, rounds, seed, progress=False))

    def exact(self, rules: RuleSet, options: CommandOptions) -> Answer:
        from gamecore.dragon_tiger import exact

        analysis = exact(rules)

        def text() -> None:
            print(analysis.rules)
            print(f"\nShoe: {analysis.shoe}; ordered card pairs: {analysis.total:,}\n")
            print(terminal.table(analysis.outcomes()))
            for wager in analysis.wagers().values():
                print(f"\n{wager.wager.title}")
                print(terminal.table(wager.table()))
            print("\nSummary")
            print(terminal.table(analysis.summary().drop(columns="Key")))

        return Answer(analysis.to_dict(), text)

    def simulate(self, rules: RuleSet, options: CommandOptions) -> Answer:
        from gamecore.dragon_tiger import sim

        if options.text("mode") not in (None, "fresh"):
            raise GamecoreError(
                f"--mode {options.text('mode')} does not apply to {self.name}: it deals every "
                "round from a freshly shuffled full shoe (--mode fresh)"
            )
        run = options.run()
        simulation = sim.simulate(rules, run.rounds, run.seed, run.threads, run.dask, run.progress)
        data = simulation.to_dict()
        return Answer(data, lambda: print_simulation(data))


DRAGON_TIGER = DragonTigerGame()
