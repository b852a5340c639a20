"""What the parameters of a received manifest may be, checked before ``gamecore verify``
reruns anything (issue 42, items 11 and 13).

A manifest comes from whoever sent the folder. Before the first report reruns, every
report it lists is held to two rules, each refusal one line naming the manifest, the
report and the parameter as written:

* every parameter is one the report's notebook declares (a build refuses any other, but
  only when it reaches that report: after the reports before it reran);
* a parameter that names a file (:data:`FILE_PARAMETERS`: a side bet's definition, a
  strategy chart, a limits file) names one inside the reports folder, by its absolute
  path (a build records every file so): a received manifest names no file outside its
  folder. The file is not opened to refuse it, so nothing of another file is echoed.

A limits file's content, not its path, is what a build records (the rerun needs no file);
a built-in side bet is a name, not a file.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from gamecore.errors import GamecoreError, did_you_mean, shown
from gamecore.reading import path_text
from gamecore.reporting.parameters import BUILD_PARAMETERS

#: The report parameters whose text values name files, and what each names: a blackjack
#: report's strategy chart, the side bets' definitions (a list; a built-in's name is not a
#: file), a limits file (recorded as its content; a path is the file).
FILE_PARAMETERS = {
    "chart_file": "a strategy chart",
    "side_bets": "a side bet's definition",
    "limits": "a limits file",
}


def declared_parameters(report: str) -> list[str]:
    """The parameters report ``report``'s notebook declares, but the build's own.

    Parameters
    ----------
    report : str
        A report gamecore builds.

    Returns
    -------
    list of str
        Their names, in the notebook's order.
    """
    import papermill

    from gamecore.reporting.build import available_notebooks

    declared = papermill.inspect_notebook(str(available_notebooks()[report]))
    return [name for name in declared if name not in BUILD_PARAMETERS]


def named_files(name: str, value: Any) -> Iterator[tuple[str, str]]:
    """The files parameter ``name`` names by ``value``: (how a message names the item,
    the path as written); none for a parameter that names no file.

    Parameters
    ----------
    name : str
        The parameter's name.
    value : Any
        Its value as the manifest records it.

    Yields
    ------
    tuple of (str, str)
        ``("side_bets[2]", "/path/bet.yaml")``, for example.

    Examples
    --------
    >>> list(named_files("side_bets", ["small", "/x/my.yaml"]))
    [('side_bets[1]', '/x/my.yaml')]
    >>> list(named_files("chart_file", "")), list(named_files("limits", {"file": "a.yaml"}))
    ([], [])
    """
    if name == "side_bets" and isinstance(value, list):
        from gamecore.sidebets.definition import builtin_names

        builtins = builtin_names()
        for index, item in enumerate(value):
            if isinstance(item, str) and item not in builtins:
                yield f"{name}[{index}]", item
    elif name in FILE_PARAMETERS and isinstance(value, str) and value:
        yield name, value


def _inside(reports: Path, path: str) -> bool:
    """Whether ``path``, absolute, is a file's inside ``reports`` once every link in both
    is followed (:func:`os.path.realpath` reads links, never a file)."""
    if not os.path.isabs(path):
        return False
    try:
        folder = Path(os.path.realpath(reports))
        target = Path(os.path.realpath(path))
    except (ValueError, OSError):  # a NUL in the path: no file's
        return False
    return target != folder and target.is_relative_to(folder)


def check_received_parameters(reports: Path, entries: Mapping[str, Any], where: str) -> None:
    """Refuse, before anything runs, a parameter of any report of the manifest that its
    notebook does not declare, or that names a file outside ``reports``.

    Parameters
    ----------
    reports : Path
        The reports folder.
    entries : Mapping
        The manifest's ``reports`` (each a report gamecore builds, with its
        ``parameters``).
    where : str
        How the message names the manifest.

    Raises
    ------
    GamecoreError
        One line naming the manifest, the report and the parameter as written.
    """
    for report in sorted(entries):
        parameters = entries[report]["parameters"]
        declared = declared_parameters(report)
        for name in parameters:
            if name not in declared:
                raise GamecoreError(
                    f"{where}: report {report}: {shown(name)} is not one of its parameters"
                    f"{did_you_mean(name, declared)}"
                )
        for name, value in parameters.items():
            for item, path in named_files(name, value):
                if not _inside(reports, path):
                    raise GamecoreError(
                        f"{where}: report {report}: {item} {path_text(path)} names "
                        f"{FILE_PARAMETERS[name]} outside {path_text(reports)}: a received "
                        "manifest names no file outside its folder (verify opens none)"
                    )
