"""A newcomer's mistakes get a way forward, never a wrong report (issue 32): a typo in a make
variable or a papermill parameter is refused naming what was meant, ``ONLY=a,b`` builds
both, and a notebook run by hand writes nowhere near the repository."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from html import escape as html_escape
from pathlib import Path

import papermill
import pytest
from helpers import BACCARAT_REPORTS, assert_refused, run_gamecore_here
from papermill.exceptions import PapermillExecutionError

from gamecore import arguments, games
from gamecore.errors import GamecoreError
from gamecore.reporting import build
from gamecore.reporting.parameters import parameter_table
from gamecore.reporting.report import NOTEBOOK_DIR, Report, notebook_names, notebook_parameters

REPO = Path(__file__).resolve().parents[1]


def make_reports(cwd: Path, *variables: str) -> subprocess.CompletedProcess:
    bin_folder = f"BIN={Path(sys.executable).parent}"  # the project's, nothing to install
    return subprocess.run(
        ["make", "--no-print-directory", "-f", str(REPO / "Makefile"), "reports"]
        + [*variables, bin_folder, "STAMP="],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
@pytest.mark.parametrize(
    ("typed", "hint"),
    [("DECK=6", "'DECK' (did you mean DECKS?)"), ("only=x", "'only' (did you mean ONLY?)")],
)
def test_make_reports_refuses_a_variable_it_does_not_take(tmp_path, typed, hint):
    result = make_reports(tmp_path, "ONLY=ez_baccarat", typed)
    assert result.returncode == 2
    line = f"make reports: error: unknown variable {hint}; make reports takes DECKS, PARAMS, ONLY"
    assert line in result.stderr.splitlines()
    assert not (tmp_path / "reports").exists()  # nothing built


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_a_hostile_variable_name_is_only_named(tmp_path):
    result = make_reports(tmp_path, "A;touch`x`$$(y)pwned=1")
    assert result.returncode == 2
    assert "unknown variable 'A;touch`x`$(y)pwned'" in result.stderr
    assert not list(tmp_path.rglob("*pwned*"))


def test_only_takes_reports_separated_by_commas(monkeypatch, tmp_path):
    asked = []
    monkeypatch.setattr(
        build, "build", lambda output, parameters, only, **_: asked.append(only) or []
    )
    assert build.main(["--output", str(tmp_path), "--only", "punto_banco,dragon_tiger"]) == 0
    assert asked == [["punto_banco", "dragon_tiger"]]


def test_a_misspelt_report_is_named_with_the_one_meant(tmp_path, capsys):
    assert build.main(["--output", str(tmp_path), "--only", "ez_bacarat,punto_banco"]) == 2
    assert "unknown report 'ez_bacarat' (did you mean ez_baccarat?)" in capsys.readouterr().err


def test_a_misspelt_report_parameter_is_named_with_the_one_meant(tmp_path, capsys):
    arguments = ["--output", str(tmp_path), "--only", "ez_baccarat", "-p", "deck", "6"]
    assert build.main(arguments) == 2
    assert "unknown report parameter 'deck' (did you mean decks?)" in capsys.readouterr().err


def _namespace(name: str, **extra) -> dict:
    """A notebook's globals as papermill leaves them: every declared parameter, IPython's
    own names, and ``extra``."""
    namespace = {key: 1 for key in notebook_parameters(name)}
    namespace.update(In=[""], Out={}, _i1="", __name__="__main__", output_dir=None)
    namespace.update(extra)
    return namespace


def test_a_parameter_the_notebook_does_not_take_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with pytest.raises(GamecoreError, match=r"unknown parameter 'deck' \(did you mean decks\?\)"):
        Report.for_notebook("ez_baccarat", _namespace("ez_baccarat", deck=6))


def test_names_the_notebook_binds_itself_are_not_parameters(tmp_path, monkeypatch):
    """Run by hand, a cell may run again after later cells bound names of their own."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    own = notebook_names("ez_baccarat") - set(notebook_parameters("ez_baccarat"))
    assert {"rules", "report"} <= own
    extra = dict.fromkeys(own, 3)
    report = Report.for_notebook("ez_baccarat", _namespace("ez_baccarat", **extra))
    assert report.name == "ez_baccarat"


def test_a_notebook_run_by_hand_writes_to_a_temporary_folder(tmp_path, monkeypatch, capsys):
    (tmp_path / "temp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "temp"))
    monkeypatch.chdir(tmp_path)
    report = Report.for_notebook("punto_banco", _namespace("punto_banco"))
    assert report.output_dir.parent == tmp_path / "temp"
    assert report.output_dir.name.startswith("gamecore-punto_banco-")
    assert str(report.output_dir) in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["temp"]  # nothing where it ran


def test_every_notebook_defaults_to_no_output_folder():
    for notebook in sorted(NOTEBOOK_DIR.glob("*.ipynb")):
        assert papermill.inspect_notebook(str(notebook))["output_dir"]["default"] == "None"


def test_papermill_given_a_parameter_the_notebook_does_not_take_fails(tmp_path):
    """papermill only warns about it ("Passed unknown parameter"); the notebook refuses it."""
    with pytest.raises(PapermillExecutionError) as raised:
        papermill.execute_notebook(
            str(NOTEBOOK_DIR / "ez_baccarat.ipynb"),
            str(tmp_path / "out.ipynb"),
            parameters={"deck": 6, "output_dir": str(tmp_path / "out")},
            kernel_name=build.ensure_kernel(),
            progress_bar=False,
            cwd=str(tmp_path),
        )
    assert "unknown parameter 'deck' (did you mean decks?)" in raised.value.evalue
    assert not (tmp_path / "out").exists()  # refused before writing anything


# --- the command line: help with words and examples, mistakes with a way forward ---------


def test_a_bare_gamecore_prints_the_help():
    result = run_gamecore_here()
    assert result.returncode == 2
    assert result.stderr.startswith("usage: gamecore")
    for word in ("exact", "simulate", "sidebet", "verify", *games.NAMES, "examples:"):
        assert word in result.stderr


def test_every_command_says_what_it_does_and_shows_examples():
    parser = arguments.build_parser()
    assert "`" not in parser.format_help().split("examples:")[0].replace("`gamecore games`", "")
    for command, (description, examples) in arguments.HELP.items():
        text = parser.commands[command].format_help()
        assert " ".join(description.split()[:6]) in " ".join(text.split())
        assert all(example in text for example in examples), command
    assert "{fresh,shoe}" in parser.commands["simulate"].format_help()
    for command in ("rules", "hand"):
        for action in parser.commands[command]._actions:
            assert action.help, (command, action.dest)  # every option says what it is


#: Examples that need a reports folder, or are long, are not run here.
NOT_RUN = {"verify"}


@pytest.mark.parametrize(
    "example",
    [
        line
        for command, (_d, lines) in arguments.HELP.items()
        if command not in NOT_RUN
        for line in lines
    ],
)
def test_every_example_runs(example):
    result = run_gamecore_here(*example.split()[1:])
    assert result.returncode == 0, result.stderr
    assert result.stdout


@pytest.mark.parametrize(
    ("typed", "hint"),
    [
        (["exact", "ez_baccarat", "--jsn"], "--jsn (did you mean --json?)"),
        (["simulate", "punto_banco", "--seeed", "3"], "--seeed 3 (did you mean --seed?)"),
        (
            ["exact", "ez_baccarat", "--dragon7-pays", "45"],
            "(did you mean --rule dragon7_pays=45?)",
        ),
        (["exact", "ez_baccarat", "--dragon7_pays=45"], "(did you mean --rule dragon7_pays=45?)"),
        (
            ["exact", "ez_baccarat", "--rule", "dragon7_pay=45"],
            "unknown rule 'dragon7_pay' (did you mean dragon7_pays?) for ez_baccarat",
        ),
        (["exact", "EZ_Baccarat"], "(did you mean ez_baccarat?)"),
    ],
)
def test_a_mistake_is_named_with_what_was_meant(typed, hint):
    assert_refused(run_gamecore_here(*typed), hint)


def test_an_unknown_option_near_nothing_gets_no_guess():
    line = assert_refused(run_gamecore_here("exact", "ez_baccarat", "--zzz"))
    assert line == "gamecore: error: unrecognized arguments: --zzz"


# --- human output: the reports' number style, fitted to the terminal ----------------------


def test_exact_blackjack_text_labels_its_figures_as_percentages():
    result = run_gamecore_here("exact", "c21_blackjack")
    assert result.returncode == 0, result.stderr
    assert "player_ev:" not in result.stdout
    ev = next(line for line in result.stdout.splitlines() if line.startswith("Player EV, opt"))
    assert ev.split()[-1] == "-0.8181%"  # the c21 card's optimal EV, -0.00818143...


def test_exact_baccarat_text_has_counts_in_full_percent_returns_and_no_nan():
    result = run_gamecore_here("exact", "punto_banco")
    assert result.returncode == 0, result.stderr
    assert "NaN" not in result.stdout and "nan" not in result.stdout
    assert "4,998,398,275,503,360" in result.stdout  # 416 P 6, every ordered six-card deal
    banker_total = [line for line in result.stdout.splitlines() if line.startswith("Total")][0]
    assert banker_total.split()[-1] == "-1.0579%"  # the Banker's house edge, 1.0579%


def test_simulate_text_counts_rounds_as_integers():
    result = run_gamecore_here("simulate", "punto_banco", "--rounds", "20000", "--no-progress")
    assert result.returncode == 0, result.stderr
    assert "20,000" in result.stdout and "20000.0" not in result.stdout
    assert "EV (mean per round)" in result.stdout


@pytest.mark.parametrize("game", games.NAMES)
def test_rules_text_fits_the_terminal(game, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    result = run_gamecore_here("rules", game)
    assert result.returncode == 0, result.stderr
    assert max(len(line) for line in result.stdout.splitlines()) <= 80
    assert "Meaning" in result.stdout


def test_a_table_for_a_reader():
    import pandas as pd

    from gamecore import terminal

    frame = pd.DataFrame(
        {"Outcome": ["win", "Total"], "Pays": [1.0, None], "Combinations": [12.0, 1234567.0]}
    )
    lines = terminal.table(frame, columns=60).splitlines()
    assert lines[0].split() == ["Outcome", "Pays", "Combinations"]
    assert lines[1].split() == ["win", "1", "to", "1", "12"]
    assert lines[2].split() == ["Total", "1,234,567"]  # a missing payout is blank, not NaN
    long = pd.DataFrame({"Name": ["x"], "Meaning": ["word " * 40]})
    assert all(len(line) <= 40 for line in terminal.table(long, columns=40).splitlines())


# --- make reports says where it is ---------------------------------------------------------


def test_the_build_counts_its_reports_and_times_each(baccarat_reports):
    printed = (baccarat_reports.parent / f"{baccarat_reports.name}.stdout").read_text()
    lines = printed.splitlines()
    steps = [line for line in lines if line.startswith("[")]
    assert len(steps) == len(BACCARAT_REPORTS) == 4
    for number, (line, name) in enumerate(zip(steps, BACCARAT_REPORTS, strict=True), start=1):
        assert re.fullmatch(rf"\[{number}/4\] {name} \.\.\. \d+ s", line), line
    assert re.fullmatch(r"built 4 reports in \d+ s", lines[-1]), lines[-1]


# --- make parameters: each report's parameters, not only the error for a wrong one ---------


def test_every_report_parameter_is_listed_with_default_allowed_values_and_meaning(capsys):
    assert build.main(["--list"]) == 0
    printed = capsys.readouterr().out
    for name, notebook in build.available_notebooks().items():
        declared = papermill.inspect_notebook(str(notebook))
        table = parameter_table(name, declared)
        assert list(table["Parameter"]) == [p for p in declared if p != "output_dir"]
        assert (table["Allowed"] != "").all() and (table["Meaning"] != "").all(), name
        assert f"{name}: {len(table)} parameters" in printed
    ez = parameter_table(
        "ez_baccarat", papermill.inspect_notebook(str(NOTEBOOK_DIR / "ez_baccarat.ipynb"))
    )
    row = ez.set_index("Parameter").loc["hold_sessions"]
    assert row["Default"] == "20000"  # as a parameters file takes it (not 20_000)
    assert row["Allowed"] == "a whole number from 1 to 10^13"
    assert ez.set_index("Parameter").loc["dragon7_pays", "Meaning"].startswith("Dragon 7")


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_parameters_lists_one_report(tmp_path):
    bin_folder = f"BIN={Path(sys.executable).parent}"
    result = subprocess.run(
        ["make", "--no-print-directory", "-f", str(REPO / "Makefile"), "parameters"]
        + ["ONLY=dragon_tiger", bin_folder, "STAMP="],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("dragon_tiger: 10 parameters")  # limits among them
    assert "suited_tie_pays" in result.stdout and "ez_baccarat" not in result.stdout


# --- a report's page leads with the answer; a pay table favouring the player is marked -----


def _holds(folder: Path, edges: dict[str, float]) -> None:
    import pandas as pd

    rows = [
        {
            "Wager": wager,
            "Rounds": rounds,
            "Expected hold": edge,
            "SD per round": 1.0,
            "Hit frequency (net result > 0)": 0.5,
        }
        for wager, edge in edges.items()
        for rounds in (1000, 10_000)
    ]
    pd.DataFrame(rows).to_csv(folder / "hold_monitoring.csv", index=False)
    pd.DataFrame([{"Parameter": "decks", "Value": "8"}]).to_csv(folder / "rules.csv", index=False)


def test_a_negative_house_edge_is_marked_as_favouring_the_player(tmp_path):
    import pandas as pd

    from gamecore.reporting.answer import answer_section
    from gamecore.reporting.frontmatter import wager_figures

    # Dragon 7 at 45 to 1, 8 decks: 46 x 0.0225... - 1 = +3.6% for the player.
    _holds(tmp_path, {"Banker": 0.0102, "Dragon 7 (45 to 1)": -0.0365})
    edges = {
        w["wager"]: w["edge"] for w in wager_figures(pd.read_csv(tmp_path / "hold_monitoring.csv"))
    }
    assert edges == {"Banker": "1.0200%", "Dragon 7 (45 to 1)": "-3.6500% (favours the player)"}
    section = answer_section(tmp_path, {})
    assert "-3.6500% (favours the player)" in section and "loses money for the house" in section
    _holds(tmp_path, {"Banker": 0.0102})
    assert "favours" not in answer_section(tmp_path, {})


def test_a_report_page_leads_with_its_answer(dragon_tiger_reports):
    from bs4 import BeautifulSoup

    folder = dragon_tiger_reports / "dragon_tiger"
    page = BeautifulSoup((folder / "dragon_tiger.html").read_text("utf-8"), "html.parser")
    headings = [h.get_text().strip("¶ ") for h in page.find_all(["h1", "h2"])]
    assert headings[0].startswith("Dragon Tiger") and headings[1] == "The answer"
    rows = page.select("#answer tbody tr")
    index = (dragon_tiger_reports / "index.html").read_text("utf-8")
    for row in rows:  # the same text the index prints for each wager
        wager, edge = (cell.get_text() for cell in row.find_all("td")[:2])
        assert f"{html_escape(wager)}</td><td class='n'>{edge}</td>" in index
    assert len(rows) == 5  # Dragon, Tiger, Tie, Suited Tie, the other Tie payout


def test_the_readme_says_how_to_run_gamecore_and_that_way_works():
    """make test and make reports leave gamecore in .venv/bin, not on the PATH: the README's
    front door says how to run it without activating and how to activate."""
    readme = (REPO / "README.md").read_text("utf-8")
    assert ".venv/bin/gamecore games" in readme and "source .venv/bin/activate" in readme
    script = Path(sys.executable).parent / "gamecore"  # the environment make builds
    result = subprocess.run([str(script), "games"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "punto_banco" in result.stdout


def test_the_reports_table_lists_every_parameter_of_every_report():
    """docs/reports.md's table of reports once missed about ten parameters (hold_sessions in
    every notebook): each report's row names every parameter its notebook declares."""
    text = (REPO / "docs" / "reports.md").read_text("utf-8")
    rows = {
        match.group(1): match.group(0)
        for match in re.finditer(r"^\| `([a-z0-9_]+)` \|.*$", text, flags=re.MULTILINE)
    }
    for name, notebook in build.available_notebooks().items():
        row = rows[name]
        declared = papermill.inspect_notebook(str(notebook))
        missing = [p for p in declared if f"`{p}`" not in row]
        if name == "c21_blackjack":  # its rules are named as a group: every blackjack rule
            rules = games.game("c21_blackjack").rules_type.parameter_names()
            missing = [p for p in missing if p not in rules]
        assert not missing, (name, missing)
