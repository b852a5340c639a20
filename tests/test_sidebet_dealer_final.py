"""Bets on the blackjack dealer's final hand (issue 43, item 4): the exact counts against a
slow pure-Python dealer dealt card by card from small shoes (exact fractions, equal), and
against the published bust-bet tables, cited where each figure is used.

The reference below shares nothing with the package's count but the parsed definition: it
deals the cards the bet names, then the dealer's cards one at a time from what is left,
each card by rank and suit, by the soft-17 rule, and reads each condition from the cards.
"""

from __future__ import annotations

import dataclasses
import functools
from fractions import Fraction

import pytest

from gamecore import cards
from gamecore.errors import GamecoreError
from gamecore.sidebets.dealer_final import dealer_plan
from gamecore.sidebets.dealer_players import players_after
from gamecore.sidebets.definition import load, parse
from gamecore.sidebets.exact import count_outcomes
from gamecore.sidebets.parsheet import par_sheet
from gamecore.sidebets.program import classes, compile_bet, suit_mode

# ---------------------------------------------------------------------------------------
# The reference: a dealer dealt card by card
# ---------------------------------------------------------------------------------------

_NAMED_ORDER = ("player_1", "player_2", "dealer_up", "dealer_hole")


def _points(rank: str) -> int:
    return 1 if rank == "A" else 10 if rank in ("10", "J", "Q", "K") else int(rank)


def _totals(hand) -> tuple[int, bool]:
    """(best total, soft): an ace counts 11 where that does not pass 21."""
    hard = sum(_points(rank) for rank, _ in hand)
    if any(rank == "A" for rank, _ in hand) and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def _draws(left: dict, hand: tuple, hits_soft_17: bool):
    """Every final hand from ``hand`` with its probability, ``left`` the cards left."""
    total, soft = _totals(hand)
    if total > 17 or (total == 17 and not (soft and hits_soft_17)):
        yield hand, Fraction(1)
        return
    n = sum(left.values())
    for card, count in list(left.items()):
        if count == 0:
            continue
        left[card] -= 1
        for final, p in _draws(left, hand + (card,), hits_soft_17):
            yield final, p * Fraction(count, n)
        left[card] += 1


def _holds(condition, named: dict, final: tuple) -> bool:
    kind, values = condition.kind, condition.values
    if kind in ("any", "all", "not"):
        held = [all(_holds(c, named, final) for c in group) for group in condition.groups]
        return any(held) if kind == "any" else all(held) if kind == "all" else not held[0]
    if kind == "dealer_final":
        field, accepted = values[0], values[1:]
        total, _ = _totals(final)
        if field == "bust":
            return (total > 21) == (accepted[0] == "yes")
        if field == "total":
            return total in accepted
        if field == "cards":
            return len(final) in accepted
        if field == "suited":
            return (len({suit for _, suit in final}) == 1) == (accepted[0] == "yes")
        if field == "coloured":
            colours = {cards.SUIT_COLOUR[cards.SUITS.index(suit)] for _, suit in final}
            return (len(colours) == 1) == (accepted[0] == "yes")
        if field == "ranks":
            return sorted(rank for rank, _ in final) == sorted(accepted)
        return final[-1][0] in accepted  # last
    if kind in ("same_rank", "same_suit", "same_card"):
        one_rank = len({named[card][0] for card in condition.cards}) == 1
        one_suit = len({named[card][1] for card in condition.cards}) == 1
        return {"same_rank": one_rank, "same_suit": one_suit, "same_card": one_rank and one_suit}[
            kind
        ]
    if kind in ("rank", "suit", "colour"):
        rank, suit = named[condition.cards[0]]
        colour = cards.COLOURS[cards.SUIT_COLOUR[cards.SUITS.index(suit)]]
        return {"rank": rank, "suit": suit, "colour": colour}[kind] in values
    if kind == "total":  # the player's two-card total
        return _totals((named["player_1"], named["player_2"]))[0] in values
    if kind == "natural":  # two cards of 21: the dealer's, the player's where dealt
        naturals = {"dealer": _totals((named["dealer_up"], named["dealer_hole"]))[0] == 21}
        if "player_1" in named and "player_2" in named:
            naturals["player"] = _totals((named["player_1"], named["player_2"]))[0] == 21
        if values in (("none",), ("any",)):
            return any(naturals.values()) == (values == ("any",))
        return all(naturals[hand] for hand in values)
    raise AssertionError(f"the reference reads no {kind}")


def reference(bet, shoe: cards.Shoe) -> list[Fraction]:
    # (the cards a bet names are read from its outcomes' own conditions: no test bet names a
    # card inside a composite only)
    """The probability of each outcome paid, the losing deals last."""
    named_cards = [
        name
        for name in _NAMED_ORDER
        if name.startswith("dealer")
        or any(
            name in c.cards
            or (c.kind == "total" and c.hands == ("player",))
            or (c.kind == "natural" and c.values != ("dealer",))
            for o in bet.outcomes
            for c in o.conditions
        )
    ]
    left = {
        (rank, suit): int(shoe.counts[r, s])
        for r, rank in enumerate(cards.RANKS)
        for s, suit in enumerate(cards.SUITS)
        if shoe.counts[r, s]
    }
    paid = [Fraction(0)] * (len(bet.outcomes) + 1)

    def deal(index: int, named: dict, p: Fraction) -> None:
        if index == len(named_cards):
            start = (named["dealer_up"], named["dealer_hole"])
            for final, q in _draws(left, start, bet.dealer.hits_soft_17):
                for i, outcome in enumerate(bet.outcomes):
                    if all(_holds(c, named, final) for c in outcome.conditions):
                        paid[i] += p * q
                        break
                else:
                    paid[-1] += p * q
            return
        n = sum(left.values())
        for card, count in list(left.items()):
            if count:
                left[card] -= 1
                deal(index + 1, {**named, named_cards[index]: card}, p * Fraction(count, n))
                left[card] += 1

    deal(0, {}, Fraction(1))
    return paid


def _shoe(spec: dict[tuple[str, str], int]) -> cards.Shoe:
    counts = [[0] * len(cards.SUITS) for _ in cards.RANKS]
    for (rank, suit), n in spec.items():
        counts[cards.RANKS.index(rank)][cards.SUITS.index(suit)] = n
    return cards.Shoe(counts)


def _suit(name: str) -> str:
    return next(s for s in cards.SUITS if s.startswith(name))


#: Small shoes (at least two ten-valued cards, so the dealer never runs out; at least 15
#: cards, the most a deal is completed to): low cards for long hands, suits mixed, eights
#: of one suit, of its colour and of the other colour.
SHOES = {
    "low": _shoe(
        {
            ("A", _suit("s")): 2,
            ("2", _suit("h")): 2,
            ("3", _suit("s")): 2,
            ("5", _suit("h")): 1,
            ("8", _suit("s")): 3,
            ("8", _suit("h")): 1,
            ("8", _suit("c")): 1,
            ("K", _suit("s")): 2,
            ("10", _suit("h")): 2,
        }
    ),
    "tens": _shoe(
        {
            ("A", _suit("h")): 1,
            ("4", _suit("s")): 2,
            ("6", _suit("h")): 2,
            ("8", _suit("s")): 2,
            ("9", _suit("c")): 1,
            ("J", _suit("s")): 2,
            ("Q", _suit("h")): 3,
            ("K", _suit("c")): 2,
        }
    ),
}


def _bet(outcomes: str, rule: str = "hits", extra: str = "") -> bytes:
    return (
        f"bet: test\ngame: blackjack\ndealer: {{soft_17: {rule}}}\n{extra}outcomes:\n{outcomes}"
    ).encode()


#: Definitions the reference reads: the number of cards, totals, suited hands (alone:
#: counted apart; with another suit condition: every card's suit read), ranks by point
#: class and by rank (a ten-valued rank named), the last card, the up card and the
#: player's cards.
BETS = {
    "cards": """  - name: Bust with 5 or more
    when: {dealer_final: {bust: yes, cards: 5 or more}}
    pays: 20 to 1
  - name: Bust with 3
    when: {dealer_final: {bust: yes, cards: 3}}
    pays: 2 to 1
  - name: Stand on 20 or 21
    when: {dealer_final: {bust: no, total: [20, 21]}}
    pays: push
""",
    "suited": """  - name: Suited 8-8-8
    when: {dealer_final: {ranks: [8, 8, 8], suited: yes}}
    pays: 100 to 1
  - name: Suited bust, 8 up
    when:
      rank: {dealer_up: 8}
      dealer_final: {bust: yes, suited: yes}
    pays: 10 to 1
  - name: Suited 17
    when: {dealer_final: {total: 17, suited: yes}}
    pays: 3 to 1
  - name: Unsuited bust
    when: {dealer_final: {bust: yes, suited: no}}
    pays: 1 to 1
""",
    "suited_and_up_suit": """  - name: Suited bust, spade up
    when:
      suit: {dealer_up: spades}
      dealer_final: {bust: yes, suited: yes}
    pays: 10 to 1
  - name: Suited
    when: {dealer_final: {suited: yes}}
    pays: 2 to 1
""",
    "ranks_and_last": """  - name: K-K-A
    when: {dealer_final: {ranks: [K, A, K]}}
    pays: 50 to 1
  - name: Busted by a king or a queen
    when: {dealer_final: {bust: yes, last: [K, Q]}}
    pays: 3 to 1
  - name: Busted by a ten-valued card
    when: {dealer_final: {bust: yes, last: [10, J, Q, K]}}
    pays: 2 to 1
""",
    "player_and_suited": """  - name: Player 16, dealer suited bust
    when:
      total: {player: 16}
      dealer_final: {bust: yes, suited: yes}
    pays: 30 to 1
  - name: Player 16, dealer bust
    when:
      total: {player: 16}
      dealer_final: {bust: yes}
    pays: 3 to 1
""",
    "bust_it": """  - name: Suited 8-8-8
    when: {dealer_final: {ranks: [8, 8, 8], suited: yes}}
    pays: 200 to 1
  - name: Coloured 8-8-8
    when: {dealer_final: {ranks: [8, 8, 8], coloured: yes}}
    pays: 50 to 1
  - name: Busted by a six
    when: {dealer_final: {bust: yes, cards: 3, last: 6}}
    pays: 15 to 1
  - name: Busted on three cards
    when: {dealer_final: {bust: yes, cards: 3}}
    pays: 3 to 1
""",
    "coloured_and_up_colour": """  - name: Red up, one colour
    when:
      colour: {dealer_up: red}
      dealer_final: {coloured: yes, suited: no}
    pays: 10 to 1
  - name: One suit
    when: {dealer_final: {suited: yes, cards: [2, 3, 4]}}
    pays: 20 to 1
  - name: One colour, bust
    when: {dealer_final: {coloured: yes, bust: yes}}
    pays: 5 to 1
""",
    "composites": """  - name: Bust on 3 or on 5 or more, not suited
    when:
      any: [{dealer_final: {bust: yes, cards: 3}}, {dealer_final: {bust: yes, cards: 5 or more}}]
      not: {dealer_final: {suited: yes}}
    pays: 3 to 1
  - name: 20 or 21, one colour
    when: {all: [{dealer_final: {total: [20, 21]}}, {dealer_final: {coloured: yes}}]}
    pays: 4 to 1
  - name: Not a bust, three cards at most
    when:
      dealer_final: {cards: [2, 3]}
      not: {dealer_final: {bust: yes}}
    pays: push
""",
    "player_natural_or_total": """  - name: Player natural, dealer bust
    when:
      natural: [player]
      dealer_final: {bust: yes}
    pays: 10 to 1
  - name: Player 12 or 13, dealer 5 cards or more and busted by a ten
    when:
      total: {player: [12, 13]}
      dealer_final: {cards: 5 or more, last: [10, J, Q, K], bust: yes}
    pays: 15 to 1
  - name: Player 20, dealer 20
    when:
      total: {player: 20}
      dealer_final: {total: 20}
    pays: push
""",
    "player_total_and_coloured": """  - name: Player 15 or 16, dealer one colour, busted
    when:
      total: {player: [15, 16]}
      dealer_final: {coloured: yes, bust: yes}
    pays: 12 to 1
  - name: Not a natural, dealer suited
    when:
      natural: none
      dealer_final: {suited: yes}
    pays: 4 to 1
""",
    "player_rank_and_suited": """  - name: Player ace, dealer suited
    when:
      rank: {player_1: A}
      dealer_final: {suited: yes}
    pays: 30 to 1
  - name: Natural
    when: {natural: [dealer]}
    pays: 1 to 1
""",
    "player_pair_and_bust": """  - name: Pair, dealer bust
    when:
      same_rank: [player_1, player_2]
      dealer_final: {bust: yes}
    pays: 20 to 1
  - name: King second, dealer 20 or 21
    when:
      rank: {player_2: K}
      dealer_final: {total: [20, 21]}
    pays: 3 to 1
""",
    "player_suit_and_up_suit": """  - name: Player's first of the up card's suit, bust
    when:
      same_suit: [player_1, dealer_up]
      dealer_final: {bust: yes}
    pays: 5 to 1
  - name: Red second card, dealer 17 in 3 cards
    when:
      colour: {player_2: red}
      dealer_final: {total: 17, cards: 3}
    pays: 8 to 1
""",
    "player_rank_and_total": """  - name: A face and 20, dealer bust
    when:
      rank: {player_1: [Q, K]}
      total: {player: 20}
      dealer_final: {bust: yes}
    pays: 6 to 1
  - name: Not a 2, 3 or jack, dealer 19
    when:
      not: {rank: {player_1: [2, 3, J]}}
      dealer_final: {total: 19}
    pays: 2 to 1
""",
    "player_second_card_only": """  - name: A jack or queen second, of the up card's suit, bust
    when:
      rank: {player_2: [J, Q]}
      same_suit: [player_2, dealer_up]
      dealer_final: {bust: yes}
    pays: 9 to 1
  - name: Not a queen second, dealer 18
    when:
      not: {rank: {player_2: Q}}
      dealer_final: {total: 18}
    pays: 2 to 1
""",
    "player_pair_and_suited": """  - name: Pair, dealer suited
    when:
      same_rank: [player_1, player_2]
      dealer_final: {suited: yes}
    pays: 40 to 1
  - name: Bust
    when: {dealer_final: {bust: yes}}
    pays: 1 to 1
""",
}


#: Every bet on every shoe, but the bets naming player cards on the low shoe: the reference
#: deals four cards before the dealer's, minutes there (they run on the other shoes).
CASES = [
    (name, shoe)
    for name in sorted(BETS)
    for shoe in sorted(SHOES)
    if not (name.startswith("player") and shoe == "low")
]


@pytest.mark.parametrize("rule", ["hits", "stands"])
@pytest.mark.parametrize(("name", "shoe"), CASES)
def test_the_count_equals_a_dealer_dealt_card_by_card(name, shoe, rule):
    bet = parse(_bet(BETS[name], rule), f"{name}.yaml")
    total, paid, _ = count_outcomes(bet, SHOES[shoe])
    assert [Fraction(ways, total) for ways in paid] == reference(bet, SHOES[shoe])


@pytest.mark.parametrize(
    "name",
    [
        "player_pair_and_bust",
        "player_suit_and_up_suit",
        "player_rank_and_total",
        "player_second_card_only",
    ],
)
def test_the_players_kinds_shared_out_modulo_primes_equal_the_dealer_dealt_card_by_card(
    name, monkeypatch
):
    # The player's kinds' ways are their classes' times f / g: an integer division where
    # the count fits int64 (the small shoes), a product by the inverse of g modulo each
    # prime otherwise. Counted modulo two primes however small the counts, they equal the
    # reference all the same.
    import gamecore.exactcount as exactcount

    monkeypatch.setattr(exactcount, "moduli_for", lambda bound: exactcount.CRT_PRIMES[:2])
    bet = parse(_bet(BETS[name]), f"{name}.yaml")
    total, paid, _ = count_outcomes(bet, SHOES["tens"])
    assert [Fraction(ways, total) for ways in paid] == reference(bet, SHOES["tens"])


def test_a_shoe_smaller_than_a_counted_deal_is_refused():
    # A deal is counted as the cards named and 11 draws (13 here): the most a dealer's hand
    # can take, so from 13 cards no shoe runs out; 12 cannot be counted that way.
    shoe = _shoe({("2", _suit("s")): 6, ("K", _suit("h")): 6})
    with pytest.raises(GamecoreError, match="a shoe of 12 cards is too small for the dealer"):
        count_outcomes(parse(_bet(BETS["cards"]), "t.yaml"), shoe)
    thirteen = _shoe({("2", _suit("s")): 6, ("K", _suit("h")): 7})
    total, paid, _ = count_outcomes(parse(_bet(BETS["cards"]), "t.yaml"), thirteen)
    assert sum(paid) == total > 0


def test_suits_are_read_apart_or_on_every_card_as_the_bet_needs():
    # The walks the reference checks above take both ways of reading suits.
    modes = {name: suit_mode(parse(_bet(text), "x.yaml")) for name, text in BETS.items()}
    assert modes == {
        "cards": 0,
        "ranks_and_last": 0,
        "suited": 2,
        "player_and_suited": 2,
        "player_natural_or_total": 0,
        "player_total_and_coloured": 2,
        "suited_and_up_suit": 1,
        "player_rank_and_suited": 2,
        "player_pair_and_suited": 1,
        "player_pair_and_bust": 0,
        "player_suit_and_up_suit": 0,
        "player_rank_and_total": 0,
        "player_second_card_only": 0,
        "bust_it": 2,
        "composites": 2,
        "coloured_and_up_colour": 1,
    }


def test_the_players_cards_read_by_points_are_counted_after_the_dealers_hand():
    # The bets the reference checks above whose player's cards are read by their points
    # alone take the moments' path (dealer_players), the others deal the player's first.
    shoe = cards.standard(1)
    after = set()
    for name, text in BETS.items():
        bet = parse(_bet(text), "x.yaml")
        program, plan = compile_bet(bet), dealer_plan(bet, shoe)
        if players_after(bet, program, classes(bet, shoe), plan).active:
            after.add(name)
    assert after == {
        "player_and_suited",
        "player_natural_or_total",
        "player_total_and_coloured",
        "player_rank_and_suited",  # an ace: a rank list of whole point classes
        "player_pair_and_bust",  # by kind, no hand walked a suit at a time
        "player_suit_and_up_suit",
        "player_rank_and_total",
        "player_second_card_only",  # the tests asked of the second card's choices alone
    }


def test_a_bet_with_no_dealer_condition_deals_no_dealer_draw():
    # Perfect Pairs reads two cards: its total is the falling factorial to two cards, as
    # before the dealer's hand could be read.
    total, paid, _ = count_outcomes(load("perfect_pairs"), cards.standard(6))
    assert total == 312 * 311 and sum(paid) == total


def test_the_longest_dealer_hand_is_twelve_cards_standing_and_thirteen_hitting_soft_17():
    from gamecore.sidebets.dealer_words import MAX_DEALER_CARDS

    @functools.cache
    def longest(hard: int, ace: bool, hits: bool) -> int:
        total = hard + 10 if ace and hard + 10 <= 21 else hard
        if total > 17 or (total == 17 and not (hits and total != hard)):
            return 0
        return 1 + max(longest(hard + v, ace or v == 1, hits) for v in range(1, 11))

    def hand(hits: bool) -> int:
        return max(
            2 + longest(a + b, 1 in (a, b), hits) for a in range(1, 11) for b in range(1, 11)
        )

    assert (hand(False), hand(True)) == (12, 13) == (12, MAX_DEALER_CARDS)


# ---------------------------------------------------------------------------------------
# The published tables
# ---------------------------------------------------------------------------------------

#: Wizard of Odds, Buster Blackjack, read in its copy at
#: https://nilapub.com/games/blackjack/side-bets/buster-blackjack/ (linked from
#: https://wizardofodds.com/games/blackjack/appendix/8/): pay table 1 (8+ cards 250, 7 50,
#: 6 12, 5 4, 3 or 4 2), house edge by decks, dealer standing on / hitting soft 17.
BUSTER_HOUSE_EDGE = {
    1: ("8.77%", "6.89%"),
    2: ("8.48%", "6.51%"),
    4: ("8.31%", "6.29%"),
    5: ("8.27%", "6.25%"),
    6: ("8.25%", "6.21%"),
    8: ("8.22%", "6.17%"),
}
#: The same page, six decks hitting soft 17: the probability of a bust by its cards (3 to
#: 8 or more) and of no bust, to 6 places; and with one more place by
#: https://discountgambling.net/tag/sycuan/ ("Buster Blackjack @ Sycuan", 6 decks, exactly
#: 8 cards, and no bust 0.714240, where the Wizard's 0.714241 is his lines' remainder).
BUSTER_BY_CARDS = {3: "0.173032", 4: "0.089392", 5: "0.020473", 6: "0.002638", 7: "0.000214"}
BUSTER_BY_CARDS_FINER = {
    3: "1.73032e-01",
    4: "8.93918e-02",
    5: "2.04726e-02",
    6: "2.63760e-03",
    7: "2.14444e-04",
    8: "1.15280e-05",
}


def _close(value: float, published: str) -> bool:
    """``value`` rounds to ``published`` at the places it was published to."""
    digits = published.rstrip("%")
    scale = 100 if published.endswith("%") else 1
    mantissa = digits.split("e")[0]
    places = len(mantissa.split(".")[1]) if "." in mantissa else 0
    exponent = int(digits.split("e")[1]) if "e" in digits else 0
    unit = 10.0 ** (exponent - places) / scale
    return abs(value - float(digits) / scale) <= unit / 2 * (1 + 1e-9)


def _by_cards(decks: int, rule: str) -> dict[int, float]:
    outcomes = "".join(
        f"  - name: {n} cards\n    when: {{dealer_final: {{bust: yes, cards: {n}}}}}\n"
        "    pays: 1 to 1\n"
        for n in range(3, 14)
    )
    bet = parse(_bet(outcomes, rule), "by_cards.yaml")
    total, paid, _ = count_outcomes(bet, cards.standard(decks))
    return {n: ways / total for n, ways in zip(range(3, 14), paid, strict=False)} | {
        0: paid[-1] / total
    }


def test_buster_blackjack_busts_by_cards_as_published():
    by_cards = _by_cards(6, "hits")
    for n, published in BUSTER_BY_CARDS.items():
        assert _close(by_cards[n], published), (n, by_cards[n], published)
    eight_or_more = sum(p for n, p in by_cards.items() if n >= 8)
    assert _close(eight_or_more, "0.000012") and _close(250 * eight_or_more, "0.002986")
    for n, published in BUSTER_BY_CARDS_FINER.items():
        assert _close(by_cards[n], published), (n, by_cards[n], published)
    assert _close(by_cards[0], "0.714240")


@pytest.mark.parametrize("decks", sorted(BUSTER_HOUSE_EDGE))
def test_buster_blackjack_house_edge_by_decks_and_soft_17_rule_as_published(decks):
    bet = load("buster_blackjack")
    for hits, published in zip((False, True), BUSTER_HOUSE_EDGE[decks], strict=True):
        ruled = dataclasses.replace(bet, dealer=bet.dealer._replace(hits_soft_17=hits))
        assert _close(par_sheet(ruled, decks).house_edge, published), (decks, hits)


def test_buster_blackjack_california_as_published():
    # Eliot Jacobson, "Card Counting Buster Blackjack", six decks (copied at
    # https://durrell2012.com/what-are-the-odds-of-an-8-card-bust/ and
    # http://westinfotech.com/onabet-hacker-2024-04-14-id-36922.html): house edge 4.724%,
    # standard deviation 2.724, hit frequency 28.576%.
    sheet = par_sheet(load("buster_blackjack_california"))
    assert _close(sheet.house_edge, "4.724%")
    assert _close(sheet.sd, "2.724")
    assert _close(sheet.hit_frequency, "28.576%")


def test_bust_it_house_edge_as_published():
    # Eliot Jacobson, "Card Counting the Bust It Blackjack Side Bet",
    # http://blogadmin-www.888casino.com/blog/side-bets/card-counting-the-bust-it-blackjack-side-bet/
    # (house edge 7.568% at two decks, 6.912% at six); 6.91% at six decks also at
    # https://discountgambling.net/2012/12/. A three-card bust is Buster Blackjack's
    # 0.173032 (above): the hit frequency.
    assert _close(par_sheet(load("bust_it"), 2).house_edge, "7.568%")
    sheet = par_sheet(load("bust_it"), 6)
    assert _close(sheet.house_edge, "6.912%") and _close(sheet.hit_frequency, "17.3032%")


#: Bust It's effects of removal at six decks, to 6 places: https://discountgambling.net/2012/12/
#: ("Bust It Blackjack Side Bet", its table of EORs, each card's change in the return).
BUST_IT_EFFECTS = {
    "2": 0.006589,
    "3": 0.005042,
    "4": 0.002963,
    "5": 0.000256,
    "6": -0.006910,
    "7": -0.001608,
    "8": -0.003443,
    "9": -0.003001,
    "10": -0.002231,
    "A": 0.009038,
}


def test_bust_it_effects_of_removal_as_published():
    from gamecore.sidebets.removal import effects_of_removal

    effects = effects_of_removal(load("bust_it"), 6).effects
    for rank, published in BUST_IT_EFFECTS.items():
        assert abs(float(effects[rank]) - published) <= 0.5e-6, (rank, effects[rank])


def _bust_bonus_given_up(ups, decks: int) -> dict[str, tuple[Fraction, Fraction]]:
    """For each up card, P(suited bust), P(other bust) given the up card and, under an ace
    or a ten, no dealer natural (the bet is made after the peek): one count of four
    outcomes an up card."""
    outcomes = ""
    for up in ups:
        when = f"rank: {{dealer_up: {up}}}"
        outcomes += (
            f"  - name: {up} suited\n    when: {{{when}, dealer_final: {{bust: yes, suited: "
            "yes}}\n    pays: 1 to 1\n"
            f"  - name: {up} bust\n    when: {{{when}, dealer_final: {{bust: yes}}}}\n"
            "    pays: 1 to 1\n"
            f"  - name: {up} natural\n    when: {{{when}, natural: [dealer]}}\n"
            "    pays: 1 to 1\n"
            f"  - name: {up} up\n    when: {{{when}}}\n    pays: 1 to 1\n"
        )
    bet = parse(_bet(outcomes, "hits"), "bust_bonus_up.yaml")
    _, paid, _ = count_outcomes(bet, cards.standard(decks))
    given = {}
    for i, up in enumerate(ups):
        suited, bust, _natural, rest = paid[4 * i : 4 * i + 4]
        after_peek = suited + bust + rest
        given[up] = (Fraction(suited, after_peek), Fraction(bust, after_peek))
    return given


#: Bust Bonus, eight decks, dealer hits soft 17 and peeks: Wizard of Odds, read in its copy
#: at https://nilapub.com/games/blackjack/side-bets/bust-bonus/ (suited bust, other bust,
#: given the up card). The ace's suited bust is 0.002238 there (its return 0.111920 is 50
#: times 0.0022384); the count gives 0.0022390, and six decks below agree to 6 places.
BUST_BONUS_8 = {
    "A": ("0.00224", "0.198886"),
    "2": ("0.008834", "0.347843"),
    "3": ("0.011606", "0.365285"),
    "4": ("0.014647", "0.383472"),
}
#: Six decks, dealer hitting soft 17 (the rule the figures match; the page does not say):
#: https://discountgambling.net/2013/05/14/bust-bonus-bj-side-bet/ (ace and ten after the
#: peek; five of its up cards, each count of an up card costing about a second).
BUST_BONUS_6 = {
    "A": ("0.002222", "0.199059"),
    "2": ("0.008751", "0.347909"),
    "6": ("0.020844", "0.418415"),
    "7": ("0.011716", "0.250219"),
    "K": ("0.012263", "0.217975"),
}


@pytest.mark.parametrize("decks, table", [(8, BUST_BONUS_8), (6, BUST_BONUS_6)])
def test_bust_bonus_by_up_card_as_published(decks, table):
    given = _bust_bonus_given_up(tuple(table), decks)
    for up, (suited, other) in table.items():
        got = given[up]
        assert _close(float(got[0]), suited) and _close(float(got[1]), other), (up, got)


def test_8_8_8_and_suited_8_8_8_are_three_eights_in_a_row():
    # 8-8 is a hard 16: the dealer draws one card, and an 8 busts it (24). At three decks
    # (12 eights, 3 of each suit): 12/156 * 11/155 * 10/154, and of one suit
    # 12/156 * 2/155 * 1/154.
    bet = parse(_bet(BETS["suited"], "hits"), "t.yaml")
    total, paid, matched = count_outcomes(bet, cards.standard(3))
    assert Fraction(paid[0], total) == Fraction(12 * 2 * 1, 156 * 155 * 154)
    eights = parse(
        _bet("  - name: 8-8-8\n    when: {dealer_final: {ranks: [8, 8, 8]}}\n    pays: 25 to 1\n"),
        "t.yaml",
    )
    total, paid, _ = count_outcomes(eights, cards.standard(3))
    assert Fraction(paid[0], total) == Fraction(12 * 11 * 10, 156 * 155 * 154)
    assert par_sheet(bet, 1).never == ("Suited 8-8-8",)  # 1 deck: one 8 of each suit


# ---------------------------------------------------------------------------------------
# The simulated twin deals the dealer the same way
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, decks", [("buster_blackjack", 2), ("bust_it", 3)])
def test_the_simulated_dealer_agrees_with_the_count(name, decks):
    from gamecore.sidebets.sim import simulate, twin_table

    bet = load(name)
    table = twin_table(par_sheet(bet, decks), simulate(bet, decks, 100_000, 43, threads=1))
    assert (table["z"].abs() < 4.5).all(), table.to_string()


# ---------------------------------------------------------------------------------------
# The words: the rule, the sheet, and every mistake refused in one line
# ---------------------------------------------------------------------------------------


def test_the_rule_defaults_to_standing_on_soft_17_with_the_peek_and_the_sheet_says_so():
    bet = parse(
        b"bet: t\ngame: blackjack\noutcomes:\n  - name: Bust\n"
        b"    when: {dealer_final: {bust: yes}}\n    pays: 1 to 1\n",
        "t.yaml",
    )
    assert (bet.dealer.hits_soft_17, bet.dealer.peek) == (False, True)
    from gamecore.sidebets.parsheet import drawing_words, sheet_json

    words = drawing_words(bet)
    assert "the dealer stands on soft 17 and peeks for a natural" in words
    assert "a dealer natural is a final hand of two cards totalling 21" in words
    assert "every deal counted as 13 cards" in words
    assert sheet_json(par_sheet(bet, 1))["rules"]["drawing"] == words
    hits = parse(_bet(BETS["cards"], "hits"), "t.yaml")
    assert "the dealer hits soft 17" in drawing_words(hits)


def _refusal(when: str, extra: str = "", game: str = "blackjack") -> str:
    text = (
        f"bet: t\ngame: {game}\n{extra}outcomes:\n  - name: X\n    when: {when}\n    pays: 1 to 1\n"
    ).encode()
    with pytest.raises(GamecoreError) as caught:
        parse(text, "bad.yaml")
    message = str(caught.value)
    assert "\n" not in message
    return message


#: Each malformed dealer condition, and what its one line says (the file and line where the
#: first check of the message gives them).
MALFORMED = [
    ("{dealer_final: {bust: maybe}}", "bad.yaml:5: dealer_final bust 'maybe' is not one of: "),
    ("{dealer_final: {bsut: yes}}", "bad.yaml:5: unknown field 'bsut' (did you mean bust?) in"),
    ("{dealer_final: {total: 16}}", "bad.yaml:5: dealer_final total '16' is out of range; "),
    ("{dealer_final: {total: 16}}", "write a whole number from 17 to 26"),
    ("{dealer_final: {total: 27}}", "dealer_final total '27' is out of range"),
    ("{dealer_final: {total: 17 or more}}", "dealer_final total: 'or more' is for cards"),
    ("{dealer_final: {cards: 1}}", "dealer_final cards '1' is out of range; write a whole"),
    ("{dealer_final: {cards: 1}}", "number from 2 to 13"),
    ("{dealer_final: {cards: 14 or more}}", "dealer_final cards '14' is out of range"),
    ("{dealer_final: {cards: 8 or mroe}}", "dealer_final cards '8 or mroe' is not 'N or more'"),
    ("{dealer_final: {cards: [3, 3]}}", "dealer_final cards: 3 is listed twice"),
    ("{dealer_final: {cards: 08}}", "dealer_final cards '08' is octal-looking"),
    ("{dealer_final: {}}", "bad.yaml:5: dealer_final must be a non-empty mapping"),
    ("{dealer_final: yes}", "dealer_final must be a non-empty mapping"),
    ("{dealer_final: [bust]}", "dealer_final must be a non-empty mapping"),
    ("{dealer_final: {ranks: 8}}", "dealer_final ranks (the hand's ranks, e.g. [8, 8, 8]) must"),
    ("{dealer_final: {ranks: [8]}}", "dealer_final ranks lists 1 ranks; a dealer's final hand"),
    ("{dealer_final: {ranks: [8, 8, x]}}", "dealer_final ranks rank 'x' is not one of: A, 2"),
    ("{dealer_final: {ranks: [8, 8, q]}}", "rank 'q' (did you mean Q?) is not one of"),
    ("{dealer_final: {last: [K, K]}}", "dealer_final last: 'K' is listed twice"),
    ("{dealer_final: {suited: [yes]}}", "dealer_final suited must be a value, got a list"),
    ("{dealer_fianl: {bust: yes}}", "unknown condition 'dealer_fianl' (did you mean dealer_final"),
    ("{dealer_final: {bust: {yes: no}}}", "dealer_final bust must be a value, got a mapping"),
]


@pytest.mark.parametrize("when, expected", MALFORMED)
def test_every_malformed_dealer_condition_is_refused_in_one_line(when, expected):
    assert expected in _refusal(when)


#: Each malformed drawing rule, and what its one line says.
MALFORMED_RULES = [
    ("dealer: {soft_17: always}\n", "bad.yaml:3: dealer soft_17 'always' is not one of: hits"),
    ("dealer: {soft17: hits}\n", "unknown field 'soft17' (did you mean soft_17?) in dealer"),
    ("dealer: {peek: true}\n", "dealer peek 'true' is not one of: yes, no"),
    ("dealer: {}\n", "dealer is an empty mapping; give soft_17, peek or both"),
    ("dealer: hits\n", "dealer must be a mapping, got a value"),
]


@pytest.mark.parametrize("extra, expected", MALFORMED_RULES)
def test_every_malformed_dealer_rule_is_refused_in_one_line(extra, expected):
    assert expected in _refusal("{dealer_final: {bust: yes}}", extra)


def test_the_dealer_is_for_blackjack_only():
    assert "condition 'dealer_final' is for blackjack only" in _refusal(
        "{dealer_final: {bust: yes}}", game="baccarat"
    )
    assert "the field 'dealer' (how the dealer draws) is for blackjack only" in _refusal(
        "{total: {player: 9}}", "dealer: {soft_17: hits}\n", "baccarat"
    )
