"""Singapore Zombie Apocalypse benchmark: complete games per second on one core with the default
(heuristic) policies, for Scenario 1 alone (the issue's target: >= 50 games/s per core), Scenario 2
alone and the two-scenario campaign. Reports medians over repeats; the first game of each target
is played before timing (it loads the ruleset and fills the boards' path caches).

    python benchmarks/bench_sza.py [--games 200] [--repeats 5]
"""

from __future__ import annotations

import argparse
import statistics
import time

import measured  # before ecs_zombie: it chooses the build measured

from ecs_zombie import new_game
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.scenario import load_scenario

TARGETS = {
    "scenario 1 (bungalow)": "prefabs/scenarios/sza/bungalow.yaml",
    "scenario 2 (street)": "prefabs/scenarios/sza/street.yaml",
    "campaign (1 then 2)": "sza",
}


def games_per_second(target: str, games: int, first_seed: int) -> tuple[float, float, dict[str, int]]:
    """(games/s, mean turns, outcomes) over `games` seeds; every game is played to its end."""
    scenario = load_scenario(target)
    policies = PolicyTable("heuristic")
    turns = 0
    outcomes: dict[str, int] = {}
    start = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        game = new_game(scenario, seed)
        game.play(policies)
        assert game.over
        turns += game.tick
        outcomes[str(game.outcome)] = outcomes.get(str(game.outcome), 0) + 1
        game.close()
    return games / (time.perf_counter() - start), turns / games, outcomes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    measured.add_flag(parser)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(measured.build())
    for label, target in TARGETS.items():
        games_per_second(target, 1, 10**6)  # warm-up
        rates, turns, outcomes = [], 0.0, {}
        for r in range(args.repeats):
            rate, turns, outcomes = games_per_second(target, args.games, r * args.games)
            rates.append(rate)
        print(f"{label:<24} median {statistics.median(rates):7.1f} games/s per core "
              f"(min {min(rates):.1f}, max {max(rates):.1f}; {args.games} games x {args.repeats}; "
              f"mean {turns:.1f} turns; last repeat {outcomes})")


if __name__ == "__main__":
    main()
