"""The report parameters that are not rules, each with its check, so a bad value is refused,
naming it, before any notebook runs (a rule parameter is checked by its game's rule set,
:func:`gamecore.reporting.build.check_rule_parameters`).

A check here is the kind and range a parameter takes on its own: a simulation size is a
positive whole number, a seed a non-negative one, a deck count one a rule set accepts, a list
a non-empty list of such values. What is bad only beside other values (a seat past the
players at the table, a cut card deeper than the shoe) is refused by the library call that
takes them, as the notebook runs: the build then fails naming it and leaves no report.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

from gamecore.dealing import BURNS
from gamecore.errors import GamecoreError, shown
from gamecore.parallel import validate_seed, validate_trials
from gamecore.rules import (
    Check,
    allowed,
    amount,
    boolean,
    choice,
    deck_count,
    integer_from,
    marked,
    number,
    payout,
)


@marked("a whole number from 1 to 10^13")
def trials(name: str, value: Any) -> int:
    """A count of rounds, shoes or sessions: a positive whole number (at most 10^13).

    Parameters
    ----------
    name : str
        The parameter's name, as the message shows it.
    value : Any
        The value given.

    Returns
    -------
    int
        The value (else a :class:`GamecoreError`).
    """
    return validate_trials(value, name)


@marked("a whole number from 0")
def seed(name: str, value: Any) -> int:
    """The report's seed: a non-negative whole number (its message names ``seed``).

    Parameters
    ----------
    name : str
        The parameter's name, as the message shows it.
    value : Any
        The value given.

    Returns
    -------
    int
        The value (else a :class:`GamecoreError`).
    """
    return validate_seed(value)


def list_of(check: Check) -> Check:
    """A check for a non-empty list whose every item passes ``check``.

    Parameters
    ----------
    check : Check
        The check of each item (named ``name[i]`` in its message).

    Returns
    -------
    Check
        ``check_list(name, value) -> list`` of the items as ``check`` returns them.

    Examples
    --------
    >>> list_of(trials)("penetrations", [4, 5])
    [4, 5]
    """

    def check_list(name: str, value: Any) -> list:
        if not isinstance(value, (list, tuple)) or not value:
            raise GamecoreError(f"{name} must be a non-empty list, got {shown(value)}")
        return [check(f"{name}[{i}]", item) for i, item in enumerate(value)]

    check_list.allowed = f"a list, each item {allowed(check)}"  # type: ignore[attr-defined]
    return check_list


@marked("a list of built-in bets' names and .yaml definition files")
def _side_bets(name: str, value: Any) -> list[str]:
    from gamecore.sidebets.study import checked_bets

    return checked_bets(name, value)


@marked("a limits file (YAML, docs/reports.md: Limits), or null for none")
def _limits(name: str, value: Any) -> dict[str, Any] | None:
    from gamecore.limits import checked_limits

    return checked_limits(name, value)


PLAYERS = integer_from(1, 8)
TAG = integer_from(1, 20)

#: Every report parameter that is not a rule of the report's game, with its check.
REPORT_PARAMETERS: Mapping[str, Check] = {
    # Simulation sizes: rounds, shoes, sessions.
    **dict.fromkeys(
        (
            "rounds",
            "table_rounds",
            "chart_rounds",
            "strategy_rounds",
            "sweep_rounds",
            "hold_sessions",
            "shoes",
            "procedure_shoes",
            "oracle_shoes",
            "blackjack_shoes",
            "blackjack_oracle_shoes",
            "shift_rounds",
            "rounds_per_hour",
        ),
        trials,
    ),
    "seed": seed,
    # Shoes: deck counts of sweeps and of the counting study's games.
    **dict.fromkeys(("decks", "sweep_decks", "blackjack_decks", "baccarat_decks"), deck_count),
    **dict.fromkeys(("sweep_deck_counts", "deck_counts"), list_of(deck_count)),
    "jokers_per_deck": integer_from(0, 4),
    "sweep_jokers": list_of(integer_from(0, 4)),
    **dict.fromkeys(("penetration", "blackjack_penetration"), trials),
    "penetrations": list_of(trials),
    "burn": choice(*BURNS),
    # Tables and seats.
    **dict.fromkeys(("max_players", "table_players", "players", "seat"), PLAYERS),
    # Money, in units.
    "wager": amount,
    "pd_stake": amount,
    **dict.fromkeys(
        ("collection", "table_minimum", "table_maximum", "blackjack_table_maximum"), amount
    ),
    "pd_bankrolls": list_of(amount),
    "alternative_tie_pays": payout,
    # Counting: tags, triggers, the bet ramp.
    **dict.fromkeys(("max_tag", "blackjack_max_tag"), TAG),
    "triggers": list_of(number),
    "ramp": list_of(amount),
    **dict.fromkeys(("seat_trigger", "bank_at", "threshold"), number),
    # A counting study's budget: a study undecided after its shoes deals up to this many
    # times as many (gamecore.verdict.max_shoes).
    "shoe_budget": integer_from(1, 1000),
    # Side bets: built-in names or definition files, each read and checked.
    "side_bets": _side_bets,
    # Switches.
    **dict.fromkeys(("rule_costs", "search_chart"), boolean),
    # Limits to check each wager against: a file read once here, its content passed on.
    "limits": _limits,
}

def _side_bet_work(parameters: Mapping[str, Any]) -> None:
    from gamecore.sidebets.study import check_parameters_work

    check_parameters_work(parameters)


#: Checks of a report's parameters taken together, each given every parameter (the
#: notebook's defaults for those not given) once each is checked: the side bets' counting
#: is bounded by the bets and their deck counts at once (gamecore.sidebets.work).
REPORT_WORK: Mapping[str, Callable[[Mapping[str, Any]], None]] = {"side_bets": _side_bet_work}

#: Set by the build itself, never by the person running it.
BUILD_PARAMETERS = ("output_dir",)


def check_report_parameters(
    report: str,
    parameters: Mapping[str, Any],
    rules: set[str],
    own: Mapping[str, Check] = MappingProxyType({}),
) -> dict[str, Any]:
    """Refuse, naming the report and the value, a parameter of ``report`` that is not one of
    its game's ``rules`` (checked by the rule set) and fails its check, or that the build
    sets itself. A parameter's check is the report's games' own (``own``: a blackjack
    report's chart file, :attr:`gamecore.game.Game.report_parameters`), else the shared
    :data:`REPORT_PARAMETERS`.

    Parameters
    ----------
    report : str
        The report's name, as messages show it.
    parameters : Mapping of str to Any
        The parameters given (rules among them).
    rules : set of str
        The rule parameters of the report's games.
    own : Mapping of str to Check, optional
        The report's games' own checks.

    Returns
    -------
    dict
        The parameters as the notebook gets them: each checked value as its check returns it
        (a chart file's path made absolute), the rules as given.
    """
    checked = dict(parameters)
    for name, value in parameters.items():
        if name in rules:
            continue
        if name in BUILD_PARAMETERS:
            raise GamecoreError(f"report {report}: {name} is set by the build, not a parameter")
        check = own.get(name, REPORT_PARAMETERS.get(name))
        if check is None:
            raise GamecoreError(f"report {report}: parameter {shown(name)} has no check")
        try:
            checked[name] = check(name, value)
        except GamecoreError as error:
            raise GamecoreError(f"report {report}: {error}") from None
    return checked


def given_once(typed: Iterable[Iterable[str]]) -> dict[str, str]:
    """The ``-p NAME VALUE`` pairs of one command line as a mapping, each name given once: a
    name given twice (``-p decks 6 -p decks 7``) is refused, naming it and both values, where
    taking the last would build with one of them without a word about the other.

    Parameters
    ----------
    typed : iterable of (str, str)
        Each ``-p``'s name and value, as typed, in order.

    Returns
    -------
    dict of str to str
        Name -> value as typed, in the order given.

    Examples
    --------
    >>> given_once([("decks", "6"), ("rounds", "1000")])
    {'decks': '6', 'rounds': '1000'}
    """
    given: dict[str, str] = {}
    for name, text in typed:
        if name in given:
            shown_name = name if name.isidentifier() and len(name) <= 40 else shown(name)
            raise GamecoreError(
                f"-p {shown_name} given twice ({shown(given[name])}, then {shown(text)}): "
                "give each parameter once"
            )
        given[name] = text
    return given


def overrides(from_file: Mapping[str, Any], typed: Mapping[str, Any], file_name: str) -> list[str]:
    """What a build says when ``-p`` and the parameters file (``-f``) both give a parameter:
    the command line wins (it is typed for this build; the file is kept for many), and a line
    says so, with both values, so neither is dropped unseen.

    Parameters
    ----------
    from_file : Mapping of str to Any
        The parameters file's values.
    typed : Mapping of str to Any
        The ``-p`` values, as read.
    file_name : str
        The file as a message shows it.

    Returns
    -------
    list of str
        One line for each parameter given in both places, in the command line's order.

    Examples
    --------
    >>> overrides({"decks": 6, "seed": 1}, {"decks": 7}, "my.yaml")
    ['-p decks 7 overrides decks: 6 from my.yaml']
    """
    return [
        f"-p {name} {shown(value)} overrides {name}: {shown(from_file[name])} from {file_name}"
        for name, value in typed.items()
        if name in from_file
    ]


def as_typed(default: str) -> str:
    """A notebook's default as a parameters file takes it (YAML, read as
    :mod:`gamecore.reading` reads it): ``10_000_000`` as ``10000000``, ``True`` as ``true``,
    ``None`` as ``null``, a list as ``[a, b]``; text that is not a Python literal unchanged.

    Parameters
    ----------
    default : str
        The default as the notebook's cell writes it.

    Returns
    -------
    str
        The value to type.

    Examples
    --------
    >>> as_typed("10_000_000"), as_typed("True"), as_typed("['a', 'b']"), as_typed('"x"')
    ('10000000', 'true', '[a, b]', 'x')
    """
    try:
        value = ast.literal_eval(default)
    except (ValueError, SyntaxError, TypeError):
        return default
    if isinstance(value, list | tuple):
        return "[" + ", ".join(as_typed(repr(item)) for item in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


def parameter_table(report: str, declared: Mapping[str, Mapping[str, Any]]) -> pd.DataFrame:
    """Every parameter a report takes: its default, what it accepts and what it means.

    Parameters
    ----------
    report : str
        The report's name.
    declared : Mapping of str to Mapping
        Its notebook's parameters as papermill reads the cell tagged ``parameters``
        (``papermill.inspect_notebook``: each name's ``default`` as written and ``help``, the
        comment beside it).

    Returns
    -------
    pandas.DataFrame
        Parameter | Default | Allowed | Meaning, one row per parameter in the notebook's
        order (``output_dir``, the build's, left out). A rule of the report's games is
        described by its rule set, any other parameter by its check here and the notebook's
        comment.
    """
    import pandas as pd

    from gamecore import games

    rule_fields, own = {}, {}
    for name in games.report_games(report):
        game = games.game(name)
        own |= game.report_parameters
        rule_fields |= {f.name: f for f in dataclasses.fields(game.rules_type)}
    rows = []
    for name, spec in declared.items():
        if name in BUILD_PARAMETERS:
            continue
        meaning = str(spec.get("help") or "")
        if name in rule_fields:
            check = rule_fields[name].metadata.get("check")
            meaning = rule_fields[name].metadata.get("description") or meaning
        else:
            check = own.get(name, REPORT_PARAMETERS.get(name))
        rows.append(
            {
                "Parameter": name,
                "Default": as_typed(str(spec.get("default", ""))),
                "Allowed": allowed(check) if check is not None else "",
                "Meaning": meaning,
            }
        )
    return pd.DataFrame(rows, columns=["Parameter", "Default", "Allowed", "Meaning"])
