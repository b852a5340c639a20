"""``gamecore sidebet``: the par sheet of a built-in or a user's file as strict JSON and as
text, and every mistake refused in one line with exit status 2 and nothing on stdout."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest
from helpers import run_gamecore_here

from gamecore.sidebets import definition


def _run(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "gamecore", "sidebet", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=600,
    )


def _strict(text: str) -> dict:
    def refuse(constant):
        raise ValueError(f"non-standard JSON constant {constant}")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize("bet", ["player_pair", "lucky_ladies"])
def test_json_document_of_a_built_in(bet):
    done = _run(bet, "--json")
    assert done.returncode == 0, done.stderr
    document = _strict(done.stdout)
    outcomes = document["outcomes"]
    assert document["bet"] == bet
    assert sum(o["combinations"] for o in outcomes) == document["total_combinations"]
    assert sum(o["probability"] for o in outcomes) == pytest.approx(1.0, abs=1e-12)
    assert outcomes[-1]["name"] == definition.LOSES and outcomes[-1]["pays"] == -1
    expected = sum(Fraction(o["combinations"]) * Fraction(o["pays"]) for o in outcomes)
    assert Fraction(document["house_edge_exact"]) == -expected / document["total_combinations"]
    assert document["rules"]["decks"] == document["decks"] == definition.load(bet).decks
    assert document["definition"]["origin"] == "built-in"


def test_a_users_file_counts_as_the_built_in_it_copies(tmp_path):
    from importlib import resources

    text = resources.files("gamecore.sidebets").joinpath("definitions", "dragon_7.yaml").read_text()
    path = tmp_path / "my_dragon.yaml"
    path.write_text(text.replace("bet: dragon_7", "bet: my_dragon"), "utf-8")
    mine = _strict(_run(str(path), "--decks", "2", "--json").stdout)
    built_in = _strict(_run("dragon_7", "--decks", "2", "--json").stdout)
    assert mine["outcomes"] == built_in["outcomes"]
    assert mine["definition"]["origin"] == str(path)


def test_text_output_is_the_table_and_the_figures():
    done = _run("small", "--decks", "1")
    assert done.returncode == 0, done.stderr
    assert "Outcome" in done.stdout and "3 to 2" in done.stdout
    assert "house edge" in done.stdout


SHADOWED = """\
bet: shadowed
game: baccarat
outcomes:
  - name: Banker wins
    when:
      winner: banker
    pays: 1 to 1
  - name: Banker wins with a 7
    when:
      winner: banker
      total: {banker: 7}
    pays: 5 to 1
"""


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("no_such_bet",), "neither a built-in side bet"),
        (("small", "--decks", "0"), "--decks must be an integer from 1 to 1000"),
        (("small", "--decks", "6.5"), "--decks"),
        (("shadowed.yaml", "--decks", "1"), "is never paid"),
        (("broken.yaml",), "broken.yaml:3"),
    ],
)
def test_mistakes_are_one_line_and_exit_2(tmp_path, monkeypatch, args, says):
    (tmp_path / "shadowed.yaml").write_text(SHADOWED, "utf-8")
    (tmp_path / "broken.yaml").write_text(
        "bet: broken\ngame: baccarat\ndecks: 010\noutcomes: []\n", "utf-8"
    )
    monkeypatch.chdir(tmp_path)
    done = run_gamecore_here("sidebet", *args, "--json")
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and says in lines[0], done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.yaml", "shadowed.yaml"]
