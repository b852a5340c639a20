"""``reports/MANIFEST.json``: what a third party needs to confirm a build byte for byte.

Every file under ``reports/`` with its SHA-256; per report the parameters it ran with (its
seeds among them) and its run time; the gamecore version and the git commit it was built
from, with a flag for local edits; and the versions of the packages the figures depend on.
The build writes it last, after the index page (:func:`write_manifest`), over every report
present in the folder, so a build of one report (``--only``) keeps the others' entries.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import platform
from importlib import metadata
from pathlib import Path
from typing import Any

import gamecore
from gamecore import strictjson
from gamecore.reporting.report import git_commit

MANIFEST = "MANIFEST.json"

#: The packages whose versions a manifest records (the figures depend on them).
PACKAGES = ("numpy", "numba", "pandas", "scipy", "papermill")


def sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes, as hex."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def report_files(output: Path) -> list[Path]:
    """Every file under ``output`` but the manifest and hidden (staging) entries, sorted by
    their path relative to ``output``."""
    files = []
    for path in output.rglob("*"):
        relative = path.relative_to(output)
        if not path.is_file() or relative.as_posix() == MANIFEST:
            continue
        if any(part.startswith(".") for part in relative.parts):
            continue
        files.append(path)
    return sorted(files, key=lambda p: p.relative_to(output).as_posix())


def _report_entry(summary: dict[str, Any]) -> dict[str, Any]:
    parameters = summary.get("parameters", {})
    return {
        "parameters": parameters,
        "seeds": {k: v for k, v in parameters.items() if "seed" in k},
        "run_time_seconds": summary.get("run_time_seconds"),
        "commit": summary.get("commit"),
    }


def manifest(output: Path) -> dict[str, Any]:
    """The manifest of the reports folder ``output`` as it stands."""
    output = Path(output)
    commit = git_commit()
    reports = {}
    for summary_path in sorted(output.glob("*/summary.json")):
        summary = json.loads(summary_path.read_text("utf-8"))
        reports[summary_path.parent.name] = _report_entry(summary)
    return {
        "gamecore_version": gamecore.__version__,
        "git": {"commit": commit.removesuffix("+dirty"), "dirty": commit.endswith("+dirty")},
        "written_at": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "versions": {
            "python": platform.python_version(),
            **{name: metadata.version(name) for name in PACKAGES},
        },
        "reports": reports,
        "files": {p.relative_to(output).as_posix(): sha256(p) for p in report_files(output)},
    }


def write_manifest(output: Path) -> Path:
    """Write ``MANIFEST.json`` into ``output`` (atomically: a partial file never stands)."""
    output = Path(output)
    path = output / MANIFEST
    staged = output / f".{MANIFEST}.part"
    staged.write_text(strictjson.dumps(manifest(output)) + "\n", "utf-8")
    staged.replace(path)
    return path
