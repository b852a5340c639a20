"""The full table and the P/D's seat (gamecore.banking, gamecore.blackjack.table).

The bank's tallies are checked against direct computations written here (numpy's
covariance, plain Python loops for coverage, shifts and rotation), the delta-method SEs
against the spread they estimate, and the simulated table against the heads-up exact
figures that each seat's result must have with a shuffle every round.
"""

import dataclasses
import math

import numpy as np
import pytest
from helpers import run_gamecore

from gamecore import banking, banktally, blackjack, c21_baccarat, economics, strictjson, twins
from gamecore.banking import Bank
from gamecore.blackjack import results, table
from gamecore.dealing import Dealing
from gamecore.errors import GamecoreError
from gamecore.parallel import Run


def test_cover_takes_the_losers_then_pays_seat_by_seat():
    # Losers give 1 + 0.5; with 1 on the table there is 2.5 to pay: seat 2 gets its 2,
    # seat 3 the 0.5 left of its 1.5, seat 5 nothing of its 1.2.
    x = np.array([-1.0, 2.0, 1.5, -0.5, 1.2])
    short = np.zeros(5)
    pd_result = banktally.cover(x, 1.0, short)
    assert pd_result == pytest.approx(-1.0)  # the P/D loses exactly its stake
    np.testing.assert_allclose(short, [0, 0, 1.0, 0, 1.2])
    assert banktally.cover(x, math.inf, short) == pytest.approx(-x.sum())
    assert not short.any()


def _slow_bank(x, bank):
    """The tallies' meaning, computed round by round in plain Python."""
    rounds, players = x.shape
    short_rounds, seat_short, total_short, covered = 0, [0.0] * players, [], []
    for row in x:
        left = bank.stake + sum(-v for v in row if v < 0)
        paid, unpaid = 0.0, []
        for v in row:
            pay = min(v, left) if v > 0 else 0.0
            left -= pay
            paid += pay
            unpaid.append(v - pay if v > 0 else 0.0)
        seat_short = [a + b for a, b in zip(seat_short, unpaid, strict=True)]
        total_short.append(sum(unpaid))
        short_rounds += sum(unpaid) > 0
        covered.append(sum(-v for v in row if v < 0) - paid)
    ruined, shift_results = 0, []
    for s in range(rounds // bank.shift_rounds):
        money = bank.bankrolls[0]
        for row in x[s * bank.shift_rounds : (s + 1) * bank.shift_rounds]:
            stake = min(bank.stake, money)
            left = stake + sum(-v for v in row if v < 0)
            paid = 0.0
            for v in row:
                if v > 0:
                    pay = min(v, left)
                    left -= pay
                    paid += pay
            money += sum(-v for v in row if v < 0) - paid
            if money < 1:
                ruined += 1
                break
        shift_results.append(money - bank.bankrolls[0])
    people = players + 1
    rotation = np.zeros((people, rounds))
    for r, row in enumerate(x):
        banker = (r // bank.turn_rounds) % people
        others = iter(row)
        for person in range(people):
            rotation[person, r] = -row.sum() if person == banker else next(others)
    return {
        "short_rounds": short_rounds,
        "seat_short": seat_short,
        "total_short": total_short,
        "covered": covered,
        "ruined": ruined,
        "shift_results": shift_results,
        "rotation": rotation,
    }


def test_bank_tallies_against_direct_computation():
    rng = np.random.default_rng(5)
    levels = np.array([-2, -1, -0.5, 0, 1, 1.2, 2, 4])
    x = rng.choice(levels, p=[0.05, 0.4, 0.03, 0.1, 0.3, 0.05, 0.05, 0.02], size=(3_000, 4))
    bank = Bank(stake=3.0, bankrolls=(12.0, 40.0), shift_rounds=70, turn_rounds=3)
    figures = banking.BankFigures(4, bank, banking.tally_rounds(x, bank))
    slow = _slow_bank(x, bank)
    seats = figures.seat_table()
    np.testing.assert_allclose(seats["Mean"], x.mean(axis=0), rtol=1e-12)
    np.testing.assert_allclose(seats["SD"], x.std(axis=0), rtol=1e-12)
    cov, _se = figures.covariance()
    np.testing.assert_allclose(cov, np.cov(x, rowvar=False, bias=True), atol=1e-12)
    pd_figures = figures.bank_figures()
    assert pd_figures["P/D result per round"] == pytest.approx(-x.sum(axis=1).mean(), rel=1e-12)
    assert pd_figures["P/D SD per round"] == pytest.approx(x.sum(axis=1).std(), rel=1e-12)
    assert pd_figures["P/D result per round, covering from the stake"] == pytest.approx(
        np.mean(slow["covered"]), rel=1e-12
    )
    coverage = figures.coverage_table().set_index("Figure")["Value"]
    assert coverage.iloc[0] == pytest.approx(slow["short_rounds"] / 3_000)
    assert coverage.iloc[1] == pytest.approx(np.mean(slow["total_short"]))
    np.testing.assert_allclose(coverage.iloc[2:], np.array(slow["seat_short"]) / 3_000)
    ruin = figures.ruin_table()
    assert ruin["Bankroll (units)"].tolist() == [12.0, 40.0]
    assert (ruin["Shifts"] == 3_000 // 70).all()
    assert ruin["P(ruin in a shift)"][0] == pytest.approx(slow["ruined"] / (3_000 // 70))
    assert ruin["Banker's result over a shift (units)"][0] == pytest.approx(
        np.mean(slow["shift_results"])
    )
    assert 0 < ruin["P(ruin in a shift)"][0]  # the case is not vacuous
    assert ruin["P(ruin in a shift)"][1] <= ruin["P(ruin in a shift)"][0]
    rotation = figures.rotation_table(wager=10.0, collection=1.0, rounds_per_hour=60.0)
    np.testing.assert_allclose(
        rotation["Result per round (units)"], slow["rotation"].mean(axis=1), atol=1e-12
    )
    np.testing.assert_allclose(
        rotation["Net per hour after collection"],
        60 * (10 * slow["rotation"].mean(axis=1) - 1),
        atol=1e-9,
    )
    # Rotation among equal bets is zero-sum before the collection, round by round.
    assert slow["rotation"].sum(axis=0) == pytest.approx(np.zeros(3_000), abs=1e-12)
    assert rotation["Share of rounds banked"].sum() == pytest.approx(1.0)
    assert economics.house_collection_per_hour(4, 1.0, 60.0) == 300.0


def test_delta_method_standard_errors_estimate_the_spread_they_claim():
    rng = np.random.default_rng(11)
    z = rng.normal(size=(200_000, 2))
    x = np.column_stack([z[:, 0], 0.6 * z[:, 0] + 0.8 * z[:, 1]])  # correlation 0.6
    figures = banking.BankFigures(2, Bank(), banking.tally_rounds(x, Bank()))
    _cov, se = figures.covariance()
    u, v = x[:, 0] - x[:, 0].mean(), x[:, 1] - x[:, 1].mean()
    assert se[0, 1] == pytest.approx(np.std(u * v) / math.sqrt(len(x)), rel=1e-9)
    # For normal results Var(uv) = 1 + rho^2 and the SD's SE is sigma / sqrt(2n).
    assert se[0, 1] == pytest.approx(math.sqrt(1.36 / len(x)), rel=0.02)
    sd_se = figures.seat_table()["SE of SD"]
    np.testing.assert_allclose(sd_se, 1 / math.sqrt(2 * len(x)), rtol=0.02)


@pytest.fixture(scope="module")
def double_deck():
    rules = blackjack.C21BlackjackRules(decks=2)
    return rules, results.result_distribution(rules)


def test_each_seat_has_the_heads_up_exact_figures(double_deck):
    rules, exact = double_deck
    run = table.simulate_table(
        rules, 3, "optimal", Run(300_000, 3, progress=False), dealing=Dealing("fresh")
    )
    check = run.cross_check(exact)
    z = twins.ruled(check)
    # Seat EVs and SDs (exact: no resplit at 2 decks), the P/D, four people rotating.
    assert len(z) == 3 + 3 + 1 + 4
    assert z.abs().max() < twins.z_threshold(len(z)), check
    seats = run.figures.seat_table()
    pd_figures = run.figures.bank_figures()
    assert pd_figures["P/D result per round"] == pytest.approx(-seats["Mean"].sum(), abs=1e-12)
    # Seats share the P/D's hand: their results move together, so the P/D's SD exceeds
    # what independent seats would give.
    covariances = run.figures.covariance_table()
    assert (covariances["Covariance"] > 10 * covariances["SE"]).all()
    assert pd_figures["P/D SD per round"] > pd_figures["P/D SD if seats were independent"]


def test_results_depend_on_the_seed_only(double_deck):
    rules, _exact = double_deck
    runs = [
        table.simulate_table(
            rules,
            2,
            "optimal",
            Run(150_000, 9, threads=threads, progress=False),
            dealing=Dealing("shoe", 26, "none"),
            bank=Bank(shift_rounds=1_000),
        )
        for threads in (1, 2)
    ]
    for a, b in zip(runs[0].figures.tallies, runs[1].figures.tallies, strict=True):
        np.testing.assert_array_equal(a, b)
    assert runs[0].figures.rounds == 150_000  # real shoes: exactly the rounds asked for


def test_a_round_past_the_shoe_goes_on_from_the_reshuffled_discards():
    # One deck, two players, a cut card 6 cards from the end: many shoes' last round needs
    # more cards than are left, and finishes from the shoe's earlier rounds, reshuffled.
    rules = blackjack.C21BlackjackRules(decks=1)
    exact = results.result_distribution(rules)
    run = table.simulate_table(
        rules, 2, "optimal", Run(60_000, 1, progress=False), dealing=Dealing("shoe", 6, "none"),
    )  # fmt: skip
    assert run.figures.rounds == 60_000
    assert 0.005 < run.reshuffled_rounds / 60_000 < 0.5
    # The cards are still a deck's: each seat's spread is the heads-up one within a few SEs
    # (the cut card moves the mean a little, the spread hardly).
    seats = run.figures.seat_table()
    assert (abs(seats["SD"] - exact.standard_deviation) < 5 * seats["SE of SD"]).all()
    fresh = table.simulate_table(
        rules, 2, "optimal", Run(5_000, 1, progress=False), dealing=Dealing("fresh")
    )
    assert fresh.reshuffled_rounds == 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 0}, "players must be from 1 to 7"),
        ({"players": 8}, "players must be from 1 to 7"),
        ({"players": True}, "players must be a whole number"),
        ({"players": 3.0}, "players must be a whole number"),
        ({"rules": blackjack.C21BlackjackRules(decks=1), "players": 6}, "at most 2 players"),
        ({"rounds": 0}, "rounds"),
        ({"bank": "big"}, "bank must be a Bank"),
        ({"dealing": Dealing("shoe", 3, "none")}, "penetration must be from 8"),
        ({"dealing": Dealing("shoe", 78, "face_value")}, "without a burn"),
        ({"strategy": "best"}, "chart"),
    ],
)
def test_bad_table_input_is_refused(kwargs, message):
    args = {
        "rules": blackjack.C21BlackjackRules(decks=6),
        "players": 3,
        "strategy": "optimal",
        "rounds": 1_000,
        **kwargs,
    }
    with pytest.raises(GamecoreError, match=message):
        args["run"] = Run(args.pop("rounds"), 1, progress=False)
        table.simulate_table(**args)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"stake": 0.5}, "stake must be from 1 unit"),
        ({"stake": float("nan")}, "stake must be a finite number"),
        ({"bankrolls": (math.inf,)}, r"bankrolls\[0\] must be a finite number"),
        ({"bankrolls": ("10",)}, r"bankrolls\[0\] must be a number"),
        ({"bankrolls": 10}, "bankrolls must be a list"),
        ({"bankrolls": ()}, "at least one"),
        ({"shift_rounds": 0}, "shift_rounds must be"),
        ({"turn_rounds": 2.5}, "turn_rounds must be"),
    ],
)
def test_bad_bank_is_refused(kwargs, message):
    with pytest.raises(GamecoreError, match=message):
        Bank(**kwargs)


def test_a_bankroll_below_the_ruin_line_is_refused_naming_both():
    # A banker starting with 1 unit, ruined below 2, was accepted: its first round was
    # played, and a first round it won (the player losing 1) left it at 2, never ruined.
    with pytest.raises(
        GamecoreError, match=r"bankrolls\[1\] \(1\.5\) is below ruin_below \(2\.0\)"
    ):
        Bank(bankrolls=(2, 1.5), ruin_below=2)
    # On the line the banker can bank: ruin is falling below it. Rounds worked by hand,
    # one player, shifts of two rounds: a push and a push keep 2 (not ruined); the player
    # winning 1 leaves 1 (ruined).
    bank = Bank(bankrolls=(2,), ruin_below=2, shift_rounds=2)
    t = banking.tally_rounds(np.array([[0.0], [0.0], [1.0], [0.0]]), bank)
    assert t.counts[banking.SHIFTS] == 2 and t.shift[0, 0] == 1.0


def test_c21_baccarat_table_refuses_a_bankroll_below_the_players_wagers():
    # The card's banker is ruined below the players' wagers: 3 units at a table of 4.
    rules = c21_baccarat.C21BaccaratRules(decks=1)
    with pytest.raises(
        GamecoreError, match=r"bankrolls\[0\] \(3\.0\) is below ruin_below \(4\.0\)"
    ):
        c21_baccarat.table.simulate_table(
            rules, 4, Run(1_000, 1, progress=False), bank=Bank(bankrolls=(3,))
        )


def _nulls(data, path=""):
    """The paths of every null in a JSON document."""
    if isinstance(data, dict):
        return [p for k, v in data.items() for p in _nulls(v, f"{path}.{k}")]
    if isinstance(data, list):
        return [p for i, v in enumerate(data) for p in _nulls(v, f"{path}[{i}]")]
    return [path] if data is None else []


def test_one_round_keeps_its_means_and_says_why_its_ses_are_null():
    # One round, seat 1 winning 1 and seat 2 losing 1: the means are those results (they
    # were null, with every SE, and nothing said why); no shift of 480 was played.
    bank = Bank(bankrolls=(100,))
    figures = banking.BankFigures(2, bank, banking.tally_rounds(np.array([[1.0, -1.0]]), bank))
    data = strictjson.loads(strictjson.dumps(banking.to_dict(figures)))
    assert [seat["Mean"] for seat in data["seats"]] == [1.0, -1.0]
    assert data["pd"]["P/D result per round"] == 0.0
    assert data["seats"][0]["SE"] is None and "one round" in data["seats_note"]
    assert data["ruin"][0]["P(ruin in a shift)"] is None
    assert "no whole shift was played" in data["ruin_note"]
    # Every null but the unlimited stake (the README says so) sits in a part with its note.
    for path in _nulls(data):
        assert path == ".bank.stake" or f"{path.split('[')[0].split('.')[1]}_note" in data, path


def test_a_ruin_never_seen_says_what_its_zero_se_means():
    # 10 shifts of 2 pushes: no bankroll is ever ruined. P(ruin) 0 with SE 0 from the
    # frequency; the note gives the rule of three's bound, 3 / 10.
    bank = Bank(bankrolls=(5,), shift_rounds=2)
    figures = banking.BankFigures(1, bank, banking.tally_rounds(np.zeros((20, 1)), bank))
    data = banking.to_dict(figures)
    assert (data["ruin"][0]["P(ruin in a shift)"], data["ruin"][0]["SE"]) == (0.0, 0.0)
    assert "no shift of 10 ruined" in data["ruin_note"] and "below 0.3 " in data["ruin_note"]


def test_the_table_command_says_why_each_null_figure_is_null():
    result = run_gamecore(
        "simulate", "standard_blackjack", "--players", "2", "--strategy", "optimal",
        "--rounds", "1", "--json", "--no-progress",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = strictjson.loads(result.stdout)
    nulls = [path for path in _nulls(data) if path != ".bank.stake"]
    assert nulls  # one round: SEs, correlations and every shift figure are undefined
    for path in nulls:
        assert f"{path.split('[')[0].split('.')[1]}_note" in data, path


def test_cross_check_needs_a_fresh_run_of_the_same_strategy(double_deck):
    rules, exact = double_deck
    shoe_run = table.simulate_table(rules, 2, "optimal", Run(5_000, 1, progress=False))
    with pytest.raises(GamecoreError, match="shuffle every round"):
        shoe_run.cross_check(exact)
    chart = blackjack.read_strategy_chart(blackjack.CHART_DIR / "c21_2_decks.csv")
    chart_run = table.simulate_table(
        rules, 2, chart, Run(5_000, 1, progress=False), dealing=Dealing("fresh")
    )
    with pytest.raises(GamecoreError, match="the table played"):
        chart_run.cross_check(exact)


# --- 21st Century Baccarat's table -------------------------------------------------------


def test_c21_baccarat_table_seats_have_the_heads_up_exact_figures():
    rules = c21_baccarat.C21BaccaratRules(decks=2)
    house = c21_baccarat.count_deals(rules).evaluate(
        c21_baccarat.house_way_player(rules), c21_baccarat.house_way_dealer(rules)
    )
    run = c21_baccarat.table.simulate_table(
        rules,
        4,
        Run(200_000, 2, progress=False),
        bank=Bank(bankrolls=(6.0, 30.0), shift_rounds=200),
    )
    check = run.cross_check(house)
    z = twins.ruled(check)
    assert len(z) == 4 + 4 + 1 + 5
    assert z.abs().max() < twins.z_threshold(len(z)), check
    # The card's "no action": the banker is ruined below the four players' wagers.
    assert run.figures.bank.ruin_below == 4.0 and math.isinf(run.figures.bank.stake)
    ruin = run.figures.ruin_table()
    assert ruin["P(ruin in a shift)"][0] > ruin["P(ruin in a shift)"][1]
    with pytest.raises(GamecoreError, match="different strategies"):
        run.cross_check(dataclasses.replace(house, player="other"))
    with pytest.raises(GamecoreError, match="players must be from 1 to 8"):
        c21_baccarat.table.simulate_table(rules, 9, Run(1_000, 1))
    with pytest.raises(GamecoreError, match="bank must be a Bank"):
        c21_baccarat.table.simulate_table(rules, 2, Run(1_000, 1), bank={"stake": 3})
