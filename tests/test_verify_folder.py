"""gamecore verify decides what it checks from the reports folder, never from the manifest it
checks (issue 41, item 1).

A forger who altered a figure, rehashed that file in MANIFEST.json and emptied the
manifest's list of reports was told every figure matched: verify reran only what the
manifest listed. Here each forgery of the manifest (its report list emptied, one report
dropped, a report listed whose folder is gone, parameters edited to match a forged
figure) and each folder a reports folder should not hold is named in one line before
anything is rerun (a rerun fails the test: :func:`no_rerun`); a file moved between
report folders, or dropped with its manifest line, is named by the rerun; and a verify
of some reports only (``--only``) says so in its last line.

The folders are copies of the reports built once per session (conftest). Where a test is
of what verify compares, not of the rerun, the rerun stands in as the session's build of
the same report (:func:`rerun_is_the_build`): what a rerun writes, as the untouched build's
test in test_verify_evidence confirms, simulated cells bit for bit.
"""

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
from helpers import assert_refused, run_gamecore_here

from gamecore.reporting import build as report_build
from gamecore.reporting import verify
from gamecore.reporting.manifest import report_files, sha256

#: The reports of the baccarat folder (conftest's baccarat_reports), as verify lists them.
BACCARAT = "c21_baccarat, dragon7_counting, ez_baccarat, punto_banco"


def copy_of(built: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "reports"
    shutil.copytree(built, folder, ignore=shutil.ignore_patterns(".lock"))
    return folder


def forge_manifest(reports: Path, change=None) -> None:
    """What a forger does to MANIFEST.json: ``change`` its data (if given), then rewrite
    every file's hash to match the folder."""
    path = reports / "MANIFEST.json"
    manifest = json.loads(path.read_text())
    if change is not None:
        change(manifest)
    manifest["files"] = {
        p.relative_to(reports).as_posix(): sha256(p) for p in report_files(reports)
    }
    path.write_text(json.dumps(manifest, indent=2))


@pytest.fixture
def no_rerun(monkeypatch):
    """A folder that does not match its manifest fails before anything is rerun."""

    def rerun(*args, **kwargs):
        raise AssertionError("verify reran a report of a folder that does not match its manifest")

    monkeypatch.setattr(report_build, "build", rerun)


def stand_in(monkeypatch, built: Path) -> list[str]:
    """The rerun of a report: the session's build of it, copied. Returns the reports rerun,
    in order."""
    rerun = []

    def build(output, parameters, only, progress=True):
        rerun.extend(only)
        shutil.copytree(built / only[0], Path(output) / only[0])

    monkeypatch.setattr(report_build, "build", build)
    return rerun


# --- forgeries of the manifest's report list ------------------------------------------------


def test_a_forged_figure_with_the_report_list_emptied_fails_before_any_rerun(
    dragon_tiger_reports, tmp_path, no_rerun
):
    """The forgery of the issue: a count raised by one, rehashed, the list emptied. It was
    'every file's hash, every exact figure, every simulated twin match' and exit 0."""
    reports = copy_of(dragon_tiger_reports, tmp_path)
    outcomes = reports / "dragon_tiger" / "outcomes.csv"
    # Two decks: Dragon wins 2 * 52 * 2 * 48 = 4,992 of the 104 * 103 two-card deals.
    outcomes.write_text(outcomes.read_text().replace("Dragon wins,4992,", "Dragon wins,4993,"))
    forge_manifest(reports, lambda m: m["reports"].clear())
    line = "dragon_tiger: a report the manifest's reports do not list"
    assert verify.verify(reports) == [line]
    result = run_gamecore_here("verify", str(reports))
    assert (result.returncode, result.stdout) == (1, line + "\n"), result.stderr


def test_a_report_dropped_from_the_list_or_its_folder_removed_fails_before_any_rerun(
    baccarat_reports, tmp_path, no_rerun
):
    reports = copy_of(baccarat_reports, tmp_path)
    entry = json.loads((reports / "MANIFEST.json").read_text())["reports"]["ez_baccarat"]
    forge_manifest(reports, lambda m: m["reports"].pop("ez_baccarat"))
    assert verify.verify(reports) == ["ez_baccarat: a report the manifest's reports do not list"]
    # The other way round: the folder of a listed report removed, with its files' lines.
    forge_manifest(reports, lambda m: m["reports"].update(ez_baccarat=entry))
    shutil.rmtree(reports / "c21_baccarat")
    forge_manifest(reports)
    assert verify.verify(reports) == [
        "c21_baccarat: listed in the manifest's reports; the folder holds no such report"
    ]
    # --only cannot pass over either: the folder is checked whole, whatever is rerun.
    assert verify.verify(reports, only=["punto_banco"]) == [
        "c21_baccarat: listed in the manifest's reports; the folder holds no such report"
    ]


def test_folders_that_are_not_reports_are_named_each_in_one_line(
    baccarat_reports, tmp_path, no_rerun
):
    """A report's copy under a name gamecore has no report of, a folder of notes, a hidden
    copy of a report, a folder named after a report that holds none: one line each, and
    nothing is rerun. Files beside the reports (the repository's reports/README.md) are
    hashed only."""
    reports = copy_of(baccarat_reports, tmp_path)
    shutil.copytree(reports / "punto_banco", reports / "punto_banco_old")
    (reports / "notes").mkdir()
    (reports / "notes" / "todo.txt").write_text("check the tie\n")
    shutil.copytree(reports / "ez_baccarat", reports / ".ez_baccarat")
    (reports / "dragon_tiger").mkdir()
    (reports / "dragon_tiger" / "outcomes.csv").write_text("Outcome,Combinations\nTie,728\n")
    (reports / "README.md").write_text("What make reports writes here.\n")
    forge_manifest(reports)
    lines = verify.verify(reports)
    assert sorted(lines) == [
        ".ez_baccarat: not in the manifest (a hidden folder)",
        "dragon_tiger: not a report (dragon_tiger/summary.json: not found)",
        "notes: a folder that is not one of gamecore's reports",
        "punto_banco_old: a folder that is not one of gamecore's reports (did you mean "
        "punto_banco?)",
    ]


# --- parameters edited to match a forged figure -------------------------------------------


def _tie_pays_nine(reports: Path) -> None:
    """The Tie's table as it would read paying 9 to 1: its 728 of 10,712 deals return
    9 * 728 / 10712, and the bet 10 * 728 / 10712 - 1 (at 8 to 1: 9 * 728 / 10712 - 1)."""
    bet = reports / "dragon_tiger" / "bet_tie.csv"
    table = pd.read_csv(bet, dtype=str, keep_default_na=False)
    assert table.loc[0, "Pays"] == "8.0"
    assert float(table.loc[2, "Return"]) == pytest.approx(9 * 728 / 10712 - 1, abs=1e-15)
    table.loc[0, ["Pays", "Return"]] = ["9.0", repr(9 * 728 / 10712)]
    table.loc[2, "Return"] = repr(10 * 728 / 10712 - 1)
    table.to_csv(bet, index=False)


def _record(reports: Path, where: str, name: str, value) -> None:
    """Parameter ``name`` recorded as ``value`` where the report records its parameters: its
    summary.json, its provenance.csv's parameters row, or the parameters papermill gave its
    notebook (those the build passed: here decks, not tie_pays)."""
    folder = reports / "dragon_tiger"
    if where == "summary.json":
        summary = json.loads((folder / "summary.json").read_text())
        summary["parameters"][name] = value
        (folder / "summary.json").write_text(json.dumps(summary, indent=2))
    elif where == "provenance.csv":
        provenance = pd.read_csv(folder / "provenance.csv", dtype=str, keep_default_na=False)
        row = provenance["Item"] == "parameters"
        recorded = json.loads(provenance.loc[row, "Value"].item())
        provenance.loc[row, "Value"] = json.dumps({**recorded, name: value})
        provenance.to_csv(folder / "provenance.csv", index=False)
    else:
        notebook = json.loads((folder / "dragon_tiger.ipynb").read_text())
        notebook["metadata"]["papermill"]["parameters"][name] = value
        (folder / "dragon_tiger.ipynb").write_text(json.dumps(notebook))


def test_parameters_edited_to_match_a_forged_figure_fail(dragon_tiger_reports, tmp_path):
    """The Tie's figures forged as if it paid 9 to 1 and tie_pays 9 written in the manifest
    (its seed changed too): named before any rerun, against what the report records of its
    own parameters. Written everywhere the report records them, the rerun runs with
    tie_pays 9 and the report's rule table (tie_pays 8, unforged) and every other Tie
    figure differ from it."""
    reports = copy_of(dragon_tiger_reports, tmp_path)
    _tie_pays_nine(reports)

    def tie_pays_nine(manifest):
        entry = manifest["reports"]["dragon_tiger"]
        entry["parameters"]["tie_pays"] = 9
        entry["seeds"] = {"seed": 1}

    forge_manifest(reports, tie_pays_nine)
    reruns = []
    build = report_build.build

    def counted(output, parameters, only, progress=True):
        reruns.append((only, parameters["tie_pays"]))
        return build(output, parameters, only=only, progress=progress)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(report_build, "build", counted)
        assert verify.verify(reports) == [
            "dragon_tiger: the manifest's parameters differ from dragon_tiger/summary.json's "
            "(tie_pays: 9 in the manifest, 8 in summary.json)",
            "dragon_tiger: the manifest's seeds differ from dragon_tiger/summary.json's "
            "(seed: 1 in the manifest, 2026 in summary.json)",
        ]
        seed_back = {"seeds": {"seed": 2026}}
        forge_manifest(reports, lambda m: m["reports"]["dragon_tiger"].update(seed_back))
        _record(reports, "summary.json", "tie_pays", 9)
        _record(reports, "notebook", "decks", 3)  # the notebook records what it was given
        forge_manifest(reports)
        assert verify.verify(reports) == [
            "dragon_tiger/provenance.csv: its parameters differ from dragon_tiger/"
            "summary.json's (tie_pays: 8 in provenance.csv, 9 in summary.json)",
            "dragon_tiger/dragon_tiger.ipynb: the parameters papermill gave the notebook "
            "differ from dragon_tiger/summary.json's (decks: 3 in the notebook, 2 in "
            "summary.json)",
        ]
        assert reruns == []
        _record(reports, "provenance.csv", "tie_pays", 9)
        _record(reports, "notebook", "decks", 2)
        forge_manifest(reports)
        lines = verify.verify(reports)
    assert reruns == [(["dragon_tiger"], 9)]  # consistent now: rerun with tie_pays 9
    # The rule table: decks on the file's line 2, tie_pays on line 3.
    assert any(
        line.startswith("dragon_tiger/rules.csv: line 3, column 'Value' (exact): '8' in the "
                        "report, '9' recomputed") for line in lines
    ), lines  # fmt: skip
    assert not any(line.startswith("dragon_tiger/bet_tie.csv") for line in lines), lines


# --- files moved or dropped ---------------------------------------------------------------


def test_a_file_moved_between_report_folders_or_dropped_is_named(
    baccarat_reports, tmp_path, monkeypatch
):
    """A report's page moved into another report's folder, and a report's two PDFs and its
    provenance removed with their lines in the manifest: the folder it left misses it, the
    one it joined holds a file its report does not write."""
    reports = copy_of(baccarat_reports, tmp_path)
    page = reports / "ez_baccarat" / "ez_baccarat.html"
    page.rename(reports / "punto_banco" / page.name)
    for name in ("c21_baccarat.pdf", "c21_baccarat_par_sheet.pdf", "provenance.csv"):
        (reports / "c21_baccarat" / name).unlink()
    forge_manifest(reports)
    rerun = stand_in(monkeypatch, baccarat_reports)
    assert sorted(verify.verify(reports)) == [
        "c21_baccarat/c21_baccarat.pdf: missing (the recomputed report has it)",
        "c21_baccarat/c21_baccarat_par_sheet.pdf: missing (the recomputed report has it)",
        "c21_baccarat/provenance.csv: missing (the recomputed report has it)",
        "ez_baccarat/ez_baccarat.html: missing (the recomputed report has it)",
        "punto_banco/ez_baccarat.html: not in the recomputed report",
    ]
    assert rerun == BACCARAT.split(", ")  # every report in the folder


# --- what the last line says was checked ----------------------------------------------------


def test_the_last_line_says_which_reports_were_rerun(
    baccarat_reports, dragon_tiger_reports, tmp_path, monkeypatch
):
    """Every report rerun: 'every ... match', naming them; --only NAME: only NAME was rerun,
    the others named as not. --only a report the folder does not hold is bad input."""
    reports = copy_of(baccarat_reports, tmp_path)
    rerun = stand_in(monkeypatch, baccarat_reports)
    result = run_gamecore_here("verify", str(reports), "--only", "punto_banco")
    assert result.returncode == 0, result.stdout + result.stderr
    assert rerun == ["punto_banco"]
    assert result.stdout.splitlines()[-1] == (
        f"{reports}: every file's hash matches; only punto_banco was rerun, and its every "
        "exact figure, every simulated twin match (not rerun: c21_baccarat, dragon7_counting, "
        "ez_baccarat); checked by hash only: index.html, punto_banco/provenance.csv, "
        "punto_banco/punto_banco.html, punto_banco/punto_banco.ipynb"
    )
    assert "every file's hash, every exact figure" not in result.stdout
    refused = run_gamecore_here("verify", str(reports), "--only", "dragon_tiger")
    assert_refused(refused, "report 'dragon_tiger' is not in", f"its reports: {BACCARAT}")

    one = copy_of(dragon_tiger_reports, tmp_path / "one")
    stand_in(monkeypatch, dragon_tiger_reports)
    result = run_gamecore_here("verify", str(one), "--simulations")
    assert (result.returncode, result.stdout) == (
        0,
        f"{one}: every file's hash, every exact figure and every simulated one match (every "
        "report rerun: dragon_tiger); checked by hash only: dragon_tiger/dragon_tiger.html, "
        "dragon_tiger/dragon_tiger.ipynb, dragon_tiger/provenance.csv\n",
    ), result.stderr
