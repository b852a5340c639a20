"""What a game is to gamecore: one object that carries everything about it.

The central idea: every consumer (the command line, ``make reports``, ``gamecore verify``,
``gamecore games``, the conformance tests) reaches a game through this one interface and
the registry in :mod:`gamecore.games`, never by naming it. A game is its name and title, its
rule-set type (a frozen dataclass, validated once where it is made), the commands it
answers with the options each takes, its report notebook and its rule card. A command's
answer is its JSON document and a function printing it for a reader.

Adding a game is a subclass of :class:`Game` in the game's own files and one line in the
registry; nothing else changes.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from gamecore.errors import GamecoreError

if TYPE_CHECKING:
    import pandas as pd

    from gamecore.options import CommandOptions
    from gamecore.rules import RuleSet
    from gamecore.wagers import Wager

#: The commands a game may answer, each a method of :class:`Game` of the same name.
COMMANDS = ("exact", "simulate", "count", "hand")


class Answer(NamedTuple):
    """What a command answers: the JSON document and a function printing it as text."""

    #: The command's JSON document (the schemas in ``docs/json.md``).
    data: dict[str, Any]
    #: Prints the answer for a reader on standard output.
    text: Callable[[], None]


class ExactCounts(NamedTuple):
    """A round's outcomes with their exact integer counts: the number of ordered card
    sequences, drawn without replacement from the shoe, ending in each."""

    #: Outcome label -> its count of ordered card sequences.
    outcomes: dict[str, int]
    #: Every ordered card sequence of a round (the outcomes' counts sum to it).
    total: int


class Game(ABC):
    """A game as every consumer sees it.

    Attributes
    ----------
    name
        The code name (``punto_banco``): the command line's ``GAME``, the registry's key.
    title
        The printed title (``High Limit Baccarat``).
    report
        The report notebook's name in ``notebooks/`` (``None``: analysed for validation
        only, no report).
    rule_card
        The packaged rule card's name in ``gamecore/rulecards/`` (``None``: none shipped).
    rule_card_received
        Whether that card was received from a casino as it is (``False``: gamecore wrote it,
        the common rules its figures follow); the documents say which.
    figures_obtained
        How the game's exact figures are obtained where that is not integer counts of card
        sequences (blackjack: a recursion in float64): a report's document says it under
        each of its tables that is neither simulated nor states it itself (``None``: counts).
    commands
        Each command the game answers (of :data:`COMMANDS`), with the options it takes
        besides those every game command takes (``decks``, ``rule``, ``json``). The
        command line refuses an option the game does not take, naming it.
    report_parameters
        The checks of the parameters its report takes beyond the shared ones of
        :data:`gamecore.reporting.parameters.REPORT_PARAMETERS` (a blackjack report's
        strategy chart file), each ``check(name, value) -> value``.
    examples
        For a command that needs options to run (blackjack's ``simulate`` needs a
        strategy), the options of an example run, as typed; the conformance tests run it.
    """

    name: str
    title: str
    report: str | None = None
    rule_card: str | None = None
    rule_card_received: bool = True
    figures_obtained: str | None = None
    commands: Mapping[str, frozenset[str]] = {}
    report_parameters: Mapping[str, Callable[[str, Any], Any]] = {}
    examples: Mapping[str, Mapping[str, str]] = {}

    @property
    @abstractmethod
    def rules_type(self) -> type[RuleSet]:
        """The game's rule-set class (a :class:`gamecore.rules.RuleSet`)."""

    def default_rules(self) -> RuleSet:
        """The rule set of the game's card: every parameter at its default.

        Returns
        -------
        RuleSet
            ``rules_type.create()``.
        """
        return self.rules_type.create()

    def exact(self, rules: RuleSet, options: CommandOptions) -> Answer:
        """``gamecore exact``: the exact analysis of ``rules``.

        Parameters
        ----------
        rules : RuleSet
            A rule set of :attr:`rules_type`, validated where it was made.
        options : CommandOptions
            The command's options, as the game reads them.

        Returns
        -------
        Answer
            The JSON document and its printer; the base raises :class:`GamecoreError` (the
            command does not apply to the game).
        """
        raise self._not_answered("exact")

    def simulate(self, rules: RuleSet, options: CommandOptions) -> Answer:
        """``gamecore simulate``: the Monte Carlo twin of the exact analysis.

        Parameters
        ----------
        rules : RuleSet
            A rule set of :attr:`rules_type`, validated where it was made.
        options : CommandOptions
            The command's options, as the game reads them.

        Returns
        -------
        Answer
            The JSON document and its printer; the base raises :class:`GamecoreError` (the
            command does not apply to the game).
        """
        raise self._not_answered("simulate")

    def count(self, rules: RuleSet, options: CommandOptions) -> Answer:
        """``gamecore count``: effects of removal and, where asked, a counter simulated.

        Parameters
        ----------
        rules : RuleSet
            A rule set of :attr:`rules_type`, validated where it was made.
        options : CommandOptions
            The command's options, as the game reads them.

        Returns
        -------
        Answer
            The JSON document and its printer; the base raises :class:`GamecoreError` (the
            command does not apply to the game).
        """
        raise self._not_answered("count")

    def hand(self, rules: RuleSet, options: CommandOptions) -> Answer:
        """``gamecore hand``: the value of every play at one decision.

        Parameters
        ----------
        rules : RuleSet
            A rule set of :attr:`rules_type`, validated where it was made.
        options : CommandOptions
            The command's options, as the game reads them.

        Returns
        -------
        Answer
            The JSON document and its printer; the base raises :class:`GamecoreError` (the
            command does not apply to the game).
        """
        raise self._not_answered("hand")

    @abstractmethod
    def exact_counts(self, rules: RuleSet) -> ExactCounts | None:
        """The round's outcomes under ``rules`` with their exact integer counts, under the
        house's play where the game has choices; ``None`` where the engine's figures are
        not integer counts (a blackjack round's value is a recursion over the player's
        choices, in floats).

        Parameters
        ----------
        rules : RuleSet
            A rule set of :attr:`rules_type`.

        Returns
        -------
        ExactCounts or None
            Each outcome's count and their total, or ``None``.
        """

    @abstractmethod
    def cross_check(self, rules: RuleSet, rounds: int, seed: int) -> pd.DataFrame:
        """The game's headline exact figures beside their simulated twins from ``rounds``
        fresh-shoe rounds seeded ``seed`` (:func:`gamecore.twins.twin_table`: Figure |
        Exact | Simulated | SE | z, ...), what every report's cross-check starts from.

        Parameters
        ----------
        rules : RuleSet
            A rule set of :attr:`rules_type`.
        rounds : int
            Rounds to simulate.
        seed : int
            The simulation's seed.

        Returns
        -------
        pandas.DataFrame
            A twin table, one row per headline figure.
        """

    def describe(self) -> dict[str, Any]:
        """What ``gamecore games --json`` says of the game: its name, title, commands,
        report, rule parameters with their defaults, allowed values and meanings, and its
        wagers' paytables.

        Returns
        -------
        dict
            ``name``, ``title``, ``supports`` (command -> bool), ``commands`` (command ->
            its options), ``report``, ``rule_card``, ``rules`` and ``wagers`` (each with its
            paytable, payouts as :func:`gamecore.wagers.odds` prints them).
        """
        from gamecore.wagers import odds  # pandas: only the listing pays for it

        return {
            "name": self.name,
            "title": self.title,
            "supports": {command: command in self.commands for command in COMMANDS},
            "commands": {
                command: sorted(self.commands[command])
                for command in COMMANDS
                if command in self.commands
            },
            "report": self.report,
            "rule_card": self.rule_card,
            "rules": self.rules_type.parameters(),
            "wagers": [
                {
                    "name": wager.name,
                    "title": wager.title,
                    "paytable": [
                        {"outcome": line.outcome, "pays": odds(line.pays)} for line in wager.lines
                    ],
                }
                for wager in self.wagers(self.default_rules())
            ],
        }

    def wagers(self, rules: RuleSet) -> tuple[Wager, ...]:
        """The game's wagers under ``rules`` as paytables (data); empty where the game's
        one wager is settled by play and its payouts are rule parameters (blackjack's
        Natural, 21st Century Baccarat's collection).

        Parameters
        ----------
        rules : RuleSet
            A rule set of :attr:`rules_type`.

        Returns
        -------
        tuple of Wager
            What ``rules.wagers()`` gives, or empty where the rule set has no ``wagers``.
        """
        wagers = getattr(rules, "wagers", None)
        return () if wagers is None else tuple(wagers())

    def _not_answered(self, command: str) -> GamecoreError:
        return GamecoreError(f"{command} does not apply to {self.name}")


def print_simulation(data: dict[str, Any], counted: str = "rounds") -> None:
    """Print a simulation's JSON document ``data`` for a reader: its rounds, game and seed,
    then a row per bet.

    Parameters
    ----------
    data : dict
        A ``simulate`` document: ``rounds``, ``game``, ``seed`` and ``bets`` (bet -> figures).
    counted : str
        What each bet's figures count, the key of its count: ``"rounds"`` (docs/json.md's
        ``simulate`` document), or ``"hands"`` where a round deals a bet more than once
        (21st Century Baccarat's seats).
    """
    import pandas as pd

    from gamecore import terminal

    print(f"Simulated {data['rounds']:,} rounds of {data['game']}, seed {data['seed']}")
    rows = [
        {
            "Bet": bet,
            counted.capitalize(): int(figures[counted]),
            "Units won": figures["sum"],
            "Sum of squares": figures["sum_of_squares"],
            f"EV (mean per {counted.removesuffix('s')})": figures["mean"],
            "SE of the EV": figures["se"],
        }
        for bet, figures in data["bets"].items()
    ]
    print(terminal.table(pd.DataFrame(rows)))


def counter_figures(
    counting: Any,
    found: Any,
    counter: Any,
    seats: Mapping[str, Any],
    extra: Mapping[str, Any] = MappingProxyType({}),
) -> dict[str, Any]:
    """The ``count`` command's simulations: the counter (``--shoes``) and the
    perfect-information bettor (``--oracle-shoes``), as the game's counting module runs them.

    Parameters
    ----------
    counting : module
        The game's counting module (``counter_simulation(count, run)`` and
        ``perfect_information_simulation(count, run)``).
    found : object
        The game's count (what its ``count_analysis`` returned).
    counter : gamecore.options.CounterOptions
        The run, the shoes of each simulation and the rounds an hour.
    seats : mapping
        The counter's table as the JSON reports it: ``players``, ``seat`` and, for the
        counter, its turn at the bank (``turn_rounds``, ``bank_at``).
    extra : mapping
        More of the counter's settings to report after its ramp (blackjack's index plays).

    Returns
    -------
    dict
        ``dealing``, and ``counter`` and ``upper_bound`` where asked for.
    """
    run, per_hour = counter.run, counter.rounds_per_hour
    out: dict[str, Any] = {}
    if counter.shoes is not None:
        result = counting.counter_simulation(found, run.replace(shoes=counter.shoes))
        out["dealing"] = result.dealing.to_dict()
        out["counter"] = {
            **seats,
            "trigger": run.trigger,
            "ramp": list(result.ramp),
            **extra,
            "seed": run.seed,
            "rounds_per_hour": per_hour,
            **result.summary(per_hour),
        }
    if counter.oracle_shoes is not None:
        bound = counting.perfect_information_simulation(
            found, run.replace(shoes=counter.oracle_shoes)
        )
        out["dealing"] = bound.dealing.to_dict()
        out["upper_bound"] = {
            "players": seats["players"],
            "seat": seats["seat"],
            "ramp": list(bound.ramp),
            "seed": run.seed,
            **bound.summary(per_hour),
        }
    return out


def print_counter(data: dict[str, Any]) -> None:
    """Print the counter's and the perfect-information bettor's figures of a ``count``
    document ``data``, where it has them.

    Parameters
    ----------
    data : dict
        A ``count`` document; its ``counter`` and ``upper_bound`` mappings are printed.
    """
    for key in ("counter", "upper_bound"):
        if key in data:
            print(f"\n{key}:")
            for name, value in data[key].items():
                print(f"  {name}: {value}")
