"""The README's strength table: the survivors' win rate under each policy, every ruleset, common seeds.

    python benchmarks/strength.py [--installed] [--games 1000] [--mcts-games 40] \\
        [--budgets 8 32] [--workers 2] [--rulesets shambling sza ...]

For each ruleset the survivors' team (every player seat, or the party) is played by `heuristic`,
`random` and `mcts` at each budget (iterations per decision), the zombies' sides by `heuristic`, on
the batch seeds 1, 2, ... of seed 1 (`mcts` plays the first `--mcts-games` of the same seeds: it
costs far more per game). Prints a Markdown table: each cell the win rate, its Wilson 95% interval,
the games, and the milliseconds per decision of the survivors' policy.
"""

from __future__ import annotations

import argparse
import time

import measured  # before ecs_zombie: it chooses the build measured

from ecs_zombie.catalog import catalog
from ecs_zombie.tournament import play_tournament


def cell(entry: dict) -> str:
    lo, hi = entry["ci95"]
    ms = entry["ms_per_decision"]
    return (f"{100 * entry['rate']:.1f}% ({100 * lo:.1f}–{100 * hi:.1f}; n={entry['games']}"
            + (f"; {ms:.2g} ms" if ms is not None else "") + ")")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    measured.add_flag(parser)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--mcts-games", type=int, default=40)
    parser.add_argument("--budgets", type=int, nargs="*", default=[8, 32])
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--rulesets", nargs="+", default=None)
    args = parser.parse_args()
    rulesets = args.rulesets or sorted(e.id for e in catalog().entries.values() if e.origin.kind == "shipped")
    policies = [("heuristic", args.games), ("random", args.games),
                *((f"mcts:iterations={b}", args.mcts_games) for b in args.budgets)]
    print(f"<!-- {measured.build()}; python benchmarks/strength.py --games {args.games} --mcts-games "
          f"{args.mcts_games} --budgets {' '.join(map(str, args.budgets))} -->")
    print("| ruleset | " + " | ".join(p.replace("iterations=", "") for p, _ in policies) + " |")
    print("|---" * (len(policies) + 1) + "|")
    for rid in rulesets:
        cells = []
        for policy, games in policies:
            start = time.perf_counter()
            result = play_tournament(rid, [policy], games, seed=1, workers=args.workers, only="survivors")
            cells.append(cell(result.entries[0].to_dict()))
            print(f"<!-- {rid} {policy}: {time.perf_counter() - start:.0f} s -->", flush=True)
        print(f"| {rid} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
