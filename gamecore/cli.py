"""The ``gamecore`` command line.

``gamecore exact GAME ...`` prints a game's exact analysis and ``gamecore simulate GAME ...``
its Monte Carlo twin; ``--json`` gives the stable schemas of ``docs/json.md``. Bad input
exits with status 2 and one line on standard error naming the bad value, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

from gamecore import decimals, games, rulewords, strictjson
from gamecore.arguments import build_parser
from gamecore.errors import GamecoreError, one_line, shown
from gamecore.interrupts import write_whole
from gamecore.options import CommandOptions, flag


def _rule_pairs(pairs: Sequence[str]) -> dict[str, str]:
    values: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        name, value = name.strip(decimals.BLANKS), value.strip(decimals.BLANKS)
        if not sep or not name:
            raise GamecoreError(f"--rule takes NAME=VALUE, got {shown(pair)}")
        if name in values:
            raise GamecoreError(
                f"rule {shown(name)} is given twice ({shown(values[name])} and {shown(value)}); "
                "give it once"
            )
        values[name] = value
    return values


def _rule_values(args: argparse.Namespace) -> dict[str, str]:
    """The rule parameters the command line sets: ``--rule NAME=VALUE``, ``--decks`` and
    ``--jokers-per-deck``, each once."""
    values = _rule_pairs(getattr(args, "rule", []))
    for option in ("decks", "jokers_per_deck"):
        given = getattr(args, option, None)
        if given is None:
            continue
        if option in values:
            raise GamecoreError(
                f"{option} is given twice ({flag(option)} {shown(given)} and --rule {option}="
                f"{shown(values[option])}); give it once"
            )
        values[option] = given
    return values


#: The parser's entries that are not a game command's options: plumbing, and what every
#: game command takes (the game and its rule set).
NOT_GAME_OPTIONS = frozenset(
    {"command", "run", "game", "decks", "jokers_per_deck", "rule", "json", "_options_given"}
)


def _command_game(args: argparse.Namespace) -> None:
    """``gamecore exact|simulate|count|hand GAME ...``: the game's answer to the command,
    as JSON or text. The rule set is made once here; an option the game's command does not
    take is refused, naming it."""
    game = games.game(args.game)
    if args.command not in game.commands:
        answering = ", ".join(games.answering(args.command))
        raise GamecoreError(f"{args.command} is for {answering}, not {args.game}")
    rule_values = _rule_values(args)
    values = {k: v for k, v in vars(args).items() if k not in NOT_GAME_OPTIONS}
    options = CommandOptions(game.name, values, frozenset(rule_values))
    try:
        rules = game.rules_type.from_strings(rule_values)
        for option in options.names_given():
            if option not in game.commands[args.command]:
                raise GamecoreError(f"{flag(option)} does not apply to {game.name}")
        answer = getattr(game, args.command)(rules, options)
    except GamecoreError as error:
        raise GamecoreError(_naming_the_flag(args, str(error))) from None
    _emit(answer.data, args.json, answer.text)


def _naming_the_flag(args: argparse.Namespace, message: str) -> str:
    """A refusal from the library names a value by its parameter (``stake must be ...``,
    ``bankrolls[0] must be ...``, a shoe's ``composition count of rank A ...``); where the
    command line gave that value as an option, the message names the option instead
    (``--stake must be ...``, ``--bankrolls item 1 must be ...``, ``--shoe count of rank A
    ...``, 21st Century Baccarat's jokers ``--jokers ...``). A value not given as an option
    (a default, a ``--rule``) keeps its parameter's name."""
    if getattr(args, "shoe", None) is not None and message.startswith("composition"):
        jokers = "composition count of jokers"
        if message.startswith(jokers):
            return "--jokers" + message[len(jokers) :]
        return "--shoe" + message[len("composition") :]
    found = re.match(r"([a-z_]+)(?:\[(\d+)\])? ", message)
    if found is None or found.group(1) in ("game", "rule", "json", "command", "run"):
        return message
    if getattr(args, found.group(1), None) in (None, False):
        return message
    named = flag(found.group(1))
    if found.group(2) is not None:
        named = f"{named} item {int(found.group(2)) + 1}"
    return f"{named} {message[found.end() :]}"


def _emit(data: dict[str, Any], as_json: bool, text: Callable[[], None]) -> None:
    if as_json:
        # Strict JSON: an undefined figure is null, never NaN (see gamecore.strictjson).
        write_whole(strictjson.dumps(data) + "\n")
    else:
        # The text tables' widths, where the command built tables: pandas is then imported
        # already; a command that built none (a side bet's sheet) does not import it for
        # this (a third of a second)
        pandas = sys.modules.get("pandas")
        if pandas is None:
            text()
            return
        with pandas.option_context("display.width", 200, "display.max_columns", 30):
            text()


def _command_reports(args: argparse.Namespace) -> int:  # verify, sign, keygen
    from gamecore.reporting.verify import command

    return command(args)


def _command_sidebet(args: argparse.Namespace) -> None:
    from gamecore.sidebets.command import sidebet

    answer = sidebet(args.bet, args.decks)
    _emit(answer.data, args.json, answer.text)


def _command_games(args: argparse.Namespace) -> None:
    """``gamecore games``: every registered game, its commands, wagers and rule parameters,
    and the built-in side bets."""
    from gamecore.sidebets.command import builtins

    described = [game.describe() for game in games.all_games()]
    side_bets = builtins()

    def text() -> None:
        for game in described:
            commands = ", ".join(game["commands"])
            print(f"{game['name']}: {game['title']}")
            print(f"  commands: {commands}; report: {game['report'] or 'none'}")
            for wager in game["wagers"]:
                lines = "; ".join(
                    f"{line['outcome']}: {line['pays']}" for line in wager["paytable"]
                )
                print(f"  wager {wager['name']}: {lines}")
            for rule in game["rules"]:
                print(f"  rule {rule['name']} = {rule['default']} ({rule['allowed']})")
        print("side bets (gamecore sidebet NAME):")
        for bet in side_bets:
            lines = "; ".join(f"{line['outcome']}: {line['pays']}" for line in bet["paytable"])
            print(f"  {bet['bet']} ({bet['game']}, {rulewords.decks(bet['decks'])}): {lines}")

    _emit({"games": described, "side_bets": side_bets}, args.json, text)


def _command_rules(args: argparse.Namespace) -> None:
    import pandas as pd

    rules = games.game(args.game).rules_type.from_strings(_rule_values(args))
    with pd.option_context("display.width", 200, "display.max_colwidth", 120):
        print(rules)


# ---------------------------------------------------------------------------------------
# Parser
# ---------------------------------------------------------------------------------------


#: What each command runs.
COMMANDS: dict[str, Callable[[argparse.Namespace], int | None]] = {
    "exact": _command_game,
    "hand": _command_game,
    "count": _command_game,
    "simulate": _command_game,
    "games": _command_games,
    "rules": _command_rules,
    "verify": _command_reports,
    "sign": _command_reports,
    "keygen": _command_reports,
    "sidebet": _command_sidebet,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command line, as the ``gamecore`` command does.

    Parameters
    ----------
    argv : Sequence[str] or None
        The arguments after the program's name (default ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit status: 0, 1 (``verify`` found a mismatch or a bad signature, or the
        output could not be written), 2 (bad input, one line on standard error), 130
        (interrupted), 141 (standard output's reader has gone).
    """
    return execute(build_parser().parse_args(argv))


#: The exit status when standard output's reader has gone (`gamecore ... | head`): 128 +
#: SIGPIPE, what a shell reports for any command its reader left, never 0: the output was
#: not all delivered.
EXIT_BROKEN_PIPE = 141


def execute(args: argparse.Namespace) -> int:
    """Run the command ``args`` were parsed into, every error one line on standard error.

    Parameters
    ----------
    args : argparse.Namespace
        What :func:`gamecore.arguments.build_parser`'s parser gave.

    Returns
    -------
    int
        The exit status (:func:`main`).
    """
    try:
        code = COMMANDS[args.command](args)
        sys.stdout.flush()  # a write error surfaces here, not in the interpreter's exit
    except GamecoreError as error:
        _say(f"gamecore: error: {one_line(str(error))}")
        return 2
    except KeyboardInterrupt:
        _finish_progress_bars()
        _say("gamecore: interrupted")
        return 130
    except BrokenPipeError:  # output piped into a pager or `head` that closed early: quietly
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except OSError as error:
        if error.filename is not None:  # a path the command was given (a chart, a folder)
            _say(f"gamecore: error: {shown(error.filename)}: {error.strerror}")
            return 2
        _silence_stdout()  # the output cannot be written (a full disk, a closed terminal)
        _say(f"gamecore: error: cannot write the output: {error.strerror}")
        return 1
    return code or 0


def _say(line: str) -> None:
    """``line`` on standard error, where it can be written: a closed or broken standard
    error loses the message, never the exit status (and ``print(file=None)`` would write it
    to standard output)."""
    if sys.stderr is None:
        return
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def _finish_progress_bars() -> None:
    """Close the progress bars of a run an interrupt cut short between two chunks (held
    open until the run's generator is collected, after the message), so that the message
    starts a line of its own and no bar is drawn after it. No run, no bars: the module is
    not even imported."""
    parallel = sys.modules.get("gamecore.parallel")
    if parallel is not None:
        parallel.close_progress_bars()


def import_game(args: argparse.Namespace) -> None:
    """Import the module of the game ``args`` name, if they name a known game (what the
    command will import anyway; an unknown name is left for the command to refuse).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (its ``game``, if any).
    """
    name = getattr(args, "game", None)
    if isinstance(name, str) and name in games.REGISTRY:
        games.game(name)


def _silence_stdout() -> None:
    """Point standard output at the null device, so the interpreter's final flush of what
    could not be written does not fail a second time."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):  # no real file behind sys.stdout
        pass


if __name__ == "__main__":
    sys.exit(main())
