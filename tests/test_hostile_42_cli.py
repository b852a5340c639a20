"""Issue 42 (hostile input, round four), the command line's items: what a definition or an
option can still make a command print wrongly."""

import io
import json
import math
from contextlib import redirect_stderr, redirect_stdout

from gamecore import cli


def run(*argv: str) -> tuple[int, str, str]:
    """The command line in this process: its exit status, standard output and error."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = cli.main(list(argv))
    return code, out.getvalue(), err.getvalue()


#: A bet that every deal wins: baccarat's banker holds two cards or three, always. Its
#: losing line takes no deal, so its return is 0 x (-1), which floats make -0.0.
EVERY_DEAL = """\
bet: every_deal
title: Every Deal
game: baccarat
decks: 1
outcomes:
  - name: Any banker hand
    when:
      hand_cards: {banker: [2, 3]}
    pays: 1 to 1
"""


def test_a_line_no_deal_takes_returns_zero_never_negative_zero(tmp_path):
    # Item 19: the par sheet printed the 0-way losing line's return as -0.00000000.
    path = tmp_path / "every_deal.yaml"
    path.write_text(EVERY_DEAL)
    code, out, err = run("sidebet", str(path))
    assert (code, err) == (0, ""), err
    loses = [line for line in out.splitlines() if line.startswith("Loses")]
    assert len(loses) == 1 and loses[0].split()[-1] == "+0.00000000", out
    assert "-0.0" not in out, out
    code, out, err = run("sidebet", str(path), "--json")
    assert (code, err) == (0, ""), err
    returns = [line["return"] for line in json.loads(out)["outcomes"]]
    assert returns[-1] == 0 and math.copysign(1.0, returns[-1]) == 1.0, returns


def test_an_outcome_named_total_is_refused_naming_the_file_and_line(tmp_path):
    # Item 19: an outcome named Total gave the par sheet two Total rows.
    path = tmp_path / "total.yaml"
    path.write_text(EVERY_DEAL.replace("Any banker hand", "tOTAL"))
    code, out, err = run("sidebet", str(path))
    assert (code, out) == (2, "") and len(err.splitlines()) == 1, err
    assert f"{path}:6:" in err and "'tOTAL'" in err and "reserved" in err, err


def test_too_many_oracle_shoes_are_refused_before_any_work_naming_the_option(monkeypatch):
    # Item 13: count --oracle-shoes 1001 was refused only after the analysis (and after the
    # counter's run with --shoes), naming "shoes". The analysis is made to fail here: the
    # refusal must come before it.
    from gamecore.blackjack import counting

    def no_analysis(*args, **kwargs):
        raise AssertionError("the analysis ran before the options were checked")

    monkeypatch.setattr(counting, "count_analysis", no_analysis)
    for extra in ([], ["--shoes", "10"]):
        code, out, err = run("count", "standard_blackjack", "--oracle-shoes", "1001", *extra)
        assert (code, out) == (2, "") and len(err.splitlines()) == 1, err
        assert "--oracle-shoes" in err and "1,001" in err and "1,000" in err, err
