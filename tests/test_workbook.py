"""The Excel workbook (issue 30): a number format per column (percentages, probabilities to a
fixed number of decimals, integers with thousands separators, never General), integers
exact (text past 15 digits, noted), widths set to the content, the header row frozen,
sheet names readable and unique within 31 characters, the parameters as a two-column
table. Read back with openpyxl from a workbook written from CSVs made here.

Issue 41, item 7: no Python literal, tuple or ``inf`` in any cell, one null convention (an
empty cell), booleans one way (yes/no), a figure within 10^-12 of zero 0, returns, EVs and
edges as percentages, payouts as odds beside their value, sheet names never cut mid-word:
properties checked on a workbook written here from CSVs full of such literals and on every
workbook of the small builds the session makes (conftest)."""

import json
import math
import re

import openpyxl
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamecore.reporting import sheetnames, workbook

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
    # What pandas and str() leave in a CSV: Python's literals, a tuple, inf, float noise.
    _csv(tmp_path, "rule_costs", "Variant,Changes,Player EV,EV change,Decks,Peek\n"
         "as given,,-0.0081,0.0,inf,True\n"
         "S17,dealer_hits_soft_17=False,-0.0079,-8.673617379884035e-18,None,False\n"
         "ramp,\"(100.0, 200.0, 400.0, 800.0)\",-0.0080,-0.0,nan,\n")  # fmt: skip
    _csv(tmp_path, "twin", "Figure,Exact,Simulated,SE,z\n"
         "Banker house edge,0.0101174829,0.0102,0.0021,0.04\n"
         '"P(house behind after 1,000,000 rounds)",3.8e-18,0.0,4.4e-11,-1e-07\n'

         "Mean net result,-1.5e-17,0.0003,0.002,0.15\n")  # fmt: skip
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
    assert bet["D3"].value == int(TIE) and bet["D3"].number_format == "#,##0"
    assert _formats(bet, 5) == ["0.00000000"] * 3  # probability
    assert _formats(bet, 6) == ["0.0000%"] * 3  # return: a percentage, as the PDF prints it
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
                if "E+" in cell.number_format:  # the mass cut, or a probability below 10^-8
                    assert (sheet.title, cell.column) == ("hold_monitoring", 5) or (
                        sheet.title == "twin" and 0 < cell.value < 0.5e-8
                    ), (sheet.title, cell.coordinate)


def test_integers_past_15_digits_are_exact_text_and_noted(book):
    assert workbook.cell_value(str(10**15 - 1)) == (10**15 - 1, False)
    assert workbook.cell_value(str(10**15)) == ("1,000,000,000,000,000", True)
    assert workbook.cell_value(str(-(2**53) - 1)) == ("-9,007,199,254,740,993", True)
    bet = book["bet_banker"]
    assert bet["D2"].value == "2,292,252,566,437,888" and bet["D4"].value == "2,230,518,282,592,256"
    assert bet["D2"].alignment.horizontal == "right"
    assert "2 exact integer(s) of more than 15 digits are written as text" in bet["A6"].value


def test_every_header_row_is_frozen_and_columns_fit_their_content(book):
    assert all(sheet.freeze_panes == "A2" for sheet in book.worksheets)
    widths = book["bet_banker"].column_dimensions
    assert widths["D"].width == len("2,292,252,566,437,888") + 2
    assert widths["E"].width == len("Probability") + 2  # wider than 0.45859742
    assert widths["B"].width == len("-1.00") + 2  # wider than its header, "Pays"
    assert widths["C"].width == len("Pays (odds)") + 2  # wider than 19 to 20
    hold = book["hold_monitoring"]  # a long header wraps: no wider than 24, on two lines
    assert hold.column_dimensions["D"].width == 24 + 2 and hold.row_dimensions[1].height == 30
    assert hold["D1"].alignment.wrap_text
    front = book["Report"]  # text past 60 characters wraps; nothing is wider
    assert max(d.width for d in front.column_dimensions.values()) <= workbook.MAX_WIDTH


def test_sheet_names_are_whole_words_unique_within_31_characters(book):
    assert book.sheetnames == [
        "Report", "bet_banker", "count_21+3", "check_hit_chart_pd_best_resp",
        "dealer_final_dist_after_peek", "effects_of_removal", "hold_monitoring",
        "provenance", "result_dist_opt_check", "rule_costs", "rules", "summary", "twin",
    ]  # fmt: skip
    names = workbook.sheet_names(["a" * 40, "a" * 40 + "b", "Report", "bet_" + "x" * 40])
    # One word too long is cut (nothing else can be); a long last word is dropped whole.
    assert list(names.values()) == ["a" * 31, "a" * 29 + "~2", "Report~2", "bet"]


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


# --- issue 41, item 7: every cell in words, one null, percentages, zero, odds, names ------

#: A Python literal as a cell's whole text, given as a value (``x=False``, ``x: None``), or
#: inside text; a list or tuple as Python writes it (an interval, ``[-9, -8)``, is not); a
#: name=value pair.
LITERAL = re.compile(
    r"^\s*-?(None|True|False|nan|NaN|inf|<NA>|NaT)\s*$"
    r"|[=:] ?(True|False|None|nan|inf)\b"
    r"|\b(None|nan|NaN|inf)\b"
    r"|^\s*(\[[^\[\]()]*,[^\[\]()]*\]|\([^\[\]()]*,[^\[\]()]*\))\s*$"
    r"|\w=\w"
)
#: A return, an EV or an edge: printed as a percentage (money, units, correlations and
#: shares with such a name are not).
PERCENT_FIGURE = re.compile(r"\b(returns?|evs?|edges?)\b", re.IGNORECASE)
NOT_A_PERCENTAGE = re.compile(
    r"units|money|per hour|per shoe|per 100|correlation|covariance|share|\(%\)|^z$", re.I
)
TWIN_VALUES = ("Exact", "Simulated", "SE")


def _stems(book) -> dict[str, str]:
    """Sheet name -> the CSV's name without suffix, from the front sheet's index."""
    rows = list(book["Report"].iter_rows(values_only=True))
    index = rows[[r[0] for r in rows].index("Sheets") + 2 :]
    return {r[0]: r[1].removesuffix(".csv") for r in index if r[0]}


def _problems(book) -> list[str]:
    """Every cell or sheet name of ``book`` that breaks a rule of issue 41, item 7."""
    problems = []
    for sheet in book.worksheets:
        rows = list(sheet.iter_rows())
        header = [c.value for c in rows[0]] if sheet.title != "Report" else []
        figure = header.index("Figure") if "Figure" in header else None
        for row in rows:
            for cell in row:
                where = f"{sheet.title}!{cell.coordinate} {cell.value!r}"
                value = cell.value
                if isinstance(value, bool):
                    problems.append(f"{where}: a boolean, not yes/no")
                elif isinstance(value, str) and LITERAL.search(value):
                    problems.append(f"{where}: a Python literal")
                if type(value) not in (int, float):
                    continue
                tiny = value > 0 and "E+" in cell.number_format  # a real, tiny probability
                if abs(value) < 1e-12 and (value != 0 and not tiny or math.copysign(1, value) < 0):
                    problems.append(f"{where}: within 10^-12 of zero, not 0")
                name = str(header[cell.column - 1]) if cell.row > 1 and header else ""
                if name in TWIN_VALUES and figure is not None:
                    name = str(row[figure].value)  # a cross-check's figure names its row
                if PERCENT_FIGURE.search(name) and not NOT_A_PERCENTAGE.search(name):
                    if not cell.number_format.endswith("%"):
                        problems.append(f"{where}: {name} not a percentage")
    return problems


def _name_problems(book) -> list[str]:
    """Sheet names holding anything but whole words of their CSV's name and the listed
    abbreviations."""
    problems = []
    for sheet, stem in _stems(book).items():
        words = set(stem.split("_")) | sheetnames.abbreviations()
        name = re.sub(r"~\d+$", "", sheet)
        if len(sheet) > 31 or not set(name.split("_")) <= words:
            problems.append(f"sheet {sheet!r} of {stem!r}: cut mid-word")
    return problems


def test_every_cell_is_in_words_with_one_null_and_one_boolean(book):
    """The CSVs here hold None, nan, True, False, inf, a tuple, a name=False and float noise;
    the workbook holds none of them."""
    costs = [list(r) for r in book["rule_costs"].iter_rows(values_only=True)]
    assert costs[1] == ["as given", None, -0.0081, 0, "infinite", "yes"]
    assert costs[2][1:] == ["dealer_hits_soft_17=no", -0.0079, 0, None, "no"]
    assert costs[3][1:] == ["100, 200, 400, 800", -0.008, 0, None, None]
    assert [math.copysign(1, r[3]) for r in costs[1:]] == [1, 1, 1]  # no -0
    assert [c.number_format for c in book["rule_costs"]["D"][1:]] == ["0.0000%"] * 3
    assert _name_problems(book) == []
    assert [p for p in _problems(book) if "dealer_hits_soft_17" not in p] == []
    front = dict(r[:2] for r in book["Report"].iter_rows(values_only=True) if r[0])
    assert front["peek"] == "yes" and front["natural_pays"] == "auto"


def test_payouts_are_shown_as_odds_beside_their_value(book):
    bet = [list(r[:3]) for r in book["bet_banker"].iter_rows(values_only=True)]
    assert bet[:4] == [["Outcome", "Pays", "Pays (odds)"], ["Banker wins", 0.95, "19 to 20"],
                       ["Tie (push)", 0.0, "push"], ["Player wins", -1.0, "loses"]]  # fmt: skip


def test_a_cross_checks_rows_take_their_figures_kind(book):
    twin = book["twin"]
    assert [c.number_format for c in twin[2][1:4]] == ["0.0000%"] * 3  # a house edge
    # A probability of 3.8e-18 is not 0 (it is not): scientific, as the PDF's < 0.00000001.
    assert twin["B3"].value == 3.8e-18 and twin["B3"].number_format == "0.00E+00"
    assert twin["C3"].number_format == "0.00000000" and twin["D3"].number_format == "0.00E+00"
    assert twin["B4"].value == 0  # a mean of -1.5e-17: float noise, 0


@pytest.mark.parametrize("reports", ["baccarat_reports", "dragon_tiger_reports"])
def test_every_built_workbook_keeps_the_rules(reports, request):
    """The small builds the session makes (conftest): every workbook's cells in words, no
    boolean, nothing within 10^-12 of zero but 0 (or a real tiny probability), every
    return, EV and edge a percentage, every sheet name whole words."""
    folder = request.getfixturevalue(reports)
    books = sorted(folder.glob("*/*.xlsx"))
    assert books
    for path in books:
        book = openpyxl.load_workbook(path)
        assert _problems(book) == [], path.name
        assert _name_problems(book) == [], path.name
        returns = [c for s in book.worksheets for c in s[1] if c.value == "Return"]
        for header in returns:  # a bet table's Return: a probability times a payout
            column = header.parent[header.column_letter][1:]
            assert {c.number_format for c in column if isinstance(c.value, float)} == {"0.0000%"}


# --- sheet names ---------------------------------------------------------------------------


def test_a_long_name_is_shortened_by_whole_words():
    # An abbreviation from the table, then joining words dropped, then last words.
    long = "c21_blackjack_effects_of_removal_by_procedure_and_seat_rotation"
    assert sheetnames.abbreviate(long) == "c21_bj_EoR_proc_seat_rotation"
    assert sheetnames.abbreviate(long, 20) == "c21_bj_EoR_rotation"
    # The name the issue found cut mid-word (chec_deck_sweep_drag_bonus_bank): whole words,
    # and its twin's (..._player) apart from it.
    stems = [f"cross_check_deck_sweep_dragon_bonus_{s}" for s in ("banker", "player")]
    assert [sheetnames.abbreviate(s) for s in stems] == [
        "check_sweep_dragon_bonus_banker", "check_sweep_dragon_bonus_player"
    ]  # fmt: skip
    # Words before the last go first: the last tells a table from its twin.
    assert sheetnames.abbreviate(stems[0] + "_with_a_natural", 29) == "check_sweep_dragon_natural"
    assert sheetnames.abbreviate("hold_monitoring_cross_check") == "hold_monitoring_cross_check"
    assert sheetnames.abbreviate("x" * 40) == "x" * 31  # one word: nothing else to cut
    stems = [f"hold_monitoring_cross_check_dragon_bonus_{s}" for s in ("player", "banker")]
    names = list(sheetnames.sheet_names(stems).values())
    assert names == ["hold_check_dragon_bonus_player", "hold_check_dragon_bonus_banker"]


WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=14)


@given(
    st.lists(
        st.one_of(WORDS, st.sampled_from([*sheetnames.ABBREVIATIONS, "of", "by", "cross"])),
        min_size=1, max_size=9,
    ),
    st.integers(20, 31),
)  # fmt: skip
def test_a_shortened_name_is_whole_words_of_its_stem_or_listed_abbreviations(words, limit):
    stem = "_".join(words)
    name = sheetnames.abbreviate(stem, limit)
    assert len(name) <= limit
    if len(stem) <= limit:
        assert name == stem
    # No word is longer than the limit: none is ever cut.
    assert name.split("_")[0] in {words[0], *sheetnames.abbreviations()}
    assert set(name.split("_")) <= set(words) | sheetnames.abbreviations()
