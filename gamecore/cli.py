"""The ``gamecore`` command line.

``gamecore exact punto_banco --decks 8 --json`` prints the exact analysis of one game; the
JSON schema is documented in the README. Bad input exits with status 2 and one line on
standard error naming the bad value, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

import pandas as pd

from gamecore import __version__
from gamecore.errors import GamecoreError


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (the usage is available with --help)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"gamecore: error: {message}\n")


def _rule_pairs(pairs: Sequence[str]) -> dict[str, str]:
    values: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise GamecoreError(f"--rule takes NAME=VALUE, got {pair!r}")
        values[name.strip()] = value.strip()
    return values


def _games() -> dict:
    from gamecore import baccarat

    return baccarat.GAMES


def _game_rules(game: str, decks: str | None, rule_pairs: Sequence[str]):
    games = _games()
    if game not in games:
        raise GamecoreError(f"unknown game {game!r}; games: " + ", ".join(games))
    values = _rule_pairs(rule_pairs)
    if decks is not None:
        values["decks"] = decks
    return games[game].from_strings(values)


def _print_exact(analysis) -> None:
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(analysis.rules)
        print(f"\nShoe: {analysis.shoe}; total combinations: {analysis.total:,}\n")
        print(analysis.outcomes().to_string(index=False))
        for wager in analysis.wagers().values():
            print(f"\n{wager.wager.title}")
            print(wager.table().to_string(index=False))
        print("\nSummary")
        print(analysis.summary().drop(columns="Key").to_string(index=False))


def _command_exact(args: argparse.Namespace) -> None:
    from gamecore import baccarat

    rules = _game_rules(args.game, args.decks, args.rule)
    analysis = baccarat.infinite_deck(rules) if args.infinite else baccarat.exact(rules)
    if args.json:
        json.dump(analysis.to_dict(), sys.stdout, indent=2)
        print()
    else:
        _print_exact(analysis)


def _integer(text: str, name: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise GamecoreError(f"{name} must be an integer, got {text!r}") from None


def _command_simulate(args: argparse.Namespace) -> None:
    from gamecore import baccarat_sim

    rules = _game_rules(args.game, args.decks, args.rule)
    dealing = baccarat_sim.Dealing(
        mode=args.mode, penetration=_integer(args.penetration, "penetration"), burn=args.burn
    )
    simulation = baccarat_sim.simulate(
        rules,
        rounds=_integer(args.rounds, "rounds"),
        seed=_integer(args.seed, "seed"),
        dealing=dealing,
        threads=None if args.threads is None else _integer(args.threads, "threads"),
        dask=args.dask,
        progress=False if args.no_progress else None,
    )
    data = simulation.to_dict()
    if args.json:
        json.dump(data, sys.stdout, indent=2)
        print()
        return
    with pd.option_context("display.width", 200):
        print(rules)
        print(
            f"\nSimulated {data['rounds']:,} rounds, seed {data['seed']}, dealing {data['dealing']}"
        )
        print(pd.DataFrame(data["bets"]).T.to_string())


def _command_rules(args: argparse.Namespace) -> None:
    rules = _game_rules(args.game, None, [])
    with pd.option_context("display.width", 200, "display.max_colwidth", 120):
        print(rules)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="gamecore", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"gamecore {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    exact = commands.add_parser("exact", help="exact (combinatorial) analysis of a game")
    exact.add_argument("game", help="punto_banco or ez_baccarat")
    exact.add_argument("--decks", help="decks in the shoe, an integer 1..1000")
    exact.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set a rule parameter (repeatable); `gamecore rules GAME` lists them",
    )
    exact.add_argument("--infinite", action="store_true", help="the infinite-deck limit")
    exact.add_argument("--json", action="store_true", help="JSON (schema in the README)")
    exact.set_defaults(run=_command_exact)

    simulate = commands.add_parser("simulate", help="Monte Carlo simulation of a game")
    simulate.add_argument("game", help="punto_banco or ez_baccarat")
    simulate.add_argument("--decks", help="decks in the shoe, an integer 1..1000")
    simulate.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    simulate.add_argument("--rounds", default="1000000", help="rounds to deal (default 1000000)")
    simulate.add_argument("--seed", default="1", help="random seed, a non-negative integer")
    simulate.add_argument(
        "--mode", default="fresh", help="fresh (a full shoe every round) or shoe (cut card)"
    )
    simulate.add_argument(
        "--penetration", default="14", help="shoe mode: cards behind the cut card (default 14)"
    )
    simulate.add_argument(
        "--burn", default="face_value", help="shoe mode: face_value (default) or none"
    )
    simulate.add_argument("--threads", help="threads on this machine (default: all cores)")
    simulate.add_argument(
        "--dask", metavar="ADDRESS", help="run the chunks on a Dask scheduler, or 'local'"
    )
    simulate.add_argument("--no-progress", action="store_true", help="no progress bar")
    simulate.add_argument("--json", action="store_true", help="JSON (schema in the README)")
    simulate.set_defaults(run=_command_simulate)

    rules = commands.add_parser("rules", help="list a game's rule parameters and defaults")
    rules.add_argument("game")
    rules.set_defaults(run=_command_rules)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        args.run(args)
    except GamecoreError as error:
        print(f"gamecore: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into a pager or `head` that closed early
        sys.stdout = None
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
