"""What the command does, called in-process (ecs_zombie/session.py): where saves go, parameter
parsing, run, resume, inspect, describe and validate, with the messages a user reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ecs_zombie import session
from ecs_zombie._layout import PREFABS_DIR
from ecs_zombie.components import Kind, Position, Wounds, Zone
from ecs_zombie.errors import DataError, GameError


@pytest.mark.parametrize(("given", "used"), [
    ("game.msgpack", Path("saves") / "game.msgpack"), ("./game.msgpack", Path("game.msgpack")),
    ("runs/game.msgpack", Path("runs") / "game.msgpack"), ("/tmp/g.replay", Path("/tmp/g.replay")),
])
def test_output_paths(given: str, used: Path) -> None:
    """README: a bare file name given to --save or --record is written into saves/; a path with a
    folder is used as given."""
    assert session.output_path(given) == used


def test_parse_params() -> None:
    assert session.parse_params(["a=1", " b = two ", "c="]) == {"a": "1", "b": "two", "c": ""}
    for bad in ("a", "=1", "  =1"):
        with pytest.raises(GameError, match=f"--param takes KEY=VALUE, got {bad!r}"):
            session.parse_params([bad])


def test_run_reports_every_tick_and_saves(tmp_path: Path) -> None:
    save, record = tmp_path / "s.msgpack", tmp_path / "r.replay"
    result = session.run("shambling", 4, "heuristic", 2, [], [], {"combat_rounds": "2"}, 2, str(save), str(record))
    summary = result.summary()
    assert [row["turn"] for row in summary["per_turn"]] == [1, 2]
    assert summary["players"] == 2 and summary["finished"] is False and summary["turns"] == 2
    assert result.game.params["combat_rounds"] == 2
    assert result.saved == save and save.is_file() and result.recorded == record and record.is_file()
    resumed = session.resume(str(save), None, None)
    assert resumed.game.over and resumed.per_tick[0]["turn"] == 3 and resumed.saved is None
    result.game.close()
    resumed.game.close()


def test_run_refuses_a_negative_stop_and_resume_a_finished_game(tmp_path: Path) -> None:
    with pytest.raises(GameError, match="--stop-after takes a tick number of 0 or more, got -1"):
        session.run("shambling", 1, "heuristic", None, [], [], {}, -1, None, None)
    at_zero = session.run("shambling", 1, "heuristic", None, [], [], {}, 0, None, None)
    assert at_zero.game.tick == 0 and at_zero.per_tick == []
    at_zero.game.close()
    done = session.run("shambling", 1, "heuristic", None, [], [], {}, None, str(tmp_path / "end.msgpack"), None)
    assert done.game.over
    with pytest.raises(GameError, match=rf"already over \({done.game.outcome}\)"):
        session.resume(str(tmp_path / "end.msgpack"), None, None)
    done.game.close()


def test_inspect_a_replay_at_any_tick_and_a_save_at_its_own(tmp_path: Path) -> None:
    record, save = tmp_path / "r.replay", tmp_path / "s.msgpack"
    result = session.run("shambling", 2, "heuristic", None, [], [], {}, 3, str(save), str(record))
    result.game.close()
    last = session.inspect_state(str(record), None)
    assert last["tick"] == 3 and last["ruleset"] == "shambling" and last["seed"] == 2
    assert session.inspect_state(str(record), 0)["tick"] == 0
    assert session.inspect_state(str(record), 2)["tick"] == 2
    with pytest.raises(GameError, match=r"no tick 4 in this replay \(ticks 0\.\.3\)"):
        session.inspect_state(str(record), 4)
    state = session.inspect_state(str(save), 3)
    assert state["tick"] == 3 and state["outcome"] is None
    kinds = [e["components"]["Kind"]["name"] for e in state["entities"] if "Kind" in e["components"]]
    assert "survivor" in kinds and "board" in kinds
    with pytest.raises(GameError, match="a save holds tick 3 only"):
        session.inspect_state(str(save), 1)


def test_describe_groups_pieces_by_kind_and_zone(make_game: Any) -> None:
    game = make_game("shambling", 1)
    for ent in game.world.entities():
        game.world.delete(ent)
    w = game.world
    w.create(Kind("zombie"), Zone(0, "front"))
    w.create(Kind("zombie"), Zone(0, "front"), Wounds(1, 2))
    w.create(Kind("zombie"), Zone(1, "front"), Wounds(0, 2))
    w.create(Kind("hero"), Position(3, 4), Wounds(1, 3))
    w.create(Kind("hero"), Position(1, 1), Wounds(0, 3))
    w.create(Kind("card"), Zone(0, ""))
    assert session.describe(game) == [
        "card: 1",
        "hero: 2 (3,4)* (1,1)",
        "zombie in front (board 0): 2 *",
        "zombie in front (board 1): 1",
    ]


def test_validate_each_kind_of_file(tmp_path: Path) -> None:
    crt = PREFABS_DIR / "shambling" / "crt.yaml"
    figures = PREFABS_DIR / "shambling" / "figures.yaml"
    got = session.validate([str(PREFABS_DIR / "rulesets" / "shambling.yaml"),
                            str(PREFABS_DIR / "scenarios" / "shambling.yaml"), str(crt), str(figures)])
    assert [line.split(": ", 1)[1] for line in got[1:]] == ["scenario ok (ruleset shambling)",
                                                            "table shambling.crt ok", "prefabs ok"]
    assert got[0].split(": ", 1)[1].startswith("ruleset shambling ok (with its default scenario ")
    assert got[0].endswith("scenarios/shambling.yaml)")
    with pytest.raises(DataError, match="no such file"):
        session.validate([str(tmp_path / "missing.yaml")])
    # a prefab file of its own (a plugin's, outside the tree): checked against every ruleset's components
    mine = tmp_path / "my_figures.yaml"
    mine.write_text(figures.read_text(encoding="utf-8"), encoding="utf-8")
    assert session.validate([str(mine)])[0].endswith(": prefabs ok")
    mine.write_text("brute:\n  Wounds: {taken: many}\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"Wounds\.taken"):
        session.validate([str(mine)])
    odd = tmp_path / "odd.yaml"
    odd.write_text("- just\n- a list\n")
    with pytest.raises(DataError, match="not a ruleset, scenario, prefab file or known table"):
        session.validate([str(odd)])
    everything = session.validate([])
    rulesets = sorted((PREFABS_DIR / "rulesets").glob("*.yaml"))
    scenarios = sorted((PREFABS_DIR / "scenarios").glob("**/*.yaml"))
    assert len(everything) == len(rulesets) + len(scenarios)
    assert sum(": ruleset " in line for line in everything) == len(rulesets)
    assert sum(": scenario ok" in line for line in everything) == len(scenarios)


def test_validate_runs_a_tables_own_validator(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table file is judged by its table's validator (the one its ruleset registers): what that
    refuses, `validate` reports."""
    from ecs_zombie.registry import TABLES

    session.validate([str(PREFABS_DIR / "rulesets" / "shambling.yaml")])  # its validators registered
    seen: list[object] = []

    def refusing(doc: object) -> object:
        seen.append(doc)
        raise DataError("refused by the table's validator", "crt.yaml")

    monkeypatch.setitem(TABLES, "shambling.crt", refusing)
    with pytest.raises(DataError, match="refused by the table's validator"):
        session.validate([str(PREFABS_DIR / "shambling" / "crt.yaml")])
    assert len(seen) == 1


def test_validating_a_table_first_loads_the_ruleset_that_registers_its_validator() -> None:
    """In a fresh process no ruleset's package is imported yet, so no table validator is known:
    `validate` on a table file loads the ruleset naming it (which registers its validators), then
    runs the table's own validator."""
    from tests.helpers import run_cli

    done = run_cli("validate", str(PREFABS_DIR / "director" / "scaling.yaml"), str(PREFABS_DIR / "sza" / "rules.yaml"))
    assert done.returncode == 0, done.stderr
    assert [line.split(": ", 1)[1] for line in done.stdout.splitlines()] == [
        "table director.scaling ok", "table sza.rules ok"]


def test_a_run_refused_for_its_policy_leaves_no_world_behind() -> None:
    """`run` with a policy for a seat the game lacks is refused before any play, and the game it
    made for the check is closed: no esper world is left."""
    import esper

    before = len(esper._context_map)
    with pytest.raises(GameError):
        session.run("shambling", 1, "heuristic,player:5=random", None, [], [], {}, None, None, None)
    assert len(esper._context_map) == before


class _CallerDeadline(BaseException):
    """A caller's own CPU deadline (as tests/fuzzing.py's `deadline` sets one)."""


def _ring(signum: int, frame: Any) -> None:
    raise _CallerDeadline


def test_a_trial_leaves_a_callers_sooner_cpu_deadline_to_ring_inside_it() -> None:
    """The trial times itself with the process's CPU timer, unless a caller's timer already rings
    sooner than the trial's limit: that one is left alone and rings inside the trial (Singapore's
    trial takes about 0.1 s of CPU; the caller allows 0.01 s). The caller's handler notes where it
    rang rather than raising: a signal handler's exception is lost when it lands in a collector's
    callback (pytest and hypothesis register some), which made a raising version of this test flaky."""
    import signal
    import sys
    import time

    from ecs_zombie.scenario import load_scenario

    scenario = load_scenario("sza")
    rang: list[bool] = []

    def note(signum: int, frame: Any) -> None:
        inside = False
        while frame is not None:
            inside = inside or (frame.f_code.co_name == "trial" and frame.f_code.co_filename == session.__file__)
            frame = frame.f_back
        rang.append(inside)

    old = signal.signal(signal.SIGPROF, note)
    try:
        signal.setitimer(signal.ITIMER_PROF, 0.01)
        session.trial(scenario, "sza")
        began = time.process_time()
        while not rang and time.process_time() - began < 2:  # a deadline handed back rings here
            pass
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
    assert rang == [True], (rang, sys.platform)


def test_a_trial_closes_its_game_when_something_stops_it_midway(monkeypatch: pytest.MonkeyPatch) -> None:
    """What no rule catches (a caller's deadline, Ctrl-C: not an `Exception`) goes on through the
    trial, which closes the game it was playing on the way out."""
    import esper

    from ecs_zombie.game import Game
    from ecs_zombie.scenario import load_scenario

    scenario = load_scenario("shambling")

    def stop(self: Game, *args: Any, **kw: Any) -> None:
        raise _CallerDeadline

    monkeypatch.setattr(Game, "play", stop)
    worlds = len(esper._context_map)
    with pytest.raises(_CallerDeadline):
        session.trial(scenario, "shambling")
    assert len(esper._context_map) == worlds


def test_a_trial_hands_a_callers_later_cpu_deadline_back_with_what_it_has_left() -> None:
    """A caller's timer that would ring after the trial's limit is replaced by the trial's own for
    the trial, then set again for the CPU time it had left, with the caller's handler."""
    import signal
    import time

    from ecs_zombie.scenario import load_scenario

    scenario = load_scenario("shambling")
    old = signal.signal(signal.SIGPROF, _ring)
    try:
        signal.setitimer(signal.ITIMER_PROF, 60)
        began = time.process_time()
        session.trial(scenario, "shambling")
        used = time.process_time() - began
        left = signal.getitimer(signal.ITIMER_PROF)[0]
        assert signal.getsignal(signal.SIGPROF) is _ring
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
    assert 60 - used - 0.5 < left <= 60.01  # the timer's own granularity


def _lose_the_first_ring(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A collector callback that burns CPU until a signal handler's exception is lost in it (Python
    hands it to `sys.unraisablehook` and goes on): what a trial's ring meets when it lands there."""
    import gc
    import sys
    import time

    lost: list[str] = []

    def hook(unraisable: Any) -> None:
        lost.append(type(unraisable.exc_value).__name__)

    def burn(phase: str, info: dict[str, Any]) -> None:
        began = time.process_time()
        while phase == "start" and not lost and time.process_time() - began < 5:
            pass

    monkeypatch.setattr(sys, "unraisablehook", hook)
    gc.callbacks.append(burn)
    return lost


def _refused_after_a_lost_ring(monkeypatch: pytest.MonkeyPatch, scenario: Any) -> list[str]:
    """Run the trial of `scenario` under a 0.05 s limit whose first ring is lost; it must be refused.
    The names of the exceptions lost."""
    import gc

    monkeypatch.setattr(session, "TRIAL_SECONDS", 0.05)
    lost = _lose_the_first_ring(monkeypatch)
    try:
        with pytest.raises(DataError, match=r"does not end within 0\.05 s of CPU time"):
            session.trial(scenario, "shambling")
    finally:
        gc.callbacks[:] = [c for c in gc.callbacks if getattr(c, "__name__", "") != "burn"]
    return lost


def test_a_trial_whose_ring_is_lost_and_that_ends_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """"a trial that does not end within TRIAL_SECONDS is refused": also when its timer's ring was
    lost in a collector's callback and the games then ended, by the CPU time the trial used."""
    from ecs_zombie.scenario import load_scenario

    scenario = load_scenario("shambling")  # before the callback: no timer rings while loading
    assert _refused_after_a_lost_ring(monkeypatch, scenario) == ["_TrialTimeout"]


def test_a_trial_that_never_ends_is_stopped_after_its_ring_is_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game that never ends, whose trial's first ring is lost in a collector's callback, is still
    stopped: the timer rings again until the trial catches it."""
    from ecs_zombie.game import Game
    from ecs_zombie.scenario import load_scenario

    def forever(self: Game, *args: Any, **kw: Any) -> None:
        kept: list[list[list[int]]] = []
        while True:
            kept.append([[] for _ in range(100)])  # containers kept: the collector runs
            if len(kept) > 1000:
                kept.clear()

    scenario = load_scenario("shambling")
    monkeypatch.setattr(Game, "play", forever)
    lost = _refused_after_a_lost_ring(monkeypatch, scenario)
    assert lost and set(lost) == {"_TrialTimeout"}  # a ring again may land in a callback too
