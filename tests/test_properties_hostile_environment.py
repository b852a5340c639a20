"""Issue 42 (hostile input, round four), the process's environment: where compiled kernels are
cached when the usual places cannot be written (item 3), and the settings a process is
started with (item 12)."""

import io
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gamecore
from gamecore import _jit, environment

PACKAGE = Path(gamecore.__file__).resolve().parent

# --- item 3: a kernel is never loaded from a cache of other source -------------------------

#: Run in a process of its own: where numba caches a kernel of gamecore.dealing (None: it is
#: not cached at all), and which gamecore it is.
WHERE_CACHED = """
import json, gamecore, gamecore._jit as jit
from gamecore import dealing
print(json.dumps({"package": gamecore.__file__, "digest": jit.CACHE_DIGEST,
                  "cache": dealing._shuffle._cache.cache_path}))
"""


def _checkout(tmp_path: Path, writable_pycache: bool) -> Path:
    """A copy of the package under ``tmp_path``: with ``writable_pycache`` False its
    ``__pycache__`` is a regular file, so no folder can be made there, by root too (a
    read-only checkout, as any user sees it)."""
    root = tmp_path / "checkout"
    shutil.copytree(PACKAGE, root / "gamecore", ignore=shutil.ignore_patterns("__pycache__"))
    if not writable_pycache:
        (root / "gamecore" / "__pycache__").write_text("a file, not a folder\n")
    return root


def _where_cached(checkout: Path, **environment: str) -> tuple[dict, str]:
    """Run :data:`WHERE_CACHED` on the copy, with the environment's numba settings and cache
    homes replaced by ``environment``: what it printed, and its standard error."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env.pop("XDG_CACHE_HOME", None)
    env.update(PYTHONPATH=str(checkout), **environment)
    done = subprocess.run(
        [sys.executable, "-c", WHERE_CACHED],
        capture_output=True, text=True, cwd=checkout, env=env, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert Path(found["package"]).is_relative_to(checkout), found
    return found, done.stderr


def test_an_unwritable_cache_falls_back_to_a_private_versioned_folder(tmp_path):
    # NUMBA_CACHE_DIR cannot be made (a path through a file) and the checkout's __pycache__
    # neither: numba fell back to its per-user cache, unversioned, and ran a stale kernel.
    checkout = _checkout(tmp_path, writable_pycache=False)
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    found, err = _where_cached(
        checkout,
        NUMBA_CACHE_DIR=str(blocker / "cache"),
        XDG_CACHE_HOME=str(tmp_path / "xdg"),
        HOME=str(tmp_path / "home"),
    )
    versioned = tmp_path / "xdg" / "gamecore" / f"gamecore-{found['digest']}"
    assert found["cache"] is not None and Path(found["cache"]).is_relative_to(versioned), found
    for folder in (versioned, versioned.parent):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, oct(folder.stat().st_mode)
    lines = err.splitlines()
    assert len(lines) == 1 and "NUMBA_CACHE_DIR" in lines[0] and str(versioned) in lines[0], err


def test_with_no_writable_place_kernels_are_compiled_fresh_saying_so(tmp_path):
    # No place at all: numba raised "cannot cache function ... no locator available".
    checkout = _checkout(tmp_path, writable_pycache=False)
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    found, err = _where_cached(
        checkout,
        NUMBA_CACHE_DIR=str(blocker / "cache"),
        XDG_CACHE_HOME=str(blocker / "xdg"),
        HOME=str(blocker / "home"),
    )
    assert found["cache"] is None, found
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("gamecore: warning:"), err
    assert "compiled afresh" in lines[0], err


def test_a_relative_home_is_no_cache_folder(tmp_path):
    # HOME=x, no XDG_CACHE_HOME: the fallback was ./x/.cache/gamecore, in the working folder.
    checkout = _checkout(tmp_path, writable_pycache=False)
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    found, err = _where_cached(
        checkout, NUMBA_CACHE_DIR=str(blocker / "cache"), HOME="relative_home"
    )
    assert found["cache"] is None and "compiled afresh" in err, (found, err)
    assert not (checkout / "relative_home").exists()


def test_numba_s_own_cache_locators_are_not_used(tmp_path):
    # NUMBA_CACHE_LOCATOR_CLASSES picks numba's locators: the in-tree one caches in
    # __pycache__ itself, unversioned.
    checkout = _checkout(tmp_path, writable_pycache=True)
    found, err = _where_cached(
        checkout,
        NUMBA_CACHE_LOCATOR_CLASSES="InTreeCacheLocator",
        XDG_CACHE_HOME=str(tmp_path / "xdg"),
        HOME=str(tmp_path / "home"),
    )
    versioned = checkout / "gamecore" / "__pycache__" / f"gamecore-{found['digest']}"
    assert found["cache"] is not None and Path(found["cache"]).is_relative_to(versioned), found
    assert err == ""


#: The states each candidate folder can be in.
GIVEN_STATES = ("unset", "empty", "writable", "uncreatable")
PLACE_STATES = ("writable", "uncreatable")
HOME_STATES = ("writable", "uncreatable", "others_can_write", "a_link", "relative")


def _arrange(root: Path, given: str, in_tree: str, home: str) -> tuple[str, Path, Path | None]:
    """Make the places a process could cache kernels in, each in the state named."""
    blocker = root / "a_file"
    blocker.write_text("")
    given_path = {"unset": "", "empty": "", "writable": str(root / "given")}.get(
        given, str(blocker / "given")
    )
    package = root / "package"
    package.mkdir()
    if in_tree == "uncreatable":
        (package / "__pycache__").write_text("")
    cache_home: Path | None = root / "cache_home"
    if home == "uncreatable":
        cache_home = blocker / "cache_home"
    elif home == "others_can_write":  # a folder planted for this user by another
        (cache_home / "gamecore").mkdir(parents=True)
        (cache_home / "gamecore").chmod(0o777)
    elif home == "a_link":
        (root / "elsewhere").mkdir()
        cache_home.mkdir()
        (cache_home / "gamecore").symlink_to(root / "elsewhere")
    elif home == "relative":
        cache_home = None
    return given_path, package, cache_home


@settings(deadline=None)
@given(
    st.sampled_from(GIVEN_STATES), st.sampled_from(PLACE_STATES), st.sampled_from(HOME_STATES)
)
def test_the_cache_folder_is_versioned_writable_and_private_or_none(given, in_tree, home):
    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary)
        given_path, package, cache_home = _arrange(root, given, in_tree, home)
        folder, warning = _jit.cache_folder(given_path, package, cache_home, "0123456789abcdef")
        usable_home = home == "writable"
        if given == "writable":
            assert folder == root / "given" / "gamecore-0123456789abcdef"
        elif in_tree == "writable":
            assert folder == package / "__pycache__" / "gamecore-0123456789abcdef"
        elif usable_home:
            assert folder == cache_home / "gamecore" / "gamecore-0123456789abcdef"
            for private in (folder, folder.parent):
                mode = private.lstat().st_mode
                assert stat.S_ISDIR(mode) and stat.S_IMODE(mode) == 0o700, oct(mode)
        else:
            assert folder is None
        if folder is not None:
            assert folder.is_dir() and os.access(folder, os.W_OK)
        moved = given == "uncreatable" or folder is None
        assert (warning is not None) == moved, warning
        if warning is not None:
            assert warning.startswith("gamecore: warning:") and "\n" not in warning


# --- item 12: settings the process is started with -----------------------------------------

#: Each setting numba cannot run gamecore's kernels under, and what the refusal must name.
UNUSABLE_SETTINGS = [
    ({"NUMBA_DISABLE_JIT": "1"}, "NUMBA_DISABLE_JIT='1'"),
    ({"NUMBA_NUM_THREADS": "0"}, "NUMBA_NUM_THREADS='0'"),
    ({"NUMBA_NUM_THREADS": "abc"}, "NUMBA_NUM_THREADS='abc'"),
    ({"NUMBA_DEBUG_CACHE": "xyz"}, "NUMBA_DEBUG_CACHE='xyz'"),  # any value numba cannot parse
]


def _run(argv: list[str], **environment: str) -> subprocess.CompletedProcess:
    """``argv`` under this Python, in the test's environment plus ``environment``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env.update(environment)
    return subprocess.run(
        [sys.executable, *argv], capture_output=True, text=True, env=env, timeout=300
    )


@pytest.mark.parametrize("setting, named", UNUSABLE_SETTINGS)
def test_a_numba_setting_the_kernels_cannot_run_under_is_one_line(setting, named):
    # Each ended in a traceback (AttributeError: 'function' object has no attribute
    # 'targetoptions'; ValueError: Number of threads specified must be > 0), or a warning
    # holding one (a value numba cannot parse).
    done = _run(["-m", "gamecore", "exact", "punto_banco"], **setting)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("gamecore: error: " + named), done.stderr


def test_help_needs_no_kernel_and_works_whatever_numba_s_settings():
    done = _run(["-m", "gamecore", "--help"], NUMBA_DISABLE_JIT="1", NUMBA_NUM_THREADS="0")
    assert (done.returncode, done.stderr) == (0, "") and "usage: gamecore" in done.stdout


@settings(max_examples=50)
@given(
    st.one_of(st.integers(-3, 10**6).map(str), st.text(max_size=12)),
    st.one_of(st.none(), st.sampled_from(["0", "1", "2", "-1", "", "yes", " 0 "])),
)
def test_numba_s_thread_count_and_compile_switch_are_refused_exactly_when_unusable(
    threads, disable_jit
):
    environ = {"NUMBA_NUM_THREADS": threads}
    if disable_jit is not None:
        environ["NUMBA_DISABLE_JIT"] = disable_jit
    refusal = environment.setting_refusal(environ)

    def integer(text):  # how numba reads both settings: int(), a default if it fails
        try:
            return int(text)
        except ValueError:
            return None

    compiles = disable_jit is None or integer(disable_jit) == 0
    threads_usable = (integer(threads) or 0) >= 1
    assert (refusal is None) == (compiles and threads_usable), (environ, refusal)
    if refusal is not None:
        named = "NUMBA_DISABLE_JIT" if not compiles else "NUMBA_NUM_THREADS"
        assert refusal.startswith(named + "=") and "\n" not in refusal, refusal


#: Each non-ASCII character gamecore's output holds, spelled in ASCII (the test's own table).
SPELLED = {"±": "+/-", "≤": "<=", "≥": ">=", "×": "x", "≈": "~"}


@given(st.lists(st.sampled_from(["edge ", "1.06%", " ", *SPELLED]), max_size=12))
def test_known_symbols_are_spelled_in_ascii(parts):
    text = "".join(parts)
    written = text.encode("ascii", environment.ASCII_FALLBACK).decode("ascii")
    assert written == "".join(SPELLED.get(part, part) for part in parts)


@given(st.text(alphabet=st.characters(exclude_characters="\\")))
def test_any_other_text_is_written_in_ascii_escaped_and_recoverable(text):
    known = set(environment.ASCII_SPELLINGS) | set(environment.SUPERSCRIPTS)
    written = text.encode("ascii", environment.ASCII_FALLBACK)
    if not known & set(text):
        assert written.decode("unicode_escape") == text


@pytest.mark.parametrize(
    "encoding, expected",
    [
        ("ascii", "10^-15 +/- 2 <= 3, b\\udcff.yaml"),
        # Latin-1 has ¹²³ but no other superscript: ASCII throughout, never 10^-¹^5.
        ("latin-1", "10^-15 +/- 2 <= 3, b\\udcff.yaml"),
        ("utf-8", "10⁻¹⁵ ± 2 ≤ 3, b\\udcff.yaml"),
    ],
)
def test_standard_output_writes_what_its_encoding_can_and_ascii_for_the_rest(
    monkeypatch, encoding, expected
):
    stream = io.TextIOWrapper(io.BytesIO(), encoding=encoding)
    monkeypatch.setattr(sys, "stdout", stream)
    environment.readable_output()
    stream.write("10⁻¹⁵ ± 2 ≤ 3, b\udcff.yaml")
    stream.flush()
    assert stream.buffer.getvalue() == expected.encode(encoding)


#: A side bet whose title and outcome hold characters outside ASCII, printed on stdout.
SYMBOL_BET = """\
bet: every_deal
title: Every Deal ± 1 ≥ 2
game: baccarat
decks: 1
outcomes:
  - name: Banker ≤ 3 cards × 1
    when:
      hand_cards: {banker: [2, 3]}
    pays: 1 to 1
"""


@pytest.mark.parametrize(
    "terminal", [{"PYTHONIOENCODING": "ascii"}, {"LC_ALL": "C", "PYTHONUTF8": "0"}]
)
def test_a_terminal_that_shows_only_ascii_gets_every_line(tmp_path, terminal):
    # The par sheet ended in UnicodeEncodeError at the first character ASCII lacks.
    path = tmp_path / "symbols.yaml"
    path.write_text(SYMBOL_BET, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONIOENCODING", "LC_ALL")}
    env.update(terminal)
    done = subprocess.run(
        [sys.executable, "-m", "gamecore", "sidebet", str(path)],
        capture_output=True, env=env, timeout=300,
    )
    assert (done.returncode, done.stderr) == (0, b""), done.stderr
    out = done.stdout.decode("ascii")
    assert "Every Deal +/- 1 >= 2" in out and "Banker <= 3 cards x 1" in out, out
    assert out.splitlines()[-1].startswith("house edge"), out


@pytest.mark.parametrize("setting, named", UNUSABLE_SETTINGS[:2])
def test_make_reports_refuses_the_same_settings_in_one_line(tmp_path, setting, named):
    # python -m gamecore.reporting.build (make reports, make parameters) ended in a traceback
    # while importing its modules.
    output = tmp_path / "reports"
    done = _run(["-m", "gamecore.reporting.build", "--output", str(output), "--list"], **setting)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("make reports: error: " + named), done.stderr
    assert not output.exists()


def test_an_error_line_on_an_ascii_terminal_names_the_file_exactly(tmp_path):
    # Spelled in ASCII, a file named é≥.yaml read '\\xe9>=.yaml': a name that is not the
    # file's. Standard error escapes every character it cannot write.
    missing = tmp_path / "é≥.yaml"
    done = _run(["-m", "gamecore", "sidebet", str(missing)], PYTHONIOENCODING="ascii")
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr.splitlines() == [
        f"gamecore: error: {tmp_path}/\\xe9\\u2265.yaml: not found"
    ], done.stderr
