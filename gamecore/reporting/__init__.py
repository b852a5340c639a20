"""Reports: what a notebook writes (:class:`Report`: tables as CSV, figures as PNG,
provenance), the figures it draws (:mod:`~gamecore.reporting.plots`), and the build that runs
every notebook with papermill into ``reports/`` (:mod:`~gamecore.reporting.build`, what
``make reports`` runs)."""

from gamecore.reporting.report import Report, git_commit, rule_card

__all__ = ["Report", "git_commit", "rule_card"]
