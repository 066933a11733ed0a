"""The installed build, whose hot modules are compiled by mypyc (hatch_build.py), plays exactly the
games the checkout's plain Python plays: the same events, states, replays and saves, byte for byte.

Runs where the package is installed compiled; skipped elsewhere, except that with
ECS_ZOMBIE_EXPECT_COMPILED=1 (as CI sets) a missing or plain-Python install fails: a wheel whose
compilation failed quietly falls back to plain Python, and CI must not let that pass unseen."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT

GAMES = """
import hashlib
import ecs_zombie.world
from ecs_zombie import canonical, new_game
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.replay import Recorder
from ecs_zombie.snapshot import restore
from ecs_zombie.state import game_state, state_bytes

out = hashlib.sha256()
for ruleset, players, seeds in [("shambling", 1, 40), ("shambling", 3, 5), ("stalingrad", 1, 4),
                                ("stalingrad-shambling", 1, 2), ("sza", 1, 3), ("director", 1, 3),
                                ("director-adaptive", 1, 2)]:
    for policy in ("heuristic", "random"):
        for seed in range(seeds):
            game = new_game(ruleset, seed, policy=policy, players=None if players == 1 else players)
            recorder = Recorder(game)
            policies = PolicyTable(policy)
            game.play(policies, stop_after=2)
            resumed = restore(game_state(game))  # save and load mid-game, then both go on
            game.play(policies)
            resumed.play(policies)
            out.update(canonical.pack(game.events))
            out.update(state_bytes(game))
            out.update(state_bytes(resumed))
            out.update(recorder.to_bytes(game))
            game.close()
            resumed.close()
print(ecs_zombie.world.__file__)
print(out.hexdigest())
"""


def run(code: str, checkout: bool, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if checkout:
        env["PYTHONPATH"] = str(ROOT)
    # -P: nothing from the working directory; cwd is an empty folder anyway.
    return subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=600)


def installed_build(cwd: Path) -> str:
    miss = pytest.fail if os.environ.get("ECS_ZOMBIE_EXPECT_COMPILED") else pytest.skip
    probe = run("import ecs_zombie.world as w; print(w.__file__)", checkout=False, cwd=cwd)
    if probe.returncode != 0:
        miss("ecs-zombie is not installed (pip install .)")
    where = probe.stdout.strip()
    if where.endswith(".py"):
        miss(f"the installed build is plain Python ({where}): did mypyc fail? (pip install -v . shows why)")
    return where


def test_compiled_build_plays_the_checkouts_games_byte_for_byte(tmp_path: Path) -> None:
    compiled = installed_build(tmp_path)
    mine = run(GAMES, checkout=True, cwd=tmp_path)
    theirs = run(GAMES, checkout=False, cwd=tmp_path)
    assert mine.returncode == 0, mine.stderr[-2000:]
    assert theirs.returncode == 0, theirs.stderr[-2000:]
    assert mine.stdout.splitlines()[0].startswith(str(ROOT))
    assert theirs.stdout.splitlines()[0] == compiled
    assert mine.stdout.splitlines()[1] == theirs.stdout.splitlines()[1]


ALLOCATIONS = """
import gc, sys
from ecs_zombie.batch import BatchSpec, play_one

for target, policy, games in [("shambling", "heuristic", 1000), ("shambling", "random", 300),
                              ("stalingrad", "random", 40), ("sza", "random", 30), ("director", "random", 30)]:
    spec = BatchSpec(target, 10**9, seed=1, policy=policy)  # batch seeds: large ints, half of them over 2**62
    for i in range(20):
        play_one(spec, i)
    gc.collect()
    before = sys.getallocatedblocks()
    for i in range(20, 20 + games):
        play_one(spec, i)
    gc.collect()
    print(target, policy, sys.getallocatedblocks() - before)
"""


def test_compiled_build_frees_what_the_checkout_frees(tmp_path: Path) -> None:
    """mypyc has leaked large ints turned into text (see rng.derive): the compiled build must hold
    no more memory after the same games than the plain source does (which holds only its caches)."""
    installed_build(tmp_path)
    mine = run(ALLOCATIONS, checkout=True, cwd=tmp_path)
    theirs = run(ALLOCATIONS, checkout=False, cwd=tmp_path)
    assert mine.returncode == 0, mine.stderr[-2000:]
    assert theirs.returncode == 0, theirs.stderr[-2000:]
    for plain, compiled in zip(mine.stdout.splitlines(), theirs.stdout.splitlines(), strict=True):
        assert int(compiled.split()[-1]) <= int(plain.split()[-1]) + 50, (plain, compiled)
