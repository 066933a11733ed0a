"""The decisions of Escape from Stalingrad Z: who answers each, and the form of its options."""

from typing import Any

from ecs_zombie.decisions import decision_kind
from ecs_zombie.env.spec import action_forms, observation
from ecs_zombie.reading import Reading, option_reader, secret_roll

decision_kind("stalingrad.initiative_order", "player:0", "'first' | 'second'",
              "The player who won initiative takes the first or the second turn.")
decision_kind("stalingrad.activate", "player:0", "character entity (not yet activated)",
              "The next character to activate this player turn.")
decision_kind("stalingrad.mode", "player:0", "'running' | 'walking' | 'stationary' | 'searching'",
              "The activation's declaration (its movement points; searching needs a search square).")
decision_kind("stalingrad.search_square", "player:0", "[x, y] (an unsearched square at or beside the character)",
              "Which square a searching character searches.")
decision_kind("stalingrad.unlock", "player:0", "'try' | 'skip'",
              "A locked character tries the free roll to break the lock.")
decision_kind("stalingrad.action", "player:0",
              "['move', x, y] | ['face', d] | ['open', x, y] | ['close', x, y] | ['pass', item, character] | "
              "['attack', mode, weapon] | ['end']",
              "The next action of the activating character; `estimates` gives the hit # of each attack.")
decision_kind("stalingrad.target", "player:0", "zombie entity (visible, nearest first)", "Whom an attack is aimed at.")
decision_kind("stalingrad.spread_target", "player:0", "zombie entity (within the spread)",
              "Spread fire: the next target the remaining dice shift to.")
decision_kind("stalingrad.grenade_square", "player:0", "[x, y] (a square within throwing range)",
              "Where a grenade is thrown.")
decision_kind("stalingrad.cover", "player:0", "'hold' | 'fire'",
              "A covering character fires at a zombie that moves or appears in its arc, or holds.")
decision_kind("stalingrad.cover_attack", "player:0", "['attack', mode, weapon]", "The weapon a covering shot uses.")
decision_kind("stalingrad.push", "player:0", "[x, y] (a free square beside)",
              "Where a character on a spawning square is pushed.")
decision_kind("stalingrad.zombie_target", "player:0", "character entity (equally near)",
              "A zombie's tie between characters at the same distance (the player settles it).")
decision_kind("stalingrad.lock_target", "player:0", "character entity (adjacent)",
              "Which adjacent character a zombie locks.")
decision_kind("stalingrad.wound_target", "player:0", "character entity (in the line of fire)",
              "Which character a wild shot wounds.")

# -- for learning agents (ecs_zombie.env; docs/rl.md): each kind's action slots, what a side sees --

ATTACK = ("attack", "{grenade|h2h|normal|spread}", "{vocab:stalingrad.weapons}")
action_forms("stalingrad.initiative_order", "{first|second}")
action_forms("stalingrad.activate", "{entity}")
action_forms("stalingrad.mode", "{running|walking|stationary|searching}")
action_forms("stalingrad.search_square", ("{xy:1@character}",))
action_forms("stalingrad.unlock", "{try|skip}")
action_forms("stalingrad.action", ("move", "{xy:12@character}"), ("face", "{int:8}"), ("open", "{xy:1@character}"),
             ("close", "{xy:1@character}"), ("pass", "{vocab:stalingrad.items}", "{entity}"), ATTACK, ("end",))
action_forms("stalingrad.target", "{entity}")
action_forms("stalingrad.spread_target", "{entity}")
action_forms("stalingrad.grenade_square", ("{xy:12@character}",))
action_forms("stalingrad.cover", "{hold|fire}")
action_forms("stalingrad.cover_attack", ATTACK)
action_forms("stalingrad.push", ("{xy:1@character}",))
action_forms("stalingrad.zombie_target", "{entity}")
action_forms("stalingrad.lock_target", "{entity}")
action_forms("stalingrad.wound_target", "{entity}")

# Everything on the map; a face-down zombie's type (and so its hits) is concealed (hidden.py).
observation(
    "stalingrad", rows=96, entities=("Position",),
    columns=("Faction.side", "Kind.name", "Position.x", "Position.y", "Facing.direction", "Wounds.taken",
             "Wounds.limit", "Markers:hidden", "Markers.tags", "Engaged.opponents", "ActivationState.activated",
             "ActivationState.mode", "ActivationState.mp", "ActivationState.covering", "Arsenal.weapons",
             "Arsenal.gear", "DoorState", "DoorState.open", "SearchSpot", "SearchSpot.searched", "AwaitingSpawn"),
    scalars=("StalingradRound.first", "StalingradRound.spawned"),
    vocab={"Faction.side": ("survivors", "zombies"),
           "Kind.name": ("sergeant", "commissar", "sniper", "sapper", "table:stalingrad.zombies"),
           "ActivationState.mode": ("table:stalingrad.movement",), "StalingradRound.first": ("survivors", "zombies"),
           "stalingrad.weapons": ("table:stalingrad.weapons",),
           "stalingrad.items": ("table:stalingrad.weapons", "bandage", "map case")},
    focus=("character", "zombie", "previous"),
    shaping={"characters_escaped": 0.2, "characters_killed": -0.2, "wounds_taken": -0.02, "zombies_killed": 0.01})

# -- how the options read at the terminal (`ecs-zombie play`) ---------------------------------------

_DIRECTIONS = ("north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west")


@option_reader("stalingrad.action")
def _read_action(reading: Reading, option: Any) -> str | None:
    """`['face', d]` as a compass direction (0 is north, clockwise), `['pass', item, character]` with
    the character named, `['attack', mode, weapon]` as words; the rest (squares) as the default."""
    verb, *rest = option
    if verb == "face" and len(rest) == 1:
        return f"face {_DIRECTIONS[rest[0] % 8]}"
    if verb == "pass" and len(rest) == 2:
        return f"pass the {rest[0]} to {reading.piece(rest[1])}"
    if verb == "attack" and len(rest) == 2:
        return f"attack: {rest[0]} fire with the {rest[1]}"
    if verb in ("open", "close") and len(rest) == 2:
        return f"{verb} the door at ({rest[0]}, {rest[1]})"
    return None


@option_reader("stalingrad.cover_attack")
def _read_cover_attack(reading: Reading, option: Any) -> str | None:
    return _read_action(reading, option)


secret_roll("zombie type")  # a new zombie is placed face down: its type stays unseen
