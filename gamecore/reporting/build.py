"""Build ``reports/``: run every notebook with papermill, export HTML, write the index and
the manifest (:mod:`gamecore.reporting.manifest`).

``python -m gamecore.reporting.build --output reports -p decks 6`` is what ``make reports`` runs.
Everything is built in a staging folder inside the output and put in place only when every
notebook has run, by the protocol of :mod:`gamecore.reporting.finalize`: at every instant the
folder holds the previous build or the new one, each complete with a manifest that matches
it; what a build that was killed left behind is completed or removed by the next one. Bad
parameters exit with status 2 and one line naming the file, line or value; a failing notebook
exits 1 with the notebook's error; Ctrl-C exits 130, SIGTERM 143, each removing what the build
made (its kernel's connection file among them, :mod:`gamecore.reporting.kernels`).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # before the imports below load numba: gamecore.environment
    from gamecore.environment import start_program

    start_program("make reports")

from gamecore import games, strictjson
from gamecore.errors import GamecoreError, did_you_mean, one_line, shown
from gamecore.limits import checked_limits
from gamecore.reading import (
    MAX_PARAMETERS_BYTES,
    path_text,
    read_yaml,
    read_yaml_file,
)
from gamecore.reporting.answer import answer_section
from gamecore.reporting.document import report_title, write_documents
from gamecore.reporting.finalize import CommittedInterrupt, open_staging
from gamecore.reporting.index import index_page, notebook_defaults
from gamecore.reporting.kernels import (
    TERMINATED,
    end_on_sigterm,
    kernel_manager,
    private_kernel_folder,
)
from gamecore.reporting.manifest import MANIFEST
from gamecore.reporting.parameters import (
    REPORT_WORK,
    check_report_parameters,
    given_once,
    overrides,
    parameter_table,
)
from gamecore.reporting.report import NOTEBOOK_DIR
from gamecore.reporting.workbook import write_workbook

REPO_ROOT = Path(__file__).resolve().parents[2]
KERNEL_NAME = "gamecore"


class ReportBuildError(RuntimeError):
    """A notebook failed; the message names it and quotes its error."""


def available_notebooks(notebook_dir: Path = NOTEBOOK_DIR) -> dict[str, Path]:
    """Report name -> notebook path, for every notebook in ``notebooks/``.

    Parameters
    ----------
    notebook_dir : Path, default :data:`NOTEBOOK_DIR`
        The folder of the notebooks.

    Returns
    -------
    dict of str to Path
        Each ``*.ipynb`` file's name without its suffix -> its path.
    """
    return {path.stem: path for path in sorted(notebook_dir.glob("*.ipynb"))}


def ensure_kernel() -> str:
    """Register this interpreter as the ``gamecore`` Jupyter kernel if it is not yet.

    papermill needs a kernel by name; registering one inside ``sys.prefix`` (the project's
    virtual environment) means a fresh machine and CI find the interpreter that has gamecore.

    Returns
    -------
    str
        The kernel's name, :data:`KERNEL_NAME`.
    """
    from jupyter_client.kernelspec import KernelSpecManager

    manager = KernelSpecManager()
    try:
        spec = manager.get_kernel_spec(KERNEL_NAME)
        if Path(spec.argv[0]).resolve() == Path(sys.executable).resolve():
            return KERNEL_NAME
    except Exception:  # noqa: BLE001 - jupyter_client raises NoSuchKernel or others
        pass
    from ipykernel.kernelspec import install

    install(kernel_name=KERNEL_NAME, display_name="Python (gamecore)", prefix=sys.prefix)
    return KERNEL_NAME


def _declared_parameters(notebook: Path) -> dict[str, Any]:
    import papermill

    return papermill.inspect_notebook(str(notebook))


def _html_without_code(notebook_path: Path, title: str, answer: str = "") -> str:
    """The executed notebook as an HTML page titled ``title``, its code left out, the
    ``answer`` section (:func:`~gamecore.reporting.answer.answer_section`) right under its
    first heading, and each figure's text alternative (report.figure's) on its image:
    nbconvert's page template does not carry it over, so it is set here, figure by figure in
    the page's order."""
    import nbformat
    from bs4 import BeautifulSoup
    from nbconvert import HTMLExporter

    notebook = nbformat.read(str(notebook_path), as_version=4)
    quiet = logging.getLogger("gamecore.reporting.html")  # not its warning of images
    quiet.setLevel(logging.ERROR)  # without a text alternative: they get theirs below
    exporter = HTMLExporter(
        exclude_input=True, exclude_input_prompt=True, exclude_output_prompt=True, log=quiet
    )
    body, _ = exporter.from_notebook_node(notebook, resources={"metadata": {"name": title}})
    alternatives = [
        output.get("metadata", {}).get("image/png", {}).get("alt")
        for cell in notebook.cells
        for output in cell.get("outputs", [])
        if "image/png" in output.get("data", {})
    ]
    page = BeautifulSoup(body, features="html.parser")
    title_heading = page.find("h1")
    if answer and title_heading is not None:
        # After the heading's cell, so the answer stands between the title and the text.
        cell = title_heading.find_parent(class_="jp-Cell") or title_heading
        cell.insert_after(BeautifulSoup(answer, features="html.parser"))
    images = page.select(".jp-OutputArea-output img")
    if len(images) == len(alternatives):
        for image, alternative in zip(images, alternatives, strict=True):
            if alternative:
                image.attrs["alt"] = alternative
    return str(page)


def _run_notebook(source: Path, destination: Path, parameters: dict[str, Any], kernel: str) -> None:
    import papermill
    from papermill.exceptions import PapermillExecutionError

    destination.mkdir(parents=True)
    executed = destination / source.name
    try:
        with private_kernel_folder() as kernel_folder:  # its key never left behind
            papermill.execute_notebook(
                str(source),
                str(executed),
                parameters={**parameters, "output_dir": str(destination)},
                kernel_name=kernel,
                cwd=str(destination),
                progress_bar=False,
                # Not written after every cell (2 s a report): written once, at the end,
                # whether the notebook ran through or failed.
                request_save_on_cell_execute=False,
                kernel_manager_class=kernel_manager(kernel_folder),
            )
    except PapermillExecutionError as error:
        raise ReportBuildError(
            f"notebook {source.name} failed: {error.ename}: {error.evalue}"
        ) from None
    summary = destination / "summary.json"
    written = strictjson.loads(summary.read_text("utf-8")) if summary.exists() else {}
    answer = answer_section(destination, written)
    page = _html_without_code(executed, report_title(written, source.stem), answer)
    (destination / f"{source.stem}.html").write_text(page, "utf-8")
    write_workbook(destination, source.stem)  # from the CSVs just written
    import typst

    try:
        write_documents(destination, source.stem)  # the PDF and the par sheet, from the same
    except typst.TypstError as error:
        raise ReportBuildError(f"typesetting {source.stem} failed: {error}") from None


def check_rule_parameters(report: str, parameters: dict[str, Any]) -> dict[str, Any]:
    """Build the rule set a game's report will use from the given parameters that are rule
    parameters of its game (the others keep their defaults, the notebook's too), and check
    every other parameter (:mod:`gamecore.reporting.parameters`), then those a report checks
    together (its side bets' counting), so a bad value is refused, naming it, before any
    notebook runs. Returns the parameters as the notebook gets them
    (:func:`~gamecore.reporting.parameters.check_report_parameters`).

    Parameters
    ----------
    report : str
        The report's name.
    parameters : dict of str to Any
        The parameters the notebook is to get.

    Returns
    -------
    dict of str to Any
        The parameters, each checked value as its check returns it.
    """
    rules: set[str] = set()
    own: dict[str, Any] = {}
    for name in games.report_games(report):
        own |= games.game(name).report_parameters
        rules_type = games.game(name).rules_type
        names = {f.name for f in dataclasses.fields(rules_type)}
        rules |= names
        try:
            rules_type(**{k: v for k, v in parameters.items() if k in names})
        except GamecoreError as error:
            raise GamecoreError(f"report {report}: {error}") from None
        except TypeError as error:  # a value of a kind no check expected
            raise GamecoreError(f"report {report}: {error}") from None
    checked = check_report_parameters(report, parameters, rules, own)
    together = REPORT_WORK.get(report)
    if together is not None:  # the side bets' counting: their bets and deck counts at once
        defaults = notebook_defaults({report: available_notebooks()[report]})[report]
        try:
            together(defaults | checked)
        except GamecoreError as error:
            raise GamecoreError(f"report {report}: {error}") from None
    return checked


@contextlib.contextmanager
def timed(label: str, show: bool = True) -> Iterator[None]:
    """Print ``label ...`` before the block and its seconds after it (on the same line),
    even when it fails; nothing without ``show``.

    Parameters
    ----------
    label : str
        What the block does, as the line starts.
    show : bool
        Whether to print.

    Yields
    ------
    None
        While the block runs.
    """
    if show:
        print(f"{label} ...", end="", flush=True)
    started = time.monotonic()
    try:
        yield
    finally:
        if show:
            print(f" {time.monotonic() - started:.0f} s", flush=True)


def _refuse_unknown(parameters: Mapping[str, Any], declared: Mapping[str, Mapping]) -> None:
    """Refuse a parameter no selected notebook declares, naming the one meant."""
    for key in parameters:
        if not any(key in d for d in declared.values()):
            valid = sorted({p for d in declared.values() for p in d if p != "output_dir"})
            raise GamecoreError(
                f"unknown report parameter {shown(key)}{did_you_mean(key, valid)}; "
                f"parameters: {', '.join(valid)}"
            )


def build(
    output: Path,
    parameters: dict[str, Any] | None = None,
    only: Sequence[str] | None = None,
    notebook_dir: Path = NOTEBOOK_DIR,
    progress: bool = True,
    notes: Sequence[str] = (),
) -> list[Path]:
    """Execute the notebooks and write their reports and the index into ``output``.

    Parameters
    ----------
    output
        The reports folder (``reports/``).
    parameters
        Parameter values given to every notebook that declares them; a parameter no selected
        notebook declares is refused. A limits file (``limits``) is read here, once: the
        notebooks get, and the manifest records, its checked content, so a rerun needs no
        file.
    only
        Report names to build (default: every notebook).
    notebook_dir
        The folder of the notebooks (default :data:`NOTEBOOK_DIR`).
    progress
        Print ``[n/N] name ... seconds`` as each report is built, and the total.
    notes
        Lines printed to standard error once the parameters are checked, before any
        notebook runs (``make reports: note: ...``: a ``-p`` that overrides the file's value).

    Returns
    -------
    list of Path
        The report folders written.
    """
    parameters = dict(parameters or {})
    given = output  # as the user gave it, for a message
    # Notebooks run with their report folder as working directory: paths must be absolute.
    output = Path(output).resolve()
    notebooks = available_notebooks(notebook_dir)
    selected = check_reports(only, notebooks)
    declared = {name: _declared_parameters(notebooks[name]) for name in selected}
    _refuse_unknown(parameters, declared)
    if isinstance(parameters.get("limits"), str):  # a file: read once, for every report
        parameters["limits"] = checked_limits("limits", parameters["limits"])
    own = {  # a bad value fails here, before any notebook runs
        name: check_rule_parameters(
            name, {k: v for k, v in parameters.items() if k in declared[name]}
        )
        for name in selected
    }

    for note in notes:  # after the checks: a refused build says one line, its error
        print(f"make reports: note: {one_line(note)}", file=sys.stderr)
    kernel = ensure_kernel()
    try:
        staging = open_staging(output)
    except OSError as error:  # a read-only checkout, a file on the way, no such folder
        raise GamecoreError(
            f"--output {path_text(given)}: cannot write the reports there ({error.strerror})"
        ) from None
    try:
        for line in staging.recovered.notes():  # what recovery removed, and what it left
            print(f"make reports: note: {one_line(line)}", file=sys.stderr)
        started = time.monotonic()
        for number, name in enumerate(selected, start=1):
            # Where the build is and how long each report took: one takes minutes.
            with timed(f"[{number}/{len(selected)}] {name}", progress):
                _run_notebook(notebooks[name], staging.report(name), own[name], kernel)
        page = functools.partial(index_page, defaults=notebook_defaults(notebooks))
        state = staging.commit(selected, known=notebooks, index_page=page)
        if progress:
            reports = "report" if len(selected) == 1 else "reports"
            print(f"built {len(selected)} {reports} in {time.monotonic() - started:.0f} s")
    finally:
        staging.close()
    for line in state.not_reports:
        print(f"note: {line}", file=sys.stderr)
    return [output / name for name in selected]


def parameter_value(name: str, text: str) -> Any:
    """A command-line parameter value (``-p NAME VALUE``), read as the same strict YAML as
    a parameters file (:func:`gamecore.reading.read_yaml`): ``6`` -> 6, ``0.05`` -> 0.05,
    ``[6, 8]`` -> a list, ``auto`` -> text; ``010``, ``0x10``, ``yes`` refused.

    Parameters
    ----------
    name : str
        The parameter's name, as a message shows it.
    text : str
        The value as typed.

    Returns
    -------
    Any
        The value: a number, a list, a bool, None or text.

    Examples
    --------
    >>> parameter_value("decks", "6"), parameter_value("sweep_deck_counts", "[6, 8]")
    (6, [6, 8])
    """
    source = f"parameter {shown(name)}"
    if len(text) > MAX_PARAMETERS_BYTES:  # a UTF-8 character is a byte or more
        raise GamecoreError(
            f"{source}: a value of {len(text):,} characters; at most {MAX_PARAMETERS_BYTES:,} "
            "are read"
        )
    return read_yaml(text, source, value=True)


def read_parameters_file(path: Path) -> dict[str, Any]:
    """The parameters of a YAML file: a mapping of names to values, read strictly
    (:func:`gamecore.reading.read_yaml`) from a regular file of at most
    :data:`~gamecore.reading.MAX_PARAMETERS_BYTES`, refusing anything else with one line
    naming the file (and the line and the value).

    Parameters
    ----------
    path : Path
        The YAML file.

    Returns
    -------
    dict of str to Any
        Parameter name -> value.
    """
    what = f"parameters file {path_text(path)}"
    loaded = read_yaml_file(path, MAX_PARAMETERS_BYTES, what)
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):  # its keys are text: read_yaml refuses any other
        raise GamecoreError(
            f"{what} must hold a mapping of parameter names to values (e.g. 'decks: 6')"
        )
    return loaded


def _quiet_after_an_interruption() -> None:
    """Once Ctrl-C has arrived, drop whatever the notebook machinery logs as it is torn down
    (asyncio's "Task exception was never retrieved: Kernel died", nbclient's "Kernel died
    while waiting for execute reply", at any moment of the unwinding, from any logger): the
    interruption is the whole story, told in one line."""

    def on_interrupt(signum, frame):
        logging.disable(logging.CRITICAL)
        signal.default_int_handler(signum, frame)

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, on_interrupt)


def print_parameters(only: Sequence[str] | None = None) -> None:
    """``make parameters``: every parameter of each report (or of those in ``only``), with
    its default, what it accepts and what it means
    (:func:`~gamecore.reporting.parameters.parameter_table`).

    Parameters
    ----------
    only : sequence of str, optional
        Report names (default: every notebook); an unknown one is refused, naming the one
        meant.
    """
    from gamecore import terminal

    notebooks = available_notebooks()
    for number, name in enumerate(check_reports(only, notebooks)):
        table = parameter_table(name, _declared_parameters(notebooks[name]))
        print(f"{chr(10) if number else ''}{name}: {len(table)} parameters")
        print(terminal.table(table, as_typed=["Default"]))
    print("\nSet them in a YAML file: make reports PARAMS=file.yaml (docs/reports.md).")


def check_reports(only: Sequence[str] | None, notebooks: Mapping[str, Path]) -> list[str]:
    """The reports ``only`` names, each once (default: every notebook); an unknown one is
    refused, naming the one meant.

    Parameters
    ----------
    only : sequence of str, optional
        Report names.
    notebooks : Mapping of str to Path
        Every report's notebook (:func:`available_notebooks`).

    Returns
    -------
    list of str
        The names, in the order given.
    """
    selected = list(dict.fromkeys(only)) if only else list(notebooks)
    for name in selected:
        if name not in notebooks:
            hint = did_you_mean(name, list(notebooks))
            raise GamecoreError(
                f"unknown report {shown(name)}{hint}; reports: {', '.join(notebooks)}"
            )
    return selected


#: The variables ``make reports`` takes from its command line (the Makefile's own, such as
#: ``PYTHON``, are the Makefile's business).
MAKE_VARIABLES = ("DECKS", "PARAMS", "ONLY")


def check_make_variables(unknown: str) -> None:
    """Refuse the variables ``make reports`` was given that it does not take (the Makefile
    passes their names, space-separated): ``DECK=6`` for ``DECKS=6`` would build the default
    report over the one asked for.

    Parameters
    ----------
    unknown : str
        The names, as the Makefile's ``GAMECORE_MAKE_UNKNOWN`` holds them; empty: none.
    """
    names = unknown.split()
    if names:
        raise GamecoreError(
            f"unknown variable {shown(names[0])}{did_you_mean(names[0], MAKE_VARIABLES)}; "
            f"make reports takes {', '.join(MAKE_VARIABLES)}"
        )


def output_folder(given: str) -> Path:
    """The reports folder ``--output`` names, checked before any work: an empty path is
    refused (the system reads it as the working folder, where nobody asked for reports), and
    so is a path that names something other than a folder.

    Parameters
    ----------
    given : str
        The path as typed.

    Returns
    -------
    Path
        The folder.
    """
    if not given:
        raise GamecoreError(
            "--output: an empty path names no folder (it would be the working folder); "
            "name the reports folder"
        )
    if os.path.exists(given) and not os.path.isdir(given):
        raise GamecoreError(
            f"--output {path_text(given)}: not a folder (a file of that name exists)"
        )
    return Path(given)


def main(argv: Sequence[str] | None = None) -> int:
    """``make reports``: build the reports from the command line.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (default ``sys.argv[1:]``): ``--output``, ``-p NAME VALUE``,
        ``-f FILE``, ``--only NAME``.

    Returns
    -------
    int
        The exit status: 0 built, 2 a bad parameter, 1 a failed build or a file error,
        130 interrupted, 143 ended by SIGTERM.
    """
    parser = argparse.ArgumentParser(prog="python -m gamecore.reporting.build", description=__doc__)
    parser.add_argument("--output", default=str(REPO_ROOT / "reports"))
    once = "repeatable, each NAME once; it wins over -f FILE's value, saying so on stderr"
    parser.add_argument(
        "-p", "--parameter", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"),
        help=f"a report parameter ({once})",
    )
    parser.add_argument("-f", "--parameters-file", type=Path, help="YAML file of parameters")
    parser.add_argument(
        "--only", action="append", help="build only this report (repeatable; a,b: both)"
    )
    parser.add_argument(
        "--list",
        action="store_true",
        help="print each report's parameters (default, allowed values, meaning); build nothing",
    )
    args = parser.parse_args(argv)
    parameters: dict[str, Any] = {}
    _quiet_after_an_interruption()
    end_on_sigterm()  # so a build ended by SIGTERM removes its kernel's key, as on Ctrl-C
    only = [name for names in args.only or [] for name in names.split(",")] or None
    command = "make parameters" if args.list else "make reports"  # what the messages say
    try:
        check_make_variables(os.environ.get("GAMECORE_MAKE_UNKNOWN", ""))
        output = output_folder(args.output)
        if args.list:
            print_parameters(only)
            return 0
        typed = given_once(args.parameter)
        if args.parameters_file:
            parameters.update(read_parameters_file(args.parameters_file))
        typed_values = {k: parameter_value(k, v) for k, v in typed.items()}
        notes = overrides(parameters, typed_values, path_text(args.parameters_file or ""))
        written = build(output, parameters | typed_values, only, notes=notes)
    except GamecoreError as error:
        print(f"{command}: error: {one_line(str(error))}", file=sys.stderr)
        return 2
    except (ReportBuildError, OSError) as error:
        print(f"{command}: error: {one_line(str(error))}", file=sys.stderr)
        return 1
    except CommittedInterrupt:
        how = "ended by SIGTERM" if TERMINATED.is_set() else "interrupted"
        print(f"make reports: {how} once the new reports were in place", file=sys.stderr)
        return 143 if TERMINATED.is_set() else 130
    except KeyboardInterrupt:
        how = "ended by SIGTERM" if TERMINATED.is_set() else "interrupted"
        print(f"make reports: {how}; earlier reports are untouched", file=sys.stderr)
        return 143 if TERMINATED.is_set() else 130
    for path in written:
        print(f"wrote {path}")
    print(f"wrote {output / 'index.html'}")
    print(f"wrote {output / MANIFEST}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
