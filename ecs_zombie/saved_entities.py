"""A saved state's entities, decoded against the registered components: built for a load
(`read_entities`), or only checked (`check_entities`: a replay's tick states).

Both check the same things, in the same words: the entity ids rise and stay below the next id; no
entity lists a component twice; fields typed `Any` hold plain values; fields of entity ids name
entities of the state with the component they ask for; and, given `required` (per kind of piece,
the components it always holds: `loading.kind_components`), each piece holds its kind's.

Loading is hot (a 10,000-entity save holds 70,000 components) and so is checking a replay, whose
tick states repeat most of their records from one tick to the next: a record's own checks are done
once per replay and kept by its bytes, and only what depends on the whole state (ids rising,
references) is checked for every state.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from types import GenericAlias
from typing import TYPE_CHECKING, Annotated, Any, Union

import msgpack
import msgspec

from ecs_zombie.components import Kind, by_class, by_name, registered_components
from ecs_zombie.errors import SaveError
from ecs_zombie.fields import EntityId, describe, field_types, ids_in, plain_value, row_type

if TYPE_CHECKING:
    from ecs_zombie.loading import SavedState

Classes = tuple[tuple[str, type], ...]


@dataclass(frozen=True, slots=True)
class _Kind:
    """What loading does with one component type: build it, and look into the fields that need it."""

    name: str
    cls: type
    loose: tuple[tuple[int, Any], ...]  # fields holding `Any`
    ids: tuple[tuple[int, Any], ...]  # fields holding entity ids
    shared: bool  # frozen, every field a number, text or flag: equal values may share one instance


@dataclass(frozen=True, slots=True)
class _Schema:
    """The decoders of one schema's entities (all of them; one record), and each row type's `_Kind`."""

    entities: msgspec.msgpack.Decoder[Any]
    record: msgspec.msgpack.Decoder[Any]
    kinds: dict[type, _Kind]


# A checked record: its entity id, its component types, and its references (kind, field, the ids).
Record = tuple[int, frozenset[type], tuple[tuple[_Kind, Any, Any], ...]]

_SCALARS = (int, str, bool, float)
_SCHEMAS: dict[Classes, _Schema] = {}
_RAWS = msgspec.msgpack.Decoder(list[msgspec.Raw])


def _shareable(cls: type, fields: tuple[Any, ...]) -> bool:
    """Frozen, each field a plain scalar, bounded (`Annotated[int, ...]`, whose origin is int) or one
    of a few values (`Literal[...]`): equal values may then be one instance, unseen."""
    params = getattr(cls, "__dataclass_params__", None)
    return bool(params is not None and params.frozen) and all(
        f.type in _SCALARS or getattr(f.type, "__origin__", None) in _SCALARS or
        str(f.type).startswith("typing.Literal[") for f in fields)


def _classes(state: SavedState, bad: str) -> Classes:
    """The state's schema as (name, class) pairs in name order, each checked against the registry."""
    schema = state.schema
    classes: list[tuple[str, type]] = []
    for cname in sorted(schema):
        ctype = by_name(cname)
        if ctype is None:
            raise SaveError(f"{bad}: it uses an unknown component {cname!r}")
        if tuple(schema[cname]) != ctype.fields:
            raise SaveError(f"{bad}: it gives component {cname} the fields {', '.join(schema[cname]) or 'none'}, "
                            f"this ecs-zombie {', '.join(ctype.fields) or 'none'}")
        classes.append((cname, ctype.cls))
    return tuple(classes)


def _schema(classes: Classes) -> _Schema:
    """The decoders of a schema's entities (cached per schema: a replay's states share them)."""
    found = _SCHEMAS.get(classes)
    if found is None:
        rows = tuple(row_type(cname) for cname, _cls in classes)
        row: Any = rows[0] if len(rows) == 1 else Union[rows] if rows else Annotated[  # noqa: UP007
            list[Any], msgspec.Meta(max_length=0)]
        kinds = {}
        for (cname, cls), struct in zip(classes, rows, strict=True):
            fields = field_types(cls)
            kinds[struct] = _Kind(cname, cls, tuple((i, f) for i, f in enumerate(fields) if f.loose),
                                  tuple((i, f) for i, f in enumerate(fields) if f.ids is not None),
                                  _shareable(cls, fields))
        # Built as runtime values (the compiled build reads `list[x]` of a variable as a type).
        record = GenericAlias(tuple, (EntityId, GenericAlias(list, (row,))))
        found = _SCHEMAS[classes] = _Schema(msgspec.msgpack.Decoder(GenericAlias(list, (record,))),
                                            msgspec.msgpack.Decoder(record), kinds)
    return found


def _interning(cls: type) -> Callable[..., Any]:
    """`cls(*values)`, made once per distinct values (for one load: frozen components of plain values)."""
    pool: dict[tuple[Any, ...], Any] = {}

    def make(*values: Any) -> Any:
        found = pool.get(values)
        if found is None:
            found = pool[values] = cls(*values)
        return found

    return make


def _twice(bad: str, ent: int) -> SaveError:
    return SaveError(f"{bad}: entity {ent} lists a component twice")


def _lacking(bad: str, ent: int, piece: str, need: frozenset[type], held: Collection[type]) -> SaveError:
    names = ", ".join(sorted(by_class(c).name for c in need - set(held)))
    return SaveError(f"{bad}: entity {ent} is a {piece} without {names}, which every {piece} holds")


def _not_plain(bad: str, ent: int, kind: _Kind, field: Any) -> SaveError:
    return SaveError(f"{bad}: entity {ent} {kind.name}.{field.name} holds a value no component holds")


@dataclass(frozen=True, slots=True)
class _Plan:
    """How one load builds an entity whose rows come in these types: most entities of a state share
    a few layouts (every zombie alike), so what depends on the layout alone is worked out once."""

    rows: tuple[tuple[type, Callable[..., Any]], ...]  # per row: its component's class and maker
    held: frozenset[type]
    looks: tuple[_Kind, ...]  # its components with fields to look into (any value, entity ids)
    members: list[int]  # the entities of this layout, as they are read
    kinds: set[str]  # the kinds of piece (`Kind.name`) already held to their components in this layout


@dataclass(frozen=True, slots=True)
class SavedEntities:
    """A state's entities, built (`read_entities`): each entity's components by class, in the saved
    order, and which entities hold each class, as the world files them (`World.load`)."""

    tables: list[tuple[int, dict[type, Any]]]
    holders: dict[type, set[int]]


def read_entities(state: SavedState, bad: str,
                  required: dict[str, frozenset[type]] | None = None) -> SavedEntities:
    """The entities of a state built from its content, decoded against its schema and the registered
    component types (load the state's ruleset first: it registers them). Every list and mapping in
    them was made by the decoding: they share nothing with anything. A frozen component of plain
    values is made once per distinct value and shared, as the world's own copies share it. With
    `required` (`kind_components`), each piece is held to its kind as it is made.

    This is the hot loop of every load: an entity's layout (its rows' types) is looked up once in
    the plans of this load, its components built in one comprehension, and only the components that
    need a closer look (a `Kind`, a field of entity ids or of any value) are looked into."""
    schema = _schema(_classes(state, bad))
    try:
        decoded = schema.entities.decode(state.entities)
    except msgspec.ValidationError as exc:
        raise SaveError(f"{bad}: {_entity_problem(state, exc)}") from None
    except msgspec.DecodeError:
        raise SaveError(f"{bad}: its entities are not msgpack") from None
    kinds = schema.kinds
    make = {struct: _interning(kind.cls) if kind.shared else kind.cls for struct, kind in kinds.items()}
    plans: dict[tuple[type, ...], _Plan] = {}
    tables: list[tuple[int, dict[type, Any]]] = []
    refs: list[tuple[int, _Kind, Any, Any]] = []
    last = 0
    for ent, rows_of in decoded:
        if ent <= last:
            raise SaveError(f"{bad}: entity {ent} comes after entity {last} (ids rise)")
        last = ent
        layout = tuple(map(type, rows_of))
        plan = plans.get(layout)
        if plan is None:
            plan = plans[layout] = _plan(layout, kinds, make)
        if len(plan.held) != len(layout):
            raise _twice(bad, ent)
        table = {t: m(*r.values) for (t, m), r in zip(plan.rows, rows_of)}  # noqa: B905 (same length)
        plan.members.append(ent)
        if required is not None and Kind in plan.held:
            piece = table[Kind].name
            if piece not in plan.kinds:  # the same kind in the same layout holds or lacks the same
                need = required.get(piece)
                if need and not need <= plan.held:
                    raise _lacking(bad, ent, piece, need, plan.held)
                plan.kinds.add(piece)
        for kind in plan.looks:
            comp = table[kind.cls]
            for _i, f in kind.loose:
                if not plain_value(getattr(comp, f.name)):
                    raise _not_plain(bad, ent, kind, f)
            for _i, f in kind.ids:
                value = getattr(comp, f.name)
                if value:  # an empty list names no entity
                    refs.append((ent, kind, f, value))
        tables.append((ent, table))
    if last >= state.next_entity:
        raise SaveError(f"{bad}: entity {last} is not below the next entity id {state.next_entity}")
    if refs:
        _check_references({ent: plan.held for plan in plans.values() for ent in plan.members}, refs, bad)
    holders: dict[type, set[int]] = {}
    for plan in plans.values():
        for t, _make in plan.rows:
            holders.setdefault(t, set()).update(plan.members)
    return SavedEntities(tables, holders)


def _plan(layout: tuple[type, ...], kinds: dict[type, _Kind], make: dict[type, Callable[..., Any]]) -> _Plan:
    rows = [kinds[struct] for struct in layout]
    return _Plan(tuple((kind.cls, make[struct]) for kind, struct in zip(rows, layout, strict=True)),
                 frozenset(kind.cls for kind in rows), tuple(kind for kind in rows if kind.loose or kind.ids), [],
                 set())


def check_entities(state: SavedState, bad: str, required: dict[str, frozenset[type]],
                   seen: dict[Classes, dict[bytes, Record]]) -> None:
    """What `read_entities` checks, without building anything. Each record's own checks are kept in
    `seen` by its bytes (pass the same mapping for every state of one replay: its states repeat
    most records), so that only ids rising and references are checked for every state. A state
    that fails is read again by `read_entities`, for the same words."""
    classes = _classes(state, bad)
    schema = _schema(classes)
    checked = seen.setdefault(classes, {})
    try:
        raws = _RAWS.decode(state.entities)
        records = []
        for raw in raws:
            key = bytes(raw)
            record = checked.get(key)
            if record is None:
                record = checked[key] = _check_record(schema, key, bad, required)
            records.append(record)
    except (msgspec.ValidationError, msgspec.DecodeError):
        read_entities(state, bad, required)  # says where, as a load would
        raise SaveError(f"{bad}: its entities are not msgpack") from None
    last = 0
    types_of: dict[int, frozenset[type]] = {}
    for ent, held, _links in records:
        if ent <= last:
            raise SaveError(f"{bad}: entity {ent} comes after entity {last} (ids rise)")
        last = ent
        types_of[ent] = held
    if last >= state.next_entity:
        raise SaveError(f"{bad}: entity {last} is not below the next entity id {state.next_entity}")
    known = registered_components()
    for ent, _held, links in records:
        for kind, f, ids in links:
            needed = known.get(f.ids) if f.ids else None
            for ref in ids:
                found = types_of.get(ref)
                if found is None or (needed is not None and needed not in found):
                    _check_references(types_of, [(ent, kind, f, list(ids))], bad)


def _check_record(schema: _Schema, data: bytes, bad: str, required: dict[str, frozenset[type]]) -> Record:
    """One entity's record checked on its own: its components' types, each once, its piece's kind,
    plain values where any value goes; and its references, for the state to check."""
    ent, rows = schema.record.decode(data)
    kinds = [schema.kinds[type(r)] for r in rows]
    held = frozenset(kind.cls for kind in kinds)
    if len(held) != len(rows):
        raise _twice(bad, ent)
    links = []
    for kind, r in zip(kinds, rows, strict=True):
        values = r.values
        if kind.cls is Kind:
            need = required.get(values[0])
            if need and not need <= held:
                raise _lacking(bad, ent, values[0], need, held)
        for i, f in kind.loose:
            if not plain_value(values[i]):
                raise _not_plain(bad, ent, kind, f)
        for i, f in kind.ids:
            if values[i]:
                links.append((kind, f, tuple(ids_in(values[i]))))
    return ent, held, tuple(links)


def _check_references(types_of: Mapping[int, Collection[type]], refs: list[tuple[int, _Kind, Any, Any]],
                      bad: str) -> None:
    """Every field holding entity ids names an entity of the state, with the component it asks for."""
    known = registered_components()
    for ent, kind, f, value in refs:
        needed = known.get(f.ids) if f.ids else None
        for ref in ids_in(value):
            found = types_of.get(ref)
            if found is None:
                raise SaveError(f"{bad}: entity {ent} {kind.name}.{f.name} names entity {ref}, which the save "
                                f"does not hold")
            if needed is not None and needed not in found:
                raise SaveError(f"{bad}: entity {ent} {kind.name}.{f.name} names entity {ref}, which has no {f.ids}")


def _entity_problem(state: SavedState, exc: Exception) -> str:
    """Where in the entities a type error is, in the save's own words: entity, component and field."""
    message = describe(exc)
    text = str(exc)
    path = text.rpartition(" - at `$")[2].rstrip("`")
    steps = [int(p) for p in path.replace("]", "").split("[")[1:] if p.lstrip("-").isdigit()]
    try:
        raw = msgpack.unpackb(state.entities, raw=False, strict_map_key=False)
        where = []
        if steps:
            ent = raw[steps[0]]
            where.append(f"entity {ent[0]!r}" if isinstance(ent, list | tuple) and ent else f"entity #{steps[0]}")
            if len(steps) >= 3 and steps[1] == 1:
                comp = ent[1][steps[2]]
                cname = comp[0] if isinstance(comp, list | tuple) and comp and isinstance(comp[0], str) else "?"
                if len(steps) >= 4 and steps[3] == 0:
                    return f"{where[0]}: component {cname!r} is not in the save's schema" if cname not in \
                        state.schema else f"{where[0]}: component {cname!r}: {message.split(' (at')[0]}"
                if len(steps) >= 5 and steps[3] == 1 and cname in state.schema and steps[4] < len(state.schema[cname]):
                    where.append(f"{cname}.{state.schema[cname][steps[4]]}")
                else:
                    where.append(f"component {cname}")
        return f"{' '.join(where)}: {message.split(' (at')[0]}" if where else message
    except Exception:
        return message
