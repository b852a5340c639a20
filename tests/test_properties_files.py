"""Property-based tests (Hypothesis) of the files a user gives gamecore: parameter files,
strategy chart CSVs and reports manifests, random, hostile and mutated. Each is read, or
refused with one GamecoreError line of bounded length: never another exception, never a
line that carries the input with it.

``make test`` runs a few derandomized examples of each (profile ``default`` in
``conftest.py``); ``HYPOTHESIS_PROFILE=fuzz`` runs many more.
"""

from __future__ import annotations

import json
import math

from hypothesis import example, given
from hypothesis import strategies as st

from gamecore import blackjack as bj
from gamecore import games
from gamecore.errors import GamecoreError
from gamecore.reading import MAX_INTEGER_DIGITS, MAX_YAML_DEPTH
from gamecore.reporting import build as reportbuild
from gamecore.reporting import verify
from gamecore.reporting.parameters import REPORT_PARAMETERS

#: The longest message a refusal may be: the file's path (160 characters at most), the
#: line, a value shown in a few dozen characters and what to write instead.
MAX_MESSAGE = 500


def read_or_refused(read, *args):
    """``read(*args)``, or None when it is refused in one short line (none of the readers
    given here returns None)."""
    try:
        return read(*args)
    except GamecoreError as error:
        message = str(error)
        assert "\n" not in message and "\r" not in message, message[:2000]
        assert len(message) <= MAX_MESSAGE, message[:2000]
        return None


# ---------------------------------------------------------------------------------------
# Parameter files
# ---------------------------------------------------------------------------------------

NAMES = sorted(REPORT_PARAMETERS)
#: What YAML 1.1 and 1.2 read in other ways than a person might, and YAML's riskier parts.
HOSTILE_SCALARS = [
    "010", "0x10", "0o17", "0b101", "08", "1:30", "190:20:30.15", "1_000", "+12", "-0", ".5",
    "5.", "1e6", "1E-3", "1e400", "1e-400", ".inf", "-.Inf", ".NaN", "yes", "No", "on",
    "OFF", "y", "n", "true", "False", "null", "~", "", "2026-12-03", "2026-12-03T10:00:00Z",
    "<<", "=", "!!binary aGk=", "!!python/object/apply:os.system ['true']", "!!set {6}",
    "!!str 6", "! 6", "!local 6", "&a 6", "*a", "*undefined", "'010'", '"0x10"', "|\n  6",
    ">-\n  six", "[6, 8]", "{decks: 6}", "[[[[6]]]]", "1" * 5000, "9" * 41, "-" + "9" * 40,
    "x" * 70_000, "\t6", "6 # a comment", "'unterminated", '"\\q"', "\x00", "\x85",
    "\ufeff6", "%YAML 1.1", "---", "...",
]  # fmt: skip
HOSTILE_KEYS = ["decks", "decks", "<<", "1", "true", "null", "~", "? [a]", "'seed'", "&k rounds"]


@st.composite
def hostile_yaml(draw) -> str:
    """A document of lines ``key: value``, keys and values from the lists above or random,
    some lines indented, an anchor's alias or another document now and then."""
    lines = []
    for _ in range(draw(st.integers(0, 8))):
        key = draw(st.sampled_from(NAMES) | st.sampled_from(HOSTILE_KEYS) | st.text(max_size=8))
        value = draw(st.sampled_from(HOSTILE_SCALARS) | st.text(max_size=12))
        indent = draw(st.sampled_from(["", "", "  ", "- "]))
        lines.append(f"{indent}{key}: {value}")
    if draw(st.booleans()):
        lines.insert(0, draw(st.sampled_from(["%YAML 1.1", "%TAG !e! tag:e,2026:", "---"])))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "\n---\nb: 1\n", "\n..."]))


@st.composite
def alias_bombs(draw) -> str:
    """The billion laughs, at a random width and depth, under parameter names or not."""
    width, depth = draw(st.integers(2, 12)), draw(st.integers(1, 12))
    names = draw(st.lists(st.sampled_from(NAMES), min_size=depth + 1, max_size=depth + 1))
    lines = [f"{names[0]}: &a0 [{', '.join(['lol'] * width)}]"]
    for level in range(1, depth + 1):
        aliases = ", ".join([f"*a{level - 1}"] * width)
        lines.append(f"{names[level]}: &a{level} [{aliases}]")
    return "\n".join(lines) + "\n"


def nested(depth: int) -> str:
    return "decks: " + "[" * depth + "6" + "]" * depth + "\n"


@given(
    st.one_of(
        st.text(max_size=200),
        hostile_yaml(),
        alias_bombs(),
        st.sampled_from([nested(MAX_YAML_DEPTH - 1), nested(MAX_YAML_DEPTH), nested(10_000)]),
    )
)
@example("decks: " + "1" * 5000 + "\n")  # the findings of issue 27, every run
@example("a: &a [x, x]\nb: &b [*a, *a]\nsweep_deck_counts: *b\n")
@example("decks: 6\ndecks: !!python/object/apply:os.system ['true']\n")
def test_parameter_files_are_read_and_checked_or_refused_in_one_line(tmp_path, text):
    """Any text as a parameters file: read, then checked for every report as the build
    checks it, or refused in one line. What is read is plain data: None, bools, ints of at
    most 40 digits, finite floats, text, and lists and mappings of them keyed by text."""
    path = tmp_path / "params.yaml"
    path.write_text(text, "utf-8")
    parameters = read_or_refused(reportbuild.read_parameters_file, path)
    if parameters is None:
        return
    assert isinstance(parameters, dict)
    assert_plain(parameters)
    for report in games.reports():
        read_or_refused(reportbuild.check_rule_parameters, report, parameters)


def assert_plain(value, depth: int = 0) -> None:
    assert depth <= MAX_YAML_DEPTH
    if isinstance(value, dict):
        for key, item in value.items():
            assert isinstance(key, str)
            assert_plain(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            assert_plain(item, depth + 1)
    elif isinstance(value, int) and not isinstance(value, bool):
        assert abs(value) < 10**MAX_INTEGER_DIGITS
    elif isinstance(value, float):
        assert math.isfinite(value)
    else:
        assert value is None or isinstance(value, (bool, str))


@given(st.binary(max_size=300))
def test_parameter_files_of_random_bytes_are_read_or_refused_in_one_line(tmp_path, raw):
    path = tmp_path / "params.yaml"
    path.write_bytes(raw)
    parameters = read_or_refused(reportbuild.read_parameters_file, path)
    assert parameters is None or isinstance(parameters, dict)


#: What a person writes as a value: numbers, switches, nothing, text, lists of them.
printable = st.characters(codec="utf-8", exclude_categories=["Cc", "Cs", "Zl", "Zp"])
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**30), 10**30),
    st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: x == 0 or abs(x) > 1e-300),
    st.text(printable, max_size=20),
)
values = st.one_of(scalars, st.lists(scalars, max_size=5))


def written(value) -> str:
    """``value`` as a person writes it in YAML: numbers in plain decimal, switches true or
    false, nothing as null, text in double quotes (JSON's, which YAML reads the same)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return "[" + ", ".join(written(item) for item in value) + "]"


@given(st.dictionaries(st.sampled_from(NAMES), values, max_size=8))
@example({"rounds": 1e-05, "seed": 10**30, "chart_file": "010", "peek": False})
def test_a_mapping_written_plainly_reads_back_the_same(tmp_path, parameters):
    """A mapping of parameter names to values, written as a person writes YAML, reads back
    as the same mapping (every number, switch, null, text and list), and each value given
    on the command line (-p NAME VALUE) reads back as that value."""
    path = tmp_path / "params.yaml"
    path.write_text("".join(f"{k}: {written(v)}\n" for k, v in parameters.items()), "utf-8")
    assert reportbuild.read_parameters_file(path) == parameters
    for name, value in parameters.items():
        assert reportbuild.parameter_value(name, written(value)) == value


@given(st.sampled_from(NAMES), st.sampled_from(HOSTILE_SCALARS) | st.text(max_size=30))
def test_command_line_values_are_read_or_refused_naming_the_parameter(name, text):
    try:
        value = reportbuild.parameter_value(name, text)
    except GamecoreError as error:
        message = str(error)
        assert message.startswith(f"parameter '{name}': "), message[:2000]
        assert "\n" not in message and len(message) <= MAX_MESSAGE, message[:2000]
    else:
        assert_plain(value)


# ---------------------------------------------------------------------------------------
# Strategy chart CSVs
# ---------------------------------------------------------------------------------------

CHART_TEXT = (bj.CHART_DIR / "c21_6_decks.csv").read_text("utf-8")
CELLS = ["H", "S", "D", "Dh", "Ds", "R", "Rh", "Rs", "P", "Ph", "Ps", "Pd", "Rp", "", "x" * 50]


@st.composite
def mutated_charts(draw) -> bytes:
    """The shipped chart with one to four edits: a cell, a row label or the header
    replaced, a line deleted, repeated or cut, bytes inserted, the encoding changed."""
    lines = CHART_TEXT.splitlines()
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(lines) - 1))
        fields = lines[at].split(",")
        edit = draw(st.sampled_from(["cell", "label", "delete", "repeat", "cut", "insert"]))
        if edit == "cell":
            fields[draw(st.integers(1, len(fields) - 1))] = draw(
                st.sampled_from(CELLS) | st.text(max_size=4)
            )
            lines[at] = ",".join(fields)
        elif edit == "label":
            fields[0] = draw(st.sampled_from(["hard 3", "soft 22", "pair 1", "pair t"]) | st.text())
            lines[at] = ",".join(fields)
        elif edit == "delete" and len(lines) > 1:
            del lines[at]
        elif edit == "repeat":
            lines.insert(at, lines[at])
        elif edit == "cut":
            lines[at] = lines[at][: draw(st.integers(0, len(lines[at])))]
        else:
            lines[at] += draw(st.sampled_from(['"', ",", "\x00", "\r", "#", ",,,,"]) | st.text())
    text = "\n".join(lines) + "\n"
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-8-sig", "utf-16", "latin-1"]))
    return text.encode(encoding, errors="replace")


@given(st.one_of(mutated_charts(), st.binary(max_size=400), st.text(max_size=400).map(str.encode)))
def test_chart_files_are_read_or_refused_in_one_line(tmp_path, raw):
    """Any bytes as a chart file: a chart every cell of which is a valid letter, or one
    line; a chart read writes out as CSV that reads back as the same chart."""
    path = tmp_path / "chart.csv"
    path.write_bytes(raw)
    chart = read_or_refused(bj.read_strategy_chart, path)
    if chart is None:
        return
    again = bj.read_strategy_chart(chart.to_csv())
    assert again.cells == chart.cells


# ---------------------------------------------------------------------------------------
# Manifests
# ---------------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=20,
)
A_MANIFEST = {
    "gamecore_version": "1.0",
    "reports": {
        "punto_banco": {"parameters": {"decks": 8, "seed": 2026}, "seeds": {"seed": 2026}},
    },
    "files": {
        "punto_banco/outcomes.csv": "0" * 64,
        "punto_banco/rules.csv": "1" * 64,
        "index.html": "2" * 64,
    },
}


@st.composite
def mutated_manifests(draw) -> str:
    """A manifest's JSON with a part replaced by any JSON value, a key repeated, its text
    cut, or nesting or digits beyond what is read."""
    manifest = json.loads(json.dumps(A_MANIFEST))
    edit = draw(st.sampled_from(["replace", "replace", "repeat", "cut", "deep", "digits"]))
    if edit == "replace":
        parent = draw(
            st.sampled_from(
                [
                    manifest,
                    manifest["files"],
                    manifest["reports"],
                    manifest["reports"]["punto_banco"],
                ]
            )
        )
        key = draw(st.sampled_from(sorted(parent)) | st.text(max_size=6))
        parent[key] = draw(json_values)
    text = json.dumps(manifest, indent=draw(st.sampled_from([None, 2])))
    if edit == "repeat":
        return text.replace('"files": {', '"files": {}, "files": {', 1)
    if edit == "cut":
        return text[: draw(st.integers(0, len(text)))]
    if edit == "deep":
        return '{"files": {}, "reports": ' + "[" * 50_000 + "]" * 50_000 + "}"
    if edit == "digits":
        return text.replace("2026", "7" * draw(st.integers(90, 6000)), 1)
    return text


@given(st.one_of(mutated_manifests(), json_values.map(json.dumps), st.text(max_size=200)))
def test_manifests_are_read_or_refused_in_one_line_and_checked(tmp_path, text):
    """Any text as MANIFEST.json: read as a manifest whose hashes ``gamecore verify`` then
    checks (one short line per file), or refused in one line."""
    reports = tmp_path / "reports"
    (reports / "punto_banco").mkdir(parents=True, exist_ok=True)
    (reports / "punto_banco" / "outcomes.csv").write_text("Outcome,Combinations\nTie,1\n")
    (reports / "MANIFEST.json").write_text(text, "utf-8")
    manifest = read_or_refused(verify.read_manifest, reports)
    if manifest is None:
        return
    for entry in manifest["reports"].values():
        assert isinstance(entry["parameters"], dict)
    for line in verify.check_hashes(reports, manifest):
        assert "\n" not in line and len(line) <= MAX_MESSAGE
