"""Batch benchmark (issue: headless batch runs): games/s with 1 and 2 workers, the batch's
overhead against a plain loop of the same games, and memory over a long batch. Medians over repeats.

    python benchmarks/bench_batch.py [--games 2000] [--repeats 3] [--rulesets shambling stalingrad]
    python benchmarks/bench_batch.py --memory-games 200000      # memory over a long batch

Targets: 2 workers >= 1.8x one worker; batch overhead <= 10% against the plain loop; memory flat.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import time
from pathlib import Path

import measured  # before ecs_zombie: it chooses the build measured

from ecs_zombie.batch import BatchSpec, game_seed, run_batch
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.errors import GameError
from ecs_zombie.game import new_game
from ecs_zombie.scenario import load_scenario


def rss_mb(pid: int | None = None) -> float:
    text = Path(f"/proc/{pid or os.getpid()}/status").read_text()
    kb = next(int(line.split()[1]) for line in text.splitlines() if line.startswith("VmRSS:"))
    return kb / 1024


def plain_loop(target: str, games: int) -> float:
    scenario = load_scenario(target)
    policies = PolicyTable("heuristic")
    start = time.perf_counter()
    for i in range(games):
        game = new_game(scenario, game_seed(1, i))
        game.play(policies)
        game.metrics()
        game.close()
    return games / (time.perf_counter() - start)


def batch_rate(target: str, games: int, workers: int) -> float:
    start = time.perf_counter()
    n = sum(len(rows) for rows in run_batch(BatchSpec(target, games, seed=1), workers))
    assert n == games
    return games / (time.perf_counter() - start)


def memory(target: str, games: int, workers: int) -> None:
    samples = []
    done = 0
    start = time.perf_counter()
    for rows in run_batch(BatchSpec(target, games, seed=1), workers):
        done += len(rows)
        if len(samples) < done * 10 // games:
            children = sum(rss_mb(p.pid) for p in multiprocessing.active_children())
            samples.append((done, rss_mb(), children))
    print(f"memory over {games} {target} games with {workers} workers "
          f"({games / (time.perf_counter() - start):.0f} games/s); RSS in MB at each tenth:")
    for done, parent, children in samples:
        print(f"  {done:>8} games: parent {parent:6.1f}, workers {children:6.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    measured.add_flag(parser)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rulesets", nargs="+", default=["shambling", "stalingrad"])
    parser.add_argument("--memory-games", type=int, default=0)
    args = parser.parse_args()
    print(measured.build())
    for target in args.rulesets:
        try:
            load_scenario(target)
        except GameError as exc:
            print(f"{target}: skipped ({exc})")
            continue
        plain_loop(target, 20)
        plain = statistics.median(plain_loop(target, args.games) for _ in range(args.repeats))
        one = statistics.median(batch_rate(target, args.games, 1) for _ in range(args.repeats))
        two = statistics.median(batch_rate(target, args.games, 2) for _ in range(args.repeats))
        print(f"{target}: plain loop {plain:7.0f} games/s | batch 1 worker {one:7.0f} "
              f"(overhead {100 * (plain / one - 1):+.1f}%) | 2 workers {two:7.0f} ({two / one:.2f}x one worker)")
    if args.memory_games:
        memory(args.rulesets[0], args.memory_games, 2)


if __name__ == "__main__":
    main()
