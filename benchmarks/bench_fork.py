"""Forks against a snapshot round trip (issue: "fork in a fraction of a snapshot round trip").

For each ruleset a game is stopped mid-game; we time `fork()` at a tick boundary, `fork()` at a
pending decision mid-tick (a copy of the tick's start re-run with the tick's answers), and the
round trip a fork would otherwise need (`state_bytes`, unpack, `restore`). Medians of many runs,
side by side in one process.

    python benchmarks/bench_fork.py [--installed] [--repeats 200]
"""

from __future__ import annotations

import argparse
import statistics
import time

import measured  # before ecs_zombie: it chooses the build measured
import msgpack

from ecs_zombie import new_game
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.ruleset import list_rulesets
from ecs_zombie.snapshot import restore
from ecs_zombie.state import state_bytes


def median_us(fn, repeats: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        made = fn()
        times.append(time.perf_counter() - t)
        made.close()
    return statistics.median(times) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    measured.add_flag(ap)
    ap.add_argument("--repeats", type=int, default=200)
    args = ap.parse_args()
    print(measured.build())
    print(f"{'ruleset':22s} {'entities':>8s} {'fork (boundary)':>16s} {'fork (mid-tick)':>16s} "
          f"{'save+load':>10s} {'ratio':>6s}")
    for rid, _ in list_rulesets():
        game = new_game(rid, 3)
        game.keep_tick_start = True
        policies = PolicyTable("heuristic")
        game.play(policies, stop_after=2)
        boundary = median_us(game.fork, args.repeats)
        round_trip = median_us(lambda g=game: restore(msgpack.unpackb(state_bytes(g), raw=False)), args.repeats)
        decision = game.step()
        for _ in range(3):
            if decision is None:
                break
            decision = game.step(policies.choose(game, decision))
        mid = median_us(game.fork, args.repeats) if game.pending is not None else float("nan")
        ents = len(game.world.entities())
        print(f"{rid:22s} {ents:8d} {boundary:13.0f} µs {mid:13.0f} µs {round_trip:7.0f} µs "
              f"{round_trip / boundary:5.1f}×")
        game.close()


if __name__ == "__main__":
    main()
