"""21st Century Baccarat as a :class:`gamecore.game.Game`: its commands, each a call of the
engine (:mod:`gamecore.c21_baccarat`) and a print of its answer."""

from __future__ import annotations

from gamecore import terminal
from gamecore.c21_baccarat.rules import C21BaccaratRules
from gamecore.errors import GamecoreError
from gamecore.game import (
    Answer,
    ExactCounts,
    Game,
    counter_figures,
    print_counter,
    print_simulation,
)
from gamecore.options import (
    COUNTER_OPTIONS,
    RUN_OPTIONS,
    SHOE_RANKS,
    CommandOptions,
    baccarat_composition,
)
from gamecore.parallel import Run
from gamecore.rules import RuleSet


def _composition(options: CommandOptions) -> list[int] | None:
    """``--shoe`` with its ``--jokers``: the classes 0..9 and the jokers."""
    shoe = options.shoe()
    if shoe is None:
        if options.given("jokers"):
            raise GamecoreError("--jokers gives the jokers of a --shoe; give --shoe too")
        return None
    if not options.given("jokers"):
        raise GamecoreError("--shoe needs --jokers N for c21_baccarat: the jokers left")
    jokers = options.integer("jokers")
    if jokers < 0:
        raise GamecoreError(f"--jokers must be >= 0, got {jokers}")
    return [*baccarat_composition(shoe), jokers]


class C21BaccaratGame(Game):
    """21st Century Baccarat: the player's and the P/D's options solved, every hit card's
    advantage, the simulated table and the count."""

    name = C21BaccaratRules.game
    title = C21BaccaratRules.title
    report = "c21_baccarat"
    rule_card = "c21_baccarat"
    commands = {
        "exact": frozenset({"shoe", "jokers"}),
        "simulate": RUN_OPTIONS | {"penetration", "burn", "players"},
        "count": frozenset({"shoe", "jokers", "max_tag", *COUNTER_OPTIONS}),
    }

    @property
    def rules_type(self) -> type[RuleSet]:
        return C21BaccaratRules

    def exact_counts(self, rules: RuleSet) -> ExactCounts:
        """Both sides on House Way: each way the deal ends, counted (the probabilities of
        the pure strategy pair are exact fractions of the total)."""
        from fractions import Fraction

        from gamecore import c21_baccarat

        analysis = c21_baccarat.count_deals(rules)
        pair = analysis.evaluate(
            c21_baccarat.house_way_player(rules), c21_baccarat.house_way_dealer(rules)
        )
        counts = {}
        for (reason, outcome), probability in pair.outcome_probabilities.items():
            count = Fraction(probability) * analysis.total
            if count.denominator != 1:
                raise ArithmeticError(f"{reason}: {outcome} is not a whole count: {count}")
            counts[f"{reason}: {outcome}"] = int(count)
        return ExactCounts(counts, analysis.total)

    def cross_check(self, rules: RuleSet, rounds: int, seed: int):
        """Both sides on House Way, heads-up: the player's EV and each way a deal ends."""
        from gamecore import c21_baccarat

        player = c21_baccarat.house_way_player(rules)
        dealer = c21_baccarat.house_way_dealer(rules)
        exact = c21_baccarat.count_deals(rules).evaluate(player, dealer)
        simulation = c21_baccarat.sim.simulate(
            rules, Run(rounds, seed, progress=False), player=player, dealer=dealer
        )
        return c21_baccarat.checks.cross_check(exact, simulation)

    def exact(self, rules: RuleSet, options: CommandOptions) -> Answer:
        from gamecore import c21_baccarat

        composition = _composition(options)
        analysis = c21_baccarat.count_deals(rules, composition)

        def text() -> None:
            print(rules)
            print(f"\nTotal combinations: {analysis.total:,}\n")
            print(terminal.table(analysis.strategy_table().drop(columns="Key")))
            chart = analysis.hit_chart(c21_baccarat.house_way_dealer(rules))
            print("\nAdvantage chart for the hit cards (P/D on House Way): hit - stand")
            print(
                chart.pivot(index="Player hand", columns="P/D up card", values="Hit - stand")
                .reindex(c21_baccarat.HAND_LABELS[:10])
                .to_string(float_format="{:+.4f}".format, na_rep="")
            )

        data = analysis.to_dict()
        if composition is not None:
            by_rank = dict(zip(SHOE_RANKS, options.shoe(), strict=True))
            data["shoe"] = {**by_rank, "joker": composition[-1]}
        return Answer(data, text)

    def simulate(self, rules: RuleSet, options: CommandOptions) -> Answer:
        from gamecore.c21_baccarat import sim

        simulation = sim.simulate(
            rules,
            options.run(),
            players=options.integer("players", 1),
            dealing=options.dealing("none"),
        )
        data = simulation.to_dict()
        return Answer(data, lambda: print_simulation(data, counted="hands"))

    def count(self, rules: RuleSet, options: CommandOptions) -> Answer:
        from gamecore.c21_baccarat import counting
        from gamecore.c21_baccarat.removal import DEFAULT_MAX_TAG, count_analysis

        composition = _composition(options)
        counter = options.counter(players=7)  # checked before the analysis (seconds)
        found = count_analysis(rules, composition, options.integer("max_tag", DEFAULT_MAX_TAG))
        data = found.to_dict()
        if counter is not None:
            run = counter.run
            seats = {
                key: getattr(run, key) for key in ("players", "seat", "turn_rounds", "bank_at")
            }
            data.update(counter_figures(counting, found, counter, seats))

        def text() -> None:
            print(rules)
            print("\nEffects of removal (player's EV heads-up, % of wager per card removed)")
            print(found.effects_table().to_string(index=False, float_format="{:+.6f}".format))
            print(f"\nBetting correlation (House Way): {found.betting_correlation:.4f}")
            print_counter(data)

        return Answer(data, text)


C21_BACCARAT = C21BaccaratGame()
