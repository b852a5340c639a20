"""Exact analysis of punto banco (High Limit Baccarat) and EZ Baccarat with Dragon 7.

Central idea
------------
One numba kernel, :func:`count_rounds_modulo`, walks every ordered sequence of point classes a
round can deal (Player 1, Banker 1, Player 2, Banker 2, then the third cards the tableau
calls for), weighting each by its exact number of ways to be drawn without replacement from
the shoe, and completing shorter rounds to six cards so every sequence shares the
denominator ``N P 6``. It returns the *breakdown*: the count of every final state
(player card count, banker card count, player total, banker total). Every bet, the main
bets, Dragon 7, Panda 8 or one a user defines, is then a paytable over events on that
breakdown (:mod:`gamecore.wagers`), so adding a bet never touches the kernel.

Counts are exact Python integers for every shoe: the kernel runs in int64 when the total
``N P 6`` fits, and otherwise modulo primes recombined by the Chinese remainder theorem
(:mod:`gamecore.exactcount`). The infinite-deck limit is the leading coefficient of each
count as a polynomial of degree six in the deck count.

The third-card tableau is data (:mod:`gamecore.baccarat.tableau`), checked in the tests
against the chart on the seed rule card.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from gamecore._jit import kernel, kernel_face
from gamecore.baccarat.events import EVENTS, GRID, OUTCOME_TITLES
from gamecore.baccarat.rules import EZBaccaratRules, PuntoBancoRules, check_rules
from gamecore.baccarat.tableau import BANKER_DRAWS, BANKER_DRAWS_PLAYER_STOOD, PLAYER_DRAWS
from gamecore.errors import GamecoreError
from gamecore.exactcount import DeckPolynomial, addmod, exact_counts, mulmod
from gamecore.shoe import BACCARAT_DECK, baccarat_shoe, ordered_sequences, validate_composition
from gamecore.wagers import (
    Wager,
    WagerAnalysis,
    deck_sweep_table,
    settle,
    sweep_deck_counts,
    wager_named,
)

if TYPE_CHECKING:  # pandas is imported where a table is built, not with the module
    import pandas as pd

# ---------------------------------------------------------------------------------------
# Kernel
# ---------------------------------------------------------------------------------------


@kernel(inline=True)
def _player_third_card(counts, cards, player, banker, ways, fill_five, banker_draws, modulus):
    # The Player draws; the Banker then draws or stands by the third card's value.
    for p3 in range(10):
        if cards[p3] == 0:
            continue
        w5 = mulmod(ways, cards[p3], modulus)
        cards[p3] -= 1
        player3 = (player + p3) % 10
        if banker_draws[banker, p3]:
            for b3 in range(10):
                if cards[b3] == 0:
                    continue
                banker3 = (banker + b3) % 10
                w6 = mulmod(w5, cards[b3], modulus)
                counts[1, 1, player3, banker3] = addmod(counts[1, 1, player3, banker3], w6, modulus)
        else:
            w6 = mulmod(w5, fill_five, modulus)
            counts[1, 0, player3, banker] = addmod(counts[1, 0, player3, banker], w6, modulus)
        cards[p3] += 1


@kernel(inline=True)
def _banker_third_card(counts, cards, player, banker, ways, fill_five, modulus):
    # The Player stood and the Banker draws.
    for b3 in range(10):
        if cards[b3] == 0:
            continue
        banker3 = (banker + b3) % 10
        w5 = mulmod(ways, cards[b3], modulus)
        w6 = mulmod(w5, fill_five, modulus)
        counts[0, 1, player, banker3] = addmod(counts[0, 1, player, banker3], w6, modulus)


@kernel
def _count_rounds_modulo(shoe, player_draws, banker_draws_player_stood, banker_draws, modulus):
    counts = np.zeros((2, 2, 10, 10), dtype=np.int64)
    cards = shoe.copy()
    n = cards.sum()
    # Ways to fill the unused positions of the six-card sequence after 4 or 5 cards.
    fill_four = mulmod(n - 4, n - 5, modulus)
    fill_five = mulmod(n - 5, 1, modulus)
    # The two-card hands are enumerated as unordered pairs: dealing p1 then p2 (or b1 then b2)
    # has the same number of ways as the reverse order, so a pair of different cards counts
    # twice. This visits a quarter of the ordered prefixes.
    for p1 in range(10):
        if cards[p1] == 0:
            continue
        w1 = mulmod(cards[p1], 1, modulus)
        cards[p1] -= 1
        for p2 in range(p1, 10):
            if cards[p2] == 0:
                continue
            w2 = mulmod(w1, cards[p2] * (1 if p2 == p1 else 2), modulus)
            cards[p2] -= 1
            player = (p1 + p2) % 10
            for b1 in range(10):
                if cards[b1] == 0:
                    continue
                w3 = mulmod(w2, cards[b1], modulus)
                cards[b1] -= 1
                for b2 in range(b1, 10):
                    if cards[b2] == 0:
                        continue
                    w4 = mulmod(w3, cards[b2] * (1 if b2 == b1 else 2), modulus)
                    cards[b2] -= 1
                    banker = (b1 + b2) % 10
                    if player >= 8 or banker >= 8:  # a natural: nobody draws
                        w6 = mulmod(w4, fill_four, modulus)
                        counts[0, 0, player, banker] = addmod(
                            counts[0, 0, player, banker], w6, modulus
                        )
                    elif player_draws[player]:
                        _player_third_card(
                            counts, cards, player, banker, w4, fill_five, banker_draws, modulus
                        )
                    elif banker_draws_player_stood[banker]:
                        _banker_third_card(counts, cards, player, banker, w4, fill_five, modulus)
                    else:  # both hands stand on their two cards
                        w6 = mulmod(w4, fill_four, modulus)
                        counts[0, 0, player, banker] = addmod(
                            counts[0, 0, player, banker], w6, modulus
                        )
                    cards[b2] += 1
                cards[b1] += 1
            cards[p2] += 1
        cards[p1] += 1
    return counts


@kernel_face(_count_rounds_modulo)
def count_rounds_modulo(
    shoe: np.ndarray,
    player_draws: np.ndarray,
    banker_draws_player_stood: np.ndarray,
    banker_draws: np.ndarray,
    modulus: int,
) -> np.ndarray:
    """The breakdown of one round off the top of ``shoe``, in int64 or modulo a prime.

    The counting kernel of the module docstring, unchecked: :func:`count_rounds` validates
    the shoe and recombines residues into exact counts; a kernel (the perfect-information
    bettor's, :mod:`gamecore.baccarat.counted_shoes`) calls this face to count each remaining
    shoe in int64.

    Parameters
    ----------
    shoe : numpy.ndarray
        int64[10]: cards per point class 0..9, at least six in all.
    player_draws, banker_draws_player_stood, banker_draws : numpy.ndarray
        The third-card tableau (:data:`gamecore.baccarat.tableau.DRAWING`): bool[10],
        bool[10] and bool[10, 10].
    modulus : int
        0 for exact int64 counts (the caller has checked that ``N P 6`` fits in int64), or
        a prime below 2**31 for residues modulo it.

    Returns
    -------
    numpy.ndarray
        int64[2, 2, 10, 10] indexed (player cards - 2, banker cards - 2, player total,
        banker total): the ordered six-card sequences ending in each final state (a short
        round is completed by the cards it did not use), or their residues.
    """
    return _count_rounds_modulo(
        shoe, player_draws, banker_draws_player_stood, banker_draws, modulus
    )


def count_rounds(composition: Sequence[int] | np.ndarray) -> np.ndarray:
    """Exact breakdown of one round dealt off the top of a shoe of any composition.

    Parameters
    ----------
    composition
        Cards of each point value 0..9 remaining in the shoe (at least six in all); a full
        shoe or any depleted one.

    Returns
    -------
    numpy.ndarray
        Object array of Python ints, shape (2, 2, 10, 10), indexed by
        (player cards - 2, banker cards - 2, player total, banker total): the number of
        ordered six-card sequences ending in that state. It sums to ``N P 6``.

    Examples
    --------
    >>> counts = count_rounds([16, 4, 4, 4, 4, 4, 4, 4, 4, 4])
    >>> int(counts.sum()) == 52 * 51 * 50 * 49 * 48 * 47
    True
    """
    shoe = validate_composition(composition)
    bound = ordered_sequences(int(shoe.sum()), 6)
    return exact_counts(
        lambda modulus: _count_rounds_modulo(
            shoe, PLAYER_DRAWS, BANKER_DRAWS_PLAYER_STOOD, BANKER_DRAWS, np.int64(modulus)
        ),
        bound,
    )


# ---------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------


#: Why "house edge, ties excluded" is null on a shoe where every round ties (a shoe of one
#: point value, for one: both hands always hold the same total): no round decides a Banker
#: or Player bet, so a figure per decided round has nothing to divide by. It is undefined,
#: not an error: every other figure of such a shoe stands (the Tie bet wins every round).
TIES_EXCLUDED_UNDEFINED = (
    "undefined: every round of this shoe is a tie, so no round decides a Banker or Player bet"
)


@dataclasses.dataclass(frozen=True)
class BaccaratAnalysis:
    """The exact analysis of one round under a rule set.

    Attributes
    ----------
    rules
        The rule set (paytables come from it).
    shoe
        Label of the shoe analysed: ``"8 decks"``, ``"infinite"`` or a composition.
    weights
        Object array over the breakdown: exact counts of card sequences for a finite shoe,
        exact limiting weights (Fractions) for the infinite shoe.
    total
        What the weights sum to: ``N P 6`` for a finite shoe, ``52**6`` in the limit.
    exact_counts
        True when ``weights`` are integer counts of card sequences.
    """

    rules: PuntoBancoRules | EZBaccaratRules
    shoe: str
    weights: np.ndarray
    total: int
    exact_counts: bool

    def probability(self, event: str) -> Fraction:
        """Exact probability of a named event (see :data:`EVENTS`).

        Parameters
        ----------
        event : str
            A name of :data:`EVENTS` (``"banker_wins"``, ``"dragon7"``, ...).

        Returns
        -------
        Fraction
            The event's weight over :attr:`total` (a limit for the infinite shoe).
        """
        return Fraction(sum(self.weights[EVENTS[event]].tolist(), 0)) / self.total

    def outcome_counts(self) -> dict[str, int]:
        """Combinations per outcome of the game, and the total (finite shoes only).

        Returns
        -------
        dict of str to int
            Each of ``rules.outcomes`` (``"banker"``, ``"player"``, ``"tie"``, and the side
            bets' events in EZ Baccarat) -> the ordered six-card sequences ending in it, then
            ``"total"``: ``N P 6``. An infinite shoe raises GamecoreError.
        """
        if not self.exact_counts:
            raise GamecoreError("an infinite shoe has probabilities, not combinations")
        counts = {
            name: int(sum(self.weights[EVENTS[OUTCOME_TITLES[name][1]]].tolist(), 0))
            for name in self.rules.outcomes
        }
        counts["total"] = int(self.total)
        return counts

    def outcomes(self) -> pd.DataFrame:
        """Outcome | Combinations | Probability for the game's outcomes.

        Returns
        -------
        pandas.DataFrame
            A row per outcome of ``rules.outcomes``, titled as in :data:`OUTCOME_TITLES`;
            Combinations (object column of Python ints) is ``None`` for the infinite shoe.
        """
        import pandas as pd

        rows = []
        for name in self.rules.outcomes:
            title, event = OUTCOME_TITLES[name]
            share = sum(self.weights[EVENTS[event]].tolist(), 0)
            rows.append(
                {
                    "Outcome": title,
                    "Combinations": int(share) if self.exact_counts else None,
                    "Probability": float(Fraction(share) / self.total),
                }
            )
        frame = pd.DataFrame(rows)
        frame["Combinations"] = frame["Combinations"].astype(object)
        return frame

    def wager(
        self, wager: Wager | str, events: dict[str, np.ndarray] | None = None
    ) -> WagerAnalysis:
        """Settle one wager: a bet of the rule set by name, or any :class:`Wager`.

        Parameters
        ----------
        wager : Wager or str
            A bet's name in ``rules.wagers()``, or a paytable over events.
        events : dict of str to numpy.ndarray, optional
            User-defined events beside :data:`EVENTS`: boolean masks of the breakdown's
            shape, written over :data:`GRID`.

        Returns
        -------
        WagerAnalysis
            Its paytable's lines with their exact probabilities and combinations
            (:func:`gamecore.wagers.settle`): EV, house edge, SD, hit frequency.
        """
        if isinstance(wager, str):
            wager = wager_named(self.rules.wagers(), wager, self.rules.game)
        catalogue = EVENTS if events is None else {**EVENTS, **events}
        return settle(wager, catalogue, self.weights, self.total, self.exact_counts)

    def wagers(self) -> dict[str, WagerAnalysis]:
        """Every bet of the rule set, settled.

        Returns
        -------
        dict of str to WagerAnalysis
            Bet name -> :meth:`wager`, in the rule set's order.
        """
        return {w.name: self.wager(w) for w in self.rules.wagers()}

    def house_edge_ties_excluded(self, analysis: WagerAnalysis) -> Fraction | None:
        """The house edge of a settled wager per round that is not a tie (the figure quoted
        for Banker and Player): its house edge over the chance that a round decides it.

        Parameters
        ----------
        analysis : WagerAnalysis
            A wager settled by :meth:`wager` on this analysis.

        Returns
        -------
        Fraction or None
            ``None`` where the figure does not exist: for a wager without ``ties_excluded``
            (the Tie bet, side bets), and on a shoe where every round ties
            (:data:`TIES_EXCLUDED_UNDEFINED`), where no round decides the bet.
        """
        tie = analysis.wager.ties_excluded
        if tie is None:
            return None
        decided = 1 - self.probability(tie)
        return analysis.house_edge / decided if decided else None

    def summary(self) -> pd.DataFrame:
        """Every bet's headline figures, a row per bet.

        Returns
        -------
        pandas.DataFrame
            Bet | Key | House edge | House edge, ties excluded | SD | Hit frequency | Push
            probability, per unit wagered. "Ties excluded" is missing for bets it does not
            apply to, and for every bet on a shoe where every round ties.
        """
        import pandas as pd

        rows = []
        for name, analysis in self.wagers().items():
            ties_out = self.house_edge_ties_excluded(analysis)
            rows.append(
                {
                    "Bet": analysis.wager.title,
                    "Key": name,
                    "House edge": float(analysis.house_edge),
                    "House edge, ties excluded": None if ties_out is None else float(ties_out),
                    "SD": analysis.sd,
                    "Hit frequency": float(analysis.hit_frequency),
                    "Push probability": float(analysis.push_probability),
                }
            )
        return pd.DataFrame(rows)

    def breakdown(self) -> pd.DataFrame:
        """Every reachable final state with its combinations and probability.

        Returns
        -------
        pandas.DataFrame
            Player cards | Banker cards (2 or 3) | Player total | Banker total (0..9) |
            Combinations | Probability, a row per cell of nonzero weight (Combinations
            ``None`` for the infinite shoe).
        """
        import pandas as pd

        rows = []
        for index in zip(*np.nonzero(self.weights != 0), strict=True):
            weight = self.weights[index]
            rows.append(
                {
                    "Player cards": int(GRID.player_cards[index]),
                    "Banker cards": int(GRID.banker_cards[index]),
                    "Player total": int(GRID.player_total[index]),
                    "Banker total": int(GRID.banker_total[index]),
                    "Combinations": int(weight) if self.exact_counts else None,
                    "Probability": float(Fraction(weight) / self.total),
                }
            )
        return pd.DataFrame(rows)

    def to_dict(self) -> dict[str, Any]:
        """The JSON document of ``gamecore exact`` (its schema: docs/json.md).

        Returns
        -------
        dict
            ``game``, ``shoe``, ``total_combinations``, ``outcomes`` (combinations and
            probability), ``bets`` (figures and paytable), ``rules``, and a note when the
            ties-excluded figures are undefined.
        """
        outcomes = {}
        for name in self.rules.outcomes:
            event = OUTCOME_TITLES[name][1]
            share = sum(self.weights[EVENTS[event]].tolist(), 0)
            outcomes[name] = {
                "combinations": int(share) if self.exact_counts else None,
                "probability": float(Fraction(share) / self.total),
            }
        bets = {}
        undefined = False
        for name, analysis in self.wagers().items():
            ties_out = self.house_edge_ties_excluded(analysis)
            undefined |= ties_out is None and analysis.wager.ties_excluded is not None
            bets[name] = {
                "title": analysis.wager.title,
                "house_edge": float(analysis.house_edge),
                "house_edge_ties_excluded": None if ties_out is None else float(ties_out),
                "sd": analysis.sd,
                "hit_frequency": float(analysis.hit_frequency),
                "paytable": [
                    {
                        "outcome": line.outcome,
                        "pays": float(line.pays),
                        "combinations": None
                        if analysis.combinations is None
                        else analysis.combinations[i],
                        "probability": float(analysis.probabilities[i]),
                    }
                    for i, line in enumerate(analysis.wager.lines)
                ],
            }
        out = {
            "game": self.rules.game,
            "shoe": self.shoe,
            "total_combinations": int(self.total) if self.exact_counts else None,
            "outcomes": outcomes,
            "bets": bets,
            "rules": self.rules.to_dict(),
        }
        if undefined:
            out["house_edge_ties_excluded_note"] = TIES_EXCLUDED_UNDEFINED
        return out


# ---------------------------------------------------------------------------------------
# Public entry points
# ---------------------------------------------------------------------------------------


def exact(
    rules: PuntoBancoRules | EZBaccaratRules,
    composition: Sequence[int] | np.ndarray | None = None,
) -> BaccaratAnalysis:
    """Exact analysis of one round dealt off the top of the shoe.

    Parameters
    ----------
    rules
        The rule set; its ``decks`` sets the shoe unless ``composition`` is given.
    composition
        Optional cards per point value 0..9 (a depleted or custom shoe) instead of a full
        shoe of ``rules.decks`` decks.

    Returns
    -------
    BaccaratAnalysis
        Exact integer counts of every final state (``exact_counts`` True).

    Examples
    --------
    >>> analysis = exact(PuntoBancoRules(decks=8))
    >>> analysis.outcome_counts()["tie"]
    475627426473216
    >>> round(float(analysis.wager("banker").house_edge), 6)
    0.010579
    """
    rules = check_rules(rules)
    if composition is None:
        shoe = baccarat_shoe(rules.decks)
        label = f"{rules.decks} deck{'s' if rules.decks > 1 else ''}"
    else:
        shoe = validate_composition(composition)
        label = "composition " + ",".join(str(int(c)) for c in shoe)
    weights = count_rounds(shoe)
    return BaccaratAnalysis(
        rules, label, weights, ordered_sequences(int(shoe.sum()), 6), exact_counts=True
    )


def infinite_deck(rules: PuntoBancoRules | EZBaccaratRules) -> BaccaratAnalysis:
    """Exact limit of the analysis as the number of decks grows without bound.

    Each count is a polynomial of degree six in the deck count (seven exact evaluations fix
    it); the limit of count / (52n P 6) is its leading coefficient over 52**6.

    Parameters
    ----------
    rules : PuntoBancoRules or EZBaccaratRules
        The rule set (its ``decks`` does not enter).

    Returns
    -------
    BaccaratAnalysis
        Weights that are exact limits (Fractions) over ``52**6``, not counts
        (``exact_counts`` False).
    """
    rules = check_rules(rules)
    polynomial = DeckPolynomial(lambda n: count_rounds(baccarat_shoe(n)))
    return BaccaratAnalysis(
        rules,
        "infinite",
        polynomial.leading_coefficient(),
        sum(BACCARAT_DECK) ** 6,
        exact_counts=False,
    )


def deck_sweep(
    rules: PuntoBancoRules | EZBaccaratRules,
    decks: int | Iterable[int] = 8,
    infinite: bool = True,
) -> pd.DataFrame:
    """House edge of every bet and the outcome probabilities by number of decks.

    Parameters
    ----------
    rules
        The rule set; its own ``decks`` is replaced by each deck count of the sweep.
    decks
        The largest deck count (the sweep runs 1..decks), or the deck counts themselves.
    infinite
        Add a last row ``"infinite"`` with the exact infinite-deck limit.

    Returns
    -------
    pandas.DataFrame
        Decks | P(<outcome>) ... | <bet> house edge ...
    """
    rules = check_rules(rules)
    counts = sweep_deck_counts(decks)
    analyses = [exact(rules.replace(decks=d)) for d in counts]
    labels = [analysis.shoe.split()[0] for analysis in analyses]
    if infinite:
        analyses.append(infinite_deck(rules))
        labels.append("infinite")
    # Each outcome by its title's name (Dragon 7), the definition in brackets left to the
    # outcomes table.
    outcomes = {
        OUTCOME_TITLES[name][0].split(" (")[0]: OUTCOME_TITLES[name][1] for name in rules.outcomes
    }
    return deck_sweep_table(analyses, labels, outcomes)
