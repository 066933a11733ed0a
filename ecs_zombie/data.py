"""Reading YAML safely, keeping the line of every mapping and key for error messages.

Every mapping loads as a `YMap` (a dict that also knows its file and the line of each key), so a
validator can say `prefabs/rulesets/shambling.yaml:14: phases[1].systems[0]: unknown system`.
Only `yaml.SafeLoader` is used: no tag can construct a Python object.

What a file may hold is bounded before anything is built from it (`ecs_zombie.limits`): its size,
how deep it nests and how many aliases it uses as it is read, and how many values it holds once
every alias is expanded, counted on the parsed nodes (where an alias is one shared node), so a few
hundred bytes of nested aliases are refused at once instead of expanding to gigabytes. Only what
JSON holds is read: dates, binary, sets and ordered maps, whole numbers beyond 64 bits, infinities
and NaN, and text with control characters are each refused with the line and a way to write it.
"""

from __future__ import annotations

import difflib
import math
import re
from pathlib import Path
from typing import Any

import yaml

from ecs_zombie.errors import DataError
from ecs_zombie.filestamps import note_file
from ecs_zombie.limits import (
    MAX_YAML_ALIASES,
    MAX_YAML_BYTES,
    MAX_YAML_DEPTH,
    MAX_YAML_VALUES,
    YAML_INT_MAX,
    YAML_INT_MIN,
)


class YMap(dict[str, Any]):
    """A mapping that remembers where it came from."""

    file: str = ""
    line: int = 0
    key_lines: dict[str, int]

    def line_of(self, key: str) -> int:
        return getattr(self, "key_lines", {}).get(key, self.line)


class YList(list[Any]):
    file: str = ""
    line: int = 0
    item_lines: list[int]

    def line_of(self, index: int) -> int:
        lines = getattr(self, "item_lines", [])
        return lines[index] if 0 <= index < len(lines) else self.line


class _Loader(yaml.SafeLoader):
    """SafeLoader that bounds nesting and aliases as it composes (see the module docstring)."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.depth = 0
        self.aliases = 0
        self.nodes = 0

    def _line(self) -> int:
        return int(self.peek_event().start_mark.line) + 1

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            self.aliases += 1
            if self.aliases > MAX_YAML_ALIASES:
                raise DataError(f"more than {MAX_YAML_ALIASES} aliases (*name)", self.name, self._line())
            return super().compose_node(parent, index)
        self.nodes += 1
        if self.nodes > MAX_YAML_VALUES:
            raise DataError(f"more than {MAX_YAML_VALUES} values", self.name, self._line())
        self.depth += 1
        try:
            if self.depth > MAX_YAML_DEPTH:
                raise DataError(f"lists and mappings nested deeper than {MAX_YAML_DEPTH} levels", self.name,
                                self._line())
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


def _expansion(node: yaml.Node, name: str) -> None:
    """Refuse a document that, aliases expanded, would hold more than MAX_YAML_VALUES values or nest
    deeper than MAX_YAML_DEPTH (an alias can hang a deep branch under another), or refer to itself.
    Each node is counted once (memoised): the check is linear in the parsed document."""
    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    busy: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(node, False)]
    while stack:
        current, done = stack.pop()
        key = id(current)
        if key in size:
            continue
        children: list[yaml.Node] = []
        if isinstance(current, yaml.SequenceNode):
            children = list(current.value)
        elif isinstance(current, yaml.MappingNode):
            children = [n for pair in current.value for n in pair]
        if not done:
            if key in busy:
                raise DataError("an alias refers to the mapping or list that contains it", name,
                                current.start_mark.line + 1)
            busy.add(key)
            stack.append((current, True))
            stack.extend((child, False) for child in children if id(child) not in size)
            continue
        busy.discard(key)
        size[key] = 1 + sum(size[id(c)] for c in children)
        depth[key] = 1 + max((depth[id(c)] for c in children), default=0)
        if size[key] > MAX_YAML_VALUES:
            raise DataError(f"more than {MAX_YAML_VALUES} values once its aliases are expanded", name,
                            current.start_mark.line + 1)
        if depth[key] > MAX_YAML_DEPTH:
            raise DataError(f"lists and mappings nested deeper than {MAX_YAML_DEPTH} levels once its aliases are "
                            f"expanded", name, current.start_mark.line + 1)


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _refuse(what: str, hint: str) -> Any:
    def construct(loader: _Loader, node: yaml.Node) -> Any:
        raise DataError(f"{what} is not allowed here ({hint})", loader.name, node.start_mark.line + 1)

    return construct


def _construct_int(loader: _Loader, node: yaml.ScalarNode) -> int:
    if len(str(node.value)) > 30:
        raise DataError(f"the whole number {str(node.value)[:20]}... is too large", loader.name,
                        node.start_mark.line + 1)
    value = int(yaml.SafeLoader.construct_yaml_int(loader, node))
    if not YAML_INT_MIN <= value <= YAML_INT_MAX:
        raise DataError(f"the whole number {value} is outside what 64 bits hold ({YAML_INT_MIN}..{YAML_INT_MAX})",
                        loader.name, node.start_mark.line + 1)
    return value


def _construct_float(loader: _Loader, node: yaml.ScalarNode) -> float:
    value = float(yaml.SafeLoader.construct_yaml_float(loader, node))
    if not math.isfinite(value):
        raise DataError(f"{node.value!r} is not a finite number", loader.name, node.start_mark.line + 1)
    return value


def _construct_str(loader: _Loader, node: yaml.ScalarNode) -> str:
    value = str(loader.construct_scalar(node))
    bad = _CONTROL.search(value)
    if bad:
        raise DataError(f"text holds the control character {bad.group()!r}", loader.name, node.start_mark.line + 1)
    return value


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> YMap:
    loader.flatten_mapping(node)
    out = YMap()
    out.file = loader.name
    out.line = node.start_mark.line + 1
    out.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, str | int | float | bool) and key is not None:
            raise DataError("mapping keys must be plain values", loader.name, key_node.start_mark.line + 1)
        key = str(key) if not isinstance(key, str) else key
        if key in out:
            raise DataError(f"duplicate key {key!r}", loader.name, key_node.start_mark.line + 1)
        out[key] = loader.construct_object(value_node, deep=True)
        out.key_lines[key] = key_node.start_mark.line + 1
    return out


def _construct_sequence(loader: _Loader, node: yaml.SequenceNode) -> YList:
    out = YList(loader.construct_object(child, deep=True) for child in node.value)
    out.file = loader.name
    out.line = node.start_mark.line + 1
    out.item_lines = [child.start_mark.line + 1 for child in node.value]
    return out


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)  # type: ignore[arg-type]
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)  # type: ignore[arg-type]
_Loader.add_constructor("tag:yaml.org,2002:int", _construct_int)  # type: ignore[arg-type]
_Loader.add_constructor("tag:yaml.org,2002:float", _construct_float)  # type: ignore[arg-type]
_Loader.add_constructor("tag:yaml.org,2002:str", _construct_str)  # type: ignore[arg-type]
for _tag, _what, _hint in (
    ("timestamp", "a date or time", "write it in quotes to keep it as text"),
    ("binary", "binary data (!!binary)", "write it as text"),
    ("set", "a set (!!set)", "write a list"),
    ("omap", "an ordered map (!!omap)", "write a mapping"),
    ("pairs", "a list of pairs (!!pairs)", "write a mapping"),
):
    _Loader.add_constructor(f"tag:yaml.org,2002:{_tag}", _refuse(_what, _hint))


def display_path(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def load_yaml(path: Path) -> Any:
    """Load one YAML file; any problem (missing, too large, malformed) is a `DataError`."""
    name = display_path(path)
    note_file(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise DataError("no such file", name) from None
    except OSError as exc:
        raise DataError(f"cannot read: {exc.strerror}", name) from None
    if len(raw) > MAX_YAML_BYTES:
        raise DataError(f"file is larger than {MAX_YAML_BYTES} bytes", name)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise DataError("not UTF-8 text", name) from None
    try:
        loader = _Loader(text)
    except yaml.reader.ReaderError as exc:
        raise DataError(f"malformed YAML: character {_char(exc.character)!r} at position {exc.position} is not "
                        f"allowed", name) from None
    loader.name = name
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _expansion(node, name)
        return loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise DataError(f"malformed YAML: {_one_line(exc.problem or exc.context)}", name, line) from None
    except yaml.reader.ReaderError as exc:
        raise DataError(f"malformed YAML: character {_char(exc.character)!r} at position {exc.position} is not "
                        f"allowed", name) from None
    except yaml.YAMLError as exc:
        raise DataError(f"malformed YAML: {_one_line(str(exc))}", name) from None
    except RecursionError:
        raise DataError("malformed YAML: nested too deeply", name) from None
    finally:
        loader.dispose()


def _char(character: Any) -> str:
    return chr(character) if isinstance(character, int) else str(character)


def _one_line(text: str | None) -> str:
    return " ".join(str(text or "").split())


def where(node: Any, key: str | int | None = None) -> tuple[str | None, int | None]:
    """The file and line of `node[key]` (or of the node itself)."""
    file = getattr(node, "file", None) or None
    if isinstance(node, YMap) and isinstance(key, str):
        return file, node.line_of(key)
    if isinstance(node, YList) and isinstance(key, int):
        return file, node.line_of(key)
    return file, getattr(node, "line", None) or None


def fail(message: str, node: Any, key: str | int | None, field: str) -> DataError:
    file, line = where(node, key)
    return DataError(message, file, line, field)


_TYPES: dict[type, str] = {int: "a whole number", str: "text", bool: "true or false", float: "a number"}


def need(node: Any, key: str, kind: type | tuple[type, ...], field: str, default: Any = ...) -> Any:
    """`node[key]`, checked to be of `kind`; missing is an error unless a default is given."""
    if not isinstance(node, dict):
        raise fail("expected a mapping", node, None, field)
    if key not in node:
        if default is ...:
            raise fail(f"missing field {key!r}", node, None, field)
        return default
    value = node[key]
    if not _is(value, kind):
        raise fail(f"expected {_describe(kind)}, got {_describe(type(value))}", node, key, f"{field}.{key}")
    return value


def need_int(node: Any, key: str, field: str, lo: int, hi: int, default: Any = ...) -> Any:
    """`node[key]`, a whole number from `lo` to `hi` (missing: `default`, or an error without one)."""
    value = need(node, key, int, field, default)
    if isinstance(node, dict) and key in node and not lo <= value <= hi:
        raise fail(f"{key} must be from {lo} to {hi}, got {value}", node, key, f"{field}.{key}")
    return value


def _is(value: Any, kind: type | tuple[type, ...]) -> bool:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        return False
    if float in kinds and isinstance(value, int) and not isinstance(value, bool):
        return True
    return isinstance(value, kinds)


def _describe(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = []
    for k in kinds:
        if k in _TYPES:
            names.append(_TYPES[k])
        elif issubclass(k, dict):
            names.append("a mapping")
        elif issubclass(k, list):
            names.append("a list")
        elif k is type(None):
            names.append("nothing")
        else:
            names.append(k.__name__)
    return " or ".join(names)


def suggest(name: str, known: list[str] | tuple[str, ...]) -> str:
    """` (did you mean 'x'?)` for the known name nearest `name`, or nothing when none is near."""
    close = difflib.get_close_matches(str(name), list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def check_keys(node: Any, allowed: tuple[str, ...], field: str) -> None:
    """An unknown key in a mapping is an error, with the nearest known key as a suggestion: a
    misspelt `entites:` must not silently become a scenario with no pieces."""
    if not isinstance(node, dict):
        return
    for key in node:
        if key not in allowed:
            close = difflib.get_close_matches(str(key), allowed, n=1)
            hint = f"did you mean {close[0]!r}?" if close else f"known: {', '.join(allowed)}"
            raise fail(f"unknown key {key!r} ({hint})", node, key, f"{field}.{key}" if field else str(key))


def plain(value: Any) -> Any:
    """Strip the line bookkeeping: plain dicts and lists (for hashing and saving)."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value
