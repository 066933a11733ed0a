"""Shambling's battles fought with SZA's percentile melee (the hybrid `shambling-sza`).

Night of the Shambling Dead's combat runs its step `strike` for each side in each zone, passing the
striking figures and the figures the strike may hurt (`shambling.crt_strike`'s docstring lists
them). `hybrids.sza_melee` answers it as Singapore Zombie Apocalypse fights: each striking figure in
turn makes one SZA melee attack (the step `melee_strike`, mapped to `sza.melee_strike`: a d100
against Accuracy and the weapon's modifier, then the weapon's damage and the Bonus Attack Value off
the target's Stamina, which is the core `Wounds`) on one figure it may hurt, and a figure left at its
limit goes to the step `kill` (Shambling's `shambling.kill`: out of play, counted on its board).
"""

from __future__ import annotations

from collections.abc import Generator

from ecs_zombie.components import Engaged, Wounds
from ecs_zombie.decisions import Decision, decision_kind, heuristic
from ecs_zombie.env.spec import action_forms
from ecs_zombie.game import Game
from ecs_zombie.schedule import system

decision_kind("hybrids.melee_target", "player:N | narrator", "figure entity (one the strike may hurt)",
              "Which figure a striking figure attacks with SZA's melee (its own opponents first).")
action_forms("hybrids.melee_target", "{entity}")  # its row in the observation's table (ecs_zombie.env)


def standing(game: Game, figures: list[int]) -> list[int]:
    """The figures still in play and short of their wound limit, in the order given."""
    world = game.world
    out = []
    for ent in figures:
        if world.exists(ent):
            wounds = world.get(ent, Wounds)
            if wounds.taken < wounds.limit:
                out.append(ent)
    return out


@system("hybrids.sza_melee",
        reads=("Engaged", "Wounds"),
        calls={"melee_strike": ("attacker", "target", "pace"), "kill": ("figure",)},
        decides=("hybrids.melee_target",))
def sza_melee(game: Game, board: int, zone: str, side: str, attackers: list[int], eligible: list[int],
              supporters: list[int], attacker_player: str, defender_player: str, pace: str = "still"
              ) -> Generator[Decision, object, None]:
    """Shambling's `strike` step as SZA melee: each attacker, in order, attacks one figure it may hurt.

    The target is one of the attacker's own opponents (the figures it is in contact with) that the
    strike may hurt and that still stands, else any such figure (SZA: "attack a figure engaged with
    you"; Shambling: wounds go only to figures that began the round in contact), chosen by the
    striking side. DESIGN CHOICE: Shambling's support bonus (`supporters`) has no counterpart in an
    SZA melee attack and is not used; every attack is made stationary (`pace`, "still"): Shambling's
    figures do not move in a battle round."""
    world = game.world
    for attacker in attackers:
        if not world.exists(attacker):
            continue
        targets = standing(game, eligible)
        if not targets:
            return
        mine = [e for e in targets if e in world.get(attacker, Engaged).opponents]
        target = yield from game.decide(attacker_player, "hybrids.melee_target", mine or targets, attacker=attacker)
        assert isinstance(target, int)
        yield from game.run_step("melee_strike", {"attacker": attacker, "target": target, "pace": pace})
        hurt = world.get(target, Wounds)
        if hurt.taken >= hurt.limit:
            yield from game.run_step("kill", {"figure": target})


@heuristic("hybrids.melee_target")
def melee_target(game: Game, d: Decision) -> int:
    """Finish off the weakest: the fewest Stamina left (then the first offered)."""
    return min((game.world.get(int(e), Wounds).left, i) for i, e in enumerate(d.options))[1]
