"""Rule sets and shoes: validated on construction, clear errors naming the value."""

import dataclasses

import numpy as np
import pytest

from gamecore.baccarat import EZBaccaratRules, PuntoBancoRules
from gamecore.errors import GamecoreError
from gamecore.shoe import baccarat_shoe, validate_decks


@pytest.mark.parametrize("decks", [1, 8, 1000, np.int64(6)])
def test_valid_deck_counts(decks):
    assert validate_decks(decks) == int(decks)
    assert baccarat_shoe(decks).sum() == 52 * int(decks)


@pytest.mark.parametrize("decks", [0, -1, 1001, True, False, 6.0, 6.5, "6", None])
def test_invalid_deck_counts_name_the_value(decks):
    with pytest.raises(GamecoreError, match=r"decks must be an integer from 1 to 1000, got"):
        PuntoBancoRules(decks=decks)
    with pytest.raises(GamecoreError, match=repr(decks).replace("(", r"\(").replace(")", r"\)")):
        validate_decks(decks)


def test_defaults_are_the_rules_md_readings():
    assert PuntoBancoRules().to_dict() == {
        "game": "punto_banco",
        "decks": 8,
        "banker_commission": 0.05,
        "tie_pays": 8,
    }
    assert EZBaccaratRules().to_dict() == {
        "game": "ez_baccarat",
        "decks": 8,
        "tie_pays": 8,
        "dragon7_pays": 40,
        "panda8_pays": 25,
    }


def test_rule_sets_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        PuntoBancoRules().decks = 6


@pytest.mark.parametrize(
    "values, message",
    [
        ({"banker_commission": 1}, "banker_commission must be a fraction in \\[0, 1\\), got 1"),
        ({"banker_commission": -0.01}, "got -0.01"),
        ({"tie_pays": -1}, "tie_pays must be a payout from 0 to 1,000,000 to 1, got -1"),
        ({"tie_pays": float("nan")}, "tie_pays must be a finite number"),
        ({"tie_pays": "8"}, r"tie_pays must be a number \(an int or a float\), got '8'"),
    ],
)
def test_impossible_parameters_are_refused(values, message):
    with pytest.raises(GamecoreError, match=message):
        PuntoBancoRules(**values)


def test_ez_payouts_validated():
    with pytest.raises(GamecoreError, match="dragon7_pays"):
        EZBaccaratRules(dragon7_pays=-40)


def test_unknown_rule_name_lists_the_valid_names():
    with pytest.raises(
        GamecoreError,
        match="unknown rule 'dragon7_pays' for punto_banco; "
        "valid rules: decks, banker_commission, tie_pays",
    ):
        PuntoBancoRules.create(dragon7_pays=40)
    with pytest.raises(GamecoreError, match="unknown rule 'commission'"):
        PuntoBancoRules().replace(commission=0.04)
    with pytest.raises(GamecoreError, match="unknown rule 'deck'"):
        EZBaccaratRules.from_strings({"deck": "6"})


def test_from_strings_parses_by_type():
    rules = PuntoBancoRules.from_strings(
        {"decks": "6", "banker_commission": "0.04", "tie_pays": "9"}
    )
    assert (rules.decks, rules.banker_commission, rules.tie_pays) == (6, 0.04, 9)
    with pytest.raises(GamecoreError, match="decks must be an integer, got '6.5'"):
        PuntoBancoRules.from_strings({"decks": "6.5"})
    with pytest.raises(GamecoreError, match="tie_pays must be a number, got 'eight'"):
        PuntoBancoRules.from_strings({"tie_pays": "eight"})


def test_rule_set_prints_itself():
    frame = EZBaccaratRules(decks=6).to_frame()
    assert frame.columns.tolist() == ["Parameter", "Value", "In words", "Default", "Meaning"]
    assert frame.set_index("Parameter").loc["decks", "Value"] == "6"
    assert frame.set_index("Parameter").loc["decks", "In words"] == "6 decks"
    assert frame.set_index("Parameter").loc["dragon7_pays", "In words"] == "40 to 1"
    assert frame.set_index("Parameter").loc["decks", "Default"] == "8"
    text = str(EZBaccaratRules(decks=6))
    assert text.startswith("EZ Baccarat with Dragon 7 (ez_baccarat)")
    assert "dragon7_pays" in text
