"""The Excel workbook (issue 30): a number format per column (percentages, probabilities to a
fixed number of decimals, integers with thousands separators, never General), integers
exact (text past 15 digits, noted), widths set to the content, the header row frozen,
sheet names readable and unique within 31 characters, the parameters as a two-column
table. Read back with openpyxl from a workbook written from CSVs made here."""

import json

import openpyxl
import pandas as pd
import pytest

from gamecore.reporting import workbook

# 8-deck punto banco's outcomes as published (published_values.EXACT_8_DECKS: casinoexploit.com
# prints "Bank 2,292,252,566,437,888"): Banker's and Player's 16 digits are more than Excel
# shows; the tie's 15 fit.
BANKER = "2292252566437888"
TIE = "475627426473216"
PLAYER = "2230518282592256"


def _csv(folder, name, text):
    (folder / f"{name}.csv").write_text(text)


@pytest.fixture
def book(tmp_path):
    _csv(tmp_path, "bet_banker", "Outcome,Pays,Combinations,Probability,Return\n"
         f"Banker wins,0.95,{BANKER},0.458597422632763,0.43566755150112485\n"
         f"Tie (push),0.0,{TIE},0.0951559680236402,0.0\n"
         f"Player wins,-1.0,{PLAYER},0.44624660934359683,-0.44624660934359683\n")  # fmt: skip
    _csv(tmp_path, "summary", "Bet,House edge,SD,Hit frequency\n"
         "Banker,0.010579057842472012,0.9273720217932128,0.458597422632763\n"
         "Tie,0.14360548796476,2.6411494,0.0951559680236402\n")  # fmt: skip
    _csv(tmp_path, "hold_monitoring", "Wager,Rounds,Expected hold,"
         '"95% band, low (normal approximation)",Mass cut from the convolution\n'
         "Banker,1000,0.01057905784247204,-0.04689899937809505,5.811669496954732e-16\n"
         "Banker,1000000,0.01057905784247204,0.008761298,1.0e-13\n")  # fmt: skip
    _csv(tmp_path, "effects_of_removal", "Card,EoR (%),Correlation of true count with exact EV\n"
         "A,0.0105622,0.6424813064916272\n2,-0.2160003,0.5\n")  # fmt: skip
    _csv(tmp_path, "dealer_final_distribution_after_peek", "Up card,17,bust 22,Cards\n"
         "2,0.12994900709806417,0.15191690955009715,3.0\n"
         "3,0.1249994621219715,0.09873261954253397,4.5\n")  # fmt: skip
    _csv(tmp_path, "rules", "Parameter,Value,Default,Meaning\n"
         "decks,8,8,Standard 52-card decks in the shoe\n"
         "banker_commission,0.05,0.05,Commission on a winning Banker bet\n")  # fmt: skip
    _csv(tmp_path, "result_distribution_optimal_cross_check", "Figure,Exact,Simulated,SE,z\n"
         "P(-1),0.45,0.4512,0.0011,1.0909\n")  # fmt: skip
    _csv(tmp_path, "provenance", 'Item,Value\nparameters,"{""decks"": 8}"\nrandom seed,2026\n'
         "python,3.11.7\nnumpy,2.10\n")  # fmt: skip
    _csv(tmp_path, "countability_twenty_one_plus_three", "Rounds,Gain per shoe\n12,0.5\n")
    _csv(tmp_path, "cross_check_hit_chart_pd_best_response", "Hand,Wager\n9,10.0\n10,12.5\n")
    parameters = {"decks": 8, "rounds": 200_000, "triggers": [0, 4], "peek": True,
                  "natural_pays": None, "burn": "face_value", "seed": 2026}  # fmt: skip
    summary = {"title": "High Limit Baccarat", "parameters": parameters}
    (tmp_path / "summary.json").write_text(json.dumps(summary))
    return openpyxl.load_workbook(workbook.write_workbook(tmp_path, "test"))


def _formats(sheet, column):
    return [sheet.cell(row=r, column=column).number_format for r in range(2, sheet.max_row + 1)
            if isinstance(sheet.cell(row=r, column=column).value, int | float)]  # fmt: skip


def test_each_column_has_its_number_format(book):
    bet = book["bet_banker"]
    assert _formats(bet, 2) == ["#,##0.00"] * 3  # payouts: the decimals the CSV has, 0.95
    assert bet["C3"].value == int(TIE) and bet["C3"].number_format == "#,##0"
    assert _formats(bet, 4) == _formats(bet, 5) == ["0.00000000"] * 3  # probability, return
    summary = book["summary"]
    assert _formats(summary, 2) == ["0.0000%"] * 2  # house edge: 1.0579%
    assert _formats(summary, 3) == ["#,##0.00000"] * 2  # 6 significant digits of 2.64115
    assert _formats(summary, 4) == ["0.00000000"] * 2  # hit frequency
    hold = book["hold_monitoring"]
    assert _formats(hold, 2) == ["#,##0"] * 2  # 1,000,000 rounds
    assert _formats(hold, 3) == _formats(hold, 4) == ["0.0000%"] * 2  # the hold and its band
    assert _formats(hold, 5) == ["0.00E+00"] * 2  # the mass cut: the one scientific column
    effects = book["effects_of_removal"]
    assert _formats(effects, 2) == ["0.0000"] * 2  # already in percentage points
    assert _formats(effects, 3) == ["#,##0.000000"] * 2  # a correlation, though it says EV
    distribution = book["dealer_final_dist_after_peek"]
    assert _formats(distribution, 2) == _formats(distribution, 3) == ["0.00000000"] * 2
    assert _formats(distribution, 4) == ["#,##0.0"] * 2  # not fractions: a plain number
    assert _formats(book["check_hit_chart_pd_best_resp"], 2) == ["#,##0.0"] * 2


def test_no_number_is_left_in_general_format_or_in_scientific_notation(book):
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                if isinstance(cell.value, bool) or not isinstance(cell.value, int | float):
                    continue
                assert cell.number_format != "General", (sheet.title, cell.coordinate)
                if "E+" in cell.number_format:
                    assert sheet.title == "hold_monitoring" and cell.column == 5


def test_integers_past_15_digits_are_exact_text_and_noted(book):
    assert workbook.cell_value(str(10**15 - 1)) == (10**15 - 1, False)
    assert workbook.cell_value(str(10**15)) == ("1,000,000,000,000,000", True)
    assert workbook.cell_value(str(-(2**53) - 1)) == ("-9,007,199,254,740,993", True)
    bet = book["bet_banker"]
    assert bet["C2"].value == "2,292,252,566,437,888" and bet["C4"].value == "2,230,518,282,592,256"
    assert bet["C2"].alignment.horizontal == "right"
    assert "2 exact integer(s) of more than 15 digits are written as text" in bet["A6"].value


def test_every_header_row_is_frozen_and_columns_fit_their_content(book):
    assert all(sheet.freeze_panes == "A2" for sheet in book.worksheets)
    widths = book["bet_banker"].column_dimensions
    assert widths["C"].width == len("2,292,252,566,437,888") + 2
    assert widths["D"].width == len("Probability") + 2  # wider than 0.45859742
    assert widths["B"].width == len("-1.00") + 2  # wider than its header, "Pays"
    hold = book["hold_monitoring"]  # a long header wraps: no wider than 24, on two lines
    assert hold.column_dimensions["D"].width == 24 + 2 and hold.row_dimensions[1].height == 30
    assert hold["D1"].alignment.wrap_text
    front = book["Report"]  # text past 60 characters wraps; nothing is wider
    assert max(d.width for d in front.column_dimensions.values()) <= workbook.MAX_WIDTH


def test_sheet_names_are_whole_words_unique_within_31_characters(book):
    assert book.sheetnames == [
        "Report", "bet_banker", "count_21+3", "check_hit_chart_pd_best_resp",
        "dealer_final_dist_after_peek", "effects_of_removal", "hold_monitoring",
        "provenance", "result_dist_opt_check", "rules", "summary",
    ]  # fmt: skip
    names = workbook.sheet_names(["a" * 40, "a" * 40 + "b", "Report", "bet_" + "x" * 40])
    # One word too long is cut (nothing else can be); of two, the long one to four letters.
    assert list(names.values()) == ["a" * 31, "a" * 29 + "~2", "Report~2", "bet_xxxx"]
    # Every abbreviation, then "rotation" to "rota" (32 characters), then it is dropped.
    long = "c21_blackjack_effects_of_removal_by_procedure_and_seat_rotation"
    assert workbook.abbreviate(long) == "c21_bj_EoR_by_proc_and_seat"


def test_parameters_are_a_two_column_table_not_json(book):
    rows = [tuple(r[:3]) for r in book["Report"].iter_rows(values_only=True)]
    start = rows.index(("Parameters", None, None)) + 1
    assert rows[start][:2] == ("Parameter", "Value") and rows[start][2] is None
    table = dict(r[:2] for r in rows[start + 1 : start + 8])
    assert table == {"decks": 8, "rounds": 200_000, "triggers": "0, 4", "peek": "yes",
                     "natural_pays": "auto", "burn": "face_value", "seed": 2026}  # fmt: skip
    front = book["Report"]
    seed_row = start + 7 + 1  # openpyxl rows count from 1
    assert front.cell(row=seed_row, column=2).number_format == "0"  # 2026, not 2,026
    assert front.cell(row=start + 3, column=2).number_format == "#,##0"  # 200,000
    for sheet in (front, book["provenance"]):  # no JSON string anywhere
        texts = [c for r in sheet.iter_rows(values_only=True) for c in r if isinstance(c, str)]
        assert not any(t.startswith(("{", "[", '"')) for t in texts)
    provenance = book["provenance"]
    assert provenance["B2"].value == "the Parameters table on the Report sheet"
    assert provenance["B3"].value == 2026 and provenance["B3"].number_format == "0"
    assert provenance["B4"].value == "3.11.7" and provenance["B5"].value == "2.10"
    # The rules table keeps 8 decks an integer beside a 0.05 commission.
    rules = pd.DataFrame(book["rules"].values)
    assert book["rules"]["B2"].number_format == "#,##0" and rules.iloc[2, 1] == 0.05
    assert book["rules"]["B3"].number_format == "#,##0.00"
