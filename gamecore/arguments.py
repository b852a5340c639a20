"""The ``gamecore`` command line's parser: every command's options, each taken once, and a
usage error in one line.

What a command does is :mod:`gamecore.cli`'s; which options a game's command takes is the
game's (:attr:`gamecore.game.Game.commands`): the parser holds them all and the command
refuses one its game does not take.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import Any

from gamecore import __version__, games
from gamecore.errors import did_you_mean, one_line, shown
from gamecore.options import DEFAULT_PENETRATION

#: What ``gamecore --help`` says first.
DESCRIPTION = (
    "Exact par sheets, simulations and counting studies of casino table games, from the "
    "command line. Games: " + ", ".join(games.NAMES) + " (`gamecore games` describes each)."
)

#: The width help paragraphs are wrapped to (argparse wraps its own columns to the terminal).
HELP_WIDTH = 78

#: Each command's description and examples, as its --help prints them. The examples run as
#: written (tests/test_newcomer.py runs those that write no file and need no reports).
HELP = {
    "exact": (
        "The exact analysis of one round dealt from the shoe: every wager's outcomes with "
        "their combinations (integer counts of card sequences), probability and return, the "
        "house edge, standard deviation and hit frequency; blackjack adds the best chart.",
        [
            "gamecore exact punto_banco",
            "gamecore exact ez_baccarat --decks 6 --rule dragon7_pays=45",
            "gamecore exact standard_blackjack --rule dealer_hits_soft_17=true --json",
        ],
    ),
    "hand": (
        "Blackjack: the exact EV of every action (stand, hit, double, split, surrender) at "
        "one hand against one up card, from the shoe left after those cards.",
        ["gamecore hand standard_blackjack --up 10 --cards 10,6"],
    ),
    "count": (
        "Card counting: each card's exact effect of removal on the game's bets, a balanced "
        "count derived from them, and (with --shoes) a counter simulated on real shoes.",
        ["gamecore count punto_banco", "gamecore count c21_baccarat --shoes 300 --seed 1"],
    ),
    "simulate": (
        "Monte Carlo simulation of rounds dealt from shoes: every wager's mean and standard "
        "error, the same for a seed whatever the threads.",
        [
            "gamecore simulate ez_baccarat --rounds 100000 --seed 1",
            "gamecore simulate punto_banco --rounds 100000 --mode shoe --penetration 20",
        ],
    ),
    "sidebet": (
        "The exact par sheet of a side bet written as data (docs/side-bets.md): every "
        "outcome's combinations, probability and return, the house edge, standard deviation "
        "and hit frequency. `gamecore games` lists the built-in bets.",
        ["gamecore sidebet player_pair --decks 8", "gamecore sidebet dragon_7 --json"],
    ),
    "games": (
        "Every game: its commands, its wagers with their paytables, its rule parameters; and "
        "the built-in side bets.",
        ["gamecore games", "gamecore games --json"],
    ),
    "rules": (
        "A game's rule parameters: each one's default, what it accepts and what it means. "
        "Set one with --rule NAME=VALUE on exact, simulate, count and hand.",
        ["gamecore rules c21_blackjack"],
    ),
    "verify": (
        "Check a reports folder: every file's SHA-256 against MANIFEST.json (and its "
        "signature, with --public-key), then recompute every exact figure.",
        ["gamecore verify reports", "gamecore verify reports --only punto_banco"],
    ),
}


def help_text(command: str) -> dict[str, Any]:
    """The ``description`` and ``epilog`` (its examples) of ``command``'s parser.

    Parameters
    ----------
    command : str
        A command of :data:`HELP`.

    Returns
    -------
    dict
        Keyword arguments for ``add_parser``.
    """
    description, examples = HELP[command]
    return {
        "description": textwrap.fill(description, HELP_WIDTH),
        "epilog": "examples:\n" + "\n".join(f"  {line}" for line in examples),
        "formatter_class": argparse.RawDescriptionHelpFormatter,
    }


#: The longest usage error argparse may print: it quotes an unknown command or the
#: arguments it did not recognise whole, a megabyte for a megabyte; a longer one is cut in
#: the middle (its start says what, its end the choices).
MAX_USAGE_ERROR = 300


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (the usage is available with --help), and an
    option that takes a value takes one (:class:`Once`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.register("action", None, Once)  # the action of every add_argument not naming one

    def _print_message(self, message: str, file=None) -> None:  # type: ignore[override]
        """Write ``message`` (help, the version, a usage error) to ``file``, flushed: argparse's
        own drops a write error, so ``gamecore --help > /dev/full`` ended with status 0. Here
        standard output that cannot be written raises the :class:`OSError` the process's entry
        point reports (exit 1); standard error's loss is left to the exit status.

        Parameters
        ----------
        message : str
            What to write.
        file : text stream or None
            Where (default standard error, as argparse's).
        """
        stream = sys.stderr if file is None else file
        if not message or stream is None:
            return
        try:
            stream.write(message)
            stream.flush()
        except (OSError, ValueError):
            if stream is not sys.stderr:
                raise

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[override]
        """argparse's, refusing first an argument that holds a NUL character (only
        ``main(argv)`` can pass one: no process's command line holds one).

        Parameters
        ----------
        args : list of str or None
            The arguments (default ``sys.argv[1:]``).
        namespace : argparse.Namespace or None
            Where to store them (default a new one).

        Returns
        -------
        tuple
            The namespace and the arguments not recognised, as argparse gives them.
        """
        for arg in sys.argv[1:] if args is None else args:
            if "\x00" in arg:  # main(argv) only: no process's command line can hold one
                self.error(f"argument {shown(arg)} holds a NUL character")
        return super().parse_known_args(args, namespace)

    def parse_args(self, args=None, namespace=None):  # type: ignore[override]
        """argparse's, with a way forward: no command at all prints the help (on standard
        error, exit 2), and an option no command takes is named with the one meant
        (:func:`unknown_option_hint`).

        Parameters
        ----------
        args : list of str or None
            The arguments (default ``sys.argv[1:]``).
        namespace : argparse.Namespace or None
            Where to store them (default a new one).

        Returns
        -------
        argparse.Namespace
            The parsed command line.
        """
        given = sys.argv[1:] if args is None else list(args)
        if not given and getattr(self, "commands", None):
            self.print_help(sys.stderr)
            self.exit(2)
        namespace, extras = self.parse_known_args(given, namespace)
        if extras:
            hint = unknown_option_hint(self, namespace, extras)
            self.error(f"unrecognized arguments: {' '.join(extras)}{hint}")
        return namespace

    def error(self, message: str) -> None:  # type: ignore[override]
        """Exit with status 2 and the usage error in one line on standard error (a long one
        cut in the middle: argparse quotes a value whole).

        Parameters
        ----------
        message : str
            argparse's message.
        """
        if len(message) > MAX_USAGE_ERROR:  # argparse quotes a value whole
            half = MAX_USAGE_ERROR // 2
            message = f"{message[:half]} ... {message[-half:]}"
        self.exit(2, f"gamecore: error: {one_line(message)}\n")


def path_argument(text: str) -> str:
    """A file or folder given on the command line (argparse's ``type``): an empty one is
    refused, since the system reads it as the working folder and a command would write or
    read there, which nobody asked for.

    Parameters
    ----------
    text : str
        The path as typed.

    Returns
    -------
    str
        ``text``, unchanged.

    Examples
    --------
    >>> path_argument("reports")
    'reports'
    """
    if not text:
        raise argparse.ArgumentTypeError(
            "an empty path names no file or folder (it would be the working folder)"
        )
    return text


def unknown_option_hint(parser: argparse.ArgumentParser, namespace, extras: list[str]) -> str:
    """What the first unrecognised option was probably meant to be: an option of the command
    (``--jsn``: ``--json``), or a rule of the game, which is set with ``--rule``
    (``--dragon7-pays 45``: ``--rule dragon7_pays=45``).

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The top-level parser (its ``commands``: each command's parser).
    namespace : argparse.Namespace
        What was parsed (the command, the game).
    extras : list of str
        The arguments not recognised.

    Returns
    -------
    str
        A hint to append to the message, or ``""``.
    """
    typed = next((arg for arg in extras if arg.startswith("--")), None)
    command = getattr(parser, "commands", {}).get(getattr(namespace, "command", None))
    if typed is None or command is None:
        return ""
    option = typed.split("=", 1)[0]
    # argparse keeps no public list of a parser's options; its actions hold them.
    options = [s for action in command._actions for s in action.option_strings]
    hint = did_you_mean(option, options, cutoff=0.7)
    if hint:
        return hint
    rule = option.lstrip("-").replace("-", "_")
    game = getattr(namespace, "game", None)
    if "rule" in vars(namespace) and game in games.NAMES:
        if rule in games.game(game).rules_type.parameter_names():
            value = typed.split("=", 1)[1] if "=" in typed else _next_value(extras, typed)
            return f" (did you mean --rule {rule}={value}?)"
    return ""


def _next_value(extras: list[str], typed: str) -> str:
    after = extras[extras.index(typed) + 1 :]
    return after[0] if after and not after[0].startswith("-") else "VALUE"


class Once(argparse.Action):
    """Store an option's value, refusing a second one: argparse keeps the last, so
    ``--decks 6 --decks 8`` (a command line edited in a hurry) would analyse 8 decks and
    show nobody the 6."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        given = namespace.__dict__.setdefault("_options_given", {})
        if self.dest in given:
            parser.error(
                f"{option_string} is given twice ({shown(given[self.dest])} and "
                f"{shown(values)}); give it once"
            )
        given[self.dest] = values
        setattr(namespace, self.dest, values)


def game_options(parser: argparse.ArgumentParser) -> None:
    """Add what every game command takes: the game, its rule set (``--decks``,
    ``--jokers-per-deck``, ``--rule NAME=VALUE``), ``--strategy`` and ``--json``.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        A game command's parser, added to in place.
    """
    parser.add_argument("game", help=", ".join(games.NAMES))
    parser.add_argument("--decks", help="decks in the shoe, an integer 1..1000")
    parser.add_argument("--jokers-per-deck", help="c21_baccarat: jokers per deck (default 1)")
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set a rule parameter (repeatable); `gamecore rules GAME` lists them",
    )
    parser.add_argument(
        "--strategy",
        metavar="CHART.csv",
        help="blackjack: a strategy chart (simulate also takes 'optimal': composition-"
        "dependent play as the exact engine decides it)",
    )
    parser.add_argument("--json", action="store_true", help="JSON (schema in docs/json.md)")


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser: each command's options, each option taken once.

    Returns
    -------
    Parser
        A new parser of every command (``exact``, ``hand``, ``count``, ``simulate``,
        ``sidebet``, ``games``, ``rules``, ``verify``, ``sign``, ``keygen``).
    """
    parser = Parser(
        prog="gamecore",
        description=textwrap.fill(DESCRIPTION, HELP_WIDTH),
        epilog="examples:\n  gamecore games\n  gamecore exact punto_banco\n"
        "  gamecore exact --help        (each command's options and examples)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"gamecore {__version__}")
    commands = parser.add_subparsers(
        dest="command", required=True, parser_class=Parser, metavar="COMMAND"
    )
    for add in (_exact, _hand, _count, _simulate, _sidebet, _listings):
        add(commands)
    parser.commands = commands.choices  # each command's parser, for the hints of errors
    return parser


def _exact(commands) -> None:
    exact = commands.add_parser(
        "exact", help="exact (combinatorial) analysis of a game", **help_text("exact")
    )
    game_options(exact)
    exact.add_argument("--infinite", action="store_true", help="baccarat: infinite-deck limit")
    exact.add_argument(
        "--shoe",
        metavar="N_A,N_2,...,N_9,N_10",
        help="analyse this shoe: cards of each rank, ten-valued last (--decks still selects "
        "the deck-count rule defaults)",
    )
    exact.add_argument("--jokers", help="c21_baccarat with --shoe: jokers in the shoe")
    exact.add_argument(
        "--results",
        action="store_true",
        help="blackjack: add the probability of each final result under the chart "
        "(--strategy, else the best chart found)",
    )


def _hand(commands) -> None:
    hand = commands.add_parser(
        "hand",
        help="blackjack: the EV of every action at one hand against one up card",
        **help_text("hand"),
    )
    hand.add_argument("game", help="a game answering hand (`gamecore games` lists them)")
    hand.add_argument("--up", required=True, help="the up card: A, 2..10, J, Q, K")
    hand.add_argument("--cards", required=True, help="the hand's cards, e.g. 10,6 or 5,4,7")
    hand.add_argument("--decks", help="decks in the shoe, an integer 1..1000")
    hand.add_argument("--shoe", metavar="N_A,N_2,...,N_9,N_10", help="the shoe before the deal")
    hand.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set a rule parameter (repeatable); `gamecore rules GAME` lists them",
    )
    hand.add_argument("--json", action="store_true", help="JSON (schema in docs/json.md)")


def _count(commands) -> None:
    count = commands.add_parser(
        "count",
        help="card counting: exact effects of removal, a balanced count, index plays",
        **help_text("count"),
    )
    game_options(count)
    count.add_argument(
        "--shoe", metavar="N_A,N_2,...,N_9,N_10", help="the full shoe to start from (as exact)"
    )
    count.add_argument("--jokers", help="c21_baccarat with --shoe: jokers in the shoe")
    count.add_argument(
        "--max-tag", help="the derived count's largest tag (blackjack 3, c21_baccarat 4)"
    )
    counter = count.add_argument_group("the counter, simulated on real shoes")
    counter.add_argument("--shoes", help="shoes to simulate the counter on")
    counter.add_argument(
        "--oracle-shoes", help="shoes for the perfect-information bettor (exact every round)"
    )
    counter.add_argument("--trigger", help="bet above this true count (default 1)")
    counter.add_argument("--ramp", help="bets above the trigger, per true count (default 2,4,8)")
    counter.add_argument(
        "--players", help="players at the table (c21_baccarat: default 7; blackjack: 1)"
    )
    counter.add_argument("--seat", help="the counter's seat (default 1)")
    counter.add_argument(
        "--turn-rounds",
        help="the bank rotates, each person holding it this many rounds (the blackjack card: "
        "2; default 0, no rotation)",
    )
    counter.add_argument(
        "--bank-at", help="in its turn the counter banks at or below this true count"
    )
    counter.add_argument("--penetration", help="cards behind the cut card (default: reading)")
    counter.add_argument("--seed", help="random seed (default 1)")
    counter.add_argument("--rounds-per-hour", help="for the hourly figures (default 60)")


def _simulate(commands) -> None:
    simulate = commands.add_parser(
        "simulate", help="Monte Carlo simulation of a game", **help_text("simulate")
    )
    game_options(simulate)
    simulate.add_argument("--rounds", default="1000000", help="rounds to deal (default 1000000)")
    simulate.add_argument("--seed", default="1", help="random seed, a non-negative integer")
    simulate.add_argument(
        "--mode",
        default="fresh",
        metavar="{fresh,shoe}",
        help="fresh (a full shoe every round, the default) or shoe (dealt to a cut card)",
    )
    simulate.add_argument(
        "--penetration",
        help=f"shoe mode: cards behind the cut card (default {DEFAULT_PENETRATION})",
    )
    simulate.add_argument(
        "--burn",
        metavar="{face_value,none}",
        help="shoe mode: face_value or none (baccarat: face_value)",
    )
    simulate.add_argument(
        "--players",
        help="c21_baccarat: seats against the P/D (default 1); blackjack: a full table of "
        "1-7 players and the P/D (the P/D's seat: SD, covariances, coverage, ruin)",
    )
    simulate.add_argument(
        "--stake", help="blackjack table: the P/D's money a round, units (default: covers all)"
    )
    simulate.add_argument(
        "--bankrolls",
        help="blackjack table: the banker's money for a shift, units, comma-separated "
        "(default 100,200,400,800)",
    )
    simulate.add_argument("--shift-rounds", help="blackjack table: rounds a shift (default 480)")
    simulate.add_argument(
        "--turn-rounds", help="blackjack table: rounds each person banks in turn (default 2)"
    )
    simulate.add_argument("--threads", help="threads on this machine (default: all cores)")
    simulate.add_argument(
        "--dask", metavar="ADDRESS", help="run the chunks on a Dask scheduler, or 'local'"
    )
    simulate.add_argument("--no-progress", action="store_true", help="no progress bar")


def _sidebet(commands) -> None:
    sidebet = commands.add_parser(
        "sidebet",
        help="exact par sheet of a side bet: a built-in's name or a definition file",
        **help_text("sidebet"),
    )
    sidebet.add_argument("bet", metavar="NAME_OR_FILE", help="a built-in bet or a .yaml file")
    sidebet.add_argument("--decks", help="decks in the shoe, an integer 1..1000")
    sidebet.add_argument("--json", action="store_true", help="JSON (schema in docs/json.md)")


def _listings(commands) -> None:
    listing = commands.add_parser(
        "games",
        help="every game: its commands, wagers with paytables and rule parameters",
        **help_text("games"),
    )
    listing.add_argument("--json", action="store_true", help="JSON (schema in docs/json.md)")

    rules = commands.add_parser(
        "rules", help="list a game's rule parameters and defaults", **help_text("rules")
    )
    rules.add_argument("game", help=", ".join(games.NAMES))

    verify = commands.add_parser(
        "verify",
        help="check a reports folder against its MANIFEST.json and recompute its figures",
        **help_text("verify"),
    )
    verify.add_argument(
        "reports", type=path_argument, help="the reports folder (make reports writes reports/)"
    )
    verify.add_argument(
        "--simulations",
        action="store_true",
        help="compare every simulated figure bit for bit (default: each simulated twin "
        "against its exact figure)",
    )
    verify.add_argument("--only", action="append", help="recompute only this report")
    verify.add_argument(
        "--public-key",
        type=path_argument,
        metavar="PUB",
        help="check MANIFEST.json.sig by this public key first (gamecore keygen makes one)",
    )
    _signing(commands)


def _signing(commands) -> None:
    sign = commands.add_parser(
        "sign",
        help="sign a reports folder's MANIFEST.json (Ed25519): writes MANIFEST.json.sig",
        description="Sign the exact bytes of REPORTS/MANIFEST.json, which holds every "
        "report file's SHA-256, with an Ed25519 private key; the signature goes to "
        "REPORTS/MANIFEST.json.sig. `gamecore verify REPORTS --public-key PUB` checks it.",
    )
    sign.add_argument(
        "reports", type=path_argument, help="the reports folder (make reports writes reports/)"
    )
    sign.add_argument(
        "--key", required=True, type=path_argument, help="the private key (gamecore keygen)"
    )
    keygen = commands.add_parser(
        "keygen",
        help="make an Ed25519 key pair for gamecore sign and verify --public-key",
        description="Write a new Ed25519 key pair as PEM files of mode 0600; an existing "
        "file is never overwritten. Keep the private key; give the public one to whoever "
        "verifies.",
    )
    keygen.add_argument(
        "--private", required=True, type=path_argument, metavar="KEY", help="the private key's file"
    )
    keygen.add_argument(
        "--public", required=True, type=path_argument, metavar="PUB", help="the public key's file"
    )
