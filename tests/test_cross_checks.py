"""The cross-check verdicts a report's PDF states (issue 30, "Cross-checks stated"): each
exact-vs-simulated table (a CSV whose columns start with Figure | Exact | Simulated | SE | z)
as one line with its largest |z|, its criterion and PASS or FAIL, in a Cross-checks section
after the par sheet and on the par sheet itself, each check named by its title."""

import math
import re

import pandas as pd
from helpers import pdf_pages
from scipy.stats import norm

from gamecore.reporting import frontmatter, titles
from gamecore.twins import TWIN_COLUMNS, z_threshold


def _bonferroni(n):
    """The |z| whose upper normal tail is 4's divided by ``n`` (scipy's normal)."""
    return float(norm.isf(norm.sf(4.0) / n))


def _table(zs, approximate=None):
    """A made-up twin table whose z-scores are ``zs`` (SE 0.01 about an exact 0.5)."""
    rows = {
        "Figure": [f"figure {i}" for i in range(len(zs))],
        "Exact": [0.5] * len(zs),
        "Simulated": [0.5 + z * 0.01 for z in zs],
        "SE": [0.01] * len(zs),
        "z": list(zs),
    }
    if approximate is not None:
        rows["Approximate"] = approximate
    return pd.DataFrame(rows)


def test_one_twin_beyond_the_family_wise_threshold_fails():
    threshold = _bonferroni(3)
    assert round(threshold, 2) == 4.25  # 4 SE, family-wise over 3 twins
    line = frontmatter.cross_check_line("made_up", _table([1.0, -2.0, -4.3]))
    assert line["verdict"] == "FAIL"
    assert line["text"] == (
        "Made up (3 twins): largest |z| 4.30; criterion |z| ≤ 4.25 "
        "(4 SE, family-wise over 3): FAIL"
    )


def test_beyond_4_passes_within_the_family_wise_threshold():
    line = frontmatter.cross_check_line("made_up", _table([1.0, -2.0, 4.2]))
    assert line["verdict"] == "PASS"
    assert line["text"].endswith(
        "largest |z| 4.20; criterion |z| ≤ 4.25 (4 SE, family-wise over 3): PASS"
    )


def test_one_twin_is_held_to_4_and_a_mismatch_without_spread_fails():
    assert frontmatter.cross_check_line("one", _table([3.99]))["text"] == (
        "One (1 twin): largest |z| 3.99; criterion |z| ≤ 4.00 (4 SE): PASS"
    )
    assert frontmatter.cross_check_line("one", _table([4.01]))["verdict"] == "FAIL"
    line = frontmatter.cross_check_line("fixed", _table([0.0, math.inf]))
    assert line["verdict"] == "FAIL" and "infinite" in line["text"]


def test_approximate_twins_are_not_ruled_even_read_back_as_text():
    # A CSV column with a blank cell reads as text: "False" must stay false.
    line = frontmatter.cross_check_line(
        "mixed", _table([1.0, 2.0, 9.0, 0.5], approximate=["False", "False", "True", ""])
    )
    assert line["verdict"] == "PASS"
    assert line["text"] == (
        f"Mixed (3 twins ruled; 1 approximate, not ruled): largest |z| 2.00; criterion "
        f"|z| ≤ {_bonferroni(3):.2f} (4 SE, family-wise over 3): PASS"
    )


def test_only_the_twin_tables_are_checked(tmp_path):
    _table([1.0, 2.0]).to_csv(tmp_path / "cross_check_a.csv", index=False)
    pd.DataFrame({"Outcome": ["x"], "z": [9.0]}).to_csv(tmp_path / "other.csv", index=False)
    (tmp_path / "figure.png").write_bytes(b"")
    checks = frontmatter.cross_checks(tmp_path, ["other.csv", "cross_check_a.csv", "figure.png"])
    assert [c["name"] for c in checks] == ["cross_check_a"]


# --- a built report's PDF ---------------------------------------------------------------


def _flat(path):
    return [" ".join(text.split()) for text in pdf_pages(path)]


def _expected_lines(folder):
    """For each twin CSV, the pattern of its line: its ruled twins counted here (a z, not
    approximate), its largest |z| read off the CSV and the threshold of scipy's normal."""
    expected = {}
    for path in sorted(folder.glob("*.csv")):
        frame = pd.read_csv(path)
        if list(frame.columns[: len(TWIN_COLUMNS)]) != list(TWIN_COLUMNS):
            continue
        if "Approximate" in frame.columns:
            frame = frame[~frame["Approximate"].astype(str).str.lower().isin(["true", "1"])]
        z = frame["z"].dropna().abs()
        n = len(z)
        assert n, path.name
        threshold = 4.0 if n == 1 else _bonferroni(n)
        assert f"{threshold:.2f}" == f"{z_threshold(n):.2f}"
        expected[path.stem] = (
            rf"{re.escape(titles.title(path.stem))} \({n} twins?\): largest \|z\| "
            rf"{z.max():.2f}; criterion \|z\| ≤ {threshold:.2f} \(4 SE[^)]*\): PASS"
        )
    return expected


def assert_each_cross_check_is_stated(report):
    """The PDF and the par sheet of a small punto_banco build state each twin table's line
    (run by tests/test_documents.py on its build: one build serves both modules)."""
    expected = _expected_lines(report)
    assert {"cross_check_bets", "cross_check_breakdown", "hold_monitoring_cross_check"} <= set(
        expected
    )
    pages = _flat(report / "punto_banco.pdf")
    section = next(i for i, p in enumerate(pages) if re.search(r"\d Cross-checks Each", p))
    assert section == 2  # the cover, the par sheet, then the contents and the cross-checks
    for stem, pattern in expected.items():
        assert re.search(pattern, pages[section]), stem
    [sheet] = _flat(report / "punto_banco_par_sheet.pdf")  # it fits: every line stated
    for stem, pattern in expected.items():
        assert re.search(pattern, sheet), stem


def test_a_table_without_a_twin_to_rule_states_so_without_a_verdict(tmp_path):
    from gamecore.reporting.document import document_data

    _table([math.nan]).to_csv(tmp_path / "cross_check_none.csv", index=False)
    [check] = document_data(tmp_path, "none")["checks"]
    assert check["verdict"] == "n/a" and check["bold"] == ""
    assert check["lead"] == "Cross-check: none (0 twins): no twin to compare"
