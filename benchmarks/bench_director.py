"""Director-game benchmark (issue 6): complete games per second on one core for `director` and
`director-adaptive` with the default (heuristic) policies. Reports medians over repeats, wall
clock and process CPU time (the machine is shared: CPU time is the per-core figure).

    python benchmarks/bench_director.py [--games 200] [--repeats 5]

Target: >= 50 complete games/s per core for each ruleset.
"""

from __future__ import annotations

import argparse
import statistics
import time

import measured  # before ecs_zombie: it chooses the build measured

from ecs_zombie import new_game
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.scenario import load_scenario

RULESETS = ("director", "director-adaptive")


def one_run(ruleset: str, games: int, first_seed: int) -> tuple[float, float, float]:
    """(games/s wall, games/s CPU, mean rounds) for `games` complete games."""
    scenario = load_scenario(ruleset)
    policies = PolicyTable("heuristic")
    rounds = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for seed in range(first_seed, first_seed + games):
        game = new_game(scenario, seed)
        game.play(policies)
        assert game.over
        rounds += game.tick
        game.close()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return games / wall, games / cpu, rounds / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    measured.add_flag(ap)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    print(measured.build())
    for ruleset in RULESETS:
        one_run(ruleset, 5, 10**6)  # warm up: imports, YAML, caches
        runs = [one_run(ruleset, args.games, r * args.games) for r in range(args.repeats)]
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        rounds = statistics.median(r[2] for r in runs)
        verdict = "ok" if cpu >= 50 else "BELOW TARGET"
        print(f"{ruleset:18s} {wall:7.1f} games/s wall  {cpu:7.1f} games/s CPU (median of {args.repeats} x "
              f"{args.games}; {rounds:.1f} rounds a game)  target >= 50/core: {verdict}")


if __name__ == "__main__":
    main()
