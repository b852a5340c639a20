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

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from gamecore.dealing import BURNS
from gamecore.errors import GamecoreError, shown
from gamecore.parallel import validate_seed, validate_trials
from gamecore.rules import (
    Check,
    amount,
    boolean,
    choice,
    deck_count,
    integer_from,
    number,
    payout,
)


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

    return check_list


def _side_bets(name: str, value: Any) -> list[str]:
    from gamecore.sidebets.study import checked_bets

    return checked_bets(name, value)


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
    # Side bets: built-in names or definition files, each read and checked.
    "side_bets": _side_bets,
    # Switches.
    **dict.fromkeys(("rule_costs", "search_chart"), boolean),
}

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
