"""What ``gamecore verify`` reruns, decided from the reports folder, never from the manifest
it checks (issue 41).

A reports folder holds a folder per report, named after it and holding its
``summary.json``, and beside them files only (``index.html``, ``MANIFEST.json``, the
repository's ``README.md``: hashed). Every report folder is rerun. Before anything is, the
manifest must agree with the folder (:func:`check_folder`), one line per disagreement, and
nothing is rerun while one is left:

* a folder that is not a report: a name gamecore has no report of, or a report's name
  without a readable ``summary.json`` naming it (hidden folders are the hashes' to name);
* a report in the folder that the manifest's ``reports`` do not list, and one they list
  that the folder does not hold;
* a report's entry in the manifest that is not what the build writes from the report's
  own ``summary.json`` (:func:`gamecore.reporting.manifest.manifest`): its parameters,
  seeds, run time and commit;
* the parameters the report's ``provenance.csv`` and executed notebook record, against
  its ``summary.json``'s.

The rerun takes the manifest's parameters, so these make them the report's own; the rerun's
``summary.json`` must then equal the report's field by field, its rule table cell by cell,
so a parameter changed everywhere it is recorded reruns another report, which every figure
left as it was contradicts.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from gamecore import strictjson
from gamecore.errors import GamecoreError, did_you_mean, shown
from gamecore.reading import path_text, read_json
from gamecore.reporting.compare import read_table
from gamecore.reporting.finalize import MAX_SUMMARY_BYTES

#: The largest executed notebook read for its parameters (a full build's are under 5 MB).
MAX_NOTEBOOK_BYTES = 64 << 20
#: The fields of a report's entry in the manifest, each written from its ``summary.json``,
#: and how a line names each.
ENTRY_FIELDS = {
    "parameters": "parameters differ",
    "seeds": "seeds differ",
    "run_time_seconds": "run time differs",
    "commit": "commit differs",
}
#: How many differing parameters a line names (then how many more).
NAMED_DIFFERENCES = 3


def report_folders(reports: Path) -> list[str]:
    """The folders directly in ``reports``, but hidden ones and links, by name.

    Parameters
    ----------
    reports : Path
        The reports folder.

    Returns
    -------
    list of str
        Their names, sorted.
    """
    return sorted(
        path.name
        for path in Path(reports).iterdir()
        if path.is_dir() and not path.is_symlink() and not path.name.startswith(".")
    )


def _summary(reports: Path, name: str) -> dict[str, Any]:
    """Report ``name``'s ``summary.json``, a JSON object naming it with its parameters."""
    label = path_text(f"{name}/summary.json")
    summary = read_json(reports / name / "summary.json", MAX_SUMMARY_BYTES, label)
    if not isinstance(summary, dict) or summary.get("name") != name:
        raise GamecoreError(f"{label}: not the summary of a report named {name}")
    if not isinstance(summary.get("parameters"), dict):
        raise GamecoreError(f"{label}: no parameters")
    return summary


def _json(value: Any) -> str:
    """A value as JSON text, so 2 and 2.0, or 1 and true, are different values."""
    return json.dumps(value, sort_keys=True)


def differences(given: Any, own: Any, given_where: str, own_where: str) -> str:
    """What differs between two records of a report's parameters (or of another entry), as
    a line quotes it: each parameter that differs with its two values (at most
    :data:`NAMED_DIFFERENCES`), or the two values; empty when they are the same.

    Parameters
    ----------
    given, own : Any
        The record checked and the report's own (``summary.json``'s).
    given_where, own_where : str
        Where each is recorded ("the manifest", "summary.json").

    Returns
    -------
    str
        For example ``"decks: 3 in the manifest, 2 in summary.json"``.
    """
    if _json(given) == _json(own):
        return ""
    if not (isinstance(given, dict) and isinstance(own, dict)):
        return f"{shown(given)} in {given_where}, {shown(own)} in {own_where}"
    missing = object()
    named = []
    for key in sorted(set(given) | set(own)):
        a, b = given.get(key, missing), own.get(key, missing)
        if a is missing or b is missing or _json(a) != _json(b):
            a_text = "none" if a is missing else shown(a)
            b_text = "none" if b is missing else shown(b)
            named.append(f"{key}: {a_text} in {given_where}, {b_text} in {own_where}")
    more = len(named) - NAMED_DIFFERENCES
    return "; ".join(named[:NAMED_DIFFERENCES]) + (f"; and {more} more" if more > 0 else "")


def _provenance_parameters(reports: Path, name: str) -> Any:
    """The parameters row of report ``name``'s ``provenance.csv`` (None: it has none)."""
    frame = read_table(reports / name / "provenance.csv", f"{name}/provenance.csv")
    if len(frame.columns) < 2:
        return None
    rows = frame[frame.iloc[:, 0] == "parameters"]
    if len(rows) != 1:
        return None
    try:
        return strictjson.loads(rows.iloc[0, 1])
    except ValueError:
        return rows.iloc[0, 1]  # not JSON: a difference, quoted as it stands


def _notebook_parameters(reports: Path, name: str) -> dict[str, Any] | None:
    """The parameters papermill gave report ``name``'s notebook, as it recorded them in the
    executed notebook (but the folder it wrote to); None when it recorded none."""
    label = path_text(f"{name}/{name}.ipynb")
    notebook = read_json(reports / name / f"{name}.ipynb", MAX_NOTEBOOK_BYTES, label)
    metadata = notebook.get("metadata") if isinstance(notebook, dict) else None
    papermill = metadata.get("papermill") if isinstance(metadata, dict) else None
    given = papermill.get("parameters") if isinstance(papermill, dict) else None
    if not isinstance(given, dict):
        return None
    return {k: v for k, v in given.items() if k != "output_dir"}


def _recorded_elsewhere(reports: Path, name: str, parameters: Mapping[str, Any]) -> list[str]:
    """One line for ``provenance.csv`` and one for the executed notebook of report ``name``
    when the parameters they record are not ``parameters`` (its ``summary.json``'s); a file
    missing is the rerun's to name."""
    problems = []
    own = f"{name}/summary.json's"
    if (reports / name / "provenance.csv").is_file():
        try:
            stated = _provenance_parameters(reports, name)
        except GamecoreError as error:
            problems.append(str(error))
        else:
            found = differences(stated, dict(parameters), "provenance.csv", "summary.json")
            if found:
                problems.append(
                    f"{name}/provenance.csv: its parameters differ from {own} ({found})"
                )
    if (reports / name / f"{name}.ipynb").is_file():
        try:
            given = _notebook_parameters(reports, name)
        except GamecoreError as error:
            problems.append(str(error))
        else:  # papermill records only the parameters it was given: those must agree
            given = given if given is not None else {}
            shared = {k: parameters[k] for k in given if k in parameters}
            found = differences(given, shared, "the notebook", "summary.json")
            if found:
                problems.append(
                    f"{name}/{name}.ipynb: the parameters papermill gave the notebook differ "
                    f"from {own} ({found})"
                )
    return problems


def _entry_lines(name: str, entry: Mapping[str, Any], written: Mapping[str, Any]) -> list[str]:
    """One line per field of the manifest's ``entry`` for report ``name`` that is not what
    the build writes from its ``summary.json`` (``written``); a field absent is not checked
    (nothing reads it)."""
    problems = []
    for field, differ in ENTRY_FIELDS.items():
        if field in entry:
            found = differences(entry[field], written.get(field), "the manifest", "summary.json")
            if found:
                problems.append(
                    f"{name}: the manifest's {differ} from {name}/summary.json's ({found})"
                )
    return problems


def check_folder(
    reports: Path, manifest: Mapping[str, Any], known: Sequence[str]
) -> tuple[list[str], list[str]]:
    """The reports the folder holds, and one line per way it disagrees with its manifest
    (see the module docstring).

    Parameters
    ----------
    reports : Path
        The reports folder.
    manifest : Mapping
        Its manifest (:func:`gamecore.reporting.manifest.read_manifest`).
    known : sequence of str
        Every report this gamecore builds.

    Returns
    -------
    tuple of (list of str, list of str)
        The reports in the folder (its report folders, sorted), and the problems: none when
        every one of them is to be rerun.
    """
    from gamecore.reporting.manifest import manifest as manifest_of

    reports = Path(reports)
    listed = manifest["reports"]
    present, summaries, problems = [], {}, []
    for name in report_folders(reports):
        shown_name = path_text(name)
        if name not in known:
            problems.append(
                f"{shown_name}: a folder that is not one of gamecore's reports"
                f"{did_you_mean(name, list(known))}"
            )
            continue
        try:
            summaries[name] = _summary(reports, name)
        except GamecoreError as error:
            problems.append(f"{shown_name}: not a report ({error})")
            continue
        present.append(name)
        if name not in listed:
            problems.append(f"{name}: a report the manifest's reports do not list")
    for name in sorted(set(listed) - set(report_folders(reports))):
        problems.append(
            f"{path_text(name)}: listed in the manifest's reports; the folder holds no such report"
        )
    written = manifest_of({}, summaries)["reports"] if summaries else {}
    for name in present:
        parameters = summaries[name]["parameters"]
        if name in listed:
            problems += _entry_lines(name, listed[name], written[name])
        problems += _recorded_elsewhere(reports, name, parameters)
    return present, problems
