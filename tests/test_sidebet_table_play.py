"""Other seats drawing before the dealer (gamecore.sidebets.table_play) and how far the
dealer's final hand moves (gamecore.sidebets.table_effect), against values derived without
them: a plain-Python player reading the strategy chart's letters, dealing the same shuffled
shoes round by round, takes exactly the same cards; properties of basic strategy and of the
shoe's end; the model's dealer against gamecore's exact dealer distribution; the cards a
player takes per round against a published simulation; the same tallies whatever the
threads."""

from __future__ import annotations

import numpy as np
import pytest

from gamecore import blackjack, cards
from gamecore.blackjack.chart import up_label
from gamecore.errors import GamecoreError
from gamecore.sidebets import table_effect as effect
from gamecore.sidebets.table_play import (
    DEALER_RESERVE,
    MOST_OTHER_SEATS,
    other_seats_draw,
    seat_draws,
    table_policy,
)

RULES = [(1, False), (6, True)]
TEN_CODE, SEVEN_CODE, TWO_CODE = 9 * 4, 6 * 4, 1 * 4  # rank * 4 + suit, clubs


def point_class(code: int) -> int:
    """A card code's class read from the card model's order: A, 2..10, J, Q, K as ranks
    0..12, the ten-valued ones class 9."""
    return min(code // 4, 9)


class ReferenceTable:
    """Standard blackjack's seats played from a chart's letters, in plain Python: double on
    any two cards (after a split too), split to four hands, aces once and one card each."""

    def __init__(self, chart, shoe):
        self.cells, self.shoe = chart.cells, shoe
        self.last = len(shoe) - DEALER_RESERVE - 1  # a seat's card at most here

    def letter(self, hand, up, paired):
        total = sum(c + 1 for c in hand)
        soft = 0 in hand and total + 10 <= 21
        row = f"{'soft' if soft else 'hard'} {total + 10 if soft else total}"
        if paired:
            row = f"pair {blackjack.RANKS[hand[0]]}"
            cell = self.cells.get((row, up_label(up)))
            if cell == "P":  # at the split limit: the pair's total row
                return self.letter(hand, up, False)
            return cell
        return self.cells[(row, up_label(up))]

    def play(self, hand, up, position):
        """Play a two-card hand out: (the next position, whether the shoe ran short)."""
        while sum(c + 1 for c in hand) <= 21:
            cell = self.letter(hand, up, len(hand) == 2 and hand[0] == hand[1])
            double = cell in ("D", "DH", "DS") and len(hand) == 2
            if not double and cell in ("S", "DS"):
                break
            if position > self.last:
                return position, True
            hand = [*hand, point_class(self.shoe[position])]
            position += 1
            if double:
                break
        return position, False

    def seat(self, p1, p2, up, position):
        if sorted((p1, p2)) == [0, 9]:
            return position, False  # a Natural stands
        pair_cell = self.cells.get((f"pair {blackjack.RANKS[p1]}", up_label(up)))
        if p1 != p2 or pair_cell not in ("P", "PH", "PS", "PD"):
            return self.play([p1, p2], up, position)
        limit, hands, done = (2 if p1 == 0 else 4), 2, 0
        while done < hands:
            if position > self.last:
                return position, True
            c = point_class(self.shoe[position])
            position += 1
            if c == p1 and hands < limit:
                hands += 1
                continue
            done += 1
            if p1 != 0:  # split aces take one card each
                position, short = self.play([p1, c], up, position)
                if short:
                    return position, True
        return position, False

    def others(self, position, up, seats):
        first, dealt = position, 0
        while dealt < seats and position + 1 <= self.last:
            position, dealt = position + 2, dealt + 1
        if dealt < seats:
            return position, True
        for s in range(seats):
            p1, p2 = (point_class(self.shoe[first + 2 * s + i]) for i in (0, 1))
            position, short = self.seat(p1, p2, up, position)
            if short:
                return position, True
        return position, False

    def dealer(self, up, hole, position, h17):
        hand = [up, hole]
        while True:
            total = sum(c + 1 for c in hand)
            soft = 0 in hand and total + 10 <= 21
            total += 10 if soft else 0
            if total > 17 or (total == 17 and not (h17 and soft)):
                return position
            hand.append(point_class(self.shoe[position]))
            position += 1


@pytest.mark.parametrize(("decks", "h17"), RULES)
def test_the_seats_take_the_cards_a_plain_player_reading_the_chart_takes(decks, h17):
    chart = blackjack.exact(
        blackjack.StandardBlackjackRules(decks=decks, dealer_hits_soft_17=h17)
    ).chart
    policy = table_policy(decks, h17)
    rng = np.random.default_rng(43)
    rounds = short = 0
    for shoe_number in range(300 if decks == 1 else 24):
        shoe = cards.standard(decks).card_codes()
        rng.shuffle(shoe)
        dealt = shoe.copy()
        reference = ReferenceTable(chart, shoe.tolist())
        position = 0
        while position + 4 <= shoe.size - DEALER_RESERVE:
            seats = int(rng.integers(0, MOST_OTHER_SEATS + 1))
            p1, up, p2, hole = (point_class(int(c)) for c in shoe[position : position + 4])
            position += 4
            if sorted((up, hole)) == [0, 9]:
                continue  # the dealer's Natural: nobody draws
            expected = reference.seat(p1, p2, up, position)
            at = seat_draws(rng, dealt, position, False, int(shoe[position - 4]),
                            int(shoe[position - 2]), up, policy)  # fmt: skip
            assert at == expected
            expected = reference.others(at[0], up, seats)
            after = other_seats_draw(rng, dealt, at[0], False, up, seats, policy)
            assert after == expected, (shoe_number, position, seats)
            rounds += 1
            if after[1] or at[1]:
                short += 1
                break  # the dealer's reserve reached: the shoe's last round
            position = reference.dealer(up, hole, after[0], h17)
        assert np.array_equal(dealt, shoe)  # dealt as it lies: the shoe is not touched
    assert rounds > 400 and short > 0, (rounds, short)  # the shoe's end met too


def test_no_seat_takes_nothing_and_every_seat_takes_its_two_cards():
    policy = table_policy(6, False)
    rng = np.random.default_rng(7)
    shoe = cards.standard(6).card_codes()
    for _ in range(300):
        rng.shuffle(shoe)
        start = int(rng.integers(0, 100))
        up = int(rng.integers(0, 10))
        assert other_seats_draw(rng, shoe, start, False, up, 0, policy) == (start, False)
        seats = int(rng.integers(1, MOST_OTHER_SEATS + 1))
        at, short = other_seats_draw(rng, shoe, start, False, up, seats, policy)
        assert at >= start + 2 * seats and not short
        fresh = shoe.copy()
        at, short = other_seats_draw(rng, fresh, start, True, up, seats, policy)
        assert at >= start + 2 * seats and not short
        assert np.array_equal(np.sort(fresh), np.sort(shoe))  # still the same cards


def test_basic_strategy_never_draws_on_hard_17_or_more():
    for decks, h17 in RULES:
        policy = table_policy(decks, h17)
        assert set(policy.play[0, 17:22].ravel().tolist()) == {blackjack.ACTIONS.index("S")}
    policy = table_policy(6, True)
    shoe = cards.standard(6).card_codes()
    rng = np.random.default_rng(1)
    for first, second in [(TEN_CODE, SEVEN_CODE), (TEN_CODE, 8 * 4), (9 * 4 + 1, 7 * 4)]:
        for up in range(10):  # the hard 17, 18 or 19 stands: its two cards only
            shoe[:2] = first, second
            assert other_seats_draw(rng, shoe, 0, False, up, 1, policy) == (2, False)
    # 10, 2 hits against a 10 up; a 5 makes hard 17, which stands.
    shoe[:4] = TEN_CODE, TWO_CODE, 4 * 4, TEN_CODE
    assert other_seats_draw(rng, shoe, 0, False, 9, 1, policy) == (3, False)


def test_a_shoe_too_small_for_the_table_keeps_the_dealers_cards():
    policy = table_policy(6, False)
    rng = np.random.default_rng(2)
    # Deuces only: a pair of 2s against a 10 hits, 4, 6, ... to 18, seven cards a hand.
    shoe = np.full(60, TWO_CODE, dtype=np.int64)
    at, short = other_seats_draw(rng, shoe, 4, False, 9, MOST_OTHER_SEATS, policy)
    assert (at, short) == (shoe.size - DEALER_RESERVE, True)
    chart = blackjack.exact(blackjack.StandardBlackjackRules(decks=6)).chart
    assert ReferenceTable(chart, shoe.tolist()).others(4, 9, MOST_OTHER_SEATS) == (at, True)
    # Too few cards for every seat's first two: those seats sit out.
    shoe = np.full(4 + 2 + DEALER_RESERVE, TEN_CODE, dtype=np.int64)
    assert other_seats_draw(rng, shoe, 4, False, 9, 3, policy) == (6, True)
    assert other_seats_draw(rng, shoe, 4, False, 9, 1, policy) == (6, False)


def test_bad_arguments_are_refused_in_one_line():
    policy = table_policy(6, False)
    rng = np.random.default_rng(3)
    shoe = cards.standard(1).card_codes()
    for seats in (-1, MOST_OTHER_SEATS + 1, 2.5, True):
        with pytest.raises(GamecoreError, match="seats must be an integer 0..6"):
            other_seats_draw(rng, shoe, 4, False, 9, seats, policy)
    with pytest.raises(GamecoreError, match="up_class must be a point class"):
        other_seats_draw(rng, shoe, 4, False, 10, 1, policy)
    with pytest.raises(GamecoreError, match="position must be an integer 0..52"):
        other_seats_draw(rng, shoe, 53, False, 9, 1, policy)
    with pytest.raises(GamecoreError, match="no card code"):
        other_seats_draw(rng, shoe + 52, 4, False, 9, 1, policy)
    with pytest.raises(GamecoreError, match="seats must be an integer"):
        effect.table_effect(6, False, 10, 1, seats=7)


def test_the_models_dealer_is_gamecores_exact_dealer_and_the_tallies_ignore_threads():
    decks, rounds = 2, 2 * effect.CHUNK_ROUNDS + 1_000
    one = effect.table_effect(decks, False, rounds, seed=11, threads=1)
    two = effect.table_effect(decks, False, rounds, seed=11, threads=2)
    assert np.array_equal(one.joint, two.joint) and np.array_equal(one.stats, two.stats)
    assert one.joint.sum() == rounds
    other = effect.table_effect(decks, False, 1_000, seed=12)
    assert not np.array_equal(other.joint, one.joint[:0])  # a seed of its own

    # The model's dealer draws from the shoe less four cards; averaged over the bettor's
    # two it is the exact distribution behind the up card (gamecore.blackjack.dealer).
    rules = blackjack.StandardBlackjackRules(decks=decks)
    shoe = blackjack.shoe_composition(decks)
    exact = sum(
        shoe[u] / shoe.sum() * blackjack.dealer_final_distribution(rules, up_label(u)).to_numpy()
        for u in range(10)
    )
    frame = one.table().set_index("Figure")
    pairs = [("P(dealer busts)", exact[5:10].sum())] + [
        (f"P(dealer stands on {t})", exact[t - 17]) for t in range(17, 22)
    ]
    for figure, p in pairs:
        se = np.sqrt(p * (1 - p) / rounds)
        assert abs(frame.loc[figure, "Model"] - p) < 4 * se, (figure, frame.loc[figure], p)
    busts = [f"P(dealer busts with {k} cards)" for k in range(3, 8)]
    busts.append("P(dealer busts with 8 or more cards)")
    assert frame.loc[busts, "Model"].sum() == pytest.approx(frame.loc["P(dealer busts)", "Model"])
    assert frame.loc[busts, "Table"].sum() == pytest.approx(frame.loc["P(dealer busts)", "Table"])


def test_a_player_takes_the_cards_per_round_a_published_simulation_finds():
    # Norman Wattenberger, "Cards Dealt per Hand", https://www.blackjackincolor.com/
    # cardsperround.htm (six decks, H17, no double after split, basic strategy): "The cards
    # used by the player is about 2.71 per round." Doubling after a split (these rules)
    # takes one card where a hit could take more: a few thousandths at most.
    run = effect.table_effect(6, True, 150_000, seed=43)
    seat = run.seat_cards()
    assert seat["short_rounds"] == 0
    assert seat["se"] < 0.002
    assert abs(seat["mean"] - 2.71) < 0.015, seat
    assert run.table()["Moved SE"].gt(0).all()


def most_dealer_hits(hits_soft_17: bool) -> int:
    """The most cards a dealer's hand draws after its first two, over every start and every
    sequence of cards (as many of each as it likes: more than any shoe holds)."""

    def longest(hard: int, ace: bool) -> int:
        soft = ace and hard + 10 <= 21
        total = hard + 10 if soft else hard
        if total > 17 or (total == 17 and not (hits_soft_17 and soft)):
            return 0
        return 1 + max(longest(hard + c + 1, ace or c == 0) for c in range(10))

    return max(longest(a + b + 2, 0 in (a, b)) for a in range(10) for b in range(10))


def test_the_dealers_reserve_holds_the_longest_dealer_hand():
    assert max(most_dealer_hits(False), most_dealer_hits(True)) <= DEALER_RESERVE
