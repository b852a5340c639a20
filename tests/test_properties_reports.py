"""Property-based tests of putting builds in place (gamecore.reporting.finalize): any folder
a user may have, any sequence of builds and of builds that stop before or after their
commit, and the folder always ends as the last completed build left it, with a manifest
that matches it and nothing else changed.

Run with a few derandomized examples by ``make test`` and many more by ``make fuzz``.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import hypothesis.strategies as st
from hypothesis import given

from gamecore.reporting import finalize
from gamecore.reporting.verify import check_hashes, read_manifest

KNOWN = ("alpha", "beta", "gamma")

#: What a user may have put in the folder beside the reports: (path, bytes).
strays = st.lists(
    st.tuples(
        st.sampled_from(["notes.txt", "stray/summary.json", "alpha2/x.csv", "gamma/extra.csv"]),
        st.binary(max_size=64),
    ),
    max_size=3,
)

#: A build: the reports it rebuilds, its content's mark, and whether it stops before its
#: commit (an error in a notebook, a full disk) or completes.
builds = st.lists(
    st.tuples(
        st.lists(st.sampled_from(KNOWN), min_size=1, max_size=3, unique=True),
        st.integers(0, 1000),
        st.booleans(),
    ),
    min_size=1,
    max_size=4,
)


def _stage(output: Path, names, mark: int, fails: bool) -> None:
    staging = finalize.open_staging(output)
    try:
        for name in names:
            folder = staging.report(name)
            folder.mkdir()
            (folder / "summary.json").write_text(f'{{"name": "{name}", "parameters": {{}}}}')
            (folder / "table.csv").write_text(f"mark\n{mark}\n")
        if fails:
            raise OSError("the build stops before its commit")
        staging.commit(list(names), known=KNOWN, index_page=lambda s: f"{sorted(s.reports)}")
    finally:
        staging.close()


def _visible(output: Path) -> dict[str, bytes]:
    return {
        p.relative_to(output).as_posix(): p.read_bytes()
        for p in output.rglob("*")
        if p.is_file() and not any(s.startswith(".") for s in p.relative_to(output).parts)
    }


@given(strays, builds)
def test_the_folder_is_what_the_completed_builds_made(stray_files, sequence):
    with tempfile.TemporaryDirectory() as scratch:
        output = Path(scratch) / "reports"
        output.mkdir()
        for relative, data in stray_files:
            (output / relative).parent.mkdir(parents=True, exist_ok=True)
            (output / relative).write_bytes(data)
        expected = {relative: data for relative, data in stray_files}
        manifest_written = False
        for names, mark, fails in sequence:
            before = _visible(output)
            try:
                _stage(output, names, mark, fails)
            except OSError:
                assert _visible(output) == before  # stopped before its commit: nothing changed
                continue
            manifest_written = True
            for name in names:  # the rebuilt reports replace everything in their folders
                expected = {k: v for k, v in expected.items() if k.split("/")[0] != name}
                summary = f'{{"name": "{name}", "parameters": {{}}}}'
                expected[f"{name}/summary.json"] = summary.encode()
                expected[f"{name}/table.csv"] = f"mark\n{mark}\n".encode()
            visible = _visible(output)
            index = visible.pop("index.html")
            visible.pop("MANIFEST.json")
            assert visible == expected
            reports = sorted({k.split("/")[0] for k in expected if k.endswith("/summary.json")})
            assert index.decode() == str([r for r in reports if r in KNOWN])
        if manifest_written:
            assert check_hashes(output, read_manifest(output)) == []
        assert [p.name for p in output.iterdir() if p.name.startswith(".")] == [".lock"]
        shutil.rmtree(output)
