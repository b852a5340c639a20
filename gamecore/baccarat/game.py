"""Punto banco and EZ Baccarat as :class:`gamecore.game.Game` objects: their commands, each
a call of the engine (:mod:`gamecore.baccarat`) and a print of its answer."""

from __future__ import annotations

from gamecore import terminal
from gamecore.baccarat.rules import EZBaccaratRules, PuntoBancoRules
from gamecore.errors import GamecoreError
from gamecore.game import Answer, ExactCounts, Game, print_simulation
from gamecore.options import RUN_OPTIONS, CommandOptions, baccarat_composition
from gamecore.rules import RuleSet


class BaccaratGame(Game):
    """A punto banco game: the exact analysis of every bet on the layout, its simulated
    twin, and the effects of removal of each bet."""

    commands = {
        "exact": frozenset({"infinite", "shoe"}),
        "simulate": RUN_OPTIONS | {"penetration", "burn"},
        "count": frozenset({"shoe"}),
    }

    def __init__(self, rules_type: type[RuleSet], report: str, rule_card: str) -> None:
        self.name = rules_type.game
        self.title = rules_type.title
        self.report = report
        self.rule_card = rule_card
        self._rules_type = rules_type

    @property
    def rules_type(self) -> type[RuleSet]:
        return self._rules_type

    def exact_counts(self, rules: RuleSet) -> ExactCounts:
        """Banker wins, Player wins, Tie: the round's three ends, counted (the side bets'
        events, Dragon 7 and Panda 8, lie inside them)."""
        from gamecore import baccarat

        analysis = baccarat.exact(rules)
        outcomes = analysis.outcomes()
        ends = outcomes[outcomes["Outcome"].isin(("Banker wins", "Player wins", "Tie"))]
        counts = dict(zip(ends["Outcome"], map(int, ends["Combinations"]), strict=True))
        return ExactCounts(counts, analysis.total)

    def cross_check(self, rules: RuleSet, rounds: int, seed: int):
        from gamecore import baccarat

        fresh = baccarat.sim.simulate(rules, rounds, seed, progress=False)
        return baccarat.sim.cross_check(baccarat.exact(rules), fresh)

    def exact(self, rules: RuleSet, options: CommandOptions) -> Answer:
        from gamecore import baccarat

        if options.given("infinite") and "decks" in options.rules_given:
            raise GamecoreError(
                "--infinite analyses the infinite-deck limit; a deck count does not apply"
            )
        shoe = options.shoe()
        if options.given("infinite"):
            analysis = baccarat.infinite_deck(rules)
        elif shoe is not None:
            analysis = baccarat.exact(rules, composition=baccarat_composition(shoe))
        else:
            analysis = baccarat.exact(rules)
        data = analysis.to_dict()

        def text() -> None:
            print(analysis.rules)
            total = "n/a" if analysis.total is None else f"{analysis.total:,}"
            print(f"\nShoe: {analysis.shoe}; total combinations: {total}\n")
            print(terminal.table(analysis.outcomes()))
            for wager in analysis.wagers().values():
                print(f"\n{wager.wager.title}")
                print(terminal.table(wager.table()))
            print("\nSummary")
            print(terminal.table(analysis.summary().drop(columns="Key")))
            if "house_edge_ties_excluded_note" in data:
                print(f"House edge, ties excluded: {data['house_edge_ties_excluded_note']}")

        return Answer(data, text)

    def simulate(self, rules: RuleSet, options: CommandOptions) -> Answer:
        from gamecore.baccarat import sim

        run = options.run()
        simulation = sim.simulate(
            rules, run.rounds, run.seed, options.dealing("face_value"), run.threads, run.dask,
            run.progress,
        )  # fmt: skip
        data = simulation.to_dict()
        return Answer(data, lambda: print_simulation(data))

    def count(self, rules: RuleSet, options: CommandOptions) -> Answer:
        from gamecore.baccarat.removal import effects_of_removal_by_bet

        shoe = options.shoe()
        composition = None if shoe is None else baccarat_composition(shoe)
        effects = effects_of_removal_by_bet(rules, composition)

        def text() -> None:
            print(rules)
            print(
                "\nEffects of removal: EV change per card of each point value removed, % of wager"
            )
            print(effects.table().to_string(index=False, float_format="{:+.6f}".format))

        return Answer(effects.to_dict(), text)


PUNTO_BANCO = BaccaratGame(PuntoBancoRules, report="punto_banco", rule_card="punto_banco")
EZ_BACCARAT = BaccaratGame(EZBaccaratRules, report="ez_baccarat", rule_card="ez_baccarat")
