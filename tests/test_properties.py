"""Property-based tests (Hypothesis): invariants over random rule sets, random small shoes
against the pure-Python references, and hostile charts and command lines.

``make test`` runs a few examples of each (profile ``default`` in ``conftest.py``);
``make fuzz`` runs many more. A failing example is printed by Hypothesis and kept in
``.hypothesis/``, so it is replayed first next time.
"""

from __future__ import annotations

import dataclasses
import io
import json
import math
from contextlib import redirect_stderr, redirect_stdout
from fractions import Fraction

import naive_baccarat as nb
import naive_blackjack as nbj
import naive_c21 as nc
import numpy as np
import pytest
from helpers import compare_with_oracle, naive_rules, simple_chart
from hypothesis import assume, example, given
from hypothesis import strategies as st

from gamecore import baccarat, c21_baccarat, cli, strictjson
from gamecore import blackjack as bj
from gamecore.errors import GamecoreError
from gamecore.rules import MAX_AMOUNT, MAX_PAYOUT

# ---------------------------------------------------------------------------------------
# Rule sets drawn from each parameter's documented domain
# ---------------------------------------------------------------------------------------

payouts = st.one_of(
    st.integers(0, 1000), st.floats(0, MAX_PAYOUT, allow_nan=False), st.just(MAX_PAYOUT)
)
small_decks = st.integers(1, 8)


@st.composite
def punto_banco_rules(draw):
    return baccarat.PuntoBancoRules(
        decks=draw(small_decks),
        banker_commission=draw(st.floats(0, 0.999, allow_nan=False)),
        tie_pays=draw(payouts),
    )


@st.composite
def ez_rules(draw):
    return baccarat.EZBaccaratRules(
        decks=draw(small_decks),
        tie_pays=draw(payouts),
        dragon7_pays=draw(payouts),
        panda8_pays=draw(payouts),
    )


@st.composite
def c21_baccarat_rules(draw):
    must_draw_max = draw(st.integers(0, 7))
    must_stand_min = draw(st.integers(must_draw_max + 1, 9))
    return c21_baccarat.C21BaccaratRules(
        decks=draw(st.integers(1, 8)),
        jokers_per_deck=draw(st.integers(0, 4)),
        must_draw_max=must_draw_max,
        must_stand_min=must_stand_min,
        house_way_draw_max=draw(st.integers(must_draw_max, must_stand_min - 1)),
        pd_wins_ties_on_zero=draw(st.booleans()),
        collection=draw(st.floats(0, 1000, allow_nan=False)),
    )


@st.composite
def blackjack_rules(draw):
    kind = draw(st.sampled_from([bj.StandardBlackjackRules, bj.C21BlackjackRules]))
    return kind(
        decks=draw(st.sampled_from([1, 2, 6, 8])),
        dealer_hits_soft_17=draw(st.booleans()),
        natural_pays=draw(st.sampled_from([1, 1.2, 1.5, 2])),
        bust_push=draw(st.sampled_from(bj.BUST_PUSH_KINDS)),
        double_on=draw(st.sampled_from(bj.DOUBLE_KINDS)),
        double_after_split=draw(st.booleans()),
        max_split_hands=draw(st.integers(1, 4)),
        resplit_aces=draw(st.booleans()),
        surrender=draw(st.sampled_from(bj.SURRENDER_KINDS)),
        peek=draw(st.booleans()),
        insurance_pays=draw(st.sampled_from([2, 1.5])),
        player_forced=draw(st.sampled_from(bj.FORCED_KINDS)),
    )


def _check_wager_invariants(analysis) -> None:
    for result in analysis.wagers().values():
        assert sum(result.probabilities) == 1  # exact fractions
        worst = min(line.pays for line in result.wager.lines)
        best = max(line.pays for line in result.wager.lines)
        assert worst <= result.expected_value <= best
        assert result.house_edge == -result.expected_value
        assert result.variance >= 0 and math.isfinite(result.sd) and result.sd >= 0
        assert 0 <= result.hit_frequency <= 1


@given(st.one_of(punto_banco_rules(), ez_rules()))
def test_baccarat_rule_sets_give_exact_distributions_and_bounded_evs(rules):
    analysis = baccarat.exact(rules)
    data = strictjson.loads(strictjson.dumps(analysis.to_dict()))
    # Banker, Player and Tie partition the rounds (EZ's Dragon 7 and Panda 8 overlap them).
    main = [data["outcomes"][name]["combinations"] for name in ("banker", "player", "tie")]
    assert sum(main) == data["total_combinations"]
    _check_wager_invariants(analysis)


@given(c21_baccarat_rules())
def test_c21_rule_sets_give_probabilities_summing_to_one(rules):
    analysis = c21_baccarat.count_deals(rules)
    house = analysis.evaluate(
        c21_baccarat.house_way_player(rules), c21_baccarat.house_way_dealer(rules)
    )
    assert sum(house.outcome_probabilities.values()) == 1
    assert -1 <= house.player_ev <= 1 and house.sd >= 0
    best = analysis.evaluate(
        analysis.best_response_player(c21_baccarat.house_way_dealer(rules)),
        c21_baccarat.house_way_dealer(rules),
    )
    assert best.player_ev >= house.player_ev  # a best response is never worse than House Way


@given(blackjack_rules())
def test_blackjack_rule_sets_optimum_beats_every_chart(rules):
    analysis = bj.exact(rules)
    worst = -2.0 * max(1, rules.resolved().max_split_hands)
    best = max(rules.resolved().natural_pays, 2.0 * max(1, rules.resolved().max_split_hands))
    assert worst <= analysis.player_ev <= best
    # The composition-dependent optimum is at least as good as any total-dependent chart.
    assert analysis.player_ev >= analysis.chart_ev - 1e-12
    assert analysis.chart_ev >= analysis.derived_chart_ev - 1e-12
    strictjson.loads(strictjson.dumps(analysis.to_dict()))


# ---------------------------------------------------------------------------------------
# Invalid values: a GamecoreError naming the parameter
# ---------------------------------------------------------------------------------------

hostile_values = st.one_of(
    st.none(),
    st.text(max_size=5),
    st.floats(allow_nan=True, allow_infinity=True).filter(
        lambda x: not math.isfinite(x) or x < 0 or x > MAX_AMOUNT
    ),
    st.integers().filter(lambda x: x < 0 or x > MAX_AMOUNT),
    st.lists(st.integers(), max_size=2),
    st.booleans(),
)

RULE_CLASSES = [
    baccarat.PuntoBancoRules,
    baccarat.EZBaccaratRules,
    c21_baccarat.C21BaccaratRules,
    bj.StandardBlackjackRules,
    bj.C21BlackjackRules,
]


@given(st.sampled_from(RULE_CLASSES), st.data(), hostile_values)
def test_invalid_rule_values_are_refused_naming_the_parameter(kind, data, value):
    field = data.draw(st.sampled_from([f.name for f in dataclasses.fields(kind)]))
    default = next(f.default for f in dataclasses.fields(kind) if f.name == field)
    # Values that are in the domain of a few parameters are not hostile there.
    assume(not (isinstance(value, bool) and isinstance(default, bool)))
    assume(not (value is None and default is None))
    choices = ("bust_push", "double_on", "surrender", "player_forced")
    assume(not isinstance(value, str) or field not in choices)
    with pytest.raises(GamecoreError, match=field):
        kind(**{field: value})


@given(st.sampled_from(RULE_CLASSES), st.data(), st.text(max_size=12))
def test_rule_values_from_text_are_parsed_or_refused_naming_the_parameter(kind, data, text):
    field = data.draw(st.sampled_from([f.name for f in dataclasses.fields(kind)]))
    try:
        kind.from_strings({field: text})
    except GamecoreError as error:
        assert field in str(error)


# ---------------------------------------------------------------------------------------
# Random small shoes against the pure-Python references
# ---------------------------------------------------------------------------------------


@given(st.lists(st.integers(0, 4), min_size=10, max_size=10).filter(lambda c: sum(c) >= 6))
def test_baccarat_counts_equal_the_reference_on_random_small_shoes(composition):
    counts = baccarat.count_rounds(composition)
    reference = nb.class_breakdown(composition)
    for (player_cards, banker_cards, player, banker), ways in reference.items():
        assert int(counts[player_cards - 2, banker_cards - 2, player, banker]) == ways
    assert int(counts.sum()) == sum(reference.values()) == math.perm(sum(composition), 6)


@given(
    st.lists(st.integers(0, 2**31 - 1), min_size=10, max_size=10).filter(
        lambda c: sum(c) >= 6 and sum(1 for x in c if x) >= 3
    )
)
def test_baccarat_counts_equal_the_reference_on_huge_shoes(composition):
    counts = baccarat.count_rounds(composition)
    reference = nb.class_breakdown(composition)
    for (player_cards, banker_cards, player, banker), ways in reference.items():
        assert int(counts[player_cards - 2, banker_cards - 2, player, banker]) == ways


@given(st.lists(st.integers(0, 2), min_size=11, max_size=11).filter(lambda c: 6 <= sum(c) <= 9))
def test_c21_counts_equal_the_reference_on_random_small_shoes(composition):
    oracle = nc.ev_by_class(composition, nc.house_way_player, nc.house_way_dealer)
    compare_with_oracle(composition, nc.house_way_player, nc.house_way_dealer, oracle)


@st.composite
def blackjack_shoes(draw):
    """Small shoes of 12 to 14 cards no round can run dry: a few low cards (an Ace for soft
    hands, 2..4 to hit and double on), some 8s and 9s, and tens to split and stand on."""
    low = [draw(st.integers(0, 1)) for _ in range(4)]
    eights, nines = draw(st.integers(0, 2)), draw(st.integers(0, 2))
    others = sum(low) + eights + nines
    tens = draw(st.integers(max(5, 12 - others), max(5, 12 - others) + 2))
    return (*low, 0, 0, 0, eights, nines, tens)


@given(blackjack_shoes(), st.booleans())
# make fuzz found it: a three-card hand against an up card that is a dealer Natural for
# certain (every card left for its hole card makes one) divided 0 by 0
@example(shoe=(1, 1, 0, 0, 0, 0, 0, 1, 1, 8), h17=False)
def test_blackjack_chart_ev_equals_the_reference_on_random_small_shoes(shoe, h17):
    rules = bj.StandardBlackjackRules(max_split_hands=2, dealer_hits_soft_17=h17)
    bj.check_round_fits(shoe, rules)  # by construction; refused shoes are tested elsewhere
    chart = simple_chart()
    analysis = bj.exact(rules, chart, composition=list(shoe), search_chart=False)
    reference = nbj.chart_ev(shoe, naive_rules(rules), chart.cells)
    assert analysis.strategy_ev == pytest.approx(reference, abs=1e-12)


# ---------------------------------------------------------------------------------------
# Hostile charts and command lines: exit 0 or 2, never a traceback, strict JSON
# ---------------------------------------------------------------------------------------


def _valid_chart_text() -> str:
    return simple_chart().to_csv()


@given(st.data())
def test_random_chart_files_are_read_or_refused_cleanly(tmp_path_factory, data):
    text = _valid_chart_text()
    lines = text.splitlines()
    mutation = data.draw(
        st.sampled_from(["none", "drop", "duplicate", "cell", "bytes", "bom", "truncate"])
    )
    if mutation == "drop":
        del lines[data.draw(st.integers(0, len(lines) - 1))]
    elif mutation == "duplicate":
        lines.append(lines[data.draw(st.integers(1, len(lines) - 1))])
    elif mutation == "cell":
        row = data.draw(st.integers(1, len(lines) - 1))
        fields = lines[row].split(",")
        fields[data.draw(st.integers(0, len(fields) - 1))] = data.draw(st.text(max_size=6))
        lines[row] = ",".join(fields)
    raw = "\n".join(lines).encode("utf-8")
    if mutation == "bytes":
        raw = data.draw(st.binary(max_size=200)) + raw
    elif mutation == "bom":
        raw = b"\xef\xbb\xbf" + raw
    elif mutation == "truncate":
        raw = raw[: data.draw(st.integers(0, len(raw)))]
    path = tmp_path_factory.mktemp("charts") / "chart.csv"
    path.write_bytes(raw)
    try:
        chart = bj.read_strategy_chart(path)
    except GamecoreError:
        assert mutation != "none" and mutation != "bom"
        return
    assert isinstance(chart, bj.StrategyChart)
    if mutation in ("none", "bom"):
        assert chart.cells == simple_chart().cells


def _run_cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = cli.main(argv)
        except SystemExit as exit_:  # argparse's usage errors and --help
            code = exit_.code if isinstance(exit_.code, int) else 2
    return code, out.getvalue(), err.getvalue()


GAMES = ["punto_banco", "ez_baccarat", "c21_baccarat", "c21_blackjack", "nonsense"]
OPTIONS = {
    "--decks": ["1", "6", "0", "-3", "1001", "6.0", "x", ""],
    "--rule": [
        "tie_pays=9",
        "tie_pays=1e200",
        "tie_pays=nan",
        "decks=2",
        "banker_commission=1",
        "natural_pays=1.5",
        "natural_pays=auto",
        "jokers_per_deck=2",
        "nope=1",
        "=",
        "tie_pays",
    ],
    "--rounds": ["1000", "0", "-1", "1e3", "100000000000000000000", "x"],
    "--seed": ["1", "-1", "x"],
    "--mode": ["fresh", "shoe", "bogus"],
    "--penetration": ["14", "2", "100000", "x"],
    "--burn": ["none", "face_value", "bogus"],
    "--players": ["1", "7", "0", "99"],
    "--threads": ["1", "0", "x"],
    "--dask": ["", "bogus://x", "tcp://nohost"],
    "--jokers-per-deck": ["1", "9"],
    "--strategy": ["/no/such/file.csv", "optimal"],
}
FLAGS = ["--json", "--infinite", "--results", "--no-progress"]


@st.composite
def command_lines(draw):
    command = draw(st.sampled_from(["exact", "simulate", "rules"]))
    game = draw(st.sampled_from(GAMES))
    argv = [command, game]
    for _ in range(draw(st.integers(0, 4))):
        if draw(st.booleans()):
            argv.append(draw(st.sampled_from(FLAGS)))
        else:
            option = draw(st.sampled_from(sorted(OPTIONS)))
            argv += [option, draw(st.sampled_from(OPTIONS[option]))]
    # Keep each run short: blackjack's exact analysis and long simulations are tested
    # elsewhere; here the point is the input handling.
    if game == "c21_blackjack" and command == "exact":
        assume("--decks" in argv or "--rule" in argv)
    if command == "simulate" and "--rounds" not in argv:
        argv += ["--rounds", "2000"]
    return argv


@given(command_lines())
def test_random_command_lines_exit_0_or_2_with_strict_json(argv):
    code, out, err = _run_cli([*argv, "--no-progress"] if argv[0] == "simulate" else argv)
    assert code in (0, 2), (argv, code, err)
    if code == 2:
        assert err.count("\n") == 1 and err.startswith("gamecore: error:"), err
        assert "Traceback" not in err
    elif "--json" in argv:
        strictjson.loads(out)


def test_strict_loads_refuses_nan():
    with pytest.raises(ValueError):
        strictjson.loads('{"x": NaN}')
    assert strictjson.loads(json.dumps({"x": 1})) == {"x": 1}
    assert strictjson.loads(strictjson.dumps({"x": float("inf"), "p": Fraction(1, 3)})) == {
        "x": None,
        "p": "1/3",
    }


@given(
    st.lists(st.integers(0, 4), min_size=10, max_size=10).filter(lambda c: 8 <= sum(c) <= 14),
    st.lists(st.lists(st.integers(0, 2), min_size=10, max_size=10), min_size=1, max_size=12),
    st.booleans(),
)
def test_dealer_rows_along_lines_equal_the_reference_on_random_shoes(shoe, removed, h17):
    """Every row's dealer distribution (computed a line of rows at a time, rows sharing all
    counts but one rank's) is the plain recursion's over the shoe left, for every up card;
    zero where the cards are not there."""
    from gamecore.blackjack.dealer import dealer_rows
    from gamecore.blackjack.dealer_hands import dealer_table

    removed = [[min(r, s) for r, s in zip(row, shoe, strict=True)] for row in removed]
    out = dealer_rows(np.array(shoe), np.array(removed), dealer_table(h17))
    labels = {k: i for i, k in enumerate([17, 18, 19, 20, 21, 22, 23, 24, 25, 26, "natural"])}
    for row, taken in enumerate(removed):
        left = [s - t for s, t in zip(shoe, taken, strict=True)]
        for up in range(10):
            if left[up] == 0 or sum(left) < 2:
                assert not out[row, up].any()
                continue
            after = list(left)
            after[up] -= 1
            expected = np.zeros(11)
            for key, p in nbj.dealer_distribution(tuple(after), up + 1, h17).items():
                expected[labels[key]] = p
            # Both leave out a hand the shoe cannot complete (its chance is lost, not moved).
            np.testing.assert_allclose(out[row, up], expected, atol=1e-13)


@given(
    st.lists(st.integers(2, 8), min_size=10, max_size=10),
    st.lists(st.lists(st.integers(0, 3), min_size=10, max_size=10), min_size=20, max_size=120),
    st.booleans(),
    st.integers(0, 9),
)
def test_a_dealer_row_does_not_depend_on_the_rows_worked_beside_it(shoe, removed, h17, up):
    """Many rows at once (lines of one rank sharing a pass of the trie, 16 to a pass, the
    lines in shares over threads) give each row the distribution it has asked for alone,
    against every up card and against one only (``only_up``), on one thread or several;
    the reference test above checks the distributions themselves on smaller shoes."""
    from gamecore.blackjack.dealer import dealer_rows
    from gamecore.blackjack.dealer_hands import dealer_table

    shoe = np.array(shoe)
    shoe[9] *= 4  # the ten-valued cards: four ranks of them
    removed = np.minimum(np.array(removed), shoe)
    table = dealer_table(h17)
    together = dealer_rows(shoe, removed, table)
    one_up = dealer_rows(shoe, removed, table, only_up=up, threads=1)
    for row, taken in enumerate(removed):
        alone = dealer_rows(shoe, taken[None, :], table)[0]
        np.testing.assert_allclose(together[row], alone, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(one_up[row], alone[up], rtol=1e-12, atol=1e-15)


def test_dealer_rows_take_card_counts_past_16_bits():
    """Counts beyond 16 bits (a shoe no table deals, but the function takes any) are taken
    as they are: each row equals the distribution of the shoe with its cards removed."""
    from gamecore.blackjack.dealer import dealer_rows
    from gamecore.blackjack.dealer_hands import dealer_table

    shoe = np.array([4] * 9 + [40_000])
    removed = np.array([[1] + [0] * 8 + [33_000], [0] * 9 + [5]])
    table = dealer_table(True)
    out = dealer_rows(shoe, removed, table)
    for row, taken in enumerate(removed):
        alone = dealer_rows(shoe - taken, np.zeros((1, 10), dtype=np.int64), table)[0]
        np.testing.assert_allclose(out[row], alone, rtol=1e-12, atol=1e-15)
