"""What a notebook uses to write its report: tables as CSV, figures as PNG, provenance.

A notebook creates one :class:`Report` after its parameters cell
(``Report.for_notebook(name, globals())``, which reads the parameters cell's names and their
values, so they are written once) and passes every table and figure it shows through it, so
the executed notebook, the HTML page and the CSV/PNG files always hold the same numbers.
``key_figures`` feeds the line the report gets on the index page; ``provenance`` closes
every report.
"""

from __future__ import annotations

import ast
import datetime as _dt
import errno
import io
import json
import os
import platform
import stat
import tempfile
import time
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import pandas as pd

import gamecore
from gamecore import games, strictjson
from gamecore.errors import did_you_mean, shown
from gamecore.reading import path_text
from gamecore.reporting import numbers
from gamecore.reporting.manifest import git_commit
from gamecore.twins import TWIN_COLUMNS

#: Windows-1252's typographic punctuation (bytes 0x91-0x97: quotes, bullet, dashes) as it
#: reads when those bytes are decoded as Mac Roman: how the c21 baccarat card reached us
#: ("Player/Dealerís", "ìactionî"). Each mis-read character -> the one the card's author typed.
MOJIBAKE = {
    bytes([code]).decode("mac_roman"): bytes([code]).decode("cp1252") for code in range(0x91, 0x98)
}


def repaired(text: str) -> str:
    """``text`` with Windows-1252 punctuation that was read as Mac Roman put back
    (:data:`MOJIBAKE`: ``í`` -> ``’``, ``ì`` -> ``“``, ``î`` -> ``”``, ...). The rule cards
    are English text, in which those accented letters do not otherwise occur.

    Parameters
    ----------
    text : str
        A rule card's text as received.

    Returns
    -------
    str
        The text with every mis-read character replaced.
    """
    return text.translate(str.maketrans(MOJIBAKE))


def rule_card(game: str, as_received: bool = False) -> str:
    """The rule card of ``game``, the one its registry entry names
    (:attr:`gamecore.game.Game.rule_card`): its text as received (seed text, unedited), or,
    by default, as its author wrote it (:func:`repaired`: one card reached us with its
    quotation marks mis-decoded).

    Parameters
    ----------
    game : str
        A game's code name.
    as_received : bool, default False
        The file's text unedited (what its SHA-256 is taken of), not repaired.

    Returns
    -------
    str
        The card's text (a game with none: a :class:`GamecoreError` listing those with one).
    """
    card = games.game(game).rule_card
    if card is None:
        raise gamecore.GamecoreError(
            f"no rule card for {shown(game)}; cards: {', '.join(games.rule_cards())}"
        )
    text = resources.files("gamecore.rulecards").joinpath(f"{card}.txt").read_text("utf-8")
    return text if as_received else repaired(text)


#: The repository's notebooks, one per report.
NOTEBOOK_DIR = Path(__file__).resolve().parents[2] / "notebooks"


def notebook_parameters(name: str, notebook_dir: Path = NOTEBOOK_DIR) -> list[str]:
    """The parameter names notebook ``name`` declares in its cell tagged ``parameters``, in
    order (papermill's reading of that cell).

    Parameters
    ----------
    name : str
        The notebook's name, without ``.ipynb``.
    notebook_dir : Path, default :data:`NOTEBOOK_DIR`
        The folder it is in.

    Returns
    -------
    list of str
        The names (no such notebook: a :class:`GamecoreError`).
    """
    import papermill

    path = Path(notebook_dir) / f"{name}.ipynb"
    if not path.is_file():
        raise gamecore.GamecoreError(f"no notebook {path}")
    return list(papermill.inspect_notebook(str(path)))


#: The types papermill gives a parameter's value (it writes each as a Python literal).
_LITERAL_TYPES = (bool, int, float, str, list, dict, tuple, type(None))


def notebook_names(name: str, notebook_dir: Path = NOTEBOOK_DIR) -> set[str]:
    """Every name notebook ``name``'s own code binds anywhere (assignments, imports,
    definitions, loop variables), read from its cells without running them.

    Parameters
    ----------
    name : str
        The notebook's name, without ``.ipynb``.
    notebook_dir : Path, default :data:`NOTEBOOK_DIR`
        The folder it is in.

    Returns
    -------
    set of str
        The names (a cell that is not plain Python, a magic, adds none).
    """
    cells = json.loads((Path(notebook_dir) / f"{name}.ipynb").read_text("utf-8"))["cells"]
    names = set()
    for cell in cells:
        if cell.get("cell_type") != "code":
            continue
        try:
            tree = ast.parse("".join(cell.get("source", "")))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def injected_unknown(name: str, namespace: Mapping[str, Any], declared: list[str]) -> list[str]:
    """The names in ``namespace`` that the notebook neither declares as parameters nor binds
    itself, holding a value papermill could have given: parameters passed that the notebook
    does not take (``-p deck 6`` for ``decks``), which papermill only warns about.

    Parameters
    ----------
    name : str
        The notebook's name.
    namespace : Mapping of str to Any
        Its ``globals()``.
    declared : list of str
        Its parameters (:func:`notebook_parameters`).

    Returns
    -------
    list of str
        The names, in the namespace's order.
    """
    own = notebook_names(name) | set(declared) | {"In", "Out"}  # and IPython's history
    return [
        key
        for key, value in namespace.items()
        if not key.startswith("_") and key not in own and isinstance(value, _LITERAL_TYPES)
    ]


def _style(frame: pd.DataFrame):
    """The table for display in the one number style of the PDFs
    (:mod:`gamecore.reporting.numbers`); the CSV keeps full precision. Its cells and headers
    are HTML-escaped: an outcome named ``<script>`` is shown, never run (Styler escapes
    nothing by default)."""
    headers, rows, aligns = numbers.format_frame(frame)
    shown_ = pd.DataFrame(rows, columns=[numbers.plain_text(h) for h in headers])
    if shown_.columns.has_duplicates:  # keep the frame's headers where print would merge them
        shown_.columns = frame.columns
    left = [c for c, a in zip(shown_.columns, aligns, strict=True) if a == "left"]
    right = [c for c, a in zip(shown_.columns, aligns, strict=True) if a == "right"]
    return (
        shown_.style.format(escape="html")
        .format_index(escape="html", axis=1)
        .set_properties(subset=left, **{"text-align": "left"})
        .set_properties(subset=right, **{"text-align": "right"})
        .hide(axis="index")
    )


def private_folder(name: str) -> Path:
    """A new folder for report ``name``'s files in the system's temporary folder, made
    atomically by :func:`tempfile.mkdtemp` under a name no one can know beforehand
    (``gamecore-NAME-xxxxxxxx``) and readable by its owner only (mode 0700): a fixed name
    there (``gamecore-notebooks/NAME``, as it was) is one another user of the machine can
    make first, or make a link, so the report's files went where they chose.

    Parameters
    ----------
    name : str
        The report's name.

    Returns
    -------
    Path
        The folder, empty.
    """
    return Path(tempfile.mkdtemp(prefix=f"gamecore-{name}-"))


def write_new(path: Path, data: bytes) -> None:
    """Write ``data`` to the file ``path``, never through a link nor into anything but a
    regular file: a link planted at that name (a folder another user can write to given as
    ``output_dir``) is refused, naming the file, where writing would overwrite the file it
    points at; so is a FIFO, which would hold the notebook until someone read it.

    Parameters
    ----------
    path : Path
        The file (made, or its content replaced if it is a regular file).
    data : bytes
        Its content.
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
    try:
        descriptor = os.open(path, flags, 0o666)
    except OSError as error:
        if error.errno not in (errno.ELOOP, errno.ENXIO):  # a link; a FIFO no one reads
            raise
        descriptor = None
    if descriptor is not None and not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        descriptor = None
    if descriptor is None:
        raise gamecore.GamecoreError(
            f"{path_text(path)} is a link or not a regular file: a report's file is written "
            "only as a regular file of its folder"
        )
    with os.fdopen(descriptor, "wb") as file:
        file.truncate()  # only now: a FIFO or a device is never truncated
        file.write(data)


class Report:
    """Collects one notebook's tables, figures and key figures into ``output_dir``.

    Parameters
    ----------
    output_dir
        Folder the CSV and PNG files go to (created if missing).
    name
        The report's short name (the notebook's).
    parameters
        The notebook's parameter values, printed in the provenance.
    seed
        The random seed used, if any.
    """

    def __init__(
        self, output_dir: str | Path, name: str, parameters: dict[str, Any], seed: int | None = None
    ) -> None:
        if not isinstance(parameters, Mapping):
            raise gamecore.GamecoreError(f"parameters must be a mapping, got {shown(parameters)}")
        self.output_dir = Path(output_dir)
        self.output_dir.mkdir(parents=True, exist_ok=True)
        self.name = name
        self.parameters = dict(parameters)
        self.seed = seed
        self.started = time.perf_counter()
        self.started_at = _dt.datetime.now(_dt.UTC)
        self.files: list[str] = []
        self.tables: dict[str, list[str]] = {}  # each CSV's simulated columns
        self._key_figures: dict[str, Any] = {}

    @classmethod
    def for_notebook(cls, name: str, namespace: Mapping[str, Any]) -> Report:
        """The report of notebook ``name``, its parameters written once: the names its cell
        tagged ``parameters`` declares (as papermill reads it), the values as they stand in
        ``namespace`` (the notebook's ``globals()``, papermill's overrides applied), the
        output folder ``output_dir`` and the random seed ``seed`` (if declared) among them.

        Parameters
        ----------
        name : str
            The notebook's name.
        namespace : Mapping of str to Any
            The notebook's ``globals()``.

        Returns
        -------
        Report
            Writing to ``output_dir``; ``None`` there (the notebooks' default, run by hand)
            writes to a new private folder of the system's temporary folder
            (:func:`private_folder`), printed, never to the working directory. A declared
            name undefined, no
            ``output_dir`` declared, or a parameter given that the notebook does not take
            (papermill only warns): a :class:`GamecoreError`, naming it.
        """
        declared = notebook_parameters(name)
        missing = [k for k in declared if k not in namespace]
        if missing or "output_dir" not in declared:
            raise gamecore.GamecoreError(
                f"notebook {name}: parameter {shown((missing or ['output_dir'])[0])} is not defined"
            )
        unknown = injected_unknown(name, namespace, declared)
        if unknown:
            taken = [k for k in declared if k != "output_dir"]
            raise gamecore.GamecoreError(
                f"notebook {name}: unknown parameter {shown(unknown[0])}"
                f"{did_you_mean(unknown[0], taken)}; parameters: {', '.join(taken)}"
            )
        parameters = {k: namespace[k] for k in declared if k != "output_dir"}
        output_dir = namespace["output_dir"]
        if output_dir is None:  # run by hand: never the working directory (the repository)
            output_dir = private_folder(name)
            print(f"output_dir not given: this report's tables and figures go to {output_dir}")
        return cls(output_dir, name, parameters, seed=parameters.get("seed"))

    def table(
        self,
        frame: pd.DataFrame,
        name: str,
        show_rows: int | None = None,
        simulated: bool = False,
    ):
        """Write ``frame`` to ``<name>.csv`` and return it styled for display.

        ``show_rows`` limits the display (not the CSV) to the first rows of a long table.
        ``simulated`` marks a table of simulated figures; a twin table's Simulated, SE and z
        columns are marked without it. The marks (``summary.json``, ``"tables"``) tell
        ``gamecore verify`` which cells are exact (recomputed and compared to 1e-12) and
        which are simulated (compared only with ``--simulations``, bit for bit).

        Parameters
        ----------
        frame : pandas.DataFrame
            The table.
        name : str
            The CSV file's name, without ``.csv``.
        show_rows : int, optional
            Rows displayed (default all).
        simulated : bool, default False
            Whether every column is simulated.

        Returns
        -------
        pandas.io.formats.style.Styler
            The table (its first ``show_rows`` rows) formatted for reading.
        """
        path = self.output_dir / f"{name}.csv"
        write_new(path, frame.to_csv(index=False).encode("utf-8"))
        self.files.append(path.name)
        columns = [str(c) for c in frame.columns]
        if simulated:
            self.tables[path.name] = columns
        elif columns[: len(TWIN_COLUMNS)] == list(TWIN_COLUMNS):
            self.tables[path.name] = ["Simulated", "SE", "z"]
        else:
            self.tables[path.name] = []
        return _style(frame if show_rows is None else frame.head(show_rows))

    def figure(self, figure, name: str):
        """Write a matplotlib figure to ``<name>.png`` and return that PNG for display, so the
        notebook, the HTML page and the file show the same image.

        Parameters
        ----------
        figure : matplotlib.figure.Figure
            The figure (saved at 150 dpi).
        name : str
            The PNG file's name, without ``.png``.

        Returns
        -------
        IPython.display.Image
            The PNG written.
        """
        from IPython.display import Image

        path = self.output_dir / f"{name}.png"
        png = io.BytesIO()
        figure.savefig(png, format="png", dpi=150, bbox_inches="tight")
        write_new(path, png.getvalue())
        self.files.append(path.name)
        return Image(filename=str(path), alt=figure_description(figure, name))

    def key_figures(self, title: str, **figures: Any) -> None:
        """Record the figures the index page shows for this report.

        Parameters
        ----------
        title : str
            The report's title on the index page.
        **figures : Any
            Label -> figure, in the order shown.
        """
        self._key_figures = {"title": title, "figures": figures}
        self._write_summary()

    def _write_summary(self, **extra: Any) -> None:
        summary = {
            "name": self.name,
            "parameters": self.parameters,
            **self._key_figures,
            "files": sorted(set(self.files)),
            "files_in_order": list(dict.fromkeys(self.files)),
            "tables": {"simulated_columns": self.tables},
            **extra,
        }
        write_new(self.output_dir / "summary.json", (strictjson.dumps(summary) + "\n").encode())

    def check_limits(self) -> None:
        """Write ``limits.csv``: each wager of the report's hold monitoring table against the
        limits of the report parameter ``limits`` (none given: each wager's row says so),
        :func:`gamecore.limits.check.limits_table`; nothing where the report wrote no hold
        monitoring table. :meth:`provenance` calls it, once every table is written.
        """
        from gamecore.limits.check import limits_table

        frame = limits_table(
            self.output_dir, self.name, self.parameters.get("limits"), list(self.files)
        )
        if frame is not None:
            self.table(frame, "limits")

    def provenance(self) -> pd.DataFrame:
        """The provenance table that ends every report (also written as CSV).

        Returns
        -------
        pandas.io.formats.style.Styler
            Item | Value (version, commit, parameters, seed, start, run time, software,
            machine), as :meth:`table` returns it; ``summary.json`` is written too, and
            before it ``limits.csv`` (:meth:`check_limits`).
        """
        import numba
        import numpy

        elapsed = time.perf_counter() - self.started
        rows = [
            ("gamecore version", gamecore.__version__),
            ("git commit", git_commit()),
            ("report", self.name),
            ("parameters", strictjson.dumps(self.parameters, indent=None)),
            ("random seed", "none (exact computation only)" if self.seed is None else self.seed),
            ("started (UTC)", self.started_at.isoformat(timespec="seconds")),
            ("run time (s)", f"{elapsed:.2f}"),
            ("python", platform.python_version()),
            (
                "numpy / numba / pandas",
                f"{numpy.__version__} / {numba.__version__} / {pd.__version__}",
            ),
            ("machine", f"{platform.machine()} {platform.system()}"),
        ]
        frame = pd.DataFrame(rows, columns=["Item", "Value"])
        frame["Value"] = frame["Value"].astype(str)
        self.check_limits()
        self._write_summary(run_time_seconds=round(elapsed, 2), commit=git_commit())
        return self.table(frame, "provenance")


def figure_description(figure, name: str) -> str:
    """A figure's text alternative for the HTML page: its titles (the figure's, then each
    plot's), else its file's name in words.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        The figure.
    name : str
        Its PNG file's name, without ``.png``.

    Returns
    -------
    str
        The description.
    """
    titles = [figure.get_suptitle()] + [axes.get_title() for axes in figure.get_axes()]
    return "; ".join(t for t in titles if t) or name.replace("_", " ").capitalize()
