"""The terminal viewer: frames at every decision, after every system and step, and at every tick's
end; and the viewer itself driven through a real terminal (tmux) by its keys."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from ecs_zombie import new_game
from ecs_zombie.replay import Recorder, load_replay
from ecs_zombie.ruleset import load_ruleset
from ecs_zombie.snapshot import write_atomic
from ecs_zombie.timeline import DECISION, SYSTEM, TICK, build, find
from tests.helpers import ROOT, run_cli


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("view") / "g.replay"
    game = new_game("stalingrad", 3)
    recorder = Recorder(game)
    game.play()
    write_atomic(path, recorder.to_bytes(game))
    game.close()
    return path


def test_frames_cover_every_decision_system_and_tick(recorded: Path) -> None:
    replay = load_replay(recorded)
    frames = build(replay)
    assert sum(f.kind == DECISION for f in frames) == sum(1 for e in replay.events if e[1] == "decision")
    assert sum(f.kind == TICK for f in frames) == len(replay.ticks) + 1  # the start, then each tick's end
    assert any(f.kind == SYSTEM and f.label == "stalingrad.turns/activations" for f in frames)
    # a frame after every system of every tick, in the ruleset's order, the steps inside them too
    order = [step.label for _phase, steps in load_ruleset("stalingrad").phases for step in steps]
    first_tick = [f.label for f in frames if f.kind == SYSTEM and f.tick == 1 and "/" not in f.label]
    assert first_tick == order
    # every event of the replay appears once, in order, across the frames
    assert [e for f in frames for e in f.events] == [list(e) for e in replay.events]
    # a frame's entities are its own: the first frame's tally is the game's start, not its end
    start_tally = next(c["Tally"]["counts"] for c in frames[0].entities.values() if "Tally" in c)
    assert start_tally == {}
    assert find(frames, 2) == next(f.index for f in frames if f.tick == 2 and f.kind != TICK)


def test_a_replay_that_no_longer_re_runs_shows_how_far_it_gets(recorded: Path) -> None:
    """A replay whose re-run fails (here its first answer is no option at all) still opens: the
    frames go up to the failure, and the last one says the re-run failed and why. The game re-run
    for the frames is closed, failed or not (a viewer opening replay after replay keeps no world)."""
    import esper

    replay = load_replay(recorded)
    worlds = len(esper._context_map)
    build(replay)
    assert len(esper._context_map) == worlds
    replay.decisions[0] = 99
    frames = build(replay)
    assert len(esper._context_map) == worlds
    assert frames[-1].kind == TICK and frames[-1].label.startswith("the re-run failed: DecisionError: answer 99 to ")
    assert sum(f.kind == DECISION for f in frames) == 1  # the decision it failed at, and nothing after
    assert frames[0].label == "start"


def _screen(session: str) -> str:
    return subprocess.run(["tmux", "-L", session, "capture-pane", "-p", "-t", "view"], capture_output=True,
                          text=True).stdout


def _wait_for(session: str, needle: str, seconds: float = 30) -> str:
    end = time.monotonic() + seconds
    screen = ""
    while time.monotonic() < end:
        screen = _screen(session)
        if needle in screen:
            return screen
        time.sleep(0.2)
    raise AssertionError(f"{needle!r} never appeared on the screen:\n{screen}")


def test_the_viewer_steps_by_its_keys_in_a_terminal(recorded: Path, tmp_path: Path) -> None:
    if shutil.which("tmux") is None:
        pytest.fail("tmux is needed to drive the viewer (Debian's tmux package: .ci/run installs it)")
    other = tmp_path / "other.replay"
    assert run_cli("run", "stalingrad", "--seed", "3", "--policy", "random", "--record", str(other)).returncode == 0
    frames = build(load_replay(recorded))
    session = f"view-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color"}
    command = f"{sys.executable} -m ecs_zombie.cli view {recorded} --against {other}"
    if os.environ.get("ECS_ZOMBIE_TEST_INSTALLED"):
        env.pop("PYTHONPATH")
        command = command.replace(" -m ", " -P -m ")
    subprocess.run(["tmux", "-L", session, "new-session", "-d", "-s", "view", "-x", "150", "-y", "40", command],
                   env=env, check=True)
    try:
        _wait_for(session, f"frame 1/{len(frames)}  tick 0  tick: start")
        subprocess.run(["tmux", "-L", session, "send-keys", "-t", "view", "d"], check=True)
        first = next(f for f in frames if f.kind == DECISION)
        _wait_for(session, f"frame {first.index + 1}/{len(frames)}  tick {first.tick}  decision: {first.label}")
        subprocess.run(["tmux", "-L", session, "send-keys", "-t", "view", "t"], check=True)
        end1 = next(f for f in frames if f.kind == TICK and f.tick == 1)
        _wait_for(session, f"frame {end1.index + 1}/{len(frames)}  tick 1  tick: end of round 1")
        subprocess.run(["tmux", "-L", session, "send-keys", "-t", "view", "f"], check=True)
        _wait_for(session, "<< first divergence")
        subprocess.run(["tmux", "-L", session, "send-keys", "-t", "view", "g"], check=True)
        time.sleep(0.3)
        subprocess.run(["tmux", "-L", session, "send-keys", "-t", "view", "3", "Enter"], check=True)
        at = find(frames, 3)
        screen = _wait_for(session, f"frame {at + 1}/{len(frames)}  tick 3")
        assert "entity 1" in screen  # the selected entity's components beside the board and events
        subprocess.run(["tmux", "-L", session, "send-keys", "-t", "view", "q"], check=True)
        end = time.monotonic() + 10
        while time.monotonic() < end and subprocess.run(["tmux", "-L", session, "has-session", "-t", "view"],
                                                        capture_output=True).returncode == 0:
            time.sleep(0.2)
    finally:
        subprocess.run(["tmux", "-L", session, "kill-server"], capture_output=True)


def test_finding_a_tick_with_no_frame_of_its_own() -> None:
    """A tick with no system or decision frame goes to the first frame at or after it; one past the
    end to the last frame."""
    from ecs_zombie.timeline import Frame

    def frame(i: int, tick: int, kind: str) -> Frame:
        return Frame(i, tick, kind, f"{kind} {i}", [], [], {})

    frames = [frame(0, 1, SYSTEM), frame(1, 1, TICK), frame(2, 2, TICK), frame(3, 4, SYSTEM), frame(4, 4, TICK)]
    assert find(frames, 1) == 0
    assert find(frames, 2) == 2  # only its tick frame: the first at or after it
    assert find(frames, 3) == 3
    assert find(frames, 9) == 4
