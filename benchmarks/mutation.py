"""Mutation testing: how many deliberate one-token changes to the engine, the rules and their tables
the test suite notices.

    python benchmarks/mutation.py PACKAGE [--sample N] [--seed S] [--changed-since GIT_REF]
                                          [--jobs J] [--json FILE] [--list]

PACKAGE is `engine` (ecs_zombie/*.py) or a rules package (`core`, `shambling`, `stalingrad`, `sza`,
`director`: systems/<package>/*.py, plus every number and boolean of prefabs/<package>/ and the
parameter defaults and system parameters of that game's rulesets). See benchmarks/mutation/README.md.

How a run goes:
1. A scratch copy of the checkout is made per job (the real files are never written).
2. Baseline: the package's test folders run once under coverage.py with one context per test (in
   pytest and in every Python process a test starts), giving each test's lines and duration. The
   result is cached by the content of every file, so a second run starts at once.
3. Mutants: comparison flips, arithmetic swaps, integer constants, and/or, `not` removed,
   True/False, bare-call statements dropped; YAML numbers +1 and -1 and booleans flipped. Docstrings,
   annotations, `if TYPE_CHECKING:` blocks, `raise` and `assert` statements (error messages), f-strings,
   string building and `__repr__` are left alone.
4. Each mutant runs only the tests that execute its line (fastest first, stopping at the first
   failure); a mutant of a line run at import time runs all of the package's tests, and a YAML mutant
   the package's whole test folders. A mutant on a line that no test executes survives unrun. Each
   run has a timeout (a few times the baseline) and a memory cap; both count as killed, apart.
"""

from __future__ import annotations

import argparse
import ast
import bisect
import concurrent.futures
import contextlib
import gzip
import hashlib
import io
import itertools
import json
import os
import queue
import random
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tokenize
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent / "mutation"
TOOL_VERSION = "1"  # part of the baseline cache key: bump when the baseline's meaning changes
CONTEXT_VARIABLE = "ECS_MUTATION_CONTEXT"
TIMES_VARIABLE = "ECS_MUTATION_TIMES"


@dataclass(frozen=True)
class Package:
    name: str
    sources: tuple[str, ...]  # globs relative to the checkout
    tests: tuple[str, ...]  # test folders and files that should catch the package's mutants
    yaml_dir: str | None = None  # prefabs/<game>/: every number and boolean
    rulesets: tuple[str, ...] = ()  # prefabs/rulesets/<id>.yaml: parameter defaults, system params


def _rulesets_of(game: str) -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in (ROOT / "prefabs" / "rulesets").glob("*.yaml")
                        if p.stem == game or p.stem.startswith(game + "-")))


# Tests outside a rules package's folder that pin its rules too: the hybrids play its systems, and
# two engine files hold every ruleset to its declarations (each decision kind documented and given
# its action forms). A mutant there is a change a developer would see, so they count.
RULES_TESTS = ("tests/hybrids", "tests/test_all_rulesets.py", "tests/engine/test_engine_introspect.py",
               "tests/engine/test_engine_env.py")


def packages() -> dict[str, Package]:
    games = {name: Package(name, (f"systems/{name}/*.py",), (f"tests/{name}", *RULES_TESTS),
                           f"prefabs/{name}", _rulesets_of(name))
             for name in ("shambling", "stalingrad", "sza", "director")}
    return {"engine": Package("engine", ("ecs_zombie/*.py",), ("tests/engine", "tests/test_all_rulesets.py")),
            "core": Package("core", ("systems/core/*.py",), ("tests/shambling", "tests/director", *RULES_TESTS)),
            # the systems hybrids add, and the pieces they graft onto a host game's (the hybrid rulesets'
            # files are their host game's: `_rulesets_of`)
            "hybrids": Package("hybrids", ("systems/hybrids/*.py",), RULES_TESTS, "prefabs/hybrids"),
            **games}


# ---------------------------------------------------------------------------------------------------
# Mutants


@dataclass(frozen=True)
class Mutant:
    file: str  # relative to the checkout
    line: int  # 1-based, where the replaced text starts
    col: int  # 0-based character column
    end_line: int
    end_col: int
    original: str  # the replaced text
    replacement: str
    operator: str  # compare, arith, number, boolop, not, bool, call, yaml-number, yaml-bool
    scope: str  # "function" (select tests by coverage), "import" or "data" (run all the tests)
    host: tuple[int, int]  # the lines whose coverage selects the tests
    names: tuple[str, ...] = ()  # import scope: the names the mutated statement defines; data: its keys

    @property
    def mutation(self) -> str:
        """How the mutant reads in reports and in <package>.equivalent.yaml."""
        if self.operator == "call":
            first = self.original.strip().splitlines()[0]
            return f"drop {first if len(first) <= 60 else first[:57] + '...'}"
        if self.operator == "not":
            return "remove not"
        return f"{self.original} -> {self.replacement}"

    @property
    def ident(self) -> str:
        return f"{self.file}:{self.line}:{self.col}:{self.mutation}"


class Source:
    """A file's text with conversions between ast positions (UTF-8 byte columns) and offsets."""

    def __init__(self, rel: str, text: str) -> None:
        self.rel = rel
        self.text = text
        self.lines = text.splitlines(keepends=True)
        self.starts = [0]
        for ln in self.lines:
            self.starts.append(self.starts[-1] + len(ln))

    def char_col(self, line: int, byte_col: int) -> int:
        return len(self.lines[line - 1].encode()[:byte_col].decode(errors="replace"))

    def offset(self, line: int, col: int) -> int:
        return self.starts[line - 1] + col

    def apply(self, m: Mutant) -> str:
        a, b = self.offset(m.line, m.col), self.offset(m.end_line, m.end_col)
        assert self.text[a:b] == m.original, (m, self.text[a:b])
        return self.text[:a] + m.replacement + self.text[b:]

    def line_text(self, line: int) -> str:
        return self.lines[line - 1].rstrip("\n") if 0 < line <= len(self.lines) else ""


COMPARE_FLIPS = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "==", "in": "not in",
                 "not in": "in", "is": "is not", "is not": "is"}
ARITH_SWAPS = {"+": "-", "-": "+", "*": "//", "//": "*"}
AUG_SWAPS = {"+=": "-=", "-=": "+=", "*=": "//=", "//=": "*="}
# Keyword arguments that tune speed or memory, never behaviour: `@dataclass(slots=True)`,
# `@lru_cache(maxsize=...)`.
TUNING_KEYWORDS = frozenset({"slots", "maxsize"})
_ARITH_OPS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)  # not `/`: mostly paths
_COMPOUND = (ast.If, ast.While, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith, ast.Try, ast.FunctionDef,
             ast.AsyncFunctionDef, ast.ClassDef, ast.Match)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _is_main_guard(test: ast.expr) -> bool:
    return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__")


def _is_text(node: ast.expr) -> bool:
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str))


class _PyMutants:
    """Walks one module's syntax tree and lists its mutants."""

    def __init__(self, src: Source) -> None:
        self.src = src
        self.tree = ast.parse(src.text)
        tokens = list(tokenize.generate_tokens(io.StringIO(src.text).readline))
        self.tokens = [t for t in tokens if t.type in (tokenize.OP, tokenize.NAME)]
        self.token_starts = [t.start for t in self.tokens]
        self.out: list[Mutant] = []

    # positions -------------------------------------------------------------------------------
    def start(self, node: ast.AST) -> tuple[int, int]:
        return node.lineno, self.src.char_col(node.lineno, node.col_offset)  # type: ignore[attr-defined]

    def end(self, node: ast.AST) -> tuple[int, int]:
        end_line: int = node.end_lineno  # type: ignore[attr-defined]
        return end_line, self.src.char_col(end_line, node.end_col_offset)  # type: ignore[attr-defined]

    def tokens_between(self, a: tuple[int, int], b: tuple[int, int]) -> list[tokenize.TokenInfo]:
        i = bisect.bisect_left(self.token_starts, a)
        found = []
        while i < len(self.tokens) and self.tokens[i].start < b:
            t = self.tokens[i]
            if t.string not in ("(", ")"):
                found.append(t)
            i += 1
        return found

    # emitting -------------------------------------------------------------------------------
    def add(self, start: tuple[int, int], end: tuple[int, int], replacement: str, operator: str,
            stack: Sequence[ast.AST]) -> None:
        a, b = self.src.offset(*start), self.src.offset(*end)
        scope, host = self.scope(stack, start[0])
        names = _defined_names(stack) if scope == "import" else ()
        self.out.append(Mutant(self.src.rel, start[0], start[1], end[0], end[1], self.src.text[a:b], replacement,
                               operator, scope, host, names))

    def scope(self, stack: Sequence[ast.AST], line: int) -> tuple[str, tuple[int, int]]:
        """Whether the mutant runs inside a function body (tests chosen by coverage) or at import
        time (module level, class bodies, decorators, default values: every test), and the lines
        whose coverage says which tests run it."""
        stmt = next((n for n in reversed(stack) if isinstance(n, ast.stmt)), None)
        in_body = False
        for parent, child in itertools.pairwise(stack):
            if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)) and child in parent.body:
                in_body = True
            if isinstance(parent, ast.Lambda) and child is parent.body:
                in_body = True
        if stmt is None:
            return "import", (line, line)
        first: int = stmt.lineno
        last: int = line if isinstance(stmt, _COMPOUND) else stmt.end_lineno or line
        return ("function" if in_body else "import"), (first, max(first, last))

    # walking -------------------------------------------------------------------------------
    def run(self) -> list[Mutant]:
        self.visit(self.tree, [])
        return sorted(self.out, key=lambda m: (m.line, m.col, m.replacement))

    def visit(self, node: ast.AST, stack: list[ast.AST]) -> None:
        stack = [*stack, node]
        if isinstance(node, (ast.Raise, ast.Assert, ast.JoinedStr)):
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name == "__repr__":
                return
            for d in node.decorator_list:
                self.visit(d, stack)
            self.visit_arguments(node.args, stack)
            for s in node.body:
                self.visit(s, stack)
            return
        if isinstance(node, ast.Lambda):
            self.visit_arguments(node.args, stack)
            self.visit(node.body, stack)
            return
        if isinstance(node, ast.AnnAssign):
            if node.value is not None:
                self.visit(node.value, stack)
            return
        if isinstance(node, ast.keyword) and node.arg in TUNING_KEYWORDS:
            return
        if isinstance(node, ast.If) and (_is_type_checking(node.test) or _is_main_guard(node.test)):
            for s in node.orelse:
                self.visit(s, stack)
            return
        self.mutate(node, stack)
        for child in ast.iter_child_nodes(node):
            self.visit(child, stack)

    def visit_arguments(self, args: ast.arguments, stack: list[ast.AST]) -> None:
        for d in [*args.defaults, *args.kw_defaults]:
            if d is not None:
                self.visit(d, [*stack, args])

    def mutate(self, node: ast.AST, stack: list[ast.AST]) -> None:
        if isinstance(node, ast.Compare):
            left: ast.expr = node.left
            for op_node, right in zip(node.ops, node.comparators, strict=True):
                toks = self.tokens_between(self.end(left), self.start(right))
                text = " ".join(t.string for t in toks)
                if text in COMPARE_FLIPS and toks:
                    self.add(toks[0].start, toks[-1].end, COMPARE_FLIPS[text], "compare", stack)
                del op_node
                left = right
        elif isinstance(node, ast.BinOp) and isinstance(node.op, _ARITH_OPS):
            if _is_text(node.left) or _is_text(node.right):
                return
            toks = self.tokens_between(self.end(node.left), self.start(node.right))
            if len(toks) == 1 and toks[0].string in ARITH_SWAPS:
                self.add(toks[0].start, toks[0].end, ARITH_SWAPS[toks[0].string], "arith", stack)
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, _ARITH_OPS):
            if _is_text(node.value):
                return
            toks = self.tokens_between(self.end(node.target), self.start(node.value))
            if len(toks) == 1 and toks[0].string in AUG_SWAPS:
                self.add(toks[0].start, toks[0].end, AUG_SWAPS[toks[0].string], "arith", stack)
        elif isinstance(node, ast.BoolOp):
            # Every operator of the chain at once: `a and b and c` -> `a or b or c`.
            swap = "or" if isinstance(node.op, ast.And) else "and"
            for prev, nxt in itertools.pairwise(node.values):
                toks = self.tokens_between(self.end(prev), self.start(nxt))
                if len(toks) == 1 and toks[0].string in ("and", "or"):
                    self.add(toks[0].start, toks[0].end, swap, "boolop", stack)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            self.add(self.start(node), self.start(node.operand), "", "not", stack)
        elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
            self.add(self.start(node), self.end(node), str(not node.value), "bool", stack)
        elif isinstance(node, ast.Constant) and isinstance(node.value, int):
            n = 0 if node.value == 1 else node.value + 1
            text = self.src.text[self.src.offset(*self.start(node)):self.src.offset(*self.end(node))]
            self.add(self.start(node), self.end(node), hex(n) if text.lower().startswith("0x") else str(n), "number",
                     stack)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            self.add(self.start(node), self.end(node), "pass", "call", stack)


def _target_names(targets: Iterable[ast.expr]) -> list[str]:
    return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]


def _defined_names(stack: Sequence[ast.AST]) -> tuple[str, ...]:
    """What a mutant run at import time changes, by name: the assigned names of a module-level or
    class-level assignment, the class or function whose decorator or default value it is in. Empty
    when unsure (then every test runs), and for a module-level call statement: it registers something
    (a determinizer's concealed fields, a secret roll, an observation) that any test may read through
    the registry, never by the names the call uses."""
    top = stack[1] if len(stack) > 1 else None
    names: list[str] = []
    if isinstance(top, ast.ClassDef):
        names.append(top.name)
        inner = stack[2] if len(stack) > 2 else None
        if isinstance(inner, (ast.Assign, ast.AnnAssign)):
            names += _target_names(inner.targets if isinstance(inner, ast.Assign) else [inner.target])
        elif isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.append(inner.name)
    elif isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef)):
        names.append(top.name)
    elif isinstance(top, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        names += _target_names(top.targets if isinstance(top, ast.Assign) else [top.target])
    return tuple(dict.fromkeys(names))


def references(sources: Iterable[Source]) -> dict[str, set[tuple[str, int]]]:
    """Every line of the package's Python files that mentions a name (as a name, an attribute or a
    keyword argument), by name."""
    out: dict[str, set[tuple[str, int]]] = {}
    for src in sources:
        if not src.rel.endswith(".py"):
            continue
        for node in ast.walk(ast.parse(src.text)):
            name = (node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute)
                    else node.arg if isinstance(node, ast.keyword) else None)
            if name:
                out.setdefault(name, set()).add((src.rel, node.lineno))  # type: ignore[attr-defined]
    return out


def python_mutants(rel: str, text: str) -> list[Mutant]:
    return _PyMutants(Source(rel, text)).run()


def _yaml_scalars(node: yaml.Node, path: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], yaml.ScalarNode]]:
    if isinstance(node, yaml.ScalarNode):
        yield path, node
    elif isinstance(node, yaml.SequenceNode):
        for i, child in enumerate(node.value):
            yield from _yaml_scalars(child, (*path, i))
    elif isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield from _yaml_scalars(value, (*path, key.value if isinstance(key, yaml.ScalarNode) else "?"))


_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"
_BOOL_TAG = "tag:yaml.org,2002:bool"


def yaml_mutants(rel: str, text: str, ruleset: bool = False) -> list[Mutant]:
    """Numbers +1 and -1, booleans flipped. In a ruleset file, only the parameters' defaults and the
    systems' params (the rest is structure: ids, tick names, the hard stop)."""
    src = Source(rel, text)
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    out: list[Mutant] = []
    if root is None:
        return out
    for path, node in _yaml_scalars(root, ()):
        if ruleset and not ((len(path) == 3 and path[0] == "parameters" and path[2] == "default")
                            or ("params" in path and path[0] == "phases")):
            continue
        start = (node.start_mark.line + 1, node.start_mark.column)
        end = (node.end_mark.line + 1, node.end_mark.column)
        original = text[node.start_mark.index:node.end_mark.index]
        if node.style is not None:  # quoted: text, not a number
            continue
        host = (start[0], start[0])
        keys = tuple(str(k) for k in path if isinstance(k, str))
        if node.tag == _BOOL_TAG:
            value = original.lower() in ("true", "yes", "on")
            flipped = "false" if value else "true"
            out.append(Mutant(rel, *start, *end, original, flipped, "yaml-bool", "data", host, keys))
        elif node.tag in (_INT_TAG, _FLOAT_TAG):
            try:
                number: float = int(original) if node.tag == _INT_TAG else float(original)
            except ValueError:
                continue
            for delta in (1, -1):
                out.append(Mutant(rel, *start, *end, original, repr(number + delta), "yaml-number", "data", host,
                                  keys))
    assert all(src.apply(m) for m in out)
    return out


def all_mutants(pkg: Package, root: Path) -> tuple[list[Mutant], dict[str, Source]]:
    sources: dict[str, Source] = {}
    mutants: list[Mutant] = []
    for pattern in pkg.sources:
        for path in sorted(root.glob(pattern)):
            rel = path.relative_to(root).as_posix()
            sources[rel] = Source(rel, path.read_text(encoding="utf-8"))
            mutants += python_mutants(rel, sources[rel].text)
    yaml_files: list[tuple[Path, bool]] = []
    if pkg.yaml_dir:
        yaml_files += [(p, False) for p in sorted((root / pkg.yaml_dir).rglob("*.yaml"))]
    yaml_files += [(root / "prefabs" / "rulesets" / f"{r}.yaml", True) for r in pkg.rulesets]
    for path, is_ruleset in yaml_files:
        rel = path.relative_to(root).as_posix()
        sources[rel] = Source(rel, path.read_text(encoding="utf-8"))
        mutants += yaml_mutants(rel, sources[rel].text, ruleset=is_ruleset)
    return mutants, sources


# ---------------------------------------------------------------------------------------------------
# Equivalent mutants


@dataclass(frozen=True)
class Equivalent:
    file: str
    line: int
    mutation: str
    reason: str
    code: str = ""  # the original line, stripped: still matches when the line number has moved
    col: int = 0  # the column as --list prints it, where the line holds the same mutation twice

    def matches(self, m: Mutant, src: Source) -> bool:
        if m.file != self.file or m.mutation != self.mutation or (self.col and m.col + 1 != self.col):
            return False
        if m.line == self.line:
            return not self.code or src.line_text(m.line).strip() == self.code.strip()
        # The line moved: found by its text, when that text is on one line of the file only.
        same = [i for i in range(1, len(src.lines) + 1) if src.line_text(i).strip() == self.code.strip()]
        return bool(self.code) and same == [m.line]


def stale_equivalents(equivalents: list[Equivalent], mutants: list[Mutant],
                      sources: dict[str, Source]) -> list[Equivalent]:
    """The entries that match none of `mutants`: their line moved to where its text is no longer
    unique, or changed, or went (run on a whole package: a partial selection leaves entries out)."""
    by_file: dict[str, list[Mutant]] = {}
    for m in mutants:
        by_file.setdefault(m.file, []).append(m)
    return [e for e in equivalents
            if not any(e.matches(m, sources[m.file]) for m in by_file.get(e.file, ()))]


def load_equivalents(name: str) -> list[Equivalent]:
    path = HERE / f"{name}.equivalent.yaml"
    if not path.is_file():
        return []
    doc = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    out = []
    for i, entry in enumerate(doc):
        missing = {"file", "line", "mutation", "reason"} - set(entry or {})
        if missing:
            raise SystemExit(f"{path.relative_to(ROOT)}: entry {i + 1}: missing {', '.join(sorted(missing))}")
        out.append(Equivalent(str(entry["file"]), int(entry["line"]), str(entry["mutation"]), str(entry["reason"]),
                              str(entry.get("code", "")), int(entry.get("col", 0))))
    return out


# ---------------------------------------------------------------------------------------------------
# Scratch copies and the baseline

_IGNORED = {".git", ".venv", "venv", "__pycache__", ".hypothesis", ".pytest_cache", ".mypy_cache", ".ruff_cache",
            "build", "dist", ".tmp-mutation"}


def _ignore(directory: str, names: list[str]) -> set[str]:
    skipped = {n for n in names if n in _IGNORED or n.endswith(".egg-info")}
    if Path(directory).name == "saves":
        skipped |= {n for n in names if n != "README.md"}
    return skipped


def make_scratch(root: Path, dest: Path) -> Path:
    shutil.copytree(root, dest, ignore=_ignore, symlinks=True)
    return dest


_KEYED = ("ecs_zombie", "systems", "prefabs", "tests", "cli.py", "pyproject.toml",
          "benchmarks/mutation/pytest_contexts.py")


def content_key(root: Path, pkg: Package) -> str:
    """What the baseline depends on: the code, the data, the tests and the plugin (not this file)."""
    h = hashlib.sha256(f"{TOOL_VERSION}/{pkg}".encode())
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if path.is_file() and not (set(rel.parts) & _IGNORED) and rel.as_posix().startswith(_KEYED) \
                and path.suffix in (".py", ".yaml", ".yml", ".toml", ".json"):
            h.update(rel.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:20]


def file_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def read_run(path: str) -> dict[str, Any]:
    """An earlier run's --json, plain or gzipped (`.json.gz`: how benchmarks/mutation/results/ keeps them)."""
    data = Path(path).read_bytes()
    if path.endswith(".gz"):
        data = gzip.decompress(data)
    doc: dict[str, Any] = json.loads(data.decode("utf-8"))
    return doc


def load_previous(path: str, sources: dict[str, Source]) -> dict[str, dict[str, Any]]:
    """`--resume`: the mutants an earlier run (its --json) killed, timed out or crashed, by id, for the
    files whose content is unchanged since. Tests only added since then cannot bring them back; a
    changed file's mutants all run again."""
    doc = read_run(path)
    same = {f for f, h in doc.get("files", {}).items() if f in sources and file_hash(sources[f].text) == h}
    return {e["id"]: e for e in doc.get("mutants", [])
            if e.get("file") in same and e.get("status") in ("killed", "timeout", "crash")}


def mutant_ids(path: str) -> set[str]:
    """`--unseen`: the id of every mutant an earlier run's --json holds."""
    doc = read_run(path)
    return {e["id"] for e in doc.get("mutants", [])}


def same_mutants(path: str, mutants: list[Mutant], sources: dict[str, Source]) -> list[Mutant]:
    """`--same-as`: the mutants an earlier run's --json holds, each found again by its file, its
    line's text, column and mutation, at the nearest line to where it was (a change above it may
    have moved it; a line whose text is repeated elsewhere in the file is told apart by distance)."""
    doc = read_run(path)
    found: dict[tuple[str, str, int, str], list[Mutant]] = {}
    for m in mutants:
        found.setdefault((m.file, sources[m.file].line_text(m.line).strip(), m.col, m.mutation), []).append(m)
    chosen: dict[str, Mutant] = {}
    for e in doc.get("mutants", []):
        candidates = found.get((e["file"], e["original_line"].strip(), e["col"] - 1, e["mutation"]), [])
        if candidates:
            m = min(candidates, key=lambda c: (abs(c.line - e["line"]), c.line))
            chosen[m.ident] = m
    return sorted(chosen.values(), key=lambda m: (m.file, m.line, m.col, m.replacement))


def _clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("COVERAGE_", "ECS_MUTATION_", "PYTEST_")) and k not in (
               "PYTHONPATH", "ECS_ZOMBIE_TEST_INSTALLED", "ECS_ZOMBIE_EXPECT_COMPILED")}
    env["PYTHONHASHSEED"] = env.get("PYTHONHASHSEED", "0")
    return env


@dataclass
class Baseline:
    tests: dict[str, dict[str, Any]]  # node id -> {"seconds": float, "outcome": str}
    lines: dict[str, dict[int, list[str]]]  # file -> line -> node ids ("" = at import)
    seconds: float

    def passing(self) -> list[str]:
        return [t for t, v in self.tests.items() if v["outcome"] == "passed"]


def run_baseline(pkg: Package, scratch: Path, files: Iterable[str], log: Any) -> Baseline:
    work = Path(tempfile.mkdtemp(prefix="baseline-", dir=scratch.parent))
    (work / "cov").mkdir()
    include = ",\n    ".join(str(scratch / f) for f in sorted(files))
    rc = work / "coveragerc"
    rc.write_text(f"[run]\ndata_file = {work / 'cov' / '.coverage'}\nparallel = true\n"
                  f"include =\n    {include}\ncontext = ${{{CONTEXT_VARIABLE}}}\npatch = _exit\n", encoding="utf-8")
    times = work / "times.json"
    env = _clean_env()
    env.update(COVERAGE_PROCESS_START=str(rc), PYTHONPATH=str(HERE), **{TIMES_VARIABLE: str(times)})
    cmd = [sys.executable, "-m", "pytest", "-p", "pytest_contexts", "-p", "no:cacheprovider", "-o", "addopts=",
           "-q", "--basetemp", str(work / "tmp"), *pkg.tests]
    log(f"baseline: {' '.join(cmd[2:])} (under coverage)")
    start = time.perf_counter()
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace") as out:
        proc = subprocess.Popen(cmd, cwd=scratch, env=env, stdout=out, stderr=subprocess.STDOUT, preexec_fn=_nice)
        try:
            proc.wait()
        finally:
            _kill_group(proc)
        out.seek(0)
        output = out.read()
    seconds = time.perf_counter() - start
    tail = output.strip().splitlines()[-1:] or ["(no output)"]
    log(f"baseline: {tail[0]} in {seconds:.0f} s")
    if not times.is_file():
        raise SystemExit(f"the baseline run did not finish (exit {proc.returncode}):\n{output[-5000:]}")
    tests: dict[str, dict[str, Any]] = json.loads(times.read_text(encoding="utf-8"))
    import coverage

    cov = coverage.Coverage(config_file=str(rc))
    cov.combine(strict=True)
    data = cov.get_data()
    lines: dict[str, dict[int, list[str]]] = {}
    for measured in data.measured_files():
        rel = Path(measured).resolve().relative_to(scratch.resolve()).as_posix()
        by_line = data.contexts_by_lineno(measured)
        lines[rel] = {int(ln): sorted(set(ctx)) for ln, ctx in by_line.items()}
    shutil.rmtree(work, ignore_errors=True)
    return Baseline(tests, lines, seconds)


def cached_baseline(pkg: Package, root: Path, scratch: Path, files: Iterable[str], log: Any,
                    refresh: bool) -> Baseline:
    cache_dir = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "ecs-zombie-mutation"
    path = cache_dir / f"{pkg.name}-{content_key(root, pkg)}.json"
    if path.is_file() and not refresh:
        doc = json.loads(path.read_text(encoding="utf-8"))
        log(f"baseline: cached ({path})")
        return Baseline(doc["tests"], {f: {int(k): v for k, v in ls.items()} for f, ls in doc["lines"].items()},
                        doc["seconds"])
    base = run_baseline(pkg, scratch, files, log)
    cache_dir.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(asdict(base)), encoding="utf-8")
    return base


# ---------------------------------------------------------------------------------------------------
# Running mutants


@dataclass
class Result:
    mutant: Mutant
    status: str  # killed, timeout, crash, survived, uncovered, equivalent, error
    seconds: float = 0.0
    tests: int = 0
    killed_by: str = ""
    reason: str = ""
    detail: str = ""


@dataclass
class Limits:
    timeout_factor: float = 3.0
    timeout_floor: float = 20.0  # seconds added to every limit: interpreter and pytest start-up
    memory_mb: int = 4096


def _nice() -> None:
    """In the child, before pytest starts: its own process group (killed whole at the end, workers
    included), a lower priority, and Ctrl-C delivered as usual even when this tool runs as a
    background job (whose shell ignores SIGINT: the tests of Ctrl-C handling would hang), a hang-up
    too under `nohup` (which ignores SIGHUP: a test that sends one would see nothing happen)."""
    os.setsid()
    for sig in (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)
    with contextlib.suppress(OSError):
        os.nice(max(0, NICENESS - os.nice(0)))  # 10 in all, whether or not the tool itself runs under nice


def _kill_group(proc: subprocess.Popen[Any] | int) -> None:
    """Whatever the tests left running (a batch's workers, a fork server) goes with the run."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc if isinstance(proc, int) else proc.pid, signal.SIGKILL)


NICENESS = 10
STOP = threading.Event()
_RUNNING: set[int] = set()  # process groups of the tests running now
_RUNNING_LOCK = threading.Lock()
_FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+)", re.M)


class Runner:
    """benchmarks/mutation/runner.py in one scratch copy: runs pytest in a forked child per mutant,
    its imports paid once. Falls back to nothing: a runner that dies is started again."""

    def __init__(self, scratch: Path) -> None:
        self.scratch = scratch
        self.proc: subprocess.Popen[bytes] | None = None
        self.buf = b""

    def _start(self) -> subprocess.Popen[bytes]:
        if self.proc is None or self.proc.poll() is not None:
            env = _clean_env()
            env["PYTHONDONTWRITEBYTECODE"] = "1"  # a mutant's bytecode must never be cached
            self.proc = subprocess.Popen([sys.executable, str(HERE / "runner.py")], cwd=self.scratch, env=env,
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, preexec_fn=_nice)
            self.buf = b""
        return self.proc

    def _read(self, timeout: float | None) -> dict[str, Any] | None:
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.buf:
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], remaining)
            if not ready:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                raise RuntimeError("the mutation runner stopped")
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return json.loads(line)  # type: ignore[no-any-return]

    def run(self, args: list[str], out: Path, memory_mb: int, timeout: float) -> int | None:
        """The pytest exit status (minus a signal number), or None on timeout (the tests are killed)."""
        proc = self._start()
        assert proc.stdin is not None
        proc.stdin.write((json.dumps({"args": args, "out": str(out), "memory_mb": memory_mb}) + "\n").encode())
        proc.stdin.flush()
        started = self._read(None)
        assert started is not None
        pid = int(started["pid"])
        with _RUNNING_LOCK:
            _RUNNING.add(pid)
        try:
            done = self._read(timeout)
            if done is None:
                _kill_group(pid)
                self._read(None)
                return None
            return int(done["status"])
        finally:
            _kill_group(pid)  # what the tests left running (a batch's workers) goes too
            with _RUNNING_LOCK:
                _RUNNING.discard(pid)

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            _kill_group(self.proc.pid)
            self.proc.wait()


def run_mutant(m: Mutant, src: Source, runner: Runner, tests: Sequence[str], budget: float, limits: Limits) -> Result:
    scratch = runner.scratch
    target = scratch / m.file
    original = target.read_bytes()
    pyc_dir = target.parent / "__pycache__"
    for stale in pyc_dir.glob(f"{target.stem}.*.pyc") if pyc_dir.is_dir() else ():
        stale.unlink()
    shutil.rmtree(scratch / ".hypothesis", ignore_errors=True)
    timeout = limits.timeout_factor * budget + limits.timeout_floor
    # The runner imported hypothesis before pytest started: its plugin cannot be assert-rewritten (harmless).
    args = ["-x", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "-rfE", "-W",
            "ignore::pytest.PytestAssertRewriteWarning", "--basetemp", str(scratch / ".tmp-mutation"), *tests]
    out = scratch / ".mutant-output.txt"
    start = time.perf_counter()
    try:
        target.write_text(src.apply(m), encoding="utf-8")
        try:
            code = runner.run(args, out, limits.memory_mb, timeout)
        except RuntimeError as exc:
            runner.close()
            return Result(m, "error", time.perf_counter() - start, len(tests), detail=str(exc))
        text = out.read_text(encoding="utf-8", errors="replace") if out.is_file() else ""
    finally:
        target.write_bytes(original)
    seconds = time.perf_counter() - start
    failed = _FAILED.findall(text)
    by = failed[0] if failed else ""
    tail = "\n".join(text.strip().splitlines()[-15:])
    if code is None or "Failed: Timeout >" in text:
        return Result(m, "timeout", seconds, len(tests), by, detail=f"over {timeout:.0f} s")
    if code < 0 or "MemoryError" in text or code == 3:
        return Result(m, "crash", seconds, len(tests), by, detail=tail)
    if code == 0:
        return Result(m, "survived", seconds, len(tests))
    if code in (1, 2, 4):  # failed; interrupted; a test module that no longer imports
        return Result(m, "killed", seconds, len(tests), by or "collection or start-up error")
    return Result(m, "error", seconds, len(tests), detail=tail)


def test_mentions(root: Path, pkg: Package) -> dict[str, str]:
    """The text of every test file of the package's folders, by path."""
    out: dict[str, str] = {}
    for entry in pkg.tests:
        path = root / entry
        for f in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            out[f.relative_to(root).as_posix()] = f.read_text(encoding="utf-8")
    return out


def _likely_first(m: Mutant, passing: list[str], texts: dict[str, str]) -> list[str]:
    """Every test for a table's value (any test may read it), those likeliest to notice it first:
    the tests of files that name more of the value's keys (`inspire`, `range`) or its table's file
    come before the rest, each group fastest first. A killed mutant then stops sooner; the verdict
    is the same, since a survivor still runs them all."""
    words = [re.compile(rf"\b{re.escape(w)}\b") for w in (*m.names, Path(m.file).stem) if len(w) > 2]
    score = {f: sum(1 for w in words if w.search(text)) for f, text in texts.items()}
    return sorted(passing, key=lambda t: -score.get(t.split("::")[0], 0))  # stable: fastest first within a score


def select_tests(m: Mutant, base: Baseline, passing: list[str],
                 refs: dict[str, set[tuple[str, int]]], texts: dict[str, str] | None = None) -> list[str] | None:
    """The tests to run for a mutant, fastest first; None when no test executes its line.

    A mutant run at import time runs the tests that execute a line mentioning a name it defines
    (a constant, a class, a function with a mutated default) and the tests of every test file that
    mentions it, or every test when there are none."""
    if m.scope == "import" and m.names:
        users = {ctx for name in m.names for f, ln in refs.get(name, ()) for ctx in base.lines.get(f, {}).get(ln, ())}
        users.discard("")
        words = [re.compile(rf"\b{re.escape(name)}\b") for name in m.names]
        files = tuple(f + "::" for f, text in (texts or {}).items() if any(w.search(text) for w in words))
        ordered = [t for t in passing if t in users or t.startswith(files)]
        return ordered or passing
    if m.scope == "data":
        return _likely_first(m, passing, texts or {})
    if m.scope != "function":
        return passing
    by_line = base.lines.get(m.file, {})
    chosen: set[str] = set()
    for ln in range(m.host[0], m.host[1] + 1):
        for ctx in by_line.get(ln, ()):
            if ctx == "":
                return passing
            chosen.add(ctx)
    ordered = [t for t in passing if t in chosen]
    return ordered or None


# ---------------------------------------------------------------------------------------------------
# The command


def changed_lines(root: Path, ref: str, files: Iterable[str]) -> dict[str, set[int]]:
    """Lines of `files` changed in the working tree since `ref` (added or modified; new files whole)."""
    files = list(files)
    proc = subprocess.run(["git", "diff", "--unified=0", "--no-color", ref, "--", *files], cwd=root,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"git diff {ref}: {proc.stderr.strip()}")
    out: dict[str, set[int]] = {}
    current = ""
    for line in proc.stdout.splitlines():
        if line.startswith("+++ "):
            current = line[6:] if line.startswith("+++ b/") else ""
        elif line.startswith("@@") and current:
            hunk = re.match(r"@@ -\S+ \+(\d+)(?:,(\d+))? @@", line)
            if hunk:
                first, count = int(hunk.group(1)), int(hunk.group(2) or "1")
                out.setdefault(current, set()).update(range(first, first + count))
    untracked = subprocess.run(["git", "ls-files", "--others", "--exclude-standard", "--", *files], cwd=root,
                               capture_output=True, text=True).stdout.split()
    for rel in untracked:
        out[rel] = set(range(1, 1 + len((root / rel).read_text(encoding="utf-8").splitlines())))
    return out


def summarize(results: list[Result]) -> dict[str, int | float]:
    count = {s: sum(r.status == s for r in results)
             for s in ("killed", "timeout", "crash", "survived", "uncovered", "equivalent", "error")}
    caught = count["killed"] + count["timeout"] + count["crash"]
    scored = len(results) - count["equivalent"]
    return {"generated": len(results), **count, "score": round(100.0 * caught / scored, 1) if scored else 100.0}


def table(rows: list[tuple[str, dict[str, int | float]]]) -> str:
    head = ["module", "generated", "killed", "timeout", "crash", "survived", "(unrun)", "equivalent", "score"]
    lines = [head]
    for name, s in rows:
        survived = int(s["survived"]) + int(s["uncovered"])
        lines.append([name, str(s["generated"]), str(s["killed"]), str(s["timeout"]), str(s["crash"]),
                      str(survived), str(s["uncovered"]), str(s["equivalent"]), f"{s['score']:.1f}%"])
    widths = [max(len(r[i]) for r in lines) for i in range(len(head))]
    fmt = [r[0].ljust(widths[0]) + "  " + "  ".join(c.rjust(w) for c, w in zip(r[1:], widths[1:], strict=True))
           for r in lines]
    return "\n".join([fmt[0], "-" * len(fmt[0]), *fmt[1:-1], "-" * len(fmt[0]), fmt[-1]])


def main(argv: Sequence[str] | None = None) -> int:
    pkgs = packages()
    ap = argparse.ArgumentParser(prog="python benchmarks/mutation.py", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("package", choices=sorted(pkgs))
    ap.add_argument("--sample", type=int, metavar="N", help="a random sample of N mutants (fixed by --seed)")
    ap.add_argument("--seed", type=int, default=0, metavar="S", help="the sample's seed (default 0)")
    ap.add_argument("--unseen", action="append", metavar="FILE", help="leave out every mutant an earlier --json "
                    "run holds, whatever became of it (repeatable): a fresh --sample of the rest estimates the "
                    "score of mutants no test was written for")
    ap.add_argument("--same-as", metavar="FILE", help="only the mutants an earlier --json run holds (its sample, "
                    "say), found by their line's text where lines moved: with --resume FILE, its survivors "
                    "run again after tests were written for them")
    ap.add_argument("--changed-since", metavar="GIT_REF", help="only mutants of lines changed since GIT_REF")
    ap.add_argument("--jobs", type=int, default=1, metavar="J", help="mutants run at once (default 1)")
    ap.add_argument("--json", metavar="FILE", help="write every mutant's result and the survivors as JSON")
    ap.add_argument("--list", action="store_true", help="list the mutants and exit, running nothing")
    ap.add_argument("--file", action="append", metavar="PATH", help="only mutants of this file (repeatable)")
    ap.add_argument("--timeout-factor", type=float, default=3.0, help="per-mutant limit: this times the "
                    "baseline time of its tests, plus 20 s (default 3)")
    ap.add_argument("--memory-mb", type=int, default=4096, help="address-space cap per mutant run (default 4096)")
    ap.add_argument("--refresh-baseline", action="store_true", help="ignore the cached baseline")
    ap.add_argument("--resume", metavar="FILE", help="take the killed mutants of an earlier --json run (of files "
                    "unchanged since) and run only the rest: after adding tests")
    ap.add_argument("--keep", action="store_true", help="keep the scratch copies (their path is printed)")
    ap.add_argument("--stale", action="store_true", help="list the package's equivalent entries that match no "
                    "mutant of its code as it is now (moved or gone) and exit, 1 if there are any")
    args = ap.parse_args(argv)
    pkg = pkgs[args.package]

    def interrupted(signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    # `kill PID` (or Ctrl-C, even where a background job's shell ignores it) ends the run with the
    # results so far: the table and --json are written for the mutants that finished.
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, interrupted)
    if args.jobs < 1 or (args.sample is not None and args.sample < 1):
        ap.error("--jobs and --sample take a positive number")

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    mutants, sources = all_mutants(pkg, ROOT)
    if args.file:
        wanted = {Path(f).as_posix() for f in args.file}
        mutants = [m for m in mutants if m.file in wanted]
    if args.changed_since:
        changed = changed_lines(ROOT, args.changed_since, sorted({m.file for m in mutants}))
        mutants = [m for m in mutants if changed.get(m.file, set()) & set(range(m.line, m.end_line + 1))]
    if args.same_as:
        mutants = same_mutants(args.same_as, mutants, sources)
    if args.unseen:
        seen = set().union(*(mutant_ids(f) for f in args.unseen))
        mutants = [m for m in mutants if m.ident not in seen]
    if args.sample is not None and args.sample < len(mutants):
        mutants = sorted(random.Random(args.seed).sample(mutants, args.sample),
                         key=lambda m: (m.file, m.line, m.col, m.replacement))
    equivalents = load_equivalents(pkg.name)
    if args.stale:
        stale = stale_equivalents(equivalents, mutants, sources)
        for e in stale:
            print(f"{e.file}:{e.line}  {e.mutation}  {e.code or '(no code)'}")
        print(f"{len(stale)} of {len(equivalents)} equivalent entries match no mutant", file=sys.stderr)
        return 1 if stale else 0
    if args.list:
        for m in mutants:
            eq = next((e for e in equivalents if e.matches(m, sources[m.file])), None)
            print(f"{m.file}:{m.line}:{m.col + 1}  {m.operator:<11} {m.mutation}" + ("  [equivalent]" if eq else ""))
        print(f"{len(mutants)} mutants", file=sys.stderr)
        return 0
    if not mutants:
        log("no mutants to run")
        print(table([("total", summarize([]))]))
        return 0

    tmp = Path(tempfile.mkdtemp(prefix=f"ecs-zombie-mutation-{pkg.name}-"))
    log(f"scratch copies in {tmp}")
    results: list[Result] = []
    try:
        slots: queue.Queue[Runner] = queue.Queue()
        runners = [Runner(make_scratch(ROOT, tmp / f"job{j}")) for j in range(args.jobs)]
        for runner in runners:
            slots.put(runner)
        base = cached_baseline(pkg, ROOT, tmp / "job0", sources, log, args.refresh_baseline)
        passing = [t for t in sorted(base.passing(), key=lambda t: (base.tests[t]["seconds"], t))
                   if t.split("::")[0].startswith(pkg.tests)]
        not_passing = sorted(set(base.tests) - set(base.passing()))
        if not_passing:
            log(f"baseline: {len(not_passing)} tests do not pass and are never run for mutants: "
                + ", ".join(not_passing[:5]) + (" ..." if len(not_passing) > 5 else ""))
        limits = Limits(args.timeout_factor, memory_mb=args.memory_mb)
        refs = references(sources.values())
        texts = test_mentions(ROOT, pkg)
        todo: list[tuple[Mutant, list[str]]] = []
        previous = load_previous(args.resume, sources) if args.resume else {}
        for m in mutants:
            eq = next((e for e in equivalents if e.matches(m, sources[m.file])), None)
            if eq is not None:
                results.append(Result(m, "equivalent", reason=eq.reason))
                continue
            before = previous.get(m.ident)
            if before is not None:
                results.append(Result(m, before["status"], before.get("seconds", 0.0), before.get("tests_run", 0),
                                      before.get("killed_by", ""), detail="(from --resume)"))
                continue
            tests = select_tests(m, base, passing, refs, texts)
            if tests is None:
                results.append(Result(m, "uncovered"))
            else:
                todo.append((m, tests))
        resumed = f", {len(previous)} of them killed in {args.resume}" if args.resume else ""
        log(f"{len(mutants)} mutants: {len(todo)} to run, {len(mutants) - len(todo)} decided without running"
            f"{resumed}; {args.jobs} at once")
        lock = threading.Lock()
        started = time.perf_counter()

        def one(item: tuple[Mutant, list[str]]) -> Result | None:
            m, tests = item
            if STOP.is_set():
                return None
            slot = slots.get()
            try:
                budget = sum(base.tests[t]["seconds"] for t in tests)
                r = run_mutant(m, sources[m.file], slot, tests, budget, limits)
            finally:
                slots.put(slot)
            if STOP.is_set():  # killed by the interrupt: no result
                return None
            with lock:
                results.append(r)
                done = sum(1 for x in results if x.status not in ("equivalent", "uncovered")
                           and x.detail != "(from --resume)")
                elapsed = time.perf_counter() - started
                log(f"[{done}/{len(todo)} {elapsed:.0f}s] {r.status:<8} {m.file}:{m.line} {m.mutation}"
                    + (f"  ({r.killed_by})" if r.killed_by else ""))
            return r

        pool = concurrent.futures.ThreadPoolExecutor(args.jobs)
        futures = [pool.submit(one, item) for item in todo]
        try:
            for fut in concurrent.futures.as_completed(futures):
                fut.result()
        finally:
            STOP.set()  # on an interrupt: nothing new starts, the running tests are killed
            for fut in futures:
                fut.cancel()
            with _RUNNING_LOCK:
                for pid in _RUNNING:
                    _kill_group(pid)
            pool.shutdown(wait=True, cancel_futures=True)
            for runner in runners:
                runner.close()
    except KeyboardInterrupt:
        log("interrupted: the results so far")
    finally:
        if args.keep:
            log(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)

    results.sort(key=lambda r: (r.mutant.file, r.mutant.line, r.mutant.col, r.mutant.replacement))
    by_file: dict[str, list[Result]] = {}
    for r in results:
        by_file.setdefault(r.mutant.file, []).append(r)
    rows = [(f, summarize(rs)) for f, rs in sorted(by_file.items())] + [("total", summarize(results))]
    print(f"package {pkg.name}: {len(results)} mutants; tests: {' '.join(pkg.tests)}")
    print(table(rows))
    survivors = [r for r in results if r.status in ("survived", "uncovered")]
    errors = [r for r in results if r.status == "error"]
    for r in errors:
        log(f"error running {r.mutant.ident}:\n{r.detail}")
    if args.json:
        def entry(r: Result) -> dict[str, Any]:
            m = r.mutant
            src = sources[m.file]
            mutated_line = src.apply(m).splitlines()[m.line - 1] if m.replacement or m.line <= len(src.lines) else ""
            return {"id": m.ident, "file": m.file, "line": m.line, "col": m.col + 1, "operator": m.operator,
                    "mutation": m.mutation,
                    "original_line": src.line_text(m.line), "mutated_line": mutated_line, "status": r.status,
                    "tests_run": r.tests, "killed_by": r.killed_by, "seconds": round(r.seconds, 2),
                    "reason": r.reason, "detail": r.detail}

        doc = {"package": pkg.name, "tests": list(pkg.tests), "summary": summarize(results),
               "files": {f: file_hash(src.text) for f, src in sorted(sources.items())},
               "modules": {f: summarize(rs) for f, rs in sorted(by_file.items())},
               "survivors": [entry(r) for r in survivors], "mutants": [entry(r) for r in results]}
        Path(args.json).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        log(f"wrote {args.json}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
