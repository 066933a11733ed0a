"""The bounds every input is held to, in one place: what saves can hold, what a table and a
scenario may ask for, and how much YAML a file may expand to.

Each is generous for any game the rule texts describe and small enough that whatever passes
`validate` plays in seconds and bounded memory; an input beyond one is refused with its name.
"""

from __future__ import annotations

# Seeds: what a save holds (msgpack's unsigned 64-bit integers).
SEED_MIN, SEED_MAX = 0, 2**64 - 1
# Seats at one table: `--players`, a scenario's `players:` and a save's players.
MAX_PLAYERS = 8
# A ruleset's `max_ticks`, and the tick a save may be at.
MAX_TICKS = 10_000
# A scenario entry's `count`, and every entity a scenario places for all its players together.
MAX_COUNT = 1_000
MAX_SCENARIO_ENTITIES = 10_000
# A number a table or a system parameter gives (dice in a pool, cards of a face, hexes, movement
# points, zombies a step brings), either way; a board or a deck is at most this many wide or long.
MAX_TABLE_NUMBER = 1_000
# Dice scripts: values a die can show (the largest die has this many sides), and entries given.
MAX_DIE = 1_000  # = ecs_zombie.dice.MAX_SIDES
MAX_SCRIPT = 100_000

# YAML: the file's size, how deep mappings and lists may nest, how many aliases it may use, and how
# many values it may hold once every alias is expanded (a few kilobytes of nested aliases would
# otherwise expand to gigabytes).
MAX_YAML_BYTES = 1024 * 1024
MAX_YAML_DEPTH = 32
MAX_YAML_ALIASES = 1_000
MAX_YAML_VALUES = 20_000
# A whole number in YAML: what a 64-bit signed integer holds.
YAML_INT_MIN, YAML_INT_MAX = -(2**63), 2**63 - 1
