"""What a replay costs, as multiples of playing the same games: recording one (to its file's bytes),
reading the file, verifying it, verifying it heavily (a save and reload after every tick).

    python benchmarks/bench_verify.py [--rulesets shambling director] [--games 100] [--installed]

`replay --verify` is reading plus verifying. The same script runs on an older build too (it asks
the tick states to be left to the re-run only where `load_replay` offers that), so the figures of
two builds compare: run it with each build's interpreter and `--installed`. Medians of CPU time,
the steps taken in turn.
"""

from __future__ import annotations

import argparse
import inspect
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import measured  # before ecs_zombie: it chooses the build measured

from ecs_zombie import replay as replays
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.game import new_game
from ecs_zombie.scenario import load_scenario


def ratios(ruleset: str, games: int, repeats: int) -> tuple[float, dict[str, float]]:
    """Milliseconds a game of play, and each step's time over play's."""
    scenario, policies = load_scenario(ruleset), PolicyTable("heuristic")
    lazy = {"states": False} if "states" in inspect.signature(replays.load_replay).parameters else {}

    def play() -> None:
        for seed in range(games):
            game = new_game(scenario, seed)
            game.play(policies)
            game.close()

    def record() -> list[bytes]:
        out = []
        for seed in range(games):
            game = new_game(scenario, seed)
            recorder = replays.Recorder(game)
            game.play(policies)
            out.append(recorder.to_bytes(game))
            game.close()
        return out

    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for i, data in enumerate(record()):
            files.append(Path(tmp) / f"{i}.replay")
            files[-1].write_bytes(data)
        loaded = [replays.load_replay(f, **lazy) for f in files]
        steps: dict[str, Callable[[], Any]] = {
            "play": play, "record": record,
            "read": lambda: [replays.load_replay(f, **lazy) for f in files],
            "verify": lambda: [replays.verify(r) for r in loaded],
            "heavy": lambda: [replays.verify(r, heavy=True) for r in loaded]}
        play()  # warm
        times: dict[str, list[float]] = {k: [] for k in steps}
        for _ in range(repeats):
            for key, step in steps.items():
                start = time.process_time()
                step()
                times[key].append(time.process_time() - start)
    med = {k: statistics.median(v) for k, v in times.items()}
    return 1000 * med["play"] / games, {k: v / med["play"] for k, v in med.items() if k != "play"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    measured.add_flag(parser)
    parser.add_argument("--rulesets", nargs="+", default=["shambling", "director"])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(measured.build())
    print(f"{'ruleset':12s} {'play ms':>8s} {'record':>7s} {'read':>6s} {'verify':>7s} {'heavy':>6s}"
          f" {'read+verify':>12s} {'read+heavy':>11s}")
    for ruleset in args.rulesets:
        ms, r = ratios(ruleset, args.games, args.repeats)
        print(f"{ruleset:12s} {ms:8.2f} {r['record']:6.2f}x {r['read']:5.2f}x {r['verify']:6.2f}x {r['heavy']:5.2f}x"
              f" {r['read'] + r['verify']:11.2f}x {r['read'] + r['heavy']:10.2f}x")


if __name__ == "__main__":
    main()
