"""Notebooks: committed without outputs, with a parameters cell; executed by the report
builder with small parameters; their CSVs agree with the library and the published values;
a failing notebook leaves no report behind."""

import hashlib
import html
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers import BACCARAT_REPORTS, assert_twin_table, pdf_pages
from published_values import WOO_COMBINATIONS

from gamecore import baccarat, c21_baccarat, hold, strictjson
from gamecore.errors import GamecoreError
from gamecore.reporting import verify
from gamecore.reporting.build import NOTEBOOK_DIR, ReportBuildError, build

NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
# Each game's own test module builds its report; the baccarat ones are built once for this
# module and test_documents (conftest.baccarat_reports, with helpers.BACCARAT_SMALL).


def test_there_are_notebooks_for_both_games_and_the_counting_study():
    assert {p.stem for p in NOTEBOOKS} >= {
        "punto_banco",
        "ez_baccarat",
        "dragon7_counting",
        "counting_c21",
    }


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_committed_without_outputs_and_with_parameters_cell(path):
    notebook = json.loads(path.read_text())
    code = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    assert all(not c.get("outputs") and c.get("execution_count") is None for c in code)
    tagged = [c for c in code if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(tagged) == 1
    assert "decks" in "".join(tagged[0]["source"])


@pytest.fixture(scope="module")
def built(baccarat_reports):
    return baccarat_reports


@pytest.mark.parametrize("name", ["punto_banco", "ez_baccarat"])
def test_report_files(built, name):
    folder = built / name
    for file in (
        f"{name}.ipynb",
        f"{name}.html",
        "outcomes.csv",
        "summary.csv",
        "deck_sweep.csv",
        "breakdown.csv",
        "rules.csv",
        "provenance.csv",
        "house_edge_by_decks.png",
    ):
        assert (folder / file).is_file(), file
    page = (folder / f"{name}.html").read_text()
    assert "report.table(" not in page  # the HTML carries no code
    assert "baccarat.exact(" not in page
    provenance = pd.read_csv(folder / "provenance.csv").set_index("Item")["Value"]
    assert json.loads(provenance["parameters"])["decks"] == 1
    assert provenance["git commit"]
    assert not list(built.glob(".building-*"))


def test_report_csvs_hold_the_exact_one_deck_counts(built):
    outcomes = pd.read_csv(built / "punto_banco" / "outcomes.csv").set_index("Outcome")
    published = WOO_COMBINATIONS[1]
    assert outcomes.loc["Banker wins", "Combinations"] == published["banker"]["value"]
    assert outcomes.loc["Player wins", "Combinations"] == published["player"]["value"]
    assert outcomes.loc["Tie", "Combinations"] == published["tie"]["value"]
    # The summary adds the Tie read as 8 for 1 (7 to 1): edge 1 - 8 P(tie), P(tie) published.
    ties = pd.read_csv(built / "punto_banco" / "summary.csv").query("Key == 'tie'")
    p_tie = published["tie"]["value"] / published["total"]["value"]
    assert ties["House edge"].tolist() == pytest.approx([1 - 9 * p_tie, 1 - 8 * p_tie], rel=1e-12)
    summary = pd.read_csv(built / "ez_baccarat" / "summary.csv").set_index("Key")
    library = baccarat.exact(baccarat.EZBaccaratRules(decks=1)).wagers()
    for key, analysis in library.items():
        assert summary.loc[key, "House edge"] == pytest.approx(
            float(analysis.house_edge), rel=1e-12
        )
    sweep = pd.read_csv(built / "punto_banco" / "deck_sweep.csv")
    assert sweep["Decks"].tolist() == ["1", "2", "infinite"]
    c21_sweep = pd.read_csv(built / "c21_baccarat" / "sweep.csv")
    assert c21_sweep[["Decks", "Jokers per deck"]].values.tolist() == [
        [1, 0],
        [1, 1],
        [2, 0],
        [2, 1],
    ]


def test_the_manifest_hashes_every_file_and_records_each_report(built):
    """MANIFEST.json: every file under the folder with its SHA-256 (recomputed here with
    hashlib), each report's parameters as run, its seeds and run time, the versions. The
    one file it leaves out is the folder's lock, hidden and empty."""
    manifest = strictjson.loads((built / "MANIFEST.json").read_text("utf-8"))
    on_disk = {
        p.relative_to(built).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in built.rglob("*")
        if p.is_file() and p.name not in ("MANIFEST.json", ".lock")
    }
    assert (built / ".lock").read_bytes() == b""
    assert manifest["files"] == on_disk
    assert "index.html" in on_disk and "punto_banco/outcomes.csv" in on_disk
    assert set(manifest["reports"]) == set(BACCARAT_REPORTS)
    for name, entry in manifest["reports"].items():
        summary = json.loads((built / name / "summary.json").read_text())
        assert entry["parameters"] == summary["parameters"]
        assert entry["seeds"] == {"seed": summary["parameters"]["seed"]}
        assert entry["run_time_seconds"] > 0
    assert manifest["reports"]["punto_banco"]["parameters"]["decks"] == 1
    assert set(manifest["versions"]) == {"python", "numpy", "numba", "pandas", "scipy", "papermill"}
    assert manifest["versions"]["numpy"] == np.__version__
    assert len(manifest["git"]["commit"]) in (40, len("unknown (not a git checkout)"))
    assert isinstance(manifest["git"]["dirty"], bool)
    assert manifest["gamecore_version"]


def test_every_cross_check_within_four_standard_errors(built):
    checks = list(built.glob("*/*cross_check*.csv"))
    assert len(checks) >= 17  # the four baccarat reports; the blackjack one has its own test
    for path in checks:
        assert_twin_table(path)


def test_every_baccarat_report_monitors_the_hold_of_each_wager(built):
    expected = {
        "punto_banco": {"Banker", "Player", "Tie"},
        "ez_baccarat": {"Banker", "Player", "Tie", "Dragon 7", "Panda 8"},
        "dragon7_counting": {"Dragon 7", "Panda 8"},
        "c21_baccarat": {"House Way", "equilibrium"},
    }
    for name, wagers in expected.items():
        holds = pd.read_csv(built / name / "hold_monitoring.csv")
        for wager in wagers:
            assert holds["Wager"].str.contains(wager).any(), (name, wager)
        assert holds["Rounds"].unique().tolist() == [1_000, 10_000, 100_000, 1_000_000]
        # Every figure exact (integer counts; the equilibrium's for its strategies), said so.
        assert holds["How obtained"].str.startswith("exact").all()
        assert (holds[["SD bound (±)", "Hit frequency bound (±)"]] == 0).all().all()
        behind = holds[hold.HOUSE_BEHIND]
        assert ((behind >= 0) & (behind <= 1)).all()
        # A game with a house edge: the house falls behind less often the longer it runs.
        for _, rows in holds.groupby("Wager"):
            assert rows[hold.HOUSE_BEHIND].is_monotonic_decreasing
        assert (built / name / "hold_monitoring_cross_check.csv").is_file()
    dealing = pd.read_csv(built / "c21_baccarat" / "dealing.csv").set_index("Parameter")
    assert int(dealing.loc["penetration", "Value"]) == 14


def test_counting_study_tables(built):
    counts = pd.read_csv(built / "dragon7_counting" / "counts.csv").set_index("Count")
    assert counts.loc["Jacobson Dragon count", ["4", "8", "T"]].tolist() == [-1, 2, 0]
    procedures = pd.read_csv(built / "dragon7_counting" / "counter_by_procedure.csv")
    assert procedures["Cards behind the cut card"].tolist() == [14, 26]


def test_every_json_file_of_the_reports_is_strict(built):
    files = [*built.rglob("*.json"), *built.rglob("*.ipynb")]
    assert any(f.name == "summary.json" for f in files)
    for path in files:
        strictjson.loads(path.read_text("utf-8"))  # NaN and Infinity are refused


def test_no_staging_folder_is_left_in_or_beside_the_reports(built):
    assert sorted(p.name for p in built.iterdir() if p.name.startswith(".")) == [".lock"]
    assert not [p for p in built.parent.iterdir() if p.name.startswith(f".{built.name}")]


def test_index_links_every_report(built):
    index = (built / "index.html").read_text()
    for name in BACCARAT_REPORTS:
        assert f"{name}/{name}.html" in index
    assert "<td>decks</td><td>1</td>" in index  # the parameters as a table
    assert "Index built " in index


def test_each_page_is_titled_and_each_figure_described(built):
    """The HTML page's title is the report's (not nbconvert's "Notebook"), and each figure's
    image carries its text alternative: the figure's titles (report.figure)."""
    for name in BACCARAT_REPORTS:
        page = (built / name / f"{name}.html").read_text("utf-8")
        title = json.loads((built / name / "summary.json").read_text("utf-8"))["title"]
        assert f"<title>{html.escape(title)}</title>" in page, name
        alternatives = re.findall(r'<img[^>]*\balt="([^"]*)"', page)
        assert page.count("<img") == len(alternatives) > 0, name
        assert "No description has been provided" not in page, name
        assert all(alternatives), name


def test_relative_output_folder(built):
    """The reports were built into a folder given relative to the working folder
    (conftest.built_once): each report lands in it, nothing in a folder of that name inside."""
    for name in BACCARAT_REPORTS:
        assert (built / name / "summary.json").is_file()
        assert not (built / name / built.name).exists()
    assert not (built / built.name).exists()


def test_failed_rebuild_keeps_the_previous_complete_report(built, tmp_path):
    import shutil

    previous = tmp_path / "previous"
    shutil.copytree(built, previous)
    before = sorted(p.name for p in (previous / "punto_banco").iterdir())
    # A cut card deeper than the shoe: bad only beside the deck count, so the notebook runs
    # and fails part way.
    deep = {"decks": 1, "sweep_decks": 1, "rounds": 10_000, "sweep_rounds": 10_000}
    with pytest.raises(ReportBuildError, match="GamecoreError: .*penetration"):
        build(previous, {**deep, "hold_sessions": 100, "penetration": 10_000}, only=["punto_banco"])
    assert sorted(p.name for p in (previous / "punto_banco").iterdir()) == before
    assert not list(previous.glob(".building-*"))


def test_failing_notebook_fails_the_build_and_leaves_nothing(tmp_path):
    # A cut card deeper than the shoe is bad only beside the deck count: refused by the
    # notebook's own call, as it runs.
    small = {"decks": 1, "sweep_decks": 1, "rounds": 10_000, "sweep_rounds": 10_000}
    deep = {**small, "hold_sessions": 100, "penetration": 10_000}
    with pytest.raises(ReportBuildError, match="GamecoreError: .*penetration"):
        build(tmp_path, deep, only=["punto_banco"])
    assert not (tmp_path / "punto_banco").exists()
    assert not list(tmp_path.glob(".building-*"))


@pytest.mark.parametrize(
    ("report", "parameters", "message"),
    [
        ("punto_banco", {"rounds": 0}, "report punto_banco: rounds must be a positive integer"),
        ("c21_blackjack", {"sweep_deck_counts": [2, 0]}, "sweep_deck_counts\\[1\\] must be"),
        ("counting_c21", {"seed": -1}, "report counting_c21: seed must be a non-negative"),
        ("c21_blackjack", {"chart_file": "/no/such.csv"}, "chart_file: .*/no/such.csv: not found"),
        ("c21_blackjack", {"chart_file": "/dev/zero"}, "chart_file: .*not a regular file"),
        # A chart that cannot be read as one: refused here, not by the notebook as it runs.
        ("c21_blackjack", {"chart_file": __file__}, "chart_file: .*line 1: header must be"),
        ("c21_baccarat", {"output_dir": "/tmp"}, "output_dir is set by the build"),
        ("dragon7_counting", {"triggers": "0, 2"}, "triggers must be a non-empty list"),
    ],
)
def test_a_bad_report_parameter_is_refused_before_any_notebook_runs(
    tmp_path, report, parameters, message
):
    with pytest.raises(GamecoreError, match=message):
        build(tmp_path, parameters, only=[report])
    assert list(Path(tmp_path).iterdir()) == []


def test_every_report_parameter_has_a_check_its_default_passes():
    """Each notebook parameter is a rule of the report's game or has a check of its own
    (gamecore.reporting.parameters), and the notebook's own default passes it."""
    import ast

    from gamecore.reporting.build import _declared_parameters, check_rule_parameters
    from gamecore.reporting.parameters import BUILD_PARAMETERS

    for path in NOTEBOOKS:
        declared = _declared_parameters(path)
        defaults = {
            name: ast.literal_eval(spec["default"])
            for name, spec in declared.items()
            if name not in BUILD_PARAMETERS
        }
        defaults = {k: v for k, v in defaults.items() if v is not None}  # None: "the rule's"
        check_rule_parameters(path.stem, defaults)  # raises, naming one, if any lacks a check


def test_a_bad_rule_value_is_refused_before_any_notebook_runs(tmp_path):
    with pytest.raises(
        GamecoreError, match="report punto_banco: decks must be an integer from 1 to 1000, got 0"
    ):
        build(tmp_path, {"decks": 0}, only=["punto_banco"])
    assert list(Path(tmp_path).iterdir()) == []


def test_unknown_report_parameter_is_refused_before_running(tmp_path):
    with pytest.raises(GamecoreError, match="unknown report parameter 'deck'"):
        build(tmp_path, {"deck": 6})
    with pytest.raises(GamecoreError, match="unknown report 'blackjack'"):
        build(tmp_path, {}, only=["blackjack"])
    assert list(Path(tmp_path).iterdir()) == []


COUNTING_SMALL = {
    "decks": 1,
    "blackjack_decks": 2,
    "shoes": 2_000,
    "blackjack_shoes": 2_000,
    "blackjack_oracle_shoes": 1,
    "oracle_shoes": 3,
    "deck_counts": [1, 2],
    "triggers": [0, 2],
}


def test_counting_report_of_the_21st_century_games(tmp_path):
    build(tmp_path, COUNTING_SMALL, only=["counting_c21"])
    folder = tmp_path / "counting_c21"
    effects = pd.read_csv(folder / "c21_baccarat_effects_of_removal.csv").set_index("Rank")
    one_deck = c21_baccarat.C21BaccaratRules(decks=1)
    library = c21_baccarat.removal.count_analysis(one_deck, max_tag=4)
    for rank, effect in library.effects_of_removal.items():
        assert effects.loc[rank, "EoR, House Way (%)"] == pytest.approx(100 * float(effect))
    procedures = pd.read_csv(folder / "c21_baccarat_counter_by_procedure.csv")
    assert set(procedures["Decks"]) == {1, 2}
    assert (procedures["Procedure"] == "shuffle every round").sum() == 2
    verdict = pd.read_csv(folder / "c21_baccarat_verdict.csv")
    assert verdict.loc[verdict["Procedure"] == "shuffle every round", "Below the threshold"].all()
    assert_twin_table(folder / "c21_baccarat_counter_cross_check.csv")
    assert_twin_table(folder / "c21_blackjack_counter_cross_check.csv")
    bound = pd.read_csv(folder / "c21_blackjack_upper_bound.csv")
    assert bound["Shoes"].tolist() == [1]
    blackjack_procedures = pd.read_csv(folder / "c21_blackjack_counter_by_procedure.csv")
    # One deck with four split hands has no cut card that leaves a whole round both sides.
    one_deck = blackjack_procedures[blackjack_procedures["Decks"] == 1]
    assert one_deck["Procedure"].tolist() == ["shuffle every round"]
    from test_documents import assert_countability_stated, assert_key_figures_stated

    assert_key_figures_stated(folder)  # the counting study's PDF quotes the index's figures
    assert_countability_stated(folder)  # and its par sheet each counter's verdict
    # A full table: seven players where the shoe deals them, two at one deck.
    dealt = blackjack_procedures[blackjack_procedures["Procedure"] != "shuffle every round"]
    assert dealt["How"].str.contains("seat 1 of 7 players").all()
    assert dealt["How"].str.contains("1 deck: 2").all()
    plays = pd.read_csv(folder / "c21_blackjack_index_plays.csv")
    assert {"16 v 10", "insurance v A"} <= set(plays["Decision"])
    at_the_bank = pd.read_csv(folder / "c21_baccarat_counter_at_the_bank.csv")
    banked = at_the_bank["Rounds banked per 100 rounds"]
    assert banked[0] == 0 and banked[1] == pytest.approx(100 / 8, abs=0.3)  # 7 players, P/D
    assert banked[2] < banked[1]
    seats = pd.read_csv(folder / "c21_blackjack_counter_by_seat.csv").set_index("Where")
    assert seats.index[0] == "heads-up" and len(seats) == 5
    banked = seats["Rounds banked per 100 rounds"]
    assert banked.iloc[:3].tolist() == [0, 0, 0]
    assert banked.iloc[3] == pytest.approx(100 / 8, abs=0.2)  # 7 players and the P/D rotate
    assert banked.iloc[4] < banked.iloc[3]  # declining some turns
    for game in ("c21_baccarat", "c21_blackjack"):  # the rule sets the figures were made under
        assert "decks" in pd.read_csv(folder / f"rules_{game}.csv")["Parameter"].tolist()
    assert_twin_table(folder / "hold_monitoring_cross_check.csv")
    holds = pd.read_csv(folder / "hold_monitoring.csv")
    assert holds["Wager"].str.startswith("21st Century Baccarat").any()
    dealing = pd.read_csv(folder / "dealing.csv")
    assert set(dealing["Game"]) == {"21st Century Baccarat", "New 21st Century Blackjack"}


def _edit_cell(path, column, change):
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    frame.loc[0, column] = change(frame.loc[0, column])
    frame.to_csv(path, index=False)


def test_verify_names_every_change_and_nothing_else(built, tmp_path, monkeypatch, capsys):
    """gamecore verify on a copy of the build with four changes, punto banco rerun from its
    recorded parameters: each change named; with the simulations compared bit for bit,
    nothing else is, so the rerun reproduced every other file (simulated ones included)."""
    copy = tmp_path / "reports"
    shutil.copytree(built, copy)
    # An exact count changed by one: the hash and the recomputed cell both say so.
    _edit_cell(copy / "punto_banco" / "outcomes.csv", "Combinations", lambda v: str(int(v) + 1))
    # A simulated cell: only its hash without --simulations, its cell with it.
    twins_csv = copy / "punto_banco" / "cross_check_outcomes.csv"
    _edit_cell(twins_csv, "Simulated", lambda v: repr(float(v) + 1e-3))
    (copy / "punto_banco" / "rules.csv").unlink()
    (copy / "punto_banco" / "extra.csv").write_text("a\n1\n")
    lines = verify.verify(copy, only=["punto_banco"])
    assert (
        "punto_banco/outcomes.csv: changed since the build (SHA-256 differs from the manifest)"
        in lines
    )
    assert any(
        line.startswith("punto_banco/outcomes.csv: line 2, column 'Combinations' (exact)")
        for line in lines
    )
    assert f"punto_banco/{twins_csv.name}: changed since the build" in " ".join(lines)
    assert not any("(simulated)" in line for line in lines)
    assert "punto_banco/rules.csv: missing (listed in the manifest)" in lines
    assert "punto_banco/extra.csv: not in the manifest" in lines
    assert "punto_banco/rules.csv: missing (the recomputed report has it)" in lines
    with_simulations = verify.verify(copy, simulations=True, only=["punto_banco"])
    (simulated,) = [line for line in with_simulations if line not in lines]
    assert simulated.startswith(f"punto_banco/{twins_csv.name}: line 2, column 'Simulated' (")
    twin_checks = [line for line in lines if "(against its exact twin)" in line]
    assert set(lines) - set(with_simulations) <= set(twin_checks)  # sims compared instead
    # The command line: a line per mismatch and exit 1 (the rerun here is the build itself:
    # the comparison is what the command reports); a folder without a manifest: exit 2.
    from gamecore import cli
    from gamecore.reporting import build as report_build

    def rerun(output, parameters, only, progress=True):
        shutil.copytree(built / only[0], Path(output) / only[0])

    monkeypatch.setattr(report_build, "build", rerun)
    assert cli.main(["verify", str(copy), "--only", "punto_banco"]) == 1
    printed = capsys.readouterr().out
    assert "punto_banco/outcomes.csv" in printed
    assert re.search(r"^\[1/1\] punto_banco: rerun \.\.\. \d+ s$", printed, re.MULTILINE)
    (copy / "MANIFEST.json").unlink()
    result = subprocess.run(
        [sys.executable, "-m", "gamecore", "verify", str(copy)], capture_output=True, text=True
    )
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "no manifest" in result.stderr


def test_verify_compares_integers_exactly_and_floats_to_1e_12():
    same = verify.same_number
    assert same("12345678901234567890", "12345678901234567890")
    assert not same("12345678901234567890", "12345678901234567891")  # floats would agree
    assert same("0.1", "0.10000000000000001")
    assert not same("0.1", "0.10000000001")
    assert not same("1.0", "x")


def test_every_report_has_a_workbook_with_a_sheet_per_table(built):
    import openpyxl

    for name in BACCARAT_REPORTS:
        folder = built / name
        book = openpyxl.load_workbook(folder / f"{name}.xlsx", read_only=True)
        csvs = sorted(p.name for p in folder.glob("*.csv"))
        assert len(book.sheetnames) == len(csvs) + 1 and book.sheetnames[0] == "Report"
        rows = list(book["Report"].iter_rows(values_only=True))
        index = rows[[r[0] for r in rows].index("Sheets") + 2 :]
        by_sheet = {r[0]: r[1] for r in index if r[0]}
        assert sorted(by_sheet.values()) == csvs
        assert all(len(sheet) <= 31 for sheet in by_sheet)
        # Issue 30: every header row frozen, every column's width set, no number General.
        full = openpyxl.load_workbook(folder / f"{name}.xlsx")
        for sheet in full.worksheets:
            assert sheet.freeze_panes == "A2" and sheet.column_dimensions["A"].width > 0
            cells = [c for row in sheet.iter_rows() for c in row]
            numbers = [c for c in cells if type(c.value) in (int, float)]  # bool: no
            assert all(c.number_format != "General" for c in numbers), sheet.title
    # The exact counts are numbers, equal to the CSV's.
    book = openpyxl.load_workbook(built / "punto_banco" / "punto_banco.xlsx", read_only=True)
    outcomes = pd.read_csv(built / "punto_banco" / "outcomes.csv")
    sheet = list(book["outcomes"].iter_rows(values_only=True))
    assert [row[1] for row in sheet[1:4]] == outcomes["Combinations"].tolist()
    assert "punto_banco/punto_banco.xlsx" in (built / "index.html").read_text()


def test_workbook_cells_keep_big_integers_exact_and_names_fit_excel(tmp_path):
    import openpyxl

    from gamecore.reporting import workbook

    # Excel shows 15 significant digits: a 16-digit integer is text, every digit kept.
    assert workbook.cell_value(str(10**15 - 1)) == (10**15 - 1, False)
    assert workbook.cell_value(str(2**53)) == ("9,007,199,254,740,992", True)
    assert workbook.cell_value("-0.25") == (-0.25, False)
    assert workbook.cell_value("Banker") == ("Banker", False)
    names = workbook.sheet_names(["a" * 40, "a" * 40 + "b", "Report"])
    assert all(len(n) <= 31 for n in names.values()) and len(set(names.values())) == 3
    pd.DataFrame({"Outcome": ["win"], "Combinations": [str(3**40)], "House edge": [0.0125]}).to_csv(
        tmp_path / "counts.csv", index=False
    )
    book = openpyxl.load_workbook(workbook.write_workbook(tmp_path, "test"))
    sheet = book["counts"]
    assert sheet["B2"].value == f"{3**40:,}" and sheet["C2"].number_format == "0.0000%"
    assert "more than 15 digits are written as text" in sheet["A4"].value


def test_the_index_sets_every_wager_side_by_side(built):
    """index.html: each wager's exact house edge and SD across the reports (from their hold
    monitoring), the parameters as a table, the links."""
    page = (built / "index.html").read_text()
    summary = pd.read_csv(built / "punto_banco" / "summary.csv").set_index("Key")
    banker = summary.loc["banker"]
    assert f"<td class='n'>{banker['House edge']:.4%}</td>" in page
    assert f"<td class='n'>{banker['SD']:.4f}</td>" in page
    holds = pd.read_csv(built / "punto_banco" / "hold_monitoring.csv")
    banker_holds = holds[holds["Wager"].str.startswith("Banker")]
    assert banker_holds["SD per round"].tolist() == pytest.approx([banker["SD"]] * 4, rel=1e-12)
    # The hit frequency from the hold's distribution is the exact analysis's (Fractions).
    hits = banker_holds["Hit frequency (net result > 0)"]
    assert hits.tolist() == pytest.approx([banker["Hit frequency"]] * 4, rel=1e-12)
    assert f"<td class='n'>{banker['Hit frequency']:.8f}</td>" in page
    assert "<tr class='changed'><td>decks</td><td>1</td><td class='note'>default 8</td>" in page
    assert "decks=1" not in page and "&quot;" not in page
    # Each report's key figures are its summary.json's text; its commit is shortened.
    for name in BACCARAT_REPORTS:
        summary = json.loads((built / name / "summary.json").read_text("utf-8"))
        for label, figure in summary["figures"].items():
            cell = f"<td>{html.escape(label)}</td><td class='n'>{html.escape(str(figure))}</td>"
            assert cell in page, (name, label)
        commit = summary["commit"]
        assert f"<code title='{commit}'>{commit[:12]}</code>" in page
        assert f">{commit}<" not in page
    assert "21st Century Baccarat" in page and "punto_banco/punto_banco.xlsx" in page


def assert_numbered_pages(path) -> None:
    """Every page is numbered "Page k of n", n the PDF's own page count: the document
    typeset as many pages as the file holds, none lost or unnumbered."""
    pages = pdf_pages(path)
    for k, text in enumerate(pages, start=1):
        assert f"Page {k} of {len(pages)}" in text, (k, len(pages))


@pytest.mark.parametrize("name", BACCARAT_REPORTS)
def test_every_figure_the_index_quotes_is_in_the_pdf_and_the_par_sheet(built, name):
    from test_documents import assert_key_figures_stated

    assert_key_figures_stated(built / name)


def test_the_c21_baccarat_par_sheet_states_each_outcome_and_the_pd_edge(built):
    from test_documents import assert_c21_baccarat_par_sheet

    assert_c21_baccarat_par_sheet(built / "c21_baccarat")


def test_the_dragon7_par_sheet_states_each_counters_verdict(built):
    from test_documents import assert_countability_stated

    assert_countability_stated(built / "dragon7_counting")


def test_every_report_is_a_typeset_document_with_a_short_par_sheet(built):
    for name in BACCARAT_REPORTS:
        document = pdf_pages(built / name / f"{name}.pdf")
        par_sheet = pdf_pages(built / name / f"{name}_par_sheet.pdf")
        # One page for a game's wagers; a study or a player-banked game's two strategies
        # and the P/D's economics two, each page numbered (assert_numbered_pages).
        assert len(par_sheet) <= (1 if name in ("punto_banco", "ez_baccarat") else 2), name
        assert_numbered_pages(built / name / f"{name}_par_sheet.pdf")
        tables = len(list((built / name).glob("*.csv")))
        assert len(document) >= 4 + tables // 10, name  # cover, par sheet, contents...
        text = "".join(document[:4])
        assert "Par sheet" in text and "Contents" in text, name
        assert_numbered_pages(built / name / f"{name}.pdf")
    # The key figures as text: the exact edge and the exact counts in full.
    summary = pd.read_csv(built / "punto_banco" / "summary.csv").set_index("Key")
    outcomes = pd.read_csv(built / "punto_banco" / "outcomes.csv").set_index("Outcome")
    [text] = pdf_pages(built / "punto_banco" / "punto_banco_par_sheet.pdf")
    assert f"{summary.loc['banker', 'House edge']:.4%}" in text
    assert f"{summary.loc['banker', 'Hit frequency']:.8f}" in text  # probabilities: 8 decimals
    assert f"{outcomes.loc['Banker wins', 'Combinations']:,}" in text
    whole = "".join(pdf_pages(built / "punto_banco" / "punto_banco.pdf"))
    assert "Provenance" in whole and "The rule card, as received" in whole
