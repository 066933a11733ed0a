"""Melee, ranged fire and surprise (SZA "Combat": Engagement, Combat Sequence Melee and Ranged, Surprise).

Melee: chance to hit = total Accuracy + the weapon's modifier for running, walking or stationary
(+3 stationary on a table or counter; the wardrobe's -3 to zombies); a d100 at or under it hits;
damage = weapon dice + the movement's damage modifier + the Bonus Attack Value (Strength).
Ranged (SAR-21): stationary, direct sight along a row or column; near/medium/far modifiers (and
the +3 of a table or counter the Soldier stands on: "while ... stationary"), 10+ always misses,
useless on the same square; 1d20 damage, no Strength bonus; one round per shot.
Surprise: a running engagement; both roll 1d20, the higher gets a free attack, a tie fails.
Every melee attack goes through the ruleset's `melee_strike` step (`sza.melee_strike`), a seam
that needs no SZA board: other games' battles can be fought with it.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ecs_zombie.components import Position
from ecs_zombie.decisions import Decision
from ecs_zombie.game import Game
from ecs_zombie.schedule import system
from ecs_zombie.systems.sza.board import Board
from ecs_zombie.systems.sza.components import Arms, Stage
from ecs_zombie.systems.sza.dice import percentile
from ecs_zombie.systems.sza.moves import on_grass
from ecs_zombie.systems.sza.state import (
    accuracy,
    board_of,
    cell_of,
    destroy,
    engage_square,
    harm,
    has_ability,
    is_character,
    rules,
    strength,
    tally,
    total_accuracy,
    weapon,
)

FURNITURE = ("table", "counter")

# What a melee strike may read besides what it needs (the attacker's SzaAttributes and SzaArms, the
# target's Wounds): SZA's own pieces and board, applied only where they are present.
STRIKE_OPTIONAL = ("SzaStage", "Position", "Markers", "SzaCharacter", "SzaInfection", "SzaInventory", "Faction",
                   "Kind", "Owner", "Engaged", "Tally")


def sza_board(game: Game) -> tuple[Board, Stage] | None:
    """The SZA board laid out in this game, if there is one (a campaign entity with a built stage)."""
    for _ent, stage in game.world.query1(Stage):
        if stage.built:
            return board_of(game, stage), stage
    return None


def hit_chance(game: Game, attacker: int, target: int, pace: str, board: Board | None, stage: Stage | None,
               furniture: int | None = None, darkness: int | None = None) -> int:
    """Chance to hit in melee, every modifier included (those of the board only on a board)."""
    return _hit_chance(game, attacker, target, pace, board, stage, furniture, darkness,
                       is_character(game, attacker), weapon(game, attacker))


def _hit_chance(game: Game, attacker: int, target: int, pace: str, board: Board | None, stage: Stage | None,
                furniture: int | None, darkness: int | None, human: bool, w: dict[str, Any]) -> int:
    """`hit_chance`, told whether the attacker is a character (`human`) and its weapon `w`."""
    chance = total_accuracy(game, attacker, board, stage, darkness, human) + int(w[pace][0])
    if board is not None and pace == "still" and \
            board.feature(cell_of(board, game.world.get(attacker, Position))) in FURNITURE:
        chance += int(game.params["furniture_bonus"]) if furniture is None else furniture
    if human:
        if has_ability(game, attacker, "cqc"):
            chance += int(rules(game).abilities["cqc"]["accuracy"])
    elif board is not None:
        room = board.room(cell_of(board, game.world.get(target, Position)))
        if room is not None:
            chance += room.zombie_accuracy
    return chance


def strike(game: Game, attacker: int, target: int, pace: str, board: Board | None, stage: Stage | None,
           why: str = "melee", furniture: int | None = None, darkness: int | None = None) -> bool:
    """One melee attack; True on a hit. `board` None: no board, no board modifiers (see `melee_strike`)."""
    world = game.world
    if not (world.exists(attacker) and world.exists(target)):
        return False
    human = is_character(game, attacker)  # nothing changes it before the damage is dealt
    w = weapon(game, attacker)
    chance = _hit_chance(game, attacker, target, pace, board, stage, furniture, darkness, human, w)
    roll = percentile(game, f"{why} to hit")
    hit = roll <= chance
    game.log("attack", attacker=attacker, target=target, pace=pace, chance=chance, roll=roll, hit=hit, why=why)
    if not hit:
        return False
    dmg = game.roll(w["damage"], f"{why} damage") + int(w[pace][1]) + rules(game).bonus(strength(game, attacker))
    if human and has_ability(game, attacker, "cqc"):
        dmg += int(rules(game).abilities["cqc"]["damage"])
    harm(game, target, dmg, board, stage, why)
    return True


@system("sza.melee_strike",
        reads=("SzaAttributes", "SzaArms", "Wounds"),
        optional=STRIKE_OPTIONAL,
        writes=("Wounds", "SzaInfection", "Engaged", "Tally"))
def melee_strike(game: Game, attacker: int, target: int, pace: str = "still", why: str = "melee",
                 furniture_bonus: int = 3, darkness_penalty: int = 10) -> None:
    """One SZA melee attack (Combat Sequence (Melee)) by `attacker` on `target`, at `pace`.

    A step, usable by any ruleset that loads the `sza.rules` table (the weapons and the Bonus Attack
    Value bands), with plain data:

    - `attacker`, `target`: entity ids; `pace`: "still" (stationary), "walk" or "run" (the move
      that engaged); `why`: the reason its dice and events carry ("melee", "surprise", ...).
    - Needs only components: the attacker's `SzaAttributes` (accuracy, strength) and `SzaArms`
      (`melee`: a weapon of the table), the target's `Wounds`.
    - Chance to hit: Accuracy + the weapon's modifier for the pace; a d100 (two d10, tens then
      units) at or under it hits. Damage: the weapon's dice + the pace's damage modifier + the Bonus
      Attack Value of Strength, taken off the target's Stamina (`Wounds.left` falls, `taken` grows).
      Logged as `attack` and `damage` events.
    - Where the pieces have them, SZA's own rules apply: Inspire (`Markers`), CQC and Fire Helmet
      (`SzaCharacter` abilities, not while infected: `SzaInfection`).
    - Only when an SZA board is laid out (a built `SzaStage`): the board's modifiers (a table or
      counter for a stationary attacker: `furniture_bonus`; a dark room: `darkness_penalty`; the
      wardrobe's penalty to zombies), Motivational Speech in range, and what Stamina at 0 means
      there (a character infected, a zombie eliminated).
    - Without a board nothing else happens: the host game reads the `Wounds` and applies its own
      consequences (a figure removed, a survivor down).

    A hybrid fights Night of the Shambling Dead's battles with it: Shambling's `strike` step passes
    the side, the attacking figures and the figures that may be wounded; an adapter mapped there
    gives each attacking figure SZA attributes and a weapon (prefabs), picks its target among the
    figures that may be wounded, and runs this step for each (`game.run_step("melee_strike",
    {"attacker": a, "target": t, "pace": "still"})`), leaving Shambling to count the wounds."""
    here = sza_board(game)
    board, stage = here if here is not None else (None, None)
    strike(game, attacker, target, pace, board, stage, why, furniture_bonus, darkness_penalty)


def run_strike(game: Game, attacker: int, target: int, pace: str, why: str = "melee"
               ) -> Generator[Decision, object, None]:
    """SZA's own combat strikes through the ruleset's `melee_strike` step."""
    yield from game.run_step("melee_strike", {"attacker": attacker, "target": target, "pace": pace, "why": why})


def range_modifier(game: Game, ranged: str, squares: int) -> int | None:
    """The SAR-21's Range Accuracy Modifier; None where it cannot hit (same square, 10 or more)."""
    for lo, hi, mod in rules(game).ranged[ranged]["bands"]:
        if lo <= squares <= hi:
            return int(mod)
    return None


def shoot(game: Game, ent: int, target: int, board: Board, stage: Stage) -> bool:
    """Fire one round at a target in direct sight; True on a hit."""
    world = game.world
    arms = world.get(ent, Arms)
    if arms.rounds <= 0:
        return False
    arms.rounds -= 1
    tally(game).bump("shots")
    a = cell_of(board, world.get(ent, Position))
    b = cell_of(board, world.get(target, Position))
    squares = board.sight(a, b, stage.opened)
    mod = range_modifier(game, arms.ranged, squares) if squares is not None else None
    roll = percentile(game, "shot to hit")
    if mod is None:
        game.log("shot", shooter=ent, target=target, squares=squares, roll=roll, hit=False)
        return False
    chance = accuracy(game, ent, board, stage) + mod
    if board.feature(a) in FURNITURE:  # a shot is always taken stationary: a table or counter's +3
        chance += int(game.params["furniture_bonus"])
    ss = rules(game).abilities["sharp_shooter"]
    if has_ability(game, ent, "sharp_shooter"):
        chance += int(ss["accuracy"])
    hit = roll <= chance
    game.log("shot", shooter=ent, target=target, squares=squares, chance=chance, roll=roll, hit=hit)
    if hit:
        dmg = game.roll(rules(game).ranged[arms.ranged]["damage"], "shot damage")
        if has_ability(game, ent, "sharp_shooter"):
            dmg += int(ss["damage"])
        harm(game, target, dmg, board, stage, "shot")
    return hit


def surprise(game: Game, mover: int, target: int, can_answer: bool) -> Generator[Decision, object, None]:
    """Surprise check on a running engagement: the higher 1d20 gets a free attack; a tie fails."""
    a = game.roll("1d20", "surprise (engaging)")
    b = game.roll("1d20", "surprise (engaged)")
    game.log("surprise", mover=mover, target=target, rolls=[a, b])
    if a > b:
        yield from run_strike(game, mover, target, "run", "surprise")
    elif b > a and can_answer:
        yield from run_strike(game, target, mover, "still", "surprise")


def engagement(game: Game, mover: int, target: int, pace: str, board: Board, stage: Stage,
               target_can_answer: bool = True) -> Generator[Decision, object, None]:
    """The mover has landed on the target's square: engage, surprise (running), then attack.

    An engagement that ends on grass is a walking one ("Grass Patches ... Only the walking movement
    is allowed"): no running modifiers, no Surprise, no One Shot, One Kill."""
    world = game.world
    if pace == "run" and on_grass(game, mover, board, cell_of(board, world.get(mover, Position))):
        pace = "walk"
    engage_square(game, mover)
    tally(game).bump("engagements")
    if pace == "run" and game.params["surprise"]:
        yield from surprise(game, mover, target, target_can_answer)
    if not (world.exists(mover) and world.exists(target)):
        return
    if pace == "run" and is_character(game, mover) and has_ability(game, mover, "one_shot_one_kill") \
            and not is_character(game, target):
        spec = rules(game).abilities["one_shot_one_kill"]
        roll = game.roll(str(spec["die"]), "one shot, one kill")
        game.log("one_shot_one_kill", character=mover, target=target, roll=roll)
        if roll >= int(spec["target"]):
            destroy(game, target, "one shot, one kill")
            return
    yield from run_strike(game, mover, target, pace)
