"""Slow, independent pure-Python reference ("oracle") for side bets defined as data (issue 29).

What it shares with the engine (``gamecore/sidebets``): nothing but the file format. It
never imports gamecore. It reads a definition as the plain dict ``yaml.safe_load`` gives
for a file in ``gamecore/sidebets/definitions/``, interprets the condition vocabulary of
``docs/side-bets.md`` by itself, and deals baccarat by the punto banco tableau written
here from the seed rule card 001 (High Limit Baccarat, ``/work/shared/seeds``) and
``RULES.md``. It does not validate a file as the engine must; it raises on what it does
not understand, so that it never silently counts something else.

What it counts (the engine's convention, docs/side-bets.md):

* Baccarat: every round as an ordered sequence of six cards drawn without replacement
  from ``decks`` standard decks, dealt Player 1, Banker 1, Player 2, Banker 2, Player's
  third, Banker's third. A round of four or five cards is multiplied by the ordered ways
  of the cards that would follow it, ``(M)(M-1)..`` over the cards left; the total is
  ``N (N-1) .. (N-5)``, ``N = 52 decks``.
* Blackjack: the ordered sequences of only the cards the bet's conditions name, in the
  order player_1, player_2, dealer_up, dealer_hole; the total is ``N (N-1) ..`` over them.
* A deal is paid by the first outcome whose conditions all hold, else it loses: the
  counts are one per outcome in the file's order, then the losing count.

How: each card position is enumerated at the coarsest detail the bet needs there, a
*kind*: its point class (baccarat points 0..9, or blackjack values A, 2..9, ten-valued)
where only that matters, its rank where a condition reads ranks, its rank and suit where
one reads suits or colours. The number of physical card sequences behind a sequence of
kinds is :func:`ordered_ways`, an exact integer (see its docstring for why it is exact).
No shortcut beyond that: every round is dealt, every condition evaluated, in plain ints.
:func:`brute_force_counts` deals every sequence of physical cards of a small shoe, with
no kinds at all, to check that counting.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache
from math import perm

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("clubs", "diamonds", "hearts", "spades")
COLOUR = {"clubs": "black", "spades": "black", "diamonds": "red", "hearts": "red"}
#: Rank order for straights: A is 1 (and also high, after K, for Q-K-A).
RANK_NUMBER = {rank: number for number, rank in enumerate(RANKS, start=1)}

#: The cards of each game, in the order they are dealt.
CARDS = {
    "baccarat": ("player_1", "banker_1", "player_2", "banker_2", "player_3", "banker_3"),
    "blackjack": ("player_1", "player_2", "dealer_up", "dealer_hole"),
}
#: The cards that make each hand.
HAND_CARDS = {
    "baccarat": {
        "player": ("player_1", "player_2", "player_3"),
        "banker": ("banker_1", "banker_2", "banker_3"),
    },
    "blackjack": {"player": ("player_1", "player_2"), "dealer": ("dealer_up", "dealer_hole")},
}

# Seed 001's chart for a Banker whose Player drew a third card: Banker's two-card total ->
# the Player third-card POINT values on which the Banker draws ("Yes" in the chart).
BANKER_DRAWS_ON = {
    0: frozenset(range(10)),
    1: frozenset(range(10)),
    2: frozenset(range(10)),
    3: frozenset(range(10)) - {8},
    4: frozenset({2, 3, 4, 5, 6, 7}),
    5: frozenset({4, 5, 6, 7}),
    6: frozenset({6, 7}),
    7: frozenset(),
}

# Detail levels of a card position, coarsest first.
CLASS, RANK, CARD = 0, 1, 2
# A condition on ranks reads a card's rank; one on suits or colours its rank and suit.
LEVEL_OF = {"same_rank": RANK, "rank": RANK} | dict.fromkeys(
    ("same_suit", "same_colour", "same_card", "suit", "colour", "poker_hand"), CARD
)
BACCARAT_ONLY = ("winner", "margin", "cards_dealt", "hand_cards")
#: Three-card poker classes, best first (a hand is in its best class alone).
POKER_CLASSES = (
    "suited_three_of_a_kind",
    "straight_flush",
    "three_of_a_kind",
    "straight",
    "flush",
    "pair",
    "high_card",
)


def point_class(game: str, rank: str) -> int:
    """The class of a rank that the game's totals read.

    Parameters
    ----------
    game : str
        ``"baccarat"`` (points: A 1, 2..9 face, 10/J/Q/K 0) or ``"blackjack"`` (values:
        A 1, 2..9 face, 10/J/Q/K 10; the ace's 11 is applied when totalling).
    rank : str
        One of :data:`RANKS`.

    Returns
    -------
    int
        The point (baccarat) or value (blackjack).
    """
    if rank == "A":
        return 1
    if rank in ("10", "J", "Q", "K"):
        return 0 if game == "baccarat" else 10
    return int(rank)


def full_shoe(decks: int) -> dict[tuple[str, str], int]:
    """A shoe of ``decks`` standard decks: how many cards of each rank and suit.

    Parameters
    ----------
    decks : int
        The number of 52-card decks.

    Returns
    -------
    dict
        ``(rank, suit) -> count``.
    """
    return {(rank, suit): decks for rank in RANKS for suit in SUITS}


# --------------------------------------------------------------------------------------
# Counting physical cards behind a sequence of kinds
# --------------------------------------------------------------------------------------
# A kind is (class, rank, suit), with "" for what it leaves open: (7, "", "") any card of
# class 7, (0, "K", "") any king, (0, "K", "hearts") the king of hearts. Its members are
# the (rank, suit) card types it admits.


@cache
def _members(game: str, kind: tuple) -> frozenset:
    """The card types ``(rank, suit)`` a kind admits."""
    cls, rank, suit = kind
    return frozenset(
        (r, s)
        for r in RANKS
        for s in SUITS
        if point_class(game, r) == cls and rank in ("", r) and suit in ("", s)
    )


def ordered_ways(kinds, shoe: dict, game: str) -> int:
    """Ordered ways to give each position a distinct physical card of its kind.

    Why this is exact: the kinds' member sets are laminar (two are nested or disjoint: a
    card lies in its rank, a rank in its class). Assign positions in order of increasing
    set size. When position ``i`` is assigned, no earlier set strictly contains its set
    ``S_i`` (it would be larger), so each earlier position either lies inside ``S_i``, and
    took one of its cards, or is disjoint from it and took none. The cards left in
    ``S_i`` are therefore ``|S_i|`` minus the earlier positions inside it, whatever those
    cards were, and the number of assignments is the product of these counts.

    Parameters
    ----------
    kinds : sequence of tuple
        The positions' kinds.
    shoe : dict
        ``(rank, suit) -> count`` of the full shoe.
    game : str
        The game, for the point classes.

    Returns
    -------
    int
        The exact number of ordered physical-card assignments.
    """
    sets = sorted((_members(game, kind) for kind in kinds), key=len)
    ways = 1
    for i, cards in enumerate(sets):
        inside = sum(1 for earlier in sets[:i] if earlier <= cards)
        left = sum(shoe.get(card, 0) for card in cards) - inside
        if left <= 0:
            return 0
        ways *= left
    return ways


def _kinds_at(game: str, level: int, shoe: dict) -> list[tuple]:
    """Every kind of a position at a detail level, leaving out kinds the shoe lacks."""
    if level == CARD:
        kinds = [(point_class(game, r), r, s) for r in RANKS for s in SUITS]
    elif level == RANK:
        kinds = [(point_class(game, r), r, "") for r in RANKS]
    else:
        kinds = [(c, "", "") for c in sorted({point_class(game, r) for r in RANKS})]
    return [kind for kind in kinds if sum(shoe.get(card, 0) for card in _members(game, kind)) > 0]


# --------------------------------------------------------------------------------------
# Reading a definition
# --------------------------------------------------------------------------------------


def _as_list(value) -> list:
    """A value as a list (docs/side-bets.md: a single value may be written alone)."""
    return list(value) if isinstance(value, list) else [value]


def payout(text) -> Fraction:
    """A payout ``"N to M"`` (decimals read exactly) or ``"push"``, as a Fraction to 1.

    Parameters
    ----------
    text : str
        The ``pays`` field.

    Returns
    -------
    fractions.Fraction
        The win per unit staked (0 for a push).
    """
    text = str(text).strip()
    if text == "push":
        return Fraction(0)
    win, to, stake = text.split()
    if to != "to":
        raise ValueError(f"not a payout: {text!r}")
    return Fraction(win) / Fraction(stake)


def _condition_cards(game: str, kind: str, value) -> dict[str, int]:
    """card name -> the detail (``CLASS``, ``RANK``, ``CARD``) a condition reads it at."""
    hands = HAND_CARDS[game]
    if kind in ("same_rank", "same_suit", "same_colour", "same_card"):
        return {card: LEVEL_OF[kind] for card in _as_list(value)}
    if kind in ("rank", "suit", "colour"):
        return {card: LEVEL_OF[kind] for card in value}
    if kind == "poker_hand":
        return {card: CARD for card in value["cards"]}
    if kind == "total":
        return {card: CLASS for hand in value for card in hands[hand]}
    if kind == "natural":
        # "none" and "any" read both hands; a list reads the hands it names.
        named = list(hands) if value in ("none", "any") else _as_list(value)
        return {card: CLASS for hand in named for card in hands[hand][:2]}
    if kind in BACCARAT_ONLY and game == "baccarat":
        return {}
    raise ValueError(f"{kind!r} is not a condition of {game}")


def card_levels(definition: dict) -> dict[str, int]:
    """The detail each card position is enumerated at, for a definition.

    Baccarat positions are at least ``CLASS`` (the tableau reads points); a blackjack
    card no condition names is not dealt at all (absent from the result).

    Parameters
    ----------
    definition : dict
        The definition as ``yaml.safe_load`` gives it.

    Returns
    -------
    dict
        card name -> level, in dealing order.
    """
    game = definition["game"]
    needed = {card: CLASS for card in CARDS[game]} if game == "baccarat" else {}
    for outcome in definition["outcomes"]:
        for kind, value in _plain_conditions(outcome["when"]):
            for card, level in _condition_cards(game, kind, value).items():
                if card not in CARDS[game]:
                    raise ValueError(f"{card!r} is not a card of {game}")
                needed[card] = max(needed.get(card, CLASS), level)
    return {card: needed[card] for card in CARDS[game] if card in needed}


def _plain_conditions(when: dict):
    """Every ``(kind, value)`` of a ``when`` mapping, inside ``any``/``all``/``not`` too."""
    for kind, value in when.items():
        if kind in ("any", "all"):
            for group in value:
                yield from _plain_conditions(group)
        elif kind == "not":
            yield from _plain_conditions(value)
        else:
            yield kind, value


# --------------------------------------------------------------------------------------
# Conditions: each compiled once into a test of a deal's facts
# --------------------------------------------------------------------------------------


@cache
def poker_class(cards: tuple) -> str:
    """The best three-card poker class of three cards.

    Parameters
    ----------
    cards : tuple of tuple
        Three ``(rank, suit)`` pairs.

    Returns
    -------
    str
        ``suited_three_of_a_kind``, ``straight_flush``, ``three_of_a_kind``, ``straight``,
        ``flush``, ``pair`` or ``high_card`` (aces high or low: A-2-3 and Q-K-A are
        straights, K-A-2 is not).
    """
    numbers = sorted(RANK_NUMBER[rank] for rank, _ in cards)
    distinct = len(set(numbers))
    suited = len({suit for _, suit in cards}) == 1
    straight = distinct == 3 and (numbers[2] - numbers[0] == 2 or numbers == [1, 12, 13])
    if distinct == 1:
        return "suited_three_of_a_kind" if suited else "three_of_a_kind"
    if straight:
        return "straight_flush" if suited else "straight"
    if suited:
        return "flush"
    return "pair" if distinct == 2 else "high_card"


def _checked(values, allowed, what: str) -> frozenset:
    """A condition's values as a set, refused if one is not allowed (or none given)."""
    out = _as_list(values)
    # YAML reads yes/no as booleans, and True == 1: never let one pass for a number.
    bad = [v for v in out if isinstance(v, bool) or v not in allowed]
    if bad or not out:
        raise ValueError(f"{what}: values {bad or '[]'} not among {sorted(allowed)}")
    return frozenset(out)


def _same_test(cards, feature):
    """A test that every card named is dealt and all share ``feature(kind)``."""
    return lambda deal: (
        all(c in deal["cards"] for c in cards)
        and (len({feature(deal["cards"][c]) for c in cards}) == 1)
    )


def _each_card_test(value: dict, feature, allowed, what: str):
    """A test that each card named is dealt and its ``feature(kind)`` is one of its values."""
    wanted = [(card, _checked(vals, allowed, what)) for card, vals in value.items()]
    return lambda deal: all(
        card in deal["cards"] and feature(deal["cards"][card]) in vals for card, vals in wanted
    )


def _compile_when(game: str, when: dict):
    """A ``when`` mapping as one test: every condition in it holds."""
    tests = [_compile_condition(game, kind, value) for kind, value in when.items()]
    return lambda deal: all(test(deal) for test in tests)


def _compile_condition(game: str, kind: str, value):
    """One condition (docs/side-bets.md) as a test ``facts -> bool`` of a deal: ``any`` of
    a list of mappings holds when one of them holds, ``all`` when each does, ``not`` of a
    mapping when it does not."""
    if kind in ("any", "all"):
        groups = [_compile_when(game, group) for group in value]
        combine = any if kind == "any" else all
        return lambda deal: combine(group(deal) for group in groups)
    if kind == "not":
        group = _compile_when(game, value)
        return lambda deal: not group(deal)
    hands = tuple(HAND_CARDS[game])
    totals = range(10) if game == "baccarat" else range(2, 22)
    suit_of, rank_of = (lambda k: k[2]), (lambda k: k[1])
    if kind == "same_rank":
        return _same_test(_as_list(value), rank_of)
    if kind == "same_suit":
        return _same_test(_as_list(value), suit_of)
    if kind == "same_colour":
        return _same_test(_as_list(value), lambda k: COLOUR[k[2]])
    if kind == "same_card":
        return _same_test(_as_list(value), lambda k: k[1:])
    if kind == "rank":
        # YAML reads a rank written 10 or 7 as a number.
        value = {card: [str(v) for v in _as_list(vals)] for card, vals in value.items()}
        return _each_card_test(value, rank_of, RANKS, kind)
    if kind == "suit":
        return _each_card_test(value, suit_of, SUITS, kind)
    if kind == "colour":
        return _each_card_test(value, lambda k: COLOUR[k[2]], ("black", "red"), kind)
    if kind in ("total", "hand_cards"):
        allowed = frozenset(totals if kind == "total" else (2, 3))
        wanted = [(hand, _checked(v, allowed, kind)) for hand, v in value.items()]
        return lambda deal: all(deal[kind].get(hand) in v for hand, v in wanted)
    if kind == "natural" and value in ("none", "any"):
        test = any if value == "any" else (lambda flags: not any(flags))
        return lambda deal: test(deal["natural"][hand] for hand in hands)
    if kind == "natural":
        named = _checked(value, hands, kind)
        return lambda deal: all(deal["natural"][hand] for hand in named)
    if kind == "winner":
        named = _checked(value, ("player", "banker", "tie"), kind)
        return lambda deal: deal["winner"] in named
    if kind in ("margin", "cards_dealt"):
        named = _checked(value, frozenset(range(10) if kind == "margin" else (4, 5, 6)), kind)
        return lambda deal: deal[kind] in named
    if kind == "poker_hand":
        cards = list(value["cards"])
        classes = _checked(value["class"], POKER_CLASSES, kind)
        return lambda deal: (
            all(c in deal["cards"] for c in cards)
            and (poker_class(tuple(deal["cards"][c][1:] for c in cards)) in classes)
        )
    raise ValueError(f"unknown condition {kind!r}")


def _compile_outcomes(definition: dict) -> list:
    """Each outcome as the list of its conditions' tests (all must hold), in order."""
    game = definition["game"]
    compiled = []
    for outcome in definition["outcomes"]:
        unknown = set(outcome) - {"name", "when", "pays"}
        if unknown or not outcome["when"]:
            raise ValueError(f"outcome {outcome.get('name')!r}: {sorted(unknown)} or no when")
        kinds = {kind for kind, _ in _plain_conditions(outcome["when"])}
        if game != "baccarat" and kinds & set(BACCARAT_ONLY):
            raise ValueError(f"outcome {outcome['name']!r}: a baccarat-only condition")
        compiled.append([_compile_condition(game, k, v) for k, v in outcome["when"].items()])
    return compiled


def _first_match(outcomes: list, deal: dict) -> int:
    """The index of the first outcome whose tests all hold, else ``len(outcomes)``."""
    for index, tests in enumerate(outcomes):
        for test in tests:
            if not test(deal):
                break
        else:
            return index
    return len(outcomes)


# --------------------------------------------------------------------------------------
# Dealing
# --------------------------------------------------------------------------------------


def banker_draws(banker_total: int, player_third: int | None) -> bool:
    """Whether the Banker draws (seed 001), neither hand holding a natural.

    Parameters
    ----------
    banker_total : int
        The Banker's two-card total, 0..7.
    player_third : int or None
        The point of the Player's third card, or None when the Player stood.

    Returns
    -------
    bool
        True when the Banker takes a third card.
    """
    if player_third is None:
        # "The Banker can get a third card, if the Player stands and the Banker's total is
        # 5 or less."
        return banker_total <= 5
    return player_third in BANKER_DRAWS_ON[banker_total]


def _baccarat_deals(choices: dict):
    """Yield every round (card name -> kind, 4 to 6 cards) over each position's kinds."""
    for p1, b1, p2, b2 in itertools.product(*(choices[c] for c in CARDS["baccarat"][:4])):
        first = {"player_1": p1, "banker_1": b1, "player_2": p2, "banker_2": b2}
        player, banker = (p1[0] + p2[0]) % 10, (b1[0] + b2[0]) % 10
        if player >= 8 or banker >= 8:  # a natural: both hands stand
            yield first
        elif player <= 5:  # the Player draws on 0-5
            for p3 in choices["player_3"]:
                if banker_draws(banker, p3[0]):
                    for b3 in choices["banker_3"]:
                        yield {**first, "player_3": p3, "banker_3": b3}
                else:
                    yield {**first, "player_3": p3}
        elif banker_draws(banker, None):  # the Player stands on 6-7
            for b3 in choices["banker_3"]:
                yield {**first, "banker_3": b3}
        else:
            yield first


def _baccarat_facts(cards: dict) -> dict:
    """What a baccarat round's conditions read: totals, naturals (the first two cards
    total 8 or 9), winner, margin, cards dealt in all and per hand."""
    player = [cards[c][0] for c in ("player_1", "player_2", "player_3") if c in cards]
    banker = [cards[c][0] for c in ("banker_1", "banker_2", "banker_3") if c in cards]
    p_total, b_total = sum(player) % 10, sum(banker) % 10
    return {
        "cards": cards,
        "total": {"player": p_total, "banker": b_total},
        "hand_cards": {"player": len(player), "banker": len(banker)},
        "natural": {
            "player": (player[0] + player[1]) % 10 >= 8,
            "banker": (banker[0] + banker[1]) % 10 >= 8,
        },
        "winner": "player" if p_total > b_total else "banker" if b_total > p_total else "tie",
        "margin": abs(p_total - b_total),
        "cards_dealt": len(cards),
    }


def _blackjack_facts(cards: dict) -> dict:
    """What a blackjack deal's conditions read: each hand's two-card total (an ace 11
    where that does not pass 21) and whether it is a natural, for hands whose cards are dealt."""
    total, natural = {}, {}
    for hand, names in HAND_CARDS["blackjack"].items():
        if all(name in cards for name in names):
            values = sorted(cards[name][0] for name in names)
            soft = 10 if 1 in values and sum(values) + 10 <= 21 else 0
            total[hand] = sum(values) + soft
            natural[hand] = values == [1, 10]
    return {"cards": cards, "total": total, "natural": natural}


def _blackjack_deals(choices: dict):
    """Yield every deal (card name -> kind) of the named cards, in dealing order."""
    names = list(choices)
    for combo in itertools.product(*(choices[name] for name in names)):
        yield dict(zip(names, combo, strict=True))


# --------------------------------------------------------------------------------------
# Counting
# --------------------------------------------------------------------------------------


def counts_for_shoe(definition: dict, shoe: dict) -> tuple[int, list[int]]:
    """Exact combinations of every outcome of a side bet, dealt from a given shoe.

    Parameters
    ----------
    definition : dict
        The definition as ``yaml.safe_load`` gives it.
    shoe : dict
        ``(rank, suit) -> count``: the full shoe (at least six cards for baccarat).

    Returns
    -------
    tuple
        ``(total, counts)``: the total number of ordered deals, and one count per
        outcome in the file's order, the losing count last; the counts sum to the total.
    """
    game = definition["game"]
    outcomes = _compile_outcomes(definition)
    levels = card_levels(definition)
    choices = {card: _kinds_at(game, level, shoe) for card, level in levels.items()}
    size = sum(shoe.values())
    dealt = 6 if game == "baccarat" else len(choices)
    deals = _baccarat_deals(choices) if game == "baccarat" else _blackjack_deals(choices)
    counts = [0] * (len(outcomes) + 1)
    # The cards after a short round: any of those left, in order.
    after = {n: perm(size - n, dealt - n) for n in range(dealt + 1)}
    ways_of = {}
    for cards in deals:
        key = tuple(sorted(cards.values()))
        if key not in ways_of:
            ways_of[key] = ordered_ways(key, shoe, game)
        if ways_of[key]:
            ways = ways_of[key] * after[len(cards)]
            facts = _baccarat_facts(cards) if game == "baccarat" else _blackjack_facts(cards)
            counts[_first_match(outcomes, facts)] += ways
    total = perm(size, dealt)
    if sum(counts) != total:
        raise AssertionError(f"counts sum to {sum(counts)}, not the total {total}")
    return total, counts


def reference_counts(definition: dict, decks: int) -> tuple[int, list[int]]:
    """Exact combinations of every outcome of a side bet at a deck count.

    Parameters
    ----------
    definition : dict
        The definition as ``yaml.safe_load`` gives it for a file in
        ``gamecore/sidebets/definitions/``.
    decks : int
        The number of 52-card decks in the shoe.

    Returns
    -------
    tuple
        ``(total, counts)``: ``total`` the number of ordered deals (baccarat
        ``N (N-1) .. (N-5)``; blackjack over the cards the bet names), ``counts`` one
        integer per outcome in the file's order and the losing count last.
    """
    return counts_for_shoe(definition, full_shoe(decks))


def brute_force_counts(definition: dict, shoe: dict) -> tuple[int, list[int]]:
    """The same counts by dealing every ordered sequence of physical cards (tiny shoes).

    No kinds, no :func:`ordered_ways`, no padding: each of the ``N (N-1) ..`` sequences
    of distinct physical cards (six for baccarat, the named cards for blackjack) is dealt
    and counted once; a baccarat round reads only the cards it deals.

    Parameters
    ----------
    definition : dict
        The definition as ``yaml.safe_load`` gives it.
    shoe : dict
        ``(rank, suit) -> count``; keep it to ten cards or so.

    Returns
    -------
    tuple
        ``(total, counts)`` as :func:`counts_for_shoe` gives them.
    """
    game = definition["game"]
    outcomes = _compile_outcomes(definition)
    named = list(card_levels(definition))
    cards = [(point_class(game, r), r, s) for (r, s), n in shoe.items() for _ in range(n)]
    counts = [0] * (len(outcomes) + 1)
    for sequence in itertools.permutations(cards, len(named)):
        dealt = dict(zip(named, sequence, strict=True))
        if game == "baccarat":
            dealt = next(d for d in _baccarat_deals({c: [k] for c, k in dealt.items()}))
            facts = _baccarat_facts(dealt)
        else:
            facts = _blackjack_facts(dealt)
        counts[_first_match(outcomes, facts)] += 1
    return sum(counts), counts
