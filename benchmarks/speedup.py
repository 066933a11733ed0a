"""Games per second of this checkout against an earlier one, side by side, on the same games.

    git worktree add --detach ../base d71d4d8          # the code before the speed work
    python benchmarks/speedup.py --baseline ../base [--rulesets stalingrad sza director] [--games 20]
    python benchmarks/speedup.py --baseline-python ../venv-base/bin/python --python ../venv-now/bin/python
                                                       # installed builds (pip install of each)

For each ruleset, the same seeds are played by the heuristic in a fresh process of each checkout,
the two alternating over `--repeats` rounds, and the median CPU time of each is compared (a ratio
taken in one run: the machine is shared and noisy). Each process also hashes every game's event
log and final state; a speed-up that changes a game is reported as such, and the exit status is 1.
Target (issue: speed): 1.5x for stalingrad, sza and director, every game identical.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Run in a child process with the checkout measured first on the import path.
CHILD = r"""
import gc, hashlib, json, sys, time
if sys.argv[1] != "-":  # "-": the interpreter's installed ecs-zombie
    sys.path.insert(0, sys.argv[1])
from ecs_zombie import canonical, new_game
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.scenario import load_scenario
from ecs_zombie.state import game_state

ruleset, first, games = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
scenario, policies = load_scenario(ruleset), PolicyTable("heuristic")
game = new_game(scenario, 10**9)  # warm: tables loaded, caches filled
game.play(policies)
game.close()
digest = hashlib.sha256()
gc.collect()
spent = 0.0
for seed in range(first, first + games):
    start = time.process_time()
    game = new_game(scenario, seed)
    game.play(policies)
    spent += time.process_time() - start
    digest.update(canonical.pack_sorted([list(e[:3]) for e in game.events]))
    state = game_state(game)
    digest.update(canonical.pack_sorted({k: v for k, v in state.items()
                                         if k not in ("version", "ruleset_origin", "ruleset_hash", "ruleset_files",
                                                      "provenance")}))
    game.close()
print(json.dumps({"seconds": spent, "digest": digest.hexdigest()[:16]}))
"""


def run(root: Path | None, ruleset: str, first: int, games: int, python: str = sys.executable) -> dict[str, object]:
    """The games played in a fresh process of `python`, with the checkout `root` first on the import
    path (None: the interpreter's installed build)."""
    out = subprocess.run([python, "-c", CHILD, str(root) if root else "-", ruleset, str(first), str(games)],
                         capture_output=True, text=True, check=False, cwd="/")
    if out.returncode != 0:
        raise SystemExit(f"{root}: {ruleset}: {out.stderr.strip().splitlines()[-1] if out.stderr else out.returncode}")
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--baseline", type=Path, help="an earlier checkout (a git worktree)")
    ap.add_argument("--baseline-python", help="instead, the interpreter of a venv where an earlier build is installed")
    ap.add_argument("--python", help="the interpreter of a venv where this build is installed (default: this "
                                     "checkout, plain Python)")
    ap.add_argument("--rulesets", nargs="*", default=["stalingrad", "sza", "director"])
    ap.add_argument("--games", type=int, default=20, help="seeds per ruleset")
    ap.add_argument("--first", type=int, default=1, help="the first seed")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    if (args.baseline is None) == (args.baseline_python is None):
        raise SystemExit("give --baseline or --baseline-python")
    base = args.baseline.resolve() if args.baseline else None
    if base is not None and not (base / "ecs_zombie").is_dir():
        raise SystemExit(f"{base}: not a checkout of ecs-zombie")
    sides = (("base", base, args.baseline_python or sys.executable),
             ("now", None if args.python else ROOT, args.python or sys.executable))
    print(f"{'ruleset':22s} {'baseline g/s':>12s} {'now g/s':>9s} {'ratio':>6s}  games")
    moved = False
    for ruleset in args.rulesets:
        times: dict[str, list[float]] = {"base": [], "now": []}
        digests: dict[str, set[object]] = {"base": set(), "now": set()}
        for _ in range(args.repeats):
            for key, root, python in sides:
                found = run(root, ruleset, args.first, args.games, python)
                times[key].append(float(found["seconds"]))  # type: ignore[arg-type]
                digests[key].add(found["digest"])
        b, n = statistics.median(times["base"]), statistics.median(times["now"])
        same = digests["base"] == digests["now"] and len(digests["now"]) == 1
        moved |= not same
        print(f"{ruleset:22s} {args.games / b:12.1f} {args.games / n:9.1f} {b / n:5.2f}x  "
              f"{'identical' if same else 'DIFFERENT'}")
    return 1 if moved else 0


if __name__ == "__main__":
    sys.exit(main())
