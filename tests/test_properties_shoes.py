"""Property-based tests (Hypothesis) of shoes given by hand: random shoes and degenerate ones
(zero counts, one class only, the smallest shoe a round can use, counts at and past the
largest allowed, all jokers for 21st Century Baccarat) given to each game's exact API and to
``gamecore exact|count GAME --shoe ...``.

Whatever the shoe, the answer is a defined result (probabilities that sum to 1, integer
counts where the engine counts, strict JSON: never NaN or infinity) or a
:class:`GamecoreError` of one line (exit 2 and one line on the command line); never another
exception. ``make test`` runs a few examples of each (profile ``default`` in ``conftest.py``)
and the pinned ``@example`` shoes; the ``fuzz`` profile runs many more.
"""

from __future__ import annotations

import io
import math
import warnings
from contextlib import redirect_stderr, redirect_stdout
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from gamecore import baccarat, c21_baccarat, cli, strictjson
from gamecore import blackjack as bj
from gamecore.blackjack.shoe import MAX_CARDS_PER_RANK
from gamecore.errors import GamecoreError
from gamecore.shoe import MAX_CARDS_PER_CLASS

# ---------------------------------------------------------------------------------------
# Shoes
# ---------------------------------------------------------------------------------------


@st.composite
def shoes(draw, classes: int, largest: int, small: int = 12) -> list[int]:
    """A shoe of ``classes`` card counts, ``largest`` the most one class may hold: random
    counts, or a degenerate shoe (one class only; a few classes of a card or two, near the
    smallest shoe a round can use; counts at and past ``largest``; a class negative)."""
    # Random shoes twice as often as each degenerate kind: most degenerate shoes are refused.
    kind = draw(st.sampled_from(["random", "random", "one class", "sparse", "huge", "negative"]))
    shoe = [0] * classes
    if kind == "random":
        shoe = draw(st.lists(st.integers(0, small), min_size=classes, max_size=classes))
    elif kind == "one class":
        count = draw(st.one_of(st.integers(0, 3 * small), st.sampled_from([largest, largest + 1])))
        shoe[draw(st.integers(0, classes - 1))] = count
    elif kind == "sparse":
        shoe = draw(st.lists(st.sampled_from([0, 0, 1, 2]), min_size=classes, max_size=classes))
    elif kind == "huge":
        shoe = draw(
            st.lists(
                st.sampled_from([0, 1, small, largest - 1, largest, largest + 1, 10**30]),
                min_size=classes,
                max_size=classes,
            )
        )
    else:
        shoe = draw(st.lists(st.integers(0, small), min_size=classes, max_size=classes))
        shoe[draw(st.integers(0, classes - 1))] = draw(st.integers(-(2**40), -1))
    return shoe


def as_given(draw_form, shoe: list[int]):
    """The shoe as a list, a tuple or an int64 array (where its counts fit one)."""
    if draw_form == "tuple":
        return tuple(shoe)
    if draw_form == "array" and all(abs(c) < 2**62 for c in shoe):
        return np.array(shoe, dtype=np.int64)
    return shoe


FORMS = st.sampled_from(["list", "tuple", "array"])

BACCARAT_SHOES = shoes(10, MAX_CARDS_PER_CLASS)
C21_SHOES = shoes(11, MAX_CARDS_PER_CLASS)
# Blackjack's analysis takes about a second a shoe: fewer cards, and one huge rank at most.
BLACKJACK_SHOES = shoes(10, MAX_CARDS_PER_RANK, small=16).filter(
    lambda s: sum(c > 1000 for c in s) <= 1
)


def assert_one_line(error: GamecoreError) -> None:
    message = str(error)
    assert message and "\n" not in message and "Traceback" not in message, message


# ---------------------------------------------------------------------------------------
# The exact APIs
# ---------------------------------------------------------------------------------------


@given(BACCARAT_SHOES, FORMS)
@example([0] * 9 + [10], "list")  # nines only: every round a tie
@example([6] + [0] * 9, "list")  # the smallest shoe, ten-valued cards only
@example([MAX_CARDS_PER_CLASS] * 10, "array")
def test_baccarat_exact_on_any_shoe_is_a_distribution_or_one_refusal(shoe, form):
    for kind in (baccarat.PuntoBancoRules, baccarat.EZBaccaratRules):
        try:
            analysis = baccarat.exact(kind(), composition=as_given(form, shoe))
        except GamecoreError as error:
            assert_one_line(error)
            assert min(shoe) < 0 or max(shoe) > MAX_CARDS_PER_CLASS or sum(shoe) < 6
            event("refused")
            continue
        event("analysed")
        counts = analysis.outcome_counts()
        assert all(type(n) is int for n in counts.values())
        assert counts["banker"] + counts["player"] + counts["tie"] == counts["total"]
        assert counts["total"] == math.perm(sum(shoe), 6)
        for name, wager in analysis.wagers().items():
            assert sum(wager.probabilities) == 1  # exact fractions
            assert sum(wager.combinations) == counts["total"]
            ties_out = analysis.house_edge_ties_excluded(wager)
            if name in ("banker", "player"):
                # Undefined exactly when no round decides the bet.
                assert (ties_out is None) == (counts["tie"] == counts["total"])
        strictjson.loads(strictjson.dumps(analysis.to_dict()))
        analysis.summary()


@given(C21_SHOES, FORMS)
@example([0] * 10 + [6], "list")  # jokers only: Natural against Natural
@example([0] * 10 + [MAX_CARDS_PER_CLASS], "list")
@example([4000] + [1000] * 9 + [1_000_000], "array")  # almost all jokers
@example([6] + [0] * 10, "tuple")  # ten-valued cards only: the P/D wins every tie on zero
def test_c21_exact_on_any_shoe_is_a_distribution_or_one_refusal(shoe, form):
    rules = c21_baccarat.C21BaccaratRules()
    try:
        analysis = c21_baccarat.count_deals(rules, as_given(form, shoe))
    except GamecoreError as error:
        assert_one_line(error)
        assert min(shoe) < 0 or max(shoe) > MAX_CARDS_PER_CLASS or sum(shoe) < 6
        event("refused")
        return
    event("analysed")
    # Every deal is counted once: concluded before any choice, or reaching the draw
    # (counted there under "player stands, P/D stands"), as integers.
    reached = analysis.drawn[:, :, 0, :, 0, :].sum()
    assert type(reached) is int and analysis.concluded.sum() + reached == analysis.total
    house = analysis.evaluate(
        c21_baccarat.house_way_player(rules), c21_baccarat.house_way_dealer(rules)
    )
    assert sum(house.outcome_probabilities.values()) == 1  # exact fractions
    assert all(isinstance(p, Fraction) for p in house.outcome_probabilities.values())
    try:
        data = strictjson.loads(strictjson.dumps(analysis.to_dict()))  # equilibrium included
    except GamecoreError as error:  # the option game's programs could not agree
        assert_one_line(error)
        return
    for figures in data["strategies"].values():
        total = figures["player_wins"] + figures["push"] + figures["pd_wins"]
        assert total == pytest.approx(1, abs=1e-12)
        assert -1 <= figures["player_ev"] <= 1 and figures["sd"] >= 0


@given(BLACKJACK_SHOES, st.sampled_from([bj.StandardBlackjackRules, bj.C21BlackjackRules]))
@example([0] * 9 + [40], bj.StandardBlackjackRules)  # ten-valued cards only
@example([0] * 9 + [12], bj.C21BlackjackRules)  # too few of them: a round could run dry
@example([1] + [0] * 8 + [MAX_CARDS_PER_RANK], bj.C21BlackjackRules)
def test_blackjack_exact_on_any_shoe_is_a_distribution_or_one_refusal(shoe, kind):
    try:
        analysis = bj.exact(kind(), composition=shoe, search_chart=False)
    except GamecoreError as error:
        assert_one_line(error)
        event("refused")
        return
    event("analysed")
    assert analysis.up_probability.sum() == pytest.approx(1, abs=1e-12)
    held = np.array(shoe) > 0
    assert (analysis.up_probability[~held] == 0).all()
    assert np.isfinite(analysis.ev_by_up[held]).all()
    assert (analysis.insurance_ev is None) == (shoe[0] == 0)
    assert -8 <= analysis.player_ev <= 8  # four hands doubled, at most
    assert analysis.player_ev >= analysis.chart_ev - 1e-12
    strictjson.loads(strictjson.dumps(analysis.to_dict()))


# ---------------------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------------------


def run_cli(argv: list[str]) -> tuple[int, str, str, list]:
    """Run the command line in this process: its exit status, standard output and error,
    and the warnings it raised."""
    out, err = io.StringIO(), io.StringIO()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with redirect_stdout(out), redirect_stderr(err):
            try:
                code = cli.main(argv)
            except SystemExit as exit_:  # argparse's usage errors
                code = exit_.code
    return code, out.getvalue(), err.getvalue(), caught


def as_option(shoe: list[int]) -> str:
    """A shoe by point class (0: the ten-valued cards) as --shoe gives it: A..9, then 10."""
    return ",".join(str(c) for c in [*shoe[1:10], shoe[0]])


def assert_exit_0_or_one_line(code: int, out: str, err: str) -> dict | None:
    """Exit 0 with strict JSON (returned), or exit 2 with one line naming no entry of the
    shoe by its position (``--shoe[1]``): by rank, or the flag it came from."""
    assert code in (0, 2), (code, err)
    event(f"exit {code}")
    if code == 2:
        assert out == "" and err.count("\n") == 1 and err.startswith("gamecore: error:"), err
        assert "--shoe[" not in err and "composition" not in err, err
        return None
    return strictjson.loads(out)  # NaN and infinities refused


@given(BACCARAT_SHOES, st.sampled_from(["punto_banco", "ez_baccarat"]))
@example([0] * 4 + [10] + [0] * 5, "punto_banco")  # fours only: naturals that tie
@example([2**31] + [0] * 9, "ez_baccarat")  # one ten-valued card past the limit
def test_exact_baccarat_on_the_command_line_any_shoe(shoe, game):
    code, out, err, caught = run_cli(["exact", game, "--shoe", as_option(shoe), "--json"])
    data = assert_exit_0_or_one_line(code, out, err)
    assert not caught, [str(w.message) for w in caught]
    if data is None:
        return
    outcomes = data["outcomes"]
    combinations = [outcomes[name]["combinations"] for name in ("banker", "player", "tie")]
    assert all(type(n) is int for n in combinations)
    assert sum(combinations) == data["total_combinations"] == math.perm(sum(shoe), 6)
    for bet in data["bets"].values():
        assert sum(line["combinations"] for line in bet["paytable"]) == sum(combinations)
        assert sum(line["probability"] for line in bet["paytable"]) == pytest.approx(1)
    undefined = data["bets"]["banker"]["house_edge_ties_excluded"] is None
    assert undefined == ("house_edge_ties_excluded_note" in data)


#: Shoes holding every point value, that counting takes (a count removes each in turn).
FULL_BACCARAT_SHOES = st.lists(st.integers(1, 40), min_size=10, max_size=10)


@given(st.one_of(BACCARAT_SHOES, FULL_BACCARAT_SHOES))
@example([1] * 10)  # the smallest shoe that holds every point value
@example([0] + [4] * 9)  # no ten-valued card to remove
def test_count_baccarat_on_the_command_line_any_shoe(shoe):
    code, out, err, caught = run_cli(["count", "punto_banco", "--shoe", as_option(shoe), "--json"])
    data = assert_exit_0_or_one_line(code, out, err)
    assert not caught, [str(w.message) for w in caught]
    if data is None:
        return
    assert min(shoe) > 0  # every point value was there to be removed
    for effects in data["effects_of_removal"].values():
        assert all(math.isfinite(e) for e in effects.values())


@given(C21_SHOES)
@example([0] * 10 + [6])
@example([1] * 10 + [2**31])  # jokers past the limit: --jokers is named
def test_exact_c21_on_the_command_line_any_shoe(shoe):
    argv = ["exact", "c21_baccarat", "--shoe", as_option(shoe), "--jokers", str(shoe[10])]
    code, out, err, caught = run_cli([*argv, "--json"])
    data = assert_exit_0_or_one_line(code, out, err)
    assert not caught, [str(w.message) for w in caught]
    if data is None:
        if shoe[10] > MAX_CARDS_PER_CLASS and all(0 <= c <= MAX_CARDS_PER_CLASS for c in shoe[:10]):
            assert err.startswith("gamecore: error: --jokers must be at most"), err
        return
    assert data["total_combinations"] == math.perm(sum(shoe), 6)
    assert data["shoe"]["joker"] == shoe[10] and data["shoe"]["10"] == shoe[0]
    for figures in data["strategies"].values():
        total = figures["player_wins"] + figures["push"] + figures["pd_wins"]
        assert total == pytest.approx(1, abs=1e-12)


# Each example runs the whole analysis and the result distribution (one to five seconds):
# the fuzz profile gives this one 60 examples, its API twin above 400.
@settings(max_examples=min(settings.default.max_examples, 60))
@given(BLACKJACK_SHOES, st.sampled_from(["standard_blackjack", "c21_blackjack"]))
@example([0] * 7 + [40, 0, 0], "c21_blackjack")  # eights only
@example([0] * 9 + [MAX_CARDS_PER_RANK + 1], "standard_blackjack")
def test_exact_blackjack_on_the_command_line_any_shoe(shoe, game):
    # Blackjack shoes are given in rank order, A first: as the command line takes them.
    code, out, err, _ = run_cli(["exact", game, "--shoe", ",".join(map(str, shoe)), "--json"])
    # Warnings are not asserted here: the result distribution (player_sd) warns on some
    # degenerate shoes, open in that module (test_degenerate_input, section 7).
    data = assert_exit_0_or_one_line(code, out, err)
    if data is None:
        return
    assert list(data["shoe"].values()) == shoe
    probabilities = [u["probability"] for u in data["up_cards"].values()]
    assert sum(probabilities) == pytest.approx(1, abs=1e-12)
    assert (data["insurance_ev"] is None) == (shoe[0] == 0)
