"""Stalingrad's seams: movement, zone of control and the attack inside an activation, and spawning,
are named steps that take plain data, so another game can supply its own or call Stalingrad's (issue
11, point 7); the attack measures through `stalingrad.geometry`, so its fire modes can run on hexes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from ecs_zombie import new_game
from ecs_zombie.components import HEX, Position
from ecs_zombie.errors import DataErrors, GameError
from ecs_zombie.grid import Sight, Square
from ecs_zombie.ruleset import RULESETS_DIR
from ecs_zombie.systems.stalingrad import activation, attack, geometry, spawn, zombies
from tests.helpers import drive
from tests.stalingrad.stalingrad_support import (
    STATIONARY,
    WALKING,
    at,
    char,
    declare,
    dice,
    events,
    kind,
    make,
    move_to,
    run,
    set_covering,
    set_mode,
    where,
    write_scenario,
    zombie,
)

SHIPPED = Path(RULESETS_DIR) / "stalingrad.yaml"


def paths(game: object, kind_: str) -> list[str]:
    return [e[3] for e in game.events if e[1] == kind_]  # type: ignore[attr-defined]


def test_an_activation_moves_and_attacks_through_its_steps(tmp_path: Path) -> None:
    """Movement actions and the attack action: a move into a zombie's zone of control ends with no MP
    left; the character then strikes it in H2H. Each is its own step under the activation."""
    game = make(tmp_path, [char("sergeant", 1, 4), zombie("walker", 5, 4)])
    sgt = at(game, 1, 4)
    dice(game, [12, 12, 12])
    answers = {"stalingrad.mode": WALKING, "stalingrad.action": lambda d: ["move", 4, 4] if ["move", 4, 4] in
               d.options else ["attack", "h2h", "fists"] if ["attack", "h2h", "fists"] in d.options else ["end"]}
    drive(game, game.run_step("activations", {}), answers, policy="first")
    assert where(game, sgt) == (4, 4)
    assert paths(game, "moved") == ["/activations/move"]
    assert paths(game, "zone_of_control") == ["/activations/move/zone_of_control"]
    assert paths(game, "attack_declared") == ["/activations/attack"]
    assert events(game, "zombie_killed")[0]["by"] == sgt


def test_the_move_step_refuses_a_square_out_of_reach(tmp_path: Path) -> None:
    """A move goes only where the MPs left reach: 4 walking MPs do not reach 6 squares away."""
    game = make(tmp_path, [char("sergeant", 0, 4)])
    sgt = at(game, 0, 4)
    declare(game, sgt, WALKING, 4)
    with pytest.raises(GameError, match=r"cannot move to \[6, 4\] with 4 MPs"):
        run(game, activation.move(game, sgt, [6, 4]))


def test_the_zone_of_control_step_alone(tmp_path: Path) -> None:
    """ "A character loses all remaining MPs when they move into a zombie's zone of control": the step
    takes the character and the square; a square beside no zombie leaves the MPs alone."""
    game = make(tmp_path, [char("sergeant", 4, 4), zombie("walker", 5, 4)])
    sgt = at(game, 4, 4)
    act = declare(game, sgt, WALKING, 3)
    activation.zone_of_control(game, sgt, [1, 1])
    assert act.mp == 3
    activation.zone_of_control(game, sgt, [4, 4])
    assert act.mp == 0


def test_the_attack_step_takes_plain_data_and_refuses_unknown_ones(tmp_path: Path) -> None:
    """The attack step: character, mode, weapon and covering token (-1: none) as plain values."""
    game = make(tmp_path, [char("commissar", 0, 3), zombie("walker", 3, 3)])
    com = at(game, 0, 3)
    set_mode(game, com, STATIONARY)
    dice(game, [9])  # hit # 6 at range 3 (PB 3): 9 is a hit
    run(game, attack.attack_step(game, com, "normal", "tt33"))
    assert events(game, "attack_declared") == [{"character": com, "type": "normal", "weapon": "tt33",
                                                "covering": None}]
    assert len(events(game, "zombie_killed")) == 1
    with pytest.raises(GameError, match="unknown attack type 'burst'"):
        run(game, attack.attack_step(game, com, "burst", "tt33"))
    with pytest.raises(GameError, match="unknown weapon 'bazooka'"):
        run(game, attack.attack_step(game, com, "normal", "bazooka"))


def test_covering_fire_goes_through_the_attack_step_with_its_token(tmp_path: Path) -> None:
    """Covering: a zombie coming into contact lets the covering character fire, the token's value
    replacing the attack modifier: the attack step is given the token (4)."""
    game = make(tmp_path, [char("sergeant", 1, 4), zombie("runner", 4, 4)])
    sgt = at(game, 1, 4)
    set_covering(game, sgt, 4)
    dice(game, [12])
    run(game, zombies.zombie_activations(game),
        {"stalingrad.cover": "fire", "stalingrad.cover_attack": ["attack", "h2h", "ppsh"]})
    assert events(game, "attack_declared") == [{"character": sgt, "type": "h2h", "weapon": "ppsh", "covering": 4}]
    assert paths(game, "attack_declared") == ["/attack"]


def hybrid(tmp_path: Path, steps: dict[str, Any]) -> str:
    """A ruleset beside the scenario: the shipped Stalingrad with the test systems' package and some
    steps mapped otherwise."""
    doc = yaml.safe_load(SHIPPED.read_text())
    doc["id"] = "stalingrad-seams"
    doc["packages"] = [*doc["packages"], "tests.stalingrad.stalingrad_step_systems"]
    del doc["default_scenario"]
    doc["steps"].update(steps)
    (tmp_path / "seams.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
    return "seams.yaml"


def test_another_game_can_supply_the_attack(tmp_path: Path) -> None:
    """A hybrid maps `attack` to its own system: Stalingrad's activation hands it the character, the
    attack type and the weapon the player chose."""
    ruleset = hybrid(tmp_path, {"attack": "stalingrad_test.attack_log"})
    figures = [char("sergeant", 0, 3), zombie("walker", 3, 3)]
    game = new_game(write_scenario(tmp_path, entities=figures, ruleset=ruleset), 1)
    game.tick = 1
    sgt = at(game, 0, 3)
    answers = {"stalingrad.mode": STATIONARY, "stalingrad.action": lambda d: ["attack", "normal", "ppsh"]
               if ["attack", "normal", "ppsh"] in d.options else ["end"]}
    drive(game, game.run_step("activations", {}), answers, policy="first")
    assert events(game, "asked_attack") == [{"character": sgt, "mode": "normal", "weapon": "ppsh", "covering": -1}]


def test_an_outside_pacer_asks_the_spawn_step_for_n_zombies(tmp_path: Path) -> None:
    """A pacer mapped at `spawn` asks Stalingrad's spawn (mapped as `summon`) for 2 zombies at the B
    squares on a round the track marks "-": both arrive, each of the type die's type."""
    ruleset = hybrid(tmp_path, {"spawn": "stalingrad_test.pacer", "summon": "stalingrad.spawn"})
    rows = ["A.......", "........", "........", ".......B"]
    scenario = write_scenario(tmp_path, entities=[char("sergeant", 0, 3)], rows=rows, track="--", ruleset=ruleset)
    game = new_game(scenario, 1)
    game.tick = 1
    drive(game, game.run_step("zombie_final", {}), policy="first")
    assert [e["square"] for e in events(game, "zombie_spawned")] == [[7, 3], [7, 3]]
    assert paths(game, "zombie_spawned") == ["/zombie_final/spawn/summon"] * 2


def test_the_spawn_step_with_a_count_place_and_type(tmp_path: Path) -> None:
    """The spawn step's parameters: a count spawns that many now, round a label's squares or at one
    square, of one type or of the die's; without a count, nothing on a "-" round."""
    rows = ["A......A", "........", "........", "........"]
    game = make(tmp_path, [char("sergeant", 0, 3)], rows=rows, track="--")
    run(game, spawn.spawn(game))
    assert events(game, "zombie_spawned") == []
    run(game, spawn.spawn(game, count=3, where="A", zombie_type="brute"))
    assert [(e["type"], e["square"]) for e in events(game, "zombie_spawned")] == [
        ("brute", [0, 0]), ("brute", [7, 0]), ("brute", [0, 0])]
    run(game, spawn.spawn(game, count=1, where=[3, 2], zombie_type="runner"))
    assert kind(game, at(game, 3, 2)) == "runner"
    with pytest.raises(GameError, match="spawn:C"):
        run(game, spawn.spawn(game, count=1, where="C"))
    with pytest.raises(GameError, match="not a square of the map"):
        run(game, spawn.spawn(game, count=1, where=[9, 9]))
    with pytest.raises(GameError, match="unknown zombie type 'ghoul'"):
        run(game, spawn.spawn(game, count=1, zombie_type="ghoul"))


@pytest.mark.parametrize("where", [[9, 1], [1, 9], [2, 1], [1, 2, 3], [4]])
def test_the_spawn_step_refuses_a_square_no_zombie_can_stand_on(tmp_path: Path, where: list[int]) -> None:
    """A square given to the spawn step must be two numbers naming a square of the map a zombie can
    stand on: off the map either way, a wall (2, 1), or not a pair, it is refused; (1, 2) and (6, 3),
    open, are taken (x first: (3, 3) is a wall, (6, 6) off the map)."""
    rows = ["A......A", "..#.....", "........", "...#...."]
    game = make(tmp_path, [char("sergeant", 0, 3)], rows=rows, track="--")
    with pytest.raises(GameError, match="not a square of the map"):
        run(game, spawn.spawn(game, count=1, where=where))
    run(game, spawn.spawn(game, count=1, where=[1, 2], zombie_type="walker"))
    run(game, spawn.spawn(game, count=1, where=[6, 3], zombie_type="walker"))
    assert [e["square"] for e in events(game, "zombie_spawned")] == [[1, 2], [6, 3]]


def test_the_spawn_step_reads_a_square_as_x_then_y_on_a_tall_map(tmp_path: Path) -> None:
    """A square is [x, y]: on a map 4 wide and 8 high, [1, 6] is on it ((6, 6) is not) and [6, 1]
    is not."""
    rows = ["A..A", *(["...."] * 7)]
    game = make(tmp_path, [char("sergeant", 0, 7)], rows=rows, track="--")
    run(game, spawn.spawn(game, count=1, where=[1, 6], zombie_type="walker"))
    assert [e["square"] for e in events(game, "zombie_spawned")] == [[1, 6]]
    with pytest.raises(GameError, match="not a square of the map"):
        run(game, spawn.spawn(game, count=1, where=[6, 1]))


def test_a_count_of_zero_spawns_nothing_even_on_a_spawn_round(tmp_path: Path) -> None:
    """`count: 0` asks for no zombie now: on an "S" round it does not fall back on the scenario's
    spawn section (that is `count: -1`, the default), which spawns there."""
    rows = ["A......A", "........", "........", "........"]
    game = make(tmp_path, [char("sergeant", 0, 3)], rows=rows, track="SS")
    run(game, spawn.spawn(game, count=0))
    assert events(game, "zombie_spawned") == []
    run(game, spawn.spawn(game))
    assert events(game, "zombie_spawned") != []


def test_a_caller_passing_the_spawn_step_a_wrong_type_is_refused_at_load(tmp_path: Path) -> None:
    """Loading checks what callers pass the step against its signature: the pacer's own `where` is
    bound in YAML; a count that is not an int is refused with the file and line."""
    ruleset = hybrid(tmp_path, {"spawn": {"system": "stalingrad_test.pacer", "params": {"count": "lots"}},
                                "summon": "stalingrad.spawn"})
    with pytest.raises(DataErrors, match="count"):
        new_game(write_scenario(tmp_path, entities=[char("sergeant", 0, 3)], ruleset=ruleset), 1)


class ToyHex(geometry.HexGeometry):
    """A hex board with no walls, where everything is in front (what a hybrid would give from its tiles)."""

    def sight(self, a: Square, b: Square, occupied: object) -> Sight:
        return Sight(True)

    def arc(self, facing: int, origin: Square, target: Square) -> str:
        return "front"


def test_fire_modes_measure_on_hex_cells_with_a_registered_geometry(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Normal fire step 2 on hexes: range is the hex distance (`ecs_zombie.boards`), 3 from axial
    (0, 0) to (3, -1) where squares would count 4: within the TT-33's PB 3, the hit # is its 6."""
    monkeypatch.setitem(geometry.GEOMETRIES, HEX, ToyHex)
    game = make(tmp_path, [char("commissar", 0, 1), zombie("walker", 3, 0)])
    com, walker = at(game, 0, 1), at(game, 3, 0)
    for ent in (com, walker):
        game.world.get(ent, Position).grid = HEX
    move_to(game, com, 0, 0)
    move_to(game, walker, 3, -1)
    set_mode(game, com, STATIONARY)
    assert not geometry.geometry(game, com).grenades  # grenades stay on squares
    assert ["attack", "grenade", "grenade"] not in attack.attack_options(game, com)
    assert [(r, z) for r, z, _s in attack.visible_zombies(game, com, within=3)] == [(3, walker)]
    assert attack.visible_zombies(game, com, within=2) == []
    set_covering(game, com, 2)  # a covering character sees the walker by the hex board's own sight
    assert attack.seen_by_covering(game, walker) == {com: True}

    class WalledHex(ToyHex):  # everything in front, but a wall in every line
        def sight(self, a: Square, b: Square, occupied: object) -> Sight:
            return Sight(False)

    monkeypatch.setitem(geometry.GEOMETRIES, HEX, WalledHex)
    assert attack.seen_by_covering(game, walker) == {com: False}  # front arc AND line of fire
    monkeypatch.setitem(geometry.GEOMETRIES, HEX, ToyHex)
    set_covering(game, com, 0)
    assert not attack.forced_h2h(game, com)  # 3 hexes off: no H2H forced
    move_to(game, walker, 1, -1)  # a neighbouring hex, in front (everything is, on this board)
    assert attack.forced_h2h(game, com)
    move_to(game, walker, 3, -1)
    dice(game, [1])
    run(game, attack.attack_step(game, com, "normal", "tt33"))
    assert events(game, "attack")[0]["hit"] == 6



def test_a_geometry_is_kept_only_when_it_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hybrid registers a geometry as a class or as a factory: made afresh for every question
    unless it says it is `kept` (then once per game, with the doors); the square map's is kept."""
    game = make(tmp_path, [char("commissar", 0, 1), zombie("walker", 3, 0)])
    com = at(game, 0, 1)
    assert geometry.geometry(game, com) is geometry.geometry(game, com)
    game.world.get(com, Position).grid = HEX
    monkeypatch.setitem(geometry.GEOMETRIES, HEX, lambda g: ToyHex(g))  # a factory: nothing says kept
    assert geometry.geometry(game, com) is not geometry.geometry(game, com)
    monkeypatch.setitem(geometry.GEOMETRIES, HEX, ToyHex)  # a class that does not say so either
    assert geometry.geometry(game, com) is not geometry.geometry(game, com)

    class KeptHex(ToyHex):
        kept = True

    monkeypatch.setitem(geometry.GEOMETRIES, HEX, KeptHex)
    assert geometry.geometry(game, com) is geometry.geometry(game, com)

def test_a_hex_range_counts_hexes_between_axial_cells(tmp_path: Path) -> None:
    """On hexes range is the hex distance between axial (q, r) cells: (-3, -2) to (-2, -1) is 2
    (one step along q and one along r is two hexes, not a diagonal), and the same back."""
    game = make(tmp_path, [char("commissar", 0, 1)])
    hexes = ToyHex(game)
    assert hexes.range((-3, -2), (-2, -1)) == hexes.range((-2, -1), (-3, -2)) == 2
    assert hexes.range((0, 0), (3, -1)) == 3


def test_hex_cells_without_a_geometry_are_refused(tmp_path: Path) -> None:
    """No line of fire is known on hexes until a hybrid registers one: a clear error, not nonsense."""
    game = make(tmp_path, [char("commissar", 0, 1), zombie("walker", 3, 0)])
    com = at(game, 0, 1)
    game.world.get(com, Position).grid = "zone"
    with pytest.raises(GameError, match="no geometry for zone cells"):
        attack.visible_zombies(game, com)
