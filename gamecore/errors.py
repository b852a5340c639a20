"""The one exception type gamecore raises for bad input, and how a message shows a value.

Every public entry point validates its arguments before any kernel runs, so a wrong deck
count, an unknown rule name or an impossible paytable surfaces as a ``GamecoreError`` whose
message names the parameter and the value, never as a failure deep inside numba.

A value echoed in a message is shown by :func:`shown`: cut to a few dozen characters with
bounded work, whatever it is (a 10 MB string, a list of a million items, an integer of
thousands of digits), so a hostile input cannot make the error line itself the harm.
"""

import reprlib
from collections.abc import Sequence

#: The most characters of an echoed value a message shows (strings, numbers, other objects).
SHOWN_CHARACTERS = 40

#: The longest line a command prints for an error: a safety net behind :func:`shown`.
MAX_MESSAGE_CHARACTERS = 1000


class GamecoreError(ValueError):
    """A parameter value the analysis cannot accept; the message names it."""


class _Shown(reprlib.Repr):
    """reprlib's bounded repr, with an integer too long to print shown by its size (Python
    refuses to turn an integer of more than 4,300 digits into text)."""

    def repr_int(self, x: int, level: int) -> str:
        digits = int(x.bit_length() * 0.30103) + 1  # log10(2): no conversion of x itself
        if digits > self.maxlong:
            return f"<an integer of about {digits:,} digits>"
        return super().repr_int(x, level)


_SHOWN = _Shown()
_SHOWN.maxstring = _SHOWN.maxother = _SHOWN.maxlong = SHOWN_CHARACTERS
_SHOWN.maxlist = _SHOWN.maxtuple = 14  # a shoe given rank by rank, jokers too, is shown whole
_SHOWN.maxdict = _SHOWN.maxset = 8
_SHOWN.maxlevel = 3

#: The longest a shown value gets, its parts together (a list of long items).
SHOWN_MAX = 2 * SHOWN_CHARACTERS


def shown(value: object) -> str:
    """``value`` as a message shows it: its repr, cut in the middle past a few dozen
    characters (bounded work, whatever its size).

    Parameters
    ----------
    value : object
        Any value a message echoes.

    Returns
    -------
    str
        Its bounded repr, at most :data:`SHOWN_MAX` characters.

    Examples
    --------
    >>> shown("010")
    "'010'"
    >>> shown("x" * 10_000)
    "'xxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxx'"
    >>> shown(10**5000)
    '<an integer of about 5,001 digits>'
    >>> shown(list(range(1000)))
    '[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, ...]'
    >>> shown(["y" * 100] * 3)
    "['yyyyyyyyyyyyyyyyy...yyyyyyyyyyyyyyyy...yyyyyyyyyyyyyyy...yyyyyyyyyyyyyyyyyy']"
    """
    text = _SHOWN.repr(value)
    if len(text) > SHOWN_MAX:
        half = SHOWN_MAX // 2 - 2
        text = f"{text[:half]}...{text[-half:]}"
    return text


def printable(text: str) -> str:
    """``text`` with every character that is not printable written as Python's ``repr``
    writes it (``\\n``, ``\\x1b``, ``\\u202e``): control characters (colours, cursor moves,
    a window title, a line break), the line and paragraph separators, format characters that
    reorder or hide text (a right-to-left override, zero-width characters), spaces other than
    the space itself, and lone surrogates (a file name's bytes that are not UTF-8, as
    :func:`os.fsdecode` gives them). A name or value in a message so shows what it holds and
    cannot colour, move, retitle or reorder what is around it.

    Parameters
    ----------
    text : str
        Any text, such as a file name a user gave.

    Returns
    -------
    str
        The text, each character :meth:`str.isprintable` refuses escaped (the rest as it is).

    Examples
    --------
    >>> printable("bad\\x1b[31mname.yaml")
    'bad\\\\x1b[31mname.yaml'
    >>> printable("a\\nb\\u202ec")
    'a\\\\nb\\\\u202ec'
    """
    if text.isprintable():  # the usual case, at C speed
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def one_line(message: str) -> str:
    """``message`` as a command prints it: on one line, every control character escaped
    (:func:`printable`: a value quoted in it may hold a line break or a terminal's escape
    sequence); past :data:`MAX_MESSAGE_CHARACTERS` it is cut, saying so.

    Parameters
    ----------
    message : str
        An error's message, of any length.

    Returns
    -------
    str
        The message with its control characters escaped, cut past the limit.

    Examples
    --------
    >>> one_line("bad value 'a\\nb'")
    "bad value 'a\\\\nb'"
    """
    line = printable(message)
    if len(line) > MAX_MESSAGE_CHARACTERS:
        line = line[:MAX_MESSAGE_CHARACTERS] + f"... (cut: {len(line):,} characters)"
    return line


def did_you_mean(typed: str, names: Sequence[str], cutoff: float = 0.75) -> str:
    """A hint naming what ``typed`` is near among ``names``: each name of which it is a word
    (``blackjack`` of ``c21_blackjack``), else the closest one (a typo, a capital, a letter
    missing), else nothing.

    Parameters
    ----------
    typed : str
        What was given (only its first :data:`SHOWN_CHARACTERS` characters are compared).
    names : Sequence of str
        The accepted names.
    cutoff : float
        How close (difflib's ratio, 0..1) a name must be to be suggested.

    Returns
    -------
    str
        ``" (did you mean x?)"``, ``" (did you mean x or y?)"`` or ``""``.

    Examples
    --------
    >>> did_you_mean("deck", ["decks", "sweep_decks", "seed"])
    ' (did you mean decks?)'
    >>> did_you_mean("blackjack", ["standard_blackjack", "c21_blackjack"])
    ' (did you mean standard_blackjack or c21_blackjack?)'
    >>> did_you_mean("EZ_Baccarat", ["punto_banco", "ez_baccarat"])
    ' (did you mean ez_baccarat?)'
    >>> did_you_mean("zzz", ["decks"])
    ''
    """
    import difflib  # on the error path only: not in every command's start-up

    word = str(typed)[:SHOWN_CHARACTERS].lower()
    holding = [name for name in names if word in name.lower().split("_")]
    by_lower = {name.lower(): name for name in names}
    close = holding or [
        by_lower[n] for n in difflib.get_close_matches(word, list(by_lower), n=1, cutoff=cutoff)
    ]
    return f" (did you mean {' or '.join(close)}?)" if close else ""
