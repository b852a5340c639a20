"""What the parameters of a received manifest may be, checked before ``gamecore verify``
reruns anything (issue 42, item 13).

A manifest comes from whoever sent the folder. Before the first report reruns, every
report it lists is held to this rule, a refusal one line naming the manifest, the report
and the parameter as written: every parameter is one the report's notebook declares (a
build refuses any other, but only when it reaches that report: after the reports before
it reran).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gamecore.errors import GamecoreError, did_you_mean, shown
from gamecore.reporting.parameters import BUILD_PARAMETERS


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


def check_received_parameters(reports: Path, entries: Mapping[str, Any], where: str) -> None:
    """Refuse, before anything runs, a parameter of any report of the manifest that its
    notebook does not declare.

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
