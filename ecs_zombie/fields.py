"""What each field of a registered component may hold, as a type checked by msgspec.

A field's type is its annotation (`int`, `str`, `bool`, `float`, `list[...]`, `dict[str, ...]`,
`Any`), narrowed by the field's metadata (`within`, `one_of`, `points`, `entity_ids`: see
`ecs_zombie.components`); every whole number fits 64 bits, as saves hold it, and an entity id is
1 or more. The same type checks a value whether it comes from a prefab or scenario file
(`problem`) or from a save, whose entities are decoded straight into these types (`row_type`):
one rule for a value, wherever it comes from.

Components registered by a game's package whose class cannot carry `entity_ids()` metadata are
declared here by name (`declare_ids`); each game's own component module is the better home for
that, as metadata on the field.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import msgspec

from ecs_zombie.components import by_class, by_name, declare_ids, id_fields

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
Int64 = Annotated[int, msgspec.Meta(ge=INT64_MIN, le=INT64_MAX)]
EntityId = Annotated[int, msgspec.Meta(ge=1, le=INT64_MAX)]

# Entity ids held by the games' own components (see the module docstring).
declare_ids("SzaVehicle", passengers="")
declare_ids("AttackHand", cards="Card")
declare_ids("DirectorState", hand="Card", lurking="Card", pile="")


@dataclass(frozen=True, slots=True)
class FieldType:
    """A component field: its name, the msgspec type its values must fit, and, when it holds
    entity ids, the component those entities must have ("" for any)."""

    name: str
    type: Any
    ids: str | None
    loose: bool = False  # somewhere in it, `Any`: what is there is checked by `plain_value`


_FIELDS: dict[type, tuple[FieldType, ...]] = {}
_ROWS: dict[str, Any] = {}


def field_types(cls: type) -> tuple[FieldType, ...]:
    """The checked type of each field of a component class, in field order."""
    found = _FIELDS.get(cls)
    if found is None:
        try:
            hints = typing.get_type_hints(cls)
        except Exception:  # an annotation that names something unimportable: nothing to narrow by
            hints = {}
        try:
            declared = id_fields(by_class(cls).name)
        except KeyError:  # not registered: nothing declared
            declared = {}
        out = []
        for f in dataclasses.fields(cls):
            ids = declared.get(f.name)
            kind = _narrow(_of(hints.get(f.name, Any), ids is not None), f.metadata)
            out.append(FieldType(f.name, kind, ids, "Any" in repr(kind)))
        found = _FIELDS[cls] = tuple(out)
    return found


def _of(hint: Any, ids: bool) -> Any:
    """The msgspec type of an annotation: whole numbers in 64 bits (entity ids from 1 when `ids`)."""
    origin = typing.get_origin(hint)
    if hint is int:
        return EntityId if ids else Int64
    if hint in (str, bool, float) or hint is Any:
        return hint
    if origin is list:
        (item,) = typing.get_args(hint) or (Any,)
        return list[_of(item, ids)]  # type: ignore[misc]
    if origin is dict:
        key, value = typing.get_args(hint) or (str, Any)
        return dict[key, _of(value, ids)]  # type: ignore[misc,valid-type]
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        return typing.Union[tuple(_of(a, ids) for a in typing.get_args(hint))]  # noqa: UP007
    if hint is type(None):
        return None
    return Any


def _narrow(kind: Any, meta: Any) -> Any:
    if "points" in meta:
        n = meta["points"]
        return list[Annotated[list[Int64], msgspec.Meta(min_length=n, max_length=n)]]  # type: ignore[valid-type]
    if "one_of" in meta:
        return Literal[meta["one_of"]]  # type: ignore[misc]
    if "within" in meta:
        lo, hi = meta["within"]
        return Annotated[int, msgspec.Meta(ge=lo, le=hi)]
    return kind


def problem(cls: type, name: str, value: Any) -> str | None:
    """Why `value` cannot be field `name` of component `cls`, in a line (None when it can)."""
    for f in field_types(cls):
        if f.name == name:
            if f.loose and not plain_value(value):
                return f"takes {type_text(f.type)}, got {_short(value)}"
            try:
                msgspec.convert(value, f.type, strict=True)
            except msgspec.ValidationError as exc:
                detail = describe(exc)
                return f"takes {type_text(f.type)}, got {_short(value)}" + (
                    f" ({detail})" if "(at " in detail else "")
            return None
    return f"has no field {name!r}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def type_text(kind: Any) -> str:
    """A field's type in a few words: `int`, `int 0..7`, `list[str]`, `one of 'square', 'hex'`."""
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if origin is Annotated:
        base, *metas = args
        for meta in metas:
            if isinstance(meta, msgspec.Meta) and meta.min_length is not None and meta.min_length == meta.max_length:
                return f"{type_text(base)} of {meta.min_length}"
            if isinstance(meta, msgspec.Meta) and meta.ge is not None and meta.le is not None and (
                    meta.ge, meta.le) != (INT64_MIN, INT64_MAX):
                return f"{type_text(base)} {meta.ge}..{meta.le}" if meta.ge != 1 or meta.le != INT64_MAX else \
                    "an entity id"
        return type_text(base)
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in args)
    if origin in (list, dict):
        return f"{origin.__name__}[{', '.join(type_text(a) for a in args)}]"
    if kind is Any:
        return "any plain value"
    return getattr(kind, "__name__", str(kind))


def describe(exc: Exception) -> str:
    """msgspec's message in the project's words: `Expected int, got str (at [0])`."""
    text = str(exc).replace("`", "")
    message, sep, where = text.partition(" - at ")
    where = where.removeprefix("$")
    return f"{message} (at {where})" if sep and where else message


def row_type(name: str) -> Any:
    """The type of one component of an entity in a save, `[name, [value, ...]]`: a tagged, array-like
    struct whose one field holds the component's values in field order, each of its field's type."""
    found = _ROWS.get(name)
    ctype = by_name(name)
    if found is None or ctype is None or found[0] is not ctype.cls:
        if ctype is None:
            raise KeyError(name)
        types = tuple(f.type for f in field_types(ctype.cls))
        values = tuple[types] if types else tuple[()]  # type: ignore[valid-type]
        # Untracked by the cyclic collector (`gc=False`): a row only carries decoded values into a
        # component and is dropped, so it is never part of a cycle.
        struct = msgspec.defstruct(f"Saved{name}", [("values", values)], array_like=True, tag=name,
                                   forbid_unknown_fields=True, gc=False)
        found = _ROWS[name] = (ctype.cls, struct)
    return found[1]


def plain_value(value: Any, depth: int = 0) -> bool:
    """Whether a value holds only what a component may (None, bool, whole numbers in 64 bits, finite
    numbers, text, lists, mappings by text), nested at most 32 deep: what `Any` leaves unchecked."""
    if value is None or type(value) in (bool, str):
        return True
    if type(value) is int:
        return INT64_MIN <= value <= INT64_MAX
    if type(value) is float:
        return value == value and value not in (float("inf"), float("-inf"))
    if depth >= 32:
        return False
    if type(value) is list:
        return all(plain_value(v, depth + 1) for v in value)
    if type(value) is dict:
        return all(type(k) is str and plain_value(v, depth + 1) for k, v in value.items())
    return False


def ids_in(value: Any) -> Iterator[int]:
    """Every whole number in a field's value (its entity ids, for a field that holds them)."""
    if type(value) is int:
        yield value
    elif isinstance(value, list):
        for v in value:
            if type(v) is int:  # a flat list of ids (a deck's cards) needs no recursion
                yield v
            else:
                yield from ids_in(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from ids_in(v)
