"""Tune one parameter to a target rate: which value gives the survivors 30% of the games?

The rate of an outcome is a noisy function of the parameter; the search assumes it is monotone over
the range (raise a cap, the survivors win more often, or less) and bisects it:

1. Both ends of the range are measured; their rates say whether the rate rises or falls with the
   value. A target beyond what the ends reach is reported as such, with the nearer end.
2. The middle of the bracket is measured. Where its Wilson interval still holds the target, more
   games are added there (doubling, up to `max_games`): the side of the target the rate lies on is
   decided by evidence where the evidence allows, by the estimate where it does not.
3. The bracket keeps the half that holds the target, until it is one step wide (integers) or
   narrower than the tolerance (reals); its two ends are then played on as many games as each other,
   so that the closer one is chosen on the same seeds.

Every value is played on the same game seeds (`game_seed(seed, i)`; added games continue the
sequence), so neighbouring values differ by the parameter, not by luck (common random numbers), and
the whole search is the same for any worker count. The answer is the measured value whose rate is
closest to the target (of equally close ones, an end of the last bracket the bisection held,
where a monotone rate crosses the target), reported with every value measured, their rates and
intervals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ecs_zombie.balance import numeric_parameter, play_batch, validated_params
from ecs_zombie.batch import BatchSpec, check
from ecs_zombie.errors import GameError
from ecs_zombie.stats import wilson
from ecs_zombie.tournament import TEAMS

# The outcomes every game may end in: the teams' wins and the engine's own hard stop.
KNOWN_OUTCOMES = (*TEAMS, "timeout")


@dataclass
class Point:
    """One value of the parameter and the games measured at it."""

    value: Any
    games: int = 0
    hits: int = 0  # games ending in the outcome
    failed: int = 0

    @property
    def played(self) -> int:
        return self.games - self.failed

    @property
    def rate(self) -> float:
        return self.hits / self.played if self.played else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        return wilson(self.hits, self.played) if self.played else (0.0, 1.0)

    def holds(self, target: float) -> bool:
        lo, hi = self.ci
        return lo <= target <= hi

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "games": self.games, "failed": self.failed, "rate": self.rate,
                "ci95": list(self.ci)}


@dataclass
class Tuning:
    target: str
    param: str
    goal: float
    outcome: str
    policy: str
    seed: int
    points: dict[Any, Point] = field(default_factory=dict)
    best: Point | None = None
    reachable: bool = True
    interrupted: bool = False

    def ordered(self) -> list[Point]:
        return [self.points[v] for v in sorted(self.points)]

    def to_dict(self) -> dict[str, Any]:
        return {"target": self.target, "param": self.param, "goal": self.goal, "outcome": self.outcome,
                "policy": self.policy, "seed": self.seed, "reachable": self.reachable,
                "interrupted": self.interrupted, "best": self.best.to_dict() if self.best else None,
                "games": sum(p.games for p in self.points.values()),
                "points": [p.to_dict() for p in self.ordered()]}


def param_range(target: str, param: str, given: tuple[Any, Any] | None) -> tuple[str, Any, Any]:
    """The parameter's type and the range searched: `--range`, else its declared min and max."""
    p = numeric_parameter(target, param, "tuned")
    lo, hi = given if given is not None else (p.minimum, p.maximum)
    if lo is None or hi is None:
        raise GameError(f"parameter {param!r} declares no min and max: give --range LO..HI")
    lo, hi = p.check(lo, "--range"), p.check(hi, "--range")
    if not lo < hi:
        raise GameError(f"--range {lo}..{hi} is empty")
    return p.type, lo, hi


def tune(target: str, param: str, goal: float, outcome: str = "survivors", policy: str = "heuristic",
         games: int = 200, seed: int = 1, workers: int = 1, players: int | None = None,
         fixed: dict[str, str] | None = None, given_range: tuple[Any, Any] | None = None,
         max_games: int | None = None, tolerance: float | None = None, backend: str = "local",
         address: str | None = None) -> Tuning:
    if not 0.0 <= goal <= 1.0:
        raise GameError(f"--target is a rate between 0 and 1, got {goal}")
    if games < 1:
        raise GameError("--games must be at least 1")
    if max_games is not None and max_games < games:
        raise GameError(f"--max-games ({max_games}) must be at least --games ({games})")
    if tolerance is not None and not 0.0 < tolerance < math.inf:  # NaN fails both comparisons
        raise GameError(f"--tolerance must be a positive finite number, got {tolerance}")
    kind, lo, hi = param_range(target, param, given_range)
    base = validated_params(target, dict(fixed or {}))
    if param in base:
        raise GameError(f"--param {param} is the one tuned: do not also fix it")
    cap = max_games if max_games is not None else 8 * games
    tol = tolerance if tolerance is not None else (hi - lo) / 64
    check(BatchSpec(target, 1, seed, policy, players, {**base, param: lo}))
    result = Tuning(target, param, goal, outcome, policy, seed)
    seen: set[str] = set()  # the outcomes the games ended in

    def measure(value: Any, n: int) -> Point:
        point = result.points.setdefault(value, Point(value))
        if point.games >= n or result.interrupted:
            return point
        spec = BatchSpec(target, n - point.games, seed, policy, players, {**base, param: value}, first=point.games)
        batch = play_batch(spec, workers, backend, address)
        point.games += batch.summary.games
        point.failed += batch.summary.failed
        point.hits += batch.summary.outcomes.get(outcome, 0)
        seen.update(batch.summary.outcomes)
        result.interrupted = batch.interrupted
        return point

    def settle(point: Point) -> Point:
        """More games where the interval still holds the target (up to the cap)."""
        while point.holds(goal) and point.games < cap and not result.interrupted:
            measure(point.value, min(cap, 2 * point.games))
        return point

    a, b = measure(lo, games), measure(hi, games)
    if seen and outcome not in seen and outcome not in KNOWN_OUTCOMES and not result.interrupted:
        # A ruleset may end in outcomes of its own, so any name is taken; one that no game at either
        # end reached has a rate of 0 throughout and is most likely misspelt: say so rather than
        # report a target out of reach.
        raise GameError(f"--outcome {outcome!r}: no game at either end of the range ended so (they ended "
                        f"{', '.join(sorted(seen))}): is it misspelt?")
    a, b = settle(a), settle(b)
    rising = b.rate >= a.rate
    low_end, high_end = (a, b) if rising else (b, a)
    bracket: set[Any] = set()
    if goal < low_end.ci[0] or goal > high_end.ci[1]:
        result.reachable = False
    else:
        while not result.interrupted:
            if kind == "int":
                if b.value - a.value <= 1:
                    break
                middle: Any = (a.value + b.value) // 2
            else:
                if b.value - a.value <= tol:
                    break
                middle = round((a.value + b.value) / 2, 12)
                if middle in (a.value, b.value):  # a tolerance finer than the 12 digits kept
                    break
            m = settle(measure(middle, games))
            if (m.rate < goal) == rising:
                a = m
            else:
                b = m
        # the two values either side of the target, compared on the same games
        n = max(a.games, b.games)
        a, b = measure(a.value, n), measure(b.value, n)
        bracket = {a.value, b.value}
    # Ties in closeness go to the ends of the last bracket held (where a monotone rate crosses the
    # target; empty when the target is out of reach), then to more games, then to the smaller value.
    result.best = min(result.points.values(),
                      key=lambda p: (abs(p.rate - goal), p.value not in bracket, -p.games, p.value))
    return result


def tune_plot(result: Tuning, title: str, path: Any) -> None:
    """The rate at every value measured, with its interval, and the target."""
    from ecs_zombie.plot import _pyplot, _save, _wrapped

    plt = _pyplot()
    points = result.ordered()
    fig, ax = plt.subplots(figsize=(7, 4.2))
    xs = [p.value for p in points]
    ys = [p.rate for p in points]
    lows = [max(0.0, p.rate - p.ci[0]) for p in points]
    highs = [max(0.0, p.ci[1] - p.rate) for p in points]
    ax.errorbar(xs, ys, yerr=[lows, highs], fmt="o-", color="#1f77b4", capsize=3,
                label=f"{result.outcome} rate (95% Wilson interval)")
    ax.axhline(result.goal, color="#d62728", linestyle="--", label=f"target {result.goal:g}")
    if result.best is not None:
        ax.plot([result.best.value], [result.best.rate], "s", color="#d62728", markersize=9,
                label=f"closest: {result.param} = {result.best.value:g}")
    ax.set_xlabel(result.param)
    ax.set_ylabel(f"{result.outcome} rate")
    ax.set_ylim(0, 1)
    ax.legend(loc="best", fontsize=8)
    ax.set_title(_wrapped(title, 80), fontsize=9)
    _save(fig, plt, path)
