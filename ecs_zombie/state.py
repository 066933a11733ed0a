"""The canonical state of a game: as a value (`game_state`) and as bytes (`state_bytes`).

Both give every entity with its components by registered name, sorted by id and name, and the game's
bookkeeping (seed, tick, RNG streams, scripts, ...) under sorted keys, so equal states give equal
bytes. `state_bytes(game) == canonical.pack(game_state(game))` always holds; it is the cheaper way
there, because replays hash the state after every tick: the record of an entity whose components
are all frozen (a card) is encoded once and its bytes reused until the world reports the entity
changed (`StateRecords`), and the map is assembled from packed parts instead of being packed whole.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from ecs_zombie import canonical
from ecs_zombie.components import by_class
from ecs_zombie.game import Game
from ecs_zombie.world import World

# 2: events carry their system's path; saves record the ruleset's origin, its files' hashes, the
# engine's version and the systems' code fingerprints.
FORMAT_VERSION = 2

Row = list[tuple[str, tuple[Any, ...]]]
Steps = list[tuple[str, type, Any, int]]  # per component: its name, type, field getter, number of fields
Plan = tuple[Steps, bool]
Live = list[tuple[str, Any, Any, int]]  # per component: its name, the component itself, as in `Steps`
_PLANS: dict[tuple[type, ...], Plan] = {}  # see `_plan`
_SCHEMAS: dict[frozenset[type], dict[str, list[str]]] = {}
_LASTING: dict[tuple[int, tuple[Any, ...]], bytes] = {}  # (id, row) -> packed record, across games
_LASTING_MAX = 100_000
_ENTITIES_KEY = canonical.pack("entities")


def game_state(game: Game, policy_state: bool = True) -> dict[str, Any]:
    """The canonical content of a snapshot (keys in sorted order).

    `policy_state=False` leaves out the policies' own random streams and the record of the code
    and files that made the game: that is the state replays hash after every tick, since a replay
    answers decisions from its record rather than from the policies."""
    table = game.world.raw()
    entities = [(ent, _row(table[ent])[0]) for ent in sorted(table)]
    before, after = _bookkeeping(game, policy_state)
    after["schema"] = {name: list(fields) for name, fields in after["schema"].items()}  # the caller's own copy
    return {**before, "entities": entities, **after}


def state_bytes(game: Game, policy_state: bool = True) -> bytes:
    """`canonical.pack(game_state(game, policy_state))`, computed faster (see the module docstring)."""
    entities = _packed_entities(game)
    before, after = _bookkeeping(game, policy_state)
    return b"".join((canonical.map_header(len(before) + 1 + len(after)),
                     canonical.map_pairs(canonical.pack(before), len(before)),
                     _ENTITIES_KEY, entities,
                     canonical.map_pairs(canonical.pack(after), len(after))))


def _row(comps: dict[type, Any], plan: Plan | None = None) -> tuple[Row, bool]:
    """An entity's components as sorted (name, field values) pairs, and whether the record can be
    reused while the components stay the same objects: all frozen, holding only ints, strings and None."""
    if plan is None:
        plan = _plan_of(comps)
    # Tuples pack as msgpack arrays, exactly as lists do: no copies needed.
    row: Row = []
    for name, t, fields, arity in plan[0]:
        values = fields(comps[t])
        row.append((name, values if arity > 1 else (values,) if arity else ()))
    # Only exact ints, strings and None: equal values then pack to equal bytes (True == 1 == 1.0 do not).
    lasting = plan[1] and all(v is None or type(v) is int or type(v) is str for _name, values in row for v in values)
    return row, lasting


def _plan_of(comps: dict[type, Any]) -> Plan:
    types = tuple(comps)
    plan = _PLANS.get(types)
    if plan is None:
        plan = _PLANS[types] = _plan(types)
    return plan


def _plan(types: tuple[type, ...]) -> Plan:
    """How to encode an entity with components of `types` (in that order in its record): each one's
    registered name, type, field getter and number of fields, sorted by name; and whether all of
    them are frozen."""
    found = []
    for t in types:
        ctype = by_class(t)
        found.append((ctype.name, t, attrgetter(*ctype.fields) if ctype.fields else _nothing, len(ctype.fields)))
    found.sort(key=lambda step: step[0])
    return found, all(t.__dataclass_params__.frozen for t in types)  # type: ignore[attr-defined]


def _nothing(component: Any) -> None:
    return None


def _packed_entities(game: Game) -> bytes:
    """The packed array of (id, row) records: the kept parts of `StateRecords` in id order, with the
    records of entities read afresh (mutable components) packed a run at a time in one call: a
    packed array is its header and then its items' bytes, so the run's bytes less its header are the
    records' bytes in order."""
    world = game.world
    table = world.raw()
    records = game.state_records
    if records is None or records.world is not world:
        records = game.state_records = StateRecords(world)
    records.refresh(table)
    parts = [canonical.array_header(len(table))]
    run: list[tuple[int, Row]] = []
    for block in records.order:
        for part in records.blocks[block]:
            if type(part) is tuple:  # an entity read afresh: its id and its components to read
                ent, live = part
                run.append((ent, [(name, fields(comp) if arity > 1 else (fields(comp),) if arity else ())
                                  for name, comp, fields, arity in live]))
            else:
                if run:
                    parts.append(_packed_run(run))
                    run = []
                parts.append(part)  # type: ignore[arg-type]
    if run:
        parts.append(_packed_run(run))
    return b"".join(parts)


class StateRecords:
    """What `state_bytes` keeps of one game between calls, so that a tick's state costs what changed.

    The record of an entity whose components are all frozen and hold only plain values (a card) is
    packed once and kept until the world reports the entity changed (`World.changes`: created,
    deleted, a component added, removed or replaced); the others (mutable components, changed in
    place unseen) are read afresh every time. Entities are grouped in blocks of 32 ids, each holding
    its kept records joined and the ids read afresh, in order: a tick re-lays only the blocks where
    something came, went or was replaced, and joins the rest as they are. A lasting record is also
    kept across games by value (`_LASTING`): every game of a scenario deals the same cards under the
    same ids, so a new game's first state packs none of them again."""

    __slots__ = ("blocks", "kept", "order", "world")

    def __init__(self, world: World, like: StateRecords | None = None) -> None:
        """Records for `world`, empty (everything in it new to this encoder), or a copy of `like`,
        the records of a world `world` is a copy of (`World.fork`): the kept records are the same values
        and the changes it has not seen yet are carried over; its entities read afresh are new here,
        since `world` holds copies of their components, not these."""
        self.world = world
        # entity -> its kept record, or its components to read afresh, as `_plan` orders them (the
        # objects themselves: one replaced is a change the world reports)
        self.kept: dict[int, bytes | Live] = {} if like is None else dict(like.kept)
        # block -> joined kept records and (id, live components) of those read afresh, in id order
        self.blocks: dict[int, list[bytes | tuple[int, Live]]] = {} if like is None else dict(like.blocks)
        self.order: list[int] = [] if like is None else list(like.order)  # the blocks, sorted
        if like is None:
            world.changes = set(world.raw())
        else:
            changes = set(like.world.changes or ())
            changes.update(ent for ent, record in like.kept.items() if type(record) is not bytes)
            world.changes = changes

    def refresh(self, table: dict[int, dict[type, Any]]) -> None:
        """Take in the entities changed since the last call."""
        changes = self.world.changes
        if not changes:
            return
        kept = self.kept
        stale = set()
        for ent in changes:
            comps = table.get(ent)
            if comps is None:
                kept.pop(ent, None)
            else:
                kept[ent] = _lasting_record(ent, comps)
            stale.add(ent >> 5)
        changes.clear()
        blocks = self.blocks
        reordered = False
        for block in stale:
            parts: list[bytes | tuple[int, Live]] = []
            joined: list[bytes] = []
            for ent in range(block << 5, (block + 1) << 5):
                if ent in kept:
                    record = kept[ent]
                    if type(record) is bytes:
                        joined.append(record)
                    else:
                        if joined:
                            parts.append(b"".join(joined))
                            joined = []
                        parts.append((ent, record))  # type: ignore[arg-type]
            if joined:
                parts.append(b"".join(joined))
            if parts:
                reordered = reordered or block not in blocks
                blocks[block] = parts
            elif blocks.pop(block, None) is not None:
                reordered = True
        if reordered:
            self.order = sorted(blocks)


def _lasting_record(ent: int, comps: dict[type, Any]) -> bytes | Live:
    """The packed record of an entity that can be kept (see `_row`), else its components to read."""
    plan = _plan_of(comps)
    if plan[1]:  # all frozen (an entity with a mutable component is read every time, unbuilt here)
        row, lasting = _row(comps, plan)
        if lasting:
            key = (ent, tuple(row))  # plain values only: hashed and compared in C
            kept = _LASTING.get(key)
            if kept is None:
                if len(_LASTING) >= _LASTING_MAX:
                    _LASTING.clear()
                kept = _LASTING[key] = canonical.pack((ent, row))
            return kept
    return [(name, comps[t], fields, arity) for name, t, fields, arity in plan[0]]


def _packed_run(records: list[tuple[int, Row]]) -> bytes:
    """The packed bytes of `records`, one after the other (an array of them, less its header)."""
    return canonical.pack(records)[len(canonical.array_header(len(records))):]


def _bookkeeping(game: Game, policy_state: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    """Everything but the entities, split at "entities" in key order (keys sorted within each)."""
    before = {
        "card_script": list(game.card_script),
        "dice_script": game.dice_script.values[game.dice_script.pos:],
    }
    after = {
        "format": "ecs-zombie/snapshot",
        "log_pos": game.log_pos,
        "next_entity": game.world.next_id,
        "outcome": game.outcome,
        "over": game.over,
        "params": {k: game.params[k] for k in sorted(game.params)},
        "players": game.players,
        "policy": game.policy_spec,
        "policy_rng": game.rng.get_state(policy=True) if policy_state else {},
        "rng": game.rng.get_state(),
        "ruleset": game.ruleset.id,
        "ruleset_hash": game.ruleset.content_hash,
        "ruleset_origin": game.ruleset.origin.as_dict(),
        "scenario": game.scenario,
        "schema": _schema(game.world.component_types()),
        "seed": game.seed,
        "tables": {k: game.table_overrides[k] for k in sorted(game.table_overrides)},
        "tick": game.tick,
        "version": FORMAT_VERSION,
    }
    if policy_state:
        after.update(_provenance(game))
        after = {k: after[k] for k in sorted(after)}
    return before, after


def _provenance(game: Game) -> dict[str, Any]:
    """What saves record besides the state: the ruleset's files and the code (see `provenance`)."""
    from ecs_zombie.provenance import stamp

    return {"provenance": stamp(game.ruleset), "ruleset_files": dict(game.ruleset.files)}


def _schema(used: frozenset[type]) -> dict[str, list[str]]:
    """Component name -> field names, for the component types a state holds (shared: read only)."""
    found = _SCHEMAS.get(used)
    if found is None:
        types = sorted((by_class(t) for t in used), key=lambda ct: ct.name)
        found = _SCHEMAS[used] = {ct.name: list(ct.fields) for ct in types}
    return found
