"""Limits files (gamecore.limits) and each wager checked against them (limits.csv).

The figures checked are hand-worked from published counts (casinoexploit.com's exact 8-deck
punto banco counts, tests/published_values.py), not taken from gamecore's engine: Banker's
house edge (0.95 x 2,292,252,566,437,888 - 2,230,518,282,592,256) / 4,998,398,275,503,360 =
1.0579%, so a 1% maximum fails and a 2% one passes.
"""

from __future__ import annotations

import json
import os
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest

from gamecore import limits
from gamecore.errors import GamecoreError
from gamecore.limits import check
from gamecore.reporting import build as report_build
from gamecore.reporting.manifest import check_manifest
from gamecore.reporting.parameters import check_report_parameters
from tests.published_values import EXACT_8_DECKS

BANKER = EXACT_8_DECKS["banker"]["value"]
PLAYER = EXACT_8_DECKS["player"]["value"]
TIE = EXACT_8_DECKS["tie"]["value"]
TOTAL = EXACT_8_DECKS["total"]["value"]
#: Banker's house edge, hand-worked from the published counts (a tie pushes).
BANKER_EDGE = (PLAYER - Fraction(95, 100) * BANKER) / TOTAL
PLAYER_EDGE = (BANKER - PLAYER) / TOTAL
TIE_EDGE = (TOTAL - TIE - 8 * TIE) / TOTAL


def write(folder: Path, text: str, name: str = "limits.yaml") -> Path:
    path = folder / name
    path.write_text(text, "utf-8")
    return path


HEADER = 'jurisdiction: "Test Commission"\nlimits:\n'


# --- reading ---------------------------------------------------------------------------


def test_the_example_is_marked_an_example_and_reads():
    text = limits.example_path().read_text("utf-8")
    read = limits.read_limits(limits.example_path())
    assert read.jurisdiction.startswith("EXAMPLE ONLY")
    assert "not any jurisdiction" in read.jurisdiction
    assert text.startswith("# EXAMPLE ONLY") and "NOT any jurisdiction's limits" in text
    assert read.file == "example.yaml" and len(read.sha256) == 64
    assert {e.game for e in read.entries} >= {"any", "punto_banco", "ez_baccarat"}


def test_a_file_reads_into_exact_limits_and_its_content_reads_back_the_same(tmp_path):
    path = write(
        tmp_path,
        HEADER + "  - game: punto_banco\n    wager: Banker\n    max_house_edge: 1.25%\n"
        "    min_return: 98.75%\n    max_payout: 19 to 20\n",
    )
    read = limits.read_limits(path)
    (entry,) = read.entries
    assert (entry.game, entry.wager) == ("punto_banco", "banker")  # the title, to the code
    assert [(k, v) for k, v, _ in entry.values] == [
        ("max_house_edge", Fraction(1, 80)),
        ("min_return", Fraction(79, 80)),
        ("max_payout", Fraction(19, 20)),
    ]
    content = read.content()
    assert content["jurisdiction"] == "Test Commission" and content["file"] == "limits.yaml"
    path.unlink()  # the recorded content needs no file
    assert limits.checked_limits("limits", content) == content
    assert json.loads(json.dumps(content)) == content  # plain data, as a manifest holds it


@pytest.mark.parametrize(
    ("body", "line", "words"),
    [
        ("- 1\n", None, "a mapping"),
        ('jurisdictions: "x"\nlimits: []\n', 1, "did you mean jurisdiction?"),
        ("limits:\n  - game: any\n    max_house_edge: 1%\n", None, "no jurisdiction"),
        ("jurisdiction: 2026\nlimits:\n  - game: any\n    max_house_edge: 1%\n", 1, "2026"),
        ('jurisdiction: "x"\nlimits: []\n', 2, "limits must be a list of 1"),
        (HEADER + "  - punto_banco\n", 3, "'punto_banco'"),
        (HEADER + "  - game: any\n    max_edge: 1%\n", 4, "did you mean max_house_edge?"),
        (HEADER + "  - game: Punto_Banco\n    max_house_edge: 1%\n", 3, "punto_banco?"),
        (HEADER + "  - wager: banker\n    max_house_edge: 1%\n", 3, "None"),
        (HEADER + "  - game: punto_banco\n    wager: bankr\n    max_house_edge: 1%\n", 4,
         "did you mean banker?"),
        (HEADER + "  - game: c21_blackjack\n    wager: player\n    max_house_edge: 1%\n", 4,
         "settled by play"),
        (HEADER + "  - game: any\n    wager: dragon7\n    min_return: 90%\n", 4,
         "did you mean dragon_7?"),
        (HEADER + "  - game: any\n    max_house_edge: 15\n", 4, "15 is not a percentage"),
        (HEADER + "  - game: any\n    max_house_edge: 0.15\n", 4, "0.15 is not a percentage"),
        (HEADER + "  - game: any\n    min_return: 150%\n", 4, "'150%' is past 100%"),
        (HEADER + "  - game: any\n    max_payout: 500\n", 4, "500 is not a payout"),
        (HEADER + "  - game: any\n    max_payout: 0 to 1\n", 4, "above zero"),
        (HEADER + "  - game: any\n    max_payout: 500:1\n", 4, "'500:1' is not a plain decimal"),
        (HEADER + "  - game: any\n", 3, "gives no limit"),
        (HEADER + "  - game: punto_banco\n    wager: banker\n    max_house_edge: 1%\n"
         "  - game: punto_banco\n    wager: Banker (5% commission)\n    max_house_edge: 2%\n",
         8, "given twice (first on line 5)"),
        (HEADER + "  - game: any\n    max_house_edge: 1%\n  - game: any\n    max_house_edge: 1%\n",
         6, "given twice"),
        (HEADER + "  - game: any\n    max_house_edge: yes\n", 4, "'yes' is not true or false"),
        (HEADER + "  - &a {game: any, max_house_edge: 1%}\n  - *a\n", 3, "anchors"),
        (HEADER + "  - game: any\n    max_house_edge: 1%\n    max_house_edge: 2%\n", 5,
         "given twice"),
        (HEADER + "  - game: [any\n", None, "line"),
    ],
)
def test_every_malformed_form_is_refused_in_one_line_naming_file_line_and_value(
    tmp_path, body, line, words
):
    path = write(tmp_path, body)
    with pytest.raises(GamecoreError) as refused:
        limits.read_limits(path)
    message = str(refused.value)
    assert "\n" not in message
    assert message.startswith(f"limits file {path}: ")
    if line is not None:
        assert f": line {line}: " in message
    assert words in message


def test_a_file_that_is_not_one_is_refused(tmp_path):
    with pytest.raises(GamecoreError, match="not found"):
        limits.read_limits(tmp_path / "missing.yaml")
    big = write(tmp_path, "# " + "x" * (70 << 10) + "\n")
    with pytest.raises(GamecoreError, match="larger than 65,536 bytes"):
        limits.read_limits(big)
    with pytest.raises(GamecoreError, match="not a regular file"):
        limits.read_limits(tmp_path)


def test_recorded_content_is_checked_again_naming_the_entry():
    content = limits.read_limits(limits.example_path()).content()
    content["limits"][1]["max_house_edge"] = "1.5"
    recorded = r"^limits \(as recorded\): limits\[1\]: max_house_edge '1.5' is not a perc"
    with pytest.raises(GamecoreError, match=recorded):
        limits.checked_limits("limits", content)
    with pytest.raises(GamecoreError, match="a limits file's path"):
        limits.checked_limits("limits", 15)


# --- the build's boundary -----------------------------------------------------------------


def test_a_bad_limits_file_exits_2_in_one_line_before_anything_is_built(tmp_path, capsys):
    bad = write(tmp_path, HEADER + "  - game: punto_banco\n    max_house_edge: 15\n")
    output = tmp_path / "reports"
    status = report_build.main(
        ["--output", str(output), "--only", "punto_banco", "-p", "limits", str(bad)]
    )
    error = capsys.readouterr().err
    assert status == 2
    assert error.count("\n") == 1
    assert error.startswith(f"make reports: error: limits file {bad}: line 4: max_house_edge 15")
    assert not output.exists()


def test_the_notebook_gets_and_the_manifest_records_the_content_so_a_rerun_needs_no_file(
    tmp_path,
):
    path = write(tmp_path, HEADER + "  - game: punto_banco\n    max_house_edge: 2%\n")
    given = check_report_parameters("punto_banco", {"limits": str(path)}, set())
    content = given["limits"]
    assert content["sha256"] == limits.read_limits(path).sha256
    manifest = {"files": {}, "reports": {"punto_banco": {"parameters": given}}}
    assert check_manifest(manifest, "MANIFEST.json") is manifest  # recorded as it is
    os.remove(path)
    from gamecore.reporting.verify import check_work

    check_work("punto_banco", given)  # verify's check of the recorded parameters
    again = check_report_parameters("punto_banco", given, set())
    assert again == given


def test_the_build_reads_the_file_once_for_every_report(tmp_path, monkeypatch):
    path = write(tmp_path, HEADER + "  - game: any\n    max_house_edge: 15%\n")
    reads = []
    real = limits.read_limits
    monkeypatch.setattr(limits, "read_limits", lambda p: reads.append(p) or real(p))
    given = {}

    def stop(report, parameters):
        given[report] = parameters
        raise GamecoreError("stop here")

    monkeypatch.setattr(report_build, "check_rule_parameters", stop)
    with pytest.raises(GamecoreError, match="stop here"):
        report_build.build(tmp_path / "reports", {"limits": str(path)}, only=["punto_banco"])
    assert len(reads) == 1
    assert given["punto_banco"]["limits"]["jurisdiction"] == "Test Commission"


# --- the check ----------------------------------------------------------------------------


def _published_report(folder: Path) -> Path:
    """A punto banco report folder holding only what the check reads, from the published
    8-deck counts: the hold table's first rows and the three bet tables."""
    bets = {
        "Banker (5% commission)": [(0.95, BANKER), (0.0, TIE), (-1.0, PLAYER)],
        "Player": [(1.0, PLAYER), (0.0, TIE), (-1.0, BANKER)],
        "Tie (8 to 1)": [(8.0, TIE), (-1.0, BANKER + PLAYER)],
    }
    holds = []
    for number, (wager, lines) in enumerate(bets.items()):
        mean = sum(Fraction(pays).limit_denominator(100) * count for pays, count in lines)
        hit = sum(count for pays, count in lines if pays > 0)
        for rounds in (1_000, 10_000):
            holds.append(
                {
                    "Wager": wager,
                    "Rounds": rounds,
                    "Expected hold": float(-mean / TOTAL),
                    "SD per round": 1.0,
                    "Hit frequency (net result > 0)": hit / TOTAL,
                }
            )
        table = pd.DataFrame(
            [{"Outcome": f"line {i}", "Pays": p, "Probability": c / TOTAL} for i, (p, c) in
             enumerate(lines)]
            + [{"Outcome": "Total", "Pays": None, "Probability": 1.0}]
        )
        table.to_csv(folder / f"bet_{number}.csv", index=False)
    pd.DataFrame(holds).to_csv(folder / "hold_monitoring.csv", index=False)
    return folder


def _table(folder: Path, body: str | None) -> pd.DataFrame:
    content = None if body is None else limits.read_limits(write(folder, HEADER + body)).content()
    files = sorted(p.name for p in folder.glob("*.csv"))
    return check.limits_table(folder, "punto_banco", content, files)


def test_the_hand_worked_banker_edge_fails_a_1_percent_limit_and_passes_2(tmp_path):
    assert f"{float(BANKER_EDGE):.4%}" == "1.0579%"  # the published 1.06%, to four places
    folder = _published_report(tmp_path)
    body = "  - game: punto_banco\n    wager: banker\n    max_house_edge: {}\n"
    failed = _table(folder, body.format("1%"))
    passed = _table(folder, body.format("2%"))
    banker = "Banker (5% commission)"
    row = failed[failed["Wager"] == banker].iloc[0]
    assert list(failed.columns) == [
        "Wager", "Limit", "Limit value", "Figure", "Verdict", "Jurisdiction",
    ]
    assert (row["Limit"], row["Limit value"], row["Verdict"]) == (
        "maximum house edge", "1.0000%", "FAIL",
    )
    assert row["Figure"] == "1.0579% (exact)" and row["Jurisdiction"] == "Test Commission"
    assert passed[passed["Wager"] == banker].iloc[0]["Verdict"] == "PASS"
    # the other wagers have no limit in this file, and say so
    others = failed[failed["Wager"] != banker]
    assert list(others["Verdict"]) == ["no limit given", "no limit given"]


def test_return_payout_and_the_most_specific_limit(tmp_path):
    folder = _published_report(tmp_path)
    table = _table(
        folder,
        "  - game: any\n    max_house_edge: 15%\n"
        "  - game: punto_banco\n    max_house_edge: 1.2%\n"
        "  - game: punto_banco\n    wager: Player\n    min_return: 98.8%\n"
        "  - game: punto_banco\n    wager: tie\n    max_payout: 7 to 1\n"
        "  - game: punto_banco\n    wager: banker\n    max_payout: 1 to 1\n",
    )
    rows = {(r["Wager"], r["Limit"]): r for _, r in table.iterrows()}
    # Banker: the game's 1.2% (not any's 15%): 1.0579% passes; 19 to 20 within 1 to 1
    assert rows[("Banker (5% commission)", "maximum house edge")]["Limit value"] == "1.2000%"
    assert rows[("Banker (5% commission)", "maximum house edge")]["Verdict"] == "PASS"
    payout = rows[("Banker (5% commission)", "maximum payout")]
    assert (payout["Figure"], payout["Verdict"]) == ("19 to 20 (exact)", "PASS")
    # Player: edge 1.2351% over 1.2%; return 98.7649% under 98.8%
    assert rows[("Player", "maximum house edge")]["Verdict"] == "FAIL"
    player_return = rows[("Player", "minimum return")]
    assert player_return["Figure"] == f"{1 - float(PLAYER_EDGE):.4%} (exact)"
    assert player_return["Verdict"] == "FAIL"
    # Tie: the game's 1.2% applies over any's 15% (14.3596% fails it); pays 8 to 1 over 7
    assert rows[("Tie (8 to 1)", "maximum house edge")]["Figure"].startswith(
        f"{float(TIE_EDGE):.4%}"
    )
    assert rows[("Tie (8 to 1)", "maximum payout")]["Verdict"] == "FAIL"
    assert len(table) == 6


def test_no_limits_file_gives_each_wager_one_row_saying_so(tmp_path):
    table = _table(_published_report(tmp_path), None)
    assert list(table["Wager"]) == ["Banker (5% commission)", "Player", "Tie (8 to 1)"]
    assert set(table["Verdict"]) == {"no limit given"}
    assert table[["Limit", "Limit value", "Figure", "Jurisdiction"]].eq("").all().all()


def test_a_figure_with_a_bound_is_undecided_near_its_limit(tmp_path):
    folder = _published_report(tmp_path)
    holds = pd.read_csv(folder / "hold_monitoring.csv")
    holds[check.EDGE_BOUND] = 0.001
    holds.to_csv(folder / "hold_monitoring.csv", index=False)
    table = _table(folder, "  - game: punto_banco\n    max_house_edge: 1.1%\n")
    banker, player, tie = table["Verdict"]
    assert (banker, player, tie) == ("undecided", "FAIL", "FAIL")
    assert table["Figure"].iloc[0] == "1.0579% (± 0.1000%)"


def test_a_limit_on_an_exact_figure_at_the_limit_passes():
    edge = float(BANKER_EDGE)
    assert check.verdict(edge, BANKER_EDGE, "max_house_edge") == "PASS"
    assert check.verdict(1 - edge, 1 - BANKER_EDGE, "min_return") == "PASS"
    assert check.verdict(1 - edge, 1 - BANKER_EDGE + Fraction(1, 10**9), "min_return") == "FAIL"


def test_wagers_are_placed_in_their_game_by_title():
    assert check.placed("Tie (7 to 1)", "punto_banco", {}) == ("punto_banco", "tie")
    assert check.placed("Dragon 7", "dragon7_counting", {}) == ("ez_baccarat", "dragon7")
    assert check.placed(
        "New 21st Century Blackjack: player on the chart (x)", "counting_c21", {}
    ) == ("c21_blackjack", None)
    assert check.placed("Dragon 7", "side_bets", {"Dragon 7": "dragon_7"}) == ("any", "dragon_7")
    assert check.placed("Lucky 6", "side_bets", {}) == (None, None)
