"""``gamecore verify reports/``: confirm a build without trusting whoever sent it.

Three checks, each mismatch one line naming the file (and the table's row and column):

1. every file's SHA-256 against ``MANIFEST.json`` (:mod:`gamecore.reporting.manifest`),
   and no file missing or added;
2. every report rerun from the parameters the manifest records, into a scratch folder
   beside nothing of the original, and every exact cell of every CSV compared with the
   recomputed one: integers and text equal, other numbers to 1e-12 (relative and absolute);
3. with ``simulations``, every simulated cell too (the marks come from the recomputed run,
   not from the files checked), bit for bit: chunks seeded from the recorded seed make them
   depend on the seed only.

``provenance.csv`` says when, where and from which commit a report was built: it is hashed,
not recomputed. Rerunning a report takes as long as building it.
"""

from __future__ import annotations

import io
import json
import math
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from gamecore.errors import GamecoreError, shown
from gamecore.reading import (
    MAX_MANIFEST_BYTES,
    MAX_REPORT_FILE_BYTES,
    MAX_REPORT_TABLE_BYTES,
    path_text,
    read_bounded,
    read_json,
)
from gamecore.reporting.finalize import folder_lock, pending_commit
from gamecore.reporting.manifest import MANIFEST, report_files, sha256

#: Report files that describe the build itself (times, commit, machine): hashed only.
NOT_RECOMPUTED = ("provenance.csv",)
#: How close a recomputed exact float must be (relative and absolute).
TOLERANCE = 1e-12


def read_manifest(reports: Path) -> dict:
    """The manifest of ``reports``, strictly parsed (:func:`gamecore.reading.read_json`, at
    most :data:`~gamecore.reading.MAX_MANIFEST_BYTES`), and shaped as :func:`verify` reads
    it; a clear error if it is missing or not a manifest.

    Parameters
    ----------
    reports : Path
        The reports folder.

    Returns
    -------
    dict
        The manifest (``files``: name -> SHA-256; ``reports``: name -> its parameters, ...).
    """
    path = Path(reports) / MANIFEST
    if not os.path.lexists(path):
        raise GamecoreError(f"{path_text(path)}: no manifest (make reports writes it)")
    data = read_json(path, MAX_MANIFEST_BYTES, path_text(path))
    if not isinstance(data, dict) or not {"files", "reports"} <= set(data):
        raise GamecoreError(f"{path_text(path)}: not a gamecore manifest (no files and reports)")
    files, entries = data["files"], data["reports"]
    if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
        raise GamecoreError(
            f"{path_text(path)}: not a gamecore manifest (files must map names to hashes)"
        )
    if not isinstance(entries, dict) or not all(
        isinstance(entry, dict) and isinstance(entry.get("parameters"), dict)
        for entry in entries.values()
    ):
        raise GamecoreError(
            f"{path_text(path)}: not a gamecore manifest (a report without its parameters)"
        )
    return data


def _irregular_entries(reports: Path) -> list[str]:
    """One line per symbolic link, named pipe, device or socket in the folder (outside the
    hidden entries): a build writes only files and folders, and none of these is hashed."""
    problems = []
    for path in sorted(reports.rglob("*")):
        relative = path.relative_to(reports)
        if any(part.startswith(".") for part in relative.parts):
            continue
        if path.is_symlink() or not (path.is_file() or path.is_dir()):
            problems.append(f"{path_text(relative.as_posix())}: not a regular file or folder")
    return problems


def check_hashes(reports: Path, manifest: dict) -> list[str]:
    """One line per file changed, missing or not in the manifest, and per entry that is not
    a regular file or folder; a file larger than
    :data:`~gamecore.reading.MAX_REPORT_FILE_BYTES` is named unread.

    Parameters
    ----------
    reports : Path
        The reports folder.
    manifest : dict
        Its manifest (:func:`read_manifest`).

    Returns
    -------
    list of str
        The problems; empty when every file matches.
    """
    reports = Path(reports)
    problems = _irregular_entries(reports)
    listed = manifest["files"]
    present = {p.relative_to(reports).as_posix(): p for p in report_files(reports)}
    for name, digest in sorted(listed.items()):
        if name not in present:
            problems.append(f"{path_text(name)}: missing (listed in the manifest)")
        elif (size := present[name].stat().st_size) > MAX_REPORT_FILE_BYTES:
            problems.append(
                f"{path_text(name)}: larger than {MAX_REPORT_FILE_BYTES:,} bytes, its size "
                f"limit (it is {size:,} bytes; not hashed)"
            )
        elif sha256(present[name]) != digest:
            problems.append(
                f"{path_text(name)}: changed since the build (SHA-256 differs from the manifest)"
            )
    for name in sorted(set(present) - set(listed)):
        problems.append(f"{path_text(name)}: not in the manifest")
    return problems


def same_number(a: str, b: str) -> bool:
    """Two CSV cells as numbers: integers equal, floats to :data:`TOLERANCE`; else text.

    Parameters
    ----------
    a, b : str
        The cells as the CSV files hold them.

    Returns
    -------
    bool
        Whether they are the same number (NaN the same as NaN), or the same text.

    Examples
    --------
    >>> same_number("0.1", "0.1000000000000001"), same_number("12", "12.0"), same_number("a", "b")
    (True, True, False)
    """
    if a == b:
        return True
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    if all(part.lstrip("-").isdigit() for part in (a, b)):  # integers: exactly
        try:
            return int(a) == int(b)
        except ValueError:  # past the 4,300 digits Python converts: the texts differ
            return False
    if math.isnan(x) and math.isnan(y):
        return True
    return math.isclose(x, y, rel_tol=TOLERANCE, abs_tol=TOLERANCE)


def _read_table(path: Path, what: str) -> pd.DataFrame:
    """A report CSV as text cells, from a regular file of at most
    :data:`~gamecore.reading.MAX_REPORT_TABLE_BYTES` (a larger one is refused by its size,
    unread), refusing what pandas cannot read as CSV."""
    raw = read_bounded(path, MAX_REPORT_TABLE_BYTES, what)
    try:
        return pd.read_csv(io.BytesIO(raw), dtype=str, keep_default_na=False)
    except ValueError as error:  # pandas' ParserError, EmptyDataError; UnicodeDecodeError
        reason = (str(error).strip().splitlines() or [type(error).__name__])[0]
        raise GamecoreError(f"{what}: not a readable CSV ({reason[:160]})") from None


def compare_table(
    name: str, given: Path, recomputed: Path, simulated: Sequence[str], simulations: bool
) -> list[str]:
    """One line per cell of ``given`` that differs from ``recomputed``: exact cells to
    :data:`TOLERANCE`, ``simulated`` columns only with ``simulations`` (bit for bit). A
    table that cannot be read (too large, not a regular file, not CSV) is one line.

    Parameters
    ----------
    name : str
        How the lines name the table.
    given, recomputed : Path
        The report's CSV file and the rerun's.
    simulated : sequence of str
        The table's simulated columns.
    simulations : bool
        Whether simulated columns are compared.

    Returns
    -------
    list of str
        The mismatches; empty when the tables agree.
    """
    try:
        a = _read_table(given, name)
        b = _read_table(recomputed, f"{name} (recomputed)")
    except GamecoreError as error:
        return [str(error)]
    if list(a.columns) != list(b.columns):
        return [
            f"{name}: columns {shown(list(a.columns))} differ from the recomputed "
            f"{shown(list(b.columns))}"
        ]
    if len(a) != len(b):
        return [f"{name}: {len(a)} rows, recomputed {len(b)}"]
    problems = []
    for column in a.columns:
        is_simulated = column in simulated
        if is_simulated and not simulations:
            continue
        for row, (x, y) in enumerate(zip(a[column], b[column], strict=True)):
            same = x == y if is_simulated else same_number(x, y)
            if not same:
                kind = "simulated" if is_simulated else "exact"
                problems.append(
                    f"{name}: row {row + 1}, column {shown(column)} ({kind}): {shown(x)} in the "
                    f"report, {shown(y)} recomputed"
                )
    return problems


def recompute(reports: Path, manifest: dict, simulations: bool, only=None) -> list[str]:
    """Rerun each report of the manifest (or ``only`` those) from its recorded parameters
    and compare every CSV (:func:`compare_table`); one line per mismatch.

    Parameters
    ----------
    reports : Path
        The reports folder.
    manifest : dict
        Its manifest (:func:`read_manifest`).
    simulations : bool
        Whether simulated columns are compared (bit for bit).
    only : iterable of str, optional
        The reports to rerun (default every report of the manifest).

    Returns
    -------
    list of str
        The mismatches, missing and extra tables.
    """
    from gamecore.reporting.build import build

    reports = Path(reports)
    names = list(manifest["reports"]) if only is None else list(only)
    for name in names:
        if name not in manifest["reports"]:
            raise GamecoreError(f"report {shown(name)} is not in the manifest")
    problems = []
    with tempfile.TemporaryDirectory(prefix="gamecore-verify-") as scratch:
        for name in names:
            parameters = manifest["reports"][name]["parameters"]
            build(Path(scratch) / "reports", parameters, only=[name])
            fresh = Path(scratch) / "reports" / name
            marks = json.loads((fresh / "summary.json").read_text("utf-8"))
            simulated = marks.get("tables", {}).get("simulated_columns", {})
            for table in sorted(fresh.glob("*.csv")):
                if table.name in NOT_RECOMPUTED:
                    continue
                given = reports / name / table.name
                label = f"{name}/{table.name}"
                if not given.is_file():
                    problems.append(f"{label}: missing (the recomputed report has it)")
                    continue
                problems += compare_table(
                    label, given, table, simulated.get(table.name, []), simulations
                )
            for table in sorted((reports / name).glob("*.csv")):
                if not (fresh / table.name).is_file():
                    problems.append(f"{name}/{table.name}: not in the recomputed report")
    return problems


def verify(reports: Path, simulations: bool = False, only=None) -> list[str]:
    """Every mismatch of ``reports`` against its manifest and a rerun, one line each (none:
    the build is confirmed).

    Parameters
    ----------
    reports : Path
        The reports folder.
    simulations : bool, default False
        Whether simulated columns are compared (bit for bit).
    only : iterable of str, optional
        The reports to rerun (default every report of the manifest).

    Returns
    -------
    list of str
        The hashes' problems, then the rerun's mismatches.
    """
    reports = Path(reports)
    if not reports.is_dir():
        raise GamecoreError(f"{reports}: not a reports folder")
    with folder_lock(reports, shared=True):  # never half way through a build's commit
        pending = pending_commit(reports)
        if pending is not None:
            raise GamecoreError(
                f"{reports}: a build was stopped while its reports were put in place "
                f"({pending.name}); run make reports to complete it, then verify"
            )
        manifest = read_manifest(reports)
        problems = check_hashes(reports, manifest)
    return problems + recompute(reports, manifest, simulations, only)


def verify_command(reports: str, simulations: bool, only: Sequence[str] | None) -> int:
    """``gamecore verify REPORTS``: a line per mismatch and exit 1, or one line and exit 0.

    Parameters
    ----------
    reports : str
        The reports folder.
    simulations : bool
        Compare the simulated figures too.
    only : sequence of str or None
        Recompute only these reports.

    Returns
    -------
    int
        The exit status: 0 when everything matches, else 1 (a line per mismatch, or one
        line saying why the rebuild failed, on standard error).
    """
    import contextlib
    import sys

    from gamecore.errors import one_line
    from gamecore.reporting.build import ReportBuildError

    try:
        with contextlib.redirect_stdout(sys.stderr):  # the rebuild's progress lines
            problems = verify(Path(reports), simulations, only)
    except ReportBuildError as error:
        print(f"gamecore: verify: {one_line(str(error))}", file=sys.stderr)
        return 1
    for line in problems:
        print(line)
    what = "every file's hash, every exact figure" + (
        " and every simulated one" if simulations else ""
    )
    if problems:
        print(f"{len(problems)} mismatches", file=sys.stderr)
        return 1
    print(f"{reports}: {what} match")
    return 0
