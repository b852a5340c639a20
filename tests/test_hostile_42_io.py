"""Hostile input, round four (issue 42): what reaches the terminal and the disk.

* Item 14: a name holding control characters is shown escaped in every error line, never
  written raw to the terminal (an escape sequence would colour, move or clear it).
"""

import contextlib
import io
import os
import subprocess
import sys
import unicodedata

import pytest
from helpers import assert_refused, run_gamecore, run_gamecore_here

from gamecore.errors import GamecoreError, one_line, printable
from gamecore.reading import path_text
from gamecore.reporting import build

# --- item 14: control characters in an error line ---------------------------------------

#: A file name that, printed raw, turns a terminal's text red.
COLOURED_NAME = "bad\x1b[31mname.yaml"


#: Unicode's categories a terminal acts on, hides or shows as blank: control, format,
#: surrogate, private use, unassigned, and the separators (the space alone is kept).
HIDDEN_CATEGORIES = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs")


def _hidden(character: str) -> bool:
    return character != " " and unicodedata.category(character) in HIDDEN_CATEGORIES


def _terminal_acts_on(line: str) -> list[str]:
    """The characters of ``line`` a terminal acts on or hides, by Unicode's own tables."""
    return [c for c in line if _hidden(c)]


def test_printable_escapes_every_hidden_character_and_nothing_else():
    every = "".join(chr(code) for code in range(0x110000))
    # each hidden one as Python's unicode_escape codec writes it, every other one unchanged
    expected = "".join(
        c.encode("unicode_escape").decode("ascii") if _hidden(c) else c for c in every
    )
    assert printable(every) == expected
    assert printable("é ü 日本 ✓ x.yaml") == "é ü 日本 ✓ x.yaml"


@pytest.mark.parametrize(
    ("raw", "escaped"),
    [
        ("\x1b[31m", "\\x1b[31m"),
        ("a\nb\rc\td", "a\\nb\\rc\\td"),
        ("\x07\x7f\x9b", "\\x07\\x7f\\x9b"),
        ("evil\u202etxt.yaml", "evil\\u202etxt.yaml"),
        ("line\u2028break", "line\\u2028break"),
        ("\udcff", "\\udcff"),  # a byte that is not UTF-8, as os.fsdecode gives it
    ],
)
def test_printable_writes_each_as_python_does(raw, escaped):
    assert printable(raw) == escaped
    assert one_line(raw) == escaped
    assert path_text(raw) == escaped


def test_a_coloured_file_name_is_shown_escaped_by_sidebet():
    line = assert_refused(run_gamecore_here("sidebet", COLOURED_NAME), "not found")
    assert "\x1b" not in line and "bad\\x1b[31mname.yaml" in line


def test_a_coloured_name_is_shown_escaped_by_the_process():
    result = run_gamecore("sidebet", COLOURED_NAME, timeout=120)
    assert_refused(result, "bad\\x1b[31mname.yaml")
    assert _terminal_acts_on(result.stderr.rstrip("\n")) == []


@pytest.mark.parametrize(
    "argv",
    [
        ["-f", COLOURED_NAME],  # make reports PARAMS=...
        ["-p", COLOURED_NAME, "3"],
        ["--only", COLOURED_NAME],
    ],
)
def test_make_reports_shows_a_coloured_name_escaped(argv, tmp_path):
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = build.main(["--output", str(tmp_path / "reports"), *argv])
    assert code == 2
    lines = err.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith("make reports: error:"), lines
    assert "\x1b" not in lines[0] and "\\x1b[31m" in lines[0]


@pytest.mark.parametrize(
    "argv",
    [
        ["verify", "x\x1b[2J"],
        ["exact", "punto_banco", "--decks", "8\x1b[2J"],
        ["x\x1b[2J"],
        ["sign", "x\x1b]0;title\x07", "--key", "k"],
    ],
)
def test_every_command_shows_a_control_character_escaped(argv):
    result = run_gamecore_here(*argv)
    assert result.returncode == 2 and result.stdout == ""
    line = result.stderr.rstrip("\n")
    assert "\n" not in line and _terminal_acts_on(line) == [], line
    assert "\\x1b" in line, line


if sys.platform.startswith("linux"):

    def test_a_name_that_is_not_utf8_is_shown_escaped():
        result = run_gamecore_here("sidebet", "bad\udcffname.yaml")
        assert_refused(result, "bad\\udcffname.yaml")


# --- item 17: an empty path ---------------------------------------------------------------


@pytest.fixture
def in_empty_folder(tmp_path, monkeypatch):
    """The working folder an empty path would name: a fresh one, checked empty after."""
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    assert os.listdir(tmp_path) == [], "something was written into the working folder"


def test_make_reports_refuses_an_empty_output(in_empty_folder):
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = build.main(["--output", "", "--only", "dragon_tiger"])
    assert code == 2
    lines = err.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith("make reports: error: --output:"), lines
    assert "empty path" in lines[0]


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["keygen", "--private", "", "--public", "pub.pem"], "--private"),
        (["keygen", "--private", "key.pem", "--public", ""], "--public"),
        (["sign", "", "--key", "key.pem"], "reports"),
        (["sign", "reports", "--key", ""], "--key"),
        (["verify", ""], "reports"),
        (["verify", "reports", "--public-key", ""], "--public-key"),
    ],
)
def test_every_path_option_refuses_an_empty_path(argv, option, in_empty_folder):
    assert_refused(run_gamecore_here(*argv), f"argument {option}:", "empty path")


# --- item 16: bad output paths and unwritable folders -----------------------------------


def _make_reports(argv: list[str]) -> tuple[int, list[str]]:
    """``make reports``'s builder run here: its status and the lines of its standard error."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = build.main(argv)
    return code, err.getvalue().splitlines()


@pytest.mark.parametrize("below", ["", "sub"])
def test_make_reports_refuses_an_output_that_is_a_file(below, tmp_path):
    taken = tmp_path / "notes.txt"
    taken.write_text("a user's notes\n")
    given = str(taken / below) if below else str(taken)
    code, lines = _make_reports(["--output", given, "--only", "dragon_tiger"])
    assert code == 2
    assert len(lines) == 1 and lines[0].startswith(f"make reports: error: --output {given}:")
    assert "Errno" not in lines[0]
    assert taken.read_text() == "a user's notes\n" and os.listdir(tmp_path) == ["notes.txt"]


@pytest.fixture
def signed_folder(tmp_path):
    """A reports folder of one file and its manifest, and a key pair to sign it with."""
    import hashlib
    import json

    from gamecore.reporting import signing

    reports = tmp_path / "reports"
    reports.mkdir()
    (reports / "t.csv").write_text("x\n1\n")
    digest = hashlib.sha256(b"x\n1\n").hexdigest()
    manifest = {"files": {"t.csv": digest}, "reports": {}}
    (reports / "MANIFEST.json").write_text(json.dumps(manifest, indent=1) + "\n")
    signing.keygen(tmp_path / "key.pem", tmp_path / "key.pub")
    return reports, tmp_path / "key.pem"


def test_sign_names_the_signature_it_cannot_write_not_its_temporary_file(signed_folder):
    reports, key = signed_folder
    (reports / "MANIFEST.json.sig").mkdir()  # the rename of the temporary file fails
    line = assert_refused(
        run_gamecore_here("sign", str(reports), "--key", str(key)),
        f"{reports / 'MANIFEST.json.sig'}: cannot be written",
    )
    assert ".MANIFEST.json.sig." not in line and "Errno" not in line
    assert not [name for name in os.listdir(reports) if name.startswith(".MANIFEST.json.sig.")]


# --- item 18: output that cannot be written -----------------------------------------------

needs_dev_full = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")


def _to_full_device(*args: str, stderr_too: bool = False) -> subprocess.CompletedProcess:
    """``gamecore ARGS`` as a process of its own, standard output on a full device (and
    standard error too, if asked)."""
    with open("/dev/full", "w") as full:
        return subprocess.run(
            [sys.executable, "-m", "gamecore", *args],
            stdout=full,
            stderr=full if stderr_too else subprocess.PIPE,
            text=True,
            timeout=300,
        )


@needs_dev_full
@pytest.mark.parametrize("args", [["--help"], ["--version"], ["exact", "--help"]])
def test_help_to_a_full_device_is_an_error(args):
    result = _to_full_device(*args)
    assert result.returncode == 1
    assert result.stderr == "gamecore: error: cannot write the output: No space left on device\n"
    assert _to_full_device(*args, stderr_too=True).returncode == 1


@needs_dev_full
def test_a_usage_error_keeps_its_status_whatever_standard_output_is():
    result = _to_full_device("exact", "--no-such-option")
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1


@needs_dev_full
def test_keygen_to_a_full_device_leaves_no_key(tmp_path):
    result = _to_full_device(
        "keygen", "--private", str(tmp_path / "key.pem"), "--public", str(tmp_path / "key.pub")
    )
    assert result.returncode == 1
    assert result.stderr == "gamecore: error: cannot write the output: No space left on device\n"
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("failing", [1, 2])
def test_keygen_that_cannot_write_a_key_leaves_nothing(failing, tmp_path, monkeypatch):
    """The disk fills while the first or the second key is written: neither key, nor any
    temporary file, is left; one line names the key."""
    import errno

    from gamecore.reporting import signing

    real_fsync, calls = os.fsync, []

    def fsync(descriptor):
        calls.append(descriptor)
        if len(calls) == failing:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(descriptor)

    monkeypatch.setattr(signing.os, "fsync", fsync)
    names = {1: "key.pem", 2: "key.pub"}
    line = assert_refused(
        run_gamecore_here(
            "keygen", "--private", str(tmp_path / "key.pem"), "--public", str(tmp_path / "key.pub")
        ),
        f"{tmp_path / names[failing]}: cannot be written (No space left on device)",
    )
    assert "Errno" not in line
    assert os.listdir(tmp_path) == []


def test_keygen_never_takes_a_name_that_appears_while_it_writes(tmp_path, monkeypatch):
    """A file given the public key's name after the check: it is kept, and the private key
    taken back (a link cannot replace a name, as a rename would)."""
    from gamecore.reporting import signing

    private, public = tmp_path / "key.pem", tmp_path / "key.pub"
    real_mkstemp = signing.tempfile.mkstemp

    def mkstemp(prefix, dir):
        if prefix == ".key.pub.":  # as the public key's temporary file is made
            public.write_text("someone else's\n")
        return real_mkstemp(prefix=prefix, dir=dir)

    monkeypatch.setattr(signing.tempfile, "mkstemp", mkstemp)
    with pytest.raises(GamecoreError, match="already exists"):
        signing.keygen(private, public)
    assert public.read_text() == "someone else's\n"
    assert os.listdir(tmp_path) == ["key.pub"]
