"""Slow, independent pure-Python reference ("oracle") for blackjack and c21 blackjack.

Written from ``/work/shared/RULES.md`` (section c21_blackjack) and the usual blackjack rules,
never from ``gamecore.blackjack``: it deals in the real order (the player's two cards, the up
card, the hole card), peeks, lets the player play each hand in turn (splits resplit as the
cards come), then the dealer, and settles every hand; expectations are exact sums over every
card sequence, each weighted by its probability of being drawn without replacement.

Decisions are either a strategy chart (a dict ``(row, up) -> letters``, rows and letters as
in the chart CSV format) or optimal composition-dependent play found by Bayesian recursion:
at a hand the player knows his cards, the up card and, after the peek, that the dealer has no
Natural; each action's value is averaged over the hole card's posterior. Split hands follow
the choices that are best for the same cards unsplit ("CDZ-").

Ranks are 1..10 (1 = ace, 10 = every ten-valued card); a shoe is a tuple of 10 counts.
Rules are a plain dict (keys as in the rule sets: dealer_hits_soft_17, natural_pays,
bust_push, double_on, double_after_split, max_split_hands, resplit_aces,
split_aces_one_card, surrender, peek, player_forced).
"""

from __future__ import annotations

from functools import cache


def total(cards):
    """(best total, soft) of a list of ranks."""
    hard = sum(cards)
    if 1 in cards and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def remove(shoe, card):
    s = list(shoe)
    s[card - 1] -= 1
    return tuple(s)


def draws(shoe):
    """(card, probability, shoe after) for the next card."""
    n = sum(shoe)
    for card in range(1, 11):
        if shoe[card - 1]:
            yield card, shoe[card - 1] / n, remove(shoe, card)


def is_natural(cards, split):
    return not split and len(cards) == 2 and sorted(cards) == [1, 10]


# ---------------------------------------------------------------------------------------
# Dealer
# ---------------------------------------------------------------------------------------


@cache
def dealer_outcomes(cards, shoe, h17):
    """Distribution of the dealer's final result from ``cards`` (up card and hole card).

    Results: 17..21, bust totals 22..26, "natural".
    """
    cards = list(cards)
    t, soft = total(cards)
    if len(cards) == 2 and t == 21:
        return {"natural": 1.0}
    if t < 17 or (h17 and t == 17 and soft):
        out = {}
        for card, p, rest in draws(shoe):
            for k, q in dealer_outcomes(tuple([*cards, card]), rest, h17).items():
                out[k] = out.get(k, 0.0) + p * q
        return out
    return {t: 1.0}


def dealer_distribution(shoe, up, h17):
    """Dealer's final distribution with ``up`` showing (removed from ``shoe`` already)."""
    out = {}
    for hole, p, rest in draws(shoe):
        for k, q in dealer_outcomes((up, hole), rest, h17).items():
            out[k] = out.get(k, 0.0) + p * q
    return out


# ---------------------------------------------------------------------------------------
# Settlement, from the rule text
# ---------------------------------------------------------------------------------------


def settle(hand, dealer, rules):
    """Net result per unit of the hand's wager (doubling applied by the caller).

    ``hand`` is a dict with cards, split (bool); ``dealer`` a final result.
    """
    cards = hand["cards"]
    t, _ = total(cards)
    if is_natural(cards, hand["split"]):
        return 0.0 if dealer == "natural" else rules["natural_pays"]
    if dealer == "natural":
        return -1.0
    if t > 21:
        if dealer > 21 and rules["bust_push"] == "three_card_23_25":
            if len(cards) == 3 and t in (23, 24, 25) and t < dealer:
                return 0.0  # closer to 21.5 than the busted P/D
        return -1.0
    if dealer > 21:
        return 1.0
    return (t > dealer) - (t < dealer)


# ---------------------------------------------------------------------------------------
# What the rules allow
# ---------------------------------------------------------------------------------------


def forced(rules, cards):
    """(must hit, must stand)."""
    if rules["player_forced"] != "c21":
        return False, False
    t, soft = total(cards)
    return (not soft and t <= 11) or (soft and t <= 17), t >= 20


def can_double(rules, cards, split):
    if is_natural(cards, split):
        return False
    if len(cards) != 2 and not rules.get("double_after_hit", False):
        return False
    if split and not rules["double_after_split"]:
        return False
    t, soft = total(cards)
    if soft and not rules.get("double_soft", True):
        return False
    if rules["double_on"] == "9_11":
        return not soft and 9 <= t <= 11
    if rules["double_on"] == "10_11":
        return not soft and 10 <= t <= 11
    return True


def can_surrender_late(rules, cards, split, up):
    """Surrender after the peek (or against 2-9): late on two cards, c21 on any number
    against 2-9; never on a split hand."""
    if split:
        return False
    if rules["surrender"] == "late":
        return len(cards) == 2
    if rules["surrender"] == "any_cards":
        return up not in (1, 10)
    return False


def early_surrender(rules, up):
    return rules["surrender"] == "early" or (rules["surrender"] == "any_cards" and up in (1, 10))


def split_aces_only_one(rules, hand):
    return hand["split"] and hand["cards"][0] == 1 and rules["split_aces_one_card"]


# ---------------------------------------------------------------------------------------
# Optimal unsplit play (Bayesian over the hole card)
# ---------------------------------------------------------------------------------------


def hole_posterior(shoe, up, rules):
    """(hole card, probability, shoe after) given the peek found no Natural."""
    out = []
    for hole, p, rest in draws(shoe):
        if rules["peek"] and sorted([up, hole]) == [1, 10]:
            continue
        out.append((hole, p, rest))
    z = sum(p for _, p, _ in out)
    return [(h, p / z, r) for h, p, r in out]


def _stand_given_info(cards, split, shoe, up, rules):
    """E[result of standing | info], the hole card unknown (posterior)."""
    value = 0.0
    hand = {"cards": cards, "split": split}
    for hole, p, rest in hole_posterior(shoe, up, rules):
        for d, q in dealer_outcomes((up, hole), rest, rules["dealer_hits_soft_17"]).items():
            value += p * q * settle(hand, d, rules)
    return value


def _next_card_given_info(shoe, up, rules):
    """(card, P(card | info), shoe after) where the hole card is still in ``shoe``."""
    probs = {}
    for _hole, p, rest in hole_posterior(shoe, up, rules):
        for card, q, _ in draws(rest):
            probs[card] = probs.get(card, 0.0) + p * q
    return [(c, p, remove(shoe, c)) for c, p in sorted(probs.items())]


def action_values(cards, shoe, up, rules, split=False):
    """Values of S, H, D, R at a hand given the info (conditional on no dealer Natural after
    the peek). ``shoe`` holds every card not seen (hole card included)."""
    return _action_values(tuple(cards), shoe, up, _key(rules), split)


def _key(rules):
    return tuple(sorted(rules.items()))


@cache
def _action_values(cards, shoe, up, rules_key, split):
    rules = dict(rules_key)
    cards = list(cards)
    must_hit, must_stand = forced(rules, cards)
    out = {}
    if not must_hit:
        out["S"] = _stand_given_info(cards, split, shoe, up, rules)
    if is_natural(cards, split):
        return {"S": out.get("S", _stand_given_info(cards, split, shoe, up, rules))}
    if not must_stand:
        h = 0.0
        for card, p, rest in _next_card_given_info(shoe, up, rules):
            new = [*cards, card]
            if total(new)[0] > 21:
                h += p * _stand_given_info(new, split, rest, up, rules)
            else:
                h += p * max(_action_values(tuple(new), rest, up, rules_key, split).values())
        out["H"] = h
    if can_double(rules, cards, split):
        out["D"] = 2 * sum(
            p * _stand_given_info([*cards, card], split, rest, up, rules)
            for card, p, rest in _next_card_given_info(shoe, up, rules)
        )
    if can_surrender_late(rules, cards, split, up):
        out["R"] = -0.5
    return out


# ---------------------------------------------------------------------------------------
# Playing a round in the real order
# ---------------------------------------------------------------------------------------


def round_ev(shoe, rules, decide, split_decide=None):
    """Exact EV of a round off ``shoe`` with decisions from ``decide``.

    ``decide(cards, up, allowed, split, shoe_unseen)`` returns one of ``allowed`` (a set of
    "S", "H", "D", "R"); ``split_decide(rank, up, shoe_unseen, can_surrender)`` returns
    "P" (split), "R" (early surrender) or None, for the initial two cards.
    """
    ev = 0.0
    for c1, p1, s1 in draws(shoe):
        for c2, p2, s2 in draws(s1):
            for up, p3, s3 in draws(s2):
                for hole, p4, s4 in draws(s3):
                    ev += (
                        p1
                        * p2
                        * p3
                        * p4
                        * _after_deal([c1, c2], up, hole, s4, rules, decide, split_decide)
                    )
    return ev


def _after_deal(cards, up, hole, shoe, rules, decide, split_decide):
    dealer_natural = sorted([up, hole]) == [1, 10]
    player_natural = is_natural(cards, False)
    unseen = _add(shoe, hole)  # what the player cannot see
    if early_surrender(rules, up) and not player_natural:
        choice = _root_choice(cards, up, unseen, rules, split_decide, decide, early=True)
        if choice == "R":
            return -0.5
    if dealer_natural and rules["peek"]:
        return 0.0 if player_natural else -1.0
    hands = [{"cards": list(cards), "split": False, "bet": 1.0, "done": False}]
    if cards[0] == cards[1] and rules["max_split_hands"] >= 2 and split_decide is not None:
        if split_decide(cards[0], up, unseen, False) == "P":
            hands = [
                {"cards": [cards[0]], "split": True, "bet": 1.0, "done": False},
                {"cards": [cards[1]], "split": True, "bet": 1.0, "done": False},
            ]
    return _play(hands, 0, up, hole, shoe, rules, decide)


def _add(shoe, card):
    s = list(shoe)
    s[card - 1] += 1
    return tuple(s)


def _root_choice(cards, up, unseen, rules, split_decide, decide, early):
    if split_decide is not None:
        choice = split_decide(cards[0] if cards[0] == cards[1] else None, up, unseen, True, cards)
        if choice is not None:
            return choice
    return None


def _max_hands(rules, rank):
    if rank == 1 and not rules["resplit_aces"]:
        return 2
    return rules["max_split_hands"]


def _play(hands, i, up, hole, shoe, rules, decide, settle_round=None):
    """Play hand ``i`` onwards (the hole card is already out of ``shoe``).

    ``settle_round`` settles the finished hands (default: their expected net result)."""
    settle_round = settle_round or _dealer_and_settle
    if i == len(hands):
        return settle_round(hands, up, hole, shoe, rules)
    hand = hands[i]
    cards = hand["cards"]
    if hand["done"]:
        return _play(hands, i + 1, up, hole, shoe, rules, decide, settle_round)
    if len(cards) == 1:  # a split hand takes its second card
        total_ev = 0.0
        for card, p, rest in draws(shoe):
            new_hands = _copy(hands)
            if card == cards[0] and len(new_hands) < _max_hands(rules, card):
                # The new hand is placed beside the one it came from, as at the table.
                new_hands.insert(i + 1, {"cards": [card], "split": True, "bet": 1.0, "done": False})
            else:
                new_hands[i]["cards"] = [*cards, card]
            total_ev += p * _play(new_hands, i, up, hole, rest, rules, decide, settle_round)
        return total_ev
    t, _soft = total(cards)
    if t > 21 or is_natural(cards, hand["split"]) or split_aces_only_one(rules, hand):
        return _play(_done(hands, i), i + 1, up, hole, shoe, rules, decide, settle_round)
    must_hit, must_stand = forced(rules, cards)
    allowed = set()
    if not must_hit:
        allowed.add("S")
    if not must_stand:
        allowed.add("H")
    if can_double(rules, cards, hand["split"]):
        allowed.add("D")
    if can_surrender_late(rules, cards, hand["split"], up):
        allowed.add("R")
    action = decide(cards, up, allowed, hand["split"], _add(shoe, hole))
    assert action in allowed, (cards, up, action, allowed)
    if action == "S":
        return _play(_done(hands, i), i + 1, up, hole, shoe, rules, decide, settle_round)
    if action == "R":
        new_hands = _done(hands, i)
        new_hands[i]["surrendered"] = True
        return _play(new_hands, i + 1, up, hole, shoe, rules, decide, settle_round)
    total_ev = 0.0
    for card, p, rest in draws(shoe):
        new_hands = _copy(hands)
        new_hands[i]["cards"] = [*cards, card]
        if action == "D":
            new_hands[i]["bet"] = 2.0
            new_hands[i]["done"] = True
            total_ev += p * _play(new_hands, i + 1, up, hole, rest, rules, decide, settle_round)
        else:
            total_ev += p * _play(new_hands, i, up, hole, rest, rules, decide, settle_round)
    return total_ev


def _copy(hands):
    return [dict(h, cards=list(h["cards"])) for h in hands]


def _done(hands, i):
    new = _copy(hands)
    new[i]["done"] = True
    return new


def _dealer_and_settle(hands, up, hole, shoe, rules):
    fixed = sum(-0.5 for h in hands if h.get("surrendered"))
    live = [h for h in hands if not h.get("surrendered")]
    if not live:
        return fixed
    outcomes = dealer_outcomes((up, hole), shoe, rules["dealer_hits_soft_17"])
    return fixed + sum(
        q * sum(h["bet"] * settle(h, d, rules) for h in live) for d, q in outcomes.items()
    )


# ---------------------------------------------------------------------------------------
# Policies
# ---------------------------------------------------------------------------------------


def optimal_decide(rules):
    """Optimal composition-dependent play; split hands, by ``split_strategy``: the unsplit
    hand's best action among those allowed after a split (cdz, CDZ-), or the best action of
    a split hand holding these cards with the other split hand's pair card out of the shoe
    too, whatever else is known (cdp1, CDP1; also CDP where no resplit can happen)."""
    strategy = rules.get("split_strategy", "cdz")
    if strategy == "cdp" and rules["max_split_hands"] > 2:
        raise NotImplementedError("CDP with resplits is defined by the split EV's reordering")

    def decide(cards, up, allowed, split, unseen):
        if split and strategy == "cdz":
            # The same cards as an unsplit hand: the unseen shoe then also holds the cards
            # the other split hands hold; CDZ- uses the full shoe less this hand and the up
            # card, which the caller gives through ``unsplit_shoe``.
            values = action_values(cards, decide.unsplit_shoe(cards, up), up, rules, False)
        elif split:
            pair_out = list(decide.unsplit_shoe(cards, up))
            pair_out[cards[0] - 1] -= 1  # the other hand's pair card
            values = action_values(cards, tuple(pair_out), up, rules, True)
        else:
            values = action_values(cards, unseen, up, rules, False)
        options = {a: v for a, v in values.items() if a in allowed}
        return first_best(options)

    return decide


#: Values this close are a tie (exactly equal in exact arithmetic, apart in float noise).
TIE = 1e-12


def first_best(options):
    """The first action (S H D R P order, as the engine) of the highest value, values within
    :data:`TIE` of it counting as a tie: which of two equally good actions is played changes
    no EV but does change the spread of the results."""
    top = max(options.values())
    return next(a for a, v in options.items() if v >= top - TIE)


def optimal_decisions(shoe, rules):
    """(decide, split_decide) of optimal composition-dependent play (split hands by the
    rules' ``split_strategy``)."""
    decide = optimal_decide(rules)

    def unsplit_shoe(cards, up):
        s = list(shoe)
        for c in [*cards, up]:
            s[c - 1] -= 1
        return tuple(s)

    decide.unsplit_shoe = unsplit_shoe

    def split_decide(rank, up, unseen, early, cards=None):
        # Compare the options of the initial two cards by their exact EVs.
        if early:
            if cards is None:
                return None
            best = _root_best(cards, up, unseen, rules, decide, shoe)
            return "R" if best < -0.5 else None
        if rank is None:
            return None
        cards = [rank, rank]
        played = _root_play_value(cards, up, unseen, rules)
        split = _split_value(rank, up, unseen, rules, decide)
        return "P" if split > played + TIE else None

    return decide, split_decide


def optimal_ev(shoe, rules):
    """Exact EV of optimal composition-dependent play (split hands by ``split_strategy``,
    CDZ- by default), in the real order."""
    return round_ev(shoe, rules, *optimal_decisions(shoe, rules))


def optimal_distribution(shoe, rules):
    """{(net result, kind): probability} of a round under optimal play (see
    :func:`chart_distribution`)."""
    return _distribution(shoe, rules, *optimal_decisions(shoe, rules))


def _root_play_value(cards, up, unseen, rules):
    return max(action_values(cards, unseen, up, rules, False).values())


def _split_value(rank, up, unseen, rules, decide):
    """E[split | info, no Natural] with the hole card from the posterior."""
    value = 0.0
    for hole, p, rest in hole_posterior(unseen, up, rules):
        hands = [{"cards": [rank], "split": True, "bet": 1.0, "done": False} for _ in range(2)]
        value += p * _play(hands, 0, up, hole, rest, rules, decide)
    return value


def _root_best(cards, up, unseen, rules, decide, shoe):
    """Unconditional EV of playing on (no surrender) with the initial two cards."""
    p_nat = 0.0
    if rules["peek"] and up in (1, 10):
        n = sum(unseen)
        p_nat = unseen[(10 if up == 1 else 1) - 1] / n
    natural_player = is_natural(cards, False)
    on_natural = 0.0 if natural_player else -1.0
    play = _root_play_value(cards, up, unseen, rules)
    if cards[0] == cards[1] and rules["max_split_hands"] >= 2:
        play = max(play, _split_value(cards[0], up, unseen, rules, decide))
    return p_nat * on_natural + (1 - p_nat) * play


def chart_decide(chart, rules):
    """Decisions from a chart dict ``(row, up) -> letters`` (rows 'hard 16', 'soft 18',
    'pair 8'; up '2'..'10', 'A')."""

    def row_letters(cards, up):
        t, soft = total(cards)
        return chart[(f"{'soft' if soft else 'hard'} {t}", _up(up))]

    def decide(cards, up, allowed, split, unseen):
        letters = None
        if len(cards) == 2 and cards[0] == cards[1]:
            letters = chart.get((f"pair {_rank(cards[0])}", _up(up)))
            if letters is not None and letters.upper().startswith("P"):
                letters = {"P": None, "PH": "H", "PS": "S", "PD": "D"}[letters.upper()]
            elif letters is not None and letters.upper() == "RP":
                letters = "R" if "R" in allowed else None
        if letters is None:
            letters = row_letters(cards, up)
        return _apply(letters.upper(), allowed)

    def split_decide(rank, up, unseen, early, cards=None):
        if cards is None:
            cards = [rank, rank]
        pair = cards[0] == cards[1]
        letters = chart.get((f"pair {_rank(cards[0])}", _up(up))) if pair else None
        if early:
            if letters is None:
                letters = row_letters(cards, up)
            letters = letters.upper()
            if letters in ("R", "RH", "RS", "RP"):
                return "R"
            if letters.startswith("P") or letters in ("H", "S", "D", "DH", "DS"):
                return None
            return None
        if letters is None:
            return None
        letters = letters.upper()
        if letters == "P":
            return "P"
        if letters in ("PH", "PS", "PD"):
            return "P" if rules["double_after_split"] else None
        if letters == "RP":
            return None if can_surrender_late(rules, cards, False, up) else "P"
        return None

    return decide, split_decide


def _apply(letters, allowed):
    first = letters[0]
    fallback = letters[1] if len(letters) > 1 else "H"
    if first in "HS":
        return first
    if first in allowed:
        return first
    return fallback


def _up(up):
    return "A" if up == 1 else str(up)


def _rank(rank):
    return "A" if rank == 1 else str(rank)


def chart_ev(shoe, rules, chart):
    decide, split_decide = chart_decide(chart, rules)
    return round_ev(shoe, rules, decide, split_decide)


# ---------------------------------------------------------------------------------------
# The distribution of the round's net result
# ---------------------------------------------------------------------------------------


class Dist(dict):
    """A distribution {outcome: probability} that adds and scales like a number, so the
    recursions above carry it unchanged."""

    def __add__(self, other):
        out = Dist(self)
        if isinstance(other, dict):
            for k, v in other.items():
                out[k] = out.get(k, 0.0) + v
        elif other != 0:
            raise TypeError("a distribution adds only distributions")
        return out

    __radd__ = __add__

    def __rmul__(self, p):
        return Dist({k: p * v for k, v in self.items()})

    __mul__ = __rmul__


def _settle_distribution(hands, up, hole, shoe, rules):
    """{(net result, number of hands): probability} once every hand is played."""
    fixed = sum(-0.5 for h in hands if h.get("surrendered"))
    live = [h for h in hands if not h.get("surrendered")]
    if not live:
        return Dist({(fixed, len(hands)): 1.0})
    out = Dist()
    for d, q in dealer_outcomes((up, hole), shoe, rules["dealer_hits_soft_17"]).items():
        net = fixed + sum(h["bet"] * settle(h, d, rules) for h in live)
        key = (net, len(hands))
        out[key] = out.get(key, 0.0) + q
    return out


def chart_distribution(shoe, rules, chart):
    """{(net result, kind): probability} of a round played by ``chart``; kind is "natural"
    (a player Natural paid), "split" (split once: two hands), "resplit" (three or more
    hands) or "plain"."""
    return _distribution(shoe, rules, *chart_decide(chart, rules))


def _distribution(shoe, rules, decide, split_decide):
    out = Dist()
    for c1, p1, s1 in draws(shoe):
        for c2, p2, s2 in draws(s1):
            for up, p3, s3 in draws(s2):
                for hole, p4, s4 in draws(s3):
                    part = _deal_distribution([c1, c2], up, hole, s4, rules, decide, split_decide)
                    out = out + (p1 * p2 * p3 * p4) * part
    return out


def _deal_distribution(cards, up, hole, shoe, rules, decide, split_decide):
    dealer_natural = sorted([up, hole]) == [1, 10]
    player_natural = is_natural(cards, False)
    unseen = _add(shoe, hole)
    if early_surrender(rules, up) and not player_natural:
        if _root_choice(cards, up, unseen, rules, split_decide, decide, early=True) == "R":
            return Dist({(-0.5, "plain"): 1.0})
    if dealer_natural and rules["peek"]:
        return Dist({(0.0 if player_natural else -1.0, "plain"): 1.0})
    hands = [{"cards": list(cards), "split": False, "bet": 1.0, "done": False}]
    kind = "plain"
    if cards[0] == cards[1] and rules["max_split_hands"] >= 2:
        if split_decide(cards[0], up, unseen, False) == "P":
            kind = "split"
            hands = [
                {"cards": [cards[0]], "split": True, "bet": 1.0, "done": False},
                {"cards": [cards[1]], "split": True, "bet": 1.0, "done": False},
            ]
    played = _play(hands, 0, up, hole, shoe, rules, decide, _settle_distribution)
    out = Dist()
    for (net, n_hands), q in played.items():
        paid = player_natural and net == rules["natural_pays"] and net != 0.0
        if paid:
            key = (net, "natural")
        elif kind == "split" and n_hands > 2:
            key = (net, "resplit")
        else:
            key = (net, kind)
        out[key] = out.get(key, 0.0) + q
    return out
