"""Limits a report's wagers are checked against: a jurisdiction's maximum house edge, minimum
return and maximum payout, read from a limits file (YAML) the report parameter ``limits``
names (docs/reports.md, "Limits").

The central idea: the file is read once, at the build's boundary, strictly (the parameters
file's reader, :func:`gamecore.reading.read_yaml`: YAML 1.2 read plainly, no anchors, tags
or keys twice, at most :data:`~gamecore.reading.MAX_PARAMETERS_BYTES`), and checked into
frozen :class:`Limit` entries; anything else is refused in one line naming the file, the
line and the value. What the notebook gets, and what the report's manifest records, is the
checked content as a plain mapping (:meth:`Limits.content`: the file's name and SHA-256
with it), so ``gamecore verify`` reruns the report from the manifest without the file. Nothing
in the file is evaluated: percentages and odds are read by a regular expression into exact
fractions.

A file::

    jurisdiction: "EXAMPLE ONLY - not any jurisdiction's limits"   # as its author writes it
    limits:
      - game: any                 # every wager of every report
        max_house_edge: 15%
      - game: punto_banco
        wager: banker             # a code name or a title (Banker); omitted: every wager
        max_house_edge: 1.2%
        min_return: 98.8%
        max_payout: 1 to 1

A percentage is written with its sign (``15%``, ``1.25%``), from 0% to 100%; a payout as odds
(``40 to 1``, ``19 to 20``): a bare number is refused, since ``15`` could mean 15% or
1500%. Return is 1 minus the house edge, per unit wagered (initial wager), as the reports
state the edge. The limit that applies to a wager is, per kind, the most specific entry
giving it: the game's wager, then the game, then ``any``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml

from gamecore import games
from gamecore.errors import GamecoreError, did_you_mean, shown
from gamecore.reading import MAX_PARAMETERS_BYTES, decode_text, path_text, read_bounded, read_yaml

#: What ``game:`` takes beside a registered game's code name: every game, every report.
ANY = "any"
#: The kinds of limit, as the file names them -> as a report prints them.
KINDS = {
    "max_house_edge": "maximum house edge",
    "min_return": "minimum return",
    "max_payout": "maximum payout",
}
#: The keys of a file (``jurisdiction`` and ``limits`` required) and of one entry.
FILE_KEYS = ("jurisdiction", "limits")
ENTRY_KEYS = ("game", "wager", *KINDS)
#: The keys the recorded content adds (:meth:`Limits.content`).
RECORD_KEYS = ("file", "sha256")
#: The longest jurisdiction name taken, in characters (one line of a par sheet).
MAX_JURISDICTION_CHARACTERS = 200
#: The most entries a file may hold.
MAX_ENTRIES = 500

_PERCENT = re.compile(r"(\d{1,3}(?:\.\d{1,10})?)\s?%")
_ODDS = re.compile(r"(\d{1,9}(?:\.\d{1,6})?) to (\d{1,9}(?:\.\d{1,6})?)")
_SHA256 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Limit:
    """One entry of a limits file, checked.

    Attributes
    ----------
    game : str
        A registered game's code name, or :data:`ANY`.
    wager : str or None
        The wager's code name (a built-in side bet's, under :data:`ANY`); ``None``: every
        wager of ``game``.
    values : tuple of (str, Fraction, str)
        Per kind given (a key of :data:`KINDS`): the kind, its value as an exact fraction
        (a percentage as a share: 15% is 3/20; a payout per unit wagered: 40 to 1 is 40) and
        the text as written.
    """

    game: str
    wager: str | None
    values: tuple[tuple[str, Fraction, str], ...]

    @property
    def rank(self) -> int:
        """How specific the entry is: 0 a game's (or a side bet's) wager, 1 a game, 2 any."""
        return 0 if self.wager is not None else (1 if self.game != ANY else 2)


@dataclass(frozen=True)
class Limits:
    """A limits file, checked.

    Attributes
    ----------
    jurisdiction : str
        Whose limits, as the file's author writes it.
    entries : tuple of Limit
        In the file's order.
    file : str
        The file's name (no folder: the content, not the place, is what was checked).
    sha256 : str
        The SHA-256 of the file's bytes.
    """

    jurisdiction: str
    entries: tuple[Limit, ...]
    file: str
    sha256: str

    def content(self) -> dict[str, Any]:
        """The checked content as a plain mapping: what the notebook gets and the manifest
        records; :func:`checked_limits` reads it back to the same :class:`Limits`.

        Returns
        -------
        dict
            ``file``, ``sha256``, ``jurisdiction`` and ``limits`` (each entry's keys as
            the file gives them, the values as written).
        """
        entries = []
        for entry in self.entries:
            item: dict[str, Any] = {"game": entry.game}
            if entry.wager is not None:
                item["wager"] = entry.wager
            item.update({kind: text for kind, _value, text in entry.values})
            entries.append(item)
        return {
            "file": self.file,
            "sha256": self.sha256,
            "jurisdiction": self.jurisdiction,
            "limits": entries,
        }


class _Where:
    """Where a value is, as a message says it: the file and its line, or (content read back
    from a manifest, which has no lines) the entry and key."""

    def __init__(self, source: str, text: str | None) -> None:
        self.source = source
        self.lines = _key_lines(text) if text is not None else {}

    def refuse(self, problem: str, index: int | None = None, key: str | None = None):
        line = self.lines.get((index, key)) or self.lines.get((index, None))
        if line is not None:
            return GamecoreError(f"{self.source}: line {line}: {problem}")
        if index is None:
            return GamecoreError(f"{self.source}: {problem}")
        return GamecoreError(f"{self.source}: limits[{index}]: {problem}")  # names the key


def _key_lines(text: str) -> dict[tuple[int | None, str | None], int]:
    """The line (1-based) of each top-level key ``(None, key)``, each entry ``(i, None)``
    and each entry's key ``(i, key)``, from the YAML's node tree (composed after the strict
    reading accepted the text: no alias, tag or anchor is left to expand)."""
    lines: dict[tuple[int | None, str | None], int] = {}
    top = yaml.compose(text, Loader=yaml.SafeLoader)
    if not isinstance(top, yaml.MappingNode):
        return lines
    for key, value in top.value:
        lines[(None, key.value)] = key.start_mark.line + 1
        if key.value == "limits" and isinstance(value, yaml.SequenceNode):
            for index, item in enumerate(value.value):
                lines[(index, None)] = item.start_mark.line + 1
                if isinstance(item, yaml.MappingNode):
                    for entry_key, _ in item.value:
                        lines[(index, entry_key.value)] = entry_key.start_mark.line + 1
    return lines


def percentage(text: Any) -> Fraction:
    """A percentage as a limits file writes it, with its sign, from 0% to 100%, as a share.

    Parameters
    ----------
    text : Any
        The value given.

    Returns
    -------
    Fraction
        The share (``"15%"`` -> 3/20), else a :class:`GamecoreError` saying how to write it.

    Examples
    --------
    >>> percentage("15%"), percentage("1.25%")
    (Fraction(3, 20), Fraction(1, 80))
    """
    found = _PERCENT.fullmatch(text.strip()) if isinstance(text, str) else None
    if found is None:
        raise GamecoreError(
            f"{shown(text)} is not a percentage; write it with its sign, e.g. 15% or 1.25%"
        )
    share = Fraction(Decimal(found.group(1))) / 100
    if share > 1:
        raise GamecoreError(f"{shown(text)} is past 100%")
    return share


def payout(text: Any) -> Fraction:
    """A payout as a limits file writes it: odds ``N to M`` (``40 to 1``, ``19 to 20``), as
    the net payout per unit wagered.

    Parameters
    ----------
    text : Any
        The value given.

    Returns
    -------
    Fraction
        ``N / M`` (``"40 to 1"`` -> 40), else a :class:`GamecoreError` saying how to write it.

    Examples
    --------
    >>> payout("40 to 1"), payout("19 to 20")
    (Fraction(40, 1), Fraction(19, 20))
    """
    found = _ODDS.fullmatch(text.strip()) if isinstance(text, str) else None
    if found is None:
        raise GamecoreError(f"{shown(text)} is not a payout; write it as odds, e.g. 500 to 1")
    won, staked = (Fraction(Decimal(group)) for group in found.groups())
    if won <= 0 or staked <= 0:
        raise GamecoreError(f"{shown(text)}: both sides of the odds must be above zero")
    return won / staked


_READERS = {"max_house_edge": percentage, "min_return": percentage, "max_payout": payout}


def title_name(title: str) -> str:
    """A wager's name without the terms its title adds in brackets at its end, which change
    with the rule set (``Tie (8 to 1)``, ``Tie (7 to 1)`` -> ``Tie``).

    Parameters
    ----------
    title : str
        A wager's title as the reports print it.

    Returns
    -------
    str
        The name.

    Examples
    --------
    >>> title_name("Banker (5% commission)"), title_name("Player")
    ('Banker', 'Player')
    """
    return re.sub(r"\s*\([^()]*\)\s*$", "", title)


def game_wagers(game: str) -> dict[str, str]:
    """The names a limits file may give the wagers of ``game``: each code name, title and
    title's name (:func:`title_name`) -> the code name. Under :data:`ANY`: the built-in side
    bets' code names and titles (the side bets report's bets belong to no registered game).

    Parameters
    ----------
    game : str
        A registered game's code name, or :data:`ANY`.

    Returns
    -------
    dict of str to str
        Empty for a game whose one wager is settled by play (blackjack, 21st Century
        Baccarat): its payouts are rule parameters, not a paytable.
    """
    if game == ANY:
        from gamecore.sidebets.definition import builtin_names, load

        bets = [load(name) for name in builtin_names()]
        return {**{b.bet: b.bet for b in bets}, **{b.title: b.bet for b in bets}}
    found = games.game(game)
    names: dict[str, str] = {}
    for wager in found.wagers(found.default_rules()):
        names.update({wager.name: wager.name, wager.title: wager.name})
        names.setdefault(title_name(wager.title), wager.name)
    return names


def _entry(item: Any, index: int, where: _Where) -> Limit:
    """One entry of ``limits:``, checked."""
    if not isinstance(item, dict):
        raise where.refuse(
            f"each limit is a mapping (game:, wager:, max_house_edge: ...), got {shown(item)}",
            index,
        )
    for key in item:
        if key not in ENTRY_KEYS:
            raise where.refuse(
                f"unknown key {shown(key)}{did_you_mean(key, ENTRY_KEYS, 0.6)}; an entry takes "
                + ", ".join(ENTRY_KEYS),
                index,
                key,
            )
    game = item.get("game")
    if game != ANY and (not isinstance(game, str) or game not in games.NAMES):
        choices = (*games.NAMES, ANY)
        raise where.refuse(
            f"game {shown(game)} is not a registered game{did_you_mean(str(game), choices)}; "
            f"games: {', '.join(choices)}",
            index,
            "game" if "game" in item else None,
        )
    wager = item.get("wager")
    if wager is not None:
        wager = _wager(game, wager, lambda problem: where.refuse(problem, index, "wager"))
    values = []
    for kind in KINDS:
        if kind in item:
            try:
                value = _READERS[kind](item[kind])
            except GamecoreError as error:
                raise where.refuse(f"{kind} {error}", index, kind) from None
            values.append((kind, value, item[kind].strip()))
    if not values:
        raise where.refuse(f"an entry gives no limit; give one of {', '.join(KINDS)}", index)
    return Limit(game, wager, tuple(values))


def _wager(game: str, wager: Any, refuse) -> str:
    """The code name of the wager ``wager`` names among ``game``'s."""
    names = game_wagers(game)
    if not names:
        raise refuse(
            f"{game}'s one wager is settled by play, not by a paytable: leave wager out "
            "(the limit then applies to every way the report plays it)"
        )
    if not isinstance(wager, str) or wager not in names:
        codes = sorted(set(names.values()))
        under = "a built-in side bet" if game == ANY else f"a wager of {game}"
        hint = did_you_mean(str(wager), codes) or did_you_mean(str(wager), list(names))
        raise refuse(
            f"wager {shown(wager)} is not {under}{hint}; "
            f"wagers: {', '.join(codes)}"
        )
    return names[wager]


def _no_twice(entries: list[Limit], where: _Where) -> None:
    """Refuse a kind of limit given twice for one target (game and wager)."""
    seen: dict[tuple[str, str | None, str], int] = {}
    for index, entry in enumerate(entries):
        for kind, _value, _text in entry.values:
            target = (entry.game, entry.wager, kind)
            if target in seen:
                what = entry.game + (f" {entry.wager}" if entry.wager else "")
                first = where.lines.get((seen[target], kind))
                earlier = f"line {first}" if first else f"limits[{seen[target]}]"
                raise where.refuse(
                    f"{kind} of {what} is given twice (first on {earlier}); give it once",
                    index,
                    kind,
                )
            seen[target] = index


def parse_limits(
    loaded: Any, source: str, text: str | None = None, record: tuple[str, str] | None = None
) -> Limits:
    """Check a limits file's value (or content read back from a manifest) into
    :class:`Limits`.

    Parameters
    ----------
    loaded : Any
        The YAML's value (:func:`gamecore.reading.read_yaml`), or recorded content
        (:meth:`Limits.content`).
    source : str
        How messages name it.
    text : str, optional
        The YAML text, for the line of each value in a message.
    record : (str, str), optional
        The file's name and SHA-256; ``None``: recorded content, which holds them.

    Returns
    -------
    Limits
        The checked limits (else a :class:`GamecoreError`, one line naming the line and the
        value).
    """
    where = _Where(source, text)
    allowed = FILE_KEYS if record is not None else (*RECORD_KEYS, *FILE_KEYS)
    if not isinstance(loaded, dict):
        raise where.refuse("a limits file is a mapping: jurisdiction: ..., limits: [...]")
    for key in loaded:
        if key not in allowed:
            hint = did_you_mean(key, allowed)
            raise where.refuse(
                f"unknown key {shown(key)}{hint}; it takes {', '.join(allowed)}", None, key
            )
    for key in allowed:
        if key not in loaded:
            raise where.refuse(f"no {key}: given")
    jurisdiction = loaded["jurisdiction"]
    if (
        not isinstance(jurisdiction, str)
        or not jurisdiction.strip()
        or len(jurisdiction) > MAX_JURISDICTION_CHARACTERS
        or any(ord(c) < 32 for c in jurisdiction)
    ):
        raise where.refuse(
            f"jurisdiction {shown(jurisdiction)} must be text on one line, of 1 to "
            f"{MAX_JURISDICTION_CHARACTERS} characters",
            None,
            "jurisdiction",
        )
    items = loaded["limits"]
    if not isinstance(items, list) or not items or len(items) > MAX_ENTRIES:
        raise where.refuse(f"limits must be a list of 1 to {MAX_ENTRIES} entries", None, "limits")
    entries = [_entry(item, index, where) for index, item in enumerate(items)]
    _no_twice(entries, where)
    file, sha256 = record if record is not None else (loaded["file"], loaded["sha256"])
    if not isinstance(file, str) or not isinstance(sha256, str) or not _SHA256.fullmatch(sha256):
        raise where.refuse(f"file and sha256 not as a build records them: {shown(sha256)}")
    return Limits(jurisdiction.strip(), tuple(entries), file, sha256)


def read_limits(path: str | Path) -> Limits:
    """The limits file ``path``, read strictly and checked.

    Parameters
    ----------
    path : str or Path
        The YAML file.

    Returns
    -------
    Limits
        Its checked limits, with its name and SHA-256.
    """
    what = f"limits file {path_text(path)}"
    raw = read_bounded(path, MAX_PARAMETERS_BYTES, what)
    text = decode_text(raw, what)
    loaded = read_yaml(text, what)
    record = (Path(path).name, hashlib.sha256(raw).hexdigest())
    return parse_limits(loaded, what, text, record)


def limits_of(name: str, value: Any) -> Limits | None:
    """The report parameter ``limits`` as :class:`Limits`: a limits file's path (read and
    checked now), or content a build recorded (checked again), or ``None`` (no limits).

    Parameters
    ----------
    name : str
        The parameter's name, as messages show it.
    value : Any
        The value given.

    Returns
    -------
    Limits or None
        The checked limits.
    """
    if value is None:
        return None
    if isinstance(value, str):
        return read_limits(value)
    if isinstance(value, Mapping):
        return parse_limits(dict(value), f"{name} (as recorded)")
    raise GamecoreError(f"{name} must be a limits file's path (YAML) or null, got {shown(value)}")


def checked_limits(name: str, value: Any) -> dict[str, Any] | None:
    """The report parameter's check (:mod:`gamecore.reporting.parameters`): the value as
    :func:`limits_of` reads it, as the notebook gets it and the manifest records it.

    Parameters
    ----------
    name : str
        The parameter's name, as messages show it.
    value : Any
        The value given: a path, recorded content or ``None``.

    Returns
    -------
    dict or None
        The checked content (:meth:`Limits.content`).
    """
    parsed = limits_of(name, value)
    return None if parsed is None else parsed.content()


def described(value: Mapping[str, Any] | None) -> str:
    """The report parameter ``limits`` in a few words, for a table of parameters: the
    file's name, whose limits and its SHA-256 (not every entry: limits.csv states them).

    Parameters
    ----------
    value : Mapping or None
        The checked content (:meth:`Limits.content`), or ``None``.

    Returns
    -------
    str
        ``"none"``, or ``"FILE (JURISDICTION), SHA-256 HEX"``.

    Examples
    --------
    >>> described(None)
    'none'
    >>> described(read_limits(example_path()).content())  # doctest: +ELLIPSIS
    "example.yaml (EXAMPLE ONLY - not any jurisdiction's limits), SHA-256 ..."
    """
    if value is None:
        return "none"
    return f"{value['file']} ({value['jurisdiction']}), SHA-256 {value['sha256']}"


def example_path() -> Path:
    """The example limits file shipped with gamecore (``gamecore/limits/example.yaml``):
    an example of the format, not any jurisdiction's limits.

    Returns
    -------
    Path
        Its path.
    """
    return Path(__file__).with_name("example.yaml")


__all__ = [
    "ANY",
    "KINDS",
    "Limit",
    "Limits",
    "checked_limits",
    "described",
    "example_path",
    "game_wagers",
    "limits_of",
    "parse_limits",
    "payout",
    "percentage",
    "read_limits",
    "title_name",
]
