"""Reports: what a notebook writes (:class:`Report`: tables as CSV, figures as PNG,
provenance), the figures it draws (:mod:`~gamecore.reporting.plots`), and the build that runs
every notebook with papermill into ``reports/`` (:mod:`~gamecore.reporting.build`, what
``make reports`` runs).

``Report`` and ``rule_card`` are imported when first used: they need pandas, which the build's
own machinery (putting a build in place, the manifest) does not.
"""

from importlib import import_module

__all__ = ["Report", "git_commit", "rule_card"]

_HOME = {
    "Report": "gamecore.reporting.report",
    "rule_card": "gamecore.reporting.report",
    "git_commit": "gamecore.reporting.manifest",
}


def __getattr__(name: str):
    if name in _HOME:
        return getattr(import_module(_HOME[name]), name)
    raise AttributeError(f"module 'gamecore.reporting' has no attribute {name!r}")
