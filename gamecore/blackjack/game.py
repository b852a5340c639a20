"""Blackjack and New 21st Century Blackjack as :class:`gamecore.game.Game` objects: their
commands, each a call of the engine (:mod:`gamecore.blackjack`) and a print of its answer."""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from gamecore import terminal
from gamecore.blackjack.rules import C21BlackjackRules, StandardBlackjackRules
from gamecore.errors import GamecoreError, shown
from gamecore.game import (
    Answer,
    ExactCounts,
    Game,
    counter_figures,
    print_counter,
    print_simulation,
)
from gamecore.options import COUNTER_OPTIONS, RUN_OPTIONS, CommandOptions
from gamecore.rules import RuleSet

#: The options of a blackjack table run (simulate --players N), money in units of a bet.
TABLE_OPTIONS = ("stake", "bankrolls", "shift_rounds", "turn_rounds")


def chart_file(name: str, value: Any) -> str:
    """A report's strategy chart CSV: empty (the report's own chart) or a chart file, read
    and checked here as the notebook will read it (so a bad one is refused before any
    notebook runs), its path made absolute (the notebook runs in its report's folder, not
    where the path was given).

    Parameters
    ----------
    name : str
        The report parameter's name, as messages show it.
    value : Any
        The value given: a chart CSV's path, or empty text for none.

    Returns
    -------
    str
        The chart file's absolute path, or the empty text (else a :class:`GamecoreError`
        naming ``name`` and what is wrong with the file).
    """
    from pathlib import Path

    from gamecore.blackjack import read_strategy_chart

    if not isinstance(value, str):
        raise GamecoreError(f"{name} must be a file path (text), got {shown(value)}")
    if not value:
        return value
    try:
        read_strategy_chart(Path(value))
    except GamecoreError as error:
        raise GamecoreError(f"{name}: {error}") from None
    return str(Path(value).resolve())


#: The exact command's figures as its text prints them: JSON key -> label.
EXACT_FIGURES = {
    "player_ev": "Player EV, optimal play",
    "player_sd": "Player SD, optimal play",
    "player_ev_total_dependent": "Player EV, the best chart",
    "pd_edge": "P/D edge",
    "strategy_ev": "Player EV, the chart given",
}


class BlackjackGame(Game):
    """A blackjack game: the exact analysis under the best chart (or a chart given), the
    probability of each final result, the count and its index plays, the simulated seat and
    the full table, and the value of every play at one hand."""

    commands = {
        "exact": frozenset({"shoe", "strategy", "results"}),
        "simulate": RUN_OPTIONS | {"strategy", "players", "penetration", "burn", *TABLE_OPTIONS},
        "count": frozenset({"shoe", "strategy", "max_tag", *COUNTER_OPTIONS}),
        "hand": frozenset({"up", "cards", "shoe"}),
    }
    report_parameters = {"chart_file": chart_file}
    # A round's value is a recursion over the player's choices: no integer counts.
    figures_obtained = "exact: a recursion in float64 (good to about 10⁻¹⁵), not integer counts"
    examples = {
        "simulate": {"strategy": "optimal"},
        "hand": {"up": "10", "cards": "10,6"},
    }

    def __init__(self, rules_type: type[RuleSet], title: str, report: str | None) -> None:
        self.name = rules_type.game
        self.title = title
        self.report = report
        self.rule_card = report
        self._rules_type = rules_type

    @property
    def rules_type(self) -> type[RuleSet]:
        return self._rules_type

    def exact_counts(self, rules: RuleSet) -> ExactCounts | None:
        """``None``: a round's value is a recursion over the player's choices, in floats
        (the exact engine's figures are probabilities, not integer counts)."""
        return None

    def cross_check(self, rules: RuleSet, rounds: int, seed: int):
        """The best chart's EV, overall and given each up card, beside its simulation."""
        from gamecore import blackjack

        analysis = blackjack.exact(rules)
        simulation = blackjack.sim.simulate(rules, analysis.chart, rounds, seed, progress=False)
        return blackjack.checks.cross_check(analysis, simulation)

    def exact(self, rules: RuleSet, options: CommandOptions) -> Answer:
        from gamecore import blackjack

        shoe = options.shoe()
        strategy = _chart(options)
        analysis = blackjack.exact(
            rules, strategy=strategy, composition=shoe, standard_deviation=True
        )
        data = analysis.to_dict()
        if options.given("results"):
            chart = strategy if strategy is not None else analysis.chart
            data["result_distribution"] = _results(rules, chart, shoe)

        def text() -> None:
            print(rules)
            shown_figures = {
                label: data[key] for key, label in EXACT_FIGURES.items() if key in data
            }
            print()
            print(terminal.figures(shown_figures))

        return Answer(data, text)

    def count(self, rules: RuleSet, options: CommandOptions) -> Answer:
        from gamecore.blackjack.counting import DEFAULT_MAX_TAG, count_analysis

        max_tag = options.integer("max_tag", DEFAULT_MAX_TAG)
        seats = _counter_table(rules, options, max_tag)  # checked before the analysis
        run = options.counter(players=1)  # before the analysis, with the flags named
        if run is not None and run.oracle_shoes is not None:
            _check_oracle_shoes(run.oracle_shoes)
        found = count_analysis(rules, _chart(options), options.shoe(), max_tag)
        data = found.to_dict()
        if run is not None:
            from gamecore.blackjack import counter

            extra = {"index_plays": True}
            data.update(counter_figures(counter, found, run, seats._asdict(), extra))

        def text() -> None:
            print(rules)
            print(
                f"\nEffects of removal (% of the initial wager per card removed); {found.strategy}"
            )
            print(found.effects_table().to_string(index=False, float_format="{:+.6f}".format))
            print(f"\nBetting correlation: {found.betting_correlation:.4f}")
            print("\nIndex plays")
            print(found.index_table().to_string(index=False, float_format="{:+.4f}".format))
            print_counter(data)

        return Answer(data, text)

    def simulate(self, rules: RuleSet, options: CommandOptions) -> Answer:
        from gamecore.blackjack import sim

        if options.given("players"):
            return _table_run(self.name, rules, options)
        for option in TABLE_OPTIONS:
            if options.given(option):
                flag = "--" + option.replace("_", "-")
                raise GamecoreError(f"{flag} applies to a table run only (--players N)")
        options.refuse_cut_card(
            f"does not apply to {self.name}: it is simulated off a freshly shuffled full shoe "
            "every round",
        )
        strategy = _simulated_strategy(self.name, options)
        if options.text("mode") != "fresh":
            raise GamecoreError(
                f"{self.name} is simulated off a fresh shoe only, got --mode {options.text('mode')}"
            )
        run = options.run()
        simulation = sim.simulate(
            rules, strategy, run.rounds, run.seed, run.threads, run.dask, run.progress
        )
        data = simulation.to_dict()
        return Answer(data, lambda: print_simulation(data))

    def hand(self, rules: RuleSet, options: CommandOptions) -> Answer:
        from gamecore.blackjack.hand import hand_values

        cards = [card.strip() for card in options.text("cards").split(",")]
        data = hand_values(rules, options.text("up"), cards, options.shoe()).to_dict()

        def text() -> None:
            print(
                f"{','.join(data['cards'])} ({'soft' if data['soft'] else 'hard'} "
                f"{data['total']}) against {data['up_card']}: {data['convention']}"
            )
            for action, ev in data["ev"].items():
                print(f"  {action}  {ev:+.10f}{'  best' if action == data['best'] else ''}")

        return Answer(data, text)


def _chart(options: CommandOptions):
    """The strategy chart ``--strategy`` names, or ``None`` (the best chart is found)."""
    from gamecore.blackjack import read_strategy_chart

    path = options.text("strategy")
    return None if path is None else read_strategy_chart(path)


def _simulated_strategy(game: str, options: CommandOptions):
    """A simulation's strategy: a chart, or ``optimal`` (the exact engine's play)."""
    from gamecore.blackjack import read_strategy_chart, sim

    strategy = options.text("strategy")
    if strategy is None:
        raise GamecoreError(f"simulate {game} needs --strategy CHART.csv (or --strategy optimal)")
    return strategy if strategy == sim.OPTIMAL else read_strategy_chart(strategy)


def _results(rules: RuleSet, chart, shoe: list[int] | None) -> dict[str, Any]:
    """``exact --results``: the probability of each final result under ``chart``."""
    from gamecore.blackjack.results import result_distribution

    results = result_distribution(rules, chart, composition=shoe)
    return {
        "strategy": results.strategy,
        "split_share": results.split_share,
        "rows": [
            {
                "outcome": row["Outcome"],
                "net_result": float(row["Net result"]),
                "probability": float(row["Probability"]),
                "without_split": float(row["Without a split"]),
                "split_two_hands": float(row["Split, two hands"]),
                "with_resplit": float(row["With a resplit"]),
            }
            for row in results.rows
        ],
        "resplit_share": results.resplit_share,
        "note": "exact for every round but those with a resplit (three or four hands), "
        "whose hands are combined as independent given the dealer's outcome",
    }


class _CounterTable(NamedTuple):
    players: int
    seat: int
    turn_rounds: int
    bank_at: float | None


def _check_oracle_shoes(oracle_shoes: int) -> None:
    """Refuse ``--oracle-shoes`` past :data:`gamecore.blackjack.counter.MAX_ORACLE_SHOES`
    before any work, naming it (the bettor's own check comes after the analysis and the
    counter's run, and names ``shoes``)."""
    from gamecore.blackjack.counter import MAX_ORACLE_SHOES

    if oracle_shoes > MAX_ORACLE_SHOES:
        raise GamecoreError(
            f"--oracle-shoes must be at most {MAX_ORACLE_SHOES:,} (each round is solved), "
            f"got {oracle_shoes:,}"
        )


def _counter_table(rules: RuleSet, options: CommandOptions, max_tag: int) -> _CounterTable:
    """The counter's table (``--players``, ``--seat``) and its turn at the bank
    (``--turn-rounds``, ``--bank-at``), checked before the analysis."""
    from gamecore import counting
    from gamecore.blackjack.shoe import check_players

    players = check_players(rules, options.integer("players", 1))
    seat = options.integer("seat", 1)
    if not 1 <= seat <= players:
        raise GamecoreError(f"--seat must be from 1 to {players} (the players), got {seat}")
    turn_rounds = options.integer("turn_rounds", 0)
    if turn_rounds < 0:
        raise GamecoreError(f"--turn-rounds must be 0 (no rotation) or more, got {turn_rounds}")
    bank_at = None
    if options.given("bank_at"):
        if not turn_rounds:
            raise GamecoreError("--bank-at needs a rotation: give --turn-rounds N too")
        bank_at = counting.check_trigger(
            options.number("bank_at"), {"largest tag": max_tag}, "--bank-at"
        )
    return _CounterTable(players, seat, turn_rounds, bank_at)


def _table_run(game: str, rules: RuleSet, options: CommandOptions) -> Answer:
    """``simulate GAME --players N``: the full table (:mod:`gamecore.blackjack.table`)."""
    from gamecore.blackjack import table
    from gamecore.blackjack.shoe import check_players

    if not options.given("strategy"):
        raise GamecoreError(f"simulate {game} needs --strategy CHART.csv (or --strategy optimal)")
    if options.text("burn") not in (None, "none"):
        raise GamecoreError(
            f"--burn: {game} is dealt without a burn, got {shown(options.text('burn'))}"
        )

    players = check_players(rules, options.integer("players"))
    dealing = _table_dealing(rules, options)
    bank = _bank(options)
    run = options.run()
    if run.dask is not None:
        raise GamecoreError("--dask does not apply to a table run")
    found = table.simulate_table(
        rules, players, options.text("strategy"), run, dealing=dealing, bank=bank
    )

    def text() -> None:
        print(
            f"Simulated {found.rounds:,} rounds of {game}, {players} players and the P/D, "
            f"seed {found.seed}, dealing {dealing.mode}"
        )
        print(terminal.table(found.figures.seat_table()))
        print(terminal.figures(found.figures.bank_figures()))
        print(terminal.table(found.figures.coverage_table()))
        print(terminal.table(found.figures.ruin_table()))
        for part, note in found.figures.notes().items():
            print(f"Note ({part}): {note}")

    return Answer(found.to_dict(), text)


def _table_dealing(rules: RuleSet, options: CommandOptions):
    """A table run's dealing: a fresh shoe every round, or a shoe dealt to its cut card
    (``--mode shoe``, ``--penetration``; default the reading's cut card)."""
    from gamecore.blackjack.counter import default_dealing
    from gamecore.dealing import Dealing

    mode = options.text("mode")
    if mode == "shoe":
        penetration = options.integer("penetration", default_dealing(rules).penetration)
        return Dealing("shoe", penetration, "none")
    if mode == "fresh":
        options.refuse_cut_card("applies to --mode shoe only")
        return Dealing("fresh")
    raise GamecoreError(f"--mode must be fresh or shoe, got {shown(mode)}")


def _bank(options: CommandOptions):
    """The P/D's money at a table run: ``--stake``, ``--bankrolls``, ``--shift-rounds``,
    ``--turn-rounds`` (defaults: :class:`gamecore.banking.Bank`'s)."""
    from gamecore.banking import Bank

    stake = options.text("stake")
    if stake is not None and stake.strip().lower().lstrip("+") in ("inf", "infinity"):
        raise GamecoreError(
            f"--stake must be a finite number of units, got {shown(stake)}; leave --stake "
            "out for a P/D that covers every payoff"
        )
    return Bank(
        stake=options.number("stake", math.inf),
        bankrolls=options.numbers("bankrolls", Bank().bankrolls),
        shift_rounds=options.integer("shift_rounds", 480),
        turn_rounds=options.integer("turn_rounds", 2),
    )


STANDARD_BLACKJACK = BlackjackGame(StandardBlackjackRules, "Blackjack (for validation)", None)
C21_BLACKJACK = BlackjackGame(C21BlackjackRules, C21BlackjackRules.title, "c21_blackjack")
