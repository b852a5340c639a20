"""``reports/MANIFEST.json``: what a third party needs to confirm a build byte for byte.

Every file under ``reports/`` with its SHA-256; per report the parameters it ran with (its
seeds among them) and its run time; the gamecore version and the git commit it was built
from, with a flag for local edits; and the versions of the packages the figures depend on.
The build works it out over the folder as it will stand once the build is in place (every
report present, the rebuilt ones replaced, the new index page) and moves it in last
(:mod:`gamecore.reporting.finalize`), so a build of one report (``--only``) keeps the others'
entries.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import os
import platform
import re
import subprocess
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

import gamecore
from gamecore import strictjson
from gamecore.errors import GamecoreError, shown
from gamecore.reading import MAX_MANIFEST_BYTES, open_regular, path_text, read_json

MANIFEST = "MANIFEST.json"
#: The manifest's signature (:mod:`gamecore.reporting.signing`), beside it, in no manifest.
SIGNATURE = MANIFEST + ".sig"
#: The most files a manifest may list (a full build lists about 200).
MAX_MANIFEST_FILES = 20_000
#: The longest file name a manifest may list, in characters.
MAX_NAME_CHARACTERS = 1_000
#: The most parameters a report's entry may hold (the largest report declares 30).
MAX_REPORT_PARAMETERS = 200
#: The most items a list parameter may hold.
MAX_LIST_ITEMS = 1_000
#: A file's SHA-256 as the manifest writes it.
HASH = re.compile(r"[0-9a-f]{64}")

#: Each report's ``summary.json`` by report name.
Summaries = Mapping[str, Mapping[str, Any]]

#: The packages whose versions a manifest records (the figures depend on them).
PACKAGES = ("numpy", "numba", "pandas", "scipy", "papermill")


def git_commit() -> str:
    """The git commit of the gamecore source in use, with ``+dirty`` if it has local edits.

    Returns
    -------
    str
        The commit's hash (``+dirty`` added), or ``"unknown (not a git checkout)"``.
    """
    source = Path(gamecore.__file__).resolve().parent
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=source, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=source,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    return commit + ("+dirty" if dirty else "")


def sha256(path: Path) -> str:
    """The SHA-256 of a regular file's bytes, as hex: a FIFO, a device or a folder put where
    a report file was is refused, never waited on (:func:`gamecore.reading.open_regular`).

    Parameters
    ----------
    path : Path
        The file (read in blocks of 1 MiB).

    Returns
    -------
    str
        64 hex digits (else a :class:`GamecoreError` naming the file and why not).
    """
    digest = hashlib.sha256()
    with os.fdopen(open_regular(path, path_text(path)), "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def report_files(output: Path) -> list[Path]:
    """Every regular file under ``output`` but the manifest, its signature and hidden
    entries (a build's staging folder, the folder's lock), sorted by their path relative to
    ``output``.

    A symbolic link is not a report file (a build writes none) and is not followed.

    Parameters
    ----------
    output : Path
        The reports folder.

    Returns
    -------
    list of Path
        The files' paths.
    """
    files = []
    for path in Path(output).rglob("*"):
        relative = path.relative_to(output)
        if path.is_symlink() or not path.is_file() or relative.as_posix() in (MANIFEST, SIGNATURE):
            continue
        if any(part.startswith(".") for part in relative.parts):
            continue
        files.append(path)
    return sorted(files, key=lambda p: p.relative_to(output).as_posix())


def special_entries(output: Path) -> list[Path]:
    """The entries under ``output`` that are neither a file, a folder nor a symbolic link: a
    FIFO, a device, a socket (hidden entries aside, as :func:`report_files` leaves them). A
    build writes none, and none is ever opened: a FIFO opened to be read waits for a writer.

    Parameters
    ----------
    output : Path
        The reports folder.

    Returns
    -------
    list of Path
        Their paths, sorted.
    """
    return sorted(
        path
        for path in Path(output).rglob("*")
        if not any(part.startswith(".") for part in path.relative_to(output).parts)
        and not (path.is_symlink() or path.is_file() or path.is_dir())
    )


def _report_entry(summary: Mapping[str, Any]) -> dict[str, Any]:
    parameters = summary.get("parameters", {})
    return {
        "parameters": parameters,
        "seeds": {k: v for k, v in parameters.items() if "seed" in k},
        "run_time_seconds": summary.get("run_time_seconds"),
        "commit": summary.get("commit"),
    }


def manifest(files: Mapping[str, Path], summaries: Summaries) -> dict[str, Any]:
    """The manifest of a reports folder that holds ``files`` (path relative to the folder ->
    where the file's bytes are now) and the reports of ``summaries`` (name -> its
    ``summary.json``).

    Parameters
    ----------
    files : Mapping of str to Path
        Each file's path relative to the folder -> where its bytes are now.
    summaries : Summaries
        Each report's name -> its ``summary.json``.

    Returns
    -------
    dict
        ``gamecore_version``, ``git`` (commit, dirty), ``written_at`` (UTC), ``versions``
        (Python and :data:`PACKAGES`), ``reports`` (each one's parameters, seeds, run time,
        commit) and ``files`` (each one's SHA-256).
    """
    commit = git_commit()
    return {
        "gamecore_version": gamecore.__version__,
        "git": {"commit": commit.removesuffix("+dirty"), "dirty": commit.endswith("+dirty")},
        "written_at": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "versions": {
            "python": platform.python_version(),
            **{name: metadata.version(name) for name in PACKAGES},
        },
        "reports": {name: _report_entry(summaries[name]) for name in sorted(summaries)},
        "files": {name: sha256(files[name]) for name in sorted(files)},
    }


def manifest_text(files: Mapping[str, Path], summaries: Summaries) -> str:
    """:func:`manifest` as the text of ``MANIFEST.json`` (strict JSON).

    Parameters
    ----------
    files : Mapping of str to Path
        Each file's path relative to the folder -> where its bytes are now.
    summaries : Summaries
        Each report's name -> its ``summary.json``.

    Returns
    -------
    str
        The JSON text, ending in a newline.
    """
    return strictjson.dumps(manifest(files, summaries)) + "\n"


def _plain_name(name: str) -> bool:
    """A file name as a build writes it: a relative POSIX path, no empty, ``.`` or ``..``
    part, no backslash or control character, of at most :data:`MAX_NAME_CHARACTERS`."""
    parts = name.split("/")
    return (
        0 < len(name) <= MAX_NAME_CHARACTERS
        and all(part not in ("", ".", "..") for part in parts)
        and not any(ch == "\\" or ord(ch) < 32 or ord(ch) == 127 for ch in name)
    )


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


def _parameter_value(value: Any, depth: int = 0) -> bool:
    """A parameter's value as a build records it: a number, text, switch or null, or a list
    of those of at most :data:`MAX_LIST_ITEMS`; or a limits file's checked content
    (:meth:`gamecore.limits.Limits.content`, which a rerun reads instead of the file):
    a mapping of text to such values and to lists of flat mappings."""
    if isinstance(value, dict):
        return (
            depth < 3
            and len(value) <= MAX_LIST_ITEMS
            and all(isinstance(k, str) and _parameter_value(v, depth + 1) for k, v in value.items())
        )
    if isinstance(value, list):
        return len(value) <= MAX_LIST_ITEMS and all(
            _scalar(v) or (depth > 0 and isinstance(v, dict) and _parameter_value(v, depth + 1))
            for v in value
        )
    return _scalar(value)


def check_manifest(data: Any, what: str) -> dict[str, Any]:
    """Refuse, in one line starting with ``what``, a document that is not a manifest as
    :func:`manifest` writes it: ``files`` a mapping of plain relative names (at most
    :data:`MAX_MANIFEST_FILES`) to SHA-256 hex digests; ``reports`` a mapping of report
    names to entries whose ``parameters`` map names to values (numbers, text, switches,
    null, flat lists). Which reports this gamecore can rerun is verify's to check.

    Parameters
    ----------
    data : Any
        The parsed JSON document.
    what : str
        How the message names the manifest.

    Returns
    -------
    dict
        ``data``, checked.
    """

    def refuse(reason: str) -> GamecoreError:
        return GamecoreError(f"{what}: not a gamecore manifest ({reason})")

    if not isinstance(data, dict) or not {"files", "reports"} <= set(data):
        raise refuse("no files and reports")
    files, entries = data["files"], data["reports"]
    if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
        raise refuse("files must map names to hashes")
    if len(files) > MAX_MANIFEST_FILES:
        raise refuse(f"{len(files):,} files listed; at most {MAX_MANIFEST_FILES:,}")
    for name, digest in files.items():
        if not _plain_name(name):
            raise refuse(f"file name {shown(name)} is not a relative path inside the folder")
        if not HASH.fullmatch(digest):
            raise refuse(f"the hash of {shown(name)} is not 64 hex digits: {shown(digest)}")
    if not isinstance(entries, dict) or not all(
        isinstance(entry, dict) and isinstance(entry.get("parameters"), dict)
        for entry in entries.values()
    ):
        raise refuse("a report without its parameters")
    for name, entry in entries.items():
        parameters = entry["parameters"]
        if len(parameters) > MAX_REPORT_PARAMETERS:
            raise refuse(f"report {name}: {len(parameters):,} parameters")
        for key, value in parameters.items():
            if not _parameter_value(value):
                raise refuse(f"report {name}: parameter {shown(key)} is not a value or a list")
    return data


def read_manifest(reports: Path) -> dict[str, Any]:
    """The manifest of ``reports``, strictly parsed (:func:`gamecore.reading.read_json`, at
    most :data:`~gamecore.reading.MAX_MANIFEST_BYTES`) and checked
    (:func:`check_manifest`); a clear one-line error if it is missing or not a manifest.

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
    return check_manifest(data, path_text(path))
