"""The rule cards shipped in the package are the seeds as received, and the tableau held as
data in gamecore.baccarat is the chart printed on the High Limit Baccarat card."""

import re
from pathlib import Path

import pytest

from gamecore import baccarat, games
from gamecore.reporting.report import rule_card

SHARED_SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
SEED_FILES = {
    "c21_baccarat": "000_6be28a3640f4b84f.txt",
    "punto_banco": "001_d0222442382975fd.txt",
    "ez_baccarat": "002_714c676144488036.txt",
    "c21_blackjack": "004_f6ab6df4520a3e17.txt",
}


@pytest.mark.skipif(not SHARED_SEEDS.exists(), reason="../shared/seeds not beside this checkout")
@pytest.mark.parametrize("game", games.rule_cards())
def test_shipped_rule_card_is_the_seed_unedited(game):
    assert rule_card(game, as_received=True) == (SHARED_SEEDS / SEED_FILES[game]).read_text("utf-8")


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
