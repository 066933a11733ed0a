"""Which options Shambling's players are offered and take, and how heroes are lost, over many games.

Every decision the policy is asked (a choice among two or more options) is recorded with the kind
of each option offered and of the one taken: a figure as hero/survivor/zombie and wounded or not,
else the option itself ('stay', 'done', 'stand', ...). Events counted: join rolls, pursuit rolls and
the pieces removed by why. A hero's death is "chosen" when the survivors' player picked it (the
wound that killed a wounded hero, or the hero sent off in a pursuit or a flight) while a figure
other than a hero was also offered.

    python benchmarks/shambling_options.py --games 200 --players 1 [--policy heuristic] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any

import measured  # before ecs_zombie: it chooses the build measured

from ecs_zombie import new_game
from ecs_zombie.components import Kind, Wounds
from ecs_zombie.decisions import Decision, PolicyTable
from ecs_zombie.game import Game

LOSSES = {"shambling.wound", "shambling.pursue", "shambling.flee"}


def option_kind(game: Game, option: Any) -> str:
    """A figure as its kind, '*' when wounded; any other option as itself."""
    if isinstance(option, int) and not isinstance(option, bool) and game.world.exists(option):
        hurt = game.world.try_get(option, Wounds)
        return game.world.get(option, Kind).name + ("*" if hurt is not None and hurt.taken else "")
    return str(option)


class Recorder:
    """Answers as the policy does, and counts what was offered and taken."""

    def __init__(self, policy: PolicyTable) -> None:
        self.policy = policy
        self.offered: Counter[tuple[str, str, str]] = Counter()  # (kind, who, option kind) offered
        self.taken: Counter[tuple[str, str, str]] = Counter()
        self.asked: Counter[tuple[str, str]] = Counter()
        self.hero_chosen = 0

    def choose(self, game: Game, d: Decision) -> int:
        pick = self.policy.choose(game, d)
        who = "narrator" if d.side == "narrator" else "player"
        kinds = [option_kind(game, o) for o in d.options]
        self.asked[d.kind, who] += 1
        for k in set(kinds):
            self.offered[d.kind, who, k] += 1
        self.taken[d.kind, who, kinds[pick]] += 1
        if who == "player" and d.kind in LOSSES and kinds[pick].startswith("hero"):
            fatal = d.kind != "shambling.wound" or kinds[pick] == "hero*"
            if fatal and any(not k.startswith("hero") for k in kinds):
                self.hero_chosen += 1
        return pick


def measure(ruleset: str, games: int, players: int, policy: str) -> dict[str, Any]:
    rec = Recorder(PolicyTable(policy))
    events: Counter[str] = Counter()
    wins = 0
    for seed in range(games):
        game = new_game(ruleset, seed, players=players)
        game.play(rec)  # type: ignore[arg-type]
        wins += game.outcome == "survivors"
        for _t, kind, data, *_ in game.events:
            if kind in ("join_roll", "pursuit", "stance"):
                events[kind if kind != "stance" else f"stance {data['stance']}"] += 1
            elif kind == "removed":
                events[f"removed {data['piece']} ({data['why']})"] += 1
        game.close()
    rows = [{"kind": k, "who": w, "option": o, "offered": n, "taken": rec.taken.get((k, w, o), 0)}
            for (k, w, o), n in sorted(rec.offered.items())]
    heroes_lost = sum(n for k, n in events.items() if k.startswith("removed hero"))
    return {"games": games, "players": players, "policy": policy, "survivors_won": wins,
            "asked": {f"{k} ({w})": n for (k, w), n in sorted(rec.asked.items())}, "options": rows,
            "events": dict(sorted(events.items())), "heroes_lost": heroes_lost,
            "hero_deaths_chosen": rec.hero_chosen}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    measured.add_flag(ap)
    ap.add_argument("--ruleset", default="shambling")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=1)
    ap.add_argument("--policy", default="heuristic")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    found = measure(args.ruleset, args.games, args.players, args.policy)
    if args.json:
        print(json.dumps(found, indent=1))
        return 0
    print(f"{args.ruleset}, {found['games']} games (seeds 0..{found['games'] - 1}), {found['players']} "
          f"player(s), policy {found['policy']}: survivors won {found['survivors_won']}")
    print(f"{'decision (who)':34s} {'option':12s} {'offered':>8s} {'taken':>8s}")
    for r in found["options"]:
        print(f"{r['kind'] + ' (' + r['who'] + ')':34s} {r['option']:12s} {r['offered']:8d} {r['taken']:8d}")
    for name, n in found["events"].items():
        print(f"event {name:40s} {n:6d}")
    print(f"heroes lost {found['heroes_lost']}, of which chosen by their player with another figure offered "
          f"{found['hero_deaths_chosen']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
