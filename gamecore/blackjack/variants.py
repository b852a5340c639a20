"""The exact analysis repeated over variants of a rule set: the deck sweep (every deck
count, the ``auto`` rules following each) and the rule costs (each rule change's EV against
the rules as given), each variant a full :func:`gamecore.blackjack.analysis.exact`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gamecore.blackjack.analysis import exact
from gamecore.blackjack.rules import SURRENDER_KINDS, StandardBlackjackRules, check_rules
from gamecore.errors import GamecoreError, shown

if TYPE_CHECKING:  # pandas is imported where a table is made
    import pandas as pd


def deck_sweep(
    rules: StandardBlackjackRules, decks: Sequence[int] = (1, 2, 4, 6, 8)
) -> pd.DataFrame:
    """Player EV (optimal and total-dependent) and the P/D edge for each deck count.

    For the c21 game, ``auto`` rules follow each deck count (2 decks: double-deck rules).

    Parameters
    ----------
    rules : StandardBlackjackRules
        Either game's rule set, as given; each deck count replaces its ``decks``.
    decks : sequence of int, default (1, 2, 4, 6, 8)
        The deck counts, one row each.

    Returns
    -------
    pandas.DataFrame
        Decks | Natural pays | Max split hands (the resolved rules') | Player EV (optimal) |
        Player EV (total-dependent chart) | P/D edge, EVs per unit of the initial wager.
    """
    import pandas as pd

    if isinstance(decks, (str, bytes)) or not isinstance(decks, Sequence) or not decks:
        raise GamecoreError(f"decks must be a list of deck counts, got {shown(decks)}")
    rows = []
    for d in decks:
        a = exact(rules.replace(decks=d))
        resolved = a.resolved_rules
        rows.append(
            {
                "Decks": d,
                "Natural pays": resolved.natural_pays,
                "Max split hands": resolved.max_split_hands,
                "Player EV (optimal)": a.player_ev,
                "Player EV (total-dependent chart)": a.chart_ev,
                "P/D edge": a.pd_edge,
            }
        )
    return pd.DataFrame(rows)


def rule_costs(
    rules: StandardBlackjackRules, variants: Mapping[str, Mapping[str, Any]] | None = None
) -> pd.DataFrame:
    """EV change of each rule variant against ``rules`` (optimal play).

    Parameters
    ----------
    rules : StandardBlackjackRules
        Either game's rule set, as given.
    variants : mapping of str to mapping, optional
        Label -> rule changes (rule name -> value); default :func:`default_variants`, the
        rules a regulator asks about: 6:5 against 3:2, the bust push on and off, each
        surrender kind, H17 against S17 and the double-deck rules.

    Returns
    -------
    pandas.DataFrame
        Variant | Changes | Player EV | EV change (against the rules as given, first row),
        EVs per unit of the initial wager under optimal composition-dependent play.
    """
    import pandas as pd

    rules = check_rules(rules)
    base = exact(rules, search_chart=False)
    if variants is None:
        variants = _variants_of(base.resolved_rules)
    if not isinstance(variants, Mapping) or not all(
        isinstance(changes, Mapping) for changes in variants.values()
    ):
        raise GamecoreError(
            "variants must map each label to rule changes, e.g. {'3:2': {'natural_pays': 1.5}}"
        )
    rows = [{"Variant": "as given", "Changes": "", "Player EV": base.player_ev, "EV change": 0.0}]
    for label, changes in variants.items():
        a = exact(rules.replace(**changes), search_chart=False)
        rows.append(
            {
                "Variant": label,
                "Changes": ", ".join(f"{k}={v}" for k, v in changes.items()),
                "Player EV": a.player_ev,
                "EV change": a.player_ev - base.player_ev,
            }
        )
    return pd.DataFrame(rows)


def default_variants(rules: StandardBlackjackRules) -> dict[str, dict[str, Any]]:
    """The rule variants a regulator asks about, each a change from ``rules``.

    Parameters
    ----------
    rules : StandardBlackjackRules
        Either game's rule set, as given (resolved here).

    Returns
    -------
    dict of str to dict
        Label -> rule changes (rule name -> value): the Natural's payout (3:2, 6:5, even
        money), the other bust push, each other surrender kind, the other soft-17 rule,
        split to two hands only, the double-deck rules, no double after split, and forced
        totals on or off; a variant that changes nothing in the resolved rules is left
        out.
    """
    return _variants_of(rules.resolved())


def _variants_of(resolved: StandardBlackjackRules) -> dict[str, dict[str, Any]]:
    """:func:`default_variants`; rules: resolved."""
    variants: dict[str, dict[str, Any]] = {}
    variants["Natural pays 3:2"] = {"natural_pays": 1.5}
    variants["Natural pays 6:5"] = {"natural_pays": 1.2}
    variants["Natural pays even money"] = {"natural_pays": 1.0}
    other = "none" if resolved.bust_push != "none" else "three_card_23_25"
    variants[f"bust push {other}"] = {"bust_push": other}
    for kind in SURRENDER_KINDS:
        if kind != resolved.surrender:
            variants[f"surrender {kind}"] = {"surrender": kind}
    variants["dealer stands soft 17" if resolved.dealer_hits_soft_17 else "dealer hits soft 17"] = {
        "dealer_hits_soft_17": not resolved.dealer_hits_soft_17
    }
    variants["split to 2 hands only"] = {"max_split_hands": 2}
    variants["double-deck rules (even money, two hands)"] = {
        "natural_pays": 1.0,
        "max_split_hands": 2,
    }
    variants["no double after split"] = {"double_after_split": False}
    variants["no forced totals" if resolved.player_forced == "c21" else "c21 forced totals"] = {
        "player_forced": "none" if resolved.player_forced == "c21" else "c21"
    }
    return {
        k: v
        for k, v in variants.items()
        if any(getattr(resolved, name) != value for name, value in v.items())
    }
