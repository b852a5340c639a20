"""What a report's tables and figures are called in its documents: titles, never file names.

A report writes each table and figure under a file name (``table_pd.csv``,
``ev_by_true_count.png``); a document heading made from that name reads "Table pd" or "Ev by
true count". :func:`title` names each by what it holds: a name of :data:`TITLES`; a name of
a family (:data:`PATTERNS`: a bet's table, the twin of a table, a counter by trigger) by its
family's words around the title of the name it is built on; a wager's or side bet's code
name by its title (:data:`WAGER_TITLES`, and the registry's wagers). Nothing falls back to the
file name unnoticed: :func:`is_titled` says whether a name has a title of its own, and a test
holds every table and figure of every default report to it.
"""

from __future__ import annotations

import functools
import re

__all__ = ["TITLES", "is_titled", "title"]

#: Tables and figures by file name (without ``.csv`` or ``.png``).
TITLES = {
    # the rules and the deal
    "rules": "The rule set",
    "dealing": "How the cards are dealt",
    "third_card_rules": "Third-card rules: when the Banker draws",
    # the card games settled on a few cards (baccarat and the like)
    "outcomes": "Every outcome of a round, with its exact count",
    "breakdown": "Full result breakdown",
    "summary": "Each wager: house edge, SD and hit frequency",
    "deck_sweep": "Deck sweep: each wager's house edge by decks",
    "house_edge_by_decks": "House edge by decks",
    "bets": "Each wager",
    "tie_alternative": "Tie at the alternative payout",
    "hold_monitoring": "Hold monitoring: the expected hold and its band after N rounds",
    "provenance": "Provenance",
    "limits": "Limits: each wager against the limits file",
    # 21st Century Baccarat
    "house_way": "Player, House Way against House Way (heads-up)",
    # Mixed strategies from linear programs: probabilities in float64, no integer counts.
    "equilibrium": "Player, equilibrium (heads-up; mixed strategies, float64, no counts)",
    "house_way_outcomes": "Every outcome under House Way, with its exact count",
    "strategies": "Each strategy pair: the player's EV",
    "equilibrium_check": "The equilibrium checked: neither side gains by deviating",
    "equilibrium_pd": "The P/D's equilibrium strategy on 5 and 6",
    "equilibrium_player": "The player's equilibrium strategy on 5 and 6",
    "hit_chart_pd_best_response": "Advantage chart for the hit cards, the P/D's best response",
    "hit_chart_pd_house_way": "Advantage chart for the hit cards, the P/D on House Way",
    "pd_chart": "The P/D's advantage chart: draw or stand on 5 and 6",
    "pd_edge": "The P/D's edge and the collection",
    "collection": "The collection as a share of the wager",
    "multi_spot": "One player on several spots",
    "sweep": "Decks and jokers: the player's EV",
    "full_table_by_seat": "The full table, seat by seat",
    "table_economics": "The P/D's economics at a table of equal bets",
    "table_bank": "The P/D's bank",
    "table_seats": "The full table: each seat's EV and SD",
    "table_pd": "The full table: the P/D's result per round",
    "table_pd_shoe": "The full table dealt from shoes: the P/D's result per round",
    "table_covariances": "The full table: covariance between seats",
    "table_coverage": "The full table: payoffs to the extent money covers",
    "table_ruin": "The P/D's risk of ruin over a shift",
    "table_rotation": "The bank in rotation: each person's result per hour",
    "table_dealing": "The full table: how the cards are dealt",
    # blackjack
    "result_distribution": "Player on the chart: each net result of a round",
    "result_distribution_optimal": "Player on optimal play: each net result of a round",
    "result_statistics": "Net result: mean, SD and hit frequency",
    "strategy_chart": "The strategy chart",
    "strategy_chart_letters": "The strategy chart's letters",
    "rule_costs": "What each rule is worth to the player",
    "by_up_card": "The player's EV by the P/D's up card",
    "chart_search_changes": "The chart search: each cell changed, and what it gained",
    "composition_exceptions": "Where the best play depends on the hand's cards, not its total",
    "dealer_final_distribution": "The P/D's final total, by up card",
    "dealer_final_distribution_after_peek": "The P/D's final total, by up card, after the peek",
    "strategy_chart_ev": "The strategy chart: each cell's EV",
    "strategy_chart_margin": "The strategy chart: each cell's margin over the next best play",
    "table": "the full table, seat by seat",
    "dealer": "the P/D's final totals",
    "insurance": "insurance",
    # the counting studies' tables, each after its game's title
    "counter": "the counter",
    "counter_at_the_bank": "The counter at the bank",
    "counter_by_seat": "The counter by seat",
    "index_plays": "Index plays: where the count changes the best play",
    "upper_bound": "The perfect-information bound",
    "verdict": "Countable at the threshold? Each procedure",
    "definitions_read": "The side bets' definitions: what each reads of the cards",
    # counting studies
    "countability": "Countable? Each counter's gain against 4 standard errors",
    "counts": "The counts: each card's tag",
    "effects_of_removal": "Effects of removal: each card's effect on each wager's EV",
    "exact_ev_by_true_count": "Exact EV by true count",
    "simulated_ev_by_true_count": "Simulated EV by true count",
    "ev_by_true_count": "EV by true count",
    "count_correlation_with_exact_ev": "Each count's correlation with the exact EV",
    "counter_by_procedure": "The counter's best by dealing procedure",
    "threat_by_procedure": "The threat by dealing procedure",
    "perfect_information": "The perfect-information bettor",
    "regulator_summary": "Summary for the regulator",
    "win_per_shoe_by_trigger": "Win per shoe by trigger",
    "definitions": "The side bets' definitions, with each file's SHA-256",
}

#: Names built on another name: ``(pattern, template)``; ``{}`` is the title of what the
#: pattern's group names (a table's, a wager's, or its words).
PATTERNS = (
    (r"cross_check", "Cross-check: each exact figure against its simulated twin"),
    (r"cross_check_deck_sweep_(.+)", "Cross-check: the deck sweep of {}"),
    (r"deck_sweep_(.+)", "Deck sweep: {} by decks"),
    (r"effects_by_card_(.+)", "Effects of removal, card by card: {}"),
    (r"effects_(.+)", "Effects of removal: {}"),
    (r"cross_check_(.+)", "Cross-check: {}"),
    (r"(.+)_cross_check", "Cross-check: {}"),
    (r"bet_(.+)", "{}: each outcome"),
    (r"countability_(.+)", "Countable? {}"),
    (r"(.+)_counter_by_trigger", "{} counter: its gain by trigger"),
    (r"counter_(.+)_by_trigger", "The {} counter: its gain by trigger"),
    (r"(.+)_by_decks", "{} by decks"),
    (r"(.+)_shoe", "{}, dealt from shoes"),
)

#: Wager and side-bet code names in words, where a name is not its words.
WAGER_TITLES = {
    "banker": "Banker",
    "player": "Player",
    "tie": "Tie",
    "dragon": "Dragon",
    "tiger": "Tiger",
    "suited_tie": "Suited Tie",
    "dragon7": "Dragon 7",
    "dragon_7": "Dragon 7",
    "panda8": "Panda 8",
    "panda_8": "Panda 8",
    "jacobson": "Jacobson",
    "derived": "derived",
    "bets": "each wager",
    "outcomes": "each outcome",
    "deck_sweep": "the deck sweep",
    "sweep": "the decks and jokers sweep",
    "optimal": "optimal play",
    "derived_chart": "the derived chart",
    "strategies": "each strategy pair",
    "hit_chart_pd_best_response": "the hit chart, the P/D's best response",
    "hit_chart_pd_house_way": "the hit chart, the P/D on House Way",
    "pd_chart": "the P/D's advantage chart",
    "hold_monitoring": "hold monitoring, each P(house behind) after N rounds",
}

#: Abbreviations as a title writes them, wherever a name's words are used.
_WORDS = {"ev": "EV", "sd": "SD", "se": "SE", "pd": "P/D", "evs": "EVs", "21": "21"}


def _words(name: str) -> str:
    """A code name's words, each abbreviation as it is written (``pd`` as P/D)."""
    words = [_WORDS.get(w, w) for w in name.split("_")]
    return " ".join(words)


def _named(name: str) -> str | None:
    """A name's own title: in :data:`TITLES` or :data:`WAGER_TITLES`, else ``None``."""
    return TITLES.get(name) or WAGER_TITLES.get(name)


def _pattern(name: str, wagers: dict[str, str]) -> tuple[str, str | None] | None:
    """The family of :data:`PATTERNS` a name is of, and the name it is built on (``None``
    for a family's own name): the first family whose part has a title, else the first that
    matches (``deck_sweep_cross_check`` is the deck sweep's cross-check, not the deck sweep
    of a bet named ``cross_check``)."""
    matches = [(t, m.group(1) if m.groups() else None)
               for p, t in PATTERNS if (m := re.fullmatch(p, name))]  # fmt: skip
    for template, part in matches:
        if part is None or wagers.get(part) or _named(part):
            return template, part
    return matches[0] if matches else None


def _of_game(name: str) -> tuple[str, str] | None:
    """A name that starts with a registered game's code name (``c21_baccarat_verdict``,
    ``rules_c21_blackjack``): the game's title and the rest, else ``None``."""
    from gamecore import games as registry

    for game in sorted(registry.NAMES, key=len, reverse=True):
        if name.startswith(f"{game}_"):
            return registry.game(game).title, name.removeprefix(f"{game}_")
        if name.endswith(f"_{game}"):
            return registry.game(game).title, name.removesuffix(f"_{game}")
    return None


@functools.cache
def builtin_side_bets() -> dict[str, str]:
    """The built-in side bets' titles by code name, as their definitions write them.

    Returns
    -------
    dict of str to str
        ``{"big": "Big", ...}``.
    """
    from gamecore.sidebets import definition

    return {name: definition.load(name).title for name in definition.builtin_names()}


def title(name: str, wagers: dict[str, str] | None = None) -> str:
    """The title of a report's table or figure.

    Parameters
    ----------
    name : str
        Its file's name, without the extension.
    wagers : dict, optional
        The report's wagers (and side bets) by code name: their titles.

    Returns
    -------
    str
        The title; a name with none of its own reads as its words, with a capital.

    Examples
    --------
    >>> title("bet_dragon7")
    'Dragon 7: each outcome'
    >>> title("cross_check_deck_sweep")
    'Cross-check: the deck sweep'
    """
    wagers = {**builtin_side_bets(), **(wagers or {})}
    own = _named(name) or wagers.get(name)
    if own:
        return own
    game = _of_game(name)
    if game:  # a study of several games: the game's table, after its title
        return f"{game[0]}: {title(game[1], wagers)}"
    found = _pattern(name, wagers)
    if found:
        template, part = found
        if part is None:
            return template
        inner = wagers.get(part) or WAGER_TITLES.get(part) or TITLES.get(part) or _words(part)
        text = template.format(inner)
        return text[0].upper() + text[1:]
    text = _words(name)
    return text[0].upper() + text[1:]


def is_titled(name: str, wagers: dict[str, str] | None = None) -> bool:
    """Whether a name has a title of its own (or is built by :data:`PATTERNS` on one), not
    its file name's words.

    Parameters
    ----------
    name : str
        A table's or figure's file name, without the extension.
    wagers : dict, optional
        The report's wagers by code name: their titles.

    Returns
    -------
    bool
        True when :func:`title` does not fall back to the name's words.
    """
    wagers = {**builtin_side_bets(), **(wagers or {})}
    if _named(name) or name in wagers:
        return True
    game = _of_game(name)
    if game:
        return is_titled(game[1], wagers)
    found = _pattern(name, wagers)
    if found:
        return found[1] is None or bool(wagers.get(found[1]) or _named(found[1]))
    return False
