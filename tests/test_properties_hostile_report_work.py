"""Hostile input, round four (issue 42, item 8, the report's side): a side-bet report whose
counting is past the stated bound is refused by the report build and by ``gamecore verify``
before any notebook runs, in one line and exit 2, as every bad parameter is; before, the
notebook refused it (exit 1, "notebook side_bets.ipynb failed", a kernel started first).

And item 4's rule for the kernel folders of item 20: the next build removes a killed
build's kernel folder only when it holds nothing but connection files.
"""

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sidebet_samples import SIX_SUITED

from gamecore.errors import GamecoreError

#: Suits of one card: a few hundred thousand deals, far within the bound at any decks.
ONE_SUITED = """\
bet: one_suited
game: baccarat
decks: 8
outcomes:
  - name: Hearts
    when:
      suit: {player_1: hearts}
    pays: 10 to 1
"""


def test_the_build_refuses_a_side_bet_past_the_bound_before_any_notebook_runs(tmp_path):
    definition = tmp_path / "six_suited.yaml"
    definition.write_text(SIX_SUITED)
    output = tmp_path / "reports"
    argv = [sys.executable, "-m", "gamecore.reporting.build", "--output", str(output)]
    argv += ["--only", "side_bets", "-p", "side_bets", f"[{definition}]"]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    for word in ("report side_bets", "six_suited.yaml", "effects of removal"):
        assert word in lines[0], lines[0]
    assert not output.exists()  # nothing staged, no notebook run


def test_verify_refuses_a_received_side_bet_past_the_bound_before_any_rerun(tmp_path):
    from gamecore.reporting.verify import check_work

    definition = tmp_path / "six_suited.yaml"
    definition.write_text(SIX_SUITED)
    with pytest.raises(GamecoreError, match="report side_bets: .*six_suited.yaml"):
        check_work("side_bets", {"side_bets": [str(definition)]})


@settings(deadline=None)
@given(
    baccarat_decks=st.integers(1, 1000),
    sweep_decks=st.integers(1, 1000),
    suited=st.booleans(),
)
def test_the_bets_and_deck_counts_are_checked_together(baccarat_decks, sweep_decks, suited):
    # Six suited cards with the winner: 41 counts for their effects of removal, past the
    # bound at any deck count; one suited card a few hundred thousand deals a pass (within
    # it at any). The deck counts not given are the notebook's defaults.
    from unittest import mock

    from gamecore.reporting.build import check_rule_parameters
    from gamecore.sidebets import definition, study

    bet = definition.parse((SIX_SUITED if suited else ONE_SUITED).encode(), "bet.yaml")
    parameters = {
        "baccarat_decks": baccarat_decks,
        "sweep_decks": sweep_decks,
        "side_bets": ["big"],  # a built-in's name, loaded as ``bet`` below
    }
    with mock.patch.object(study.definition, "load", return_value=bet):
        if suited:
            with pytest.raises(GamecoreError, match="report side_bets: bet.yaml"):
                check_rule_parameters("side_bets", parameters)
        else:
            check_rule_parameters("side_bets", parameters)


# --- item 4's kind, for the kernel folders of item 20 ------------------------------------


def _dead_pid() -> int:
    """The number of a process that has ended."""
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


@settings(deadline=None)
@given(
    names=st.lists(
        st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789.-_", min_size=1, max_size=12)
        .filter(lambda name: name not in (".", "..")),
        min_size=1,
        max_size=3,
        unique=True,
    )
)
def test_a_dead_build_s_kernel_folder_holding_anything_else_is_left_whole(tmp_path_factory, names):
    # A folder named as a killed build's kernel folder (gamecore-kernels-PID-...), this
    # user's, private, its process gone, was removed whole, whatever it held: a user's
    # notes named so were lost. Only a folder holding nothing but connection files goes.
    import uuid

    from gamecore.reporting.kernels import KERNEL_FOLDER_PREFIX, remove_abandoned

    temporary = tmp_path_factory.mktemp("tmp")
    pid = _dead_pid()
    notes = temporary / f"{KERNEL_FOLDER_PREFIX}{pid}-mynotes"
    notes.mkdir(mode=0o700)
    for name in names:
        (notes / name).write_text("a user's notes")
    abandoned = temporary / f"{KERNEL_FOLDER_PREFIX}{pid}-abandoned"
    abandoned.mkdir(mode=0o700)
    (abandoned / f"kernel-{uuid.uuid4()}.json").write_text("{}")
    assert remove_abandoned(temporary) == [abandoned]
    assert not abandoned.exists()
    kept = sorted(p.name for p in notes.iterdir())
    assert kept == sorted(names)


# --- item 4's rule, as verify reads a folder --------------------------------------------


def test_verify_names_a_hidden_folder_only_named_like_a_build_s_staging_folder(tmp_path):
    # verify let any hidden folder named .building-* pass unlisted as "a build's staging
    # folder", its content never hashed: a received folder could carry anything in it. Now
    # only a folder a build made (its owner record, gamecore.reporting.ownership) passes.
    import os

    from gamecore.reporting.ownership import make_staging
    from gamecore.reporting.verify import check_hashes

    planted = tmp_path / ".building-mine"
    planted.mkdir()
    (planted / "notes.txt").write_text("anything at all")
    staging, descriptor = make_staging(tmp_path)  # a build's own, under way
    os.close(descriptor)
    problems = check_hashes(tmp_path, {"files": {}})
    assert problems == [".building-mine: not in the manifest (a hidden folder)"], problems
    assert staging.is_dir()
