"""Exact analysis of 21st Century Baccarat: player/dealer banked, jokers wild, options on 5 and 6.

Central idea
------------
One numba kernel, :func:`count_deals_modulo`, enumerates every deal heads-up (the P/D's up card and
hole card, the player's two cards, then *both* branches of every decision: the player's draw
or stand, and the P/D's draw or stand), weighting each card sequence by its exact number of
ways to be drawn without replacement and completing it to six cards. It returns counts that do
not depend on anybody's strategy:

* ``concluded[up, player hand, outcome]``: deals settled before any draw (a joker up card,
  or a P/D two-card 9 or Natural);
* ``drawn[up, player hand, player action, P/D total, P/D action, outcome]``: deals that reach
  the draw, split by the decisions taken.

A strategy assigns each decision a probability of drawing, so the player's EV under *any*
pair of strategies (House Way, best responses, mixed equilibria) is a small tensor contraction
of these counts: exact rationals for pure strategies, floats for mixed ones. The advantage
chart, the best responses and the option game are all such contractions, so the whole
analysis costs one enumeration. The option game is solved in sequence form: each side
decides once a round, so its payoff is bilinear in the two sides' draw probabilities
(:class:`OptionGame`), and its equilibrium a linear program of three variables an option
total, whatever their number.

Readings of the rule card (seed 000) are in ``RULES.md`` (section c21_baccarat) and are rule
parameters here: the P/D wins ties on zero; a joker makes any hand 9; two jokers are a Natural
that beats every 9; a joker up card concludes the deal; a P/D two-card 9 concludes it.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd
from scipy.optimize import linprog

from gamecore import economics
from gamecore._jit import kernel
from gamecore.c21_baccarat.rules import (
    HAND_LABELS,
    JOKER,
    JOKER_NINE,
    OUTCOMES,
    PAYOFF,
    PLAYER_HANDS,
    C21BaccaratRules,
    c21_shoe,
    check_composition,
)
from gamecore.c21_baccarat.strategies import (
    DealerStrategy,
    PlayerStrategy,
    dealer_strategy,
    dealer_tensor,
    house_way_dealer,
    house_way_player,
    player_strategy,
    player_tensor,
)
from gamecore.errors import GamecoreError
from gamecore.exactcount import addmod, exact_counts, mulmod
from gamecore.shoe import ordered_sequences

#: Indices of :data:`OUTCOMES`, in its order.
(_WIN_NATURAL, _PUSH_NATURALS, _LOSS_PD_NATURAL, _WIN, _PUSH, _LOSS_ZERO_TIE, _LOSS) = range(7)


# ---------------------------------------------------------------------------------------
# Kernel
# ---------------------------------------------------------------------------------------


@kernel
def settle(player, player_natural, pd, pd_natural, pd_wins_ties_on_zero):
    """Outcome index (into :data:`OUTCOMES`) of a final player hand against the P/D's."""
    if player_natural and pd_natural:
        return _PUSH_NATURALS
    if player_natural:
        return _WIN_NATURAL
    if pd_natural:
        return _LOSS_PD_NATURAL
    if player > pd:
        return _WIN
    if player < pd:
        return _LOSS
    if player == 0 and pd_wins_ties_on_zero:
        return _LOSS_ZERO_TIE
    return _PUSH


@kernel
def count_deals_modulo(shoe, pd_wins_ties_on_zero, modulus):
    """Enumerate every heads-up deal; see the module docstring.

    Returns (concluded int64[11, 12, 7], drawn int64[10, 12, 2, 9, 2, 7]).
    """
    concluded = np.zeros((11, 12, 7), dtype=np.int64)
    drawn = np.zeros((10, 12, 2, 9, 2, 7), dtype=np.int64)
    cards = shoe.copy()
    n = cards.sum()
    fill_after_four = mulmod(n - 4, n - 5, modulus)
    fill_after_five = mulmod(n - 5, 1, modulus)
    for up in range(11):
        if cards[up] == 0:
            continue
        w_up = mulmod(cards[up], 1, modulus)
        cards[up] -= 1
        for hole in range(11):
            if cards[hole] == 0:
                continue
            w_hole = mulmod(w_up, cards[hole], modulus)
            cards[hole] -= 1
            pd_joker = up == 10 or hole == 10
            pd_natural = up == 10 and hole == 10
            pd_total = 9 if pd_joker else (up + hole) % 10
            # The player's two cards as an unordered pair (either order: twice the ways).
            for p1 in range(11):
                if cards[p1] == 0:
                    continue
                w1 = mulmod(w_hole, cards[p1], modulus)
                cards[p1] -= 1
                for p2 in range(p1, 11):
                    if cards[p2] == 0:
                        continue
                    w = mulmod(w1, cards[p2] * (1 if p2 == p1 else 2), modulus)
                    cards[p2] -= 1
                    if p1 == 10 and p2 == 10:
                        hand, player, player_natural = 11, 9, True
                    elif p1 == 10 or p2 == 10:
                        hand, player, player_natural = 10, 9, False
                    else:
                        hand, player, player_natural = (p1 + p2) % 10, (p1 + p2) % 10, False
                    if up == 10 or pd_total == 9:
                        # A joker up card, or a P/D two-card 9 or Natural: no one draws.
                        o = settle(
                            player, player_natural, pd_total, pd_natural, pd_wins_ties_on_zero
                        )
                        concluded[up, hand, o] = addmod(
                            concluded[up, hand, o], mulmod(w, fill_after_four, modulus), modulus
                        )
                    else:
                        # Player stands; the P/D stands or draws.
                        o = settle(player, player_natural, pd_total, False, pd_wins_ties_on_zero)
                        drawn[up, hand, 0, pd_total, 0, o] = addmod(
                            drawn[up, hand, 0, pd_total, 0, o],
                            mulmod(w, fill_after_four, modulus),
                            modulus,
                        )
                        for d3 in range(11):
                            if cards[d3] == 0:
                                continue
                            pd3 = 9 if d3 == 10 else (pd_total + d3) % 10
                            o = settle(player, player_natural, pd3, False, pd_wins_ties_on_zero)
                            drawn[up, hand, 0, pd_total, 1, o] = addmod(
                                drawn[up, hand, 0, pd_total, 1, o],
                                mulmod(mulmod(w, cards[d3], modulus), fill_after_five, modulus),
                                modulus,
                            )
                        # Player draws (hands holding a joker are 9s and never draw).
                        if hand < 10:
                            for p3 in range(11):
                                if cards[p3] == 0:
                                    continue
                                w3 = mulmod(w, cards[p3], modulus)
                                cards[p3] -= 1
                                player3 = 9 if p3 == 10 else (player + p3) % 10
                                o = settle(player3, False, pd_total, False, pd_wins_ties_on_zero)
                                drawn[up, hand, 1, pd_total, 0, o] = addmod(
                                    drawn[up, hand, 1, pd_total, 0, o],
                                    mulmod(w3, fill_after_five, modulus),
                                    modulus,
                                )
                                for d3 in range(11):
                                    if cards[d3] == 0:
                                        continue
                                    pd3 = 9 if d3 == 10 else (pd_total + d3) % 10
                                    o = settle(player3, False, pd3, False, pd_wins_ties_on_zero)
                                    drawn[up, hand, 1, pd_total, 1, o] = addmod(
                                        drawn[up, hand, 1, pd_total, 1, o],
                                        mulmod(w3, cards[d3], modulus),
                                        modulus,
                                    )
                                cards[p3] += 1
                    cards[p2] += 1
                cards[p1] += 1
            cards[hole] += 1
        cards[up] += 1
    return concluded, drawn


# ---------------------------------------------------------------------------------------
# Analysis
# ---------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class StrategyPairResult:
    """Exact result of one player strategy against one P/D strategy, heads-up."""

    player: str
    dealer: str
    outcome_probabilities: dict[str, Any]  # (reason, outcome) -> probability
    player_ev: Any

    @property
    def sd(self) -> float:
        second = sum(
            p for (_, o), p in self.outcome_probabilities.items() if PAYOFF[OUTCOMES.index(o)] != 0
        )
        return math.sqrt(float(second) - float(self.player_ev) ** 2)

    def result_distribution(self) -> dict[int, Any]:
        """{player's net result per unit: probability} (exact for pure strategies)."""
        out: dict[int, Any] = {}
        for (_, outcome), p in self.outcome_probabilities.items():
            net = int(PAYOFF[OUTCOMES.index(outcome)])
            out[net] = out.get(net, 0) + p
        return out

    def outcome_table(self) -> pd.DataFrame:
        rows = [
            {
                "How the deal ended": reason,
                "Outcome": outcome,
                "Player's result": int(PAYOFF[OUTCOMES.index(outcome)]),
                "Probability": float(p),
            }
            for (reason, outcome), p in self.outcome_probabilities.items()
            if p != 0
        ]
        return pd.DataFrame(rows)

    def summary(self) -> dict[str, float]:
        by_result = {1: 0.0, 0: 0.0, -1: 0.0}
        for (_, outcome), p in self.outcome_probabilities.items():
            by_result[int(PAYOFF[OUTCOMES.index(outcome)])] += float(p)
        return {
            "Player wins": by_result[1],
            "Push": by_result[0],
            "P/D wins": by_result[-1],
            "Player EV": float(self.player_ev),
            "SD": self.sd,
        }


@dataclasses.dataclass(frozen=True)
class C21Analysis:
    """Strategy-free exact counts of heads-up 21st Century Baccarat, and what they give."""

    rules: C21BaccaratRules
    concluded: np.ndarray  # object (11, 12, 7)
    drawn: np.ndarray  # object (10, 12, 2, 9, 2, 7)
    total: int

    # -- sums over outcomes ---------------------------------------------------------------

    @functools.cached_property
    def _net(self) -> np.ndarray:
        """Player's net result summed over outcomes: (10, 12, 2, 9, 2) exact ints."""
        return (self.drawn * PAYOFF.astype(object)).sum(axis=-1)

    @functools.cached_property
    def _reach(self) -> np.ndarray:
        """Ways to reach the draw with (up, hand): shape (10, 12)."""
        return self.drawn[:, :, 0, :, 0, :].sum(axis=(-1, -2))

    def _concluded_net(self) -> Any:
        return (self.concluded * PAYOFF.astype(object)).sum()

    # -- evaluation -----------------------------------------------------------------------

    def evaluate(self, player: PlayerStrategy, dealer: DealerStrategy) -> StrategyPairResult:
        """The player's exact EV and outcome probabilities under a strategy pair."""
        sp = player_tensor(player)
        sd = dealer_tensor(dealer)
        weights = sp[:, :, :, None, None] * sd[:, None, :, :, :]  # (10, 12, 2, 9, 2)
        outcome_drawn = (self.drawn * weights[..., None]).sum(axis=(0, 1, 2, 3, 4))
        exact = player.draw.dtype == object and dealer.draw.dtype == object
        scale = (
            (lambda v: Fraction(int(v), self.total)) if exact else (lambda v: float(v) / self.total)
        )
        probabilities: dict[tuple[str, str], Any] = {}
        for o, outcome in enumerate(OUTCOMES):
            probabilities[("joker up card", outcome)] = scale(self.concluded[JOKER, :, o].sum())
            probabilities[("P/D two-card 9 or Natural", outcome)] = scale(
                self.concluded[:JOKER, :, o].sum()
            )
            probabilities[("drawing round", outcome)] = (
                Fraction(outcome_drawn[o]) / self.total
                if exact
                else float(outcome_drawn[o]) / self.total
            )
        ev = sum(p * int(PAYOFF[OUTCOMES.index(o)]) for (_, o), p in probabilities.items())
        return StrategyPairResult(player.name, dealer.name, probabilities, ev)

    # -- charts ---------------------------------------------------------------------------

    def hit_chart(self, dealer: DealerStrategy) -> pd.DataFrame:
        """The player's advantage chart: for every two-card hand and up card, the EV of
        drawing and of standing, conditioned on the deal reaching the draw."""
        sd = dealer_tensor(dealer)
        net = self._net
        reach = self._reach
        rows = []
        for up in range(10):
            for hand in range(PLAYER_HANDS):
                if reach[up, hand] == 0:
                    continue
                ev = [float((sd[up, a] * net[up, hand, a]).sum() / reach[up, hand]) for a in (0, 1)]
                forced = self._forced_player(hand)
                rows.append(
                    {
                        "Player hand": HAND_LABELS[hand],
                        "P/D up card": up,
                        "EV hit": ev[1] if hand < 10 else None,
                        "EV stand": ev[0],
                        "Hit - stand": ev[1] - ev[0] if hand < 10 else None,
                        "Better": ("Hit" if ev[1] > ev[0] else "Stand") if hand < 10 else "Stand",
                        "Rule": forced,
                    }
                )
        # A joker up card concludes the deal: every hand stands; its EV given that up card.
        payoff = PAYOFF.astype(object)
        for hand in range(PLAYER_HANDS):
            ways = self.concluded[JOKER, hand].sum()
            if ways:
                rows.append(
                    {
                        "Player hand": HAND_LABELS[hand],
                        "P/D up card": "joker",
                        "EV hit": None,
                        "EV stand": float((self.concluded[JOKER, hand] * payoff).sum() / ways),
                        "Hit - stand": None,
                        "Better": "Stand",
                        "Rule": "deal concluded",
                    }
                )
        return pd.DataFrame(rows)

    def _forced_player(self, hand: int) -> str:
        if hand >= 10:
            return "stands (9)" if hand == JOKER_NINE else "stands (Natural)"
        if hand <= self.rules.must_draw_max:
            return "must draw"
        if hand >= self.rules.must_stand_min:
            return "must stand"
        return "option"

    def pd_chart(self, player: PlayerStrategy) -> pd.DataFrame:
        """The P/D's chart: for each up card, P/D total and player action, the P/D's EV (per
        unit of the player's wager) of drawing and of standing, given the deal got there."""
        sp = player_tensor(player)
        net = self._net
        rows = []
        for up in range(10):
            for drew in (0, 1):
                for total in range(9):
                    weights = sp[up, :, drew]
                    reach = (weights * self.drawn[up, :, drew, total, 0, :].sum(axis=-1)).sum()
                    if reach == 0:
                        continue
                    ev = [
                        -float((weights * net[up, :, drew, total, a]).sum() / reach) for a in (0, 1)
                    ]
                    rule_text = (
                        "must draw"
                        if total <= self.rules.must_draw_max
                        else "must stand"
                        if total >= self.rules.must_stand_min
                        else "option"
                    )
                    rows.append(
                        {
                            "P/D up card": up,
                            "P/D total": total,
                            "Player drew": bool(drew),
                            "P/D EV hit": ev[1],
                            "P/D EV stand": ev[0],
                            "Hit - stand": ev[1] - ev[0],
                            "Better": "Hit" if ev[1] > ev[0] else "Stand",
                            "Rule": rule_text,
                        }
                    )
        return pd.DataFrame(rows)

    # -- best responses and the option game -----------------------------------------------

    def best_response_player(
        self, dealer: DealerStrategy, name: str | None = None
    ) -> PlayerStrategy:
        """The player's best pure response (exact comparisons; ties go to House Way)."""
        sd = dealer_tensor(dealer)
        net = self._net
        draw = house_way_player(self.rules).draw.copy().astype(object)
        for up in range(10):
            for total in self.rules.option_totals:
                hit = (sd[up, 1] * net[up, total, 1]).sum()
                stand = (sd[up, 0] * net[up, total, 0]).sum()
                if hit != stand:
                    draw[up, total] = int(hit > stand)
        return player_strategy(self.rules, name or f"best response to P/D {dealer.name}", draw)

    def best_response_dealer(
        self, player: PlayerStrategy, name: str | None = None
    ) -> DealerStrategy:
        """The P/D's best pure response (exact comparisons; ties go to House Way)."""
        sp = player_tensor(player)
        net = self._net
        draw = house_way_dealer(self.rules).draw.copy().astype(object)
        for up in range(10):
            for drew in (0, 1):
                for total in self.rules.option_totals:
                    hit = (sp[up, :, drew] * net[up, :, drew, total, 1]).sum()
                    stand = (sp[up, :, drew] * net[up, :, drew, total, 0]).sum()
                    if hit != stand:
                        draw[up, drew, total] = int(hit < stand)  # the P/D minimises
        return dealer_strategy(self.rules, name or f"best response to player {player.name}", draw)

    def option_game(self, up: int) -> OptionGame:
        """The option game at one up card in sequence form: the player's EV contribution as a
        bilinear form in the two sides' draw probabilities at the option totals
        (:class:`OptionGame`), from the same counts and strategy tensors as :meth:`evaluate`.

        The player decides once, at his two-card total, and the P/D once, at its total,
        knowing whether the player drew. So each side's strategy tensor is affine in its draw
        probabilities: term 0 stands on every option total (and plays the forced totals as
        the card says), term ``1 + i`` is what drawing at decision ``i`` changes (its weight
        moved from standing to drawing). Contracting every pair of terms with the counts, as
        :meth:`evaluate` contracts a strategy pair, gives the form's entries: exact integers,
        divided by ``total`` once.
        """
        options = list(self.rules.option_totals)
        dealer_decisions = list(itertools.product((0, 1), options))  # (player drew, total)
        house_p, house_d = house_way_player(self.rules), house_way_dealer(self.rules)
        stand_p = house_p.draw.copy()
        stand_p[:, options] = 0
        player = np.zeros((1 + len(options), PLAYER_HANDS, 2), dtype=object)
        player[0] = player_tensor(player_strategy(self.rules, "", stand_p))[up]
        for i, total in enumerate(options):
            player[1 + i, total] = (-1, 1)
        stand_d = house_d.draw.copy()
        stand_d[:, :, options] = 0
        dealer = np.zeros((1 + len(dealer_decisions), 2, 9, 2), dtype=object)
        dealer[0] = dealer_tensor(dealer_strategy(self.rules, "", stand_d))[up]
        for j, (drew, total) in enumerate(dealer_decisions):
            dealer[1 + j, drew, total] = (-1, 1)
        form = np.einsum("iha,jasb,hasb->ij", player, dealer, self._net[up]) / self.total
        return OptionGame(
            up=up,
            options=tuple(options),
            form=form.astype(float),
            player_house_way=house_p.draw[up, options].astype(float),
            dealer_house_way=np.array(
                [house_d.draw[up, drew, total] for drew, total in dealer_decisions], dtype=float
            ),
        )

    def payoff_matrix(
        self, up: int
    ) -> tuple[np.ndarray, list[tuple[int, ...]], list[tuple[int, ...]]]:
        """The option game at one up card in normal form: the player's EV contribution (per
        unit, over all deals) for each pure player choice (draw or not on each option total)
        against each pure P/D choice (draw or not on each option total, knowing whether the
        player drew).

        The matrix has 2^k by 4^k entries, k option totals, each a strategy pair's contraction
        with the counts. The analysis does not use it: it solves the same game in sequence
        form (:meth:`option_game`, 3k variables). It is kept as an independent check of that
        solution for a few option totals, and refused beyond :data:`MAX_PURE_OPTIONS`.
        """
        options = self.rules.option_totals
        if len(options) > MAX_PURE_OPTIONS:
            raise GamecoreError(
                f"the option game's payoff matrix over pure strategies has 2^{len(options)} by "
                f"4^{len(options)} entries ({len(options)} option totals); it is built for at "
                f"most {MAX_PURE_OPTIONS} (equilibrium solves the game in sequence form)"
            )
        player_pure = list(itertools.product((0, 1), repeat=len(options)))
        dealer_pure = list(itertools.product((0, 1), repeat=2 * len(options)))
        house_p = house_way_player(self.rules).draw.astype(float)
        house_d = house_way_dealer(self.rules).draw.astype(float)
        net = self._net.astype(float)
        matrix = np.zeros((len(player_pure), len(dealer_pure)))
        for i, choice_p in enumerate(player_pure):
            draw_p = house_p.copy()
            draw_p[up, list(options)] = choice_p
            sp = player_tensor(PlayerStrategy("", draw_p))[up]
            for j, choice_d in enumerate(dealer_pure):
                draw_d = house_d.copy()
                draw_d[up, 0, list(options)] = choice_d[: len(options)]
                draw_d[up, 1, list(options)] = choice_d[len(options) :]
                sd = dealer_tensor(DealerStrategy("", draw_d))[up]
                matrix[i, j] = (sp[:, :, None, None] * sd[None] * net[up]).sum() / self.total
        return matrix, player_pure, dealer_pure

    def equilibrium(self) -> tuple[PlayerStrategy, DealerStrategy, float]:
        """Solve the option game by linear programming, one up card at a time, in sequence
        form (:meth:`option_game`, :meth:`OptionGame.solve`).

        Returns the player's and the P/D's equilibrium strategies (behavioural: the
        probability of drawing at each decision) and the game's value (player EV).
        """
        draw_p = house_way_player(self.rules).draw.astype(float)
        draw_d = house_way_dealer(self.rules).draw.astype(float)
        value = float(self._concluded_net()) / self.total
        for up in range(10):
            game = self.option_game(up)
            x, y, game_value = game.solve()
            value += game_value
            options, k = list(game.options), len(game.options)
            draw_p[up, options] = x
            draw_d[up, 0, options] = y[:k]
            draw_d[up, 1, options] = y[k:]
        return (
            player_strategy(self.rules, "equilibrium", np.round(draw_p, 12)),
            dealer_strategy(self.rules, "equilibrium", np.round(draw_d, 12)),
            value,
        )

    def equilibrium_check(self) -> pd.DataFrame:
        """Neither side gains by deviating from the equilibrium: each side's best response to
        the other's equilibrium strategy, against the equilibrium value."""
        eq_p, eq_d, value = self.equilibrium()
        at_equilibrium = float(self.evaluate(eq_p, eq_d).player_ev)
        player_deviates = float(self.evaluate(self.best_response_player(eq_d), eq_d).player_ev)
        dealer_deviates = float(self.evaluate(eq_p, self.best_response_dealer(eq_p)).player_ev)
        return pd.DataFrame(
            [
                {"Check": "value of the linear programs", "Player EV": value},
                {"Check": "equilibrium strategies played", "Player EV": at_equilibrium},
                {
                    "Check": "player's best response to the P/D's equilibrium",
                    "Player EV": player_deviates,
                },
                {
                    "Check": "P/D's best response to the player's equilibrium",
                    "Player EV": dealer_deviates,
                },
            ]
        )

    def strategy_table(self) -> pd.DataFrame:
        """The player's EV under House Way, each side's best response, and the equilibrium."""
        hp, hd = house_way_player(self.rules), house_way_dealer(self.rules)
        player_br = self.best_response_player(hd)
        dealer_br = self.best_response_dealer(hp)
        eq_p, eq_d, value = self.equilibrium()
        rows = []
        for label, key, p, d in [
            ("House Way against House Way", "house_way", hp, hd),
            ("Player best response against P/D House Way", "player_best_response", player_br, hd),
            ("P/D best response against player House Way", "pd_best_response", hp, dealer_br),
            ("Equilibrium (optimal option strategies)", "equilibrium", eq_p, eq_d),
        ]:
            result = self.evaluate(p, d)
            rows.append({"Strategies": label, "Key": key, **result.summary()})
        frame = pd.DataFrame(rows)
        frame.attrs["equilibrium_value"] = value
        return frame

    def to_dict(self) -> dict[str, Any]:
        """The stable JSON schema documented in the README."""
        table = self.strategy_table().set_index("Key")
        chart = self.hit_chart(house_way_dealer(self.rules))
        return {
            "game": self.rules.game,
            "total_combinations": int(self.total),
            "strategies": {
                key: {
                    "player_ev": float(row["Player EV"]),
                    "sd": float(row["SD"]),
                    "player_wins": float(row["Player wins"]),
                    "push": float(row["Push"]),
                    "pd_wins": float(row["P/D wins"]),
                }
                for key, row in table.iterrows()
            },
            "hit_chart": [
                {
                    "player_total": int(r["Player hand"]),
                    "up_card": r["P/D up card"]
                    if r["P/D up card"] == "joker"
                    else int(r["P/D up card"]),
                    "ev_hit": None if pd.isna(r["EV hit"]) else float(r["EV hit"]),
                    "ev_stand": float(r["EV stand"]),
                    "better": r["Better"],
                    "rule": r["Rule"],
                }
                for _, r in chart.iterrows()
                if r["Player hand"].isdigit()
            ],
            "rules": self.rules.to_dict(),
        }


# ---------------------------------------------------------------------------------------
# The option game
# ---------------------------------------------------------------------------------------

#: The most option totals :meth:`C21Analysis.payoff_matrix` builds its pure-strategy matrix
#: for: 2^k by 4^k entries, each a contraction with the counts in Python, 8^k in all (k = 5:
#: 32,768 entries an up card; k = 8, the widest options the rule set takes, 16.8 million).
MAX_PURE_OPTIONS = 5


@dataclasses.dataclass(frozen=True)
class OptionGame:
    """The option game at one P/D up card in sequence form (behaviour strategies).

    ``x[i]`` is the player's probability of drawing on the option total ``options[i]``,
    ``y[j]`` the P/D's at its decision ``j``: on each option total after the player stood,
    then on each after he drew. The player's EV contribution (per unit, over every deal with
    this up card) is bilinear in them (Koller, Megiddo and von Stengel 1994; von Stengel
    1996)::

        [1, x] @ form @ [1, y] = const + g @ x + h @ y + x @ m @ y,  form = [[const, h], [g, m]]

    so each side's best reply is taken one decision at a time, and the game's minimax is a
    linear program of 3k variables, k option totals, where the normal form
    (:meth:`C21Analysis.payoff_matrix`) has 2^k by 4^k pure strategies.
    """

    up: int
    options: tuple[int, ...]
    form: np.ndarray  # float (1 + k, 1 + 2k)
    player_house_way: np.ndarray  # float (k,): House Way at the player's decisions
    dealer_house_way: np.ndarray  # float (2k,): and at the P/D's

    @property
    def scale(self) -> float:
        """The largest coefficient the linear programs see (``g``, ``h``, ``m``: the constant
        is added apart); 0 when no decision changes any deal's result."""
        coefficients = self.form.copy()
        coefficients[0, 0] = 0.0
        return float(np.abs(coefficients).max())

    def secured_by_player(self, x: np.ndarray) -> float:
        """What the options add to ``const`` (the EV contribution of standing on every
        option) when the player draws with probabilities ``x`` and the P/D replies at best: at
        its decision ``j`` drawing changes the player's EV by ``h[j] + (x @ m)[j]``, so the
        P/D draws where that is negative. Apart from ``const``, which can be far larger than
        the options' coefficients and would round them away."""
        g, h, m = self.form[1:, 0], self.form[0, 1:], self.form[1:, 1:]
        return float(g @ x + np.minimum(0.0, h + x @ m).sum())

    def secured_by_dealer(self, y: np.ndarray) -> float:
        """What the options add to ``const`` when the P/D draws with probabilities ``y`` and
        the player replies at best: at his decision ``i`` drawing changes his EV by
        ``g[i] + (m @ y)[i]``, so he draws where that is positive."""
        g, h, m = self.form[1:, 0], self.form[0, 1:], self.form[1:, 1:]
        return float(h @ y + np.maximum(0.0, g + m @ y).sum())

    def solve(self) -> tuple[np.ndarray, np.ndarray, float]:
        """The equilibrium ``(x, y, value)``: each side's linear program solved by HiGHS on the
        form divided by :attr:`scale` (:data:`LP_FEASIBILITY_TOLERANCE` says why), and the
        value the player's strategy secures checked against the value the P/D's secures
        (:func:`check_values_agree`).

        A decision that changes no deal's result (its row or column of the form is zero: no
        deal with this up card reaches it) is held at House Way, as the best responses keep
        House Way on a tie; where none does, the game is its forced play and House Way.
        """
        k = len(self.options)
        scale = self.scale
        if scale == 0:
            return (
                self.player_house_way.copy(),
                self.dealer_house_way.copy(),
                float(self.form[0, 0]),
            )
        normal = self.form / scale
        g, h, m = normal[1:, 0], normal[0, 1:], normal[1:, 1:]
        player_moves = (normal[1:] != 0).any(axis=1)
        dealer_moves = (normal[:, 1:] != 0).any(axis=0)
        # The player's program: maximise g x + sum z over x in [0, 1], each z_j at most the
        # P/D's best reply at decision j, min(0, h_j + (x m)_j).
        x = _solve_program(
            self.up,
            -np.concatenate([g, np.ones(2 * k)]),
            np.hstack([-m.T, np.eye(2 * k)]),
            h,
            _decision_bounds(self.player_house_way, player_moves) + [(None, 0.0)] * (2 * k),
        )[:k]
        # The P/D's: minimise h y + sum w over y in [0, 1], each w_i at least the player's
        # best reply at decision i, max(0, g_i + (m y)_i). The two programs are each other's
        # duals; they are solved apart, and what each strategy secures is checked below.
        y = _solve_program(
            self.up,
            np.concatenate([h, np.ones(k)]),
            np.hstack([m, -np.eye(k)]),
            -g,
            _decision_bounds(self.dealer_house_way, dealer_moves) + [(0.0, None)] * k,
        )[: 2 * k]
        x, y = np.clip(x, 0.0, 1.0), np.clip(y, 0.0, 1.0)
        secured = self.secured_by_player(x)
        check_values_agree(self.up, secured, self.secured_by_dealer(y), scale)
        return x, y, float(self.form[0, 0] + secured)


def _decision_bounds(house_way: np.ndarray, moves: np.ndarray) -> list[tuple[float, float]]:
    """A probability of drawing in [0, 1] at each decision; House Way at one that changes
    nothing (where any answer is as good, and the solver's would be arbitrary)."""
    return [
        (0.0, 1.0) if move else (float(hw), float(hw))
        for hw, move in zip(house_way, moves, strict=True)
    ]


def _solve_program(up: int, objective, inequality, bound, bounds) -> np.ndarray:
    """Minimise ``objective @ v`` subject to ``inequality @ v <= bound`` and ``bounds``, by
    HiGHS at :data:`LP_FEASIBILITY_TOLERANCE`; a program it cannot solve is refused."""
    solution = linprog(
        objective,
        A_ub=inequality,
        b_ub=bound,
        bounds=bounds,
        method="highs",
        options={
            "primal_feasibility_tolerance": LP_FEASIBILITY_TOLERANCE,
            "dual_feasibility_tolerance": LP_FEASIBILITY_TOLERANCE,
        },
    )
    if not solution.success:
        raise GamecoreError(
            f"the option game at P/D up card {up}: its linear program failed: {solution.message}"
        )
    return solution.x


#: HiGHS's primal and dual feasibility tolerances for the option game's linear programs, as
#: documented (scipy.optimize.linprog, method "highs": 1e-7 each by default), passed
#: explicitly so the check below and the solver share them. They are absolute, so
#: :meth:`OptionGame.solve` hands HiGHS the form divided by its largest coefficient: a game
#: of coefficients of order one, whatever the shoe. (Unscaled, a shoe almost all jokers made
#: a game of entries near 1e-5, solved only to 1e-7 of its own size: the two programs' values
#: one part in 10^5 apart.) HiGHS also reads entries up to 1e-9 of that largest one as zero
#: (its ``small_matrix_value``), a change of the value below 1e-9 of the same scale. Tighter
#: tolerances were not kept by HiGHS on every shoe when the game was solved in normal form
#: (:func:`solve_zero_sum`): at 1e-10 some programs stopped unsolved, at 1e-9 some ended 2e-8
#: apart.
LP_FEASIBILITY_TOLERANCE = 1e-7

#: How far apart the values the two programs' strategies secure may lie (the player's against
#: the P/D's best reply at each of its decisions, the P/D's against the player's), as a
#: fraction of the game's largest coefficient. Exactly, the first is at most the game's value
#: and the second at least, so their distance bounds how far either strategy is from optimal.
#: Four feasibility tolerances, the allowance the normal form's two programs had (each optimal
#: to within its primal and its dual tolerance, the two solved apart). Measured on 47,340
#: option games (every legal option range, 45 of them, on 8 deck counts from 1 to 1000 by 5
#: joker counts by both readings of a tie on zero; and on 60 random shoes of 0 to 10^7 cards
#: a class): at most 7.8e-8 apart, on full shoes within 2e-15.
LP_AGREEMENT = 4 * LP_FEASIBILITY_TOLERANCE


def check_values_agree(up: int, player_value: float, dealer_value: float, scale: float) -> None:
    """Refuse an option game whose two linear programs disagree on its value by more than
    :data:`LP_AGREEMENT` of ``scale`` (the game's largest coefficient): the solver failed,
    and no equilibrium it gave could be trusted. The values are what each program's strategy
    secures against the other side's best reply (:meth:`OptionGame.solve`).

    The values HiGHS gave for a shoe almost all jokers before the game was normalised,
    one part in 10^5 apart, are refused; values within the tolerance of the scale pass:

    >>> check_values_agree(0, 4.5788966e-05, 4.5788966e-05 + 1e-11, scale=4.6e-05)
    >>> check_values_agree(0, 4.578896614469305e-05, 4.5788513865615576e-05, scale=4.6e-05)
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    gamecore.errors.GamecoreError: the option game at P/D up card 0: ... 1.84e-11 apart ...
    """
    tolerance = LP_AGREEMENT * scale
    if not abs(player_value - dealer_value) <= tolerance:  # NaN too
        raise GamecoreError(
            f"the option game at P/D up card {up}: its two linear programs give values "
            f"{player_value!r} and {dealer_value!r}, more than {tolerance:.3g} apart "
            f"({LP_AGREEMENT:.3g} of the payoffs' scale {scale:.3g}); no equilibrium can be "
            "given for this shoe"
        )


def solve_zero_sum(matrix: np.ndarray) -> tuple[np.ndarray, float]:
    """Maximin mixed strategy of the row player of ``matrix`` (rows maximise) and the game's
    value, solved by HiGHS on the matrix divided by its largest entry: the normal form's
    solution (:meth:`C21Analysis.payoff_matrix`), a check of the sequence form's; a matrix
    of zeros is refused."""
    rows, columns = matrix.shape
    scale = float(np.abs(matrix).max())
    if not scale > 0:
        raise GamecoreError("solve_zero_sum needs a payoff matrix with a nonzero entry")
    # Variables: x (rows), v. Maximise v subject to x^T A[:, j] >= v, sum x = 1, x >= 0.
    objective = np.zeros(rows + 1)
    objective[-1] = -1.0
    inequality = np.hstack([-matrix.T / scale, np.ones((columns, 1))])
    equality = np.zeros((1, rows + 1))
    equality[0, :rows] = 1.0
    solution = linprog(
        objective,
        A_ub=inequality,
        b_ub=np.zeros(columns),
        A_eq=equality,
        b_eq=[1.0],
        bounds=[(0, 1)] * rows + [(None, None)],
        method="highs",
        options={
            "primal_feasibility_tolerance": LP_FEASIBILITY_TOLERANCE,
            "dual_feasibility_tolerance": LP_FEASIBILITY_TOLERANCE,
        },
    )
    if not solution.success:
        raise GamecoreError(f"the option game's linear program failed: {solution.message}")
    return solution.x[:rows], float(solution.x[-1]) * scale


def count_deals(rules: C21BaccaratRules, composition: Any = None) -> C21Analysis:
    """Exact strategy-free counts for a rule set (or a given remaining composition)."""
    if not isinstance(rules, C21BaccaratRules):
        raise GamecoreError(f"rules must be C21BaccaratRules, got {type(rules).__name__}")
    if composition is None:
        shoe = c21_shoe(rules.decks, rules.jokers_per_deck)
    else:
        shoe = check_composition(composition)
    total = ordered_sequences(int(shoe.sum()), 6)
    arrays = exact_counts(
        lambda m: np.concatenate(
            [a.ravel() for a in count_deals_modulo(shoe, rules.pd_wins_ties_on_zero, np.int64(m))]
        ),
        total,
    )
    size = 11 * PLAYER_HANDS * 7
    concluded = arrays[:size].reshape(11, PLAYER_HANDS, 7)
    drawn = arrays[size:].reshape(10, PLAYER_HANDS, 2, 9, 2, 7)
    return C21Analysis(rules, concluded, drawn, total)


exact = count_deals


# ---------------------------------------------------------------------------------------
# Multi-spot play and table economics
# ---------------------------------------------------------------------------------------


def multi_spot_table(
    analysis: C21Analysis, chosen: PlayerStrategy, spots: range = range(1, 4)
) -> pd.DataFrame:
    """A player on several spots plays one by choice (``chosen``), the rest House Way.

    Against a P/D on House Way, whose play does not depend on the players' actions, every
    spot's EV is exactly its heads-up EV, so the total is a weighted sum. Returns
    Spots | EV of the chosen spot | EV of each House Way spot | EV per unit over all spots.
    """
    dealer = house_way_dealer(analysis.rules)
    played = float(analysis.evaluate(chosen, dealer).player_ev)
    house = float(analysis.evaluate(house_way_player(analysis.rules), dealer).player_ev)
    return pd.DataFrame(
        [
            {
                "Spots": k,
                "EV of the spot played by choice": played,
                "EV of each House Way spot": house,
                "EV per unit wagered over all spots": (played + (k - 1) * house) / k,
            }
            for k in spots
        ]
    )


def collection_table(rules: C21BaccaratRules, wagers: Any = None) -> pd.DataFrame:
    """The collection as a cost in % of the wager, across wager sizes from the table's limits."""
    if wagers is None:
        low, high = rules.table_minimum, rules.table_maximum
        wagers = sorted(
            {w for w in (low, 2 * low, 2.5 * low, 5 * low, 7.5 * low, high) if low <= w <= high}
        )
    return economics.collection_table(rules.collection, wagers)


def table_economics(
    rules: C21BaccaratRules, player_ev: Any, wager: float, players: range = range(1, 9)
) -> pd.DataFrame:
    """Expected money per hand at a table of equal bets (:func:`gamecore.economics.table_economics`)
    with the rule set's collection; ``player_ev`` is heads-up (under House Way for the P/D it
    holds for every seat)."""
    return economics.table_economics(player_ev, wager, rules.collection, players)


def sweep(
    rules: C21BaccaratRules, decks: Any = (1, 2, 4, 6, 8), jokers: Any = (0, 1, 2)
) -> pd.DataFrame:
    """Player EV under House Way, the best responses and the equilibrium, by decks and
    jokers per deck."""
    rows = []
    for d in decks:
        for j in jokers:
            table = count_deals(rules.replace(decks=d, jokers_per_deck=j)).strategy_table()
            row = {"Decks": d, "Jokers per deck": j}
            for _, r in table.iterrows():
                row[f"{r['Key']} player EV"] = r["Player EV"]
            rows.append(row)
    return pd.DataFrame(rows)
