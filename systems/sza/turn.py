"""Initiative and the order of play (SZA "Initiative", "Combat Sequence example").

Each turn with zombies on the board, each side rolls 1d10 and adds the Initiative of its piece with
the highest total Accuracy; the higher total moves and attacks first. On equal totals, the side
holding the single highest total Accuracy goes first (DESIGN CHOICE: humans when that ties too).
Among the humans, higher Initiative first, ties by the higher total Accuracy (then by entity id);
zombies act in the order they came onto the board. With no zombie on the board there is no
initiative roll and the humans simply act.
DESIGN CHOICE: each side acts in full before the other (the book's Combat Sequence example); the
sentence that engaged zombies act "in between character turns" is read as this alternation.
"""

from __future__ import annotations

from collections.abc import Generator

from ecs_zombie.components import Faction, Markers
from ecs_zombie.decisions import Decision
from ecs_zombie.game import Game
from ecs_zombie.schedule import system
from ecs_zombie.systems.sza.actions import act
from ecs_zombie.systems.sza.board import Board
from ecs_zombie.systems.sza.components import Attributes, Stage
from ecs_zombie.systems.sza.state import (
    ZOMBIES,
    accuracy,
    board_of,
    characters,
    opponents,
    scenario_def,
    stage_of,
    zombies,
)
from ecs_zombie.systems.sza.zombies import zombie_act

HUMANS, ZOMBIE_SIDE = "humans", "zombies"


def side_roll(game: Game, pieces: list[int], why: str, board: Board, stage: Stage) -> tuple[int, int]:
    """(1d10 + Initiative of the piece with the highest total Accuracy, that Accuracy)."""
    acc, neg = max((accuracy(game, e, board, stage), -e) for e in pieces)
    return game.roll("1d10", why) + game.world.get(-neg, Attributes).initiative, acc


def human_order(game: Game, board: Board, stage: Stage) -> list[int]:
    """Higher Initiative first, ties by the higher total Accuracy, then by entity id. Accuracy is
    worked out only for characters sharing an Initiative: elsewhere it cannot change the order."""
    chars = characters(game)
    world = game.world
    initiative = {e: world.get(e, Attributes).initiative for e in chars}
    seen: set[int] = set()
    shared: set[int] = set()  # Initiatives held by more than one character (only looked up)
    for i in initiative.values():
        (shared if i in seen else seen).add(i)

    def key(e: int) -> tuple[int, int, int]:
        i = initiative[e]
        return -i, -accuracy(game, e, board, stage) if i in shared else 0, e

    return sorted(chars, key=key)


@system("sza.initiative",
        reads=("SzaStage", "Faction", "Markers", "SzaCharacter", "SzaAttributes", "Position", "SzaInfection"),
        writes=("SzaStage", "Markers"),
        uses=("darkness_penalty",))
def initiative(game: Game) -> None:
    """Start of turn: clear last turn's states; each side rolls for initiative when zombies are on the board."""
    _ent, stage = stage_of(game)
    if not stage.built:
        return
    for _e, markers in game.world.query1(Markers):
        tags = markers.tags
        if tags:  # `markers.discard` of each, inline: every piece is visited each turn
            for tag in ("inspired", "traded", *[t for t in tags if t.startswith("victim:")]):
                if tag in tags:
                    tags.remove(tag)
    board = board_of(game, stage)
    humans, zs = characters(game), zombies(game)
    if not zs or not humans:
        stage.order = [HUMANS]
        return
    h, h_acc = side_roll(game, humans, "initiative (humans)", board, stage)
    z, z_acc = side_roll(game, zs, "initiative (zombies)", board, stage)
    first = HUMANS if (h, h_acc) >= (z, z_acc) else ZOMBIE_SIDE
    stage.order = [first, ZOMBIE_SIDE if first == HUMANS else HUMANS]
    game.log("initiative", humans=h, zombies=z, first=first)


@system("sza.turn",
        reads=("SzaStage", "Faction", "Kind", "Owner", "Markers", "SzaCharacter", "SzaAttributes", "Position",
               "Wounds", "SzaArms", "SzaInventory", "SzaInfection", "Engaged", "SzaVehicle"),
        writes=("Position", "Wounds", "SzaArms", "SzaInventory", "SzaInfection", "Engaged", "Markers", "SzaStage",
                "SzaCharacter", "SzaVehicle", "Tally"),
        uses=("surprise", "darkness_penalty", "furniture_bonus", "cured_stamina", "free_exploration"),
        calls={"melee_strike": ("attacker", "target", "pace", "why")},
        decides=("sza.action", "sza.k9_target", "sza.melee_target", "sza.zombie_target"))
def turn(game: Game, interleave: bool = False) -> Generator[Decision, object, None]:
    """Each side in initiative order: every character takes its action, then every zombie acts.

    With the parameter `interleave` (DESIGN CHOICE, off by default), once any piece is engaged the
    sides alternate piece by piece, the initiative winner's first: the other reading of "the zombie
    will always make their move/attacks in between character turns" ("Play Criteria")."""
    _ent, stage = stage_of(game)
    if not stage.built:
        return
    board = board_of(game, stage)
    aim = _aim(game, stage)
    world = game.world
    chars = characters(game)  # nobody changes sides before the end of the turn (infection rises then)
    queues = {HUMANS: human_order(game, board, stage), ZOMBIE_SIDE: zombies(game)}
    order = [side for side in stage.order if side in queues]
    if interleave and len(order) == 2 and any(opponents(game, c) for c in chars):  # anyone engaged
        first, second = queues[order[0]], queues[order[1]]
        sequence = []
        for i in range(max(len(first), len(second))):
            sequence += [(order[0], p) for p in first[i:i + 1]] + [(order[1], p) for p in second[i:i + 1]]
    else:
        sequence = [(side, p) for side in order for p in queues[side]]
    for side, piece in sequence:
        if not world.exists(piece):
            continue
        if side == HUMANS:
            yield from act(game, piece, board, stage, aim, chars)
        elif world.get(piece, Faction).side == ZOMBIES:
            yield from zombie_act(game, piece, board, stage)


def _aim(game: Game, stage: Stage) -> str:
    scen = scenario_def(game, stage)
    ev = scen.events.get(stage.event)
    if ev is None:
        return ""
    if ev.aim.get("hunt"):
        return "hunt"
    return str(ev.aim.get("feature", ""))
