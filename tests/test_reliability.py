"""Hostile and careless input, class by class: each is refused with one line naming the
value (exit 2 on the command line) or computed correctly; outputs are strict JSON; an
interrupted build leaves no debris. The random versions of these are in test_properties."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import naive_baccarat as nb
import numpy as np
import pytest
from helpers import assert_refused, run_gamecore, run_gamecore_here

from gamecore import baccarat, c21_baccarat, strictjson
from gamecore import blackjack as bj
from gamecore.errors import GamecoreError
from gamecore.parallel import MAX_TRIALS, make_chunks, run_chunks
from gamecore.reporting import build as reportbuild
from gamecore.reporting import finalize, verify
from gamecore.reporting.manifest import sha256
from gamecore.rules import MAX_PAYOUT
from gamecore.shoe import MAX_CARDS_PER_CLASS

CHARTS = bj.CHART_DIR


def run_entry_point(patch: str, *args: str) -> subprocess.CompletedProcess:
    """The process entry point (``gamecore.__main__.run``) on the command line ``args`` in
    a fresh interpreter, after the source ``patch`` has run there (``gc``, ``sys`` and
    ``cli`` imported)."""
    probe = (
        "import gc, sys\n"
        "from gamecore import cli\n"
        "import gamecore.__main__ as entry\n"
        f"{patch}"
        f"sys.argv = {['gamecore', *args]!r}\n"
        "entry.run()\n"
    )
    return subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=300
    )


# --- strict JSON ------------------------------------------------------------------------


def test_c21_blackjack_json_is_strict_and_one_action_margins_are_null():
    result = run_gamecore("exact", "c21_blackjack", "--decks", "2", "--json")
    assert result.returncode == 0, result.stderr
    data = strictjson.loads(result.stdout)  # NaN, Infinity refused
    margins = {(c["hand"], c["up_card"]): c["margin"] for c in data["strategy_chart"]}
    # Hard 20 and 21 are forced stands under the card's rules: one action, no margin.
    assert margins[("hard 21", "10")] is None and margins[("hard 20", "A")] is None
    assert all(m is None or isinstance(m, float) for m in margins.values())


def test_insurance_on_a_shoe_without_aces_is_none_with_a_reason():
    shoe = [0, 1, 1, 1, 0, 0, 0, 1, 2, 8]
    analysis = bj.exact(bj.StandardBlackjackRules(max_split_hands=2), composition=shoe)
    assert analysis.insurance_ev is None
    data = strictjson.loads(strictjson.dumps(analysis.to_dict()))
    assert data["insurance_ev"] is None and "no Ace" in data["insurance_note"]


# --- payouts ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "rule"),
    [
        ("punto_banco", "tie_pays"),
        ("ez_baccarat", "dragon7_pays"),
        ("c21_blackjack", "natural_pays"),
        ("standard_blackjack", "insurance_pays"),
        ("c21_baccarat", "collection"),
    ],
)
def test_astronomical_payouts_are_refused_naming_the_bound(game, rule):
    assert_refused(run_gamecore("exact", game, "--rule", f"{rule}=1e200"), rule, "1e+200")


def test_the_largest_payout_gives_finite_statistics_exactly_and_simulated():
    rules = baccarat.EZBaccaratRules(decks=1, dragon7_pays=MAX_PAYOUT, panda8_pays=MAX_PAYOUT)
    for result in baccarat.exact(rules).wagers().values():
        assert np.isfinite(result.sd)
    simulation = baccarat.sim.simulate(rules, rounds=10_000, seed=1, progress=False)
    strictjson.loads(strictjson.dumps(simulation.to_dict()))
    with pytest.raises(GamecoreError, match="dragon7_pays must be a payout from 0 to 1,000,000"):
        baccarat.EZBaccaratRules(dragon7_pays=MAX_PAYOUT + 1)


# --- trial counts -----------------------------------------------------------------------


def test_astronomical_round_counts_are_refused_before_allocating():
    assert_refused(
        run_gamecore("simulate", "punto_banco", "--rounds", str(10**20)),
        "rounds",
        "10,000,000,000,000",
    )
    with pytest.raises(GamecoreError, match="rounds must be at most"):
        baccarat.sim.simulate(baccarat.PuntoBancoRules(), rounds=MAX_TRIALS + 1, seed=1)


def test_a_chunk_plan_is_lazy_and_seeds_chunk_i_as_spawn_does():
    plan = make_chunks(MAX_TRIALS, 1 << 19, seed=7)
    assert len(plan) == -(-MAX_TRIALS // (1 << 19))
    assert sum(c.size for c in plan[:3]) == 3 << 19
    assert plan[-1].size == MAX_TRIALS - (len(plan) - 1) * (1 << 19)
    children = np.random.SeedSequence(7).spawn(4)
    for i, child in enumerate(children):
        assert (plan[i].seed.generate_state(4) == child.generate_state(4)).all()


def _square(job_and_chunk):
    job, chunk = job_and_chunk
    return job * chunk.index


def test_results_come_in_chunk_order_whatever_the_threads():
    plan = make_chunks(1000, 7, seed=1)
    one = list(run_chunks(_square, 3, plan, threads=1, progress=False))
    two = list(run_chunks(_square, 3, plan, threads=2, progress=False))
    assert one == two == [3 * i for i in range(len(plan))]


# --- chart files ------------------------------------------------------------------------


@pytest.fixture
def chart_text():
    return (CHARTS / "c21_6_decks.csv").read_text()


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda t: bytes(range(256)) * 4, "not UTF-8 text"),
        (lambda t: t.encode("utf-16"), "UTF-16"),
        (lambda t: ("hand,2\nhard 4," + "H" * 10_000_000).encode(), "larger than 1,048,576"),
        (lambda t: ('hand,2\nhard 4,"' + "H" * 200_000 + '"').encode(), "line 2 is not CSV"),
        (lambda t: (t + "hard 16,S,S,S,S,S,S,S,S,S,S\n").encode(), "'hard 16' is given twice"),
        (lambda t: t.replace("hand,", "hand\x00,").encode(), "NUL"),
    ],
    ids=["binary", "utf16", "huge", "huge_field", "duplicate_row", "nul"],
)
def test_undecodable_and_malformed_charts_are_refused_naming_the_file(
    tmp_path, chart_text, make, message
):
    path = tmp_path / "chart.csv"
    path.write_bytes(make(chart_text))
    with pytest.raises(GamecoreError, match=message):
        bj.read_strategy_chart(path)
    assert_refused(
        run_gamecore("simulate", "c21_blackjack", "--strategy", str(path), "--rounds", "10"),
        "chart.csv",
    )


def test_a_utf8_chart_with_a_byte_order_mark_is_read(tmp_path, chart_text):
    path = tmp_path / "bom.csv"
    path.write_bytes(b"\xef\xbb\xbf" + chart_text.encode())
    assert bj.read_strategy_chart(path).cells == bj.read_strategy_chart(chart_text).cells


def test_a_chart_given_as_text_has_the_file_size_limit(chart_text):
    """A chart's CSV given as text (a str holding a newline) is held to the limit of a chart
    file: 2 MB of comment lines after a valid chart is refused by its size."""
    padded = chart_text + "# padding\n" * 200_000
    with pytest.raises(GamecoreError, match=r"^chart: larger than 1,048,576 bytes, its size limit"):
        bj.read_strategy_chart(padded)
    assert (
        bj.read_strategy_chart(chart_text + "# padding\n").cells
        == bj.read_strategy_chart(chart_text).cells
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_given_as_chart_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "chart.csv"
    os.mkfifo(fifo)
    assert_refused(
        run_gamecore("exact", "c21_blackjack", "--strategy", str(fifo), timeout=60),
        f"strategy chart file {fifo}: not a regular file (a FIFO (named pipe))",
    )


# --- Dask addresses ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("address", "words"),
    [("bogus://x", ["bogus", "scheme"]), ("", ["''"]), ("tcp://host", ["host and a port"])],
)
def test_malformed_dask_addresses_are_one_line(address, words):
    result = run_gamecore("simulate", "punto_banco", "--rounds", "1000", "--dask", address)
    assert_refused(result, *words)


# --- report parameters ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"decks: [8\n", ["params.yaml", "line 2"]),
        (bytes(range(128, 256)), ["params.yaml", "not UTF-8"]),
        (b"- 8\n- 6\n", ["params.yaml", "mapping"]),
    ],
    ids=["yaml_syntax", "binary", "not_a_mapping"],
)
def test_bad_parameter_files_are_one_line_and_touch_nothing(tmp_path, capsys, content, words):
    reports = tmp_path / "reports"
    reports.mkdir()
    (reports / "keep.txt").write_text("previous")
    params = tmp_path / "params.yaml"
    params.write_bytes(content)
    code = reportbuild.main(["--output", str(reports), "-f", str(params)])
    error = capsys.readouterr().err
    assert code == 2 and error.count("\n") == 1 and "Traceback" not in error
    for word in words:
        assert word in error
    assert [p.name for p in reports.iterdir()] == ["keep.txt"]


def test_a_bad_parameter_value_is_one_line(tmp_path, capsys):
    code = reportbuild.main(["--output", str(tmp_path), "-p", "decks", "[8"])
    error = capsys.readouterr().err
    assert code == 2 and error.count("\n") == 1 and "decks" in error and "'[8'" in error


def refused_by_the_build(tmp_path, capsys, *args: str) -> str:
    """The one line ``make reports`` prints refusing ``args`` (exit 2), its reports folder
    never made. ``--only`` names no report, so parameters read as valid are refused too,
    at once, for that: no notebook runs whatever is read."""
    reports = tmp_path / "reports"
    code = reportbuild.main(["--output", str(reports), "--only", "no_such_report", *args])
    error = capsys.readouterr().err
    assert code == 2 and error.count("\n") == 1 and "Traceback" not in error, error[:2000]
    assert error.startswith("make reports: error: ") and len(error) < 500, error[:2000]
    assert not reports.exists()
    return error


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("decks: 010\n", ["line 1", "'010'", "YAML 1.1 reads it as 8"]),
        ("decks: 0x10\n", ["line 1", "'0x10'", "as 16"]),
        ("rounds: 1000\nseed: 1:30\n", ["line 2", "'1:30'", "as 90"]),
        ("rounds: 1_000_000\n", ["line 1", "'1_000_000'", "plain decimal"]),
        ("decks: 6\ntie_pays: 8\ndecks: 8\n", ["line 3", "'decks' is given twice", "line 1"]),
        ("dealer_hits_soft_17: yes\n", ["line 1", "'yes'", "true or false"]),
        ("peek: off\n", ["line 1", "'off'", "true or false"]),
        ("seed: 2026-12-03\n", ["line 1", "'2026-12-03'", "a date"]),
        ("decks: !!binary AAAA\n", ["line 1", "explicit tags are not allowed", "!!binary"]),
        ("decks: !!python/name:os.system\n", ["explicit tags", "!!python/name:os.system"]),
        ("tie_pays: !!set {8}\n", ["line 1", "explicit tags", "!!set"]),
        ("<<: {decks: 6}\n", ["line 1", "merge keys (<<) are not allowed"]),
        ("decks: 6\n8: tie_pays\n", ["line 2", "a key must be a name (text), got 8"]),
        ("? [decks]\n: 6\n", ["line 1", "a key must be a name (text), got ['decks']"]),
    ],
    ids=[
        "octal", "hex", "sexagesimal", "underscores", "duplicate_key", "yes", "off", "date",
        "binary", "python_tag", "set", "merge_key", "integer_key", "list_key",
    ],
)  # fmt: skip
def test_yaml_1_1_readings_are_refused_naming_the_line_and_value(tmp_path, capsys, content, words):
    """A parameters file means what a person reading it sees: what YAML 1.1 reads
    otherwise (octal, hex, base 60, yes/no, dates, merges), tags, keys given twice and keys
    that are not names are refused, naming the file, the line and the value."""
    params = tmp_path / "params.yaml"
    params.write_text(content)
    error = refused_by_the_build(tmp_path, capsys, "-f", str(params))
    for word in ["params.yaml", *words]:
        assert word in error, error


def test_plain_yaml_values_are_read_as_a_person_reads_them(tmp_path):
    params = tmp_path / "params.yaml"
    params.write_text(
        "decks: 6\nbanker_commission: 0.05\nrounds: 1e6\npeek: true\nbust_push: none\n"
        "chart_file: 2026_chart.csv\nnatural_pays: null\nsweep_deck_counts: [1, 2, 8]\n"
        "seed: '010'\n"
    )
    assert reportbuild.read_parameters_file(params) == {
        "decks": 6,
        "banker_commission": 0.05,
        "rounds": 1_000_000.0,
        "peek": True,
        "bust_push": "none",
        "chart_file": "2026_chart.csv",
        "natural_pays": None,
        "sweep_deck_counts": [1, 2, 8],
        "seed": "010",  # quoted: text, as written
    }
    assert reportbuild.parameter_value("decks", "6") == 6
    assert reportbuild.parameter_value("sweep_deck_counts", "[1, 8]") == [1, 8]
    # A 128-bit seed (39 digits) is read; an integer past the command line's 40 digits is not.
    assert reportbuild.parameter_value("seed", str(2**128 - 1)) == 2**128 - 1
    with pytest.raises(GamecoreError, match="parameter 'seed': an integer of 41 digits"):
        reportbuild.parameter_value("seed", "9" * 41)


def test_an_alias_bomb_is_refused_at_its_first_anchor(tmp_path, capsys):
    """Ten levels of nine aliases each: 3.5 billion strings if expanded (the message once
    tried to print them); refused at the first anchor, at once, in a short line."""
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
    params = tmp_path / "params.yaml"
    params.write_text("\n".join([*lines, "sweep_deck_counts: *a9"]) + "\n")
    started = time.monotonic()
    error = refused_by_the_build(tmp_path, capsys, "-f", str(params))
    assert time.monotonic() - started < 5
    assert "line 1" in error and "aliases are not allowed" in error and "'&a0'" in error


def test_a_parameters_file_over_its_size_limit_is_refused_unread(tmp_path, capsys):
    """A 10 MB string value: the file is refused by its size (64 KiB, said so), not read,
    parsed and echoed."""
    params = tmp_path / "params.yaml"
    params.write_text('decks: "' + "x" * 10_000_000 + '"\n')
    started = time.monotonic()
    error = refused_by_the_build(tmp_path, capsys, "-f", str(params))
    assert time.monotonic() - started < 5
    assert "params.yaml: larger than 65,536 bytes, its size limit" in error
    assert "10,000,010 bytes" in error


def test_a_yaml_error_quoting_a_long_token_is_a_short_line(tmp_path, capsys):
    """PyYAML's own messages quote the input (an undefined tag handle here, 50,000
    characters): the line keeps a few dozen of them."""
    params = tmp_path / "params.yaml"
    params.write_text("decks: !" + "x" * 50_000 + "!y 6\n")
    error = refused_by_the_build(tmp_path, capsys, "-f", str(params))
    assert "params.yaml: line 1, column 8" in error and "tag handle" in error
    assert len(error.split("params.yaml: ", 1)[1]) < 200  # the path aside


def test_an_integer_of_thousands_of_digits_is_one_line_from_a_file_and_from_p(tmp_path, capsys):
    """A 5,000-digit deck count: PyYAML's int() of it raised ValueError (Python refuses
    such conversions), outside YAMLError, as a traceback. Refused before any conversion,
    naming its size, from a file, from -p, and on the real command line."""
    digits = "1" * 5000
    params = tmp_path / "params.yaml"
    params.write_text(f"rounds: 1000\ndecks: {digits}\n")
    error = refused_by_the_build(tmp_path, capsys, "-f", str(params))
    assert "params.yaml: line 2: an integer of 5,000 digits" in error
    error = refused_by_the_build(tmp_path, capsys, "-p", "decks", digits)
    assert "parameter 'decks': an integer of 5,000 digits" in error
    command = subprocess.run(
        [sys.executable, "-m", "gamecore.reporting.build", "--output", str(tmp_path / "r")]
        + ["--only", "no_such_report", "-p", "seed", digits],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert command.returncode == 2 and command.stderr.count("\n") == 1, command.stderr[-2000:]
    assert "parameter 'seed': an integer of 5,000 digits" in command.stderr


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero and FIFOs")
@pytest.mark.parametrize("kind", ["a character device", "a FIFO (named pipe)", "a directory"])
def test_a_device_or_a_fifo_as_parameters_file_is_refused_without_waiting(tmp_path, kind):
    """/dev/zero never ends (reading it took all the memory there was); opening a FIFO
    waits for a writer that never comes. Both are refused at once as not regular files (in
    a process with a memory cap and a time limit, so the failure they were is contained)."""
    if kind == "a FIFO (named pipe)":
        path = tmp_path / "params.fifo"
        os.mkfifo(path)
    elif kind == "a directory":
        path = tmp_path / "params.yaml"
        path.mkdir()
    else:
        path = Path("/dev/zero")
    capped = 'ulimit -v 4000000; exec "$0" -m gamecore.reporting.build "$@"'
    result = subprocess.run(
        ["sh", "-c", capped, sys.executable, "--output", str(tmp_path / "reports")]
        + ["--only", "no_such_report", "-f", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2, result.stderr[-2000:]
    assert result.stderr == (
        f"make reports: error: parameters file {path}: not a regular file ({kind})\n"
    )


def test_stale_staging_folders_are_removed_live_ones_and_older_names_kept(tmp_path):
    reports = tmp_path / "reports"
    reports.mkdir()
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    ).stdout.strip()
    live = finalize.open_staging(reports)  # held by this process
    gone = subprocess.run(  # a build whose process ended before it committed
        [
            sys.executable,
            "-c",
            f"from gamecore.reporting import finalize; "
            f"print(finalize.open_staging({str(reports)!r}).path)",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    stale = [  # where earlier versions staged, named by a process that is gone
        tmp_path / f".reports.building-{dead}",
        reports / f".staging-{dead}",
        reports / f".old-punto_banco-{dead}",
    ]
    for folder in stale:
        (folder / "punto_banco").mkdir(parents=True)
    recovered = finalize.recover(reports)
    assert recovered.removed == [Path(gone)] and not Path(gone).exists()
    # No owner record marks them as a build's (a user's folder may be named so): named, kept.
    assert sorted(recovered.left) == sorted(stale)
    assert live.path.is_dir() and all((f / "punto_banco").is_dir() for f in stale)
    live.close()
    assert not live.path.exists()


# --- gamecore verify: what it reads of a reports folder -----------------------------------


def write_manifest(reports: Path, files: dict, report_parameters: dict) -> None:
    entries = {name: {"parameters": p} for name, p in report_parameters.items()}
    (reports / "MANIFEST.json").write_text(json.dumps({"files": files, "reports": entries}))


def test_verify_names_a_huge_sparse_file_by_its_size_without_reading_it(tmp_path):
    """A 1 TiB sparse CSV in a reports folder (no block of it on disk): named with its
    size and the limit of a report file, at once; it was hashed byte by byte (minutes for
    a gigabyte's, then pandas took ten times its size in memory)."""
    reports = tmp_path / "reports"
    reports.mkdir()
    with open(reports / "outcomes.csv", "wb") as huge:
        huge.truncate(1 << 40)
    write_manifest(reports, {"outcomes.csv": "0" * 64}, {})
    started = time.monotonic()
    result = run_gamecore("verify", str(reports), timeout=60)
    assert time.monotonic() - started < 30
    assert result.returncode == 1, result.stderr[-2000:]
    assert result.stdout == (
        "outcomes.csv: larger than 1,073,741,824 bytes, its size limit "
        "(it is 1,099,511,627,776 bytes; not hashed)\n"
    )


def test_verify_goes_on_past_a_table_too_large_to_compare(tmp_path, monkeypatch):
    """The rerun's comparison: a 64 MiB sparse CSV is one line naming it and the limit of
    a report table (pandas read it into a 64 MB column name, printed whole), and the next
    table is still compared: a cell of 5,000 digits is a mismatch shown in a few dozen
    characters (Python's int() refused to convert it: a traceback)."""
    reports = tmp_path / "reports"
    (reports / "punto_banco").mkdir(parents=True)
    with open(reports / "punto_banco" / "a_big.csv", "wb") as big:
        big.truncate(64 << 20)
    (reports / "punto_banco" / "b_small.csv").write_text("n,m\n" + "1" * 5000 + ",x\n")
    summary = reports / "punto_banco" / "summary.json"  # what makes the folder a report
    summary.write_text('{"name": "punto_banco", "parameters": {}}')
    write_manifest(reports, {"punto_banco/summary.json": sha256(summary)}, {"punto_banco": {}})

    def rerun(output, parameters, only, progress=True):  # the rerun's report, as built
        fresh = Path(output) / only[0]
        fresh.mkdir(parents=True)
        (fresh / "summary.json").write_text("{}")
        (fresh / "a_big.csv").write_text("n\n1\n")
        (fresh / "b_small.csv").write_text("n,m\n" + "2" * 5000 + ",x\n")

    monkeypatch.setattr(reportbuild, "build", rerun)
    lines = verify.verify(reports)
    assert lines[:2] == [
        "punto_banco/a_big.csv: not in the manifest",
        "punto_banco/b_small.csv: not in the manifest",
    ]
    assert lines[2] == (
        "punto_banco/a_big.csv: larger than 16,777,216 bytes, its size limit "
        "(it is 67,108,864 bytes)"
    )
    mismatch = lines[3]
    assert mismatch.startswith("punto_banco/b_small.csv: line 2, column 'n' (exact): '1111")
    assert "1111' in the report, '2222" in mismatch and mismatch.endswith("2222' recomputed")
    assert mismatch.count("...") == 2  # each value cut in its middle
    assert len(lines) == 4 and len(mismatch) < 200


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[" * 100_000 + "]" * 100_000, ["nested too deeply"]),
        ('{"files": [], "reports": {}}', ["files must map names to hashes"]),
        ('{"files": {"a": 1}, "reports": {}}', ["files must map names to hashes"]),
        ('{"files": {}, "reports": {"punto_banco": 1}}', ["a report without its parameters"]),
        ('{"files": {}, "reports": {}, "files": {}}', ["key 'files' is given twice"]),
        ('{"files": {}, "reports": {}, "n": ' + "1" * 5000 + "}", ["an integer of 5,000 digits"]),
        (
            '{"files": {}, "reports": {"punto_banco": {"parameters": {"tie_pays": 1e400}}}}',
            ["'1e400' is outside a float's range"],
        ),
    ],
    ids=["deep", "files_list", "hash_number", "report_number", "duplicate_key", "digits", "1e400"],
)
def test_a_malformed_manifest_is_refused_in_one_line(tmp_path, text, words):
    reports = tmp_path / "reports"
    reports.mkdir()
    (reports / "MANIFEST.json").write_text(text)
    with pytest.raises(GamecoreError) as refused:
        verify.verify(reports)
    message = str(refused.value)
    assert message.startswith(f"{reports / 'MANIFEST.json'}: ") and "\n" not in message
    assert len(message) < 300
    for word in words:
        assert word in message, message


# --- options that do not apply, or given twice ------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["exact", "punto_banco", "--decks", "6", "--rule", "decks=1"], ["decks", "twice"]),
        (["exact", "punto_banco", "--rule", "tie_pays=8", "--rule", "tie_pays=9"], ["twice"]),
        (
            ["exact", "c21_baccarat", "--jokers-per-deck", "1", "--rule", "jokers_per_deck=2"],
            ["jokers_per_deck", "twice"],
        ),
        (["simulate", "punto_banco", "--penetration", "20"], ["--penetration", "shoe only"]),
        (["simulate", "c21_baccarat", "--burn", "none"], ["--burn", "shoe only"]),
        (
            ["simulate", "c21_blackjack", "--strategy", "optimal", "--burn", "none"],
            ["--burn", "c21_blackjack"],
        ),
        (
            ["simulate", "c21_blackjack", "--strategy", "optimal", "--penetration", "20"],
            ["--penetration", "c21_blackjack"],
        ),
        (["simulate", "punto_banco", "--threads", "2", "--dask", "local"], ["threads"]),
        (["simulate", "punto_banco", "--threads", "100000"], ["threads", "1024"]),
        (
            ["simulate", "c21_baccarat", "--mode", "shoe", "--burn", "face_value"],
            ["without a burn"],
        ),
        (["exact", "ez_baccarat", "--infinite", "--decks", "3"], ["--infinite", "deck"]),
        (["exact", "ez_baccarat", "--infinite", "--rule", "decks=3"], ["--infinite", "deck"]),
        (["exact", "c21_blackjack", "--strategy", "/dev/null"], ["not a regular file"]),
        (["exact", "punto_banco", "--rule", "tie_pays=" + "9" * 5000], ["finite", "5000 chars"]),
    ],
)
def test_options_given_twice_or_not_applying_are_refused(args, words):
    rounds = ["--rounds", "1000"] if args[0] == "simulate" else []
    assert_refused(run_gamecore_here(*args, *rounds), *words)


# --- messages that say what would fit ---------------------------------------------------


def test_a_shoe_too_small_for_the_players_says_what_fits():
    result = run_gamecore(
        "simulate", "c21_baccarat", "--decks", "1", "--players", "8", "--mode", "shoe"
    )
    assert_refused(result, "too small", "8 players", "at most 7 players fit")


@pytest.mark.parametrize("shoe", [[0, 12, 0, 0, 0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1, 1, 1, 1, 3]])
def test_a_blackjack_shoe_that_can_run_dry_is_refused(shoe):
    rules = bj.C21BlackjackRules(decks=2)
    with pytest.raises(GamecoreError, match="run out of cards"):
        bj.exact(rules, composition=shoe)


def test_the_dealer_alone_running_dry_is_refused():
    with pytest.raises(GamecoreError, match="dealer can run out of cards"):
        bj.dealer_final_distribution(
            bj.StandardBlackjackRules(), "2", composition=[0, 3, 0, 0, 0, 0, 0, 0, 0, 0]
        )


# --- compositions past the kernels' native range ----------------------------------------


@pytest.mark.parametrize("per_class", [2**30, MAX_CARDS_PER_CLASS])
def test_huge_baccarat_shoes_count_exactly(per_class):
    composition = [per_class] * 10
    counts = baccarat.count_rounds(composition)
    reference = nb.class_breakdown(composition)
    for (player_cards, banker_cards, player, banker), ways in reference.items():
        assert int(counts[player_cards - 2, banker_cards - 2, player, banker]) == ways
    analysis = baccarat.exact(baccarat.PuntoBancoRules(), composition=composition)
    assert analysis.total == sum(reference.values())


def test_a_class_past_the_documented_maximum_is_refused():
    with pytest.raises(GamecoreError, match="composition count of rank 3 must be at most 2,147,48"):
        baccarat.exact(baccarat.PuntoBancoRules(), composition=[1] * 3 + [2**31] + [1] * 6)


def test_a_huge_c21_shoe_gives_finite_statistics():
    rules = c21_baccarat.C21BaccaratRules()
    analysis = c21_baccarat.count_deals(rules, composition=[2**30] * 11)
    result = analysis.evaluate(
        c21_baccarat.house_way_player(rules), c21_baccarat.house_way_dealer(rules)
    )
    assert sum(result.outcome_probabilities.values()) == 1
    assert 0 < result.sd < 1.5


# --- API edges ----------------------------------------------------------------------------


def test_a_missing_chart_is_a_gamecore_error_naming_it():
    with pytest.raises(GamecoreError, match="chart must be"):
        bj.sim.simulate(bj.C21BlackjackRules(), None, 7, 1)


def test_both_blackjack_rule_sets_refuse_a_payout_given_as_text():
    for kind in (bj.StandardBlackjackRules, bj.C21BlackjackRules):
        with pytest.raises(GamecoreError, match=r"natural_pays must be a number \(.*\), got '1.5'"):
            kind(natural_pays="1.5")
    assert bj.C21BlackjackRules.from_strings({"natural_pays": "auto"}).natural_pays is None
    assert bj.C21BlackjackRules.from_strings({"natural_pays": "1.5"}).natural_pays == 1.5


# --- interruption -------------------------------------------------------------------------


def test_ctrl_c_is_one_line_and_exit_130():
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gamecore",
            "simulate",
            "punto_banco",
            "--rounds",
            str(10**12),
            "--no-progress",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(4)  # past the imports and into the run
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert err == "gamecore: interrupted\n" and out == ""


def test_ctrl_c_while_the_game_is_imported_is_one_line_and_exit_130():
    """A Ctrl-C before the command runs (its game's modules still importing, a few tenths
    of a second of every process) is the same one line as one during the run."""
    patch = "def import_game(args):\n    raise KeyboardInterrupt\ncli.import_game = import_game\n"
    seen = run_entry_point(patch, "exact", "standard_blackjack", "--json")
    assert (seen.returncode, seen.stderr, seen.stdout) == (130, "gamecore: interrupted\n", "")


def _wait_until_mapped(process: subprocess.Popen, library: str) -> None:
    """Wait until ``process`` has loaded the shared library whose path holds ``library``."""
    maps = Path(f"/proc/{process.pid}/maps")
    deadline = time.monotonic() + 120
    while library not in maps.read_text():
        assert time.monotonic() < deadline and process.poll() is None, library
        time.sleep(0.005)


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads /proc/PID/maps")
@pytest.mark.parametrize(
    "library, when",
    [("_multiarray_umath", "importing numpy"), ("libllvmlite", "importing numba and after")],
)
def test_ctrl_c_early_in_a_real_process_is_one_line_and_exit_130(library, when):
    """The real thing: Ctrl-C once the process has loaded numpy (the command's modules are
    importing; earlier the interpreter itself is still starting), and once it has loaded
    numba's compiler."""
    process = subprocess.Popen(
        [sys.executable, "-m", "gamecore", "exact", "standard_blackjack", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    _wait_until_mapped(process, library)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=300)
    assert (process.returncode, err) == (130, "gamecore: interrupted\n"), (when, err)
    assert out == ""


def test_ctrl_c_while_the_json_is_written_leaves_the_whole_document():
    """The JSON of a blackjack analysis (about 250 KB) does not fit in a pipe: while its
    reader has taken only the first byte the command is blocked writing it. A Ctrl-C then
    takes effect once the document is written: the reader gets all of it, exit 130 (before
    this, the text stream dropped all but the 64 KiB the pipe held)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "gamecore", "exact", "standard_blackjack", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,  # read(1) takes one byte, not a buffer's worth
    )
    first = process.stdout.read(1)
    time.sleep(0.3)  # the writer blocked on the full pipe
    process.send_signal(signal.SIGINT)
    rest, err = process.communicate(timeout=300)
    assert (process.returncode, err) == (130, b"gamecore: interrupted\n"), err
    document = strictjson.loads((first + rest).decode())
    assert document["game"] == "standard_blackjack" and "player_sd" in document
    # A process that ignores interrupts (a background job) goes on ignoring them.
    ignoring = subprocess.Popen(  # the shell's trap: SIGINT ignored, and so after its exec
        ["sh", "-c", 'trap "" INT; exec "$0" -m gamecore exact standard_blackjack --json']
        + [sys.executable],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,
    )
    first = ignoring.stdout.read(1)
    time.sleep(0.3)
    ignoring.send_signal(signal.SIGINT)
    rest, err = ignoring.communicate(timeout=300)
    assert (ignoring.returncode, err) == (0, b"")
    assert strictjson.loads((first + rest).decode())["game"] == "standard_blackjack"


# --- compiled-kernel cache ----------------------------------------------------------------


def test_the_kernel_cache_is_versioned_by_the_whole_package_source(tmp_path):
    import numba

    from gamecore import _jit

    package = tmp_path / "package"
    package.mkdir()
    (package / "exactcount.py").write_text("def mulmod(a, b, m): return a * b % m\n")
    (package / "baccarat.py").write_text("from exactcount import mulmod\n")
    before = _jit.source_digest(package)
    # A change to a callee alone (the caller's file untouched) must change the digest.
    (package / "exactcount.py").write_text("def mulmod(a, b, m): return a % m * (b % m) % m\n")
    changed = _jit.source_digest(package)
    assert changed != before
    # The kernel caches are not source (nor walked: hundreds of folders in time)
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "stale.py").write_text("x = 1\n")
    assert _jit.source_digest(package) == changed
    assert numba.config.CACHE_DIR.endswith(f"gamecore-{_jit.CACHE_DIGEST}")


def test_ctrl_c_during_make_reports_is_one_line_exit_130_and_leaves_no_debris(tmp_path):
    reports = tmp_path / "reports"
    (reports / "c21_blackjack").mkdir(parents=True)
    (reports / "c21_blackjack" / "previous.csv").write_text("kept\n")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gamecore.reporting.build",
            "--output",
            str(reports),
            "--only",
            "c21_blackjack",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    staged = f"{finalize.STAGING_PREFIX}*/new/c21_blackjack"
    # The notebook's kernel is running its cells once they have written a table.
    while not list(reports.glob(f"{staged}/*.csv")) and time.monotonic() < deadline:
        time.sleep(0.1)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert err == "make reports: interrupted; earlier reports are untouched\n", err
    assert not list(reports.glob(f"{finalize.STAGING_PREFIX}*"))
    assert [p.name for p in (reports / "c21_blackjack").iterdir()] == ["previous.csv"]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["exact", "punto_banco", "--json"], ["rules", "punto_banco"]])
def test_output_that_cannot_be_written_is_one_line(args):
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "gamecore", *args],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
        )
    assert result.returncode == 1
    assert result.stderr == "gamecore: error: cannot write the output: No space left on device\n"


def test_the_process_runs_its_command_with_the_collector_on_and_the_imports_frozen():
    """The process entry point pauses the cyclic garbage collector only while the game's
    modules are imported: the command itself runs with it on, those modules frozen out of
    its passes. An unknown game is still refused by the command, one line, exit 2."""
    patch = (
        "def execute(args):\n"
        "    imported = 'gamecore.blackjack' in sys.modules\n"
        "    print(gc.isenabled(), gc.get_freeze_count() > 0, imported)\n"
        "    return 3\n"
        "cli.execute = execute\n"
    )
    seen = run_entry_point(patch, "rules", "c21_blackjack")
    assert seen.returncode == 3, seen.stderr
    assert seen.stdout.split() == ["True", "True", "True"]
    unknown = subprocess.run(
        [sys.executable, "-m", "gamecore", "exact", "no_such_game"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert unknown.returncode == 2
    assert unknown.stderr.startswith("gamecore: error: unknown game 'no_such_game'")
    assert unknown.stderr.count("\n") == 1


def test_the_entry_point_compacts_the_heap_under_glibc_and_goes_on_without_it():
    """``compact_heap`` takes glibc's one-arena, large-blocks-mapped settings where the C
    library is glibc, and where it cannot (no C library to open, no ``mallopt``) says so
    and changes nothing: the command still runs."""
    import platform

    probe = (
        "import sys, types\n"
        "import gamecore.__main__ as entry\n"
        "print(entry.compact_heap())\n"
        "def no_libc(*args, **kwargs):\n"
        "    raise OSError('no C library')\n"
        "entry.ctypes = types.SimpleNamespace(CDLL=no_libc)  # the entry point's only\n"
        "print(entry.compact_heap())\n"
        "sys.argv = ['gamecore', 'exact', 'standard_blackjack', '--decks', '1', '--json']\n"
        "entry.run()\n"
    )
    seen = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=300
    )
    assert seen.returncode == 0, seen.stderr
    first, second, output = seen.stdout.split("\n", 2)
    assert first == str(platform.libc_ver()[0] == "glibc")
    assert second == "False"
    assert json.loads(output)["game"] == "standard_blackjack"


def test_the_process_ends_only_after_its_whole_output_is_written(tmp_path):
    """The command line ends its process at once after its command (gamecore.__main__.run,
    skipping the interpreter's teardown): an output several pipe buffers long still arrives
    whole, to a pipe and to a file, and a bad value still exits 2."""
    command = [sys.executable, "-m", "gamecore", "exact", "standard_blackjack", "--decks", "1"]
    piped = subprocess.run([*command, "--json"], capture_output=True, text=True, timeout=300)
    assert piped.returncode == 0, piped.stderr
    assert len(piped.stdout) > 3 * 65536  # a pipe holds 64 KiB: the reader drains it as it goes
    data = json.loads(piped.stdout)
    path = tmp_path / "out.json"
    with open(path, "w") as out:
        to_file = subprocess.run([*command, "--json"], stdout=out, text=True, timeout=300)
    assert to_file.returncode == 0
    assert json.loads(path.read_text()) == data
    bad = subprocess.run([*command[:-1], "0"], capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr.startswith("gamecore: error: ") and bad.stderr.count("\n") == 1
