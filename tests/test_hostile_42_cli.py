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
