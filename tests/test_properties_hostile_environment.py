"""Issue 42 (hostile input, round four), the process's environment: where compiled kernels are
cached when the usual places cannot be written (item 3), and the settings a process is
started with (item 12)."""

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import gamecore
from gamecore import _jit

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
