"""Reading what a user gives: every file and text gamecore takes from a person is read to a
stated size and in one strict way, or refused with one line naming the file, the line and
the value.

The central idea: nothing given is trusted to be small, to be a file, or to mean one thing.

* A file is opened without blocking (a FIFO cannot hold the open), must be a regular file
  (not a device that never ends, not a pipe, not a directory), and is read to at most its
  limit and one byte more: a file over the limit is refused, the limit in the message, and
  nothing past it is read (:func:`open_regular`, :func:`read_bounded`).
* YAML (parameter files, ``-p NAME VALUE``) is read as the YAML 1.2 core schema reads it,
  plainly: an unquoted ``6`` is an integer, ``0.05`` and ``1e6`` floats, ``true`` / ``false``
  switches, ``null`` or nothing at all null, anything else text. What YAML 1.1 reads another
  way (``010`` octal 8, ``0x10``, ``1:30`` as 90, ``1_000``, ``yes`` / ``no`` / ``on`` /
  ``off``, ``2026-12-03`` as a date, ``<<`` merges) is refused, saying how to write it;
  so are anchors and aliases (an alias bomb expands to gigabytes), explicit tags
  (``!!binary``, ``!!python/...``), a key given twice, a key that is not text and an
  integer of more than :data:`MAX_INTEGER_DIGITS` digits (refused before it is converted).
  The values are built from the parser's events by a loop, not by recursion, to at most
  :data:`MAX_YAML_DEPTH` levels (:func:`read_yaml`).
* JSON (the manifest) is read strictly: no ``NaN`` or ``Infinity``, no key twice in one
  object, no integer past :data:`MAX_INTEGER_DIGITS` digits (:func:`read_json`).

The limits, each far above the largest such file ``make reports`` writes or reads today
(measured on a whole build at the default parameters: 192 files, 21 MB) or a person writes:

======================================  ======  ===========================================
file                                    limit   largest today
======================================  ======  ===========================================
parameters file (``-f``), ``-p`` value  64 KiB  every report parameter (69): 1.4 KB of YAML
strategy chart CSV                      1 MiB   a full chart: 1.1 KB
``MANIFEST.json``                       4 MiB   26 KB (191 files)
a report's CSV, compared by verify      16 MiB  128 KB (a strategy chart cross-check)
a report's file, hashed by verify       1 GiB   5.3 MB (c21_blackjack.pdf)
======================================  ======  ===========================================

Within them the work stays in hand: 64 KiB of the slowest YAML the pure-Python parser reads
is read without a noticeable wait; a 16 MiB CSV of short numbers takes pandas about 190 MB.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from typing import Any

import yaml

from gamecore import decimals
from gamecore.errors import GamecoreError, printable, shown

#: The largest parameters file (``-f``) or command-line parameter value (``-p``) read.
MAX_PARAMETERS_BYTES = 64 << 10
#: The largest strategy chart CSV read.
MAX_CHART_BYTES = 1 << 20
#: The largest ``MANIFEST.json`` ``gamecore verify`` reads.
MAX_MANIFEST_BYTES = 4 << 20
#: The largest report CSV ``gamecore verify`` compares cell by cell.
MAX_REPORT_TABLE_BYTES = 16 << 20
#: The largest report file ``gamecore verify`` hashes.
MAX_REPORT_FILE_BYTES = 1 << 30

#: The most digits an integer read from YAML or JSON may have: the command line's limit
#: (a 128-bit seed has 39), so a value reads the same from a file as typed.
MAX_INTEGER_DIGITS = decimals.MAX_DIGITS
#: The deepest a YAML value may nest (parameters are values and lists of values).
MAX_YAML_DEPTH = 16

#: The longest path a message shows whole; a longer one keeps its start and its end.
_PATH_CHARACTERS = 160


def path_text(path: str | os.PathLike) -> str:
    """``path`` as a message shows it: on one line, its control characters escaped
    (:func:`gamecore.errors.printable`), whole up to a few lines' width, else cut in the
    middle (its end, the file's name, kept); an empty path as ``''``.

    Parameters
    ----------
    path : str or os.PathLike
        A file's path.

    Returns
    -------
    str
        At most 160 characters, on one line.

    Examples
    --------
    >>> path_text("reports/punto_banco/outcomes.csv")
    'reports/punto_banco/outcomes.csv'
    >>> path_text("d/" * 1000 + "x.csv")[-12:], len(path_text("d/" * 1000 + "x.csv"))
    ('/d/d/d/x.csv', 160)
    """
    text = printable(os.fsdecode(path))
    if not text:
        return "''"  # an empty path, which would vanish from the message
    if len(text) <= _PATH_CHARACTERS:
        return text
    head = (_PATH_CHARACTERS - 3) // 3  # a third from the start, the rest from the end
    tail = _PATH_CHARACTERS - 3 - head
    return f"{text[:head]}...{text[-tail:]}"


def _cut(text: str, limit: int = 160) -> str:
    # A parser's own sentence, which may quote the input: kept to a line.
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


# ---------------------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------------------

NOT_REGULAR = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)

# Without O_NONBLOCK, opening a FIFO waits for a writer, forever; O_NOCTTY keeps a terminal
# device from becoming the process's own. Both are ignored for a regular file.
_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


def open_regular(path: str | os.PathLike, what: str) -> int:
    """A descriptor of the regular file ``path``, open for reading: opened without blocking
    (a FIFO cannot hold the open) and checked on the descriptor itself, so what was opened
    is what is checked. The caller closes it.

    Parameters
    ----------
    path
        The file.
    what
        How messages name the file, e.g. ``"parameters file my.yaml"``.

    Returns
    -------
    int
        The descriptor (else a :class:`GamecoreError`: ``what`` and the reason: not found,
        cannot be read, or not a regular file: a directory, a FIFO, a device, a socket).
    """
    try:
        descriptor = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        raise GamecoreError(f"{what}: not found") from None
    except OSError as error:
        raise GamecoreError(f"{what}: cannot be read ({error.strerror})") from None
    except ValueError:  # a NUL character in the name
        raise GamecoreError(f"{what}: not a file name (it holds a NUL character)") from None
    mode = os.fstat(descriptor).st_mode  # fstat of an open descriptor does not fail
    if not stat.S_ISREG(mode):
        os.close(descriptor)
        kind = next((f" ({kind})" for is_kind, kind in NOT_REGULAR if is_kind(mode)), "")
        raise GamecoreError(f"{what}: not a regular file{kind}")
    return descriptor


def read_bounded(path: str | os.PathLike, limit: int, what: str) -> bytes:
    """The bytes of the regular file ``path`` (:func:`open_regular`), at most ``limit`` of
    them.

    Parameters
    ----------
    path
        The file.
    limit
        The most bytes read; a larger file is refused, the limit in the message, and no
        byte past ``limit + 1`` is read.
    what
        How messages name the file, e.g. ``"parameters file my.yaml"``.

    Returns
    -------
    bytes
        The whole file (else a :class:`GamecoreError`: ``what`` and the reason, as
        :func:`open_regular` gives it, or larger than ``limit`` bytes).
    """
    descriptor = open_regular(path, what)
    try:
        size = os.fstat(descriptor).st_size
        if size > limit:  # refused by its size alone, before a byte is read
            raise GamecoreError(
                f"{what}: larger than {limit:,} bytes, its size limit (it is {size:,} bytes)"
            )
        data = _read_up_to(descriptor, limit + 1)
    except OSError as error:
        raise GamecoreError(f"{what}: cannot be read ({error.strerror})") from None
    finally:
        os.close(descriptor)
    if len(data) > limit:  # a file that grew, or one that gives no size (/proc)
        raise GamecoreError(f"{what}: larger than {limit:,} bytes, its size limit")
    return data


def _read_up_to(descriptor: int, count: int) -> bytes:
    # A read may return less than asked before the end: read until either.
    parts, left = [], count
    while left > 0:
        part = os.read(descriptor, min(left, 1 << 20))
        if not part:
            break
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def decode_text(raw: bytes, what: str) -> str:
    """``raw`` as UTF-8 text, a leading byte-order mark dropped; UTF-16 and bytes that are
    not UTF-8 refused, naming the first one and its offset.

    Parameters
    ----------
    raw : bytes
        A file's bytes.
    what : str
        How messages name the file.

    Returns
    -------
    str
        The text (else a :class:`GamecoreError` naming ``what`` and the reason).

    Examples
    --------
    >>> decode_text(b"\\xef\\xbb\\xbfdecks: 8", "parameters file p.yaml")
    'decks: 8'
    """
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise GamecoreError(f"{what}: is UTF-16 text; save it as UTF-8")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise GamecoreError(
            f"{what}: not UTF-8 text (byte {raw[error.start]:#04x} at offset {error.start:,}); "
            "save it as UTF-8"
        ) from None
    return text.removeprefix("\ufeff")  # a byte-order mark some editors write


def read_text(path: str | os.PathLike, limit: int, what: str) -> str:
    """The UTF-8 text of the regular file ``path`` of at most ``limit`` bytes
    (:func:`read_bounded`, :func:`decode_text`).

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    limit : int
        The most bytes read (:func:`read_bounded`).
    what : str
        How messages name the file, e.g. ``"parameters file my.yaml"``.

    Returns
    -------
    str
        The text (else a :class:`GamecoreError` naming ``what`` and the reason).
    """
    return decode_text(read_bounded(path, limit, what), what)


# ---------------------------------------------------------------------------------------
# JSON
# ---------------------------------------------------------------------------------------


def _json_integer(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INTEGER_DIGITS:
        raise GamecoreError(
            f"an integer of {digits:,} digits ({shown(text)}); at most {MAX_INTEGER_DIGITS} "
            "are read"
        )
    return int(text)


def _json_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400: Python's float() makes it inf, silently
        raise GamecoreError(f"{shown(text)} is outside a float's range (up to 1e308)")
    return value


def _json_constant(token: str) -> Any:
    raise GamecoreError(f"{token} is not JSON (a number is finite)")


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    mapping: dict[str, Any] = {}
    for key, value in pairs:
        if key in mapping:
            raise GamecoreError(f"key {shown(key)} is given twice in one object")
        mapping[key] = value
    return mapping


def read_json(path: str | os.PathLike, limit: int, what: str) -> Any:
    """The JSON document in the file ``path`` of at most ``limit`` bytes, read strictly:
    ``NaN``, ``Infinity`` and numbers beyond a float's range refused, a key twice in one
    object refused, an integer of more than :data:`MAX_INTEGER_DIGITS` digits refused before
    it is converted.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    limit : int
        The most bytes read (:func:`read_bounded`).
    what : str
        How messages name the file, e.g. ``"parameters file my.yaml"``.

    Returns
    -------
    Any
        The document: dicts, lists, str, int, float, bool and None.

    Raises
    ------
    GamecoreError
        ``what`` and the reason (with the line and column of a syntax error).
    """
    text = read_text(path, limit, what)
    try:
        return json.loads(
            text,
            parse_int=_json_integer,
            parse_float=_json_float,
            parse_constant=_json_constant,
            object_pairs_hook=_json_object,
        )
    except GamecoreError as error:
        raise GamecoreError(f"{what}: {error}") from None
    except json.JSONDecodeError as error:
        raise GamecoreError(
            f"{what}: not JSON (line {error.lineno}, column {error.colno}: {_cut(error.msg)})"
        ) from None
    except RecursionError:  # the parser recurses once per level: [[[[...
        raise GamecoreError(f"{what}: nested too deeply to be read") from None


# ---------------------------------------------------------------------------------------
# YAML
# ---------------------------------------------------------------------------------------

_NULL = frozenset(("", "~", "null", "Null", "NULL"))
_TRUE, _FALSE = ("true", "True", "TRUE"), ("false", "False", "FALSE")
#: What YAML 1.2's core schema reads as a number and the forms above do not: 08, 0o17.
_YAML12_NUMBER = re.compile(
    r"0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
)
#: PyYAML's resolver: how YAML 1.1 reads a plain scalar (what ``yaml.safe_load`` did here).
_YAML11 = yaml.resolver.Resolver()

_ADVICE = "write a number in plain decimal (10, 0.05, 1e6), text in quotes"


class _Refused(Exception):
    """A construct the strict reading refuses, at ``mark`` (the parser's position)."""

    def __init__(self, mark: yaml.Mark, problem: str) -> None:
        super().__init__(problem)
        self.mark, self.problem = mark, problem


def _yaml11_reading(text: str) -> Any:
    """What ``yaml.safe_load`` makes of ``text`` alone (short texts only), for a message."""
    try:
        return yaml.safe_load(text) if len(text) <= 40 else None
    except (yaml.YAMLError, ValueError):
        return None


def _plain_scalar(text: str, mark: yaml.Mark) -> Any:
    """The value of an unquoted scalar, as the module docstring says."""
    if text in _NULL:
        return None
    if text in _TRUE or text in _FALSE:
        return text in _TRUE
    if decimals.INTEGER.fullmatch(text):
        digits = len(text.lstrip("+-"))
        if digits > MAX_INTEGER_DIGITS:  # int() of thousands of digits is slow or refused
            raise _Refused(
                mark,
                f"an integer of {digits:,} digits ({shown(text)}); at most "
                f"{MAX_INTEGER_DIGITS} are read",
            )
        return int(text)
    if decimals.NUMBER.fullmatch(text):
        value = float(text)
        mantissa = re.split("[eE]", text)[0]
        if not math.isfinite(value) or (value == 0 and re.search("[1-9]", mantissa)):
            raise _Refused(mark, f"{shown(text)} is outside a float's range (1e-308 to 1e308)")
        return value
    kind = _YAML11.resolve(yaml.ScalarNode, text, (True, False)).rsplit(":", 1)[-1]
    if kind in ("int", "float"):
        reading = _yaml11_reading(text)
        said = f"as {shown(reading)}" if reading is not None else "as a number"
        raise _Refused(
            mark,
            f"{shown(text)} is not a plain decimal number (YAML 1.1 reads it {said}); " + _ADVICE,
        )
    if kind == "bool":
        said = "true" if _yaml11_reading(text) else "false"
        raise _Refused(
            mark,
            f"{shown(text)} is not true or false (YAML 1.1 reads it as {said}, YAML 1.2 as "
            "text); write true or false, or text in quotes",
        )
    if kind == "timestamp":
        raise _Refused(
            mark,
            f"{shown(text)} is a date in YAML 1.1 and text in YAML 1.2; write text in quotes",
        )
    if kind == "merge":
        raise _Refused(mark, "merge keys (<<) are not allowed; write each value out")
    if _YAML12_NUMBER.fullmatch(text):
        raise _Refused(
            mark,
            f"{shown(text)} is not a plain decimal number (YAML 1.2 reads it as a number, "
            f"YAML 1.1 as text); {_ADVICE}",
        )
    return text


def _short_tag(tag: str) -> str:
    return "!!" + tag.removeprefix("tag:yaml.org,2002:") if tag.startswith("tag:yaml") else tag


class _Collection:
    """A sequence or mapping being built: its value, where it starts, and for a mapping
    the key waiting for its value and the line each key was given on."""

    def __init__(self, value: list | dict, mark: yaml.Mark) -> None:
        self.value, self.mark = value, mark
        self.key: str | None = None
        self.key_lines: dict[str, int] = {}

    def add(self, item: Any, mark: yaml.Mark) -> None:
        if isinstance(self.value, list):
            self.value.append(item)
        elif self.key is None:
            if not isinstance(item, str):
                raise _Refused(mark, f"a key must be a name (text), got {shown(item)}")
            if item in self.key_lines:
                raise _Refused(
                    mark,
                    f"key {shown(item)} is given twice (first on line {self.key_lines[item]}); "
                    "give each key once",
                )
            self.key, self.key_lines[item] = item, mark.line + 1
        else:
            self.value[self.key] = item
            self.key = None


def _build(events) -> Any:
    """The value of a YAML stream's one document, built from its events by a loop."""
    open_: list[_Collection] = []
    documents: list[Any] = []

    def place(item: Any, mark: yaml.Mark) -> None:
        if open_:
            open_[-1].add(item, mark)
        else:
            documents.append(item)

    for event in events:
        mark = event.start_mark
        if isinstance(event, yaml.AliasEvent):
            raise _Refused(mark, f"aliases are not allowed ({shown('*' + event.anchor)})")
        if isinstance(event, yaml.NodeEvent) and event.anchor is not None:
            raise _Refused(
                mark, f"anchors and aliases are not allowed ({shown('&' + event.anchor)})"
            )
        if isinstance(event, (yaml.ScalarEvent, yaml.CollectionStartEvent)) and event.tag:
            raise _Refused(mark, f"explicit tags are not allowed ({shown(_short_tag(event.tag))})")
        if isinstance(event, yaml.DocumentStartEvent) and documents:
            raise _Refused(mark, "more than one document; a file holds one")
        if isinstance(event, yaml.ScalarEvent):  # style None: plain; else quoted or a block
            place(event.value if event.style else _plain_scalar(event.value, mark), mark)
        elif isinstance(event, yaml.CollectionStartEvent):
            if len(open_) >= MAX_YAML_DEPTH:
                raise _Refused(mark, f"nested deeper than {MAX_YAML_DEPTH} levels")
            empty = [] if isinstance(event, yaml.SequenceStartEvent) else {}
            open_.append(_Collection(empty, mark))
        elif isinstance(event, yaml.CollectionEndEvent):
            done = open_.pop()
            place(done.value, done.mark)
    return documents[0] if documents else None


def _yaml_problem(error: yaml.YAMLError, text: str) -> str:
    """One line from a YAML error: where (line and column, 1-based) and what is wrong."""
    if isinstance(error, yaml.reader.ReaderError):
        line = text.count("\n", 0, error.position) + 1
        return f"line {line}: character {error.character:#06x} is not allowed ({error.reason})"
    mark = getattr(error, "problem_mark", None)
    problem = getattr(error, "problem", None) or str(error).splitlines()[0]
    where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
    return f"{where}{_cut(problem)}"


def read_yaml(text: str, source: str, *, value: bool = False) -> Any:
    """The value of the YAML ``text``, read strictly (see the module docstring).

    Parameters
    ----------
    text
        The YAML (a file's whole text, or one value).
    source
        How messages name where it came from, e.g. ``"parameters file my.yaml"``.
    value
        ``text`` is one value given on a command line: messages quote it rather than give
        line numbers.

    Returns
    -------
    Any
        ``None``, a bool, an int, a float, a str, or lists and dicts (keys str) of them.

    Raises
    ------
    GamecoreError
        One line: ``source``, the line (and column of a syntax error), and the value.

    Examples
    --------
    >>> read_yaml("decks: 6\\nbanker_commission: 0.05\\nchart_file: my.csv", "example")
    {'decks': 6, 'banker_commission': 0.05, 'chart_file': 'my.csv'}
    >>> read_yaml("- 6\\n- 010", "example")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gamecore.errors.GamecoreError: example: line 2: '010' is not a plain decimal number (YAML...
    """
    try:
        return _build(yaml.parse(text, Loader=yaml.SafeLoader))
    except _Refused as refused:
        where = "" if value else f"line {refused.mark.line + 1}: "
        raise GamecoreError(f"{source}: {where}{refused.problem}") from None
    except yaml.YAMLError as error:
        problem = _yaml_problem(error, text)
        if value:
            raise GamecoreError(f"{source}: {shown(text)} is not YAML ({problem})") from None
        raise GamecoreError(f"{source}: {problem}") from None


def read_yaml_file(path: str | os.PathLike, limit: int, what: str) -> Any:
    """The value of the YAML file ``path`` of at most ``limit`` bytes (:func:`read_text`,
    :func:`read_yaml`).

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    limit : int
        The most bytes read (:func:`read_bounded`).
    what : str
        How messages name the file, e.g. ``"parameters file my.yaml"``.

    Returns
    -------
    Any
        The value as :func:`read_yaml` reads it.
    """
    return read_yaml(read_text(path, limit, what), what)


__all__ = [
    "MAX_CHART_BYTES",
    "MAX_INTEGER_DIGITS",
    "MAX_MANIFEST_BYTES",
    "MAX_PARAMETERS_BYTES",
    "MAX_REPORT_FILE_BYTES",
    "MAX_REPORT_TABLE_BYTES",
    "MAX_YAML_DEPTH",
    "NOT_REGULAR",
    "decode_text",
    "open_regular",
    "path_text",
    "read_bounded",
    "read_json",
    "read_text",
    "read_yaml",
    "read_yaml_file",
]
