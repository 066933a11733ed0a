"""Loading a big snapshot, this checkout against another, side by side.

    python benchmarks/bench_load.py [--entities 10000] [--rounds 5]
    git worktree add --detach ../base bdffde5~1
    python benchmarks/bench_load.py --baseline ../base          # the code before a change
    python benchmarks/bench_load.py --baseline-python ../venv-base/bin/python --python ../venv/bin/python

Each round saves a snapshot of a Shambling game grown to `--entities` entities (zombies, as in
`bench_engine.py`) and loads it five times in a fresh process of each side, the sides taken in
turn; each process reports its median load (CPU time), and the medians over rounds are compared:
a ratio measured in one run, since the machine is shared and noisy. Each side also hashes the
loaded state, and a side whose state differs is reported (exit status 1).
Target (issue: speed): a 10,000-entity snapshot loads in <= 30 ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import hashlib, json, statistics, sys, tempfile, time
from pathlib import Path
if sys.argv[1] != "-":  # "-": the interpreter's installed ecs-zombie
    sys.path.insert(0, sys.argv[1])
from ecs_zombie import new_game
from ecs_zombie.components import Position, Wounds, Zone
from ecs_zombie.snapshot import load, save
from ecs_zombie.state import state_bytes

entities = int(sys.argv[2])
game = new_game("shambling", 1)
zombie = game.ruleset.prefabs["zombie"]
for i in range(entities - game.world.next_id + 1):
    game.world.create(*zombie.make(Zone(i % 4, "front"), Wounds(i % 2, 2)), Position(i % 100, i // 100))
path = Path(tempfile.mkdtemp()) / "big.msgpack"
save(game, path)
game.close()
times = []
for _ in range(5):
    start = time.process_time()
    loaded = load(path)
    times.append(time.process_time() - start)
    digest = hashlib.sha256(state_bytes(loaded, policy_state=False)).hexdigest()[:16]
    loaded.close()
path.unlink()
import ecs_zombie.world
print(json.dumps({"seconds": statistics.median(times), "digest": digest, "module": ecs_zombie.world.__file__}))
"""


def run(root: Path | None, entities: int, python: str) -> dict[str, object]:
    """One process of `python` with the checkout `root` first on its path (None: its installed
    ecs-zombie), run outside any checkout so that the working folder is not on the path."""
    done = subprocess.run([python, "-c", CHILD, str(root) if root else "-", str(entities)], capture_output=True,
                          text=True, cwd="/", env={"PYTHONHASHSEED": "0", "PATH": "/usr/bin:/bin"})
    if done.returncode:
        raise SystemExit(f"a load failed ({root or python}):\n{done.stderr.strip()}")
    return dict(json.loads(done.stdout))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entities", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--baseline", type=Path, help="another checkout to compare with")
    parser.add_argument("--baseline-python", help="an interpreter whose installed ecs-zombie is the baseline")
    parser.add_argument("--python", default=sys.executable, help="the interpreter of this side")
    args = parser.parse_args()
    now_root = None if args.baseline_python else ROOT
    sides: dict[str, tuple[Path | None, str]] = {"this": (now_root, args.python)}
    if args.baseline is not None:
        sides["baseline"] = (args.baseline.resolve(), sys.executable)
    elif args.baseline_python:
        sides["baseline"] = (None, args.baseline_python)
    got: dict[str, list[dict[str, object]]] = {k: [] for k in sides}
    for _ in range(args.rounds):
        for side, (root, python) in sides.items():
            got[side].append(run(root, args.entities, python))
    medians = {side: statistics.median(float(str(r["seconds"])) for r in runs) for side, runs in got.items()}
    for side, runs in got.items():
        ratio = f"  ({medians[side] / medians['baseline']:.2f}x the baseline)" if "baseline" in medians else ""
        print(f"{side:8s} load of {args.entities:,} entities: {1000 * medians[side]:6.1f} ms{ratio}"
              f"  [{Path(str(runs[0]['module'])).parent}]")
    digests = {str(r["digest"]) for runs in got.values() for r in runs}
    if len(digests) > 1:
        print(f"the loaded states differ: {sorted(digests)}")
        raise SystemExit(1)


if __name__ == "__main__":
    main()
