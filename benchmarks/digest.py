"""A digest of what every shipped ruleset's games do, to prove a refactor left the rules alone.

For each ruleset, both default policies (`heuristic`, `random`) and seeds 0..N-1, a game is played to
its end and four things are hashed, each separately so that a change says what it moved:

- `outcomes`: each game's outcome, turns and metrics;
- `events`: the whole event log (every roll, draw, decision and effect, with its data);
- `paths`: which system logged each event;
- `states`: the final state (entities, streams and bookkeeping), without what only says which
  format, code and files wrote it (so that a new save format compares equal when no game moved);
- `replays`: a save and reload after tick 2, played on: the resumed game's final state.

    python benchmarks/digest.py --games 50 --out before.json      # record
    python benchmarks/digest.py --games 50 --check before.json    # compare; exit 1 on a difference

`--rename NOW=BEFORE` (repeatable) rewrites every string NOW of this run's outcomes and events to
BEFORE, the name the recorded digests used: a change of vocabulary only (a side renamed) then
still compares equal, which shows that nothing but the name moved.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from typing import Any

import measured  # before ecs_zombie: it chooses the build measured

from ecs_zombie import canonical, new_game
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.ruleset import list_rulesets
from ecs_zombie.snapshot import restore
from ecs_zombie.state import game_state

MULTIPLAYER = ("shambling@3", "director@4", "director-adaptive@4", "director@1")


def _renamed(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, dict):
        return {_renamed(k, names): _renamed(v, names) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_renamed(v, names) for v in value]
    return value


_FORMAT_ONLY = ("version", "ruleset_origin", "ruleset_hash", "ruleset_files", "provenance")


def _state(game: Any) -> bytes:
    state = game_state(game)
    return canonical.pack_sorted({k: v for k, v in state.items() if k not in _FORMAT_ONLY})


def digest_ruleset(target: str, games: int, names: dict[str, str]) -> dict[str, str]:
    """`target` is a ruleset id, or `id@N` for N players."""
    ruleset, _, seats = target.partition("@")
    players = int(seats) if seats else None
    hashes = {key: hashlib.sha256() for key in ("outcomes", "events", "paths", "states", "replays")}
    for policy in ("heuristic", "random"):
        policies = PolicyTable(policy)
        for seed in range(games):
            game = new_game(ruleset, seed, policy=policy, players=players)
            game.play(policies)
            summary = {"outcome": game.outcome, "turns": game.tick, **game.metrics()}
            hashes["outcomes"].update(canonical.pack_sorted(_renamed(summary, names)))
            hashes["events"].update(canonical.pack_sorted(_renamed([list(e[:3]) for e in game.events], names)))
            hashes["paths"].update(canonical.pack_sorted([e[3] if len(e) > 3 else "" for e in game.events]))
            hashes["states"].update(_state(game))
            game.close()
            game = new_game(ruleset, seed, policy=policy, players=players)
            game.play(policies, stop_after=2)
            resumed = restore(game_state(game))
            game.close()
            resumed.play(policies)
            hashes["replays"].update(_state(resumed))
            resumed.close()
    return {key: h.hexdigest()[:16] for key, h in hashes.items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    measured.add_flag(ap)
    ap.add_argument("--games", type=int, default=50, help="seeds per ruleset and policy")
    ap.add_argument("--rulesets", nargs="*", help="default: every shipped ruleset, and " + ", ".join(MULTIPLAYER))
    ap.add_argument("--out", help="write the digests to this JSON file")
    ap.add_argument("--check", help="compare with digests written by --out; exit 1 on a difference")
    ap.add_argument("--rename", action="append", default=[], metavar="NOW=BEFORE")
    args = ap.parse_args()
    names = dict(r.split("=", 1) for r in args.rename)
    print(measured.build(), file=sys.stderr)
    rulesets = args.rulesets or [rid for rid, _ in list_rulesets()] + list(MULTIPLAYER)
    found = {"games": args.games, "rulesets": {rid: digest_ruleset(rid, args.games, names) for rid in rulesets}}
    for rid, d in found["rulesets"].items():
        print(f"{rid:22s} " + "  ".join(f"{k} {v}" for k, v in d.items()))
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(found, fh, indent=1, sort_keys=True)
    if args.check:
        with open(args.check) as fh:
            before = json.load(fh)
        differ = [f"{rid} {key}" for rid, d in found["rulesets"].items()
                  for key, value in d.items() if before["rulesets"].get(rid, {}).get(key) != value]
        print("identical" if not differ else "DIFFERENT: " + ", ".join(differ))
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
