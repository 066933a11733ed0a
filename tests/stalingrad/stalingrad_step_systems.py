"""Systems a hybrid could map at Stalingrad's seams, for the tests of those seams: a pacer that asks
the spawn step for zombies, and an attack that only records the plain data it was given."""

from __future__ import annotations

from collections.abc import Generator

from ecs_zombie.decisions import Decision
from ecs_zombie.game import Game
from ecs_zombie.schedule import system
from ecs_zombie.systems.stalingrad.spawn import SPAWN_CREATES, SPAWN_DECIDES, SPAWN_READS, SPAWN_WRITES


@system("stalingrad_test.pacer", reads=SPAWN_READS, writes=SPAWN_WRITES, creates=SPAWN_CREATES,
        decides=SPAWN_DECIDES, calls={"summon": ("count", "where")})
def pacer(game: Game, count: int = 2, where: str = "B") -> Generator[Decision, object, None]:
    """An outside pacer: every round, `count` zombies at the `where` spawn squares."""
    yield from game.run_step("summon", {"count": count, "where": where})


@system("stalingrad_test.attack_log")
def attack_log(game: Game, character: int, mode: str, weapon: str, covering: int = -1) -> None:
    """Another game's attack at Stalingrad's `attack` seam: logs what it was asked."""
    game.log("asked_attack", character=character, mode=mode, weapon=weapon, covering=covering)
