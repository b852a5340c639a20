"""The side-bets report, built with small parameters and a user's definition file beside
two built-ins: its par sheets hold the counts derived elsewhere (the EZ Baccarat engine's
Dragon 7, the closed form of a pair), every twin is within four standard errors, and a bad
``side_bets`` value is refused before any notebook runs."""

from __future__ import annotations

import hashlib
import math
from pathlib import Path

import pandas as pd
import pytest
from helpers import assert_twin_table

from gamecore.errors import GamecoreError
from gamecore.reporting.build import build

MY_BET = """\
bet: my_queens
title: Queen of hearts first
game: blackjack
outcomes:
  - name: Queen of hearts
    when:
      rank: {player_1: Q}
      suit: {player_1: hearts}
    pays: 45 to 1
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("side_bets")
    (folder / "my_queens.yaml").write_text(MY_BET, "utf-8")
    small = {
        "side_bets": ["player_pair", "dragon_7", str(folder / "my_queens.yaml"), "bust_it"],
        "baccarat_decks": 1,
        "blackjack_decks": 2,
        "sweep_decks": 1,
        "rounds": 100_000,
        "sweep_rounds": 20_000,
        "table_rounds": 20_000,
        "shoes": 500,
        "hold_sessions": 1_000,
    }
    build(folder / "reports", small, only=["side_bets"])
    return folder / "reports" / "side_bets"


def _combinations(report, bet: str) -> dict[str, int]:
    table = pd.read_csv(report / f"bet_{bet}.csv", dtype={"Combinations": str})
    return {row.Outcome: int(row.Combinations) for row in table.itertuples()}


def test_par_sheets_hold_the_counts_derived_elsewhere(report):
    n = 52
    six = math.perm(n, 6)
    # A pair in the Player's first two cards: 52 x 3 of the first two, any four after.
    assert _combinations(report, "player_pair")["Pair"] == n * 3 * math.perm(n - 2, 4)
    assert _combinations(report, "player_pair")["Total"] == six
    # The EZ Baccarat engine's one-deck Dragon 7 (tests/test_sidebet_exact.py compares the
    # two engines at several deck counts; this is the report carrying it through).
    from gamecore import baccarat

    outcomes = baccarat.exact(baccarat.EZBaccaratRules(decks=1)).outcomes()
    dragon = outcomes[outcomes["Outcome"].str.startswith("Dragon 7")]["Combinations"]
    assert _combinations(report, "dragon_7")["Dragon 7"] == int(dragon.iloc[0])
    # The user's file: the queen of hearts first, 2 of 104 cards; one card is counted.
    assert _combinations(report, "my_queens") == {
        "Queen of hearts": 2,
        "Loses": 102,
        "Total": 104,
    }


def test_every_twin_is_within_four_standard_errors(report):
    for path in sorted(report.glob("cross_check_*.csv")):
        assert_twin_table(path)
    assert_twin_table(report / "hold_monitoring_cross_check.csv")


def test_a_bet_on_the_dealers_final_hand_is_shown_at_a_full_table(report):
    # Only the bet reading the dealer's final hand: the model's exact figures beside the
    # full table's (Moved = simulated - exact), and the dealer's own figures by the bet's rule.
    assert sorted(p.name for p in report.glob("full_table_*.csv")) == ["full_table_bust_it.csv"]
    moved = pd.read_csv(report / "full_table_bust_it.csv")
    difference = moved["Full table (simulated)"] - moved["Model (exact)"]
    assert (moved["Moved"] - difference).abs().max() < 1e-12
    sheet = pd.read_csv(report / "bet_bust_it.csv").set_index("Outcome")
    exact = moved.set_index("Figure")["Model (exact)"]
    for outcome in sheet.index.drop("Total"):
        assert exact[f"P({outcome})"] == pytest.approx(sheet.loc[outcome, "Probability"])
    # Bust It's dealer hits soft 17 (its file's dealer rule): the one rule of the bets shown.
    tables = sorted(p.name for p in report.glob("dealer_at_a_full_table_*.csv"))
    assert tables == ["dealer_at_a_full_table_h17.csv"]
    dealer = pd.read_csv(report / tables[0])
    assert "P(dealer busts)" in set(dealer["Figure"])


def test_summary_definitions_and_documents(report):
    summary = pd.read_csv(report / "summary.csv").set_index("Bet")
    assert summary.loc["my_queens", "House edge"] == pytest.approx(1 - 46 * 2 / 104)
    definitions = pd.read_csv(report / "definitions.csv").set_index("Bet")
    assert list(definitions.columns) == ["Definition file", "SHA-256"]
    builtin = definitions.loc["player_pair", "Definition file"]
    assert builtin == "gamecore/sidebets/definitions/player_pair.yaml, built-in"
    mine = Path(definitions.loc["my_queens", "Definition file"])
    assert mine.name == "my_queens.yaml"
    # The SHA-256 of each file's bytes as read from disk, not as the library kept it.
    root = Path(__file__).resolve().parents[1]
    for bet, path in (("player_pair", root / builtin.split(",")[0]), ("my_queens", mine)):
        assert definitions.loc[bet, "SHA-256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    read = pd.read_csv(report / "definitions_read.csv").set_index("Bet")
    assert read.loc["player_pair", "Definition"] == "built-in"
    assert (report / "side_bets.pdf").is_file() and (report / "side_bets.xlsx").is_file()
    assert (report / "countability_dragon_7.csv").is_file()
    # Every counted bet's verdict in one table, on the par sheet, by the one rule.
    from test_documents import assert_countability_stated

    assert_countability_stated(report)
    verdicts = pd.read_csv(report / "countability.csv")
    assert verdicts["What is counted"].str.startswith("Dragon 7, 1 deck, cut card 14").any()
    # The deck sweep's rows (one deck here) have their twins too.
    sweep_twin = pd.read_csv(report / "cross_check_deck_sweep_dragon_7.csv")
    assert set(sweep_twin["Decks"]) == {1} and "EV, 1 deck" in set(sweep_twin["Figure"])
    assert not (report / "countability_player_pair.csv").exists()  # nothing to count
    # A bet reading suits has every card's own effect of removal. The bet's EV is
    # 46 P(queen of hearts) - 1; removing one of the two queens of hearts of 104 cards takes
    # P from 2/104 to 1/103.
    by_card = pd.read_csv(report / "effects_by_card_my_queens.csv").set_index("Card")
    queen_of_hearts = [name for name in by_card.index if "Q" in name and "hearts" in name]
    effect = by_card.loc[queen_of_hearts[0], "EoR (%)"] / 100
    assert effect == pytest.approx(46 * (1 / 103 - 2 / 104), rel=1e-12)


def test_every_figure_the_index_quotes_is_in_the_pdf_and_the_par_sheet(report):
    from test_documents import assert_key_figures_stated

    assert_key_figures_stated(report)


@pytest.mark.parametrize(
    ("value", "says"),
    [
        (["no_such_bet"], "neither a built-in side bet"),
        (["small", "small"], "listed twice"),
        ([], "non-empty list"),
    ],
)
def test_a_bad_side_bets_value_is_refused_before_any_notebook_runs(tmp_path, value, says):
    with pytest.raises(GamecoreError, match=says):
        build(tmp_path / "reports", {"side_bets": value}, only=["side_bets"])
    assert not (tmp_path / "reports" / "side_bets").exists()
