"""Statistics for batches, in bounded memory: outcome rates with Wilson intervals, exact quantiles
of whole-number series from their histograms, and means with normal 95% intervals (Welford).

Everything is accumulated in game order, so the same games give the same figures to the last bit
whatever the number of workers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (Wilson 1927); (0, 1) for n = 0."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Histogram:
    """Counts of whole-number values: exact quantiles without keeping the values."""

    counts: dict[int, int] = field(default_factory=dict)
    n: int = 0

    def add(self, value: int) -> None:
        self.counts[value] = self.counts.get(value, 0) + 1
        self.n += 1

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
    """Mean and sample variance by Welford's method, plus a histogram when values are whole numbers."""

    n: int = 0
    mean: float = 0.0
    m2: float = 0.0
    hist: Histogram | None = field(default_factory=Histogram)

    def add(self, value: float) -> None:
        self.n += 1
        delta = value - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (value - self.mean)
        if self.hist is not None:
            if isinstance(value, int) and not isinstance(value, bool):
                self.hist.add(value)
            else:
                self.hist = None

    def interval(self) -> tuple[float, float]:
        """Normal-approximation 95% interval of the mean."""
        if self.n < 2:
            return self.mean, self.mean
        half = Z95 * math.sqrt(self.m2 / (self.n - 1) / self.n)
        return self.mean - half, self.mean + half


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
        metrics = {name: {"mean": m.mean, "ci95": list(m.interval())} for name, m in sorted(self.metrics.items())}
        return {"games": self.games, "failed": self.failed, "outcomes": outcomes, "turns": turns,
                "metrics": metrics, "failed_seeds": self.failed_seeds}
