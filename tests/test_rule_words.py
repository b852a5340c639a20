"""Every rule of every registered game states its value in words (issue 41, item 5): odds
as "6 to 5", commissions as "5%", decks as "8 decks", options by their meaning, an auto value
as what it resolves to; the rule table keeps the value as ``--rule NAME=VALUE`` takes it."""

from __future__ import annotations

import dataclasses
import re
from decimal import Decimal
from fractions import Fraction

import pytest
from helpers import run_gamecore_here

from gamecore import games
from gamecore.blackjack import C21BlackjackRules
from gamecore.errors import GamecoreError
from gamecore.rules import IN_WORDS, allowed, choice, rule

RULE_SETS = [games.game(name).rules_type for name in games.NAMES]
IDS = list(games.NAMES)

#: Values tried for each kind of rule, beside its default and the bounds its check states.
PAYOUTS = [0, 0.5, 0.95, 1, 1.2, 1.5, 2, 7.5, 8, 11, 40, 1.2345, 1_000_000]
COMMISSIONS = [0, 0.01, 0.045, 0.05, 0.1, 0.999]


def _parse_odds(words: str) -> Fraction:
    """"N to M" (thousands separators, a decimal N) as the exact ratio it states."""
    match = re.fullmatch(r"([\d,]+(?:\.\d+)?) to ([\d,]+)", words)
    assert match, words
    return Fraction(Decimal(match[1].replace(",", ""))) / int(match[2].replace(",", ""))


def _as_typed(value) -> Fraction:
    """A payout's exact value as a person typed it (0.05 is 1/20)."""
    return Fraction(Decimal(str(value)))


def _candidates(field: dataclasses.Field) -> list:
    """Values a rule's check says it accepts: every option of a choice, both switches, a
    range's ends and its default, payouts and commissions of every shape."""
    text = allowed(field.metadata["check"])
    values = [field.default]
    if text.startswith("one of "):
        values += text.removeprefix("one of ").split(", ")
    elif text.startswith("true or false"):
        values += [True, False]
    elif text.startswith("a payout"):
        values += PAYOUTS
    elif text.startswith("a fraction"):
        values += COMMISSIONS
    elif integers := re.match(r"an integer from (\d+) to (\d+)", text):
        low, high = int(integers[1]), int(integers[2])
        values += sorted({low, low + 1, high - 1, high})
    elif text.startswith("a number from 0"):
        values += [0, 0.5, 1, 10, 1000]
    return values


def _worded(rules_type) -> list[tuple[str, object, str]]:
    """(rule, value, words) for every value of :func:`_candidates` a rule set accepts (a
    value another rule's bound refuses, must_draw_max 8 beside must_stand_min 7, is skipped)."""
    seen = []
    for field in dataclasses.fields(rules_type):
        for value in _candidates(field):
            try:
                rules = rules_type().replace(**{field.name: value})
            except GamecoreError:
                continue
            seen.append((field.name, value, rules.in_words()[field.name]))
    return seen


@pytest.mark.parametrize("rules_type", RULE_SETS, ids=IDS)
def test_every_rule_has_words_for_its_default_and_every_value_it_allows(rules_type):
    defaults = rules_type().in_words()
    assert list(defaults) == rules_type.parameter_names()
    assert all(isinstance(w, str) and w.strip() for w in defaults.values()), defaults
    worded = _worded(rules_type)
    for field in dataclasses.fields(rules_type):
        text = allowed(field.metadata["check"])
        tried = {value for name, value, _ in worded if name == field.name}
        if text.startswith("one of "):  # every option, not only the default
            assert tried == set(text.removeprefix("one of ").split(", ")), field.name
        if text.startswith("true or false"):
            assert tried == {True, False}, field.name
    # Two values of one rule never read the same (1 and 1.0 are one value).
    for name in rules_type.parameter_names():
        words = [w for n, _, w in worded if n == name]
        values = {v if v is None or isinstance(v, str | bool) else _as_typed(v)
                  for n, v, _ in worded if n == name}  # fmt: skip
        assert len(set(words)) == len(values), name


@pytest.mark.parametrize("rules_type", RULE_SETS, ids=IDS)
def test_no_words_hold_a_code_name_or_a_python_literal(rules_type):
    for name, value, words in _worded(rules_type):
        assert "_" not in words, (name, value, words)
        assert not re.search(r"\b(True|False|None|nan|inf)\b", words), (name, value, words)


@pytest.mark.parametrize("rules_type", RULE_SETS, ids=IDS)
def test_odds_and_percentages_read_back_to_the_value(rules_type):
    checks = {f.name: f.metadata["check"] for f in dataclasses.fields(rules_type)}
    checked = 0
    for name, value, words in _worded(rules_type):
        text = allowed(checks[name])
        if value is None:  # auto: the words of what it resolves to, then why
            words = words.partition(" (set by ")[0]
            value = getattr(rules_type().resolved(), name)
        if text.startswith("a payout"):
            assert _parse_odds(words) == _as_typed(value), (name, value, words)
            checked += 1
        elif text.startswith("a fraction"):
            assert words.endswith("%")
            assert Decimal(words[:-1]) / 100 == Decimal(str(value)), (name, value, words)
            checked += 1
        elif text.startswith("an integer from 1 to 1000"):  # a deck count
            assert words == (f"{value} deck" if value == 1 else f"{value:,} decks")
    assert checked or rules_type.game in ("c21_baccarat",)


def test_the_odds_a_card_prints():
    cases = {1.2: "6 to 5", 1.5: "3 to 2", 8: "8 to 1", 1: "1 to 1", 0.95: "19 to 20"}
    for value, words in cases.items():
        assert C21BlackjackRules(natural_pays=value).in_words()["natural_pays"] == words


def test_an_auto_value_reads_as_what_the_deck_count_sets():
    for decks, pays, hands in ((6, "6 to 5", "4 hands"), (2, "1 to 1", "2 hands")):
        rules = C21BlackjackRules(decks=decks)
        words = rules.in_words()
        assert words["natural_pays"] == f"{pays} (set by the deck count: {decks} decks)"
        assert words["max_split_hands"] == f"{hands} (set by the deck count: {decks} decks)"
        # The words' odds are the value the rules resolve to (what the engine plays).
        assert _parse_odds(pays) == _as_typed(rules.resolved().natural_pays)
        assert int(hands.split()[0]) == rules.resolved().max_split_hands


@pytest.mark.parametrize("rules_type", RULE_SETS, ids=IDS)
def test_the_table_keeps_the_value_as_typed_beside_its_words(rules_type):
    for rules in (rules_type(), rules_type(decks=2)):
        frame = rules.to_frame()
        assert frame.columns.tolist() == ["Parameter", "Value", IN_WORDS, "Default", "Meaning"]
        assert dict(zip(frame["Parameter"], frame[IN_WORDS], strict=True)) == rules.in_words()
        # The Value column is what --rule NAME=VALUE takes: read back, the same rule set.
        typed = dict(zip(frame["Parameter"], frame["Value"], strict=True))
        assert rules_type.from_strings(typed) == rules
        assert "None" not in frame["Value"].tolist() + frame["Default"].tolist()


def test_an_auto_value_is_typed_auto():
    frame = C21BlackjackRules().to_frame().set_index("Parameter")
    assert frame.loc["natural_pays", "Value"] == frame.loc["natural_pays", "Default"] == "auto"
    assert frame.loc["natural_pays", IN_WORDS] == "6 to 5 (set by the deck count: 6 decks)"


@pytest.mark.parametrize("rules_type", RULE_SETS, ids=IDS)
def test_p_d_is_spelt_out_at_its_first_use(rules_type):
    meanings = [f.metadata["description"] for f in dataclasses.fields(rules_type)]
    words = list(rules_type().in_words().values())
    for texts in (meanings, words):
        joined = " | ".join(texts)
        if "P/D" in joined:
            first = joined.index("P/D")
            assert joined[: first + 4].endswith("player/dealer (P/D)"), joined[: first + 4]


def test_a_rule_cannot_be_declared_without_words():
    with pytest.raises(TypeError, match="needs words"):
        rule("a", "an option", choice("a", "b"))
    field = rule("a", "an option", choice({"a": "the first", "b": "the second"}))
    assert field.metadata["check"].words == {"a": "the first", "b": "the second"}


def test_gamecore_rules_prints_the_words(monkeypatch):
    monkeypatch.setenv("COLUMNS", "250")
    result = run_gamecore_here("rules", "c21_blackjack")
    assert result.returncode == 0, result.stderr
    assert IN_WORDS in result.stdout.splitlines()[1]
    assert "6 to 5 (set by the deck count: 6 decks)" in result.stdout
    assert "a three-card 23, 24 or 25 pushes" in result.stdout
