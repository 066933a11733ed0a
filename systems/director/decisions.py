"""The decisions of the Director game: who answers each, and the form of its options."""

from ecs_zombie.decisions import decision_kind
from ecs_zombie.env.spec import action_forms, observation

decision_kind("director.suppress", "player:N", "'done' | card entity (an attack card in hand)",
              "Suppressing fire against the director's horde: the next card to play, or done.")
decision_kind("director.stack", "player:N", "[q, r] (a hex of the tile)", "Where a stack of zombies goes.")
decision_kind("director.move", "player:N", "[q, r] (a reachable hex)", "Where an unpinned survivor moves.")
decision_kind("director.pickup", "player:N", "'leave' | 'take' | 'swap'",
              "Whether a survivor picks up an item found (swap: for the one held in its slot).")
decision_kind("director.equip", "player:N", "'keep' | 'equip'", "Whether a found gun replaces the one in hand.")
decision_kind("director.action", "player:N",
              "'none' | 'shoot' | 'reload' | 'swap:<weapon or item>' | 'melee' | 'use' | 'revive'",
              "A survivor's action this round.")
decision_kind("director.target", "player:N", "zombie entity (in range and line of sight)", "Whom a shot is aimed at.")
decision_kind("director.card", "player:N", "'done' | card entity (an attack card in hand)",
              "The next attack card to play on a shot, or done.")
decision_kind("director.melee", "player:N", "[zombie entity, ...] (adjacent zombies to shove)",
              "Which adjacent zombies a melee shoves.")
decision_kind("director.revive", "player:N", "survivor entity (downed, adjacent)", "Whom a survivor revives.")
decision_kind("director.item_target", "player:N", "survivor entity (healing) | [q, r] (a thrown item's hex)",
              "Whom a healing item is used on, or where a thrown one lands.")

# -- for learning agents (ecs_zombie.env; docs/rl.md): each kind's action slots, what a side sees --

CARD = "{card:director.attack}"  # an attack card in hand, by its face (equal faces play alike)
action_forms("director.suppress", "{done|blind}", CARD)
# The nearest free hexes of a full spawn hex: usually beside it, farther when the tile is crowded.
action_forms("director.stack", ("{hex:16@hex}",))
action_forms("director.move", ("{hex:8@survivor}",))
action_forms("director.pickup", "{leave|take|swap}")
action_forms("director.equip", "{keep|equip}")
action_forms("director.action", "{none|shoot|reload|melee|use|revive}", "swap:{vocab:director.gear}")
action_forms("director.target", "{entity}")
action_forms("director.card", "{done|blind}", CARD)
action_forms("director.melee", "{entities:2}")
action_forms("director.revive", "{entity}")
action_forms("director.item_target", "{entity}", ("{hex:8@survivor}",))

# The figures on the map and the director's public state; the director's hand and draw pile show
# only their sizes.
observation(
    "director", rows=64, rows_per_player=24, entities=("Position",),
    columns=("Faction.side", "Kind.name", "Position.x", "Position.y", "Owner.player", "Owner.player@me",
             "Wounds.taken", "Wounds.limit", "Markers.tags", "Intensity.value", "Loadout.hand", "Loadout.items",
             "Loadout.weapons", "AttackHand.cards", "HeldBy", "HeldBy.by", "FloorItem.name", "StatusTimers.left"),
    scalars=("PacerState.mode", "DirectorState.horde", "DirectorState.suppress", "DirectorState.tiles_placed",
             "DirectorState.spawned", "DirectorState.hand", "DirectorState.specials", "deck:director:draw",
             "deck:tiles:draw"),
    vocab={"Faction.side": ("survivors", "zombies"), "Kind.name": ("survivor", "zombie", "item", "director"),
           "Loadout.hand": ("pistol", "table:director.items"), "HeldBy.by": ("table:director.specials",),
           "FloorItem.name": ("table:director.items",),
           "PacerState.mode": ("build_up", "sustain_peak", "peak_fade", "relax"),
           "director.attack": ("P1", "P2", "P3", "PMISS", "R1", "R2", "R3", "RMISS", "S1", "S2", "S3", "SMISS"),
           "director.gear": ("pistol", "table:director.items")},
    focus=("survivor",),
    shaping={"survivors_up": 0.05, "in_safe_room": 0.2, "zombies_killed": 0.005, "damage_taken": -0.01})
