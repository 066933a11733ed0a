"""Statistics for batches, in bounded memory: outcome rates with Wilson intervals, exact quantiles
of whole-number series from their histograms, and means with Student t 95% intervals clamped to the
range the values were seen in (Welford's running mean and variance, plus the minimum and maximum).

Why clamped t intervals: a metric is often a count that most games leave at 0 (heroes left), and
the normal interval of such a mean reaches below 0, a value no game can have. The t interval is the
usual one for a mean, and the mean of values between a and b lies between a and b, so cutting the
interval at the smallest and largest values seen never removes a possible mean; it keeps the
interval inside the metric's range and costs two numbers per metric (a bootstrap would need the
values). With one game there is no interval (None).

Everything is accumulated in game order, so the same games give the same figures to the last bit
whatever the number of workers.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any

Z95 = 1.959963984540054
METHODS = {"outcomes": "Wilson score interval, 95%",
           "metrics": "Student t interval of the mean, 95%, clamped to the smallest and largest values seen"}


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (Wilson 1927); (0, 1) for n = 0. No success
    gives a lower bound of exactly 0 and all successes an upper bound of exactly 1 (the formula's
    centre - half is 0 there, but about 3e-18 in floating point: a target rate of 0 looked out of
    every interval)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (0.0 if successes == 0 else max(0.0, centre - half)), (1.0 if successes == n else min(1.0, centre + half))


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz; Numerical Recipes 6.4)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        even = m * (b - m) * x / ((a + m2 - 1) * (a + m2))
        odd = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))
        for num in (even, odd):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with `df` degrees of freedom."""
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


@functools.lru_cache(maxsize=256)
def t_quantile(p: float, df: float) -> float:
    """The p-quantile of Student's t (bisection on `t_cdf`, to about 1e-12)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be in (0, 1), got {p}")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        lo, hi = hi, hi * 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return (lo + hi) / 2.0


@dataclass
class Histogram:
    """Counts of whole-number values: exact quantiles without keeping the values."""

    counts: dict[int, int] = field(default_factory=dict)
    n: int = 0

    def add(self, value: int) -> None:
        self.counts[value] = self.counts.get(value, 0) + 1
        self.n += 1

    def merge(self, other: Histogram) -> None:
        for value, count in other.counts.items():
            self.counts[value] = self.counts.get(value, 0) + count
        self.n += other.n

    def quantile(self, q: float) -> float:
        """The q-quantile by linear interpolation between closest ranks (numpy's default method)."""
        if self.n == 0:
            return math.nan
        pos = q * (self.n - 1)
        lo, hi = math.floor(pos), math.ceil(pos)
        return self._at(lo) + (self._at(hi) - self._at(lo)) * (pos - lo)

    def _at(self, rank: int) -> int:
        seen = 0
        for value in sorted(self.counts):
            seen += self.counts[value]
            if rank < seen:
                return value
        raise IndexError(rank)


@dataclass
class Moments:
    """Mean and sample variance by Welford's method, the smallest and largest values, and a
    histogram while the values are whole numbers."""

    n: int = 0
    mean: float = 0.0
    m2: float = 0.0
    hist: Histogram | None = field(default_factory=Histogram)
    low: float = math.inf
    high: float = -math.inf

    def add(self, value: float) -> None:
        self.n += 1
        delta = value - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (value - self.mean)
        self.low, self.high = min(self.low, value), max(self.high, value)
        if self.hist is not None:
            if isinstance(value, int) and not isinstance(value, bool):
                self.hist.add(value)
            else:
                self.hist = None

    def merge(self, other: Moments) -> None:
        """Add another series' figures (Chan, Golub and LeVeque's pairwise update)."""
        if other.n == 0:
            return
        n = self.n + other.n
        delta = other.mean - self.mean
        self.mean += delta * other.n / n
        self.m2 += other.m2 + delta * delta * self.n * other.n / n
        self.n = n
        self.low, self.high = min(self.low, other.low), max(self.high, other.high)
        if self.hist is not None and other.hist is not None:
            self.hist.merge(other.hist)
        else:
            self.hist = None

    def interval(self) -> tuple[float, float] | None:
        """The Student t 95% interval of the mean, clamped to [smallest, largest value seen]; None
        for fewer than two values."""
        if self.n < 2:
            return None
        half = t_quantile(0.975, self.n - 1) * math.sqrt(self.m2 / (self.n - 1) / self.n)
        return float(max(self.low, self.mean - half)), float(min(self.high, self.mean + half))

    def to_dict(self) -> dict[str, Any]:
        ci = self.interval()
        return {"mean": self.mean if self.n else None, "ci95": list(ci) if ci is not None else None,
                "min": self.low if self.n else None, "max": self.high if self.n else None, "n": self.n}


@dataclass
class Summary:
    """A batch's figures, fed one row at a time in game order."""

    games: int = 0
    failed: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    turns: Moments = field(default_factory=Moments)
    turns_by_outcome: dict[str, Histogram] = field(default_factory=dict)
    metrics: dict[str, Moments] = field(default_factory=dict)
    failed_seeds: list[int] = field(default_factory=list)
    MAX_FAILED_LISTED = 1000

    def add(self, row: dict[str, Any], metric_names: list[str]) -> None:
        self.games += 1
        if row.get("error"):
            self.failed += 1
            if len(self.failed_seeds) < self.MAX_FAILED_LISTED:
                self.failed_seeds.append(row["seed"])
            return
        outcome = str(row["outcome"])
        self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1
        self.turns.add(row["turns"])
        self.turns_by_outcome.setdefault(outcome, Histogram()).add(row["turns"])
        for name in metric_names:
            value = row.get(name)
            if isinstance(value, int | float) and not isinstance(value, bool):
                self.metrics.setdefault(name, Moments()).add(value)

    def merge(self, other: Summary) -> None:
        """Add another summary's games (a sweep's total over its points)."""
        self.games += other.games
        self.failed += other.failed
        room = self.MAX_FAILED_LISTED - len(self.failed_seeds)
        self.failed_seeds.extend(other.failed_seeds[:max(0, room)])
        for k, v in other.outcomes.items():
            self.outcomes[k] = self.outcomes.get(k, 0) + v
        self.turns.merge(other.turns)
        for k, h in other.turns_by_outcome.items():
            self.turns_by_outcome.setdefault(k, Histogram()).merge(h)
        for k, m in other.metrics.items():
            self.metrics.setdefault(k, Moments()).merge(m)

    def to_dict(self) -> dict[str, Any]:
        played = self.games - self.failed
        outcomes = {}
        for name in sorted(self.outcomes):
            lo, hi = wilson(self.outcomes[name], played)
            outcomes[name] = {"count": self.outcomes[name], "rate": self.outcomes[name] / played,
                              "ci95": [lo, hi]}
        hist = self.turns.hist
        turns = {"mean": self.turns.mean if played else None,
                 "median": hist.quantile(0.5) if hist and played else None,
                 "p5": hist.quantile(0.05) if hist and played else None,
                 "p95": hist.quantile(0.95) if hist and played else None}
        metrics = {name: m.to_dict() for name, m in sorted(self.metrics.items())}
        return {"games": self.games, "failed": self.failed, "outcomes": outcomes, "turns": turns,
                "metrics": metrics, "failed_seeds": self.failed_seeds, "intervals": dict(METHODS)}
