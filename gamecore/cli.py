"""The ``gamecore`` command line.

``gamecore exact GAME ...`` prints a game's exact analysis and ``gamecore simulate GAME ...``
its Monte Carlo twin; ``--json`` gives the stable schemas documented in the README. Bad input
exits with status 2 and one line on standard error naming the bad value, never a traceback.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from gamecore import __version__, decimals, games, strictjson
from gamecore.errors import GamecoreError, one_line, shown
from gamecore.interrupts import interrupts_deferred

#: The longest usage error argparse may print: it quotes an unknown command or the
#: arguments it did not recognise whole, a megabyte for a megabyte; a longer one is cut in
#: the middle (its start says what, its end the choices).
MAX_USAGE_ERROR = 300


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (the usage is available with --help), and an
    option that takes a value takes one (:class:`_Once`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.register("action", None, _Once)  # the action of every add_argument not naming one

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[override]
        for arg in sys.argv[1:] if args is None else args:
            if "\x00" in arg:  # main(argv) only: no process's command line can hold one
                self.error(f"argument {shown(arg)} holds a NUL character")
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> None:  # type: ignore[override]
        if len(message) > MAX_USAGE_ERROR:  # argparse quotes a value whole
            half = MAX_USAGE_ERROR // 2
            message = f"{message[:half]} ... {message[-half:]}"
        self.exit(2, f"gamecore: error: {one_line(message)}\n")


class _Once(argparse.Action):
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


def _game_rules(args: argparse.Namespace):
    rules_type = games.game(args.game).rules_type()
    values = _rule_pairs(getattr(args, "rule", []))
    for option in ("decks", "jokers_per_deck"):
        given = getattr(args, option, None)
        if given is None:
            continue
        flag = "--" + option.replace("_", "-")
        if option in values:
            raise GamecoreError(
                f"{option} is given twice ({flag} {shown(given)} and --rule {option}="
                f"{shown(values[option])}); give it once"
            )
        values[option] = given
    return rules_type.from_strings(values)


def _integer(text: str, name: str) -> int:
    """An option's integer, written as a plain ASCII decimal (gamecore.decimals)."""
    try:
        return decimals.integer(text)
    except ValueError as error:
        raise GamecoreError(
            f"{name} must be an integer, got {shown(text)}{decimals.why(error)}"
        ) from None


#: The order of ``--shoe``'s card counts: Farmer's, the ten-valued cards last.
SHOE_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")


def _shoe(args: argparse.Namespace) -> list[int] | None:
    """``--shoe N_A,N_2,...,N_9,N_10``: cards of each rank, the ten-valued cards last."""
    if args.shoe is None:
        return None
    if getattr(args, "infinite", False):
        raise GamecoreError("--shoe gives the shoe; --infinite does not apply with it")
    fields = args.shoe.split(",")
    if len(fields) != len(SHOE_RANKS):
        raise GamecoreError(
            f"--shoe must give 10 card counts (A, 2, ..., 9, ten-valued) separated by commas, "
            f"got {shown(args.shoe)}"
        )
    counts = []
    for rank, field in zip(SHOE_RANKS, fields, strict=True):
        count = _integer(field, f"--shoe count of rank {rank}")
        if count < 0:
            raise GamecoreError(f"--shoe count of rank {rank} must be >= 0, got {count}")
        counts.append(count)
    return counts


def _baccarat_composition(shoe: list[int]) -> list[int]:
    """A shoe by rank (A..9, ten-valued) as baccarat's point classes 0..9 (0: ten-valued)."""
    return [shoe[9], *shoe[:9]]


def _emit(data: dict[str, Any], as_json: bool, text: Callable[[], None]) -> None:
    if as_json:
        # Strict JSON: an undefined figure is null, never NaN (see gamecore.strictjson).
        _write_whole(strictjson.dumps(data) + "\n")
    else:
        import pandas as pd  # only for the text tables; importing it costs half a second

        with pd.option_context("display.width", 200, "display.max_columns", 30):
            text()


def _write_whole(text: str) -> None:
    """Write ``text`` to standard output whole: a Ctrl-C that comes while it is being written
    (a document larger than a pipe holds waits for its reader) takes effect once it is
    written (:func:`gamecore.interrupts.interrupts_deferred`), so whoever reads a JSON
    document gets all of it, or nothing when the command was interrupted before. The bytes
    are written until all are out: an interrupted write to a pipe returns short, and a text
    stream drops what was not written (measured: 64 KiB of 250 KiB arrived)."""
    with interrupts_deferred():
        _write_all(text)


def _write_all(text: str) -> None:
    """Write ``text`` to standard output, through its byte stream where it has one, until
    every byte is written (a write may return short)."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # a text-only stream (a StringIO): nothing to go short
        sys.stdout.write(text)
        return
    sys.stdout.flush()  # what was written as text before, first
    data = memoryview(text.encode(sys.stdout.encoding or "utf-8", sys.stdout.errors or "strict"))
    while data:
        data = data[buffer.write(data) :]
    buffer.flush()


def _refuse(args: argparse.Namespace, *options: str) -> None:
    for option in options:
        if getattr(args, option, None) not in (None, False):
            flag = "--" + option.replace("_", "-")
            raise GamecoreError(f"{flag} does not apply to {args.game}")


# ---------------------------------------------------------------------------------------
# exact
# ---------------------------------------------------------------------------------------


def _exact_baccarat(rules, args: argparse.Namespace) -> None:
    from gamecore import baccarat

    _refuse(args, "strategy", "results", "jokers")
    if args.infinite and (args.decks is not None or "decks" in _rule_pairs(args.rule)):
        raise GamecoreError(
            "--infinite analyses the infinite-deck limit; a deck count does not apply"
        )
    shoe = _shoe(args)
    if args.infinite:
        analysis = baccarat.infinite_deck(rules)
    elif shoe is not None:
        analysis = baccarat.exact(rules, composition=_baccarat_composition(shoe))
    else:
        analysis = baccarat.exact(rules)

    data = analysis.to_dict()

    def text() -> None:
        print(analysis.rules)
        total = "n/a" if analysis.total is None else f"{analysis.total:,}"
        print(f"\nShoe: {analysis.shoe}; total combinations: {total}\n")
        print(analysis.outcomes().to_string(index=False))
        for wager in analysis.wagers().values():
            print(f"\n{wager.wager.title}")
            print(wager.table().to_string(index=False))
        print("\nSummary")
        print(analysis.summary().drop(columns="Key").to_string(index=False))
        if "house_edge_ties_excluded_note" in data:
            print(f"House edge, ties excluded: {data['house_edge_ties_excluded_note']}")

    _emit(data, args.json, text)


def _c21_composition(args: argparse.Namespace) -> list[int] | None:
    """21st Century Baccarat's ``--shoe`` with its ``--jokers``: the classes 0..9 and jokers."""
    shoe = _shoe(args)
    if shoe is None:
        if args.jokers is not None:
            raise GamecoreError("--jokers gives the jokers of a --shoe; give --shoe too")
        return None
    if args.jokers is None:
        raise GamecoreError("--shoe needs --jokers N for c21_baccarat: the jokers left")
    jokers = _integer(args.jokers, "--jokers")
    if jokers < 0:
        raise GamecoreError(f"--jokers must be >= 0, got {jokers}")
    return [*_baccarat_composition(shoe), jokers]


def _exact_c21_baccarat(rules, args: argparse.Namespace) -> None:
    from gamecore import c21_baccarat

    _refuse(args, "strategy", "infinite", "results")
    composition = _c21_composition(args)
    analysis = c21_baccarat.count_deals(rules, composition)

    def text() -> None:
        print(rules)
        print(f"\nTotal combinations: {analysis.total:,}\n")
        print(analysis.strategy_table().drop(columns="Key").to_string(index=False))
        chart = analysis.hit_chart(c21_baccarat.house_way_dealer(rules))
        print("\nAdvantage chart for the hit cards (P/D on House Way): hit - stand")
        print(
            chart.pivot(index="Player hand", columns="P/D up card", values="Hit - stand")
            .reindex(c21_baccarat.HAND_LABELS[:10])
            .to_string(float_format="{:+.4f}".format)
        )

    data = analysis.to_dict()
    if composition is not None:
        data["shoe"] = {**dict(zip(SHOE_RANKS, _shoe(args), strict=True)), "joker": composition[-1]}
    _emit(data, args.json, text)


def _exact_blackjack(rules, args: argparse.Namespace) -> None:
    from gamecore import blackjack

    _refuse(args, "infinite", "jokers")
    shoe = _shoe(args)
    strategy = None if args.strategy is None else blackjack.read_strategy_chart(args.strategy)
    analysis = blackjack.exact(rules, strategy=strategy, composition=shoe, standard_deviation=True)
    data = analysis.to_dict()
    if args.results:
        chart = strategy if strategy is not None else analysis.chart
        results = blackjack.results.result_distribution(rules, chart, composition=shoe)
        data["result_distribution"] = {
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

    def text() -> None:
        print(rules)
        for key in (
            "player_ev",
            "player_sd",
            "player_ev_total_dependent",
            "pd_edge",
            "strategy_ev",
        ):
            if key in data:
                print(f"{key}: {data[key]}")

    _emit(data, args.json, text)


EXACT = {
    "punto_banco": _exact_baccarat,
    "ez_baccarat": _exact_baccarat,
    "c21_baccarat": _exact_c21_baccarat,
    "standard_blackjack": _exact_blackjack,
    "c21_blackjack": _exact_blackjack,
}


def _naming_the_shoe(args: argparse.Namespace, run: Callable[[], None]) -> None:
    """Run ``run``; the engines name a shoe they are given "composition" and each of its
    classes by rank ("composition count of rank A", gamecore.shoe), which on the command
    line is --shoe; 21st Century Baccarat's jokers ("composition count of jokers") are
    --jokers."""
    try:
        run()
    except GamecoreError as error:
        message = str(error)
        if args.shoe is None or not message.startswith("composition"):
            raise
        jokers = "composition count of jokers"
        if message.startswith(jokers):
            raise GamecoreError("--jokers" + message[len(jokers) :]) from None
        raise GamecoreError("--shoe" + message[len("composition") :]) from None


def _command_exact(args: argparse.Namespace) -> None:
    rules = _game_rules(args)
    _naming_the_shoe(args, lambda: EXACT[args.game](rules, args))


# ---------------------------------------------------------------------------------------
# count
# ---------------------------------------------------------------------------------------


def _max_tag(args: argparse.Namespace, default: int) -> int:
    return default if args.max_tag is None else _integer(args.max_tag, "--max-tag")


#: The options of the counter's simulation (the 21st Century Baccarat counter sits at a full
#: table and has the perfect-information bound; the blackjack counter plays heads-up).
COUNTER_OPTIONS = (
    "shoes", "oracle_shoes", "trigger", "ramp", "players", "seat", "penetration", "seed",
    "rounds_per_hour", "turn_rounds", "bank_at",
)  # fmt: skip


def _count_baccarat(rules, args: argparse.Namespace) -> None:
    from gamecore.baccarat.counting import effects_of_removal_by_bet

    _refuse(args, "strategy", "jokers", "max_tag", *COUNTER_OPTIONS)
    shoe = _shoe(args)
    composition = None if shoe is None else _baccarat_composition(shoe)
    effects = effects_of_removal_by_bet(rules, composition)

    def text() -> None:
        print(rules)
        print("\nEffects of removal: EV change per card of each point value removed, % of wager")
        print(effects.table().to_string(index=False, float_format="{:+.6f}".format))

    _emit(effects.to_dict(), args.json, text)


def _count_c21_baccarat(rules, args: argparse.Namespace) -> None:
    from gamecore.c21_baccarat.counting import DEFAULT_MAX_TAG, count_analysis

    _refuse(args, "strategy")
    composition = _c21_composition(args)
    options = _counter_options(args)  # checked before the analysis, which takes seconds
    found = count_analysis(rules, composition, _max_tag(args, DEFAULT_MAX_TAG))
    data = found.to_dict()
    if options is not None:
        data.update(_c21_counter(rules, found.tags, args, options))

    def text() -> None:
        print(rules)
        print("\nEffects of removal (player's EV heads-up, % of wager per card removed)")
        print(found.effects_table().to_string(index=False, float_format="{:+.6f}".format))
        print(f"\nBetting correlation (House Way): {found.betting_correlation:.4f}")
        for key in ("counter", "upper_bound"):
            if key in data:
                print(f"\n{key}:")
                for name, value in data[key].items():
                    print(f"  {name}: {value}")

    _emit(data, args.json, text)


class _CounterOptions(NamedTuple):
    seed: int
    trigger: float
    ramp: tuple[float, ...]
    rounds_per_hour: float


def _counter_options(args: argparse.Namespace) -> _CounterOptions | None:
    """The counter's simulation options, or None when none is asked for (``--shoes``)."""
    if args.shoes is None and getattr(args, "oracle_shoes", None) is None:
        for option in COUNTER_OPTIONS:
            if getattr(args, option, None) is not None:
                flag = "--" + option.replace("_", "-")
                raise GamecoreError(f"{flag} sets the counter's simulation: give --shoes N too")
        return None
    if args.shoe is not None:
        raise GamecoreError("--shoes simulates full shoes of the rules; --shoe does not apply")
    rounds_per_hour = (
        60.0 if args.rounds_per_hour is None else _number(args.rounds_per_hour, "--rounds-per-hour")
    )
    if not 0 < rounds_per_hour < 10_000:
        raise GamecoreError(
            f"--rounds-per-hour must be above 0 and below 10,000, got {rounds_per_hour:g}"
        )
    return _CounterOptions(
        1 if args.seed is None else _integer(args.seed, "--seed"),
        1.0 if args.trigger is None else _number(args.trigger, "--trigger"),
        (2, 4, 8) if args.ramp is None else _numbers(args.ramp, "--ramp"),
        rounds_per_hour,
    )


class _CounterTable(NamedTuple):
    players: int
    seat: int
    turn_rounds: int
    bank_at: float | None


def _blackjack_counter_table(rules, args: argparse.Namespace, max_tag: int) -> _CounterTable:
    """The blackjack counter's table (``--players``, ``--seat``) and its turn at the bank
    (``--turn-rounds``, ``--bank-at``), checked before the analysis."""
    from gamecore import counting
    from gamecore.blackjack.shoe import check_players

    players = 1 if args.players is None else _integer(args.players, "--players")
    players = check_players(rules, players)
    seat = 1 if args.seat is None else _integer(args.seat, "--seat")
    if not 1 <= seat <= players:
        raise GamecoreError(f"--seat must be from 1 to {players} (the players), got {seat}")
    turn_rounds = 0 if args.turn_rounds is None else _integer(args.turn_rounds, "--turn-rounds")
    if turn_rounds < 0:
        raise GamecoreError(f"--turn-rounds must be 0 (no rotation) or more, got {turn_rounds}")
    bank_at = None
    if args.bank_at is not None:
        if not turn_rounds:
            raise GamecoreError("--bank-at needs a rotation: give --turn-rounds N too")
        bank_at = counting.check_trigger(
            _number(args.bank_at, "--bank-at"), {"largest tag": max_tag}, "--bank-at"
        )
    return _CounterTable(players, seat, turn_rounds, bank_at)


def _blackjack_counter(found, args: argparse.Namespace, options, table) -> dict[str, Any]:
    """The blackjack counter (``--shoes``) in its seat of the table, with the count's index
    plays and its turn at the bank, and the perfect-information bettor (``--oracle-shoes``)."""
    from gamecore.blackjack import counting
    from gamecore.dealing import Dealing

    dealing = None
    if args.penetration is not None:
        penetration = _integer(args.penetration, "--penetration")
        dealing = Dealing(mode="shoe", penetration=penetration, burn="none")
    out: dict[str, Any] = {}
    if args.shoes is not None:
        shoes = _integer(args.shoes, "--shoes")
        result = counting.counter_simulation(
            found, options.trigger, options.ramp, shoes, options.seed, dealing, progress=False,
            players=table.players, seat=table.seat, turn_rounds=table.turn_rounds,
            bank_at=table.bank_at,
        )  # fmt: skip
        out["dealing"] = result.dealing.to_dict()
        out["counter"] = {
            "players": table.players,
            "seat": table.seat,
            "turn_rounds": table.turn_rounds,
            "bank_at": table.bank_at,
            "trigger": options.trigger,
            "ramp": list(result.ramp),
            "index_plays": True,
            "seed": options.seed,
            "rounds_per_hour": options.rounds_per_hour,
            **result.summary(options.rounds_per_hour),
        }
    if args.oracle_shoes is not None:
        shoes = _integer(args.oracle_shoes, "--oracle-shoes")
        bound = counting.perfect_information_simulation(
            found, options.ramp, shoes, options.seed, dealing, table.players, table.seat
        )
        out["dealing"] = bound.dealing.to_dict()
        out["upper_bound"] = {
            "players": table.players,
            "seat": table.seat,
            "ramp": list(bound.ramp),
            "seed": options.seed,
            **bound.summary(options.rounds_per_hour),
        }
    return out


def _c21_counter(rules, tags, args: argparse.Namespace, options) -> dict[str, Any]:
    """The counter (``--shoes``) and the perfect-information bettor (``--oracle-shoes``)."""
    from gamecore.c21_baccarat import counting
    from gamecore.dealing import Dealing

    players = 7 if args.players is None else _integer(args.players, "--players")
    seat = 1 if args.seat is None else _integer(args.seat, "--seat")
    seed, trigger, ramp, rounds_per_hour = options
    dealing = counting.default_dealing(rules, players) if 1 <= players <= 8 else None
    if args.penetration is not None:
        penetration = _integer(args.penetration, "--penetration")
        dealing = Dealing(mode="shoe", penetration=penetration, burn="none")
    out: dict[str, Any] = {}
    if args.shoes is not None:
        shoes = _integer(args.shoes, "--shoes")
        turn_rounds = 0 if args.turn_rounds is None else _integer(args.turn_rounds, "--turn-rounds")
        bank_at = None if args.bank_at is None else _number(args.bank_at, "--bank-at")
        result = counting.counter_simulation(
            rules, tags, trigger, ramp, shoes, seed, players, seat, dealing, progress=False,
            turn_rounds=turn_rounds, bank_at=bank_at,
        )  # fmt: skip
        out["dealing"] = result.dealing.to_dict()
        out["counter"] = {
            "players": players,
            "seat": seat,
            "turn_rounds": turn_rounds,
            "bank_at": bank_at,
            "trigger": trigger,
            "ramp": list(result.ramp),
            "seed": seed,
            "rounds_per_hour": rounds_per_hour,
            **result.summary(rounds_per_hour),
        }
    if args.oracle_shoes is not None:
        shoes = _integer(args.oracle_shoes, "--oracle-shoes")
        bound = counting.perfect_information_simulation(
            rules, tags, ramp, shoes, seed, players, seat, dealing
        )
        out["dealing"] = bound.dealing.to_dict()
        out["upper_bound"] = {
            "players": players,
            "seat": seat,
            "ramp": list(bound.ramp),
            "seed": seed,
            **bound.summary(rounds_per_hour),
        }
    return out


def _number(text: str, name: str) -> float:
    """An option's finite number, written as a plain ASCII decimal (gamecore.decimals)."""
    try:
        value = float(decimals.number(text))
    except ValueError as error:
        raise GamecoreError(
            f"{name} must be a number, got {shown(text)}{decimals.why(error)}"
        ) from None
    if not math.isfinite(value):  # digits past the float range
        raise GamecoreError(f"{name} must be a finite number, got {shown(text)}")
    return value


def _numbers(text: str, name: str) -> tuple[float, ...]:
    return tuple(_number(part, name) for part in text.split(","))


def _count_blackjack(rules, args: argparse.Namespace) -> None:
    from gamecore.blackjack import read_strategy_chart
    from gamecore.blackjack.counting import DEFAULT_MAX_TAG, count_analysis

    _refuse(args, "jokers")
    options = _counter_options(args)  # checked before the analysis, which takes seconds
    table = _blackjack_counter_table(rules, args, _max_tag(args, DEFAULT_MAX_TAG))
    strategy = None if args.strategy is None else read_strategy_chart(args.strategy)
    found = count_analysis(rules, strategy, _shoe(args), _max_tag(args, DEFAULT_MAX_TAG))
    data = found.to_dict()
    if options is not None:
        data.update(_blackjack_counter(found, args, options, table))

    def text() -> None:
        print(rules)
        print(f"\nEffects of removal (% of the initial wager per card removed); {found.strategy}")
        print(found.effects_table().to_string(index=False, float_format="{:+.6f}".format))
        print(f"\nBetting correlation: {found.betting_correlation:.4f}")
        print("\nIndex plays")
        print(found.index_table().to_string(index=False, float_format="{:+.4f}".format))
        for key in ("counter", "upper_bound"):
            if key in data:
                print(f"\n{key}:")
                for name, value in data[key].items():
                    print(f"  {name}: {value}")

    _emit(data, args.json, text)


COUNT = {
    "punto_banco": _count_baccarat,
    "ez_baccarat": _count_baccarat,
    "c21_baccarat": _count_c21_baccarat,
    "standard_blackjack": _count_blackjack,
    "c21_blackjack": _count_blackjack,
}


def _command_count(args: argparse.Namespace) -> None:
    rules = _game_rules(args)
    _naming_the_shoe(args, lambda: COUNT[args.game](rules, args))


# ---------------------------------------------------------------------------------------
# simulate
# ---------------------------------------------------------------------------------------


def _dealing(args: argparse.Namespace, default_burn: str):
    from gamecore.dealing import Dealing

    if args.mode != "shoe":
        _refuse_cut_card_options(
            args,
            f"applies to --mode shoe only; --mode {args.mode} deals every round from a "
            "freshly shuffled full shoe",
        )
    return Dealing(
        mode=args.mode,
        penetration=DEFAULT_PENETRATION
        if args.penetration is None
        else _integer(args.penetration, "penetration"),
        burn=default_burn if args.burn is None else args.burn,
    )


#: Cards behind the cut card in shoe mode when --penetration is not given.
DEFAULT_PENETRATION = 14


def _refuse_cut_card_options(args: argparse.Namespace, why: str) -> None:
    """A cut card and a burn exist only when rounds are dealt from a shoe (--mode shoe);
    ``why`` ends the message: '--OPTION {why}'."""
    for option in ("penetration", "burn"):
        if getattr(args, option) is not None:
            raise GamecoreError(f"--{option} {why}")


def _run_options(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "rounds": _integer(args.rounds, "rounds"),
        "seed": _integer(args.seed, "seed"),
        "threads": None if args.threads is None else _integer(args.threads, "threads"),
        "dask": args.dask,
        "progress": False if args.no_progress else None,
    }


def _print_simulation(data: dict[str, Any]) -> None:
    print(f"Simulated {data['rounds']:,} rounds of {data['game']}, seed {data['seed']}")
    import pandas as pd

    print(pd.DataFrame(data["bets"]).T.to_string())


def _simulate_baccarat(rules, args: argparse.Namespace) -> None:
    from gamecore import baccarat

    _refuse(args, "strategy", "players", *TABLE_OPTIONS)
    simulation = baccarat.sim.simulate(
        rules, dealing=_dealing(args, "face_value"), **_run_options(args)
    )
    data = simulation.to_dict()
    _emit(data, args.json, lambda: _print_simulation(data))


def _simulate_c21_baccarat(rules, args: argparse.Namespace) -> None:
    from gamecore import c21_baccarat

    _refuse(args, "strategy", *TABLE_OPTIONS)
    players = 1 if args.players is None else _integer(args.players, "players")
    simulation = c21_baccarat.sim.simulate(
        rules, players=players, dealing=_dealing(args, "none"), **_run_options(args)
    )
    data = simulation.to_dict()
    _emit(data, args.json, lambda: _print_simulation(data))


#: The options of a blackjack table run (simulate --players N), money in units of a bet.
TABLE_OPTIONS = ("stake", "bankrolls", "shift_rounds", "turn_rounds")


def _simulate_blackjack(rules, args: argparse.Namespace) -> None:
    from gamecore import blackjack

    if args.players is not None:
        _simulate_blackjack_table(rules, args)
        return
    for option in TABLE_OPTIONS:
        if getattr(args, option) is not None:
            flag = "--" + option.replace("_", "-")
            raise GamecoreError(f"{flag} applies to a table run only (--players N)")
    _refuse_cut_card_options(
        args,
        f"does not apply to {args.game}: it is simulated off a freshly shuffled full shoe "
        "every round",
    )
    if args.strategy is None:
        raise GamecoreError(
            f"simulate {args.game} needs --strategy CHART.csv (or --strategy optimal)"
        )
    if args.mode != "fresh":
        raise GamecoreError(
            f"{args.game} is simulated off a fresh shoe only, got --mode {args.mode}"
        )
    options = _run_options(args)
    strategy = args.strategy
    if strategy != blackjack.sim.OPTIMAL:
        strategy = blackjack.read_strategy_chart(strategy)
    simulation = blackjack.sim.simulate(
        rules,
        strategy,
        options.pop("rounds"),
        options.pop("seed"),
        **options,
    )
    data = simulation.to_dict()
    _emit(data, args.json, lambda: _print_simulation(data))


def _simulate_blackjack_table(rules, args: argparse.Namespace) -> None:
    """``simulate GAME --players N``: the full table (gamecore.blackjack.table)."""
    from gamecore.banking import Bank
    from gamecore.blackjack import table
    from gamecore.blackjack.counting import default_dealing
    from gamecore.blackjack.shoe import check_players
    from gamecore.dealing import Dealing

    if args.strategy is None:
        raise GamecoreError(
            f"simulate {args.game} needs --strategy CHART.csv (or --strategy optimal)"
        )
    if args.burn not in (None, "none"):
        raise GamecoreError(f"--burn: {args.game} is dealt without a burn, got {shown(args.burn)}")
    players = check_players(rules, _integer(args.players, "players"))
    if args.mode == "shoe":
        penetration = default_dealing(rules).penetration
        if args.penetration is not None:
            penetration = _integer(args.penetration, "penetration")
        dealing = Dealing("shoe", penetration, "none")
    elif args.mode == "fresh":
        _refuse_cut_card_options(args, "applies to --mode shoe only")
        dealing = Dealing("fresh")
    else:
        raise GamecoreError(f"--mode must be fresh or shoe, got {shown(args.mode)}")
    bank = Bank(
        stake=math.inf if args.stake is None else _number(args.stake, "stake"),
        bankrolls=Bank().bankrolls
        if args.bankrolls is None
        else _numbers(args.bankrolls, "bankrolls"),
        shift_rounds=480
        if args.shift_rounds is None
        else _integer(args.shift_rounds, "shift-rounds"),
        turn_rounds=2 if args.turn_rounds is None else _integer(args.turn_rounds, "turn-rounds"),
    )
    options = _run_options(args)
    if options.pop("dask") is not None:
        raise GamecoreError("--dask does not apply to a table run")
    run = table.simulate_table(
        rules, players, args.strategy, options.pop("rounds"), options.pop("seed"),
        dealing=dealing, bank=bank, **options,
    )  # fmt: skip
    data = run.to_dict()

    def text() -> None:
        print(
            f"Simulated {run.rounds:,} rounds of {args.game}, {players} players and the P/D, "
            f"seed {run.seed}, dealing {dealing.mode}"
        )
        print(run.figures.seat_table().to_string(index=False))
        for name, value in run.figures.bank_figures().items():
            print(f"{name}: {value:.6f}")
        print(run.figures.coverage_table().to_string(index=False))
        print(run.figures.ruin_table().to_string(index=False))

    _emit(data, args.json, text)


SIMULATE = {
    "punto_banco": _simulate_baccarat,
    "ez_baccarat": _simulate_baccarat,
    "c21_baccarat": _simulate_c21_baccarat,
    "standard_blackjack": _simulate_blackjack,
    "c21_blackjack": _simulate_blackjack,
}


def _command_simulate(args: argparse.Namespace) -> None:
    rules = _game_rules(args)
    SIMULATE[args.game](rules, args)


# ---------------------------------------------------------------------------------------
# hand
# ---------------------------------------------------------------------------------------


def _command_hand(args: argparse.Namespace) -> None:
    if args.game not in ("standard_blackjack", "c21_blackjack"):
        raise GamecoreError(f"hand is for the blackjack games, not {args.game}")
    from gamecore.blackjack.hand import hand_values

    rules = _game_rules(args)
    shoe = _shoe(args)
    cards = [c.strip() for c in args.cards.split(",")]
    found = []
    _naming_the_shoe(args, lambda: found.append(hand_values(rules, args.up, cards, shoe)))
    data = found[0].to_dict()

    def text() -> None:
        print(
            f"{','.join(data['cards'])} ({'soft' if data['soft'] else 'hard'} "
            f"{data['total']}) against {data['up_card']}: {data['convention']}"
        )
        for action, ev in data["ev"].items():
            print(f"  {action}  {ev:+.10f}{'  best' if action == data['best'] else ''}")

    _emit(data, args.json, text)


def _command_verify(args: argparse.Namespace) -> int:
    """``gamecore verify REPORTS``: a line per mismatch and exit 1, or one line and exit 0."""
    import contextlib
    from pathlib import Path

    from gamecore.reporting.build import ReportBuildError
    from gamecore.reporting.verify import verify

    try:
        with contextlib.redirect_stdout(sys.stderr):  # the rebuild's progress lines
            problems = verify(Path(args.reports), args.simulations, args.only)
    except ReportBuildError as error:
        print(f"gamecore: verify: {one_line(str(error))}", file=sys.stderr)
        return 1
    for line in problems:
        print(line)
    what = "every file's hash, every exact figure" + (
        " and every simulated one" if args.simulations else ""
    )
    if problems:
        print(f"{len(problems)} mismatches", file=sys.stderr)
        return 1
    print(f"{args.reports}: {what} match")
    return 0


def _command_rules(args: argparse.Namespace) -> None:
    import pandas as pd

    rules = _game_rules(args)
    with pd.option_context("display.width", 200, "display.max_colwidth", 120):
        print(rules)


# ---------------------------------------------------------------------------------------
# Parser
# ---------------------------------------------------------------------------------------


def _game_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help=", ".join(games.GAMES))
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
    parser.add_argument("--json", action="store_true", help="JSON (schema in the README)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="gamecore", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"gamecore {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    exact = commands.add_parser("exact", help="exact (combinatorial) analysis of a game")
    _game_options(exact)
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
    exact.set_defaults(run=_command_exact)

    hand = commands.add_parser(
        "hand", help="blackjack: the EV of every action at one hand against one up card"
    )
    hand.add_argument("game", help="standard_blackjack, c21_blackjack")
    hand.add_argument("--up", required=True, help="the up card: A, 2..10, J, Q, K")
    hand.add_argument("--cards", required=True, help="the hand's cards, e.g. 10,6 or 5,4,7")
    hand.add_argument("--decks", help="decks in the shoe, an integer 1..1000")
    hand.add_argument("--shoe", metavar="N_A,N_2,...,N_9,N_10", help="the shoe before the deal")
    hand.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    hand.add_argument("--json", action="store_true", help="JSON (schema in the README)")
    hand.set_defaults(run=_command_hand)

    count = commands.add_parser(
        "count",
        help="card counting: exact effects of removal, a balanced count, index plays",
    )
    _game_options(count)
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
    count.set_defaults(run=_command_count)

    simulate = commands.add_parser("simulate", help="Monte Carlo simulation of a game")
    _game_options(simulate)
    simulate.add_argument("--rounds", default="1000000", help="rounds to deal (default 1000000)")
    simulate.add_argument("--seed", default="1", help="random seed, a non-negative integer")
    simulate.add_argument(
        "--mode", default="fresh", help="fresh (a full shoe every round) or shoe (cut card)"
    )
    simulate.add_argument(
        "--penetration",
        help=f"shoe mode: cards behind the cut card (default {DEFAULT_PENETRATION})",
    )
    simulate.add_argument("--burn", help="shoe mode: face_value or none (baccarat: face_value)")
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
    simulate.set_defaults(run=_command_simulate)

    rules = commands.add_parser("rules", help="list a game's rule parameters and defaults")
    rules.add_argument("game")
    rules.set_defaults(run=_command_rules)

    verify = commands.add_parser(
        "verify",
        help="check a reports folder against its MANIFEST.json and recompute its figures",
    )
    verify.add_argument("reports", help="the reports folder (make reports writes reports/)")
    verify.add_argument(
        "--simulations", action="store_true", help="compare every simulated figure too"
    )
    verify.add_argument("--only", action="append", help="recompute only this report")
    verify.set_defaults(run=_command_verify)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); return its exit status."""
    return execute(build_parser().parse_args(argv))


#: The exit status when standard output's reader has gone (`gamecore ... | head`): 128 +
#: SIGPIPE, what a shell reports for any command its reader left, never 0: the output was
#: not all delivered.
EXIT_BROKEN_PIPE = 141


def execute(args: argparse.Namespace) -> int:
    """Run the command ``args`` were parsed into: its exit status, every error one line."""
    try:
        code = args.run(args)
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
    command will import anyway; an unknown name is left for the command to refuse)."""
    name = getattr(args, "game", None)
    if isinstance(name, str) and name in games.GAMES:
        games.GAMES[name].rules_type()


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
