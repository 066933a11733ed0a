"""Train a small tabular agent on Escape from Stalingrad Z through the PettingZoo environment, then
show it beating `random` on seeds it never trained on (win rates with 95% Wilson intervals).

    pip install "ecs-zombie[rl]"
    python examples/train_stalingrad.py --train-games 1000 --eval-games 500

The agent is Q-learning over a small table: the state is the acting character's square, coarsened
(which fifth of the map's width, which third of its height), and the actions are the environment's
fixed action indices, whose meaning does not change from step to step (a move is a square relative
to the acting character, so "one square north-east" is one entry wherever the character stands).
The reward is the environment's (+1 escape, -1 otherwise) and its shaped reward with weights of our
own, plus a potential of our own computed from the observation alone: how far the characters on
the map have come towards the exit (right and up). Only numpy. Training and evaluation are
deterministic (fixed seeds for the games and the agent's exploration): the same command prints the
same figures on any machine, only the times differ. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ecs_zombie.env import aec_env

SHAPING = {"characters_escaped": 1.0, "characters_killed": -0.5, "wounds_taken": -0.05, "zombies_killed": 0.05}
EVAL_SEEDS = 1_000_000  # evaluation seeds start here; training uses 0, 1, 2, ...


class Features:
    """Reads what the agent needs from the observation vector, by the layout's column names."""

    def __init__(self, env) -> None:
        lay = env.layout
        self.start, self.ncols, self.rows = len(lay.scalars), len(lay.columns), lay.rows
        col = {name: i for i, name in enumerate(lay.columns)}
        self.present, self.focus, self.side = col["present"], col["focus"], col["Faction.side"]
        self.x, self.y = col["Position.x"], col["Position.y"]

    def table(self, obs: np.ndarray) -> np.ndarray:
        return obs[self.start:].reshape(self.rows, self.ncols)

    def state(self, obs: np.ndarray) -> tuple[int, int]:
        """The acting character's square, coarsened (-1, -1 when no figure is in focus)."""
        t = self.table(obs)
        acting = np.flatnonzero(t[:, self.focus] > 0)
        if not len(acting):
            return (-1, -1)
        r = acting[0]
        return int(t[r, self.x]) // 4, int(t[r, self.y]) // 4

    def progress(self, obs: np.ndarray) -> tuple[float, int]:
        """(how far the characters on the map have come: x minus y summed, how many there are)."""
        t = self.table(obs)
        mine = (t[:, self.present] > 0) & (t[:, self.side] == 1)  # 1: `survivors`, the vocabulary's first
        return float((t[mine, self.x] - t[mine, self.y]).sum()), int(mine.sum())


class Agent:
    def __init__(self, actions: int, rng: np.random.Generator) -> None:
        self.q: dict[tuple[int, int], np.ndarray] = {}
        self.actions = actions
        self.rng = rng

    def values(self, state: tuple[int, int]) -> np.ndarray:
        row = self.q.get(state)
        if row is None:
            row = self.q[state] = np.zeros(self.actions, dtype=np.float64)
        return row

    def act(self, state: tuple[int, int], mask: np.ndarray, epsilon: float) -> int:
        legal = np.flatnonzero(mask)
        if self.rng.random() < epsilon:
            return int(self.rng.choice(legal))
        v = self.values(state)[legal]
        best = legal[v >= v.max() - 1e-12]
        return int(self.rng.choice(best))


def train(games_to_play: int, seed: int) -> tuple[Agent, int, int]:
    env = aec_env("stalingrad", shaped=SHAPING)
    feats = Features(env)
    agent = Agent(env.layout.actions, np.random.default_rng(seed))
    alpha, gamma = 0.2, 0.97
    games = steps = 0
    while games < games_to_play:
        epsilon = max(0.05, 0.3 * (1 - games / games_to_play))  # exploration decays over training
        env.reset(seed=games)
        prev: tuple[tuple[int, int], int] | None = None
        phi, count = 0.0, 0
        for _agent in env.agent_iter():
            obs, reward, term, trunc, _info = env.last()
            o = obs["observation"]
            now, n = feats.progress(o)
            if prev is not None and n == count:  # our potential, while no character left the map
                reward += 0.05 * (gamma * now - phi)
            phi, count = now, n
            state = feats.state(o)
            if prev is not None:
                target = reward if term or trunc else reward + gamma * agent.values(state)[
                    np.flatnonzero(obs["action_mask"])].max()
                q = agent.values(prev[0])
                q[prev[1]] += alpha * (target - q[prev[1]])
            if term or trunc:
                env.step(None)
                continue
            action = agent.act(state, obs["action_mask"], epsilon)
            prev = (state, action)
            env.step(action)
            steps += 1
        games += 1
    env.close()
    return agent, games, steps


def evaluate(agent: Agent | None, games: int, seed: int) -> int:
    """Wins over `games` games on the evaluation seeds: greedy by the table, or uniform (None)."""
    env = aec_env("stalingrad")
    feats = Features(env)
    rng = np.random.default_rng(seed)
    wins = 0
    for g in range(games):
        env.reset(seed=EVAL_SEEDS + g)
        for _agent in env.agent_iter():
            obs, _r, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            if agent is None:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            else:
                env.step(agent.act(feats.state(obs["observation"]), obs["action_mask"], 0.0))
        wins += info["outcome"] == "survivors"
    env.close()
    return wins


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--train-games", type=int, default=1000, help="training games (default 1000)")
    ap.add_argument("--eval-games", type=int, default=500, help="evaluation games per policy (default 500)")
    ap.add_argument("--seed", type=int, default=0, help="the agent's own exploration seed")
    ap.add_argument("--json", action="store_true", help="print the result as one JSON object")
    args = ap.parse_args()
    started = time.process_time()
    agent, games, steps = train(args.train_games, args.seed)
    trained = time.process_time() - started
    result = {"ruleset": "stalingrad", "train_games": games, "train_steps": steps, "train_cpu_seconds": round(trained),
              "states": len(agent.q), "eval_games": args.eval_games, "eval_seeds": f"{EVAL_SEEDS}.."}
    for name, who in (("trained", agent), ("random", None)):
        t = time.process_time()
        wins = evaluate(who, args.eval_games, args.seed)
        result[f"{name}_eval_cpu_seconds"] = round(time.process_time() - t)
        lo, hi = wilson(wins, args.eval_games)
        result[name] = {"wins": wins, "rate": round(wins / args.eval_games, 4),
                        "wilson95": [round(lo, 4), round(hi, 4)]}
    if args.json:
        print(json.dumps(result))
        return
    print(f"trained {games} games ({steps} steps) in {trained:.0f} CPU s; {len(agent.q)} states in the table")
    for name in ("trained", "random"):
        r = result[name]
        print(f"{name:8s} wins {r['wins']}/{args.eval_games} = {100 * r['rate']:.1f}% "
              f"(95% Wilson {100 * r['wilson95'][0]:.1f}-{100 * r['wilson95'][1]:.1f}%)")


if __name__ == "__main__":
    main()
