"""The exact analysis repeated over variants of a rule set: the deck sweep (every deck
count, the ``auto`` rules following each) and the rule costs (each rule change's EV against
the rules as given), each variant a full :func:`gamecore.blackjack.analysis.exact`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from gamecore.blackjack.analysis import exact
from gamecore.blackjack.rules import SURRENDER_KINDS, StandardBlackjackRules, check_rules
from gamecore.errors import GamecoreError, shown
from gamecore.wagers import odds

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
        Variant | Changes (each rule change in words, :func:`change_text`) | Player EV | EV
        change (against the rules as given, first row), EVs per unit of the initial wager
        under optimal composition-dependent play.
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
                "Changes": "; ".join(change_text(k, v) for k, v in changes.items()),
                "Player EV": a.player_ev,
                "EV change": a.player_ev - base.player_ev,
            }
        )
    return pd.DataFrame(rows)


#: The rule changes of :func:`default_variants` in words (rule -> value -> words).
_CHANGE_WORDS: dict[str, dict[Any, str]] = {
    "dealer_hits_soft_17": {True: "the P/D hits soft 17", False: "the P/D stands on soft 17"},
    "double_after_split": {True: "double after split", False: "no double after split"},
    "bust_push": {
        "none": "no bust push",
        "three_card_23_25": "both busted, a three-card 23 to 25 closer to 21.5 pushes",
    },
    "player_forced": {"none": "no forced player totals", "c21": "the card's forced player totals"},
    "surrender": {
        "none": "no surrender",
        "late": "late surrender",
        "early": "early surrender",
        "any_cards": "surrender on any number of cards",
    },
}


def change_text(rule: str, value: Any) -> str:
    """One rule change of a variant in words, never as Python writes it
    (``dealer_hits_soft_17=False``: ``the P/D stands on soft 17``).

    Parameters
    ----------
    rule : str
        The rule's name.
    value : Any
        Its value in the variant.

    Returns
    -------
    str
        The change in words: a Natural's payout as odds, the hands a pair splits to, the
        words of :data:`_CHANGE_WORDS`; else the rule's name in words and its value (a
        switch as yes or no).

    Examples
    --------
    >>> change_text("dealer_hits_soft_17", False), change_text("natural_pays", 1.2)
    ('the P/D stands on soft 17', 'a Natural pays 6 to 5')
    >>> change_text("double_soft", False)
    'double soft: no'
    """
    if rule == "natural_pays" and isinstance(value, int | float) and not isinstance(value, bool):
        return f"a Natural pays {odds(Fraction(str(value)))}"
    if rule == "max_split_hands":
        return f"split to {value} hands at most"
    words = _CHANGE_WORDS.get(rule, {})
    if isinstance(value, bool | str) and value in words:
        return words[value]
    shown_value = {True: "yes", False: "no"}[value] if isinstance(value, bool) else value
    return f"{rule.replace('_', ' ')}: {shown_value}"


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
