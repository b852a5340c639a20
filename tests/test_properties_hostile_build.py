"""Issue 42 (hostile input, round four), the report build's items: its parameters given twice
or from two places (item 15), the folder a notebook run by hand writes to (item 5), the
Jupyter connection file a killed build leaves behind (item 20)."""

import contextlib
import io

from hypothesis import given
from hypothesis import strategies as st

from gamecore.reporting import build
from gamecore.reporting.build import check_rule_parameters

# --- item 15: a parameter given twice, or on the command line and in a file ---------------

#: Parameter names the punto_banco report takes, and values each of them accepts.
NAMES = st.sampled_from(["decks", "rounds", "seed", "hold_sessions"])
VALUES = st.integers(min_value=1, max_value=8)


class _NotebooksWouldRun(Exception):
    """Raised where the build, its parameters checked, would start a kernel."""


def run_build(argv: list[str], monkeypatch) -> tuple[int | None, str, dict | None]:
    """``make reports --only punto_banco ARGV`` in this process up to where its notebook
    would run (its parameters read and checked): the exit status (None: it got that far),
    standard error, and the parameters the notebook would get."""
    checked: dict = {}

    def recorded(report, parameters):
        checked["parameters"] = check_rule_parameters(report, parameters)
        return checked["parameters"]

    def no_kernel():
        raise _NotebooksWouldRun

    monkeypatch.setattr(build, "check_rule_parameters", recorded)
    monkeypatch.setattr(build, "ensure_kernel", no_kernel)
    err = io.StringIO()
    code = None
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        with contextlib.suppress(_NotebooksWouldRun):
            code = build.main(["--output", "unused-reports", "--only", "punto_banco", *argv])
    return code, err.getvalue(), checked.get("parameters")


@given(name=NAMES, first=VALUES, second=VALUES)
def test_a_parameter_given_twice_is_refused_naming_it_and_both_values(
    name, first, second, monkeypatch
):
    # Item 15: -p decks 6 -p decks 7 built with 7, the 6 dropped without a word.
    code, err, parameters = run_build(
        ["-p", name, str(first), "-p", name, str(second)], monkeypatch
    )
    assert code == 2 and parameters is None, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("make reports: error: "), err
    assert f"-p {name} given twice ('{first}', then '{second}')" in lines[0], lines[0]


@given(name=NAMES, in_file=VALUES, typed=VALUES, other=VALUES)
def test_a_command_line_parameter_wins_over_the_file_and_says_so(
    name, in_file, typed, other, tmp_path_factory, monkeypatch
):
    # Item 15: -p overrode a value of the parameters file (-f) without a word.
    params = tmp_path_factory.mktemp("params") / "my params.yaml"
    params.write_text(f"{name}: {in_file}\npenetration: {other}\n")
    code, err, parameters = run_build(["-f", str(params), "-p", name, str(typed)], monkeypatch)
    assert code is None, err
    assert parameters == {name: typed, "penetration": other}
    assert err.splitlines() == [
        f"make reports: note: -p {name} {typed} overrides {name}: {in_file} from {params}"
    ], err


def test_an_override_in_a_refused_build_says_only_the_refusal(tmp_path, monkeypatch):
    params = tmp_path / "params.yaml"
    params.write_text("decks: 6\n")
    argv = ["-f", str(params), "-p", "decks", "7", "-p", "dekcs", "1"]
    code, err, _ = run_build(argv, monkeypatch)
    assert code == 2 and len(err.splitlines()) == 1 and "unknown" in err and "dekcs" in err, err


def test_parameters_from_one_place_each_build_without_a_note(tmp_path, monkeypatch):
    params = tmp_path / "params.yaml"
    params.write_text("decks: 6\n")
    code, err, parameters = run_build(["-f", str(params), "-p", "rounds", "1000"], monkeypatch)
    assert (code, err, parameters) == (None, "", {"decks": 6, "rounds": 1000})
