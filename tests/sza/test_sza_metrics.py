"""What a game reports (`sza.metrics`, the batch's columns) and the running counts behind it, each
counted where its rule happens; and the readings of CQC and Sharp Shooter the YAML offers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sza_helpers import (
    BUNGALOW,
    alone,
    character,
    ctx,
    d100,
    dice,
    drive,
    give,
    laid_out,
    logged,
    put,
    who,
    with_rules,
    zombie,
)

from ecs_zombie.registry import METRICS
from ecs_zombie.systems.sza import stage as stage_mod
from ecs_zombie.systems.sza.actions import perform
from ecs_zombie.systems.sza.combat import shoot, strike
from ecs_zombie.systems.sza.state import harm, tally


def test_metrics_and_counts(make_game: Any) -> None:
    """One of each: a shot, an engagement, a zombie destroyed, a salvage, an ability, an infection and
    a cure, a character risen and destroyed, an event entered."""
    game = laid_out(make_game)
    board, st = ctx(game)
    connor = alone(game, "SGT Connor", 7, 2)
    target = zombie(game, 10, 2, stamina=5)
    dice(game, *d100(1), 20)
    shoot(game, connor, target, board, st)  # destroyed
    bruce, mary, costa, dexter = (who(game, n) for n in ("Bruce Long", "Mary Jacobs", "Costa Wang", "Dexter"))
    put(game, bruce, 12, 5)
    z = zombie(game, 13, 5)
    dice(game, 9, 9)
    drive(game, perform(game, bruce, f"engage:{z}:walk", board, st))
    put(game, mary, 2, 8)
    dice(game, *d100(1))
    drive(game, perform(game, mary, f"salvage:{board.cell(1, 8)}", board, st))
    harm(game, dexter, 70, board, st, "test")
    put(game, dexter, 3, 8)
    drive(game, perform(game, mary, f"ability:intravenous_injection:{dexter}", board, st))
    put(game, costa, 5, 1)
    harm(game, costa, 55, board, st, "test")
    stage_mod.infection(game)
    stage_mod.infection(game)  # Costa rises
    harm(game, costa, 55, board, st, "test")  # and is destroyed
    harm(game, zombie(game, 12, 6), 50, board, st, "test")  # a second zombie destroyed
    drive(game, stage_mod.events(game), {"sza.event_choice": lambda d: d.options[1],
                                         "sza.spawn_point": lambda d: d.options[0]})
    assert tally(game).counts == {"abilities_used": 1, "cures": 1, "engagements": 1, "events": 1, "infections": 2,
                                  "characters_turned": 1, "risen_destroyed": 1, "salvaged": 1, "shots": 1,
                                  "zombies_destroyed": 2}
    got = METRICS["sza.metrics"](game)
    assert got == {"scenario": "bungalow", "scenarios_won": 0, "event": "3", "characters": 5, "infected": 0,
                   "turned": 1, "stamina": 85 + 75 + 10 + 70 + 65, "zombies_destroyed": 3, "zombies_on_board": 1 + 5,
                   "shots": 1, "salvaged": 1}
    assert [d["piece_kind"] for d in logged(game, "destroyed")] == ["zombie", "risen", "zombie"]


def test_strike_tells_a_hit_from_a_miss(make_game: Any) -> None:
    """`strike` answers whether the attack hit (a d100 at or under the chance)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    bruce = alone(game, "Bruce Long", 8, 1)
    z = zombie(game, 8, 1, stamina=100)
    dice(game, *d100(63), 1)
    assert strike(game, bruce, z, "still", board, st) is True
    dice(game, *d100(64))
    assert strike(game, bruce, z, "still", board, st) is False
    game.world.delete(z)
    assert strike(game, bruce, z, "still", board, st) is False and len(logged(game, "attack")) == 2


def test_cqc_and_sharp_shooter_as_a_bonus_to_hit(make_game: Any, tmp_path: Path) -> None:
    """DESIGN CHOICE: "set `accuracy: 3, damage: 0` to play them as a bonus to the chance to hit":
    then CQC adds 3 to a melee chance and nothing to damage, Sharp Shooter likewise for shots."""
    to_hit = {"accuracy": 3, "damage": 0}
    game = laid_out(make_game, with_rules(tmp_path, BUNGALOW, abilities={"cqc": to_hit, "sharp_shooter": to_hit}))
    board, st = ctx(game)
    connor = alone(game, "SGT Connor", 8, 1)  # Accuracy 75, Strength 85 (+3), Bowie Knife +7
    give(game, connor, "cqc")
    z = zombie(game, 8, 1, stamina=100)
    dice(game, *d100(85), 4)
    strike(game, connor, z, "still", board, st)
    assert logged(game, "attack")[-1]["chance"] == 85 and logged(game, "damage")[-1]["damage"] == 4 + 3
    give(game, connor, "sharp_shooter")
    put(game, connor, 8, 3)
    far = zombie(game, 11, 3, stamina=100)
    dice(game, *d100(98), 6)
    shoot(game, connor, far, board, st)
    assert logged(game, "shot")[-1]["chance"] == 75 + 20 + 3 and logged(game, "damage")[-1]["damage"] == 6


def test_salvage_bonus_is_a_knob(make_game: Any, tmp_path: Path) -> None:
    """DESIGN CHOICE: salvaging succeeds on a d100 at or under total Smarts plus `salvage_bonus` (0
    shipped): with 10, Costa (Smarts 85) finds the cabinet's bandages on a 95."""
    game = laid_out(make_game, with_rules(tmp_path, BUNGALOW, salvage_bonus=10))
    board, st = ctx(game)
    costa = alone(game, "Costa Wang", 2, 8)
    dice(game, *d100(96), *d100(95))
    drive(game, perform(game, costa, f"salvage:{board.cell(1, 8)}", board, st))
    drive(game, perform(game, costa, f"salvage:{board.cell(1, 8)}", board, st))
    assert [(s["target"], s["success"]) for s in logged(game, "salvage")] == [(95, False), (95, True)]


def test_spent_abilities_are_kept_in_order(make_game: Any) -> None:
    """Abilities used once per game are recorded sorted, whatever order they were used in."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary, bruce = who(game, "Mary Jacobs"), who(game, "Bruce Long")
    give(game, mary, "vial_of_antidote", "fire_suit")
    put(game, mary, 2, 2)
    put(game, bruce, 3, 2)
    drive(game, perform(game, mary, f"ability:vial_of_antidote:{bruce}", board, st))
    drive(game, perform(game, mary, "ability:fire_suit", board, st))
    assert character(game, mary).used == ["fire_suit", "vial_of_antidote"]
