"""How much counting a side bet's exact figures take, known from the definition before any
counting starts, and the bound past which a definition is refused.

Central idea
------------
The exact count (:mod:`gamecore.sidebets.exact`) loops over every deal at the detail the
bet reads and settles each deal it reaches (its ways, its facts, the outcome paid). A
baccarat round, or a blackjack deal where no condition reads the dealer's final hand
(:mod:`gamecore.sidebets.rounds`), loops each card over its point classes (10) or its rank
classes (a fine card: its suit follows the suit patterns), a baccarat round's third cards
only where the tableau draws them, then deals the suit patterns of each suit sum it
computes (or, where sums are kept by the answers of the tests reading suits, each answer
a round reads). A blackjack bet on the dealer's final hand loops each card over the bet's kinds
(up to 52), then the dealer's draws. Its cost is the deals it settles, and that number
follows from the definition alone: the classes dealt at each position, the tableau and the
suit patterns, never the shoe's counts (but for which renamings of suits the shoe allows).
It is computed here, as the loops would visit them, in a few microseconds: a two-card
total's classes are a convolution of the two cards'.

A round count takes every modulus in one pass; a count on the dealer's final hand runs once
per modulus (:func:`gamecore.exactcount.moduli_for`: one pass where every count fits in
int64, else one per prime, up to 4 at 1,000 decks), and a figure may need several counts
(the effects of removal: the full shoe and the shoe less one card of each kind). The work
is deals x passes x counts, and past :data:`MAX_DEALS` it is refused in one
line naming the definition, the estimate and the bound, before any counting: a definition
of 150 bytes (suits of all six baccarat cards, 1,000 decks) asked for an hour of CPU, and a
report build or a verify of a received manifest would have inherited it.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from gamecore import cards, rulewords
from gamecore.baccarat.tableau import DRAWING, DrawingTables
from gamecore.errors import GamecoreError
from gamecore.exactcount import moduli_for
from gamecore.reading import path_text
from gamecore.sidebets.dealer_final import deals_with_draws, reads_final
from gamecore.sidebets.definition import CARDS, SideBet
from gamecore.sidebets.exact import dealt_cards
from gamecore.sidebets.program import VALUE, Classes, classes, compile_bet
from gamecore.sidebets.round_cards import cards_completed, round_program
from gamecore.sidebets.suitorbits import detail_count, strings_by_length, trie_for
from gamecore.sidebets.sum_keys import LOOKUP_BITS, kept_rows, keys_at_most, split_tests, sum_width

#: The most deals one figure may settle (deals x passes x counts): a few minutes of one
#: core at most, a deal taking about 0.3 microseconds (0.6 with eight outcomes). Every
#: built-in bet settles at most 58 million at any deck count up to 1,000, its effects of
#: removal included (Either Pair's at 1,000 decks: 1,044,436 deals a pass, 4 passes, 14
#: counts). Four baccarat cards read by suit at 8 decks (86,886,400 deals) pass; all six
#: (1,284,505,600 a pass) do not, nor do the four's effects of removal (41 counts).
MAX_DEALS = 500_000_000
#: Point classes of either game (baccarat 0..9, blackjack A, 2..9, ten).
POINT_CLASSES = 10
#: Baccarat's card positions in dealing order (as :mod:`gamecore.sidebets.deal` numbers them).
_P1, _B1, _P2, _B2, _P3, _B3 = range(6)


class Work(NamedTuple):
    """The counting a figure of a bet takes, before it starts.

    Attributes
    ----------
    deals : int
        Deals one pass of the count settles (the leaves of its loops).
    passes : int
        Passes of one count: 1, or one per prime modulus where counts pass int64.
    counts : int
        Counts the figure needs (1 for a par sheet).
    """

    deals: int
    passes: int
    counts: int

    @property
    def total(self) -> int:
        """Every deal settled: ``deals * passes * counts``."""
        return self.deals * self.passes * self.counts


def classes_by_value(bet: SideBet, shoe: Classes | None = None) -> np.ndarray:
    """How many classes each card position's loop runs over, by point class.

    Parameters
    ----------
    bet : SideBet
        A checked definition.
    shoe : Classes, optional
        The shoe's classes for the bet (default: one deck's; which kinds exist, never how
        many cards).

    Returns
    -------
    numpy.ndarray
        int64 (positions, 10): row ``p`` the classes position ``p`` loops over that hold
        each point class: 1 each where it is dealt coarse; where fine, its rank classes
        (its suit follows the trie of suit patterns), or a blackjack card's kinds where
        the bet reads the dealer's final hand; a row of zeros for a card not dealt (its
        loop runs once, over "no card").
    """
    by_kind = reads_final(bet)
    levels = compile_bet(bet).levels if by_kind else round_program(bet)[0].levels
    shoe = classes(bet, cards.standard(1)) if shoe is None else shoe
    step = 1 if by_kind else detail_count(shoe)
    per_level = np.zeros((2, POINT_CLASSES), dtype=np.int64)
    for level in (0, 1):
        values = shoe.attributes[level, VALUE, : shoe.sizes[level] : step if level else 1]
        per_level[level] = np.bincount(values, minlength=POINT_CLASSES)
    rows = np.zeros((len(CARDS[bet.game]), POINT_CLASSES), dtype=np.int64)
    for position, level in enumerate(levels):
        if level >= 0:
            rows[position] = per_level[level]
    return rows


def deals_per_pass(
    bet: SideBet, shoe: cards.Shoe | None = None, drawing: DrawingTables = DRAWING
) -> int:
    """The deals one pass of the exact count settles, as its loops visit them (an upper
    bound where suit sums are read back).

    Parameters
    ----------
    bet : SideBet
        A checked definition.
    shoe : gamecore.cards.Shoe, optional
        The shoe counted (default: one deck): a round count deals the suits of its fine
        cards by pattern under the renamings the shoe allows
        (:mod:`gamecore.sidebets.suitorbits`).
    drawing : DrawingTables
        Baccarat's tableau (punto banco's).

    Returns
    -------
    int
        A blackjack bet on the dealer's final hand: over every kind of each card named, each
        of the dealer's final hands drawn to the cards
        (:func:`gamecore.sidebets.dealer_final.deals_with_draws`). Any other bet
        (:mod:`gamecore.sidebets.rounds`): the rounds of rank classes (over the first four
        cards' classes, those a condition reads where none reads the tableau or blackjack's
        cards named; a baccarat natural one round, a hand that draws one per class of its
        third card, the banker's by the tableau), plus the suit patterns of every suit sum
        computed: at most one per round, at most one per key where sums are kept; and where
        sums are by suit answers (:mod:`gamecore.sidebets.sum_keys`), each round's cells of
        its sum (the answers of its ``t`` tests reading suits its patterns reach: at most
        the fewer of ``2**t`` and its patterns), each read and paid, and past
        :data:`~gamecore.sidebets.sum_keys.LOOKUP_BITS` tests each pattern of a sum
        computed its search among the cells before it.
    """
    if reads_final(bet):
        return deals_with_draws(bet)
    bet_classes = classes(bet, cards.standard(1) if shoe is None else shoe)
    rows = classes_by_value(bet, bet_classes)
    program, tableau = round_program(bet)
    fine = program.levels == 1
    trie = trie_for(bet, bet_classes, int(fine.sum()))
    strings = strings_by_length(trie)
    split = split_tests(program, bet_classes, trie.details, bet.game, int(strings.max()))
    first = int(fine[:4].sum())
    completed = cards_completed(bet, program)
    moduli = len(moduli_for(math.perm(int(bet_classes.counts[0].sum()), completed)))
    capacity = kept_rows(sum_width(split, len(bet.outcomes)), moduli)
    buckets = {}  # fine cards dealt -> rounds of rank classes
    if not tableau:
        buckets[first] = math.prod(max(int(row.sum()), 1) for row in rows)
    else:
        for extra, rounds in _tableau_rounds(rows, drawing).items():
            dealt = first + sum(int(fine[position]) for position in extra)
            buckets[dealt] = buckets.get(dealt, 0) + rounds
    deals = sum(buckets.values())
    for dealt, rounds in buckets.items():
        if dealt == 0:
            continue
        keys = keys_at_most(split, dealt, bet.game)
        sums = min(rounds, keys) if split.remember and keys <= capacity else rounds
        deals += sums * int(strings[dealt])
        if split.by_answers:
            # each pattern of a sum finds its answer's cell among those before it; each
            # round reads every cell of its sum, at most one a pattern
            cells = min(split.answer_cells, int(strings[dealt]))
            deals += rounds * (cells - 1)
            if split.suit_rows.size > LOOKUP_BITS:  # no table of every answer's cell
                deals += sums * int(strings[dealt]) * (cells - 1)
    return deals


def _tableau_rounds(rows: np.ndarray, drawing: DrawingTables) -> dict[tuple[int, ...], int]:
    """Rounds of classes by the third cards dealt: ``()``, ``(P3,)``, ``(B3,)``, both."""
    player = _two_card_totals(rows[_P1], rows[_P2])
    banker = _two_card_totals(rows[_B1], rows[_B2])
    third_player, third_banker = rows[_P3], int(rows[_B3].sum())
    found = {(): 0, (_P3,): 0, (_B3,): 0, (_P3, _B3): 0}
    for p in range(POINT_CLASSES):
        for b in range(POINT_CLASSES):
            first = int(player[p]) * int(banker[b])
            if p >= 8 or b >= 8:  # a natural: nobody draws
                found[()] += first
            elif drawing.player_draws[p]:
                draws = np.asarray(drawing.banker_draws[b], dtype=bool)
                found[(_P3, _B3)] += first * int(third_player[draws].sum()) * third_banker
                found[(_P3,)] += first * int(third_player[~draws].sum())
            elif drawing.banker_draws_player_stood[b]:
                found[(_B3,)] += first * third_banker
            else:
                found[()] += first
    return found


def _two_card_totals(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Pairs of classes of two cards by the baccarat total they make (mod 10)."""
    sums = np.convolve(first, second)
    totals = sums[:POINT_CLASSES].copy()
    totals[: sums.size - POINT_CLASSES] += sums[POINT_CLASSES:]
    return totals


def count_work(bet: SideBet, decks: int, counts: int = 1) -> Work:
    """The work of ``counts`` exact counts of ``bet`` at ``decks`` decks.

    Parameters
    ----------
    bet : SideBet
        A checked definition.
    decks : int
        The deck count, 1..1000.
    counts : int
        Counts the figure needs (:func:`removal_counts` for the effects of removal: the
        shoes less one card, whose suits are not all alike, take the larger count).

    Returns
    -------
    Work
        Deals a pass, passes a count, counts.
    """
    cards_dealt = dealt_cards(bet, compile_bet(bet))
    shoe = cards.standard(decks)
    bound = math.perm(decks * len(cards.RANKS) * len(cards.SUITS), cards_dealt)
    deals = deals_per_pass(bet, shoe)
    if counts > 1:
        deals = max(deals, deals_per_pass(bet, shoe.remove([cards.card("A", "clubs")])))
    # One round pass takes every modulus at once (gamecore.sidebets.rounds); the count on
    # the dealer's final hand, one pass each (gamecore.sidebets.exact)
    passes = len(moduli_for(bound)) if reads_final(bet) else 1
    return Work(deals, passes, counts)


def removal_counts(bet: SideBet) -> int:
    """The counts the effects of removal take: the full shoe, then the shoe less one card
    of each kind the bet tells apart (:mod:`gamecore.sidebets.removal`).

    Parameters
    ----------
    bet : SideBet
        A checked definition.

    Returns
    -------
    int
        1 + the bet's kinds.
    """
    return 1 + int(classes(bet, cards.standard(1)).sizes[1])


def check_work(bet: SideBet, decks: int, counts: int = 1, what: str = "its exact count") -> Work:
    """Refuse, before any counting, a figure of ``bet`` that would settle more than
    :data:`MAX_DEALS` deals.

    Parameters
    ----------
    bet : SideBet
        A checked definition.
    decks : int
        The deck count, 1..1000.
    counts : int
        Counts the figure needs.
    what : str
        The figure, as the message names it.

    Returns
    -------
    Work
        The work, within the bound (else a :class:`GamecoreError`: the definition, the
        estimate and the bound, in one line).
    """
    work = count_work(bet, decks, counts)
    if work.total <= MAX_DEALS:
        return work
    origin = (
        f"gamecore/sidebets/definitions/{bet.bet}.yaml"
        if bet.origin == "built-in"
        else path_text(bet.origin)
    )
    counts = f", {work.counts} counts" if work.counts > 1 else ""
    raise GamecoreError(
        f"{origin}: {what} at {rulewords.decks(decks)} would settle {work.total:,} deals "
        f"({work.deals:,} a pass, {_many(work.passes, 'pass')}{counts}), more than the bound "
        f"of {MAX_DEALS:,} (docs/side-bets.md): read fewer cards' suits, ranks or colours, "
        "or use fewer decks"
    )


def _many(number: int, noun: str) -> str:
    """``number noun``, the noun plural but for one (``pass``: ``passes``)."""
    if number == 1:
        return f"1 {noun}"
    return f"{number:,} {noun}{'es' if noun.endswith('s') else 's'}"
