"""What a composer can see from the command line: systems, a ruleset's schedule with each
component's writers in run order, and its decisions with who answers and the options' form."""

from __future__ import annotations

import json
from pathlib import Path

from ecs_zombie.decisions import KINDS
from ecs_zombie.ruleset import list_rulesets, load_ruleset
from tests.helpers import run_cli


def test_systems_lists_declarations_and_parameters() -> None:
    result = run_cli("systems", "shambling", "--json")
    assert result.returncode == 0, result.stderr
    rows = {s["name"]: s for s in json.loads(result.stdout)}
    combat = rows["shambling.combat"]
    assert combat["params"] == [{"name": "rounds", "type": "int", "default": 3, "required": False}]
    assert combat["writes"] == ["Engaged", "Markers", "Tally", "Zone"]
    assert combat["calls"] == [{"step": "strike", "passes": ["attacker_player", "attackers", "board", "defender_player",
                                                              "eligible", "side", "supporters", "zone"]}]
    assert "shambling.wound" in rows["shambling.crt_strike"]["decides"]
    assert rows["core.narration"]["calls"] == [{"step": "*", "passes": []}]
    text = run_cli("systems", "shambling").stdout
    assert "shambling.combat — Three rounds of combat on every board where figures are in contact." in text
    assert "  params: rounds: int = 3" in text


def test_schedule_shows_bindings_run_order_and_writers() -> None:
    result = run_cli("schedule", "stalingrad-shambling", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    initiative = data["phases"][0]["systems"][1]
    assert initiative["bound"] == {"modifier": "zombie_initiative", "ties": "initiative_ties"}
    assert initiative["params"] == {"modifier": -4, "ties": "reroll"}
    assert data["steps"]["spawn"]["system"] == "stalingrad.card_spawn"
    # the hybrid's swapped step runs inside the zombie turn, after the zombies' activations
    order = data["run_order"]
    assert order.index("stalingrad.turns/zombie_activations") < order.index("stalingrad.turns/zombie_final/spawn")
    assert "stalingrad.turns/zombie_final/spawn" in data["writers"]["Deck"]
    text = run_cli("schedule", "stalingrad-shambling").stdout
    assert "  spawn -> stalingrad.card_spawn" in text
    assert "  2. stalingrad.initiative  modifier=$zombie_initiative (-4) ties=$initiative_ties ('reroll')" in text


def test_decisions_name_side_options_and_askers() -> None:
    result = run_cli("decisions", "shambling", "--json")
    rows = {d["kind"]: d for d in json.loads(result.stdout)}
    assert rows["shambling.stance"]["options"] == "'stand' | 'counter-charge'"
    assert rows["shambling.wound"]["asked_by"] == ["shambling.gauntlet", "shambling.crt_strike"]
    assert rows["shambling.place"]["heuristic"] is True


def test_every_decision_a_shipped_system_asks_is_documented() -> None:
    for rid, _ in list_rulesets():
        for step in load_ruleset(rid).scheduled():
            for kind in step.spec.decides:
                assert kind in KINDS, f"{step.spec.name} asks {kind}, which no decision_kind() documents"
                assert KINDS[kind].options and KINDS[kind].doc and KINDS[kind].side


def test_rulesets_say_where_each_comes_from() -> None:
    rows = json.loads(run_cli("rulesets", "--json").stdout)
    assert {r["id"]: r["origin"]["kind"] for r in rows}["shambling"] == "shipped"
    plain = run_cli("rulesets").stdout.splitlines()
    assert plain[0].split() == ["ruleset", "from", "description"]
    # in a pipe nothing is cut: each description is printed in full
    assert any(line.endswith("(cards, d6 and a CRT).") for line in plain)


def test_the_step_order_places_table_steps_after_the_system_that_runs_them() -> None:
    """Each phase entry, then the steps it may call under it: SZA's scenario table names `spawn` and
    `rest` (its events' steps), which `sza.events` runs, so they come right after it; Stalingrad's
    steps nest as they call each other."""
    from ecs_zombie.introspect import step_order
    from ecs_zombie.ruleset import load_ruleset

    assert [path for path, _s in step_order(load_ruleset("sza"))] == [
        "sza.stage", "sza.events", "sza.events/spawn", "sza.events/rest", "sza.initiative", "sza.turn",
        "sza.turn/melee_strike", "sza.infection", "sza.objective"]
    assert [path for path, _s in step_order(load_ruleset("stalingrad"))][2:8] == [
        "stalingrad.turns", "stalingrad.turns/player_start", "stalingrad.turns/activations",
        "stalingrad.turns/activations/attack", "stalingrad.turns/activations/move",
        "stalingrad.turns/activations/move/zone_of_control"]


def test_a_step_no_system_calls_is_listed_last_under_steps(tmp_path: Path) -> None:
    """A ruleset's step that no system, step or table calls still runs nowhere but is shown, after
    every phase, as `steps.<name>`, so that a step left over in a hybrid is seen."""
    from ecs_zombie.introspect import step_order
    from ecs_zombie.ruleset import load_ruleset
    from tests.helpers import ROOT

    text = (ROOT / "prefabs" / "rulesets" / "shambling.yaml").read_text(encoding="utf-8")
    text = text.replace("id: shambling", "id: shambling-spare").replace(
        "  national_guard: shambling.national_guard\n", "  national_guard: shambling.national_guard\n"
        "  spare: shambling.kill\n")
    (tmp_path / "shambling-spare.yaml").write_text(text, encoding="utf-8")
    order = [path for path, _s in step_order(load_ruleset(str(tmp_path / "shambling-spare.yaml")))]
    assert order[-1] == "steps.spare" and sum(p.endswith("spare") for p in order) == 1
    assert "steps.kill" not in order  # a called step sits under its caller


def test_a_step_two_systems_call_is_placed_once_under_the_first(tmp_path: Path) -> None:
    """A hybrid that runs combat twice (a second entry under its own label): the `strike` step both
    call, and the `kill` step under it, are shown once, under the first caller; the schedule lists
    each system where it first runs, never twice."""
    from ecs_zombie.introspect import step_order
    from ecs_zombie.ruleset import load_ruleset
    from tests.helpers import ROOT

    text = (ROOT / "prefabs" / "rulesets" / "shambling.yaml").read_text(encoding="utf-8")
    text = text.replace("id: shambling", "id: shambling-twice").replace(
        "      - {system: shambling.combat, params: {rounds: $combat_rounds}}\n",
        "      - {system: shambling.combat, params: {rounds: $combat_rounds}}\n"
        "      - {system: shambling.combat, label: shambling.combat_again, params: {rounds: 1}}\n")
    (tmp_path / "shambling-twice.yaml").write_text(text, encoding="utf-8")
    order = [path for path, _s in step_order(load_ruleset(str(tmp_path / "shambling-twice.yaml")))]
    at = order.index("shambling.combat")
    assert order[at:at + 5] == ["shambling.combat", "shambling.combat/strike", "shambling.combat/strike/kill",
                                "shambling.combat_again", "shambling.pursuit"]
    assert len(order) == len(set(order))


def test_every_registered_system_is_listed_from_a_fresh_process() -> None:
    """`ecs-zombie systems` with no ruleset lists the systems of every known ruleset: their packages
    are imported first (a fresh process has imported none of them)."""
    import subprocess
    import sys

    from tests.helpers import ROOT

    code = ("from ecs_zombie.introspect import systems\n"
            "names = {s['name'] for s in systems(None)}\n"
            "print(sorted(p for p in ('core', 'shambling', 'stalingrad', 'sza', 'director')"
            " if any(n.startswith(p + '.') for n in names)))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "['core', 'director', 'shambling', 'stalingrad', 'sza']"
