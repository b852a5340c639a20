"""The command line against hostile input and hostile surroundings (issue 27, round three).

- A probe of every option with what an attacker or a careless user would type: each value
  is refused with one line naming it (exit 2), or read exactly as written (exit 0). A value
  is a plain ASCII decimal: no other script's digits, no underscores, no leading zeros.
- A closed standard output refuses the command (exit 2, one line on standard error when
  that is open); a closed standard error loses the messages, never the output or the exit
  status; a reader of standard output that goes away (``| head``) ends the command quietly
  with 141 (128 + SIGPIPE), never 0: the output was not all delivered.
- Ctrl-C during a run with a progress bar finishes the bar's line before the one line
  "interrupted", and nothing is drawn after it.
"""

from __future__ import annotations

import io
import math
import os
import re
import signal
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout

import pytest

from gamecore import cli, strictjson

#: The longest line a refusal may print ("a few hundred characters": the longest legitimate
#: ones list a game's rule names).
MAX_LINE = 400


# --- the probe --------------------------------------------------------------------------------

H5000 = "9" * 5000  # past Python's own limit for int() (4,300 digits)
H3001 = "1" + "0" * 3000
MEGABYTE = "7" * (1 << 20)
SHOE = "4,4,4,4,4,4,4,4,4,"  # the ten-valued count follows
EXACT = ["exact", "punto_banco", "--json"]
SIMULATE = ["simulate", "punto_banco", "--rounds", "1000", "--no-progress", "--json"]
SHOE_MODE = [*SIMULATE, "--mode", "shoe"]
TABLE = ["simulate", "c21_blackjack", "--players", "2", "--strategy", "optimal", "--rounds", "100"]
COUNTER = ["count", "c21_baccarat", "--shoes", "10", "--json"]
HAND = ["hand", "standard_blackjack", "--json"]
BLACKJACK = ["exact", "c21_blackjack", "--decks", "1", "--json"]
C21 = ["exact", "c21_baccarat", "--json"]

ASCII = "a character other than ASCII"
UNDERSCORE = "underscores are not read"
LEADING_ZERO = "a leading zero"


def refused(case_id: str, argv: list[str], *words: str):
    return pytest.param(argv, 2, words, id=case_id)


def read(case_id: str, argv: list[str], *words: str):
    return pytest.param(argv, 0, words, id=case_id)


PROBE = [
    # --decks: an integer 1..1000 (through the rule set's own reading of --rule decks=)
    refused("decks-5000-digits", [*EXACT, "--decks", H5000], "decks", "5,000 digits"),
    refused("decks-3001-digits", [*EXACT, "--decks", H3001], "decks", "3,001 digits"),
    refused("decks-negative-huge", [*EXACT, "--decks", "-" + H5000], "5,000 digits"),
    refused("decks-minus-zero", [*EXACT, "--decks", "-0"], "decks", "got 0"),
    refused("decks-arabic-indic", [*EXACT, "--decks", "٦"], "'٦'", ASCII),
    refused("decks-fullwidth", [*EXACT, "--decks", "６"], "'６'", ASCII),
    refused("decks-math-bold", [*EXACT, "--decks", "𝟔"], ASCII),
    refused("decks-superscript", [*EXACT, "--decks", "²"], "'²'"),
    refused("decks-underscore", [*EXACT, "--decks", "1_000"], "'1_000'", UNDERSCORE),
    refused("decks-leading-zero", [*EXACT, "--decks", "010"], "'010'", LEADING_ZERO),
    refused("decks-hex", [*EXACT, "--decks", "0x10"], "'0x10'"),
    refused("decks-octal", [*EXACT, "--decks", "0o10"], "'0o10'"),
    refused("decks-binary", [*EXACT, "--decks", "0b110"], "'0b110'"),
    refused("decks-float", [*EXACT, "--decks", "6.0"], "'6.0'"),
    refused("decks-exponent", [*EXACT, "--decks", "1e1"], "'1e1'"),
    refused("decks-nan", [*EXACT, "--decks", "nan"], "'nan'"),
    refused("decks-inf", [*EXACT, "--decks", "inf"], "'inf'"),
    refused("decks-Infinity", [*EXACT, "--decks", "Infinity"], "'Infinity'"),
    refused("decks-minus-inf", [*EXACT, "--decks", "-inf"], "--decks"),
    refused("decks-empty", [*EXACT, "--decks", ""], "decks", "''"),
    refused("decks-blank", [*EXACT, "--decks", " "], "decks", "' '"),
    refused("decks-no-break-space", [*EXACT, "--decks", "\u00a06"], ASCII),
    refused("decks-em-space", [*EXACT, "--decks", "6\u2003"], ASCII),
    refused("decks-inner-space", [*EXACT, "--decks", "6 0"], "'6 0'"),
    refused("decks-nul", [*EXACT, "--decks", "6\x00"], "NUL"),
    refused("decks-megabyte", [*EXACT, "--decks", MEGABYTE], "1,048,576 digits"),
    refused("decks-twice", [*EXACT, "--decks", "6", "--decks", "8"], "--decks", "twice"),
    refused("decks-twice-abbreviated", [*EXACT, "--dec", "6", "--decks", "6"], "twice"),
    refused("decks-and-rule", [*EXACT, "--decks", "6", "--rule", "decks=6"], "twice"),
    read("decks-ascii-blanks", [*EXACT, "--decks", " 6\t"], '"decks": 6,'),
    read("decks-plus", [*EXACT, "--decks", "+6"], '"decks": 6,'),
    # --rounds, --seed, --threads, --penetration
    refused("rounds-5000-digits", [*SIMULATE[:2], "--rounds", H5000], "rounds", "5,000 digits"),
    refused("rounds-underscore", [*SIMULATE[:2], "--rounds", "1_000"], UNDERSCORE),
    refused("rounds-arabic-indic", [*SIMULATE[:2], "--rounds", "٦٠٠٠"], ASCII),
    refused("rounds-leading-zero", [*SIMULATE[:2], "--rounds", "010"], LEADING_ZERO),
    refused("rounds-exponent", [*SIMULATE[:2], "--rounds", "1e3"], "'1e3'"),
    refused("rounds-float", [*SIMULATE[:2], "--rounds", "1000.0"], "'1000.0'"),
    refused("rounds-minus-zero", [*SIMULATE[:2], "--rounds", "-0"], "rounds", "got 0"),
    refused("rounds-past-limit", [*SIMULATE[:2], "--rounds", str(10**14)], "10,000,000,000,000"),
    refused("rounds-twice", SIMULATE + ["--rounds", "1000"], "--rounds", "twice"),
    refused("seed-5000-digits", [*SIMULATE, "--seed", H5000], "seed", "5,000 digits"),
    refused("seed-41-digits", [*SIMULATE, "--seed", str(10**40)], "seed", "41 digits"),
    refused("seed-devanagari", [*SIMULATE, "--seed", "३"], ASCII),
    refused("seed-hex", [*SIMULATE, "--seed", "0x1F"], "'0x1F'"),
    refused("seed-leading-zero", [*SIMULATE, "--seed", "07"], LEADING_ZERO),
    refused("seed-negative", [*SIMULATE, "--seed", "-3"], "got -3"),
    read("seed-40-digits", [*SIMULATE, "--seed", str(10**39)], f'"seed": {10**39}'),
    read("seed-minus-zero", [*SIMULATE, "--seed", "-0"], '"seed": 0,'),
    refused("threads-5000-digits", [*SIMULATE, "--threads", H5000], "threads", "5,000 digits"),
    refused("threads-arabic-indic", [*SIMULATE, "--threads", "٢"], ASCII),
    refused("threads-leading-zero", [*SIMULATE, "--threads", "02"], LEADING_ZERO),
    refused("threads-underscore", [*SIMULATE, "--threads", "1_0"], UNDERSCORE),
    refused("threads-float", [*SIMULATE, "--threads", "2.0"], "'2.0'"),
    refused("threads-zero", [*SIMULATE, "--threads", "0"], "got 0"),
    refused("penetration-5000-digits", [*SHOE_MODE, "--penetration", H5000], "5,000 digits"),
    refused("penetration-leading-zero", [*SHOE_MODE, "--penetration", "014"], LEADING_ZERO),
    refused("penetration-arabic-indic", [*SHOE_MODE, "--penetration", "١٤"], ASCII),
    refused("penetration-nan", [*SHOE_MODE, "--penetration", "nan"], "'nan'"),
    # --shoe: ten counts
    refused("shoe-5000-digits", [*EXACT, "--shoe", SHOE + H5000], "rank 10", "5,000 digits"),
    refused("shoe-underscore", [*EXACT, "--shoe", SHOE + "1_6"], "rank 10", UNDERSCORE),
    refused("shoe-arabic-indic", [*EXACT, "--shoe", SHOE + "٦"], "rank 10", ASCII),
    refused("shoe-leading-zero", [*EXACT, "--shoe", "04," + SHOE[2:] + "16"], "rank A"),
    refused("shoe-no-break-space", [*EXACT, "--shoe", SHOE + "16\u00a0"], ASCII),
    refused("shoe-empty-counts", [*EXACT, "--shoe", ",,,,,,,,,"], "rank A", "''"),
    refused("shoe-megabyte", [*EXACT, "--shoe", MEGABYTE], "10 card counts"),
    read(
        "shoe-ascii-blanks",
        [*EXACT, "--shoe", " 4, 4,4,4,4,4,4,4,4,16\t"],
        f"{math.perm(52, 6)},",  # six cards dealt in order from 52
    ),
    # --rule values: numbers and switches
    refused("payout-5000-digits", [*EXACT, "--rule", "tie_pays=" + H5000], "tie_pays", "finite"),
    refused("payout-nan", [*EXACT, "--rule", "tie_pays=nan"], "tie_pays", "'nan'"),
    refused("payout-NaN", [*EXACT, "--rule", "tie_pays=NaN"], "'NaN'"),
    refused("payout-minus-nan", [*EXACT, "--rule", "tie_pays=-nan"], "'-nan'"),
    refused("payout-inf", [*EXACT, "--rule", "tie_pays=inf"], "'inf'"),
    refused("payout-minus-Infinity", [*EXACT, "--rule", "tie_pays=-Infinity"], "'-Infinity'"),
    refused("payout-mixed-case-inf", [*EXACT, "--rule", "tie_pays=iNfInItY"], "'iNfInItY'"),
    refused("payout-past-float", [*EXACT, "--rule", "tie_pays=1e999"], "finite", "'1e999'"),
    refused("payout-below-float", [*EXACT, "--rule", "tie_pays=1e-400"], "smallest float"),
    refused("payout-arabic-indic", [*EXACT, "--rule", "tie_pays=٨"], ASCII),
    refused("payout-fullwidth", [*EXACT, "--rule", "tie_pays=８"], ASCII),
    refused("payout-underscore", [*EXACT, "--rule", "tie_pays=1_0"], UNDERSCORE),
    refused("payout-leading-zero", [*EXACT, "--rule", "tie_pays=010"], LEADING_ZERO),
    refused("payout-hex", [*EXACT, "--rule", "tie_pays=0x8"], "'0x8'"),
    refused("payout-empty", [*EXACT, "--rule", "tie_pays="], "tie_pays", "''"),
    refused("payout-two-signs", [*EXACT, "--rule", "tie_pays=8=9"], "'8=9'"),
    refused("payout-megabyte", [*EXACT, "--rule", "tie_pays=" + MEGABYTE], "finite"),
    refused("commission-underscore", [*EXACT, "--rule", "banker_commission=0.0_5"], UNDERSCORE),
    refused("commission-arabic", [*EXACT, "--rule", "banker_commission=٠.٠٥"], ASCII),
    refused("commission-leading-zero", [*EXACT, "--rule", "banker_commission=00.05"], "zero"),
    refused("rule-decks-arabic", [*EXACT, "--rule", "decks=٦"], ASCII),
    refused("rule-decks-leading-zero", [*EXACT, "--rule", "decks=06"], LEADING_ZERO),
    refused("rule-twice", [*EXACT, "--rule", "tie_pays=8", "--rule", "tie_pays=8"], "twice"),
    refused("rule-name-megabyte", [*EXACT, "--rule", "x" * (1 << 20) + "=1"], "unknown rule"),
    refused("rule-without-value", [*EXACT, "--rule", "tie_pays"], "'tie_pays'"),
    refused("split-hands-arabic", [*BLACKJACK, "--rule", "max_split_hands=٤"], ASCII),
    refused("split-hands-leading-zero", [*BLACKJACK, "--rule", "max_split_hands=04"], "zero"),
    refused("switch-no-break-space", [*BLACKJACK, "--rule", "peek=\u00a0true"], "peek"),
    read("payout-minus-zero", [*EXACT, "--rule", "tie_pays=-0.0"], '"tie_pays": 0.0\n'),
    read("payout-leading-point", [*EXACT, "--rule", "tie_pays=.5"], '"tie_pays": 0.5\n'),
    read("payout-ascii-blanks", [*EXACT, "--rule", "tie_pays= 9 "], '"tie_pays": 9\n'),
    # the other integer and number options
    refused("jokers-arabic-indic", [*C21, "--shoe", SHOE + "16", "--jokers", "٢"], ASCII),
    refused("jokers-per-deck-leading-zero", [*C21, "--jokers-per-deck", "01"], LEADING_ZERO),
    refused("max-tag-arabic-indic", ["count", "c21_blackjack", "--max-tag", "٣"], ASCII),
    refused("trigger-nan", [*COUNTER, "--trigger", "nan"], "--trigger", "'nan'"),
    refused("trigger-underscore", [*COUNTER, "--trigger", "1_0"], UNDERSCORE),
    refused("ramp-arabic-indic", [*COUNTER, "--ramp", "2,4,٨"], "--ramp", ASCII),
    refused("ramp-inf", [*COUNTER, "--ramp", "2,4,inf"], "--ramp", "'inf'"),
    refused("rounds-per-hour-underscore", [*COUNTER, "--rounds-per-hour", "6_0"], UNDERSCORE),
    refused("players-arabic-indic", [*TABLE[:2], *TABLE[4:], "--players", "٢"], ASCII),
    refused("stake-underscore", [*TABLE, "--stake", "1_0"], "stake", UNDERSCORE),
    refused("stake-nan", [*TABLE, "--stake", "nan"], "stake", "'nan'"),
    refused("bankrolls-arabic-indic", [*TABLE, "--bankrolls", "100,٢٠٠"], ASCII),
    refused("shift-rounds-5000-digits", [*TABLE, "--shift-rounds", H5000], "5,000 digits"),
    # games, commands and other words
    refused("game-unknown", ["exact", "blackjack"], "unknown game", "'blackjack'"),
    refused("game-empty", ["exact", ""], "unknown game", "''"),
    refused("game-capitalised", ["exact", "Punto_Banco"], "'Punto_Banco'"),
    refused("game-trailing-space", ["rules", "punto_banco "], "'punto_banco '"),
    refused("game-megabyte", ["exact", "x" * (1 << 20)], "unknown game"),
    refused("command-megabyte", ["x" * (1 << 20)], "invalid choice", "'verify'"),
    refused("arguments-megabyte", [*EXACT, *["x"] * (1 << 19)], "unrecognized arguments"),
    refused("mode-megabyte", [*SIMULATE, "--mode", "x" * (1 << 20)], "mode"),
    refused("mode-empty", [*SIMULATE, "--mode", ""], "mode", "''"),
    refused("burn-empty", [*SHOE_MODE, "--burn", ""], "burn", "''"),
    refused("dask-megabyte", [*SIMULATE, "--dask", "x" * (1 << 20)], "dask address"),
    refused("up-card-arabic-indic", [*HAND, "--up", "١٠", "--cards", "10,6"], "'١٠'"),
    refused("card-leading-zero", [*HAND, "--up", "10", "--cards", "10,06"], "'06'"),
    refused("hand-of-100000-cards", [*HAND, "--up", "10", "--cards", "2," * 99_999 + "2"], "bust"),
    refused("cards-megabyte", [*HAND, "--up", "10", "--cards", "x" * (1 << 20)], "cards"),
    # file paths: a strategy chart, a reports folder
    refused("chart-empty-path", [*BLACKJACK, "--strategy", ""], "''"),
    refused("chart-folder", [*BLACKJACK, "--strategy", "{files}/folder.csv"], "folder.csv"),
    refused("chart-dev-zero", [*BLACKJACK, "--strategy", "/dev/zero"], "/dev/zero"),
    refused("chart-fifo", [*BLACKJACK, "--strategy", "{files}/fifo.csv"], "fifo.csv"),
    refused("chart-50-megabytes", [*BLACKJACK, "--strategy", "{files}/huge.csv"], "huge.csv"),
    refused("chart-symlink-loop", [*BLACKJACK, "--strategy", "{files}/loop.csv"], "loop.csv"),
    refused("chart-latin-1", [*BLACKJACK, "--strategy", "{files}/latin1.csv"], "latin1.csv"),
    refused("chart-name-too-long", [*BLACKJACK, "--strategy", "{files}/" + "d" * 300], "ddd"),
    refused("chart-path-megabyte", [*BLACKJACK, "--strategy", "x" * (1 << 20)], "xxx"),
    refused("chart-nul", [*BLACKJACK, "--strategy", "chart\x00.csv"], "NUL"),
    refused("count-chart-dev-zero", ["count", "c21_blackjack", "--strategy", "/dev/zero"], "zero"),
    refused("simulate-chart-fifo", [*TABLE[:2], "--strategy", "{files}/fifo.csv"], "fifo.csv"),
    refused("reports-fifo", ["verify", "{files}/fifo.csv"], "fifo.csv"),
    refused("reports-path-megabyte", ["verify", "x" * (1 << 20)], "xxx"),
]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """The files the probe points --strategy and verify at."""
    folder = tmp_path_factory.mktemp("hostile")
    (folder / "folder.csv").mkdir()
    os.mkfifo(folder / "fifo.csv")  # a reader that opens it waits for a writer for ever
    with open(folder / "huge.csv", "wb") as huge:
        huge.truncate(50 << 20)  # 50 MB (sparse)
    (folder / "loop.csv").symlink_to(folder / "loop2.csv")
    (folder / "loop2.csv").symlink_to(folder / "loop.csv")
    (folder / "latin1.csv").write_bytes("hand,2,3,4,5,6,7,8,9,10,A\n# é\n".encode("latin-1"))
    return folder


def _main(argv: list[str]) -> tuple[int, str, str]:
    """The command line ``argv`` run here (cli.main, as the process runs it), with what it
    wrote to standard output and error."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = cli.main(argv)
        except SystemExit as exit_:  # argparse's usage errors
            code = exit_.code
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(("argv", "status", "words"), PROBE)
def test_hostile_values_are_refused_naming_them_or_read_as_written(files, argv, status, words):
    argv = [arg.replace("{files}", str(files)) for arg in argv]
    code, out, err = _main(argv)
    lines = err.splitlines()
    assert all(len(line) <= MAX_LINE for line in lines), [line[:200] for line in lines]
    if status == 2:
        assert (code, out) == (2, ""), err[:MAX_LINE]
        assert len(lines) == 1 and lines[0].startswith("gamecore: error: "), err[:MAX_LINE]
        for word in words:
            assert word in lines[0], lines[0]
    else:
        assert (code, err) == (0, ""), err[:MAX_LINE]
        for word in words:
            assert word in out, out[:2000]


C21_SIMULATE = ["simulate", "c21_baccarat", "--rounds", "1000", "--no-progress", "--json"]
TABLE_WITHOUT_PLAYERS = [*TABLE[:2], *TABLE[4:]]

#: Every numeric option of simulate and the table run, with the command it is given to and
#: the values it has no meaning for (a count of rounds, a seed, threads, cards, seats, money).
SIMULATE_FLAGS = [
    ("--rounds", SIMULATE[:2], ("inf", "nan", "-1", "0")),
    ("--seed", SIMULATE, ("inf", "nan", "-1")),
    ("--threads", SIMULATE, ("inf", "nan", "-1", "0")),
    ("--penetration", SHOE_MODE, ("inf", "nan", "-1", "0")),
    ("--decks", SIMULATE, ("inf", "nan", "-1", "0")),
    ("--jokers-per-deck", C21_SIMULATE, ("inf", "nan", "-1")),
    ("--players", C21_SIMULATE, ("inf", "nan", "-1", "0")),
    ("--players", TABLE_WITHOUT_PLAYERS, ("inf", "nan", "-1", "0")),
    ("--stake", TABLE, ("inf", "nan", "-1", "0")),
    ("--bankrolls", TABLE, ("inf", "nan", "-1", "0", "100,-1")),
    ("--shift-rounds", TABLE, ("inf", "nan", "-1", "0")),
    ("--turn-rounds", TABLE, ("inf", "nan", "-1", "0")),
]


@pytest.mark.parametrize(
    ("flag", "argv", "value"),
    [
        pytest.param(flag, argv, value, id=f"{argv[1]}{flag}={value}")
        for flag, argv, values in SIMULATE_FLAGS
        for value in values
    ],
)
def test_a_meaningless_simulate_value_is_refused_naming_its_flag_and_value(flag, argv, value):
    """Each refusal names the flag as typed (the library's checks name the parameter,
    "stake must be from 1 unit ...", which was the message on the command line too) and the
    value (as typed, or as the number it was read as: -1 as -1.0)."""
    code, out, err = _main([*argv, f"{flag}={value}"])
    lines = err.splitlines()
    assert (code, out, len(lines)) == (2, "", 1), err[:MAX_LINE]
    line = lines[0]
    assert line.startswith(f"gamecore: error: {flag} "), line
    shown_value = value.split(",")[-1]  # a list's bad item
    assert f"got {shown_value}" in line or f"got '{value}'" in line, line


def test_an_infinite_stake_says_how_to_ask_for_one():
    code, _out, err = _main([*TABLE, "--stake", "inf"])
    assert code == 2 and "leave --stake out for a P/D that covers every payoff" in err, err


def test_values_no_process_can_hold_from_a_real_command_line():
    """Through a real process: an argument that is not UTF-8 (Python passes it on as lone
    surrogates) and one of 120 KB (close to Linux's 128 KiB limit for one argument)."""
    for argv in (
        [b"exact", b"punto_banco", b"--decks", b"\xff6"],
        [b"exact", b"x" * 120_000],
        [b"exact", b"punto_banco", b"--strategy", b"\xfe.csv"],
    ):
        result = subprocess.run(
            [sys.executable.encode(), b"-m", b"gamecore", *argv],
            capture_output=True,
            timeout=300,
        )
        lines = result.stderr.decode(errors="replace").splitlines()
        assert (result.returncode, result.stdout) == (2, b""), lines
        assert len(lines) == 1 and len(lines[0]) <= MAX_LINE, lines


# --- a closed or broken standard output or error -----------------------------------------

#: A reader that went away: what a shell reports for a command killed by SIGPIPE.
BROKEN_PIPE = 128 + 13


def in_shell(args: list[str], redirections: str) -> subprocess.CompletedProcess:
    """``gamecore ARGS`` with its standard streams closed or redirected by the shell, as a
    user's shell does it (``>&-``, ``2>&-``)."""
    command = f'exec "$0" -m gamecore "$@" {redirections}'
    return subprocess.run(
        ["sh", "-c", command, sys.executable, *args], capture_output=True, timeout=300
    )


@pytest.mark.parametrize(
    "args",
    [
        ["exact", "punto_banco"],
        ["exact", "punto_banco", "--json"],
        ["rules", "punto_banco"],
        ["simulate", "punto_banco", "--rounds", "1000"],
        ["--version"],
    ],
)
def test_a_closed_standard_output_refuses_the_command_in_one_line(args):
    result = in_shell(args, ">&-")
    lines = result.stderr.decode().splitlines(keepends=True)
    assert result.returncode == 2 and len(lines) == 1, lines
    assert lines[0].startswith("gamecore: error: standard output is closed"), lines


def test_both_closed_exit_2_quietly_and_a_closed_standard_error_keeps_the_output():
    both = in_shell(["exact", "punto_banco", "--json"], ">&- 2>&-")
    assert (both.returncode, both.stdout, both.stderr) == (2, b"", b"")
    # Standard error closed: a refusal says nothing (its line went to standard output
    # before), and a result is written whole, its progress bar going nowhere.
    refused = in_shell(["exact", "punto_banco", "--decks", "0"], "2>&-")
    assert (refused.returncode, refused.stdout) == (2, b"")
    for args in (
        ["exact", "punto_banco", "--json"],
        ["simulate", "punto_banco", "--rounds", str(20 << 20), "--json"],  # 20 chunks: a bar
    ):
        result = in_shell(args, "2>&-")
        assert result.returncode == 0
        assert strictjson.loads(result.stdout.decode())["game"] == "punto_banco"


@pytest.mark.parametrize(
    "args",
    [["exact", "punto_banco"], ["exact", "punto_banco", "--json"], ["rules", "c21_blackjack"]],
)
def test_a_reader_gone_before_the_output_is_a_quiet_exit_141(args):
    process = subprocess.Popen(
        [sys.executable, "-m", "gamecore", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    process.stdout.close()  # the reader leaves before the command writes (`| head -c 0`)
    err = process.stderr.read()
    assert (process.wait(timeout=300), err) == (BROKEN_PIPE, b"")


def test_a_reader_gone_mid_document_is_not_told_the_document_is_whole():
    """A blackjack analysis's JSON (about 250 KB) fills the pipe; its reader takes one byte
    and leaves: the command stops quietly with 141, not 0 as if the document had gone out."""
    process = subprocess.Popen(
        [sys.executable, "-m", "gamecore", "exact", "standard_blackjack", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,
    )
    assert process.stdout.read(1) == b"{"
    process.stdout.close()
    err = process.stderr.read()
    assert (process.wait(timeout=300), err) == (BROKEN_PIPE, b"")


# --- Ctrl-C under a progress bar ------------------------------------------------------------


def _interruptible() -> None:
    """Run in the child before it starts: SIGINT's default action back. A shell starts a
    background job (``make test &``, a CI runner's job) with SIGINT ignored, an ignored
    signal stays ignored across exec, and Python then installs no KeyboardInterrupt
    handler: the command under test would not be a terminal's foreground command."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


#: Ctrl-C while the simulation merges its third chunk's result, outside the run's generator
#: (the run, suspended, keeps its bar open until it is collected: after the message).
BETWEEN_CHUNKS = """
import signal
from gamecore.baccarat import sim

class Interrupting:
    def __init__(self, results):
        self.results, self.merged = results, 0
    def __iter__(self):
        return self
    def __next__(self):
        result = next(self.results)
        self.merged += 1
        if self.merged == 3:
            signal.raise_signal(signal.SIGINT)
        return result

run_chunks = sim.run_chunks
sim.run_chunks = lambda *args, **kwargs: Interrupting(run_chunks(*args, **kwargs))
"""


def _has_dask() -> bool:
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.parametrize(
    ("where", "patch", "options"),
    [
        ("waiting for a chunk", "", []),
        ("between two chunks", BETWEEN_CHUNKS, []),
        # Not "while a Dask cluster starts": its workers are started with SIGINT ignored, so
        # that a terminal's Ctrl-C reaches the command only (the test below), and a Ctrl-C
        # in those seconds is lost (docs/reliability.md); the run is interrupted after.
    ],
)
def test_ctrl_c_finishes_the_progress_bar_before_its_one_line(where, patch, options):
    """A real process with its progress bar on standard error (a pipe: tqdm draws the same
    carriage-return lines as on a terminal), interrupted once the bar shows: the bar's line
    is finished ("\\n") before "gamecore: interrupted", and nothing is drawn after it."""
    argv = ["gamecore", "simulate", "punto_banco", "--rounds", str(10**10), *options]
    probe = f"import sys\nimport gamecore.__main__ as entry\n{patch}\nsys.argv = {argv!r}\n"
    probe += "entry.run()\n"
    process = subprocess.Popen(
        [sys.executable, "-c", probe],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_interruptible,
    )
    seen = b""
    while b"chunk" not in seen:  # the bar counts chunks
        block = os.read(process.stderr.fileno(), 4096)
        assert block, (where, seen)  # ended before drawing a bar
        seen += block
    if not patch:
        process.send_signal(signal.SIGINT)
    out, rest = process.communicate(timeout=120)
    err = (seen + rest).decode()
    assert (process.returncode, out) == (130, b""), (where, err)
    bar, _, after = err.rpartition("gamecore: interrupted")
    assert after == "\n" and err.count("gamecore: interrupted") == 1, (where, err[-300:])
    assert bar.endswith("\n") and "\r" in bar, (where, err[-300:])


@pytest.mark.skipif(not _has_dask(), reason="needs distributed")
def test_ctrl_c_at_a_terminal_leaves_the_dask_workers_quiet():
    """A terminal's Ctrl-C goes to its whole foreground process group: the command and the
    Dask workers it started. The command is its own session here (a process group of its
    own, as a shell's job is), interrupted once its workers have run chunks: its one line
    and exit 130, and nothing from the workers (each printed its event loop's traceback,
    and their logs warned of the tasks cancelled). Standard error is read to its end, which
    comes when every process holding it, the workers too, has exited."""
    process = subprocess.Popen(
        [sys.executable, "-m", "gamecore", "simulate", "punto_banco", "--rounds", str(10**10),
         "--dask", "local"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        preexec_fn=_interruptible,
    )  # fmt: skip
    seen = b""
    # Two chunks done: both workers are up and running. The bar is redrawn at most ten times
    # a second, so it may go from 1 to 5 chunks without ever showing 2.
    while max(map(int, re.findall(rb"\| *(\d+)/", seen)), default=0) < 2:
        block = os.read(process.stderr.fileno(), 4096)
        assert block, seen  # ended before running a chunk
        seen += block
    os.killpg(process.pid, signal.SIGINT)  # what the terminal does
    out, rest = process.communicate(timeout=120)
    err = (seen + rest).decode()
    assert (process.returncode, out) == (130, b""), err[-2000:]
    bar, _, after = err.rpartition("gamecore: interrupted")
    assert after == "\n", err[-2000:]
    # Only the bar before the line: its redrawn states, each starting with a carriage return.
    lines = bar.split("\n")
    assert lines[-1] == "" and all(line.startswith("\r") for line in lines[:-1]), err[-2000:]
    assert "Traceback" not in err and "WARNING" not in err and "leaked" not in err, err[-2000:]


def test_the_interrupt_race_filter_drops_only_distributeds_shutdown_noise():
    import logging

    from gamecore.interrupts import InterruptRaceFilter

    def record(error):
        try:
            raise error
        except Exception:  # noqa: BLE001 - a record made the way tornado makes it
            return logging.LogRecord(
                "tornado.application", logging.ERROR, __file__, 1, "callback", None,
                sys.exc_info(),
            )  # fmt: skip

    race = NameError("cannot access free variable 'future' where it is not associated with a")
    assert not InterruptRaceFilter().filter(record(race))
    assert InterruptRaceFilter().filter(record(NameError("name 'x' is not defined")))
    assert InterruptRaceFilter().filter(record(ValueError("free variable 'future'")))

    # The nanny's warning that it kills a worker still busy when the cluster closes (seen
    # under load after a Ctrl-C); its other records pass.
    def nanny(message):
        return logging.LogRecord(
            "distributed.nanny", logging.WARNING, __file__, 1, message, None, None
        )

    assert not InterruptRaceFilter().filter(
        nanny("Worker process still alive after 4.0 seconds, killing")
    )
    assert InterruptRaceFilter().filter(nanny("Restarting worker"))
