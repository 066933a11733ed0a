"""`ecs-zombie play`: a person answers one side's decisions at a terminal. Driven here through a
real pseudo-terminal (the command's stdin, stdout and stderr on a pty that is its controlling
terminal, so Ctrl-C and Ctrl-D are typed, not simulated), and, for what the screen reads, in-process
through the same loop with its input given."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from ecs_zombie import new_game
from ecs_zombie.commands.human import PROMPT_TAIL, Table
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.reading import Reading
from ecs_zombie.replay import Recorder, load_replay, verify
from ecs_zombie.stepper import Stepper
from tests.helpers import ROOT, run_cli

RULESETS = ["shambling", "stalingrad", "stalingrad-shambling", "sza", "director", "director-adaptive"]


def _controlling_terminal() -> None:
    """In the child: a session of its own with the pty as its controlling terminal (so that the
    terminal's Ctrl-C reaches it), and SIGINT handled as usual even if the test run ignores it."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Terminal:
    """The command running on a pseudo-terminal: what it printed, and lines typed into it."""

    def __init__(self, *args: str, cwd: Path) -> None:
        env = dict(os.environ, TERM="xterm", COLUMNS="120")
        command = [sys.executable, "-m", "ecs_zombie", *args]
        if os.environ.get("ECS_ZOMBIE_TEST_INSTALLED"):
            env.pop("PYTHONPATH", None)
            command.insert(1, "-P")
        else:
            env["PYTHONPATH"] = str(ROOT)
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd,
                                     preexec_fn=_controlling_terminal, close_fds=True)
        os.close(slave)
        self.text = ""
        self.seen = 0  # what `expect` has consumed

    def _read(self, timeout: float) -> bool:
        """Read what is there within `timeout`; False once the command has closed the terminal."""
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: the command exited and the terminal closed
            return False
        if not data:
            return False
        self.text += data.decode("utf-8", "replace").replace("\r\n", "\n")
        return True

    def expect(self, *needles: str, seconds: float = 60) -> str:
        """Wait until one of `needles` appears after what was consumed; returns it ('' at exit)."""
        end = time.monotonic() + seconds
        while True:
            hits = [(self.text.find(n, self.seen), n) for n in needles]
            hits = [(i, n) for i, n in hits if i >= 0]
            if hits:
                i, n = min(hits)
                self.seen = i + len(n)
                return n
            if time.monotonic() > end:
                raise AssertionError(f"none of {needles!r} appeared; the screen ends with:\n{self.text[-2000:]}")
            if not self._read(0.5):
                return ""

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\r").encode())

    def key(self, char: str) -> None:
        os.write(self.master, char.encode())

    def finish(self, seconds: float = 60) -> int:
        end = time.monotonic() + seconds
        while self._read(0.2) and time.monotonic() < end:
            pass
        try:
            return self.proc.wait(timeout=max(1.0, end - time.monotonic()))
        finally:
            os.close(self.master)

    def answer_all(self, answer: str = "1", limit: int = 2000) -> int:
        """Type `answer` at every prompt until the game ends; the number of prompts answered."""
        asked = 0
        while self.expect(PROMPT_TAIL, "outcome: ") == PROMPT_TAIL:
            self.type(answer)
            asked += 1
            assert asked <= limit, "the game never ended"
        return asked


def _events(path: Path) -> list[list[object]]:
    """A replay's events, after checking that it verifies (every tick's events and state)."""
    replay = load_replay(path)
    assert verify(replay) is None
    return [list(e) for e in replay.events]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_whole_game_typed_at_the_terminal_records_a_replay_that_verifies(ruleset: str, tmp_path: Path) -> None:
    """Every shipped ruleset, player 0 typing `1` at every question: the game ends, its replay
    verifies, and it is the game the `first` policy plays for player 0 (the same events)."""
    typed = tmp_path / "typed.replay"
    term = Terminal("play", ruleset, "--as", "player:0", "--seed", "1", "--record", str(typed), cwd=tmp_path)
    asked = term.answer_all("1")
    assert term.finish() == 0, term.text[-2000:]
    assert asked > 0
    assert f"wrote replay: {typed}" in term.text
    assert "Traceback" not in term.text
    typed_events = _events(typed)
    game = new_game(ruleset, 1)
    recorder = Recorder(game)
    game.play(PolicyTable("heuristic,player:0=first"))
    assert typed_events == [list(e) for e in recorder.events(game)]
    game.close()
    # every question answered at the terminal is one of player 0's decisions in the log
    assert asked == sum(1 for e in typed_events if e[1] == "decision" and e[2]["side"] == "player:0")  # type: ignore[index]


def test_bad_answers_are_asked_again_and_help_explains_the_decision(tmp_path: Path) -> None:
    term = Terminal("play", "shambling", "--seed", "3", cwd=tmp_path)
    assert term.expect(PROMPT_TAIL) == PROMPT_TAIL
    assert "shambling.place" in term.text and "1. front" in term.text and "2. support" in term.text
    for bad in ("x", "0", "3", "-1", "1.5", "１"):
        term.type(bad)
        assert term.expect("is not an answer: type a number from 1 to 2") != ""
        assert term.expect(PROMPT_TAIL) == PROMPT_TAIL
    term.type("?")
    assert term.expect("what it decides: Where an undeployed figure stands") != ""
    assert term.expect(PROMPT_TAIL) == PROMPT_TAIL
    term.type("q")
    assert term.expect("quit: the game was not saved") != ""
    assert term.finish() == 0
    assert "Traceback" not in term.text


def test_end_of_input_and_ctrl_c_stop_with_a_message(tmp_path: Path) -> None:
    term = Terminal("play", "shambling", "--seed", "3", cwd=tmp_path)
    term.expect(PROMPT_TAIL)
    term.key("\x04")  # Ctrl-D at an empty line: end of input
    assert term.expect("end of input: the game stops here, not saved") != ""
    assert term.finish() == 1
    term = Terminal("play", "shambling", "--seed", "3", cwd=tmp_path)
    term.expect(PROMPT_TAIL)
    # Ctrl-C. Once in CI under load the first one was lost: the prompt and the echoed ^C showed, and
    # the game went on waiting for a key (a signal landing between readline's prompt and its wait
    # can be missed). A person presses it again, and so does this test.
    for _ in range(5):
        term.key("\x03")
        try:
            term.expect("interrupted: the game stops here, not saved", seconds=10)
            break
        except AssertionError:
            continue
    else:
        raise AssertionError(f"five Ctrl-C did not stop the game; the screen ends with:\n{term.text[-2000:]}")
    assert term.finish() == 130
    assert "Traceback" not in term.text


def test_save_and_quit_then_resume_asks_again_and_plays_the_same_game(tmp_path: Path) -> None:
    """`s` at a decision mid-turn saves there; `resume --as` asks that same decision again, and the
    game answered on from there is the one played without stopping (the same events), its
    recording verifying."""
    whole = tmp_path / "whole.replay"
    term = Terminal("play", "shambling", "--seed", "3", "--record", str(whole), cwd=tmp_path)
    term.answer_all("1")
    assert term.finish() == 0

    term = Terminal("play", "shambling", "--seed", "3", "--save", "part.msgpack", cwd=tmp_path)
    for _ in range(8):  # into turn 2: the stance of the Front Line under attack
        term.expect(PROMPT_TAIL)
        term.type("1")
    term.expect(PROMPT_TAIL)
    asked_before = term.text[term.text.rfind("player:0 decides"):]
    term.type("s")
    assert term.expect("resume with: ecs-zombie resume saves/part.msgpack --as player:0") != ""
    assert term.finish() == 0
    assert (tmp_path / "saves" / "part.msgpack").exists()

    rest = tmp_path / "rest.replay"
    term = Terminal("resume", "saves/part.msgpack", "--as", "player:0", "--record", str(rest), cwd=tmp_path)
    term.expect(PROMPT_TAIL)
    asked_again = term.text[term.text.rfind("player:0 decides"):]
    assert asked_again.split("\n")[0] == asked_before.split("\n")[0]
    assert [ln for ln in asked_again.splitlines() if ln.lstrip()[:2].rstrip(".").isdigit()] == \
        [ln for ln in asked_before.splitlines() if ln.lstrip()[:2].rstrip(".").isdigit()]
    term.type("1")
    term.answer_all("1")
    assert term.finish() == 0, term.text[-1500:]
    resumed = _events(rest)
    first_tick = resumed[0][0]
    assert resumed == [e for e in _events(whole) if e[0] >= first_tick and e[1] != "new_game"]  # type: ignore[operator]


def test_play_refuses_a_side_no_decision_is_asked_of(tmp_path: Path) -> None:
    done = run_cli("play", "shambling", "--as", "gm", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("error: --as names the side 'gm'") and len(done.stderr.splitlines()) == 1
    done = run_cli("play", "shambling", "--as", "player:3", cwd=tmp_path)
    assert done.returncode == 2 and "this game has 1 player" in done.stderr


def test_pieces_read_by_what_they_are_never_by_entity_id() -> None:
    """Night of the Shambling Dead, seed 3, every figure placed on the Front Line while there is room
    (6 under the cap, the rest in Support) and the first wound of turn 1's gauntlet to place: the
    options are the figures by kind and zone, survivors numbered as they came into play."""
    game = new_game("shambling", 3)
    stepper = Stepper(game, sides={"player:0"})
    while stepper.pending is not None and stepper.pending.kind == "shambling.place":
        stepper.answer(0)
    decision = stepper.pending
    assert decision is not None and decision.kind == "shambling.wound"
    reading = Reading(game, decision)
    assert [reading.option(o) for o in decision.options] == [
        "hero (front)", "survivor 1 (front)", "survivor 2 (front)", "survivor 3 (front)", "survivor 4 (front)",
        "survivor 5 (front)", "survivor 6 (support)", "survivor 7 (support)", "survivor 8 (support)",
        "survivor 9 (support)"]
    game.close()


def test_a_save_that_fails_is_said_and_the_question_asked_again(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a folder")
    answers = iter(["s", "q"])
    lines: list[str] = []
    game = new_game("shambling", 3)
    table = Table(game, "player:0", "heuristic", tmp_path / "file" / "g.msgpack", ask=lambda prompt: next(answers),
                  say=lines.append)
    assert table.play() == 0
    assert any(line.startswith("error: ") and line.endswith("(the game goes on: answer, or q to quit)")
               for line in lines)
    assert lines[-1] == "quit: the game was not saved"
    game.close()


def test_the_loop_runs_without_a_terminal_and_shows_dice_as_they_fall() -> None:
    """The same loop with its input given: dice rolled by the rules since the last question are shown."""
    lines: list[str] = []
    game = new_game("shambling", 3)
    table = Table(game, "player:0", "heuristic", Path("unused.msgpack"), ask=lambda prompt: "1", say=lines.append)
    assert table.play() == 0
    assert game.over
    assert any(line.startswith("  rolled 1d6 for gauntlet (board 0): ") for line in lines)
    assert any(line.startswith("  drew ") for line in lines)
    assert lines[-1 - len(game.metrics())].startswith("outcome: ")
    game.close()
