"""Exact analysis of 21st Century Baccarat: player/dealer banked, jokers wild, options on 5 and 6.

Central idea
------------
One enumeration of every heads-up deal (:func:`gamecore.c21_baccarat.deals.count_deals_modulo`)
takes *both* branches of every decision, the player's draw or stand and the P/D's, so its
counts do not depend on anybody's strategy:

* ``concluded[up, player hand, outcome]``: deals settled before any draw (a joker up card,
  or a P/D two-card 9 or Natural);
* ``drawn[up, player hand, player action, P/D total, P/D action, outcome]``: deals that reach
  the draw, split by the decisions taken.

A strategy assigns each decision a probability of drawing, so the player's EV under *any*
pair of strategies (House Way, best responses, mixed equilibria) is a small tensor contraction
of these counts (:class:`C21Analysis`): exact rationals for pure strategies, floats for mixed
ones. The advantage charts, the best responses and the option game
(:mod:`gamecore.c21_baccarat.option_game`) are all such contractions, so the whole analysis
costs one enumeration.

Readings of the rule card (seed 000) are in ``RULES.md`` (section c21_baccarat) and are rule
parameters here: the P/D wins ties on zero; a joker makes any hand 9; two jokers are a Natural
that beats every 9; a joker up card concludes the deal; a P/D two-card 9 concludes it.
"""

from __future__ import annotations

import dataclasses
import functools
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from gamecore.c21_baccarat.deals import count_deals_modulo
from gamecore.c21_baccarat.option_game import OptionGame, normal_form, sequence_form
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
    check_rules,
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
from gamecore.c21_baccarat.strategy_pair import StrategyPairResult
from gamecore.exactcount import exact_counts
from gamecore.shoe import ordered_sequences

# ---------------------------------------------------------------------------------------
# Analysis
# ---------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class C21Analysis:
    """Strategy-free exact counts of heads-up 21st Century Baccarat, and what they give.

    Attributes
    ----------
    rules
        The rule set counted (its option totals, House Way, the reading of ties on zero).
    concluded
        object (11, 12, 7) of Python ints: ``[up card, player hand, outcome]``, the deals
        settled before any draw (a joker up card, or a P/D two-card 9 or Natural).
    drawn
        object (10, 12, 2, 9, 2, 7): ``[up card, player hand, player draws, P/D total, P/D
        draws, outcome]``, the deals that reach the draw, both branches of both decisions.
    total
        Every deal's ways (``N P 6`` for ``N`` cards): probabilities are counts over it.
    """

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
        """The player's exact EV and outcome probabilities under a strategy pair: the counts
        contracted with the two strategies' probabilities of each branch.

        Parameters
        ----------
        player : PlayerStrategy
            The player's probability of drawing at each (up card, two-card total).
        dealer : DealerStrategy
            The P/D's at each (up card, player drew, P/D total).

        Returns
        -------
        StrategyPairResult
            Probabilities of each (how the deal ended, outcome) and the player's EV per unit
            wagered: Fractions when both strategies are exact (object arrays of 0 and 1),
            floats otherwise.
        """
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
        total = self.total if exact else None  # pure strategies: counts of card sequences
        return StrategyPairResult(player.name, dealer.name, probabilities, ev, total)

    # -- charts ---------------------------------------------------------------------------

    def hit_chart(self, dealer: DealerStrategy) -> pd.DataFrame:
        """The player's advantage chart: for every two-card hand and up card, the EV of
        drawing and of standing, conditioned on the deal reaching the draw.

        Parameters
        ----------
        dealer : DealerStrategy
            The P/D's strategy the player's draw is played against.

        Returns
        -------
        pandas.DataFrame
            One row per (Player hand, P/D up card) that can reach the draw: EV hit, EV stand
            (per unit, floats; None to hit a hand holding a joker, which never draws),
            Hit - stand, Better, and Rule (must draw, option, must stand, stands); then a row
            per hand under a joker up card, which concludes the deal.
        """
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
        unit of the player's wager) of drawing and of standing, given the deal got there.

        Parameters
        ----------
        player : PlayerStrategy
            The player's strategy, which weighs the player hands behind each P/D decision.

        Returns
        -------
        pandas.DataFrame
            One row per (P/D up card, P/D total, Player drew) the deal can reach: P/D EV hit,
            P/D EV stand (floats), Hit - stand, Better and Rule.
        """
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
        """The player's best pure response to a P/D strategy, decided at each option total
        by exact comparison of the EVs of drawing and standing (ties go to House Way).

        Parameters
        ----------
        dealer : DealerStrategy
            The P/D's strategy responded to.
        name : str, optional
            The strategy's name (default: "best response to P/D" and the dealer's name).

        Returns
        -------
        PlayerStrategy
            Exact (object array of 0 and 1); forced totals as the rule set says.
        """
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
        """The P/D's best pure response to a player strategy, decided at each option total,
        after the player stood and after he drew, by exact comparison (ties go to House Way).

        Parameters
        ----------
        player : PlayerStrategy
            The player's strategy responded to.
        name : str, optional
            The strategy's name (default: "best response to player" and the player's name).

        Returns
        -------
        DealerStrategy
            Exact (object array of 0 and 1), minimising the player's EV.
        """
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
        bilinear form in the two sides' draw probabilities at the option totals.

        Parameters
        ----------
        up : int
            The P/D's up card, 0 to 9.

        Returns
        -------
        OptionGame
            :func:`gamecore.c21_baccarat.option_game.sequence_form` of these counts.
        """
        return sequence_form(self.rules, up, self._net[up], self.total)

    def payoff_matrix(
        self, up: int
    ) -> tuple[np.ndarray, list[tuple[int, ...]], list[tuple[int, ...]]]:
        """The option game at one up card in normal form, every pure strategy against every
        other: an independent check of :meth:`option_game` for a few option totals.

        Parameters
        ----------
        up : int
            The P/D's up card, 0 to 9.

        Returns
        -------
        tuple
            ``(matrix, player_pure, dealer_pure)``: the matrix of the player's EV
            contributions and each row's and column's pure choices
            (:func:`gamecore.c21_baccarat.option_game.normal_form`).
        """
        return normal_form(self.rules, up, self._net[up], self.total)

    def equilibrium(self) -> tuple[PlayerStrategy, DealerStrategy, float]:
        """Solve the option game by linear programming, one up card at a time, in sequence
        form (:meth:`option_game`, :meth:`OptionGame.solve`).

        Returns
        -------
        player : PlayerStrategy
            The player's equilibrium strategy (behavioural: the probability of drawing at
            each decision, rounded to 12 decimals).
        dealer : DealerStrategy
            The P/D's.
        value : float
            The game's value: the player's EV per unit wagered.
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
        the other's equilibrium strategy, against the equilibrium value.

        Returns
        -------
        pandas.DataFrame
            Check | Player EV: the linear programs' value, the equilibrium strategies
            played, and each side's best response to the other's equilibrium (the player's
            may not gain, the P/D's may not lower it, beyond the solver's tolerance).
        """
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
        """The player's EV under House Way, each side's best response, and the equilibrium.

        Returns
        -------
        pandas.DataFrame
            One row per strategy pair: Strategies | Key (house_way, player_best_response,
            pd_best_response, equilibrium) | :meth:`StrategyPairResult.summary`'s figures;
            ``attrs["equilibrium_value"]`` holds the linear programs' value.
        """
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
        """The analysis as the ``exact`` command's JSON document.

        Returns
        -------
        dict
            The stable schema documented in docs/json.md: the total of combinations, each
            strategy pair's figures, the hit chart against House Way, the rule set.
        """
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


def count_deals(rules: C21BaccaratRules, composition: Any = None) -> C21Analysis:
    """Exact strategy-free counts of every heads-up deal for a rule set's shoe, or a given
    remaining composition: :func:`gamecore.c21_baccarat.deals.count_deals_modulo`, run in
    int64 or once per prime, rebuilt exactly (:func:`gamecore.exactcount.exact_counts`).

    Parameters
    ----------
    rules : C21BaccaratRules
        The rule set (its decks and jokers make the shoe unless ``composition`` is given;
        its reading of a tie on zero settles the deals).
    composition : sequence of int, optional
        Cards left by class, point values 0..9 then jokers (11 counts).

    Returns
    -------
    C21Analysis
        The counts (Python ints in object arrays) and their total, ``N P 6`` for ``N`` cards.
    """
    rules = check_rules(rules)
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


def sweep(
    rules: C21BaccaratRules, decks: Any = (1, 2, 4, 6, 8), jokers: Any = (0, 1, 2)
) -> pd.DataFrame:
    """Player EV under House Way, the best responses and the equilibrium, by decks and
    jokers per deck: one exact analysis per shoe.

    Parameters
    ----------
    rules : C21BaccaratRules
        The rule set; its decks and jokers per deck are replaced by each pair.
    decks, jokers : iterable of int
        The deck counts and the jokers per deck, every pair of them.

    Returns
    -------
    pandas.DataFrame
        Decks | Jokers per deck | one column of player EV (per unit, float) per row key of
        :meth:`C21Analysis.strategy_table` ("house_way player EV", ...).
    """
    rows = []
    for d in decks:
        for j in jokers:
            table = count_deals(rules.replace(decks=d, jokers_per_deck=j)).strategy_table()
            row = {"Decks": d, "Jokers per deck": j}
            for _, r in table.iterrows():
                row[f"{r['Key']} player EV"] = r["Player EV"]
            rows.append(row)
    return pd.DataFrame(rows)
