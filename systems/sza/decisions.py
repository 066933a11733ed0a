"""The decisions of Singapore Zombie Apocalypse: who answers each, and the form of its options."""

from typing import Any

from ecs_zombie.decisions import decision_kind
from ecs_zombie.env.spec import action_forms, observation
from ecs_zombie.reading import Reading, option_reader

decision_kind("sza.start_square", "player:N", "cell index (a start square of the map)",
              "Where a character starts a scenario.")
decision_kind("sza.action", "player:N",
              "'verb:arg:...' text, e.g. 'engage:8:run', 'approach:9', 'goto:stairs', 'shoot:12', 'wait'",
              "A character's action this turn (movement, combat, interaction, ability, vehicle).")
decision_kind("sza.melee_target", "player:N", "zombie entity (on the character's square)",
              "Whom an engaged character attacks.")
decision_kind("sza.k9_target", "player:N", "zombie entity", "Whom the K9 unit attacks.")
decision_kind("sza.zombie_target", "gm | player:N", "character entity",
              "Whom a zombie goes for (the game master, or a character's ability).")
decision_kind("sza.spawn_point", "gm", "cell index (a spawn point of the event's list)", "Where a zombie appears.")
decision_kind("sza.event_choice", "party", "the choice's text", "A numbered event's choice, taken by the party.")
decision_kind("sza.rest", "player:N", "'done' | item name", "Resting between scenarios: an item to use, or done.")

# -- for learning agents (ecs_zombie.env; docs/rl.md): each kind's action slots, what a side sees --

CELL = "{int:512}"  # a square by its number (y * width + x; the street map is the larger)
action_forms("sza.start_square", CELL)
action_forms("sza.spawn_point", CELL)
action_forms("sza.event_choice", "{nth:4}")  # the event's choices in the book's order
action_forms("sza.zombie_target", "{entity}")
action_forms("sza.melee_target", "{entity}")
action_forms("sza.k9_target", "{entity}")
action_forms("sza.rest", "done", "{bandage|water}")
action_forms("sza.action", "{attack|bandage|board|break_in|drive|lights|reload|wait|water}",
             "ability:{vocab:sza.abilities}", "ability:{vocab:sza.abilities}:{entity}", "approach:{entity}",
             "engage:{entity}:{run|walk}", "shoot:{entity}", "{fuse|safe|salvage|unlock|window}:" + CELL,
             "give:{vocab:sza.items}:{entity}",
             "goto:{stairs|counter|cabinet|op_cabinet|locked_cabinet|fuse|ceiling|locked_door|safe|vehicle|"
             "safehouse|bush}")

# The characters and zombies on the board, and the stage's public state. The order of the events
# still to come (`SzaStage.order`) is never shown.
observation(
    "sza", rows=32, rows_per_player=8, entities=("Faction",),
    columns=("Faction.side", "Kind.name", "Position.x", "Position.y", "Owner.player", "Owner.player@me",
             "Wounds.taken", "Wounds.limit", "Engaged.opponents", "Markers.tags", "SzaArms.ranged", "SzaArms.rounds",
             "SzaArms.magazines", "SzaInfection.infected", "SzaInfection.turns_left", "SzaCharacter.cls",
             "SzaCharacter.abilities", "SzaCharacter.used", "SzaInventory.items", "SzaAttributes.accuracy",
             "SzaAttributes.strength", "SzaAttributes.morale"),
    scalars=("SzaStage.index", "SzaStage.turn", "SzaStage.event", "SzaStage.event_turns", "SzaStage.supply",
             "SzaStage.flags", "SzaStage.opened", "SzaStage.looted"),
    vocab={"Faction.side": ("survivors", "zombies"), "Kind.name": ("survivor", "zombie", "risen", "campaign"),
           "SzaArms.ranged": ("sar21",),
           "SzaCharacter.cls": ("soldier", "convict", "politician", "paramedic", "firefighter"),
           "SzaStage.event": tuple(str(i) for i in range(1, 13)),
           "sza.abilities": ("table:sza.rules/abilities",),
           "sza.items": ("bandage", "water", "magazine", "key", "documents", "oxygen_canister", "rope")},
    focus=("piece", "zombie"),
    shaping={"scenarios_won": 0.3, "turned": -0.2, "zombies_destroyed": 0.01})

# -- how the options read at the terminal (`ecs-zombie play`) ---------------------------------------

_CELL_ARGS = {"salvage", "unlock", "safe", "fuse", "window"}


def _cell(reading: Reading, cell: int) -> str:
    """A square of the scenario's map by its number: coordinates, room and what stands there."""
    from ecs_zombie.systems.sza.state import board_of, stage_of

    board = board_of(reading.game, stage_of(reading.game)[1])
    x, y = board.xy(cell)
    room = board.rooms.get(board.room_at.get(cell, ""))
    feature = board.feature_at.get(cell)
    where = ", ".join(w for w in (room.title if room else "", (feature or "").replace("_", " ")) if w)
    return reading.square(x, y) + (f" [{where}]" if where else "")


@option_reader("sza.start_square")
def _read_start(reading: Reading, option: Any) -> str | None:
    return _cell(reading, option)


@option_reader("sza.spawn_point")
def _read_spawn(reading: Reading, option: Any) -> str | None:
    return _cell(reading, option)


@option_reader("sza.action")
def _read_action(reading: Reading, option: Any) -> str | None:
    """`'verb:arg:...'`: a zombie or character argument by its name, a square by its place."""
    verb, *args = str(option).split(":")
    if verb in ("approach", "shoot") and len(args) == 1 and args[0].isdigit():
        return f"{verb} {reading.describe(int(args[0]))}"
    if verb == "engage" and len(args) == 2 and args[0].isdigit():
        return f"engage {reading.describe(int(args[0]))} ({args[1]})"
    if verb in _CELL_ARGS and len(args) == 1 and args[0].isdigit():
        return f"{verb} at {_cell(reading, int(args[0]))}"
    if verb == "give" and len(args) == 2 and args[1].isdigit():
        return f"give {args[0].replace('_', ' ')} to {reading.piece(int(args[1]))}"
    if verb == "goto" and len(args) == 1:
        return f"go to the {args[0].replace('_', ' ')}"
    if verb == "ability" and args:
        name = args[0].replace("_", " ")
        if len(args) == 2 and args[1].isdigit():
            return f"ability: {name} on {reading.piece(int(args[1]))}"
        return f"ability: {name}"
    return None
