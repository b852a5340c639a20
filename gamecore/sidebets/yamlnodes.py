"""YAML read as plain data for a side bet's definition: a tree of text, lists and mappings,
each node with its line, and the readers that turn a node into a checked value.

The central idea: nothing in the file is read as anything but text until a reader of this
module, asked for a deck count or a card, reads it by its own rules. The tree is composed
from the parser's events by a loop (PyYAML's ``BaseLoader``: no implicit types, so ``010``,
``0x1F``, ``yes``, ``1:30`` and ``2026-12-03`` are text, as written), and whatever YAML can
do beyond plain data is refused where it is met: anchors and aliases (an alias bomb expands
to gigabytes), explicit tags (``!!python/object``, any ``!tag``), directives, a key given
twice at any depth, a merge key (``<<``), a key that is not text, a second document and
nesting past :data:`MAX_DEPTH`, and more than :data:`MAX_NODES` nodes.

Every refusal is a :class:`Mistake` carrying the line (1-based) and a message that names
the value and what is allowed; the definition reader puts the file's name in front.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import yaml

from gamecore.errors import SHOWN_CHARACTERS, did_you_mean, shown

#: The deepest a definition's YAML may nest: a plain definition nests six levels at most
#: (outcomes > outcome > when > condition > card > values), and each ``any`` or ``all`` two
#: more (its list and a group's mapping); 16 lets composites one level past their own bound
#: (``conditions.MAX_NESTING``, 4) reach it and be refused by its message.
MAX_DEPTH = 16

#: The most nodes (values, lists, mappings) a definition may hold: 64 outcomes of a dozen
#: conditions each listing every rank are under 20,000; a hostile file of a megabyte holds
#: 350,000, which would take seconds to build before its first mistake could be named.
MAX_NODES = 50_000

#: The most digits an integer is read with (every integer of a definition is below 10,000).
MAX_INTEGER_DIGITS = 40

_KIND_NAMES = {"scalar": "a value", "list": "a list", "mapping": "a mapping"}


class Mistake(Exception):
    """A definition's mistake: the line it is on (``None`` when it has none) and the message
    (one line, naming the value and what is allowed)."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(message)
        self.line, self.message = line, message


@dataclass
class Node:
    """One node of a document: a scalar's text, a list's items or a mapping's entries.

    Attributes
    ----------
    kind : str
        ``"scalar"``, ``"list"`` or ``"mapping"``.
    line : int
        The line it starts on (1-based).
    text : str
        A scalar's text, exactly as the file gives it (quoted or not: never a number).
    items : list of Node
        A list's items.
    entries : dict
        A mapping's entries in file order: key -> (the key's line, the value's node).
    """

    kind: str
    line: int
    text: str = ""
    items: list[Node] = field(default_factory=list)
    entries: dict[str, tuple[int, Node]] = field(default_factory=dict)


class _Open:
    """A list or mapping being built, and for a mapping the key waiting for its value."""

    def __init__(self, node: Node) -> None:
        self.node = node
        self.key: tuple[str, int] | None = None

    def add(self, item: Node) -> None:
        node = self.node
        if node.kind == "list":
            node.items.append(item)
        elif self.key is None:
            if item.kind != "scalar":
                raise Mistake(item.line, f"a key must be a name, got {_KIND_NAMES[item.kind]}")
            if item.text in node.entries:
                first = node.entries[item.text][0]
                raise Mistake(
                    item.line,
                    f"key {shown(item.text)} is given twice (first on line {first}); "
                    "give each key once",
                )
            self.key = (item.text, item.line)
        else:
            key, line = self.key
            node.entries[key] = (line, item)
            self.key = None


def _refuse_extras(event: yaml.Event, line: int, documents: int) -> None:
    """Refuse what an event carries beyond plain data (anchors, aliases, tags, directives,
    a second document)."""
    if isinstance(event, yaml.AliasEvent):
        raise Mistake(line, f"aliases are not allowed ({shown('*' + event.anchor)})")
    anchor = getattr(event, "anchor", None)
    if anchor is not None:
        raise Mistake(line, f"anchors are not allowed ({shown('&' + anchor)})")
    tag = getattr(event, "tag", None)
    if tag is not None and isinstance(event, (yaml.ScalarEvent, yaml.CollectionStartEvent)):
        written = (
            "!!" + tag.removeprefix("tag:yaml.org,2002:")
            if tag.startswith("tag:yaml.org,2002:")
            else tag
        )
        raise Mistake(line, f"explicit tags are not allowed ({shown(written)})")
    if isinstance(event, yaml.DocumentStartEvent):
        if documents:
            raise Mistake(line, "more than one document; a definition file holds one")
        if event.version is not None or event.tags:
            raise Mistake(line, "directives (%YAML, %TAG) are not allowed")


def _build(events: Iterable[yaml.Event]) -> Node | None:
    """The one document's tree, built from the parser's events by a loop."""
    open_: list[_Open] = []
    documents: list[Node] = []
    nodes = 0
    for event in events:
        line = event.start_mark.line + 1
        _refuse_extras(event, line, len(documents))
        if isinstance(event, (yaml.ScalarEvent, yaml.CollectionStartEvent)):
            nodes += 1
            if nodes > MAX_NODES:
                raise Mistake(line, f"more than {MAX_NODES:,} values; a definition holds fewer")
        if isinstance(event, yaml.ScalarEvent):
            node = Node("scalar", line, text=event.value)
            if not event.style and event.value == "<<" and open_ and open_[-1].key is None:
                if open_[-1].node.kind == "mapping":
                    raise Mistake(line, "merge keys (<<) are not allowed; write each field out")
        elif isinstance(event, yaml.CollectionStartEvent):
            if len(open_) >= MAX_DEPTH:
                raise Mistake(line, f"nested deeper than {MAX_DEPTH} levels")
            kind = "list" if isinstance(event, yaml.SequenceStartEvent) else "mapping"
            open_.append(_Open(Node(kind, line)))
            continue
        elif isinstance(event, yaml.CollectionEndEvent):
            node = open_.pop().node
        else:
            continue
        if open_:
            open_[-1].add(node)
        else:
            documents.append(node)
    return documents[0] if documents else None


def decode(data: bytes) -> str:
    """A file's bytes as UTF-8 text, a leading byte-order mark dropped.

    Parameters
    ----------
    data : bytes
        The file's bytes.

    Returns
    -------
    str
        The text; UTF-16 and bytes that are not UTF-8 are a :class:`Mistake` naming the
        first bad byte, its offset and its line.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise Mistake(1, "UTF-16 text; save the file as UTF-8")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise Mistake(
            line,
            f"not UTF-8 text (byte {data[error.start]:#04x} at offset {error.start:,}); "
            "save the file as UTF-8",
        ) from None
    return text.removeprefix("\ufeff")


def compose(text: str) -> Node | None:
    """The tree of the YAML ``text``'s one document, read as plain data.

    Parameters
    ----------
    text : str
        The whole file's text.

    Returns
    -------
    Node or None
        The document's top node; ``None`` when the text holds no document (only blank
        lines and comments).

    Raises
    ------
    Mistake
        Not YAML (the parser's reason and column), or YAML beyond plain data (see the
        module docstring).
    """
    loader = None
    try:
        # BaseLoader resolves no implicit type; its reader refuses control characters.
        loader = yaml.BaseLoader(text)
        return _build(_events(loader))
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = error.problem or error.context or "not YAML"
        line = mark.line + 1 if mark is not None else None
        column = f" (column {mark.column + 1})" if mark is not None else ""
        raise Mistake(line, f"not valid YAML: {_cut(problem)}{column}") from None
    except yaml.reader.ReaderError as error:
        line = text.count("\n", 0, error.position) + 1
        character = error.character if isinstance(error.character, int) else 0
        raise Mistake(
            line, f"character U+{character:04X} is not allowed in YAML ({_cut(error.reason)})"
        ) from None
    except yaml.YAMLError as error:
        raise Mistake(None, f"not valid YAML: {_cut(str(error))}") from None
    except (ValueError, OverflowError) as error:
        # The parser's own conversions (an escape "\U0011FFFF" past Unicode's last code
        # point) raise these; nothing of this module does. The reader's line is where the
        # scanner stopped.
        line = loader.line + 1 if loader is not None else None
        raise Mistake(line, f"not valid YAML ({_cut(str(error))})") from None
    finally:
        if loader is not None:
            loader.dispose()


def _events(loader: yaml.BaseLoader) -> Iterator[yaml.Event]:
    """The parser's events, one at a time (so a refusal stops the parse where it is)."""
    while loader.check_event():
        yield loader.get_event()


def _cut(text: str, limit: int = 120) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else f"{line[: limit - 3]}..."


# ---------------------------------------------------------------------------------------
# Readers: a node to a checked value, or a Mistake naming it and what is allowed
# ---------------------------------------------------------------------------------------


def expect(node: Node, kind: str, what: str) -> Node:
    """``node``, if it is of ``kind``.

    Parameters
    ----------
    node : Node
        The node read.
    kind : str
        ``"scalar"``, ``"list"`` or ``"mapping"``.
    what : str
        How the message names it, e.g. ``"outcomes"``.

    Returns
    -------
    Node
        ``node`` itself.
    """
    if node.kind != kind:
        raise Mistake(
            node.line, f"{what} must be {_KIND_NAMES[kind]}, got {_KIND_NAMES[node.kind]}"
        )
    return node


def near(typed: str, names: Iterable[str]) -> str:
    """The hint naming what a mistyped name meant: the name it reads as with its numbers
    written as digits (``banker_one``, ``player_l``), else the name it is two adjacent
    characters swapped from, else :func:`gamecore.errors.did_you_mean`'s, but none when
    another name is as close (difflib's ratio alone sees ``bte`` as far from ``bet``, and
    ``player_l`` or ``player1_`` as near ``player_3`` as ``player_1``, and names ``player_3``).

    Parameters
    ----------
    typed : str
        The name as the file gives it.
    names : iterable of str
        The names allowed there.

    Returns
    -------
    str
        ``" (did you mean x?)"`` (``" (did you mean x or y?)"`` where ``typed`` is a word
        of each), or ``""`` when no one name is nearest.

    Examples
    --------
    >>> cards = ("player_1", "player_2", "player_3")
    >>> near("player_l", cards), near("player1_", cards), near("player_4", cards)
    (' (did you mean player_1?)', ' (did you mean player_1?)', '')
    >>> near("bte", ("bet", "title")), near("zebra", ("bet", "title"))
    (' (did you mean bet?)', '')
    """
    import difflib  # on the error path only

    names = tuple(names)
    if len(typed) > SHOWN_CHARACTERS:
        return did_you_mean(typed, names)
    word = typed.lower()
    digits = "_".join(_DIGIT_WORDS.get(part, part) for part in word.split("_"))
    meant = [name for name in names if name.lower() == digits or _swap_apart(word, name.lower())]
    if meant:
        return did_you_mean(typed, meant, cutoff=0.0)
    hint = did_you_mean(typed, names)
    ratios = sorted(difflib.SequenceMatcher(None, word, name.lower()).ratio() for name in names)
    tied = len(ratios) > 1 and ratios[-1] == ratios[-2]
    return "" if tied and " or " not in hint else hint


#: Words and look-alike letters a name's number may be written as, read as its digit.
_DIGIT_WORDS = {
    **dict.fromkeys(("one", "first", "l", "i", "|"), "1"),
    **dict.fromkeys(("two", "second"), "2"),
    **dict.fromkeys(("three", "third"), "3"),
    "o": "0",
}


def _swap_apart(typed: str, name: str) -> bool:
    """Whether ``typed`` is ``name`` with two adjacent characters swapped."""
    if len(typed) != len(name) or typed == name:
        return False
    first = next(i for i, (a, b) in enumerate(zip(typed, name, strict=True)) if a != b)
    return (
        first + 1 < len(name)
        and typed[first] == name[first + 1]
        and typed[first + 1] == name[first]
        and typed[first + 2 :] == name[first + 2 :]
    )


def fields(node: Node, what: str, allowed: tuple[str, ...], required: tuple[str, ...]) -> dict:
    """A mapping's entries, each key one of ``allowed`` and every ``required`` one given.

    Parameters
    ----------
    node : Node
        The mapping.
    what : str
        How messages name it, e.g. ``"an outcome"``.
    allowed : tuple of str
        Its fields.
    required : tuple of str
        The fields it must give.

    Returns
    -------
    dict
        Field -> (its line, its value's node), in file order.
    """
    expect(node, "mapping", what)
    for key, (line, _) in node.entries.items():
        if key not in allowed:
            raise Mistake(
                line,
                f"unknown field {shown(key)}{near(key, allowed)} in {what}; "
                f"its fields: {', '.join(allowed)}",
            )
    missing = [key for key in required if key not in node.entries]
    if missing:
        raise Mistake(
            node.line,
            f"{what} lacks the field {shown(missing[0])} (required: {', '.join(required)})",
        )
    return node.entries


def scalar(node: Node, what: str) -> str:
    """A scalar's text.

    Parameters
    ----------
    node : Node
        The node read.
    what : str
        How the message names it.

    Returns
    -------
    str
        The text as the file gives it.
    """
    return expect(node, "scalar", what).text


def one_or_many(node: Node, what: str) -> list[Node]:
    """The values of a list, or a value written alone (``margin: 9`` is ``margin: [9]``);
    none may be a list or mapping, and the list may not be empty.

    Parameters
    ----------
    node : Node
        A scalar or a list of scalars.
    what : str
        How messages name it.

    Returns
    -------
    list of Node
        The scalar nodes, at least one.
    """
    if node.kind == "scalar":
        return [node]
    expect(node, "list", what)
    if not node.items:
        raise Mistake(node.line, f"{what} is an empty list; give at least one value")
    for item in node.items:
        expect(item, "scalar", f"each value of {what}")
    return node.items


def choice(node: Node, what: str, allowed: tuple[str, ...]) -> str:
    """A scalar's text, one of ``allowed`` (exactly as written: ``Q``, not ``q``).

    Parameters
    ----------
    node : Node
        The scalar.
    what : str
        How the message names it, e.g. ``"rank"``.
    allowed : tuple of str
        The values it may take.

    Returns
    -------
    str
        The value.
    """
    text = scalar(node, what)
    if text not in allowed:
        raise Mistake(
            node.line,
            f"{what} {shown(text)}{near(text, allowed)} is not one of: {', '.join(allowed)}",
        )
    return text


def distinct(values: list, nodes: list[Node], what: str) -> tuple:
    """``values`` (read from ``nodes``), refused when one is listed twice.

    Parameters
    ----------
    values : list
        The values read, in order.
    nodes : list of Node
        The node each was read from (for the line).
    what : str
        How the message names them.

    Returns
    -------
    tuple
        The values.
    """
    seen: dict = {}
    for value, node in zip(values, nodes, strict=True):
        if value in seen:
            raise Mistake(
                node.line, f"{what}: {shown(value)} is listed twice (first on line {seen[value]})"
            )
        seen[value] = node.line
    return tuple(values)


#: Why a text is not a plain decimal integer, tried in order: (pattern, reason).
_NOT_PLAIN = (
    (re.compile(r"[-+]?0[xX][0-9a-fA-F_]*"), "hex"),
    (re.compile(r"[-+]?0[oO][0-7_]*"), "octal-looking"),
    (re.compile(r"[-+]?0[bB][01_]*"), "binary"),
    (re.compile(r"[-+]?0[0-9_]+"), "octal-looking (a leading zero: YAML 1.1 reads 010 as 8)"),
    (re.compile(r"[-+]?[0-9][0-9_]*_[0-9_]*"), "not plain digits (an underscore is no separator)"),
    (re.compile(r"[-+]?[0-9]+(?::[0-5]?[0-9])+"), "sexagesimal (YAML 1.1 reads 1:30 as 90)"),
    (re.compile(r"\+[0-9]+"), "signed (a + sign)"),
    (re.compile(r"-[0-9]+"), "negative"),
    (re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)[eE][-+]?[0-9]+"), "written with an exponent"),
    (re.compile(r"[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)"), "not a whole number"),
)


def integer(node: Node, what: str, low: int, high: int) -> int:
    """A scalar read as a whole number from ``low`` to ``high``, written in plain decimal
    digits with no leading zero, sign, underscore, point or exponent.

    Parameters
    ----------
    node : Node
        The scalar.
    what : str
        How the message names it, e.g. ``"decks"``.
    low, high : int
        The values allowed, inclusive.

    Returns
    -------
    int
        The value.
    """
    text = scalar(node, what)
    allowed = f"write a whole number from {low} to {high} in plain decimal digits"
    if re.fullmatch(r"0|[1-9][0-9]*", text):
        if len(text) > MAX_INTEGER_DIGITS or not low <= int(text) <= high:
            raise Mistake(node.line, f"{what} {shown(text)} is out of range; {allowed}")
        return int(text)
    reason = next(
        (reason for pattern, reason in _NOT_PLAIN if pattern.fullmatch(text)), "not a number"
    )
    raise Mistake(node.line, f"{what} {shown(text)} is {reason}; {allowed}")


#: Unicode categories refused in text: control characters (line breaks and tabs too: a
#: text is one line or one paragraph), invisible formatting characters (bidirectional
#: overrides that make a title read otherwise than it is), line and paragraph separators,
#: and lone surrogates (which no UTF-8 output can write).
_REFUSED_CATEGORIES = frozenset(("Cc", "Cf", "Zl", "Zp", "Cs"))


def plain_text(node: Node, what: str, limit: int) -> str:
    """A scalar read as a text field: surrounding blanks dropped, not empty, at most
    ``limit`` characters, no control or invisible formatting character.

    Parameters
    ----------
    node : Node
        The scalar.
    what : str
        How messages name it, e.g. ``"title"``.
    limit : int
        The most characters it may have.

    Returns
    -------
    str
        The text.
    """
    text = scalar(node, what).strip(" \t\r\n")
    if not text:
        raise Mistake(node.line, f"{what} is empty; write it, or leave the field out")
    if len(text) > limit:
        raise Mistake(
            node.line, f"{what} is {len(text):,} characters long; at most {limit:,} are allowed"
        )
    for character in text:
        if unicodedata.category(character) in _REFUSED_CATEGORIES:
            raise Mistake(
                node.line,
                f"{what} holds the control character {shown(character)} "
                f"(U+{ord(character):04X}); write plain text on one line",
            )
    return text


__all__ = [
    "MAX_DEPTH",
    "MAX_INTEGER_DIGITS",
    "MAX_NODES",
    "Mistake",
    "Node",
    "choice",
    "compose",
    "decode",
    "distinct",
    "expect",
    "fields",
    "integer",
    "near",
    "one_or_many",
    "plain_text",
    "scalar",
]
