"""The decisions of Night of the Shambling Dead: who answers each, and the form of its options."""

from ecs_zombie.decisions import decision_kind
from ecs_zombie.env.spec import action_forms, observation

decision_kind("shambling.place", "player:N", "'front' | 'support'",
              "Where an undeployed figure stands (Front Line only while under the cap).")
decision_kind("shambling.stance", "player:N", "'stand' | 'counter-charge'",
              "A zone under attack stands and receives, or counter-charges (Front Line only).")
decision_kind("shambling.charger", "player:N", "'done' | survivor entity",
              "The next Front Line figure to counter-charge, or done (at least one charges).")
decision_kind("shambling.charge_target", "player:N", "zombie entity (among the least engaged)",
              "Which zombie a counter-charging figure engages.")
decision_kind("shambling.join", "player:N", "survivor entity",
              "A failed join roll: which unwounded figure left behind must join the charge.")
decision_kind("shambling.assign", "narrator", "survivor entity (among the least engaged)",
              "Which figure a zombie engages (Stand and Receive, or a zombie the chargers left free).")
decision_kind("shambling.wound", "player:N | narrator", "figure entity (eligible to take the wound)",
              "Which figure takes the next wound of a strike (a 6 puts the first on the Hero).")
decision_kind("shambling.re_engage", "player:N | narrator", "'stay' | enemy entity in the figure's zone",
              "A victorious figure engages another enemy in its zone, or stays.")
decision_kind("shambling.pursue", "player:N", "survivor entity (a charger)",
              "A failed pursuit roll: which charger runs off into the night.")
decision_kind("shambling.flee", "player:N", "survivor entity",
              "Dissension: which survivor flees the board.")
decision_kind("shambling.new_hero", "player:N", "true | false",
              "The 10 of Hearts: whether one of the newcomers is a Hero.")
decision_kind("shambling.reorder", "player:N", "'done' | survivor entity",
              "End of turn with the Hero alive: the next figure to move between zones, or done.")

# -- for learning agents (ecs_zombie.env; docs/rl.md): each kind's action slots, what a side sees --

action_forms("shambling.place", "{front|support}")
action_forms("shambling.stance", "{stand|counter-charge}")
action_forms("shambling.charger", "done", "{entity}")
action_forms("shambling.charge_target", "{entity}")
action_forms("shambling.join", "{entity}")
action_forms("shambling.assign", "{entity}")
action_forms("shambling.wound", "{entity}")
action_forms("shambling.re_engage", "stay", "{entity}")
action_forms("shambling.pursue", "{entity}")
action_forms("shambling.flee", "{entity}")
action_forms("shambling.new_hero", "{bool}")
action_forms("shambling.reorder", "done", "{entity}")

# Every figure and board is on the table for everyone; the deck shows only how many cards are left.
observation(
    "shambling", rows=48, rows_per_player=40, entities=("Faction", "Owner"),
    columns=("Faction.side", "Kind.name", "Zone.name", "Zone.board", "Owner.player", "Owner.player@me",
             "Wounds.taken", "Wounds.limit", "Engaged.opponents", "Markers:fallen", "Markers.tags"),
    scalars=("deck:shambling:draw", "deck:shambling:discard"),
    vocab={"Faction.side": ("survivors", "zombies"), "Kind.name": ("survivor", "hero", "zombie", "board"),
           "Zone.name": ("front", "support")},
    focus=("figure", "charger", "zombie"),
    shaping={"survivors_left": 0.02, "zombies_destroyed": 0.01, "boards_standing": 0.1})
