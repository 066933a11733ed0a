"""Snapshots: the whole game at a tick boundary as canonical msgpack, written atomically.

File layout (msgpack map): `magic` "ecs-zombie", `kind` ("snapshot" or "replay"), `version`,
`body` (canonical msgpack bytes of the content) and `blake2b` (a 16-byte digest of `body`). The
body of a snapshot holds the format version, ruleset id and content hash, scenario, seed, tick,
parameters, policy, the RNG stream states, the remaining dice and card scripts, the event-log
position, the next entity id, a schema (component name -> field names) and every entity with its
components by registered name, sorted by id and name. Equal states give equal bytes.
"""

from __future__ import annotations

import copy
import os
import tempfile
from pathlib import Path
from typing import Any

import msgpack

from ecs_zombie import canonical
from ecs_zombie.components import by_name
from ecs_zombie.dice import DiceScript
from ecs_zombie.errors import SaveError
from ecs_zombie.game import Game
from ecs_zombie.ruleset import load_ruleset
from ecs_zombie.state import FORMAT_VERSION, state_bytes

MAGIC = "ecs-zombie"
MAX_FILE = 512 * 1024 * 1024
_LIMITS = {"max_bin_len": MAX_FILE, "max_str_len": 16 * 1024 * 1024, "max_array_len": 50_000_000,
           "max_map_len": 10_000_000, "max_ext_len": 0}


def restore(state: dict[str, Any]) -> Game:
    """A live game from a snapshot's content; a foreign or inconsistent content is a `SaveError`."""
    try:
        if state.get("format") != "ecs-zombie/snapshot":
            raise SaveError("not an ecs-zombie snapshot")
        if state["version"] > FORMAT_VERSION:
            raise SaveError(f"snapshot format {state['version']} is newer than this ecs-zombie ({FORMAT_VERSION})")
        ruleset = load_ruleset(state["ruleset"], state["tables"])
        if ruleset.content_hash != state["ruleset_hash"]:
            raise SaveError(f"the save was made with a different version of ruleset {state['ruleset']!r}")
        game = Game(ruleset, state["seed"], dict(state["params"]), state["players"], state["scenario"],
                    state["tables"])
        game.tick, game.over, game.outcome = state["tick"], state["over"], state["outcome"]
        game.policy_spec = state["policy"]
        game.rng.set_state(state["rng"])
        game.rng.set_state(state["policy_rng"])
        game.dice_script = DiceScript(list(state["dice_script"]))
        game.card_script = list(state["card_script"])
        game.log_base = state["log_pos"]
        schema = state["schema"]
        for ent, comps in state["entities"]:
            built = []
            for cname, values in comps:
                ctype = by_name(cname)
                if ctype is None:
                    raise SaveError(f"the save uses an unknown component {cname!r}")
                fields = schema[cname]
                # Copies: the live game must never share a list with the state it was built from.
                built.append(ctype.cls(**{f: copy.deepcopy(v) if isinstance(v, list | dict) else v
                                          for f, v in zip(fields, values, strict=True)}))
            game.world.create_with_id(ent, built)
        game.world.set_next_id(state["next_entity"])
        return game
    except SaveError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, AssertionError) as exc:
        raise SaveError(f"the save's content is inconsistent ({type(exc).__name__}: {exc})") from None


# -- files ---------------------------------------------------------------------------------------


def wrap(kind: str, body: bytes) -> bytes:
    return canonical.pack({"blake2b": canonical.digest(body), "body": body, "kind": kind,
                           "magic": MAGIC, "version": FORMAT_VERSION})


def unwrap(data: bytes, kind: str, name: str) -> dict[str, Any]:
    """The checked body of a file's bytes; every way it can be wrong is a one-line `SaveError`."""
    try:
        outer = msgpack.unpackb(data, raw=False, strict_map_key=True, **_LIMITS)
    except Exception:
        raise SaveError(f"{name}: not an ecs-zombie file (unreadable or truncated)") from None
    if not isinstance(outer, dict) or outer.get("magic") != MAGIC:
        raise SaveError(f"{name}: not an ecs-zombie file")
    version = outer.get("version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise SaveError(f"{name}: file format {version} is newer than this ecs-zombie reads ({FORMAT_VERSION})")
    if outer.get("kind") != kind:
        raise SaveError(f"{name}: this is a {outer.get('kind')!r} file, not a {kind}")
    body = outer.get("body")
    if not isinstance(body, bytes) or outer.get("blake2b") != canonical.digest(body):
        raise SaveError(f"{name}: checksum mismatch, the file is corrupted")
    try:
        content = msgpack.unpackb(body, raw=False, strict_map_key=True, **_LIMITS)
    except Exception:
        raise SaveError(f"{name}: corrupted body") from None
    if not isinstance(content, dict):
        raise SaveError(f"{name}: corrupted body")
    return content


def read_file(path: Path) -> bytes:
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
    """Temporary file in the same folder, fsync, rename: a crash never leaves a half-written file."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
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


def save(game: Game, path: Path) -> bytes:
    data = wrap("snapshot", state_bytes(game))
    write_atomic(path, data)
    return data


def load(path: Path) -> Game:
    return restore(unwrap(read_file(Path(path)), "snapshot", str(path)))
