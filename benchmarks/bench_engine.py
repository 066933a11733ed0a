"""Engine benchmark (issue: engine core): Shambling games per second on one core, with and without
recording, and save/load of a 10,000-entity snapshot. Reports medians over repeats.

    python benchmarks/bench_engine.py [--games 1000] [--repeats 5] [--installed]

Targets on the 2-core reference machine: >= 1,000 Shambling games/s per core without recording,
recording adding <= 25% to the time of playing (the extra time, over playing's, as
`run_all.py` counts it); a 10,000-entity snapshot saved in <= 0.25 s and loaded in <= 30 ms. The
games/s target is met by the installed build (`pip install .`, compiled by mypyc; `--installed`),
not by the checkout's plain Python (README, "Performance").
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import measured  # before ecs_zombie: it chooses the build measured

from ecs_zombie import new_game
from ecs_zombie.components import Position, Wounds, Zone
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.replay import Recorder
from ecs_zombie.scenario import load_scenario
from ecs_zombie.snapshot import load, save


def games_per_second(games: int, record: bool) -> float:
    scenario = load_scenario("shambling")
    policies = PolicyTable("heuristic")
    start = time.perf_counter()
    for seed in range(games):
        game = new_game(scenario, seed)
        if record:
            rec = Recorder(game)
            game.play(policies)
            rec.to_bytes(game)
        else:
            game.play(policies)
        game.close()
    return games / (time.perf_counter() - start)


def snapshot_round_trip(entities: int, folder: Path) -> tuple[float, float, int]:
    game = new_game("shambling", 1)
    zombie = game.ruleset.prefabs["zombie"]  # a piece of a kind holds its prefab's components to load
    for i in range(entities - game.world.next_id + 1):
        game.world.create(*zombie.make(Zone(i % 4, "front"), Wounds(i % 2, 2)), Position(i % 100, i // 100))
    path = folder / "big.msgpack"
    t0 = time.process_time()
    data = save(game, path)
    t1 = time.process_time()
    loaded = load(path)
    t2 = time.process_time()
    assert len(loaded.world.entities()) == len(game.world.entities())
    game.close()
    loaded.close()
    return t1 - t0, t2 - t1, len(data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    measured.add_flag(parser)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--entities", type=int, default=10_000)
    args = parser.parse_args()
    print(measured.build())
    games_per_second(50, False)  # warm up: imports, YAML parse, caches
    plain = [games_per_second(args.games, False) for _ in range(args.repeats)]
    recorded = [games_per_second(args.games, True) for _ in range(args.repeats)]
    p, r = statistics.median(plain), statistics.median(recorded)
    print(f"shambling games/s, one core, no recording:   {p:8.0f}  (median of {args.repeats} x {args.games})")
    # the cost as run_all.py and the issue count it: the extra time recording takes, over playing's
    print(f"shambling games/s, one core, with recording: {r:8.0f}  (recording costs {100 * (p / r - 1):.0f}%)")
    with tempfile.TemporaryDirectory() as tmp:
        runs = [snapshot_round_trip(args.entities, Path(tmp)) for _ in range(args.repeats)]
    saves, loads, sizes = zip(*runs, strict=True)
    print(f"snapshot of {args.entities} entities: save {statistics.median(saves) * 1000:.0f} ms, "
          f"load {statistics.median(loads) * 1000:.0f} ms, {sizes[0]:,} bytes")


if __name__ == "__main__":
    main()
