"""Plots of batch results (PNG, with matplotlib from the `plot` extra; imported only when asked)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ecs_zombie.errors import GameError
from ecs_zombie.stats import Summary


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise GameError("--plot needs matplotlib: pip install 'ecs-zombie[plot]'") from None
    return plt


def batch_plot(summary: Summary, main_metric: str | None, title: str, path: Path) -> None:
    """Turns survived by outcome, and the distribution of the main metric."""
    plt = _pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for outcome, hist in sorted(summary.turns_by_outcome.items()):
        values = sorted(hist.counts)
        left.bar([v + 0.0 for v in values], [hist.counts[v] for v in values], alpha=0.6, label=outcome)
    left.set_xlabel("turns")
    left.set_ylabel("games")
    left.set_title("turns survived, by outcome")
    left.legend()
    moments = summary.metrics.get(main_metric or "")
    if moments is not None and moments.hist is not None:
        values = sorted(moments.hist.counts)
        right.bar(values, [moments.hist.counts[v] for v in values], color="tab:gray")
        right.set_title(f"{main_metric} (mean {moments.mean:.2f})")
        right.set_xlabel(str(main_metric))
    else:
        right.set_axis_off()
    fig.suptitle(title)
    _save(fig, plt, path)


def sweep_plot(param: str, points: list[tuple[Any, dict[str, Any]]], title: str, path: Path) -> None:
    """Each outcome's rate against the swept parameter, with its Wilson 95% band."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    outcomes = sorted({o for _, s in points for o in s["outcomes"]})
    xs = [x for x, _ in points]
    for outcome in outcomes:
        rates = [s["outcomes"].get(outcome, {"rate": 0.0})["rate"] for _, s in points]
        lows = [s["outcomes"].get(outcome, {"ci95": [0.0, 0.0]})["ci95"][0] for _, s in points]
        highs = [s["outcomes"].get(outcome, {"ci95": [0.0, 0.0]})["ci95"][1] for _, s in points]
        ax.plot(xs, rates, marker="o", label=outcome)
        ax.fill_between(xs, lows, highs, alpha=0.2)
    ax.set_xlabel(param)
    ax.set_ylabel("rate (95% Wilson band)")
    ax.set_ylim(0, 1)
    ax.legend()
    ax.set_title(title)
    _save(fig, plt, path)


def _save(fig: Any, plt: Any, path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.tight_layout()
        fig.savefig(path, format="png", dpi=100)
    except OSError as exc:
        raise GameError(f"{path}: cannot write ({exc.strerror})") from None
    finally:
        plt.close(fig)
