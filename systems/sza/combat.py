"""Melee, ranged fire and surprise (SZA "Combat": Engagement, Combat Sequence Melee and Ranged, Surprise).

Melee: chance to hit = total Accuracy + the weapon's modifier for running, walking or stationary
(+3 stationary on a table or counter; the wardrobe's -3 to zombies); a d100 at or under it hits;
damage = weapon dice + the movement's damage modifier + the Bonus Attack Value (Strength).
Ranged (SAR-21): stationary, direct sight along a row or column; near/medium/far modifiers (and
the +3 of a table or counter the Soldier stands on: "while ... stationary"), 10+ always misses,
useless on the same square; 1d20 damage, no Strength bonus; one round per shot.
Surprise: a running engagement; both roll 1d20, the higher gets a free attack, a tie fails.
"""

from __future__ import annotations

from ecs_zombie.components import Health, Position
from ecs_zombie.game import Game
from ecs_zombie.systems.sza.board import Board
from ecs_zombie.systems.sza.components import Arms, Stage
from ecs_zombie.systems.sza.dice import percentile
from ecs_zombie.systems.sza.state import (
    accuracy,
    cell_of,
    destroy,
    engage_square,
    harm,
    has_ability,
    is_character,
    rules,
    strength,
    tally,
    weapon,
)

FURNITURE = ("table", "counter")


def hit_chance(game: Game, attacker: int, target: int, pace: str, board: Board, stage: Stage) -> int:
    """Chance to hit in melee, every modifier included."""
    w = weapon(game, attacker)
    chance = accuracy(game, attacker, board, stage) + int(w[pace][0])
    if pace == "still" and board.feature(cell_of(board, game.world.get(attacker, Position))) in FURNITURE:
        chance += int(game.params["furniture_bonus"])
    if is_character(game, attacker):
        if has_ability(game, attacker, "cqc"):
            chance += int(rules(game).abilities["cqc"].get("accuracy", 0))
    else:
        room = board.room(cell_of(board, game.world.get(target, Position)))
        if room is not None:
            chance += room.zombie_accuracy
    return chance


def strike(game: Game, attacker: int, target: int, pace: str, board: Board, stage: Stage, why: str = "melee") -> bool:
    """One melee attack; True on a hit."""
    world = game.world
    if not (world.exists(attacker) and world.exists(target)):
        return False
    chance = hit_chance(game, attacker, target, pace, board, stage)
    roll = percentile(game, f"{why} to hit")
    hit = roll <= chance
    game.log("attack", attacker=attacker, target=target, pace=pace, chance=chance, roll=roll, hit=hit, why=why)
    if not hit:
        return False
    w = weapon(game, attacker)
    dmg = game.roll(w["damage"], f"{why} damage") + int(w[pace][1]) + rules(game).bonus(strength(game, attacker))
    if is_character(game, attacker) and has_ability(game, attacker, "cqc"):
        dmg += int(rules(game).abilities["cqc"].get("damage", 0))
    harm(game, target, dmg, board, stage, why)
    return True


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
        chance += int(ss.get("accuracy", 0))
    hit = roll <= chance
    game.log("shot", shooter=ent, target=target, squares=squares, chance=chance, roll=roll, hit=hit)
    if hit:
        dmg = game.roll(rules(game).ranged[arms.ranged]["damage"], "shot damage")
        if has_ability(game, ent, "sharp_shooter"):
            dmg += int(ss.get("damage", 0))
        harm(game, target, dmg, board, stage, "shot")
    return hit


def surprise(game: Game, mover: int, target: int, board: Board, stage: Stage, can_answer: bool) -> None:
    """Surprise check on a running engagement: the higher 1d20 gets a free attack; a tie fails."""
    a = game.roll("1d20", "surprise (engaging)")
    b = game.roll("1d20", "surprise (engaged)")
    game.log("surprise", mover=mover, target=target, rolls=[a, b])
    if a > b:
        strike(game, mover, target, "run", board, stage, "surprise")
    elif b > a and can_answer:
        strike(game, target, mover, "still", board, stage, "surprise")


def engagement(game: Game, mover: int, target: int, pace: str, board: Board, stage: Stage,
               target_can_answer: bool = True) -> None:
    """The mover has landed on the target's square: engage, surprise (running), then attack."""
    world = game.world
    engage_square(game, mover)
    tally(game).bump("engagements")
    if pace == "run" and game.params["surprise"]:
        surprise(game, mover, target, board, stage, target_can_answer)
    if not (world.exists(mover) and world.exists(target)):
        return
    if pace == "run" and is_character(game, mover) and has_ability(game, mover, "one_shot_one_kill") \
            and not is_character(game, target):
        spec = rules(game).abilities["one_shot_one_kill"]
        roll = game.roll(str(spec.get("die", "1d10")), "one shot, one kill")
        game.log("one_shot_one_kill", character=mover, target=target, roll=roll)
        if roll >= int(spec.get("target", 7)):
            world.get(target, Health).current = 0
            destroy(game, target, "one shot, one kill")
            return
    strike(game, mover, target, pace, board, stage)
