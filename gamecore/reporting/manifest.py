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
import platform
import subprocess
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

import gamecore
from gamecore import strictjson

MANIFEST = "MANIFEST.json"

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
    """The SHA-256 of a file's bytes, as hex.

    Parameters
    ----------
    path : Path
        The file (read in blocks of 1 MiB).

    Returns
    -------
    str
        64 hex digits.
    """
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def report_files(output: Path) -> list[Path]:
    """Every regular file under ``output`` but the manifest and hidden entries (a build's
    staging folder, the folder's lock), sorted by their path relative to ``output``.

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
        if path.is_symlink() or not path.is_file() or relative.as_posix() == MANIFEST:
            continue
        if any(part.startswith(".") for part in relative.parts):
            continue
        files.append(path)
    return sorted(files, key=lambda p: p.relative_to(output).as_posix())


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
