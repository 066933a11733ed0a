"""Snapshots: the whole game at a tick boundary as canonical msgpack, written atomically.

File layout (msgpack map): `magic` "ecs-zombie", `kind` ("snapshot" or "replay"), `version`,
`body` (canonical msgpack bytes of the content) and `blake2b` (a 16-byte digest of `body`). The
body of a snapshot holds the format version, ruleset id and content hash, scenario, seed, tick,
parameters, policy, the RNG stream states, the remaining dice and card scripts, the event-log
position, the next entity id, a schema (component name -> field names) and every entity with its
components by registered name, sorted by id and name. Equal states give equal bytes.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import msgpack

from ecs_zombie import canonical
from ecs_zombie.dice import DiceScript
from ecs_zombie.errors import SaveError
from ecs_zombie.game import Game
from ecs_zombie.loading import body_of, check_version, collection_paused, load_state
from ecs_zombie.state import FORMAT_VERSION, game_state, state_bytes

__all__ = ["FORMAT_VERSION", "MAGIC", "check_version", "load", "read_file", "restore", "save", "state_bytes",
           "unwrap", "unwrap_body", "wrap", "write_atomic"]

MAGIC = "ecs-zombie"
MAX_FILE = 512 * 1024 * 1024
_LIMITS = {"max_bin_len": MAX_FILE, "max_str_len": 16 * 1024 * 1024, "max_array_len": 50_000_000,
           "max_map_len": 10_000_000, "max_ext_len": 0}


def restore(state: dict[str, Any] | bytes, name: str = "save") -> Game:
    """A live game from a snapshot's content (its canonical bytes, or those decoded to Python values),
    checked as it is decoded (`ecs_zombie.loading`): anything inconsistent is a one-line `SaveError`."""
    body = state if isinstance(state, bytes) else body_of(state, name)
    with collection_paused():
        saved, ruleset, entities = load_state(body, name)
        game = Game(ruleset, saved.seed, dict(saved.params), saved.players, saved.scenario, dict(saved.tables))
        game.tick, game.over, game.outcome = saved.tick, saved.over, saved.outcome
        game.policy_spec = saved.policy
        game.rng.set_state({k: list(v) for k, v in saved.rng.items()})
        game.rng.set_state({k: list(v) for k, v in saved.policy_rng.items()})
        game.dice_script = DiceScript(list(saved.dice_script))
        game.card_script = list(saved.card_script)
        game.log_base = saved.log_pos
        game.world.load(entities, saved.next_entity)
    if saved.resume_answers is not None:  # saved at a pending decision: re-run the tick up to it
        game.keep_tick_start = True
        game.resume_tick(list(saved.resume_answers))
    return game


# -- files ---------------------------------------------------------------------------------------


def wrap(kind: str, body: bytes) -> bytes:
    return canonical.pack({"blake2b": canonical.digest(body), "body": body, "kind": kind,
                           "magic": MAGIC, "version": FORMAT_VERSION})


def unwrap_body(data: bytes, kind: str, name: str) -> bytes:
    """The checked body of a file's bytes, still encoded; every way the wrapping can be wrong is a
    one-line `SaveError` (the body's content is checked where it is decoded: `ecs_zombie.loading`)."""
    try:
        outer = msgpack.unpackb(data, raw=False, strict_map_key=True, **_LIMITS)
    except Exception:
        raise SaveError(f"{name}: not an ecs-zombie file (unreadable or truncated)") from None
    if not isinstance(outer, dict) or outer.get("magic") != MAGIC:
        raise SaveError(f"{name}: not an ecs-zombie file")
    check_version(outer.get("version"), f"{name}: file")
    if outer.get("kind") != kind:
        raise SaveError(f"{name}: this is a {outer.get('kind')!r} file, not a {kind}")
    body = outer.get("body")
    if not isinstance(body, bytes) or outer.get("blake2b") != canonical.digest(body):
        raise SaveError(f"{name}: checksum mismatch, the file is corrupted")
    return body


def unwrap(data: bytes, kind: str, name: str) -> dict[str, Any]:
    """The checked body of a file's bytes, decoded to Python values (a mapping)."""
    body = unwrap_body(data, kind, name)
    try:
        content = msgpack.unpackb(body, raw=False, strict_map_key=True, **_LIMITS)
    except Exception:
        raise SaveError(f"{name}: corrupted body") from None
    if not isinstance(content, dict):
        raise SaveError(f"{name}: corrupted body")
    return content


def read_file(path: Path) -> bytes:
    from ecs_zombie.arguments import check_text

    check_text(str(path), "the file name")
    try:
        size = path.stat().st_size
        if size > MAX_FILE:
            raise SaveError(f"{path}: larger than {MAX_FILE} bytes")
        return path.read_bytes()
    except FileNotFoundError:
        raise SaveError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise SaveError(f"{path}: is a folder") from None
    except OSError as exc:
        raise SaveError(f"{path}: cannot read ({exc.strerror})") from None


def write_atomic(path: Path, data: bytes) -> None:
    """Temporary file in the same folder, fsync, rename: a crash never leaves a half-written file.

    The temporary file is named `.<name>.<pid>.<random>.tmp`. A write killed before its rename
    leaves one behind; the next write to the same path that succeeds removes those whose process is
    gone (or, made on another machine or with no pid in the name, that are over an hour old), so no
    litter outlives a good save."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise SaveError(f"{path}: cannot write ({exc.strerror})") from None
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)  # mkstemp makes 0600; a save is an ordinary file
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise SaveError(f"{path}: cannot write ({exc.strerror})") from None
    remove_litter(path)


STALE_SECONDS = 3600


def remove_litter(path: Path) -> list[Path]:
    """Remove the temporary files that interrupted writes to `path` left: those of a process that is
    gone, or over `STALE_SECONDS` old. Returns what was removed; never fails a save."""
    import time

    removed: list[Path] = []
    prefix = f".{path.name}."
    try:
        candidates = [p for p in path.parent.iterdir() if p.name.startswith(prefix) and p.name.endswith(".tmp")]
    except OSError:
        return removed
    for p in candidates:
        pid_text = p.name[len(prefix):].split(".", 1)[0]
        try:
            stale = time.time() - p.stat().st_mtime > STALE_SECONDS
            if not stale and pid_text.isascii() and pid_text.isdigit() and int(pid_text) != os.getpid():
                stale = not _alive(int(pid_text))
            if stale:
                p.unlink()
                removed.append(p)
        except OSError:
            continue
    return removed


def save_bytes(game: Game) -> bytes:
    """A save's bytes. Between ticks: the state. At a pending decision mid-tick: the state as the
    tick began and the answers given since, which loading re-runs to arrive at that same decision
    (it needs `game.keep_tick_start`; without it the save is refused rather than half made)."""
    if not game.in_tick:
        return wrap("snapshot", state_bytes(game))
    start = game.tick_start
    if start is None:
        raise SaveError("cannot save in the middle of a tick: this game keeps no copy of the tick's start "
                        "(drive it with Stepper(game, resumable=True), or save between ticks)")
    state = game_state(start)
    state["policy_rng"] = game.rng.get_state(policy=True)  # the policies' own streams, as they are now
    state["resume_answers"] = game.answers_this_tick()
    return wrap("snapshot", canonical.pack(dict(sorted(state.items()))))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except PermissionError:  # a live process of another user
        return True
    except (OSError, OverflowError, ValueError):  # no such process (or no such pid)
        return False
    return True


def save(game: Game, path: str | Path) -> bytes:
    """Write the game to `path` atomically (see `save_bytes`: between ticks, or at a pending decision
    of a game that keeps its tick's start); returns the bytes written."""
    data = save_bytes(game)
    write_atomic(Path(path), data)
    return data


def load(path: str | Path) -> Game:
    """The game a save holds, checked as it is decoded; a save made at a pending decision loads
    with that decision pending again (`game.pending`). Every problem is a one-line `SaveError`."""
    return restore(unwrap_body(read_file(Path(path)), "snapshot", str(path)), str(path))
