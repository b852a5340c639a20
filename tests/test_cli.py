"""The command line: the documented JSON schema, and one clear line for every bad input."""

import json
import math
import subprocess
import sys
from pathlib import Path

import naive_baccarat as naive
import pytest
from helpers import assert_refused, run_gamecore, run_gamecore_here
from published_values import EXACT_6_DECKS, EXACT_8_DECKS, EZ_8_DECKS

from gamecore import games, strictjson


def test_exact_punto_banco_json_schema():
    result = run_gamecore("exact", "punto_banco", "--decks", "8", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["total_combinations"] == 4_998_398_275_503_360
    assert set(data["outcomes"]) == {"banker", "player", "tie"}
    assert data["outcomes"]["banker"]["combinations"] == 2_292_252_566_437_888
    assert data["outcomes"]["tie"]["probability"] == pytest.approx(
        475_627_426_473_216 / 4_998_398_275_503_360
    )
    assert set(data["bets"]) == {"banker", "player", "tie"}
    for bet in data["bets"].values():
        assert {"house_edge", "sd", "hit_frequency"} <= set(bet)
    assert data["bets"]["banker"]["house_edge"] == pytest.approx(0.010579, abs=5e-7)
    assert data["rules"] == {
        "game": "punto_banco",
        "decks": 8,
        "banker_commission": 0.05,
        "tie_pays": 8,
    }


def test_exact_ez_baccarat_json_with_rules():
    result = run_gamecore(
        "exact", "ez_baccarat", "--decks", "6", "--rule", "dragon7_pays=45", "--json"
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data["outcomes"]) == {"banker", "player", "tie", "dragon7", "panda8"}
    assert set(data["bets"]) == {"banker", "player", "tie", "dragon7", "panda8"}
    assert data["outcomes"]["player"]["combinations"] == EXACT_6_DECKS["player"]["value"]
    assert data["rules"]["dragon7_pays"] == 45
    # At 45 to 1 the Dragon 7 returns 46 * p - 1.
    p = data["outcomes"]["dragon7"]["probability"]
    assert data["bets"]["dragon7"]["house_edge"] == pytest.approx(1 - 46 * p, rel=1e-12)


def test_console_script_and_readable_table():
    script = subprocess.run(
        [sys.executable, "-c", "import shutil; print(shutil.which('gamecore') or '')"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    command = [script] if script else [sys.executable, "-m", "gamecore"]
    result = subprocess.run([*command, "exact", "ez_baccarat"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "Dragon 7" in result.stdout
    # The published count, printed for a reader: in full, with thousands separators.
    assert f"{EZ_8_DECKS['dragon7_combinations']['value']:,}" == "112,633,011,329,024"
    assert "112,633,011,329,024" in result.stdout


def test_simulate_json_schema():
    result = run_gamecore(
        "simulate",
        "ez_baccarat",
        "--decks",
        "8",
        "--rounds",
        "200000",
        "--seed",
        "1",
        "--mode",
        "fresh",
        "--json",
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["rounds"] == 200_000
    assert set(data["bets"]) == {"banker", "player", "tie", "dragon7", "panda8"}
    for bet in data["bets"].values():
        assert {"mean", "se"} <= set(bet)
    assert set(data["outcomes"]) == {"banker", "player", "tie", "dragon7", "panda8"}
    assert sum(data["outcomes"][k]["count"] for k in ("banker", "player", "tie")) == 200_000
    # Same seed, same numbers; shoe mode with a penetration.
    again = json.loads(
        run_gamecore(
            "simulate", "ez_baccarat", "--rounds", "200000", "--seed", "1", "--json"
        ).stdout
    )
    assert again["bets"] == data["bets"]
    shoe = json.loads(
        run_gamecore(
            "simulate",
            "punto_banco",
            "--rounds",
            "50000",
            "--mode",
            "shoe",
            "--penetration",
            "26",
            "--json",
        ).stdout
    )
    assert shoe["dealing"] == {"mode": "shoe", "penetration": 26, "burn": "face_value"}
    assert shoe["shuffles"] > 0


def test_exact_c21_baccarat_json_schema():
    result = run_gamecore(
        "exact", "c21_baccarat", "--decks", "8", "--jokers-per-deck", "1", "--json"
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    strategies = data["strategies"]
    assert set(strategies) == {
        "house_way",
        "player_best_response",
        "pd_best_response",
        "equilibrium",
    }
    # The independent oracle's exact House Way EV (tests/naive_c21.py, 8 decks, 8 jokers).
    assert strategies["house_way"]["player_ev"] == pytest.approx(
        -1149375068384 / 87616138805055, rel=1e-12
    )
    cells = {(c["player_total"], c["up_card"]) for c in data["hit_chart"]}
    assert (5, 3) in cells and (6, "joker") in cells
    assert all({"ev_hit", "ev_stand"} <= set(c) for c in data["hit_chart"])
    assert data["rules"]["jokers_per_deck"] == 1


def test_simulate_c21_baccarat_table():
    result = run_gamecore(
        "simulate", "c21_baccarat", "--players", "3", "--rounds", "100000", "--json"
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["players"] == 3
    assert data["bets"]["player"]["hands"] == 300_000
    assert {"seat_1", "seat_2", "seat_3"} <= set(data["bets"])


def test_simulate_c21_blackjack_table_json():
    result = run_gamecore(
        "simulate", "c21_blackjack", "--players", "4", "--strategy", "optimal", "--rounds",
        "20000", "--mode", "shoe", "--stake", "8", "--json", "--no-progress",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = strictjson.loads(result.stdout)
    assert data["players"] == 4 and data["rounds"] == 20_000
    assert data["dealing"] == {"mode": "shoe", "penetration": 78, "burn": "none"}
    assert [seat["Seat"] for seat in data["seats"]] == [1, 2, 3, 4]
    assert len(data["covariances"]) == 6
    assert data["bank"]["stake"] == 8.0
    pd_result = data["pd"]["P/D result per round"]
    assert pd_result == pytest.approx(-sum(seat["Mean"] for seat in data["seats"]), abs=1e-9)


def test_infinite_deck_json():
    data = json.loads(run_gamecore("exact", "punto_banco", "--infinite", "--json").stdout)
    assert data["shoe"] == "infinite"
    assert data["total_combinations"] is None
    assert data["outcomes"]["banker"]["combinations"] is None


@pytest.mark.parametrize(
    "args, named",
    [
        (["exact", "punto_banco", "--decks", "0"], "got 0"),
        (["exact", "punto_banco", "--decks", "1001"], "got 1001"),
        (["exact", "punto_banco", "--decks", "6.5"], "'6.5'"),
        (["exact", "punto_banco", "--decks", "many"], "'many'"),
        (["exact", "punto_banco", "--rule", "dragon7_pays=40"], "'dragon7_pays'"),
        (["exact", "punto_banco", "--rule", "banker_commission=1.5"], "got 1.5"),
        (["exact", "ez_baccarat", "--rule", "tie_pays=-8"], "got -8"),
        (["exact", "ez_baccarat", "--rule", "tie_pays"], "'tie_pays'"),
        (["exact", "blackjack"], "'blackjack'"),
        (["simulate", "punto_banco", "--rounds", "0"], "got 0"),
        (["simulate", "punto_banco", "--rounds", "ten"], "'ten'"),
        (["simulate", "punto_banco", "--seed", "-3"], "got -3"),
        (["simulate", "punto_banco", "--mode", "deal"], "'deal'"),
        (["simulate", "punto_banco", "--mode", "shoe", "--penetration", "416"], "got 416"),
        (["simulate", "ez_baccarat", "--rule", "dragon7_pays=-1"], "got -1"),
        (["report", "punto_banco"], "'report'"),
        (["exact", "c21_baccarat", "--jokers-per-deck", "5"], "got 5"),
        (["exact", "punto_banco", "--jokers-per-deck", "1"], "'jokers_per_deck'"),
        (["simulate", "c21_baccarat", "--players", "9"], "got 9"),
        (["exact", "c21_baccarat", "--infinite"], "--infinite"),
        (["simulate", "c21_blackjack", "--players", "8", "--strategy", "optimal"], "got 8"),
        (
            [
                "simulate",
                "c21_blackjack",
                "--players",
                "2",
                "--strategy",
                "optimal",
                "--stake",
                "0.5",
            ],
            "got 0.5",
        ),
        (
            ["simulate", "c21_blackjack", "--strategy", "optimal", "--bankrolls", "50"],
            "--bankrolls applies to a table run only",
        ),
        (
            [
                "simulate",
                "c21_blackjack",
                "--players",
                "2",
                "--strategy",
                "optimal",
                "--bankrolls",
                "50,x",
            ],
            "'x'",
        ),
        (
            [
                "simulate",
                "c21_blackjack",
                "--players",
                "2",
                "--strategy",
                "optimal",
                "--mode",
                "shoe",
                "--penetration",
                "400",
            ],
            "got 400",
        ),
        (["simulate", "c21_blackjack", "--players", "2"], "--strategy"),
        (["simulate", "c21_baccarat", "--stake", "5"], "--stake"),
    ],
)
def test_bad_input_one_line_no_traceback(args, named):
    result = run_gamecore_here(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert named in lines[0]
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("ez_bacarat", "ez_baccarat"),  # a letter short
        ("EZ_Baccarat", "ez_baccarat"),  # capitals
        ("dragontiger", "dragon_tiger"),
        ("blackjack", "standard_blackjack or c21_blackjack"),  # a word of two names
    ],
)
def test_an_unknown_game_near_a_known_one_says_which(typed, meant):
    line = assert_refused(run_gamecore_here("exact", typed), f"(did you mean {meant}?)")
    assert line.endswith("games: " + ", ".join(games.NAMES))


def test_an_unknown_game_near_none_lists_the_games_only():
    line = assert_refused(run_gamecore_here("simulate", "poker"), "unknown game 'poker'; games:")
    assert "did you mean" not in line


CHARTS = __import__("pathlib").Path(__file__).parents[1] / "gamecore" / "charts"


def test_exact_c21_blackjack_json_schema():
    result = run_gamecore("exact", "c21_blackjack", "--decks", "6", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert {"player_ev", "player_ev_total_dependent", "pd_edge"} <= set(data)
    ups = data["up_cards"].values()
    by_up = sum(u["probability"] * u["player_ev_total_dependent"] for u in ups)
    assert by_up == pytest.approx(data["player_ev_total_dependent"], abs=1e-12)
    assert data["player_ev_total_dependent"] <= data["player_ev"]
    cells = data["strategy_chart"]
    assert {(c["hand"], c["up_card"]) for c in cells} >= {("hard 16", "10"), ("soft 18", "A")}
    for cell in cells:
        assert cell["best"] in {"H", "S", "D", "P", "R"}
        assert cell["up_card"] in {"2", "3", "4", "5", "6", "7", "8", "9", "10", "A"}
        assert cell["hand"].split()[0] in {"hard", "soft", "pair"}
        assert set(cell["ev"]) <= {"H", "S", "D", "P", "R"} and cell["best"] in cell["ev"]


def test_exact_standard_blackjack_with_rules_and_a_chart():
    chart = CHARTS / "standard_6_decks_h17_das.csv"
    result = run_gamecore(
        "exact",
        "standard_blackjack",
        "--decks",
        "6",
        "--rule",
        "dealer_hits_soft_17=true",
        "--strategy",
        str(chart),
        "--results",
        "--json",
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    # Six decks, H17, DAS, split to four hands, 3:2: about -0.615% (Farmer's CA, CDZ-).
    assert data["player_ev"] == pytest.approx(-0.00615, abs=5e-6)
    assert data["strategy_ev"] <= data["player_ev"]
    rows = data["result_distribution"]["rows"]
    assert sum(r["probability"] for r in rows) == pytest.approx(1.0, abs=1e-12)
    mean = sum(r["net_result"] * r["probability"] for r in rows)
    assert mean == pytest.approx(data["strategy_ev"], abs=1e-12)


def test_blackjack_exact_json_imports_no_pandas():
    """``exact`` on a blackjack game, --results and a given chart included, writes its JSON
    without importing pandas (a tenth of the process's time): every table is built only
    when asked for, and the JSON asks for none."""
    chart = CHARTS / "standard_6_decks_h17_das.csv"
    probe = (
        "import contextlib, io, json, sys\n"
        "from gamecore import cli\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        "    code = cli.main(sys.argv[1:])\n"
        "json.loads(out.getvalue())\n"
        "print(code, 'pandas' in sys.modules)\n"
    )
    for game, extra in (
        ("standard_blackjack", ["--strategy", str(chart), "--results"]),
        ("c21_blackjack", []),
    ):
        command = [sys.executable, "-c", probe, "exact", game, "--decks", "1", *extra, "--json"]
        result = subprocess.run(command, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr
        assert result.stdout.split() == ["0", "False"], game


def test_simulate_c21_blackjack_json():
    chart = CHARTS / "c21_6_decks.csv"
    args = ("simulate", "c21_blackjack", "--strategy", str(chart), "--rounds", "200000")
    result = run_gamecore(*args, "--seed", "3", "--json", "--no-progress")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["rounds"] == 200_000 and data["seed"] == 3
    assert {"mean", "se"} <= set(data["bets"]["player"])
    again = run_gamecore(*args, "--seed", "3", "--json", "--no-progress", "--threads", "1")
    assert json.loads(again.stdout)["net_histogram"] == data["net_histogram"]
    optimal = run_gamecore(
        "simulate",
        "c21_blackjack",
        "--decks",
        "2",
        "--strategy",
        "optimal",
        "--rounds",
        "100000",
        "--json",
        "--no-progress",
    )
    assert optimal.returncode == 0, optimal.stderr
    assert json.loads(optimal.stdout)["strategy"] == "optimal"


@pytest.mark.parametrize(
    "args, message",
    [
        (["exact", "c21_blackjack", "--decks", "0"], "decks"),
        (["exact", "c21_blackjack", "--strategy", "missing.csv"], "missing.csv"),
        (["exact", "punto_banco", "--results"], "--results"),
        (["exact", "c21_blackjack", "--rule", "surrender=sometimes"], "sometimes"),
        (["simulate", "c21_blackjack", "--rounds", "10"], "strategy"),
    ],
)
def test_blackjack_bad_inputs_fail_with_one_line(args, message):
    result = run_gamecore(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert message in result.stderr and "Traceback" not in result.stderr


# ---------------------------------------------------------------------------------------
# --shoe: any shoe, ranks A..9 then the ten-valued cards (Farmer's order)
# ---------------------------------------------------------------------------------------


def _json(*args: str) -> dict:
    result = run_gamecore(*args, "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_shoe_of_eight_full_decks_has_the_published_counts():
    data = _json("exact", "punto_banco", "--shoe", "32,32,32,32,32,32,32,32,32,128")
    # casinoexploit.com's exact 8-deck counts (tests/published_values.py).
    assert data["total_combinations"] == EXACT_8_DECKS["total"]["value"]
    assert data["outcomes"]["tie"]["combinations"] == EXACT_8_DECKS["tie"]["value"]
    assert data["outcomes"]["banker"]["combinations"] == EXACT_8_DECKS["banker"]["value"]


def test_shoe_ranks_map_to_baccarat_point_values():
    # Ranks A..9 then ten-valued on the command line; the reference counts by point value
    # (0 = ten-valued): a shoe short of nines and tens tells the two orders apart.
    shoe = [3, 2, 2, 1, 2, 2, 3, 1, 0, 4]  # A, 2, ..., 9, ten-valued
    points = [shoe[9], *shoe[:9]]
    reference = naive.class_breakdown(points)
    banker = sum(w for (pc, bc, pt, bt), w in reference.items() if bt > pt)
    data = _json("exact", "punto_banco", "--shoe", ",".join(map(str, shoe)))
    assert data["outcomes"]["banker"]["combinations"] == banker
    assert data["total_combinations"] == sum(reference.values())


def test_shoe_for_c21_baccarat_counts_every_deal_of_that_shoe():
    data = _json("exact", "c21_baccarat", "--shoe", "4,4,4,4,4,4,4,4,4,16", "--jokers", "1")
    assert data["total_combinations"] == math.perm(53, 6)  # six cards off 53
    assert data["shoe"] == {"A": 4, **{str(r): 4 for r in range(2, 10)}, "10": 16, "joker": 1}


def test_shoe_for_blackjack_is_the_decks_analysis_and_keeps_the_deck_rules():
    # A full single deck as --shoe: Farmer's 1 deck S17 NDAS SPL1 3:2, CDZ-, +0.0243%.
    data = _json(
        "exact",
        "standard_blackjack",
        "--shoe",
        "4,4,4,4,4,4,4,4,4,16",
        "--rule",
        "double_after_split=false",
        "--rule",
        "max_split_hands=2",
    )
    assert round(data["player_ev"] * 100, 4) == 0.0243
    assert data["shoe"]["10"] == 16 and data["shoe"]["A"] == 4
    # c21: --decks still selects the deck-count rules (2 decks: even money, two hands).
    c21 = _json("exact", "c21_blackjack", "--decks", "2", "--shoe", "8,8,8,8,8,8,8,8,8,32")
    assert c21["resolved_rules"]["natural_pays"] == 1.0
    assert c21["resolved_rules"]["max_split_hands"] == 2


@pytest.mark.parametrize(
    "args, named",
    [
        (["exact", "punto_banco", "--shoe", "4,4,4"], "10 card counts"),
        (["exact", "punto_banco", "--shoe", "4,4,4,4,4,4,4,4,4,x"], "rank 10"),
        (["exact", "punto_banco", "--shoe", "4,4,4,4,-4,4,4,4,4,16"], "rank 5"),
        (["exact", "punto_banco", "--shoe", "0,0,0,0,0,0,0,0,0,3"], "--shoe must hold"),
        (["exact", "punto_banco", "--shoe", "4,4,4,4,4,4,4,4,4,16", "--infinite"], "--infinite"),
        (["exact", "punto_banco", "--jokers", "2"], "--jokers"),
        (["exact", "c21_baccarat", "--shoe", "4,4,4,4,4,4,4,4,4,16"], "--jokers"),
        (["exact", "c21_baccarat", "--jokers", "2"], "--shoe"),
        (["exact", "standard_blackjack", "--shoe", "1,0,0,0,0,0,0,0,0,1"], "--shoe must hold"),
        (
            ["exact", "standard_blackjack", "--shoe", "4,4,4,4,4,4,4,4,4,16", "--jokers", "1"],
            "--jokers",
        ),
        # A shoe that could run out of cards before a round ends is refused, not guessed at.
        (["exact", "standard_blackjack", "--shoe", "0,0,0,0,0,0,0,0,0,13"], "run"),
    ],
)
def test_bad_shoe_one_line(args, named):
    result = run_gamecore_here(*args)
    assert result.returncode == 2, result.stdout[:200]
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and named in lines[0], result.stderr


def test_kernels_load_without_scipy_linalg_and_blas_still_works():
    """gamecore keeps numba's BLAS probe from importing all of scipy.linalg at the first
    kernel load (a start-up cost of every command); np.dot in a kernel must still get BLAS,
    and scipy.linalg must import normally afterwards."""
    code = (
        "import sys\n"
        "from gamecore import blackjack\n"
        "blackjack.dealer_final_distribution(blackjack.StandardBlackjackRules(decks=1), 'A')\n"
        "assert 'scipy.linalg' not in sys.modules, 'the probe imported scipy.linalg'\n"
        "import numba, numpy as np\n"
        "dot = numba.njit(lambda a, b: np.dot(a, b))\n"
        "assert dot(np.arange(3.0), np.arange(3.0)) == 5.0\n"
        "import scipy.linalg\n"
        "assert scipy.linalg.det(np.eye(2)) == 1.0\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def _integers(data, key=None):
    """(key, value) of every integer in a JSON document, with the key it is held under
    (a list's items under the list's key)."""
    if isinstance(data, dict):
        return [found for k, v in data.items() for found in _integers(v, k)]
    if isinstance(data, list):
        return [found for v in data for found in _integers(v, key)]
    return [(key, data)] if isinstance(data, int) and not isinstance(data, bool) else []


SEED = str(10**39)  # a 40-digit seed, the most the command line takes


@pytest.mark.parametrize(
    "args",
    [
        ["exact", "punto_banco", "--decks", "1000"],
        ["exact", "ez_baccarat", "--decks", "1000"],
        ["exact", "c21_baccarat", "--decks", "1000"],
        ["exact", "standard_blackjack", "--decks", "1000"],
        ["count", "punto_banco", "--decks", "1000"],
        ["simulate", "punto_banco", "--rounds", "1000", "--seed", SEED],
        ["simulate", "c21_baccarat", "--rounds", "1000", "--players", "3", "--seed", SEED],
        ["simulate", "c21_blackjack", "--strategy", "optimal", "--rounds", "1000", "--seed", SEED],
        ["simulate", "c21_blackjack", "--players", "2", "--strategy", "optimal",
         "--rounds", "1000", "--seed", SEED],
        ["count", "c21_baccarat", "--shoes", "5", "--seed", SEED],
    ],
    ids=lambda args: "-".join(args[:2]),
)  # fmt: skip
def test_integers_beyond_2_53_are_only_under_the_keys_the_docs_list(args):
    """docs/json.md says JSON.parse reads the output but rounds integers beyond 2^53, and
    names the keys that may hold them (strictjson.BEYOND_2_53): every such integer is under
    one of them, exact (Python's json keeps it), and each key is named in docs/json.md."""
    result = run_gamecore(*args, "--json", *(["--no-progress"] if args[0] == "simulate" else []))
    assert result.returncode == 0, result.stderr
    integers = _integers(strictjson.loads(result.stdout))
    beyond = {key for key, value in integers if abs(value) > 2**53}
    assert beyond <= set(strictjson.BEYOND_2_53), beyond
    if "--seed" in args:
        assert ("seed", 10**39) in integers
    if args[1] != "standard_blackjack" and args[0] == "exact":
        # N P 6 six-card sequences of 1000 decks (with 21st Century Baccarat's joker a deck),
        # exact: a double would round it.
        cards = 53_000 if args[1] == "c21_baccarat" else 52_000
        assert ("total_combinations", math.perm(cards, 6)) in integers
        assert float(math.perm(cards, 6)) != math.perm(cards, 6)


def test_the_docs_name_every_key_that_may_exceed_2_53():
    readme = (Path(__file__).parent.parent / "docs" / "json.md").read_text(encoding="utf-8")
    paragraph = readme[readme.index("JSON output is strict") :].split("\n\n")[0]
    assert "2^53" in paragraph
    for key in strictjson.BEYOND_2_53:
        assert f"`{key}`" in paragraph, key
