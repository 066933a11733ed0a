"""Reading YAML safely, keeping the line of every mapping and key for error messages.

Every mapping loads as a `YMap` (a dict that also knows its file and the line of each key), so a
validator can say `prefabs/rulesets/shambling.yaml:14: phases[1].systems[0]: unknown system`.
Only `yaml.SafeLoader` is used: no tag can construct a Python object.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ecs_zombie.errors import DataError


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
    pass


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

MAX_YAML_BYTES = 4 * 1024 * 1024


def display_path(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def load_yaml(path: Path) -> Any:
    """Load one YAML file; any problem (missing, too large, malformed) is a `DataError`."""
    name = display_path(path)
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
    loader = _Loader(text)
    loader.name = name
    try:
        return loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise DataError(f"malformed YAML: {exc.problem or exc.context}", name, line) from None
    except yaml.YAMLError as exc:
        raise DataError(f"malformed YAML: {exc}", name) from None
    finally:
        loader.dispose()


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


def plain(value: Any) -> Any:
    """Strip the line bookkeeping: plain dicts and lists (for hashing and saving)."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value
