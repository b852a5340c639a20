"""A command's options as a game reads them: the text the user typed, read once, each
mistake one line naming the option and the value.

The command line hands every game a :class:`CommandOptions`; the game reads the options its
commands take (:attr:`gamecore.game.Game.commands`) with the typed readers here: plain ASCII
decimals (:mod:`gamecore.decimals`), a shoe by rank, the dealing of a simulation and the
counter's options. No game parses text of its own.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from gamecore import decimals
from gamecore.errors import GamecoreError, shown

if TYPE_CHECKING:
    from gamecore.counting import CounterRun
    from gamecore.parallel import Run

#: The order of ``--shoe``'s card counts: Farmer's, the ten-valued cards last.
SHOE_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")

#: Cards behind the cut card in shoe mode when --penetration is not given.
DEFAULT_PENETRATION = 14

#: The options of the counter's simulation (the 21st Century Baccarat counter sits at a full
#: table and has the perfect-information bound; the blackjack counter plays heads-up).
COUNTER_OPTIONS = (
    "shoes", "oracle_shoes", "trigger", "ramp", "players", "seat", "penetration", "seed",
    "rounds_per_hour", "turn_rounds", "bank_at",
)  # fmt: skip

#: The options every simulation takes: how many rounds, the seed, where it runs.
RUN_OPTIONS = frozenset({"rounds", "seed", "mode", "threads", "dask", "no_progress"})


def flag(option: str) -> str:
    """The command-line flag of an option, as messages name it.

    Parameters
    ----------
    option : str
        The option's name as the parser stores it (``"oracle_shoes"``).

    Returns
    -------
    str
        Its flag (``"--oracle-shoes"``).
    """
    return "--" + option.replace("_", "-")


def integer(text: str, name: str) -> int:
    """Read an integer typed as a plain ASCII decimal (:mod:`gamecore.decimals`).

    Parameters
    ----------
    text : str
        What the user typed.
    name : str
        What it is (a flag, ``--shoe count of rank A``), for the message that refuses it.

    Returns
    -------
    int
        The integer.

    Raises
    ------
    GamecoreError
        ``text`` is not an integer so written, naming ``name``, the value and why.
    """
    try:
        return decimals.integer(text)
    except ValueError as error:
        raise GamecoreError(
            f"{name} must be an integer, got {shown(text)}{decimals.why(error)}"
        ) from None


def number(text: str, name: str) -> float:
    """Read a finite number typed as a plain ASCII decimal (:mod:`gamecore.decimals`).

    Parameters
    ----------
    text : str
        What the user typed.
    name : str
        What it is, for the message that refuses it.

    Returns
    -------
    float
        The number (digits past the float range are refused, not infinite).
    """
    try:
        value = float(decimals.number(text))
    except ValueError as error:
        raise GamecoreError(
            f"{name} must be a number, got {shown(text)}{decimals.why(error)}"
        ) from None
    if not math.isfinite(value):  # digits past the float range
        raise GamecoreError(f"{name} must be a finite number, got {shown(text)}")
    return value


def numbers(text: str, name: str) -> tuple[float, ...]:
    """Read comma-separated finite numbers, each as :func:`number` reads one.

    Parameters
    ----------
    text : str
        What the user typed (``"2,4,8"``).
    name : str
        What they are, for the message that refuses one.

    Returns
    -------
    tuple of float
        The numbers, in order.
    """
    return tuple(number(part, name) for part in text.split(","))


def baccarat_composition(shoe: list[int]) -> list[int]:
    """A shoe by rank as baccarat's point classes.

    Parameters
    ----------
    shoe : list of int
        Cards of each rank in :data:`SHOE_RANKS`' order: A, 2, ..., 9, ten-valued.

    Returns
    -------
    list of int
        Cards of each point class 0..9 (0: the ten-valued cards).
    """
    return [shoe[9], *shoe[:9]]


class CounterOptions(NamedTuple):
    """The counter's options (``count --shoes``, ``--oracle-shoes``): its run, checked
    (:class:`gamecore.counting.CounterRun`, its shoes ``--shoes``, else ``--oracle-shoes``),
    the shoes of each study (``None`` where not asked for) and the rounds an hour."""

    run: CounterRun
    shoes: int | None
    oracle_shoes: int | None
    rounds_per_hour: float


class CommandOptions:
    """The options one command was given, as typed, read by the game's command.

    Parameters
    ----------
    game
        The game's code name (messages name it).
    values
        Option name (``oracle_shoes``) -> the text given, ``True`` for a switch, ``None``
        or ``False`` where not given.
    rules_given
        The rule parameters the command line set (``--decks``, ``--rule NAME=VALUE``).
    """

    def __init__(self, game: str, values: Mapping[str, Any], rules_given: frozenset[str]):
        self.game = game
        self._values = dict(values)
        self.rules_given = rules_given

    def given(self, option: str) -> bool:
        """Whether an option was given.

        Parameters
        ----------
        option : str
            The option's name (``"oracle_shoes"``).

        Returns
        -------
        bool
            True when it was given a value, or is a switch turned on.
        """
        return self._values.get(option) not in (None, False)

    def text(self, option: str) -> Any:
        """An option's value as typed.

        Parameters
        ----------
        option : str
            The option's name.

        Returns
        -------
        Any
            The text given, ``True`` for a switch turned on, ``None`` (or ``False``) when
            not given.
        """
        return self._values.get(option)

    def names_given(self) -> list[str]:
        """Every option given.

        Returns
        -------
        list of str
            Their names, in the command's order.
        """
        return [option for option in self._values if self.given(option)]

    def refuse(self, *options: str) -> None:
        """Refuse the first of ``options`` given: it does not apply to the game.

        Parameters
        ----------
        *options : str
            The options' names.

        Raises
        ------
        GamecoreError
            Naming the first given's flag and the game.
        """
        for option in options:
            if self.given(option):
                raise GamecoreError(f"{flag(option)} does not apply to {self.game}")

    def integer(self, option: str, default: int | None = None) -> int | None:
        """An option read as an integer (:func:`integer`).

        Parameters
        ----------
        option : str
            The option's name.
        default : int or None
            The value when it was not given.

        Returns
        -------
        int or None
            The integer, or ``default``.
        """
        value = self.text(option)
        return default if value is None else integer(value, flag(option))

    def number(self, option: str, default: float | None = None) -> float | None:
        """An option read as a finite number (:func:`number`).

        Parameters
        ----------
        option : str
            The option's name.
        default : float or None
            The value when it was not given.

        Returns
        -------
        float or None
            The number, or ``default``.
        """
        value = self.text(option)
        return default if value is None else number(value, flag(option))

    def numbers(self, option: str, default: tuple[float, ...]) -> tuple[float, ...]:
        """An option read as comma-separated numbers (:func:`numbers`).

        Parameters
        ----------
        option : str
            The option's name.
        default : tuple of float
            The value when it was not given.

        Returns
        -------
        tuple of float
            The numbers, or ``default``.
        """
        value = self.text(option)
        return default if value is None else numbers(value, flag(option))

    def shoe(self) -> list[int] | None:
        """The shoe given as ``--shoe N_A,N_2,...,N_9,N_10`` (refused with ``--infinite``).

        Returns
        -------
        list of int or None
            Cards of each rank in :data:`SHOE_RANKS`' order, the ten-valued cards last, each
            0 or more; ``None`` when not given.
        """
        text = self.text("shoe")
        if text is None:
            return None
        if self.given("infinite"):
            raise GamecoreError("--shoe gives the shoe; --infinite does not apply with it")
        fields = text.split(",")
        if len(fields) != len(SHOE_RANKS):
            raise GamecoreError(
                "--shoe must give 10 card counts (A, 2, ..., 9, ten-valued) separated by "
                f"commas, got {shown(text)}"
            )
        counts = []
        for rank, field in zip(SHOE_RANKS, fields, strict=True):
            count = integer(field, f"--shoe count of rank {rank}")
            if count < 0:
                raise GamecoreError(f"--shoe count of rank {rank} must be >= 0, got {count}")
            counts.append(count)
        return counts

    def dealing(self, default_burn: str):
        """The dealing of a baccarat simulation: ``--mode``, and in shoe mode the cut card
        (``--penetration``) and the burn (``--burn``); both refused in fresh mode.

        Parameters
        ----------
        default_burn : str
            The game's burn when ``--burn`` is not given (:data:`gamecore.dealing.BURNS`).

        Returns
        -------
        gamecore.dealing.Dealing
            The procedure, checked.
        """
        from gamecore.dealing import Dealing

        mode = self.text("mode")
        if mode != "shoe":
            self.refuse_cut_card(
                f"applies to --mode shoe only; --mode {mode} deals every round from a "
                "freshly shuffled full shoe",
            )
        return Dealing(
            mode=mode,
            penetration=self.integer("penetration", DEFAULT_PENETRATION),
            burn=default_burn if self.text("burn") is None else self.text("burn"),
        )

    def refuse_cut_card(self, why: str) -> None:
        """Refuse ``--penetration`` and ``--burn``: a cut card and a burn exist only when
        rounds are dealt from a shoe (``--mode shoe``).

        Parameters
        ----------
        why : str
            Ends the message: ``--OPTION {why}``.
        """
        for option in ("penetration", "burn"):
            if self.text(option) is not None:
                raise GamecoreError(f"--{option} {why}")

    def run(self) -> Run:
        """A simulation's run from ``--rounds``, ``--seed``, ``--threads``, ``--dask`` and
        ``--no-progress``.

        Returns
        -------
        gamecore.parallel.Run
            The run, checked.
        """
        from gamecore.parallel import Run

        return Run(
            self.integer("rounds"),
            self.integer("seed"),
            self.integer("threads"),
            self.text("dask"),
            False if self.given("no_progress") else None,
        )

    def counter(self, players: int = 1) -> CounterOptions | None:
        """The counter's options, its run built from the command line.

        Parameters
        ----------
        players : int
            The game's table when ``--players`` is not given.

        Returns
        -------
        CounterOptions or None
            The run (its shoes ``--shoes``, else ``--oracle-shoes``), each study's shoes and
            the rounds an hour; ``None`` when no counter is asked for (neither ``--shoes``
            nor ``--oracle-shoes``; then any other counter option is refused).
        """
        from gamecore.counting import CounterRun
        from gamecore.dealing import Dealing

        if not self.given("shoes") and not self.given("oracle_shoes"):
            for option in COUNTER_OPTIONS:
                if self.text(option) is not None:
                    raise GamecoreError(
                        f"{flag(option)} sets the counter's simulation: give --shoes N too"
                    )
            return None
        if self.text("shoe") is not None:
            raise GamecoreError("--shoes simulates full shoes of the rules; --shoe does not apply")
        rounds_per_hour = self.number("rounds_per_hour", 60.0)
        if not 0 < rounds_per_hour < 10_000:
            raise GamecoreError(
                f"--rounds-per-hour must be above 0 and below 10,000, got {rounds_per_hour:g}"
            )
        shoes, oracle_shoes = self.integer("shoes"), self.integer("oracle_shoes")
        dealing = None
        if self.given("penetration"):
            dealing = Dealing(mode="shoe", penetration=self.integer("penetration"), burn="none")
        run = CounterRun(
            shoes if shoes is not None else oracle_shoes,
            self.integer("seed", 1),
            self.number("trigger", 1.0),
            self.numbers("ramp", (2, 4, 8)),
            dealing,
            self.integer("players", players),
            self.integer("seat", 1),
            self.integer("turn_rounds", 0),
            self.number("bank_at"),
            progress=False,
        )
        return CounterOptions(run, shoes, oracle_shoes, rounds_per_hour)
