"""Singapore Zombie Apocalypse: what the policies do with the options the rules offer.

Over `--games` seeds of a target (the campaign by default), counts each kind of `sza.action`
option offered and taken (`goto:safe`, `salvage:counter`, `ability:inspire`, ...), the party's
event choices, the numbered events reached, the car's drives (one-square drives apart), and the
games lost at the turn limit with no zombie on the board, each with the turns it played with the
board clear (a deadlock: nothing left to fight for many turns, yet the party never finishes; a
single turn is a fight won on the last turn). The survivors' win rate comes with its Wilson 95% interval.

    python benchmarks/sza_coverage.py [--games 200] [--policy heuristic] [--target sza] [--json]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from typing import Any

import measured  # noqa: F401  (before ecs_zombie: it chooses the build measured)

from ecs_zombie import new_game
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.scenario import load_scenario
from ecs_zombie.stats import wilson
from ecs_zombie.systems.sza.state import board_of, stage_of, zombies


def option_kind(option: str, feature: dict[int, str]) -> str:
    """An option's kind: its verb, with the feature or ability it names (not the entity ids)."""
    parts = option.split(":")
    verb = parts[0]
    if verb in ("salvage", "unlock", "window", "fuse", "safe"):
        return f"{verb}:{feature.get(int(parts[1]), '?')}"
    if verb in ("goto", "ability"):
        return f"{verb}:{parts[1]}"
    if verb == "give":
        return f"give:{parts[1]}"
    if verb == "engage":
        return f"engage:{parts[2]}"
    return verb


def measure(target: str, games: int, policy: str, first_seed: int = 0,
            forced: dict[str, int] | None = None) -> dict[str, Any]:
    """`forced`: event choices made regardless of the policy ({"bungalow:1": 3}: the third)."""
    scenario = load_scenario(target)
    policies = PolicyTable(policy)
    offered: Counter[str] = Counter()
    taken: Counter[str] = Counter()
    choices: Counter[str] = Counter()
    events: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    drives: Counter[str] = Counter()
    unlocks: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    deadlocks: list[list[int]] = []
    for seed in range(first_seed, first_seed + games):
        game = new_game(scenario, seed)
        features: dict[int, str] = {}

        def watch(g: Any, features: dict[int, str] = features) -> None:
            _e, st = stage_of(g)
            if st.built:
                b = board_of(g, st)
                for kind, cells in b.features.items():
                    for c in cells:
                        features.setdefault(c, kind)

        policy_table = policies  # tick by tick through step(), so that every decision's options are seen
        decision = game.step()
        while decision is not None:
            watch(game)
            answer = policy_table.choose(game, decision)
            if decision.kind == "sza.event_choice":
                _e, st = stage_of(game)
                key = f"{st.stages[st.index]}:{decision.context.get('event')}"
                if forced and key in forced:
                    answer = forced[key] - 1
            if decision.kind == "sza.action":
                fmap = dict(features)
                for o in set(option_kind(o, fmap) for o in decision.options):
                    offered[o] += 1
                taken[option_kind(decision.options[answer], fmap)] += 1
            elif decision.kind == "sza.event_choice":
                choices[f"{key}:{answer + 1}"] += 1
            decision = game.step(answer)
        cleared = 0
        for _t, kind, data, _p in game.events:
            kinds[kind] += 1
            if kind == "event":
                events[f"{data['scenario']}:{data['event']}"] += 1
            elif kind == "unlocked":
                unlocks[str(data["how"])] += 1
            elif kind == "drove":
                drives["one square" if data["squares"] <= 1 else "longer"] += 1
            elif kind == "destroyed":
                cleared = _t
            elif kind == "overrun" and not zombies(game):
                deadlocks.append([seed, _t - cleared])  # the seed, and the turns played with the board clear
        outcomes[str(game.outcome)] += 1
        game.close()
    won = outcomes.get("survivors", 0)
    lo, hi = wilson(won, games)
    return {"target": target, "policy": policy, "games": games, "survivors": won,
            "interval": [round(100 * lo, 1), round(100 * hi, 1)], "outcomes": dict(outcomes),
            "offered": dict(sorted(offered.items())), "taken": dict(sorted(taken.items())),
            "choices": dict(sorted(choices.items())), "events": dict(sorted(events.items())),
            "event_kinds": dict(sorted(kinds.items())), "drives": dict(drives), "unlocks": dict(unlocks),
            "deadlocks": deadlocks}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--policy", default="heuristic")
    parser.add_argument("--target", default="sza")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--force", default="", help="event choices to force: bungalow:1=3,street:4=2")
    args = parser.parse_args()
    forced = {k: int(v) for k, v in (f.split("=") for f in args.force.split(",") if f)}
    r = measure(args.target, args.games, args.policy, args.first_seed, forced)
    if args.json:
        print(json.dumps(r))
        return
    print(f"{r['target']} {r['policy']}: {r['games']} games, survivors {r['survivors']} "
          f"({100 * r['survivors'] / r['games']:.1f}%, {r['interval'][0]}-{r['interval'][1]}%) {r['outcomes']}")
    print("action option      offered  taken")
    for k in sorted(set(r["offered"]) | set(r["taken"])):
        print(f"  {k:<24} {r['offered'].get(k, 0):>7} {r['taken'].get(k, 0):>6}")
    print("event choices:", r["choices"])
    print("events:", r["events"])
    print("unlocked by:", r["unlocks"])
    stalls = [d for d in r["deadlocks"] if d[1] >= 3]
    print("drives:", r["drives"], "lost at the limit with the board clear:", len(r["deadlocks"]),
          "of which clear for 3 turns or more:", len(stalls), r["deadlocks"][:10])


if __name__ == "__main__":
    main()
