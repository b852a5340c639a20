"""reports/index.html as a reviewer reads and prints it (issue 30, issue 32 item 4): two
reports of different parameter sets, their folders written here by hand, the expected text
written out, not taken from the code."""

import datetime
import json
import re

import pytest

from gamecore.reporting.finalize import final_state
from gamecore.reporting.index import index_page, notebook_defaults, parameter_text

COMMIT = "0123456789abcdef0123456789abcdef01234567"
KNOWN = ["alpha", "beta"]
DEFAULTS = {
    "alpha": {"decks": 8, "rounds": 1_000_000, "seed": 2026, "tie_pays": 8},
    "beta": {"decks": 8, "penetrations": [14, 26], "seed": 2026},
}


def write_report(folder, name, title, parameters, figures, holds):
    folder.mkdir(parents=True)
    summary = {
        "name": name,
        "parameters": parameters,
        "title": title,
        "figures": figures,
        "files": ["outcomes.csv"],
        "commit": COMMIT,
    }
    (folder / "summary.json").write_text(json.dumps(summary))
    lines = ["Wager,Rounds,Expected hold,SD per round,Hit frequency (net result > 0)"]
    lines += [f"{w},{r},{h!r},{sd!r},{hit!r}" for w, r, h, sd, hit in holds]
    (folder / "hold_monitoring.csv").write_text("\n".join(lines) + "\n")
    (folder / "provenance.csv").write_text(
        "Item,Value\ngit commit," + COMMIT + "\nstarted (UTC),2026-12-01T09:30:12+00:00\n"
    )


@pytest.fixture
def page(tmp_path):
    output = tmp_path / "reports"
    write_report(
        output / "alpha",
        "alpha",
        "Alpha Baccarat",
        {"decks": 6, "rounds": 1_000_000, "seed": 2026, "tie_pays": 8},
        {"Banker house edge": "1.0579%", "Player EV": "-1.2351%"},
        [("Banker", 100, 0.010579, 0.93, 0.4586), ("Banker", 1000, 0.010579, 0.93, 0.4586)],
    )
    write_report(
        output / "beta",
        "beta",
        "Beta Baccarat",
        {"decks": 8, "penetrations": [14, 26], "seed": 2026},
        {"Banker house edge": "1.0579%"},
        [("Banker", 100, 0.0105791, 0.9282, 0.45862468), ("Tie", 100, 0.143596, 2.6, 0.0951)],
    )
    state = final_state(output, tmp_path / "nothing staged", [], KNOWN)
    built = datetime.datetime(2026, 12, 3, 18, 5, 59, tzinfo=datetime.UTC)
    return index_page(state, defaults=DEFAULTS, built_at=built)


def test_the_commit_is_short_with_the_full_hash_in_its_title(page):
    assert f"<code title='{COMMIT}'>0123456789ab</code>" in page
    assert f">{COMMIT}<" not in page  # never printed whole


def test_the_page_says_when_it_was_built_and_each_report_when_it_ran(page):
    assert "Index built 2026-12-03 18:05 UTC" in page
    assert page.count("2026-12-01 09:30 UTC") == 2


def test_parameters_are_a_table_of_plain_values_with_the_changed_ones_marked(page):
    assert "<details><summary>4 parameters" not in page  # not hidden
    assert "<th>Parameter</th><th>Value</th>" in page
    assert "<tr class='changed'><td>decks</td><td>6</td><td class='note'>default 8</td>" in page
    assert "<tr><td>decks</td><td>8</td><td></td></tr>" in page  # beta: at its default
    assert "<td>rounds</td><td>1,000,000</td>" in page
    assert "<td>seed</td><td>2026</td>" in page  # an identifier: no separator
    assert "<td>penetrations</td><td>14, 26</td>" in page
    assert "[14" not in page and "&quot;" not in page  # no JSON


def test_wagers_of_different_parameter_sets_are_marked(page):
    assert "<th>Game</th><th>Decks</th><th>Wager</th>" in page
    # alpha's first session length only, its decks and its changed parameter beside it
    assert re.search(
        r"<tr><td>Alpha Baccarat<br><span class='note'>not default: decks 6</span>"
        r"</td><td class='n'>6</td><td>Banker</td>",
        page,
    )
    assert page.count("<td>Banker</td>") == 2
    assert "<td rowspan='2'>Beta Baccarat<br><span class='note'>all defaults</span></td>" in page
    assert "<td rowspan='2' class='n'>8</td>" in page
    assert (
        "<td class='n'>1.0579%</td><td class='n'>0.9282</td><td class='n'>0.45862468</td>" in page
    )
    assert "<td class='n'>14.3596%</td>" in page


def test_key_figures_are_the_summary_text_verbatim(page):
    assert "<tr><td>Player EV</td><td class='n'>-1.2351%</td></tr>" in page
    assert page.count("<td>Banker house edge</td><td class='n'>1.0579%</td>") == 2


def test_a_print_stylesheet_keeps_columns_readable(page):
    style = page.split("@media print{", 1)[1]
    assert "size:A4 landscape" in style and "details{display:none}" in style
    assert "thead{display:table-header-group}" in style
    assert "1 tables and figures in alpha/" in page  # the file list's place, on paper


def test_parameter_text_is_never_a_literal():
    assert parameter_text(None) == "\u2013"
    assert parameter_text(True) == "yes" and parameter_text(False) == "no"
    assert parameter_text(0.05) == "0.05"
    assert parameter_text(30_000_000) == "30,000,000"
    assert parameter_text(["a", 2]) == "a, 2"
    assert parameter_text(12345, "seed") == "12345"


def test_notebook_defaults_read_the_parameters_cell(tmp_path):
    cell = {
        "cell_type": "code",
        "id": "parameters",
        "metadata": {"tags": ["parameters"]},
        "source": "decks = 8\nrounds = 2_000_000\nwagers = ['Banker', 'Tie']\noutput_dir = '.'\n",
        "outputs": [],
        "execution_count": None,
    }
    notebook = {
        "cells": [cell],
        "metadata": {"kernelspec": {"name": "python3", "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (tmp_path / "gamma.ipynb").write_text(json.dumps(notebook))
    defaults = notebook_defaults({"gamma": tmp_path / "gamma.ipynb"})
    assert defaults == {"gamma": {"decks": 8, "rounds": 2_000_000, "wagers": ["Banker", "Tie"]}}
