"""The built-in side bets of issue 43's larger library against values derived without the
engine: each bet's published pay table figures, quoted with their source, to the precision
published, and where the bet reads only a few cards, a closed form counted here from the
shoe's counts (falling factorials), equal as exact integers.

The engine counts ordered card sequences: a blackjack bet over the cards its conditions name
(the player's two, then the dealer's up card), a baccarat bet over six cards. The pages quote
unordered combinations (two cards: half of ours; three: a sixth), or probabilities; each test
says which. Each is also counted by the plain-Python reference: in
tests/test_sidebet_reference.py (its ENGINE_DECKS), the Either Pair here, on a shorter shoe.

Last, where the built-ins are shown (``gamecore games``, the side bets report's default,
docs/side-bets.md): every one, derived from ``builtin_names()``, never a number written here.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import perm
from pathlib import Path

import pytest
import sidebet_reference as ref
import yaml

from gamecore import cards
from gamecore.sidebets import definition
from gamecore.sidebets.exact import count_outcomes

DEFINITIONS = Path(definition.__file__).resolve().parent / "definitions"


@cache
def counts(bet: str, decks: int) -> tuple[int, tuple[int, ...]]:
    """The engine's (every deal, each outcome's deals then the losing deals) for a built-in."""
    total, paid, _matched = count_outcomes(definition.load(bet), cards.standard(decks))
    assert sum(paid) == total
    return total, tuple(paid)


def file_pays(bet: str) -> list[Fraction]:
    return [outcome.pays for outcome in definition.load(bet).outcomes]


def expected_return(bet: str, decks: int, pays: list | None = None) -> Fraction:
    """Return per unit staked at ``pays`` (the file's pays if None); the losing deals lose 1."""
    total, (*paying, loses) = counts(bet, decks)
    pays = file_pays(bet) if pays is None else pays
    return (sum(Fraction(p) * c for p, c in zip(pays, paying, strict=True)) - loses) / total


def percent(value: Fraction) -> float:
    """A house edge (minus the return) in percent, as pages print it."""
    return float(-value) * 100


# ---------------------------------------------------------------------------------------
# Blackjack: the player's two cards (and the dealer's up card)
# ---------------------------------------------------------------------------------------

WOO_ROYAL_MATCH = "https://wizardofodds.com/games/blackjack/side-bets/royal-match/"
WOO_ROYAL_MATCH_SEEN_AT = "http://depositcamp.diarynote.jp/202107040332255518"
GAM470_ROYAL_MATCH = "http://mathproblems.info/gam470/games/bj-side-bets/prob-bj-side-bets.html"


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_royal_match_closed_form(decks):
    # Ordered pairs of cards from n = 52 d: a king of a suit (4 d) then that suit's queen (d),
    # or the reverse; any card then one of the 13 d - 1 left of its suit is one suit.
    n = 52 * decks
    total, (royal, easy, loses) = counts("royal_match", decks)
    assert total == perm(n, 2)
    assert royal == 2 * 4 * decks * decks
    assert easy == n * (13 * decks - 1) - 8 * decks * decks
    assert loses == n * 39 * decks


def test_royal_match_published():
    # GAM470_ROYAL_MATCH (6 decks, unordered: half our ordered counts): "4*6*6=144
    # combinations for a royal match", "the number of each matches is 11088 + 780 = 11868",
    # "36504 losing combinations", "over all 48,516 combinations".
    total, (royal, easy, loses) = counts("royal_match", 6)
    assert (total, royal, easy, loses) == (
        2 * 48516,
        2 * 144,
        2 * 11868,
        2 * 36504,
    )
    assert file_pays("royal_match") == [25, Fraction(5, 2)]
    # WOO_ROYAL_MATCH (seen at WOO_ROYAL_MATCH_SEEN_AT), "Royal Match House Edge", by
    # "Number of Decks", "Version 1" (25 to 1, 2.5 to 1) and "Version 2" (10 to 1, 3 to 1):
    # "1 0.108597 0.037707", "2 0.083271 0.008215", "4 0.070792 -0.006317",
    # "6 0.066658 -0.011130", "8 0.064597 -0.013531".
    table = {
        1: (0.108597, 0.037707),
        2: (0.083271, 0.008215),
        4: (0.070792, -0.006317),
        6: (0.066658, -0.011130),
        8: (0.064597, -0.013531),
    }
    for decks, (version_1, version_2) in table.items():
        assert abs(float(-expected_return("royal_match", decks)) - version_1) <= 5e-7
        ours = expected_return("royal_match", decks, [10, 3])
        assert abs(float(-ours) - version_2) <= 5e-7, decks


WOO_21_PLUS_3 = "https://wizardofodds.com/games/blackjack/side-bets/21plus3/"
WOO_21_PLUS_3_SEEN_AT = "https://www.jndiario.com/games/blackjack/side-bets/21plus3/"


@pytest.mark.parametrize("decks", [1, 2, 6])
def test_twenty_one_plus_three_classic_closed_form(decks):
    # Ordered three cards from n = 52 d. A run (12: A-2-3 .. Q-K-A) of three ranks in any of
    # 3! orders, each card of 4 d (a straight) or all of one suit, d each (a straight flush);
    # three of one rank: (4 d)(4 d - 1)(4 d - 2); one suit: n (13 d - 1)(13 d - 2), less its
    # straight flushes and its three identical cards, 52 d (d - 1)(d - 2); a suited pair
    # stays a flush (docs/side-bets.md: each hand in its best class).
    d = decks
    n = 52 * d
    total, (straight_flush, trips, straight, flush, loses) = counts(
        "twenty_one_plus_three_classic", decks
    )
    assert total == perm(n, 3)
    assert straight_flush == 12 * 6 * 4 * d**3
    assert trips == 13 * perm(4 * d, 3)
    assert straight == 12 * 6 * (4 * d) ** 3 - straight_flush
    assert flush == n * (13 * d - 1) * (13 * d - 2) - straight_flush - 52 * perm(d, 3)
    assert file_pays("twenty_one_plus_three_classic") == [9, 9, 9, 9]


def test_twenty_one_plus_three_classic_published():
    # WOO_21_PLUS_3 (seen at WOO_21_PLUS_3_SEEN_AT), "Version 1 ... pays 9 to 1", table
    # "21+3 — 6 decks" (unordered: a sixth of our ordered counts): "Straight flush 10368",
    # "Three of a kind 26312", "Straight 155520", "Flush 236736", "Pair+flush 56160"
    # (a suited pair, our flush), "Total 5013320 1 -0.032386".
    total, (straight_flush, trips, straight, flush, _loses) = counts(
        "twenty_one_plus_three_classic", 6
    )
    assert total == 6 * 5013320
    assert (straight_flush, trips, straight, flush) == (
        6 * 10368,
        6 * 26312,
        6 * 155520,
        6 * (236736 + 56160),
    )
    assert abs(float(expected_return("twenty_one_plus_three_classic", 6)) + 0.032386) <= 5e-7
    # Its house edge by decks: "1 deck — 13.30%", "2 decks — 7.26%", "4 decks — 4.24%",
    # "6 decks — 3.24%", "8 decks — 2.74%".
    for decks, edge in {1: 13.30, 2: 7.26, 4: 4.24, 6: 3.24, 8: 2.74}.items():
        assert round(percent(expected_return("twenty_one_plus_three_classic", decks)), 2) == edge


WOO_MATCH_THE_DEALER = "https://wizardofodds.com/games/blackjack/side-bets/match-the-dealer/"


def match_the_dealer_closed_form(decks: int) -> list[int]:
    """The five outcomes of match_the_dealer.yaml then no match, ordered (player_1, player_2,
    dealer_up): for each up card of n = 52 d, s = d - 1 cards identical to it are left, r =
    3 d of its rank in other suits, and m = n - 1 - s - r that match nothing."""
    n = 52 * decks
    s, r = decks - 1, 3 * decks
    m = n - 1 - s - r
    per_up_card = [
        s * (s - 1),  # both identical to the up card
        s * r + r * s,  # one identical, the other of its rank
        s * m + m * s,  # one identical, the other no match
        r * (r - 1),  # both of its rank, neither identical
        r * m + m * r,  # one of its rank, the other no match
        m * (m - 1),  # no match
    ]
    return [n * ways for ways in per_up_card]


@pytest.mark.parametrize("decks", [1, 2, 4, 6])
def test_match_the_dealer_closed_form(decks):
    total, per_outcome = counts("match_the_dealer", decks)
    assert total == perm(52 * decks, 3)
    assert list(per_outcome) == match_the_dealer_closed_form(decks)
    # WOO_MATCH_THE_DEALER, "Blackjack Pay Table": "6 4 11" (decks, unsuited match, suited
    # match); two matches are paid both: 22, 15, 8.
    assert file_pays("match_the_dealer") == [22, 15, 11, 8, 4]


def test_match_the_dealer_published():
    # WOO_MATCH_THE_DEALER. Its tables give probabilities over the player's two cards once
    # the up card is seen, as a ratio of reduced integers ("Permutations"), one line for
    # each first card and second card alike; ours are exact fractions of the same events.
    # "4/19 Two-Deck Blackjack Analysis": "Two suited matches 38 - 0.000000",
    # "One suited and one non-suited match 23 6", "One suited match 19 96", "Two non-suited
    # matches 8 15", "One non-suited match 4 576", "No matches -1 4,560", "Total 5,253
    # 1.000000 -0.033124". "4/12 Four-Deck Blackjack Analysis": "Two suited matches 24 3",
    # "One suited and one non-suited match 16 36", "One suited match 12 576", "Two
    # non-suited matches 8 66", "One non-suited match 4 2,304", "No matches -1 18,336",
    # "Total 21,321".
    published = {
        2: ((0, 6, 96, 15, 576, 4560), 5253),
        4: ((3, 36, 576, 66, 2304, 18336), 21321),
    }
    for decks, (lines, denominator) in published.items():
        total, p = counts("match_the_dealer", decks)
        assert [Fraction(ways, total) for ways in p] == [
            Fraction(ways, denominator) for ways in lines
        ]
    pays_2_decks = [38, 23, 19, 8, 4]
    assert abs(float(expected_return("match_the_dealer", 2, pays_2_decks)) + 0.033124) <= 5e-7


WOO_PLAYER_BLACKJACK = "https://wizardofodds.com/games/blackjack/side-bets/player-blackjack/"


@pytest.mark.parametrize("decks", [1, 2, 6])
def test_player_blackjacks_closed_form(decks):
    # An ace (4 d) and a ten-valued card (16 d), in either order; of one colour, 8 d of the
    # ten-valued cards match the ace's colour; of one suit, 4 d.
    n = 52 * decks
    for bet, tens in (
        ("player_blackjack", 16),
        ("coloured_blackjack", 8),
        ("suited_blackjack", 4),
    ):
        total, (blackjack, loses) = counts(bet, decks)
        assert total == perm(n, 2)
        assert blackjack == 2 * (4 * decks) * (tens * decks)
        assert loses == total - blackjack


def test_player_blackjacks_published():
    # WOO_PLAYER_BLACKJACK (unordered combinations: half our ordered counts).
    # "Blackjack Pays 17 to 1 — Six Decks": "Win 17 2,304", "Total 48,516 1.000000
    # -0.145189"; "Player Blackjack House Edge", pays 17: "17 13.12% 13.97% 14.52%" (one,
    # two, six decks).
    assert counts("player_blackjack", 6) == (2 * 48516, (2 * 2304, 2 * (48516 - 2304)))
    assert file_pays("player_blackjack") == [17]
    assert abs(float(expected_return("player_blackjack", 6)) + 0.145189) <= 5e-7
    for decks, edge in {1: 13.12, 2: 13.97, 6: 14.52}.items():
        assert round(percent(expected_return("player_blackjack", decks)), 2) == edge
    # "Colored Blackjack Pays 19 to 1 — Six Decks": "Win 19 1,152", "Total 48,516 1.000000
    # -0.525105"; "Colored Player Blackjack House Edge" (one, two, six decks): "30 25.19%
    # 25.91% 26.39%", "40 1.06% 2.02% 2.65%".
    assert counts("coloured_blackjack", 6)[1][0] == 2 * 1152
    assert file_pays("coloured_blackjack") == [19]
    assert abs(float(expected_return("coloured_blackjack", 6)) + 0.525105) <= 5e-7
    for pays, edges in {30: (25.19, 25.91, 26.39), 40: (1.06, 2.02, 2.65)}.items():
        for decks, edge in zip((1, 2, 6), edges, strict=True):
            assert round(percent(expected_return("coloured_blackjack", decks, [pays])), 2) == edge
    # "The Casino Liechtenstein has another side bet on a suited blackjack, which pays 77
    # to 1. ... with six decks and paying 77 to 1, the house edge is 7.40%."
    assert file_pays("suited_blackjack") == [77]
    assert round(percent(expected_return("suited_blackjack", 6)), 2) == 7.40


CASINOADVISOR_SUIT_EM_UP = "http://www.casinoadvisor.com/number-of-decks-strategy-in-suit-em-up-online-blackjack-article.html"


@pytest.mark.parametrize("decks", [1, 2, 6])
def test_suit_em_up_closed_form(decks):
    # Ordered: two identical aces, 4 d (d - 1); an ace and a ten-valued card of its suit,
    # 2 (4 d)(4 d); two identical cards of the other 12 ranks, 48 d (d - 1); a total of 11
    # in one suit (2-9, 3-8, 4-7, 5-6: an ace counts 11 there), 4 pairs x 2 orders x 4 suits
    # x d d; any other two of one suit, what is left of n (13 d - 1).
    d = decks
    n = 52 * d
    total, (aces, blackjack, pair, eleven, other, loses) = counts("suit_em_up", decks)
    assert total == perm(n, 2)
    assert (aces, blackjack, pair, eleven) == (
        4 * d * (d - 1),
        32 * d * d,
        48 * d * (d - 1),
        32 * d * d,
    )
    assert other == n * (13 * d - 1) - (aces + blackjack + pair + eleven)
    assert loses == n * 39 * d


def test_suit_em_up_published():
    # CASINOADVISOR_SUIT_EM_UP (unordered: half our ordered counts), pays "Two aces of the
    # same suit pay 60 to 1. A blackjack with both cards from the same suit pays 10 to 1.
    # Two suited cards of the same rank, other than aces, pay 5 to 1. Two cards from the
    # same suit totalling to 11 pay 3 to 1. Any other two suited cards pay 2 to 1."
    # Two decks: "4 ways to make suited aces, 64 ways for a suited blackjack, 48 ways for a
    # suited pair, 64 ways for a suited 11 and 1120 ways any other suited cards out of a
    # total of 5356 combinations ... the house edge as 9.4%". Six decks: "60 ways ..., 576
    # ways ..., 720 ways ..., 576 ways ... and 10080 ways ... out of a total of 48516
    # combinations ... the house edge to 3.4%".
    assert file_pays("suit_em_up") == [60, 10, 5, 3, 2]
    published = {2: ((4, 64, 48, 64, 1120), 5356, 9.4), 6: ((60, 576, 720, 576, 10080), 48516, 3.4)}
    for decks, (lines, combinations, edge) in published.items():
        total, per_outcome = counts("suit_em_up", decks)
        assert total == 2 * combinations
        assert per_outcome[:5] == tuple(2 * ways for ways in lines)
        assert round(percent(expected_return("suit_em_up", decks)), 1) == edge


# ---------------------------------------------------------------------------------------
# Baccarat
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("decks", [1, 2, 8])
def test_either_pair_closed_form(decks):
    # No published figure for Either Pair was found. The Player's first two cards pair in
    # n (4 d - 1) ordered ways, whatever the tableau does, the other four of the six cards
    # counted following from n - 2. Both pairs: a Player pair, then a Banker pair from the
    # n - 2 left, its rank's 4 d - 2 or another's 4 d, then any two of n - 4.
    d = decks
    n = 52 * d
    total, (either, loses) = counts("either_pair", decks)
    assert total == perm(n, 6)
    player_pairs = n * (4 * d - 1) * perm(n - 2, 4)
    banker_after_a_player_pair = perm(4 * d - 2, 2) + 12 * perm(4 * d, 2)
    both = n * (4 * d - 1) * banker_after_a_player_pair * perm(n - 4, 2)
    assert either == 2 * player_pairs - both  # a Banker pair is as likely as a Player pair
    assert file_pays("either_pair") == [5]


def test_either_pair_engine_and_reference():
    # The plain-Python reference (tests/sidebet_reference.py, checked card by card against
    # a brute force in tests/test_sidebet_reference.py, which leaves this bet here) on two
    # decks of seven ranks, so it reads 7^4 kinds of the four first cards, not 13^4: both
    # hands pair and draw (A, 3, 5, 8, 9 and two ranks worth 0, which do not pair).
    ranks = ("A", "3", "5", "8", "9", "10", "K")
    shoe = {(rank, suit): 2 for rank in ranks for suit in ref.SUITS}
    engine_shoe = cards.Shoe(
        [[2 if rank in ranks else 0 for _suit in cards.SUITS] for rank in cards.RANKS]
    )
    rules = yaml.safe_load((DEFINITIONS / "either_pair.yaml").read_text("utf-8"))
    total, paid, _matched = count_outcomes(definition.load("either_pair"), engine_shoe)
    assert (total, paid) == ref.counts_for_shoe(rules, shoe)
    assert all(paid)


WOO_BACCARAT_PERFECT_PAIRS = "https://wizardofodds.com/games/baccarat/side-bets/perfect-pairs-ver2/"
WOO_BACCARAT_PERFECT_PAIRS_SEEN_AT = (
    "https://daikenfudousan.com/games/baccarat/side-bets/perfect-pairs-ver2/"
)


@pytest.mark.parametrize("decks", [2, 8, 1000])
def test_baccarat_perfect_pair_closed_form(decks):
    # A hand's first two cards identical: any card of n = 52 d, then one of its d - 1 twins.
    # Both: after a Player pair of card X, the Banker's pair is X again ((d - 2)(d - 3)
    # ordered) or one of the 51 other cards (51 d (d - 1)), the round's last two from n - 4.
    d, n = decks, 52 * decks
    total, (both, one, loses) = counts("baccarat_perfect_pair", decks)
    assert total == perm(n, 6)
    player = n * (d - 1) * perm(n - 2, 4)
    two = n * (d - 1) * ((d - 2) * (d - 3) + 51 * d * (d - 1)) * perm(n - 4, 2)
    assert (both, one, loses) == (two, 2 * player - 2 * two, total - 2 * player + two)
    assert file_pays("baccarat_perfect_pair") == [250, 25]


def test_baccarat_perfect_pair_engine_and_reference():
    # The plain-Python reference on a shoe of three ranks and two suits, three of each card:
    # the engine's suits by pattern against the reference's every card.
    ranks, suits = ("A", "5", "K"), ("hearts", "spades")
    shoe = {(rank, suit): 3 for rank in ranks for suit in suits}
    engine_shoe = cards.Shoe(
        [[3 if (rank in ranks and suit in suits) else 0 for suit in cards.SUITS]
         for rank in cards.RANKS]
    )  # fmt: skip
    rules = yaml.safe_load((DEFINITIONS / "baccarat_perfect_pair.yaml").read_text("utf-8"))
    total, paid, _matched = count_outcomes(definition.load("baccarat_perfect_pair"), engine_shoe)
    assert (total, paid) == ref.counts_for_shoe(rules, shoe)
    assert all(paid)


def test_baccarat_perfect_pair_published():
    # WOO_BACCARAT_PERFECT_PAIRS (seen at WOO_BACCARAT_PERFECT_PAIRS_SEEN_AT), 8 decks:
    # "Two perfect pairs 250 2,101,008", "One perfect pair 25 244,747,776", "Total
    # 7,379,583,120" (the hands' first two cards, unordered within each hand), "House edge
    # 6.62%".
    total, (both, one, _loses) = counts("baccarat_perfect_pair", 8)
    assert Fraction(both, total) == Fraction(2_101_008, 7_379_583_120)
    assert Fraction(one, total) == Fraction(244_747_776, 7_379_583_120)
    assert round(percent(expected_return("baccarat_perfect_pair", 8)), 2) == 6.62


JACOBSON_BIG_TIGER = (
    "https://advancedadvantageplay.com/2024/07/card-counting-the-big-tiger-baccarat-side-bet"
)
GGRASIA_SMALL_TIGER = (
    "https://www.ggrasia.com/edge-booster-small-6big-6-at-mgm-wynn-casinos-in-macau/"
)


def test_big_tiger_published():
    # JACOBSON_BIG_TIGER (8 decks, "pays 50-to-1 if the Banker wins with a three-card total
    # of six"): "The house edge is 15.2533%.", "The standard deviation (square root of
    # variance) is 6.519.", "The hit percentage is 1.662%."
    assert file_pays("big_tiger") == [50]
    total, (wins, _loses) = counts("big_tiger", 8)
    hit = Fraction(wins, total)
    mean = expected_return("big_tiger", 8)
    variance = 50**2 * hit + (1 - hit) - mean**2
    assert round(percent(mean), 4) == 15.2533
    assert round(float(variance) ** 0.5, 3) == 6.519
    assert round(float(hit) * 100, 3) == 1.662


def test_small_tiger_published():
    # GGRASIA_SMALL_TIGER: "Small 6/Big 6 pays 22 to 1, if the winning 'banker' hand with a
    # face value of six is composed of two cards. The side bet pays 50 to 1 for a winning
    # 'banker' hand with a face value of six, composed of three cards." ... "the Small Tiger
    # side bet exhibits a house edge of 14.33 percent, while the Big Tiger side bet
    # demonstrates a slightly higher house edge of 15.25 percent." The page gives no deck
    # count; Macau deals 8 decks, and the figure is 8 decks' (6 decks' rounds to 14.35).
    assert file_pays("small_tiger") == [22]
    assert round(percent(expected_return("small_tiger", 8)), 2) == 14.33
    assert round(percent(expected_return("small_tiger", 6)), 2) == 14.35
    assert round(percent(expected_return("big_tiger", 8)), 2) == 15.25


def test_tigers_split_lucky_6s_banker_sixes():
    # A check of the three files against each other (the reference of
    # tests/test_sidebet_reference.py counts each on its own): Lucky 6's two outcomes (the
    # Banker wins with a 6 of two cards, of three) are the Small and the Big Tiger's.
    for decks in (1, 8):
        _total, (two_cards, three_cards, _loses) = counts("lucky_6", decks)
        assert counts("small_tiger", decks)[1][0] == two_cards
        assert counts("big_tiger", decks)[1][0] == three_cards


# ---------------------------------------------------------------------------------------
# Where the built-ins are shown: every one, whatever their number
# ---------------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]


def test_gamecore_games_lists_every_built_in_with_its_pay_table():
    from helpers import run_gamecore_here

    from gamecore import strictjson

    result = run_gamecore_here("games", "--json")
    assert result.returncode == 0, result.stderr
    listed = {bet["bet"]: bet for bet in strictjson.loads(result.stdout)["side_bets"]}
    assert list(listed) == list(definition.builtin_names())
    for name, entry in listed.items():
        outcomes = definition.load(name).outcomes
        assert [line["outcome"] for line in entry["paytable"]] == [o.name for o in outcomes]
    text = run_gamecore_here("games").stdout
    assert all(f"  {name} (" in text for name in definition.builtin_names())


def test_the_side_bets_report_analyses_every_built_in_by_default():
    # The notebook's parameter is a list written out (the par sheet prints it); a built-in
    # added to the folder must be added there too, once.
    from gamecore.reporting.index import notebook_defaults

    notebook = ROOT / "notebooks" / "side_bets.ipynb"
    listed = notebook_defaults({"side_bets": notebook})["side_bets"]["side_bets"]
    assert sorted(listed) == list(definition.builtin_names())


def test_the_manual_shows_every_built_in_as_its_file_is():
    manual = (ROOT / "docs" / "side-bets.md").read_text("utf-8")
    for name in definition.builtin_names():
        text = (DEFINITIONS / f"{name}.yaml").read_text("utf-8")
        assert f"### `{name}`\n\n```yaml\n{text}```\n" in manual, name


def test_the_manual_names_the_built_in_that_counts_most():
    # docs/side-bets.md: "Every built-in bet settles at most about 58 million deals at any
    # deck count up to 1,000, its effects of removal included (Either Pair's at 1,000 decks:
    # 1,044,436 a pass, 4 passes, 14 counts)". The most decks take the most passes.
    from gamecore.sidebets import work

    def deals(name: str) -> tuple[int, str, work.Work]:
        bet = definition.load(name)
        most = work.count_work(bet, 1000, work.removal_counts(bet))
        return most.deals * most.passes * most.counts, bet.title, most

    total, title, most = max(deals(name) for name in definition.builtin_names())
    manual = " ".join((ROOT / "docs" / "side-bets.md").read_text("utf-8").split())
    stated = (
        f"at most about {round(total, -6) // 10**6} million deals at any deck count up to "
        f"1,000, its effects of removal included ({title}'s at 1,000 decks: {most.deals:,} a "
        f"pass, {most.passes} passes, {most.counts} counts)"
    )
    assert stated in manual
