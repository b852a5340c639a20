"""Hostile input, round four (issue 42): what a received reports folder can make
``gamecore verify`` do or say.

* Item 2: verify's last line claimed a match for what it never compared. A workbook's cell
  is compared by its value and number format (what Excel shows), the workbook against
  the one written again from the report's own files; the HTML page and the executed
  notebook, which it does not compare, are named in its last line as checked by hash only.
* Item 11: a parameter that names a file (a strategy chart, a side bet's definition, a
  limits file) naming one outside the folder is refused in one line, unopened: a chart
  file's first line was echoed in the error (``/etc/passwd``'s ``root:x:0:0...``).
* Item 13: a parameter of any report of the manifest that the report does not take is
  refused, naming the report and the parameter as written, before the first report reruns
  (it was refused by the rerun of its own report, after the reports before it reran).

The folders are copies of the small Dragon Tiger report built once per test session
(conftest's ``dragon_tiger_reports``); a rerun that must not happen fails the test
(:func:`no_rerun`).
"""

import builtins
import json
import os
import shutil
import zipfile
from pathlib import Path

import openpyxl
import pytest
from helpers import assert_refused, run_gamecore_here
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gamecore.errors import GamecoreError, shown
from gamecore.reading import path_text
from gamecore.reporting import build as report_build
from gamecore.reporting import verify
from gamecore.reporting.build import available_notebooks
from gamecore.reporting.manifest import manifest as manifest_of
from gamecore.reporting.manifest import report_files, sha256
from gamecore.reporting.parameters import parameter_table
from gamecore.reporting.received import FILE_PARAMETERS, declared_parameters

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


# --- item 11: no file outside the folder ------------------------------------------------------

#: The first line of a file outside every reports folder, which no message may echo.
SECRET = "TOPSECRET,do not print"


@pytest.fixture
def secret(tmp_path):
    """A file outside the reports folder, as a chart (.csv), a definition or limits file
    (.yaml) would be named."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    for suffix in (".csv", ".yaml"):
        (folder / f"secret{suffix}").write_text(SECRET + "\n1,2\n")
    return folder


@pytest.fixture
def opened(monkeypatch):
    """Every path opened from here on (os.open, as gamecore.reading opens, and open)."""
    paths = []
    real_os_open, real_open = os.open, builtins.open

    def os_open(path, *args, **kwargs):
        paths.append(os.fspath(path))
        return real_os_open(path, *args, **kwargs)

    def open_(file, *args, **kwargs):
        if isinstance(file, (str, bytes, os.PathLike)):
            paths.append(os.fsdecode(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(builtins, "open", open_)
    return paths


#: Each file parameter, a report that takes it, and its value naming ``path``.
NAMING = {
    "chart_file": ("c21_blackjack", lambda path: path, "a strategy chart"),
    "side_bets": ("side_bets", lambda path: ["small", path], "a side bet's definition"),
    "limits": ("punto_banco", lambda path: path, "a limits file"),
}


@pytest.mark.parametrize("parameter", sorted(NAMING))
def test_a_file_outside_the_folder_is_refused_unopened(
    tmp_path, secret, opened, no_rerun, parameter
):
    report, value, what = NAMING[parameter]
    suffix = ".csv" if parameter == "chart_file" else ".yaml"
    path = str(secret / f"secret{suffix}")
    reports = manifest_only(tmp_path / "reports", {report: {parameter: value(path)}})
    result = run_gamecore_here("verify", str(reports))
    item = "side_bets[1]" if parameter == "side_bets" else parameter
    line = assert_refused(result, f"report {report}: {item} {path} names {what} outside")
    assert "a received manifest names no file outside its folder" in line
    assert "TOPSECRET" not in result.stdout + result.stderr
    assert path not in opened


@settings(max_examples=12)
@given(
    path=st.one_of(
        st.sampled_from(
            ["/etc/passwd", "/dev/zero", "/proc/self/environ", "secret.csv", "../secret.csv",
             "~/.ssh/id_rsa", "reports/../elsewhere/secret.csv", "/", "/etc/\x00passwd"]
        ),
        st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=40),
    )
)  # fmt: skip
@example(path="/etc/\x00passwd")  # a NUL: no file's path, refused all the same
def test_any_chart_path_outside_the_folder_is_refused_by_name(tmp_path_factory, path):
    """Any path but one inside the folder by its absolute path: refused naming the report,
    the parameter and the path as written, never the file's content."""
    root = tmp_path_factory.mktemp("received")
    reports = manifest_only(root / "reports", {"c21_blackjack": {"chart_file": path}})
    inside = (
        os.path.isabs(path)
        and "\x00" not in path
        and Path(os.path.realpath(path)).is_relative_to(os.path.realpath(reports))
    )
    if not path or inside:
        return  # empty: the report's own chart; inside: the folder's, hashed
    with pytest.raises(GamecoreError) as refused:
        verify.verify(reports)
    line = str(refused.value)
    assert f"report c21_blackjack: chart_file {path_text(path)} names a strategy chart" in line
    assert "root:" not in line


def test_a_link_in_the_folder_to_a_file_outside_is_outside(tmp_path, secret, opened):
    """A path inside the folder that is a link out: where the link leads is what counts."""
    reports = manifest_only(tmp_path / "reports", {})
    (reports / "chart.csv").symlink_to(secret / "secret.csv")
    manifest = {"files": {}, "reports": {"c21_blackjack": {"parameters": {
        "chart_file": str(reports / "chart.csv")}}}}  # fmt: skip
    (reports / "MANIFEST.json").write_text(json.dumps(manifest))
    with pytest.raises(GamecoreError, match="names a strategy chart outside"):
        verify.verify(reports)
    assert str(secret / "secret.csv") not in opened


def test_a_file_inside_the_folder_is_the_builds_to_check(tmp_path):
    """A chart inside the folder (hashed with it) is passed on: the build's own check of a
    chart reads it, and refuses this one for its first line."""
    reports = manifest_only(tmp_path / "reports", {})
    (reports / "chart.csv").write_text("not a chart\n")
    manifest = {"files": {}, "reports": {"c21_blackjack": {"parameters": {
        "chart_file": str(reports / "chart.csv")}}}}  # fmt: skip
    (reports / "MANIFEST.json").write_text(json.dumps(manifest))
    with pytest.raises(GamecoreError, match="chart_file: .*line 1: header must be"):
        verify.verify(reports)


def test_every_parameter_that_takes_a_file_is_held_to_the_folder():
    """The parameters whose allowed values, as make parameters describes them, are files
    are exactly those verify holds to the folder."""
    import papermill

    takes_files = set()
    for report, notebook in available_notebooks().items():
        table = parameter_table(report, papermill.inspect_notebook(str(notebook)))
        files = table["Allowed"].str.contains(r"\bfiles?\b", case=False)
        takes_files |= set(table.loc[files, "Parameter"])
    assert takes_files == set(FILE_PARAMETERS)


# --- item 2: what a reader sees of the workbook; what is checked by hash only ------------------


def percentage_cell(path: Path):
    """A number shown as a percentage in the workbook: (sheet title, coordinate, value)."""
    book = openpyxl.load_workbook(path)
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                if cell.number_format == "0.0000%" and isinstance(cell.value, float):
                    return sheet.title, cell.coordinate, cell.value
    raise AssertionError("no percentage in the workbook")


def restyle(path: Path, change) -> None:
    """Open the workbook, ``change(book)``, save it: a forger with openpyxl."""
    book = openpyxl.load_workbook(path)
    change(book)
    book.save(path)


def cell_values(path: Path) -> dict:
    book = openpyxl.load_workbook(path)
    return {
        (sheet.title, cell.coordinate): cell.value
        for sheet in book.worksheets
        for row in sheet.iter_rows()
        for cell in row
    }


def test_a_number_format_changed_values_untouched_is_named_by_sheet_and_cell(
    dragon_tiger_reports, tmp_path
):
    """The issue's forgery: a percentage's number format made literal text, so the figure
    reads 0.0500% whatever its value (a Dragon bet's 46.6019% here); every value as it
    was, the manifest rehashed. It passed: only the values were compared."""
    reports = copy_of(dragon_tiger_reports, tmp_path / "reports")
    workbook = reports / REPORT / f"{REPORT}.xlsx"
    sheet, coordinate, value = percentage_cell(workbook)
    values = cell_values(workbook)

    def literal(book):
        book[sheet][coordinate].number_format = '"0.0500%"'

    restyle(workbook, literal)
    assert cell_values(workbook) == values
    rehash(reports)
    assert verify.verify(reports) == [
        f"{REPORT}/{REPORT}.xlsx: sheet {sheet!r}, cell {coordinate}: number format "
        f"'\"0.0500%\"' in the report, '0.0000%' recomputed (the value {value!r} shown "
        "otherwise)"
    ]


def edit_part(path: Path, part: str, change) -> None:
    """Rewrite one part of an XLSX file (a ZIP archive) as ``change`` says, the others as
    they are: a forger editing the XML."""
    with zipfile.ZipFile(path) as archive:
        parts = {info.filename: archive.read(info) for info in archive.infolist()}
    edited = change(parts[part])
    assert edited != parts[part]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, edited if name == part else data)


def test_a_workbook_shown_otherwise_differs_from_its_files_written_again(
    dragon_tiger_reports, tmp_path
):
    """What the cells do not say (here a table's first row hidden, in the sheet's XML)
    differs from the workbook written again from the report's own files; the build's does
    not (it is a function of them). Here the comparison itself; the untouched build's
    verify (test_verify_evidence) runs it after every rerun."""
    from gamecore.reporting.bookcompare import compare_written_again

    folder = copy_of(dragon_tiger_reports, tmp_path / "reports") / REPORT
    workbook = folder / f"{REPORT}.xlsx"
    assert compare_written_again(REPORT, folder, tmp_path / "same") == []
    part = "xl/worksheets/sheet2.xml"
    edit_part(workbook, part, lambda xml: xml.replace(b'<row r="2"', b'<row r="2" hidden="1"'))
    assert compare_written_again(REPORT, folder, tmp_path / "hidden") == [
        f"{REPORT}/{REPORT}.xlsx: differs from the report's own files written again ({part}; "
        f"with openpyxl {openpyxl.__version__}: a workbook written by another version differs "
        "too)"
    ]


def test_an_edited_page_and_notebook_are_named_as_checked_by_hash_only(
    dragon_tiger_reports, tmp_path, monkeypatch
):
    """The Tie's house edge edited on the HTML page and in the executed notebook, the
    manifest rehashed: verify does not compare them with the rerun (they hold run times
    and paths), so its last line names each as checked by hash only, and claims no match
    for them. The rerun stands in as the session's build of the report (test_verify_folder's
    stand-in); the untouched build's verify reruns for real (test_verify_evidence)."""
    reports = copy_of(dragon_tiger_reports, tmp_path / "reports")
    for name in (f"{REPORT}.html", f"{REPORT}.ipynb"):
        path = reports / REPORT / name
        text = path.read_text("utf-8")
        assert "38.8350%" in text
        path.write_text(text.replace("38.8350%", "36.8350%"), "utf-8")
    rehash(reports)

    def build(output, parameters, only, progress=True):
        shutil.copytree(dragon_tiger_reports / only[0], Path(output) / only[0])

    monkeypatch.setattr(report_build, "build", build)
    result = run_gamecore_here("verify", str(reports))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1] == (
        f"{reports}: every file's hash, every exact figure, every simulated twin match (every "
        f"report rerun: {REPORT}); checked by hash only: {REPORT}/{REPORT}.html, "
        f"{REPORT}/{REPORT}.ipynb, {REPORT}/provenance.csv"
    )
