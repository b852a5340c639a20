"""Rule sets: frozen dataclasses, validated on construction, that print themselves.

Every reading of an ambiguous rule card is a named field here with its default from
``RULES.md``, so a report prints the exact parameter values it was computed under and an
analyst can flip any of them (``dataclasses.replace`` or the CLI's ``--rule NAME=VALUE``).

A field is declared with :func:`rule`, which carries its description and its check; the
base class runs every check in ``__post_init__`` so an invalid rule set cannot exist.

Every value can also be stated in words (:meth:`RuleSet.in_words`, the rule table's
:data:`IN_WORDS` column): each check carries how its values read (a payout as odds, "6 to
5"; a commission as "5%"; decks as "8 decks"; a switch as "yes"/"no"; a :func:`choice`'s
option by the meaning it is given), and a rule may word its own values instead (a switch's
two sentences). A rule whose values cannot be worded cannot be declared.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from gamecore import decimals, rulewords
from gamecore.cards import MAX_DECKS, MIN_DECKS, validate_decks
from gamecore.errors import GamecoreError, did_you_mean, shown
from gamecore.numeric import is_whole, real_number

if TYPE_CHECKING:  # imported by to_frame: a command line's JSON prints no table
    import pandas as pd

Check = Callable[[str, Any], Any]
#: How a rule's values read: a function of the value, or a mapping value -> words.
Words = Callable[[Any], str] | Mapping[Any, str]

#: The rule table's column holding each value in words (:meth:`RuleSet.to_frame`).
IN_WORDS = "In words"

#: The largest payout a rule set accepts, "x to 1". Casino paytables stay far below it (a
#: progressive's top award is rarely past 100,000 to 1); above it a payout is a typing error,
#: and squares of payouts near 1e154 overflow the floats every standard deviation uses.
MAX_PAYOUT = 1_000_000

#: The largest sum of money (collection, table limits) a rule set accepts, in units.
MAX_AMOUNT = 10**12


def rule(default: Any, description: str, check: Check, words: Words | None = None) -> Any:
    """Declare a rule parameter: its default, a one-line description, its check and how its
    values read in words.

    Parameters
    ----------
    default : Any
        The value on the game's card.
    description : str
        What the parameter means, one line (``gamecore games``, the rule table).
    check : Check
        ``check(name, value) -> value``, run on every new rule set.
    words : Words, optional
        The rule's own words for its values (a switch's two sentences, a count's unit),
        else the check's (:func:`marked`): one of them is required.

    Returns
    -------
    Any
        A :func:`dataclasses.field` carrying them (assigned to the field in the class).
    """
    if words is None and getattr(check, "words", None) is None:
        raise TypeError(f"a rule needs words for its values: its check ({allowed(check)}) has none")
    metadata = {"description": description, "check": check, "words": words}
    return dataclasses.field(default=default, metadata=metadata)


def allowed(check: Check) -> str:
    """What ``check`` accepts, in words (``gamecore games`` lists it beside each rule).

    Parameters
    ----------
    check : Check
        A rule's check.

    Returns
    -------
    str
        Its mark, else the first line of its docstring.

    Examples
    --------
    >>> allowed(payout)
    'a payout from 0 to 1,000,000 to 1'
    """
    return getattr(check, "allowed", None) or (check.__doc__ or "").strip().split("\n")[0]


def marked(text: str, words: Words | None = None) -> Callable[[Check], Check]:
    """Decorate a check with what it accepts, in words (:func:`allowed` reads it), and how
    the values it accepts read in words (:meth:`RuleSet.in_words`).

    Parameters
    ----------
    text : str
        What the check accepts, as a listing shows it ("an integer from 1 to 1000").
    words : Words, optional
        How an accepted value reads (:mod:`gamecore.rulewords`: ``odds``, ``percent``, ...).

    Returns
    -------
    callable
        The decorator, which returns the check marked.
    """

    def mark(check: Check) -> Check:
        check.allowed = text  # type: ignore[attr-defined]
        check.words = words  # type: ignore[attr-defined]
        return check

    return mark


# ---------------------------------------------------------------------------------------
# Checks. Each takes (name, value), returns the value (normalised) or raises GamecoreError.
# ---------------------------------------------------------------------------------------


@marked(f"an integer from {MIN_DECKS} to {MAX_DECKS}", rulewords.decks)
def deck_count(name: str, value: Any) -> int:
    """A deck count, an integer from :data:`MIN_DECKS` to :data:`MAX_DECKS`.

    Parameters
    ----------
    name : str
        The rule's name, as the message shows it.
    value : Any
        The value given.

    Returns
    -------
    int
        The deck count (else a :class:`GamecoreError` naming ``name`` and the value).
    """
    return validate_decks(value, name)


@marked("a finite number", rulewords.number)
def number(name: str, value: Any) -> float:
    """A finite real number (a count's trigger, a threshold), as a Python int or float
    (:func:`gamecore.numeric.real_number`: no bool, no long-double NaN, no complex).

    Parameters
    ----------
    name : str
        The rule's name, as the message shows it.
    value : Any
        The value given.

    Returns
    -------
    int or float
        The number (else a :class:`GamecoreError` naming ``name`` and the value).
    """
    return real_number(name, value)


@marked(f"a payout from 0 to {MAX_PAYOUT:,} to 1", rulewords.odds)
def payout(name: str, value: Any) -> float:
    """A payout 'x to 1': a finite number from 0 to :data:`MAX_PAYOUT`.

    Parameters
    ----------
    name : str
        The rule's name, as the message shows it.
    value : Any
        The value given.

    Returns
    -------
    int or float
        The payout (else a :class:`GamecoreError` naming ``name`` and the value).

    Examples
    --------
    >>> payout("tie_pays", 8)
    8
    """
    value = real_number(name, value)
    if not 0 <= value <= MAX_PAYOUT:
        raise GamecoreError(
            f"{name} must be a payout from 0 to {MAX_PAYOUT:,} to 1, got {shown(value)}"
        )
    return value


@marked("a fraction from 0 up to (not including) 1", rulewords.percent)
def commission(name: str, value: Any) -> float:
    """A commission on winnings: a fraction in [0, 1).

    Parameters
    ----------
    name : str
        The rule's name, as the message shows it.
    value : Any
        The value given.

    Returns
    -------
    int or float
        The commission (else a :class:`GamecoreError` naming ``name`` and the value).
    """
    value = real_number(name, value)
    if not 0 <= value < 1:
        raise GamecoreError(f"{name} must be a fraction in [0, 1), got {shown(value)}")
    return value


@marked("true or false", rulewords.yes_no)
def boolean(name: str, value: Any) -> bool:
    """A rule switch: True or False (numpy's too; not 0/1, not a string).

    Parameters
    ----------
    name : str
        The rule's name, as the message shows it.
    value : Any
        The value given.

    Returns
    -------
    bool
        The switch, a Python bool (else a :class:`GamecoreError` naming ``name`` and the value).
    """
    if not isinstance(value, (bool, np.bool_)):
        raise GamecoreError(f"{name} must be true or false, got {shown(value)}")
    return bool(value)


def choice(*options: str | Mapping[str, str]) -> Check:
    """A check accepting one of ``options`` (strings): for a rule, one mapping of each
    option to its meaning in words, what a report states for it.

    Parameters
    ----------
    *options : str, or one Mapping of str to str
        The values accepted, each with its words (a rule's); or the values alone (a report
        parameter's: no rule can be declared with it, :func:`rule`).

    Returns
    -------
    Check
        A function ``check(name, value) -> value`` marked with what it accepts
        (:func:`allowed`) and, given a mapping, with its options' words; a refused value
        raises :class:`GamecoreError` naming ``name``.

    Examples
    --------
    >>> allowed(choice({"fresh": "a fresh shoe every round", "cut_card": "dealt to a cut card"}))
    'one of fresh, cut_card'
    """
    words = None
    if len(options) == 1 and isinstance(options[0], Mapping):
        words = dict(options[0])
        options = tuple(words)

    @marked("one of " + ", ".join(options), words)
    def check(name: str, value: Any) -> str:
        if not isinstance(value, str) or value not in options:
            raise GamecoreError(f"{name} must be one of {', '.join(options)}, got {shown(value)}")
        return value

    return check


def integer_from(low: int, high: int) -> Check:
    """A check for an integer from ``low`` to ``high`` inclusive.

    Parameters
    ----------
    low, high : int
        The least and the greatest value accepted.

    Returns
    -------
    Check
        A function ``check(name, value) -> value`` marked with what it accepts
        (:func:`allowed`); a refused value raises :class:`GamecoreError` naming ``name``.
    """

    @marked(f"an integer from {low} to {high}", rulewords.number)
    def check(name: str, value: Any) -> int:
        if not is_whole(value) or not low <= value <= high:
            raise GamecoreError(
                f"{name} must be an integer from {low} to {high}, got {shown(value)}"
            )
        return int(value)

    return check


@marked(f"a number from 0 to {MAX_AMOUNT:,}", rulewords.units)
def amount(name: str, value: Any) -> float:
    """A sum of money or a count of units: a finite number from 0 to :data:`MAX_AMOUNT`.

    Parameters
    ----------
    name : str
        The rule's name, as the message shows it.
    value : Any
        The value given.

    Returns
    -------
    int or float
        The amount (else a :class:`GamecoreError` naming ``name`` and the value).
    """
    value = real_number(name, value)
    if not 0 <= value <= MAX_AMOUNT:
        raise GamecoreError(f"{name} must be from 0 to {MAX_AMOUNT:,}, got {shown(value)}")
    return value


#: Words that set an optional (``X | None``) parameter to ``None``: fixed by another rule.
AUTO_WORDS = ("auto", "none")


def _parse(name: str, text: str, annotation: Any) -> Any:
    """Convert a command-line string to the field's type, naming the value on failure: a
    number as a plain ASCII decimal (:mod:`gamecore.decimals`).

    An optional field (``float | None``, ``int | None``) takes ``auto`` (or ``none``) for
    ``None``, and otherwise its inner type.
    """
    kind = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    kind = kind.replace(" ", "")
    optional = kind.endswith("|None")
    if optional:
        kind = kind[: -len("|None")]
        if text.strip().lower() in AUTO_WORDS:
            return None
    wanted = {"int": "an integer", "float": "a number", "bool": "true or false"}.get(kind)
    if wanted is None:
        return text
    if optional:
        wanted += " or 'auto'"
    try:
        if kind == "int":
            return decimals.integer(text)
        if kind == "bool":
            lowered = text.strip(decimals.BLANKS).lower()
            if lowered in ("true", "yes", "1", "on"):
                return True
            if lowered in ("false", "no", "0", "off"):
                return False
            raise ValueError("")
        number = decimals.number(text)  # an integer as typed stays exact: 8, not 8.0
    except ValueError as error:
        raise GamecoreError(
            f"{name} must be {wanted}, got {_quoted(text)}{decimals.why(error)}"
        ) from None
    if not math.isfinite(number):  # digits past the float range
        raise GamecoreError(f"{name} must be a finite number, got {_quoted(text)}")
    return number


def _quoted(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message, cut short if it is long."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} chars)"


def optional(check: Check, by: str, noun: str) -> Check:
    """``check``, or ``None`` (``auto``: the value is fixed by another rule, ``by``, in the
    rule set's :meth:`RuleSet.resolved`).

    Parameters
    ----------
    check : Check
        The check of a value that is given.
    by : str
        The rule that fixes an ``auto`` value (``"decks"``).
    noun : str
        That rule in words, as a reader names it (``"the deck count"``).

    Returns
    -------
    Check
        A check passing ``None`` through, else ``check``, marked with what it accepts
        (:func:`allowed`) and with ``check``'s words; a refused value raises
        :class:`GamecoreError` naming ``name``.
    """

    @marked(f"{allowed(check)}, or auto (none): set by {noun}", getattr(check, "words", None))
    def check_optional(name: str, value: Any) -> Any:
        return None if value is None else check(name, value)

    check_optional.set_by = (by, noun)  # type: ignore[attr-defined]
    return check_optional


@dataclasses.dataclass(frozen=True)
class RuleSet:
    """Base of every game's rule set. Subclasses declare fields with :func:`rule`."""

    #: The game's short name in code, the CLI and reports (e.g. ``"punto_banco"``).
    game: ClassVar[str] = ""
    #: The game's name as printed on its rule card.
    title: ClassVar[str] = ""

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            check = field.metadata.get("check")
            if check is not None:
                object.__setattr__(self, field.name, check(field.name, getattr(self, field.name)))

    # -- construction from names -------------------------------------------------------

    @classmethod
    def parameter_names(cls) -> list[str]:
        """The rule parameter names this game accepts, in declaration order.

        Returns
        -------
        list of str
            The dataclass's field names.
        """
        return [f.name for f in dataclasses.fields(cls)]

    @classmethod
    def _refuse_unknown(cls, names: list[str]) -> None:
        unknown = [n for n in names if n not in cls.parameter_names()]
        if unknown:
            hint = did_you_mean(str(unknown[0]), cls.parameter_names())
            raise GamecoreError(
                f"unknown rule {shown(unknown[0])}{hint} for {cls.game}; valid rules: "
                + ", ".join(cls.parameter_names())
            )

    @classmethod
    def create(cls, **values: Any) -> RuleSet:
        """Build a rule set from keyword values, refusing unknown names with the valid list.

        Parameters
        ----------
        **values : Any
            Rule parameter name -> value; the others keep their defaults.

        Returns
        -------
        RuleSet
            The rule set, every value checked (else a :class:`GamecoreError`).
        """
        cls._refuse_unknown(list(values))
        return cls(**values)

    @classmethod
    def from_strings(cls, values: Mapping[str, str]) -> RuleSet:
        """Build a rule set from ``NAME -> text`` pairs, as given on the command line.

        Parameters
        ----------
        values : Mapping of str to str
            Rule parameter name -> its value as typed: a plain decimal for a number,
            true/false (yes/no, 1/0, on/off) for a switch, ``auto`` for ``None`` where the
            parameter is optional.

        Returns
        -------
        RuleSet
            The rule set, every value checked (else a :class:`GamecoreError`).
        """
        cls._refuse_unknown(list(values))
        types = {f.name: f.type for f in dataclasses.fields(cls)}
        return cls(**{n: _parse(n, t, types[n]) for n, t in values.items()})

    def replace(self, **values: Any) -> RuleSet:
        """A copy with some parameters changed (validated like a new rule set).

        Parameters
        ----------
        **values : Any
            Rule parameter name -> its new value.

        Returns
        -------
        RuleSet
            The new rule set, of the same class.
        """
        self._refuse_unknown(list(values))
        return dataclasses.replace(self, **values)

    def resolved(self) -> RuleSet:
        """The rule set with every ``auto`` (``None``) value fixed by the rule that sets it
        (:func:`optional`): itself where a game has none; a game with some overrides it.

        Returns
        -------
        RuleSet
            A rule set of the same game.
        """
        return self

    @classmethod
    def parameters(cls) -> list[dict[str, Any]]:
        """Each rule parameter as ``gamecore games`` lists it.

        Returns
        -------
        list of dict
            One per parameter, in declaration order: ``name``, ``default``, ``allowed``
            (what the check accepts, in words) and ``meaning``.
        """
        return [
            {
                "name": f.name,
                "default": f.default,
                "allowed": allowed(f.metadata["check"]),
                "meaning": f.metadata.get("description", ""),
            }
            for f in dataclasses.fields(cls)
        ]

    # -- printing ----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Parameter name -> value, plus the game's short name under ``"game"``.

        Returns
        -------
        dict of str to Any
            ``game`` first, then every parameter in declaration order.
        """
        return {"game": self.game, **dataclasses.asdict(self)}

    def in_words(self) -> dict[str, str]:
        """Each parameter's value in words: odds as "6 to 5", a commission as "5%", decks as
        "8 decks", an option by its meaning, a switch by its sentence or yes/no; an ``auto``
        value as what it resolves to and why ("6 to 5 (set by the deck count: 6 decks)").

        Returns
        -------
        dict of str to str
            Parameter name -> words, in declaration order.

        Examples
        --------
        >>> from gamecore.baccarat import PuntoBancoRules
        >>> PuntoBancoRules().in_words()
        {'decks': '8 decks', 'banker_commission': '5%', 'tie_pays': '8 to 1'}
        """
        fields, resolved = {f.name: f for f in dataclasses.fields(self)}, self.resolved()
        words = {n: rulewords.of_rule(f, getattr(resolved, n)) for n, f in fields.items()}
        for name, field in fields.items():
            if getattr(self, name) is None:  # auto: what it resolves to, and why
                by, noun = field.metadata["check"].set_by
                words[name] += f" (set by {noun}: {words[by]})"
        return words

    def to_frame(self) -> pd.DataFrame:
        """The rule set as a table: Parameter | Value | In words | Default | Meaning.

        Returns
        -------
        pandas.DataFrame
            A row per parameter; Value and Default as ``--rule NAME=VALUE`` takes them
            (:func:`gamecore.rulewords.typed`: 8, 0.05, ``auto``), the value in words
            (:data:`IN_WORDS`, :meth:`in_words`).
        """
        import pandas as pd

        words = self.in_words()
        rows = [
            {
                "Parameter": f.name,
                # As text, so a table shows 8 and 0.05 as typed, not 8.000000.
                "Value": rulewords.typed(getattr(self, f.name)),
                IN_WORDS: words[f.name],
                "Default": rulewords.typed(f.default),
                "Meaning": f.metadata.get("description", ""),
            }
            for f in dataclasses.fields(self)
        ]
        return pd.DataFrame(rows)

    def __str__(self) -> str:
        from gamecore import terminal

        frame = self.to_frame()
        if (frame["Value"] == frame["Default"]).all():  # the defaults: one column says it
            frame = frame.drop(columns="Default")
        return f"{self.title} ({self.game})\n" + terminal.table(frame)
