"""Escape from Stalingrad Z — every event kind the rules log, with all its fields, where the rule
produces it (replays and debugging read them), and the reasons given with the dice."""

from __future__ import annotations

from pathlib import Path

from ecs_zombie import new_game
from ecs_zombie.components import Markers
from ecs_zombie.reading import Reading
from ecs_zombie.systems.stalingrad import activation, attack, spawn, zombies
from ecs_zombie.systems.stalingrad.board import stun_zombie
from ecs_zombie.systems.stalingrad.card_spawn import card_spawn
from tests.stalingrad.stalingrad_support import (
    CHARACTERS,
    RUNNING,
    SEARCHING,
    STATIONARY,
    WALKING,
    ZOMBIES,
    act_state,
    at,
    char,
    dice,
    events,
    lock,
    make,
    move_to,
    remove,
    rule,
    run,
    set_covering,
    set_mode,
    set_wounds,
    whys,
    zombie,
)

ROWS = ["............"] * 8


def test_setup_and_initiative_events(tmp_path: Path) -> None:
    rows = list(ROWS)
    rows[1] = "..+...?...?."
    game = make(tmp_path, [char("sergeant", 0, 3)], rows=rows)
    assert events(game, "setup") == [{"doors": 1, "search": 2}]
    rule(game, "stalingrad.initiative")
    assert events(game, "initiative") == [{"first": CHARACTERS, "why": "first round"}]
    game.tick = 2
    dice(game, [3, 7, 2, 12])
    rule(game, "stalingrad.initiative")
    assert events(game, "initiative_tie") == [{"characters": 3, "zombies": 3}]
    assert events(game, "initiative")[1] == {"characters": 2, "zombies": 8, "winner": ZOMBIES, "first": ZOMBIES}
    assert whys(game) == ["initiative (characters)", "initiative (zombies)"] * 2


def test_activation_movement_and_door_events(tmp_path: Path) -> None:
    """activated, moved, turned, door, gear_passed, covering, zone_of_control, escaped."""
    rows = list(ROWS)
    rows[2] = "...+........"
    rows[4] = "...........E"
    game = make(tmp_path, [char("sergeant", 2, 2), char("sniper", 2, 3), zombie("walker", 6, 7)], rows=rows)
    sgt, sniper = at(game, 2, 2), at(game, 2, 3)
    todo = [["open", 3, 2], ["face", 4], ["pass", "bandage", sniper], ["move", 2, 1]]
    run(game, activation.activate(game, sgt), {"stalingrad.mode": WALKING,
                                               "stalingrad.action": lambda d: todo.pop(0) if todo else ["end"]})
    assert events(game, "activated") == [{"character": sgt, "mode": WALKING}]
    assert events(game, "door") == [{"character": sgt, "square": [3, 2], "open": True, "mp": 3}]
    assert events(game, "turned") == [{"character": sgt, "facing": 4, "mp": 2}]
    assert events(game, "gear_passed") == [{"character": sgt, "to": sniper, "item": "bandage"}]
    assert events(game, "moved") == [{"character": sgt, "path": [[2, 1]], "cost": 1, "mp": 0}]
    assert events(game, "covering") == [{"character": sgt, "token": 2}]
    move_to(game, sniper, 8, 4)
    run(game, activation.activate(game, sniper), {"stalingrad.mode": WALKING,
                                                  "stalingrad.action": lambda d: ["move", 11, 4]
                                                  if ["move", 11, 4] in d.options else ["end"]})
    assert events(game, "escaped") == [{"character": sniper, "square": [11, 4]}]
    move_to(game, sgt, 3, 6)
    act_state(game, sgt).activated = False
    run(game, activation.activate(game, sgt), {"stalingrad.mode": WALKING,
                                               "stalingrad.action": lambda d: ["move", 5, 6]
                                               if ["move", 5, 6] in d.options else ["end"]})
    assert events(game, "zone_of_control") == [{"character": sgt, "square": [5, 6]}]



def test_a_move_logs_every_square_it_passes(tmp_path: Path) -> None:
    """`moved` lists the squares of the cheapest path, start left out and destination last: running
    from (2, 2) to (5, 2) passes (3, 2) and (4, 2), 3 MPs of 8."""
    game = make(tmp_path, [char("sergeant", 2, 2)], rows=ROWS)
    sgt = at(game, 2, 2)
    todo = [["move", 5, 2]]
    run(game, activation.activate(game, sgt), {"stalingrad.mode": RUNNING,
                                               "stalingrad.action": lambda d: todo.pop(0) if todo else ["end"]})
    assert events(game, "moved") == [{"character": sgt, "path": [[3, 2], [4, 2], [5, 2]], "cost": 3, "mp": 5}]


def test_attack_events(tmp_path: Path) -> None:
    """attack_declared, attack, zombie_stunned, zombie_hit, zombie_killed, ammo, wound (friendly fire),
    attack_fails."""
    game = make(tmp_path, [char("sergeant", 0, 3), char("sniper", 1, 3), zombie("brute", 3, 3),
                           zombie("walker", 11, 3)])
    sgt, sniper, brute = at(game, 0, 3), at(game, 1, 3), at(game, 3, 3)
    set_mode(game, sgt, STATIONARY)
    dice(game, [2, 1, 6])  # hit # 5 + 1 (the sniper in the way) = 6: a 2, a 1, a 6 (stun)
    run(game, attack.attack(game, sgt, "normal", "ppsh"))
    assert events(game, "attack_declared") == [{"character": sgt, "type": "normal", "weapon": "ppsh",
                                                "covering": None}]
    assert events(game, "attack") == [{"shooter": sgt, "target": brute, "hit": 6, "values": [2, 1, 6]}]
    assert events(game, "wound") == [{"character": sniper, "taken": 1, "why": "friendly fire"}]
    assert events(game, "ammo") == [{"character": sgt, "weapon": "ppsh", "left": 3}]
    assert events(game, "zombie_stunned") == [{"zombie": brute}]
    dice(game, [12, 12, 12])
    run(game, attack.normal_fire(game, sgt, "ppsh"))
    assert events(game, "zombie_hit") == [{"zombie": brute, "taken": 1, "hits": 2}]
    assert events(game, "zombie_killed") == [{"zombie": brute, "type": "brute", "by": sgt}]
    assert whys(game) == ["normal fire (ppsh)"] * 2
    set_mode(game, sgt, RUNNING)
    run(game, attack.normal_fire(game, sgt, "ppsh"))
    # range 11: 5 + 4; running +4; the sniper in the way +1
    assert events(game, "attack_fails") == [{"shooter": sgt, "target": at(game, 11, 3), "hit": 14}]


def test_spread_grenade_and_deviation_events(tmp_path: Path) -> None:
    """spread_shift, grenade, deviation (and the reasons of their dice)."""
    game = make(tmp_path, [char("sergeant", 0, 3), zombie("walker", 3, 3), zombie("walker", 5, 4)])
    sgt, first_z, second = at(game, 0, 3), at(game, 3, 3), at(game, 5, 4)
    set_mode(game, sgt, STATIONARY)
    dice(game, [3, 3])
    run(game, attack.spread_fire(game, sgt, "ppsh"), {"stalingrad.spread_target": second})
    assert events(game, "spread_shift") == [{"character": sgt, "target": second, "dice_lost": 1, "dice_left": 1}]
    assert whys(game) == ["spread fire (ppsh)"] * 2
    game2 = make(tmp_path / "g", [char("commissar", 0, 3)])
    com = at(game2, 0, 3)
    set_mode(game2, com, STATIONARY)
    dice(game2, [1, 3, 2, 3])
    run(game2, attack.grenade(game2, com, "grenade"), {"stalingrad.grenade_square": [4, 3]})
    assert events(game2, "deviation") == [{"start": [4, 3], "to": [6, 3], "direction": 2, "squares": 2}]
    assert events(game2, "grenade") == [{"character": com, "target": [4, 3], "throw": 4, "roll": 1,
                                         "landed": [6, 3]}]
    assert whys(game2) == ["grenade throw", "grenade deviation direction", "grenade deviation distance",
                           "grenade blast"]
    assert events(game2, "ammo") == [{"character": com, "weapon": "grenade", "left": 1}]
    _ = first_z


def test_lock_unlock_and_zombie_turn_events(tmp_path: Path) -> None:
    """locked, unlock_attempt, unlocked (broke free / zombie out of action), wound (zombie),
    character_killed, zombie_moved, zombie_recovers."""
    game = make(tmp_path, [char("sergeant", 3, 3, facing=0), zombie("walker", 4, 3), zombie("walker", 8, 3),
                           zombie("walker", 3, 4)])
    sgt, z1, z2, z3 = at(game, 3, 3), at(game, 4, 3), at(game, 8, 3), at(game, 3, 4)
    stun_zombie(game, z3)
    run(game, zombies.zombie_activations(game))
    assert events(game, "locked") == [{"character": sgt, "zombie": z1}]
    assert events(game, "zombie_recovers") == [{"zombie": z3}]
    assert events(game, "zombie_moved") == [{"zombie": z2, "path": [[7, 3]]}]
    set_mode(game, sgt, STATIONARY)
    dice(game, [5])
    run(game, activation.try_unlock(game, sgt))
    assert events(game, "unlock_attempt") == [{"character": sgt, "zombie": z1, "need": 5, "roll": 5}]
    assert events(game, "unlocked") == [{"character": sgt, "zombie": z1, "why": "broke free"}]
    lock(game, sgt, z3)
    stun_zombie(game, z3)
    assert events(game, "unlocked")[1] == {"character": sgt, "zombie": z3, "why": "zombie out of action"}
    lock(game, sgt, z1)
    set_wounds(game, sgt, 2)
    run(game, zombies.zombie_attack(game, z1))
    assert events(game, "wound") == [{"character": sgt, "taken": 3, "why": "zombie"}]
    assert events(game, "character_killed") == [{"character": sgt, "piece": "sergeant"}]


def test_spawn_events(tmp_path: Path) -> None:
    """zombie_spawned, zombie_held, zombie_placed, pushed, wound (spawn), zombie_revealed."""
    rows = ["A....#A.....", ".....#......", ".....#......", *ROWS[3:]]
    game = make(tmp_path, [char("sergeant", 0, 0), zombie("walker", 6, 0)], rows=rows)
    sgt, blocker = at(game, 0, 0), at(game, 6, 0)
    run(game, spawn.spawn_at(game, "walker", (0, 0)), {"stalingrad.push": [1, 0]})
    new = at(game, 0, 0)
    assert events(game, "zombie_spawned") == [{"zombie": new, "type": "walker", "square": [0, 0]}]
    assert events(game, "wound") == [{"character": sgt, "taken": 1, "why": "spawn"}]
    assert events(game, "pushed") == [{"character": sgt, "to": [1, 0]}]
    assert events(game, "zombie_placed") == [{"zombie": new, "square": [0, 0], "hidden": False, "arrived": False}]
    run(game, spawn.spawn_at(game, "walker", (6, 0)))
    held = events(game, "zombie_spawned")[1]["zombie"]
    assert events(game, "zombie_held") == [{"zombie": held, "square": [6, 0], "by": blocker}]
    remove(game, blocker)
    run(game, spawn.settle_pending(game))
    assert events(game, "zombie_placed")[1] == {"zombie": held, "square": [6, 0], "hidden": True, "arrived": True}
    move_to(game, sgt, 6, 4)
    spawn.reveal(game)
    assert events(game, "zombie_revealed") == [{"zombie": held, "type": "walker"}]


def test_covering_fire_and_search_events(tmp_path: Path) -> None:
    rows = list(ROWS)
    rows[6] = "?..........."
    game = make(tmp_path, [char("sergeant", 1, 4), zombie("runner", 4, 4), char("sniper", 0, 6)], rows=rows)
    sgt = at(game, 1, 4)
    set_covering(game, sgt, 4)
    dice(game, [3])
    run(game, zombies.zombie_activations(game), {"stalingrad.cover": "fire",
                                                 "stalingrad.cover_attack": ["attack", "h2h", "ppsh"]})
    assert events(game, "covering_fire") == [{"character": sgt, "zombie": at(game, 2, 4), "token": 4}]
    assert events(game, "attack_declared")[0]["covering"] == 4
    sniper = at(game, 0, 6)
    dice(game, [12])
    run(game, activation.activate(game, sniper), {"stalingrad.mode": SEARCHING})
    assert events(game, "searched") == [{"character": sniper, "square": [0, 6], "roll": 12, "result": "bandage",
                                         "amount": 1, "item": ""}]
    assert whys(game)[-1] == "search"


def test_hybrid_card_spawn_event(tmp_path: Path) -> None:
    """card_spawn: the card drawn and the zombies it brings; the deck is shuffled once a game."""
    from ecs_zombie.systems.stalingrad.round import setup
    from tests.stalingrad.stalingrad_support import write_scenario

    rows = ["A.....B.....", *ROWS[1:]]
    path = write_scenario(tmp_path, rows=rows, entities=[char("sergeant", 8, 6)], track="SS",
                          ruleset="stalingrad-shambling", decks=True)
    game = new_game(path, 1, cards=["2H", "AS"])
    setup(game)
    for rnd in (1, 2):
        game.tick = rnd
        run(game, card_spawn(game))
    assert events(game, "card_spawn") == [{"card": "2H", "zombies": 2}, {"card": "AS", "zombies": 1}]
    assert [e["why"] for e in events(game, "shuffle")] == ["start of game"]
    assert [e["square"] for e in events(game, "zombie_spawned")] == [[0, 0], [6, 0], [0, 0]]
    assert [e["why"] for e in events(game, "draw")] == ["zombie arrival"] * 2
    game.close()


def test_every_decision_kind_is_documented(make_game) -> None:
    """Each decision the rules ask is documented (`ecs-zombie decisions`); the one player answers all."""
    from ecs_zombie.decisions import KINDS

    make_game("stalingrad")
    kinds = ("initiative_order", "activate", "mode", "search_square", "unlock", "action", "target", "spread_target",
             "grenade_square", "cover", "cover_attack", "push", "zombie_target", "lock_target", "wound_target")
    assert {k: v.side for k, v in KINDS.items() if k.startswith("stalingrad.")} == {
        f"stalingrad.{k}": "player:0" for k in kinds}
    assert all(KINDS[f"stalingrad.{k}"].options and KINDS[f"stalingrad.{k}"].doc for k in kinds)


def test_a_face_down_zombie_reads_without_its_type() -> None:
    """Stalingrad: a zombie placed face down keeps its type unseen (spawning rule), on the board and
    in the options; so does the die that chose it."""
    game = new_game("stalingrad", 3)
    zombies = [e for e, m in game.world.query1(Markers) if game.world.get(e, Markers) is m]
    walker = next(e for e in zombies if Reading(game).piece(e).startswith("walker"))
    game.world.get(walker, Markers).add("hidden")
    reading = Reading(game)
    assert reading.piece(walker) == "face-down zombie"
    assert not any("walker 1" in line for line in reading.board())
    roll = (1, "roll", {"dice": "1d6", "values": [4], "why": "zombie type"}, "stalingrad.spawn")
    assert reading.event(roll) == "rolled 1d6 face down (zombie type)"
    game.close()


def test_an_activations_options_read_as_words(tmp_path: Path) -> None:
    """At the terminal (`ecs-zombie play`) an action reads as words: a facing as a compass point (0
    north, clockwise), gear passed to the character named, an attack by its fire mode and weapon, a
    door by its square; a covering attack as an attack; a move as its square."""
    game = make(tmp_path, [char("sergeant", 2, 2), char("sniper", 2, 3)])
    sniper = at(game, 2, 3)
    reading = Reading(game)
    faces = (["face", 0], ["face", 3], ["face", 6], ["face", 9])
    assert [reading.option(o, "stalingrad.action") for o in faces] == [
        "face north", "face south-east", "face west", "face north-east"]
    passed = reading.option(["pass", "bandage", sniper], "stalingrad.action")
    assert passed == f"pass the bandage to {reading.piece(sniper)}"
    assert reading.option(["attack", "spread", "ppsh"], "stalingrad.action") == "attack: spread fire with the ppsh"
    covering = reading.option(["attack", "normal", "tt33"], "stalingrad.cover_attack")
    assert covering == "attack: normal fire with the tt33"
    assert reading.option(["open", 3, 2], "stalingrad.action") == "open the door at (3, 2)"
    assert reading.option(["close", 4, 1], "stalingrad.action") == "close the door at (4, 1)"
    assert reading.option(["move", 3, 3], "stalingrad.action") == reading.value(["move", 3, 3], False)
