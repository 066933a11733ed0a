"""How the two directors differ: plays N games of `director` and `director-adaptive` for each team
size in-process with the heuristic policy and prints outcome rates, game length, how many games are
still running at each round, the mean survivor intensity per round and, for the adaptive director,
its rhythm: completed Build Up -> Sustain Peak -> Peak Fade -> Relax cycles per game and the rounds
spent in each mode. Writes two PNG plots when matplotlib is importable (`pip install matplotlib`).

    python benchmarks/director_compare.py [--games 500] [--players 1,2,3,4] \\
        [--plot docs/director_compare.png] [--cycles-plot docs/director_cycles.png]

A game's round counts as "in a mode" for the mode the pacer is in after its Director phase; a cycle
is complete when Relax gives way to Build Up again.
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
from ecs_zombie.systems.core.pacing import Intensity, PacerState

RULESETS = ("director", "director-adaptive")
MODES = ("build_up", "sustain_peak", "peak_fade", "relax")



def team(players: int) -> str:
    return f"{players} player" + ("" if players == 1 else "s")

def _mode(game: Game) -> str:
    return next((p.mode for _e, p in game.world.query1(PacerState)), "")


def play_many(ruleset: str, games: int, players: int) -> dict[str, Any]:
    scenario = load_scenario(ruleset)
    policies = PolicyTable("heuristic")
    outcomes: Counter[str] = Counter()
    lengths: list[int] = []
    per_round: dict[int, list[float]] = {}
    mode_by_round: dict[int, Counter[str]] = {}
    cycles: Counter[int] = Counter()
    in_mode: Counter[str] = Counter()
    for seed in range(games):
        game = new_game(scenario, seed, players=players)

        def on_tick(g: Game) -> None:
            values = [i.value for _e, i in g.world.query1(Intensity)]
            per_round.setdefault(g.tick, []).append(sum(values) / len(values) if values else 0.0)
            mode = _mode(g)
            if mode:
                mode_by_round.setdefault(g.tick, Counter())[mode] += 1
                in_mode[mode] += 1

        game.play(policies, on_tick=on_tick)
        outcomes[game.outcome or "none"] += 1
        lengths.append(game.tick)
        cycles[int(game.metrics()["pacer_cycles"])] += 1
        game.close()
    longest = max(lengths)
    running = [sum(1 for n in lengths if n >= t) for t in range(1, longest + 1)]
    return {"ruleset": ruleset, "players": players, "games": games, "outcomes": outcomes,
            "mean_rounds": sum(lengths) / games, "running": running,
            "curve": [sum(v) / len(v) for _t, v in sorted(per_round.items())],
            "modes": mode_by_round, "cycles": cycles, "in_mode": in_mode}


def report(r: dict[str, Any]) -> None:
    n = r["games"]
    rates = ", ".join(f"{k} {v / n:.1%}" for k, v in sorted(r["outcomes"].items()))
    print(f"{r['ruleset']} ({team(r['players'])}): {n} games: {rates}; {r['mean_rounds']:.1f} rounds a game")
    print("  games still running:", " ".join(str(v) for v in r["running"]))
    print("  mean intensity:     ", " ".join(f"{v:.0f}" for v in r["curve"]))
    if r["in_mode"]:
        total = sum(r["cycles"].values())
        mean = sum(k * v for k, v in r["cycles"].items()) / total
        print(f"  completed cycles a game: mean {mean:.2f}; games with 0/1/2/3+: "
              + "/".join(str(r["cycles"][k]) for k in (0, 1, 2))
              + f"/{sum(v for k, v in r['cycles'].items() if k >= 3)}")
        print("  rounds a game in each mode: " + ", ".join(f"{m} {r['in_mode'][m] / n:.2f}" for m in MODES))


def plot_running(results: list[dict[str, Any]], path: Path) -> None:
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(RULESETS), figsize=(12, 4.2), sharey=True)
    for ax, ruleset in zip(axes, RULESETS, strict=True):
        for r in results:
            if r["ruleset"] == ruleset:
                share = [100 * v / r["games"] for v in r["running"]]
                ax.step(range(1, len(share) + 1), share, where="post", label=team(r['players']))
        ax.set_title(f"{ruleset}: games still running at each round")
        ax.set_xlabel("round")
        ax.set_ylabel("% of games")
        ax.set_xlim(1, 30)
        ax.legend()
        ax.grid(alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(f"plot written to {path}")


def plot_cycles(results: list[dict[str, Any]], path: Path) -> None:
    import matplotlib.pyplot as plt

    adaptive = [r for r in results if r["in_mode"]]
    if not adaptive:
        return
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    width = 0.8 / len(adaptive)
    for i, r in enumerate(adaptive):
        ks = range(0, 5)
        axes[0].bar([k + i * width for k in ks], [100 * r["cycles"][k] / r["games"] for k in ks], width,
                    label=team(r['players']))
        axes[1].bar([k + i * width for k in range(len(MODES))], [r["in_mode"][m] / r["games"] for m in MODES],
                    width, label=team(r['players']))
    axes[0].set_title("director-adaptive: completed cycles per game")
    axes[0].set_xlabel("cycles (Relax back to Build Up)")
    axes[0].set_ylabel("% of games")
    axes[1].set_title("director-adaptive: rounds a game in each mode")
    axes[1].set_xticks([k + width * (len(adaptive) - 1) / 2 for k in range(len(MODES))], MODES)
    axes[1].set_ylabel("rounds")
    two = next((r for r in adaptive if r["players"] == 2), adaptive[0])
    rounds = sorted(two["modes"])
    bottom = [0.0] * len(rounds)
    for m in MODES:
        share = [100 * two["modes"][t][m] / max(1, sum(two["modes"][t].values())) for t in rounds]
        axes[2].bar(rounds, share, bottom=bottom, label=m)
        bottom = [b + s for b, s in zip(bottom, share, strict=True)]
    axes[2].set_title(f"director-adaptive, {two['players']} players: mode by round")
    axes[2].set_xlabel("round")
    axes[2].set_ylabel("% of running games")
    axes[0].legend(fontsize=8)
    axes[1].legend(fontsize=8)
    axes[2].legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    for ax in axes:
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(f"plot written to {path}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    measured.add_flag(ap)
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--players", default="1,2,3,4", help="team sizes, comma-separated")
    ap.add_argument("--plot", default="saves/director_compare.png")
    ap.add_argument("--cycles-plot", default="saves/director_cycles.png")
    args = ap.parse_args()
    print(measured.build())
    sizes = [int(p) for p in args.players.split(",")]
    results = [play_many(rs, args.games, p) for rs in RULESETS for p in sizes]
    for r in results:
        report(r)
    try:
        import matplotlib

        matplotlib.use("Agg")
    except ImportError:
        print("matplotlib is not installed: no plot (pip install matplotlib)")
        return
    plot_running(results, Path(args.plot))
    plot_cycles(results, Path(args.cycles_plot))


if __name__ == "__main__":
    main()
