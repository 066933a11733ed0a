"""Learning-environment benchmark (issue 14): PettingZoo AEC steps per second for every ruleset, the
share of a step spent building observations, and the same decisions answered through a bare
`Stepper` for comparison, side by side in one run. Medians over repeats; CPU time (the machine is
shared: CPU time is the per-core figure).

    python benchmarks/bench_env.py [--games 20] [--repeats 5] [--rulesets shambling sza]

Every side is an agent; each answers uniformly at random among its legal actions (numpy, seeded),
and the time of choosing is left out: a step is `env.last()` (which builds the observation) plus
`env.step(action)`. "obs share" is the time in `observe` over the time of the steps. The bare
Stepper plays the same games with the engine's `random` policy and no observation.
Needs the rl extra (`pip install "ecs-zombie[rl]"`).
"""

from __future__ import annotations

import argparse
import statistics
import time

import measured  # before ecs_zombie: it chooses the build measured
import numpy as np

from ecs_zombie.catalog import catalog
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.env import aec_env
from ecs_zombie.game import new_game
from ecs_zombie.stepper import Stepper


def env_run(ruleset: str, games: int, first_seed: int) -> tuple[float, float, float]:
    """(steps per CPU second, share of the step time spent in observe, steps a game)."""
    env = aec_env(ruleset)
    observe = env.observe
    spent = [0.0]

    def timed(agent: str) -> dict[str, np.ndarray]:
        t = time.process_time()
        out = observe(agent)
        spent[0] += time.process_time() - t
        return out

    env.observe = timed  # type: ignore[method-assign]
    steps = 0
    busy = 0.0
    for g in range(games):
        rng = np.random.default_rng(first_seed + g)
        t = time.process_time()
        env.reset(seed=first_seed + g)
        busy += time.process_time() - t
        while env.agents:
            t = time.process_time()
            obs, _r, term, trunc, _i = env.last()
            busy += time.process_time() - t
            action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
            t = time.process_time()
            env.step(action)
            busy += time.process_time() - t
            steps += action is not None
    env.close()
    return steps / busy, spent[0] / busy, steps / games


def stepper_run(ruleset: str, games: int, first_seed: int) -> float:
    """Decisions per CPU second answered through a bare Stepper by the engine's `random` policy."""
    policy = PolicyTable("random")
    decisions = 0
    t = time.process_time()
    for seed in range(first_seed, first_seed + games):
        game = new_game(ruleset, seed, policy="random")
        stepper = Stepper(game)
        while not stepper.done:
            assert stepper.pending is not None
            stepper.answer(policy.choose(game, stepper.pending))
            decisions += 1
        game.close()
    return decisions / (time.process_time() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    measured.add_flag(ap)
    ap.add_argument("--games", type=int, default=20, help="games per repeat (default 20)")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--rulesets", nargs="*", default=None, help="default: every ruleset the catalog lists")
    args = ap.parse_args()
    print(measured.build())
    rulesets = args.rulesets or sorted(catalog().entries)
    print(f"{'ruleset':22s} {'env steps/s':>12s} {'obs share':>10s} {'Stepper decisions/s':>20s} "
          f"{'steps/game':>11s}   (medians of {args.repeats} x {args.games} games, CPU time)")
    for ruleset in rulesets:
        env_run(ruleset, 2, 10**6)  # warm up: imports, YAML, caches
        runs = [env_run(ruleset, args.games, r * args.games) for r in range(args.repeats)]
        bare = [stepper_run(ruleset, args.games, r * args.games) for r in range(args.repeats)]
        rate = statistics.median(r[0] for r in runs)
        share = statistics.median(r[1] for r in runs)
        per_game = statistics.median(r[2] for r in runs)
        print(f"{ruleset:22s} {rate:12,.0f} {share:10.0%} {statistics.median(bare):20,.0f} {per_game:11.0f}")


if __name__ == "__main__":
    main()
