"""What a system takes: its parameters, their annotations and defaults, read from the function.

A ruleset binds each system's parameters in YAML (`params: {rounds: $combat_rounds}`), and loading
checks them against the function like a type checker would: an unknown name, a missing value or a
value of the wrong type is an error naming the file, line and field, not a traceback when the
system first runs. Annotations are read from the function, or from its source file when the
function is compiled (mypyc keeps the names and defaults of a compiled function, not its
annotations or docstring).
"""

from __future__ import annotations

import ast
import importlib.util
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MISSING: Any = inspect.Parameter.empty


@dataclass(frozen=True, slots=True)
class Param:
    """One keyword parameter of a system (the first, `game`, excluded)."""

    name: str
    annotation: str
    default: Any = MISSING

    @property
    def required(self) -> bool:
        return self.default is MISSING


_SOURCE_DEFS: dict[tuple[str, str], ast.FunctionDef | ast.AsyncFunctionDef | None] = {}


def source_def(fn: Callable[..., Any]) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The function's definition parsed from its module's `.py` source (beside a compiled module)."""
    module, name = getattr(fn, "__module__", None), getattr(fn, "__name__", None)
    if not module or not name:
        return None
    key = (module, name)
    if key not in _SOURCE_DEFS:
        found = None
        try:
            spec = importlib.util.find_spec(module)
        except (ImportError, ValueError):
            spec = None
        origin = Path(spec.origin) if spec is not None and spec.origin else None
        if origin is not None and origin.suffix != ".py":
            origin = origin.with_name(origin.name.split(".", 1)[0] + ".py")
        if origin is not None and origin.is_file():
            tree = ast.parse(origin.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
                    found = node
                    break
        _SOURCE_DEFS[key] = found
    return _SOURCE_DEFS[key]


def docstring(fn: Callable[..., Any]) -> str:
    doc = inspect.getdoc(fn)
    if not doc:
        node = source_def(fn)
        doc = ast.get_docstring(node) if node is not None else None
    return doc or ""


def params_of(fn: Callable[..., Any]) -> list[Param]:
    """The system's parameters after `game`, with annotations as written in the source."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return []
    annotations: dict[str, str] = {}
    raw = getattr(fn, "__annotations__", None)
    if isinstance(raw, dict) and raw:
        annotations = {k: v if isinstance(v, str) else getattr(v, "__name__", str(v)) for k, v in raw.items()}
    else:
        node = source_def(fn)
        if node is not None:
            for arg in (*node.args.args, *node.args.kwonlyargs):
                if arg.annotation is not None:
                    annotations[arg.arg] = ast.unparse(arg.annotation)
    out = []
    for i, p in enumerate(sig.parameters.values()):
        if i == 0 or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        out.append(Param(p.name, annotations.get(p.name, ""), p.default))
    return out


def accepts_any(fn: Callable[..., Any]) -> bool:
    """Whether the function takes `**kwargs` (then any parameter name is accepted)."""
    try:
        return any(p.kind == p.VAR_KEYWORD for p in inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return True


def type_error(annotation: str, value: Any) -> str | None:
    """Why `value` does not fit `annotation` (as written in source), or None when it does or the
    annotation is beyond this checker (then the value is accepted)."""
    if not annotation:
        return None
    try:
        node = ast.parse(annotation, mode="eval").body
    except SyntaxError:
        return None
    verdict = _fits(node, value)
    if verdict is False:
        return f"expected {annotation}, got {_name(value)} {value!r}"
    return None


def _name(value: Any) -> str:
    return {bool: "bool", int: "int", float: "float", str: "str", list: "list", dict: "mapping"}.get(
        type(value), type(value).__name__)


_SIMPLE: dict[str, Callable[[Any], bool]] = {
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "float": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "bool": lambda v: isinstance(v, bool),
    "str": lambda v: isinstance(v, str),
    "None": lambda v: v is None,
    "list": lambda v: isinstance(v, list),
    "dict": lambda v: isinstance(v, dict),
}
_SEQUENCES = {"list", "Sequence", "tuple", "Iterable", "Collection"}
_MAPPINGS = {"dict", "Mapping"}


def _fits(node: ast.expr, value: Any) -> bool | None:
    """True or False when the annotation decides, None when it is beyond this checker."""
    if isinstance(node, ast.Constant) and node.value is None:
        return value is None
    if isinstance(node, ast.Name | ast.Attribute):
        name = node.id if isinstance(node, ast.Name) else node.attr
        if name in ("Any", "object"):
            return True
        check = _SIMPLE.get(name)
        return check(value) if check is not None else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = _fits(node.left, value), _fits(node.right, value)
        if left or right:
            return True
        return None if left is None or right is None else False
    if isinstance(node, ast.Subscript):
        base = node.value.id if isinstance(node.value, ast.Name) else getattr(node.value, "attr", "")
        args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if base in _SEQUENCES:
            if not isinstance(value, list):
                return False
            item = args[0]
            verdicts = [_fits(item, v) for v in value]
            return False if False in verdicts else True if all(verdicts) else None
        if base in _MAPPINGS:
            if not isinstance(value, dict):
                return False
            if len(args) == 2:
                verdicts = [_fits(args[0], k) for k in value] + [_fits(args[1], v) for v in value.values()]
                return False if False in verdicts else True if all(verdicts) else None
            return True
        if base == "Literal":
            return any(isinstance(a, ast.Constant) and a.value == value and type(a.value) is type(value)
                       for a in args)
    return None
