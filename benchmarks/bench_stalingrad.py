"""Escape from Stalingrad Z benchmarks (medians; run once, not a timed test), side by side in one run.

    python benchmarks/bench_stalingrad.py            # from the repository root
    python benchmarks/bench_stalingrad.py --quick    # fewer repeats

1. One zombie turn (the action phase: every zombie moves on the shared distance field and attacks)
   with 4 characters in the middle of a square map and 100 zombies on 40 x 40, 500 on 60 x 60,
   1,000 on 80 x 80 and 2,000 on 120 x 120: the cost per zombie, as a ratio to the 100-zombie turn's
   (target: flat within 1.5x), and the 1,000-zombie turn against its target (25 ms).
2. The shared distance field alone on 40 x 40, 80 x 80 and 120 x 120 (target on 120 x 120: 3 ms).
3. Complete games of the shipped scenarios (`stalingrad`, the hybrid `stalingrad-shambling`) with the
   default (heuristic) policy on one core (target >= 50 games/s), and one game of the big shipped
   scenario (`prefabs/scenarios/stalingrad-horde.yaml`, a horde on 80 x 80).

Every figure is printed with its target and the ratio measured / target in one table. Times are
the process's CPU time (`time.process_time`), so that other work on a shared machine does not count.
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

TURNS = ((40, 100), (60, 500), (80, 1000), (120, 2000))  # (map side, zombies)
FIELDS = (40, 80, 120)


def big_map(size: int = 40) -> list[str]:
    """size x size: a border of walls, two inner walls with a gap every 7th row, scattered rubble."""
    rows = [["." for _ in range(size)] for _ in range(size)]
    for i in range(size):
        rows[0][i] = rows[size - 1][i] = rows[i][0] = rows[i][size - 1] = "#"
    for y in range(5, size - 5):
        if y % 7:
            rows[y][size // 3] = "#"
            rows[y][2 * size // 3] = "#"
    gen = derive(7, "bench-map")
    for _ in range(size * size * 3 // 80):
        x, y = 1 + gen.below(size - 2), 1 + gen.below(size - 2)
        if rows[y][x] == ".":
            rows[y][x] = "%"
    rows[size // 2][1] = "A"
    rows[size // 2][size - 2] = "E"
    return ["".join(r) for r in rows]


def write_big_scenario(folder: Path, size: int = 40, zombies: int = 100) -> str:
    """A square map of `size` with four characters in the middle and `zombies` face-up zombies at
    seeded squares, drawn on the map (`zombie:<type>` squares, as the horde scenario does): listed as
    entities, 2,000 of them would pass the YAML cap on values (ecs_zombie.limits)."""
    rows = [list(row) for row in big_map(size)]
    mid = size // 2 - 2
    entities: list[dict[str, Any]] = [{"prefab": "game"}]
    taken = set()
    for i, prefab in enumerate(("sergeant", "sniper", "commissar", "sapper")):
        sq = (mid + i, mid + 1 + (i % 2))
        taken.add(sq)
        entities.append({"prefab": prefab, "set": {"Position": {"x": sq[0], "y": sq[1]}}})
    gen = derive(11, "bench-zombies")
    kinds = "wwrb"  # walker, walker, runner, brute
    placed = 0
    while placed < zombies:
        x, y = 1 + gen.below(size - 2), 1 + gen.below(size - 2)
        if rows[y][x] != "." or (x, y) in taken or abs(x - mid - 1) + abs(y - mid - 1) < 6:
            continue
        taken.add((x, y))
        rows[y][x] = kinds[placed % 4]
        placed += 1
    legend = {".": {"terrain": "open"}, "#": {"terrain": "wall"}, "%": {"terrain": "obstructive"},
              "A": {"terrain": "open", "labels": ["spawn:A"]}, "E": {"terrain": "open", "labels": ["exit"]},
              "w": {"terrain": "open", "labels": ["zombie:walker"]},
              "r": {"terrain": "open", "labels": ["zombie:runner"]},
              "b": {"terrain": "open", "labels": ["zombie:brute"]}}
    tables = {
        "map": {"legend": legend, "rows": ["".join(row) for row in rows]},
        "track": {"rounds": "-" * 12},
        "spawn": {"waves": [], "type_die": "1d12", "types": [{"upto": 12, "type": "walker"}]},
        "search": {"allowed": False, "die": "1d12", "results": [{"upto": 12, "result": "nothing"}]},
        "victory": {"escape_needed": 4},
    }
    for name, body in tables.items():
        (folder / f"{name}.yaml").write_text(yaml.safe_dump(body))
    doc = {"ruleset": "stalingrad", "name": "bench", "tables": {f"stalingrad.{n}": f"{n}.yaml" for n in tables},
           "entities": entities}
    path = folder / f"bench-{size}-{zombies}.yaml"
    path.write_text(yaml.safe_dump(doc))
    return str(path)


def bench_zombie_turn(size: int = 40, zombies: int = 100, repeats: int = 30) -> tuple[float, float]:
    """Median ms of one zombie action phase, and of the distance field alone, on that map."""
    from ecs_zombie.systems.stalingrad.board import characters, closed_doors, gmap, pos
    from ecs_zombie.systems.stalingrad.round import setup
    from ecs_zombie.systems.stalingrad.zombies import zombie_activations

    with tempfile.TemporaryDirectory() as tmp:
        base = new_game(write_big_scenario(Path(tmp), size, zombies), 1)
        base.tick = 1
        setup(base)
        state = msgpack.unpackb(msgpack.packb(game_state(base)), raw=False)
        base.close()
        policies = PolicyTable("heuristic")
        turn, field = [], []
        for _ in range(repeats):
            game = restore(state)
            assert len(game.world.query1(Faction)) == 4 + zombies
            t0 = time.process_time()
            answer_all(game, zombie_activations(game), policies)
            turn.append(time.process_time() - t0)
            g, closed = gmap(game), closed_doors(game)
            sources = [pos(game, c) for c in characters(game)]
            t0 = time.process_time()
            distance_field(g, sources, closed)
            field.append(time.process_time() - t0)
            game.close()
    return statistics.median(turn) * 1000, statistics.median(field) * 1000


def bench_games(ruleset: str, games: int = 100, batches: int = 5) -> tuple[float, float]:
    rates, ms = [], []
    seed = 0
    for _ in range(batches):
        t0 = time.process_time()
        for _ in range(games):
            game = new_game(ruleset, seed)
            game.play()
            game.close()
            seed += 1
        dt = time.process_time() - t0
        rates.append(games / dt)
        ms.append(dt / games * 1000)
    return statistics.median(rates), statistics.median(ms)


def bench_horde(games: int = 3) -> tuple[float, int]:
    """Median seconds of one complete game of the big shipped scenario, and the most zombies on its board."""
    times, most = [], [0]

    def count(game: Any) -> None:
        most[0] = max(most[0], int(game.metrics()["zombies_on_board"]))

    for seed in range(games):
        game = new_game(str(ROOT / "prefabs" / "scenarios" / "stalingrad-horde.yaml"), seed)
        count(game)
        t0 = time.process_time()
        game.play(on_tick=count)
        times.append(time.process_time() - t0)
        game.close()
    return statistics.median(times), most[0]


def row(what: str, value: float, unit: str, target: float | None, better: str = "lower") -> str:
    if target is None:
        return f"| {what} | {value:.2f} {unit} | — | — |"
    ratio = value / target if better == "lower" else target / value
    verdict = "ok" if ratio <= 1.0 else "MISSED"
    bound = "≤" if better == "lower" else "≥"
    return f"| {what} | {value:.2f} {unit} | {bound} {target:g} {unit} | {ratio:.2f} {verdict} |"


def scaling(quick: bool = False) -> list[tuple[str, float, str, str, bool | None]]:
    """The big-board targets as rows for `benchmarks/run_all.py`: (name, value, unit, target, met)."""
    repeats = 2 if quick else 15
    turns = TURNS[:2] if quick else TURNS
    out: list[tuple[str, float, str, str, bool | None]] = []
    per_zombie: dict[int, float] = {}
    for size, zombies in turns:
        turn_ms, field_ms = bench_zombie_turn(size, zombies, repeats)
        per_zombie[zombies] = turn_ms * 1000 / zombies
        met = turn_ms <= 25.0 if zombies == 1000 else None
        out.append((f"stalingrad zombie turn, {zombies} zombies, {size}x{size}", turn_ms, "ms",
                    "<= 25 ms" if zombies == 1000 else "", met))
        if size == 120 or (quick and size == turns[-1][0]):
            out.append((f"stalingrad distance field, {size}x{size}", field_ms, "ms", "<= 3 ms" if size == 120 else "",
                        field_ms <= 3.0 if size == 120 else None))
    base = per_zombie[turns[0][1]]
    worst = max(per_zombie.values()) / base
    out.append((f"stalingrad per-zombie cost, {turns[0][1]}..{turns[-1][1]} zombies (worst / first)", worst, "x",
                "<= 1.5x", worst <= 1.5))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    measured.add_flag(parser)
    parser.add_argument("--quick", action="store_true", help="fewer repeats (a smoke run)")
    args = parser.parse_args()
    print(measured.build())
    new_game("stalingrad", 0).close()  # load and cache the rulesets before timing
    new_game("stalingrad-shambling", 0).close()
    repeats = 3 if args.quick else 15
    lines = ["| what | measured | target | measured / target |", "| --- | --- | --- | --- |"]
    per_zombie: dict[int, float] = {}
    fields: dict[int, float] = {}
    for size, zombies in TURNS:
        turn_ms, field_ms = bench_zombie_turn(size, zombies, repeats)
        per_zombie[zombies] = turn_ms * 1000 / zombies
        fields[size] = field_ms
        lines.append(row(f"zombie turn, {zombies} zombies, {size}x{size}", turn_ms, "ms",
                         25.0 if zombies == 1000 else None))
    base = per_zombie[TURNS[0][1]]
    for _size, zombies in TURNS:
        lines.append(row(f"per zombie, {zombies} zombies (× the 100-zombie turn's {base:.1f} µs)",
                         per_zombie[zombies] / base, "×", 1.5))
    for size in FIELDS:
        if size not in fields:
            fields[size] = bench_zombie_turn(size, 100, repeats)[1]
        lines.append(row(f"distance field, {size}x{size}", fields[size], "ms", 3.0 if size == 120 else None))
    for ruleset in ("stalingrad", "stalingrad-shambling"):
        rate, _per = bench_games(ruleset, 20 if args.quick else 100, 2 if args.quick else 5)
        lines.append(row(f"`{ruleset}` complete games, one core", rate, "games/s", 50.0, better="higher"))
    seconds, most = bench_horde(1 if args.quick else 3)
    lines.append(row(f"one game of stalingrad-horde (80x80, up to {most} zombies)", seconds, "s", None))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
