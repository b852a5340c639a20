"""The conditions of a side bet's outcomes: what a ``when`` mapping may say, read strictly.

Central idea
------------
An outcome's ``when`` is a conjunction: every condition written in it must hold. Each
condition is read from its YAML node into a :class:`Condition` in normal form (a mapping of
two cards becomes two conditions), and three composite conditions combine groups of them:
``any`` (a list of groups, one must hold), ``all`` (a list of groups, every one must hold:
how one condition is asked twice) and ``not`` (one group, which must not hold). A group is a
``when`` mapping itself, so they nest, at most :data:`MAX_NESTING` deep. Every mistake is a
:class:`~gamecore.sidebets.yamlnodes.Mistake` naming its line.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from gamecore.cards import COLOURS, RANKS, SUITS
from gamecore.errors import shown
from gamecore.sidebets.dealer_words import final_reader
from gamecore.sidebets.yamlnodes import (
    Mistake,
    Node,
    choice,
    distinct,
    fields,
    integer,
    near,
    one_or_many,
)

#: Games a side bet can be placed on.
GAMES = ("baccarat", "blackjack")
#: The cards each game deals that a condition can name, in dealing order.
CARDS = {
    "baccarat": ("player_1", "banker_1", "player_2", "banker_2", "player_3", "banker_3"),
    "blackjack": ("player_1", "player_2", "dealer_up", "dealer_hole"),
}
#: The hands of each game a condition can name.
HANDS = {"baccarat": ("player", "banker"), "blackjack": ("player", "dealer")}
#: Three-card poker classes, best first.
POKER_CLASSES = (
    "suited_three_of_a_kind",
    "straight_flush",
    "three_of_a_kind",
    "straight",
    "flush",
    "pair",
    "high_card",
)
#: The conditions a definition can write, and the games each is for.
CONDITIONS = {
    "same_rank": GAMES,
    "same_suit": GAMES,
    "same_colour": GAMES,
    "same_card": GAMES,
    "rank": GAMES,
    "suit": GAMES,
    "colour": GAMES,
    "total": GAMES,
    "natural": GAMES,
    "winner": ("baccarat",),
    "margin": ("baccarat",),
    "cards_dealt": ("baccarat",),
    "hand_cards": ("baccarat",),
    "poker_hand": GAMES,
    "dealer_final": ("blackjack",),
    "any": GAMES,
    "all": GAMES,
    "not": GAMES,
}
#: The composite conditions: groups of conditions combined (see the module's docstring).
COMPOSITES = ("any", "all", "not")
#: How deep composite conditions may nest (``any`` inside ``not`` inside ``any`` is 3).
MAX_NESTING = 4
#: The totals a ``total`` condition can name, inclusive: baccarat's final total; blackjack's
#: two-card total (2-2 is 4, A-A is 12, A-10 is 21).
TOTALS = {"baccarat": (0, 9), "blackjack": (4, 21)}
#: A baccarat round's results (``winner``).
WINNERS = ("player", "banker", "tie")
#: The margins (``margin``), cards dealt in a round (``cards_dealt``) and cards in a hand
#: (``hand_cards``) a baccarat condition can name, inclusive.
MARGINS, CARDS_DEALT, HAND_CARDS = (0, 9), (4, 6), (2, 3)
#: A card's ranks, suits and colours, as a condition names them.
CARD_VALUES = {"rank": RANKS, "suit": SUITS, "colour": COLOURS}


@dataclass(frozen=True)
class Condition:
    """One condition of an outcome, in its normal form.

    Attributes
    ----------
    kind : str
        The condition's name in the file: ``same_rank``, ``same_suit``, ``same_colour``,
        ``same_card``, ``rank``, ``suit``, ``colour``, ``total``, ``natural``, ``winner``,
        ``margin``, ``cards_dealt``, ``hand_cards``, ``poker_hand``, ``dealer_final`` (one
        per field: :func:`gamecore.sidebets.dealer_words.read_final`); or a composite:
        ``any``, ``all``, ``not``.
    cards : tuple of str
        The cards it looks at (names of :data:`CARDS`): every card of a ``same_*`` or
        ``poker_hand``; the one card of a ``rank``/``suit``/``colour`` (a mapping of two
        cards in the file becomes two conditions).
    hands : tuple of str
        The one hand of a ``total`` or ``hand_cards`` (one condition per hand named).
    values : tuple
        The values it accepts: rank names (``"A"``, ``"2"``..``"10"``, ``"J"``, ``"Q"``,
        ``"K"``), suit or colour names, totals, margins or card counts (ints), winners
        (``"player"``, ``"banker"``, ``"tie"``), poker classes; for ``natural`` the hands
        that must be naturals, or ``("none",)`` or ``("any",)``. Empty for ``same_*``.
    line : int or None
        The line of the file it was written on (1-based), for messages.
    groups : tuple of tuple of Condition
        A composite's groups, each a conjunction (every condition of it holds): ``any``
        holds when one group holds, ``all`` when every group holds, ``not`` (one group)
        when its group does not. Empty for every other condition.
    """

    kind: str
    cards: tuple[str, ...] = ()
    hands: tuple[str, ...] = ()
    values: tuple = ()
    line: int | None = None
    groups: tuple[tuple[Condition, ...], ...] = ()


def leaves(conditions: tuple[Condition, ...]) -> Iterator[Condition]:
    """Every plain condition of a conjunction, inside composites too (what the deal must
    show for the conditions to be decided).

    Parameters
    ----------
    conditions : tuple of Condition
        An outcome's conditions (or a group's).

    Yields
    ------
    Condition
        Each condition that is not a composite, in file order.
    """
    for condition in conditions:
        if condition.kind in COMPOSITES:
            for group in condition.groups:
                yield from leaves(group)
        else:
            yield condition


# ---------------------------------------------------------------------------------------
# Conditions
# ---------------------------------------------------------------------------------------


def when(node: Node, game: str, depth: int = 0) -> tuple[Condition, ...]:
    """An outcome's conditions (or a composite's group), in file order.

    Parameters
    ----------
    node : Node
        The ``when`` mapping (or a group's).
    game : str
        The bet's game.
    depth : int
        Composites around this mapping (0 for an outcome's ``when``).

    Returns
    -------
    tuple of Condition
        Every condition; a mapping of cards or hands in the file becomes one condition per
        card or hand, a composite one :class:`Condition` holding its groups.

    Raises
    ------
    Mistake
        The first mistake: not a non-empty mapping, an unknown condition (naming the one
        meant), a condition of the other game, a bad value, composites nested past
        :data:`MAX_NESTING`.
    """
    what = "when" if depth == 0 else "a group of conditions"
    if node.kind != "mapping" or not node.entries:
        raise Mistake(
            node.line,
            f"{what} must be a non-empty mapping of conditions (e.g. {{same_rank: "
            "[player_1, player_2]}})",
        )
    conditions: list[Condition] = []
    for kind, (line, value) in node.entries.items():
        if game not in CONDITIONS.get(kind, ()):
            known = [name for name, games in CONDITIONS.items() if game in games]
            if kind in CONDITIONS:
                problem = f"condition {shown(kind)} is for {' and '.join(CONDITIONS[kind])} only"
            else:
                problem = f"unknown condition {shown(kind)}{near(kind, known)}"
            raise Mistake(line, f"{problem}; {game}'s conditions: {', '.join(known)}")
        if kind in COMPOSITES:
            conditions.append(_composite(kind, value, line, game, depth + 1))
        else:
            conditions.extend(_READERS[kind](kind, value, line, game))
    return tuple(conditions)


def _composite(kind: str, node: Node, line: int, game: str, depth: int) -> Condition:
    """``any`` / ``all``: a list of two or more groups; ``not``: one group."""
    if depth > MAX_NESTING:
        raise Mistake(
            line,
            f"{kind} is nested {depth} levels deep; any, all and not nest at most "
            f"{MAX_NESTING} levels",
        )
    if kind == "not":
        if node.kind != "mapping":
            raise Mistake(
                node.line,
                "not takes one mapping of conditions (e.g. not: {natural: any}); for "
                "'none of several', write not: {any: [...]}",
            )
        return Condition(kind, line=line, groups=(when(node, game, depth),))
    if node.kind != "list" or len(node.items) < 2:
        raise Mistake(
            node.line,
            f"{kind} takes a list of two or more mappings of conditions (e.g. {kind}: "
            "[{same_rank: [player_1, player_2]}, {same_rank: [banker_1, banker_2]}])",
        )
    return Condition(kind, line=line, groups=tuple(when(item, game, depth) for item in node.items))


def _card(name: str, line: int, game: str, what: str) -> str:
    """A card's name, one the game deals."""
    if name not in CARDS[game]:
        raise Mistake(
            line,
            f"{what}: {shown(name)}{near(name, CARDS[game])} is not a card {game} deals; "
            f"its cards: {', '.join(CARDS[game])}",
        )
    return name


def _hand(name: str, line: int, game: str, what: str, also: tuple[str, ...] = ()) -> str:
    """A hand's name, one of the game's (a name of ``also`` is one meant, written elsewhere:
    ``natural``'s ``none`` and ``any``)."""
    if name not in HANDS[game]:
        hint = near(name, HANDS[game] + also)
        raise Mistake(
            line,
            f"{what}: {shown(name)}{hint} is not a {game} hand; its hands: "
            f"{', '.join(HANDS[game])}",
        )
    return name


def _cards(node: Node, game: str, what: str) -> tuple[str, ...]:
    """A list of distinct cards the game deals (one alone as a list of one)."""
    nodes = one_or_many(node, what)
    names = [_card(item.text, item.line, game, what) for item in nodes]
    return distinct(names, nodes, what)


def _mapping(node: Node, kind: str, example: str) -> dict:
    """A condition's mapping of cards or hands to values, not empty."""
    if node.kind != "mapping" or not node.entries:
        raise Mistake(node.line, f"{kind} must be a non-empty mapping (e.g. {kind}: {{{example}}})")
    return node.entries


def _same(kind: str, node: Node, line: int, game: str) -> list[Condition]:
    """``same_rank`` / ``same_suit`` / ``same_colour`` / ``same_card``: two or more cards."""
    cards = _cards(node, game, kind)
    if len(cards) < 2:
        raise Mistake(node.line, f"{kind} needs at least two distinct cards, got {cards[0]}")
    return [Condition(kind, cards=cards, line=line)]


def _per_card(kind: str, node: Node, line: int, game: str) -> list[Condition]:
    """``rank`` / ``suit`` / ``colour``: a condition per card named, its values listed."""
    allowed = CARD_VALUES[kind]
    conditions = []
    for card, (card_line, value) in _mapping(node, kind, f"player_1: {allowed[0]}").items():
        _card(card, card_line, game, kind)
        what = f"{kind} of {card}"
        nodes = one_or_many(value, what)
        values = distinct([choice(item, kind, allowed) for item in nodes], nodes, what)
        conditions.append(Condition(kind, cards=(card,), values=values, line=card_line))
    return conditions


def _per_hand(kind: str, node: Node, line: int, game: str) -> list[Condition]:
    """``total`` / ``hand_cards``: a condition per hand named, its numbers listed."""
    low, high = TOTALS[game] if kind == "total" else HAND_CARDS
    conditions = []
    for hand, (hand_line, value) in _mapping(node, kind, f"player: {high}").items():
        _hand(hand, hand_line, game, kind)
        what = f"{kind} of {hand}"
        nodes = one_or_many(value, what)
        values = distinct([integer(item, what, low, high) for item in nodes], nodes, what)
        conditions.append(Condition(kind, hands=(hand,), values=values, line=hand_line))
    return conditions


def _natural(kind: str, node: Node, line: int, game: str) -> list[Condition]:
    """``natural``: a list of hands, or ``none`` or ``any`` alone."""
    if node.kind == "scalar" and node.text in ("none", "any"):
        return [Condition(kind, values=(node.text,), line=line)]
    nodes = one_or_many(node, kind)
    what = f"natural (a list of {game} hands, none or any)"
    for item in nodes:
        if item.text in ("none", "any"):
            raise Mistake(item.line, f"natural: {item.text} is written alone, not in a list")
    hands = [_hand(item.text, item.line, game, what, ("none", "any")) for item in nodes]
    return [Condition(kind, values=distinct(hands, nodes, kind), line=line)]


def _values(kind: str, node: Node, line: int, game: str) -> list[Condition]:
    """``winner`` / ``margin`` / ``cards_dealt``: the round's values listed."""
    nodes = one_or_many(node, kind)
    if kind == "winner":
        values = [choice(item, kind, WINNERS) for item in nodes]
    else:
        low, high = MARGINS if kind == "margin" else CARDS_DEALT
        values = [integer(item, kind, low, high) for item in nodes]
    return [Condition(kind, values=distinct(values, nodes, kind), line=line)]


def _poker_hand(kind: str, node: Node, line: int, game: str) -> list[Condition]:
    """``poker_hand``: three distinct cards and the classes they may make."""
    entries = fields(node, kind, ("cards", "class"), ("cards", "class"))
    cards_node = entries["cards"][1]
    cards = _cards(cards_node, game, "poker_hand cards")
    if len(cards) != 3:
        raise Mistake(
            cards_node.line,
            f"poker_hand needs exactly three distinct cards, got {len(cards)}",
        )
    nodes = one_or_many(entries["class"][1], "poker_hand class")
    classes = [choice(item, "poker_hand class", POKER_CLASSES) for item in nodes]
    return [
        Condition(kind, cards=cards, values=distinct(classes, nodes, "poker_hand class"), line=line)
    ]


#: How each condition is read.
_READERS = {
    **dict.fromkeys(("same_rank", "same_suit", "same_colour", "same_card"), _same),
    **dict.fromkeys(("rank", "suit", "colour"), _per_card),
    **dict.fromkeys(("total", "hand_cards"), _per_hand),
    "natural": _natural,
    **dict.fromkeys(("winner", "margin", "cards_dealt"), _values),
    "poker_hand": _poker_hand,
    "dealer_final": final_reader(Condition),
}


__all__ = [
    "CARDS",
    "CARDS_DEALT",
    "CARD_VALUES",
    "COMPOSITES",
    "CONDITIONS",
    "GAMES",
    "HANDS",
    "HAND_CARDS",
    "MARGINS",
    "MAX_NESTING",
    "POKER_CLASSES",
    "TOTALS",
    "WINNERS",
    "Condition",
    "leaves",
    "when",
]
