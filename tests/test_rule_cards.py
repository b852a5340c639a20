"""The rule cards shipped in the package are the seeds as received, but Dragon Tiger's, which
is gamecore's own reading and says so, its pays the rule set's; the tableau held as data in
gamecore.baccarat is the chart printed on the High Limit Baccarat card."""

import hashlib
import re
from fractions import Fraction
from pathlib import Path

import pytest
from helpers import pdf_pages

from gamecore import baccarat, games
from gamecore.dragon_tiger import DragonTigerRules
from gamecore.reporting.report import rule_card

SHARED_SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
SEED_FILES = {
    "c21_baccarat": "000_6be28a3640f4b84f.txt",
    "punto_banco": "001_d0222442382975fd.txt",
    "ez_baccarat": "002_714c676144488036.txt",
    "c21_blackjack": "004_f6ab6df4520a3e17.txt",
}
#: The cards gamecore wrote itself, no card having been received: its reading of the game.
GAMECORE_CARDS = ("dragon_tiger",)


def test_every_card_is_a_seed_or_gamecore_s_own_reading():
    assert sorted(games.rule_cards()) == sorted([*SEED_FILES, *GAMECORE_CARDS])


@pytest.mark.skipif(not SHARED_SEEDS.exists(), reason="../shared/seeds not beside this checkout")
@pytest.mark.parametrize("game", SEED_FILES)
def test_shipped_rule_card_is_the_seed_unedited(game):
    assert rule_card(game, as_received=True) == (SHARED_SEEDS / SEED_FILES[game]).read_text("utf-8")


@pytest.mark.parametrize("game", GAMECORE_CARDS)
def test_gamecore_s_own_card_says_it_is_not_a_casino_s(game):
    head = " ".join(rule_card(game).split("\n\n")[:2])  # the title and the first paragraph
    assert "gamecore's reading" in head
    assert "not received from a casino" in head and "written by gamecore" in head
    assert rule_card(game, as_received=True) == rule_card(game)  # nothing to repair


# --- Dragon Tiger's card and the rule set its math follows ----------------------------------

#: Numbers in words, as the card spells its pays beside their digits.
SPELT = {"one": 1, "eight": 8, "fifty": 50}


def _dragon_tiger_pays() -> dict[str, Fraction]:
    """Each bet's pay as the card states it, "The <bet> pays <words> (N to M)", its words
    and its digits agreeing."""
    text = " ".join(rule_card("dragon_tiger").split())
    stated = re.findall(r"The (Dragon|Tiger|Tie|Suited Tie) pays (\w+) to (\w+) \((\d+) to (\d+)\)",
                        text)  # fmt: skip
    pays = {}
    for bet, won, staked, n, m in stated:
        assert (SPELT[won], SPELT[staked]) == (int(n), int(m)), bet
        pays[bet] = Fraction(int(n), int(m))
    # Every odds the card prints is one of those pays: none stated elsewhere, unchecked.
    assert len(re.findall(r"\d+ to \d+", text)) == len(stated)
    return pays


def test_dragon_tiger_card_states_the_rule_set_s_defaults():
    rules = DragonTigerRules()
    text = " ".join(rule_card("dragon_tiger").split())
    pays = _dragon_tiger_pays()
    assert sorted(pays) == ["Dragon", "Suited Tie", "Tie", "Tiger"]
    assert pays["Tie"] == Fraction(str(rules.tie_pays))
    assert pays["Suited Tie"] == Fraction(str(rules.suited_tie_pays))
    [decks] = re.findall(r"played with \w+ \((\d+)\) standard decks of 52 cards", text)
    assert int(decks) == rules.decks
    # The paytables the engine settles: a win at the card's pay, half lost on a tie.
    lines = {w.name: {line.event: line.pays for line in w.lines} for w in rules.wagers()}
    assert lines["dragon"]["dragon_wins"] == pays["Dragon"]
    assert lines["tiger"]["tiger_wins"] == pays["Tiger"]
    assert "lose half of the wager" in text
    assert lines["dragon"]["tie"] == lines["tiger"]["tie"] == Fraction(-1, 2)
    assert lines["tie"]["tie"] == pays["Tie"]
    assert lines["suited_tie"]["suited_tie"] == pays["Suited Tie"]


def test_dragon_tiger_card_is_hashed_and_quoted_in_its_report(dragon_tiger_reports):
    folder = dragon_tiger_reports / "dragon_tiger"
    received = rule_card("dragon_tiger", as_received=True)
    digest = hashlib.sha256(received.encode("utf-8")).hexdigest()
    for pdf in ("dragon_tiger.pdf", "dragon_tiger_par_sheet.pdf"):
        flat = re.sub(r"\s+", "", "".join(pdf_pages(folder / pdf)))
        assert digest in flat, pdf  # the card's SHA-256, however the line wraps
    document = " ".join(" ".join(pdf_pages(folder / "dragon_tiger.pdf")).split())
    words = " ".join(received.split())
    # The whole card, its words in order (a wrapped line joins the next with a space).
    assert words.replace(" ", "") in document.replace(" ", "")
    assert "gamecore's reading" in document.replace("’", "'")


def _chart_from_card() -> dict[int, list[bool]]:
    """Read the Banker third-card chart straight out of the card's text."""
    text = rule_card("punto_banco")
    chart = text[text.index("Player's\nThird Card") :]
    tokens = re.findall(r"Stand|Yes|\b\d\b", chart)
    assert tokens[:10] == [str(i) for i in range(10)]  # header: Player's third card 0..9
    rows = tokens[10:]
    return {
        int(rows[11 * i]): [mark == "Yes" for mark in rows[11 * i + 1 : 11 * i + 11]]
        for i in range(8)
    }


def test_banker_tableau_is_the_cards_chart():
    chart = _chart_from_card()
    assert sorted(chart) == list(range(8))
    for total, draws in chart.items():
        assert baccarat.BANKER_DRAWS[total].tolist() == draws, f"banker total {total}"


def test_naturals_and_player_rules_from_the_card_text():
    text = rule_card("punto_banco")
    # "If the Player's total is 5 or less, then the Player gets a third card."
    assert "If the Player’s total is 5 or less" in text
    assert baccarat.PLAYER_DRAWS.tolist() == [True] * 6 + [False] * 4
    # "The Banker can get a third card, if the Player stands and the Banker's total is 5 or less."
    assert baccarat.BANKER_DRAWS_PLAYER_STOOD.tolist() == [True] * 6 + [False] * 4
    # Totals 8 and 9 are naturals: "they both must stand" overrides all others.
    assert not baccarat.BANKER_DRAWS[8:].any()


def test_tableau_frame_prints_the_chart():
    frame = baccarat.tableau_frame()
    chart = _chart_from_card()
    for total in range(8):
        row = frame[frame["Banker total"] == total].iloc[0]
        assert [row[str(c)] == "Draw" for c in range(10)] == chart[total]
