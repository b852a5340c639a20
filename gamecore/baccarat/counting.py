"""Card counting against the Dragon 7 and Panda 8 side bets of EZ Baccarat.

Central idea
------------
EZ Baccarat is dealt from a shoe that is not reshuffled every round, so the side bets'
expected value drifts with the cards already seen. The study has three steps, each built on
the exact engine or on the shoe simulator:

1. **Effects of removal, exactly.** For each rank, the change in the bet's EV when one card of
   that rank leaves the full shoe, from the exact engine on the depleted composition.
2. **A balanced integer count** whose tags follow those effects (:func:`balanced_tags`), set
   beside the published count (Eliot Jacobson's Dragon count).
3. **Shoe simulation** of a counter who bets only when the true count reaches a trigger, and of
   a perfect-information bettor who knows the exact EV of the remaining shoe before every
   round and bets whenever it is positive: the upper bound no count can beat.

Tags are positive for ranks whose removal *raises* the bettor's EV, so a high count favours
the bettor. True count = running count / (cards left in the shoe / 52). The counter sees every
dealt card and the burn's turned card; the other burned cards stay unseen. The
perfect-information bettor knows the remaining composition exactly.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from gamecore import counting
from gamecore._jit import kernel
from gamecore.baccarat.exact import DRAWING, EVENTS, count_rounds_modulo, exact
from gamecore.baccarat.rules import EZBaccaratRules, PuntoBancoRules
from gamecore.baccarat.sim import play_round
from gamecore.dealing import Dealing, cards_burned, shuffle
from gamecore.errors import GamecoreError, shown
from gamecore.exactcount import INT64_MAX
from gamecore.numeric import is_real, is_whole
from gamecore.parallel import make_chunks, run_chunks, sum_tallies
from gamecore.shoe import (
    BACCARAT_CLASS_NAMES,
    BACCARAT_DECK,
    baccarat_shoe,
    ordered_sequences,
    validate_composition,
)
from gamecore.wagers import net_by_cell

#: Ranks as a counter names them, and the point class of each (T = 10, J, Q, K).
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
RANK_CLASS = {rank: (i + 1) % 10 for i, rank in enumerate(RANKS)}

#: Eliot Jacobson's Dragon 7 count (A..9, T), as published on the 888casino blog
#: ("Card counting the Dragon and Panda side bets in EZ Baccarat").
JACOBSON_DRAGON_TAGS = {
    "A": 0,
    "2": 0,
    "3": 0,
    "4": -1,
    "5": -1,
    "6": -1,
    "7": -1,
    "8": 2,
    "9": 2,
    "T": 0,
}

SIDE_BETS = ("dragon7", "panda8")

#: Shoes per chunk of the counter simulation, and of the perfect-information bettor.
CHUNK_SHOES = 20_000
ORACLE_CHUNK_SHOES = 200

#: True counts are tallied in unit bins from TC_LOW to TC_HIGH (the end bins take the tails).
TC_LOW, TC_HIGH = -10, 20


def _check_rules(rules: object) -> EZBaccaratRules:
    if not isinstance(rules, EZBaccaratRules):
        raise GamecoreError(f"rules must be EZBaccaratRules, got {type(rules).__name__}")
    return rules


def _check_rounds_per_hour(rounds_per_hour: Any) -> None:
    if not is_real(rounds_per_hour) or not 0 < rounds_per_hour < 10_000:  # NaN too
        raise GamecoreError(
            f"rounds_per_hour must be a number of rounds above 0 (and below 10,000), "
            f"got {shown(rounds_per_hour)}"
        )


def tags_by_class(tags: Mapping[str, int]) -> np.ndarray:
    """Tags indexed by point class 0..9 (int64), from tags by rank A..9, T."""
    if not isinstance(tags, Mapping):
        raise GamecoreError(
            f"tags must map each rank {', '.join(RANKS)} to a tag, got {shown(tags)}"
        )
    if set(tags) != set(RANKS):
        raise GamecoreError(f"tags must give every rank {', '.join(RANKS)}, got {sorted(tags)}")
    by_class = np.zeros(10, dtype=np.int64)
    for rank, tag in tags.items():
        if not is_whole(tag):
            raise GamecoreError(f"tag of rank {rank} must be an integer, got {shown(tag)}")
        by_class[RANK_CLASS[rank]] = tag
    return by_class


def cards_per_deck(rank: str) -> int:
    return BACCARAT_DECK[RANK_CLASS[rank]]


#: The ranks a Dragon counter tells apart, with their cards per deck.
DECK = counting.Deck(RANKS, tuple(cards_per_deck(r) for r in RANKS))


# ---------------------------------------------------------------------------------------
# 1. Effects of removal (exact)
# ---------------------------------------------------------------------------------------


def effects_of_removal_exact(rules: EZBaccaratRules) -> dict[str, dict[str, Fraction]]:
    """Exact change of each side bet's EV when one card of each rank leaves the full shoe.

    Returns ``{rank: {"dragon7": Fraction, "panda8": Fraction}}`` (EV per unit wagered after
    removal, minus before).
    """
    rules = _check_rules(rules)
    full_shoe = baccarat_shoe(rules.decks)
    full = exact(rules)
    before = {bet: full.wager(bet).expected_value for bet in SIDE_BETS}
    effects = {}
    for rank in RANKS:
        depleted = full_shoe.copy()
        depleted[RANK_CLASS[rank]] -= 1
        after = exact(rules, composition=depleted)
        effects[rank] = {bet: after.wager(bet).expected_value - before[bet] for bet in SIDE_BETS}
    return effects


def effects_of_removal(rules: EZBaccaratRules) -> pd.DataFrame:
    """Rank | Cards per deck | Dragon 7 EoR | Panda 8 EoR (EV change per card removed)."""
    effects = effects_of_removal_exact(rules)
    return pd.DataFrame(
        [
            {
                "Rank": rank,
                "Cards per deck": cards_per_deck(rank),
                "Dragon 7 EoR": float(effects[rank]["dragon7"]),
                "Panda 8 EoR": float(effects[rank]["panda8"]),
            }
            for rank in RANKS
        ]
    )


#: Every bet's effects of removal are keyed by point value ("0": the ten-valued cards), as
#: for 21st Century Baccarat; :data:`POINT_DECK` gives their cards per deck.
POINT_RANKS = tuple(str(v) for v in range(10))
POINT_DECK = counting.Deck(POINT_RANKS, BACCARAT_DECK)


@dataclasses.dataclass(frozen=True)
class BetEffects:
    """Every bet's EV on the full shoe and its exact effect of removal of each point value."""

    rules: PuntoBancoRules | EZBaccaratRules
    shoe: np.ndarray
    full_shoe_ev: dict[str, Fraction]
    effects_of_removal: dict[str, dict[str, Fraction]]

    def table(self) -> pd.DataFrame:
        """Point value | Cards per deck | one column per bet: EoR in % of the wager."""
        return pd.DataFrame(
            [
                {
                    "Point value": rank,
                    "Cards per deck": cards,
                    **{
                        f"{bet} EoR (%)": 100 * float(effects[rank])
                        for bet, effects in self.effects_of_removal.items()
                    },
                }
                for rank, cards in zip(POINT_DECK.ranks, POINT_DECK.cards, strict=True)
            ]
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.rules.game,
            "rules": self.rules.to_dict(),
            "shoe": [int(n) for n in self.shoe],
            "full_shoe_ev": {bet: float(ev) for bet, ev in self.full_shoe_ev.items()},
            "effects_of_removal": {
                bet: {r: float(e) for r, e in effects.items()}
                for bet, effects in self.effects_of_removal.items()
            },
            "effects_of_removal_exact": {
                bet: {r: str(e) for r, e in effects.items()}
                for bet, effects in self.effects_of_removal.items()
            },
            "effects_of_removal_means": (
                "the change in each bet's EV per unit wagered when one card of the point value "
                "leaves the full shoe (0: the ten-valued cards), each depleted shoe enumerated "
                "exactly; exact rationals in effects_of_removal_exact"
            ),
        }


def effects_of_removal_by_bet(
    rules: PuntoBancoRules | EZBaccaratRules, composition: Sequence[int] | None = None
) -> BetEffects:
    """Every bet's EV on the full shoe and its exact change when one card of each point
    value leaves it, exact rationals (the main bets' well-known uncountability, now exact)."""
    if composition is None:
        shoe = baccarat_shoe(rules.decks)
    else:
        shoe = validate_composition(composition)
        # Every point value must be there to be removed (so the shoe holds ten cards or more,
        # and each depleted shoe the six a round can use), checked before any work.
        for value, count in enumerate(shoe):
            if count == 0:
                raise GamecoreError(
                    f"composition count of {BACCARAT_CLASS_NAMES[value]} is 0: no card of it "
                    "can be removed"
                )
    full = exact(rules, composition=shoe).wagers()
    before = {bet: analysis.expected_value for bet, analysis in full.items()}
    effects: dict[str, dict[str, Fraction]] = {bet: {} for bet in before}
    for value, rank in enumerate(POINT_RANKS):
        depleted = np.array(shoe, dtype=np.int64)
        depleted[value] -= 1
        after = exact(rules, composition=depleted).wagers()
        for bet in before:
            effects[bet][rank] = after[bet].expected_value - before[bet]
    return BetEffects(rules, shoe, before, effects)


# ---------------------------------------------------------------------------------------
# 2. Balanced integer tags
# ---------------------------------------------------------------------------------------


def betting_correlation(tags: Mapping[str, float], effects: Mapping[str, float]) -> float:
    """Correlation of tags with effects of removal over the cards of a deck
    (:func:`gamecore.counting.betting_correlation`)."""
    return counting.betting_correlation(tags, effects, DECK)


def balanced_tags(effects: Mapping[str, float], max_tag: int = 3) -> dict[str, int]:
    """The balanced integer count that best follows the effects of removal
    (:func:`gamecore.counting.balanced_tags`)."""
    return counting.balanced_tags(effects, DECK, max_tag)


# ---------------------------------------------------------------------------------------
# 3. Shoe simulation: kernels
# ---------------------------------------------------------------------------------------

# Columns of the per-trigger statistics; the last two only for the perfect-information bettor:
# the exact EV summed over the rounds bet, and the sum over shoes of its square per shoe.
_BETS, _WON, _WON_SQ, _BASE, _SHOE_WON_SQ, _SHOE_TOTAL_SQ, _EV_WON, _SHOE_EV_SQ = range(8)


class ShoeDeal(NamedTuple):
    """A shoe and how it is dealt: the cards (point classes), the cards behind the cut card
    and whether the shoe opens with a burn (its first card turned face up)."""

    cards: np.ndarray
    penetration: int
    burn: bool


class BetNets(NamedTuple):
    """Units won per cell of a round's outcome: the counted bet's and the base wager's."""

    bet: np.ndarray
    base: np.ndarray


@kernel
def _counter_shoes(rng, deal, shoes, tags, triggers, nets, drawing):
    """Deal ``shoes`` shoes; a counter bets one unit when the true count >= each trigger.

    Returns (stats[trigger, 6], bins[true count bin, 3], rounds): per trigger the bets, the
    side-bet units won and their squares, the base-wager units won on the same rounds, and the
    sums over shoes of the squared side-bet and total win per shoe; per true-count bin the
    rounds, and the side bet's net result summed and squared (every round, bet or not).
    """
    n_triggers = triggers.size
    stats = np.zeros((n_triggers, 6))
    bins = np.zeros((TC_HIGH - TC_LOW + 1, 3))
    shoe_won = np.zeros(n_triggers)
    shoe_total = np.zeros(n_triggers)
    cards = deal.cards.copy()
    n = cards.size
    cut = n - deal.penetration
    rounds = 0
    for _ in range(shoes):
        shuffle(rng, cards)
        running = 0
        position = 0
        if deal.burn:
            position = cards_burned(cards)
            running += tags[cards[0]]  # the turned card is face up; the rest are not seen
        shoe_won[:] = 0.0
        shoe_total[:] = 0.0
        while position < cut:
            true_count = running * 52.0 / (n - position)
            p, b, pt, bt, used = _deal_round(rng, cards, position, drawing)
            net = nets.bet[p, b, pt, bt]
            base = nets.base[p, b, pt, bt]
            k = min(max(int(math.floor(true_count)), TC_LOW), TC_HIGH) - TC_LOW
            bins[k, 0] += 1.0
            bins[k, 1] += net
            bins[k, 2] += net * net
            for j in range(n_triggers):
                if true_count >= triggers[j]:
                    stats[j, _BETS] += 1.0
                    stats[j, _WON] += net
                    stats[j, _WON_SQ] += net * net
                    stats[j, _BASE] += base
                    shoe_won[j] += net
                    shoe_total[j] += net + base
            for i in range(used):
                running += tags[cards[position + i]]
            position += used
            rounds += 1
        for j in range(n_triggers):
            stats[j, _SHOE_WON_SQ] += shoe_won[j] * shoe_won[j]
            stats[j, _SHOE_TOTAL_SQ] += shoe_total[j] * shoe_total[j]
    return stats, bins, rounds


@kernel
def _deal_round(rng, cards, position, drawing):
    return play_round(
        rng,
        cards,
        position,
        False,
        drawing.player_draws,
        drawing.banker_draws_player_stood,
        drawing.banker_draws,
    )


@kernel
def _oracle_shoes(rng, deal, composition, shoes, nets, tag_sets, max_rounds, drawing):
    """Deal ``shoes`` shoes; before each round compute the bet's exact EV on the remaining
    composition and bet one unit when it is positive.

    Returns (stats[8], states[rounds, 1 + tag sets], rounds): the statistics of
    _counter_shoes plus the exact EV summed over the rounds bet (the expected win given what
    the bettor knew, an unbiased and far less noisy estimate of the same mean) and its
    per-shoe squares; each round's exact EV and true count under each tag set.
    """
    stats = np.zeros(8)
    n_sets = tag_sets.shape[0]
    states = np.zeros((shoes * max_rounds, 1 + n_sets))
    cards = deal.cards.copy()
    n = cards.size
    cut = n - deal.penetration
    rounds = 0
    running = np.zeros(n_sets)
    for _ in range(shoes):
        shuffle(rng, cards)
        remaining = composition.copy()
        running[:] = 0.0
        position = 0
        if deal.burn:
            position = cards_burned(cards)
            for i in range(position):
                remaining[cards[i]] -= 1  # the bettor knows exactly what is left
            for s in range(n_sets):
                running[s] += tag_sets[s, cards[0]]
        shoe_won = 0.0
        shoe_total = 0.0
        shoe_ev = 0.0
        while position < cut:
            counts = count_rounds_modulo(
                remaining,
                drawing.player_draws,
                drawing.banker_draws_player_stood,
                drawing.banker_draws,
                0,
            )
            left = n - position
            total = 1.0
            for i in range(6):
                total *= left - i
            ev = 0.0
            for index in np.ndindex(counts.shape):
                ev += counts[index] * nets.bet[index]
            ev /= total
            states[rounds, 0] = ev
            for s in range(n_sets):
                states[rounds, 1 + s] = running[s] * 52.0 / left
            p, b, pt, bt, used = _deal_round(rng, cards, position, drawing)
            if ev > 0.0:
                net = nets.bet[p, b, pt, bt]
                base = nets.base[p, b, pt, bt]
                stats[_BETS] += 1.0
                stats[_WON] += net
                stats[_WON_SQ] += net * net
                stats[_BASE] += base
                shoe_won += net
                shoe_total += net + base
                stats[_EV_WON] += ev
                shoe_ev += ev
            for i in range(used):
                card = cards[position + i]
                remaining[card] -= 1
                for s in range(n_sets):
                    running[s] += tag_sets[s, card]
            position += used
            rounds += 1
        stats[_SHOE_WON_SQ] += shoe_won * shoe_won
        stats[_SHOE_TOTAL_SQ] += shoe_total * shoe_total
        stats[_SHOE_EV_SQ] += shoe_ev * shoe_ev
    return stats, states[:rounds], rounds


# ---------------------------------------------------------------------------------------
# 3. Shoe simulation: public API
# ---------------------------------------------------------------------------------------


def _bet_arrays(rules: EZBaccaratRules, bet: str, base_bet: str | None):
    wagers = {w.name: w for w in rules.wagers()}
    bet_net = net_by_cell(wagers[bet], EVENTS)
    if base_bet is None:
        base_net = np.zeros_like(bet_net)
    elif isinstance(base_bet, str) and base_bet in wagers:
        base_net = net_by_cell(wagers[base_bet], EVENTS)
    else:
        raise GamecoreError(
            f"base_bet must be one of {', '.join(wagers)} or None, got {shown(base_bet)}"
        )
    return bet_net, base_net


@dataclasses.dataclass(frozen=True)
class SideBetCount:
    """What a side-bet counter counts, checked where it is made: the rules, the count's
    tags by rank (A..9, T), the bet it counts and the base wager it must place beside it
    (``None``: none), and the count's name (the perfect-information bettor's tag sets)."""

    rules: EZBaccaratRules
    tags: Mapping[str, int]
    bet: str = "dragon7"
    base_bet: str | None = "banker"
    name: str = "count"

    def __post_init__(self) -> None:
        _check_rules(self.rules)
        tags_by_class(self.tags)
        if not isinstance(self.bet, str) or self.bet not in SIDE_BETS:
            raise GamecoreError(f"bet must be one of {', '.join(SIDE_BETS)}, got {shown(self.bet)}")
        _bet_arrays(self.rules, self.bet, self.base_bet)
        object.__setattr__(self, "tags", dict(self.tags))

    def nets(self) -> BetNets:
        """Units won per cell of a round's outcome: the counted bet's and the base wager's."""
        return BetNets(*_bet_arrays(self.rules, self.bet, self.base_bet))


def _counted(count: object) -> SideBetCount:
    if not isinstance(count, SideBetCount):
        raise GamecoreError(f"count must be a SideBetCount (rules, tags), got {shown(count)}")
    return count


#: The options of a :class:`gamecore.counting.CounterRun` a side-bet counter does not take.
_NOT_TAKEN = ("ramp", "players", "seat", "turn_rounds", "bank_at", "index_plays")

#: The counting studies' default procedure: a shoe dealt to 14 cards behind the cut card,
#: opened by a face-value burn.
COUNTING_DEALING = Dealing(mode="shoe", penetration=14, burn="face_value")


def _shoe_and_dealing(rules, dealing: Any) -> tuple[np.ndarray, Dealing]:
    dealing = Dealing.given(dealing, COUNTING_DEALING)
    if dealing.mode != "shoe":
        raise GamecoreError(
            f"counting needs a shoe dealt to a cut card (Dealing mode 'shoe'), got {shown(dealing)}"
        )
    shoe = np.repeat(np.arange(10, dtype=np.int64), baccarat_shoe(rules.decks))
    dealing.check_shoe(shoe.size)
    return shoe, dealing


def _summary_row(
    stats: np.ndarray, shoes: int, rounds: int, rounds_per_hour: float
) -> dict[str, float]:
    bets, won, won_sq, base, shoe_won_sq, shoe_total_sq = stats[:6]
    per_shoe = won / shoes
    total_per_shoe = (won + base) / shoes
    se_shoe = math.sqrt(max(shoe_won_sq / shoes - per_shoe**2, 0.0) / shoes)
    se_total = math.sqrt(max(shoe_total_sq / shoes - total_per_shoe**2, 0.0) / shoes)
    edge = won / bets if bets else float("nan")
    se_edge = math.sqrt(max(won_sq / bets - edge**2, 0.0) / bets) if bets else float("nan")
    shoes_per_hour = rounds_per_hour / (rounds / shoes)
    return {
        "Bets per shoe": bets / shoes,
        "Share of rounds bet": bets / rounds,
        "Side bet units won per shoe": per_shoe,
        "SE (per shoe)": se_shoe,
        "Edge when betting": edge,
        "SE (edge)": se_edge,
        "Base wager units per shoe": base / shoes,
        "Total units per shoe": total_per_shoe,
        "SE (total per shoe)": se_total,
        "Side bet units per hour": per_shoe * shoes_per_hour,
        "Total units per hour": total_per_shoe * shoes_per_hour,
    }


@dataclasses.dataclass(frozen=True)
class CounterResult:
    """A counter's results over simulated shoes, per trigger and per true count."""

    rules: EZBaccaratRules
    bet: str
    base_bet: str | None
    tags: dict[str, int]
    triggers: tuple[float, ...]
    dealing: Dealing
    shoes: int
    rounds: int
    seed: int
    stats: np.ndarray
    bins: np.ndarray

    @property
    def rounds_per_shoe(self) -> float:
        return self.rounds / self.shoes

    def by_trigger(self, rounds_per_hour: float = 72.0) -> pd.DataFrame:
        """One row per trigger: bets, win per shoe and per hour, edge when betting, with SEs.

        ``Total`` adds the base wager (``base_bet``) the counter must place beside the side
        bet on the same rounds; per hour assumes ``rounds_per_hour`` rounds an hour.
        """
        _check_rounds_per_hour(rounds_per_hour)
        rows = []
        for trigger, stats in zip(self.triggers, self.stats, strict=True):
            rows.append(
                {
                    "Trigger (true count >=)": trigger,
                    **_summary_row(stats, self.shoes, self.rounds, rounds_per_hour),
                }
            )
        return pd.DataFrame(rows)

    def by_true_count(self) -> pd.DataFrame:
        """True count bin | Rounds | Share | Simulated EV of the bet | SE (every round)."""
        rows = []
        for k, (count, net, net_sq) in enumerate(self.bins):
            if count == 0:
                continue
            mean = net / count
            tc = TC_LOW + k
            label = (
                f"<= {tc + 1}" if k == 0 else (f">= {tc}" if tc == TC_HIGH else f"[{tc}, {tc + 1})")
            )
            rows.append(
                {
                    "True count": label,
                    "Bin low": tc,
                    "Rounds": int(count),
                    "Share of rounds": count / self.rounds,
                    "Simulated EV": mean,
                    "SE": math.sqrt(max(net_sq / count - mean**2, 0.0) / count),
                }
            )
        return pd.DataFrame(rows)


def counter_simulation(count: SideBetCount, run: counting.CounterRun) -> CounterResult:
    """Simulate a counter who bets one unit on ``count.bet`` when the true count >= a trigger.

    All of ``run.triggers`` are evaluated on the same shoes (common random numbers), so
    their differences are measured precisely.

    Parameters
    ----------
    count
        The rules, the tags, the bet counted and the base wager beside it.
    run
        The shoes, the seed, the triggers, the dealing (default: a shoe to 14 cards behind
        the cut card, a face-value burn) and where the chunks run; the bet is one unit (no
        ramp), heads-up.

    Returns
    -------
    CounterResult
        The counter's results per trigger and per true count.
    """
    count = _counted(count)
    if not isinstance(run, counting.CounterRun):
        raise GamecoreError(f"run must be a CounterRun, got {shown(run)}")
    run.refuse("a side-bet counter", *_NOT_TAKEN)
    shoe, dealing = _shoe_and_dealing(count.rules, run.dealing)
    job = (shoe, dealing, tags_by_class(count.tags), np.array(run.triggers), count.nets())
    chunks = make_chunks(run.shoes, CHUNK_SHOES, run.seed)
    results = run_chunks(
        _run_counter_chunk, job, chunks, run.threads, run.dask, run.progress,
        f"counting {count.bet}",
    )  # fmt: skip
    stats, bins, rounds = sum_tallies(results)
    return CounterResult(
        count.rules, count.bet, count.base_bet, dict(count.tags), run.triggers, dealing,
        run.shoes, rounds, run.seed, stats, bins,
    )  # fmt: skip


def _run_counter_chunk(job_and_chunk):
    (shoe, dealing, tags, triggers, nets), chunk = job_and_chunk
    return _counter_shoes(
        chunk.generator(),
        ShoeDeal(shoe, dealing.penetration, dealing.burn != "none"),
        chunk.size,
        tags,
        triggers,
        nets,
        DRAWING,
    )


@dataclasses.dataclass(frozen=True)
class PerfectInformationResult:
    """The perfect-information bettor's results, and every round's exact EV and counts."""

    rules: EZBaccaratRules
    bet: str
    base_bet: str | None
    tag_sets: dict[str, dict[str, int]]
    dealing: Dealing
    shoes: int
    rounds: int
    seed: int
    stats: np.ndarray
    states: np.ndarray  # (rounds, 1 + tag sets): exact EV, then each true count

    def summary(self, rounds_per_hour: float = 72.0) -> pd.DataFrame:
        """Realised results, plus the expected win per shoe: the exact EV summed over the
        rounds bet, whose mean is the same as the realised win's and whose standard error is
        far smaller (the luck of each round's cards is averaged out exactly)."""
        expected = self.stats[_EV_WON] / self.shoes
        se = math.sqrt(max(self.stats[_SHOE_EV_SQ] / self.shoes - expected**2, 0.0) / self.shoes)
        return pd.DataFrame(
            [
                {
                    "Bettor": "perfect information (bets when exact EV > 0)",
                    **_summary_row(self.stats, self.shoes, self.rounds, rounds_per_hour),
                    "Expected side bet units per shoe (exact EV of the rounds bet)": expected,
                    "SE (expected per shoe)": se,
                    "Expected side bet units per hour": expected
                    * rounds_per_hour
                    / (self.rounds / self.shoes),
                }
            ]
        )

    def exact_ev(self) -> np.ndarray:
        return self.states[:, 0]

    def true_counts(self, tag_set: str) -> np.ndarray:
        names = list(self.tag_sets)
        if tag_set not in names:
            raise GamecoreError(f"unknown tag set {shown(tag_set)}; tag sets: {', '.join(names)}")
        return self.states[:, 1 + names.index(tag_set)]

    def correlations(self) -> pd.DataFrame:
        """Count | correlation of its true count with the exact EV over all simulated rounds."""
        return pd.DataFrame(
            [
                {
                    "Count": name,
                    "Correlation of true count with exact EV": float(
                        np.corrcoef(self.true_counts(name), self.exact_ev())[0, 1]
                    ),
                }
                for name in self.tag_sets
            ]
        )

    def ev_by_true_count(self, tag_set: str) -> pd.DataFrame:
        """Mean exact EV of the remaining shoe by true-count bin, and the share positive."""
        tc = np.clip(np.floor(self.true_counts(tag_set)), TC_LOW, TC_HIGH).astype(int)
        frame = pd.DataFrame({"Bin low": tc, "EV": self.exact_ev()})
        grouped = frame.groupby("Bin low")["EV"]
        out = pd.DataFrame(
            {
                "Rounds": grouped.size(),
                "Mean exact EV": grouped.mean(),
                "Share with EV > 0": grouped.apply(lambda ev: float((ev > 0).mean())),
            }
        ).reset_index()
        out.insert(0, "Count", tag_set)
        return out


def perfect_information_simulation(
    count: SideBetCount | Sequence[SideBetCount], run: counting.CounterRun
) -> PerfectInformationResult:
    """Simulate a bettor who knows the exact EV of the remaining shoe before every round.

    The EV is computed exactly by the exact engine on the remaining composition (about a
    tenth of a millisecond a round), so this runs far fewer shoes than the counter.

    Parameters
    ----------
    count
        A count, or several of one rules, bet and base wager (named apart): the bet, and
        the tag sets whose true counts are kept beside each round's exact EV.
    run
        The shoes, the seed, the dealing and where the chunks run (no trigger: the bettor
        bets when the exact EV is positive).

    Returns
    -------
    PerfectInformationResult
        The bettor's results and every round's exact EV and true counts.
    """
    counts = [count] if isinstance(count, SideBetCount) else count
    if not isinstance(counts, Sequence) or not counts:
        raise GamecoreError(f"count must be a SideBetCount or a list of them, got {shown(count)}")
    first = _counted(counts[0])
    for other in map(_counted, counts):
        if (other.rules, other.bet, other.base_bet) != (first.rules, first.bet, first.base_bet):
            raise GamecoreError("the counts must share the rules, the bet and the base wager")
    if not isinstance(run, counting.CounterRun):
        raise GamecoreError(f"run must be a CounterRun, got {shown(run)}")
    run.refuse("the perfect-information bettor", "trigger", *_NOT_TAKEN)
    rules, tag_sets = first.rules, {c.name: c.tags for c in counts}
    shoe, dealing = _shoe_and_dealing(rules, run.dealing)
    if ordered_sequences(shoe.size, 6) > INT64_MAX:
        raise GamecoreError(
            "the perfect-information bettor needs int64 counts: at most 27 decks, "
            f"got {rules.decks}"
        )
    tag_array = np.array([tags_by_class(tags) for tags in tag_sets.values()], dtype=np.int64)
    job = (shoe, baccarat_shoe(rules.decks), dealing, tag_array, first.nets(), shoe.size // 4 + 1)
    chunks = make_chunks(run.shoes, ORACLE_CHUNK_SHOES, run.seed)
    results = run_chunks(
        _run_oracle_chunk, job, chunks, run.threads, run.dask, run.progress,
        f"exact EV {first.bet}",
    )  # fmt: skip
    stats, rounds, state_parts = 0, 0, []
    for chunk_stats, chunk_states, chunk_rounds in results:  # in chunk order
        stats, rounds = stats + chunk_stats, rounds + chunk_rounds
        state_parts.append(chunk_states)
    return PerfectInformationResult(
        rules, first.bet, first.base_bet, tag_sets, dealing, run.shoes, rounds, run.seed, stats,
        np.concatenate(state_parts),
    )  # fmt: skip


def _run_oracle_chunk(job_and_chunk):
    (shoe, composition, dealing, tag_array, nets, max_rounds), chunk = job_and_chunk
    return _oracle_shoes(
        chunk.generator(),
        ShoeDeal(shoe, dealing.penetration, dealing.burn != "none"),
        composition,
        chunk.size,
        nets,
        tag_array,
        max_rounds,
        DRAWING,
    )


def procedure_table(
    count: SideBetCount,
    run: counting.CounterRun,
    penetrations: Sequence[int] = (14, 26, 52, 104, 208),
    deck_counts: Sequence[int] = (6, 8),
    rounds_per_hour: float = 72.0,
    burn: str = "face_value",
) -> pd.DataFrame:
    """The counter's results under each dealing procedure (decks x penetration).

    Parameters
    ----------
    count
        The count (its rules' decks are replaced by each of ``deck_counts``).
    run
        One counter simulation per procedure, at its one trigger (its dealing is replaced
        by each procedure's).
    penetrations, deck_counts
        The procedures: each deck count dealt to each penetration with the ``burn``.
    rounds_per_hour
        Rounds an hour, for the figures per hour.

    Returns
    -------
    pandas.DataFrame
        One row per procedure: decks, cut card, rounds per shoe and the columns of
        :meth:`CounterResult.by_trigger`.
    """
    _check_rounds_per_hour(rounds_per_hour)
    if len(run.triggers) != 1:
        raise GamecoreError(f"procedure_table takes one trigger, got {shown(run.trigger)}")
    for name, values in (("penetrations", penetrations), ("deck_counts", deck_counts)):
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or not values:
            raise GamecoreError(f"{name} must be a list, got {shown(values)}")
    rows = []
    for decks in deck_counts:
        variant = dataclasses.replace(count, rules=count.rules.replace(decks=decks))
        for penetration in penetrations:
            dealing = Dealing(mode="shoe", penetration=penetration, burn=burn)
            result = counter_simulation(variant, run.replace(dealing=dealing))
            row = result.by_trigger(rounds_per_hour).iloc[0].to_dict()
            rows.append(
                {
                    "Decks": decks,
                    "Cards behind the cut card": penetration,
                    "Rounds per shoe": result.rounds_per_shoe,
                    **row,
                    # The threat stands where the counter's win is clearly above zero.
                    "Counter wins (more than 2 SE above 0)": bool(
                        row["Side bet units won per shoe"] > 2 * row["SE (per shoe)"]
                    ),
                }
            )
    return pd.DataFrame(rows)
