"""Shared queries and effects of Singapore Zombie Apocalypse's systems: the stage, the board,
pieces on it, attribute totals with every modifier, engagement, damage, infection and removal.

Order: pieces by entity id unless a rule orders them otherwise.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ecs_zombie.components import Engaged, Faction, Kind, Markers, Owner, Position, Tally, Wounds
from ecs_zombie.decisions import Decision
from ecs_zombie.engagement import disengage_all, engage
from ecs_zombie.errors import GameError
from ecs_zombie.game import Game
from ecs_zombie.systems.sza.board import Board
from ecs_zombie.systems.sza.components import Arms, Attributes, Character, Infection, Stage
from ecs_zombie.systems.sza.tables import Rules, ScenarioDef

SURVIVORS, ZOMBIES = "survivors", "zombies"
SIDES = (SURVIVORS, ZOMBIES)


def stage_of(game: Game) -> tuple[int, Stage]:
    found = game.world.query1(Stage)
    if found:
        return found[0]
    raise GameError("this game has no campaign entity (a Stage component)")


def tally(game: Game) -> Tally:
    ent, _ = stage_of(game)
    return game.world.get(ent, Tally)


def rules(game: Game) -> Rules:
    r: Rules = game.tables["sza.rules"]
    return r


def scenario_def(game: Game, stage: Stage) -> ScenarioDef:
    s: ScenarioDef = game.tables["sza.scenarios"].by_id[stage.stages[stage.index]]
    return s


def board_of(game: Game, stage: Stage) -> Board:
    b: Board = game.tables["sza.maps"][scenario_def(game, stage).map]
    return b


def cell_of(board: Board, pos: Position) -> int:
    return pos.y * board.width + pos.x


def characters(game: Game) -> list[int]:
    """Living characters on the board (infected ones included; risen ones are zombies)."""
    return [ent for ent, markers in _survivors(game) if "offboard" not in markers.tags]


def _survivors(game: Game) -> tuple[tuple[int, Markers], ...]:
    """The survivors' side's characters, on the board or off it, with their markers, by id. Kept by
    the world (`World.memo`): which entities have a Faction, Markers and a Character changes only
    when one of those comes or goes, and a Faction is frozen (a side changes by a new one)."""
    return game.world.memo(("sza.survivors",), (Faction, Markers, Character), lambda: tuple(
        (ent, markers) for ent, (faction, markers, _c) in game.world.query(Faction, Markers, Character)
        if faction.side == SURVIVORS))


def zombies(game: Game) -> list[int]:
    """The zombies' side's pieces, by id."""
    return list(zombie_ids(game))


def zombie_ids(game: Game) -> tuple[int, ...]:
    """`zombies`, as the world keeps it (`World.memo`, like `_survivors`: a Faction is frozen):
    shared, never to be changed."""
    return game.world.memo(("sza.zombies",), (Faction,), lambda: tuple(
        e for e, f in game.world.query1(Faction) if f.side == ZOMBIES))


def is_character(game: Game, ent: int) -> bool:
    """A character still human: it can be infected, and it stands with the survivors. (The piece's
    components read in one look-up of the world's table, here and in `has_ability`.)"""
    comps = game.world.raw().get(ent)
    if comps is None:
        return False
    faction = comps.get(Faction)
    return faction is not None and faction.side == SURVIVORS and Infection in comps


def has_ability(game: Game, ent: int, ability: str) -> bool:
    """An ability the piece may use now: an infected character uses none ("Damage & Infection")."""
    comps = game.world.raw().get(ent)
    if comps is None:
        return False
    ch = comps.get(Character)
    if ch is None or ability not in ch.abilities:
        return False
    inf = comps.get(Infection)
    return inf is None or not inf.infected


def room_effects(game: Game, board: Board, stage: Stage, ent: int) -> tuple[bool, int]:
    """(dark, smarts modifier) of the piece's room, unless Combat Awareness ignores them."""
    room = board.room(cell_of(board, game.world.get(ent, Position)))
    if room is None or has_ability(game, ent, "combat_awareness"):
        return False, 0
    return room.dark and "lights" not in stage.flags, room.smarts


def inspired(game: Game, ent: int) -> bool:
    markers = game.world.try_get(ent, Markers)
    return markers is not None and "inspired" in markers.tags


def accuracy(game: Game, ent: int, board: Board | None, stage: Stage | None, darkness: int | None = None) -> int:
    """Total Accuracy: the attribute, Inspire's +5 this turn, and, on an SZA board, the room's
    darkness (`darkness`, or the ruleset's `darkness_penalty`): `room_effects`, with Combat
    Awareness looked at only in a dark room."""
    return total_accuracy(game, ent, board, stage, darkness, None)


def total_accuracy(game: Game, ent: int, board: Board | None, stage: Stage | None, darkness: int | None,
                   human: bool | None) -> int:
    """`accuracy`, told whether the piece is a character (`human`, `is_character`) when the caller knows."""
    comps = game.world.raw()[ent]  # the piece's components, read in one look-up
    a = comps[Attributes].accuracy
    markers = comps.get(Markers)
    if markers is not None and "inspired" in markers.tags:
        a += int(rules(game).abilities["inspire"]["bonus"])
    if board is not None and stage is not None:
        if human is None:
            faction = comps.get(Faction)
            human = faction is not None and faction.side == SURVIVORS and Infection in comps
        if human:
            pos = comps[Position]
            room = board.room(pos.y * board.width + pos.x)
            if room is not None and room.dark and "lights" not in stage.flags \
                    and not has_ability(game, ent, "combat_awareness"):
                a -= int(game.params["darkness_penalty"]) if darkness is None else darkness
    return a


def strength(game: Game, ent: int) -> int:
    s = game.world.get(ent, Attributes).strength
    if inspired(game, ent):
        s += int(rules(game).abilities["inspire"]["bonus"])
    return s


def smarts(game: Game, ent: int, board: Board, stage: Stage) -> int:
    s = game.world.get(ent, Attributes).smarts
    if game.world.get(ent, Markers).has("inspired"):
        s += int(rules(game).abilities["inspire"]["bonus"])
    if is_character(game, ent):
        s += room_effects(game, board, stage, ent)[1]
    return s


def morale(game: Game, ent: int) -> int:
    m = game.world.get(ent, Attributes).morale
    if game.world.get(ent, Markers).has("boosted"):
        m += int(rules(game).abilities["morale_boost"]["morale"])
    return max(1, m)


def morale_targets(game: Game, ent: int, targets: list[int], kind: str, **context: Any
                   ) -> Generator[Decision, object, list[int]]:
    """Morale caps how many engaged enemies a piece attacks in a turn: all of them when they fit,
    else its side picks them one at a time (rule book, "Morale")."""
    n = morale(game, ent)
    chosen: list[int] = []
    while targets and len(chosen) < n:
        if len(targets) + len(chosen) <= n:
            chosen.extend(targets)
            break
        t = yield from game.decide(side_of(game, ent), kind, targets, **context)
        chosen.append(t)
        targets = [x for x in targets if x != t]
    return chosen


def link(game: Game, a: int, b: int) -> None:
    """Two enemies on one square are engaged (locked in melee)."""
    engage(game.world, a, b)


def unlink_all(game: Game, ent: int) -> None:
    disengage_all(game.world, ent)


def engage_square(game: Game, ent: int) -> list[int]:
    """Engage every enemy on the piece's square (in id order); returns them."""
    world = game.world
    pos = world.get(ent, Position)
    side = world.get(ent, Faction).side
    x, y = pos.x, pos.y
    enemies = [pieces for s, pieces in zip(SIDES, side_pieces(game), strict=True) if s != side]
    found = [other for pieces in enemies for other, opos, markers in pieces
             if opos.x == x and opos.y == y and "offboard" not in markers.tags]
    if len(enemies) > 1:  # a piece of neither side: both sides' pieces, in id order
        found.sort()
    for other in found:
        link(game, ent, other)
    return found


def side_pieces(game: Game) -> tuple[tuple[tuple[int, Position, Markers], ...], ...]:
    """For each of `SIDES`, its pieces (id, position, markers), by id. Kept by the world
    (`World.memo`): which entities have a Position, a Faction and Markers changes only when one of
    those comes or goes, and a Faction is frozen; positions and markers are read as they are now."""
    def compute() -> tuple[tuple[tuple[int, Position, Markers], ...], ...]:
        found: dict[str, list[tuple[int, Position, Markers]]] = {s: [] for s in SIDES}
        for e, (pos, fac, markers) in game.world.query(Position, Faction, Markers):
            side = found.get(fac.side)
            if side is not None:
                side.append((e, pos, markers))
        return tuple(tuple(found[s]) for s in SIDES)

    return game.world.memo(("sza.sides",), (Position, Faction, Markers), compute)


def opponents(game: Game, ent: int) -> list[int]:
    world = game.world
    ops = world.get(ent, Engaged).opponents
    return list(filter(world.exists, ops)) if ops else []


def destroy(game: Game, ent: int, why: str) -> None:
    """A zombie (an NPC or a risen character) is eliminated."""
    unlink_all(game, ent)
    kind = game.world.get(ent, Kind).name
    tally(game).bump("zombies_destroyed" if kind == "zombie" else "risen_destroyed")
    game.log("destroyed", piece=ent, piece_kind=kind, why=why)
    game.world.delete(ent)


def harm(game: Game, target: int, damage: int, board: Board | None, stage: Stage | None, source: str) -> int:
    """Damage after the target's reductions; on an SZA board, Stamina at 0 or below infects a
    character ("Damage & Infection") and eliminates a zombie. Returns the damage dealt.

    Without a board (`board` None: a piece of another game) only the Stamina is taken: what a
    wound means there is that game's rule."""
    world = game.world
    human = is_character(game, target)  # what it is does not change while it is harmed
    if human:
        abil = rules(game).abilities
        if has_ability(game, target, "fire_helmet"):
            damage += int(abil["fire_helmet"]["damage_taken"])
        if board is not None and speech_covers(game, target, board):
            damage += int(abil["motivational_speech"]["damage_taken"])
    damage = max(0, damage)
    health = world.get(target, Wounds)
    health.left -= damage
    game.log("damage", target=target, damage=damage, stamina=health.left, source=source)
    if board is None:
        return damage
    if human:  # a character stands with the survivors: never a zombie
        if health.left <= 0:
            infect(game, target)
    elif world.get(target, Faction).side == ZOMBIES and health.left <= 0:
        destroy(game, target, source)
    return damage


def infect(game: Game, ent: int) -> None:
    inf = game.world.get(ent, Infection)
    if inf.infected:
        return
    inf.infected = True
    inf.fresh = True
    inf.turns_left = rules(game).infection(game.world.get(ent, Wounds).limit)
    tally(game).bump("infections")
    game.log("infected", character=ent, turns=inf.turns_left)


def cure(game: Game, ent: int, how: str) -> None:
    """Only the Paramedic's abilities cure: Stamina comes back to `cured_stamina` (DESIGN CHOICE)."""
    inf = game.world.get(ent, Infection)
    inf.infected, inf.turns_left, inf.fresh = False, 0, False
    h = game.world.get(ent, Wounds)
    h.left = min(h.limit, max(h.left, int(game.params["cured_stamina"])))
    tally(game).bump("cures")
    game.log("cured", character=ent, how=how, stamina=h.left)


def heal(game: Game, ent: int, amount: int) -> int:
    """Stamina up by `amount`, never above the total; returns what was gained."""
    h = game.world.get(ent, Wounds)
    gained = max(0, min(amount, h.limit - h.left))
    h.left += gained
    return gained


def speech_covers(game: Game, target: int, board: Board) -> bool:
    """Motivational Speech: within `range` squares of a speaking Costa this turn."""
    tpos = game.world.get(target, Position)
    tcell = cell_of(board, tpos)
    rng = int(rules(game).abilities["motivational_speech"]["range"])
    for ent, markers in game.world.query1(Markers):
        if "speech" in markers.tags and has_ability(game, ent, "motivational_speech"):
            if board.chebyshev(cell_of(board, game.world.get(ent, Position)), tcell) <= rng:
                return True
    return False


def check(game: Game, ent: int, name: str, board: Board, stage: Stage) -> bool:
    """A check in the style of the Break Check: 1d10 + the Smarts or Strength bonus >= target."""
    spec = rules(game).checks[name]
    r = rules(game)
    sm = r.bonus(smarts(game, ent, board, stage))
    st = r.bonus(strength(game, ent))
    bonus = {"smarts": sm, "strength": st, "best": max(sm, st)}[spec["bonus"]]
    roll = game.roll("1d10", f"{name} check")
    ok = roll + bonus >= int(spec["target"])
    game.log("check", piece=ent, check=name, roll=roll, bonus=bonus, target=spec["target"], success=ok)
    return ok


def side_of(game: Game, ent: int) -> str:
    """Who answers for a piece: its player (a character, or a risen one), else the game master."""
    owner = game.world.try_get(ent, Owner)
    return f"player:{owner.player}" if owner is not None else "gm"


def weapon(game: Game, ent: int) -> dict[str, Any]:
    w: dict[str, Any] = rules(game).melee[game.world.get(ent, Arms).melee]
    return w
