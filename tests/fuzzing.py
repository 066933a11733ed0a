"""Structure-aware fuzzing of what users hand ecs-zombie: saves, replays, YAML files and arguments.

Shared by the property tests (`tests/engine/test_engine_fuzz.py`, a few hundred variants) and the
campaign script (`benchmarks/fuzz.py`, tens of thousands). A variant starts from a real file: its
content is decoded (the msgpack bodies nested in a replay too; YAML as plain data), one to three
mutations are applied at places drawn from its structure (a value of another type, a number pushed
to an edge, a key deleted or misspelt, a list reshaped, a node copied over another), and it is
encoded again with its checksums recomputed, so that what meets it is the loader's content checks,
not the checksum. YAML variants also get what only text can hold: aliases that expand
exponentially, deep nesting, dates, huge integers, control characters and foreign tags.

Each variant runs through the command in-process (`run_command`) under a deadline and an
address-space cap, and is judged (`judge`): exit status 0, 1 or 2; on status 2, every line on
stderr an `error:` line; no traceback; no hang; no memory blow-up.
"""

from __future__ import annotations

import contextlib
import copy
import datetime
import os
import resource
import shutil
import signal
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import msgpack
import yaml

from ecs_zombie import canonical

ROOT = Path(__file__).resolve().parent.parent
PREFABS = ROOT / "prefabs"


class Chooser(Protocol):
    """Where choices come from: a seeded `random.Random` (the campaign) or hypothesis (the tests)."""

    def below(self, n: int) -> int: ...


class RandomChooser:
    def __init__(self, rng: Any) -> None:
        self.rng = rng

    def below(self, n: int) -> int:
        return int(self.rng.randrange(n)) if n > 1 else 0


class DataChooser:
    """Choices drawn by hypothesis (`st.data()`), so that failures shrink."""

    def __init__(self, data: Any) -> None:
        from hypothesis import strategies as st

        self.data, self.st = data, st

    def below(self, n: int) -> int:
        return int(self.data.draw(self.st.integers(0, max(n - 1, 0)))) if n > 1 else 0


def pick(ch: Chooser, items: list[Any] | tuple[Any, ...]) -> Any:
    return items[ch.below(len(items))]


# -- trees ----------------------------------------------------------------------------------------


@dataclass
class Nested:
    """msgpack bytes inside a msgpack value (a replay's initial state, a tick's state), decoded so
    that mutations reach inside; packed again on the way out."""

    value: Any


def _nested(value: bytes) -> Any:
    if len(value) < 2 or not (value[0] >> 4 in (0x8, 0x9) or value[0] in (0xDC, 0xDD, 0xDE, 0xDF)):
        return value
    try:
        inner = msgpack.unpackb(value, raw=False, strict_map_key=False)
    except Exception:
        return value
    return Nested(_open(inner)) if isinstance(inner, dict | list) else value


def _open(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _open(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_open(v) for v in value]
    if isinstance(value, bytes):
        return _nested(value)
    return value


def _close(value: Any, rehash: bool) -> Any:
    if isinstance(value, Nested):
        return _pack(_close(value.value, rehash))
    if isinstance(value, dict):
        return {k: _close(v, rehash) for k, v in value.items()}
    if isinstance(value, list):
        out = [_close(v, rehash) for v in value]
        # A replay's tick record [tick, digest, systems, state]: the digest follows the state.
        if rehash and len(out) == 4 and isinstance(out[1], bytes) and len(out[1]) == 16 and isinstance(out[3], bytes):
            out[1] = canonical.digest(out[3])
        return out
    return value


def _pack(value: Any) -> bytes:
    try:
        return canonical.pack(value)
    except Exception:
        return msgpack.packb(value, use_bin_type=True, strict_types=False)  # type: ignore[no-any-return]


Path_ = tuple[Any, ...]


def paths(tree: Any, limit: int = 20_000) -> list[Path_]:
    """Every place in a tree (nested bodies included), breadth first, at most `limit`."""
    out: list[Path_] = [()]
    queue: list[tuple[Path_, Any]] = [((), tree)]
    while queue and len(out) < limit:
        here, node = queue.pop(0)
        if isinstance(node, Nested):
            node = node.value
        children = list(node.items()) if isinstance(node, dict) else list(enumerate(node)) \
            if isinstance(node, list) else []
        for key, child in children:
            out.append((*here, key))
            queue.append(((*here, key), child))
    return out


def get(tree: Any, path: Path_) -> Any:
    for key in path:
        if isinstance(tree, Nested):
            tree = tree.value
        tree = tree[key]
    return tree


def parent_of(tree: Any, path: Path_) -> Any:
    node = get(tree, path[:-1])
    return node.value if isinstance(node, Nested) else node


# -- value mutations ------------------------------------------------------------------------------

EDGE_INTS = [0, 1, -1, 2, 7, 255, 256, 65_535, 2**31 - 1, 2**31, 2**32, 2**53 + 1, 2**63 - 1, 2**63, 2**64 - 1,
             -(2**31), -(2**63)]
ODD_VALUES: list[Any] = [None, True, False, 0, -1, 1.5, "", "x", "zombie", "ü\u202e", "\x00\x07", "9" * 40, b"",
                         b"\x00" * 16, [], [0], [[0]], {}, {"a": 1}, 2**64 - 1, -(2**63)]


def other_value(ch: Chooser, old: Any, yaml_values: bool = False) -> Any:
    """A value of a different kind, or an edge of the same kind."""
    pool = list(ODD_VALUES)
    if yaml_values:
        pool = [v for v in pool if not isinstance(v, bytes)] + [
            datetime.date(2024, 1, 31), datetime.datetime(2024, 1, 31, 12, 0), 2**64, 10**30, -(10**30),
            float("nan"), float("inf"), b"\x00\x01", {1, 2}, 1_000_000_000, "\x1b[31mred", "a\tb\rc"]
    kind = ch.below(4)
    if kind == 0 and isinstance(old, int) and not isinstance(old, bool):
        return pick(ch, [old + 1, old - 1, -old, old * 1000, *EDGE_INTS])
    if kind == 1 and isinstance(old, str):
        return pick(ch, ["", old + "x", old[:-1], old.upper(), old + "\n", old * 50, "\x00" + old, old[::-1]])
    if kind == 2 and isinstance(old, list) and old:
        return pick(ch, [old[:1], old[:-1], old + old, [old], old[0], list(reversed(old)), [*old, old[0]]])
    return pick(ch, pool)


def mutate_tree(ch: Chooser, tree: Any, yaml_values: bool = False) -> str:
    """One mutation at a place drawn from the tree; returns what it did (for the reports)."""
    where = paths(tree)
    path = pick(ch, where[1:]) if len(where) > 1 else ()
    if not path:
        return "none"
    parent = parent_of(tree, path)
    key = path[-1]
    old = parent[key]
    old = old.value if isinstance(old, Nested) else old
    op = pick(ch, ["replace", "replace", "replace", "delete", "insert", "swap", "transplant", "wrap", "rename"])
    if op == "delete":
        del parent[key]
    elif op == "insert":
        if isinstance(parent, dict):
            parent[pick(ch, ["zz", f"{key}s", f"_{key}", "schema", "entities", "version"])] = other_value(
                ch, old, yaml_values)
        else:
            parent.insert(ch.below(len(parent) + 1), copy.deepcopy(old) if ch.below(2) else other_value(
                ch, old, yaml_values))
    elif op == "swap" and isinstance(parent, list) and len(parent) > 1:
        other = ch.below(len(parent))
        parent[key], parent[other] = parent[other], parent[key]
    elif op == "transplant":
        donor = get(tree, pick(ch, where))
        parent[key] = copy.deepcopy(donor.value if isinstance(donor, Nested) else donor)
    elif op == "wrap":
        parent[key] = [old] if ch.below(2) else {"x": old}
    elif op == "rename" and isinstance(parent, dict) and isinstance(key, str) and key:
        i = ch.below(len(key))
        new = pick(ch, [key[:i] + key[i + 1:], key[:i] + "x" + key[i:], key.upper(), key + "s"])
        if new not in parent:
            parent[new] = parent.pop(key)
    else:
        op = "replace"
        parent[key] = other_value(ch, old, yaml_values)
    return f"{op} at {'/'.join(map(str, path))[:80]}"


# -- saves and replays ----------------------------------------------------------------------------


def mutate_save(ch: Chooser, data: bytes, mutations: int = 0) -> tuple[bytes, list[str]]:
    """A variant of a save or replay file's bytes: content mutated, checksums recomputed."""
    outer = msgpack.unpackb(data, raw=False)
    for _attempt in range(20):
        body = _open(msgpack.unpackb(outer["body"], raw=False))
        done = [mutate_tree(ch, body) for _ in range(mutations or 1 + ch.below(3))]
        try:
            packed = _pack(_close(body, rehash=ch.below(4) != 0))
            break
        except (OverflowError, TypeError, ValueError):  # a number msgpack cannot hold: mutate again
            continue
    else:
        packed, done = outer["body"], ["none"]
    outer["body"] = packed
    outer["blake2b"] = canonical.digest(packed)
    return msgpack.packb(outer, use_bin_type=True), done


# -- YAML -----------------------------------------------------------------------------------------


def layout(dest: Path) -> None:
    """A copy of the shipped data as one folder: rulesets at its top, every file they name beside them."""
    shutil.copytree(PREFABS, dest, dirs_exist_ok=True, ignore=shutil.ignore_patterns("rulesets"))
    for f in sorted((PREFABS / "rulesets").glob("*.yaml")):
        shutil.copyfile(f, dest / f.name)


def yaml_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.yaml"))


BOMBS = [
    # Nine levels of nine aliases (9**9 expansions) in about 500 bytes: the classic "billion laughs".
    "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)),
    "a: &a [1, 2]\nb: &b {k1: *a, k2: *a, k3: *a, k4: *a}\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b]\n"
    "d: &d [*c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d]\n",
    "x: " + "[" * 400 + "]" * 400 + "\n",
    "x:\n" + "".join("  " * i + "- \n" for i in range(1, 300)),
    "x: " + "{a: " * 300 + "1" + "}" * 300 + "\n",
    "a: &a {<<: {k: v}}\nb: &b {<<: [*a, *a, *a, *a]}\nc: {<<: [*b, *b, *b, *b]}\n",
    "x: !!python/object/apply:os.system ['true']\n",
    "x: !!binary aGVsbG8=\n",
    "x: !!set {a, b}\n",
    "x: !!omap [{a: 1}, {b: 2}]\n",
    "x: 2024-01-31\n",
    "x: 2024-01-31T12:00:00Z\n",
    "x: 123456789012345678901234567890\n",
    "x: .nan\n",
    "x: \"\\x00\\x1b\"\n",
    "x: &a [*a]\n",
    "\ufeffx: 1\n",
    "x: \"" + "a" * 200_000 + "\"\n",
]


def _text_mutation(ch: Chooser, text: str) -> tuple[str, str]:
    kind = ch.below(6)
    bomb = pick(ch, BOMBS)
    if kind == 0:
        return bomb, "replace the file"
    lines = text.splitlines(keepends=True)
    at = ch.below(len(lines) + 1)
    if kind == 1:  # a bomb's lines in the middle of the file, indented like the line there
        indent = ""
        if at < len(lines):
            stripped = lines[at].lstrip(" -")
            indent = " " * (len(lines[at]) - len(stripped))
        return "".join(lines[:at]) + "".join(indent + b for b in bomb.splitlines(keepends=True)) + "".join(
            lines[at:]), f"insert at line {at + 1}"
    if kind == 2:
        return text.replace(": ", ": !!str ", 1) if ch.below(2) else text.replace("\n", "\n\t", 1), "tabs and tags"
    if kind == 3 and lines:
        line = lines[min(at, len(lines) - 1)]
        return text.replace(line, line * 2, 1), "a duplicated line"
    if kind == 4:
        return text[: ch.below(len(text) + 1)], "truncated"
    return text + "\n" + bomb, "append"


def mutate_yaml(ch: Chooser, text: str) -> tuple[str, list[str]]:
    """A variant of a YAML file: mostly structural (parsed, mutated, dumped), sometimes textual."""
    if ch.below(5) == 0:
        mutated, what = _text_mutation(ch, text)
        return mutated, [what]
    tree = yaml.safe_load(text)
    holder = [tree]
    done = [mutate_tree(ch, holder, yaml_values=True) for _ in range(1 + ch.below(3))]
    try:
        return yaml.safe_dump(holder[0] if holder else None, sort_keys=False, allow_unicode=ch.below(2) == 0), done
    except yaml.YAMLError:
        return text, ["not dumpable"]


# -- running a command ----------------------------------------------------------------------------


class Hung(BaseException):
    """Raised by the deadline's alarm: a BaseException, so that no `except Exception` swallows it."""


@dataclass
class Outcome:
    code: int | None
    stdout: str = ""
    stderr: str = ""
    trace: str = ""
    seconds: float = 0.0
    peak_mb: float = 0.0
    hung: bool = False


def _vm(field_name: str) -> float:
    """A field of /proc/self/status in MB (VmHWM: peak resident; VmSize: address space)."""
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field_name + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    def alarm(signum: int, frame: Any) -> None:
        raise Hung(f"still running after {seconds} s")

    # CPU time (a hang here is a loop): on a loaded machine wall time would flag slow, not stuck, runs.
    # It rings again every quarter of the time until disarmed: a ring that lands in a collector's
    # callback is lost (see `session.trial`).
    old = signal.signal(signal.SIGPROF, alarm)
    signal.setitimer(signal.ITIMER_PROF, seconds, seconds / 4)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


@contextlib.contextmanager
def memory_cap(mb: float) -> Iterator[None]:
    """At most `mb` more address space while the block runs (a blow-up is a MemoryError, not a swap storm)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = int((_vm("VmSize") + mb) * 1024 * 1024)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def forget() -> None:
    """Drop the process's caches of loaded rulesets and scenarios. They notice an edited file by its
    modification time and size (`ecs_zombie.filestamps`); a variant written in place within the
    file system's clock tick, with a value of the same length, would keep both."""
    from ecs_zombie import batch, ruleset, scenario

    ruleset._CACHE.clear()
    scenario._CACHE.clear()
    batch._SCENARIOS.clear()


def run_command(args: list[str], cwd: Path, seconds: float = 5.0, memory_mb: float = 1024,
                fresh: bool = False) -> Outcome:
    """`ecs-zombie ARGS` in this process, in `cwd`, under a deadline and a memory cap (`fresh`: with
    no ruleset or scenario cached from an earlier command)."""
    from typer.testing import CliRunner

    from ecs_zombie.cli import app

    if fresh:
        forget()

    runner = CliRunner()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.suppress(OSError):
            Path("/proc/self/clear_refs").write_text("5")  # resets VmHWM: the peak below is this run's
        start = time.process_time()  # CPU time, like the deadline: the machine may be loaded
        outcome = Outcome(None)
        try:
            with memory_cap(memory_mb), deadline(seconds):
                result = runner.invoke(app, args, catch_exceptions=True)
            outcome.code, outcome.stdout, outcome.stderr = result.exit_code, result.stdout, result.stderr
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                outcome.code = None
                outcome.trace = "".join(traceback.format_exception(result.exception))
        except Hung:
            outcome.hung = True
        outcome.seconds = time.process_time() - start
        outcome.peak_mb = _vm("VmHWM")
        return outcome
    finally:
        os.chdir(here)


@dataclass
class Verdict:
    problem: str = ""  # empty: as it should be
    detail: str = ""
    counts: dict[str, int] = field(default_factory=dict)


def judge(outcome: Outcome, seconds: float = 5.0) -> Verdict:
    """Exit status 0, 1 or 2; on 2, one `error:` line per error and nothing else; no traceback, no hang."""
    if outcome.hung:
        return Verdict("hang", f"over {seconds} s")
    if outcome.code is None:
        last = outcome.trace.strip().splitlines()[-1] if outcome.trace.strip() else "?"
        kind = "memory" if "MemoryError" in last else "traceback"
        return Verdict(kind, last[:300])
    if "Traceback (most recent call last)" in outcome.stderr + outcome.stdout:
        return Verdict("traceback", outcome.stderr[-300:])
    if outcome.code not in (0, 1, 2):
        return Verdict("exit status", str(outcome.code))
    if outcome.code == 2:
        lines = [line for line in outcome.stderr.splitlines() if line.strip()]
        if not lines or not all(line.startswith("error: ") for line in lines):
            return Verdict("not one line", " | ".join(lines)[:300])
    if outcome.seconds > seconds:
        return Verdict("hang", f"{outcome.seconds:.1f} s")
    return Verdict()


def error_line(outcome: Outcome) -> str:
    lines = [line for line in outcome.stderr.splitlines() if line.strip()]
    return lines[0] if lines else ""


Runner = Callable[[list[str], Path], Outcome]
