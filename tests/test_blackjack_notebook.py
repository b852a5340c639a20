"""The New 21st Century Blackjack report, built with small parameters: its tables exist,
agree with the library, and its simulated twin is within four standard errors."""

import os
import subprocess
import sys

import pandas as pd
import pytest
from helpers import assert_twin_table, pdf_pages

from gamecore import blackjack, strictjson, twins
from gamecore.errors import GamecoreError
from gamecore.reporting.build import build
from gamecore.twins import z_threshold

CHART = blackjack.CHART_DIR / "c21_2_decks.csv"
#: Every rule is a report parameter: the report is built for a variant of the card's rules.
VARIANT = {"bust_push": "none", "surrender": "none"}
RULES = blackjack.C21BlackjackRules(decks=2, **VARIANT)
SMALL = {
    **VARIANT,
    "decks": 2,
    # Relative to where the build is started: the notebook runs in its report's folder.
    "chart_file": os.path.relpath(CHART),
    "rounds": 300_000,
    "sweep_deck_counts": [2],
    "rule_costs": True,
    "search_chart": True,
    "max_players": 3,
}


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    output = tmp_path_factory.mktemp("reports")
    build(output, SMALL, only=["c21_blackjack"])
    return output / "c21_blackjack"


def test_every_json_file_of_the_report_is_strict(report):
    for path in [*report.rglob("*.json"), *report.rglob("*.ipynb")]:
        strictjson.loads(path.read_text("utf-8"))  # NaN and Infinity are refused


def test_report_files(report):
    for name in (
        "c21_blackjack.ipynb",
        "c21_blackjack.html",
        "summary.csv",
        "rules.csv",
        "strategy_chart.csv",
        "strategy_chart.png",
        "strategy_chart_margin.png",
        "strategy_chart_ev.csv",
        "rule_costs.csv",
        "deck_sweep.csv",
        "dealer_final_distribution.csv",
        "cross_check.csv",
        "result_distribution.csv",
        "result_distribution_cross_check.csv",
        "result_statistics.csv",
        "cross_check_optimal.csv",
        "result_distribution_optimal.csv",
        "result_distribution_optimal_cross_check.csv",
        "dealer_cross_check.csv",
        "strategy_chart_cross_check.csv",
        "strategy_chart_letters_cross_check.csv",
        "insurance_cross_check.csv",
        "rule_costs_cross_check.csv",
        "deck_sweep_cross_check.csv",
        "chart_search_changes.csv",
        "composition_exceptions.csv",
        "table_economics.csv",
        "table_bank.csv",
        "table_seats.csv",
        "table_pd.csv",
        "table_covariances.csv",
        "table_cross_check.csv",
        "table_dealing.csv",
        "table_pd_shoe.csv",
        "table_coverage.csv",
        "table_ruin.csv",
        "table_rotation.csv",
        "provenance.csv",
    ):
        assert (report / name).is_file(), name
    assert "blackjack.exact(" not in (report / "c21_blackjack.html").read_text()


def test_report_figures_agree_with_the_library(report):
    analysis = blackjack.exact(RULES)
    summary = pd.read_csv(report / "summary.csv").set_index("Figure")["EV"]
    assert summary.iloc[0] == pytest.approx(analysis.player_ev, abs=1e-15)
    sweep = pd.read_csv(report / "deck_sweep.csv")
    assert sweep["Natural pays"].tolist() == [1.0]  # double deck: even money
    strategies = ("cross_check.csv", "cross_check_given_chart.csv", "cross_check_optimal.csv")
    for name in (*strategies, "cross_check_derived_chart.csv"):  # 2 decks: the search changed it
        check = pd.read_csv(report / name)
        assert len(check) == 11, name  # overall and each up card
        assert check["z"].abs().max() <= z_threshold(len(check)), name
    for path in sorted(report.glob("*cross_check*.csv")):
        assert_twin_table(path)
    optimal = pd.read_csv(report / "cross_check_optimal.csv")
    assert optimal["Exact"].iloc[0] == pytest.approx(analysis.player_ev, abs=1e-15)
    check = pd.read_csv(report / "result_distribution_optimal_cross_check.csv")
    assert twins.ruled(check).abs().max() <= z_threshold(len(twins.ruled(check)))
    summary_chart = summary["Player EV, best total-dependent chart found"]
    assert summary_chart == pytest.approx(analysis.chart_ev, abs=1e-15)
    distribution = pd.read_csv(report / "result_distribution.csv")
    assert distribution["Probability"].sum() == pytest.approx(1.0, abs=1e-12)
    units = distribution["Net result"]
    assert (units * distribution["Probability"]).sum() == pytest.approx(
        analysis.chart_ev, abs=1e-12
    )
    check = pd.read_csv(report / "result_distribution_cross_check.csv")
    assert twins.ruled(check).abs().max() <= z_threshold(len(twins.ruled(check)))
    resplit = check[check[twins.APPROXIMATE]]
    assert len(resplit) == len(check) // 2
    assert (resplit["Exact"] == 0).all()  # double deck: one split, two hands


def test_report_chart_csv_reads_back_as_the_analysis_chart(report):
    chart = blackjack.read_strategy_chart(report / "strategy_chart.csv")
    analysis = blackjack.exact(RULES)
    assert chart.cells == analysis.chart.cells


def test_hold_monitoring_and_the_dealing_reading(report):
    holds = pd.read_csv(report / "hold_monitoring.csv")
    assert holds["Wager"].str.contains("chart").any()
    assert holds["Wager"].str.contains("optimal").any()
    # The expected hold is the exact edge of the result distribution the report shows.
    distribution = pd.read_csv(report / "result_distribution.csv")
    edge = -(distribution["Net result"] * distribution["Probability"]).sum()
    chart_rows = holds[holds["Wager"].str.contains("chart")]
    assert chart_rows["Expected hold"].tolist() == pytest.approx([edge] * 4, abs=1e-12)
    # ... and the hit frequency the chance of a net win in that distribution.
    wins = distribution.loc[distribution["Net result"] > 0, "Probability"].sum()
    hits = chart_rows["Hit frequency (net result > 0)"]
    assert hits.tolist() == pytest.approx([wins] * 4, abs=1e-12)
    assert_twin_table(report / "hold_monitoring_cross_check.csv")
    dealing = pd.read_csv(report / "dealing.csv").set_index("Parameter")
    # A quarter of 2 decks is 26 cards, fewer than a round can take: with two hands (double
    # deck) the bound is 20 * 2 + 16 = 56 points of the smallest cards (8 aces, 8 twos, 8
    # threes and 2 fours: 26 cards) plus a last card per hand and the dealer's: 29.
    assert int(dealing.loc["penetration", "Value"]) == 29


def test_full_table_figures_hold_together(report):
    seats = pd.read_csv(report / "table_seats.csv")
    assert seats["Seat"].tolist() == list(range(1, 8))  # the default: 7 players and the P/D
    pd_figures = pd.read_csv(report / "table_pd.csv").set_index("Figure")["Value"]
    assert pd_figures.iloc[0] == pytest.approx(-seats["Mean"].sum(), abs=1e-12)
    assert pd_figures["P/D SD per round"] > pd_figures.iloc[2]  # seats move together
    rotation = pd.read_csv(report / "table_rotation.csv")
    assert len(rotation) == 8 and rotation["Share of rounds banked"].sum() == pytest.approx(1)
    # Zero-sum among the people before the collection, round by round.
    assert rotation["Result per round (units)"].sum() == pytest.approx(0, abs=1e-9)
    ruin = pd.read_csv(report / "table_ruin.csv")
    assert ruin["P(ruin in a shift)"].is_monotonic_decreasing  # more money, less ruin
    assert pd.read_csv(report / "table_dealing.csv").set_index("Parameter")["Value"]["mode"] == (
        "shoe"
    )


def test_the_variant_report_has_the_command_lines_figures(report):
    """`make reports ONLY=c21_blackjack PARAMS=variant.yaml` with {bust_push: none,
    surrender: none}: the report's key figures are `gamecore exact` of the same rules."""
    command = [sys.executable, "-m", "gamecore", "exact", "c21_blackjack", "--decks", "2"]
    for name, value in VARIANT.items():
        command += ["--rule", f"{name}={value}"]
    data = strictjson.loads(subprocess.run([*command, "--json"], capture_output=True,
                                           text=True, check=True).stdout)  # fmt: skip
    summary = pd.read_csv(report / "summary.csv").set_index("Figure")["EV"]
    assert summary.iloc[0] == pytest.approx(data["player_ev"], abs=1e-15)
    card = blackjack.exact(blackjack.C21BlackjackRules(decks=2), search_chart=False)
    assert abs(data["player_ev"] - card.player_ev) > 1e-3  # the variant is not the card
    rules = pd.read_csv(report / "rules.csv").set_index("Parameter")["Value"]
    assert rules["bust_push"] == "none" and rules["surrender"] == "none"


def test_a_bad_rule_value_fails_before_any_notebook_runs(tmp_path):
    with pytest.raises(GamecoreError, match="report c21_blackjack: surrender must be one of"):
        build(tmp_path / "reports", {"surrender": "sometimes"}, only=["c21_blackjack"])
    assert not (tmp_path / "reports").exists()


def test_the_document_and_its_par_sheet(report):
    sheet = pdf_pages(report / "c21_blackjack_par_sheet.pdf")
    assert len(sheet) <= 2  # the rule set in words, the net results with their bounds
    for k, page in enumerate(sheet, start=1):  # each page says what it belongs to
        assert f"Page {k} of {len(sheet)}" in page and "report c21_blackjack" in page, k
    holds = pd.read_csv(report / "hold_monitoring.csv")
    text = " ".join(" ".join(sheet).split())
    for edge in holds["Expected hold"].unique():
        assert f"{edge:.4%}" in text
    for hit in holds["Hit frequency (net result > 0)"].unique():
        assert f"{hit:.8f}" in text  # a probability: 8 decimals (gamecore.reporting.numbers)
    rules = pd.read_csv(report / "rules.csv", dtype=str, keep_default_na=False)
    words = rules.set_index("Parameter")["In words"]
    for name in ("bust_push", "surrender"):  # the rule set table, in words
        assert f"{name} {words[name]}" in text, name
    # The P/D's edge is the player's EV with its sign turned; the collection of 1 on the
    # report's wager of 10 costs 10% of the bet (the notebook's defaults).
    edges = pd.read_csv(report / "pd_edge.csv")
    assert (edges["P/D edge"] == -edges["Player EV"]).all()
    assert (edges["Collection (house edge on the bet)"] == 0.1).all()
    assert "10.0000%" in text
    for edge in edges["P/D edge"]:
        assert f"{edge:.4%}" in text
    document = pdf_pages(report / "c21_blackjack.pdf")
    assert len(document) > 20
    # In the document the par sheet follows the cover, the contents after its last page.
    assert "Par sheet" in document[1] and "Attestation" in document[len(sheet)]
    assert "Contents" in document[len(sheet) + 1].split("\n")[1], document[len(sheet) + 1][:200]
    for k, page in enumerate(document, start=1):
        assert f"Page {k} of {len(document)}" in page, k


def test_every_figure_the_index_quotes_is_in_the_pdf_and_the_par_sheet(report):
    from test_documents import assert_key_figures_stated

    assert_key_figures_stated(report)


def test_a_chart_given_by_a_relative_path_is_evaluated_and_recorded_whole(report):
    """chart_file relative to where the build starts: the notebook, which runs in its
    report's folder, used to fail to find it; the report records the absolute path."""
    summary = strictjson.loads((report / "summary.json").read_text("utf-8"))
    assert summary["parameters"]["chart_file"] == str(CHART.resolve())
    given = pd.read_csv(report / "cross_check_given_chart.csv")
    assert len(given) > 0
