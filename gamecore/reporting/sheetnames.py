"""A workbook's sheet names (:mod:`gamecore.reporting.workbook`): each CSV's name, as short as
Excel's 31 characters require, **never cut mid-word**.

A name longer than 31 characters is shortened word by word (words are joined by ``_``); step
1 is taken whole, steps 2 and 3 only while the name is still too long:

1. every phrase of :data:`PHRASES` replaced by its short form (``cross_check``: ``check``),
   then every word of :data:`ABBREVIATIONS` by its abbreviation (``distribution``:
   ``dist``), all of them, the same in every long name: a reader learns them once;
2. the joining words of :data:`JOINING_WORDS` (``of``, ``by``, ...) dropped;
3. whole words dropped from the end but for the last (which tells ``..._banker`` from
   ``..._player``), then the last; the first word is always kept.

A name is never cut inside a word, but a single word longer than 31 characters (no report
has one) is cut to 31: there is nothing else to cut. Two names that come out the same (case
ignored, or the front sheet's ``Report``) are numbered ``~2``, ``~3``, ...; the workbook's
front sheet names the file each sheet came from.
"""

from __future__ import annotations

import re

#: Excel's limit on a sheet's name, and the characters it refuses in one.
SHEET_NAME_LIMIT = 31
FORBIDDEN_IN_SHEET_NAMES = re.compile(r"[\[\]:*?/\\]")
#: The front sheet's name (taken: a table's sheet is never called so).
FRONT = "Report"

#: Phrases (words joined by ``_``) a long name is shortened by first.
PHRASES = {
    "cross_check": "check",
    "deck_sweep": "sweep",
    "effects_of_removal": "EoR",
    "twenty_one_plus_three": "21+3",
    "hold_monitoring": "hold",
    "true_count": "TC",
    "house_edge": "HE",
}
#: Whole-word abbreviations, each one a reader of casino par sheets knows or reads off.
ABBREVIATIONS = {
    "alternative": "alt",
    "baccarat": "bac",
    "blackjack": "bj",
    "countability": "count",
    "correlation": "corr",
    "covariances": "cov",
    "distribution": "dist",
    "equilibrium": "equil",
    "exceptions": "exc",
    "monitoring": "mon",
    "optimal": "opt",
    "probability": "prob",
    "procedure": "proc",
    "procedures": "procs",
    "response": "resp",
    "simulated": "sim",
    "strategy": "strat",
}
#: Words that only join others, dropped (after the abbreviations) from a name still too long.
JOINING_WORDS = frozenset(
    {"a", "and", "at", "by", "for", "in", "of", "on", "per", "the", "to", "with"}
)


def abbreviations() -> set[str]:
    """Every short form a sheet name may hold that is not a word of its CSV's name.

    Returns
    -------
    set of str
        The values of :data:`PHRASES` and :data:`ABBREVIATIONS`.
    """
    return set(PHRASES.values()) | set(ABBREVIATIONS.values())


def abbreviate(stem: str, limit: int = SHEET_NAME_LIMIT) -> str:
    """``stem`` shortened to ``limit`` characters without cutting a word (module docstring).

    Parameters
    ----------
    stem : str
        A CSV file's name without its suffix (words joined by ``_``).
    limit : int, default 31
        The most characters.

    Returns
    -------
    str
        ``stem`` itself when short enough; else shortened by the module's steps 1-3, each
        taken only while the name is too long. Only a single word longer than ``limit`` is
        ever cut.

    Examples
    --------
    >>> abbreviate("result_distribution_optimal_cross_check")
    'result_dist_opt_check'
    >>> abbreviate("countability_twenty_one_plus_three")
    'count_21+3'
    >>> abbreviate("cross_check_deck_sweep_dragon_bonus_banker")
    'check_sweep_dragon_bonus_banker'
    >>> abbreviate("cross_check_deck_sweep_dragon_bonus_banker_with_a_natural", 29)
    'check_sweep_dragon_natural'
    """
    name = FORBIDDEN_IN_SHEET_NAMES.sub("_", stem).strip("'") or "table"
    if len(name) <= limit:
        return name
    for phrase, short in PHRASES.items():
        name = re.sub(rf"(?<![^_]){re.escape(phrase)}(?![^_])", short, name)
    words = [ABBREVIATIONS.get(w.lower(), w) for w in name.split("_")]
    if len("_".join(words)) > limit:
        words = words[:1] + [w for w in words[1:] if w.lower() not in JOINING_WORDS]
    while len("_".join(words)) > limit and len(words) > 2:
        del words[-2]
    if len("_".join(words)) > limit and len(words) > 1:
        words.pop()
    return "_".join(words)[:limit]


def sheet_names(stems: list[str]) -> dict[str, str]:
    """A distinct sheet name of at most 31 characters for each CSV stem.

    Parameters
    ----------
    stems : list of str
        The CSV files' names without their suffix.

    Returns
    -------
    dict of str to str
        Stem -> sheet name: the stem, or :func:`abbreviate`'s when longer than 31; a clash
        (case ignored, :data:`FRONT` taken) ended ``~2``, ``~3``, ....
    """
    names: dict[str, str] = {}
    used = {FRONT.lower()}
    for stem in stems:
        name = abbreviate(stem)
        k = 2
        while name.lower() in used:
            suffix = f"~{k}"
            name = abbreviate(stem, SHEET_NAME_LIMIT - len(suffix)) + suffix
            k += 1
        used.add(name.lower())
        names[stem] = name
    return names
