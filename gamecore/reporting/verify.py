"""``gamecore verify reports/``: confirm a build without trusting whoever sent it.

What is checked comes from the folder, never from the manifest being checked: every report
folder is rerun, whatever the manifest lists (:mod:`gamecore.reporting.inventory`); only
the user's ``--only`` reruns fewer, and the last line then says which. The checks, each
mismatch one line naming the file (and the table's line, as the file numbers it, and
column):

0. with a public key, the manifest's signature (:mod:`gamecore.reporting.signing`) first:
   a missing or bad one is the only line;
1. every file's SHA-256 against ``MANIFEST.json`` (:mod:`gamecore.reporting.manifest`),
   and no file missing or added (hidden ones included);
2. the folder against the manifest (:func:`~gamecore.reporting.inventory.check_folder`):
   a folder that is not a report, a report the manifest does not list or one it lists
   that is not there, a report's parameters (or seeds, run time, commit) in the manifest
   other than its ``summary.json``'s, and parameters its ``provenance.csv`` or executed
   notebook record other than those: any of these, and nothing is rerun;
3. every report rerun from the parameters the manifest records, into a scratch folder
   beside nothing of the original, and compared with the rerun whatever the manifest says
   (:mod:`gamecore.reporting.compare`): every exact cell of every CSV (integers and text
   equal, other numbers to 1e-12), ``summary.json``'s key figures as printed, every figure
   pixel for pixel, every workbook cell's value and number format; each simulated twin
   against its exact figure; then, all of those confirmed, the PDFs and the workbook
   against the report's own files typeset and written again, byte for byte (but the
   workbook's times of writing); and, every report confirmed, ``index.html`` against the
   index written again from the folder (:func:`check_index`); a file the rerun writes that
   the report lacks, whatever its kind, is named;
4. with ``simulations``, every simulated cell bit for bit (the marks come from the rerun,
   not from the files checked): chunks seeded from the recorded seed make them depend on
   the seed only.

The manifest is read strictly and bounded; work past :data:`WORK_FACTOR` times a report's
defaults is refused before anything runs (:func:`check_work`). ``provenance.csv`` (when,
where, which commit), the HTML page and the executed notebook (which hold run times) are
hashed, not recomputed: the manifest's signature is what fixes them, and the last line
names each file so checked by its hash only (:func:`confirmed`). Rerunning a report
takes as long as building it; an interrupt or SIGTERM removes the scratch folder.
"""

from __future__ import annotations

import ast
import contextlib
import signal
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from gamecore.errors import GamecoreError, did_you_mean, shown
from gamecore.reading import MAX_REPORT_FILE_BYTES, path_text, read_bounded
from gamecore.reporting.bookcompare import compare_workbook, compare_written_again
from gamecore.reporting.compare import (
    TOLERANCE,
    compare_derived,
    compare_documents,
    compare_table,
    compared_by_content,
    hash_only,
    same_number,
    simulated_marks,
)
from gamecore.reporting.finalize import LOCK, STAGING_PREFIX, folder_lock, pending_commit
from gamecore.reporting.inventory import check_folder, report_folders
from gamecore.reporting.manifest import MANIFEST, read_manifest, report_files, sha256
from gamecore.reporting.ownership import made_by_a_build
from gamecore.reporting.received import check_received_parameters

__all__ = [
    "TOLERANCE",
    "compare_table",
    "read_manifest",
    "same_number",
    "verify",
    "verify_command",
]

#: The most a simulation size (a count of rounds, shoes or sessions) or a list's length may
#: be, as a multiple of the report's default: a rerun takes as long as the build, so this
#: is already ten builds' work.
WORK_FACTOR = 10
#: The parameters whose size is the work a rerun does: their names end so.
WORK_SUFFIXES = ("rounds", "shoes", "sessions")


def _allowed_hidden(relative: Path, path: Path) -> bool:
    """The hidden entries a reports folder has of its builds: the folder's lock, and a
    build's staging folder (a build under way, or one killed that the next removes), as its
    owner record says, or as a build killed while making it left it
    (:func:`~gamecore.reporting.ownership.made_by_a_build`): a folder only named like one
    is not the build's."""
    if len(relative.parts) != 1 or path.is_symlink():
        return False
    if relative.name == LOCK:
        return path.is_file()
    return relative.name.startswith(STAGING_PREFIX) and made_by_a_build(path)


def _unlisted_entries(reports: Path) -> list[str]:
    """One line per hidden entry (but the build's own, :func:`_allowed_hidden`; a hidden
    folder once, not its contents) and per symbolic link, named pipe, device or socket: a
    build writes only files and folders, and none of these is hashed."""
    problems = []
    skipped: list[Path] = []
    for path in sorted(reports.rglob("*")):
        relative = path.relative_to(reports)
        if any(path.is_relative_to(folder) for folder in skipped):
            continue
        if relative.name.startswith("."):
            if path.is_dir() and not path.is_symlink():
                skipped.append(path)
            if not _allowed_hidden(relative, path):
                kind = "folder" if path.is_dir() and not path.is_symlink() else "file"
                problems.append(
                    f"{path_text(relative.as_posix())}: not in the manifest (a hidden {kind})"
                )
        elif path.is_symlink() or not (path.is_file() or path.is_dir()):
            problems.append(f"{path_text(relative.as_posix())}: not a regular file or folder")
    return problems


def check_hashes(reports: Path, manifest: dict) -> list[str]:
    """One line per file changed, missing or not in the manifest, per hidden entry (but the
    folder's lock and a build's staging folder) and per entry that is not a regular file or
    folder; a file larger than :data:`~gamecore.reading.MAX_REPORT_FILE_BYTES` is named
    unread.

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
    problems = _unlisted_entries(reports)
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


def _defaults(report: str) -> dict[str, Any]:
    """The report's notebook parameters and their defaults (as the notebook writes them)."""
    import papermill

    from gamecore.reporting.build import available_notebooks

    declared = papermill.inspect_notebook(str(available_notebooks()[report]))
    defaults = {}
    for name, entry in declared.items():
        with contextlib.suppress(ValueError, SyntaxError, TypeError):
            defaults[name] = ast.literal_eval(entry.get("default", ""))
    return defaults


def check_work(report: str, parameters: dict[str, Any]) -> None:
    """Refuse, before anything runs, a rerun of ``report`` that would take far longer than
    its build at the defaults: a simulation size (a parameter named ``...rounds``,
    ``...shoes`` or ``...sessions``, but ``rounds_per_hour``) or a list's length past
    :data:`WORK_FACTOR` times its default; then every value as the build checks it.

    Parameters
    ----------
    report : str
        The report's name.
    parameters : dict
        The parameters the manifest records for it.

    Raises
    ------
    GamecoreError
        The report, the parameter, its value and the limit, in one line.
    """
    from gamecore.reporting.build import check_rule_parameters

    defaults = _defaults(report)
    for name, value in parameters.items():
        default = defaults.get(name)
        work = name.endswith(WORK_SUFFIXES) and name != "rounds_per_hour"
        if work and isinstance(default, int) and isinstance(value, int | float):
            limit = WORK_FACTOR * default
            if value > limit:
                raise GamecoreError(
                    f"report {report}: {name} {shown(value)} is past what verify reruns "
                    f"({WORK_FACTOR} x its default {default:,}: at most {limit:,})"
                )
        if isinstance(default, list) and isinstance(value, list):
            limit = WORK_FACTOR * max(len(default), 1)
            if len(value) > limit:
                raise GamecoreError(
                    f"report {report}: {name} has {len(value):,} items; verify reruns at "
                    f"most {limit} ({WORK_FACTOR} x its default's)"
                )
    check_rule_parameters(report, {k: v for k, v in parameters.items() if k in defaults})


@contextlib.contextmanager
def terminated_as_interrupt() -> Iterator[None]:
    """Within the block a SIGTERM raises :class:`KeyboardInterrupt`, as Ctrl-C does, so the
    scratch folder is removed on the way out (by default SIGTERM ends the process at once).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_term(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, on_term)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _compare_report(reports: Path, name: str, fresh: Path, simulations: bool) -> list[str]:
    """Every file of the rerun ``fresh`` of report ``name`` against the report's own: each
    file the rerun writes must be there (whatever its kind: a page or a PDF dropped with its
    line in the manifest is named), none other; then each compared by its kind."""
    folder = reports / name
    written = sorted(p for p in fresh.iterdir() if p.is_file() and not p.name.startswith("."))
    problems = [
        f"{name}/{path.name}: missing (the recomputed report has it)"
        for path in written
        if not (folder / path.name).is_file()
    ]
    for given in sorted(folder.iterdir()) if folder.is_dir() else []:
        if given.name.startswith(".") or (fresh / given.name).is_file():
            continue  # a hidden entry is the hashes' to name
        problems.append(f"{name}/{given.name}: not in the recomputed report")
    simulated = simulated_marks(fresh)
    for path in written:
        given, label = folder / path.name, f"{name}/{path.name}"
        if not given.is_file() or not compared_by_content(path.name):
            continue  # hashed only: the last line names it
        if path.suffix == ".csv":
            marks = simulated.get(path.name, [])
            problems += compare_table(label, given, path, marks, simulations)
        elif path.suffix == ".xlsx":
            problems += compare_workbook(label, given, path)
        else:
            problems += compare_derived(label, given, path)
    # The PDFs and the workbook against the report's own files typeset and written again,
    # once every one of those files is confirmed: then they are the rerun's (read within its
    # bounds), none added.
    if not problems:
        problems += compare_documents(name, folder, fresh.parent.parent / "typeset")
        problems += compare_written_again(name, folder, fresh.parent.parent / "written")
    return problems


def reports_to_rerun(
    reports: Path, manifest: dict, only: Sequence[str] | None, known: Sequence[str]
) -> list[str]:
    """The reports a rerun is asked of, every one the manifest lists or ``only`` those (the
    folder must hold just the manifest's, :func:`~gamecore.reporting.inventory.check_folder`,
    or nothing is rerun), with bad input refused before anything is read or run: a report
    of the manifest this gamecore does not build, a parameter of any of its reports that
    the report does not take or that names a file outside the folder
    (:func:`~gamecore.reporting.received.check_received_parameters`), an ``only`` name that
    is no report of the folder, and work past what verify reruns (:func:`check_work`).

    Parameters
    ----------
    reports : Path
        The reports folder.
    manifest : dict
        Its manifest (:func:`read_manifest`).
    only : sequence of str or None
        The reports the user asked for (``--only``), or None: every one.
    known : sequence of str
        Every report this gamecore builds.

    Returns
    -------
    list of str
        The reports to rerun, sorted.
    """
    listed = manifest["reports"]
    for name in listed:
        if name not in known:
            raise GamecoreError(
                f"{path_text(reports / MANIFEST)}: report {shown(name)} is not one of "
                f"{', '.join(known)}"
            )
    check_received_parameters(reports, listed, path_text(reports / MANIFEST))
    names = sorted(listed if only is None else set(only))
    held = [name for name in report_folders(reports) if name in known]
    for name in names:
        if name not in known:
            raise GamecoreError(
                f"report {shown(name)} is not one of gamecore's reports"
                f"{did_you_mean(name, list(known))}: {', '.join(known)}"
            )
        if name not in held and name not in listed:
            raise GamecoreError(
                f"report {shown(name)} is not in {path_text(reports)} (its reports: "
                f"{', '.join(held) or 'none'})"
            )
    for name in names:  # every report's, before the first runs
        if name in listed:
            check_work(name, listed[name]["parameters"])
    return names


def recompute(
    reports: Path, manifest: dict, simulations: bool, names: Sequence[str]
) -> list[str]:
    """Rerun the reports ``names`` from the parameters the manifest records (each checked,
    :func:`reports_to_rerun`) and compare every CSV
    (:func:`~gamecore.reporting.compare.compare_table`), the summary and figures
    (:func:`~gamecore.reporting.compare.compare_derived`) and the workbook
    (:mod:`gamecore.reporting.bookcompare`); one line per mismatch. The
    scratch folder is removed however the rerun ends (SIGTERM included).

    Parameters
    ----------
    reports : Path
        The reports folder.
    manifest : dict
        Its manifest (:func:`read_manifest`), found to agree with the folder.
    simulations : bool
        Whether simulated columns are compared (bit for bit).
    names : sequence of str
        The reports to rerun.

    Returns
    -------
    list of str
        The mismatches, missing and extra files.
    """
    from gamecore.reporting import build as report_build

    reports = Path(reports)
    problems = []
    with terminated_as_interrupt():
        with tempfile.TemporaryDirectory(
            prefix="gamecore-verify-", ignore_cleanup_errors=True
        ) as scratch:
            for number, name in enumerate(names, start=1):
                parameters = manifest["reports"][name]["parameters"]
                with report_build.timed(f"[{number}/{len(names)}] {name}: rerun"):
                    report_build.build(
                        Path(scratch) / "reports", parameters, only=[name], progress=False
                    )
                problems += _compare_report(
                    reports, name, Path(scratch) / "reports" / name, simulations
                )
    return problems


def verify(
    reports: Path, simulations: bool = False, only=None, public_key: Path | None = None
) -> list[str]:
    """Every mismatch of ``reports`` against its manifest and a rerun, one line each (none:
    the build is confirmed).

    Parameters
    ----------
    reports : Path
        The reports folder.
    simulations : bool, default False
        Whether simulated columns are compared (bit for bit).
    only : iterable of str, optional
        The reports to rerun (default every report of the folder).
    public_key : Path, optional
        Check the manifest's signature by this key first: a missing or bad one is the only
        line (nothing is rerun).

    Returns
    -------
    list of str
        The signature's problem alone; or the hashes' problems, then the folder's
        disagreements with the manifest (and nothing rerun) or the rerun's mismatches.
    """
    from gamecore.reporting.build import available_notebooks
    from gamecore.reporting.signing import check_signature

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
        if public_key is not None:
            problem = check_signature(reports, Path(public_key))
            if problem is not None:
                return [problem]
        manifest = read_manifest(reports)
        known = list(available_notebooks())
        names = reports_to_rerun(reports, manifest, only, known)
        problems = check_hashes(reports, manifest)
        present, disagreements = check_folder(reports, manifest, known)
    if disagreements:  # the rerun would take parameters the folder does not confirm
        return problems + disagreements
    rerun = present if only is None else names  # the folder's reports: the manifest's too
    problems += recompute(reports, manifest, simulations, rerun)
    if not problems and rerun == present:  # every report confirmed: the index is theirs
        problems += check_index(reports)
    return problems


#: The largest index page read (a full build's is under 100 kB).
MAX_INDEX_BYTES = 16 << 20


def check_index(reports: Path) -> list[str]:
    """``index.html`` against the index written again from the (confirmed) reports folder at
    the time the page states: every figure, parameter and file it lists must be the same
    bytes, so a figure altered in the index alone fails whatever the manifest says.

    Parameters
    ----------
    reports : Path
        The reports folder, every report confirmed.

    Returns
    -------
    list of str
        One line when the page differs (or is unreadable), else none; a missing page is
        the hashes' to name.
    """
    from gamecore.reporting import build as report_build
    from gamecore.reporting.finalize import INDEX, final_state
    from gamecore.reporting.index import index_page, notebook_defaults, stated_build_time

    path = reports / INDEX
    if not path.is_file():
        return []
    try:
        text = read_bounded(path, MAX_INDEX_BYTES, INDEX).decode("utf-8")
    except (GamecoreError, UnicodeDecodeError) as error:
        return [f"{INDEX}: cannot be compared ({error})"]
    built_at = stated_build_time(text)
    if built_at is None:
        return [f"{INDEX}: states no build time where the index writes it"]
    notebooks = report_build.available_notebooks()
    state = final_state(reports, reports / ".gamecore-no-staging", [], notebooks)
    page = index_page(state, notebook_defaults(notebooks), built_at)
    if page != text:
        return [f"{INDEX}: differs from the index written again from the confirmed reports"]
    return []


def verify_command(
    reports: str,
    simulations: bool,
    only: Sequence[str] | None,
    public_key: str | None = None,
) -> int:
    """``gamecore verify REPORTS``: a line per mismatch and exit 1, or one line and exit 0.

    Parameters
    ----------
    reports : str
        The reports folder.
    simulations : bool
        Compare the simulated figures too.
    only : sequence of str or None
        Recompute only these reports.
    public_key : str or None
        Check the manifest's signature by this public key first.

    Returns
    -------
    int
        The exit status: 0 when everything matches, else 1 (a line per mismatch, or one
        line saying why the rebuild failed, on standard error).
    """
    from gamecore.errors import one_line
    from gamecore.reporting.build import ReportBuildError

    try:
        with contextlib.redirect_stdout(sys.stderr):  # the rebuild's progress lines
            problems = verify(Path(reports), simulations, only, public_key)
    except ReportBuildError as error:
        print(f"gamecore: verify: {one_line(str(error))}", file=sys.stderr)
        return 1
    for line in problems:
        print(line)
    if problems:
        print(f"{len(problems)} mismatch{'' if len(problems) == 1 else 'es'}", file=sys.stderr)
        return 1
    print(confirmed(Path(reports), simulations, only, public_key is not None))
    return 0


def confirmed(reports: Path, simulations: bool, only: Sequence[str] | None, signed: bool) -> str:
    """The line verify ends with when nothing differs: what it checked, naming the reports
    it reran; with ``only`` fewer than the folder's, that only those were rerun and which
    were not, never "every exact figure" of the folder; and each file it checked by its
    hash only (:func:`~gamecore.reporting.compare.hash_only`), never a match claimed for a
    file not compared.

    Parameters
    ----------
    reports : Path
        The reports folder, confirmed.
    simulations : bool
        Whether the simulated figures were compared bit for bit.
    only : sequence of str or None
        The reports the user asked to rerun (``--only``), or None: every one.
    signed : bool
        Whether the signature was checked.

    Returns
    -------
    str
        The line.
    """
    present = report_folders(reports)  # every one a report: verify said so
    rerun = sorted(set(only)) if only is not None else present
    figures = "every exact figure" + (
        " and every simulated one" if simulations else ", every simulated twin"
    )
    signature = "the signature, " if signed else ""
    hashed_only = hash_only(reports, rerun, every=rerun == present)
    by_hash = f"; checked by hash only: {', '.join(hashed_only)}" if hashed_only else ""
    if rerun == present:
        which = f"every report rerun: {', '.join(rerun)}" if rerun else "no report to rerun"
        return f"{reports}: {signature}every file's hash, {figures} match ({which}){by_hash}"
    those = "its" if len(rerun) == 1 else "their"
    were = "was" if len(rerun) == 1 else "were"
    others = ", ".join(name for name in present if name not in rerun)
    return (
        f"{reports}: {signature}every file's hash matches; only {', '.join(rerun)} {were} "
        f"rerun, and {those} {figures} match (not rerun: {others}){by_hash}"
    )


def command(args: Any) -> int:
    """``gamecore verify``, ``gamecore sign`` or ``gamecore keygen``, as ``args`` say.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (its ``command`` and that command's options).

    Returns
    -------
    int
        The exit status.
    """
    from gamecore.reporting import signing

    if args.command == "keygen":
        return signing.keygen_command(args.private, args.public)
    if args.command == "sign":
        return signing.sign_command(args.reports, args.key)
    return verify_command(args.reports, args.simulations, args.only, args.public_key)
