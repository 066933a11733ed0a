"""How the two directors differ (issue 6): plays N games of `director` and `director-adaptive`
in-process with the default policies and prints outcome rates, game length, zombies spawned, and
the mean survivor intensity per round; writes a PNG plot when matplotlib is importable (an
optional extra: `pip install matplotlib`).

    python benchmarks/director_compare.py [--games 300] [--players 2] [--plot saves/director_compare.png]

Intensity per round is the mean over the survivors of every game still running at that round
(games that ended are left out of later rounds, so the curve is of live games).
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from typing import Any

import measured  # before ecs_zombie: it chooses the build measured

from ecs_zombie import Game, new_game
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.scenario import load_scenario
from ecs_zombie.systems.director.board import director
from ecs_zombie.systems.director.components import Intensity

RULESETS = ("director", "director-adaptive")


def play_many(ruleset: str, games: int, players: int) -> dict[str, Any]:
    scenario = load_scenario(ruleset)
    policies = PolicyTable("heuristic")
    outcomes: Counter[str] = Counter()
    per_round: dict[int, list[float]] = {}
    spawned_per_round: dict[int, list[int]] = {}
    modes: dict[int, Counter[str]] = {}
    example: list[float] = []
    rounds = spawned = 0
    for seed in range(games):
        game = new_game(scenario, seed, players=players)
        last = [0]

        def on_tick(g: Game, seed: int = seed, last: list[int] = last) -> None:
            values = [i.value for _e, i in g.world.query1(Intensity)]
            mean = sum(values) / len(values) if values else 0.0
            per_round.setdefault(g.tick, []).append(mean)
            total = g.metrics()["zombies_spawned"]
            spawned_per_round.setdefault(g.tick, []).append(total - last[0])
            last[0] = total
            modes.setdefault(g.tick, Counter())[director(g)[1].mode] += 1
            if seed == 0:
                example.append(mean)

        game.play(policies, on_tick=on_tick)
        outcomes[game.outcome or "none"] += 1
        rounds += game.tick
        spawned += game.metrics()["zombies_spawned"]
        game.close()
    curve = [sum(v) / len(v) for _t, v in sorted(per_round.items())]
    spawn_curve = [sum(v) / len(v) for _t, v in sorted(spawned_per_round.items())]
    live = [len(v) for _t, v in sorted(per_round.items())]
    return {"ruleset": ruleset, "games": games, "outcomes": outcomes, "mean_rounds": rounds / games,
            "mean_spawned": spawned / games, "curve": curve, "spawn_curve": spawn_curve, "live": live,
            "example": example, "modes": modes}


def report(r: dict[str, Any]) -> None:
    n = r["games"]
    rates = ", ".join(f"{k} {v / n:.1%}" for k, v in sorted(r["outcomes"].items()))
    print(f"{r['ruleset']}: {n} games: {rates}; {r['mean_rounds']:.1f} rounds a game; "
          f"{r['mean_spawned']:.1f} zombies summoned a game")
    print("  round:              " + " ".join(f"{t:5d}" for t in range(1, len(r["curve"]) + 1)))
    print("  mean intensity:     " + " ".join(f"{v:5.1f}" for v in r["curve"]))
    print("  zombies summoned:   " + " ".join(f"{v:5.2f}" for v in r["spawn_curve"]))
    print("  games still live:   " + " ".join(f"{v:5d}" for v in r["live"]))
    if r["ruleset"] == "director-adaptive":
        for mode in ("build_up", "sustain_peak", "peak_fade", "relax"):
            share = [r["modes"][t][mode] / max(1, sum(r["modes"][t].values())) for t in sorted(r["modes"])]
            print(f"  {mode + ' share:':20s}" + " ".join(f"{v:5.2f}" for v in share))
    print("  example game (seed 0) intensity: " + " ".join(f"{v:.0f}" for v in r["example"]))


def plot(results: list[dict[str, Any]], path: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot (pip install matplotlib)")
        return False
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    for r in results:
        xs = range(1, len(r["curve"]) + 1)
        axes[0].plot(xs, r["curve"], marker=".", label=r["ruleset"])
        axes[1].plot(xs, r["spawn_curve"], marker=".", label=r["ruleset"])
        axes[2].plot(range(1, len(r["example"]) + 1), r["example"], marker=".", label=r["ruleset"])
    axes[0].set_title("mean survivor intensity per round (live games)")
    axes[1].set_title("zombies summoned per round (live games)")
    axes[2].set_title("one game (seed 0): mean survivor intensity")
    for ax in axes:
        ax.set_xlabel("round")
        ax.legend()
        ax.grid(alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    print(f"plot written to {path}")
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    measured.add_flag(ap)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--plot", default="saves/director_compare.png")
    args = ap.parse_args()
    print(measured.build())
    results = [play_many(rs, args.games, args.players) for rs in RULESETS]
    for r in results:
        report(r)
    plot(results, Path(args.plot))


if __name__ == "__main__":
    main()
