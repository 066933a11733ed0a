"""Escape from Stalingrad Z benchmarks (medians; run once, not a timed test).

    python benchmarks/bench_stalingrad.py            # from the repository root

1. One zombie turn (the action phase: every zombie moves on the shared distance field and attacks)
   with 100 zombies and 4 characters on a 40 x 40 map; target <= 10 ms.
2. The shared distance field alone on that map.
3. Complete games of the shipped scenario (`stalingrad`, and the hybrid `stalingrad-shambling`) with
   the default (heuristic) policy on one core; target >= 50 games/s.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import measured  # before ecs_zombie: it chooses the build measured
import msgpack
import yaml

ROOT = measured.ROOT

from ecs_zombie import new_game  # noqa: E402
from ecs_zombie.components import Faction  # noqa: E402
from ecs_zombie.decisions import PolicyTable  # noqa: E402
from ecs_zombie.game import answer_all  # noqa: E402
from ecs_zombie.grid import distance_field  # noqa: E402
from ecs_zombie.rng import derive  # noqa: E402
from ecs_zombie.snapshot import restore  # noqa: E402
from ecs_zombie.state import game_state  # noqa: E402


def big_map() -> list[str]:
    """40 x 40: a border of walls, a few inner walls with gaps, scattered rubble."""
    rows = [["." for _ in range(40)] for _ in range(40)]
    for i in range(40):
        rows[0][i] = rows[39][i] = rows[i][0] = rows[i][39] = "#"
    for y in range(5, 35):
        if y % 7:
            rows[y][13] = "#"
            rows[y][26] = "#"
    gen = derive(7, "bench-map")
    for _ in range(60):
        x, y = 1 + gen.below(38), 1 + gen.below(38)
        if rows[y][x] == ".":
            rows[y][x] = "%"
    rows[20][1] = "A"
    rows[20][38] = "E"
    return ["".join(r) for r in rows]


def write_big_scenario(folder: Path) -> str:
    rows = big_map()
    legend = {".": {"terrain": "open"}, "#": {"terrain": "wall"}, "%": {"terrain": "obstructive"},
              "A": {"terrain": "open", "labels": ["spawn:A"]}, "E": {"terrain": "open", "labels": ["exit"]}}
    tables = {
        "map": {"legend": legend, "rows": rows},
        "track": {"rounds": "-" * 12},
        "spawn": {"waves": [], "type_die": "1d12", "types": [{"upto": 12, "type": "walker"}]},
        "search": {"allowed": False, "die": "1d12", "results": [{"upto": 12, "result": "nothing"}]},
        "victory": {"escape_needed": 4},
    }
    for name, body in tables.items():
        (folder / f"{name}.yaml").write_text(yaml.safe_dump(body))
    entities: list[dict[str, Any]] = [{"prefab": "game"}]
    for i, prefab in enumerate(("sergeant", "sniper", "commissar", "sapper")):
        entities.append({"prefab": prefab, "set": {"Position": {"x": 18 + i, "y": 19 + (i % 2)}}})
    gen = derive(11, "bench-zombies")
    taken = {(18 + i, 19 + (i % 2)) for i in range(4)}
    kinds = ("walker", "walker", "runner", "brute")
    while len(entities) < 105:
        x, y = 1 + gen.below(38), 1 + gen.below(38)
        if rows[y][x] != "." or (x, y) in taken or abs(x - 19) + abs(y - 19) < 6:
            continue
        taken.add((x, y))
        entities.append({"prefab": "zombie", "set": {"Kind": {"name": kinds[len(entities) % 4]},
                                                     "Position": {"x": x, "y": y}}})
    doc = {"ruleset": "stalingrad", "name": "bench", "tables": {f"stalingrad.{n}": f"{n}.yaml" for n in tables},
           "entities": entities}
    path = folder / "bench.yaml"
    path.write_text(yaml.safe_dump(doc))
    return str(path)


def bench_zombie_turn(repeats: int = 30) -> tuple[float, float]:
    from ecs_zombie.systems.stalingrad.board import characters, closed_doors, gmap, pos
    from ecs_zombie.systems.stalingrad.round import setup
    from ecs_zombie.systems.stalingrad.zombies import zombie_activations

    with tempfile.TemporaryDirectory() as tmp:
        base = new_game(write_big_scenario(Path(tmp)), 1)
        base.tick = 1
        setup(base)
        state = msgpack.unpackb(msgpack.packb(game_state(base)), raw=False)
        base.close()
        policies = PolicyTable("heuristic")
        turn, field = [], []
        for _ in range(repeats):
            game = restore(state)
            assert len(game.world.query1(Faction)) == 104
            t0 = time.perf_counter()
            answer_all(game, zombie_activations(game), policies)
            turn.append(time.perf_counter() - t0)
            g, closed = gmap(game), closed_doors(game)
            sources = [pos(game, c) for c in characters(game)]
            t0 = time.perf_counter()
            distance_field(g, sources, closed)
            field.append(time.perf_counter() - t0)
            game.close()
    return statistics.median(turn) * 1000, statistics.median(field) * 1000


def bench_games(ruleset: str, games: int = 100, batches: int = 5) -> tuple[float, float]:
    rates, ms = [], []
    seed = 0
    for _ in range(batches):
        t0 = time.perf_counter()
        for _ in range(games):
            game = new_game(ruleset, seed)
            game.play()
            game.close()
            seed += 1
        dt = time.perf_counter() - t0
        rates.append(games / dt)
        ms.append(dt / games * 1000)
    return statistics.median(rates), statistics.median(ms)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    measured.add_flag(parser)
    parser.parse_args()
    print(measured.build())
    new_game("stalingrad", 0).close()  # load and cache the rulesets before timing
    new_game("stalingrad-shambling", 0).close()
    turn_ms, field_ms = bench_zombie_turn()
    print(f"zombie turn, 100 zombies, 40x40 map: median {turn_ms:.2f} ms (target <= 10 ms)")
    print(f"shared distance field, 40x40 map:   median {field_ms:.2f} ms")
    for ruleset in ("stalingrad", "stalingrad-shambling"):
        rate, per = bench_games(ruleset)
        print(f"{ruleset}: median {rate:.1f} complete games/s on one core ({per:.1f} ms/game; target >= 50)")


if __name__ == "__main__":
    main()
