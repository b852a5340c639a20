"""gamecore verify cannot be fooled by a rehashed manifest: the rerun is the proof.

One small Dragon Tiger report is built once; its figures are altered and the manifest's
hashes rewritten to match, and verify still names each altered file, line and column. Also:
hidden files are reported, a malformed manifest or a rerun too large is one line before
anything runs, and a verify stopped by SIGINT or SIGTERM leaves no scratch folder."""

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import numpy as np
import openpyxl
import pandas as pd
import pytest
from helpers import assert_refused, run_gamecore
from matplotlib import image

from gamecore.errors import GamecoreError
from gamecore.reporting import compare, verify
from gamecore.reporting.manifest import report_files, sha256

REPORT = "dragon_tiger"


@pytest.fixture(scope="module")
def built(dragon_tiger_reports):
    """The Dragon Tiger report test_dragon_tiger reads too (conftest)."""
    return dragon_tiger_reports


@pytest.fixture
def copy(built, tmp_path):
    folder = tmp_path / "reports"
    shutil.copytree(built, folder)
    return folder


def rehash(reports):
    """Rewrite the manifest's hashes to match the folder: what a forger would do."""
    path = reports / "MANIFEST.json"
    manifest = json.loads(path.read_text())
    manifest["files"] = {
        p.relative_to(reports).as_posix(): sha256(p) for p in report_files(reports)
    }
    path.write_text(json.dumps(manifest, indent=2))


def test_an_untouched_build_is_confirmed_every_derived_file_included(copy):
    assert verify.verify(copy, simulations=True) == []


def test_altered_figures_fail_even_when_the_manifest_is_rehashed_to_match(copy):
    folder = copy / REPORT
    # An exact count: two decks hold 2 * 52 * 2 * 48 = 4,992 Dragon-wins... of Dragon's
    # 10,712 two-card deals (tests/test_dragon_tiger.py); the forger adds one.
    outcomes = pd.read_csv(folder / "outcomes.csv", dtype=str, keep_default_na=False)
    assert outcomes.loc[0, "Combinations"] == "4992"
    outcomes.loc[0, "Combinations"] = "4993"
    outcomes.to_csv(folder / "outcomes.csv", index=False)
    # A key figure the index quotes: the Tie's house edge, 1 - 9 * 728 / 10712 = 38.8350%.
    summary = json.loads((folder / "summary.json").read_text())
    tie = "Tie (8 to 1) house edge"
    assert summary["figures"][tie] == f"{1 - 9 * 728 / 10712:.4%}" == "38.8350%"
    summary["figures"][tie] = "36.8350%"
    (folder / "summary.json").write_text(json.dumps(summary, indent=2))
    # A derived file: the workbook's copy of the Tie's combinations (its own 728 - 104).
    book = openpyxl.load_workbook(folder / f"{REPORT}.xlsx")
    sheet = book["outcomes"]
    cell = next(c for row in sheet.iter_rows() for c in row if c.value == 624)
    cell.value = 600
    book.save(folder / f"{REPORT}.xlsx")
    # A figure: one pixel of the deck sweep's plot.
    pixels = image.imread(folder / "house_edge_by_decks.png")
    pixels[10, 10] = 1 - pixels[10, 10]
    image.imsave(folder / "house_edge_by_decks.png", pixels)
    # A simulated twin moved ten SE off its exact figure, its z left as it was.
    twins = pd.read_csv(folder / "cross_check.csv", dtype=str, keep_default_na=False)
    moved = float(twins.loc[0, "Exact"]) + 10 * float(twins.loc[0, "SE"])
    twins.loc[0, "Simulated"] = repr(moved)
    twins.to_csv(folder / "cross_check.csv", index=False)
    # Files added: hidden ones too.
    (copy / ".notes").write_text("x")
    (folder / ".hidden").mkdir()
    (folder / ".hidden" / "a.csv").write_text("a\n1\n")
    rehash(copy)

    lines = verify.verify(copy)
    assert ".notes: not in the manifest (a hidden file)" in lines
    assert f"{REPORT}/.hidden: not in the manifest (a hidden folder)" in lines
    assert not any("changed since the build" in line for line in lines)
    assert (
        f"{REPORT}/outcomes.csv: line 2, column 'Combinations' (exact): '4993' in the report, "
        "'4992' recomputed"
    ) in lines
    assert (
        f"{REPORT}/summary.json: key figure {tie!r}: '36.8350%' in the report, '38.8350%' "
        "recomputed"
    ) in lines
    assert f"{REPORT}/{REPORT}.xlsx: sheet 'outcomes', cell {cell.coordinate}: 600 in the " \
           "report, 624 recomputed" in lines  # fmt: skip
    assert f"{REPORT}/house_edge_by_decks.png: 1 pixels differ from the recomputed figure" in lines
    assert any(
        line.startswith(f"{REPORT}/cross_check.csv: line 2, column 'z' (against its exact twin):")
        for line in lines
    ), lines
    assert len(lines) == 7, lines  # the PDFs are typeset again only from confirmed files


def test_a_pdf_altered_alone_differs_from_its_files_typeset_again(copy, tmp_path):
    """verify typesets a report's confirmed files again (one rerun is checked by the
    untouched build's test above): here the comparison itself, on the build's copy."""
    folder = copy / REPORT
    assert compare.compare_documents(REPORT, folder, tmp_path / "same") == []
    sheet = folder / f"{REPORT}_par_sheet.pdf"
    forged = sheet.read_bytes().replace(b"/Title(Dragon Tiger)", b"/Title(Dragon Tigre)")
    assert forged != sheet.read_bytes()
    sheet.write_bytes(forged)
    assert compare.compare_documents(REPORT, folder, tmp_path / "forged") == [
        f"{REPORT}/{REPORT}_par_sheet.pdf: differs from the report's own files typeset again "
        f"(with typst {typst_version()}; a document typeset by another version differs too)"
    ]
    sheet.unlink()
    assert compare.compare_documents(REPORT, folder, tmp_path / "gone") == [
        f"{REPORT}/{REPORT}_par_sheet.pdf: missing (the report's files typeset it)"
    ]


def test_an_index_altered_alone_differs_from_the_index_written_again(copy):
    """verify writes the index again from the confirmed folder (the untouched build's test
    above runs it through verify); here the comparison itself, on the build's copy."""
    assert verify.check_index(copy) == []
    page = copy / "index.html"
    text = page.read_text("utf-8")
    assert "38.8350%" in text  # the Tie's house edge at two decks, as the index quotes it
    page.write_text(text.replace("38.8350%", "36.8350%", 1), "utf-8")
    assert verify.check_index(copy) == [
        "index.html: differs from the index written again from the confirmed reports"
    ]
    page.write_text(text.replace("Index built", "Index made"), "utf-8")
    assert verify.check_index(copy) == [
        "index.html: states no build time where the index writes it"
    ]


def typst_version():
    import typst

    return typst.__version__


def test_a_twin_moved_with_its_z_is_held_to_the_threshold():
    """check_twins on a table written by hand: z = (0.53 - 0.5) / 0.01 = 3 passes (one twin:
    at most 4); a twin at 0.56 with its z rewritten to 6 is six SE off; an SE inflated to
    hide it is beyond a factor 1.5 of the rerun's."""
    fresh = pd.DataFrame({"Figure": ["p"], "Exact": ["0.5"], "Simulated": ["0.53"],
                          "SE": ["0.01"], "z": ["3.0"]})  # fmt: skip
    assert compare.check_twins("t.csv", fresh, fresh) == []
    far = fresh.assign(Simulated="0.56", z="6.0")
    (line,) = compare.check_twins("t.csv", far, fresh)
    assert line == (
        "t.csv: line 2, column 'Simulated' (against its exact twin): 0.56 is 6.00 SE from the "
        "exact 0.5 (at most 4.00)"
    )
    wide = fresh.assign(Simulated="0.56", SE="0.03", z="2.0")
    (line,) = compare.check_twins("t.csv", wide, fresh)
    assert line.startswith(
        "t.csv: line 2, column 'SE' (against its exact twin): 0.03 in the report, 0.01"
    )
    approximate = far.assign(Approximate="True")  # exempt from the threshold only
    assert compare.check_twins("t.csv", approximate, fresh) == []


def test_a_cell_is_named_by_the_line_the_file_has_it_on(tmp_path):
    """Line 1 is the header; a blank line is a line, and a quoted cell's line break too:
    the record '"x<break>y",1' is on lines 3 and 4 of the file below, '2,3' on line 5 (it
    was 'row 2': its place among the records). A twin is named by its line the same way."""
    given, fresh = tmp_path / "given.csv", tmp_path / "fresh.csv"
    given.write_text('a,b\n\n"x\ny",1\n2,3\n')
    fresh.write_text('a,b\n"x\ny",1\n2,4\n')
    assert compare.compare_table("t.csv", given, fresh, [], False) == [
        "t.csv: line 5, column 'b' (exact): '3' in the report, '4' recomputed"
    ]
    twins = "Figure,Exact,Simulated,SE,z\n"
    given.write_text(twins + "p,0.5,0.53,0.01,3.0\n\n\nq,0.5,0.56,0.01,6.0\n")
    fresh.write_text(twins + "p,0.5,0.52,0.01,2.0\nq,0.5,0.51,0.01,1.0\n")
    (line,) = compare.compare_table("t.csv", given, fresh, ["Simulated", "SE", "z"], False)
    assert line.startswith("t.csv: line 5, column 'Simulated' (against its exact twin): 0.56")


@pytest.mark.parametrize(
    ("manifest", "words"),
    [
        ("not json", ["not JSON (line 1"]),
        ({"files": {"../x.csv": "0" * 64}, "reports": {}}, ["'../x.csv' is not a relative"]),
        ({"files": {"/etc/passwd": "0" * 64}, "reports": {}}, ["'/etc/passwd'"]),
        ({"files": {"a.csv": "XYZ"}, "reports": {}}, ["not 64 hex digits"]),
        ({"files": {}, "reports": {"nope": {"parameters": {}}}}, ["report 'nope' is not one of"]),
        ({"files": {}, "reports": {REPORT: {"parameters": {"decks": [[1]]}}}},
         ["'decks' is not a value"]),
        ({"files": {f"{i}.csv": "0" * 64 for i in range(20_001)}, "reports": {}},
         ["20,001 files listed; at most 20,000"]),
    ],
    ids=["not_json", "parent", "absolute", "hash", "report", "value", "many"],
)  # fmt: skip
def test_a_malformed_manifest_is_one_line_never_a_traceback(tmp_path, manifest, words):
    reports = tmp_path / "reports"
    reports.mkdir()
    text = manifest if isinstance(manifest, str) else json.dumps(manifest)
    (reports / "MANIFEST.json").write_text(text)
    with pytest.raises(GamecoreError) as refused:
        verify.verify(reports)
    for word in words:
        assert word in str(refused.value)
    assert_refused(run_gamecore("verify", str(reports)), "MANIFEST.json", *words)


@pytest.mark.parametrize(
    ("report", "parameters", "words"),
    [
        (REPORT, {"rounds": 10**13}, ["rounds 10000000000000", "at most 100,000,000"]),
        (REPORT, {"hold_sessions": 200_001}, ["hold_sessions", "at most 200,000"]),
        ("c21_baccarat", {"sweep_deck_counts": [1] * 51}, ["51 items", "at most 50"]),
        (REPORT, {"decks": 0}, ["decks"]),
    ],
    ids=["rounds", "sessions", "list", "bad_value"],
)
def test_work_past_ten_times_the_defaults_is_refused_before_anything_runs(
    tmp_path, report, parameters, words
):
    reports = tmp_path / "reports"
    reports.mkdir()
    manifest = {"files": {}, "reports": {report: {"parameters": parameters}}}
    (reports / "MANIFEST.json").write_text(json.dumps(manifest))
    started = time.monotonic()
    result = run_gamecore("verify", str(reports))
    assert_refused(result, f"report {report}", *words)
    assert time.monotonic() - started < 60


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_killed_verify_leaves_nothing_in_the_temporary_directory(copy, tmp_path, signum):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch)}
    process = subprocess.Popen(
        [sys.executable, "-m", "gamecore", "verify", str(copy)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        # As a terminal starts it: SIGINT at its default. An ignored signal stays ignored
        # across exec, and a test process can hold it ignored (a Dask cluster's start
        # ignores it while workers spawn: gamecore.parallel), so the command never saw it.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not list(scratch.glob("gamecore-verify-*/reports/.*")):
        time.sleep(0.05)  # until the rerun's staging folder is there: the rerun is under way
    assert process.poll() is None, process.communicate()
    time.sleep(1.0)
    # As a user does: the signal again if the process has not ended 2 s later (it ends in
    # well under one). Under a loaded test run one SIGINT was once lost while the rerun ran
    # its notebook (the verify then ran to its end): the rerun must still end at one.
    for _ in range(5):
        process.send_signal(signum)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=2)
        if process.poll() is not None:
            break
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err[-2000:]
    assert err.splitlines()[-1] == "gamecore: interrupted", err[-2000:]
    leftover = [p.name for p in scratch.iterdir()]
    assert not any(name.startswith("gamecore-verify-") for name in leftover), leftover
    assert np.all([not n.startswith("gamecore") for n in leftover])
