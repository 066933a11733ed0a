"""Plots of batch results, with matplotlib from the `plot` extra (imported only when asked).

The file's suffix chooses the format: `.png`, `.svg` or `.pdf` (the same plot; SVG and PDF carry no
date, so the same batch draws the same bytes). Every figure says what it shows in its title: the
ruleset or scenario, the number of games, the seed, the policy, the parameters given, and for a
batch each outcome's rate with its Wilson 95% interval.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from ecs_zombie.errors import GameError
from ecs_zombie.stats import Summary, wilson

FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
# One colour per outcome, the same in every figure: the usual ones first, then any other in name order.
_KNOWN = ("survivors", "zombies", "timeout")
_PALETTE = ("#1f77b4", "#d62728", "#7f7f7f", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
# A bar this many times taller than the next one hides the others on a linear axis.
DOMINANT = 8.0


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise GameError("--plot needs matplotlib: pip install 'ecs-zombie[plot]'") from None
    matplotlib.rcParams["svg.hashsalt"] = "ecs-zombie"  # SVG element ids the same from run to run
    return plt


def check_target(path: Path) -> None:
    """Refuse, before any game runs, a plot that cannot be written: an unknown suffix or no matplotlib."""
    import importlib.util

    if path.suffix.lower() not in FORMATS:
        raise GameError(f"{path}: --plot writes {', '.join(FORMATS)} files (chosen by the suffix)")
    if importlib.util.find_spec("matplotlib") is None:  # as installed, not as already imported here
        raise GameError("--plot needs matplotlib: pip install 'ecs-zombie[plot]'")
    _pyplot()


def colours(outcomes: list[str]) -> dict[str, str]:
    ordered = [o for o in _KNOWN if o in outcomes] + sorted(o for o in outcomes if o not in _KNOWN)
    return {o: _PALETTE[i % len(_PALETTE)] for i, o in enumerate(ordered)}


def rates_line(summary: Summary) -> str:
    """Each outcome's rate with its Wilson 95% interval, in percent."""
    played = summary.games - summary.failed
    parts = []
    for name in sorted(summary.outcomes):
        count = summary.outcomes[name]
        lo, hi = wilson(count, played)
        parts.append(f"{name} {100 * count / played:.1f}% ({100 * lo:.1f}–{100 * hi:.1f}%)")
    line = ", ".join(parts) + " (Wilson 95%)"
    if summary.failed:
        line += f"; {summary.failed} games failed"
    return line


def _wrapped(text: str, width: int) -> str:
    """Lines wrapped at `width`, breaking only after a comma or a semicolon (so "seed 1" or
    "policy heuristic" stays whole)."""
    keep = "\u00a0"  # a space textwrap does not break at

    def fill(line: str) -> str:
        parts = [part.replace(" ", keep) for part in line.replace(", ", ",\0").replace("; ", ";\0").split("\0")]
        return textwrap.fill(" ".join(parts), width).replace(keep, " ")

    return "\n".join(fill(line) for line in text.splitlines())


def main_metric(summary: Summary, names: list[str]) -> str | None:
    """The first of `names` (the ruleset's metrics, in its order) the batch has a distribution of:
    whole numbers in every game (a text or fractional metric has none)."""
    for name in names:
        moments = summary.metrics.get(name)
        if moments is not None and moments.hist is not None and moments.n:
            return name
    return None


def batch_plot(summary: Summary, metric: str | None, title: str, path: Path, tick_name: str = "turn") -> None:
    """Left: how many games lasted each number of turns, the outcomes stacked. Right: the metric's
    distribution (share of games at each value), on a log axis when one value holds most games,
    with its mean and interval marked. Without a metric that has a distribution, the left alone."""
    plt = _pyplot()
    moments = summary.metrics.get(metric or "")
    if moments is not None and moments.hist is not None and moments.n:
        fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5.4), gridspec_kw={"width_ratios": [1.25, 1]})
        _metric_panel(right, str(metric), moments)
    else:
        fig, left = plt.subplots(figsize=(8, 5.4))
    palette = colours(list(summary.outcomes))
    turns = sorted({t for h in summary.turns_by_outcome.values() for t in h.counts})
    bottom = dict.fromkeys(turns, 0)
    for outcome in palette:
        hist = summary.turns_by_outcome.get(outcome)
        if hist is None:
            continue
        present = [t for t in turns if hist.counts.get(t, 0)]  # no empty segments: each would pin the axis
        left.bar(present, [hist.counts[t] for t in present], bottom=[bottom[t] for t in present], width=0.8,
                 color=palette[outcome], label=f"{outcome} ({summary.outcomes[outcome]:,} games)")
        for t in present:
            bottom[t] += hist.counts[t]
    left.set_xlabel(f"{tick_name}s the game lasted")
    left.set_ylabel("games")
    left.set_title("game length, by outcome (stacked)")
    _integer_ticks(left, turns)
    left.legend(title="outcome", frameon=False)
    left.grid(axis="y", alpha=0.3)
    left.set_axisbelow(True)
    left.margins(y=0.08)
    fig.suptitle(_wrapped(f"{title}\n{rates_line(summary)}", 110), fontsize=11)
    _save(fig, plt, path)


def _integer_ticks(ax: Any, values: list[int]) -> None:
    """A tick at each value when there are few; else whole-number ticks matplotlib spaces."""
    from matplotlib.ticker import MaxNLocator

    if len(values) <= 16:
        ax.set_xticks(values)
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))


def _metric_panel(ax: Any, name: str, moments: Any) -> None:
    from matplotlib.ticker import FuncFormatter

    counts = moments.hist.counts
    values = sorted(counts)
    shares = [100 * counts[v] / moments.n for v in values]
    ax.bar(values, shares, width=0.8, color="#555555")
    ordered = sorted(shares, reverse=True)
    if len(ordered) > 1 and ordered[0] > DOMINANT * ordered[1]:
        ax.set_yscale("log")
        ax.set_ylabel("share of games (log scale)")
    else:
        ax.set_ylabel("share of games")
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _pos: f"{y:g}%"))
    _integer_ticks(ax, values)
    if len(values) <= 12:
        for v, share in zip(values, shares, strict=True):
            ax.annotate(f"{share:.1f}%" if share >= 0.1 else f"{share:.2f}%", (v, share), ha="center",
                        va="bottom", fontsize=8, xytext=(0, 2), textcoords="offset points")
    ci = moments.interval()
    digits = 3 if abs(moments.mean) < 10 else 1
    if ci:
        ax.axvspan(ci[0], ci[1], color="#ff7f0e", alpha=0.25, lw=0)
    ax.axvline(moments.mean, color="#ff7f0e", lw=1.5)
    ax.set_xlabel(name)
    ax.set_title(f"{name}: share of games at each value\nmean {moments.mean:.{digits}f} (orange line)" +
                 (f", 95% CI {ci[0]:.{digits}f}–{ci[1]:.{digits}f} (shaded)" if ci else ""), fontsize=11)
    ax.margins(y=0.12)


def sweep_plot(param: str, points: list[tuple[Any, dict[str, Any]]], title: str, path: Path) -> None:
    """Each outcome's rate against the swept parameter, with its Wilson 95% band."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8.5, 5.2))
    outcomes = sorted({o for _, s in points for o in s["outcomes"]})
    palette = colours(outcomes)
    xs = [x for x, _ in points]
    for outcome in palette:
        rates = [s["outcomes"].get(outcome, {"rate": 0.0})["rate"] for _, s in points]
        lows = [s["outcomes"].get(outcome, {"ci95": [0.0, 0.0]})["ci95"][0] for _, s in points]
        highs = [s["outcomes"].get(outcome, {"ci95": [0.0, 0.0]})["ci95"][1] for _, s in points]
        ax.plot(xs, rates, marker="o", label=outcome, color=palette[outcome])
        ax.fill_between(xs, lows, highs, alpha=0.2, color=palette[outcome], lw=0)
    ax.set_xlabel(param)
    ax.set_ylabel("rate (95% Wilson band)")
    ax.set_ylim(0, 1)
    if len(xs) <= 16:
        ax.set_xticks(xs)
    ax.grid(alpha=0.3)
    ax.legend(title="outcome", frameon=False)
    ax.set_title(_wrapped(title, 80), fontsize=11)
    _save(fig, plt, path)


def _save(fig: Any, plt: Any, path: Path) -> None:
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        plt.close(fig)
        raise GameError(f"{path}: --plot writes {', '.join(FORMATS)} files (chosen by the suffix)")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.tight_layout()
        metadata = {"Date": None} if fmt == "svg" else {"CreationDate": None} if fmt == "pdf" else None
        fig.savefig(path, format=fmt, dpi=100, metadata=metadata)
    except OSError as exc:
        raise GameError(f"{path}: cannot write ({exc.strerror})") from None
    finally:
        plt.close(fig)
