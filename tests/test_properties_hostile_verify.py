"""Hostile input, round four (issue 42): what a received reports folder can make
``gamecore verify`` do or say.

* Item 13: a parameter of any report of the manifest that the report does not take is
  refused, naming the report and the parameter as written, before the first report reruns
  (it was refused by the rerun of its own report, after the reports before it reran).

The folders are copies of the small Dragon Tiger report built once per test session
(conftest's ``dragon_tiger_reports``); a rerun that must not happen fails the test
(:func:`no_rerun`).
"""

import json
import shutil
from pathlib import Path

import pytest
from helpers import assert_refused, run_gamecore_here
from hypothesis import given, settings
from hypothesis import strategies as st

from gamecore.errors import GamecoreError, shown
from gamecore.reporting import build as report_build
from gamecore.reporting import verify
from gamecore.reporting.manifest import manifest as manifest_of
from gamecore.reporting.manifest import report_files, sha256
from gamecore.reporting.received import declared_parameters

REPORT = "dragon_tiger"


def copy_of(built: Path, folder: Path) -> Path:
    shutil.copytree(built, folder, ignore=shutil.ignore_patterns(".lock"))
    return folder


def rehash(reports: Path) -> None:
    """Rewrite the manifest's hashes to match the folder: what a forger does."""
    path = reports / "MANIFEST.json"
    manifest = json.loads(path.read_text())
    manifest["files"] = {
        p.relative_to(reports).as_posix(): sha256(p) for p in report_files(reports)
    }
    path.write_text(json.dumps(manifest, indent=2))


def add_report(reports: Path, name: str, parameters: dict) -> None:
    """A report folder ``name`` whose ``summary.json`` records ``parameters``, listed in
    the manifest as a build lists it (the folder agrees with its manifest: a rerun
    follows), the manifest rehashed."""
    (reports / name).mkdir()
    summary = {"name": name, "parameters": parameters}
    (reports / name / "summary.json").write_text(json.dumps(summary))
    path = reports / "MANIFEST.json"
    manifest = json.loads(path.read_text())
    manifest["reports"] |= manifest_of({}, {name: summary})["reports"]
    path.write_text(json.dumps(manifest))
    rehash(reports)


@pytest.fixture
def no_rerun(monkeypatch):
    """Anything refused must be refused before the first report reruns."""

    def rerun(output, parameters, only, progress=True):
        raise AssertionError(f"verify reran {only} before refusing the manifest")

    monkeypatch.setattr(report_build, "build", rerun)


def manifest_only(folder: Path, reports: dict) -> Path:
    """A reports folder holding only a manifest listing ``reports`` (name -> parameters)."""
    folder.mkdir()
    entries = {name: {"parameters": parameters} for name, parameters in reports.items()}
    (folder / "MANIFEST.json").write_text(json.dumps({"files": {}, "reports": entries}))
    return folder


# --- item 13: every report's parameters checked before the first reruns --------------------


def test_the_second_reports_unknown_parameter_is_refused_before_the_first_reruns(
    dragon_tiger_reports, tmp_path, no_rerun
):
    """dragon_tiger sorts before punto_banco, whose forged parameter 'tie pays' (a space,
    not tie_pays) was refused only by punto banco's rerun, after dragon tiger's."""
    reports = copy_of(dragon_tiger_reports, tmp_path / "reports")
    add_report(reports, "punto_banco", {"decks": 8, "tie pays": 8})
    with pytest.raises(GamecoreError) as refused:
        verify.verify(reports)
    line = str(refused.value)
    assert line.startswith(f"{reports / 'MANIFEST.json'}: report punto_banco: 'tie pays' is")
    assert "(did you mean tie_pays?)" in line
    assert_refused(run_gamecore_here("verify", str(reports)), "punto_banco", "'tie pays'")


@settings(max_examples=12)
@given(name=st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=30))
def test_any_name_no_report_takes_is_refused_naming_it_as_written(tmp_path_factory, name):
    """Any text as a parameter's name: one of the report's parameters, or refused in one
    line naming it as written (escaped as a message shows text), never passed on."""
    folder = tmp_path_factory.mktemp("manifest") / "reports"
    reports = manifest_only(folder, {REPORT: {"decks": 2}, "punto_banco": {name: 8}})
    if name in declared_parameters("punto_banco"):
        return
    with pytest.raises(GamecoreError) as refused:
        verify.verify(reports)
    assert f"report punto_banco: {shown(name)} is not one of its parameters" in str(
        refused.value
    )
