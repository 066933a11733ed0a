"""Which options Stalingrad's `heuristic` policy is offered and takes, and which events happen, over
many games: the measurement behind the heuristic's figures in docs/stalingrad.md (issue 13 point 4).

    python benchmarks/stalingrad_coverage.py [--games 200] [--ruleset stalingrad] [--json FILE]

Games are seeds 0..N-1 with the heuristic policy. Options are counted by type (the first element
of a list option, the option itself when it is a word, "figure" for an entity id); an option is
"offered" once per decision that lists it, and only decisions with a real choice (two options or
more) count. Also: wounds by cause, attacks by mode, the characters' win rate with a Wilson 95%
interval.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import measured  # noqa: E402,F401  (imports this checkout's package)

from ecs_zombie import new_game  # noqa: E402
from ecs_zombie.decisions import Decision, PolicyTable  # noqa: E402


def option_type(option: Any) -> str:
    if isinstance(option, list) and option and not isinstance(option[0], str):
        return "square"
    if isinstance(option, list):
        return str(option[0]) + (f":{option[1]}" if option and option[0] == "attack" else "")
    if isinstance(option, str):
        return option
    return "figure"


class Counting:
    """The heuristic policy, counting every option type it is offered and takes."""

    def __init__(self) -> None:
        self.inner = PolicyTable("heuristic")
        self.offered: Counter[tuple[str, str]] = Counter()
        self.taken: Counter[tuple[str, str]] = Counter()
        self.needs_tick_start = False

    def choose(self, game: Any, decision: Decision) -> int:
        answer = self.inner.choose(game, decision)
        for kind in sorted({option_type(o) for o in decision.options}):
            self.offered[(decision.kind, kind)] += 1
        self.taken[(decision.kind, option_type(decision.options[answer]))] += 1
        return answer


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def measure(ruleset: str, games: int) -> dict[str, Any]:
    policy = Counting()
    events: Counter[str] = Counter()
    wounds: Counter[str] = Counter()
    attacks: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    for seed in range(games):
        game = new_game(ruleset, seed)
        game.play(policy)  # type: ignore[arg-type]
        for _tick, kind, data, _path in game.events:
            events[kind] += 1
            if kind == "wound":
                wounds[data["why"]] += 1
            elif kind == "attack_declared":
                attacks[str(data.get("type"))] += 1
        outcomes[str(game.outcome)] += 1
        game.close()
    wins = outcomes.get("survivors", 0)
    low, high = wilson(wins, games)
    return {"ruleset": ruleset, "games": games, "outcomes": dict(outcomes),
            "win_rate": [wins / games, low, high],
            "options": {f"{k} {t}": [policy.offered[(k, t)], policy.taken[(k, t)]]
                        for k, t in sorted(policy.offered)},
            "events": dict(sorted(events.items())), "wounds": dict(sorted(wounds.items())),
            "attacks": dict(sorted(attacks.items()))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--ruleset", default="stalingrad")
    parser.add_argument("--json", help="also write the figures to this JSON file")
    args = parser.parse_args()
    if args.games < 1:
        parser.exit(2, "--games must be at least 1\n")
    out = measure(args.ruleset, args.games)
    rate, low, high = out["win_rate"]
    print(f"{args.ruleset}, {args.games} games, heuristic: characters win {rate:.1%} (95% {low:.1%}-{high:.1%})")
    print("| decision option | offered | taken |\n| --- | --- | --- |")
    for name, (offered, taken) in out["options"].items():
        print(f"| {name} | {offered} | {taken} |")
    total = sum(out["wounds"].values()) or 1
    print("wounds: " + ", ".join(f"{k} {v} ({v / total:.0%})" for k, v in out["wounds"].items()))
    print("attacks: " + ", ".join(f"{k} {v}" for k, v in out["attacks"].items()))
    print("events: " + ", ".join(f"{k} {v}" for k, v in out["events"].items()))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
