"""A side bet's definition file, read strictly (issue 29): every built-in loads into the
normal form its file says (written out here by hand from the YAML, not from the reader's
output), every mistake of docs/side-bets.md is refused in one line ``FILE:LINE: message``
naming the value, payouts are exact fractions of the decimals written, and arbitrary bytes
or YAML-ish text is read or refused in one line, never another exception.
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from hypothesis import example, given
from hypothesis import strategies as st

from gamecore.errors import GamecoreError
from gamecore.sidebets import definition
from gamecore.sidebets.definition import (
    GAMES,
    MAX_DEFINITION_BYTES,
    Condition,
    builtin_names,
    load,
    parse,
)

DEFINITIONS = Path(__file__).resolve().parents[1] / "gamecore" / "sidebets" / "definitions"
ORIGIN = "bets/my_bet.yaml"
#: The longest a refusal may be: the file's name, the line, a value shown in a few dozen
#: characters, and what is allowed (the longest lists the 14 conditions).
MAX_MESSAGE = 500


def refusal(data: bytes | str, origin: str = ORIGIN) -> str:
    """The one line ``data`` is refused with (it must be refused)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    with pytest.raises(GamecoreError) as caught:
        parse(raw, origin)
    message = str(caught.value)
    assert "\n" not in message and "\r" not in message, message
    assert len(message) <= MAX_MESSAGE, message
    return message


def read(text: str):
    return parse(text.encode("utf-8"), ORIGIN)


def bare(condition: Condition) -> Condition:
    """A condition without its line (the hand-written expectations give lines apart)."""
    return replace(condition, line=None)


def cond(kind: str, cards=(), hands=(), values=()) -> Condition:
    return Condition(kind, cards=tuple(cards), hands=tuple(hands), values=tuple(values))


# ---------------------------------------------------------------------------------------
# The built-ins
# ---------------------------------------------------------------------------------------

#: The twelve built-ins of issue 29 (issue 43 added more: every file of the folder is one).
ISSUE_29_BUILTINS = {
    "banker_pair",
    "big",
    "dragon_7",
    "dragon_bonus_banker",
    "dragon_bonus_player",
    "lucky_6",
    "lucky_ladies",
    "panda_8",
    "perfect_pairs",
    "player_pair",
    "small",
    "twenty_one_plus_three",
}
#: Every built-in: the folder's files, each with its game and number of paying outcomes as
#: ``yaml.safe_load`` reads the file (a reader of its own, not the package's).
BUILTINS = {
    path.stem: (data["game"], len(data["outcomes"]))
    for path in sorted(DEFINITIONS.glob("*.yaml"))
    for data in [yaml.safe_load(path.read_text("utf-8"))]
}


def test_builtin_names_are_the_folders_files_sorted():
    assert builtin_names() == tuple(sorted(BUILTINS))
    assert ISSUE_29_BUILTINS <= set(BUILTINS)


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_every_builtin_loads_as_its_file_says(name):
    bet = load(name)
    game, outcomes = BUILTINS[name]
    raw = (DEFINITIONS / f"{name}.yaml").read_bytes()
    assert bet.bet == name
    assert (bet.game, len(bet.outcomes)) == (game, outcomes)
    # the game's default deck count, or the file's own (Bust Bonus: its analysis's 8 decks)
    assert bet.decks == yaml.safe_load(raw).get("decks", {"baccarat": 8, "blackjack": 6}[game])
    assert bet.origin == "built-in"
    assert bet.sha256 == hashlib.sha256(raw).hexdigest()
    # The same bytes given as a file read the same, but for where they came from.
    assert replace(parse(raw, "copy.yaml"), origin="built-in") == bet
    for outcome in bet.outcomes:
        assert outcome.conditions and outcome.line is not None
        assert all(condition.line is not None for condition in outcome.conditions)


def test_player_pair_normal_form():
    bet = load("player_pair")
    assert (bet.title, bet.game, bet.decks) == ("Player Pair", "baccarat", 8)
    assert bet.description.startswith("The Player's first two cards are the same rank")
    assert bet.source == ""
    (pair,) = bet.outcomes
    assert (pair.name, pair.pays, pair.pays_text, pair.line) == ("Pair", 11, "11 to 1", 7)
    assert pair.conditions == (Condition("same_rank", cards=("player_1", "player_2"), line=9),)


def test_small_and_big_single_values_become_one_element_tuples_and_054_is_exact():
    (small,) = load("small").outcomes
    assert small.conditions == (Condition("cards_dealt", values=(4,), line=9),)
    assert small.pays == Fraction(3, 2) and small.pays_text == "3 to 2"
    (big,) = load("big").outcomes
    assert big.conditions == (Condition("cards_dealt", values=(5, 6), line=9),)
    assert big.pays == Fraction(27, 50) and big.pays_text == "0.54 to 1"


def test_lucky_6_and_dragon_7_hand_mappings_become_one_condition_per_hand():
    two, three = load("lucky_6").outcomes
    assert [bare(c) for c in two.conditions] == [
        cond("winner", values=["banker"]),
        cond("total", hands=["banker"], values=[6]),
        cond("hand_cards", hands=["banker"], values=[2]),
    ]
    assert [c.line for c in two.conditions] == [9, 10, 11]
    assert (two.pays, three.pays) == (12, 20)
    assert [bare(c) for c in three.conditions][2] == cond(
        "hand_cards", hands=["banker"], values=[3]
    )
    (dragon,) = load("dragon_7").outcomes
    assert dragon.pays == 40
    assert dragon.conditions[1] == Condition("total", hands=("banker",), values=(7,), line=12)
    (panda,) = load("panda_8").outcomes
    assert [bare(c) for c in panda.conditions] == [
        cond("winner", values=["player"]),
        cond("total", hands=["player"], values=[8]),
        cond("hand_cards", hands=["player"], values=[3]),
    ]
    assert panda.pays == 25


def test_dragon_bonus_player_normal_form():
    bet = load("dragon_bonus_player")
    assert bet.title == "Dragon Bonus (Player)"
    natural, tie, *margins = bet.outcomes
    assert [bare(c) for c in natural.conditions] == [
        cond("winner", values=["player"]),
        cond("natural", values=["player"]),
    ]
    assert natural.pays == 1
    assert [bare(c) for c in tie.conditions] == [
        cond("winner", values=["tie"]),
        cond("natural", values=["player"]),
    ]
    assert (tie.pays, tie.pays_text) == (0, "push")
    # By 9: 30, by 8: 10, by 7: 6, by 6: 4, by 5: 2, by 4: 1 to 1 (issue 29).
    assert [(o.conditions[1].values, o.pays) for o in margins] == [
        ((9,), 30), ((8,), 10), ((7,), 6), ((6,), 4), ((5,), 2), ((4,), 1)
    ]  # fmt: skip
    assert all(o.conditions[0] == replace(o.conditions[0], kind="winner") for o in margins)


def test_lucky_ladies_rank_and_suit_mappings_of_two_cards_become_two_conditions():
    queens_bj, queens, matched, suited, other = load("lucky_ladies").outcomes
    assert [bare(c) for c in queens_bj.conditions] == [
        cond("rank", cards=["player_1"], values=["Q"]),
        cond("rank", cards=["player_2"], values=["Q"]),
        cond("suit", cards=["player_1"], values=["hearts"]),
        cond("suit", cards=["player_2"], values=["hearts"]),
        cond("natural", values=["dealer"]),
    ]
    assert [c.line for c in queens_bj.conditions] == [9, 9, 10, 10, 11]
    assert [bare(c) for c in queens.conditions] == [bare(c) for c in queens_bj.conditions][:4]
    assert [bare(c) for c in matched.conditions] == [
        cond("total", hands=["player"], values=[20]),
        cond("same_card", cards=["player_1", "player_2"]),
    ]
    assert [bare(c) for c in suited.conditions][1] == cond(
        "same_suit", cards=["player_1", "player_2"]
    )
    assert [bare(c) for c in other.conditions] == [cond("total", hands=["player"], values=[20])]
    assert [o.pays for o in (queens_bj, queens, matched, suited, other)] == [1000, 200, 25, 10, 4]


def test_perfect_pairs_and_twenty_one_plus_three_normal_forms():
    same_suit, same_colour, mixed = load("perfect_pairs").outcomes
    pair = cond("same_rank", cards=["player_1", "player_2"])
    assert [bare(c) for c in same_suit.conditions] == [
        pair,
        cond("same_suit", cards=["player_1", "player_2"]),
    ]
    assert [bare(c) for c in same_colour.conditions][1] == cond(
        "same_colour", cards=["player_1", "player_2"]
    )
    assert [bare(c) for c in mixed.conditions] == [pair]
    assert [o.pays for o in (same_suit, same_colour, mixed)] == [25, 12, 6]
    bet = load("twenty_one_plus_three")
    assert bet.title == "21+3"
    classes = ["suited_three_of_a_kind", "straight_flush", "three_of_a_kind", "straight", "flush"]
    three = ("player_1", "player_2", "dealer_up")
    assert [o.conditions for o in bet.outcomes] == [
        (Condition("poker_hand", cards=three, values=(name,), line=11 + 4 * i),)
        for i, name in enumerate(classes)
    ]
    assert [o.pays for o in bet.outcomes] == [100, 40, 30, 10, 5]


# ---------------------------------------------------------------------------------------
# A user's file: what is read, and how
# ---------------------------------------------------------------------------------------

#: A baccarat definition; its lines: 1 bet .. 7 outcomes, 8 "- name: Pair", 9 when,
#: 10 same_rank, 11 pays, 12 "- name: Natural win", 13 when, 14 winner, 15 natural, 16 pays.
BACCARAT = """\
bet: my_bet
title: My Bet
game: baccarat
decks: 8
description: A test bet.
source: Hand-written.
outcomes:
  - name: Pair
    when:
      same_rank: [player_1, player_2]
    pays: 11 to 1
  - name: Natural win
    when:
      winner: player
      natural: [player]
    pays: 1 to 1
"""

#: A blackjack definition; its lines: 1 bet, 2 game, 3 outcomes, 4 "- name", 5 when,
#: 6 same_rank, 7 same_suit, 8 pays.
BLACKJACK = """\
bet: my_bj
game: blackjack
outcomes:
  - name: Suited pair
    when:
      same_rank: [player_1, player_2]
      same_suit: [player_1, player_2]
    pays: 25 to 1
"""


def baccarat(old: str, new: str) -> str:
    assert old in BACCARAT, old
    return BACCARAT.replace(old, new, 1)


def blackjack(old: str, new: str) -> str:
    assert old in BLACKJACK, old
    return BLACKJACK.replace(old, new, 1)


def with_condition(text: str, game: str = "baccarat") -> str:
    """The baccarat (or blackjack) definition, its first outcome's condition replaced (on
    line 10, or 6 for blackjack)."""
    if game == "baccarat":
        return baccarat("same_rank: [player_1, player_2]", text)
    return blackjack("same_rank: [player_1, player_2]\n      same_suit: [player_1, player_2]", text)


def test_a_users_file_reads_with_its_defaults_and_its_hash():
    bet = read(BACCARAT)
    assert (bet.bet, bet.title, bet.game, bet.decks) == ("my_bet", "My Bet", "baccarat", 8)
    assert (bet.description, bet.source, bet.origin) == ("A test bet.", "Hand-written.", ORIGIN)
    assert bet.sha256 == hashlib.sha256(BACCARAT.encode()).hexdigest()
    assert [o.line for o in bet.outcomes] == [8, 12]
    minimal = read(BLACKJACK)
    assert (minimal.title, minimal.decks, minimal.description, minimal.source) == (
        "my_bj", 6, "", ""
    )  # fmt: skip
    assert read(baccarat("decks: 8", "decks: 1000")).decks == 1000
    assert read(baccarat("decks: 8", "decks: 1")).decks == 1


def test_values_normalise_as_the_dataclasses_say():
    def first(text: str, game: str = "baccarat"):
        return read(with_condition(text, game)).outcomes[0].conditions

    # rank 10 is the text "10" however it is quoted; a mapping of two cards is two conditions.
    assert first("rank: {player_1: 10, banker_1: ['10', A]}") == (
        Condition("rank", cards=("player_1",), values=("10",), line=10),
        Condition("rank", cards=("banker_1",), values=("10", "A"), line=10),
    )
    assert first("natural: none")[0].values == ("none",)
    assert first("natural: any")[0].values == ("any",)
    assert first("natural: [player, banker]")[0].values == ("player", "banker")
    assert first("natural: banker")[0].values == ("banker",)
    assert first("winner: [player, tie]")[0].values == ("player", "tie")
    assert first("margin: 0")[0].values == (0,)
    assert first("hand_cards: {player: [2, 3]}")[0] == Condition(
        "hand_cards", hands=("player",), values=(2, 3), line=10
    )
    assert first("total: {player: [0, 9], banker: 5}") == (
        Condition("total", hands=("player",), values=(0, 9), line=10),
        Condition("total", hands=("banker",), values=(5,), line=10),
    )
    assert first("total: {player: [4, 21], dealer: 12}", "blackjack")[0].values == (4, 21)
    assert first("colour: {dealer_hole: red}", "blackjack")[0] == Condition(
        "colour", cards=("dealer_hole",), values=("red",), line=6
    )
    assert first(
        "poker_hand: {cards: [player_1, player_2, dealer_up], class: [flush, pair]}", "blackjack"
    )[0] == Condition(
        "poker_hand", cards=("player_1", "player_2", "dealer_up"), values=("flush", "pair"), line=6
    )
    assert first("same_colour: [player_1, player_3, banker_3]")[0].cards == (
        "player_1", "player_3", "banker_3"
    )  # fmt: skip


def test_the_largest_bet_the_limits_allow_reads():
    """64 outcomes (the most), each naming every rank of every baccarat card: far under the
    node limit, which is there for hostile files."""
    ranks = "[" + ", ".join(["A", *map(str, range(2, 11)), "J", "Q", "K"]) + "]"
    cards = ", ".join(f"{card}: {ranks}" for card in GAME_CARDS["baccarat"])
    outcomes = "".join(
        f"  - name: Outcome {i}\n    when: {{rank: {{{cards}}}, margin: {i % 10}}}\n"
        f"    pays: {i} to 1\n"
        for i in range(64)
    )
    bet = read(f"bet: big_one\ngame: baccarat\noutcomes:\n{outcomes}")
    assert len(bet.outcomes) == 64
    assert all(len(o.conditions) == 7 for o in bet.outcomes)
    assert bet.outcomes[63].conditions[0].values[-1] == "K"


def test_text_fields_are_stripped_and_a_byte_order_mark_is_dropped():
    bet = read(baccarat("description: A test bet.", "description: >\n  Two\n  lines.\n"))
    assert bet.description == "Two lines."
    with_bom = b"\xef\xbb\xbf" + BACCARAT.encode()
    assert parse(with_bom, ORIGIN).sha256 == hashlib.sha256(with_bom).hexdigest()
    assert read(baccarat("title: My Bet", "title: 'Dragon Bonus (Player) \u2014 \u00e9'")).title


# ---------------------------------------------------------------------------------------
# Refusals: each in one line, FILE:LINE: naming the value and what is allowed
# ---------------------------------------------------------------------------------------

REFUSED = {
    # Integers: plain decimal digits only.
    "decks octal": (baccarat("decks: 8", "decks: 010"), 4, ["'010'", "octal-looking"]),
    "decks 0o": (baccarat("decks: 8", "decks: 0o10"), 4, ["'0o10'", "octal-looking"]),
    "decks hex": (baccarat("decks: 8", "decks: 0x1F"), 4, ["'0x1F'", "hex"]),
    "decks underscore": (baccarat("decks: 8", "decks: 1_000"), 4, ["'1_000'", "underscore"]),
    "decks plus": (baccarat("decks: 8", "decks: +5"), 4, ["'+5'", "sign"]),
    "decks exponent": (baccarat("decks: 8", "decks: 1e3"), 4, ["'1e3'", "exponent"]),
    "decks point": (baccarat("decks: 8", "decks: 8.0"), 4, ["'8.0'", "whole number"]),
    "decks 0": (baccarat("decks: 8", "decks: 0"), 4, ["'0'", "1 to 1000"]),
    "decks 1001": (baccarat("decks: 8", "decks: 1001"), 4, ["'1001'", "1 to 1000"]),
    "decks long": (baccarat("decks: 8", "decks: " + "9" * 5000), 4, ["1 to 1000"]),
    "decks text": (baccarat("decks: 8", "decks: eight"), 4, ["'eight'", "1 to 1000"]),
    "decks list": (baccarat("decks: 8", "decks: [8]"), 4, ["decks", "a list"]),
    # YAML beyond plain data.
    "anchor": (baccarat("bet: my_bet", "bet: &name my_bet"), 1, ["anchors", "&name"]),
    "alias": (BACCARAT + "x: *name\n", 17, ["aliases", "*name"]),
    "python tag": (
        baccarat("title: My Bet", "title: !!python/object:os.system x"),
        2,
        ["tags", "!!python/object:os.system"],
    ),
    "local tag": (baccarat("decks: 8", "decks: !int 8"), 4, ["tags", "!int"]),
    "non-specific tag": (baccarat("decks: 8", "decks: ! 8"), 4, ["tags", "'!'"]),
    "tag on a mapping": (baccarat("    when:\n", "    when: !!map\n"), 9, ["tags", "!!map"]),
    "duplicate top key": (BACCARAT + "bet: other\n", 17, ["'bet'", "twice", "line 1"]),
    "duplicate condition": (
        with_condition("winner: player\n      winner: banker"),
        11,
        ["'winner'", "twice", "line 10"],
    ),
    "duplicate card": (
        with_condition("rank: {player_1: Q, player_1: K}"),
        10,
        ["'player_1'", "twice"],
    ),
    "duplicate outcome field": (
        baccarat("    pays: 11 to 1", "    pays: 11 to 1\n    pays: 12 to 1"),
        12,
        ["'pays'", "twice", "line 11"],
    ),
    "merge key": (BACCARAT + "<<: {decks: 6}\n", 17, ["merge", "<<"]),
    "merge in outcome": (
        baccarat("  - name: Pair\n", "  - name: Pair\n    <<: {pays: 1 to 1}\n"),
        9,
        ["merge"],
    ),
    "two documents": (BACCARAT + "---\nbet: other\n", 17, ["more than one document"]),
    "directive": ("%YAML 1.1\n---\n" + BACCARAT, 1, ["directives"]),
    "syntax": (baccarat("title: My Bet", "title: [My Bet"), 3, ["not valid YAML"]),
    "complex key": (BACCARAT + "? [a, b]\n: c\n", 17, ["key must be a name"]),
    "deep nesting": (BACCARAT + "x: " + "[" * 50 + "]" * 50 + "\n", 17, ["nested deeper"]),
    "too many values": (BACCARAT + "x: [" + "a, " * 50_001 + "]\n", 17, ["more than 50,000"]),
    "control character": (baccarat("title: My Bet", "title: My\x07Bet"), 2, ["U+0007"]),
    "bad escape": (baccarat("title: My Bet", 'title: "\\U0011FFFF"'), 2, ["not valid YAML"]),
    # The file as a whole.
    "not UTF-8": (BACCARAT.encode() + b"title: caf\xe9\n", 17, ["not UTF-8", "0xe9"]),
    "UTF-16": ("\ufeffbet: x\n".encode("utf-16-le"), 1, ["UTF-16"]),
    "top a list": ("- bet: x\n", 1, ["top level", "mapping", "a list"]),
    "top a value": ("just text\n", 1, ["top level", "mapping"]),
    # Fields, at every level.
    "unknown top field": (BACCARAT + "colour: red\n", 17, ["'colour'", "bet, title, game"]),
    "unknown outcome field": (
        baccarat("    pays: 11 to 1", "    pay: 11 to 1"),
        11,
        ["'pay'", "name, when, pays"],
    ),
    "missing outcome field": (baccarat("    pays: 11 to 1\n", ""), 8, ["'pays'", "required"]),
    "missing game": (baccarat("game: baccarat\n", ""), 1, ["'game'", "required: bet, game"]),
    "unknown poker field": (
        with_condition(
            "poker_hand: {cards: [player_1, player_2, dealer_up], class: flush, wild: 2}",
            "blackjack",
        ),
        6,
        ["'wild'", "cards, class"],
    ),
    "unknown condition": (
        with_condition("same_value: [player_1, player_2]"),
        10,
        ["'same_value'", "same_rank", "poker_hand"],
    ),
    # The bet's name, game and text.
    "bet upper case": (baccarat("bet: my_bet", "bet: My_Bet"), 1, ["'My_Bet'", "lower-case"]),
    "bet digit first": (baccarat("bet: my_bet", "bet: 7up"), 1, ["'7up'", "letter"]),
    "bet too long": (baccarat("bet: my_bet", "bet: " + "b" * 65), 1, ["64 characters"]),
    "bet a list": (baccarat("bet: my_bet", "bet: [my_bet]"), 1, ["bet", "a list"]),
    "unknown game": (baccarat("game: baccarat", "game: poker"), 3, ["'poker'", "baccarat"]),
    "title too long": (baccarat("title: My Bet", "title: " + "t" * 121), 2, ["121", "120"]),
    "title empty": (baccarat("title: My Bet", "title: ''"), 2, ["title", "empty"]),
    "description too long": (
        baccarat("description: A test bet.", "description: " + "d" * 2001),
        5,
        ["2,001", "2,000"],
    ),
    "source tab": (baccarat("source: Hand-written.", 'source: "a\\tb"'), 6, ["'\\t'"]),
    "description line break": (
        baccarat("description: A test bet.", "description: |\n  one\n  two"),
        5,
        ["'\\n'"],
    ),
    "title bidi override": (
        baccarat("title: My Bet", "title: My \u202eteB"),
        2,
        ["U+202E"],
    ),
    # Outcomes.
    "outcomes empty": (
        "bet: x\ngame: baccarat\noutcomes: []\n",
        3,
        ["outcomes", "empty", "at least one"],
    ),
    "outcomes a mapping": (
        "bet: x\ngame: baccarat\noutcomes: {name: x}\n",
        3,
        ["outcomes must be a list"],
    ),
    "outcomes too many": (
        "bet: x\ngame: baccarat\noutcomes:\n"
        + "".join(f"  - {{name: o{i}, when: {{margin: 1}}, pays: 1 to 1}}\n" for i in range(65)),
        68,
        ["65", "64"],
    ),
    "outcome a value": ("bet: x\ngame: baccarat\noutcomes: [x]\n", 3, ["an outcome", "mapping"]),
    "outcome name twice": (
        baccarat("name: Natural win", "name: PAIR"),
        12,
        ["'PAIR'", "twice", "line 8"],
    ),
    "outcome name Loses": (baccarat("name: Pair", "name: Loses"), 8, ["'Loses'", "reserved"]),
    "outcome name Total": (baccarat("name: Pair", "name: Total"), 8, ["'Total'", "total line"]),
    "outcome name TOTAL": (baccarat("name: Pair", "name: TOTAL"), 8, ["'TOTAL'", "total line"]),
    "outcome name empty": (baccarat("name: Pair", "name: ''"), 8, ["outcome name", "empty"]),
    "outcome name too long": (baccarat("name: Pair", "name: " + "n" * 81), 8, ["81", "80"]),
    "when empty": (
        with_condition("{}").replace("    when:\n      {}", "    when: {}"),
        9,
        ["when"],
    ),
    "when a list": (
        baccarat("    when:\n      same_rank: [player_1, player_2]", "    when: [same_rank]"),
        9,
        ["when", "non-empty mapping"],
    ),
    # Cards, hands and conditions the game does not have.
    "card not dealt in blackjack": (
        blackjack("same_rank: [player_1, player_2]", "same_rank: [player_1, player_3]"),
        6,
        ["'player_3'", "blackjack", "player_1, player_2, dealer_up, dealer_hole"],
    ),
    "card not dealt in baccarat": (
        with_condition("suit: {dealer_up: hearts}"),
        10,
        ["'dealer_up'", "baccarat", "player_1, banker_1"],
    ),
    "hand not in baccarat": (
        with_condition("total: {dealer: 5}"),
        10,
        ["'dealer'", "baccarat", "player, banker"],
    ),
    "hand not in blackjack": (
        with_condition("natural: [banker]", "blackjack"),
        6,
        ["'banker'", "player, dealer"],
    ),
    "winner in blackjack": (
        with_condition("winner: player", "blackjack"),
        6,
        ["'winner'", "baccarat only", "blackjack's conditions"],
    ),
    "margin in blackjack": (with_condition("margin: 4", "blackjack"), 6, ["'margin'"]),
    "cards_dealt in blackjack": (with_condition("cards_dealt: 4", "blackjack"), 6, ["baccarat"]),
    "hand_cards in blackjack": (
        with_condition("hand_cards: {player: 2}", "blackjack"),
        6,
        ["'hand_cards'", "baccarat only"],
    ),
    # Values outside their lists and ranges.
    "baccarat total 10": (with_condition("total: {player: 10}"), 10, ["'10'", "0 to 9"]),
    "blackjack total 3": (with_condition("total: {player: 3}", "blackjack"), 6, ["4 to 21"]),
    "blackjack total 22": (with_condition("total: {dealer: 22}", "blackjack"), 6, ["'22'"]),
    "total octal": (with_condition("total: {player: 07}"), 10, ["'07'", "octal-looking"]),
    "margin 10": (with_condition("margin: [9, 10]"), 10, ["'10'", "0 to 9"]),
    "cards_dealt 3": (with_condition("cards_dealt: 3"), 10, ["'3'", "4 to 6"]),
    "cards_dealt 7": (with_condition("cards_dealt: [4, 7]"), 10, ["'7'", "4 to 6"]),
    "hand_cards 1": (with_condition("hand_cards: {banker: 1}"), 10, ["'1'", "2 to 3"]),
    "hand_cards 4": (with_condition("hand_cards: {banker: 4}"), 10, ["'4'", "2 to 3"]),
    "rank 1": (with_condition("rank: {player_1: 1}"), 10, ["'1'", "A, 2, 3"]),
    "rank lower case": (with_condition("rank: {player_1: [Q, q]}"), 10, ["'q'", "J, Q, K"]),
    "rank T": (with_condition("rank: {player_1: T}"), 10, ["'T'", "10"]),
    "suit": (with_condition("suit: {banker_2: Hearts}"), 10, ["'Hearts'", "hearts"]),
    "colour": (with_condition("colour: {banker_2: green}"), 10, ["'green'", "black, red"]),
    "winner": (with_condition("winner: dragon"), 10, ["'dragon'", "player, banker, tie"]),
    "natural word": (with_condition("natural: some"), 10, ["'some'", "player, banker"]),
    "natural none in a list": (with_condition("natural: [none, player]"), 10, ["none", "alone"]),
    "natural empty": (with_condition("natural: []"), 10, ["natural", "empty"]),
    "poker class": (
        with_condition("poker_hand: {cards: [player_1, banker_1, player_2], class: royal_flush}"),
        10,
        ["'royal_flush'", "straight_flush"],
    ),
    "poker two cards": (
        with_condition("poker_hand: {cards: [player_1, banker_1], class: flush}"),
        10,
        ["exactly three", "got 2"],
    ),
    "poker four cards": (
        with_condition(
            "poker_hand: {cards: [player_1, banker_1, player_2, banker_2], class: flush}"
        ),
        10,
        ["exactly three", "got 4"],
    ),
    "poker card twice": (
        with_condition("poker_hand: {cards: [player_1, banker_1, player_1], class: flush}"),
        10,
        ["'player_1'", "twice"],
    ),
    "poker no class": (
        with_condition("poker_hand: {cards: [player_1, banker_1, player_2]}"),
        10,
        ["'class'", "required"],
    ),
    "same_rank one card": (with_condition("same_rank: player_1"), 10, ["at least two"]),
    "same_suit a card twice": (
        with_condition("same_suit: [banker_1, banker_1]"),
        10,
        ["'banker_1'", "twice"],
    ),
    "same_card empty": (with_condition("same_card: []"), 10, ["same_card", "empty"]),
    "rank empty mapping": (with_condition("rank: {}"), 10, ["rank", "non-empty mapping"]),
    "margin nested list": (with_condition("margin: [[4]]"), 10, ["margin", "a list"]),
    "value twice": (with_condition("margin: [4, 4]"), 10, ["4", "twice"]),
    # Payouts.
    "pays bare number": (baccarat("pays: 11 to 1", "pays: 11"), 11, ["'11'", 'write "11 to 1"']),
    "pays bare decimal": (baccarat("pays: 11 to 1", "pays: 0.5"), 11, ['write "0.5 to 1"']),
    "pays nan": (baccarat("pays: 11 to 1", "pays: nan to 1"), 11, ["'nan'", "not a number"]),
    "pays .nan": (baccarat("pays: 11 to 1", "pays: .nan"), 11, ["'.nan'", "not a number"]),
    "pays inf": (baccarat("pays: 11 to 1", "pays: inf to 1"), 11, ["'inf'", "infinite"]),
    "pays 1 to inf": (baccarat("pays: 11 to 1", "pays: 1 to .inf"), 11, ["infinite"]),
    "pays negative": (baccarat("pays: 11 to 1", "pays: -1 to 1"), 11, ["'-1'", "negative"]),
    "pays negative bare": (baccarat("pays: 11 to 1", "pays: -1"), 11, ["negative"]),
    "pays stake 0": (baccarat("pays: 11 to 1", "pays: 1 to 0"), 11, ["'1 to 0'", "more than 0"]),
    "pays absurd": (
        baccarat("pays: 11 to 1", "pays: 100001 to 1"),
        11,
        ["'100001 to 1'", "100,000"],
    ),
    "pays absurd fraction": (
        baccarat("pays: 11 to 1", "pays: 1 to 0.000001"),
        11,
        ["100,000"],
    ),
    "pays hex": (baccarat("pays: 11 to 1", "pays: 0x1F to 1"), 11, ["'0x1F'", "hex"]),
    "pays octal": (baccarat("pays: 11 to 1", "pays: 010 to 1"), 11, ["'010'", "octal-looking"]),
    "pays exponent": (baccarat("pays: 11 to 1", "pays: 1e3 to 1"), 11, ["exponent"]),
    "pays underscore": (baccarat("pays: 11 to 1", "pays: 1_000 to 1"), 11, ["underscore"]),
    "pays point": (baccarat("pays: 11 to 1", "pays: .5 to 1"), 11, ["'.5'", "0.5"]),
    "pays words": (baccarat("pays: 11 to 1", "pays: eleven to one"), 11, ["'eleven'"]),
    "pays odds": (baccarat("pays: 11 to 1", "pays: 11:1"), 11, ["'11:1'", "N to M"]),
    "pays Push": (baccarat("pays: 11 to 1", "pays: Push"), 11, ["'Push'", "push"]),
    "pays a list": (baccarat("pays: 11 to 1", "pays: [11, 1]"), 11, ["pays", "a list"]),
}


@pytest.mark.parametrize("text, line, fragments", REFUSED.values(), ids=list(REFUSED))
def test_each_mistake_is_refused_in_one_line_naming_the_file_the_line_and_the_value(
    text, line, fragments
):
    message = refusal(text)
    assert message.startswith(f"{ORIGIN}:{line}: "), message
    for fragment in fragments:
        assert fragment in message, (fragment, message)


@pytest.mark.parametrize(
    "data, fragments",
    [
        (b"", ["empty file"]),
        (b"# only a comment\n\n", ["no definition"]),
        (b"x" * (MAX_DEFINITION_BYTES + 1), ["larger than 1,048,576 bytes"]),
    ],
    ids=["empty", "comments only", "over 1 MiB"],
)
def test_a_file_without_a_line_to_name_is_refused_naming_the_file(data, fragments):
    message = refusal(data)
    assert message.startswith(f"{ORIGIN}: "), message
    for fragment in fragments:
        assert fragment in message


def test_a_hostile_file_name_stays_on_one_line():
    message = refusal(b"", "evil\nname.yaml")
    assert message.startswith("evil\\nname.yaml: ")


def _documented_conditions() -> dict[str, list[str]]:
    """Each game's conditions, in order, as docs/side-bets.md's table of conditions lists them."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "side-bets.md").read_text("utf-8")
    rows = re.findall(r"^\| `([a-z_]+):[^|]*\| (both|baccarat|blackjack) \|", text, re.M)
    assert len(rows) >= 14, rows  # the table as issue 29 wrote it, at least
    return {
        game: [name for name, games in rows if games in ("both", game)]
        for game in ("baccarat", "blackjack")
    }


def test_a_misspelt_condition_is_named_with_the_one_meant():
    message = refusal(with_condition("same_siut: [player_1, player_2]"))
    assert message.startswith(
        f"{ORIGIN}:10: unknown condition 'same_siut' (did you mean same_suit?); "
    ), message


@pytest.mark.parametrize("game", ["baccarat", "blackjack"])
def test_two_letters_swapped_in_any_condition_suggest_that_condition(game):
    for name in _documented_conditions()[game]:
        for i in range(len(name) - 1):
            typo = name[:i] + name[i + 1] + name[i] + name[i + 2 :]
            if typo == name:
                continue
            message = refusal(with_condition(f"{typo}: [player_1, player_2]", game))
            assert f"unknown condition '{typo}' (did you mean {name}?); " in message, message


@pytest.mark.parametrize("game", ["baccarat", "blackjack"])
def test_a_condition_like_none_is_refused_with_the_games_conditions(game):
    message = refusal(with_condition("zebra: [player_1, player_2]", game))
    listed = ", ".join(_documented_conditions()[game])
    assert message.endswith(f"unknown condition 'zebra'; {game}'s conditions: {listed}"), message


def _swaps(name: str) -> list[str]:
    """``name`` with each two adjacent characters swapped (those that change it)."""
    typos = (name[:i] + name[i + 1] + name[i] + name[i + 2 :] for i in range(len(name) - 1))
    return [typo for typo in typos if typo != name]


def _poker(extra: str) -> str:
    return f"poker_hand: {{cards: [player_1, banker_1, player_2], class: flush{extra}}}"


#: Each kind of name a definition writes: the names it takes, the file with a name written
#: in it, and the refusal's words before the hint and after it (up to its list's first name).
NAME_KINDS = {
    **{
        f"{game} card": (
            definition.CARDS[game],
            lambda typo, game=game: with_condition(f"rank: {{{typo}: A}}", game),
            "rank: ",
            f" is not a card {game} deals; its cards: {definition.CARDS[game][0]}, ",
        )
        for game in GAMES
    },
    **{
        f"{game} hand": (
            definition.HANDS[game],
            lambda typo, game=game: with_condition(f"total: {{{typo}: 5}}", game),
            "total: ",
            f" is not a {game} hand; its hands: {definition.HANDS[game][0]}, ",
        )
        for game in GAMES
    },
    "natural": (
        ("player", "banker", "none", "any"),
        lambda typo: with_condition(f"natural: {typo}"),
        "natural (a list of baccarat hands, none or any): ",
        " is not a baccarat hand; its hands: player, banker",
    ),
    "definition field": (
        definition.FIELDS,
        lambda typo: BACCARAT + f"{typo}: x\n",
        "unknown field ",
        " in the definition; its fields: bet, title, ",
    ),
    "outcome field": (
        definition.OUTCOME_FIELDS,
        lambda typo: baccarat("    pays: 11 to 1", f"    pays: 11 to 1\n    {typo}: x"),
        "unknown field ",
        " in an outcome; its fields: name, when, pays",
    ),
    "poker_hand field": (
        ("cards", "class"),
        lambda typo: with_condition(_poker(f", {typo}: x")),
        "unknown field ",
        " in poker_hand; its fields: cards, class",
    ),
    "poker class": (
        definition.POKER_CLASSES,
        lambda typo: with_condition(_poker("").replace("flush", typo)),
        "poker_hand class ",
        " is not one of: suited_three_of_a_kind, ",
    ),
    **{
        kind: (
            values,
            lambda typo, kind=kind: with_condition(f"{kind}: {{banker_2: {typo}}}"),
            f"{kind} ",
            f" is not one of: {values[0]}, ",
        )
        for kind, values in definition.CARD_VALUES.items()
    },
    "winner": (
        definition.WINNERS,
        lambda typo: with_condition(f"winner: {typo}"),
        "winner ",
        " is not one of: player, banker, tie",
    ),
    "game": (
        GAMES,
        lambda typo: baccarat("game: baccarat", f"game: {typo}"),
        "game ",
        " is not one of: baccarat, blackjack",
    ),
}


@pytest.mark.parametrize("kind", list(NAME_KINDS))
def test_two_letters_swapped_in_any_name_suggest_that_name_and_a_name_like_none_no_name(kind):
    names, text, before, after = NAME_KINDS[kind]
    assert len(names) >= 2 and all(_swaps(name) for name in names if len(name) > 1)
    for name in names:
        for typo in _swaps(name):
            message = refusal(text(typo))
            assert f"{before}'{typo}' (did you mean {name}?){after}" in message, message
    message = refusal(text("zebra"))
    assert f"{before}'zebra'{after}" in message and "did you mean" not in message, message


@pytest.mark.parametrize(
    "typed, game, meant",
    [
        ("player_l", "baccarat", "player_1"),
        ("player_l", "blackjack", "player_1"),
        ("banker_one", "baccarat", "banker_1"),
        ("Banker_Two", "baccarat", "banker_2"),
        ("player_I", "blackjack", "player_1"),
        ("dealer_hol", "blackjack", "dealer_hole"),
    ],
)
def test_a_card_with_its_number_misspelt_names_that_card(typed, game, meant):
    message = refusal(with_condition(f"rank: {{{typed}: A}}", game))
    assert f"rank: '{typed}' (did you mean {meant}?) is not a card {game} deals; " in message


@pytest.mark.parametrize("typed, game", [("player_4", "baccarat"), ("banker_0", "baccarat")])
def test_a_card_as_near_several_names_none(typed, game):
    # player_4 is one character from each of player_1, player_2 and player_3: none is meant
    # more than another, so the list alone follows.
    message = refusal(with_condition(f"rank: {{{typed}: A}}", game))
    assert f"rank: '{typed}' is not a card {game} deals; its cards: player_1, " in message


def test_two_letters_swapped_in_a_builtins_name_suggest_that_builtin():
    for name in builtin_names():
        for typo in _swaps(name):
            with pytest.raises(GamecoreError) as caught:
                load(typo)
            expected = f"'{typo}' (did you mean {name}?) is neither a built-in side bet ("
            assert str(caught.value).startswith(expected), str(caught.value)
    with pytest.raises(GamecoreError) as caught:
        load("zebra")
    assert str(caught.value).startswith("'zebra' is neither a built-in side bet ("), caught.value


# ---------------------------------------------------------------------------------------
# Payouts, exactly
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "pays, value, text",
    [
        ("11 to 1", Fraction(11), "11 to 1"),
        ("3 to 2", Fraction(3, 2), "3 to 2"),
        ("0.54 to 1", Fraction(27, 50), "0.54 to 1"),
        ("0.1 to 3", Fraction(1, 30), "0.1 to 3"),
        ("12.5 to 0.125", Fraction(100), "12.5 to 0.125"),
        ("0.95 to 1", Fraction(19, 20), "0.95 to 1"),
        ("'6  to   5'", Fraction(6, 5), "6 to 5"),
        ("push", Fraction(0), "push"),
        ("0 to 1", Fraction(0), "0 to 1"),
        ("100000 to 1", Fraction(100_000), "100000 to 1"),
        ("1000 to 0.01", Fraction(100_000), "1000 to 0.01"),
        ("0.333333333333333333333 to 1", Fraction(333333333333333333333, 10**21), None),
    ],
)
def test_pays_are_read_exactly_from_their_decimals(pays, value, text):
    (outcome, _) = read(baccarat("pays: 11 to 1", f"pays: {pays}")).outcomes
    assert outcome.pays == value and isinstance(outcome.pays, Fraction)
    assert outcome.pays_text == (text or pays)


def test_054_is_27_over_50_not_the_binary_float():
    (outcome,) = load("big").outcomes
    assert outcome.pays == Fraction(27, 50)
    assert outcome.pays != Fraction(0.54)  # the float 0.54 is a different fraction


# ---------------------------------------------------------------------------------------
# load: built-in names and paths
# ---------------------------------------------------------------------------------------


def test_load_reads_yaml_and_yml_paths(tmp_path):
    for suffix in (".yaml", ".yml", ".YAML"):
        path = tmp_path / f"bet{suffix}"
        path.write_text(BACCARAT, "utf-8")
        bet = load(str(path))
        assert (bet.bet, bet.origin) == ("my_bet", str(path))
    assert load(tmp_path / "bet.yaml").bet == "my_bet"  # a Path too


def test_load_refuses_a_name_that_is_neither_listing_the_builtins(tmp_path):
    with pytest.raises(GamecoreError) as caught:
        load("dragon_8")
    message = str(caught.value)
    assert "'dragon_8'" in message and ".yaml or .yml" in message
    assert all(name in message for name in BUILTINS)
    (tmp_path / "bet.txt").write_text(BACCARAT)
    with pytest.raises(GamecoreError, match="neither a built-in"):
        load(str(tmp_path / "bet.txt"))


def test_load_names_the_file_and_its_line(tmp_path):
    path = tmp_path / "bet.yaml"
    path.write_text(baccarat("decks: 8", "decks: 0x10"), "utf-8")
    with pytest.raises(GamecoreError) as caught:
        load(str(path))
    assert str(caught.value).startswith(f"{path}:4: decks '0x10' is hex")
    with pytest.raises(GamecoreError, match="not found"):
        load(str(tmp_path / "missing.yaml"))
    (tmp_path / "folder.yaml").mkdir()
    with pytest.raises(GamecoreError, match="not a regular file"):
        load(str(tmp_path / "folder.yaml"))


def test_load_refuses_a_large_file_by_its_size_before_reading_it(tmp_path):
    huge = tmp_path / "huge.yaml"
    with open(huge, "wb") as file:
        file.truncate(10**12)  # a sparse terabyte: reading it would never end
    start = time.monotonic()
    with pytest.raises(GamecoreError) as caught:
        load(str(huge))
    assert time.monotonic() - start < 5
    assert str(caught.value) == (
        f"{huge}: larger than 1,048,576 bytes, its size limit (it is 1,000,000,000,000 bytes)"
    )


def test_a_file_of_exactly_the_limit_is_read_and_one_byte_more_is_not(tmp_path):
    padding = MAX_DEFINITION_BYTES - len(BACCARAT.encode()) - 2
    exact = BACCARAT + "#" + "x" * padding + "\n"
    assert len(exact.encode()) == MAX_DEFINITION_BYTES
    path = tmp_path / "limit.yaml"
    path.write_text(exact, "utf-8")
    assert load(str(path)).bet == "my_bet"
    path.write_text(exact + "\n", "utf-8")
    with pytest.raises(GamecoreError, match="larger than 1,048,576 bytes"):
        load(str(path))


def test_parse_takes_bytes_only():
    with pytest.raises(TypeError):
        parse(BACCARAT, ORIGIN)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------
# Anything at all: read, or refused in one line
# ---------------------------------------------------------------------------------------


def read_or_refused(data: bytes):
    """``parse(data)``, or None when it is refused in one short line naming the file."""
    try:
        bet = parse(data, ORIGIN)
    except GamecoreError as error:
        message = str(error)
        assert "\n" not in message and "\r" not in message, message
        assert len(message) <= MAX_MESSAGE, message
        assert message.startswith(f"{ORIGIN}:"), message
        return None
    # What is read is a checked definition.
    assert bet.game in GAMES and 1 <= bet.decks <= 1000
    assert 1 <= len(bet.outcomes) <= definition.MAX_OUTCOMES
    assert len({o.name.casefold() for o in bet.outcomes}) == len(bet.outcomes)
    for outcome in bet.outcomes:
        assert isinstance(outcome.pays, Fraction) and 0 <= outcome.pays <= 100_000
        assert outcome.conditions
        for condition in outcome.conditions:
            assert definition.CONDITIONS[condition.kind]
            assert set(condition.cards) <= set(definition.CARDS[bet.game])
            assert set(condition.hands) <= set(definition.HANDS[bet.game])
    return bet


#: Scalars YAML reads in other ways than a person might, YAML's riskier parts, and the
#: vocabulary of a definition (so generated files get past the first check).
HOSTILE = [
    "010", "0x1F", "0o17", "1_000", "+5", "1e3", ".5", "-1", ".nan", ".inf", "yes", "~", "",
    "<<", "!!python/object:os.system x", "!tag x", "&a x", "*a", "'010'", '"\\U0011FFFF"',
    '"\\ud800"', "\u202e", "9" * 60, "x" * 3000, "%YAML 1.1", "---", "...", "? x",
]  # fmt: skip
VOCABULARY = [
    *definition.GAMES, *definition.CONDITIONS, *definition.FIELDS, *definition.OUTCOME_FIELDS,
    *definition.CARDS["baccarat"], *definition.CARDS["blackjack"], "player", "banker", "dealer",
    "tie", "none", "any", "Q", "10", "A", "hearts", "red", "flush", "pair", "cards", "class",
    "0", "4", "6", "9", "20", "21", "11 to 1", "0.54 to 1", "push", "my_bet", "x",
]  # fmt: skip
KEYS = [*definition.FIELDS, *definition.OUTCOME_FIELDS, *definition.CONDITIONS, "cards", "class"]

scalars = st.one_of(
    st.sampled_from(VOCABULARY),
    st.sampled_from(HOSTILE),
    st.text(st.characters(exclude_categories=("Cc", "Cs")), max_size=6),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(KEYS) | scalars, inner, max_size=4)
    ),
    max_leaves=16,
)
#: What a condition's value looks like, in its shapes, from the definition's words (so a
#: generated file often gets as far as the checks of one condition).
PLAIN = st.sampled_from(
    [*VOCABULARY, *definition.POKER_CLASSES, *definition.WINNERS, "J", "K", "2", "spades"]
    + [str(number) for number in range(23)]
)
NAMES = st.sampled_from(
    [*definition.CARDS["baccarat"], *definition.CARDS["blackjack"], "player", "banker", "dealer"]
)
plausible = st.one_of(
    PLAIN,
    st.lists(PLAIN | NAMES, min_size=1, max_size=4),
    st.dictionaries(NAMES, PLAIN | st.lists(PLAIN, min_size=1, max_size=3), min_size=1, max_size=3),
    st.fixed_dictionaries(
        {"cards": st.lists(NAMES, min_size=2, max_size=4), "class": PLAIN | st.lists(PLAIN)}
    ),
)


def flow(value) -> str:
    """``value`` in YAML's flow style (its scalars as they are: hostile ones stay so)."""
    if isinstance(value, list):
        return "[" + ", ".join(flow(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {flow(item)}" for key, item in value.items()) + "}"
    return value


def mostly(usual: st.SearchStrategy, other: st.SearchStrategy) -> st.SearchStrategy:
    """``usual`` three times in four (as Hypothesis picks among branches), else ``other``."""
    return st.one_of(usual, usual, usual, other)


@st.composite
def definitions(draw) -> str:
    """A definition-shaped file: its fields mostly as a definition writes them, now and
    then hostile; outcomes of conditions from the vocabulary in their shapes, or anything."""
    game = draw(mostly(st.sampled_from(GAMES), scalars))
    lines = [f"bet: {draw(mostly(st.just('my_bet'), scalars))}", f"game: {game}"]
    for key in draw(st.lists(st.sampled_from(definition.FIELDS[1:-1]) | scalars, max_size=2)):
        lines.append(f"{key}: {flow(draw(mostly(PLAIN, values)))}")
    lines.append("outcomes:")
    for number in range(draw(mostly(st.integers(1, 3), st.just(0)))):
        kinds = st.sampled_from(list(definition.CONDITIONS))
        conditions = draw(
            st.dictionaries(mostly(kinds, scalars), mostly(plausible, values), min_size=1)
        )
        lines.append(f"  - name: {draw(mostly(st.just(f'o{number}'), scalars))}")
        lines.append(f"    when: {flow(conditions)}")
        pays = st.sampled_from(["11 to 1", "0.54 to 1", "push", "3 to 2"])
        lines.append(f"    pays: {draw(mostly(pays, scalars))}")
    return "\n".join(lines) + "\n"


@st.composite
def mutated_builtins(draw) -> bytes:
    """A built-in's file with a few bytes inserted, deleted or replaced."""
    data = bytearray((DEFINITIONS / f"{draw(st.sampled_from(sorted(BUILTINS)))}.yaml").read_bytes())
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        insert = draw(
            st.sampled_from([item.encode("utf-8", "surrogatepass") for item in HOSTILE])
            | st.binary(max_size=4)
        )
        data[at : at + draw(st.integers(0, 6))] = insert
    return bytes(data)


@given(st.binary(max_size=400))
@example(b"\xff\xfe\x00\x00")
@example(b"\x00")
@example(b"a: \x85\n")
def test_random_bytes_are_read_or_refused_in_one_line(data):
    read_or_refused(data)


@given(st.one_of(definitions().map(lambda text: text.encode("utf-8", "surrogatepass"))))
@example(b'bet: "\\U0011FFFF"\n')
@example(b"a: &a [x, x]\nb: &b [*a, *a]\nc: *b\n")
@example(b"bet: x\ngame: baccarat\noutcomes:\n- {name: o, when: {margin: 1}, pays: 1 to 1}\n")
def test_yaml_ish_text_is_read_or_refused_in_one_line(data):
    read_or_refused(data)


@given(mutated_builtins())
def test_mutated_builtins_are_read_or_refused_in_one_line(data):
    read_or_refused(data)


def test_the_example_of_the_hypothesis_test_reads():
    bet = read_or_refused(
        b"bet: x\ngame: baccarat\noutcomes:\n- {name: o, when: {margin: 1}, pays: 1 to 1}\n"
    )
    assert bet is not None and bet.outcomes[0].conditions == (
        Condition("margin", values=(1,), line=4),
    )


# ---------------------------------------------------------------------------------------
# Any valid definition reads into the normal form its parts say
# ---------------------------------------------------------------------------------------

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("clubs", "diamonds", "hearts", "spades")
CLASSES = ("suited_three_of_a_kind", "straight_flush", "three_of_a_kind", "straight", "flush")
CLASSES += ("pair", "high_card")
#: Every condition's values as docs/side-bets.md lists them.
ALLOWED = {
    "rank": RANKS,
    "suit": SUITS,
    "colour": ("black", "red"),
    "winner": ("player", "banker", "tie"),
    "margin": tuple(range(10)),
    "cards_dealt": (4, 5, 6),
    "hand_cards": (2, 3),
    ("total", "baccarat"): tuple(range(10)),
    ("total", "blackjack"): tuple(range(4, 22)),
}
GAME_CARDS = {
    "baccarat": ("player_1", "player_2", "player_3", "banker_1", "banker_2", "banker_3"),
    "blackjack": ("player_1", "player_2", "dealer_up", "dealer_hole"),
}
GAME_HANDS = {"baccarat": ("player", "banker"), "blackjack": ("player", "dealer")}


def written(values: list) -> str:
    """A list of values as a file may write it: one alone, or a flow list."""
    return str(values[0]) if len(values) == 1 else "[" + ", ".join(map(str, values)) + "]"


def some(draw, pool, low=1, high=3) -> list:
    return draw(st.lists(st.sampled_from(pool), min_size=low, max_size=high, unique=True))


@st.composite
def valid_condition(draw, game: str) -> tuple[str, str, list[Condition]]:
    """A condition as written (its name and value) and the conditions it must read as."""
    kinds = ["same_rank", "same_suit", "same_colour", "same_card", "rank", "suit", "colour"]
    kinds += ["total", "natural", "poker_hand"]
    if game == "baccarat":
        kinds += ["winner", "margin", "cards_dealt", "hand_cards"]
    kind = draw(st.sampled_from(kinds))
    cards, hands = GAME_CARDS[game], GAME_HANDS[game]
    if kind.startswith("same_"):
        chosen = some(draw, cards, 2, len(cards))
        return kind, written(chosen), [cond(kind, cards=chosen)]
    if kind in ("rank", "suit", "colour", "total", "hand_cards"):
        by_card = kind in ("rank", "suit", "colour")
        keys = some(draw, cards if by_card else hands, 1, 2)
        pool = ALLOWED[(kind, game)] if kind == "total" else ALLOWED[kind]
        chosen = {key: some(draw, pool) for key in keys}
        text = "{" + ", ".join(f"{key}: {written(vals)}" for key, vals in chosen.items()) + "}"
        where = "cards" if by_card else "hands"
        return kind, text, [cond(kind, **{where: [k]}, values=v) for k, v in chosen.items()]
    if kind == "natural":
        chosen = draw(st.sampled_from([["none"], ["any"]]) | st.just(some(draw, hands, 1, 2)))
        return kind, written(chosen), [cond(kind, values=chosen)]
    if kind == "poker_hand":
        three, classes = some(draw, cards, 3, 3), some(draw, CLASSES)
        text = f"{{cards: [{', '.join(three)}], class: {written(classes)}}}"
        return kind, text, [cond(kind, cards=three, values=classes)]
    chosen = some(draw, ALLOWED[kind])
    return kind, written(chosen), [cond(kind, values=chosen)]


@st.composite
def valid_definitions(draw) -> tuple[str, dict]:
    """A valid definition's text and what it must read as (its outcomes' names, payouts
    and conditions without their lines)."""
    game = draw(st.sampled_from(GAMES))
    decks = draw(st.none() | st.integers(1, 1000))
    lines = ["bet: my_bet", f"game: {game}"] + ([f"decks: {decks}"] if decks else [])
    lines.append("outcomes:")
    expected = []
    for number in range(draw(st.integers(1, 4))):
        won = draw(st.integers(0, 500))
        stake = draw(st.integers(1, 100))
        point = draw(st.integers(0, 3))  # N written with this many decimal places
        n_text = f"{won / 10**point:.{point}f}" if point else str(won)
        conditions = draw(st.lists(valid_condition(game), min_size=1, max_size=3))
        when = {}
        for kind, text, _ in conditions:
            when.setdefault(kind, text)  # a condition once (a key twice is refused)
        lines += [f"  - name: Outcome {number}", "    when:"]
        lines += [f"      {kind}: {text}" for kind, text in when.items()]
        lines.append(f"    pays: {n_text} to {stake}")
        kept = [c for kind, text, parts in conditions if when.pop(kind, None) for c in parts]
        pays = Fraction(won, 10**point) / stake
        expected.append((f"Outcome {number}", pays, kept))
    return "\n".join(lines) + "\n", {
        "game": game,
        "decks": decks or {"baccarat": 8, "blackjack": 6}[game],
        "outcomes": expected,
    }


@given(valid_definitions())
def test_any_valid_definition_reads_into_the_normal_form_its_parts_say(case):
    text, expected = case
    bet = read(text)
    assert (bet.game, bet.decks) == (expected["game"], expected["decks"])
    got = [(o.name, o.pays, [bare(c) for c in o.conditions]) for o in bet.outcomes]
    assert got == expected["outcomes"]
