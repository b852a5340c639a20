"""The option game of 21st Century Baccarat at one P/D up card, and its equilibrium.

Central idea
------------
Each side decides once a round: the player at his two-card total, the P/D at its total,
knowing whether the player drew. So in sequence form (behaviour strategies: a probability
of drawing at each decision) the player's EV is bilinear in the two sides' draw
probabilities at the option totals (:class:`OptionGame`, built by :func:`sequence_form` from
the exact engine's strategy-free counts), each side's best reply is taken one decision at a
time, and the equilibrium is a linear program of three variables an option total, whatever
their number, solved by HiGHS. The normal form (:func:`normal_form`, every pure strategy
against every other) solves the same game for a few option totals, an independent check.
"""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
from scipy.optimize import linprog

from gamecore.c21_baccarat.rules import PLAYER_HANDS, C21BaccaratRules
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

#: The most option totals :func:`normal_form` builds its pure-strategy matrix
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
    (:func:`normal_form`) has 2^k by 4^k pure strategies.
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
        the options' coefficients and would round them away.

        Parameters
        ----------
        x : numpy.ndarray
            float (k,): the player's probability of drawing on each option total.

        Returns
        -------
        float
            The player's EV contribution over ``const``, per unit wagered over all deals.
        """
        g, h, m = self.form[1:, 0], self.form[0, 1:], self.form[1:, 1:]
        return float(g @ x + np.minimum(0.0, h + x @ m).sum())

    def secured_by_dealer(self, y: np.ndarray) -> float:
        """What the options add to ``const`` when the P/D draws with probabilities ``y`` and
        the player replies at best: at his decision ``i`` drawing changes his EV by
        ``g[i] + (m @ y)[i]``, so he draws where that is positive.

        Parameters
        ----------
        y : numpy.ndarray
            float (2k,): the P/D's probability of drawing at each decision, on each option
            total after the player stood, then after he drew.

        Returns
        -------
        float
            The player's EV contribution over ``const``, per unit wagered over all deals.
        """
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

        Returns
        -------
        x : numpy.ndarray
            float (k,): the player's equilibrium probability of drawing on each option total.
        y : numpy.ndarray
            float (2k,): the P/D's at each of its decisions.
        value : float
            The game's value at this up card: the player's EV contribution per unit wagered
            over all deals, ``const`` included.
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

    Parameters
    ----------
    up : int
        The P/D's up card, for the message.
    player_value, dealer_value : float
        What the player's and the P/D's strategies secure against the other's best reply.
    scale : float
        The game's largest coefficient (:attr:`OptionGame.scale`).

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
    solution (:func:`normal_form`), a check of the sequence form's; a matrix
    of zeros is refused.

    Parameters
    ----------
    matrix : numpy.ndarray
        float (rows, columns): the row player's payoffs.

    Returns
    -------
    x : numpy.ndarray
        float (rows,): the row player's maximin mixed strategy (probabilities).
    value : float
        The game's value, in the matrix's units.
    """
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


def sequence_form(rules: C21BaccaratRules, up: int, net: np.ndarray, total: int) -> OptionGame:
    """The option game at one up card in sequence form, from the strategy-free counts.

    The player decides once, at his two-card total, and the P/D once, at its total,
    knowing whether the player drew. So each side's strategy tensor is affine in its draw
    probabilities: term 0 stands on every option total (and plays the forced totals as
    the card says), term ``1 + i`` is what drawing at decision ``i`` changes (its weight
    moved from standing to drawing). Contracting every pair of terms with the counts, as
    ``C21Analysis.evaluate`` contracts a strategy pair, gives the form's entries: exact
    integers, divided by ``total`` once.

    Parameters
    ----------
    rules : C21BaccaratRules
        The rule set: its option totals, and House Way at the forced totals.
    up : int
        The P/D's up card, 0 to 9 (a joker up card concludes the deal: no options).
    net : numpy.ndarray
        object (12, 2, 9, 2) of exact ints: at this up card, the player's net result summed
        over outcomes, ``[player hand, player draws, P/D total, P/D draws]``, in ways.
    total : int
        Every deal's ways (``N P 6``): the divisor making the entries per unit wagered.

    Returns
    -------
    OptionGame
        The form over every deal with this up card (its entries per unit, over all deals),
        and House Way at each decision.
    """
    options = list(rules.option_totals)
    dealer_decisions = list(itertools.product((0, 1), options))  # (player drew, total)
    house_p, house_d = house_way_player(rules), house_way_dealer(rules)
    stand_p = house_p.draw.copy()
    stand_p[:, options] = 0
    player = np.zeros((1 + len(options), PLAYER_HANDS, 2), dtype=object)
    player[0] = player_tensor(player_strategy(rules, "", stand_p))[up]
    for i, option in enumerate(options):
        player[1 + i, option] = (-1, 1)
    stand_d = house_d.draw.copy()
    stand_d[:, :, options] = 0
    dealer = np.zeros((1 + len(dealer_decisions), 2, 9, 2), dtype=object)
    dealer[0] = dealer_tensor(dealer_strategy(rules, "", stand_d))[up]
    for j, (drew, option) in enumerate(dealer_decisions):
        dealer[1 + j, drew, option] = (-1, 1)
    form = np.einsum("iha,jasb,hasb->ij", player, dealer, net) / total
    return OptionGame(
        up=up,
        options=tuple(options),
        form=form.astype(float),
        player_house_way=house_p.draw[up, options].astype(float),
        dealer_house_way=np.array(
            [house_d.draw[up, drew, option] for drew, option in dealer_decisions], dtype=float
        ),
    )


def normal_form(
    rules: C21BaccaratRules, up: int, net: np.ndarray, total: int
) -> tuple[np.ndarray, list[tuple[int, ...]], list[tuple[int, ...]]]:
    """The option game at one up card in normal form: the player's EV contribution (per
    unit, over all deals) for each pure player choice (draw or not on each option total)
    against each pure P/D choice (draw or not on each option total, knowing whether the
    player drew).

    The matrix has 2^k by 4^k entries, k option totals, each a strategy pair's contraction
    with the counts. The analysis does not use it: it solves the same game in sequence
    form (:func:`sequence_form`, 3k variables). It is kept as an independent check of that
    solution for a few option totals, and refused beyond :data:`MAX_PURE_OPTIONS`.

    Parameters
    ----------
    rules, up, net, total
        As :func:`sequence_form` takes them.

    Returns
    -------
    matrix : numpy.ndarray
        float (2^k, 4^k): the player's EV contribution, rows the player's pure choices.
    player_pure : list of tuple
        Each row's choice: 1 (draw) or 0 (stand) on each option total, in order.
    dealer_pure : list of tuple
        Each column's: on each option total after the player stood, then after he drew.
    """
    options = rules.option_totals
    if len(options) > MAX_PURE_OPTIONS:
        raise GamecoreError(
            f"the option game's payoff matrix over pure strategies has 2^{len(options)} by "
            f"4^{len(options)} entries ({len(options)} option totals); it is built for at "
            f"most {MAX_PURE_OPTIONS} (equilibrium solves the game in sequence form)"
        )
    player_pure = list(itertools.product((0, 1), repeat=len(options)))
    dealer_pure = list(itertools.product((0, 1), repeat=2 * len(options)))
    house_p = house_way_player(rules).draw.astype(float)
    house_d = house_way_dealer(rules).draw.astype(float)
    net = net.astype(float)
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
            matrix[i, j] = (sp[:, :, None, None] * sd[None] * net).sum() / total
    return matrix, player_pure, dealer_pure
